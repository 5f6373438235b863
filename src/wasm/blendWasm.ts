/**
 * The layer plan's blend on the WebAssembly kernels (`world.kernels === 'wasm'`): blendSystem's
 * per-character blend and a transition request rebuilding the last output
 * (inertializeCapture.ts), both from the plan systems/layerPlan.ts builds,
 * with the decisions of `blendPlan` (the JavaScript backend). A layer of a dense clip (at the
 * character's LOD level) is sampled by the SIMD kernel `sampleClip` (unbound) or `sampleBound`
 * (through a binding without `retarget`), which give `sampleClipInto`'s bits at a key and are
 * within float32 rounding of them between keys, a layer of a reduced or compressed clip without
 * a binding by `sampleClip` too (assembly/reduced.ts, `sampleCompressed`: the JavaScript
 * samplers' bits), into the thread's `layerSamples` scratch (or
 * straight into the output when it is the blend); the override blend of a character whose
 * override layers carry no mask is done by `blendOverride` (assembly/kernels.ts: two layers in
 * float32, within 1e-6 of `blendOverrideLayers`; more layers in doubles, its bits), of one with a
 * masked layer by `blendOverrideMasked` (float32), of one with a `'layer'` layer over others by
 * `blendOverrideLayered` (float32, the plan's blend steps), and each additive layer by `applyAdditive`
 * (float32; docs/wasm.md). Reduced and compressed clips through a binding, bindings with `retarget`, clips, masks, reference
 * poses and bindings the kernel area could not hold, and characters whose skeleton it could not
 * hold run the JavaScript kernels (the masked blend's per-slot mask pointers go through this
 * thread's row of `area.layerMasks`). The kernels read the plan's per-slot times and weights
 * where it keeps them, in the pool buffer.
 */
import { sampleClipInto } from '../assets/sampleClip.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { applyAdditiveLayer, blendLayeredLayers, blendLayerOverBase, blendOverrideLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import { blendPlan, isLayerOverBase, type KernelPointers, type LayerPlan } from '../systems/layerPlan.js';
import type { AnimationWorld } from '../world.js';
import { sampleLayerWasm, type WasmKernels } from './kernels.js';

/**
 * Blends `plan` on `kernels` (see the file header) into `out` (in the kernels' memory) at
 * `outOff`: after an update, `planLayersNow`'s plan gives that update's blend, bit for bit. Uses
 * this thread's `layerSamples`; allocates nothing.
 */
