/**
 * The capture step of inertialization: when a transition switches clips, turn the difference
 * between where the output was going and where the new clips are into per-joint offsets that
 * `inertializeSystem` then decays.
 *
 * Timing (Bollo's inertialization, as explained by hogetatu): the offsets are anchored at the
 * last output before the switch, P1 (time τ, the previous update), so on the switch frame the output is T(τ + dt) +
 * x(dt), continuing the motion instead of repeating P1:
 *   x0 = P1 − T(τ),   v0 = v_src − v_tgt,
 * the outgoing output's velocity minus the target's (Bollo's v0 is the case of a still
 * target).
 *
 * Velocities at a fixed interval, not from the last two frames. Bollo's formulation takes
 * v_src = (P1 − P2)/dt from the last two output frames: that is the velocity half a frame
 * before τ, so the same switch gave a different v0 — and a different transition — at every
 * frame rate (Robot Walking → Running: 8e-2 apart in quaternion components between 30 and
 * 240 Hz). Here both velocities are the clips' own derivatives measured `SOURCE_INTERVAL`
 * (h = 1 ms) apart, through the same blend:
 * - v_src (`captureSourceMotion`, at the request, while the layers still hold the outgoing
 *   clips at τ): the character's layers (weights, fades, masks, additive layers) are blended
 *   at τ and τ − h, and the running offset's own motion is added analytically (the quintic's
 *   x′(t) = `inertializeVelocity`, the spring's stored velocity; rotations composed as
 *   ω = ω_off + R_off·ω_blend). It is stored as the output h before P1, P2 = P1 − h·v_src,
 *   beside P1 in the character's transition slot, with `lastDt` = h, so Bollo's formula
 *   (P1 − P2)/Δt still reads it. P1 itself is rebuilt at the request from the layers (as
 *   blendSystem blended them at the last update) and the running offset, so no character keeps
 *   a copy of its output while it is not transitioning.
 * - v_tgt and T(τ) (`inertializeSystem`, on the switch frame): the layers, now with the new
 *   clip, are blended at τ and τ − h (each layer moved back by its speed × (dt, dt + h), fades
 *   by their clocks).
 * Where a clamped clip cannot go back by h (a clip starting at 0) the pair τ, τ + h is used.
 *
 * Channels: translation and scale offsets are 3-vectors, stored as a unit direction and a
 * length x0 ≥ 0 with the velocity projected on that direction (kept as the clamped curve
 * parameters x0, v0·t1, 1/t1); rotation offsets are the axis and shortest-arc angle of
 * q_P1 · q_T(τ)⁻¹, with the offset's angular velocity ω_src − R_off ω_tgt projected on that
 * axis. The spring mode keeps full vectors instead.
 */
import { sampleClipInto } from '../assets/sampleClip.js';
import * as inertialization from '../components/Inertialization.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, blendMode, isAdditive, isOverride, loops } from '../components/layerRules.js';
import { lodClipId } from '../components/Lod.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
import * as layout from '../math/layout.js';
import * as quat from '../math/quat.js';
import type { AnimationWorld } from '../world.js';
import { applyAdditiveLayer, blendOverrideLayers, blendTwoLayers } from '../math/blendPose.js';
import { addSpringOffsets, applyQuinticOffsets } from './inertializeOffsets.js';
import { blendLayersNowWasm } from '../wasm/blendWasm.js';
import { sampleBlendTwoLayers } from './blendSystem.js';
import { blendCurvesOf } from './blendCurves.js';
import { CURVE_INV_T1, CURVE_K, CURVE_SLOT_STRIDE, CURVE_X0, MAX_CURVES } from '../components/Curves.js';
import { MAX_LAYERS } from '../components/Layers.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
const {
  INERTIA_QUINTIC, INERTIA_SPRING, OFFSET_CHANNEL, OFFSET_INV_T1, OFFSET_K, OFFSET_Q, OFFSET_S, OFFSET_STRIDE, OFFSET_T,
  OFFSET_V, OFFSET_X0, OUTPUT_REST, SLOT_STRIDE,
} = inertialization;

/**
 * Seconds between the two evaluations a velocity is measured from (h): fixed, so a switch
 * gives the same velocities at any frame rate. Small enough that a clip's curvature adds
 * little (a·h/2), large enough that float32 poses (≈6e-8) give ≤ 1e-4 per second of noise.
 */
export const SOURCE_INTERVAL = 1e-3;

/** Index in the `back` array of {@link blendLayersAt}: seconds back it evaluates the layers (negative: ahead). */
export const CAPTURE_BACK = 5;
/** Index in `world.scratch.params` of a capture's update seconds, for {@link captureCurveOffsets} (a double argument would be boxed). */
export const CAPTURE_DT = 6;
/** Floats of scratch a {@link CaptureJob} needs in `tmp`. */
export const CAPTURE_TMP = 40;

/** Below this an offset is zero: no direction to decay along. */
const NEGLIGIBLE = 1e-7;

// Offsets of quaternions, vectors and rates in `tmp`.
const Q_P1 = 0, Q_P2 = 4, Q_T = 8, Q_TO = 12, Q_DELTA = 16, Q_OFF = 24, V = 28, W = 32, LEN = 35, U = 36, SOURCE_RATE = 37, TARGET_RATE = 38, CLOCK = 39;

