import { POSE_STRIDE } from '../math/layout.js';
import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/** `Inertialization.mode`: no offset is decaying. */
export const INERTIA_NONE = 0;
/** `Inertialization.mode`: the Gears of War quintic (overshoot-free, ends exactly at t1). */
export const INERTIA_QUINTIC = 1;
/** `Inertialization.mode`: a critically damped decay spring with a half-life. */
export const INERTIA_SPRING = 2;
/** `Inertialization.mode`: dead blending (the extrapolated source cross-faded to the new pose). */
export const INERTIA_DEAD = 3;

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
 * Floats per joint of a transition slot (`Inertialization.slots`): a slot first holds the two
 * source poses of a requested transition, P1 at 0 and P2 at `maxJoints × 10` (10 floats a
 * joint each), then — from the capture on — the offsets, `OFFSET_STRIDE` (18) floats a joint
 * at 0. The two uses never overlap in time (the capture reads the poses and then writes the
 * offsets), so a slot is the larger of the two: 20 floats a joint.
 */
export const SLOT_STRIDE = 2 * POSE_STRIDE;

/**
 * Dead blending, inside a joint's `SLOT_STRIDE` (20) floats of a captured slot: the source
 * pose (translation at `DEAD_T`, rotation at `DEAD_Q`, scale at `DEAD_S`: a joint pose's 10
 * floats), its velocities as distances to rest, velocity ÷ decay rate (translation at
 * `DEAD_VT`, angular at `DEAD_W`, scale at `DEAD_VS`, 3 each), and the joint's decay rate
 * ln 2 / half-life at `DEAD_RATE`.
 */
export const DEAD_T = 0;
/** Dead blending: the source rotation (4 floats) inside a joint's slot floats. */
export const DEAD_Q = 3;
/** Dead blending: the source scale (3). */
export const DEAD_S = 7;
/** Dead blending: the source translation velocity ÷ the decay rate: where it comes to rest (3). */
export const DEAD_VT = 10;
/** Dead blending: the source angular velocity ÷ the decay rate (3, rad). */
export const DEAD_W = 13;
/** Dead blending: the source scale rate ÷ the decay rate (3). */
export const DEAD_VS = 16;
/** Dead blending: the joint's velocity decay rate, ln 2 / half-life (1/s). */
export const DEAD_RATE = 19;

/** `Inertialization.slot[eid]` of a character that holds no transition slot. */
export const NO_SLOT = -1;
/** `Inertialization.outputLevel[eid]` before the character's first update: its output is still the rest pose of its spawn. */
export const OUTPUT_REST = -2;
/** `Inertialization.outputLevel[eid]` after an update without motion LOD (the clips themselves were sampled). */
export const OUTPUT_FULL = -1;

/**
 * The default `maxTransitions` of a world of `maxEntities` characters:
 * `min(maxEntities, max(128, ceil(maxEntities / 8)))`. Every world of up to 128 characters has a
 * slot for each (it can never run out); a larger crowd reserves one for every eighth character,
 * at 64 joints 640 bytes of slots per character (5,120 bytes a slot) — a crowd of 10,000 can have
 * 1,250 inertializations running at once. The 128 floor is what the frame's bit-for-bit crowd
 * (test/frameHash.test.ts: 300 characters, a third of them switching every 25 frames, springs
 * running ~2.5 durations) needs with room to spare: 83 at its peak.
 */
export function defaultMaxTransitions(maxEntities: number): number {
  return Math.min(maxEntities, Math.max(128, Math.ceil(maxEntities / 8)));
}

