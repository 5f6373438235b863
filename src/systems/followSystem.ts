/**
 * followSystem — advances every character's minimum-jerk followers
 * (Flash and Hogan's model in its real-time "state-space" form; model in math/minJerk.ts).
 *
 * Reads:  Follower (enabled, integrator, predict, targetAcceleration, duration, interval),
 *         the update list (`world.updates`: who, and each one's dt).
 * Writes: Follower (state, sampled, sampledVelocity, sampledAcceleration, target and
 *         targetVelocity (carried forward), timer, scratch).
 * Order:  after rootMotionSystem, before aimSystem (which aims look-at and reach at the
 *         followers) and skinSystem (DESIGN §4). Visits the update list: characters `lodSystem`
 *         is not updating this frame are skipped; on their update frame the followers step by all the
 *         seconds since the last one (sampling the targets as they are then).
 *
 * Per character, for each of its `FOLLOW_SLOTS` slots that has a follower (`enabled`), in
 * slot order (slots share nothing but the matrix cache, so each slot's result is what a
 * single follower with the same settings and targets gets, bit for bit), for a frame of
 * `dt` seconds:
 * 1. Sampling: every `interval` seconds, at exact multiples of the interval after the
 *    follower was placed (the minimum-jerk note's Unity script, MinJerkFollower, samples on
 *    the first frame past each interval instead, so its result depends on the frame rate), the target is sampled: its
 *    state at that instant, i.e. its position p, velocity v and acceleration a at the frame's
 *    start (as the game set them, or carried forward), carried to the instant e seconds into
 *    the frame: (p + v·e + ½a·e², v + a·e, a) into (`sampled`, `sampledVelocity`,
 *    `sampledAcceleration`). A still target (v = a = 0, the default) samples the position
 *    as set. At the frame's end the target itself is carried forward by dt the same way, so
 *    the game's next set of one of the three finds the others as of then. A frame that
 *    spans an instant is split there:
 *    advance to the instant, sample, advance the rest. Later instants in the same frame
 *    sample again (a still target gives the same value, so its rest is one step; a moving
 *    one is stepped instant by instant, at most `FOLLOW_MAX_INSTANTS` of them, earlier ones
 *    merged into one step). A frame ending exactly on an instant samples at its end.
 * 2. Stepping, per axis, with T = `duration` and h = seconds / T. The state model
 *    ṡ = A s + B u with input u = (xf, vf, af) has, for the inputs below, a particular
 *    solution y(t) (a point or a constant-acceleration path), and the deviation s − y obeys
 *    ṡ = A s alone; in scaled coordinates (x − y, T·(v − y′), T²·(a − y″)) one step is the
 *    matrix exp(h·M) (`FOLLOW_EXACT`: exact for any dt, so the trajectory at a given time
 *    does not depend on how the frames cut it) or the note's Euler matrix I + h·M
 *    (`FOLLOW_EULER`, with y advanced by Euler too, so it is the note's update with u read at
 *    the start of the step). The matrix is cached per h.
 *    - hold (default): u = the sample (xs, vs, as), constant until the next instant (the
 *      minimum-jerk state model with its full input); y is the rest point x* = xs − 0.4·T·vs + 0.05·T²·as
 *      (where ȧ = 0 with v = a = 0: 60 x* = 60 xs − 24 T vs + 3 T² as).
 *    - predict: u(t) = the sample extrapolated to t + T, u = (q(τ + T), q′(τ + T), as) with
 *      q(τ) = xs + vs·τ + ½as·τ² and τ the seconds since the sampling instant (`timer`); then
 *      y = q itself (a follower on a constant-acceleration path with that path as its goal
 *      T ahead stays on it), so the follower converges onto the target's extrapolated path.
 *
 * Invariants: 0 ≤ timer < interval; dt = 0 changes nothing; allocates nothing, never throws.
 */
