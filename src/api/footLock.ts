/**
 * Foot locking API: a character's planted feet stay where they landed (`setFootLock`) — the cure
 * for foot skate when the game moves a character at another pace than its clip's, or turns it
 * mid-step. The clips mark the contacts (`footDown:<joint>` / `footUp:<joint>` events, which
 * `detectFootContacts` writes); `footLockSystem` holds each marked foot on a world-space lock by
 * two-bone IK on its leg and eases it back onto the animation when the contact ends (see its
 * header for the method).
 */
import { addComponent, removeComponent } from 'bitecs';
import { AnimationError, fail, IssueList } from '../assets/AnimationError.js';
import { contactKey } from '../assets/footContactTable.js';
import { humanoidMap } from '../assets/humanoid/humanoidMap.js';
import { computeRestModel, type Skeleton } from '../assets/Skeleton.js';
import { FOOT_BLEND_TIME, FOOT_LEGS, FOOT_LOCK_GROUND, FOOT_LOCK_ON, FOOT_NO_JOINT, resetFootLock, resetLegState } from '../components/FootLock.js';
import { MATRIX_STRIDE, MATRIX_T, NO_PARENT } from '../math/layout.js';
import { describeValue, isFiniteNumber, requireCharacter, resolveJoint } from './validation.js';
import type { AnimationWorld } from '../world.js';

/** One leg of {@link FootLockOptions.legs}: a two-bone chain, by joint name or index. */
export interface FootLockLeg {
  /** The thigh (upper leg). */
  upper: string | number;
  /** The shin (lower leg): below `upper` in the hierarchy. */
  lower: string | number;
  /**
   * The foot (ankle) held on the ground: below `lower`, or a joint outside the leg (an IK foot
   * bone under the root, as RobotExpressive's `Foot.L`), which is then moved itself.
   */
  foot: string | number;
  /**
   * The joint name the clips' `footDown:` / `footUp:` events use for this foot (default: the
   * foot's own name). A clip retargeted from another skeleton keeps the source's events: name
   * the source's foot here (`binding.pairs` lists which source joint drives the foot).
   */
  contact?: string;
}

/**
 * Options of {@link setFootLock}. When the character's feet already lock, omitted `weight`,
 * `blendTime`, `easeIn` and `ground` keep their values (new legs planting on the ground take
 * their rest heights), and omitted (or the same) `legs` keep each leg's lock.
 */
export interface FootLockOptions {
  /**
   * Up to 4 legs (a quadruped's four). Default: the humanoid map's legs (`humanoidMap`:
   * leftUpperLeg → leftLowerLeg → leftFoot, and the right one).
   */
  legs?: readonly FootLockLeg[];
  /** In [0, 1] (default 1): the share of each foot's correction applied; 0 leaves the pose untouched. */
  weight?: number;
  /**
   * Seconds in [0, 10] (default 0.2): a released foot eases back onto the animation over this
   * (minimum-jerk, from the offset it had). 0: it snaps back.
   */
  blendTime?: number;
  /**
   * Seconds in [0, 10] (default 0): a new lock's weight eases in over this (minimum-jerk), so
   * the foot slows onto its lock instead of stopping on the frame its contact starts. The foot
   * slides meanwhile: ≈ 0.55 × easeIn × its world speed at landing (measured on the CMU walk
   * at 1.2× pace: 0.2 s cost 2–35 mm per contact). 0 holds it from the first frame of contact.
   */
  easeIn?: number;
  /**
   * Plant the feet on the ground (default false: a planted foot keeps the animation's height).
   * The ground is the plane at the character's root transform height (`setRootTransform`'s `y`);
   * a planted foot joint is held at its height in the skeleton's rest pose above it (`true`: right
   * for a character modelled standing on its origin, as glTF characters are), or at the given
   * height in metres (model space: a BVH skeleton's rest often hangs below its origin, so name
   * the ankle's height). It eases down over `blendTime` from where it landed. When a leg cannot
   * reach the ground where its foot landed (a body retargeted from another build, a crouch),
   * the pelvis — the legs' nearest common ancestor — is lowered as far as the farthest planted
   * leg needs, at most 0.25 leg lengths, easing over about a quarter of `blendTime`. Characters
   * on the ground run the JavaScript path on either kernels.
   */
  ground?: boolean | number;
}

