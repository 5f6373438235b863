/**
 * blendSystem — combines each character's layer poses into its `LocalPose`.
 *
 * Reads:  Character.skeleton/jointCount, Layers.clip/weight/flags/mask/reference/pose, the
 *         skeleton, mask and reference-pose registries, `world.blendThreshold`.
 * Writes: LocalPose.
 * Order:  after sampleSystem, before skinSystem. Visits the update list (`world.updates`):
 *         characters `lodSystem` is not updating this frame keep their `LocalPose`.
 *
 * Per joint j (GEA "LERP blending", "partial-skeleton blending", "additive blending"):
 * Which layers are override and which additive: `isOverride` / `isAdditive`
 * (components/layerRules.ts).
 * 1. Override layers (not additive, weight > 0) blend by normalized weights
 *    w_k = weight_k × mask_k[j]: T and S by weighted mean, Q by the normalized weighted sum
 *    with each quaternion flipped into the first one's hemisphere (nlerp, as ozz). When the
 *    total W is below the threshold θ the rest pose joins with weight θ − W, so at W = 0 the
 *    joint is exactly at rest and fades there smoothly.
 * 2. Additive layers then apply in layer order: with S the layer's pose and R its reference,
 *    the difference D = S·R⁻¹ (Q_D = Q_S·Q_R⁻¹, T_D = T_S − T_R, S_D = S_S / S_R) is applied to
 *    the current pose T as A = D·T (Q_A = Q_D·Q_T, T_A = T_D + T_T, S_A = S_D·S_T), then
 *    blended as lerp(T, A, β) with β = weight × mask[j] (Q by nlerp).
 *
 * With WebAssembly kernels (`world.kernels === 'wasm'`) the chunk goes to `blendEntitiesWasm`
 * (src/wasm/blendWasm.ts): the override blend of unmasked layers runs on the SIMD kernel
 * `blendOverride` (assembly/kernels.ts), same bits; the rest as here.
 */
import { commitRemovals } from 'bitecs';
import { MAX_LAYERS } from '../components/Layers.js';
import { isAdditive, isOverride } from '../components/layerRules.js';
import { updateRange } from '../components/UpdateList.js';
import { applyAdditiveLayer, blendOverrideLayers, blendTwoLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import { blendEntitiesWasm } from '../wasm/blendWasm.js';
import type { AnimationWorld, ScratchOf } from '../world.js';

/**
 * blendSystem's scratch (FrameSystem.scratch, built once per world): the override layers of
 * the character being blended — pose offsets, weights, masks (`MAX_LAYERS` each).
 */
export const blendScratch = {
  layerOff: (): Int32Array => new Int32Array(MAX_LAYERS),
  layerWeight: (): Float32Array => new Float32Array(MAX_LAYERS),
  layerMask: (): (Float32Array | null)[] => new Array<Float32Array | null>(MAX_LAYERS).fill(null),
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof blendScratch> {}
}

/** Blends every character's layers into its local pose; see the file header. */
export function blendSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  blendEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link blendSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function blendEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  if (world.wasm !== null) {
    blendEntitiesWasm(world, world.wasm, dt, first, end);
    return;
  }
  const { Character, Layers, LocalPose } = world.components;
  const { weight, mask, reference, pose } = Layers;
  const { skeletons, masks, references } = world.assets;
  const { layerOff, layerWeight, layerMask } = world.scratch;
  const { local: localViews, layers: layerViews } = world.views;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const rest = skeletons[Character.skeleton[eid]].rest;
    const outOff = eid * poseSize;

    let count = 0;
    let single = -1; // the slot of the first override layer, for the one-layer fast path
    for (let li = eid * MAX_LAYERS, last = li + MAX_LAYERS; li < last; li++) {
      if (!isOverride(Layers, li)) continue;
      if (count === 0) single = li;
      layerOff[count] = li * poseSize;
      layerWeight[count] = weight[li];
      layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
      count++;
    }
    if (count === 1 && layerMask[0] === null && layerWeight[0] >= threshold[0]) {
      // One unmasked layer above the threshold: its pose is the blend. Copy it natively.
      localViews[eid].set(layerViews[single]);
    } else if (count === 2 && layerMask[0] === null && layerMask[1] === null && layerWeight[0] + layerWeight[1] >= threshold[0]) {
      // Two unmasked layers, the rest pose out of it: the written-out kernel (same bits).
      blendTwoLayers(local, outOff, pose, layerOff[0], layerOff[1], layerWeight, jointCount);
    } else {
      blendOverrideLayers(local, outOff, rest, pose, layerOff, layerWeight, layerMask, count, jointCount, threshold);
    }

    for (let li = eid * MAX_LAYERS, last = li + MAX_LAYERS; li < last; li++) {
      if (!isAdditive(Layers, li)) continue;
      const layerMaskWeights = mask[li] >= 0 ? masks[mask[li]] : null;
      applyAdditiveLayer(local, outOff, pose, li * poseSize, references[reference[li]], weight, li, layerMaskWeights, jointCount);
    }
  }
}

export { applyAdditiveLayer, blendOverrideLayers }; // the kernels, exported with their system for tests
