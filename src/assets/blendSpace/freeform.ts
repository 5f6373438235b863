/**
 * Freeform 2D blend spaces: barycentric (triangular) LERP over a Delaunay triangulation of the
 * samples, with queries outside the convex hull projected onto it. The triangulation and the
 * per-triangle and per-edge tables are built once; the weight kernel allocates nothing.
 *
 * Sources: Game Engine Architecture, 2nd ed. (Jason Gregory), "Triangular two-dimensional LERP
 * blending" and "generalized two-dimensional LERP blending":
 * `P = αP₀ + βP₁ + γP₂` with `α + β + γ = 1`, where (α, β, γ) are the query's barycentric
 * coordinates in the triangle of samples that contains it. Triangulation: delaunator
 * (Agafonkin, sweep-hull Delaunay with robust orientation predicates).
 */
import Delaunator from 'delaunator';
import type { IssueList } from '../AnimationError.js';

/** Floats per triangle in `triangleFrames`: `ax ay m00 m01 m10 m11` (see {@link buildFreeform}). */
export const TRIANGLE_FRAME_STRIDE = 6;
/** Inside a triangle frame: the corner a (`ax ay`), the row giving β (`m00 m01`), the row giving γ (`m10 m11`). */
const FRAME_ORIGIN = 0, FRAME_BETA = 2, FRAME_GAMMA = 4;
/** Floats per hull edge in `hullEdges`: `ax ay dx dy 1/|d|²`. */
export const HULL_EDGE_STRIDE = 5;
/** Inside a hull edge: its start a (`ax ay`), its direction d (`dx dy`), 1/|d|². */
const EDGE_START = 0, EDGE_DIRECTION = 2, EDGE_INVERSE_LENGTH2 = 4;

/**
 * How far outside a triangle, in barycentric units, a query still counts as inside: points on
 * an edge shared by two triangles round to ±1e-16 and must land in one of them. Slightly
 * negative coordinates are clamped to 0 and the rest renormalized.
 */
const INSIDE_TOLERANCE = 1e-10;
/** A triangle with `2 × area ≤ this × extent²` is a sliver that never claims a query. */
const SLIVER = 1e-12;

/** The precomputed tables of a freeform space. */
export interface FreeformTables {
  readonly triangles: Uint32Array;
  readonly hull: Uint32Array;
  readonly triangleFrames: Float64Array;
  readonly hullEdges: Float64Array;
}

/**
 * Triangulates distinct, finite sample positions. Returns the triangles and hull, both
 * counter-clockwise with x to the right and y up (delaunator's own output is counter-clockwise
 * for y down, so it is reversed here), and the query tables:
 *
 * - `triangleFrames`, 6 floats per triangle `(a, b, c)`: `ax ay` and the inverse of the 2 × 2
 *   matrix `[b − a, c − a]`, so for `w = q − a`, `β = m00·wx + m01·wy` (weight of b),
 *   `γ = m10·wx + m11·wy` (weight of c) and `α = 1 − β − γ`. A sliver (2 × area ≤ 1e-12 ×
 *   extent², from nearly collinear hull samples) gets NaN coefficients: every comparison with
 *   NaN fails, so it never claims a query and the hull projection serves its points instead.
 * - `hullEdges`, 5 floats per edge `hull[k] → hull[k + 1 mod h]`: `ax ay dx dy 1/|d|²`.
 *
 * Records an issue and returns null when no triangle has an area (all samples collinear).
 */
export function buildFreeform(issues: IssueList, xs: Float64Array, ys: Float64Array): FreeformTables | null {
  const n = xs.length;
  const coords = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    coords[2 * i] = xs[i];
    coords[2 * i + 1] = ys[i];
  }
  const delaunay = new Delaunator(coords);
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const sliver = SLIVER * extent * extent;

  const count = delaunay.triangles.length / 3;
  const triangles = new Uint32Array(3 * count);
  const triangleFrames = new Float64Array(TRIANGLE_FRAME_STRIDE * count);
  let solid = 0;
  for (let t = 0; t < count; t++) {
    // Reverse to counter-clockwise in y-up axes: (a, b, c) → (a, c, b).
    const a = delaunay.triangles[3 * t];
    const b = delaunay.triangles[3 * t + 2];
    const c = delaunay.triangles[3 * t + 1];
    triangles[3 * t] = a;
    triangles[3 * t + 1] = b;
    triangles[3 * t + 2] = c;
    const ax = xs[a];
    const ay = ys[a];
    const e0x = xs[b] - ax;
    const e0y = ys[b] - ay;
    const e1x = xs[c] - ax;
    const e1y = ys[c] - ay;
    const det = e0x * e1y - e0y * e1x; // 2 × signed area, > 0 counter-clockwise
    const f = TRIANGLE_FRAME_STRIDE * t;
    triangleFrames[f + FRAME_ORIGIN] = ax;
    triangleFrames[f + FRAME_ORIGIN + 1] = ay;
    if (det > sliver) {
      solid++;
      // Cramer's rule for w = β·e0 + γ·e1.
      triangleFrames[f + FRAME_BETA] = e1y / det;
      triangleFrames[f + FRAME_BETA + 1] = -e1x / det;
      triangleFrames[f + FRAME_GAMMA] = -e0y / det;
      triangleFrames[f + FRAME_GAMMA + 1] = e0x / det;
    } else {
      triangleFrames.fill(Number.NaN, f + FRAME_BETA, f + TRIANGLE_FRAME_STRIDE);
    }
  }
  if (solid === 0) {
    const list = Array.from({ length: n }, (_, i) => `samples[${i}] (${xs[i]}, ${ys[i]})`).join(', ');
    issues.add('samples', `are collinear: ${list} lie on one line (to 1e-12 of their extent), so no triangle has an area; use a '1d' space for a line`);
    return null;
  }

  const hull = Uint32Array.from(delaunay.hull).reverse();
  const h = hull.length;
  const hullEdges = new Float64Array(HULL_EDGE_STRIDE * h);
  for (let k = 0; k < h; k++) {
    const a = hull[k];
    const b = hull[(k + 1) % h];
    const dx = xs[b] - xs[a];
    const dy = ys[b] - ys[a];
    const e = HULL_EDGE_STRIDE * k;
    hullEdges[e + EDGE_START] = xs[a];
    hullEdges[e + EDGE_START + 1] = ys[a];
    hullEdges[e + EDGE_DIRECTION] = dx;
    hullEdges[e + EDGE_DIRECTION + 1] = dy;
    hullEdges[e + EDGE_INVERSE_LENGTH2] = 1 / (dx * dx + dy * dy);
  }
  return { triangles, hull, triangleFrames, hullEdges };
}