const OPTIONS = new Set(['legs', 'weight', 'blendTime', 'easeIn', 'ground']);
const LEG_FIELDS = new Set(['upper', 'lower', 'foot', 'contact']);
/** The longest `blendTime` accepted, seconds. */
const MAX_BLEND_TIME = 10;

/**
 * Locks character `eid`'s planted feet: each frame `footLockSystem` holds a foot on the ground
 * where it landed while the clips the character plays mark it in contact, by two-bone IK on its
 * leg (the knee bending as animated, the foot turned as animated), and eases it back onto the
 * animation when the contact ends, when the animated foot has left it far behind (0.3 leg
 * lengths) or when the leg cannot reach it (a teleport). Only the foot's horizontal position is
 * held; its height is the animation's, raised (a heel coming up) when the hip could not reach
 * the lock otherwise — or, with `ground`, the ground's, the pelvis lowered where a leg cannot
 * reach it. The character gets the `FootLock` bitecs component.
 *
 * The contacts come from the clips' `footDown:<joint>` / `footUp:<joint>` events: run
 * `detectFootContacts` on a clip (or mark them by hand) before playing it. A layer whose clip has
 * no marker for a foot counts as not in contact; with several layers a foot is planted when the
 * weighted share of layers in contact is at least ½ (each layer weighted by its weight and its
 * mask's weight of the foot, so an upper-body layer does not count). See docs/foot-locking.md.
 *
 * @example
 * const { clip: walk } = detectFootContacts(capture, { feet: ['LeftAnkle', 'RightAnkle'] });
 * play(world, eid, walk);
 * setFootLock(world, eid); // the humanoid map's legs
 * // A quadruped names its legs:
 * setFootLock(world, fox, { legs: [{ upper: 'b_LeftLeg01_015', lower: 'b_LeftLeg02_016', foot: 'b_LeftFoot02_018' }, …] });
 * // A clip retargeted from a capture keeps the capture's events: name its foot per leg.
 * setFootLock(world, robot, { legs: [{ upper: 'UpperLeg.L', lower: 'LowerLeg.L', foot: 'Foot.L', contact: 'LeftAnkle' }, …] });
 * @throws AnimationError naming the field when `eid` is not a character; options is not an
 * object or has a field other than `legs`, `weight`, `blendTime`, `easeIn`, `ground` (a leg: other than
 * `upper`, `lower`, `foot`, `contact`); `legs` is not an array of 1 to 4 legs; a joint is unknown
 * or a leg is not a chain (upper an ancestor of lower, lower of foot — or the foot outside the
 * leg: neither below upper nor above it), two legs share a foot, or two legs lie on one branch (a
 * leg's upper below another's); `legs` is omitted and the skeleton is not a humanoid; `weight` is
 * not in [0, 1], `blendTime` or `easeIn` not in [0, 10] seconds, `ground` not a boolean or a
 * finite number of metres within ±100, or the legs have no common ancestor. Also while a `stepParallel` frame
 * runs and after `disposeAnimationWorld`. Nothing changes then.
 */
