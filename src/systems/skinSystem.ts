/**
 * skinSystem — turns each character's local pose into model-space matrices and the skinning
 * matrix palette (GEA "skinning and matrix palette generation").
 *
 * Reads:  Character.skeleton/jointCount, LocalPose, the skeleton registry (parents, inverse bind).
 * Writes: ModelPose (in a world without it, `modelPose: false`, this thread's
 *         `world.scratch.skinModel` row instead, each character's over the last), SkinPalette.
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
import { OUTPUT_REST } from '../components/Inertialization.js';
import { updateRange } from '../components/UpdateList.js';
import { composeModel, composeSkin } from '../math/composeModel.js';
import * as layout from '../math/layout.js';
import { syncKernelArea, type WasmKernels } from '../wasm/kernels.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import type { AnimationWorld, ScratchOf } from '../world.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;
const POSE_BYTES = POSE_STRIDE * 4;
const MATRIX_BYTES = MATRIX_STRIDE * 4;

/**
 * skinSystem's scratch (FrameSystem.scratch, built once per world and per thread):
 * `world.scratch.skinModel`, two rows of `maxJoints × 12` floats in the pool buffer (so the
 * WebAssembly kernels reach them): the first holds one character's model matrices where a
 * world without ModelPose (`modelPose: false`) composes them; the second takes the palette
 * {@link composeModelRow} computes alongside and discards.
 */
export const skinScratch = {
  skinModel: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, 2 * maxJoints * MATRIX_STRIDE),
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof skinScratch> {}
}

/**
 * The element offset in {@link modelArrayOf} where character `eid`'s model matrices are
 * composed: its row of `ModelPose`, or in a world without ModelPose (`modelPose: false`,
 * `ModelPose.data` empty) 0, this thread's scratch row, which each character overwrites.
 */
export function modelRowOf(world: AnimationWorld, eid: number): number {
  return eid * modelStride(world);
}

/** Floats from one character's model matrices to the next's in {@link modelArrayOf}: a ModelPose row, or 0 (every character in the one scratch row). */
function modelStride(world: AnimationWorld): number {
  return world.components.ModelPose.data.length === 0 ? 0 : world.maxJoints * MATRIX_STRIDE;
}

/** The array {@link modelRowOf} is an offset into: `ModelPose.data`, or the scratch row in a world without ModelPose. */
export function modelArrayOf(world: AnimationWorld): Float32Array {
  const model = world.components.ModelPose.data;
  return model.length === 0 ? world.scratch.skinModel : model;
}

/**
 * Composes character `eid`'s model matrices from its local pose into the scratch row (element
 * offset 0 of `world.scratch.skinModel`) as the kernels that last composed them did, so they
 * have the bits a ModelPose row would hold: for the API of a world without ModelPose. Before
 * the character's first update (`Inertialization.outputLevel` still `OUTPUT_REST`) that is
 * `spawnCharacter`'s JavaScript kernel; after it, the frame's skinning — the WebAssembly `skin`
 * kernel where its skeleton has a copy in the kernel area, else the JavaScript kernel. Writes
 * only the scratch.
 */
export function composeModelRow(world: AnimationWorld, eid: number): void {
  const { Character, LocalPose, Inertialization } = world.components;
  const scratch = world.scratch.skinModel;
  const jointCount = Character.jointCount[eid];
  const kernels = world.wasm;
  if (kernels !== null && Inertialization.outputLevel[eid] !== OUTPUT_REST) {
    const id = Character.skeleton[eid], table = kernels.area.skinTable;
    const parents = id * 2 < table.length ? table[id * 2] : 0;
    if (parents !== 0) {
      const local = LocalPose.data.byteOffset + eid * world.maxJoints * POSE_BYTES;
      kernels.skin(local, scratch.byteOffset, scratch.byteOffset + world.maxJoints * MATRIX_BYTES, parents, table[id * 2 + 1], jointCount);
      return;
    }
  }
  const skeleton = world.assets.skeletons[Character.skeleton[eid]];
  computeModelPose(scratch, 0, LocalPose.data, eid * world.maxJoints * POSE_STRIDE, skeleton.parents, jointCount);
}

/** Computes every character's model matrices and palette; see the file header. */
export function skinSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  if (world.wasm !== null) syncKernelArea(world.wasm, world.assets.skeletons, world.assets.clips);
  skinEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link skinSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function skinEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { Character, LocalPose, SkinPalette } = world.components;
  const local = LocalPose.data;
  const model = modelArrayOf(world);
  const modelRow = modelStride(world);
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
    composeSkin(model, eid * modelRow, palette, matrixOff, local, eid * maxJoints * POSE_STRIDE, skeleton.parents, skeleton.inverseBind, jointCount);
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
  const { Character, LocalPose, SkinPalette } = world.components;
  const updated = world.updates.eids;
  const poseRow = world.maxJoints * POSE_BYTES;
  const matrixRow = world.maxJoints * MATRIX_BYTES;
  const modelArray = modelArrayOf(world);
  const modelRow = modelStride(world) * 4; // bytes
  const local = LocalPose.data.byteOffset, model = modelArray.byteOffset, palette = SkinPalette.data.byteOffset;
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
    entry = skinEntries(eidsAt, entry, last, skeletonAt, jointCountAt, table.byteOffset, tableIds, local, model, palette, poseRow, matrixRow, modelRow);
    if (entry >= last) break;
    skinOne(world, updated[entry]);
    entry++;
  }
}

/** {@link skinWasm} one `skin` call per character: for an update list outside the kernels' memory (a worker's). */
function skinEach(world: AnimationWorld, kernels: WasmKernels, first: number, last: number): void {
  const { Character, LocalPose, SkinPalette } = world.components;
  const updated = world.updates.eids;
  const poseRow = world.maxJoints * POSE_BYTES;
  const matrixRow = world.maxJoints * MATRIX_BYTES;
  const modelArray = modelArrayOf(world);
  const modelRow = modelStride(world) * 4; // bytes
  const local = LocalPose.data.byteOffset, model = modelArray.byteOffset, palette = SkinPalette.data.byteOffset;
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
    skin(local + eid * poseRow, model + eid * modelRow, palette + eid * matrixRow, parents, table[id * 2 + 1], Character.jointCount[eid]);
  }
}

/** One character through the JavaScript kernels (a skeleton the kernel area could not hold). */
function skinOne(world: AnimationWorld, eid: number): void {
  const { Character, LocalPose, SkinPalette } = world.components;
  const skeleton = world.assets.skeletons[Character.skeleton[eid]];
  const jointCount = Character.jointCount[eid];
  const matrixOff = eid * world.maxJoints * MATRIX_STRIDE;
  composeSkin(modelArrayOf(world), modelRowOf(world, eid), SkinPalette.data, matrixOff, LocalPose.data, eid * world.maxJoints * POSE_STRIDE, skeleton.parents, skeleton.inverseBind, jointCount);
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
