/**
 * Reconstruction between ATKINS keys (Namco's Motion LOD, §3: "圧縮されたモーション
 * データは、m 次 (C^{m−1} 級) スプライン関数を用いて補間する" — the reduced data is interpolated
 * by a spline of degree m): one polynomial of degree ≤ 3 per segment between two keys.
 *
 * ## Coefficient layout (shared with the runtime sampler)
 * For keys k₀ < k₁ < … < k_{K−1} (frame indices) there are K − 1 segments; segment s covers
 * [t_s, t_{s+1}] with t_s = k_s / frameRate seconds and owns 4 floats at `4·s`:
 *
 *     value(t) = a + b·u + c·u² + d·u³,   u = t − t_s (seconds),   [a b c d] = coefficients[4s … 4s+3]
 *
 * a is the key value at t_s; the value at t_{s+1} is the next key's value up to rounding.
 * A single key (a one-frame channel) is stored as one constant segment [a 0 0 0].
 *
 * ## Why a constrained least-squares fit per segment
 * Each segment is the polynomial through both key values that is closest, in least squares,
 * to every original sample between them:
 *
 *     p(s) = y_a + (y_b − y_a)·s + α·s(1−s) + β·s(1−s)(2s−1),   s = (frame − k_a)/(k_b − k_a),
 *
 * α, β minimising Σ (y_i − p(s_i))² over the interior samples. The two bubble functions are
 * orthogonal over the symmetric interior samples, so α and β are two independent ratios (no
 * system to solve, well conditioned at any segment length).
 * - It interpolates the keys exactly (C⁰ everywhere) and reproduces any cubic piece exactly,
 *   so a piecewise cubic keyed at its knots comes back whatever the joins are (C², C¹ or C⁰:
 *   Motion LOD's classes all land on keys).
 * - Where the data is smooth, neighbouring fits agree in slope at their shared key to the
 *   order of the fit error: C¹ in practice, without forcing C¹ across C⁰ keys.
 * - It uses every sample (a Hermite form would estimate end slopes from a few samples next to
 *   the key and carry their noise over the whole segment), so on mocap noise it smooths.
 * Segments with one interior sample get the quadratic through the three samples (β = 0), with
 * none the line; `degree` 2 drops β, 1 keeps only the line.
 *
 * ## The other fit: `fit: 'continuous'`
 * Motion LOD's own reading — a spline whose joins follow the keys' orders (C² at C² keys, C¹ at
 * C¹ keys, C⁰ at C⁰ keys) — is one least-squares problem per channel, in continuousFit.ts. It
 * writes the same layout. It is an option, not the default: with the same keys its error is
 * larger (a C² chain through the key values has two free parameters in all, this fit two per
 * segment); keys chosen for it come out as many, but the packed clip is 9–22 % larger and the
 * reduction ~4× slower (scripts/fitTable.ts on the 19 shared clips; continuousFit.ts).
 */
import { shownString } from '../../assets/limits.js';
import { fail } from '../../assets/AnimationError.js';
import { checkDegree, DEFAULT_DEGREE, type SplineDegree } from './atkins.js';
import { fitContinuous } from './continuousFit.js';

/** Floats per segment in a coefficient array: a b c d. */
export const SPLINE_STRIDE = 4;

/**
 * How segments are fitted: `'segment'`, each alone (this file's comment; joins C⁰, nearly C¹
 * on smooth data), or `'continuous'`, all at once with each key's continuity (continuousFit.ts).
 */
export type SplineFit = 'segment' | 'continuous';

/** Options of {@link fitSpline}. */
export interface FitSplineOptions {
  /** Degree of each segment's polynomial: 1, 2 or 3 (default 3). */
  readonly degree?: SplineDegree;
  /** `'segment'` (default) or `'continuous'`: see {@link SplineFit}. */
  readonly fit?: SplineFit;
  /**
   * With `fit: 'continuous'`, each key's order as `selectKeysWithOrders` gives it (m: C^{m−1},
   * …, 1: C⁰; the ends' value is not read), one per key. Default: every key of order m — the
   * smoothest spline of the degree (C² for cubics). Ignored by `'segment'`.
   */
  readonly orders?: Uint8Array;
}

