/**
 * Look-at and reach API: a character turns its head toward a follower (`setLookAt`) and
 * reaches for one with a two-bone chain (`setReach`). Followers (`src/api/followers.ts`) are the
 * points they aim at: the game moves them with `setFollowTarget` and they follow by
 * minimum-jerk motion. Each of look-at and reach names its follower slot (`follower`, default
 * 0): by default both aim at slot 0, the same point; on different slots the head watches one
 * point while the hand reaches for another. `aimSystem` applies both to the animated pose
 * each frame (see its header for the method, `math/lookAt.ts` and `math/twoBoneIk.ts` for the
 * kernels).
 */
import { addComponent, removeComponent } from 'bitecs';
import { fail, IssueList } from '../assets/AnimationError.js';
import { computeRestModel, type Skeleton } from '../assets/Skeleton.js';
import {
  LOOK_DEFAULT_NECK_FRACTION,
  LOOK_DEFAULT_PITCH_LIMIT,
  LOOK_DEFAULT_SPINE_FRACTION,
  LOOK_DEFAULT_YAW_LIMIT,
  LOOK_NO_JOINT,
  resetLookAt,
} from '../components/LookAt.js';
import { resetReach } from '../components/Reach.js';
import { FOLLOW_SLOTS } from '../components/Follower.js';
import { readFollowSlot, setFollower } from './followers.js';
import { MATRIX_STRIDE, MATRIX_T, MATRIX_X, MATRIX_Y, MATRIX_Z, NO_PARENT, POSE_Q, POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';
import { isFiniteNumber, requireCharacter, resolveJoint } from './validation.js';
import { currentModelRow } from './modelMatrices.js';
import { modelArrayOf } from '../systems/skinSystem.js';
import { FLOAT32_MAX, shownValue, shownString } from '../assets/limits.js';
import type { AnimationWorld } from '../world.js';

/** A joint of the character's skeleton: its index, or its name. */
export type JointRef = number | string;

/** A point or direction: `[x, y, z]` or `{ x, y, z }`. */
export type Vec3Like = readonly [number, number, number] | { readonly x: number; readonly y: number; readonly z: number };

/**
 * Options of `setLookAt`. When the character already looks at its follower with the same
 * head `joint`, omitted options keep their current values (so `setLookAt(world, eid, { joint,
 * weight })` fades an existing look-at); otherwise omitted options take the defaults below.
 */
export interface LookAtOptions {
  /** The head joint, whose forward axis is aimed. */
  joint: JointRef;
  /**
   * The follower slot looked at, an integer in [0, FOLLOW_SLOTS − 1] (default 0): the point
   * `setFollowTarget(world, eid, x, y, z, follower)` moves.
   */
  follower?: number;
  /** In [0, 1] (default 1): the share of the turn applied over the animated pose; 0 leaves the pose bit for bit. */
  weight?: number;
  /** Radians in [0, π] (default 70°): how far left or right of the character's forward (model +Z) the head turns. */
  yawLimit?: number;
  /** Radians in [0, π/2] (default 40°): how far up or down it looks. */
  pitchLimit?: number;
  /** A neck joint (an ancestor of the head) that takes part of the turn; `null` removes it. Default: none. */
  neck?: JointRef | null;
  /** The neck's share of the turn, in [0, 1] (default 0.3 when a neck is given). */
  neckFraction?: number;
  /** A spine joint (an ancestor of the neck, or of the head) that takes part of the turn; `null` removes it. Default: none. */
  spine?: JointRef | null;
  /** The spine's share of the turn, in [0, 1] (default 0.2 when a spine joint is given); spine + neck ≤ 1. */
  spineFraction?: number;
  /**
   * The head's forward axis in the head joint's own space (any non-zero length; normalized).
   * Default: the axis that points along the character's model +Z in the rest pose.
   */
  axis?: Vec3Like;
}

/**
 * Options of {@link setReach}. When the character already reaches with the same three joints,
 * omitted options keep their current values; otherwise they take the defaults below.
 */
export interface ReachOptions {
  /** The chain's root joint (upper arm, thigh). */
  upper: JointRef;
  /**
   * The follower slot reached for, an integer in [0, FOLLOW_SLOTS − 1] (default 0): the point
   * `setFollowTarget(world, eid, x, y, z, follower)` moves.
   */
  follower?: number;
  /** The middle joint (forearm, shin): below `upper` in the hierarchy. */
  lower: JointRef;
  /** The end joint put on the target (hand, foot): below `lower`. */
  end: JointRef;
  /**
   * A model-space point the middle joint bends toward, metres. Default: behind and below the
   * middle joint at rest, `lower_rest + (l1 + l2)·(0, −√½, −√½)` (an elbow dropping down and
   * back). For a leg, give a point in front of the knee.
   */
  pole?: Vec3Like;
  /** In [0, 1] (default 1): 1 puts the end joint on the target, 0 leaves the pose bit for bit. */
  weight?: number;
}

/**
 * How far in front of the head (metres, along its current forward axis) a follower created by
 * `setLookAt` starts, so the head does not move until the game sets a target.
 */
export const LOOK_FOLLOWER_DISTANCE = 1;

/**
 * Makes character `eid` look at its follower in slot `follower` (default 0): each frame
 * `aimSystem` turns the head (and the neck and spine joint, if given, each by its share) so
 * that the head's forward axis points at the follower, limited to `yawLimit` left/right and
 * `pitchLimit` up/down of the character's forward, blended over the animated pose by
 * `weight`. Inside the limits the axis points exactly at the follower; outside it stops on
 * the limit. The character gets the `LookAt` bitecs component.
 *
 * When that slot has no follower it gets one (`setFollower`), at rest 1 m in front of the
 * head along its current forward axis, so nothing moves until the game calls
 * `setFollowTarget`. A follower removed later (`removeFollower`) pauses the look-at until one
 * is set again in that slot.
 *
 * @example
 * setLookAt(world, eid, { joint: 'Head', neck: 'Neck', spine: 'Spine2', yawLimit: Math.PI / 3 });
 * setFollowTarget(world, eid, 2, 1.7, 3); // the head turns toward (2, 1.7, 3), world space
 * @throws AnimationError naming the field when `eid` is not a character, a joint is unknown,
 * the neck or spine is not an ancestor of the head (spine above neck), a number is not finite
 * or out of range, fractions sum above 1, a fraction is given without its joint, the axis
 * is zero, or `follower` is not an integer in [0, FOLLOW_SLOTS − 1]. Nothing changes then.
 */
export function setLookAt(world: AnimationWorld, eid: number, options: LookAtOptions): void {
  const where = 'setLookAt';
  const skeleton = requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object with at least `joint`');
  const issues = new IssueList(where);
  const lookAt = world.components.LookAt;
  const head = resolveJoint(issues, 'joint', skeleton, options.joint);
  const keep = head >= 0 && lookAt.enabled[eid] === 1 && lookAt.head[eid] === head;

  const neck = options.neck === undefined ? (keep ? lookAt.neck[eid] : LOOK_NO_JOINT)
    : options.neck === null ? LOOK_NO_JOINT : resolveJoint(issues, 'neck', skeleton, options.neck);
  const spine = options.spine === undefined ? (keep ? lookAt.spine[eid] : LOOK_NO_JOINT)
    : options.spine === null ? LOOK_NO_JOINT : resolveJoint(issues, 'spine', skeleton, options.spine);
  if (head >= 0 && neck >= 0 && !(neck !== head && isAncestor(skeleton.parents, neck, head))) {
    issues.add('neck', `joint ${jointName(skeleton, neck)} is not an ancestor of the head ${jointName(skeleton, head)}`);
  }
  if (head >= 0 && spine >= 0) {
    const below = neck >= 0 ? neck : head;
    if (!(spine !== below && isAncestor(skeleton.parents, spine, below))) {
      issues.add('spine', `joint ${jointName(skeleton, spine)} is not an ancestor of the ${neck >= 0 ? 'neck' : 'head'} ${jointName(skeleton, below)}`);
    }
  }

  const neckKept = keep && options.neck === undefined;
  const spineKept = keep && options.spine === undefined;
  const neckFraction = fraction(issues, 'neckFraction', options.neckFraction, neck, neckKept ? lookAt.neckFraction[eid] : LOOK_DEFAULT_NECK_FRACTION, 'neck');
  const spineFraction = fraction(issues, 'spineFraction', options.spineFraction, spine, spineKept ? lookAt.spineFraction[eid] : LOOK_DEFAULT_SPINE_FRACTION, 'spine');
  if (neckFraction + spineFraction > 1 + 1e-12) {
    issues.add('neckFraction', `+ spineFraction is ${neckFraction + spineFraction}: the shares of the neck and the spine must sum to at most 1 (the head takes the rest)`);
  }
  const weight = ranged(issues, 'weight', options.weight, keep ? lookAt.weight[eid] : 1, 1, '');
  const yawLimit = ranged(issues, 'yawLimit', options.yawLimit, keep ? lookAt.yawLimit[eid] : LOOK_DEFAULT_YAW_LIMIT, Math.PI, ' radians (π)');
  const pitchLimit = ranged(issues, 'pitchLimit', options.pitchLimit, keep ? lookAt.pitchLimit[eid] : LOOK_DEFAULT_PITCH_LIMIT, Math.PI / 2, ' radians (π/2)');
  const slot = readFollowSlot(issues, 'follower', options.follower, keep ? lookAt.follower[eid] : 0);
  let axis: [number, number, number] | null = null;
  if (options.axis !== undefined) {
    const v = readVec3(issues, 'axis', options.axis);
    if (v) {
      const length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (!(length > 1e-9) || !Number.isFinite(length)) issues.add('axis', 'must be a non-zero direction');
      else axis = [v[0] / length, v[1] / length, v[2] / length];
    }
  }
  issues.throwIfAny();

  if (axis === null) {
    axis = keep
      ? [lookAt.axis[eid * 3], lookAt.axis[eid * 3 + 1], lookAt.axis[eid * 3 + 2]]
      : restForwardAxis(skeleton, head);
  }
  if (world.components.Follower.enabled[eid * FOLLOW_SLOTS + slot] === 0) {
    // Start the follower where the head looks now, so the look-at begins without a jump.
    const m = modelArrayOf(world);
    const o = currentModelRow(world, eid) + head * MATRIX_STRIDE;
    let fx = m[o + MATRIX_X] * axis[0] + m[o + MATRIX_Y] * axis[1] + m[o + MATRIX_Z] * axis[2];
    let fy = m[o + MATRIX_X + 1] * axis[0] + m[o + MATRIX_Y + 1] * axis[1] + m[o + MATRIX_Z + 1] * axis[2];
    let fz = m[o + MATRIX_X + 2] * axis[0] + m[o + MATRIX_Y + 2] * axis[1] + m[o + MATRIX_Z + 2] * axis[2];
    const length = Math.sqrt(fx * fx + fy * fy + fz * fz);
    if (length > 1e-9 && Number.isFinite(length)) { fx /= length; fy /= length; fz /= length; } else { fx = 0; fy = 0; fz = 1; }
    placeFollowerAtModelPoint(world, eid, slot,
      m[o + MATRIX_T] + LOOK_FOLLOWER_DISTANCE * fx, m[o + MATRIX_T + 1] + LOOK_FOLLOWER_DISTANCE * fy, m[o + MATRIX_T + 2] + LOOK_FOLLOWER_DISTANCE * fz);
  }
  lookAt.follower[eid] = slot;
  lookAt.head[eid] = head;
  lookAt.neck[eid] = neck;
  lookAt.spine[eid] = spine;
  lookAt.neckFraction[eid] = neck >= 0 ? neckFraction : 0;
  lookAt.spineFraction[eid] = spine >= 0 ? spineFraction : 0;
  lookAt.axis.set(axis, eid * 3);
  lookAt.yawLimit[eid] = yawLimit;
  lookAt.pitchLimit[eid] = pitchLimit;
  lookAt.weight[eid] = weight;
  lookAt.enabled[eid] = 1;
  addComponent(world.ecs, eid, lookAt);
}

/**
 * Makes character `eid` reach for its follower in slot `follower` (default 0) with a two-bone
 * chain: each frame `aimSystem` turns `upper` and `lower` (two-bone IK, `math/twoBoneIk.ts`)
 * so that `end` lands on the follower, the middle joint bending toward `pole`, blended over
 * the animated pose by `weight`. A target out of reach gets a straight chain pointing at it
 * (or, nearer than |l1 − l2|, a folded one); a target on the upper joint keeps the chain's aim.
 * The character gets the `Reach` bitecs component.
 *
 * When that slot has no follower it gets one (`setFollower`), at rest on the end joint's
 * current position, so nothing moves until the game calls `setFollowTarget`. When the
 * character also looks at a follower (the same or another slot), look-at is applied first and
 * the reach is solved on the turned pose.
 *
 * @example
 * setReach(world, eid, { upper: 'RightArm', lower: 'RightForeArm', end: 'RightHand' });
 * setFollowTarget(world, eid, 0.4, 1.2, 0.5); // world space
 * // The head watches slot 0 while the hand reaches for slot 1:
 * setReach(world, eid, { upper: 'RightArm', lower: 'RightForeArm', end: 'RightHand', follower: 1 });
 * setFollowTarget(world, eid, cup.x, cup.y, cup.z, 1);
 * @throws AnimationError naming the field when `eid` is not a character, a joint is unknown,
 * upper → lower → end is not a parent chain (each below the one before), the pole is not
 * three finite numbers, the weight is not in [0, 1], or `follower` is not an integer in
 * [0, FOLLOW_SLOTS − 1]. Nothing changes then.
 */
export function setReach(world: AnimationWorld, eid: number, options: ReachOptions): void {
  const where = 'setReach';
  const skeleton = requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object with `upper`, `lower` and `end`');
  const issues = new IssueList(where);
  const reach = world.components.Reach;
  const upper = resolveJoint(issues, 'upper', skeleton, options.upper);
  const lower = resolveJoint(issues, 'lower', skeleton, options.lower);
  const end = resolveJoint(issues, 'end', skeleton, options.end);
  if (upper >= 0 && lower >= 0 && !(lower !== upper && isAncestor(skeleton.parents, upper, lower))) {
    issues.add('lower', `joint ${jointName(skeleton, lower)} is not below upper ${jointName(skeleton, upper)}: upper → lower → end must be a parent chain`);
  }
  if (lower >= 0 && end >= 0 && !(end !== lower && isAncestor(skeleton.parents, lower, end))) {
    issues.add('end', `joint ${jointName(skeleton, end)} is not below lower ${jointName(skeleton, lower)}: upper → lower → end must be a parent chain`);
  }
  const keep = reach.enabled[eid] === 1 && reach.upper[eid] === upper && reach.lower[eid] === lower && reach.end[eid] === end;
  const weight = ranged(issues, 'weight', options.weight, keep ? reach.weight[eid] : 1, 1, '');
  const pole = options.pole === undefined ? null : readVec3(issues, 'pole', options.pole);
  const slot = readFollowSlot(issues, 'follower', options.follower, keep ? reach.follower[eid] : 0);
  issues.throwIfAny();

  const polePoint = pole ?? (keep
    ? [reach.pole[eid * 3], reach.pole[eid * 3 + 1], reach.pole[eid * 3 + 2]]
    : defaultPole(skeleton, upper, lower, end));
  if (world.components.Follower.enabled[eid * FOLLOW_SLOTS + slot] === 0) {
    const m = modelArrayOf(world);
    const o = currentModelRow(world, eid) + end * MATRIX_STRIDE;
    placeFollowerAtModelPoint(world, eid, slot, m[o + MATRIX_T], m[o + MATRIX_T + 1], m[o + MATRIX_T + 2]);
  }
  reach.follower[eid] = slot;
  reach.upper[eid] = upper;
  reach.lower[eid] = lower;
  reach.end[eid] = end;
  reach.pole.set(polePoint, eid * 3);
  reach.weight[eid] = weight;
  reach.enabled[eid] = 1;
  addComponent(world.ecs, eid, reach);
}

/**
 * Stops character `eid`'s look-at (its settings, follower slot included, go back to the
 * defaults) and removes its `LookAt` bitecs component. The followers stay; the next frame's pose is the animated one.
 * @throws AnimationError when `eid` is not a character.
 */
export function clearLookAt(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'clearLookAt');
  resetLookAt(world.components.LookAt, eid);
  removeComponent(world.ecs, eid, world.components.LookAt);
}

