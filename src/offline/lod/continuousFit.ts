/**
 * Motion LOD's reconstruction with the continuity of each key's order (Namco, §3: a degree-m spline is C^{m−1}; ATKINS finds "C² 級" keys on the 3rd quotient, then C¹ and
 * C⁰ keys on the 2nd and 1st): one least-squares problem per channel over all segments at once,
 * joined at each key as its order says.
 *
 * ## The problem
 * Keys k₀ < … < k_{K−1} (frames) with orders o_j as `selectKeysWithOrders` gives them (m for a
 * C^{m−1} key, …, 1 for a C⁰ key, 0 for the two ends). Key j's continuity is C^{min(o_j, m)−1}.
 * Each segment [k_j, k_{j+1}] is the cubic Hermite piece through both key values (interpolation
 * at every key, as the per-segment fit does) with end slopes d_j⁺ and d_{j+1}⁻ (per frame):
 *
 *     p(s) = y_a·H₀₀(s) + y_b·H₀₁(s) + N·d_a·H₁₀(s) + N·d_b·H₁₁(s),   s = (f − k_a)/N, N = k_b − k_a,
 *     H₀₀ = 2s³ − 3s² + 1, H₀₁ = 3s² − 2s³, H₁₀ = s(1 − s)², H₁₁ = s²(s − 1).
 *
 * The unknowns are the slopes, and the continuity is linear in them:
 * - at a C¹ or C² key, d_j⁻ = d_j⁺: one shared unknown (a C⁰ key keeps two);
 * - at a C² key, second derivatives agree (p″(0) = (6Δ − N(4d_a + 2d_b))/N², p″(1·N) =
 *   (−6Δ + N(2d_a + 4d_b))/N² per frame², Δ = y_b − y_a) — the classic spline equation
 *
 *       2d_{j−1}⁺/N_L + 4d_j(1/N_L + 1/N_R) + 2d_{j+1}⁻/N_R = 6Δ_L/N_L² + 6Δ_R/N_R²;
 *
 * - for degree 2 every segment's cubic term vanishes: d_a + d_b = 2Δ/N.
 * The objective is Σ over every frame strictly inside a segment of (y_f − p(s_f))², a
 * quadratic in the slopes that couples only the two ends of one segment. Minimised under the
 * equality constraints by its KKT system [H Aᵀ; A 0], with each constraint placed right after
 * the last slope it touches: the system is banded (half-bandwidth ≤ 5 for cubics), solved
 * by band LU with partial pivoting in O(K) — no dense O(K³) solve.
 *
 * ## Degenerate segments
 * A segment with fewer than two interior frames does not fix both of its slopes (none: the
 * slopes are free). Each slope is therefore pulled, with a weight 10⁻⁸ of its own diagonal
 * (or of the smallest non-zero one where it has none), towards the slope the per-segment fit
 * (`fitSpline` with `fit: 'segment'`) has there (the mean of both sides at a shared key). Where
 * the data fixes the slopes this moves them by ~10⁻⁸ relative; where it does not, it picks the
 * per-segment answer (the quadratic through three samples, the line through two). With every
 * key C⁰ the problem separates into the per-segment problems, so the result is the per-segment
 * fit. On data that is itself a spline of the keys' continuity with knots on the keys, the
 * residual is 0 at the true slopes, which the per-segment fit also returns: reproduced exactly.
 *
 * ## Output
 * The same layout as `fitSpline` (4 floats per segment, a b c d, u in seconds), so sampling and
 * packing are unchanged: a = y_a, b = m_a, c = (3Δ/T − 2m_a − m_b)/T, d = (m_a + m_b − 2Δ/T)/T²
 * with slopes m per second and T the segment's length in seconds.
 *
 * ## Measured (why `'segment'` stays the default)
 * With the same keys the continuous fit is the worse fit: every spline it can produce is also
 * a per-segment candidate, and through the key values a C² chain has two free parameters in
 * all where the per-segment fit has two per segment (on smooth test channels, keys every 10
 * frames: 8–16× the per-segment fit's largest error). So `reduceChannel` chooses its keys for
 * the fit it uses (the ε search and the merge pass measure this fit). Through `reduceClip` on
 * the 19 shared clips (scripts/fitTable.ts) it then keeps as many keys (geometric mean
 * continuous / segment 1.00, 1.02, 1.04 at 1 mm, 5 mm, 1 cm), but its channels' keys line up
 * less within a track, so the packed clip takes 9–22 % more bytes, and reducing takes ~4× as
 * long. It buys continuous velocity (and acceleration at C² keys) on every curve.
 */
