/**
 * Follower API: points per character that follow targets the game sets by real-time
 * minimum-jerk motion (shared/seeds/minimum-jerk.txt: the target is sampled every 200 ms and
 * followed over 400 ms, which "looks natural" for a hand or a gaze). Look-at and reach aim at
 * them. See followSystem.ts for the stepping and math/minJerk.ts for the model.
 *
 * Slots: each character has `FOLLOW_SLOTS` (4) independent followers, numbered 0 … 3. Every
 * call takes an optional slot and defaults to 0, so code that never names one works with a
 * single follower per character; `setLookAt` / `setReach` choose theirs with `follower`.
 * `removeFollower` without a slot removes them all.
 */
import { fail, IssueList } from './assets/AnimationError.js';
import {
  FOLLOW_DEFAULT_DURATION,
  FOLLOW_DEFAULT_INTERVAL,
  FOLLOW_EULER,
  FOLLOW_EXACT,
  FOLLOW_SLOTS,
  FOLLOW_STATE_STRIDE,
  placeFollower,
  resetFollower,
  type FollowerComponent,
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
   * Whether the follower aims where a moving target will be (default false; omitted keeps a
   * running follower's choice). Without it the follower holds each sample (xs, vs, as) until
   * the next: the seed's model with its full input, which comes to rest at
   * xs − 0.4·T·vs + 0.05·T²·as and so trails a target moving at a steady v by T·v plus the
   * sample's age (on average I·v/2, I the interval). With it the sample is extrapolated from
   * its sampling instant to now, q(τ) = xs + vs·τ + ½as·τ², and the goal is that path T
   * ahead, (q(τ + T), q′(τ + T), as): a target moving at a steady velocity or acceleration
   * (as given by {@link setFollowTargetVelocity} / {@link setFollowTargetAcceleration}) is
   * met, not trailed. With a still target both are the same.
   */
  predict?: boolean;
  /**
   * Start position, metres. Giving any of them (re)starts the follower at rest there, with
   * its target there too and still (velocity and acceleration 0); an omitted coordinate is the follower's current one, or for an
   * empty slot the character's world position (`getRootTransform`).
   * Giving none keeps a running follower's motion; a new follower starts at rest at the
   * character's world position.
   */
  x?: number;
  y?: number;
  z?: number;
  /**
   * Which of the character's followers, an integer in [0, FOLLOW_SLOTS − 1] (default 0). Each
   * slot is its own follower with its own settings, target and motion.
   */
  slot?: number;
}

/** A follower's position, metres. */
export interface FollowPosition {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Whether `value` is a follower slot: an integer in [0, FOLLOW_SLOTS − 1]. */
export function isFollowSlot(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < FOLLOW_SLOTS;
}

/** The issue message for a value that is not a follower slot. */
export function followSlotMessage(value: unknown): string {
  return `is ${String(value)}: must be an integer in [0, ${FOLLOW_SLOTS - 1}] (a follower slot)`;
}

/**
 * A follower slot from an API option: `value` if it is a slot, `fallback` when it is
 * undefined; otherwise records an issue on `field` and returns −1.
 */
export function readFollowSlot(issues: IssueList, field: string, value: unknown, fallback = 0): number {
  if (value === undefined) return fallback;
  if (isFollowSlot(value)) return value;
  issues.add(field, followSlotMessage(value));
  return -1;
}

const INTEGRATORS: Readonly<Record<FollowIntegrator, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<FollowIntegrator, number>, { exact: FOLLOW_EXACT, euler: FOLLOW_EULER }),
);

/**
 * Gives character `eid` a minimum-jerk follower in slot `options.slot` (default 0), or
 * reconfigures the one it has there (see {@link FollowerOptions} for each option and its
 * default). `followSystem` then samples the target set by {@link setFollowTarget} every
 * `interval` and moves the follower towards it. Other slots are not touched.
 *
 * @example
 * setFollower(world, eid, { x: 0, y: 1.5, z: 1 });                  // T = 0.4 s, every 0.2 s
 * setFollower(world, eid, { duration: 0.3 });                      // quicker, same position
 * setFollower(world, eid, { slot: 1, duration: 0.25 });            // a second, quicker follower
 * @throws AnimationError when `eid` is not a character, the slot is not an integer in
 * [0, FOLLOW_SLOTS − 1], a duration or interval is not a finite number > 0, the integrator
 * is unknown, `predict` is not a boolean or a coordinate is not finite. Nothing changes then.
 */