/**
 * Stops character `eid`'s reach (its settings, follower slot included, go back to the
 * defaults) and removes its `Reach` bitecs component. The followers stay; the next frame's pose is the animated one.
 * @throws AnimationError when `eid` is not a character.
 */
export function clearReach(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'clearReach');
  resetReach(world.components.Reach, eid);
  removeComponent(world.ecs, eid, world.components.Reach);
}

/** Whether `ancestor` is `joint` or one of its ancestors. */
function isAncestor(parents: Int16Array, ancestor: number, joint: number): boolean {
  for (let j = joint; j !== NO_PARENT; j = parents[j]) if (j === ancestor) return true;
  return false;
}

function jointName(skeleton: Skeleton, joint: number): string {
  return `"${skeleton.names[joint]}" (${joint})`;
}

/** A number in [0, max] (default `fallback` when omitted); records an issue otherwise. */
function ranged(issues: IssueList, field: string, value: unknown, fallback: number, max: number, unit: string): number {
  if (value === undefined) return fallback;
  if (!isFiniteNumber(value) || value < 0 || value > max) {
    issues.add(field, `is ${shownString(value)}: must be a finite number in [0, ${max === 1 ? 1 : max.toPrecision(6)}]${unit}`);
    return fallback;
  }
  return value;
}

