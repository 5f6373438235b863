/**
 * inertializeSystem — transitions as a post-process on the final pose (D. Bollo, GDC 2018,
 * "Inertialization: High-Performance Animation Transitions in Gears of War";
 * seeds/inertialization.txt). A transition switches the layer's clip at once; this system adds to
 * the new pose an offset that starts at "where the old motion was going" and decays to zero,
 * so only the new clip is ever sampled.
 *
 * Reads:  Character, Layers (all of a capturing character's slots: clip, time, speed, weight,
 *         fades, flags, mask, reference, binding), LocalPose, Inertialization, Lod.level, the
 *         clip, binding, mask, reference and skeleton registries.
 * Writes: LocalPose (target + offset), Inertialization (offsets, mode, elapsed, history).
 * Order:  after blendSystem, before root motion and skinSystem. Visits the update list
 *         (`world.updates`): characters `lodSystem` is not updating this frame are skipped; on
 *         their update frame (the list's dt) the offsets decay by
 *         all the seconds since the last one (both decays are exact for any step), the history
 *         records that update's output, and a capture samples the clip at the character's LOD
 *         level, as sampleSystem did.
 *
 * Per frame and character:
 * 1. A pending transition captures offsets (see inertializeCapture.ts), anchored at the last
 *    update's output: the layers (now with the new clip) are blended as they were dt and
 *    dt + h seconds ago for the target and its velocity; the outgoing velocity was taken at
 *    the request (`captureSourceMotion`). Both use the fixed h = 1 ms, not the frame.
 * 2. Quintic mode: each channel's offset x(t) = inertializeCurve(x0, v0, t1, t) along its
 *    direction (translation, scale) or about its axis (rotation, applied as q_off · q), exactly
 *    zero from t1 on. Spring mode: offset vectors decay as a critically damped spring with the
 *    transition's half-life (Holden, "Spring-It-On"); a transition requested meanwhile starts
 *    from the current output, which is the old offset plus the new one.
 * 3. The output is recorded as the newest of two history poses (the input of the next capture).
 *
 * The root joint is treated like every joint: its offsets decay in the pose (local space).
 * Root motion moves the character from the clips' root deltas, not from this pose, so a
 * decaying root offset blends the pose's in-place root position and never moves the
 * character in the world.
 */
import { commitRemovals } from 'bitecs';
import * as inertialization from '../components/Inertialization.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { updateRange } from '../components/UpdateList.js';
import * as layout from '../math/layout.js';
import type { AnimationWorld, ScratchOf } from '../world.js';
import {
  blendLayersAt, CAPTURE_BACK, captureOffsets, createCaptureJob, layersCanGoBack, SOURCE_INTERVAL, type CaptureJob,
} from './inertializeCapture.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
const {
  INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING, OFFSET_CHANNEL, OFFSET_INV_T1, OFFSET_K, OFFSET_Q, OFFSET_S, OFFSET_STRIDE,
  OFFSET_T, OFFSET_V, OFFSET_X0,
} = inertialization;

/**
 * inertializeSystem's scratch (FrameSystem.scratch, built once per world; `transition` uses
 * it too, through `captureSourceMotion`): a transition capture blends the layers at two times
 * h apart (`pose`, `poseOther`, `maxJoints × 10` each) from `MAX_LAYERS` layer poses
 * (`layerPoses`), with one sample time (`time`), the seconds back it blends at (`params`, at
 * `CAPTURE_BACK`), the capture's job (`capture`: inputs, outputs and math scratch, filled per
 * capture), and blendSystem's layer scratch (shared by name).
 */
export const inertializeScratch = {
  pose: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, maxJoints * POSE_STRIDE),
  poseOther: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, maxJoints * POSE_STRIDE),
  layerPoses: (maxJoints: number, alloc: PoolAllocator): Float32Array => alloc.array(Float32Array, MAX_LAYERS * maxJoints * POSE_STRIDE),
  time: (): Float64Array => new Float64Array(1),
  params: (): Float64Array => new Float64Array(8),
  capture: (): CaptureJob => createCaptureJob(),
  layerOff: (): Int32Array => new Int32Array(MAX_LAYERS),
  layerWeight: (): Float32Array => new Float32Array(MAX_LAYERS),
  layerMask: (): (Float32Array | null)[] => new Array<Float32Array | null>(MAX_LAYERS).fill(null),
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof inertializeScratch> {}
}

