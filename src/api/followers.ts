/**
 * Follower API: points per character that follow targets the game sets by real-time
 * minimum-jerk motion (after Flash and Hogan: the target is sampled every 200 ms and
 * followed over 400 ms, which "looks natural" for a hand or a gaze). Look-at and reach aim at
 * them. See followSystem.ts for the stepping and math/minJerk.ts for the model.
 *
 * Slots: each character has `FOLLOW_SLOTS` (4) independent followers, numbered 0 … 3. Every
 * call takes an optional slot and defaults to 0, so code that never names one works with a
 * single follower per character; `setLookAt` / `setReach` choose theirs with `follower`.
 * `removeFollower` without a slot removes them all.
 *
 * Moving targets: a target has a position, velocity and acceleration (`setFollowTarget`,
 * `setFollowTargetVelocity`, `setFollowTargetAcceleration`; the last two default to 0, a still
 * target). Each is "as of now"; `followSystem` carries the target forward every frame, so the
 * game sets only what changed. The follower's state model takes the sampled velocity and
 * acceleration as its inputs vf and af; `setFollower(…, { predict: true })` also
 * extrapolates the sample, so a target in steady motion is met rather than trailed. The
 * setters are built so that V8 inlines them (no double boxed); docs/followers.md has the
 * figures.
 */
import { addComponent, removeComponent } from 'bitecs';
import { fail, IssueList } from '../assets/AnimationError.js';
import {
  FOLLOW_DEFAULT_DURATION,
  FOLLOW_DEFAULT_INTERVAL,
  FOLLOW_EULER,
  FOLLOW_EXACT,
  FOLLOW_SLOTS,
  FOLLOW_STATE_STRIDE,
  placeFollower,
  resetFollower,
} from '../components/Follower.js';
import { isFiniteNumber, requireCharacter } from './validation.js';
import { FLOAT32_MAX, MAX_DURATION, MIN_DURATION, rangeIssue, shownValue, shownString } from '../assets/limits.js';
import { WORLD_OPEN } from '../worldGate.js';
import { type AnimationWorld } from '../world.js';

/** How a follower is stepped: `'exact'` (matrix exponential) or `'euler'` (the minimum-jerk note's explicit Euler). */
export type FollowIntegrator = 'exact' | 'euler';

/** Options of {@link setFollower}. Omitted options keep a running follower's settings. */
export interface FollowerOptions {
  /**
   * T, seconds in [1e-6, 1e6]: the horizon of the minimum-jerk move the follower re-plans towards each
   * sampled target (default 0.4, the minimum-jerk note's 400 ms). After a target is sampled, the follower
   * is within 0.1 % of it (relative to the jump) 4T later; on the way it passes the target
   * by ≈ 1.6 % of the jump before settling.
   */
  duration?: number;
  /**
   * Seconds in [1e-6, 1e6] between samples of the target (default 0.2, the minimum-jerk note's 200 ms). Samples fall
   * at exact multiples of the interval after the follower was placed, whatever the frame
   * rate; changing it restarts that clock.
   */
  interval?: number;
  /**
   * `'exact'` (default): each step multiplies the state by the exact matrix exponential, so
   * the motion does not depend on the frame rate and is stable for any dt. `'euler'`: the
   * minimum-jerk note's explicit Euler update, kept for comparison; it diverges when dt > 0.325 T
   * (0.13 s at T = 0.4 s).
   */
  integrator?: FollowIntegrator;
  /**
   * Whether the follower aims where a moving target will be (default false; omitted keeps a
   * running follower's choice). Without it the follower holds each sample (xs, vs, as) until
   * the next: the minimum-jerk state model with its full input, which comes to rest at
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
  /** Start position y, metres (see `x`). */
  y?: number;
  /** Start position z, metres (see `x`). */
  z?: number;
  /**
   * Which of the character's followers, an integer in [0, FOLLOW_SLOTS − 1] (default 0). Each
   * slot is its own follower with its own settings, target and motion.
   */
  slot?: number;
}