/**
 * The inputs and outputs of the two capture kernels, {@link captureOffsets} (at the switch)
 * and `writeSourcePast` (at the request), named instead of passed by position: an
 * ozz-animation style job over caller-owned buffers. Poses are `jointCount × 10` floats at
 * their offsets; offsets blocks `jointCount × 18` (`OFFSET_STRIDE`). The world holds one in
 * `world.scratch.capture`, filled field by field for each capture, so a capture allocates
 * nothing.
 *
 * | field | captureOffsets | writeSourcePast |
 * | --- | --- | --- |
 * | `blend`, `blendOther` | reads: T(τ), T(τ − σh) | reads: the source blend at τ, τ − σh |
 * | `p1` | reads: P1 | reads: P1 |
 * | `p2` | reads: the output `prevDt` before P1 | writes: P2 = the output h before P1 |
 * | `offsets` | writes | reads: the running offset |
 * | `interval`, `jointCount`, `mode` | reads | reads |
 * | `prevDt`, `duration` | reads | — |
 * | `clock` | — | reads |
 */
export interface CaptureJob {
  /** The layers' blend at τ, at `blendOff`. */
  blend: Float32Array;
  /** Element offset of that pose in `blend`. */
  blendOff: number;
  /** The layers' blend at τ − σh (σh = `interval`), at `blendOtherOff`. */
  blendOther: Float32Array;
  /** Element offset of that pose in `blendOther`. */
  blendOtherOff: number;
  /** Signed seconds σh between `blend` and `blendOther` (non-zero). */
  interval: number;
  /** P1, the last output before the switch, at `p1Off`. */
  p1: Float32Array;
  /** Element offset of P1 in `p1`. */
  p1Off: number;
  /** The output before P1 (P2), at `p2Off`. */
  p2: Float32Array;
  /** Element offset of that pose in `p2`. */
  p2Off: number;
  /** Seconds between `p2` and `p1` (0: no velocity from the source). */
  prevDt: number;
  /** The offsets block, at `offsetsOff`. */
  offsets: Float32Array;
  /** Element offset of the block in `offsets`. */
  offsetsOff: number;
  /** Joints of the character (10 floats each in the poses). */
  jointCount: number;
  /** `INERTIA_QUINTIC` or `INERTIA_SPRING` (the new transition's for a capture, the running one's for the source). */
  mode: number;
  /** The requested duration t1 (quintic), seconds > 0. */
  duration: number;
  /** The running offset's clock (seconds since its capture). */
  clock: number;
  /** Scratch of `CAPTURE_TMP` floats. */
  readonly tmp: Float64Array;
}

const NO_POSE = new Float32Array(0);

/** A {@link CaptureJob} with no buffers yet and its own `tmp` (sized once, at world creation). */
export function createCaptureJob(): CaptureJob {
  // The seconds start as NaN so their fields hold doubles from the start (V8 keeps one field
  // representation, and writing a double into it allocates nothing).
  return {
    blend: NO_POSE, blendOff: 0, blendOther: NO_POSE, blendOtherOff: 0, interval: NaN,
    p1: NO_POSE, p1Off: 0, p2: NO_POSE, p2Off: 0, prevDt: NaN,
    offsets: NO_POSE, offsetsOff: 0, jointCount: 0, mode: 0, duration: NaN, clock: NaN,
    tmp: new Float64Array(CAPTURE_TMP),
  };
}

/**
 * Writes `job.jointCount` joints of offsets to `job.offsets` from the target T(τ) (`blend`),
 * T(τ − σh) (`blendOther`), P1 (`p1`) and the output `prevDt` seconds before it (`p2`), for
 * a transition of `job.mode` and `job.duration` (see the file header). Pure kernel; writes
 * only the offsets block and `job.tmp`.
 */
export function captureOffsets(job: CaptureJob): void {
  const tmp = job.tmp;
  tmp[SOURCE_RATE] = job.prevDt > 0 ? 1 / job.prevDt : 0;
  tmp[TARGET_RATE] = job.interval !== 0 ? 1 / job.interval : 0;
  for (let j = 0, n = job.jointCount; j < n; j++) {
    captureVectorOffset(job, j, POSE_T, OFFSET_T);
    captureVectorOffset(job, j, POSE_S, OFFSET_S);
    captureRotationOffset(job, j);
  }
}

/**
 * Joint `j`'s translation (pose floats at `c` = `POSE_T`, offset channel at `out` = `OFFSET_T`) or
 * scale (`POSE_S`, `OFFSET_S`) offset P1 − T(τ) and its velocity (P1 − P2)/Δt − (T(τ) − T(τ − σh))/σh.
 */
function captureVectorOffset(job: CaptureJob, j: number, c: number, out: number): void {
  const { blend: targetNow, blendOther: targetOther, p1: prev1, p2: prev2, offsets, tmp } = job;
  const k = j * POSE_STRIDE + c;
  const t = job.blendOff + k, to = job.blendOtherOff + k, p1 = job.p1Off + k, p2 = job.p2Off + k;
  const o = job.offsetsOff + j * OFFSET_STRIDE + out;
  const sourceRate = tmp[SOURCE_RATE], targetRate = tmp[TARGET_RATE];
  let len = 0;
  for (let a = 0; a < 3; a++) {
    const offset = prev1[p1 + a] - targetNow[t + a];
    const velocity = (prev1[p1 + a] - prev2[p2 + a]) * sourceRate - (targetNow[t + a] - targetOther[to + a]) * targetRate;
    tmp[V + a] = velocity;
    offsets[o + a] = offset;
    len += offset * offset;
  }
  tmp[LEN] = Math.sqrt(len);
  storeVectorOffset(offsets, o, tmp, job);
}