/** A chain joint's share: given (needs the joint), or the kept/default value when the joint is present, else 0. */
function fraction(issues: IssueList, field: string, value: unknown, joint: number, fallback: number, jointField: string): number {
  if (value === undefined) return joint >= 0 ? fallback : 0;
  const share = ranged(issues, field, value, 0, 1, '');
  if (joint < 0 && share !== 0) issues.add(field, `is ${shownString(value)} but there is no ${jointField} joint: give \`${jointField}\` too`);
  return share;
}

/** Three finite numbers from `[x, y, z]` or `{ x, y, z }`; records an issue and returns null otherwise. */
function readVec3(issues: IssueList, field: string, v: unknown): [number, number, number] | null {
  let xyz: unknown[] | null = null;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const list = v as ArrayLike<unknown>;
    if (list.length === 3) xyz = [list[0], list[1], list[2]];
  } else if (typeof v === 'object' && v !== null) {
    const o = v as { x?: unknown; y?: unknown; z?: unknown };
    xyz = [o.x, o.y, o.z];
  }
  if (xyz === null || !xyz.every((n) => isFiniteNumber(n) && Math.abs(n) <= FLOAT32_MAX)) {
    issues.add(field, `is ${describe(v)}: must be [x, y, z] or { x, y, z } of finite numbers within ±3.4e38 (the Float32 range)`);
    return null;
  }
  return xyz as [number, number, number];
}

