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
 * Both evaluations are the character's layer plan (systems/layerPlan.ts) — now (`planLayersNow`,
 * the last output's blend) or at another instant (`planLayersAt`) — blended by the frame's own
 * backends; the offsets themselves come from the kernels of captureOffsets.ts, the curves' from
 * captureCurves.ts.
 */
import * as inertialization from '../components/Inertialization.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import { addSpringOffsetsOn, deadBlendOn, quinticOffsetsOn, writeSourcePastOn } from '../wasm/offsetsWasm.js';
import { blendPlanWasm } from '../wasm/blendWasm.js';
import { captureCurveSource } from './captureCurves.js';
import { CAPTURE_BACK, CAPTURE_LEAD, SOURCE_INTERVAL } from './captureOffsets.js';
import { blendPlan, layersCanGoBack, planLayersAt, planLayersNow } from './layerPlan.js';
import { DEAD_CLOCK, DEAD_WEIGHT, writeDeadSourcePast } from './deadBlendOffsets.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
const { INERTIA_DEAD, INERTIA_QUINTIC, INERTIA_SPRING, OUTPUT_REST, SLOT_STRIDE } = inertialization;

/**
 * Blends the layers of character `eid` as they were `back[backIndex]` seconds ago (a negative
 * `back`: ahead) into `out` (`jointCount × 10` floats at 0): its layer plan at that instant
 * (`planLayersAt`: times moved back by their speeds, fading weights by their clocks, clips at
 * the character's LOD level) on the JavaScript kernels, two layers in two steps. Uses
 * `world.scratch.layerPoses` and `layerPlan`; allocates nothing.
 */
