/**
 * blendSystem's work on WebAssembly kernels (`world.kernels === 'wasm'`): the same per-character
 * decisions as `blendEntities` (src/systems/blendSystem.ts). A layer of a dense clip (at the
 * character's LOD level) is sampled by the SIMD kernel `sampleClip` (unbound) or `sampleBound`
 * (through a binding without `retarget`), which give `sampleClipInto`'s bits at a key and are
 * within float32 rounding of them between keys, into the thread's `layerSamples` scratch (or
 * straight into `LocalPose` when it is the blend); the override blend of a character whose
 * override layers carry no mask is done by `blendOverride` (assembly/kernels.ts: two layers in
 * float32, within 1e-6 of `blendOverrideLayers`; more layers in doubles, its bits), of one with a
 * masked layer by `blendOverrideMasked` (float32), and each additive layer by `applyAdditive`
 * (float32; docs/wasm.md). Reduced clips, bindings with `retarget`, clips, masks, reference
 * poses and bindings the kernel area could not hold, and characters whose skeleton it could not
 * hold run the JavaScript kernels (the masked blend's per-slot mask pointers go through this
 * thread's row of `area.layerMasks`).
 *
 * `blendLayersNowWasm` repeats the per-character body of `blendEntitiesWasm` for one character
 * and another output on purpose: the chunk loop calling it per character (one function, the
 * world's fields read once per character instead of once per chunk) measured the wasm blend
 * phase 10 % slower at 10,000 × 64 joints (13.7–14.0 against 12.3 ns per joint).
 */
import { sampleClipInto } from '../assets/sampleClip.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { isAdditive, isOverride } from '../components/layerRules.js';
import { lodClipId } from '../components/Lod.js';
import { updateRange } from '../components/UpdateList.js';
import { applyAdditiveLayer, blendOverrideLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import { POSE_TABLE_IDS, sampleLayerWasm, SKIN_TABLE_IDS, type WasmKernels } from './kernels.js';

/** `blendEntities` for the chunk `world.characters.dense[first .. end)` on `kernels` (this thread's). */
export function blendEntitiesWasm(world: AnimationWorld, kernels: WasmKernels, dt: number, first: number, end: number): void {
  const { Character, Layers, LocalPose } = world.components;
  const { clip: clipIds, time, binding, weight, mask, reference, maxLayers } = Layers;
  const { skeletons, masks, references, clips, bindings } = world.assets;
  const { layerOff, layerWeight, layerMask, layerSamples: samples } = world.scratch;
  const { enabled: lodOn, level: lodLevel } = world.components.Lod;
  const clipLevels = world.lod.clipLevels;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const poseBytes = poseSize * 4;
  const threshold = world.scratch.blendThreshold;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);
  const { area, blendOverride, blendOverrideMasked } = kernels;
  const { restTable, maskTable, layerMasks } = area;
  const maskRow = kernels.thread * MAX_LAYERS, layerMasksAt = layerMasks.byteOffset + maskRow * 4;
  // The threshold where the kernel reads it (this thread's slot), so no double is passed.
  area.params[kernels.thread] = threshold[0];
  const thresholdAt = area.params.byteOffset + kernels.thread * 8;
  const localAt = local.byteOffset, samplesAt = samples.byteOffset, weightAt = weight.byteOffset, timeAt = time.byteOffset;

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const skeletonId = Character.skeleton[eid];
    const skeleton = skeletons[skeletonId];
    const outOff = eid * poseSize;
    const level = lodOn[eid] === 0 ? -1 : lodLevel[eid];
    const firstLayer = eid * maxLayers;

    let count = 0;
    let single = -1;
    let layers = 0; // override slots as bits (slot − firstLayer)
    let masked = false, uncopied = false; // a layer masked; a mask with no copy in the kernel area
    for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
      if (!isOverride(Layers, li)) continue;
      if (count === 0) single = li;
      layers |= 1 << (li - firstLayer);
      layerOff[count] = (li - firstLayer) * poseSize;
      layerWeight[count] = weight[li];
      layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
      const maskAt = mask[li] < 0 ? 0 : mask[li] < POSE_TABLE_IDS ? maskTable[mask[li]] : 0;
      layerMasks[maskRow + li - firstLayer] = maskAt;
      if (mask[li] >= 0) {
        masked = true;
        if (maskAt === 0) uncopied = true;
      }
      count++;
    }
    if (count === 1 && !masked && layerWeight[0] >= threshold[0]) {
      // One unmasked layer above the threshold: its pose is the blend, sampled in place.
      const clipId = clipIds[single], bindingId = binding[single];
      const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
      const source = clips[sourceId];
      if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, localAt + outOff * 4, timeAt + single * 8, bindingId)) {
        sampleClipInto(local, outOff, source, time, single, bindingId < 0 ? null : bindings[bindingId]);
      }
    } else {
      for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
        if (!isOverride(Layers, li)) continue;
        const clipId = clipIds[li], bindingId = binding[li];
        const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
        const source = clips[sourceId];
        const n = li - firstLayer;
        if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, samplesAt + n * poseBytes, timeAt + li * 8, bindingId)) {
          sampleClipInto(samples, n * poseSize, source, time, li, bindingId < 0 ? null : bindings[bindingId]);
        }
      }
      const rest = uncopied || skeletonId >= SKIN_TABLE_IDS ? 0 : restTable[skeletonId];
      if (rest !== 0 && !masked) {
        blendOverride(localAt + eid * poseBytes, samplesAt, poseBytes, weightAt + firstLayer * 4, layers, jointCount, rest, thresholdAt);
      } else if (rest !== 0) {
        blendOverrideMasked(localAt + eid * poseBytes, samplesAt, poseBytes, weightAt + firstLayer * 4, layerMasksAt, layers, jointCount, rest, thresholdAt);
      } else {
        blendOverrideLayers(local, outOff, skeleton.rest, samples, layerOff, layerWeight, layerMask, count, jointCount, threshold);
      }
    }

    for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
      if (!isAdditive(Layers, li)) continue;
      const clipId = clipIds[li], bindingId = binding[li];
      const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
      const source = clips[sourceId];
      const n = li - firstLayer;
      if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, samplesAt + n * poseBytes, timeAt + li * 8, bindingId)) {
        sampleClipInto(samples, n * poseSize, source, time, li, bindingId < 0 ? null : bindings[bindingId]);
      }
      if (!additiveWasm(kernels, localAt + eid * poseBytes, samplesAt + n * poseBytes, reference[li], mask[li], weightAt + li * 4, jointCount)) {
        applyAdditiveLayer(local, outOff, samples, n * poseSize, references[reference[li]], weight, li, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
      }
    }
  }
}