import { commitRemovals } from 'bitecs';
import * as followerRecord from '../components/Follower.js';
import type { FollowerComponent } from '../components/Follower.js';
import { updateRange } from '../components/UpdateList.js';
import * as minJerk from '../math/minJerk.js';
import { minJerkEulerMatrix, minJerkStepMatrix } from '../math/minJerk.js';
import type { AnimationWorld } from '../world.js';
// Bound as this module's own constants, which V8 folds into the loops (see math/layout.ts).
const {
  FOLLOW_ACCELERATION, FOLLOW_CACHE, FOLLOW_CACHE_STRIDE, FOLLOW_ELAPSED, FOLLOW_EULER, FOLLOW_POSITION, FOLLOW_SECONDS,
  FOLLOW_SLOTS, FOLLOW_STATE_STRIDE, FOLLOW_VELOCITY,
} = followerRecord;
const { STEP_ROW_0, STEP_ROW_1, STEP_ROW_2 } = minJerk;

/**
 * Most sampling instants of a moving target that one frame of one follower steps through one
 * by one; earlier instants in the same frame (only with dt > 64 intervals) are merged into one
 * step towards the first of them, which the follower has forgotten by then (64 intervals of
 * the default 0.2 s are 32 T, and the state decays as e^{−2.68 t/T}).
 */
export const FOLLOW_MAX_INSTANTS = 64;

/** Advances every character's followers by `dt` seconds; see the file header. */
export function followSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  followEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link followSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function followEntities(world: AnimationWorld, frameDt: number, first: number, end: number): void {
  const follower = world.components.Follower;
  const { enabled, target, targetVelocity, targetAcceleration, interval, timer, scratch } = follower;
  const { eids: updated, dt: updatedDt } = world.updates;
  const last = updateRange(world.updates, world.characters.dense, frameDt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const dt = updatedDt[entry]; // seconds since its last update (lodSystem)
    const base = eid * FOLLOW_SLOTS;
    for (let slot = 0; slot < FOLLOW_SLOTS; slot++) {
      const row = base + slot;
      if (enabled[row] === 0) continue; // an empty slot
      const t = row * 3;
      const moving = targetVelocity[t] !== 0 || targetVelocity[t + 1] !== 0 || targetVelocity[t + 2] !== 0
        || targetAcceleration[t] !== 0 || targetAcceleration[t + 1] !== 0 || targetAcceleration[t + 2] !== 0;
      const period = interval[row];
      const toInstant = period - timer[row];
      if (dt >= toInstant) {
        scratch[FOLLOW_SECONDS] = toInstant;
        advanceFollower(follower, eid, slot);
        scratch[FOLLOW_ELAPSED] = toInstant;
        sampleTarget(follower, row);
        timer[row] = 0;
        let rest = dt - toInstant;
        if (moving && rest >= period) {
          // A moving target is sampled again at each further instant in this frame.
          const instants = Math.floor(rest / period);
          if (instants > FOLLOW_MAX_INSTANTS) {
            const merged = (instants - FOLLOW_MAX_INSTANTS) * period;
            scratch[FOLLOW_SECONDS] = merged;
            advanceFollower(follower, eid, slot);
            scratch[FOLLOW_ELAPSED] = scratch[FOLLOW_ELAPSED] + merged;
            sampleTarget(follower, row);
            rest -= merged;
          }
          while (rest >= period) {
            scratch[FOLLOW_SECONDS] = period;
            advanceFollower(follower, eid, slot);
            scratch[FOLLOW_ELAPSED] = scratch[FOLLOW_ELAPSED] + period;
            sampleTarget(follower, row);
            rest -= period;
          }
        }
        scratch[FOLLOW_SECONDS] = rest;
        advanceFollower(follower, eid, slot);
        timer[row] = rest % period;
      } else {
        scratch[FOLLOW_SECONDS] = dt;
        advanceFollower(follower, eid, slot);
        timer[row] = timer[row] + dt;
      }
      if (moving) {
        // The target moves on: where it is at the frame's end, as the game's next set sees it.
        for (let k = t; k < t + 3; k++) {
          const v = targetVelocity[k], a = targetAcceleration[k];
          target[k] = target[k] + dt * (v + 0.5 * a * dt);
          targetVelocity[k] = v + a * dt;
        }
      }
    }
  }
}

/**
 * Samples the target of follower `row` at the instant `scratch[FOLLOW_ELAPSED]` seconds into
 * the frame: its position, velocity and acceleration at the frame's start carried forward.
 */
