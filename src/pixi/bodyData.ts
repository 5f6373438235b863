/**
 * What the crowd shader pulls per body, built on the CPU without pixi.js: the body's vertices
 * in triangle-list order ("corners": vertex `indices[k]` for k = 0 … indexCount − 1), 4 texels
 * (16 floats, `BODY_STRIDE`) each, as an rgba32float image; and the bounding sphere of its bind
 * positions that frustum culling tests.
 *
 * A body with per-vertex base colours (several primitives of different materials) or morph
 * targets has a 5th texel per corner: (r, g, b, row + 1), the base colour of its primitive and
 * its vertex's row of morph deltas (0: none). The deltas follow the corners, from texel
 * `morphBase`: for row r and target k, 2 texels at `morphBase + (r × targets + k) × 2`:
 * (Δx, Δy, Δz, Δnx), (Δny, Δnz, 0, 0). A body with neither keeps 4 texels per corner.
 */
import { BODY_STRIDE, MORPH_DELTA_FLOATS, type BodyArrays } from './bodyArrays.js';

/** Texels per corner in the vertex texture of a body without per-vertex colours or morph targets. */
export const TEXELS_PER_CORNER = BODY_STRIDE / 4;
/** Texels per corner with the colour and morph-row texel. */
export const TEXELS_PER_CORNER_EXTRA = TEXELS_PER_CORNER + 1;
/** Texels per (morphed vertex, target). */
export const TEXELS_PER_DELTA = 2;
/** Widest vertex texture row, texels (1,024 corners). */
const MAX_WIDTH = 4096;

/** Index of the radius in a bind sphere (centre x y z at 0 … 2). */
export const SPHERE_RADIUS = 3;

/** The vertex texture of a body. */
export interface CornerImage {
  /** Corners (the triangle list's length): the vertices one character draws. */
  readonly corners: number;
  /** width × height × 4 floats. */
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  /** Texels per corner: {@link TEXELS_PER_CORNER}, or {@link TEXELS_PER_CORNER_EXTRA} with colours or morph targets. */
  readonly texelsPerCorner: number;
  /** First texel of the morph deltas (after the corners); 0 without morph targets. */
  readonly morphBase: number;
}

/**
 * The body's corners (and morph deltas) as an image, zero-padded to whole rows.
 * @param colors per-vertex base colour (V×3), or null for none (the body's factor applies).
 */
export function cornerImage(arrays: BodyArrays, colors: Float32Array | null = null): CornerImage {
  const corners = arrays.indices.length;
  const morphs = arrays.morphs;
  const extra = colors !== null || morphs !== null;
  const perCorner = extra ? TEXELS_PER_CORNER_EXTRA : TEXELS_PER_CORNER;
  const targets = morphs === null ? 0 : morphs.names.length;
  const morphBase = morphs === null ? 0 : corners * perCorner;
  const texels = Math.max(1, corners * perCorner + (morphs === null ? 0 : morphs.rowCount * targets * TEXELS_PER_DELTA));
  const width = Math.min(MAX_WIDTH, texels);
  const height = Math.ceil(texels / width);
  const data = new Float32Array(width * height * 4);
  const floats = perCorner * 4;
  for (let k = 0; k < corners; k++) {
    const vertex = arrays.indices[k], v = vertex * BODY_STRIDE, o = k * floats;
    data.set(arrays.vertices.subarray(v, v + BODY_STRIDE), o);
    if (!extra) continue;
    for (let c = 0; c < 3; c++) data[o + BODY_STRIDE + c] = colors === null ? 1 : colors[vertex * 3 + c];
    data[o + BODY_STRIDE + 3] = morphs === null ? 0 : morphs.rows[vertex] + 1;
  }
  if (morphs !== null) {
    for (let d = 0, n = morphs.rowCount * targets; d < n; d++) {
      const src = d * MORPH_DELTA_FLOATS, o = (morphBase + d * TEXELS_PER_DELTA) * 4;
      for (let c = 0; c < MORPH_DELTA_FLOATS; c++) data[o + c] = morphs.deltas[src + c];
    }
  }
  return { corners, data, width, height, texelsPerCorner: perCorner, morphBase };
}

/**
 * The sphere around the bind positions ([centre x, y, z, radius]: the box's centre, the
 * farthest vertex from it), its radius × `margin` for the reach of animation.
 */
export function bindSphere(arrays: BodyArrays, margin = 1.5): Float64Array {
  const v = arrays.vertices;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let o = 0; o < v.length; o += BODY_STRIDE) {
    for (let c = 0; c < 3; c++) {
      if (v[o + c] < lo[c]) lo[c] = v[o + c];
      if (v[o + c] > hi[c]) hi[c] = v[o + c];
    }
  }
  const cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2, cz = (lo[2] + hi[2]) / 2;
  let r = 0;
  for (let o = 0; o < v.length; o += BODY_STRIDE) r = Math.max(r, Math.hypot(v[o] - cx, v[o + 1] - cy, v[o + 2] - cz));
  return Float64Array.of(cx, cy, cz, r * margin);
}
