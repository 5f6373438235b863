/**
 * inertializeSystem — transitions as a post-process on the final pose (D. Bollo, GDC 2018,
 * "Inertialization: High-Performance Animation Transitions in Gears of War", as explained by
 * hogetatu). A transition switches the layer's clip at once; this system adds to
 * the new pose an offset that starts at "where the old motion was going" and decays to zero,
 * so only the new clip is ever sampled.
 *
 * Reads:  Character, Layers (all of a capturing character's slots: clip, time, speed, weight,
 *         fades, flags, mask, reference, binding), LocalPose, Inertialization, Lod.enabled/level,
 *         the clip, binding, mask, reference and skeleton registries.
 * Float curves (`Curves`) ride along: the request stores their P1 (the last output)
 * and P2, the capture their offsets (x0 = P1 − T(τ), v0 as the translation's, on one signed
 * axis) in the curve part of the same transition slot (`Curves.slots`), and each update adds
 * the same quintic or spring decay to `Curves.values`; a spring ends when both are at rest.
 *
 * Writes: LocalPose (target + offset), Curves (values, slots), Inertialization (mode, elapsed, lastDt, lead, outputLevel; a
 *         capturing or decaying character's slot and offsets; `slotOwner` of a slot it gives back).
 * Order:  after blendSystem, before root motion and skinSystem. Visits the update list
 *         (`world.updates`): characters `lodSystem` is not updating this frame are skipped; on
 *         their update frame (the list's dt) the offsets decay by
 *         all the seconds since the last one (both decays are exact for any step), and a capture
 *         samples the clip at the character's LOD level, as sampleSystem did.
 *
 * Per frame and character:
 * 1. A pending transition captures offsets (see inertializeCapture.ts) into the character's
 *    transition slot, anchored at the last update's output P1, which the request rebuilt into
 *    the slot with the output h = 1 ms before it (`captureSourceMotion`): the layers (now with
 *    the new clip) are blended as they were dt and dt + h seconds ago for the target and its
 *    velocity. Both velocities use the fixed h, not the frame. A switch `lead` seconds into the
 *    update (`Inertialization.lead`, a machine's exit time crossed inside the step) is anchored
 *    there instead: the target dt − lead and dt − lead + h ago, the offsets' clock from −lead.
 * 2. Quintic mode: each channel's offset x(t) = inertializeCurve(x0, v0, t1, t) along its
 *    direction (translation, scale) or about its axis (rotation, applied as q_off · q), exactly
 *    zero from t1 on. Spring mode: offset vectors decay as a critically damped spring with the
 *    transition's half-life (Holden, "Spring-It-On"); a transition requested meanwhile starts
 *    from the current output, which is the old offset plus the new one. Dead-blend mode
 *    (orangeduck's dead blending, deadBlendOffsets.ts): the capture records the source P1,
 *    its velocity and a per-joint half-life instead of offsets; each update extrapolates the
 *    source with decaying velocities and cross-fades from it to the layers' pose by the fade
 *    curve, exactly the layers' pose from the fade's end on.
 * 3. A character whose offsets ended at its previous update gives its slot back (not at that
 *    update: its output still held them, and a request until the next update rebuilds it).
 *    The level the update sampled at is recorded (`outputLevel`), so a request can rebuild the
 *    output; a character not transitioning costs two scalar writes, no pose copy.
 *
 * On the WebAssembly kernels (`world.wasm`) each update's offsets run in assembly/offsets.ts
 * (src/wasm/offsetsWasm.ts: the same operations, the JavaScript kernels' bits but where those
 * call Math.sin, Math.cos or Math.exp); the capture runs here.
 *
 * The root joint is treated like every joint: its offsets decay in the pose (local space).
 * Root motion moves the character from the clips' root deltas, not from this pose, so a
 * decaying root offset blends the pose's in-place root position and never moves the
 * character in the world.
 */
import { commitRemovals } from 'bitecs';
import * as inertialization from '../components/Inertialization.js';
import { updateRange } from '../components/UpdateList.js';
import * as layout from '../math/layout.js';
import type { AnimationWorld, ScratchOf } from '../world.js';
import { blendLayersAt } from './inertializeCapture.js';
import { captureCurveOffsets } from './captureCurves.js';
import { CAPTURE_BACK, CAPTURE_DT, createCaptureJob, SOURCE_INTERVAL, type CaptureJob } from './captureOffsets.js';
import { layersCanGoBack, layerPlanScratch } from './layerPlan.js';
import { CURVE_SLOT_STRIDE } from '../components/Curves.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import { captureDeadBlend, DEAD_CLOCK, DEAD_WEIGHT } from './deadBlendOffsets.js';
import { captureOffsetsOn, deadBlendOn, deadCurvesOn, quinticCurvesOn, quinticOffsetsOn, springCurvesOn, springOffsetsOn } from '../wasm/offsetsWasm.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE } = layout;
const { INERTIA_DEAD, INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING, NO_SLOT, OFFSET_STRIDE, OUTPUT_FULL, SLOT_STRIDE } = inertialization;