function describe(v: unknown): string {
  return shownValue(v);
}

/**
 * The head's default forward axis: the direction in its own space that the rest pose turns
 * onto model +Z, inverse(Q_rest)·(0, 0, 1) with Q_rest the product of the rest rotations from
 * the root.
 */
function restForwardAxis(skeleton: Skeleton, head: number): [number, number, number] {
  const path: number[] = [];
  for (let j = head; j !== NO_PARENT; j = skeleton.parents[j]) path.push(j);
  const q = Float64Array.of(0, 0, 0, 1);
  for (let k = path.length - 1; k >= 0; k--) quat.multiply(q, 0, q, 0, skeleton.rest, path[k] * POSE_STRIDE + POSE_Q);
  quat.normalize(q, 0, q, 0);
  quat.conjugate(q, 0, q, 0);
  const axis = new Float64Array(3);
  quat.rotateVec3(axis, 0, q, 0, Float64Array.of(0, 0, 1), 0);
  const length = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  return [axis[0] / length, axis[1] / length, axis[2] / length];
}

/** The default pole: behind and below the middle joint at rest, at the chain's rest length. */
function defaultPole(skeleton: Skeleton, upper: number, lower: number, end: number): [number, number, number] {
  const model = computeRestModel(skeleton.parents, skeleton.rest);
  const at = (joint: number, k: number): number => model[joint * MATRIX_STRIDE + MATRIX_T + k];
  const length = (a: number, b: number): number => Math.hypot(at(b, 0) - at(a, 0), at(b, 1) - at(a, 1), at(b, 2) - at(a, 2));
  const reach = length(upper, lower) + length(lower, end);
  const d = reach * Math.SQRT1_2;
  return [at(lower, 0), at(lower, 1) - d, at(lower, 2) - d];
}

/** Starts `eid`'s follower in `slot` at rest at the model-space point (x, y, z), turned into world space. */
function placeFollowerAtModelPoint(world: AnimationWorld, eid: number, slot: number, x: number, y: number, z: number): void {
  const { RootMotion } = world.components;
  const yaw = RootMotion.yaw[eid];
  const c = Math.cos(yaw), s = Math.sin(yaw);
  const wx = x * c + z * s + RootMotion.x[eid];
  const wy = y + RootMotion.y[eid];
  const wz = -x * s + z * c + RootMotion.z[eid];
  // A pose gone non-finite cannot place it: fall back to the character's position.
  if (Number.isFinite(wx) && Number.isFinite(wy) && Number.isFinite(wz)) setFollower(world, eid, { x: wx, y: wy, z: wz, slot });
  else setFollower(world, eid, { slot });
}