/** Floats per segment, a b c d: spline.ts's SPLINE_STRIDE (not imported: spline.ts imports this file). */
const SPLINE_STRIDE = 4;

/** Relative weight of the pull of each slope towards the per-segment fit's (file comment). */
const REGULARIZATION = 1e-8;
/** Floats of one segment's normal equations: Σa², Σab, Σb², Σa·e, Σb·e. */
const NORMALS = 5;
/** Offset of the right-hand side Σa·e, Σb·e in a segment's normal equations (after the matrix Σa², Σab, Σb²). */
const NORMALS_RHS = 3;

/**
 * The continuous least-squares spline of the file comment. Arguments are checked by the caller
 * (`fitSpline`): `values` n ≥ 2 frames, `keys` 0 … n − 1 strictly ascending (K ≥ 2),
 * `orders` one per key, `degree` 2 or 3. Returns 4·(K − 1) floats as `fitSpline`. O(n).
 */
export function fitContinuous(
  values: Float64Array, frameRate: number, keys: Uint32Array, orders: Uint8Array, degree: 2 | 3,
): Float64Array {
  const segments = keys.length - 1;
  const normals = new Float64Array(NORMALS * segments), start = new Float64Array(segments), end = new Float64Array(segments);
  for (let s = 0; s < segments; s++) segmentNormals(values, keys[s], keys[s + 1], degree, normals, start, end, s);
  const { left, right } = solveSlopes(values, keys, orders, degree, normals, start, end);
  const out = new Float64Array(SPLINE_STRIDE * segments);
  for (let s = 0; s < segments; s++) writeSegment(out, SPLINE_STRIDE * s, values, keys[s], keys[s + 1], frameRate, degree, right[s], left[s + 1]);
  return out;
}

/** Keys on either side of a dropped key whose slopes a merge check solves again. */
const MERGE_WINDOW = 8;

/**
 * The merge pass of `reduceChannel` for the continuous fit: walking left to right, a key is
 * dropped when the spline refitted without it (the other keys keep their orders) stays within
 * `tolerance` at every frame. Returns the kept keys and their orders; the caller fits them.
 *
 * Dropping a key moves the slopes of the whole spline, but less and less away from it (a C²
 * chain passes on about 2 − √3 ≈ 0.27 of a change per key; a C⁰ key none). So a check solves
 * only the keys up to the next C⁰ key on either side (exact: the parts do not interact) or up
 * to 8 keys away, with the slopes there held, and measures the frames inside that window:
 * O(n) for the pass, where a global refit per key is O(K·n). Held
 * ends make the check an approximation of the global refit, so the pass ends with the global
 * fit of the kept keys, and where a segment of it exceeds the tolerance the keys dropped inside
 * it come back (repeated until none does; at worst every key comes back, which met the
 * tolerance). Measured on mocap-like channels of 600–2,000 frames: the same keys as a global
 * refit per key, or within one or two.
 */