/** A follower's position, metres. */
export interface FollowPosition {
  /** Position x, metres. */
  readonly x: number;
  /** Position y (up), metres. */
  readonly y: number;
  /** Position z, metres. */
  readonly z: number;
}

/** Whether `value` is a follower slot: an integer in [0, FOLLOW_SLOTS − 1]. */
export function isFollowSlot(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < FOLLOW_SLOTS;
}

/** The issue message for a value that is not a follower slot. */
export function followSlotMessage(value: unknown): string {
  return `is ${shownValue(value)}: must be an integer in [0, ${FOLLOW_SLOTS - 1}] (a follower slot)`;
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
 * `interval` and moves the follower towards it. Other slots are not touched. The character
 * gets the `Follower` bitecs component (as it does from `setFollowTarget` on an empty slot).
 *
 * @example
 * setFollower(world, eid, { x: 0, y: 1.5, z: 1 });                  // T = 0.4 s, every 0.2 s
 * setFollower(world, eid, { duration: 0.3 });                      // quicker, same position
 * setFollower(world, eid, { slot: 1, duration: 0.25 });            // a second, quicker follower
 * @throws AnimationError when `eid` is not a character, the slot is not an integer in
 * [0, FOLLOW_SLOTS − 1], a duration or interval is not a number in [1e-6, 1e6] seconds, the
 * integrator is unknown, `predict` is not a boolean or a coordinate is not a finite number
 * within ±3.4e38. Nothing changes then.
 */
export function setFollower(world: AnimationWorld, eid: number, options: FollowerOptions = {}): void {
  const where = 'setFollower';
  requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
  const issues = new IssueList(where);
  const { duration, interval, integrator, x, y, z } = options;
  const slot = readFollowSlot(issues, 'slot', options.slot);
  // Bounded below so a long step's target instants, counted as rest / interval, stay few and exact.
  const durationIssue = duration === undefined ? null : rangeIssue(duration, MIN_DURATION, MAX_DURATION, 'seconds');
  if (durationIssue !== null) issues.add('duration', durationIssue);
  const intervalIssue = interval === undefined ? null : rangeIssue(interval, MIN_DURATION, MAX_DURATION, 'seconds');
  if (intervalIssue !== null) issues.add('interval', intervalIssue);
  if (integrator !== undefined && !(typeof integrator === 'string' && integrator in INTEGRATORS)) {
    issues.add('integrator', `is ${shownString(integrator)}: must be 'exact' or 'euler'`);
  }
  if (options.predict !== undefined && typeof options.predict !== 'boolean') issues.add('predict', `is ${shownString(options.predict)}: must be true or false`);
  if (x !== undefined && !isFollowNumber(x)) issues.add('x', followNumberMessage(x, 'metres'));
  if (y !== undefined && !isFollowNumber(y)) issues.add('y', followNumberMessage(y, 'metres'));
  if (z !== undefined && !isFollowNumber(z)) issues.add('z', followNumberMessage(z, 'metres'));
  issues.throwIfAny();

  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  const running = follower.enabled[row] === 1;
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
      x ?? (from ? from[s] : RootMotion.x[eid]),
      y ?? (from ? from[s + 1] : RootMotion.y[eid]),
      z ?? (from ? from[s + 2] : RootMotion.z[eid]),
    ];
    placeFollower(follower, eid, slot, start, 0);
  }
  addComponent(world.ecs, eid, follower); // the bitecs component marks who has a follower (a no-op if it has it)
}

/** Whether `value` is a number a follower takes: finite and within float32's range. */
function isFollowNumber(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) <= FLOAT32_MAX;
}

/** Whether `x`, `y` and `z` are numbers a follower takes (one small function for V8 to inline). */
function areFollowNumbers(x: number, y: number, z: number): boolean {
  // Comparisons rather than Math.abs calls: NaN fails them, and the function stays small.
  return typeof x === 'number' && x <= FLOAT32_MAX && x >= -FLOAT32_MAX
    && typeof y === 'number' && y <= FLOAT32_MAX && y >= -FLOAT32_MAX
    && typeof z === 'number' && z <= FLOAT32_MAX && z >= -FLOAT32_MAX;
}

