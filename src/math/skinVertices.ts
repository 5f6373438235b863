import * as layout from './layout.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;

/** A morph target's position deltas as {@link skinVertices} reads them (V×3, beside the mesh's positions). */
export interface MorphDeltas {
  /** V×3 position offsets at weight 1. */
  readonly positions: Float32Array;
}

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
 * - `morphTargets`, `morphWeights` (optional): morph targets applied before skinning, as glTF
 *   does: the vertex skinned is v + Σₖ wₖ · Δₖ(v), with Δₖ the k-th target's position deltas
 *   (`morphTargets[k].positions`, V×3, in the same space as `positions`: what `loadGltf`
 *   returns as a mesh's `morphTargets`) and wₖ = `morphWeights[k]` (a target of weight 0 costs
 *   nothing). For glTF meshes the weights are the curves named after the targets
 *   (`<mesh>.<target>`, see `MorphTarget.name`).
 * - No allocation; no validation (a hot kernel): joint indices must be within the palette,
 *   every target as long as `positions`, `morphWeights` at least as long as `morphTargets`.
 *
 * @example
 * skinVertices(getSkinPalette(world, eid), mesh.positions, mesh.joints, mesh.weights, skinned);
 * @example
 * // With morph targets: one weight per target, e.g. sampled curves.
 * skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, skinned, mesh.morphTargets, morphWeights);
 */
export function skinVertices(
  palette: Float32Array,
  positions: Float32Array,
  joints: JointIndexArray,
  weights: Float32Array,
  out: Float32Array,
  morphTargets: readonly MorphDeltas[] | null = null,
  morphWeights: ArrayLike<number> | null = null,
): void {
  if (morphTargets !== null && morphWeights !== null && morphTargets.length > 0) {
    skinMorphed(palette, positions, joints, weights, out, morphTargets, morphWeights);
    return;
  }
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

/** {@link skinVertices} with morph targets: the same loop on v + Σₖ wₖΔₖ. */
function skinMorphed(
  palette: Float32Array,
  positions: Float32Array,
  joints: JointIndexArray,
  weights: Float32Array,
  out: Float32Array,
  morphTargets: readonly MorphDeltas[],
  morphWeights: ArrayLike<number>,
): void {
  const vertexCount = Math.floor(positions.length / 3);
  const targetCount = morphTargets.length;
  for (let v = 0; v < vertexCount; v++) {
    const p = v * 3;
    let x = positions[p], y = positions[p + 1], z = positions[p + 2];
    for (let k = 0; k < targetCount; k++) {
      const mw = morphWeights[k];
      if (mw === 0) continue;
      const d = morphTargets[k].positions;
      x += mw * d[p];
      y += mw * d[p + 1];
      z += mw * d[p + 2];
    }
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