export function mergeContinuousKeys(
  values: Float64Array, frameRate: number, keys: Uint32Array, orders: Uint8Array, degree: 2 | 3, tolerance: number,
): { keys: Uint32Array; orders: Uint8Array } {
  const total = keys.length;
  if (total <= 2) return { keys, orders };
  // The current keys (the first K entries), their segments' normal equations and slopes.
  let K = total;
  const currentKeys = Uint32Array.from(keys), currentOrders = Uint8Array.from(orders);
  const normals = new Float64Array(NORMALS * (K - 1)), start = new Float64Array(K - 1), end = new Float64Array(K - 1);
  for (let s = 0; s + 1 < K; s++) segmentNormals(values, keys[s], keys[s + 1], degree, normals, start, end, s);
  const solved = solveSlopes(values, currentKeys, currentOrders, degree, normals, start, end);
  const left = solved.left, right = solved.right;
  const scratch = new Float64Array(SPLINE_STRIDE);
  const mergedNormals = new Float64Array(NORMALS), mergedStart = new Float64Array(1), mergedEnd = new Float64Array(1);

  for (let k = 1; k < K - 1;) {
    // The window: current keys lo … hi, key k dropped (hi − lo keys, hi − lo − 1 segments).
    // A C⁰ key cuts the spline in two independent parts: the window stops at one (its slope
    // there is free, and the check exact), else after MERGE_WINDOW keys (its slope held).
    let lo = k - 1, hi = k + 1;
    while (lo > 0 && joinsSlopes(currentOrders[lo], degree) && k - lo < MERGE_WINDOW) lo--;
    while (hi < K - 1 && joinsSlopes(currentOrders[hi], degree) && hi - k < MERGE_WINDOW) hi++;
    const holdStart = lo > 0 && joinsSlopes(currentOrders[lo], degree);
    const holdEnd = hi < K - 1 && joinsSlopes(currentOrders[hi], degree);
    const count = hi - lo;
    const windowKeys = new Uint32Array(count), windowOrders = new Uint8Array(count);
    for (let i = lo, w = 0; i <= hi; i++) {
      if (i === k) continue;
      windowKeys[w] = currentKeys[i]; windowOrders[w++] = currentOrders[i];
    }
    const windowNormals = new Float64Array(NORMALS * (count - 1)), windowStart = new Float64Array(count - 1), windowEnd = new Float64Array(count - 1);
    segmentNormals(values, currentKeys[k - 1], currentKeys[k + 1], degree, mergedNormals, mergedStart, mergedEnd, 0);
    for (let s = lo, w = 0; s < hi; s++) {
      if (s === k) continue; // segments k − 1 and k are the merged one
      const from = s === k - 1 ? mergedNormals : normals, o = s === k - 1 ? 0 : NORMALS * s;
      for (let c = 0; c < NORMALS; c++) windowNormals[NORMALS * w + c] = from[o + c];
      windowStart[w] = s === k - 1 ? mergedStart[0] : start[s];
      windowEnd[w++] = s === k - 1 ? mergedEnd[0] : end[s];
    }
    const slopes = solveSlopes(
      values, windowKeys, windowOrders, degree, windowNormals, windowStart, windowEnd,
      holdStart ? right[lo] : Number.NaN, holdEnd ? left[hi] : Number.NaN,
    );
    let fits = true;
    for (let s = 0; s + 1 < count && fits; s++) {
      fits = segmentError(values, windowKeys, frameRate, degree, slopes.right[s], slopes.left[s + 1], s, scratch) <= tolerance;
    }
    if (!fits) {
      k++;
      continue;
    }
    // Drop key k: shift everything after it down by one, merge its two segments, take the
    // window's slopes (the held ends are unchanged).
    currentKeys.copyWithin(k, k + 1, K); currentOrders.copyWithin(k, k + 1, K);
    left.copyWithin(k, k + 1, K); right.copyWithin(k, k + 1, K);
    normals.copyWithin(NORMALS * k, NORMALS * (k + 1), NORMALS * (K - 1));
    start.copyWithin(k, k + 1, K - 1); end.copyWithin(k, k + 1, K - 1);
    normals.set(mergedNormals, NORMALS * (k - 1)); start[k - 1] = mergedStart[0]; end[k - 1] = mergedEnd[0];
    K--;
    for (let w = 0; w < count; w++) {
      left[lo + w] = slopes.left[w]; right[lo + w] = slopes.right[w];
    }
  }

  // The global fit of the kept keys; where it fails, the keys dropped inside the failing
  // segments come back.
  let kept = currentKeys.slice(0, K), keptOrders = currentOrders.slice(0, K);
  for (;;) {
    if (kept.length === total) return { keys: kept, orders: keptOrders };
    const fitted = solveFromScratch(values, kept, keptOrders, degree);
    const restore = new Uint8Array(kept.length - 1);
    let any = false;
    for (let s = 0; s + 1 < kept.length; s++) {
      if (segmentError(values, kept, frameRate, degree, fitted.right[s], fitted.left[s + 1], s, scratch) > tolerance) {
        restore[s] = 1;
        any = true;
      }
    }
    if (!any) return { keys: kept, orders: keptOrders };
    // A failing segment may hold no dropped key (its neighbours' slopes moved it): widen the
    // marked segments one to each side until some dropped key lies in them (some segment
    // holds one: fewer keys are kept than there were).
    const dropped = new Uint32Array(kept.length - 1);
    for (let i = 0, s = 0; i < total; i++) {
      while (s + 1 < kept.length && kept[s + 1] <= keys[i]) s++;
      if (kept[s] !== keys[i]) dropped[s]++;
    }
    for (;;) {
      let holds = false;
      for (let s = 0; s < restore.length && !holds; s++) holds = restore[s] === 1 && dropped[s] > 0;
      if (holds) break;
      const widened = Uint8Array.from(restore);
      for (let s = 0; s < restore.length; s++) {
        if (restore[s] !== 1) continue;
        if (s > 0) widened[s - 1] = 1;
        if (s + 1 < restore.length) widened[s + 1] = 1;
      }
      restore.set(widened);
    }
    const nextKeys: number[] = [], nextOrders: number[] = [];
    for (let i = 0, s = 0; i < total; i++) {
      while (s + 1 < kept.length && kept[s + 1] <= keys[i]) s++;
      if (kept[s] === keys[i] || restore[s] === 1) {
        nextKeys.push(keys[i]); nextOrders.push(orders[i]);
      }
    }
    kept = Uint32Array.from(nextKeys); keptOrders = Uint8Array.from(nextOrders);
  }
}