/**
 * `Inertialization`: transitions as a post-process on the final pose (D. Bollo, GDC 2018,
 * "Inertialization: High-Performance Animation Transitions in Gears of War", as explained by
 * hogetatu).
 *
 * Per character (indexed by eid, `rows = maxEntities + 1`), scalars only:
 * - `mode[eid]`: `INERTIA_NONE | INERTIA_QUINTIC | INERTIA_SPRING | INERTIA_DEAD`.
 * - `pending[eid]`: 0, or 1 + the layer a transition just switched: the offsets are captured
 *   by the next `inertializeSystem`, in the mode `pendingMode[eid]` (which then stays the mode
 *   of the offsets in the character's slot).
 * - `elapsed[eid]`: seconds since the offsets were captured.
 * - `duration[eid]`: requested t1 (quintic), the fade's seconds (dead blending);
 *   `halfLife[eid]` (spring; dead blending: the longest half-life of the fit).
 * - `fadeCurve[eid]`: dead blending's fade curve kind (`FADE_*` of math/fadeCurves.ts).
 * - `lastDt[eid]`: the seconds of the last update that moved time, or h = 1 ms once a
 *   transition was requested (0 while the output has never moved: a still source).
 * - `lead[eid]`: from the request to the capture, the seconds into the capturing update at
 *   which the switch happened (0 for `transition`; a machine's exit time crossed inside a
 *   step): the offsets are anchored there and decay by the rest of the update.
 * - `slot[eid]`: the transition slot the character holds, or `NO_SLOT`.
 * - `outputLevel[eid]`: the clip level the last update sampled (the LOD level, `OUTPUT_FULL`
 *   without LOD), or `OUTPUT_REST` before the first update; with the layers' times, weights and
 *   the running offset it gives the last output again (`captureSourceMotion`).
 *
 * Transition slots (`maxTransitions` of them, `createAnimationWorld({ maxTransitions })`):
 * - `slots`: `maxJoints × SLOT_STRIDE` floats per slot at `s × maxJoints × 20`: from the request
 *   to the capture the source poses (P1, the last output before the switch, and P2, the output
 *   h = 1 ms before it along the outgoing velocity: see inertializeCapture.ts), then the
 *   offsets (`maxJoints × OFFSET_STRIDE` floats at the slot's start) — or, for a dead blend,
 *   the source pose, velocities and decay rate (`DEAD_T` …, all `SLOT_STRIDE` floats a joint).
 * - `slotOwner[s]`: the eid holding slot s, or 0 when it is free.
 * - `slotCursor[0]`: where the next search for a free slot starts (next fit).
 *
 * A slot is taken by `transition` (inertialize or spring modes) on the calling thread, and
 * given back by `inertializeSystem` on the character's first update after its offsets have
 * ended (quintic: elapsed ≥ t1; spring: at rest) — one update late, since that update's output
 * still held them — or by `removeCharacter` / the reset of a respawned id. A character that is
 * not transitioning has no per-joint inertialization state at all.
 *
 * Memory: 30 bytes per character plus `maxJoints × 80 + 4` bytes per slot — at 64 joints and
 * the default `maxTransitions` (`defaultMaxTransitions` (bitanim/kernels)) 671 bytes per character for a
 * crowd of 1,024 or more.
 */
export interface InertializationComponent {
  readonly mode: Uint8Array;
  readonly pending: Uint8Array;
  readonly pendingMode: Uint8Array;
  readonly elapsed: Float32Array;
  readonly duration: Float32Array;
  readonly halfLife: Float32Array;
  readonly fadeCurve: Uint8Array;
  readonly lastDt: Float32Array;
  readonly lead: Float32Array;
  readonly slot: Int32Array;
  readonly outputLevel: Int16Array;
  readonly slots: Float32Array;
  readonly slotOwner: Int32Array;
  readonly slotCursor: Int32Array;
}

/**
 * Creates the `Inertialization` component for `rows` entity ids of up to `maxJoints` joints,
 * with `maxTransitions` transition slots.
 */