/**
 * inertializeSystem's scratch (FrameSystem.scratch, built once per world; `transition` uses
 * it too, through `captureSourceMotion`): a transition capture blends the layers at two times
 * h apart (`pose`, `poseOther`, `maxJoints × 10` each) from `world.maxLayers` layer poses
 * (`layerPoses`) by the layer plan (`layerPlan`, shared by name with blendSystem's), the seconds back it blends at (`params`, at
 * `CAPTURE_BACK`), the capture's job (`capture`: inputs, outputs and math scratch, filled per
 * capture), a slot's worth of floats (`slotScratch`, `maxJoints × 20`: the offsets a capture
 * computes before they replace the source poses in the slot, or the source poses a request
 * computes before they replace the running offsets), a dead blend's clock and weight
 * (`deadClock`, at `DEAD_CLOCK` and `DEAD_WEIGHT`), a spring's decay and a capture's seconds for
 * the WebAssembly kernels (`offsetParams`, `captureParams`, src/wasm/offsetsWasm.ts); those three
 * in the pool memory, where the kernels read them.
 */
export const inertializeScratch = {
  pose: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, maxJoints * POSE_STRIDE),
  poseOther: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, maxJoints * POSE_STRIDE),
  layerPoses: (maxJoints: number, alloc: PoolAllocator, maxLayers: number): Float32Array => alloc.array(Float32Array, maxLayers * maxJoints * POSE_STRIDE),
  slotScratch: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, maxJoints * SLOT_STRIDE),
  params: (): Float64Array => new Float64Array(8),
  deadClock: (_maxJoints: number, alloc: PoolAllocator): Float64Array => alloc.array(Float64Array, 2),
  offsetParams: (_maxJoints: number, alloc: PoolAllocator): Float64Array => alloc.array(Float64Array, 4),
  captureParams: (_maxJoints: number, alloc: PoolAllocator): Float64Array => alloc.array(Float64Array, 4),
  capture: (): CaptureJob => createCaptureJob(),
  ...layerPlanScratch,
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof inertializeScratch> {}
}

/** Captures and applies inertialization for every character; see the file header. */
export function inertializeSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  inertializeEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link inertializeSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function inertializeEntities(world: AnimationWorld, frameDt: number, first: number, end: number): void {
  const { Character, LocalPose, Inertialization, Lod, Curves } = world.components;
  const { mode, pending, elapsed, duration, lastDt, lead, slot, slotOwner, outputLevel, slots } = Inertialization;
  const maxCurves = Curves.maxCurves;
  const curveSlotSize = maxCurves * CURVE_SLOT_STRIDE;
  const { enabled: lodOn, level: lodLevel } = Lod;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const slotSize = world.maxJoints * SLOT_STRIDE;
  const { eids: updated, dt: updatedDt } = world.updates;
  const last = updateRange(world.updates, world.characters.dense, frameDt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const dt = updatedDt[entry]; // seconds since its last update (lodSystem)
    let decay = dt; // the spring's seconds this update: from the switch's instant on a capture
    if (pending[eid] !== 0) {
      capture(world, eid, dt);
      if (lead[eid] !== 0) {
        decay = dt - lead[eid];
        lead[eid] = 0;
      }
    }

    const current = mode[eid];
    if (current === INERTIA_QUINTIC) {
      elapsed[eid] = elapsed[eid] + dt;
      quinticOffsetsOn(world, local, eid * poseSize, slots, slot[eid] * slotSize, Character.jointCount[eid], elapsed, eid);
      if (maxCurves > 0 && Curves.count[eid] > 0) {
        quinticCurvesOn(world, Curves.values, eid * maxCurves, Curves.slots, slot[eid] * curveSlotSize, Curves.count[eid], elapsed, eid);
      }
      if (elapsed[eid] >= duration[eid]) mode[eid] = INERTIA_NONE;
    } else if (current === INERTIA_SPRING) {
      let active = springOffsetsOn(world, local, eid * poseSize, slots, slot[eid] * slotSize, Character.jointCount[eid], Inertialization.halfLife, eid, decay);
      if (maxCurves > 0 && Curves.count[eid] > 0
        && springCurvesOn(world, Curves.values, eid * maxCurves, Curves.slots, slot[eid] * curveSlotSize, Curves.count[eid], Inertialization.halfLife, eid, decay)) active = true;
      if (!active) mode[eid] = INERTIA_NONE;
    } else if (current === INERTIA_DEAD) {
      elapsed[eid] = elapsed[eid] + dt;
      if (elapsed[eid] < duration[eid]) {
        const clock = world.scratch.deadClock;
        clock[DEAD_CLOCK] = elapsed[eid];
        clock[DEAD_WEIGHT] = elapsed[eid] / duration[eid];
        applyFadeCurve(clock, DEAD_WEIGHT, Inertialization.fadeCurve[eid]);
        if (clock[DEAD_WEIGHT] < 1) {
          deadBlendOn(world, local, eid * poseSize, slots, slot[eid] * slotSize, Character.jointCount[eid], clock);
          if (maxCurves > 0 && Curves.count[eid] > 0) {
            deadCurvesOn(world, Curves.values, eid * maxCurves, Curves.slots, slot[eid] * curveSlotSize, Curves.count[eid], clock);
          }
        }
      } else mode[eid] = INERTIA_NONE; // weight 1: the new pose exactly
    } else {
      const s = slot[eid];
      if (s !== NO_SLOT) {
        // Its offsets ended at its previous update, whose output held them: given back now.
        if (slotOwner[s] === eid) slotOwner[s] = 0;
        slot[eid] = NO_SLOT;
      }
    }
    // What a request needs to rebuild this output (captureSourceMotion): the clip level sampled
    // (as sampleSystem chose it), and whether time has moved.
    outputLevel[eid] = lodOn[eid] === 0 ? OUTPUT_FULL : lodLevel[eid];
    if (dt > 0) lastDt[eid] = dt;
  }
}

