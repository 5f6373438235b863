/**
 * What the crowd shader pulls per body, built on the CPU without pixi.js: the body's vertices
 * in triangle-list order ("corners": vertex `indices[k]` for k = 0 … indexCount − 1), 4 texels
 * (16 floats, `BODY_STRIDE`) each, as an rgba32float image whose rows hold whole corners; and
 * the bounding sphere of its bind positions that frustum culling tests.
 */
import { BODY_STRIDE, type BodyArrays } from './bodyArrays.js';

/** Texels per corner in the vertex texture. */
export const TEXELS_PER_CORNER = BODY_STRIDE / 4;
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
}

/** The body's corners as an image (zero-padded to whole rows). */
export function cornerImage(arrays: BodyArrays): CornerImage {
  const corners = arrays.indices.length;
  const texels = Math.max(1, corners) * TEXELS_PER_CORNER;
  const width = Math.min(MAX_WIDTH, texels);
  const height = Math.ceil(texels / width);
  const data = new Float32Array(width * height * 4);
  for (let k = 0; k < corners; k++) {
    const v = arrays.indices[k] * BODY_STRIDE;
    data.set(arrays.vertices.subarray(v, v + BODY_STRIDE), k * BODY_STRIDE);
  }
  return { corners, data, width, height };
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