export function createInertializationComponent(
  rows: number, maxJoints: number, alloc: PoolAllocator = heapAllocator, maxTransitions = 0,
): InertializationComponent {
  return {
    mode: alloc.array(Uint8Array, rows),
    pending: alloc.array(Uint8Array, rows),
    pendingMode: alloc.array(Uint8Array, rows),
    elapsed: alloc.array(Float32Array, rows),
    duration: alloc.array(Float32Array, rows),
    halfLife: alloc.array(Float32Array, rows),
    fadeCurve: alloc.array(Uint8Array, rows),
    lastDt: alloc.array(Float32Array, rows),
    lead: alloc.array(Float32Array, rows),
    slot: alloc.array(Int32Array, rows).fill(NO_SLOT),
    outputLevel: alloc.array(Int16Array, rows).fill(OUTPUT_REST),
    slots: alloc.array(Float32Array, maxTransitions * maxJoints * SLOT_STRIDE),
    slotOwner: alloc.array(Int32Array, maxTransitions),
    slotCursor: alloc.array(Int32Array, 1),
  };
}

/** Bytes of `maxTransitions` transition slots of `maxJoints` joints (`slots` and `slotOwner`). */
export function transitionSlotBytes(maxTransitions: number, maxJoints: number): number {
  return maxTransitions * (maxJoints * SLOT_STRIDE * Float32Array.BYTES_PER_ELEMENT + Int32Array.BYTES_PER_ELEMENT);
}

/**
 * `Inertialization`'s row lifecycle: no transition (mode and pending 0, clocks 0), no slot (one
 * the id still held is given back), output still the rest pose of the spawn.
 */
export const inertializationRows: RowLifecycle<InertializationComponent> = {
  reset(c: InertializationComponent, eid: number): void {
    releaseTransitionSlot(c, eid);
    c.mode[eid] = INERTIA_NONE;
    c.pending[eid] = 0;
    c.pendingMode[eid] = INERTIA_NONE;
    c.elapsed[eid] = 0;
    c.duration[eid] = 0;
    c.halfLife[eid] = 0;
    c.fadeCurve[eid] = 0;
    c.lastDt[eid] = 0;
    c.lead[eid] = 0;
    c.outputLevel[eid] = OUTPUT_REST;
  },
  kept: {
    slots: 'per slot, not per entity: read only by the slot\'s owner, after a request wrote its source poses or a capture its offsets',
    slotOwner: 'per slot, not per entity (reset gives back the slot the id held)',
    slotCursor: 'per world, not per entity',
  },
};

/**
 * Takes a free transition slot for `eid` (which holds none) and returns its index, or
 * `NO_SLOT` when all are in use. A slot is free when its owner is 0 or no longer holds it
 * (`slot[owner]` differs: the id was respawned); when none is, a second pass also takes the slot
 * of an owner that is no longer alive (`alive(owner)` false: a game's own `removeEntity`, which
 * gives nothing back), so a slot is never lost. Next fit from `slotCursor`; runs on the calling
 * thread at a `transition` call, never in a system.
 */
export function takeTransitionSlot(c: InertializationComponent, eid: number, alive: (eid: number) => boolean): number {
  const owner = c.slotOwner;
  const count = owner.length;
  for (let pass = 0; pass < 2; pass++) {
    let s = c.slotCursor[0];
    for (let n = 0; n < count; n++, s++) {
      if (s >= count) s = 0;
      const held = owner[s];
      if (held === 0 || c.slot[held] !== s || (pass === 1 && !alive(held))) {
        owner[s] = eid;
        c.slot[eid] = s;
        c.slotCursor[0] = s + 1 < count ? s + 1 : 0;
        return s;
      }
    }
  }
  return NO_SLOT;
}

/** Gives back the transition slot `eid` holds, if any (inertializeSystem, removal, reset). No allocation. */
export function releaseTransitionSlot(c: InertializationComponent, eid: number): void {
  const s = c.slot[eid];
  if (s === NO_SLOT) return;
  if (c.slotOwner[s] === eid) c.slotOwner[s] = 0;
  c.slot[eid] = NO_SLOT;
}

/** How many transition slots are held by live characters (`alive`, as {@link takeTransitionSlot} judges them). */
export function transitionSlotsInUse(c: InertializationComponent, alive: (eid: number) => boolean): number {
  let used = 0;
  for (let s = 0; s < c.slotOwner.length; s++) {
    const held = c.slotOwner[s];
    if (held !== 0 && c.slot[held] === s && alive(held)) used++;
  }
  return used;
}
