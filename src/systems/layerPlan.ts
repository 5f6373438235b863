/**
 * The layer plan: what one character's layers do at one instant — for each layer slot, the clip
 * to sample (at the character's LOD level), the time to sample it at and its weight; which slots
 * blend as override layers (in the order of their blend steps, with their masks: slot order
 * unless a `'layer'` layer is over others, layerRules.ts `planOverrideSteps`) and which apply as
 * additive layers. Built by one of two functions and read by every blend backend, so the decisions of
 * which layer counts, how, and with what are taken in one place:
 * - {@link planLayersNow}: the layers as they stand (their times and weights): the frame's blend
 *   (blendSystem on the JavaScript kernels, src/wasm/blendWasm.ts on the WebAssembly ones) and a
 *   transition request rebuilding the last output (inertializeCapture.ts `blendLayersNow`);
 * - {@link planLayersAt}: the layers as they were (or will be) some seconds from now — each
 *   time moved back by its speed, each fading weight by its fade clock: the velocities of a
 *   transition's capture (`blendLayersAt`).
 * {@link blendPlan} blends a plan on the JavaScript kernels; `blendPlanWasm` (src/wasm/blendWasm.ts)
 * on the WebAssembly ones; `blendCurvesOf` (blendCurves.ts) blends a plan's float curves.
 * Which slot counts as override or additive is `layerRules.ts`'s {@link blendsAs}.
 *
 * The plan lives in the thread's scratch (`world.scratch.layerPlan`): the per-slot times and
 * weights in the pool buffer, so the WebAssembly kernels read them where the plan put them.
 * Building and blending allocate nothing.
 */
import type { Clip } from '../assets/Clip.js';
import { sampleBlendTwoInto, sampleClipInto } from '../assets/sampleClip.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, blendsAs, loops, planOverrideSteps, STEP_AVERAGE, STEP_KIND_SHIFT, STEP_LAYER, STEP_SLOT, STEPS_LAYERED } from '../components/layerRules.js';
import type { LayersComponent } from '../components/Layers.js';
import { lodClipId } from '../components/Lod.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
import { applyAdditiveLayer, blendLayeredLayers, blendLayerOverBase, blendOverrideLayers, blendTwoLayers } from '../math/blendPose.js';
import { SLERP_WORK, slerpBlendRotations } from '../math/blendSlerp.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import { sampleExactWasm } from '../wasm/kernels.js';
import type { AnimationWorld, ScratchOf } from '../world.js';

/** One character's layers at one instant (see the file header). Slots are `n = li − eid × maxLayers`. */
export interface LayerPlan {
  /** The character: its first slot is `firstLayer` = eid × maxLayers. */
  eid: number;
  firstLayer: number;
  /** The LOD level its clips are sampled at (−1: the clips themselves). */
  level: number;
  /** Per slot: the clip sampled (the LOD level's, −1: no clip). */
  readonly source: Int32Array;
  /** Per slot: the time it is sampled at (in the pool buffer). */
  readonly time: Float64Array;
  /** Per slot: its weight at that instant (0: none; in the pool buffer, as `Layers.weight`). */
  readonly weight: Float32Array;
  /** Override layers, in slot order: how many. */
  overrides: number;
  /** Per override layer k: its slot. */
  readonly overrideSlot: Int32Array;
  /** Per override layer k: its pose's offset in the samples pool (slot × maxJoints × 10). */
  readonly layerOff: Int32Array;
  /** Per override layer k: its weight (`weight` at its slot). */
  readonly layerWeight: Float32Array;
  /** Per override layer k: its mask's weights, or null. */
  readonly layerMask: (Float32Array | null)[];
  /** The override slots as bits (1 << slot), as the WebAssembly blend reads them. */
  overrideBits: number;
  /** Whether an override layer carries a mask. */
  masked: boolean;
  /**
   * Per override layer k, its blend step (`slot | kind << STEP_KIND_SHIFT`, layerRules.ts
   * `planOverrideSteps`; in the pool buffer, where the WebAssembly kernel reads it); the override
   * layers above follow this order.
   */
  readonly steps: Int32Array;
  /** Whether a step is not an average (a `'layer'` layer over others): the blend is `blendLayeredLayers`'. */
  layered: boolean;
  /** Additive layers, in slot order: how many, and their slots. */
  additives: number;
  readonly additiveSlot: Int32Array;
  /** The slerp blend's working doubles (`slerpBlendRotations`; a world with `interpolation: 'slerp'`). */
  readonly slerpWork: Float64Array;
  /** On the WebAssembly kernels: the byte offsets they read the plan and its thread's scratch at (src/wasm/blendWasm.ts; null until the first blend). */
  kernelPointers: KernelPointers | null;
}