/**
 * Joint `j`'s rotation offset q_off = q_P1 · q_T(τ)⁻¹ as axis·angle, and its angular velocity
 * ω_src − R_off ω_tgt (ω from P1 · P2⁻¹ over Δt and T(τ) · T(τ − σh)⁻¹ over σh).
 */
function captureRotationOffset(job: CaptureJob, j: number): void {
  const tmp = job.tmp;
  const k = j * POSE_STRIDE + POSE_Q;
  const sourceRate = tmp[SOURCE_RATE], targetRate = tmp[TARGET_RATE];
  copy4(tmp, Q_P1, job.p1, job.p1Off + k);
  copy4(tmp, Q_P2, job.p2, job.p2Off + k);
  copy4(tmp, Q_T, job.blend, job.blendOff + k);
  copy4(tmp, Q_TO, job.blendOther, job.blendOtherOff + k);
  quat.conjugate(tmp, Q_OFF, tmp, Q_T);
  quat.multiply(tmp, Q_OFF, tmp, Q_P1, tmp, Q_OFF);
  // ω_tgt = axis·angle(T(τ) · T(τ − σh)⁻¹) / σh, rotated into the offset's frame: R_off ω_tgt.
  quat.conjugate(tmp, Q_DELTA, tmp, Q_TO);
  quat.multiply(tmp, Q_DELTA, tmp, Q_T, tmp, Q_DELTA);
  writeScaledAxis(tmp, W, tmp, Q_DELTA);
  for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * targetRate;
  quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
  // ω_src = axis·angle(P1 · P2⁻¹) / Δt; the offset's velocity is ω_src − R_off ω_tgt.
  quat.conjugate(tmp, Q_P2, tmp, Q_P2);
  quat.multiply(tmp, Q_P2, tmp, Q_P1, tmp, Q_P2);
  writeScaledAxis(tmp, V, tmp, Q_P2);
  for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] * sourceRate - tmp[W + a];
  // The offset itself as a vector axis·angle, like the translation and scale offsets.
  const offsets = job.offsets;
  const out = job.offsetsOff + j * OFFSET_STRIDE + OFFSET_Q;
  writeScaledAxis(tmp, W, tmp, Q_OFF);
  let len = 0;
  for (let a = 0; a < 3; a++) {
    offsets[out + a] = tmp[W + a];
    len += tmp[W + a] * tmp[W + a];
  }
  tmp[LEN] = Math.sqrt(len);
  storeVectorOffset(offsets, out, tmp, job);
}

/**
 * Blends the layers of character `eid` as they were `back` seconds ago (a negative `back`:
 * ahead) into `out` (`jointCount × 10` floats at 0), the way sampleSystem and blendSystem
 * would have: each layer at time t − speed·back (wrapped when looping, clamped otherwise; a
 * clamped clip resting at the end it plays toward stays there), each fading weight by its
 * fade clock at elapsed − back, its clip at the character's LOD level. Uses
 * `world.scratch.layerPoses` and the blend scratch; allocates nothing.
 */
