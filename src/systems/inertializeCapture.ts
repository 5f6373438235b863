/**
 * The capture step of inertialization: when a transition switches clips, turn the difference
 * between where the output was going and where the new clips are into per-joint offsets that
 * `inertializeSystem` then decays.
 *
 * Timing (seeds/inertialization.txt): the offsets are anchored at the last output before the
 * switch, P1 (time τ, the previous update), so on the switch frame the output is T(τ + dt) +
 * x(dt), continuing the motion instead of repeating P1:
 *   x0 = P1 − T(τ),   v0 = v_src − v_tgt,
 * the outgoing output's velocity minus the target's (the seed's v0 is the case of a still
 * target).
 *
 * Velocities at a fixed interval, not from the last two frames. The seed takes
 * v_src = (P1 − P2)/dt from the last two output frames: that is the velocity half a frame
 * before τ, so the same switch gave a different v0 — and a different transition — at every
 * frame rate (Robot Walking → Running: 8e-2 apart in quaternion components between 30 and
 * 240 Hz). Here both velocities are the clips' own derivatives measured `SOURCE_INTERVAL`
 * (h = 1 ms) apart, through the same blend:
 * - v_src (`captureSourceMotion`, at the request, while the layers still hold the outgoing
 *   clips at τ): the character's layers (weights, fades, masks, additive layers) are blended
 *   at τ and τ − h, and the running offset's own motion is added analytically (the quintic's
 *   x′(t) = `inertializeVelocity`, the spring's stored velocity; rotations composed as
 *   ω = ω_off + R_off·ω_blend). It is stored as the output h before P1 in the older history
 *   slot, P2 = P1 − h·v_src, with `lastDt` = h, so the seed's formula (P1 − P2)/Δt still reads
 *   it.
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
import { INERTIA_QUINTIC, INERTIA_SPRING, OFFSET_STRIDE } from '../components/Inertialization.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, blendMode, loops } from '../components/layerRules.js';
import { lodClipId } from '../components/Lod.js';
import { fadeCurve } from '../math/fadeCurves.js';
import { POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';
import type { AnimationWorld } from '../world.js';
import { applyAdditiveLayer, blendOverrideLayers } from '../math/blendPose.js';

/**
 * Seconds between the two evaluations a velocity is measured from (h): fixed, so a switch
 * gives the same velocities at any frame rate. Small enough that a clip's curvature adds
 * little (a·h/2), large enough that float32 poses (≈6e-8) give ≤ 1e-4 per second of noise.
 */
export const SOURCE_INTERVAL = 1e-3;

/** Layout of the `params` array of {@link captureOffsets}: seconds between P2 and P1. */
export const CAPTURE_PREV_DT = 0;
/** Signed seconds σh between the two target poses: `targetOther` is T(τ − σh). */
export const CAPTURE_DT = 1;
/** The running offset's clock (seconds since its capture), for {@link writeSourcePast}. */
export const CAPTURE_CLOCK = 2;
/** The requested duration t1 (quintic). */
export const CAPTURE_DURATION = 3;
/** `INERTIA_QUINTIC` or `INERTIA_SPRING`. */
export const CAPTURE_MODE = 4;
/** Seconds back at which {@link blendLayersAt} evaluates the layers (negative: ahead). */
export const CAPTURE_BACK = 5;
/** Floats of scratch {@link captureOffsets} and {@link writeSourcePast} need in `tmp`. */
export const CAPTURE_TMP = 40;

/** Below this an offset is zero: no direction to decay along. */
const NEGLIGIBLE = 1e-7;

// Offsets of quaternions and vectors in `tmp`.
const Q_P1 = 0, Q_P2 = 4, Q_T = 8, Q_TO = 12, Q_DELTA = 16, Q_OFF = 24, V = 28, W = 32, LEN = 35, U = 36;