/**
 * Fits the per-segment polynomials of a reduced channel (layout and method in this file's
 * comment).
 *
 * - `values`: the dense channel, one value per frame (n frames).
 * - `frameRate`: frames per second (> 0); coefficients are per second (u in seconds).
 * - `keys`: key frame indices, strictly ascending, from 0 to n − 1 (as `selectKeys` returns).
 *
 * Returns `4·max(1, K − 1)` floats (empty for an empty channel). Throws an `AnimationError` for
 * bad keys or frame rate. O(n).
 *
 * @example
 * const keys = selectKeys(channel, { epsilon: 1e-4 });
 * const coefficients = fitSpline(channel, 30, keys);
 * const v = evaluateSpline(coefficients, keyTimes(keys, 30), 0.5);
 */
export function fitSpline(
  values: Float64Array, frameRate: number, keys: Uint32Array, options: FitSplineOptions = {},
): Float64Array {
  const where = 'fitSpline';
  const degree = options.degree ?? DEFAULT_DEGREE;
  checkDegree(where, degree);
  checkKeys(where, values.length, frameRate, keys);
  const fit = options.fit ?? 'segment';
  if (fit !== 'segment' && fit !== 'continuous') fail(where, 'fit', `is ${shownString(fit)}, must be 'segment' or 'continuous'`);
  const orders = options.orders;
  if (fit === 'continuous' && orders !== undefined && (!(orders instanceof Uint8Array) || orders.length !== keys.length)) {
    fail(where, 'orders', `must be a Uint8Array of one order per key (${keys.length})`);
  }
  const n = values.length;
  if (n === 0) return new Float64Array(0);
  if (keys.length === 1) return Float64Array.of(values[0], 0, 0, 0);
  // Lines have nothing to join but values; a lone segment has no join at all.
  if (fit === 'continuous' && degree !== 1 && keys.length > 2) {
    return fitContinuous(values, frameRate, keys, orders ?? new Uint8Array(keys.length).fill(degree), degree);
  }
  const out = new Float64Array(SPLINE_STRIDE * (keys.length - 1));
  for (let s = 0; s + 1 < keys.length; s++) fitSegment(out, SPLINE_STRIDE * s, values, keys[s], keys[s + 1], frameRate, degree);
  return out;
}

/** Writes segment [ka, kb]'s a b c d at `out[o…o+3]` (the least-squares fit of the file comment). */
function fitSegment(
  out: Float64Array, o: number, values: Float64Array, ka: number, kb: number, frameRate: number, degree: number,
): void {
  const ya = values[ka], yb = values[kb];
  const span = kb - ka;
  const rise = yb - ya;
  // Bubble ψ₁ = s(1−s) and ψ₂ = s(1−s)(2s−1): Σψ₁ψ₂ = 0 over the symmetric interior samples.
  let s11 = 0, s22 = 0, r1 = 0, r2 = 0;
  if (degree >= 2) {
    for (let i = ka + 1; i < kb; i++) {
      const s = (i - ka) / span;
      const e = values[i] - (ya + rise * s);
      const p1 = s * (1 - s);
      const p2 = p1 * (2 * s - 1);
      s11 += p1 * p1; r1 += p1 * e;
      s22 += p2 * p2; r2 += p2 * e;
    }
  }
  const alpha = s11 > 0 ? r1 / s11 : 0;
  const beta = degree >= 3 && s22 > 0 ? r2 / s22 : 0;
  // p(s) = ya + (rise + α − β)s + (3β − α)s² − 2βs³, and s = u/T.
  const T = span / frameRate;
  out[o] = ya;
  out[o + 1] = (rise + alpha - beta) / T;
  out[o + 2] = (3 * beta - alpha) / (T * T);
  out[o + 3] = beta !== 0 ? (-2 * beta) / (T * T * T) : 0; // +0, not −0, for a quadratic
}

/** Key times in seconds, `keys[k] / frameRate`, for {@link evaluateSpline}. Allocates. */
export function keyTimes(keys: Uint32Array, frameRate: number): Float64Array {
  const out = new Float64Array(keys.length);
  for (let k = 0; k < keys.length; k++) out[k] = keys[k] / frameRate;
  return out;
}