export function blendLayersAt(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number, out: Float32Array): void {
  const { Character, Layers } = world.components;
  const { clip: clipIds, weight, mask, reference, binding, fadeCurve: fading } = Layers;
  const { clips, bindings, masks, references, skeletons } = world.assets;
  const scratch = world.scratch;
  const { layerOff, layerWeight, layerMask, layerPoses, time, blendThreshold } = scratch;
  const lod = world.components.Lod;
  const level = lod.enabled[eid] === 0 ? -1 : lod.level[eid];
  const jointCount = Character.jointCount[eid];
  const poseSize = world.maxJoints * POSE_STRIDE;
  const first = eid * Layers.maxLayers, end = first + Layers.maxLayers;
  let count = 0;
  for (let li = first; li < end; li++) {
    const clipId = clipIds[li];
    if (clipId < 0) continue;
    writeLayerWeightAt(layerWeight, count, Layers, li, back, backIndex);
    const w = layerWeight[count];
    if (!(w > 0)) continue;
    const clip = clips[clipId];
    writeLayerTimeAt(time, 0, Layers, li, clip.duration, back, backIndex);
    const n = li - first;
    const bindingId = binding[li];
    sampleClipInto(layerPoses, n * poseSize, level < 0 ? clip : clips[lodClipId(world.lod.clipLevels, clipId, level)], time, 0, bindingId < 0 ? null : bindings[bindingId]);
    if (blendMode(Layers, li) !== BLEND_OVERRIDE) continue;
    layerOff[count] = n * poseSize;
    layerWeight[count] = w;
    layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
    count++;
  }
  if (count === 1 && layerMask[0] === null && layerWeight[0] >= blendThreshold[0]) {
    // As blendSystem: one unmasked layer above the threshold is the blend, copied.
    const from = layerOff[0];
    for (let i = 0, n = jointCount * POSE_STRIDE; i < n; i++) out[i] = layerPoses[from + i];
  } else {
    blendOverrideLayers(out, 0, skeletons[Character.skeleton[eid]].rest, layerPoses, layerOff, layerWeight, layerMask, count, jointCount, blendThreshold);
  }
  // Additive layers in layer order, as blendSystem applies them.
  for (let li = first; li < end; li++) {
    if (clipIds[li] < 0 || blendMode(Layers, li) !== BLEND_ADDITIVE || reference[li] < 0) continue;
    writeLayerWeightAt(layerWeight, 0, Layers, li, back, backIndex);
    if (!(layerWeight[0] > 0)) continue;
    applyAdditiveLayer(out, 0, layerPoses, (li - first) * poseSize, references[reference[li]], layerWeight, 0, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
  }
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
 * (clamped to the fade's span), else its weight. Written, not returned: blendLayersAt is too
 * large for V8 to inline this into it, and a double returned from a call that is not inlined
 * is boxed — a heap number per layer per capture (measured: ~0.8 KB a frame on a crowd whose
 * machines switch every frame). The curve's argument and value go through an array
 * ({@link applyFadeCurve}) for the same reason: passed as an argument, a double is boxed too.
 */
function writeLayerWeightAt(out: Float32Array, o: number, layers: AnimationWorld['components']['Layers'], li: number, back: Float64Array, i: number): void {
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

/** Layer `li`'s clip time `back[i]` seconds ago, into `out[o]` (see {@link blendLayersAt}; written for the reason {@link writeLayerWeightAt} gives). */
function writeLayerTimeAt(out: Float64Array, o: number, layers: AnimationWorld['components']['Layers'], li: number, duration: number, back: Float64Array, i: number): void {
  const t = layers.time[li], speed = layers.speed[li];
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

/**
 * The source half of a capture, run when a transition is requested (see the file header),
 * into the transition slot `eid` holds (`Inertialization.slot`, taken by the caller): P1 and
 * P2 = P1 − h·v_src, with `lastDt` = h.
 *
 * P1, the last update's output, is rebuilt rather than kept (no character keeps a copy of its
 * output): the layers blended as blendSystem blended them at that update — their current
 * times, weights, masks and additive layers, at the clip level it sampled
 * (`Inertialization.outputLevel`) — plus the running offset as it was applied
 * (`running`: the slot held offsets at the call; quintic at `elapsed`, spring as it stands),
 * with the same kernels, so it has that output's bits. Before the character's first update
 * it is the rest pose of its spawn. A `play` or blend-space change since the last update is
 * part of the rebuilt P1 (the transition then starts from what those layers give), as it
 * already was of the velocity; a system inserted between blend and inertialize is not.
 *
 * v_src: `eid`'s layers blended at τ (`world.scratch.pose`) and τ ∓ h (`poseOther`) plus the
 * running offset's analytic motion. A character whose output has not moved yet is still
 * (P2 = P1). A second request before the next update keeps the first one's source: the layers
 * then already hold the new clip. Uses `world.scratch.slotScratch` for P1 and P2 while the
 * running offsets (in the same slot) are still read; allocates nothing.
 */
export function captureSourceMotion(world: AnimationWorld, eid: number, running: boolean): void {
  const { Character, Inertialization: c } = world.components;
  if (c.pending[eid] !== 0) return;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const jointCount = Character.jointCount[eid];
  const n = jointCount * POSE_STRIDE;
  const slotOff = c.slot[eid] * world.maxJoints * SLOT_STRIDE;
  const { pose, poseOther, params, capture: job, slotScratch } = world.scratch;
  // P1 at `out[at]`, P2 at `out[at + poseSize]`: straight into the slot, or — while the slot
  // still holds the running offsets, read below — into `slotScratch`, copied at the end.
  const out = running ? slotScratch : c.slots;
  const at = running ? 0 : slotOff;
  // P1: the last output rebuilt (see above). Its blend (before the offsets) is also the
  // velocity's blend at τ unless a weight is fading (`blendLayersAt` re-derives it from the
  // fade clock rather than reading it), the LOD level changed since the last update, or the
  // world runs the wasm kernels.
  const level = c.outputLevel[eid];
  let onePass = false; // P1's blend is blendSystem's one-pass two-layer blend (see blendLayersNow)
  job.blend = pose; job.blendOff = 0;
  if (level === OUTPUT_REST) {
    const rest = world.assets.skeletons[Character.skeleton[eid]].rest;
    for (let i = 0; i < n; i++) out[at + i] = rest[i];
  } else if (running) {
    onePass = blendLayersNow(world, eid, level, pose, 0);
    for (let i = 0; i < n; i++) out[at + i] = pose[i];
    if (c.pendingMode[eid] === INERTIA_QUINTIC) applyQuinticOffsets(out, at, c.slots, slotOff, jointCount, c.elapsed, eid);
    else addSpringOffsets(out, at, c.slots, slotOff, jointCount);
  } else {
    onePass = blendLayersNow(world, eid, level, out, at);
    job.blend = out; job.blendOff = at;
  }
  if (c.lastDt[eid] === 0) {
    out.copyWithin(at + poseSize, at, at + n);
  } else {
    // On wasm kernels P1 is the kernels' (float32) blend and the blend h back the JavaScript
    // kernels' (`blendLayersAt`): the velocity takes both blends from the same kernels (so too
    // after the one-pass two-layer blend, whose layer poses are not rounded to float32).
    if (onePass || level === OUTPUT_REST || world.wasm !== null || fadingLayers(world, eid) || level !== currentLevel(world, eid)) {
      params[CAPTURE_BACK] = 0;
      blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
      job.blend = pose; job.blendOff = 0;
    }
    params[CAPTURE_BACK] = SOURCE_INTERVAL;
    if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) params[CAPTURE_BACK] = -SOURCE_INTERVAL;
    job.interval = params[CAPTURE_BACK];
    blendLayersAt(world, eid, params, CAPTURE_BACK, poseOther);
    job.blendOther = poseOther; job.blendOtherOff = 0;
    job.p1 = out; job.p1Off = at;
    job.p2 = out; job.p2Off = at + poseSize;
    job.offsets = c.slots; job.offsetsOff = slotOff;
    job.jointCount = jointCount;
    job.mode = c.mode[eid];
    job.clock = c.elapsed[eid];
    writeSourcePast(job);
  }
  if (running) {
    // Into the slot, over the running offsets (no longer read: the capture replaces them).
    const slots = c.slots;
    for (let i = 0; i < n; i++) {
      slots[slotOff + i] = slotScratch[i];
      slots[slotOff + poseSize + i] = slotScratch[poseSize + i];
    }
  }
  captureCurveSource(world, eid);
  c.lastDt[eid] = SOURCE_INTERVAL;
}

/** Whether a layer of `eid` with a clip has a weight fade in progress. */
function fadingLayers(world: AnimationWorld, eid: number): boolean {
  const { clip, fadeCurve: fading, maxLayers } = world.components.Layers;
  for (let li = eid * maxLayers, last = li + maxLayers; li < last; li++) if (clip[li] >= 0 && fading[li] !== 0) return true;
  return false;
}

/** The clip level `eid` samples at now (as sampleSystem and `blendLayersAt` choose it). */
function currentLevel(world: AnimationWorld, eid: number): number {
  const lod = world.components.Lod;
  return lod.enabled[eid] === 0 ? -1 : lod.level[eid];
}

/**
 * Blends the layers of `eid` as blendSystem does, at their current times and weights, each
 * clip sampled at `level` (a LOD level, or −1 for the clip itself) as sampleSystem samples it,
 * into `out` (`jointCount × 10` floats at `outOff`): after an update, that update's blend, bit for bit
 * (the same kernels on the same inputs). Returns true when that is blendSystem's one-pass
 * two-layer blend (`sampleBlendTwoLayers`, layer poses unrounded), which differs from
 * {@link blendLayersAt}'s two steps by float32 rounding: a velocity then takes both its blends
 * from `blendLayersAt`, since 1 ms apart that rounding would weigh. Uses
 * `world.scratch.layerPoses` and the blend scratch; allocates nothing.
 */
export function blendLayersNow(world: AnimationWorld, eid: number, level: number, out: Float32Array, outOff: number): boolean {
  if (world.wasm !== null && out.buffer === world.wasm.memory.buffer) {
    blendLayersNowWasm(world, world.wasm, eid, level, out, outOff); // the frame's kernels (float32): its bits
    return false;
  }
  const { Character, Layers } = world.components;
  const { clip: clipIds, weight, mask, reference, binding, time } = Layers;
  const { clips, bindings, masks, references, skeletons } = world.assets;
  const { layerOff, layerWeight, layerMask, layerPoses, blendThreshold } = world.scratch;
  const jointCount = Character.jointCount[eid];
  const poseSize = world.maxJoints * POSE_STRIDE;
  const first = eid * Layers.maxLayers, end = first + Layers.maxLayers;
  let count = 0;
  let slotA = -1, slotB = -1; // the first two override layers (blendSystem's two-layer path)
  for (let li = first; li < end; li++) {
    const override = isOverride(Layers, li);
    if (!override && !isAdditive(Layers, li)) continue;
    const clipId = clipIds[li];
    const n = li - first;
    const bindingId = binding[li];
    sampleClipInto(layerPoses, n * poseSize, clips[lodClipId(world.lod.clipLevels, clipId, level)], time, li, bindingId < 0 ? null : bindings[bindingId]);
    if (!override) continue;
    if (count === 0) slotA = li;
    else if (count === 1) slotB = li;
    layerOff[count] = n * poseSize;
    layerWeight[count] = weight[li];
    layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
    count++;
  }
  let onePass = false;
  if (count === 1 && layerMask[0] === null && layerWeight[0] >= blendThreshold[0]) {
    const from = layerOff[0];
    for (let i = 0, n = jointCount * POSE_STRIDE; i < n; i++) out[outOff + i] = layerPoses[from + i];
  } else if (count === 2 && layerMask[0] === null && layerMask[1] === null && layerWeight[0] + layerWeight[1] >= blendThreshold[0]) {
    onePass = sampleBlendTwoLayers(out, outOff, Layers, slotA, slotB, level, clips, world.lod.clipLevels, layerWeight, jointCount);
    if (!onePass) blendTwoLayers(out, outOff, layerPoses, layerOff[0], layerOff[1], layerWeight, jointCount);
  } else {
    blendOverrideLayers(out, outOff, skeletons[Character.skeleton[eid]].rest, layerPoses, layerOff, layerWeight, layerMask, count, jointCount, blendThreshold);
  }
  for (let li = first; li < end; li++) {
    if (!isAdditive(Layers, li)) continue;
    applyAdditiveLayer(out, outOff, layerPoses, (li - first) * poseSize, references[reference[li]], weight, li, mask[li] >= 0 ? masks[mask[li]] : null, jointCount);
  }
  return onePass;
}

/**
 * Writes into `job.p2` the output h = `SOURCE_INTERVAL` before P1 (`job.p1`) along the
 * output's velocity: v = the blend's (`blend` minus `blendOther`, the blend at τ − σh,
 * σh = `job.interval`) plus the running offset's, per `job.mode` at clock `job.clock`
 * (quintic) from `job.offsets`. Translation and scale: P2 = P1 − h·v; rotation:
 * q_P2 = exp(−h·ω)·q_P1 with ω = ω_off + R_off·ω_blend (the output is q_off·q_blend).
 * Pure kernel; writes only the P2 pose and `job.tmp`.
 */
export function writeSourcePast(job: CaptureJob): void {
  const { blend: now, blendOther: other, p1: prev1, p2: out, offsets, tmp } = job;
  const rate = 1 / job.interval;
  const mode = job.mode;
  // The offset's clock travels to quinticVelocity in `tmp` (a double argument would be boxed).
  tmp[CLOCK] = job.clock;
  const h = SOURCE_INTERVAL;
  for (let j = 0, n = job.jointCount; j < n; j++) {
    const k = j * POSE_STRIDE;
    const o = job.offsetsOff + j * OFFSET_STRIDE;
    const p = job.p1Off + k, q = job.p2Off + k;
    const b = job.blendOff + k, bo = job.blendOtherOff + k;
    // Translation and scale: the blend's velocity plus the offset's along its direction.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? POSE_T : POSE_S;
      const oc = o + (channel === 0 ? OFFSET_T : OFFSET_S);
      for (let a = 0; a < 3; a++) tmp[V + a] = (now[b + c + a] - other[bo + c + a]) * rate;
      if (mode === INERTIA_QUINTIC) {
        quinticVelocity(tmp, offsets, oc);
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + a] * tmp[U];
      } else if (mode === INERTIA_SPRING) {
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + OFFSET_V + a];
      }
      for (let a = 0; a < 3; a++) out[q + c + a] = prev1[p + c + a] - h * tmp[V + a];
    }
    // Rotation: ω_blend = axis·angle(now · other⁻¹) / σh.
    copy4(tmp, Q_T, now, b + POSE_Q);
    copy4(tmp, Q_TO, other, bo + POSE_Q);
    quat.conjugate(tmp, Q_TO, tmp, Q_TO);
    quat.multiply(tmp, Q_DELTA, tmp, Q_T, tmp, Q_TO);
    writeScaledAxis(tmp, W, tmp, Q_DELTA);
    for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * rate;
    const r = o + OFFSET_Q;
    if (mode === INERTIA_QUINTIC) {
      // q_off = rotation by x(t) about the axis; ω_off = axis·x′(t).
      quinticVelocity(tmp, offsets, r);
      const half = 0.5 * tmp[LEN], sin = Math.sin(half);
      tmp[Q_OFF] = offsets[r] * sin; tmp[Q_OFF + 1] = offsets[r + 1] * sin; tmp[Q_OFF + 2] = offsets[r + 2] * sin; tmp[Q_OFF + 3] = Math.cos(half);
      quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
      for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] + offsets[r + a] * tmp[U];
    } else if (mode === INERTIA_SPRING) {
      springAngularVelocity(tmp, offsets, r);
    }
    // q_P2 = exp(−h·ω) · q_P1.
    const wx = tmp[W], wy = tmp[W + 1], wz = tmp[W + 2];
    const angle = Math.sqrt(wx * wx + wy * wy + wz * wz) * h;
    if (angle > 0) {
      const s = -Math.sin(0.5 * angle) / (angle / h);
      tmp[Q_DELTA] = wx * s; tmp[Q_DELTA + 1] = wy * s; tmp[Q_DELTA + 2] = wz * s; tmp[Q_DELTA + 3] = Math.cos(0.5 * angle);
    } else {
      tmp[Q_DELTA] = 0; tmp[Q_DELTA + 1] = 0; tmp[Q_DELTA + 2] = 0; tmp[Q_DELTA + 3] = 1;
    }
    copy4(tmp, Q_P1, prev1, p + POSE_Q);
    quat.multiply(tmp, Q_P1, tmp, Q_DELTA, tmp, Q_P1);
    for (let a = 0; a < 4; a++) out[q + POSE_Q + a] = tmp[Q_P1 + a];
  }
}

