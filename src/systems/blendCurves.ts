/**
 * The float-curve pass of blendSystem (issue 22, metachannels): each character's clip curves
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
 *    its clip's value; no layer, the default.
 * 2. Additive layers, in layer order: value += β·(s − r) for each curve the layer's clip has,
 *    β its weight and r the reference's value (its reference clip's curve at the reference
 *    time, stored after the reference pose by `registerReference`; 0 for a difference clip).
 *
 * Which clip curve is which skeleton curve comes from `world.assets.curveMaps` (resolved when a
 * clip is played or bound, src/api/curves.ts), never from names per frame. LOD levels sample
 * the level's clip (reduced clips keep their curves, keyed). Allocates nothing.
 */
import type { Clip } from '../assets/Clip.js';
import { LAYER_ADDITIVE } from '../components/Layers.js';
import { MAX_CURVES } from '../components/Curves.js';
import { lodClipId } from '../components/Lod.js';
import * as layout from '../math/layout.js';
import type { AnimationWorld } from '../world.js';

const { POSE_STRIDE } = layout;

type ClipCurve = Clip['curves'][number];

/** The override sum per curve, in doubles (a fixed-size temporary: each thread has its own module). */
const SUM = new Float64Array(MAX_CURVES);

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
  const Layers = world.components.Layers;
  const updated = world.updates.eids;
  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const n = count[eid];
    if (n === 0) continue;
    blendCurvesOf(world, eid, n, Layers.time, Layers.weight, eid * Layers.maxLayers, values, eid * maxCurves);
  }
}

/**
 * Blends the `curveCount` curves of character `eid` (see the file header) into
 * `out[outOff .. outOff + curveCount)`, with layer n (slot `eid × maxLayers + n`) at time
 * `times[base + n]` and weight `weights[base + n]`: the layers' own arrays (`base` =
 * `eid × maxLayers`) or a capture's times and weights at another instant (`base` 0). Clips at
 * the character's LOD level. Allocates nothing.
 */
export function blendCurvesOf(
  world: AnimationWorld, eid: number, curveCount: number, times: Float64Array, weights: Float32Array | Float64Array, base: number,
  out: Float32Array, outOff: number,
): void {
  const { Character, Layers, Lod } = world.components;
  const row = world.assets.curveMaps[Character.skeleton[eid]];
  if (row === undefined) return; // (spawn made it: not reached)
  const { defaults, clips: maps } = row;
  const { clip: clipIds, flags, reference, maxLayers } = Layers;
  const { clips, references } = world.assets;
  const clipLevels = world.lod.clipLevels;
  const level = Lod.enabled[eid] === 0 ? -1 : Lod.level[eid];
  const threshold = world.scratch.blendThreshold[0];
  const firstLayer = eid * maxLayers;

  // 1. Override layers: W first, for the rest default's share.
  let total = 0;
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    const w = weights[base + n];
    if (clipIds[li] >= 0 && w > 0 && (flags[li] & LAYER_ADDITIVE) === 0) total += w;
  }
  const restShare = total < threshold ? threshold - total : 0;
  for (let c = 0; c < curveCount; c++) SUM[c] = 0;
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    const w = weights[base + n];
    if (!(clipIds[li] >= 0 && w > 0 && (flags[li] & LAYER_ADDITIVE) === 0)) continue;
    const clipId = level < 0 ? clipIds[li] : lodClipId(clipLevels, clipIds[li], level);
    // The layer's vector: its clip's curves where it has them, the defaults elsewhere.
    for (let c = 0; c < curveCount; c++) SUM[c] += w * defaults[c];
    const map = maps[clipId];
    if (map === undefined) continue;
    const clip = clips[clipId];
    const position = times[base + n] * clip.frameRate;
    for (let i = 0; i < map.length; i++) {
      const c = map[i];
      if (c < 0) continue;
      SUM[c] += w * (sampleCurve(clip.curves[i], clip.frameCount, position) - defaults[c]);
    }
  }
  const scale = 1 / (total > threshold ? total : threshold);
  for (let c = 0; c < curveCount; c++) SUM[c] = (SUM[c] + restShare * defaults[c]) * scale;

  // 2. Additive layers in layer order: β·(s − r) for the curves their clips have.
  for (let n = 0; n < maxLayers; n++) {
    const li = firstLayer + n;
    const beta = weights[base + n];
    if (!(clipIds[li] >= 0 && beta > 0 && (flags[li] & LAYER_ADDITIVE) !== 0 && reference[li] >= 0)) continue;
    const clipId = level < 0 ? clipIds[li] : lodClipId(clipLevels, clipIds[li], level);
    const map = maps[clipId];
    if (map === undefined) continue;
    const clip = clips[clipId];
    const r = references[reference[li]];
    const rOff = Character.jointCount[eid] * POSE_STRIDE;
    const position = times[base + n] * clip.frameRate;
    for (let i = 0; i < map.length; i++) {
      const c = map[i];
      if (c < 0) continue;
      SUM[c] += beta * (sampleCurve(clip.curves[i], clip.frameCount, position) - r[rOff + c]);
    }
  }
  for (let c = 0; c < curveCount; c++) out[outOff + c] = SUM[c];
}

/**
 * A clip curve at frame position `position` (time × frame rate), as `sampleCurvesInto` samples
 * it: clamped to the clip, the two frames around it lerped, a keyed curve linear between keys.
 */
export function sampleCurve(curve: ClipCurve, frameCount: number, position: number): number {
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
    alpha = 0;
  }
  const keys = curve.keys;
  const values = curve.values;
  if (keys === null) {
    const a = values[frame];
    return alpha === 0 ? a : a + (values[frame + 1] - a) * alpha;
  }
  const f = frame + alpha;
  const last = keys.length - 1;
  if (last === 0 || f <= keys[0]) return values[0];
  if (f >= keys[last]) return values[last];
  let lo = 0, hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= f) lo = mid;
    else hi = mid;
  }
  const k0 = keys[lo], k1 = keys[lo + 1];
  const a = values[lo];
  return a + (values[lo + 1] - a) * ((f - k0) / (k1 - k0));
}