/**
 * The reconstructed value at time `t` seconds: segment s with t_s ≤ t < t_{s+1} (binary
 * search), `a + u(b + u(c + u·d))` with u = t − t_s. `t` is clamped to [t₀, t_{K−1}].
 * `coefficients` as {@link fitSpline} returns, `times` the K key times in seconds (ascending).
 * For tests and tools: the runtime sampler reads the same layout without searching from 0.
 */
export function evaluateSpline(coefficients: Float64Array, times: Float64Array, t: number): number {
  const count = times.length;
  if (count <= 1) return coefficients[0] ?? Number.NaN;
  let s: number;
  if (!(t > times[0])) {
    s = 0;
    t = times[0];
  } else if (t >= times[count - 1]) {
    s = count - 2;
    t = times[count - 1];
  } else {
    // Largest s with times[s] ≤ t, s ≤ count − 2.
    let lo = 0, hi = count - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid;
      else hi = mid;
    }
    s = lo;
  }
  const o = SPLINE_STRIDE * s;
  const u = t - times[s];
  return coefficients[o] + u * (coefficients[o + 1] + u * (coefficients[o + 2] + u * coefficients[o + 3]));
}

/**
 * The largest |reconstruction − value| over every original frame (the channel's units): frame
 * f in segment s is evaluated at u = (f − k_s)/frameRate, the last frame at the end of the
 * last segment. With `subdivisions` > 0 also at that many evenly spaced instants inside every
 * frame interval (f + i/(subdivisions + 1), i = 1 … subdivisions), against the straight line
 * between the two frames — the channel as the uniform sampler plays it (lerp). Arguments as
 * for {@link fitSpline}, `coefficients` from it. Returns early, with an error above `limit`,
 * once one exceeds it (default: never). O(n·(1 + subdivisions)), no checks.
 */
export function measureSplineError(
  values: Float64Array, frameRate: number, keys: Uint32Array, coefficients: Float64Array, subdivisions = 0, limit = Number.POSITIVE_INFINITY,
): number {
  const n = values.length;
  if (n === 0) return 0;
  if (keys.length === 1) return Math.abs(coefficients[0] - values[0]);
  let max = 0;
  const perInterval = subdivisions + 1;
  for (let s = 0; s + 1 < keys.length; s++) {
    const ka = keys[s], kb = keys[s + 1];
    const o = SPLINE_STRIDE * s;
    const a = coefficients[o], b = coefficients[o + 1], c = coefficients[o + 2], d = coefficients[o + 3];
    const stop = s + 2 === keys.length ? kb : kb - 1;
    for (let f = ka; f <= stop; f++) {
      const u = (f - ka) / frameRate;
      const e = Math.abs(a + u * (b + u * (c + u * d)) - values[f]);
      if (e > max) max = e;
      if (max > limit) return max;
      if (f === kb) continue;
      const y0 = values[f], y1 = values[f + 1];
      for (let i = 1; i < perInterval; i++) {
        const w = i / perInterval;
        const v = (f - ka + w) / frameRate;
        const between = Math.abs(a + v * (b + v * (c + v * d)) - (y0 + (y1 - y0) * w));
        if (between > max) max = between;
      }
    }
  }
  return max;
}

/** Keys must run 0 … n − 1, strictly ascending; the frame rate finite and > 0. */
function checkKeys(where: string, n: number, frameRate: number, keys: Uint32Array): void {
  if (!(frameRate > 0 && Number.isFinite(frameRate))) fail(where, 'frameRate', `is ${frameRate}, must be finite and > 0`);
  if (n === 0) {
    if (keys.length !== 0) fail(where, 'keys', 'must be empty for an empty channel');
    return;
  }
  if (keys.length === 0 || keys[0] !== 0) fail(where, 'keys[0]', 'must be frame 0');
  if (keys[keys.length - 1] !== n - 1) fail(where, `keys[${keys.length - 1}]`, `must be the last frame, ${n - 1}`);
  for (let k = 1; k < keys.length; k++) {
    if (!(keys[k] > keys[k - 1])) fail(where, `keys[${k}]`, `is ${keys[k]}, must exceed keys[${k - 1}] = ${keys[k - 1]}`);
  }
}