/**
 * For the quintic channel whose parameters (direction or axis, x0, v0·t1, 1/t1) start at
 * `offsets[c]`, at t = `tmp[CLOCK]`: writes x(t) to `tmp[LEN]` and x′(t) to `tmp[U]` (both 0 once the curve has
 * ended) — the factored forms of `inertializeCurve` and `inertializeVelocity`.
 */
function quinticVelocity(tmp: Float64Array, offsets: Float32Array, c: number): void {
  const t = tmp[CLOCK];
  const x0 = offsets[c + OFFSET_X0], k = offsets[c + OFFSET_K], inv = offsets[c + OFFSET_INV_T1];
  const s = t * inv;
  if (!(s < 1) || x0 === 0) {
    tmp[LEN] = 0;
    tmp[U] = 0;
    return;
  }
  const u = 1 - s, u2 = u * u;
  tmp[LEN] = u2 * u2 * (x0 * (1 + 4 * s) + k * s);
  // x′ = (1 − s)³ · (v0 − s (20 x0 / t1 + 5 v0)) with v0 = k / t1.
  tmp[U] = u2 * u * (k - s * (20 * x0 + 5 * k)) * inv;
}

/**
 * The spring's rotation offset r (axis × angle at `offsets[r..]`) and its rate ṙ (at r + `OFFSET_V`):
 * `tmp[W..]` holds ω_blend and becomes R(r)·ω_blend + J(r)·ṙ, J the left Jacobian of the
 * rotation vector: J ṙ = ṙ + ((1 − cos θ)/θ²) r × ṙ + ((θ − sin θ)/θ³) r × (r × ṙ), θ = |r|.
 */
