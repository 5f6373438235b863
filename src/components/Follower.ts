/**
 * `Follower`: a point that follows a target by minimum-jerk motion, in real time
 * (shared/seeds/minimum-jerk.txt, "state-space" section; see `math/minJerk.ts` for the model and
 * `systems/followSystem.ts` for the stepping). It is what look-at and reach aim at.
 *
 * Indexed by eid (`rows = maxEntities + 1`); Float64 so the exact stepping stays exact:
 * - `enabled[eid]`: 1 when the character has a follower (`setFollower` / `setFollowTarget`),
 *   0 (default) when `followSystem` skips it.
 * - `integrator[eid]`: `FOLLOW_EXACT` (default: the exact matrix-exponential step) or
 *   `FOLLOW_EULER` (the seed's explicit Euler, stable only for dt < 0.325 T).
 * - `target[eid × 3 ..]`: the target the game set last (x, y, z), metres.
 * - `sampled[eid × 3 ..]`: the target as sampled at the last sampling instant: the xf the
 *   state is moving towards.
 * - `state[eid × 9 ..]`: `x y z  vx vy vz  ax ay az`: position (m), velocity (m/s),
 *   acceleration (m/s²) of the follower (`FOLLOW_STATE_STRIDE` floats).
 * - `duration[eid]`: T, seconds: the horizon of the minimum-jerk move re-planned every
 *   instant (default 0.4).
 * - `interval[eid]`: seconds between target samples (default 0.2).
 * - `timer[eid]`: seconds since the last sampling instant, in [0, interval).
 *
 * World-owned scratch, sized here (not per character):
 * - `scratch`: `FOLLOW_SCRATCH` floats: the seconds of the sub-step being taken, then two
 *   cached step matrices (exact, Euler), each `h` followed by 9 row-major entries, so
 *   characters sharing T and dt compute the matrix exponential once per frame. A cache hit
 *   returns exactly what a recomputation would, so results do not depend on visiting order.
 *
 * 146 bytes per character.
 */
export interface FollowerComponent {
  readonly enabled: Uint8Array;
  readonly integrator: Uint8Array;
  readonly target: Float64Array;
  readonly sampled: Float64Array;
  readonly state: Float64Array;
  readonly duration: Float64Array;
  readonly interval: Float64Array;
  readonly timer: Float64Array;
  readonly scratch: Float64Array;
}

/** `Follower.integrator`: the exact step s ← exp((dt/T)·M) s (any dt, frame-rate independent). */
export const FOLLOW_EXACT = 0;
/** `Follower.integrator`: the seed's explicit Euler step s ← (I + (dt/T)·M) s (diverges for dt > 0.325 T). */
export const FOLLOW_EULER = 1;

/** Floats per character in `Follower.state`: position, velocity, acceleration (x y z each). */
export const FOLLOW_STATE_STRIDE = 9;

/** Default `duration` T, seconds (the seed's 400 ms). */
export const FOLLOW_DEFAULT_DURATION = 0.4;
/** Default sampling `interval`, seconds (the seed's 200 ms). */
export const FOLLOW_DEFAULT_INTERVAL = 0.2;

/** `Follower.scratch[FOLLOW_SECONDS]`: the length of the sub-step being taken, seconds. */
export const FOLLOW_SECONDS = 0;
/** Where the cached step matrix of integrator `k` starts: `h` at `FOLLOW_CACHE + 10k`, entries after it. */
export const FOLLOW_CACHE = 1;
/** Floats in `Follower.scratch`. */
export const FOLLOW_SCRATCH = FOLLOW_CACHE + 2 * 10;

/** Creates the `Follower` component for `rows` entity ids (no character follows anything yet). */
export function createFollowerComponent(rows: number): FollowerComponent {
  const scratch = new Float64Array(FOLLOW_SCRATCH);
  // NaN never equals an h, so the first step of each integrator computes its matrix.
  scratch[FOLLOW_CACHE] = Number.NaN;
  scratch[FOLLOW_CACHE + 10] = Number.NaN;
  return {
    enabled: new Uint8Array(rows),
    integrator: new Uint8Array(rows),
    target: new Float64Array(rows * 3),
    sampled: new Float64Array(rows * 3),
    state: new Float64Array(rows * FOLLOW_STATE_STRIDE),
    duration: new Float64Array(rows).fill(FOLLOW_DEFAULT_DURATION),
    interval: new Float64Array(rows).fill(FOLLOW_DEFAULT_INTERVAL),
    timer: new Float64Array(rows),
    scratch,
  };
}

/**
 * Enables `eid`'s follower and puts it at rest at the position `position[off .. off + 2]`
 * (x, y, z, metres), with the target and the sampled target there too and the sampling clock
 * restarted (the next sample is one `interval` later). Settings are left as they are.
 */
export function placeFollower(follower: FollowerComponent, eid: number, position: ArrayLike<number>, off: number): void {
  const { state, target, sampled } = follower;
  const s = eid * FOLLOW_STATE_STRIDE;
  for (let k = 0; k < 3; k++) {
    const value = position[off + k]!;
    state[s + k] = value;
    state[s + 3 + k] = 0;
    state[s + 6 + k] = 0;
    target[eid * 3 + k] = value;
    sampled[eid * 3 + k] = value;
  }
  follower.timer[eid] = 0;
  follower.enabled[eid] = 1;
}

/**
 * Clears `eid`'s follower back to the state of a new world (disabled, defaults). Call it when
 * an entity id is (re)used by a new character, so a removed character's follower does not
 * carry over.
 */
export function resetFollower(follower: FollowerComponent, eid: number): void {
  follower.enabled[eid] = 0;
  follower.integrator[eid] = FOLLOW_EXACT;
  follower.target.fill(0, eid * 3, eid * 3 + 3);
  follower.sampled.fill(0, eid * 3, eid * 3 + 3);
  follower.state.fill(0, eid * FOLLOW_STATE_STRIDE, (eid + 1) * FOLLOW_STATE_STRIDE);
  follower.duration[eid] = FOLLOW_DEFAULT_DURATION;
  follower.interval[eid] = FOLLOW_DEFAULT_INTERVAL;
  follower.timer[eid] = 0;
}
