/**
 * Blend-space kernels on a line and on a rectangle: GEA's generalized 1D LERP blend and the
 * simple 2D (bilinear) blend of four corner clips. Builders run once in `createBlendSpace`;
 * the weight kernels run per query, read only typed arrays and allocate nothing. The query
 * point arrives in a Float64Array, not as number arguments: V8 boxes a double passed to a
 * call it does not inline (16 bytes each), and these kernels are too large to be inlined
 * reliably.
 *
 * Source: Game Engine Architecture, 2nd ed. (Jason Gregory), "Complex LERP Blends" ("generalized one-dimensional LERP blending" and "simple
 * two-dimensional LERP blending").
 */
import type { IssueList } from '../AnimationError.js';

/** Sample indices ordered by ascending x (the caller has refused equal x already). */
export function sortByX(xs: Float64Array): Uint32Array {
  const order = Array.from({ length: xs.length }, (_, i) => i).sort((a, b) => xs[a] - xs[b]);
  return Uint32Array.from(order);
}

/**
 * Generalized 1D LERP. With the samples sorted by x (`x₀ < x₁ < … < xₙ₋₁`), x is clamped to
 * [x₀, xₙ₋₁]; for `xₖ ≤ x < xₖ₊₁` the weights are `1 − u` on sample k and `u` on sample k + 1,
 * `u = (x − xₖ) / (xₖ₊₁ − xₖ)`, so a query at a sample puts weight 1 on it.
 *
 * Reads `x = query[0]` (finite); writes `out[0 .. xs.length)`, indexed by input sample.
 */
export function weights1d(order: Uint32Array, xs: Float64Array, query: Float64Array, out: Float64Array): void {
  const x = query[0];
  const n = order.length;
  out.fill(0, 0, n);
  const first = order[0];
  const last = order[n - 1];
  if (x <= xs[first]) {
    out[first] = 1;
    return;
  }
  if (x >= xs[last]) {
    out[last] = 1;
    return;
  }
  // Binary search for the last sorted sample with x ≤ query: lo ends with xs[order[lo]] ≤ x < xs[order[lo + 1]].
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (xs[order[mid]] <= x) lo = mid;
    else hi = mid;
  }
  const a = order[lo];
  const b = order[lo + 1];
  const r = (x - xs[a]) / (xs[b] - xs[a]);
  const u = r > 0 ? (r < 1 ? r : 1) : 0; // clamped to [0, 1] in place (NaN, ∞/∞ from extreme inputs, becomes 0): a double passed to a call V8 does not inline is boxed
  out[a] = 1 - u;
  out[b] = u;
}

/**
 * Finds the corners of four samples forming an axis-aligned rectangle. Returns the sample
 * indices in the order `[(x₀, y₀), (x₁, y₀), (x₀, y₁), (x₁, y₁)]` with `x₀ < x₁`, `y₀ < y₁`, or
 * records why they do not and returns null. Positions are finite and distinct (checked first).
 */
export function findCorners(issues: IssueList, xs: Float64Array, ys: Float64Array): Uint32Array | null {
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  if (minX === maxX || minY === maxY) {
    issues.add('samples', `all have ${minX === maxX ? `x = ${minX}` : `y = ${minY}`}: a bilinear space needs a rectangle of non-zero width and height`);
    return null;
  }
  const corners = new Uint32Array(4);
  let ok = true;
  for (let i = 0; i < 4; i++) {
    const onX = xs[i] === minX || xs[i] === maxX;
    const onY = ys[i] === minY || ys[i] === maxY;
    if (!onX || !onY) {
      ok = false;
      issues.add(
        `samples[${i}]`,
        `at (${xs[i]}, ${ys[i]}) is not a corner of the bounding box x ∈ [${minX}, ${maxX}], y ∈ [${minY}, ${maxY}]: bilinear samples must form an axis-aligned rectangle`,
      );
      continue;
    }
    // Distinct positions on a 2 × 2 grid of corners: each corner is taken exactly once.
    corners[(xs[i] === maxX ? 1 : 0) + (ys[i] === maxY ? 2 : 0)] = i;
  }
  return ok ? corners : null;
}

/**
 * Simple 2D LERP over four corners A = (x₀, y₀), B = (x₁, y₀), C = (x₀, y₁), D = (x₁, y₁): blend
 * A–B and C–D by `u = (x − x₀) / (x₁ − x₀)`, then the two results by `v = (y − y₀) / (y₁ − y₀)`,
 * u and v clamped to [0, 1]. Expanded, the weights are
 * `A: (1 − u)(1 − v)`, `B: u(1 − v)`, `C: (1 − u)v`, `D: uv`.
 *
 * `corners` is {@link findCorners}'s output; reads `(x, y) = (query[0], query[1])` (finite);
 * writes `out[0 .. 4)`.
 */
export function weightsBilinear(corners: Uint32Array, xs: Float64Array, ys: Float64Array, query: Float64Array, out: Float64Array): void {
  const x = query[0];
  const y = query[1];
  const a = corners[0];
  const b = corners[1];
  const c = corners[2];
  const d = corners[3];
  const x0 = xs[a];
  const y0 = ys[a];
  const ru = (x - x0) / (xs[b] - x0), rv = (y - y0) / (ys[c] - y0);
  const u = ru > 0 ? (ru < 1 ? ru : 1) : 0, v = rv > 0 ? (rv < 1 ? rv : 1) : 0; // as in weights1d
  out[a] = (1 - u) * (1 - v);
  out[b] = u * (1 - v);
  out[c] = (1 - u) * v;
  out[d] = u * v;
}