function springAngularVelocity(tmp: Float64Array, offsets: Float32Array, r: number): void {
  const rx = offsets[r], ry = offsets[r + 1], rz = offsets[r + 2];
  const dx = offsets[r + OFFSET_V], dy = offsets[r + OFFSET_V + 1], dz = offsets[r + OFFSET_V + 2];
  const theta2 = rx * rx + ry * ry + rz * rz, theta = Math.sqrt(theta2);
  let a: number, b: number;
  if (theta < 1e-4) {
    a = 0.5 - theta2 / 24;
    b = 1 / 6 - theta2 / 120;
  } else {
    a = (1 - Math.cos(theta)) / theta2;
    b = (theta - Math.sin(theta)) / (theta2 * theta);
  }
  const cx = ry * dz - rz * dy, cy = rz * dx - rx * dz, cz = rx * dy - ry * dx; // r × ṙ
  const ex = ry * cz - rz * cy, ey = rz * cx - rx * cz, ez = rx * cy - ry * cx; // r × (r × ṙ)
  if (theta > 0) {
    const sin = Math.sin(0.5 * theta) / theta;
    tmp[Q_OFF] = rx * sin; tmp[Q_OFF + 1] = ry * sin; tmp[Q_OFF + 2] = rz * sin; tmp[Q_OFF + 3] = Math.cos(0.5 * theta);
    quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
  }
  tmp[W] = tmp[W] + dx + a * cx + b * ex;
  tmp[W + 1] = tmp[W + 1] + dy + a * cy + b * ey;
  tmp[W + 2] = tmp[W + 2] + dz + a * cz + b * ez;
}