/** Whether an interior key of ATKINS order `order` shares its slope between its segments (C¹ or C²). */
function joinsSlopes(order: number, degree: 2 | 3): boolean {
  return Math.min(order, degree) >= 2;
}

/** {@link solveSlopes} with the segments' normal equations computed. */
function solveFromScratch(
  values: Float64Array, keys: Uint32Array, orders: Uint8Array, degree: 2 | 3,
): { left: Float64Array; right: Float64Array } {
  const segments = keys.length - 1;
  const normals = new Float64Array(NORMALS * segments), start = new Float64Array(segments), end = new Float64Array(segments);
  for (let s = 0; s < segments; s++) segmentNormals(values, keys[s], keys[s + 1], degree, normals, start, end, s);
  return solveSlopes(values, keys, orders, degree, normals, start, end);
}

/**
 * Segment s's normal equations in (d_a, d_b) at `normals[5s …]` and the per-segment fit's end
 * slopes (per frame) at `start[s]`, `end[s]` (the fallback of degenerate segments).
 *
 * The per-segment fit (spline.ts) spans the same cubics through both key values — its bubbles
 * are s(1−s) = (H₁₀ − H₁₁) and s(1−s)(2s−1) = −(H₁₀ + H₁₁) — so with two or more interior
 * frames its slopes solve these 2×2 equations; with one it is the quadratic through the three
 * samples, with none the line; for degree 2 always the least-squares quadratic.
 */
function segmentNormals(
  values: Float64Array, ka: number, kb: number, degree: 2 | 3,
  normals: Float64Array, start: Float64Array, end: Float64Array, s: number,
): void {
  const N = kb - ka;
  const ya = values[ka], yb = values[kb];
  let aa = 0, ab = 0, bb = 0, ra = 0, rb = 0;
  for (let f = ka + 1; f < kb; f++) {
    const t = (f - ka) / N;
    const t2 = t * t, t3 = t2 * t;
    const e = values[f] - ya * (2 * t3 - 3 * t2 + 1) - yb * (3 * t2 - 2 * t3);
    const A = N * (t3 - 2 * t2 + t), B = N * (t3 - t2);
    aa += A * A; ab += A * B; bb += B * B; ra += A * e; rb += B * e;
  }
  const o = NORMALS * s;
  normals[o] = aa; normals[o + 1] = ab; normals[o + 2] = bb; normals[o + NORMALS_RHS] = ra; normals[o + NORMALS_RHS + 1] = rb;
  const rise = (yb - ya) / N;
  if (degree === 3 && N >= 3) { // two interior frames or more
    const det = aa * bb - ab * ab;
    start[s] = (ra * bb - rb * ab) / det;
    end[s] = (aa * rb - ab * ra) / det;
    return;
  }
  // The least-squares quadratic y_a + Δs + α·s(1−s): α = Σψe/Σψ², ψ = (A − B)/N.
  const psi2 = (aa - 2 * ab + bb) / (N * N);
  const alpha = psi2 > 0 ? ((ra - rb) / N) / psi2 : 0;
  start[s] = rise + alpha / N;
  end[s] = rise - alpha / N;
}

