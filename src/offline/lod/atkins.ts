/**
 * ATKINS key selection for one uniformly sampled channel (Motion LOD, §3:
 * 宮沢・増山・奥澤・苗村, "Motion LOD", Namco; "AuTomatic Keyframe IdentificatioN Strategy").
 *
 * ## Namco's idea
 * A degree-m spline (C^{m−1}) is `s(x) = s₋₁(x) + Σⱼ cⱼ (x − xⱼ)₊^m`: its m-th derivative is a
 * step function that jumps at each knot. Motion data is discrete, so Motion LOD replaces the
 * derivative by a difference quotient, approximates that quotient by a step function with a
 * sequential threshold rule, and takes the steps as keys:
 *   (1) the first frame is a key;
 *   (2) the next key is where the quotient differs from its value at the previous key by
 *       more than ε;
 *   (3) repeat from that key until the data ends, but choose no key until the interval from
 *       the previous one reaches δ (a quotient can jump by ε within the smallest interval).
 * For cubics (m = 3) the 3rd quotient gives the C² keys; the 2nd and 1st quotients then give
 * C¹ and C⁰ keys "recursively, for the divided small intervals".
 *
 * ## Reading of the orders
 * The paper writes "m+1 階差分商" (the (m+1)-th difference quotient) and, for cubics, "the 3rd
 * difference quotient". Both are read here as the quotient built on m + 1 samples, i.e. the
 * m-th divided difference with frame spacing h = 1 frame:
 *
 *     q⁽ᵏ⁾ᵢ = f[tᵢ, …, tᵢ₊ₖ] = Δᵏyᵢ / k!          (k + 1 samples, i = 0 … n − 1 − k)
 *
 * which is f⁽ᵏ⁾/k! of the underlying curve. For a piecewise polynomial of degree m, q⁽ᵐ⁾ is
 * constant inside each piece and moves from one level to the next over the m − 1 windows that
 * straddle a knot — the step function Motion LOD approximates. (The (m+1)-th divided difference
 * would vanish inside the pieces and spike at knots: there is no step in it to approximate.)
 * So with the default m = 3: q⁽³⁾ finds C² keys, q⁽²⁾ C¹ keys, q⁽¹⁾ C⁰ keys.
 *
 * ## Units of ε and δ
 * Quotients are per frame (h = 1 frame, not seconds) and divided by the channel's range
 * `max − min` (option `scale` overrides it), so ε is dimensionless: a change of the k-th
 * per-frame divided difference, as a fraction of the channel's range. The same ε therefore
 * means the same thing for a channel in metres and one in radians, and the statistics of every
 * order are bounded (|q⁽ᵏ⁾| ≤ 2ᵏ⁻¹/k!). Resampling a clip at r times the frame rate scales
 * q⁽ᵐ⁾ by r⁻ᵐ, so ε is not frame-rate independent; `reduceChannel` searches ε per channel
 * anyway. δ (`minInterval`) is in frames; the default is 2: a key one frame after another
 * carries no shape (its segment has no interior sample), while a segment of two frames still
 * has one sample to fit.
 *
 * ## The passes (what this file implements)
 * 1. Order m (C^{m−1} keys): Namco's rule on q⁽ᵐ⁾ verbatim — reference r = q⁽ᵐ⁾ at the
 *    previous key, trigger at the first i with |q⁽ᵐ⁾ᵢ − r| > ε. Where to put the key: a knot at
 *    frame K disturbs the windows i = K−m+1 … K−1 and q⁽ᵐ⁾_K is the first window wholly after
 *    it; the first disturbed window already moves from the one before it by |jump|/m! (only
 *    its last sample sees the new piece). So the pass steps back from the trigger, over at most
 *    m − 1 windows, while the window before also moved from its own predecessor by more than
 *    ε/(2·m!), and puts the key m − 1 frames after the first disturbed window. On exact
 *    piecewise data this is the knot itself, whichever of its disturbed windows triggered,
 *    and for C¹ and C⁰ knots too (they show in q⁽ᵐ⁾ as a bump or a ± pair, whose first window
 *    also moves by |jump|/m!), and a slow drift left over from an earlier, unkeyed step does
 *    not pull it off the knot. A trigger window that did not itself move by ε/(2·m!) ends a
 *    slow drift, and is keyed where it starts. The new reference is q⁽ᵐ⁾ at the key: the
 *    first window after the knot.
 * 2. Orders k = m−1 … 1 (C^{k−1} keys), within each interval [a, b] between the keys found so
 *    far ("分割された小区間について再帰的に"): inside a piece q⁽ᵏ⁾ is not constant (it is a
 *    polynomial of degree m − k), so "differs from its value at the previous key" would key
 *    every smooth stretch; it is read as "jumps": the step of q⁽ᵏ⁾ at frame P, net of the
 *    change its own smooth trend explains,
 *
 *        J⁽ᵏ⁾_P = q⁽ᵏ⁾_P − q⁽ᵏ⁾_{P−k} − k(k+1)/2 · (q⁽ᵏ⁺¹⁾_{P−k−1} + q⁽ᵏ⁺¹⁾_P),
 *
 *    since q⁽ᵏ⁾ᵢ₊₁ − q⁽ᵏ⁾ᵢ = (k+1)·q⁽ᵏ⁺¹⁾ᵢ and the k gap windows' q⁽ᵏ⁺¹⁾ are taken as the
 *    linear interpolation between the two clean windows either side (exact when q⁽ᵏ⁺¹⁾ is
 *    linear, i.e. for every k ≥ m − 2, so for all orders of a cubic). On one polynomial of
 *    degree ≤ 3, J = 0; a C^{k−1} knot at K gives J = its jump at P = K. On smooth data J is
 *    a truncation error that varies slowly (J⁽¹⁾ = −12·q⁽⁴⁾, J⁽²⁾ = −120·q⁽⁵⁾), so the pass
 *    triggers at the first P where |J| exceeds by more than ε its own level k + 1 frames to
 *    either side (where a knot's pattern is 0). The key goes to the largest |J| among
 *    P … P+k; the scan restarts from it (windows never straddle a key) and keeps δ from both
 *    ends of the interval. Cross-talk, by hand and in the tests:
 *    - a C⁰ knot moves J⁽²⁾ one frame off on either side (−c/2, c, 0, −c, c/2 around it);
 *      the order-2 pass sees that J⁽¹⁾ jumps as much at the knot itself and leaves it to the
 *      order-1 pass, which keys it exactly;
 *    - a C² knot whose q⁽³⁾ jump c fell below ε shows in J⁽¹⁾ as −2c at the knot, so the
 *      order-1 pass keys it, on the knot, when ε < 2c.
 *    A pass needs 2k + 2 frames of room on each side of P, so a knot that close to a key is
 *    left to the order-m pass (it finds every join type once its q⁽ᵐ⁾ signature exceeds ε).
 *
 * Order-m keys come at least m frames apart (a change can only be told in a window that starts
 * after the previous key), so δ < m only binds the lower passes. The sequential rule is not
 * exactly monotone in ε: one key moving later changes every later reference. Measured on
 * sines (periods 12–200 frames, 400 frames): over 1/32-decade steps of ε the key count rose
 * in about 1 % of the steps; from ε to 10·ε it never rose.
 *
 * Each pass is one forward scan, so selection is O(m·n) time and memory, deterministic.
 * Allocates the quotient arrays; an offline tool, not for the frame loop.
 */
