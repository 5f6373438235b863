/**
 * Follower API: a point per character that follows a target the game sets by real-time
 * minimum-jerk motion (shared/seeds/minimum-jerk.txt: the target is sampled every 200 ms and
 * followed over 400 ms, which "looks natural" for a hand or a gaze). Look-at and reach aim at
 * it. See followSystem.ts for the stepping and math/minJerk.ts for the model.
 */
import { fail, IssueList } from './assets/AnimationError.js';
import {
  FOLLOW_DEFAULT_DURATION,
  FOLLOW_DEFAULT_INTERVAL,
  FOLLOW_EULER,
  FOLLOW_EXACT,
  FOLLOW_STATE_STRIDE,
  placeFollower,
  resetFollower,
} from './components/Follower.js';
import { isFiniteNumber, requireCharacter } from './registry.js';
import type { AnimationWorld } from './world.js';

/** How a follower is stepped: `'exact'` (matrix exponential) or `'euler'` (the seed's explicit Euler). */
export type FollowIntegrator = 'exact' | 'euler';

/** Options of {@link setFollower}. Omitted options keep a running follower's settings. */
export interface FollowerOptions {
  /**
   * T, seconds > 0: the horizon of the minimum-jerk move the follower re-plans towards each
   * sampled target (default 0.4, the seed's 400 ms). After a target is sampled, the follower
   * is within 0.1 % of it (relative to the jump) 4T later; on the way it passes the target
   * by ≈ 1.6 % of the jump before settling.
   */
  duration?: number;
  /**
   * Seconds > 0 between samples of the target (default 0.2, the seed's 200 ms). Samples fall
   * at exact multiples of the interval after the follower was placed, whatever the frame
   * rate; changing it restarts that clock.
   */
  interval?: number;
  /**
   * `'exact'` (default): each step multiplies the state by the exact matrix exponential, so
   * the motion does not depend on the frame rate and is stable for any dt. `'euler'`: the
   * seed's explicit Euler update, kept for comparison; it diverges when dt > 0.325 T
   * (0.13 s at T = 0.4 s).
   */
  integrator?: FollowIntegrator;
  /**
   * Start position, metres. Giving any of them (re)starts the follower at rest there, with
   * its target there too; an omitted coordinate is the follower's current one, or for a
   * character without a follower the character's world position (`getRootTransform`).
   * Giving none keeps a running follower's motion; a new follower starts at rest at the
   * character's world position.
   */
  x?: number;
  y?: number;
  z?: number;
}

/** A follower's position, metres. */
export interface FollowPosition {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

const INTEGRATORS: Readonly<Record<FollowIntegrator, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<FollowIntegrator, number>, { exact: FOLLOW_EXACT, euler: FOLLOW_EULER }),
);

/**
 * Gives character `eid` a minimum-jerk follower, or reconfigures the one it has (see
 * {@link FollowerOptions} for each option and its default). `followSystem` then samples the
 * target set by {@link setFollowTarget} every `interval` and moves the follower towards it.
 *
 * @example
 * setFollower(world, eid, { x: 0, y: 1.5, z: 1 });                  // T = 0.4 s, every 0.2 s
 * setFollower(world, eid, { duration: 0.3 });                      // quicker, same position
 * @throws AnimationError when `eid` is not a character, a duration or interval is not a
 * finite number > 0, the integrator is unknown or a coordinate is not finite. Nothing
 * changes then.
 */