/**
 * The KKT system of the file comment, solved: slopes per frame, `left[j]` and `right[j]` of
 * key j (equal at C¹ and C² keys). `normals`, `start`, `end` per segment as
 * {@link segmentNormals} writes them. `fixedStart`, `fixedEnd`: slopes the first and last key
 * must have (NaN: free), for a window of a longer spline.
 */
function solveSlopes(
  values: Float64Array, keys: Uint32Array, orders: Uint8Array, degree: 2 | 3,
  normals: Float64Array, start: Float64Array, end: Float64Array, fixedStart = Number.NaN, fixedEnd = Number.NaN,
): { left: Float64Array; right: Float64Array } {
  const K = keys.length;
  const segments = K - 1;
  // 1. Unknowns: slopes (per frame) left and right of each key, shared at C¹+ keys; and
  //    constraint rows, each placed right after the last slope it touches.
  const leftIndex = new Int32Array(K), rightIndex = new Int32Array(K);
  const c2 = new Uint8Array(K); // 1: key j has a C² constraint row
  const c2Row = new Int32Array(K), quadRow = new Int32Array(segments);
  let size = 0, startRow = -1, endRow = -1;
  for (let j = 0; j < K; j++) {
    const interior = j > 0 && j < K - 1;
    const continuity = interior ? Math.min(orders[j], degree) - 1 : 0; // as joinsSlopes: ≥ 1
    leftIndex[j] = size++;
    if (j === 0 && !Number.isNaN(fixedStart)) startRow = size++;
    if (j > 0) {
      // Rows whose last slope is left[j]: key j − 1's C² row, segment j − 1's degree-2 row.
      if (c2[j - 1] === 1) c2Row[j - 1] = size++;
      if (degree === 2) quadRow[j - 1] = size++;
    }
    if (j === K - 1 && !Number.isNaN(fixedEnd)) endRow = size++;
    if (interior && continuity < 1) rightIndex[j] = size++;
    else rightIndex[j] = leftIndex[j];
    if (interior && continuity >= 2) c2[j] = 1;
  }
  const isSlope = new Uint8Array(size).fill(1);
  for (let j = 0; j < K; j++) if (c2[j] === 1) isSlope[c2Row[j]] = 0;
  if (degree === 2) for (let s = 0; s < segments; s++) isSlope[quadRow[s]] = 0;
  if (startRow >= 0) isSlope[startRow] = 0;
  if (endRow >= 0) isSlope[endRow] = 0;

  // Half-bandwidth: the largest distance between a row and a column it touches.
  let band = 1;
  for (let s = 0; s < segments; s++) band = Math.max(band, leftIndex[s + 1] - rightIndex[s]);
  for (let j = 0; j < K; j++) if (c2[j] === 1) band = Math.max(band, c2Row[j] - rightIndex[j - 1]);
  if (degree === 2) for (let s = 0; s < segments; s++) band = Math.max(band, quadRow[s] - rightIndex[s]);
  if (endRow >= 0) band = Math.max(band, endRow - leftIndex[K - 1]);
  const system = new BandSystem(size, band);

  // 2. The objective: per segment, the 2×2 normal equations in (d_a, d_b).
  for (let s = 0; s < segments; s++) {
    const o = NORMALS * s;
    const i = rightIndex[s], k = leftIndex[s + 1];
    system.add(i, i, normals[o]); system.add(i, k, normals[o + 1]);
    system.add(k, i, normals[o + 1]); system.add(k, k, normals[o + 2]);
    system.rhs[i] += normals[o + NORMALS_RHS]; system.rhs[k] += normals[o + NORMALS_RHS + 1];
  }

  // 3. The pull towards the per-segment slopes (degenerate segments; file comment).
  const reference = new Float64Array(size), count = new Float64Array(size);
  for (let s = 0; s < segments; s++) {
    reference[rightIndex[s]] += start[s]; count[rightIndex[s]] += 1;
    reference[leftIndex[s + 1]] += end[s]; count[leftIndex[s + 1]] += 1;
  }
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < size; i++) if (isSlope[i] === 1 && system.diagonal(i) > 0) smallest = Math.min(smallest, system.diagonal(i));
  if (smallest === Number.POSITIVE_INFINITY) smallest = 1;
  for (let i = 0; i < size; i++) {
    if (isSlope[i] === 0) continue;
    const d = system.diagonal(i);
    const rho = REGULARIZATION * (d > 0 ? d : smallest);
    system.add(i, i, rho);
    system.rhs[i] += rho * (reference[i] / count[i]);
  }

  // 4. Constraint rows, each scaled so its largest coefficient is the largest diagonal of the
  //    slopes it touches (pivoting compares sizes; the scale of a row does not change x).
  for (let j = 1; j < K - 1; j++) {
    if (c2[j] !== 1) continue;
    const NL = keys[j] - keys[j - 1], NR = keys[j + 1] - keys[j];
    const dL = values[keys[j]] - values[keys[j - 1]], dR = values[keys[j + 1]] - values[keys[j]];
    const row = c2Row[j];
    const magnitude = Math.max(system.diagonal(rightIndex[j - 1]), system.diagonal(leftIndex[j]), system.diagonal(leftIndex[j + 1]));
    const w = magnitude / (4 / NL + 4 / NR);
    addSymmetric(system, row, rightIndex[j - 1], (w * 2) / NL);
    addSymmetric(system, row, leftIndex[j], w * (4 / NL + 4 / NR));
    addSymmetric(system, row, leftIndex[j + 1], (w * 2) / NR);
    system.rhs[row] = w * ((6 * dL) / (NL * NL) + (6 * dR) / (NR * NR));
  }
  if (degree === 2) {
    for (let s = 0; s < segments; s++) {
      const N = keys[s + 1] - keys[s];
      const row = quadRow[s];
      const magnitude = Math.max(system.diagonal(rightIndex[s]), system.diagonal(leftIndex[s + 1]));
      addSymmetric(system, row, rightIndex[s], magnitude);
      addSymmetric(system, row, leftIndex[s + 1], magnitude);
      system.rhs[row] = (magnitude * 2 * (values[keys[s + 1]] - values[keys[s]])) / N;
    }
  }

  if (startRow >= 0) fixSlope(system, startRow, leftIndex[0], fixedStart);
  if (endRow >= 0) fixSlope(system, endRow, leftIndex[K - 1], fixedEnd);

  const x = system.solve();
  const left = new Float64Array(K), right = new Float64Array(K);
  for (let j = 0; j < K; j++) { left[j] = x[leftIndex[j]]; right[j] = x[rightIndex[j]]; }
  return { left, right };
}