function sampleTarget(follower: FollowerComponent, row: number): void {
  const { target, targetVelocity, targetAcceleration, sampled, sampledVelocity, sampledAcceleration } = follower;
  const e = follower.scratch[FOLLOW_ELAPSED];
  const t = row * 3;
  for (let k = t; k < t + 3; k++) {
    const v = targetVelocity[k], a = targetAcceleration[k];
    sampled[k] = target[k] + e * (v + 0.5 * a * e);
    sampledVelocity[k] = v + a * e;
    sampledAcceleration[k] = a;
  }
}

/**
 * Steps the state of `eid`'s follower in `slot` (default 0; an integer in [0, FOLLOW_SLOTS),
 * not checked) by `scratch[FOLLOW_SECONDS]` seconds, starting `timer` seconds after its last
 * sampling instant, towards its sampled target with its integrator and mode (see the file
 * header). Takes no float argument, so nothing is boxed if V8 does not inline it.
 */
export function advanceFollower(follower: FollowerComponent, eid: number, slot = 0): void {
  const { scratch, state, sampled, sampledVelocity, sampledAcceleration } = follower;
  const row = eid * FOLLOW_SLOTS + slot;
  const T = follower.duration[row];
  const seconds = scratch[FOLLOW_SECONDS];
  const h = seconds / T;
  if (!(h > 0)) return;
  const euler = follower.integrator[row] === FOLLOW_EULER;
  const m = euler ? FOLLOW_CACHE + FOLLOW_CACHE_STRIDE : FOLLOW_CACHE;
  if (scratch[m] !== h) {
    scratch[m] = h;
    if (euler) minJerkEulerMatrix(scratch, m + 1, scratch, m);
    else minJerkStepMatrix(scratch, m + 1, scratch, m);
  }
  const r0 = m + 1 + STEP_ROW_0, r1 = m + 1 + STEP_ROW_1, r2 = m + 1 + STEP_ROW_2;
  const m00 = scratch[r0], m01 = scratch[r0 + 1], m02 = scratch[r0 + 2];
  const m10 = scratch[r1], m11 = scratch[r1 + 1], m12 = scratch[r1 + 2];
  const m20 = scratch[r2], m21 = scratch[r2 + 1], m22 = scratch[r2 + 2];
  const T2 = T * T;
  const predict = follower.predict[row] === 1;
  const tau0 = follower.timer[row];
  const tau1 = tau0 + seconds;
  const s = row * FOLLOW_STATE_STRIDE;
  for (let k = 0; k < 3; k++) {
    const xs = sampled[row * 3 + k], vs = sampledVelocity[row * 3 + k], as = sampledAcceleration[row * 3 + k];
    // The particular solution y at the start (y0, y0′, y0″) and end (y1 …) of the step.
    let y0: number, y0v: number, y1: number, y1v: number, ya: number;
    if (predict) {
      // The sample's constant-acceleration path q(τ) = xs + vs τ + ½ as τ².
      y0 = xs + tau0 * (vs + 0.5 * as * tau0);
      y0v = vs + as * tau0;
      ya = as;
      if (euler) {
        y1 = y0 + seconds * y0v;
        y1v = y0v + seconds * as;
      } else {
        y1 = xs + tau1 * (vs + 0.5 * as * tau1);
        y1v = vs + as * tau1;
      }
    } else {
      // The rest point of the held input (with vs = as = 0 it is xs itself).
      y0 = xs - 0.4 * T * vs + 0.05 * T2 * as;
      y1 = y0;
      y0v = 0;
      y1v = 0;
      ya = 0;
    }
    // Scaled coordinates (the note's A matrix with t → t/T): e = x − y, w = T·(v − y′), b = T²·(a − y″).
    const e = state[s + FOLLOW_POSITION + k] - y0;
    const w = (state[s + FOLLOW_VELOCITY + k] - y0v) * T;
    const b = (state[s + FOLLOW_ACCELERATION + k] - ya) * T2;
    state[s + FOLLOW_POSITION + k] = y1 + (m00 * e + m01 * w + m02 * b);
    state[s + FOLLOW_VELOCITY + k] = y1v + (m10 * e + m11 * w + m12 * b) / T;
    state[s + FOLLOW_ACCELERATION + k] = ya + (m20 * e + m21 * w + m22 * b) / T2;
  }
}