import { fail } from '../../assets/AnimationError.js';

/** Default δ, frames (see the file comment). */
export const DEFAULT_MIN_INTERVAL = 2;
/** Default spline degree m: cubics, Motion LOD's "at most 3 in practice". */
export const DEFAULT_DEGREE = 3;

/** Spline degree m of ATKINS and of the reconstruction: 1 (linear) to 3 (cubic). */
export type SplineDegree = 1 | 2 | 3;

/** Options of {@link selectKeys}. */
export interface SelectKeysOptions {
  /**
   * ε: the threshold on the change of a per-frame difference quotient of the range-normalized
   * channel (dimensionless, ≥ 0). Larger ε, fewer keys.
   */
  readonly epsilon: number;
  /** δ: the smallest interval between two keys, frames (integer ≥ 1, default 2). */
  readonly minInterval?: number;
  /** m: the spline degree (1, 2 or 3, default 3); q⁽ᵐ⁾ gives the C^{m−1} keys. */
  readonly degree?: SplineDegree;
  /**
   * What the values are divided by before taking quotients (> 0). Default: the channel's
   * range `max − min`, so ε is a fraction of it. A constant channel gets the two end keys.
   */
  readonly scale?: number;
}

/** What {@link selectKeysWithOrders} found. */
export interface KeySelection {
  /** Key frame indices, strictly ascending; the first and the last frame always. */
  readonly keys: Uint32Array;
  /**
   * For each key, the quotient order whose pass chose it: m for a C^{m−1} key, …, 1 for a C⁰
   * key; 0 for the first and last frame.
   */
  readonly orders: Uint8Array;
}