/**
 * Segment [ka, kb]'s a b c d (u in seconds) at `out[o …]` from its Hermite data: key values and
 * the end slopes `da`, `db` per frame (file comment, Output).
 */
function writeSegment(
  out: Float64Array, o: number, values: Float64Array, ka: number, kb: number, frameRate: number, degree: 2 | 3, da: number, db: number,
): void {
  const ya = values[ka], yb = values[kb];
  const T = (kb - ka) / frameRate;
  const ma = da * frameRate, mb = db * frameRate;
  const rise = (yb - ya) / T;
  out[o] = ya;
  out[o + 1] = ma;
  if (degree === 2) {
    out[o + 2] = (mb - ma) / (2 * T); // the constraint made the cubic term 0: store it as 0
    out[o + 3] = 0;
  } else {
    out[o + 2] = (3 * rise - 2 * ma - mb) / T;
    out[o + 3] = (ma + mb - 2 * rise) / (T * T);
  }
}

/**
 * Segment s's largest |reconstruction − value| over its frames (both keys included), evaluated
 * in the a b c d form as `measureSplineError` does. `scratch`: 4 floats.
 */
function segmentError(
  values: Float64Array, keys: Uint32Array, frameRate: number, degree: 2 | 3, da: number, db: number, s: number, scratch: Float64Array,
): number {
  const ka = keys[s], kb = keys[s + 1];
  writeSegment(scratch, 0, values, ka, kb, frameRate, degree, da, db);
  const a = scratch[0], b = scratch[1], c = scratch[2], d = scratch[3];
  let max = 0;
  for (let f = ka; f <= kb; f++) {
    const u = (f - ka) / frameRate;
    const e = Math.abs(a + u * (b + u * (c + u * d)) - values[f]);
    if (e > max) max = e;
  }
  return max;
}