/**
 * `offsets[out..out+2]` holds an offset vector of length `tmp[LEN]`; `tmp[V..V+2]` its velocity.
 * Quintic: rewrite it as the direction u, then the curve's parameters with Bollo's clamps
 * already applied (see `inertializeCurve`), so each frame only evaluates a polynomial:
 * x0 (the length), k = v0·t1 and 1/t1, where v0 = velocity·u is clamped to ≤ 0 (a start heading
 * away from zero keeps still) and t1 = min(duration, −5·x0/v0) (no overshoot).
 * Spring: keep the vector and store the velocity after it.
 * (Floats travel in arrays so no double is boxed per call.)
 */
function storeVectorOffset(offsets: Float32Array, out: number, tmp: Float64Array, job: CaptureJob): void {
  const len = tmp[LEN];
  if (job.mode === INERTIA_SPRING) {
    for (let a = 0; a < 3; a++) offsets[out + OFFSET_V + a] = tmp[V + a];
    return;
  }
  if (!(len > NEGLIGIBLE)) {
    for (let a = 0; a < OFFSET_CHANNEL; a++) offsets[out + a] = 0;
    return;
  }
  const inv = 1 / len;
  let v0 = 0;
  for (let a = 0; a < 3; a++) {
    const d = offsets[out + a] * inv;
    offsets[out + a] = d;
    v0 += tmp[V + a] * d;
  }
  if (v0 > 0) v0 = 0;
  let t1 = job.duration;
  if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
  offsets[out + OFFSET_X0] = len;
  offsets[out + OFFSET_K] = v0 * t1;
  offsets[out + OFFSET_INV_T1] = 1 / t1; // t1 > 0: duration > 0 and −5·x0/v0 > 0
}

/**
 * Writes `axis × angle` of the unit quaternion `q[qo..]` (shortest arc, angle in [0, π]) to
 * `out[o..o+2]`. Takes and returns no float, so no double is boxed (see sampleClipInto).
 */
function writeScaledAxis(out: Float64Array, o: number, q: Float64Array, qo: number): void {
  let x = q[qo], y = q[qo + 1], z = q[qo + 2];
  const w = q[qo + 3];
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
    return;
  }
  if (w < 0) { x = -x; y = -y; z = -z; }
  const k = (2 * Math.atan2(s, Math.abs(w))) / s;
  out[o] = x * k; out[o + 1] = y * k; out[o + 2] = z * k;
}

function copy4(out: Float64Array, o: number, a: Float32Array, ao: number): void {
  out[o] = a[ao];
  out[o + 1] = a[ao + 1];
  out[o + 2] = a[ao + 2];
  out[o + 3] = a[ao + 3];
}

/** A capture's layer times and weights at another instant, for {@link blendCurvesAt} (fixed-size temporaries). */
const CURVE_TIMES = new Float64Array(MAX_LAYERS);
const CURVE_WEIGHTS = new Float32Array(MAX_LAYERS); // as Layers.weight (one element kind for blendCurvesOf)
/** A capture's curves at τ and τ − σh (fixed-size temporaries). */
const CURVES_NOW = new Float32Array(MAX_CURVES);
const CURVES_OTHER = new Float32Array(MAX_CURVES);

/**
 * Blends the float curves of character `eid` as they were `back[backIndex]` seconds ago into
 * `out[outOff ..]` (`Curves.count[eid]` values), the way {@link blendLayersAt} blends its pose:
 * each layer at its time and fade weight then (blendCurves.ts). Allocates nothing.
 */
export function blendCurvesAt(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number, out: Float32Array, outOff: number): void {
  const Layers = world.components.Layers;
  const clips = world.assets.clips;
  const first = eid * Layers.maxLayers;
  for (let n = 0; n < Layers.maxLayers; n++) {
    const li = first + n;
    const clipId = Layers.clip[li];
    if (clipId < 0) {
      CURVE_WEIGHTS[n] = 0;
      continue;
    }
    writeLayerWeightAt(CURVE_WEIGHTS, n, Layers, li, back, backIndex);
    writeLayerTimeAt(CURVE_TIMES, n, Layers, li, clips[clipId].duration, back, backIndex);
  }
  blendCurvesOf(world, eid, world.components.Curves.count[eid], CURVE_TIMES, CURVE_WEIGHTS, 0, out, outOff);
}

