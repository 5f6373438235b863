/**
 * The float-curve pass of blendSystem (metachannels): each character's clip curves
 * blended into `Curves.values` with the pose's layer weights. blendSystem runs it for its chunk
 * after the poses, on the JavaScript and WebAssembly kernels alike (the curves are a few floats
 * a character: they stay on JavaScript, so both paths give the same values); inertialization's
 * capture (inertializeCapture.ts) blends the curves the same way at other times.
 *
 * Per character whose skeleton has curves (`Curves.count[eid]` > 0), in `skeleton.curves` order,
 * with d the skeleton's default of a curve and θ the blend threshold (GEA "LERP blending" on one
 * channel, as the pose's translations):
 * 1. Override layers (weight w_k > 0): value = (Σ w_k·s_k + max(0, θ − W)·d) / max(W, θ),
 *    W = Σ w_k, where s_k is the layer's clip curve at its time or d when its clip lacks the
 *    curve. Masks do not apply (a curve belongs to no joint). A single layer at or above θ gives
 *    its clip's value; no layer, the default. With a `'layer'` layer over others, w_k is the
 *    layer's effective weight under the blend modes' rule (components/layerRules.ts
 *    `layeredWeights`: the layer lerps the normalized value below toward its own by its weight),
 *    so curves and morph weights blend as the pose does.
 * 2. Additive layers, in layer order: value += β·(s − r) for each curve the layer's clip has,
 *    β its weight and r the reference's value (its reference clip's curve at the reference
 *    time, stored after the reference pose by `registerReference`; 0 for a difference clip).
 *
 * Which clip curve is which skeleton curve comes from `world.assets.curveMaps` (resolved when a
 * clip is played or bound, src/api/curves.ts), never from names per frame. LOD levels sample
 * the level's clip (reduced clips keep their curves, keyed). Allocates nothing.
 */
import type { Clip } from '../assets/Clip.js';
import { curveFramePosition, sampleCurveAt } from '../assets/sampleCurves.js';
import type { LayersComponent } from '../components/Layers.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, blendsAs, layeredWeights, planOverrideSteps, STEP_SLOT, STEPS_LAYERED } from '../components/layerRules.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { MAX_CURVES } from '../components/Curves.js';
import { lodClipId } from '../components/Lod.js';
import * as layout from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import type { LayerPlan } from './layerPlan.js';

const { POSE_STRIDE } = layout;

/** The override sum per curve, in doubles (a fixed-size temporary: each thread has its own module). */
const SUM = new Float64Array(MAX_CURVES);
/** The blend steps, each slot's a and its effective weight under the blend modes (fixed-size temporaries, as {@link SUM}). */
const STEPS = new Int32Array(MAX_LAYERS);
const A = new Float64Array(MAX_LAYERS);
const EFFECTIVE = new Float64Array(MAX_LAYERS);

/**
 * The curves of the chunk's updated characters `world.updates.eids[first .. last)` into
 * `Curves.values` (see the file header): blendSystem's curves pass, at the layers' current times
 * and weights. Nothing in a world of `maxCurves: 0`; a character without curves costs one read.
 */
export function blendCurvesEntities(world: AnimationWorld, first: number, last: number): void {
  const Curves = world.components.Curves;
  const maxCurves = Curves.maxCurves;
  if (maxCurves === 0) return;
  const { count, values } = Curves;
  const { Layers, Lod } = world.components;
  const { maxLayers, time, weight } = Layers;
  const { enabled: lodOn, level: lodLevel } = Lod;
  const updated = world.updates.eids;
  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    if (count[eid] === 0) continue;
    blendCurveLayers(world, eid, lodOn[eid] === 0 ? -1 : lodLevel[eid], time, weight, eid * maxLayers, values, eid * maxCurves);
  }
}

/**
 * Blends the curves of the character of `plan` (see the file header; `Curves.count` of them)
 * into `out[outOff ..]`: each slot at the plan's time and weight, its clip at the plan's LOD
 * level — a transition's capture blending the curves at another instant (captureCurves.ts).
 * Allocates nothing.
 */
export function blendCurvesOf(world: AnimationWorld, plan: LayerPlan, out: Float32Array, outOff: number): void {
  blendCurveLayers(world, plan.eid, plan.level, plan.time, plan.weight, 0, out, outOff);
}

/**
 * The kernel of the two: character `eid`'s layers (its slots, layer n at time `times[base + n]`
 * and weight `weights[base + n]`, clips at LOD `level`) blended into `out` at `outOff` by the
 * curve maps of its skeleton, reference values after each reference pose, the blend threshold.
 * Takes and returns no float, so nothing is boxed where V8 does not inline it.
 */
