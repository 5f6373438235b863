/**
 * The float-curve pass of blendSystem (metachannels): each character's clip curves
 * blended into `Curves.values` with the pose's layer weights, from the layer plan the pose was
 * blended by (systems/layerPlan.ts). blendSystem runs it after each character's pose, on the
 * JavaScript and WebAssembly kernels alike (the curves are a few floats a character: they stay
 * on JavaScript, so both paths give the same values); inertialization's capture
 * (inertializeCapture.ts) blends the curves of a plan at another instant the same way.
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
import { layeredWeights } from '../components/layerRules.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { MAX_CURVES } from '../components/Curves.js';
import * as layout from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import type { LayerPlan } from './layerPlan.js';

const { POSE_STRIDE } = layout;

/** The override sum per curve, in doubles (a fixed-size temporary: each thread has its own module). */
const SUM = new Float64Array(MAX_CURVES);
/** Each slot's a and its effective weight under the blend modes (fixed-size temporaries, as {@link SUM}). */
const A = new Float64Array(MAX_LAYERS);
const EFFECTIVE = new Float64Array(MAX_LAYERS);

/**
 * Blends the curves of the character of `plan` (see the file header; `Curves.count` of them)
 * into `out[outOff ..]`: its layers as the plan has them — each slot's clip (at the plan's LOD
 * level), time and weight, its override and additive layers and their blend steps — so the
 * curves follow the decisions the pose's blend took. blendSystem calls it after each
 * character's pose (at the layers' current times and weights), a transition's capture at
 * another instant (captureCurves.ts). A character without curves is not passed. Takes and
 * returns no float, so nothing is boxed where V8 does not inline it; allocates nothing.
 */
export function blendCurvesOf(world: AnimationWorld, plan: LayerPlan, out: Float32Array, outOff: number): void {
  const { Character, Curves } = world.components;
  const eid = plan.eid;
  const row = world.assets.curveMaps[Character.skeleton[eid]];
  if (row === undefined) return; // (spawn made it: not reached)
  const curveCount = Curves.count[eid];
  const defaults = row.defaults, maps = row.clips;
  const { clips, references } = world.assets;
  const refOff = Character.jointCount[eid] * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold;
  const reference = world.components.Layers.reference;
  const { source, time, weight, overrideBits } = plan;
  const maxLayers = source.length;
  // 1. Override layers: W first, for the rest default's share. With a 'layer' layer over others,
  // each layer's weight is its effective weight under the blend modes' rule (layeredWeights).
  const layered = plan.layered;
  if (layered) {
    for (let n = 0; n < maxLayers; n++) A[n] = weight[n];
    layeredWeights(plan.steps, plan.overrides, A, EFFECTIVE);
  }
  // In slot order (the steps' order may differ), so a sum's bits do not depend on the steps.
  let total = 0;
  for (let n = 0; n < maxLayers; n++) {
    if (((overrideBits >>> n) & 1) !== 0) total += layered ? EFFECTIVE[n] : weight[n];
  }
  // Σ w_k·s_k + (θ − W)·d = Σ_k w_k·(s_k − d) + max(W, θ)·d: start at the default's share, then
  // each layer adds w·(s − d) for the curves its clip has (a curve it lacks is its default).
  const norm = total > threshold[0] ? total : threshold[0];
  for (let c = 0; c < curveCount; c++) SUM[c] = norm * defaults[c];
  for (let n = 0; n < maxLayers; n++) {
    if (((overrideBits >>> n) & 1) === 0) continue;
    const w = layered ? EFFECTIVE[n] : weight[n];
    const map = maps[source[n]];
    if (map === undefined) continue;
    sampleMapped(clips[source[n]], map, time, n);
    for (let i = 0; i < map.length; i++) {
      const c = map[i];
      if (c >= 0) SUM[c] += w * (SAMPLED[c] - defaults[c]);
    }
  }
  const scale = 1 / norm;
  for (let c = 0; c < curveCount; c++) SUM[c] *= scale;

  // 2. Additive layers in slot order: β·(s − r) for the curves their clips have.
  for (let k = 0; k < plan.additives; k++) {
    const n = plan.additiveSlot[k];
    const map = maps[source[n]];
    if (map === undefined) continue;
    const beta = weight[n];
    const r = references[reference[plan.firstLayer + n]];
    sampleMapped(clips[source[n]], map, time, n);
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
