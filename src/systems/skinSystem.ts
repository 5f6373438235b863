/**
 * skinSystem — turns each character's local pose into model-space matrices and the skinning
 * matrix palette (GEA "skinning and matrix palette generation").
 *
 * Reads:  Character.skeleton/jointCount, LocalPose, the skeleton registry (parents, inverse bind).
 * Writes: ModelPose, SkinPalette.
 * Order:  last in the frame. Visits the update list (`world.updates`): characters `lodSystem`
 *         is not updating this frame keep their matrices and palette.
 *
 * Model space: C_j = C_parent(j) · L_j with L_j = T·R·S from the joint's local pose (roots:
 * C_j = L_j); joints are parents first, so one forward pass suffices. Palette: K_j = C_j · B_j⁻¹
 * (column-vector convention, so a bind-pose vertex v skins to Σ w_i K_i v). Matrices are
 * 3×4 column-major, 12 floats: `m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz`.
 *
 * The kernels write out what `affine.fromSQT` and `affine.multiply` compute instead of calling
 * them: measured at 5,000 × 64 joints, the calls (which V8 does not inline here) made this
 * system 2.1× slower (19.5 vs 9.1 ms per frame). `test/math` and the three.js oracle pin both
 * versions to the same numbers.
 */
import { commitRemovals } from 'bitecs';
import { updateRange } from '../components/UpdateList.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';

/** Computes every character's model matrices and palette; see the file header. */
export function skinSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  skinEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link skinSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function skinEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { Character, LocalPose, ModelPose, SkinPalette } = world.components;
  const local = LocalPose.data;
  const model = ModelPose.data;
  const palette = SkinPalette.data;
  const skeletons = world.assets.skeletons;
  const maxJoints = world.maxJoints;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const skeleton = skeletons[Character.skeleton[eid]];
    const matrixOff = eid * maxJoints * MATRIX_STRIDE;
    computeModelPose(model, matrixOff, local, eid * maxJoints * POSE_STRIDE, skeleton.parents, jointCount);
    computeSkinPalette(palette, matrixOff, model, matrixOff, skeleton.inverseBind, jointCount);
  }
}

/**
 * Local poses (`jointCount × 10` at `localOff`) → model matrices (`jointCount × 12` at
 * `modelOff`), parents first. `parents[j]` is −1 for roots and below j otherwise.
 * Pure kernel: writes only the model block.
 */
export function computeModelPose(
  model: Float32Array,
  modelOff: number,
  local: Float32Array,
  localOff: number,
  parents: Int16Array,
  jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const l = localOff + j * POSE_STRIDE;
    const o = modelOff + j * MATRIX_STRIDE;
    // L = T·R·S (three.js Matrix4.compose)
    const x = local[l + 3], y = local[l + 4], z = local[l + 5], w = local[l + 6];
    const sx = local[l + 7], sy = local[l + 8], sz = local[l + 9];
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;
    const ltx = local[l], lty = local[l + 1], ltz = local[l + 2];
    const parent = parents[j];
    if (parent < 0) {
      model[o] = l00; model[o + 1] = l10; model[o + 2] = l20;
      model[o + 3] = l01; model[o + 4] = l11; model[o + 5] = l21;
      model[o + 6] = l02; model[o + 7] = l12; model[o + 8] = l22;
      model[o + 9] = ltx; model[o + 10] = lty; model[o + 11] = ltz;
      continue;
    }
    const p = modelOff + parent * MATRIX_STRIDE;
    const p00 = model[p], p10 = model[p + 1], p20 = model[p + 2];
    const p01 = model[p + 3], p11 = model[p + 4], p21 = model[p + 5];
    const p02 = model[p + 6], p12 = model[p + 7], p22 = model[p + 8];
    model[o] = p00 * l00 + p01 * l10 + p02 * l20;
    model[o + 1] = p10 * l00 + p11 * l10 + p12 * l20;
    model[o + 2] = p20 * l00 + p21 * l10 + p22 * l20;
    model[o + 3] = p00 * l01 + p01 * l11 + p02 * l21;
    model[o + 4] = p10 * l01 + p11 * l11 + p12 * l21;
    model[o + 5] = p20 * l01 + p21 * l11 + p22 * l21;
    model[o + 6] = p00 * l02 + p01 * l12 + p02 * l22;
    model[o + 7] = p10 * l02 + p11 * l12 + p12 * l22;
    model[o + 8] = p20 * l02 + p21 * l12 + p22 * l22;
    model[o + 9] = p00 * ltx + p01 * lty + p02 * ltz + model[p + 9];
    model[o + 10] = p10 * ltx + p11 * lty + p12 * ltz + model[p + 10];
    model[o + 11] = p20 * ltx + p21 * lty + p22 * ltz + model[p + 11];
  }
}

/**
 * Skinning palette K_j = C_j · B_j⁻¹ for `jointCount` joints: `model` at `modelOff` times
 * `inverseBind` (from offset 0), written to `palette` at `paletteOff` (12 floats per joint).
 * Pure kernel; `palette` must not alias `model`.
 */
export function computeSkinPalette(
  palette: Float32Array,
  paletteOff: number,
  model: Float32Array,
  modelOff: number,
  inverseBind: Float32Array,
  jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const a = modelOff + j * MATRIX_STRIDE;
    const b = j * MATRIX_STRIDE;
    const o = paletteOff + j * MATRIX_STRIDE;
    const a00 = model[a], a10 = model[a + 1], a20 = model[a + 2];
    const a01 = model[a + 3], a11 = model[a + 4], a21 = model[a + 5];
    const a02 = model[a + 6], a12 = model[a + 7], a22 = model[a + 8];
    const b00 = inverseBind[b], b10 = inverseBind[b + 1], b20 = inverseBind[b + 2];
    const b01 = inverseBind[b + 3], b11 = inverseBind[b + 4], b21 = inverseBind[b + 5];
    const b02 = inverseBind[b + 6], b12 = inverseBind[b + 7], b22 = inverseBind[b + 8];
    const btx = inverseBind[b + 9], bty = inverseBind[b + 10], btz = inverseBind[b + 11];
    palette[o] = a00 * b00 + a01 * b10 + a02 * b20;
    palette[o + 1] = a10 * b00 + a11 * b10 + a12 * b20;
    palette[o + 2] = a20 * b00 + a21 * b10 + a22 * b20;
    palette[o + 3] = a00 * b01 + a01 * b11 + a02 * b21;
    palette[o + 4] = a10 * b01 + a11 * b11 + a12 * b21;
    palette[o + 5] = a20 * b01 + a21 * b11 + a22 * b21;
    palette[o + 6] = a00 * b02 + a01 * b12 + a02 * b22;
    palette[o + 7] = a10 * b02 + a11 * b12 + a12 * b22;
    palette[o + 8] = a20 * b02 + a21 * b12 + a22 * b22;
    palette[o + 9] = a00 * btx + a01 * bty + a02 * btz + model[a + 9];
    palette[o + 10] = a10 * btx + a11 * bty + a12 * btz + model[a + 10];
    palette[o + 11] = a20 * btx + a21 * bty + a22 * btz + model[a + 11];
  }
}
