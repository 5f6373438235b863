import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `Follower`: points that follow targets by minimum-jerk motion, in real time
 * (Flash and Hogan's model in its real-time "state-space" form; see `math/minJerk.ts` for the model and
 * `systems/followSystem.ts` for the stepping). They are what look-at and reach aim at.
 *
 * Each character has `FOLLOW_SLOTS` follower slots, each its own follower with its own
 * target, state and settings (a head watching one point while a hand reaches for another).
 * Slot 0 is the default of every API call, so a game that never names a slot sees one
 * follower per character. Indexed by row = `eid × FOLLOW_SLOTS + slot` (`(maxEntities + 1) ×
 * FOLLOW_SLOTS` rows), so a character's slots are contiguous; Float64 so the exact stepping
 * stays exact:
 * - `enabled[row]`: 1 when the slot has a follower (`setFollower` / `setFollowTarget`),
 *   0 (default) when `followSystem` skips it. The entity has the `Follower` bitecs component
 *   exactly when one of its slots is 1.
 * - `integrator[row]`: `FOLLOW_EXACT` (default: the exact matrix-exponential step) or
 *   `FOLLOW_EULER` (the minimum-jerk note's explicit Euler, stable only for dt < 0.325 T).
 * - `predict[row]`: 1 when the follower aims at the sampled target extrapolated to now and
 *   over its horizon (`setFollower` `predict`), 0 (default) when it holds the sample.
 * - `target[row × 3 ..]`: where the target is now (x, y, z), metres: as the game set it last
 *   (`setFollowTarget`), carried forward by `followSystem` every frame since by its velocity
 *   and acceleration.
 * - `targetVelocity[row × 3 ..]`, `targetAcceleration[row × 3 ..]`: the target's velocity
 *   (m/s, carried forward the same way) and acceleration (m/s²) now (default 0: a still
 *   target). So a setter writes one of the three as of now and the others already are.
 * - `sampled[row × 3 ..]`: the target's position at the last sampling instant (the target
 *   carried forward to the instant within the frame).
 * - `sampledVelocity[row × 3 ..]`, `sampledAcceleration[row × 3 ..]`: its velocity and
 *   acceleration at that instant: with `sampled`, the input (xf, vf, af) of the state model.
 * - `state[row × 9 ..]`: `x y z  vx vy vz  ax ay az`: position (m), velocity (m/s),
 *   acceleration (m/s²) of the follower (`FOLLOW_STATE_STRIDE` floats).
 * - `duration[row]`: T, seconds: the horizon of the minimum-jerk move re-planned every
 *   instant (default 0.4).
 * - `interval[row]`: seconds between target samples (default 0.2).
 * - `timer[row]`: seconds since the last sampling instant, in [0, interval) (the age of the
 *   sample, which `predict` extrapolates by).
 *
 * World-owned scratch, sized here (not per character):
 * - `scratch`: `FOLLOW_SCRATCH` floats: the seconds of the sub-step being taken, then two
 *   cached step matrices (exact, Euler), each `h` followed by 9 row-major entries, so
 *   followers sharing T and dt compute the matrix exponential once per frame (a cache hit
 *   returns exactly what a recomputation would, so results do not depend on visiting order),
 *   then the seconds since the frame began at the sampling instant being taken.
 *
 * 243 bytes per slot, 972 bytes per character (4 slots).
 */
export interface FollowerComponent {
  readonly enabled: Uint8Array;
  readonly integrator: Uint8Array;
  readonly predict: Uint8Array;
  readonly target: Float64Array;
  readonly targetVelocity: Float64Array;
  readonly targetAcceleration: Float64Array;
  readonly sampled: Float64Array;
  readonly sampledVelocity: Float64Array;
  readonly sampledAcceleration: Float64Array;
  readonly state: Float64Array;
  readonly duration: Float64Array;
  readonly interval: Float64Array;
  readonly timer: Float64Array;
  readonly scratch: Float64Array;
}

/** `Follower.integrator`: the exact step s ← exp((dt/T)·M) s (any dt, frame-rate independent). */
export const FOLLOW_EXACT = 0;
/** `Follower.integrator`: the minimum-jerk note's explicit Euler step s ← (I + (dt/T)·M) s (diverges for dt > 0.325 T). */
export const FOLLOW_EULER = 1;

/**
 * Follower slots per character: slot 0 is the default of every call; slots 1 … 3 are further
 * followers (e.g. a head on slot 0, a hand on slot 1; `setLookAt` / `setReach` `follower`).
 */
export const FOLLOW_SLOTS = 4;

/** Floats per follower (slot) in `Follower.state`: position, velocity, acceleration (x y z each). */
export const FOLLOW_STATE_STRIDE = 9;
/** Offset of the position (x y z) in a follower's state. */
export const FOLLOW_POSITION = 0;
/** Offset of the velocity (x y z) in a follower's state. */
export const FOLLOW_VELOCITY = 3;
/** Offset of the acceleration (x y z) in a follower's state. */
export const FOLLOW_ACCELERATION = 6;

/** Default `duration` T, seconds (the minimum-jerk note's 400 ms). */
export const FOLLOW_DEFAULT_DURATION = 0.4;
/** Default sampling `interval`, seconds (the minimum-jerk note's 200 ms). */
export const FOLLOW_DEFAULT_INTERVAL = 0.2;

