import { POSE_STRIDE } from '../math/layout.js';
import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/** `Inertialization.mode`: no offset is decaying. */
export const INERTIA_NONE = 0;
/** `Inertialization.mode`: the Gears of War quintic (overshoot-free, ends exactly at t1). */
export const INERTIA_QUINTIC = 1;
/** `Inertialization.mode`: a critically damped decay spring with a half-life. */
export const INERTIA_SPRING = 2;

/**
 * Floats per joint in `Inertialization.offsets`: three channel offsets (translation, rotation,
 * scale) of 6 floats each, at 0, 6 and 12.
 * - quintic: unit direction or axis (3), then the clamped curve parameters x0 (1), v0·t1 (1),
 *   1/t1 (1) (see `inertializeCurve`: v0 ≤ 0, t1 ≤ −5·x0/v0);
 * - spring: offset vector (3: translation, scaled rotation axis, scale), its velocity (3).
 */
export const OFFSET_STRIDE = 18;
/** Floats per channel in a joint's offsets. */
export const OFFSET_CHANNEL = 6;
/** Offset of the translation channel inside a joint's offsets. */
export const OFFSET_T = 0;
/** Offset of the rotation channel inside a joint's offsets. */
export const OFFSET_Q = 6;
/** Offset of the scale channel inside a joint's offsets. */
export const OFFSET_S = 12;
/** Quintic, inside a channel (after the unit direction or axis at 0 … 2): the clamped x0. */
export const OFFSET_X0 = 3;
/** Quintic, inside a channel: k = v0·t1. */
export const OFFSET_K = 4;
/** Quintic, inside a channel: 1/t1. */
export const OFFSET_INV_T1 = 5;
/** Spring, inside a channel (after the offset vector at 0 … 2): its velocity (3). */
export const OFFSET_V = 3;

/**
 * `Inertialization`: transitions as a post-process on the final pose (D. Bollo, GDC 2018,
 * "Inertialization: High-Performance Animation Transitions in Gears of War";
 * seeds/inertialization.txt).
 *
 * Indexed by eid (`rows = maxEntities + 1`):
 * - `mode[eid]`: `INERTIA_NONE | INERTIA_QUINTIC | INERTIA_SPRING`.
 * - `pending[eid]`: 0, or 1 + the layer a transition just switched: the offsets are captured
 *   by the next `inertializeSystem`, in the mode `pendingMode[eid]`.
 * - `elapsed[eid]`: seconds since the offsets were captured.
 * - `duration[eid]`: requested t1 (quintic); `halfLife[eid]` (spring).
 * - `historyIndex[eid]`: which history slot (0 or 1) holds the last frame's output.
 * - `lastDt[eid]`: the seconds between the two history poses (0 before two frames exist).
 *
 * Per-joint pools:
 * - `history`: two output poses, `2 × maxJoints × 10` floats per entity at
 *   `eid × 2 × maxJoints × 10` (slot s at `+ s × maxJoints × 10`): the newest is the last
 *   update's output P1; the other the one before it — except after a transition request,
 *   when `captureSourceMotion` replaces it with the output h = 1 ms before P1 along the
 *   velocity of the outgoing clips (and `lastDt` with h), so a capture reads a velocity that
 *   does not depend on the frame rate (see inertializeCapture.ts).
 * - `offsets`: `maxJoints × OFFSET_STRIDE` floats per entity at `eid × maxJoints × 18`.
 *
 * Memory: 38 floats (152 bytes) per joint plus 20 bytes per character — 9,748 bytes at 64 joints.
 */
export interface InertializationComponent {
  readonly mode: Uint8Array;
  readonly pending: Uint8Array;
  readonly pendingMode: Uint8Array;
  readonly elapsed: Float32Array;
  readonly duration: Float32Array;
  readonly halfLife: Float32Array;
  readonly historyIndex: Uint8Array;
  readonly lastDt: Float32Array;
  readonly history: Float32Array;
  readonly offsets: Float32Array;
}

/** Creates the `Inertialization` component for `rows` entity ids of up to `maxJoints` joints. */
export function createInertializationComponent(rows: number, maxJoints: number, alloc: PoolAllocator = heapAllocator): InertializationComponent {
  return {
    mode: alloc.array(Uint8Array, rows),
    pending: alloc.array(Uint8Array, rows),
    pendingMode: alloc.array(Uint8Array, rows),
    elapsed: alloc.array(Float32Array, rows),
    duration: alloc.array(Float32Array, rows),
    halfLife: alloc.array(Float32Array, rows),
    historyIndex: alloc.array(Uint8Array, rows),
    lastDt: alloc.array(Float32Array, rows),
    history: alloc.array(Float32Array, rows * 2 * maxJoints * POSE_STRIDE),
    offsets: alloc.array(Float32Array, rows * maxJoints * OFFSET_STRIDE),
  };
}

/**
 * `Inertialization`'s row lifecycle: no transition (mode and pending 0, clocks 0), history
 * blocks 0 (spawn then holds the rest pose in both, {@link holdPose}). The offsets are kept.
 */
export const inertializationRows: RowLifecycle<InertializationComponent> = {
  reset(c: InertializationComponent, eid: number, maxJoints: number): void {
    c.mode[eid] = INERTIA_NONE;
    c.pending[eid] = 0;
    c.pendingMode[eid] = INERTIA_NONE;
    c.elapsed[eid] = 0;
    c.duration[eid] = 0;
    c.halfLife[eid] = 0;
    c.historyIndex[eid] = 0;
    c.lastDt[eid] = 0;
    const block = 2 * maxJoints * POSE_STRIDE;
    c.history.fill(0, eid * block, (eid + 1) * block);
  },
  kept: {
    offsets: 'read only while mode is not INERTIA_NONE; a capture writes every joint\'s offsets before it sets mode',
  },
};

/**
 * Puts `pose` (`jointCount × 10`) in both of `eid`'s history slots: used at spawn, so a first
 * transition starts from a still pose.
 */
export function holdPose(c: InertializationComponent, eid: number, maxJoints: number, pose: Float32Array): void {
  const base = eid * 2 * maxJoints * POSE_STRIDE;
  c.history.set(pose, base);
  c.history.set(pose, base + maxJoints * POSE_STRIDE);
}