/** A spring offset below this (and its velocity below {@link SPRING_REST_VELOCITY}) has ended. */
const SPRING_REST = 1e-5;
/** Ten times {@link SPRING_REST}, per second. */
const SPRING_REST_VELOCITY = 10 * SPRING_REST;

/** Captures, applies and records inertialization for every character; see the file header. */
export function inertializeSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  inertializeEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link inertializeSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function inertializeEntities(world: AnimationWorld, frameDt: number, first: number, end: number): void {
  const { Character, LocalPose, Inertialization } = world.components;
  const { mode, pending, elapsed, duration, historyIndex, lastDt, offsets } = Inertialization;
  const { local: localViews, history: historyViews } = world.views;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const { eids: updated, dt: updatedDt } = world.updates;
  const last = updateRange(world.updates, world.characters.dense, frameDt, first, end);
  // On WebAssembly kernels the history copy is the kernel's `memory.copy` (bulk memory): measured
  // at 10,000 poses of 64 joints, 1.3–1.5 ms against 1.5–1.8 for `.set` on a plain memory and
  // 3.0–3.4 on a shared one.
  const copyBytes = world.wasm === null ? null : world.wasm.copyBytes;
  const localAt = local.byteOffset, historyAt = Inertialization.history.byteOffset;
  const poseBytes = poseSize * 4;

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const dt = updatedDt[entry]; // seconds since its last update (lodSystem)
    const jointCount = Character.jointCount[eid];
    const localOff = eid * poseSize;
    const offsetOff = eid * world.maxJoints * OFFSET_STRIDE;
    if (pending[eid] !== 0) capture(world, eid, dt);

    const current = mode[eid];
    if (current === INERTIA_QUINTIC) {
      elapsed[eid] = elapsed[eid] + dt;
      applyQuinticOffsets(local, localOff, offsets, offsetOff, jointCount, elapsed, eid);
      if (elapsed[eid] >= duration[eid]) mode[eid] = INERTIA_NONE;
    } else if (current === INERTIA_SPRING) {
      if (!applySpringOffsets(local, localOff, offsets, offsetOff, jointCount, Inertialization.halfLife, eid, dt)) mode[eid] = INERTIA_NONE;
    }

    // History: the output becomes the newest slot (overwriting the oldest). A frame of dt = 0
    // moves no time, so it replaces the newest instead.
    const index = historyIndex[eid];
    const slot = dt > 0 ? 1 - index : index;
    if (copyBytes === null) historyViews[eid * 2 + slot].set(localViews[eid]); // a native copy of the whole pose
    else copyBytes(historyAt + (eid * 2 + slot) * poseBytes, localAt + eid * poseBytes, jointCount * (POSE_STRIDE * 4));
    if (dt > 0) {
      historyIndex[eid] = slot;
      lastDt[eid] = dt;
    }
  }
}

/**
 * Step 1 for `eid`: the target at τ and τ − h — the layers, now with the new clip, blended as
 * they were `dt` and `dt + h` seconds ago (`dt − h` where a clamped clip cannot go back) — and
 * the offsets from them, P1 and the source's P2 (see inertializeCapture.ts).
 */
function capture(world: AnimationWorld, eid: number, dt: number): void {
  const { Character, Inertialization: c } = world.components;
  const { pose, poseOther, params, capture: job } = world.scratch;
  const jointCount = Character.jointCount[eid];
  const poseSize = world.maxJoints * POSE_STRIDE;
  c.pending[eid] = 0;
  params[CAPTURE_BACK] = dt;
  blendLayersAt(world, eid, params, CAPTURE_BACK, pose);
  params[CAPTURE_BACK] = dt + SOURCE_INTERVAL;
  job.interval = SOURCE_INTERVAL;
  if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) {
    params[CAPTURE_BACK] = dt - SOURCE_INTERVAL;
    job.interval = -SOURCE_INTERVAL;
  }
  blendLayersAt(world, eid, params, CAPTURE_BACK, poseOther);

  const index = c.historyIndex[eid];
  job.blend = pose; job.blendOff = 0;
  job.blendOther = poseOther; job.blendOtherOff = 0;
  job.p1 = c.history; job.p1Off = (eid * 2 + index) * poseSize;
  job.p2 = c.history; job.p2Off = (eid * 2 + 1 - index) * poseSize;
  job.prevDt = c.lastDt[eid];
  job.offsets = c.offsets; job.offsetsOff = eid * world.maxJoints * OFFSET_STRIDE;
  job.jointCount = jointCount;
  job.mode = c.pendingMode[eid];
  job.duration = c.duration[eid];
  captureOffsets(job);
  c.mode[eid] = c.pendingMode[eid];
  c.elapsed[eid] = 0;
}