/**
 * The per-frame difference quotients of a channel, prepared once so that many ε can be tried
 * on it (`reduceChannel` does). Build with {@link prepareQuotients}.
 */
export interface ChannelQuotients {
  /** Frame count n. */
  readonly frameCount: number;
  /** m. */
  readonly degree: SplineDegree;
  /**
   * `quotients[k]` (k = 1 … m) holds q⁽ᵏ⁾ᵢ = Δᵏyᵢ / (k!·scale), i = 0 … n − 1 − k (empty when
   * n ≤ k); `quotients[0]` is empty. All zero for a constant channel.
   */
  readonly quotients: readonly Float64Array[];
  /**
   * An ε at and above which no statistic triggers, so {@link selectKeysFrom} returns only the
   * two end keys: a search over ε need not go higher.
   */
  readonly epsilonCeiling: number;
}

/**
 * The per-frame k-th divided difference of `values / scale`: `out[i] = Δᵏvalues[i] / (k!·scale)`
 * for i = 0 … n − 1 − k (an empty array when n ≤ k). `order` 0 returns a scaled copy.
 * Allocates the result.
 */
export function differenceQuotient(values: Float64Array, order: number, scale = 1): Float64Array {
  const n = values.length;
  if (n <= order) return new Float64Array(0);
  const d = Float64Array.from(values);
  // Δᵏ in place: after pass p, d[0 … n−1−p] holds Δᵖ.
  for (let p = 1; p <= order; p++) {
    for (let i = 0; i < n - p; i++) d[i] = d[i + 1] - d[i];
  }
  let factorial = 1;
  for (let p = 2; p <= order; p++) factorial *= p;
  const out = new Float64Array(n - order);
  const div = factorial * scale;
  for (let i = 0; i < out.length; i++) out[i] = d[i] / div;
  return out;
}

/**
 * Validates a channel and computes its quotients q⁽¹⁾ … q⁽ᵐ⁾ (see {@link ChannelQuotients}).
 * Throws an `AnimationError` naming the call for a non-finite value, a bad degree or scale.
 */
export function prepareQuotients(
  values: Float64Array, degree: SplineDegree = DEFAULT_DEGREE, scale?: number, where = 'prepareQuotients',
): ChannelQuotients {
  checkDegree(where, degree);
  const n = values.length;
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) fail(where, `values[${i}]`, `is ${v}, must be finite`);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (scale !== undefined && !(scale > 0 && Number.isFinite(scale))) {
    fail(where, 'scale', `is ${scale}, must be finite and > 0`);
  }
  const range = n > 0 ? max - min : 0;
  // A constant channel: every quotient is 0, whatever the scale.
  const s = scale ?? (range > 0 ? range : 1);
  const quotients: Float64Array[] = [new Float64Array(0)];
  for (let k = 1; k <= degree; k++) quotients.push(differenceQuotient(values, k, s));
  // Bounds of the statistics: |q⁽ᵐ⁾ᵢ − r| ≤ 2·max|q⁽ᵐ⁾|, |J| ≤ 2·max|q⁽ᵏ⁾| + k(k+1)·max|q⁽ᵏ⁺¹⁾|.
  const peak = new Float64Array(degree + 2);
  for (let k = 1; k <= degree; k++) {
    const q = quotients[k];
    let p = 0;
    for (let i = 0; i < q.length; i++) p = Math.max(p, Math.abs(q[i]));
    peak[k] = p;
  }
  let ceiling = 2 * peak[degree];
  for (let k = 1; k < degree; k++) ceiling = Math.max(ceiling, 2 * peak[k] + k * (k + 1) * peak[k + 1]);
  return { frameCount: n, degree, quotients, epsilonCeiling: ceiling };
}

/**
 * ATKINS key frames of one uniformly sampled channel (Motion LOD's §3; the passes, units and
 * reading of the orders are in this file's comment).
 *
 * - `values`: the channel, one value per frame (finite).
 * - ε (`epsilon`, dimensionless ≥ 0): threshold on the change of a per-frame difference
 *   quotient of the channel divided by its range.
 * - δ (`minInterval`, frames, default 2): no two keys closer, except the first and last frame
 *   of a channel shorter than δ.
 * - m (`degree`, default 3).
 *
 * Returns key frame indices, strictly ascending, always with frame 0 and frame n − 1 (a single
 * key for one frame, none for none). O(m·n), deterministic. Throws an `AnimationError` for a
 * non-finite value or a bad option.
 *
 * @example
 * const keys = selectKeys(channel, { epsilon: 1e-4 });          // C², C¹, C⁰ keys, δ = 2
 * const coefficients = fitSpline(channel, 60, keys);           // cubic per segment
 */