export function setFollower(world: AnimationWorld, eid: number, options: FollowerOptions = {}): void {
  const where = 'setFollower';
  requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
  const issues = new IssueList(where);
  const { duration, interval, integrator, x, y, z } = options;
  if (duration !== undefined && !(isFiniteNumber(duration) && duration > 0)) issues.add('duration', `is ${String(duration)}: must be a finite number > 0 (seconds)`);
  if (interval !== undefined && !(isFiniteNumber(interval) && interval > 0)) issues.add('interval', `is ${String(interval)}: must be a finite number > 0 (seconds)`);
  if (integrator !== undefined && !(typeof integrator === 'string' && integrator in INTEGRATORS)) {
    issues.add('integrator', `is ${String(integrator)}: must be 'exact' or 'euler'`);
  }
  if (x !== undefined && !isFiniteNumber(x)) issues.add('x', `is ${String(x)}: must be a finite number (metres)`);
  if (y !== undefined && !isFiniteNumber(y)) issues.add('y', `is ${String(y)}: must be a finite number (metres)`);
  if (z !== undefined && !isFiniteNumber(z)) issues.add('z', `is ${String(z)}: must be a finite number (metres)`);
  issues.throwIfAny();

  const follower = world.components.Follower;
  const running = follower.enabled[eid]! === 1;
  if (!running) resetFollower(follower, eid);
  if (duration !== undefined) follower.duration[eid] = duration;
  if (integrator !== undefined) follower.integrator[eid] = INTEGRATORS[integrator];
  if (interval !== undefined) {
    follower.interval[eid] = interval;
    follower.timer[eid] = 0;
  }
  if (!running || x !== undefined || y !== undefined || z !== undefined) {
    const { RootMotion } = world.components;
    const s = eid * FOLLOW_STATE_STRIDE;
    const from = running ? follower.state : null;
    const start = [
      x ?? (from ? from[s]! : RootMotion.x[eid]!),
      y ?? (from ? from[s + 1]! : RootMotion.y[eid]!),
      z ?? (from ? from[s + 2]! : RootMotion.z[eid]!),
    ];
    placeFollower(follower, eid, start, 0);
  }
}

/**
 * Sets the point character `eid`'s follower follows, in metres. It takes effect at the
 * follower's next sampling instant (every `interval`, default 0.2 s), not at once: that
 * delay is part of the model. A character without a follower gets one with the default
 * settings, at rest at this point (so the first target does not make it move).
 *
 * @example
 * ticker.add(() => { setFollowTarget(world, eid, mouse.x, mouse.y, 1); step(world, dt); });
 * @throws AnimationError when `eid` is not a character or a coordinate is not finite.
 * Nothing changes then.
 */
export function setFollowTarget(world: AnimationWorld, eid: number, x: number, y: number, z: number): void {
  const where = 'setFollowTarget';
  requireCharacter(world, eid, where);
  const issues = new IssueList(where);
  if (!isFiniteNumber(x)) issues.add('x', `is ${String(x)}: must be a finite number (metres)`);
  if (!isFiniteNumber(y)) issues.add('y', `is ${String(y)}: must be a finite number (metres)`);
  if (!isFiniteNumber(z)) issues.add('z', `is ${String(z)}: must be a finite number (metres)`);
  issues.throwIfAny();
  const follower = world.components.Follower;
  if (follower.enabled[eid]! === 0) {
    resetFollower(follower, eid);
    placeFollower(follower, eid, [x, y, z], 0);
    return;
  }
  follower.target[eid * 3] = x;
  follower.target[eid * 3 + 1] = y;
  follower.target[eid * 3 + 2] = z;
}

/**
 * Where character `eid`'s follower is now (metres): the point look-at and reach aim at.
 * @throws AnimationError when `eid` is not a character or has no follower.
 */
export function getFollowPosition(world: AnimationWorld, eid: number): FollowPosition {
  const where = 'getFollowPosition';
  requireCharacter(world, eid, where);
  const follower = world.components.Follower;
  if (follower.enabled[eid]! === 0) fail(where, 'eid', `${eid} has no follower: call setFollower or setFollowTarget first`);
  const s = eid * FOLLOW_STATE_STRIDE;
  return { x: follower.state[s]!, y: follower.state[s + 1]!, z: follower.state[s + 2]! };
}

/**
 * Removes character `eid`'s follower: `followSystem` skips it from now on and
 * {@link getFollowPosition} refuses it until a new one is set.
 * @throws AnimationError when `eid` is not a character.
 */
export function removeFollower(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'removeFollower');
  resetFollower(world.components.Follower, eid);
}
