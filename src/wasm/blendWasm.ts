/**
 * blendSystem's work on WebAssembly kernels (`world.kernels === 'wasm'`): the same per-character
 * decisions as `blendEntities` (src/systems/blendSystem.ts), with the override blend of a
 * character whose override layers carry no mask done by the SIMD kernel `blendOverride`
 * (assembly/kernels.ts), which gives `blendOverrideLayers`' bits. A single unmasked layer at
 * or above the threshold is still copied natively; masked override layers, characters whose
 * skeleton the kernel area could not hold, and the additive layers run the JavaScript kernels.
 */
import { MAX_LAYERS } from '../components/Layers.js';
import { isAdditive, isOverride } from '../components/layerRules.js';
import { updateRange } from '../components/UpdateList.js';
import { applyAdditiveLayer, blendOverrideLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import { copySkeleton, type WasmKernels } from './kernels.js';

/** `blendEntities` for the chunk `world.characters.dense[first .. end)` on `kernels` (this thread's). */
export function blendEntitiesWasm(world: AnimationWorld, kernels: WasmKernels, dt: number, first: number, end: number): void {
  const { Character, Layers, LocalPose } = world.components;
  const { weight, mask, reference, pose } = Layers;
  const { skeletons, masks, references } = world.assets;
  const { layerOff, layerWeight, layerMask } = world.scratch;
  const { local: localViews, layers: layerViews } = world.views;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const poseBytes = poseSize * 4;
  const threshold = world.scratch.blendThreshold;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);
  const { area, copied, restAt, blendOverride } = kernels;
  // The threshold where the kernel reads it (this thread's slot), so no double is passed.
  area.params[kernels.thread] = threshold[0];
  const thresholdAt = area.params.byteOffset + kernels.thread * 8;
  const localAt = local.byteOffset, poseAt = pose.byteOffset, weightAt = weight.byteOffset;

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const skeletonId = Character.skeleton[eid];
    const skeleton = skeletons[skeletonId];
    const outOff = eid * poseSize;
    const firstLayer = eid * MAX_LAYERS;

    let count = 0;
    let single = -1;
    let layers = 0; // override slots as bits (slot − firstLayer)
    let masked = false;
    for (let li = firstLayer, last = li + MAX_LAYERS; li < last; li++) {
      if (!isOverride(Layers, li)) continue;
      if (count === 0) single = li;
      layers |= 1 << (li - firstLayer);
      layerOff[count] = li * poseSize;
      layerWeight[count] = weight[li];
      layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
      if (mask[li] >= 0) masked = true;
      count++;
    }
    if (count === 1 && !masked && layerWeight[0] >= threshold[0]) {
      localViews[eid].set(layerViews[single]);
    } else {
      if (!masked && (skeletonId >= copied.length || copied[skeletonId] !== skeleton)) copySkeleton(kernels, skeletonId, skeleton);
      const rest = masked ? -1 : restAt[skeletonId];
      if (rest >= 0) {
        blendOverride(localAt + eid * poseBytes, poseAt + firstLayer * poseBytes, poseBytes, weightAt + firstLayer * 4, layers, jointCount, rest, thresholdAt);
      } else {
        blendOverrideLayers(local, outOff, skeleton.rest, pose, layerOff, layerWeight, layerMask, count, jointCount, threshold);
      }
    }

    for (let li = firstLayer, last = li + MAX_LAYERS; li < last; li++) {
      if (!isAdditive(Layers, li)) continue;
      const layerMaskWeights = mask[li] >= 0 ? masks[mask[li]] : null;
      applyAdditiveLayer(local, outOff, pose, li * poseSize, references[reference[li]], weight, li, layerMaskWeights, jointCount);
    }
  }
}