/**
 * Writes `jointCount` joints of offsets (18 floats each, see `OFFSET_STRIDE`) from:
 * `targetNow` (T(τ)), `targetOther` (T(τ − σh), σh = `params[CAPTURE_DT]`), `prev1`/`prev2`
 * (P1 and the output `params[CAPTURE_PREV_DT]` seconds before it), all `jointCount × 10`
 * poses at their offsets; `params` per the `CAPTURE_*` indices; `tmp` scratch of
 * `CAPTURE_TMP` floats. Pure kernel; writes only the offsets block and `tmp`.
 */
export function captureOffsets(
  offsets: Float32Array, offOff: number,
  targetNow: Float32Array, targetOff: number,
  targetOther: Float32Array, otherOff: number,
  prev1: Float32Array, p1Off: number,
  prev2: Float32Array, p2Off: number,
  jointCount: number,
  params: Float64Array,
  tmp: Float64Array,
): void {
  const prevDt = params[CAPTURE_PREV_DT];
  const interval = params[CAPTURE_DT];
  const spring = params[CAPTURE_MODE] === INERTIA_SPRING;
  const sourceRate = prevDt > 0 ? 1 / prevDt : 0;
  const targetRate = interval !== 0 ? 1 / interval : 0;

  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    const t = targetOff + k, to = otherOff + k, p1 = p1Off + k, p2 = p2Off + k;
    const o = offOff + j * OFFSET_STRIDE;

    // Translation (0..2) and scale (7..9): vector offsets.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? 0 : 7;
      const out = o + (channel === 0 ? 0 : 12);
      let len = 0;
      for (let a = 0; a < 3; a++) {
        const offset = prev1[p1 + c + a] - targetNow[t + c + a];
        const velocity = (prev1[p1 + c + a] - prev2[p2 + c + a]) * sourceRate - (targetNow[t + c + a] - targetOther[to + c + a]) * targetRate;
        tmp[V + a] = velocity;
        offsets[out + a] = offset;
        len += offset * offset;
      }
      tmp[LEN] = Math.sqrt(len);
      storeVectorOffset(offsets, out, tmp, spring, params);
    }

    // Rotation: q_off = q_P1 · q_T(τ)⁻¹.
    copy4(tmp, Q_P1, prev1, p1 + 3);
    copy4(tmp, Q_P2, prev2, p2 + 3);
    copy4(tmp, Q_T, targetNow, t + 3);
    copy4(tmp, Q_TO, targetOther, to + 3);
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
    const out = o + 6;
    writeScaledAxis(tmp, W, tmp, Q_OFF);
    let len = 0;
    for (let a = 0; a < 3; a++) {
      offsets[out + a] = tmp[W + a];
      len += tmp[W + a] * tmp[W + a];
    }
    tmp[LEN] = Math.sqrt(len);
    storeVectorOffset(offsets, out, tmp, spring, params);
  }
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
  const first = eid * MAX_LAYERS;
  let count = 0;
  for (let li = first; li < first + MAX_LAYERS; li++) {
    const clipId = clipIds[li];
    if (clipId < 0) continue;
    const w = layerWeightAt(Layers, li, back, backIndex);
    if (!(w > 0)) continue;
    const clip = clips[clipId];
    time[0] = layerTimeAt(Layers, li, clip.duration, back, backIndex);
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
  for (let li = first; li < first + MAX_LAYERS; li++) {
    if (clipIds[li] < 0 || blendMode(Layers, li) !== BLEND_ADDITIVE || reference[li] < 0) continue;
    layerWeight[0] = layerWeightAt(Layers, li, back, backIndex);
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
  for (let li = eid * MAX_LAYERS, last = li + MAX_LAYERS; li < last; li++) {
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

/** Layer `li`'s weight `back[i]` seconds ago: its fade curve at that clock (clamped to the fade's span), else its weight. */
function layerWeightAt(layers: AnimationWorld['components']['Layers'], li: number, back: Float64Array, i: number): number {
  const kind = layers.fadeCurve[li];
  if (kind === 0) return layers.weight[li];
  const duration = layers.fadeDuration[li];
  let u = duration > 0 ? (layers.fadeElapsed[li] - back[i]) / duration : 1;
  if (u < 0) u = 0;
  else if (u > 1) u = 1;
  const from = layers.fadeFrom[li];
  return from + (layers.fadeTo[li] - from) * fadeCurve(kind, u);
}

/** Layer `li`'s clip time `back[i]` seconds ago (see {@link blendLayersAt}). */
function layerTimeAt(layers: AnimationWorld['components']['Layers'], li: number, duration: number, back: Float64Array, i: number): number {
  const t = layers.time[li], speed = layers.speed[li];
  if (!(duration > 0)) return 0;
  if (loops(layers, li)) {
    let earlier = t - speed * back[i];
    earlier -= Math.floor(earlier / duration) * duration;
    return earlier < duration ? earlier : 0;
  }
  if ((speed > 0 && t >= duration) || (speed < 0 && t <= 0)) return t; // resting at the end it plays toward
  const earlier = t - speed * back[i];
  return earlier < 0 ? 0 : earlier > duration ? duration : earlier;
}

/**
 * The source half of a capture, run when a transition is requested (see the file header):
 * blends `eid`'s layers at τ (`world.scratch.pose`) and τ ∓ h (`poseOther`), adds the running
 * offset's analytic motion and writes the output h before P1, P2 = P1 − h·v_src, into the
 * older history slot, with `lastDt` = h. A character not yet stepped is still (P2 = P1).
 * A second request before the next update keeps the first one's source: the layers then
 * already hold the new clip. Allocates nothing.
 */
export function captureSourceMotion(world: AnimationWorld, eid: number): void {
  const c = world.components.Inertialization;
  if (c.pending[eid] !== 0) return;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const jointCount = world.components.Character.jointCount[eid];
  const index = c.historyIndex[eid];
  const p1Off = (eid * 2 + index) * poseSize, p2Off = (eid * 2 + 1 - index) * poseSize;
  if (c.lastDt[eid] === 0) {
    c.history.copyWithin(p2Off, p1Off, p1Off + jointCount * POSE_STRIDE);
  } else {
    const { pose, poseOther, params, tmp } = world.scratch;
    params[CAPTURE_BACK] = 0;
    blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
    params[CAPTURE_BACK] = SOURCE_INTERVAL;
    if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) params[CAPTURE_BACK] = -SOURCE_INTERVAL;
    params[CAPTURE_DT] = params[CAPTURE_BACK];
    blendLayersAt(world, eid, params, CAPTURE_BACK, poseOther);
    params[CAPTURE_MODE] = c.mode[eid];
    params[CAPTURE_CLOCK] = c.elapsed[eid];
    writeSourcePast(c.history, p2Off, c.history, p1Off, pose, poseOther, c.offsets, eid * world.maxJoints * OFFSET_STRIDE, jointCount, params, tmp);
  }
  c.lastDt[eid] = SOURCE_INTERVAL;
}

/**
 * Writes into `out` (at `outOff`) the output h = `SOURCE_INTERVAL` before `prev1` along the
 * output's velocity: v = the blend's (`now` minus `other`, `other` the blend at τ − σh,
 * σh = `params[CAPTURE_DT]`) plus the running offset's, per `params[CAPTURE_MODE]` at clock
 * `params[CAPTURE_CLOCK]` (quintic) from the `offsets` block at `offOff`. Translation and
 * scale: P2 = P1 − h·v; rotation: q_P2 = exp(−h·ω)·q_P1 with ω = ω_off + R_off·ω_blend (the
 * output is q_off·q_blend). Pure kernel; `tmp` of `CAPTURE_TMP` floats.
 */
export function writeSourcePast(
  out: Float32Array, outOff: number,
  prev1: Float32Array, p1Off: number,
  now: Float32Array, other: Float32Array,
  offsets: Float32Array, offOff: number,
  jointCount: number,
  params: Float64Array,
  tmp: Float64Array,
): void {
  const rate = 1 / params[CAPTURE_DT];
  const mode = params[CAPTURE_MODE];
  const t = params[CAPTURE_CLOCK];
  const h = SOURCE_INTERVAL;
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    const o = offOff + j * OFFSET_STRIDE;
    const p = p1Off + k, q = outOff + k;
    // Translation and scale: the blend's velocity plus the offset's along its direction.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? 0 : 7;
      const oc = o + (channel === 0 ? 0 : 12);
      for (let a = 0; a < 3; a++) tmp[V + a] = (now[k + c + a] - other[k + c + a]) * rate;
      if (mode === INERTIA_QUINTIC) {
        quinticVelocity(tmp, offsets, oc, t);
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + a] * tmp[U];
      } else if (mode === INERTIA_SPRING) {
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + 3 + a];
      }
      for (let a = 0; a < 3; a++) out[q + c + a] = prev1[p + c + a] - h * tmp[V + a];
    }
    // Rotation: ω_blend = axis·angle(now · other⁻¹) / σh.
    copy4(tmp, Q_T, now, k + 3);
    copy4(tmp, Q_TO, other, k + 3);
    quat.conjugate(tmp, Q_TO, tmp, Q_TO);
    quat.multiply(tmp, Q_DELTA, tmp, Q_T, tmp, Q_TO);
    writeScaledAxis(tmp, W, tmp, Q_DELTA);
    for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * rate;
    const r = o + 6;
    if (mode === INERTIA_QUINTIC) {
      // q_off = rotation by x(t) about the axis; ω_off = axis·x′(t).
      quinticVelocity(tmp, offsets, r, t);
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
    copy4(tmp, Q_P1, prev1, p + 3);
    quat.multiply(tmp, Q_P1, tmp, Q_DELTA, tmp, Q_P1);
    for (let a = 0; a < 4; a++) out[q + 3 + a] = tmp[Q_P1 + a];
  }
}