/** Byte offsets (and pose sizes) of a plan's and its thread's buffers in the kernels' memory, fixed for a world's thread. */
export interface KernelPointers {
  readonly poseSize: number;
  readonly poseBytes: number;
  readonly maskRow: number;
  readonly layerMasksAt: number;
  readonly thresholdAt: number;
  readonly samplesAt: number;
  readonly timeAt: number;
  readonly weightAt: number;
  readonly stepsAt: number;
}

/** The plan's scratch (FrameSystem.scratch, built once per world and per thread): `world.scratch.layerPlan`. */
export const layerPlanScratch = {
  layerPlan: (_maxJoints: number, alloc: PoolAllocator, maxLayers: number): LayerPlan => ({
    eid: -1,
    firstLayer: 0,
    level: -1,
    source: new Int32Array(maxLayers),
    time: alloc.array(Float64Array, maxLayers),
    weight: alloc.array(Float32Array, maxLayers),
    overrides: 0,
    overrideSlot: new Int32Array(maxLayers),
    layerOff: new Int32Array(maxLayers),
    layerWeight: new Float32Array(maxLayers),
    layerMask: new Array<Float32Array | null>(maxLayers).fill(null),
    overrideBits: 0,
    masked: false,
    steps: alloc.array(Int32Array, maxLayers),
    layered: false,
    additives: 0,
    additiveSlot: new Int32Array(maxLayers),
    slerpWork: new Float64Array(SLERP_WORK),
    kernelPointers: null,
  }),
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof layerPlanScratch> {}
}

/**
 * Plans character `eid`'s layers as they stand: each slot at its time (`Layers.time`) and weight
 * (`Layers.weight`), its clip at LOD `level` (−1: the clip itself). After an update, the plan of
 * that update's blend.
 */
export function planLayersNow(world: AnimationWorld, eid: number, level: number, plan: LayerPlan): void {
  planLayers(world, eid, level, null, 0, plan);
}

/**
 * Plans character `eid`'s layers as they were `back[backIndex]` seconds ago (negative: ahead),
 * the way sampleSystem would have left them: each time moved back by its speed (wrapped when
 * looping, clamped otherwise; a clamped clip resting at the end it plays toward stays there),
 * each fading weight by its fade clock (clamped to the fade's span), each clip at the
 * character's current LOD level.
 */
export function planLayersAt(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number, plan: LayerPlan): void {
  const lod = world.components.Lod;
  planLayers(world, eid, lod.enabled[eid] === 0 ? -1 : lod.level[eid], back, backIndex, plan);
}

/**
 * The plan of `eid` at LOD `level`: now when `back` is null, else `back[backIndex]` seconds ago;
 * each slot placed as override or additive layer by {@link blendsAs}, in slot order.
 */
