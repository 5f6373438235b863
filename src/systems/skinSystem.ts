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
 * Local → model is the shared kernel `composeModel` (`src/math/composeModel.ts`); the frame
 * runs its one-pass form `composeSkin`, one call per character, which writes each joint's
 * palette matrix right after its model matrix (the bits of `composeModel` then
 * `computeSkinPalette`; 5 % faster at 10,000 × 64). The palette kernel writes out what `affine.multiply`
 * computes instead of calling it: measured at 5,000 × 64 joints, calls per joint (which V8
 * does not inline here) made this system 2.1× slower (19.5 vs 9.1 ms per frame).
 * `test/math` and the three.js oracle pin both versions to the same numbers.
 *
 * With WebAssembly kernels (`world.kernels === 'wasm'`) a chunk is one call of the SIMD kernel
 * `skinEntries` (assembly/kernels.ts), which walks the update list on the pools in the world's
 * memory and gives the same bits as the loops here; a character whose skeleton the kernel area
 * could not hold (src/wasm/kernels.ts) goes through the loops.
 */
import { commitRemovals } from 'bitecs';
import { updateRange } from '../components/UpdateList.js';
import { composeModel, composeSkin } from '../math/composeModel.js';
import * as layout from '../math/layout.js';
import { syncKernelArea, type WasmKernels } from '../wasm/kernels.js';
import type { AnimationWorld } from '../world.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;
const POSE_BYTES = POSE_STRIDE * 4;
const MATRIX_BYTES = MATRIX_STRIDE * 4;

/** Computes every character's model matrices and palette; see the file header. */
export function skinSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  if (world.wasm !== null) syncKernelArea(world.wasm, world.assets.skeletons, world.assets.clips);
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
  if (world.wasm !== null) {
    skinWasm(world, world.wasm, first, last);
    return;
  }

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const skeleton = skeletons[Character.skeleton[eid]];
    const matrixOff = eid * maxJoints * MATRIX_STRIDE;
    composeSkin(model, matrixOff, palette, matrixOff, local, eid * maxJoints * POSE_STRIDE, skeleton.parents, skeleton.inverseBind, jointCount);
  }
}

/**
 * {@link skinEntities} on WebAssembly kernels: update-list entries `[first, last)` in one call of
 * the chunk kernel `skinEntries`, which reads each character's skeleton id and the kernel
 * area's table of skeleton copies (`area.skinTable`, written before the frame by
 * `syncKernelArea`). An entry it leaves (a skeleton with no copy: the area was full, or its id
 * is beyond the table) is skinned here on the JavaScript kernels, and the kernel called again
 * after it.
 */
function skinWasm(world: AnimationWorld, kernels: WasmKernels, first: number, last: number): void {
  const { Character, LocalPose, ModelPose, SkinPalette } = world.components;
  const updated = world.updates.eids;
  const poseRow = world.maxJoints * POSE_BYTES;
  const matrixRow = world.maxJoints * MATRIX_BYTES;
  const local = LocalPose.data.byteOffset, model = ModelPose.data.byteOffset, palette = SkinPalette.data.byteOffset;
  const { skinEntries } = kernels;
  const table = kernels.area.skinTable, tableIds = table.length >> 1;
  kernels.area.chunks[kernels.thread]++;
  if (updated.buffer !== kernels.poolBuffer) {
    skinEach(world, kernels, first, last); // a worker's update list, outside the memory
    return;
  }
  const eidsAt = updated.byteOffset, skeletonAt = Character.skeleton.byteOffset, jointCountAt = Character.jointCount.byteOffset;
  let entry = first;
  while (entry < last) {
    entry = skinEntries(eidsAt, entry, last, skeletonAt, jointCountAt, table.byteOffset, tableIds, local, model, palette, poseRow, matrixRow);
    if (entry >= last) break;
    skinOne(world, updated[entry]);
    entry++;
  }
}