/**
 * For the quintic channel whose parameters (direction or axis, x0, v0·t1, 1/t1) start at
 * `offsets[c]`: writes x(t) to `tmp[LEN]` and x′(t) to `tmp[U]` (both 0 once the curve has
 * ended) — the factored forms of `inertializeCurve` and `inertializeVelocity`.
 */
function quinticVelocity(tmp: Float64Array, offsets: Float32Array, c: number, t: number): void {
  const x0 = offsets[c + 3], k = offsets[c + 4], inv = offsets[c + 5];
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
 * The spring's rotation offset r (axis × angle at `offsets[r..]`) and its rate ṙ (at r + 3):
 * `tmp[W..]` holds ω_blend and becomes R(r)·ω_blend + J(r)·ṙ, J the left Jacobian of the
 * rotation vector: J ṙ = ṙ + ((1 − cos θ)/θ²) r × ṙ + ((θ − sin θ)/θ³) r × (r × ṙ), θ = |r|.
 */
function springAngularVelocity(tmp: Float64Array, offsets: Float32Array, r: number): void {
  const rx = offsets[r], ry = offsets[r + 1], rz = offsets[r + 2];
  const dx = offsets[r + 3], dy = offsets[r + 4], dz = offsets[r + 5];
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
 * Quintic: rewrite it as the direction u, then the curve's parameters with the seed's clamps
 * already applied (see `inertializeCurve`), so each frame only evaluates a polynomial:
 * x0 (the length), k = v0·t1 and 1/t1, where v0 = velocity·u is clamped to ≤ 0 (a start heading
 * away from zero keeps still) and t1 = min(duration, −5·x0/v0) (no overshoot).
 * Spring: keep the vector and store the velocity after it.
 * (Floats travel in arrays so no double is boxed per call.)
 */
function storeVectorOffset(offsets: Float32Array, out: number, tmp: Float64Array, spring: boolean, params: Float64Array): void {
  const len = tmp[LEN];
  if (spring) {
    for (let a = 0; a < 3; a++) offsets[out + 3 + a] = tmp[V + a];
    return;
  }
  if (!(len > NEGLIGIBLE)) {
    for (let a = 0; a < 6; a++) offsets[out + a] = 0;
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
  let t1 = params[CAPTURE_DURATION];
  if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
  offsets[out + 3] = len;
  offsets[out + 4] = v0 * t1;
  offsets[out + 5] = 1 / t1; // t1 > 0: duration > 0 and −5·x0/v0 > 0
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