export function setFollower(world: AnimationWorld, eid: number, options: FollowerOptions = {}): void {
  const where = 'setFollower';
  requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
  const issues = new IssueList(where);
  const { duration, interval, integrator, x, y, z } = options;
  const slot = readFollowSlot(issues, 'slot', options.slot);
  if (duration !== undefined && !(isFiniteNumber(duration) && duration > 0)) issues.add('duration', `is ${String(duration)}: must be a finite number > 0 (seconds)`);
  if (interval !== undefined && !(isFiniteNumber(interval) && interval > 0)) issues.add('interval', `is ${String(interval)}: must be a finite number > 0 (seconds)`);
  if (integrator !== undefined && !(typeof integrator === 'string' && integrator in INTEGRATORS)) {
    issues.add('integrator', `is ${String(integrator)}: must be 'exact' or 'euler'`);
  }
  if (options.predict !== undefined && typeof options.predict !== 'boolean') issues.add('predict', `is ${String(options.predict)}: must be true or false`);
  if (x !== undefined && !isFiniteNumber(x)) issues.add('x', `is ${String(x)}: must be a finite number (metres)`);
  if (y !== undefined && !isFiniteNumber(y)) issues.add('y', `is ${String(y)}: must be a finite number (metres)`);
  if (z !== undefined && !isFiniteNumber(z)) issues.add('z', `is ${String(z)}: must be a finite number (metres)`);
  issues.throwIfAny();

  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  const running = follower.enabled[row]! === 1;
  if (!running) resetFollower(follower, eid, slot);
  if (duration !== undefined) follower.duration[row] = duration;
  if (integrator !== undefined) follower.integrator[row] = INTEGRATORS[integrator];
  if (options.predict !== undefined) follower.predict[row] = options.predict ? 1 : 0;
  if (interval !== undefined) {
    follower.interval[row] = interval;
    follower.timer[row] = 0;
  }
  if (!running || x !== undefined || y !== undefined || z !== undefined) {
    const { RootMotion } = world.components;
    const s = row * FOLLOW_STATE_STRIDE;
    const from = running ? follower.state : null;
    const start = [
      x ?? (from ? from[s]! : RootMotion.x[eid]!),
      y ?? (from ? from[s + 1]! : RootMotion.y[eid]!),
      z ?? (from ? from[s + 2]! : RootMotion.z[eid]!),
    ];
    placeFollower(follower, eid, slot, start, 0);
  }
}

/** Largest float32 (≈ 3.4e38): the followed points reach float32 buffers (aim's kernels). */
const FLOAT32_MAX = 3.4028234663852886e38;

/** Whether `value` is a number a follower takes: finite and within float32's range. */
function isFollowNumber(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) <= FLOAT32_MAX;
}

/** The issue message for a value that {@link isFollowNumber} refuses, in `unit`. */
function followNumberMessage(value: unknown, unit: string): string {
  return isFiniteNumber(value)
    ? `is ${value}: must be within ±3.4e38 (float32's range), in ${unit}`
    : `is ${String(value)}: must be a finite number (${unit})`;
}

/**
 * Carries the target of follower `row` forward to now: its position and velocity advanced by
 * its velocity and acceleration over `targetAge`, which becomes 0. Each target setter calls it
 * first, so the components it does not set continue from where the target is now.
 */
function carryTargetForward(follower: FollowerComponent, row: number): void {
  const { target, targetVelocity, targetAcceleration } = follower;
  const age = follower.targetAge[row]!;
  if (age === 0) return;
  for (let k = row * 3; k < row * 3 + 3; k++) {
    const v = targetVelocity[k]!, a = targetAcceleration[k]!;
    target[k] = target[k]! + age * (v + 0.5 * a * age);
    targetVelocity[k] = v + a * age;
  }
  follower.targetAge[row] = 0;
}