/**
 * Adds the quintic offsets at `elapsed[index]` seconds to a pose (step 2 of the file header).
 * Offsets: `jointCount × 18` floats at `offOff`: per channel the direction or axis, then the
 * clamped curve parameters x0, k = v0·t1, 1/t1 written at capture. Pure kernel; writes only
 * the pose block.
 */
export function applyQuinticOffsets(
  pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number,
  elapsed: Float32Array, index: number,
): void {
  const t = elapsed[index];
  for (let j = 0; j < jointCount; j++) {
    const p = poseOff + j * POSE_STRIDE;
    const c = offOff + j * OFFSET_STRIDE;
    // Each channel: the seed's quintic (a0 for zero jerk at t1), which with s = t/t1 factors as
    // x(t) = (1 − s)⁴·(x0·(1 + 4s) + v0·t1·s) — `inertializeCurve` in a few multiplies.
    // Translation along its direction:
    const ct = c + OFFSET_T;
    let s = t * offsets[ct + OFFSET_INV_T1];
    if (s < 1 && offsets[ct + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const x = r2 * r2 * (offsets[ct + OFFSET_X0] * (1 + 4 * s) + offsets[ct + OFFSET_K] * s);
      pose[p + POSE_T] = pose[p + POSE_T] + offsets[ct] * x;
      pose[p + POSE_T + 1] = pose[p + POSE_T + 1] + offsets[ct + 1] * x;
      pose[p + POSE_T + 2] = pose[p + POSE_T + 2] + offsets[ct + 2] * x;
    }
    // Scale along its direction:
    const cs = c + OFFSET_S;
    s = t * offsets[cs + OFFSET_INV_T1];
    if (s < 1 && offsets[cs + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const x = r2 * r2 * (offsets[cs + OFFSET_X0] * (1 + 4 * s) + offsets[cs + OFFSET_K] * s);
      pose[p + POSE_S] = pose[p + POSE_S] + offsets[cs] * x;
      pose[p + POSE_S + 1] = pose[p + POSE_S + 1] + offsets[cs + 1] * x;
      pose[p + POSE_S + 2] = pose[p + POSE_S + 2] + offsets[cs + 2] * x;
    }
    // Rotation about its axis: q ← (axis·sin(x/2), cos(x/2)) · q.
    const cq = c + OFFSET_Q;
    s = t * offsets[cq + OFFSET_INV_T1];
    if (s < 1 && offsets[cq + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const h = 0.5 * r2 * r2 * (offsets[cq + OFFSET_X0] * (1 + 4 * s) + offsets[cq + OFFSET_K] * s);
      // The half angle is ≤ π/2, where these Taylor polynomials (to the 11th and 12th order)
      // are within 6e-8 of Math.sin and Math.cos — float32 precision — at a fraction of the cost.
      const h2 = h * h;
      const sin = h * (1 + h2 * (S3 + h2 * (S5 + h2 * (S7 + h2 * (S9 + h2 * S11)))));
      const w = 1 + h2 * (C2 + h2 * (C4 + h2 * (C6 + h2 * (C8 + h2 * (C10 + h2 * C12)))));
      const ax = offsets[cq] * sin, ay = offsets[cq + 1] * sin, az = offsets[cq + 2] * sin;
      const bx = pose[p + POSE_Q], by = pose[p + POSE_Q + 1], bz = pose[p + POSE_Q + 2], bw = pose[p + POSE_Q + 3];
      pose[p + POSE_Q] = w * bx + ax * bw + ay * bz - az * by;
      pose[p + POSE_Q + 1] = w * by - ax * bz + ay * bw + az * bx;
      pose[p + POSE_Q + 2] = w * bz + ax * by - ay * bx + az * bw;
      pose[p + POSE_Q + 3] = w * bw - ax * bx - ay * by - az * bz;
    }
  }
}

// Taylor coefficients of sin (odd powers) and cos (even powers).
const S3 = -1 / 6, S5 = 1 / 120, S7 = -1 / 5040, S9 = 1 / 362880, S11 = -1 / 39916800;
const C2 = -1 / 2, C4 = 1 / 24, C6 = -1 / 720, C8 = 1 / 40320, C10 = -1 / 3628800, C12 = 1 / 479001600;

/**
 * Advances the spring offsets by `dt` and adds them to a pose (step 2 of the file header).
 * Offsets: `jointCount × 18` floats at `offOff` (offset vector and velocity per channel; the
 * rotation's vector is axis × angle). `halfLife[index]` > 0 seconds. Returns whether any offset
 * is still above rest. Pure kernel; writes only the pose block and the offsets.
 */
export function applySpringOffsets(
  pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number,
  halfLife: Float32Array, index: number, dt: number,
): boolean {
  // Critically damped decay spring (Holden): y = 2 ln 2 / halfLife, j = v + x·y,
  // x' = e^(−y dt)·(x + j dt), v' = e^(−y dt)·(v − j y dt). Exact for any dt.
  const y = (2 * Math.LN2) / halfLife[index];
  const decay = Math.exp(-y * dt);
  let active = false;
  for (let j = 0; j < jointCount; j++) {
    const o = offOff + j * OFFSET_STRIDE;
    for (let k = o, end = o + OFFSET_STRIDE; k < end; k += OFFSET_CHANNEL) {
      for (let a = k; a < k + 3; a++) {
        const x = offsets[a], v = offsets[a + OFFSET_V];
        const jerk = v + x * y;
        const nx = decay * (x + jerk * dt);
        const nv = decay * (v - jerk * y * dt);
        offsets[a] = nx;
        offsets[a + OFFSET_V] = nv;
        if (Math.abs(nx) > SPRING_REST || Math.abs(nv) > SPRING_REST_VELOCITY) active = true;
      }
    }
    const p = poseOff + j * POSE_STRIDE;
    pose[p + POSE_T] = pose[p + POSE_T] + offsets[o + OFFSET_T];
    pose[p + POSE_T + 1] = pose[p + POSE_T + 1] + offsets[o + OFFSET_T + 1];
    pose[p + POSE_T + 2] = pose[p + POSE_T + 2] + offsets[o + OFFSET_T + 2];
    pose[p + POSE_S] = pose[p + POSE_S] + offsets[o + OFFSET_S];
    pose[p + POSE_S + 1] = pose[p + POSE_S + 1] + offsets[o + OFFSET_S + 1];
    pose[p + POSE_S + 2] = pose[p + POSE_S + 2] + offsets[o + OFFSET_S + 2];
    rotateByVector(pose, p, offsets, o + OFFSET_Q);
  }
  return active;
}

/**
 * q ← exp(r/2) · q for the rotation q of the joint pose at `pose[p]` and the rotation vector r
 * (axis × angle) at `offsets[r..r+2]`. Takes no float argument, so nothing is boxed if it is not
 * inlined.
 */
function rotateByVector(pose: Float32Array, p: number, offsets: Float32Array, r: number): void {
  const rx = offsets[r], ry = offsets[r + 1], rz = offsets[r + 2];
  const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
  if (!(angle > 0)) return;
  const k = Math.sin(angle * 0.5) / angle;
  const x = rx * k, y = ry * k, z = rz * k, w = Math.cos(angle * 0.5);
  const bx = pose[p + POSE_Q], by = pose[p + POSE_Q + 1], bz = pose[p + POSE_Q + 2], bw = pose[p + POSE_Q + 3];
  pose[p + POSE_Q] = w * bx + x * bw + y * bz - z * by;
  pose[p + POSE_Q + 1] = w * by - x * bz + y * bw + z * bx;
  pose[p + POSE_Q + 2] = w * bz + x * by - y * bx + z * bw;
  pose[p + POSE_Q + 3] = w * bw - x * bx - y * by - z * bz;
}