export function setFootLock(world: AnimationWorld, eid: number, options?: FootLockOptions): void {
  const where = 'setFootLock';
  const skeleton = requireCharacter(world, eid, where);
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    fail(where, 'options', `is ${describeValue(options)}: must be an object { legs?, weight?, blendTime?, easeIn?, ground? } (or omitted)`);
  }
  const given = options ?? {};
  const issues = new IssueList(where);
  for (const key of Object.keys(given)) {
    if (!OPTIONS.has(key)) issues.add(key, `is not an option of setFootLock (${[...OPTIONS].join(', ')})`);
  }
  const footLock = world.components.FootLock;
  const enabled = footLock.enabled[eid] !== 0;
  const legs = given.legs === undefined ? humanoidLegs(skeleton, where) : readLegs(issues, skeleton, given.legs);
  const weight = readRanged(issues, 'weight', given.weight, enabled ? footLock.weight[eid] : 1, 1, '');
  const blendTime = readRanged(issues, 'blendTime', given.blendTime, enabled ? footLock.blendTime[eid] : FOOT_BLEND_TIME, MAX_BLEND_TIME, ' seconds');
  const easeIn = readRanged(issues, 'easeIn', given.easeIn, enabled ? footLock.easeIn[eid] : 0, MAX_BLEND_TIME, ' seconds');
  const ground = readGround(issues, given.ground, enabled ? footLock.enabled[eid] === FOOT_LOCK_GROUND : false);
  const pelvis = ground === false ? FOOT_NO_JOINT : commonAncestor(skeleton.parents, legs);
  if (ground !== false && legs.length > 0 && pelvis === FOOT_NO_JOINT) {
    issues.add('ground', 'needs legs with a common ancestor (the pelvis, lowered when a leg cannot reach the ground)');
  }
  issues.throwIfAny();

  // The same legs as now keep their locks; other legs start free.
  const same = enabled && footLock.legs[eid] === legs.length && legs.every((leg, n) => {
    const r = eid * FOOT_LEGS + n;
    return footLock.upper[r] === leg.upper && footLock.lower[r] === leg.lower && footLock.foot[r] === leg.foot && footLock.key[r] === leg.key;
  });
  const rest = computeRestModel(skeleton.parents, skeleton.rest);
  if (!same) {
    resetFootLock(footLock, eid);
    legs.forEach((leg, n) => {
      const r = eid * FOOT_LEGS + n;
      footLock.upper[r] = leg.upper;
      footLock.lower[r] = leg.lower;
      footLock.foot[r] = leg.foot;
      footLock.detached[r] = leg.detached ? 1 : 0;
      footLock.key[r] = leg.key;
      resetLegState(footLock, r);
      restBend(footLock.bend, r * 3, rest, leg.upper, leg.lower, leg.foot);
    });
    footLock.legs[eid] = legs.length;
  }
  // Planted heights: given, or the feet's rest heights; an omitted `ground` keeps the same legs' heights.
  if (given.ground !== undefined || !same) {
    legs.forEach((leg, n) => {
      footLock.plant[eid * FOOT_LEGS + n] = typeof ground === 'number' ? ground : ground ? rest[leg.foot * MATRIX_STRIDE + MATRIX_T + 1] : 0;
    });
  }
  if (footLock.pelvis[eid] !== pelvis) footLock.drop[eid] = 0;
  footLock.pelvis[eid] = pelvis;
  footLock.weight[eid] = weight;
  footLock.blendTime[eid] = blendTime;
  footLock.easeIn[eid] = easeIn;
  footLock.enabled[eid] = ground === false ? FOOT_LOCK_ON : FOOT_LOCK_GROUND;
  addComponent(world.ecs, eid, footLock);
}

/**
 * Stops character `eid`'s foot locking (its legs and settings go back to the defaults) and removes
 * its `FootLock` bitecs component; the next frame's pose is the animated one.
 * @throws AnimationError when `eid` is not a character, while a `stepParallel` frame runs and
 * after `disposeAnimationWorld`.
 */
export function clearFootLock(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'clearFootLock');
  resetFootLock(world.components.FootLock, eid);
  removeComponent(world.ecs, eid, world.components.FootLock);
}

/** A leg resolved to joint indices and its marker's key. */
interface ResolvedLeg {
  readonly upper: number;
  readonly lower: number;
  readonly foot: number;
  readonly key: number;
  /** The foot is not below lower (an IK foot; see `FootLock.detached`). */
  readonly detached: boolean;
}