/**
 * `blendLayersNow` (src/systems/inertializeCapture.ts: a transition request rebuilding the last
 * output) on `kernels`: character `eid`'s layers at their current times and weights, each clip
 * at LOD `level` (−1: the clip itself), blended with the kernels and decisions of
 * {@link blendEntitiesWasm}, into `out` (in the kernels' memory) at `outOff` — so after an
 * update it has that update's blend, bit for bit. Uses this thread's `layerSamples`; allocates
 * nothing.
 */
export function blendLayersNowWasm(world: AnimationWorld, kernels: WasmKernels, eid: number, level: number, out: Float32Array, outOff: number): void {
  const { Character, Layers } = world.components;
  const { clip: clipIds, time, binding, weight, mask, reference, maxLayers } = Layers;
  const { skeletons, masks, references, clips, bindings } = world.assets;
  const { layerOff, layerWeight, layerMask, layerSamples: samples, blendThreshold: threshold } = world.scratch;
  const clipLevels = world.lod.clipLevels;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const poseBytes = poseSize * 4;
  const { area, blendOverride, blendOverrideMasked } = kernels;
  const { maskTable, layerMasks } = area;
  const maskRow = kernels.thread * MAX_LAYERS, layerMasksAt = layerMasks.byteOffset + maskRow * 4;
  area.params[kernels.thread] = threshold[0];
  const thresholdAt = area.params.byteOffset + kernels.thread * 8;
  const outAt = out.byteOffset + outOff * 4, samplesAt = samples.byteOffset, weightAt = weight.byteOffset, timeAt = time.byteOffset;
  const jointCount = Character.jointCount[eid];
  const skeletonId = Character.skeleton[eid];
  const firstLayer = eid * maxLayers;

  let count = 0;
  let single = -1;
  let layers = 0;
  let masked = false, uncopied = false;
  for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
    if (!isOverride(Layers, li)) continue;
    if (count === 0) single = li;
    layers |= 1 << (li - firstLayer);
    layerOff[count] = (li - firstLayer) * poseSize;
    layerWeight[count] = weight[li];
    layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
    const maskAt = mask[li] < 0 ? 0 : mask[li] < POSE_TABLE_IDS ? maskTable[mask[li]] : 0;
    layerMasks[maskRow + li - firstLayer] = maskAt;
    if (mask[li] >= 0) {
      masked = true;
      if (maskAt === 0) uncopied = true;
    }
    count++;
  }
  if (count === 1 && !masked && layerWeight[0] >= threshold[0]) {
    const clipId = clipIds[single], bindingId = binding[single];
    const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
    const source = clips[sourceId];
    if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, outAt, timeAt + single * 8, bindingId)) {
      sampleClipInto(out, outOff, source, time, single, bindingId < 0 ? null : bindings[bindingId]);
    }
  } else {
    for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
      if (!isOverride(Layers, li)) continue;
      const clipId = clipIds[li], bindingId = binding[li];
      const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
      const source = clips[sourceId];
      const n = li - firstLayer;
      if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, samplesAt + n * poseBytes, timeAt + li * 8, bindingId)) {
        sampleClipInto(samples, n * poseSize, source, time, li, bindingId < 0 ? null : bindings[bindingId]);
      }
    }
    const rest = uncopied || skeletonId >= SKIN_TABLE_IDS ? 0 : area.restTable[skeletonId];
    if (rest !== 0 && !masked) {
      blendOverride(outAt, samplesAt, poseBytes, weightAt + firstLayer * 4, layers, jointCount, rest, thresholdAt);
    } else if (rest !== 0) {
      blendOverrideMasked(outAt, samplesAt, poseBytes, weightAt + firstLayer * 4, layerMasksAt, layers, jointCount, rest, thresholdAt);
    } else {
      blendOverrideLayers(out, outOff, skeletons[skeletonId].rest, samples, layerOff, layerWeight, layerMask, count, jointCount, threshold);
    }
  }
  for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
    if (!isAdditive(Layers, li)) continue;
    const clipId = clipIds[li], bindingId = binding[li];
    const sourceId = level < 0 ? clipId : lodClipId(clipLevels, clipId, level);
    const source = clips[sourceId];
    const n = li - firstLayer;
    if (source.reduced !== null || !sampleLayerWasm(kernels, sourceId, samplesAt + n * poseBytes, timeAt + li * 8, bindingId)) {
      sampleClipInto(samples, n * poseSize, source, time, li, bindingId < 0 ? null : bindings[bindingId]);
    }
    if (!additiveWasm(kernels, outAt, samplesAt + n * poseBytes, reference[li], mask[li], weightAt + li * 4, jointCount)) {
      applyAdditiveLayer(out, outOff, samples, n * poseSize, references[reference[li]], weight, li, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
    }
  }
}

/**
 * Applies an additive layer on the WebAssembly kernel `applyAdditive`: the layer's sampled pose
 * at byte `pose` onto the pose at byte `target`, against reference pose `referenceId` and mask
 * `maskId` (−1: none), the layer's weight at byte `weight`; false, having written nothing,
 * when the reference or the mask has no copy in the kernel area (the caller applies it on the
 * JavaScript kernel).
 */
function additiveWasm(kernels: WasmKernels, target: number, pose: number, referenceId: number, maskId: number, weight: number, jointCount: number): boolean {
  const { referenceTable, maskTable } = kernels.area;
  const referenceAt = referenceId < POSE_TABLE_IDS ? referenceTable[referenceId] : 0;
  const maskAt = maskId < 0 ? 0 : maskId < POSE_TABLE_IDS ? maskTable[maskId] : 0;
  if (referenceAt === 0 || (maskId >= 0 && maskAt === 0)) return false;
  kernels.applyAdditive(target, pose, referenceAt, weight, maskAt, jointCount);
  return true;
}