/** The issue message for a value that {@link isFollowNumber} refuses, in `unit`. */
function followNumberMessage(value: unknown, unit: string): string {
  return isFiniteNumber(value)
    ? `is ${value}: must be within ±3.4e38 (float32's range), in ${unit}`
    : `is ${shownValue(value)}: must be a finite number (${unit})`;
}

/**
 * Where a target setter writes slot `slot` of `eid` (the row × 3), when `world` takes calls
 * (not disposed, no `stepParallel` in flight: its gate is open) and `eid` is a character of it
 * with a follower in `slot`; −1 otherwise, and the setter's full checks take over (they refuse
 * a closed world as every command does). Cheap checks that V8 inlines (a property read;
 * `typeof`; `slot >>> 0 === slot` is an integer in [0, 2³²); a query's sparse-set lookup; a typed-array read).
 */
function targetIndex(world: AnimationWorld, eid: number, slot: number): number {
  // typeof first: `>>>` on a Symbol and the sparse-set lookup of an object without a prototype throw TypeErrors.
  if (!(world?.gate === WORLD_OPEN && typeof slot === 'number' && (slot >>> 0) === slot && slot < FOLLOW_SLOTS && typeof eid === 'number' && world.characters?.has(eid) === true)) return -1;
  const row = eid * FOLLOW_SLOTS + slot;
  return world.components.Follower.enabled[row] === 1 ? row * 3 : -1;
}

/**
 * Sets the point that character `eid`'s follower in `slot` (default 0) follows, in metres. It
 * takes effect at the follower's next sampling instant (every `interval`, default 0.2 s), not
 * at once: that delay is part of the model. An empty slot gets a follower with the default
 * settings, at rest at this point (so the first target does not make it move).
 *
 * The point is where the target is now (between frames). A target given a velocity or
 * acceleration ({@link setFollowTargetVelocity}, {@link setFollowTargetAcceleration}) keeps
 * moving from here with them (each frame carries it forward) until they are set again, so a
 * sampling instant inside the next frame samples where it is at that instant; a still target
 * (the default) stays here.
 *
 * @example
 * ticker.add(() => { setFollowTarget(world, eid, mouse.x, mouse.y, 1); step(world, dt); });
 * setFollowTarget(world, eid, cup.x, cup.y, cup.z, 1); // slot 1: what the hand reaches for
 * @throws AnimationError when `eid` is not a character, a coordinate is not a finite number
 * within ±3.4e38 or the slot is not an integer in [0, FOLLOW_SLOTS − 1]. Nothing changes then.
 */
export function setFollowTarget(world: AnimationWorld, eid: number, x: number, y: number, z: number, slot = 0): void {
  // Games call this every frame, and V8 boxes a double passed to a call it does not inline:
  // the common case is inlinable predicates and three stores; everything else (the full
  // checks and their report, a new follower) is a call out of line.
  const k = targetIndex(world, eid, slot);
  if (k < 0 || !areFollowNumbers(x, y, z)) return setTargetSlowly(SET_TARGET, world, eid, x, y, z, slot);
  const target = world.components.Follower.target;
  target[k] = x;
  target[k + 1] = y;
  target[k + 2] = z;
}