function blendCurveLayers(
  world: AnimationWorld, eid: number, level: number, times: Float64Array, weights: Float32Array, base: number, out: Float32Array, outOff: number,
): void {
  const { Character, Curves } = world.components;
  const layers = world.components.Layers;
  const row = world.assets.curveMaps[Character.skeleton[eid]];
  if (row === undefined) return; // (spawn made it: not reached)
  const curveCount = Curves.count[eid];
  const defaults = row.defaults, maps = row.clips;
  const { clips, references } = world.assets;
  const refOff = Character.jointCount[eid] * POSE_STRIDE;
  const clipLevels = world.lod.clipLevels, threshold = world.scratch.blendThreshold;
  const firstLayer = eid * layers.maxLayers;
  const { clip: clipIds, reference, maxLayers } = layers;
  // 1. Override layers: W first, for the rest default's share. With a 'layer' layer over others,
  // each layer's weight is its effective weight under the blend modes' rule (layeredWeights).
  let overrides = 0;
  for (let n = 0; n < maxLayers; n++) if (blendsAs(layers, firstLayer + n, weights[base + n] > 0) === BLEND_OVERRIDE) overrides |= 1 << n;
  const planned = planOverrideSteps(layers, firstLayer, overrides, STEPS);
  const layered = (planned & STEPS_LAYERED) !== 0;
  if (layered) {
    for (let n = 0; n < maxLayers; n++) A[n] = weights[base + n];
    layeredWeights(STEPS, planned & STEP_SLOT, A, EFFECTIVE);
  }
  let total = 0;
  for (let n = 0; n < maxLayers; n++) {
    if (((overrides >>> n) & 1) !== 0) total += layered ? EFFECTIVE[n] : weights[base + n];
  }
  // Σ w_k·s_k + (θ − W)·d = Σ_k w_k·(s_k − d) + max(W, θ)·d: start at the default's share, then
  // each layer adds w·(s − d) for the curves its clip has (a curve it lacks is its default).
  const norm = total > threshold[0] ? total : threshold[0];
  for (let c = 0; c < curveCount; c++) SUM[c] = norm * defaults[c];
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    if (((overrides >>> n) & 1) === 0) continue;
    const w = layered ? EFFECTIVE[n] : weights[base + n];
    const clipId = level < 0 ? clipIds[li] : lodClipId(clipLevels, clipIds[li], level);
    const map = maps[clipId];
    if (map === undefined) continue;
    sampleMapped(clips[clipId], map, times, base + n);
    for (let i = 0; i < map.length; i++) {
      const c = map[i];
      if (c >= 0) SUM[c] += w * (SAMPLED[c] - defaults[c]);
    }
  }
  const scale = 1 / norm;
  for (let c = 0; c < curveCount; c++) SUM[c] *= scale;

  // 2. Additive layers in layer order: β·(s − r) for the curves their clips have.
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    const beta = weights[base + n];
    if (blendsAs(layers, li, beta > 0) !== BLEND_ADDITIVE) continue;
    const clipId = level < 0 ? clipIds[li] : lodClipId(clipLevels, clipIds[li], level);
    const map = maps[clipId];
    if (map === undefined) continue;
    const r = references[reference[li]];
    sampleMapped(clips[clipId], map, times, base + n);
    for (let i = 0; i < map.length; i++) {
      const c = map[i];
      if (c >= 0) SUM[c] += beta * (SAMPLED[c] - r[refOff + c]);
    }
  }
  for (let c = 0; c < curveCount; c++) out[outOff + c] = SUM[c];
}

/** A layer's curve samples by skeleton curve index (a fixed-size temporary, as {@link SUM}). */
const SAMPLED = new Float64Array(MAX_CURVES);

/**
 * Samples the curves of `clip` that `map` names (clip curve i → skeleton curve `map[i]`) at time
 * `times[timeIndex]` into `SAMPLED[map[i]]`, as `sampleCurvesInto` samples them: clamped to the
 * clip, the two frames around the time lerped, a keyed curve linear between its keys. The time
 * arrives as an array element (no boxed double).
 */
function sampleMapped(clip: Clip, map: Int16Array, times: Float64Array, timeIndex: number): void {
  curveFramePosition(FRAME, clip, times, timeIndex);
  const curves = clip.curves;
  for (let i = 0; i < map.length; i++) {
    const c = map[i];
    if (c >= 0) sampleCurveAt(SAMPLED, c, curves[i], FRAME);
  }
}

/** {@link curveFramePosition}'s frame and alpha for {@link sampleMapped}. */
const FRAME = new Float64Array(2);