/**
 * Sets the point that character `eid`'s follower in `slot` (default 0) follows, in metres. It
 * takes effect at the follower's next sampling instant (every `interval`, default 0.2 s), not
 * at once: that delay is part of the model. An empty slot gets a follower with the default
 * settings, at rest at this point (so the first target does not make it move).
 *
 * The point is where the target is now (between frames). A target given a velocity or
 * acceleration ({@link setFollowTargetVelocity}, {@link setFollowTargetAcceleration}) keeps
 * moving from here with them until they are set again, so a sampling instant that falls
 * inside the next frame samples where it is at that instant; a still target (the default)
 * stays here.
 *
 * @example
 * ticker.add(() => { setFollowTarget(world, eid, mouse.x, mouse.y, 1); step(world, dt); });
 * setFollowTarget(world, eid, cup.x, cup.y, cup.z, 1); // slot 1: what the hand reaches for
 * @throws AnimationError when `eid` is not a character, a coordinate is not a finite number
 * within ±3.4e38 or the slot is not an integer in [0, FOLLOW_SLOTS − 1]. Nothing changes then.
 */
export function setFollowTarget(world: AnimationWorld, eid: number, x: number, y: number, z: number, slot = 0): void {
  requireCharacter(world, eid, 'setFollowTarget');
  // Games call this every frame: the checks are predicates V8 inlines, the report is built
  // out of line only on bad input, so the call stays small enough to inline and allocates nothing.
  if (!(isFollowNumber(x) && isFollowNumber(y) && isFollowNumber(z) && isFollowSlot(slot))) refuseFollowVector('setFollowTarget', 'x', 'y', 'z', 'metres', x, y, z, slot);
  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  if (follower.enabled[row]! === 0) {
    resetFollower(follower, eid, slot);
    placeFollower(follower, eid, slot, [x, y, z], 0);
    return;
  }
  carryTargetForward(follower, row);
  follower.target[row * 3] = x;
  follower.target[row * 3 + 1] = y;
  follower.target[row * 3 + 2] = z;
}

/**
 * Sets the velocity (m/s) of the target that character `eid`'s follower in `slot` (default 0)
 * follows, as of now: the target moves on from where it is now at this velocity (and its
 * acceleration, if set) until the next call; the follower samples that motion with the
 * position, and its state model takes it as the input vf (the −24/T²·vf term of
 * ȧ = −60/T³(x − xf) − 36/T² v − 9/T a + … ). With `setFollower(…, { predict: true })` the
 * sample is also extrapolated along it. Default 0 (a still target); reset to 0 when the
 * follower is placed (`setFollower` with a position, a new follower) or removed.
 *
 * @example
 * // each frame, before step: where the ball is and how it moves
 * setFollowTarget(world, eid, ball.x, ball.y, ball.z);
 * setFollowTargetVelocity(world, eid, ball.vx, ball.vy, ball.vz);
 * @throws AnimationError when `eid` is not a character, a component is not a finite number
 * within ±3.4e38, the slot is not an integer in [0, FOLLOW_SLOTS − 1] or the slot has no
 * follower (call setFollower or setFollowTarget first). Nothing changes then.
 */
export function setFollowTargetVelocity(world: AnimationWorld, eid: number, vx: number, vy: number, vz: number, slot = 0): void {
  requireCharacter(world, eid, 'setFollowTargetVelocity');
  // As setFollowTarget: inlinable predicates, the report out of line.
  if (!(isFollowNumber(vx) && isFollowNumber(vy) && isFollowNumber(vz) && isFollowSlot(slot))) refuseFollowVector('setFollowTargetVelocity', 'vx', 'vy', 'vz', 'm/s', vx, vy, vz, slot);
  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  if (follower.enabled[row]! === 0) refuseEmptySlot('setFollowTargetVelocity', eid, slot);
  carryTargetForward(follower, row);
  follower.targetVelocity[row * 3] = vx;
  follower.targetVelocity[row * 3 + 1] = vy;
  follower.targetVelocity[row * 3 + 2] = vz;
}