/** The humanoid map's two legs, or an AnimationError saying to name the legs. */
function humanoidLegs(skeleton: Skeleton, where: string): ResolvedLeg[] {
  let joints: Record<string, string>;
  try {
    joints = humanoidMap(skeleton).joints as Record<string, string>;
  } catch (error) {
    const reason = error instanceof AnimationError ? error.issues.map((i) => i.message).join('; ') : String(error);
    fail(where, 'legs', `are omitted and the skeleton is not a humanoid (${reason}): name the legs, legs: [{ upper, lower, foot }, …]`);
  }
  return (['left', 'right'] as const).map((side) => {
    const upper = skeleton.names.indexOf(joints[`${side}UpperLeg`]);
    const lower = skeleton.names.indexOf(joints[`${side}LowerLeg`]);
    const foot = skeleton.names.indexOf(joints[`${side}Foot`]);
    const attached = below(skeleton.parents, lower, foot);
    if (upper < 0 || lower < 0 || foot < 0 || !below(skeleton.parents, upper, lower) || (!attached && !isDetached(skeleton.parents, upper, foot))) {
      fail(where, 'legs', `are omitted and the humanoid map's ${side} leg is not a chain of this skeleton: name the legs, legs: [{ upper, lower, foot }, …]`);
    }
    return { upper, lower, foot, key: contactKey(skeleton.names[foot]), detached: !attached };
  });
}

/** `legs` checked and resolved (issues recorded; the result is only used when there are none). */
function readLegs(issues: IssueList, skeleton: Skeleton, legs: unknown): ResolvedLeg[] {
  if (!Array.isArray(legs) || legs.length < 1 || legs.length > FOOT_LEGS) {
    issues.add('legs', `is ${describeValue(legs)}: must be an array of 1 to ${FOOT_LEGS} legs { upper, lower, foot, contact? }`);
    return [];
  }
  const out: ResolvedLeg[] = [];
  const feet = new Set<number>();
  legs.forEach((leg: unknown, n) => {
    const path = `legs[${n}]`;
    if (typeof leg !== 'object' || leg === null || Array.isArray(leg)) {
      issues.add(path, `is ${describeValue(leg)}: must be { upper, lower, foot, contact? }`);
      return;
    }
    const l = leg as Record<string, unknown>;
    for (const key of Object.keys(l)) if (!LEG_FIELDS.has(key)) issues.add(`${path}.${key}`, `is not a field of a leg (${[...LEG_FIELDS].join(', ')})`);
    const upper = resolveJoint(issues, `${path}.upper`, skeleton, l['upper']);
    const lower = resolveJoint(issues, `${path}.lower`, skeleton, l['lower']);
    const foot = resolveJoint(issues, `${path}.foot`, skeleton, l['foot']);
    if (upper >= 0 && lower >= 0 && !below(skeleton.parents, upper, lower)) {
      issues.add(`${path}.lower`, `joint ${jointName(skeleton, lower)} is not below upper ${jointName(skeleton, upper)}: upper → lower → foot must be a parent chain`);
    }
    if (upper >= 0 && lower >= 0 && foot >= 0 && !below(skeleton.parents, lower, foot) && !isDetached(skeleton.parents, upper, foot)) {
      issues.add(`${path}.foot`, `joint ${jointName(skeleton, foot)} is not below lower ${jointName(skeleton, lower)}: upper → lower → foot must be a parent chain (or the foot a joint outside the leg, an IK foot)`);
    }
    if (foot >= 0 && feet.has(foot)) issues.add(`${path}.foot`, `joint ${jointName(skeleton, foot)} is the foot of an earlier leg too`);
    feet.add(foot);
    const contact = l['contact'];
    if (contact !== undefined && (typeof contact !== 'string' || contact === '')) {
      issues.add(`${path}.contact`, `is ${describeValue(contact)}: must be a joint name, as the clips' footDown:<name> events spell it`);
    }
    const marker = typeof contact === 'string' && contact !== '' ? contact : foot >= 0 ? skeleton.names[foot] : '';
    out.push({ upper, lower, foot, key: contactKey(marker), detached: lower >= 0 && foot >= 0 && !below(skeleton.parents, lower, foot) });
  });
  // Legs are separate branches: footLockSystem corrects each without recomposing the others.
  const parents = skeleton.parents;
  out.forEach((leg, j) => {
    for (let i = 0; i < j; i++) {
      const other = out[i];
      if (leg.upper < 0 || other.upper < 0) continue;
      if (leg.upper === other.upper || below(parents, other.upper, leg.upper) || below(parents, leg.upper, other.upper)) {
        issues.add(`legs[${j}].upper`, `joint ${jointName(skeleton, leg.upper)} and legs[${i}]'s upper ${jointName(skeleton, other.upper)} lie on one branch: each leg must be a separate branch`);
      }
    }
    if (leg.detached) {
      out.forEach((other, i) => {
        if (other.upper >= 0 && below(parents, other.upper, leg.foot)) issues.add(`legs[${j}].foot`, `joint ${jointName(skeleton, leg.foot)} lies in legs[${i}]'s leg`);
      });
    }
  });
  return out;
}