export function blendPlanWasm(world: AnimationWorld, kernels: WasmKernels, plan: LayerPlan, out: Float32Array, outOff: number): void {
  if (world.interpolation === 'slerp') {
    // The slerp blend has no kernel: the JavaScript backend's, on this thread's samples.
    blendPlan(world, plan, world.scratch.layerSamples, out, outOff, false);
    return;
  }
  const { Character, Layers } = world.components;
  const { binding, mask, reference } = Layers;
  const { skeletons, masks, references, clips, bindings } = world.assets;
  const { layerSamples: samples, blendThreshold: threshold } = world.scratch;
  const at = plan.kernelPointers ?? pointPlan(world, kernels, plan);
  const { poseSize, poseBytes, maskRow, layerMasksAt, thresholdAt, samplesAt, timeAt, weightAt, stepsAt } = at;
  const { area, blendOverride, blendOverrideMasked, blendOverrideLayered } = kernels;
  const { maskTable, layerMasks } = area;
  // The threshold where the kernel reads it (this thread's slot), so no double is passed.
  area.params[kernels.thread] = threshold[0];
  const outAt = out.byteOffset + outOff * 4;
  const eid = plan.eid, firstLayer = plan.firstLayer;
  const { source, layerOff, layerWeight, layerMask } = plan;
  const jointCount = Character.jointCount[eid];
  const skeletonId = Character.skeleton[eid];
  const count = plan.overrides;

  if (count === 1 && !plan.masked && !plan.layered && layerWeight[0] >= threshold[0]) {
    // One unmasked layer above the threshold: its pose is the blend, sampled in place.
    const n = plan.overrideSlot[0], bindingId = binding[firstLayer + n];
    if (!sampleLayerWasm(kernels, source[n], outAt, timeAt + n * 8, bindingId)) {
      sampleClipInto(out, outOff, clips[source[n]], plan.time, n, bindingId < 0 ? null : bindings[bindingId]);
    }
  } else {
    let uncopied = false; // a mask with no copy in the kernel area
    for (let k = 0; k < count; k++) {
      const n = plan.overrideSlot[k], li = firstLayer + n, bindingId = binding[li];
      if (!sampleLayerWasm(kernels, source[n], samplesAt + n * poseBytes, timeAt + n * 8, bindingId)) {
        sampleClipInto(samples, n * poseSize, clips[source[n]], plan.time, n, bindingId < 0 ? null : bindings[bindingId]);
      }
      const maskAt = mask[li] < 0 ? 0 : mask[li] < maskTable.length ? maskTable[mask[li]] : 0;
      layerMasks[maskRow + n] = maskAt;
      if (mask[li] >= 0 && maskAt === 0) uncopied = true;
    }
    const rest = uncopied || skeletonId >= area.restTable.length ? 0 : area.restTable[skeletonId];
    if (rest !== 0 && plan.layered) {
      blendOverrideLayered(outAt, samplesAt, poseBytes, weightAt, layerMasksAt, stepsAt, count, jointCount, rest, thresholdAt);
    } else if (plan.layered && isLayerOverBase(plan)) {
      blendLayerOverBase(out, outOff, skeletons[skeletonId].rest, samples, layerOff[0], layerOff[1], layerWeight, layerMask[0], layerMask[1], jointCount, threshold);
    } else if (plan.layered) {
      blendLayeredLayers(out, outOff, skeletons[skeletonId].rest, samples, layerOff, layerWeight, layerMask, plan.steps, count, jointCount, threshold);
    } else if (rest !== 0 && !plan.masked) {
      blendOverride(outAt, samplesAt, poseBytes, weightAt, plan.overrideBits, jointCount, rest, thresholdAt);
    } else if (rest !== 0) {
      blendOverrideMasked(outAt, samplesAt, poseBytes, weightAt, layerMasksAt, plan.overrideBits, jointCount, rest, thresholdAt);
    } else {
      blendOverrideLayers(out, outOff, skeletons[skeletonId].rest, samples, layerOff, layerWeight, layerMask, count, jointCount, threshold);
    }
  }

  for (let k = 0; k < plan.additives; k++) {
    const n = plan.additiveSlot[k], li = firstLayer + n, bindingId = binding[li];
    if (!sampleLayerWasm(kernels, source[n], samplesAt + n * poseBytes, timeAt + n * 8, bindingId)) {
      sampleClipInto(samples, n * poseSize, clips[source[n]], plan.time, n, bindingId < 0 ? null : bindings[bindingId]);
    }
    if (!additiveWasm(kernels, outAt, samplesAt + n * poseBytes, reference[li], mask[li], weightAt + n * 4, jointCount)) {
      applyAdditiveLayer(out, outOff, samples, n * poseSize, references[reference[li]], plan.weight, n, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
    }
  }
}

/**
 * The byte offsets `blendPlanWasm` hands the kernels for `plan` (this thread's scratch, the
 * plan's per-slot arrays, this thread's slots of the kernel area's parameters), worked out on
 * its first blend and kept with the plan: they never change for a world's thread.
 */
function pointPlan(world: AnimationWorld, kernels: WasmKernels, plan: LayerPlan): KernelPointers {
  const poseSize = world.maxJoints * POSE_STRIDE;
  const maskRow = kernels.thread * MAX_LAYERS;
  const pointers: KernelPointers = {
    poseSize,
    poseBytes: poseSize * 4,
    maskRow,
    layerMasksAt: kernels.area.layerMasks.byteOffset + maskRow * 4,
    thresholdAt: kernels.area.params.byteOffset + kernels.thread * 8,
    samplesAt: world.scratch.layerSamples.byteOffset,
    timeAt: plan.time.byteOffset,
    weightAt: plan.weight.byteOffset,
    stepsAt: plan.steps.byteOffset,
  };
  plan.kernelPointers = pointers;
  return pointers;
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
  const referenceAt = referenceId < referenceTable.length ? referenceTable[referenceId] : 0;
  const maskAt = maskId < 0 ? 0 : maskId < maskTable.length ? maskTable[maskId] : 0;
  if (referenceAt === 0 || (maskId >= 0 && maskAt === 0)) return false;
  kernels.applyAdditive(target, pose, referenceAt, weight, maskAt, jointCount);
  return true;
}