/**
 * Sets the acceleration (m/s²) of the target that character `eid`'s follower in `slot`
 * (default 0) follows, as of now: like {@link setFollowTargetVelocity}, the target moves on
 * from its position and velocity now with this acceleration; the state model takes it as
 * the input af (the 3/T·af term). Default 0; reset to 0 when the follower is placed or removed.
 *
 * @example
 * setFollowTargetAcceleration(world, eid, 0, -9.81, 0); // a thrown ball, between its sets
 * @throws AnimationError when `eid` is not a character, a component is not a finite number
 * within ±3.4e38, the slot is not an integer in [0, FOLLOW_SLOTS − 1] or the slot has no
 * follower (call setFollower or setFollowTarget first). Nothing changes then.
 */
export function setFollowTargetAcceleration(world: AnimationWorld, eid: number, ax: number, ay: number, az: number, slot = 0): void {
  requireCharacter(world, eid, 'setFollowTargetAcceleration');
  if (!(isFollowNumber(ax) && isFollowNumber(ay) && isFollowNumber(az) && isFollowSlot(slot))) refuseFollowVector('setFollowTargetAcceleration', 'ax', 'ay', 'az', 'm/s²', ax, ay, az, slot);
  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  if (follower.enabled[row]! === 0) refuseEmptySlot('setFollowTargetAcceleration', eid, slot);
  carryTargetForward(follower, row);
  follower.targetAcceleration[row * 3] = ax;
  follower.targetAcceleration[row * 3 + 1] = ay;
  follower.targetAcceleration[row * 3 + 2] = az;
}

/** Throws the AnimationError of a target setter's bad arguments (fields `fx`, `fy`, `fz`, `slot`), naming each. */
function refuseFollowVector(where: string, fx: string, fy: string, fz: string, unit: string, x: unknown, y: unknown, z: unknown, slot: unknown): never {
  const issues = new IssueList(where);
  if (!isFollowNumber(x)) issues.add(fx, followNumberMessage(x, unit));
  if (!isFollowNumber(y)) issues.add(fy, followNumberMessage(y, unit));
  if (!isFollowNumber(z)) issues.add(fz, followNumberMessage(z, unit));
  if (!isFollowSlot(slot)) issues.add('slot', followSlotMessage(slot));
  issues.throwIfAny();
  throw new Error(`unreachable: ${where} found no fault`);
}

/** Throws the AnimationError of a call that needs a follower in an empty `slot`. */
function refuseEmptySlot(where: string, eid: number, slot: number): never {
  fail(where, 'eid', slot === 0
    ? `${eid} has no follower: call setFollower or setFollowTarget first`
    : `${eid} has no follower in slot ${slot}: call setFollower or setFollowTarget with slot ${slot} first`);
}

/**
 * Where character `eid`'s follower in `slot` (default 0) is now (metres): the point a look-at
 * or reach on that slot aims at.
 * @throws AnimationError when `eid` is not a character, the slot is not an integer in
 * [0, FOLLOW_SLOTS − 1], or the slot has no follower.
 */
export function getFollowPosition(world: AnimationWorld, eid: number, slot = 0): FollowPosition {
  const where = 'getFollowPosition';
  requireCharacter(world, eid, where);
  if (!isFollowSlot(slot)) fail(where, 'slot', followSlotMessage(slot));
  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  if (follower.enabled[row]! === 0) refuseEmptySlot(where, eid, slot);
  const s = row * FOLLOW_STATE_STRIDE;
  return { x: follower.state[s]!, y: follower.state[s + 1]!, z: follower.state[s + 2]! };
}

/**
 * Removes character `eid`'s followers: all of them when `slot` is omitted (the character then
 * has none, as before it got one), or only the one in `slot`. `followSystem` skips a removed
 * follower from now on, {@link getFollowPosition} refuses it, and a look-at or reach aiming at
 * it pauses, until a new one is set in that slot.
 *
 * @example
 * removeFollower(world, eid, 1); // the hand's follower; the head's (slot 0) keeps going
 * removeFollower(world, eid);    // every slot
 * @throws AnimationError when `eid` is not a character or `slot` is given and not an integer
 * in [0, FOLLOW_SLOTS − 1]. Nothing changes then.
 */
export function removeFollower(world: AnimationWorld, eid: number, slot?: number): void {
  const where = 'removeFollower';
  requireCharacter(world, eid, where);
  if (slot !== undefined && !isFollowSlot(slot)) fail(where, 'slot', followSlotMessage(slot));
  resetFollower(world.components.Follower, eid, slot);
}
