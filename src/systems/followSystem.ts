/**
 * followSystem — advances every character's minimum-jerk followers
 * (shared/seeds/minimum-jerk.txt, "state-space" and "Unity" sections; model in math/minJerk.ts).
 *
 * Reads:  Follower (enabled, integrator, target, duration, interval, timer), Lod (update; slot:
 *         which of `world.lod.dts` is the character's dt).
 * Writes: Follower (state, sampled, timer, scratch).
 * Order:  after rootMotionSystem, before aimSystem (which aims look-at and reach at the
 *         followers) and skinSystem (DESIGN §4). Skips characters `lodSystem` is not updating
 *         this frame (`Lod.update` 0); on their update frame the followers step by all the
 *         seconds since the last one (sampling the targets as they are then).
 *
 * Per character, for each of its `FOLLOW_SLOTS` slots that has a follower (`enabled`), in
 * slot order (slots share nothing but the matrix cache, so each slot's result is what a
 * single follower with the same settings and targets gets, bit for bit), for a frame of
 * `dt` seconds:
 * 1. Sampling: the target the game set (`setFollowTarget`) is sampled into `sampled` every
 *    `interval` seconds, at exact multiples of the interval after the follower was placed
 *    (the seed's MinJerkFollower samples on the first frame past each interval instead, so
 *    its result depends on the frame rate). A frame that spans an instant is split there:
 *    advance to the instant, sample, advance the rest. The game's target does not change
 *    within a frame, so any later instants in the same frame sample the same value: the
 *    rest is one step and the timer keeps the phase (`rest mod interval`). A frame ending
 *    exactly on an instant samples at its end.
 * 2. Stepping, per axis, towards xf = `sampled`, with T = `duration` and h = seconds / T:
 *    the scaled state (x − xf, T·v, T²·a) is multiplied by exp(h·M) (`FOLLOW_EXACT`: exact
 *    for any dt, so the trajectory at a given time does not depend on how the frames cut
 *    it) or by the seed's Euler matrix I + h·M (`FOLLOW_EULER`). The matrix is cached per h.
 *
 * Invariants: 0 ≤ timer < interval; dt = 0 changes nothing; allocates nothing, never throws.
 */
import { commitRemovals } from 'bitecs';
import {
  FOLLOW_CACHE, FOLLOW_EULER, FOLLOW_SECONDS, FOLLOW_SLOTS, FOLLOW_STATE_STRIDE, type FollowerComponent,
} from '../components/Follower.js';
import { minJerkEulerMatrix, minJerkStepMatrix } from '../math/minJerk.js';
import type { AnimationWorld } from '../world.js';

/** Advances every character's followers by `dt` seconds; see the file header. */
export function followSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  followEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link followSystem} for the characters at `world.characters.dense[first .. end)`. */
export function followEntities(world: AnimationWorld, frameDt: number, first: number, end: number): void {
  const follower = world.components.Follower;
  const { enabled, target, sampled, interval, timer, scratch } = follower;
  const dense = world.characters.dense;
  const { update: lodUpdate, slot: lodSlot } = world.components.Lod;
  const lodDts = world.lod.dts;

  for (let i = first; i < end; i++) {
    const eid = dense[i]!;
    if (lodUpdate[eid]! === 0) continue; // not this frame (update-rate LOD)
    const dtSlot = lodSlot[eid]!;
    const dt = dtSlot === 0 ? frameDt : lodDts[dtSlot]!; // seconds since its last update (lodSystem)
    const base = eid * FOLLOW_SLOTS;
    for (let slot = 0; slot < FOLLOW_SLOTS; slot++) {
      const row = base + slot;
      if (enabled[row]! === 0) continue; // an empty slot
      const period = interval[row]!;
      const toInstant = period - timer[row]!;
      if (dt >= toInstant) {
        scratch[FOLLOW_SECONDS] = toInstant;
        advanceFollower(follower, eid, slot);
        const t = row * 3;
        sampled[t] = target[t]!;
        sampled[t + 1] = target[t + 1]!;
        sampled[t + 2] = target[t + 2]!;
        const rest = dt - toInstant;
        scratch[FOLLOW_SECONDS] = rest;
        advanceFollower(follower, eid, slot);
        timer[row] = rest % period;
      } else {
        scratch[FOLLOW_SECONDS] = dt;
        advanceFollower(follower, eid, slot);
        timer[row] = timer[row]! + dt;
      }
    }
  }
}

/**
 * Steps the state of `eid`'s follower in `slot` (default 0; an integer in [0, FOLLOW_SLOTS),
 * not checked) by `scratch[FOLLOW_SECONDS]` seconds towards its sampled target with its
 * integrator (see the file header). Takes no float argument, so nothing is boxed if V8 does
 * not inline it.
 */
export function advanceFollower(follower: FollowerComponent, eid: number, slot = 0): void {
  const { scratch, state, sampled } = follower;
  const row = eid * FOLLOW_SLOTS + slot;
  const T = follower.duration[row]!;
  const h = scratch[FOLLOW_SECONDS]! / T;
  if (!(h > 0)) return;
  const euler = follower.integrator[row]! === FOLLOW_EULER;
  const m = euler ? FOLLOW_CACHE + 10 : FOLLOW_CACHE;
  if (scratch[m]! !== h) {
    scratch[m] = h;
    if (euler) minJerkEulerMatrix(scratch, m + 1, scratch, m);
    else minJerkStepMatrix(scratch, m + 1, scratch, m);
  }
  const m00 = scratch[m + 1]!, m01 = scratch[m + 2]!, m02 = scratch[m + 3]!;
  const m10 = scratch[m + 4]!, m11 = scratch[m + 5]!, m12 = scratch[m + 6]!;
  const m20 = scratch[m + 7]!, m21 = scratch[m + 8]!, m22 = scratch[m + 9]!;
  const T2 = T * T;
  const s = row * FOLLOW_STATE_STRIDE;
  for (let k = 0; k < 3; k++) {
    const xf = sampled[row * 3 + k]!;
    // Scaled coordinates (seed's A matrix with t → t/T): e = x − xf, w = T·v, b = T²·a.
    const e = state[s + k]! - xf;
    const w = state[s + 3 + k]! * T;
    const b = state[s + 6 + k]! * T2;
    state[s + k] = xf + (m00 * e + m01 * w + m02 * b);
    state[s + 3 + k] = (m10 * e + m11 * w + m12 * b) / T;
    state[s + 6 + k] = (m20 * e + m21 * w + m22 * b) / T2;
  }
}
