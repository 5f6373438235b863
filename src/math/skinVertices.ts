import * as layout from './layout.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;

/** Joint indices of skinned vertices: any unsigned or signed integer typed array. */
export type JointIndexArray = Uint8Array | Uint16Array | Uint32Array | Int16Array | Int32Array;

/**
 * CPU linear blend skinning (GEA "matrix palette"): each vertex v of the bind pose moves to
 * Σᵢ wᵢ · Kᵢ · v over its (at most) 4 influences, with Kᵢ the palette matrix of joint
 * `joints[4v + i]` (3×4 column-major, 12 floats, as `getSkinPalette` returns).
 *
 * - `positions`: bind-pose vertices, 3 floats each; `out` receives the same layout and may be
 *   `positions` itself.
 * - `joints`, `weights`: 4 per vertex. Weights are used as given (import normalizes them to sum
 *   1); an influence of weight 0 is skipped, so its joint index need not be valid.
 * - No allocation; no validation (a hot kernel): joint indices must be within the palette.
 *
 * @example
 * skinVertices(getSkinPalette(world, eid), mesh.positions, mesh.joints, mesh.weights, skinned);
 */
export function skinVertices(
  palette: Float32Array,
  positions: Float32Array,
  joints: JointIndexArray,
  weights: Float32Array,
  out: Float32Array,
): void {
  const vertexCount = Math.floor(positions.length / 3);
  for (let v = 0; v < vertexCount; v++) {
    const p = v * 3;
    const x = positions[p], y = positions[p + 1], z = positions[p + 2];
    let ox = 0, oy = 0, oz = 0;
    for (let i = v * 4, end = i + 4; i < end; i++) {
      const w = weights[i];
      if (w === 0) continue;
      const m = joints[i] * MATRIX_STRIDE;
      ox += w * (palette[m + MATRIX_X] * x + palette[m + MATRIX_Y] * y + palette[m + MATRIX_Z] * z + palette[m + MATRIX_T]);
      oy += w * (palette[m + MATRIX_X + 1] * x + palette[m + MATRIX_Y + 1] * y + palette[m + MATRIX_Z + 1] * z + palette[m + MATRIX_T + 1]);
      oz += w * (palette[m + MATRIX_X + 2] * x + palette[m + MATRIX_Y + 2] * y + palette[m + MATRIX_Z + 2] * z + palette[m + MATRIX_T + 2]);
    }
    out[p] = ox;
    out[p + 1] = oy;
    out[p + 2] = oz;
  }
}