/**
 * Sets the velocity (m/s) of the target that character `eid`'s follower in `slot` (default 0)
 * follows, as of now: the target moves on from where it is at this velocity (and its
 * acceleration, if set) until the next call; the follower samples that motion with the
 * position, and its state model takes it as the input vf (the −24/T²·vf term of
 * ȧ = −60/T³(x − xf) − 36/T² v − 9/T a − 24/T² vf + 3/T af). With
 * `setFollower(…, { predict: true })` the sample is also extrapolated along it. Default 0 (a
 * still target); reset to 0 when the follower is placed (`setFollower` with a position, a new
 * follower) or removed.
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
  // As setFollowTarget: inlinable predicates and stores, the rest out of line.
  const k = targetIndex(world, eid, slot);
  if (k < 0 || !areFollowNumbers(vx, vy, vz)) return setTargetSlowly(SET_VELOCITY, world, eid, vx, vy, vz, slot);
  const velocity = world.components.Follower.targetVelocity;
  velocity[k] = vx;
  velocity[k + 1] = vy;
  velocity[k + 2] = vz;
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
  const k = targetIndex(world, eid, slot);
  if (k < 0 || !areFollowNumbers(ax, ay, az)) return setTargetSlowly(SET_ACCELERATION, world, eid, ax, ay, az, slot);
  const acceleration = world.components.Follower.targetAcceleration;
  acceleration[k] = ax;
  acceleration[k + 1] = ay;
  acceleration[k + 2] = az;
}

/** The target setters, as indices into {@link SETTERS}. */
const SET_TARGET = 0, SET_VELOCITY = 1, SET_ACCELERATION = 2;
/** Per target setter: its name, its three fields, their unit. */
const SETTERS: ReadonlyArray<readonly [where: string, x: string, y: string, z: string, unit: string]> = [
  ['setFollowTarget', 'x', 'y', 'z', 'metres'],
  ['setFollowTargetVelocity', 'vx', 'vy', 'vz', 'm/s'],
  ['setFollowTargetAcceleration', 'ax', 'ay', 'az', 'm/s²'],
];

/**
 * The rest of a target setter, out of line: its full checks (eid first, then each number
 * and the slot, all reported together; then an empty slot), throwing the setter's
 * AnimationError before anything changes; or, for setFollowTarget on an empty slot, a new
 * follower with default settings at rest at (x, y, z).
 */
function setTargetSlowly(setter: number, world: AnimationWorld, eid: number, x: number, y: number, z: number, slot: number): void {
  const [where, fx, fy, fz, unit] = SETTERS[setter];
  requireCharacter(world, eid, where);
  const issues = new IssueList(where);
  if (!isFollowNumber(x)) issues.add(fx, followNumberMessage(x, unit));
  if (!isFollowNumber(y)) issues.add(fy, followNumberMessage(y, unit));
  if (!isFollowNumber(z)) issues.add(fz, followNumberMessage(z, unit));
  if (!isFollowSlot(slot)) issues.add('slot', followSlotMessage(slot));
  issues.throwIfAny();
  const follower = world.components.Follower;
  const row = eid * FOLLOW_SLOTS + slot;
  if (follower.enabled[row] === 1) {
    // Only when the fast checks disagree with these (an entity that is a character without
    // being in the characters query): write as the fast path does.
    const values = setter === SET_TARGET ? follower.target : setter === SET_VELOCITY ? follower.targetVelocity : follower.targetAcceleration;
    values[row * 3] = x;
    values[row * 3 + 1] = y;
    values[row * 3 + 2] = z;
    return;
  }
  if (setter !== SET_TARGET) refuseEmptySlot(where, eid, slot);
  resetFollower(follower, eid, slot);
  placeFollower(follower, eid, slot, [x, y, z], 0);
  addComponent(world.ecs, eid, follower);
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
  if (follower.enabled[row] === 0) refuseEmptySlot(where, eid, slot);
  const s = row * FOLLOW_STATE_STRIDE;
  return { x: follower.state[s], y: follower.state[s + 1], z: follower.state[s + 2] };
}

/**
 * Removes character `eid`'s followers: all of them when `slot` is omitted (the character then
 * has none, as before it got one, and loses the `Follower` bitecs component), or only the one
 * in `slot` (the component goes with the last one). `followSystem` skips a removed
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
  const follower = world.components.Follower;
  resetFollower(follower, eid, slot);
  let remaining = 0;
  for (let row = eid * FOLLOW_SLOTS; row < (eid + 1) * FOLLOW_SLOTS; row++) remaining += follower.enabled[row];
  if (remaining === 0) removeComponent(world.ecs, eid, follower); // its last follower: the bitecs component goes too
}