/**
 * The curves' half of {@link captureSourceMotion} (same call, before `lastDt` becomes h): P1,
 * the curves' last output (`Curves.values`, which no later system changes), and P2 = P1 − h·v_src
 * into each curve's entry of the character's transition slot (`Curves.slots`), v_src the layers'
 * curve velocity over h plus the running offset's (quintic x′(t), spring velocity). A character
 * whose output has not moved is still (P2 = P1). Allocates nothing.
 */
export function captureCurveSource(world: AnimationWorld, eid: number): void {
  const { Curves, Inertialization: c } = world.components;
  const maxCurves = Curves.maxCurves;
  if (maxCurves === 0) return;
  const count = Curves.count[eid];
  if (count === 0) return;
  const { values, slots } = Curves;
  const valuesOff = eid * maxCurves;
  const slotOff = c.slot[eid] * maxCurves * CURVE_SLOT_STRIDE;
  const mode = c.mode[eid]; // the running offsets' (INERTIA_NONE: none)
  const still = c.lastDt[eid] === 0;
  const params = world.scratch.params;
  let rate = 0;
  if (!still) {
    params[CAPTURE_BACK] = 0;
    blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_NOW, 0);
    params[CAPTURE_BACK] = SOURCE_INTERVAL;
    if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) params[CAPTURE_BACK] = -SOURCE_INTERVAL;
    rate = 1 / params[CAPTURE_BACK];
    blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_OTHER, 0);
  }
  const t = c.elapsed[eid];
  for (let k = 0; k < count; k++) {
    const o = slotOff + k * CURVE_SLOT_STRIDE;
    const p1 = values[valuesOff + k];
    let v = 0;
    if (!still) {
      v = (CURVES_NOW[k] - CURVES_OTHER[k]) * rate;
      if (mode === INERTIA_QUINTIC) {
        // x′(t) = (1 − s)³·(k − s·(20·x0 + 5·k))/t1, signed (see applyQuinticCurveOffsets).
        const inv = slots[o + CURVE_INV_T1], s = t * inv, x0 = slots[o + CURVE_X0], kk = slots[o + CURVE_K];
        if (s < 1 && x0 !== 0) {
          const u = 1 - s;
          v += u * u * u * (kk - s * (20 * x0 + 5 * kk)) * inv;
        }
      } else if (mode === INERTIA_SPRING) {
        v += slots[o + CURVE_K];
      }
    }
    slots[o + CURVE_X0] = p1;
    slots[o + CURVE_K] = p1 - SOURCE_INTERVAL * v;
  }
}

/**
 * The curves' half of a capture (inertializeSystem, on the switch frame, after the pose's, with
 * `world.scratch.capture` still holding its interval σh, `prevDt`, mode and duration, and
 * `params[CAPTURE_DT]` the update's seconds dt):
 * from P1 and P2 in the slot (`prevDt` apart; 0: no source velocity), the target's curves at τ
 * (`dt` back) and τ − σh, each curve's offset x0 = P1 − T(τ) and velocity
 * v0 = (P1 − P2)/prevDt − (T(τ) − T(τ − σh))/σh, stored for `mode` as the translation channel's
 * on one signed axis: quintic x0, k = v0·t1 with v0 toward zero clamped to ≤ 0 and
 * t1 = min(duration, −5·|x0|/v0) (no overshoot); spring the offset and velocity. Allocates nothing.
 */
export function captureCurveOffsets(world: AnimationWorld, eid: number): void {
  const { Curves, Inertialization: c } = world.components;
  const maxCurves = Curves.maxCurves;
  if (maxCurves === 0) return;
  const count = Curves.count[eid];
  if (count === 0) return;
  const slots = Curves.slots;
  const slotOff = c.slot[eid] * maxCurves * CURVE_SLOT_STRIDE;
  const { params, capture: job } = world.scratch;
  const interval = job.interval, prevDt = job.prevDt, mode = job.mode, duration = job.duration;
  const dt = params[CAPTURE_DT];
  params[CAPTURE_BACK] = dt;
  blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_NOW, 0);
  params[CAPTURE_BACK] = dt + interval;
  blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_OTHER, 0);
  const sourceRate = prevDt > 0 ? 1 / prevDt : 0;
  const targetRate = 1 / interval;
  for (let k = 0; k < count; k++) {
    const o = slotOff + k * CURVE_SLOT_STRIDE;
    const p1 = slots[o + CURVE_X0], p2 = slots[o + CURVE_K];
    const x0 = p1 - CURVES_NOW[k];
    const v = (p1 - p2) * sourceRate - (CURVES_NOW[k] - CURVES_OTHER[k]) * targetRate;
    if (mode === INERTIA_SPRING) {
      slots[o + CURVE_X0] = x0;
      slots[o + CURVE_K] = v;
      continue;
    }
    const len = Math.abs(x0);
    if (!(len > NEGLIGIBLE)) {
      slots[o + CURVE_X0] = 0;
      slots[o + CURVE_K] = 0;
      slots[o + CURVE_INV_T1] = 0;
      continue;
    }
    const sign = x0 < 0 ? -1 : 1;
    let v0 = v * sign;
    if (v0 > 0) v0 = 0;
    let t1 = duration;
    if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
    slots[o + CURVE_X0] = x0;
    slots[o + CURVE_K] = v0 * t1 * sign;
    slots[o + CURVE_INV_T1] = 1 / t1;
  }
}