export function selectKeys(values: Float64Array, options: SelectKeysOptions): Uint32Array {
  return selectKeysWithOrders(values, options).keys;
}

/** {@link selectKeys}, also telling which quotient order chose each key. */
export function selectKeysWithOrders(values: Float64Array, options: SelectKeysOptions): KeySelection {
  const where = 'selectKeys';
  const prepared = prepareQuotients(values, options.degree ?? DEFAULT_DEGREE, options.scale, where);
  return selectKeysFrom(prepared, options.epsilon, options.minInterval ?? DEFAULT_MIN_INTERVAL, where);
}

/**
 * The ATKINS passes on prepared quotients (see {@link selectKeys}): ε dimensionless ≥ 0, δ in
 * frames (integer ≥ 1). For trying many ε on one channel without recomputing its quotients.
 */
export function selectKeysFrom(
  prepared: ChannelQuotients, epsilon: number, minInterval = DEFAULT_MIN_INTERVAL, where = 'selectKeysFrom',
): KeySelection {
  if (!(epsilon >= 0 && Number.isFinite(epsilon))) fail(where, 'epsilon', `is ${epsilon}, must be finite and ≥ 0`);
  if (!(Number.isInteger(minInterval) && minInterval >= 1)) {
    fail(where, 'minInterval', `is ${minInterval}, must be an integer ≥ 1 (frames)`);
  }
  const n = prepared.frameCount;
  if (n === 0) return { keys: new Uint32Array(0), orders: new Uint8Array(0) };
  if (n === 1) return { keys: new Uint32Array([0]), orders: new Uint8Array(1) };
  const last = n - 1;
  // order[f] = 0: not a key; ENDPOINT for the ends; k for a key of the order-k pass.
  const order = new Uint8Array(n);
  markKeys(order, prepared, epsilon, minInterval, 0, last);

  let count = 0;
  for (let f = 0; f <= last; f++) if (order[f] !== 0) count++;
  const keys = new Uint32Array(count);
  const orders = new Uint8Array(count);
  for (let f = 0, c = 0; f <= last; f++) {
    if (order[f] === 0) continue;
    keys[c] = f;
    orders[c++] = order[f] === ENDPOINT ? 0 : order[f];
  }
  return { keys, orders };
}

/** Marks the first and last frame in the scratch order array (any non-zero value is a key). */
const ENDPOINT = 255;

/**
 * Runs the ATKINS passes on frames `first … last` only (as if the channel were cut there),
 * marking `order[first]`, `order[last]` (ENDPOINT unless already a key) and the keys between.
 * `order` must hold no key strictly between `first` and `last`.
 */
function markKeys(
  order: Uint8Array, prepared: ChannelQuotients, epsilon: number, minInterval: number, first: number, last: number,
): void {
  const m = prepared.degree;
  const q = prepared.quotients;
  if (order[first] === 0) order[first] = ENDPOINT;
  if (order[last] === 0) order[last] = ENDPOINT;
  if (last - first < 2) return;
  stepPass(order, q[m], m, epsilon, minInterval, first, last);
  for (let k = m - 1; k >= 1; k--) jumpPass(order, q, k, epsilon, minInterval, first, last);
}

/**
 * Pass 1: Namco's sequential step approximation of q⁽ᵐ⁾ (rules 1–3), keys marked m.
 * See the file comment for where a triggered key is placed.
 */
function stepPass(
  order: Uint8Array, qm: Float64Array, m: number, epsilon: number, delta: number, start: number, last: number,
): void {
  const windows = last - m + 1; // windows start … last − m lie inside the range
  if (windows - start < 2) return;
  let factorial = 1;
  for (let p = 2; p <= m; p++) factorial *= p;
  const small = epsilon / (2 * factorial);
  let prev = start;
  let ref = qm[start];
  for (let i = start + 1; i < windows; i++) {
    if (!(Math.abs(qm[i] - ref) > epsilon)) continue;
    // Step back to the first window the change disturbed (at most m − 1 windows, not past
    // the previous key): window j is disturbed when it moved from window j − 1 by more than
    // ε/(2·m!); a knot K first shows in window K − m + 1, by 1/m! of its jump.
    // A trigger window that did not itself move by that much ends a slow drift: key it.
    const floor = Math.max(prev + 1, i - m + 1);
    let first = i;
    while (first > floor && Math.abs(qm[first - 1] - qm[first - 2]) > small) first--;
    const onset = Math.abs(qm[i] - qm[i - 1]) > small ? first + m - 1 : i;
    const key = Math.max(onset, prev + delta);
    if (key > last - delta) return; // the last frame is a key; keep δ from it
    order[key] = m;
    prev = key;
    if (key >= windows) return; // no window starts at the key: nothing left to compare
    ref = qm[key];
    i = key; // the loop's i++ resumes at the window after the key
  }
}