/**
 * Whether `foot` lies outside the leg of `upper`: neither below it nor one of its ancestors (an
 * IK foot bone under the root). Such a foot is moved itself (`FootLock.detached`).
 */
function isDetached(parents: Int16Array, upper: number, foot: number): boolean {
  return foot !== upper && !below(parents, upper, foot) && !below(parents, foot, upper);
}

/** Whether `joint` lies strictly below `ancestor` in the hierarchy. */
function below(parents: Int16Array, ancestor: number, joint: number): boolean {
  if (joint === ancestor) return false;
  for (let j = joint; j !== NO_PARENT; j = parents[j]) if (j === ancestor) return true;
  return false;
}

function jointName(skeleton: Skeleton, joint: number): string {
  return `"${skeleton.names[joint]}" (${joint})`;
}

/** The legs' nearest common ancestor (a joint above every leg's upper), or `FOOT_NO_JOINT`. */
function commonAncestor(parents: Int16Array, legs: readonly ResolvedLeg[]): number {
  if (legs.length === 0 || legs.some((leg) => leg.upper < 0)) return FOOT_NO_JOINT;
  for (let j = parents[legs[0].upper]; j !== NO_PARENT; j = parents[j]) {
    if (legs.every((leg) => below(parents, j, leg.upper))) return j;
  }
  return FOOT_NO_JOINT;
}

/** The largest |ground| accepted, metres. */
const MAX_GROUND = 100;

/** `ground`: false, true or a height in metres (`fallback` when omitted); records an issue otherwise. */
function readGround(issues: IssueList, value: unknown, fallback: boolean): boolean | number {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (!isFiniteNumber(value) || Math.abs(value) > MAX_GROUND) {
    issues.add('ground', `is ${describeValue(value)}: must be true, false or a foot height in metres within ±${MAX_GROUND}`);
    return fallback;
  }
  return value;
}

/** A number in [0, max] (`fallback` when omitted); records an issue otherwise. */
function readRanged(issues: IssueList, field: string, value: unknown, fallback: number, max: number, unit: string): number {
  if (value === undefined) return fallback;
  if (!isFiniteNumber(value) || value < 0 || value > max) {
    issues.add(field, `is ${describeValue(value)}: must be a finite number in [0, ${max}]${unit}`);
    return fallback;
  }
  return value;
}

/**
 * The knee's bend direction at rest (model space, unit: the part of knee − hip across the
 * hip → foot line), written to `out[o ..]`; a straight rest leg keeps the default (+Z, forward).
 */
function restBend(out: Float32Array, o: number, rest: Float64Array | Float32Array, upper: number, lower: number, foot: number): void {
  const at = (joint: number, c: number): number => rest[joint * MATRIX_STRIDE + MATRIX_T + c];
  const axis = [0, 1, 2].map((c) => at(foot, c) - at(upper, c));
  const knee = [0, 1, 2].map((c) => at(lower, c) - at(upper, c));
  const length2 = axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2];
  if (!(length2 > 0)) return;
  const along = (knee[0] * axis[0] + knee[1] * axis[1] + knee[2] * axis[2]) / length2;
  const b = [0, 1, 2].map((c) => knee[c] - axis[c] * along);
  const length = Math.hypot(b[0], b[1], b[2]);
  if (!(length > 1e-4 * Math.hypot(knee[0], knee[1], knee[2]))) return;
  for (let c = 0; c < 3; c++) out[o + c] = b[c] / length;
}