export function blendLayersAt(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number, out: Float32Array): void {
  const plan = world.scratch.layerPlan;
  planLayersAt(world, eid, back, backIndex, plan);
  blendPlan(world, plan, world.scratch.layerPoses, out, 0, false);
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
 * (P2 = P1). With a lead (`params[CAPTURE_LEAD]` > 0: a machine's exit time crossed inside the
 * coming step) P1 is the layers blended that many seconds ahead plus the running offset at its
 * clock then (a spring's as it stands), and v_src is measured there. A second request before
 * the next update keeps the first one's source: the layers
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
  // A switch `lead` seconds into the coming step (a machine's exit time crossed inside it): the
  // source there, the layers blended that far ahead and a running offset at its clock then.
  const ahead = params[CAPTURE_LEAD] > 0 && level !== OUTPUT_REST;
  if (ahead) {
    if (running && c.mode[eid] !== INERTIA_SPRING) c.elapsed[eid] = c.elapsed[eid] + params[CAPTURE_LEAD]; // replaced by the capture; read only below
    params[CAPTURE_BACK] = -params[CAPTURE_LEAD];
    blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
    for (let i = 0; i < n; i++) out[at + i] = pose[i];
    if (running) runningOffsetInto(world, eid, out, at, slotOff, jointCount);
  } else if (level === OUTPUT_REST) {
    const rest = world.assets.skeletons[Character.skeleton[eid]].rest;
    for (let i = 0; i < n; i++) out[at + i] = rest[i];
  } else if (running) {
    onePass = blendLayersNow(world, eid, level, pose, 0);
    for (let i = 0; i < n; i++) out[at + i] = pose[i];
    runningOffsetInto(world, eid, out, at, slotOff, jointCount);
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
    if (ahead) {
      job.blend = pose; job.blendOff = 0; // already the blend at the switch's instant
    } else if (onePass || level === OUTPUT_REST || world.wasm !== null || fadingLayers(world, eid) || level !== currentLevel(world, eid)) {
      params[CAPTURE_BACK] = 0;
      blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
      job.blend = pose; job.blendOff = 0;
    }
    params[CAPTURE_BACK] = SOURCE_INTERVAL - (ahead ? params[CAPTURE_LEAD] : 0);
    job.interval = SOURCE_INTERVAL;
    if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) {
      params[CAPTURE_BACK] = -SOURCE_INTERVAL - (ahead ? params[CAPTURE_LEAD] : 0);
      job.interval = -SOURCE_INTERVAL;
    }
    blendLayersAt(world, eid, params, CAPTURE_BACK, poseOther);
    job.blendOther = poseOther; job.blendOtherOff = 0;
    job.p1 = out; job.p1Off = at;
    job.p2 = out; job.p2Off = at + poseSize;
    job.offsets = c.slots; job.offsetsOff = slotOff;
    job.jointCount = jointCount;
    job.mode = c.mode[eid];
    job.clock = c.elapsed[eid];
    writeSourcePastOn(world, job);
    if (c.mode[eid] === INERTIA_DEAD) {
      // The running dead blend's own motion: the output at τ and at τ − σh, both rebuilt from
      // the blends (so the velocity takes both from the same kernels), give P2.
      deadBlendBack(world, eid, job.blend, job.blendOff, false);
      deadBlendBack(world, eid, poseOther, 0, true);
      writeDeadSourcePast(out, at, out, at + poseSize, job.blend, poseOther, jointCount, job.interval > 0, job.tmp);
    }
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

/** Adds `eid`'s running offset (in its slot at `slotOff`) to `out[at ..]` as the update applies it: quintic at `elapsed`, dead blending, or the spring as it stands. */
function runningOffsetInto(world: AnimationWorld, eid: number, out: Float32Array, at: number, slotOff: number, jointCount: number): void {
  const c = world.components.Inertialization;
  if (c.pendingMode[eid] === INERTIA_QUINTIC) quinticOffsetsOn(world, out, at, c.slots, slotOff, jointCount, c.elapsed, eid);
  else if (c.pendingMode[eid] === INERTIA_DEAD) deadBlendBack(world, eid, out, at, false);
  else addSpringOffsetsOn(world, out, at, c.slots, slotOff, jointCount);
}

/**
 * Applies `eid`'s running dead blend (the state in its slot) to `pose[poseOff ..]` as its last
 * update did (the same operations, so the rebuilt output has its bits: clock `elapsed`), or —
 * `past` — as it would have σh = `world.scratch.capture.interval` seconds before (clock
 * `elapsed − σh`), with the fade curve's weight there; nothing once the weight reaches 1.
 */
function deadBlendBack(world: AnimationWorld, eid: number, pose: Float32Array, poseOff: number, past: boolean): void {
  const c = world.components.Inertialization;
  const clock = world.scratch.deadClock;
  clock[DEAD_CLOCK] = past ? c.elapsed[eid] - world.scratch.capture.interval : c.elapsed[eid];
  if (!(clock[DEAD_CLOCK] < c.duration[eid])) return;
  clock[DEAD_WEIGHT] = clock[DEAD_CLOCK] / c.duration[eid];
  applyFadeCurve(clock, DEAD_WEIGHT, c.fadeCurve[eid]);
  if (!(clock[DEAD_WEIGHT] < 1)) return;
  deadBlendOn(world, pose, poseOff, c.slots, c.slot[eid] * world.maxJoints * SLOT_STRIDE, world.components.Character.jointCount[eid], clock);
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
 * into `out` (`jointCount × 10` floats at `outOff`): `planLayersNow`'s plan on the frame's
 * backend, so after an update it is that update's blend, bit for bit. Returns true when that is
 * the one-pass two-layer blend (layer poses unrounded), which differs from {@link blendLayersAt}'s
 * two steps by float32 rounding: a velocity then takes both its blends from `blendLayersAt`,
 * since 1 ms apart that rounding would weigh. Uses `world.scratch.layerPoses` and `layerPlan`;
 * allocates nothing.
 */
export function blendLayersNow(world: AnimationWorld, eid: number, level: number, out: Float32Array, outOff: number): boolean {
  const plan = world.scratch.layerPlan;
  planLayersNow(world, eid, level, plan);
  if (world.wasm !== null && out.buffer === world.wasm.poolBuffer) {
    blendPlanWasm(world, world.wasm, plan, out, outOff); // the frame's kernels (float32): its bits
    return false;
  }
  return blendPlan(world, plan, world.scratch.layerPoses, out, outOff, true);
}