function planLayers(world: AnimationWorld, eid: number, level: number, back: Float64Array | null, backIndex: number, plan: LayerPlan): void {
  const Layers = world.components.Layers;
  const { clip: clipIds, mask, maxLayers } = Layers;
  const times = Layers.time, weights = Layers.weight;
  const clips = world.assets.clips;
  const masks = world.assets.masks;
  const clipLevels = world.lod.clipLevels;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const { source, time, weight, overrideSlot, layerOff, layerWeight, layerMask, additiveSlot, steps } = plan;
  const firstLayer = eid * maxLayers;
  let additives = 0, bits = 0;
  let masked = false;
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    const clipId = clipIds[li];
    if (clipId < 0) {
      source[n] = -1;
      weight[n] = 0;
      continue;
    }
    source[n] = lodClipId(clipLevels, clipId, level);
    if (back === null) {
      time[n] = times[li];
      weight[n] = weights[li];
    } else {
      writeLayerWeightAt(weight, n, Layers, li, back, backIndex);
      writeLayerTimeAt(time, n, Layers, li, clips[clipId], back, backIndex);
    }
    const mode = blendsAs(Layers, li, weight[n] > 0);
    if (mode === BLEND_OVERRIDE) bits |= 1 << n;
    else if (mode === BLEND_ADDITIVE) additiveSlot[additives++] = n;
  }
  // The override layers in the order of their blend steps (slot order unless a 'layer' layer is over others).
  const planned = planOverrideSteps(Layers, firstLayer, bits, steps);
  const overrides = planned & STEP_SLOT;
  for (let k = 0; k < overrides; k++) {
    const n = steps[k] & STEP_SLOT, m = mask[firstLayer + n];
    overrideSlot[k] = n;
    layerOff[k] = n * poseSize;
    layerWeight[k] = weight[n];
    layerMask[k] = m >= 0 ? masks[m] : null;
    if (m >= 0) masked = true;
  }
  plan.layered = (planned & STEPS_LAYERED) !== 0;
  plan.eid = eid;
  plan.firstLayer = firstLayer;
  plan.level = level;
  plan.overrides = overrides;
  plan.additives = additives;
  plan.overrideBits = bits;
  plan.masked = masked;
}

/**
 * Blends `plan` on the JavaScript kernels into `out` (`jointCount × 10` floats at `outOff`),
 * sampling its layers into `samples` (slot n at n × maxJoints × 10): one unmasked override layer
 * at or above the blend threshold is the blend (sampled straight into `out`); two unmasked ones
 * blend in one pass (`sampleBlendTwoSlots`) when `onePass` allows it and their clips are dense
 * and unbound, else sampled and blended by `blendTwoLayers`; a plan with a `'layer'` layer over
 * others by `blendLayeredLayers` (its steps); any other set by `blendOverrideLayers` (rest pose
 * below the threshold); in a world with `interpolation: 'slerp'`, every blend of sampled layers
 * then has its rotations rewritten by `slerpBlendRotations` (no one-pass blend there); then the
 * additive layers in slot order.
 * Returns whether the one-pass blend was taken (its layer poses are not rounded to float32).
 */