/** `Follower.scratch[FOLLOW_SECONDS]`: the length of the sub-step being taken, seconds. */
export const FOLLOW_SECONDS = 0;
/** Where the cached step matrix of integrator `k` starts: `h` at `FOLLOW_CACHE + k·FOLLOW_CACHE_STRIDE`, the 9 entries after it. */
export const FOLLOW_CACHE = 1;
/** Floats per cached step matrix: `h`, then the 3×3 matrix (row-major). */
export const FOLLOW_CACHE_STRIDE = 10;
/** `Follower.scratch[FOLLOW_ELAPSED]`: seconds from the frame's start to the sampling instant being taken. */
export const FOLLOW_ELAPSED = FOLLOW_CACHE + 2 * FOLLOW_CACHE_STRIDE;
/** Floats in `Follower.scratch`. */
export const FOLLOW_SCRATCH = FOLLOW_ELAPSED + 1;

/** Creates the `Follower` component for `rows` entity ids, `FOLLOW_SLOTS` slots each (no slot follows anything yet). */
export function createFollowerComponent(rows: number, alloc: PoolAllocator = heapAllocator): FollowerComponent {
  // Per thread, not a pool: a threaded world gives each worker its own copy (src/parallel).
  const scratch = new Float64Array(FOLLOW_SCRATCH);
  // NaN never equals an h, so the first step of each integrator computes its matrix.
  scratch[FOLLOW_CACHE] = Number.NaN;
  scratch[FOLLOW_CACHE + FOLLOW_CACHE_STRIDE] = Number.NaN;
  const slots = rows * FOLLOW_SLOTS;
  return {
    enabled: alloc.array(Uint8Array, slots),
    integrator: alloc.array(Uint8Array, slots),
    predict: alloc.array(Uint8Array, slots),
    target: alloc.array(Float64Array, slots * 3),
    targetVelocity: alloc.array(Float64Array, slots * 3),
    targetAcceleration: alloc.array(Float64Array, slots * 3),
    sampled: alloc.array(Float64Array, slots * 3),
    sampledVelocity: alloc.array(Float64Array, slots * 3),
    sampledAcceleration: alloc.array(Float64Array, slots * 3),
    state: alloc.array(Float64Array, slots * FOLLOW_STATE_STRIDE),
    duration: alloc.array(Float64Array, slots).fill(FOLLOW_DEFAULT_DURATION),
    interval: alloc.array(Float64Array, slots).fill(FOLLOW_DEFAULT_INTERVAL),
    timer: alloc.array(Float64Array, slots),
    scratch,
  };
}

/**
 * Enables slot `slot` of `eid` and puts its follower at rest at the position
 * `position[off .. off + 2]` (x, y, z, metres), with the target and the sampled target there
 * too, still (velocity and acceleration 0), and the sampling clock restarted (the next sample
 * is one `interval` later). Settings are left as they are. `slot` in [0, FOLLOW_SLOTS) (not
 * checked).
 */
export function placeFollower(follower: FollowerComponent, eid: number, slot: number, position: ArrayLike<number>, off: number): void {
  const { state, target, sampled } = follower;
  const row = eid * FOLLOW_SLOTS + slot;
  const s = row * FOLLOW_STATE_STRIDE;
  for (let k = 0; k < 3; k++) {
    const value = position[off + k];
    state[s + FOLLOW_POSITION + k] = value;
    state[s + FOLLOW_VELOCITY + k] = 0;
    state[s + FOLLOW_ACCELERATION + k] = 0;
    target[row * 3 + k] = value;
    sampled[row * 3 + k] = value;
  }
  follower.targetVelocity.fill(0, row * 3, row * 3 + 3);
  follower.targetAcceleration.fill(0, row * 3, row * 3 + 3);
  follower.sampledVelocity.fill(0, row * 3, row * 3 + 3);
  follower.sampledAcceleration.fill(0, row * 3, row * 3 + 3);
  follower.timer[row] = 0;
  follower.enabled[row] = 1;
}

/**
 * Clears `eid`'s followers back to the state of a new world (disabled, defaults): every slot,
 * or only `slot` when given. Without `slot` it is the row reset ({@link followerRows}) that
 * `spawnCharacter` runs, so a removed character's followers do not carry over.
 */
export function resetFollower(follower: FollowerComponent, eid: number, slot?: number): void {
  const first = eid * FOLLOW_SLOTS + (slot ?? 0);
  const end = slot === undefined ? first + FOLLOW_SLOTS : first + 1;
  follower.enabled.fill(0, first, end);
  follower.integrator.fill(FOLLOW_EXACT, first, end);
  follower.predict.fill(0, first, end);
  follower.target.fill(0, first * 3, end * 3);
  follower.targetVelocity.fill(0, first * 3, end * 3);
  follower.targetAcceleration.fill(0, first * 3, end * 3);
  follower.sampled.fill(0, first * 3, end * 3);
  follower.sampledVelocity.fill(0, first * 3, end * 3);
  follower.sampledAcceleration.fill(0, first * 3, end * 3);
  follower.state.fill(0, first * FOLLOW_STATE_STRIDE, end * FOLLOW_STATE_STRIDE);
  follower.duration.fill(FOLLOW_DEFAULT_DURATION, first, end);
  follower.interval.fill(FOLLOW_DEFAULT_INTERVAL, first, end);
  follower.timer.fill(0, first, end);
}

/** `Follower`'s row lifecycle: every slot cleared ({@link resetFollower}). */
export const followerRows: RowLifecycle<FollowerComponent> = {
  reset(follower: FollowerComponent, eid: number): void {
    resetFollower(follower, eid);
  },
  kept: {
    scratch: 'not per entity: the world\'s step-matrix cache, a pure function of its keys (see FOLLOW_CACHE)',
  },
};