/**
 * Freeform weights of the finite query point `(x, y) = (query[0], query[1])`, writing
 * `out[0 .. xs.length)`:
 *
 * 1. exactly at a sample: weight 1 on it;
 * 2. inside a triangle (a, b, c): its barycentric coordinates (α, β, γ), all ≥ 0, summing to 1,
 *    so `α·pa + β·pb + γ·pc = q` — the first triangle in `triangles` order wins on a shared edge;
 * 3. outside the hull: the nearest point of the hull, `p = a + t(b − a)` on the nearest edge
 *    with `t = clamp((q − a)·(b − a) / |b − a|², 0, 1)`, gives `1 − t` on a and `t` on b — two
 *    weights on an edge, one at a vertex (t = 0 or 1). Ties go to the first edge in hull order.
 *
 * Cost: O(samples + triangles + hull edges) per query, a linear scan (blend spaces hold tens
 * of samples; a walk over `halfedges` would pay off only for hundreds).
 */
export function weightsFreeform(tables: FreeformTables, xs: Float64Array, ys: Float64Array, query: Float64Array, out: Float64Array): void {
  const x = query[0];
  const y = query[1];
  const n = xs.length;
  out.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    if (xs[i] === x && ys[i] === y) {
      out[i] = 1;
      return;
    }
  }

  const triangles = tables.triangles;
  const frames = tables.triangleFrames;
  const count = triangles.length / 3;
  for (let t = 0; t < count; t++) {
    const f = TRIANGLE_FRAME_STRIDE * t;
    const wx = x - frames[f + FRAME_ORIGIN];
    const wy = y - frames[f + FRAME_ORIGIN + 1];
    let beta = frames[f + FRAME_BETA] * wx + frames[f + FRAME_BETA + 1] * wy;
    let gamma = frames[f + FRAME_GAMMA] * wx + frames[f + FRAME_GAMMA + 1] * wy;
    let alpha = 1 - beta - gamma;
    if (alpha >= -INSIDE_TOLERANCE && beta >= -INSIDE_TOLERANCE && gamma >= -INSIDE_TOLERANCE) {
      // Clamp the tolerated slightly negative coordinates (and −0) to 0.
      alpha = alpha > 0 ? alpha : 0;
      beta = beta > 0 ? beta : 0;
      gamma = gamma > 0 ? gamma : 0;
      const sum = alpha + beta + gamma; // ≥ 1 − 2e-10
      out[triangles[3 * t]] = alpha / sum;
      out[triangles[3 * t + 1]] = beta / sum;
      out[triangles[3 * t + 2]] = gamma / sum;
      return;
    }
  }

  const hull = tables.hull;
  const edges = tables.hullEdges;
  const h = hull.length;
  let bestEdge = 0;
  let bestT = 0;
  let bestD2 = Number.POSITIVE_INFINITY;
  for (let k = 0; k < h; k++) {
    const e = HULL_EDGE_STRIDE * k;
    const ax = edges[e + EDGE_START];
    const ay = edges[e + EDGE_START + 1];
    const dx = edges[e + EDGE_DIRECTION];
    const dy = edges[e + EDGE_DIRECTION + 1];
    const r = ((x - ax) * dx + (y - ay) * dy) * edges[e + EDGE_INVERSE_LENGTH2];
    const t = r > 0 ? (r < 1 ? r : 1) : 0; // clamped in place (no call: a double argument may be boxed)
    const px = x - (ax + t * dx);
    const py = y - (ay + t * dy);
    const d2 = px * px + py * py;
    if (d2 < bestD2) {
      bestD2 = d2;
      bestEdge = k;
      bestT = t;
    }
  }
  // An overflowing query (|q| near 1e308) can leave every d2 at ∞: edge 0 at t = 0 then wins.
  out[hull[bestEdge]] = 1 - bestT;
  out[hull[(bestEdge + 1) % h]] = bestT;
}