/** J⁽ᵏ⁾ at P: the jump of q⁽ᵏ⁾ at frame P net of its trend (file comment, pass 2). */
function jump(q: readonly Float64Array[], k: number, p: number): number {
  const qk = q[k], qk1 = q[k + 1];
  return qk[p] - qk[p - k] - ((k * (k + 1)) / 2) * (qk1[p - k - 1] + qk1[p]);
}

/**
 * A C^{k−2} knot also moves J⁽ᵏ⁾ (a C⁰ knot at K gives J⁽²⁾ = −c/2, c, 0, −c, c/2 at K−2 … K+2,
 * i.e. its largest values one frame off), but it moves J⁽ᵏ⁻¹⁾ as much at the knot itself
 * (c at K), where a C^{k−1} knot moves it by half its J⁽ᵏ⁾ at most (J⁽¹⁾ of a C¹ knot is
 * −c/2, 0, c/2). Above this ratio, pass k leaves the jump to pass k − 1.
 */
const LOWER_ORDER_RATIO = 0.75;

/**
 * Passes 2…m: within each interval between the keys found so far, keys where q⁽ᵏ⁾ jumps by
 * more than ε net of its trend (the statistic J of the file comment), marked k.
 */
function jumpPass(
  order: Uint8Array, q: readonly Float64Array[], k: number, epsilon: number, delta: number, start: number, last: number,
): void {
  let a = start;
  while (a < last) {
    let b = a + 1;
    while (order[b] === 0) b++;
    // J_P reads q⁽ᵏ⁾ at P−k and P, q⁽ᵏ⁺¹⁾ at P−k−1 and P: samples P−k−1 … P+k+1, all in [c, b].
    let c = a;
    let p = c + Math.max(k + 1, delta);
    const end = b - k - 1;
    while (p <= end) {
      const j = Math.abs(jump(q, k, p));
      if (!(j - background(q, k, p, c, b) > epsilon)) {
        p++;
        continue;
      }
      // The largest jump among the next k statistics (a C⁰ knot's J⁽¹⁾ is −c/2, c, −c/2).
      let best = p, bestAbs = j;
      const stop = Math.min(p + k, end);
      for (let r = p + 1; r <= stop; r++) {
        const jr = Math.abs(jump(q, k, r));
        if (jr > bestAbs) { best = r; bestAbs = jr; }
      }
      if (k >= 2 && lowerOrderJump(q, k - 1, best, c, b) >= LOWER_ORDER_RATIO * bestAbs) {
        p = best + 1; // a lower-order knot: pass k − 1 keys it where it is
        continue;
      }
      if (best > b - delta) break; // keep δ from the interval's right key
      order[best] = k;
      c = best;
      p = c + Math.max(k + 1, delta);
    }
    a = b;
  }
}

/**
 * The level of |J⁽ᵏ⁾| around P: the larger of |J⁽ᵏ⁾| at P − k − 1 and P + k + 1, or +∞ when
 * either reads samples outside [c, b]. A knot's own J pattern is 0 there; on smooth data J is
 * its truncation error (J⁽¹⁾ = −12·q⁽⁴⁾, J⁽²⁾ = −120·q⁽⁵⁾), which varies slowly, so a jump is
 * what stands out of this level on both sides, not the level itself.
 */
function background(q: readonly Float64Array[], k: number, p: number, c: number, b: number): number {
  if (p - k - 1 < c + k + 1 || p + k + 1 > b - k - 1) return Number.POSITIVE_INFINITY;
  return Math.max(Math.abs(jump(q, k, p - k - 1)), Math.abs(jump(q, k, p + k + 1)));
}

/** The largest |J⁽ᵏ⁾| at frames P−1 … P+1 whose samples lie in [c, b] (0 if none). */
function lowerOrderJump(q: readonly Float64Array[], k: number, p: number, c: number, b: number): number {
  let max = 0;
  for (let r = Math.max(p - 1, c + k + 1); r <= Math.min(p + 1, b - k - 1); r++) max = Math.max(max, Math.abs(jump(q, k, r)));
  return max;
}

/** Throws unless `degree` is 1, 2 or 3. */
export function checkDegree(where: string, degree: number): asserts degree is SplineDegree {
  if (degree !== 1 && degree !== 2 && degree !== 3) fail(where, 'degree', `is ${degree}, must be 1, 2 or 3`);
}