/** {@link skinWasm} one `skin` call per character: for an update list outside the kernels' memory (a worker's). */
function skinEach(world: AnimationWorld, kernels: WasmKernels, first: number, last: number): void {
  const { Character, LocalPose, ModelPose, SkinPalette } = world.components;
  const updated = world.updates.eids;
  const poseRow = world.maxJoints * POSE_BYTES;
  const matrixRow = world.maxJoints * MATRIX_BYTES;
  const local = LocalPose.data.byteOffset, model = ModelPose.data.byteOffset, palette = SkinPalette.data.byteOffset;
  const { skin } = kernels;
  const table = kernels.area.skinTable;
  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const id = Character.skeleton[eid];
    const parents = id * 2 < table.length ? table[id * 2] : 0;
    if (parents === 0) {
      skinOne(world, eid);
      continue;
    }
    skin(local + eid * poseRow, model + eid * matrixRow, palette + eid * matrixRow, parents, table[id * 2 + 1], Character.jointCount[eid]);
  }
}

/** One character through the JavaScript kernels (a skeleton the kernel area could not hold). */
function skinOne(world: AnimationWorld, eid: number): void {
  const { Character, LocalPose, ModelPose, SkinPalette } = world.components;
  const skeleton = world.assets.skeletons[Character.skeleton[eid]];
  const jointCount = Character.jointCount[eid];
  const matrixOff = eid * world.maxJoints * MATRIX_STRIDE;
  composeSkin(ModelPose.data, matrixOff, SkinPalette.data, matrixOff, LocalPose.data, eid * world.maxJoints * POSE_STRIDE, skeleton.parents, skeleton.inverseBind, jointCount);
}

/**
 * Local poses (`jointCount × 10` at `localOff`) → model matrices (`jointCount × 12` at
 * `modelOff`), parents first. `parents[j]` is −1 for roots and below j otherwise. The whole
 * pose through the one local → model kernel, `composeModel` (`src/math/composeModel.ts`).
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
  composeModel(model, modelOff, MATRIX_STRIDE, local, localOff, parents, 0, jointCount);
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
    const a00 = model[a + MATRIX_X], a10 = model[a + MATRIX_X + 1], a20 = model[a + MATRIX_X + 2];
    const a01 = model[a + MATRIX_Y], a11 = model[a + MATRIX_Y + 1], a21 = model[a + MATRIX_Y + 2];
    const a02 = model[a + MATRIX_Z], a12 = model[a + MATRIX_Z + 1], a22 = model[a + MATRIX_Z + 2];
    const b00 = inverseBind[b + MATRIX_X], b10 = inverseBind[b + MATRIX_X + 1], b20 = inverseBind[b + MATRIX_X + 2];
    const b01 = inverseBind[b + MATRIX_Y], b11 = inverseBind[b + MATRIX_Y + 1], b21 = inverseBind[b + MATRIX_Y + 2];
    const b02 = inverseBind[b + MATRIX_Z], b12 = inverseBind[b + MATRIX_Z + 1], b22 = inverseBind[b + MATRIX_Z + 2];
    const btx = inverseBind[b + MATRIX_T], bty = inverseBind[b + MATRIX_T + 1], btz = inverseBind[b + MATRIX_T + 2];
    palette[o + MATRIX_X] = a00 * b00 + a01 * b10 + a02 * b20;
    palette[o + MATRIX_X + 1] = a10 * b00 + a11 * b10 + a12 * b20;
    palette[o + MATRIX_X + 2] = a20 * b00 + a21 * b10 + a22 * b20;
    palette[o + MATRIX_Y] = a00 * b01 + a01 * b11 + a02 * b21;
    palette[o + MATRIX_Y + 1] = a10 * b01 + a11 * b11 + a12 * b21;
    palette[o + MATRIX_Y + 2] = a20 * b01 + a21 * b11 + a22 * b21;
    palette[o + MATRIX_Z] = a00 * b02 + a01 * b12 + a02 * b22;
    palette[o + MATRIX_Z + 1] = a10 * b02 + a11 * b12 + a12 * b22;
    palette[o + MATRIX_Z + 2] = a20 * b02 + a21 * b12 + a22 * b22;
    palette[o + MATRIX_T] = a00 * btx + a01 * bty + a02 * btz + model[a + MATRIX_T];
    palette[o + MATRIX_T + 1] = a10 * btx + a11 * bty + a12 * btz + model[a + MATRIX_T + 1];
    palette[o + MATRIX_T + 2] = a20 * btx + a21 * bty + a22 * btz + model[a + MATRIX_T + 2];
  }
}