/** The constraint row `x[slope] = value`, scaled as the slope's diagonal. */
function fixSlope(system: BandSystem, row: number, slope: number, value: number): void {
  const magnitude = system.diagonal(slope);
  addSymmetric(system, row, slope, magnitude);
  system.rhs[row] = magnitude * value;
}

/** Adds a constraint coefficient at (row, column) and its mirror (the KKT system is symmetric). */
function addSymmetric(system: BandSystem, row: number, column: number, value: number): void {
  system.add(row, column, value);
  system.add(column, row, value);
}

/**
 * A square banded system (half-bandwidth `band`) with one right-hand side, solved by LU with
 * partial pivoting (LAPACK gbtrf's scheme). Row r keeps columns r − band … r + 2·band: pivoting
 * swaps a row with one at most `band` below, so its fill stays within 2·band right of it.
 * O(size·band²) time, O(size·band) memory.
 */
class BandSystem {
  readonly rhs: Float64Array;
  private readonly width: number;
  private readonly cells: Float64Array;

  constructor(readonly size: number, readonly band: number) {
    this.width = 3 * band + 1;
    this.cells = new Float64Array(size * this.width);
    this.rhs = new Float64Array(size);
  }

  private index(row: number, column: number): number {
    return row * this.width + column - row + this.band;
  }

  add(row: number, column: number, value: number): void {
    this.cells[this.index(row, column)] += value;
  }

  diagonal(i: number): number {
    return this.cells[this.index(i, i)];
  }

  /** Solves in place; a zero pivot (a singular system) gives 0 for that unknown. */
  solve(): Float64Array {
    const { size, band, cells, rhs } = this;
    for (let i = 0; i < size; i++) {
      const lastRow = Math.min(size - 1, i + band);
      const lastColumn = Math.min(size - 1, i + 2 * band);
      let pivotRow = i, pivotAbs = Math.abs(cells[this.index(i, i)]);
      for (let r = i + 1; r <= lastRow; r++) {
        const v = Math.abs(cells[this.index(r, i)]);
        if (v > pivotAbs) { pivotAbs = v; pivotRow = r; }
      }
      if (pivotAbs === 0) continue;
      if (pivotRow !== i) {
        for (let c = i; c <= lastColumn; c++) {
          const a = this.index(i, c), b = this.index(pivotRow, c);
          const t = cells[a]; cells[a] = cells[b]; cells[b] = t;
        }
        const t = rhs[i]; rhs[i] = rhs[pivotRow]; rhs[pivotRow] = t;
      }
      const pivot = cells[this.index(i, i)];
      for (let r = i + 1; r <= lastRow; r++) {
        const at = this.index(r, i);
        const factor = cells[at] / pivot;
        if (factor === 0) continue;
        cells[at] = 0;
        for (let c = i + 1; c <= lastColumn; c++) cells[this.index(r, c)] -= factor * cells[this.index(i, c)];
        rhs[r] -= factor * rhs[i];
      }
    }
    const x = new Float64Array(size);
    for (let i = size - 1; i >= 0; i--) {
      const pivot = cells[this.index(i, i)];
      if (pivot === 0) continue;
      let sum = rhs[i];
      const lastColumn = Math.min(size - 1, i + 2 * band);
      for (let c = i + 1; c <= lastColumn; c++) sum -= cells[this.index(i, c)] * x[c];
      x[i] = sum / pivot;
    }
    return x;
  }
}