export function blendPlan(world: AnimationWorld, plan: LayerPlan, samples: Float32Array, out: Float32Array, outOff: number, onePass: boolean): boolean {
  const { Character, Layers } = world.components;
  const { mask, reference } = Layers;
  const { clips, bindings, masks, references, skeletons } = world.assets;
  const threshold = world.scratch.blendThreshold;
  const eid = plan.eid, firstLayer = plan.firstLayer;
  const jointCount = Character.jointCount[eid];
  const poseSize = world.maxJoints * POSE_STRIDE;
  const { layerOff, layerWeight, layerMask } = plan;
  const count = plan.overrides;
  const slerp = world.interpolation === 'slerp';
  let tookOnePass = false, sampled = true;
  if (plan.layered) {
    // A 'layer' layer over others: the layered blend, steps in the plan's order (one layer over
    // a base, the common case, written out).
    for (let k = 0; k < count; k++) sampleSlot(samples, layerOff[k], world, plan, plan.overrideSlot[k], clips, bindings);
    const rest = skeletons[Character.skeleton[eid]].rest;
    if (isLayerOverBase(plan)) blendLayerOverBase(out, outOff, rest, samples, layerOff[0], layerOff[1], layerWeight, layerMask[0], layerMask[1], jointCount, threshold);
    else blendLayeredLayers(out, outOff, rest, samples, layerOff, layerWeight, layerMask, plan.steps, count, jointCount, threshold);
  } else if (count === 1 && !plan.masked && layerWeight[0] >= threshold[0]) {
    // One unmasked layer above the threshold: its pose is the blend, sampled in place.
    sampleSlot(out, outOff, world, plan, plan.overrideSlot[0], clips, bindings);
    sampled = false;
  } else if (count === 2 && !plan.masked && layerWeight[0] + layerWeight[1] >= threshold[0]) {
    // Two unmasked layers, the rest pose out of it: in one pass where allowed and both clips are
    // dense and unbound, else sampled, then the written-out kernel (blendOverrideLayers' bits).
    const a = plan.overrideSlot[0], b = plan.overrideSlot[1];
    tookOnePass = onePass && !slerp && sampleBlendTwoSlots(out, outOff, Layers, plan, a, b, clips, jointCount);
    if (!tookOnePass) {
      sampleSlot(samples, layerOff[0], world, plan, a, clips, bindings);
      sampleSlot(samples, layerOff[1], world, plan, b, clips, bindings);
      blendTwoLayers(out, outOff, samples, layerOff[0], layerOff[1], layerWeight, jointCount);
    }
  } else {
    for (let k = 0; k < count; k++) sampleSlot(samples, layerOff[k], world, plan, plan.overrideSlot[k], clips, bindings);
    blendOverrideLayers(out, outOff, skeletons[Character.skeleton[eid]].rest, samples, layerOff, layerWeight, layerMask, count, jointCount, threshold);
  }
  if (slerp && sampled && !tookOnePass) {
    slerpBlendRotations(out, outOff, skeletons[Character.skeleton[eid]].rest, samples, plan, count, jointCount, threshold, plan.slerpWork);
  }
  for (let k = 0; k < plan.additives; k++) {
    const n = plan.additiveSlot[k], li = firstLayer + n;
    sampleSlot(samples, n * poseSize, world, plan, n, clips, bindings);
    applyAdditiveLayer(out, outOff, samples, n * poseSize, references[reference[li]], plan.weight, n, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
  }
  return tookOnePass;
}

/** Whether a layered `plan` is one `'layer'` layer over one base (steps: an average, then a layer): `blendLayerOverBase`'s case. */
export function isLayerOverBase(plan: LayerPlan): boolean {
  return plan.overrides === 2 && plan.steps[0] >>> STEP_KIND_SHIFT === STEP_AVERAGE && plan.steps[1] >>> STEP_KIND_SHIFT === STEP_LAYER;
}

/**
 * Override slots `a` and `b` of `plan` (unmasked, weights `plan.layerWeight[0]` and
 * `plan.layerWeight[1]`, summing to at least the blend threshold) sampled and blended into `out`
 * at `outOff` in one pass (`sampleBlendTwoInto`), when both planned clips are dense, unbound and
 * of `jointCount` joints and neither time falls on a key. Returns false, having written nothing,
 * otherwise. The result differs from sampling then `blendTwoLayers` by float32 rounding only
 * (the layer poses are not rounded on the way): within one float32 ulp per LocalPose element on
 * test/frameHash.test.ts's crowd. A transition's velocities keep the two steps: 1 ms apart, that
 * ulp would weigh.
 */
function sampleBlendTwoSlots(
  out: Float32Array, outOff: number, layers: LayersComponent, plan: LayerPlan, a: number, b: number, clips: AnimationWorld['assets']['clips'],
  jointCount: number,
): boolean {
  if (layers.binding[plan.firstLayer + a] >= 0 || layers.binding[plan.firstLayer + b] >= 0) return false;
  const clipA = clips[plan.source[a]], clipB = clips[plan.source[b]];
  if (clipA.reduced !== null || clipB.reduced !== null || clipA.skeleton.jointCount !== jointCount || clipB.skeleton.jointCount !== jointCount) return false;
  return sampleBlendTwoInto(out, outOff, clipA, clipB, plan.time, a, b, plan.layerWeight, jointCount);
}

/**
 * Samples slot `n` of `plan` (its clip at its time, through its layer's binding) into `out` at
 * `outOff`: `sampleClipInto`, or in a world on the WebAssembly kernels, for an unbound layer
 * whose clip has a copy and `out` in their memory, `sampleClipExact` (the same bits).
 */
export function sampleSlot(
  out: Float32Array, outOff: number, world: AnimationWorld, plan: LayerPlan, n: number, clips: AnimationWorld['assets']['clips'],
  bindings: AnimationWorld['assets']['bindings'],
): void {
  const bindingId = world.components.Layers.binding[plan.firstLayer + n];
  const kernels = world.wasm;
  if (bindingId < 0 && kernels !== null && out.buffer === kernels.poolBuffer
    && sampleExactWasm(kernels, plan.source[n], out.byteOffset + outOff * 4, plan.time.byteOffset + n * 8)) return;
  sampleClipInto(out, outOff, clips[plan.source[n]], plan.time, n, bindingId < 0 ? null : bindings[bindingId]);
}

/**
 * Whether every clamped layer of `eid` that moves can go back `back` seconds without passing
 * an end of its clip (so a velocity can be measured backward from now).
 */
export function layersCanGoBack(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number): boolean {
  const Layers = world.components.Layers;
  const clips = world.assets.clips;
  const seconds = back[backIndex];
  for (let li = eid * Layers.maxLayers, last = li + Layers.maxLayers; li < last; li++) {
    const clipId = Layers.clip[li];
    if (clipId < 0 || loops(Layers, li)) continue;
    const duration = clips[clipId].duration;
    const t = Layers.time[li], speed = Layers.speed[li];
    if ((speed > 0 && t >= duration) || (speed < 0 && t <= 0) || speed === 0) continue; // resting
    const earlier = t - speed * seconds;
    if (earlier < -1e-9 || earlier > duration + 1e-9) return false;
  }
  return true;
}

/**
 * Layer `li`'s weight `back[i]` seconds ago, into `out[o]`: its fade curve at that clock
 * (clamped to the fade's span), else its weight. Written, not returned: a double returned from
 * a call V8 does not inline is boxed — a heap number per layer per capture (measured: ~0.8 KB a
 * frame on a crowd whose machines switch every frame). The curve's argument and value go
 * through an array ({@link applyFadeCurve}) for the same reason.
 */
export function writeLayerWeightAt(out: Float32Array, o: number, layers: LayersComponent, li: number, back: Float64Array, i: number): void {
  const kind = layers.fadeCurve[li];
  if (kind === 0) {
    out[o] = layers.weight[li];
    return;
  }
  const duration = layers.fadeDuration[li];
  let u = duration > 0 ? (layers.fadeElapsed[li] - back[i]) / duration : 1;
  if (u < 0) u = 0;
  else if (u > 1) u = 1;
  CURVE[0] = u;
  applyFadeCurve(CURVE, 0, kind);
  const from = layers.fadeFrom[li];
  out[o] = from + (layers.fadeTo[li] - from) * CURVE[0];
}

/** The fade's clock, then its weight, in {@link writeLayerWeightAt} ({@link applyFadeCurve} in place). */
const CURVE = new Float64Array(1);

/** Layer `li`'s clip time `back[i]` seconds ago, into `out[o]` (see {@link planLayersAt}; written for the reason {@link writeLayerWeightAt} gives; the clip, not its duration, is passed for the same reason). */
function writeLayerTimeAt(out: Float64Array, o: number, layers: LayersComponent, li: number, clip: Clip, back: Float64Array, i: number): void {
  const t = layers.time[li], speed = layers.speed[li], duration = clip.duration;
  if (!(duration > 0)) {
    out[o] = 0;
    return;
  }
  if (loops(layers, li)) {
    let earlier = t - speed * back[i];
    earlier -= Math.floor(earlier / duration) * duration;
    out[o] = earlier < duration ? earlier : 0;
    return;
  }
  if ((speed > 0 && t >= duration) || (speed < 0 && t <= 0)) {
    out[o] = t; // resting at the end it plays toward
    return;
  }
  const earlier = t - speed * back[i];
  out[o] = earlier < 0 ? 0 : earlier > duration ? duration : earlier;
}