/**
 * Step 1 for `eid`: the target at τ and τ − h — the layers, now with the new clip, blended as
 * they were `dt` and `dt + h` seconds ago (`dt − h` where a clamped clip cannot go back) — and
 * the offsets from them, P1 and the source's P2 in the character's slot (see
 * inertializeCapture.ts). The offsets are computed into `slotScratch` (they take the poses'
 * place in the slot) and then copied there.
 */
function capture(world: AnimationWorld, eid: number, dt: number): void {
  const { Character, Inertialization: c } = world.components;
  const { pose, poseOther, params, capture: job, slotScratch } = world.scratch;
  const jointCount = Character.jointCount[eid];
  const poseSize = world.maxJoints * POSE_STRIDE;
  const slotOff = c.slot[eid] * world.maxJoints * SLOT_STRIDE;
  c.pending[eid] = 0;
  // The switch's instant: `lead` seconds into this update (0 but for a machine's exit time crossed inside a step).
  params[CAPTURE_BACK] = dt - c.lead[eid];
  blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
  params[CAPTURE_BACK] = dt - c.lead[eid] + SOURCE_INTERVAL;
  job.interval = SOURCE_INTERVAL;
  if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) {
    params[CAPTURE_BACK] = dt - c.lead[eid] - SOURCE_INTERVAL;
    job.interval = -SOURCE_INTERVAL;
  }
  blendLayersAt(world, eid, params, CAPTURE_BACK, poseOther);

  job.blend = pose; job.blendOff = 0;
  job.blendOther = poseOther; job.blendOtherOff = 0;
  job.p1 = c.slots; job.p1Off = slotOff;
  job.p2 = c.slots; job.p2Off = slotOff + poseSize;
  job.prevDt = c.lastDt[eid];
  job.offsets = slotScratch; job.offsetsOff = 0;
  job.jointCount = jointCount;
  job.mode = c.pendingMode[eid];
  job.duration = c.duration[eid];
  job.halfLife = c.halfLife[eid];
  const dead = job.mode === INERTIA_DEAD;
  if (dead) captureDeadBlend(job);
  else captureOffsetsOn(world, job);
  const slots = c.slots;
  for (let i = 0, n = jointCount * (dead ? SLOT_STRIDE : OFFSET_STRIDE); i < n; i++) slots[slotOff + i] = slotScratch[i];
  params[CAPTURE_DT] = dt - c.lead[eid];
  captureCurveOffsets(world, eid);
  c.mode[eid] = c.pendingMode[eid];
  // The offsets' clock from the switch's instant: this update adds its seconds (the spring
  // decays by dt − lead on it, see inertializeEntities).
  c.elapsed[eid] = 0 - c.lead[eid]; // 0 - x: +0, not -0, without a lead (the pools keep their bits)
}

export { addSpringOffsets, applyQuinticOffsets, applySpringOffsets } from './inertializeOffsets.js'; // the kernels, exported with their system for tests
