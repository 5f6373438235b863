import { MATRIX_STRIDE, MATRIX_T, NO_PARENT } from '../../math/layout.js';
import { AnimationError, fail, type AnimationIssue } from '../AnimationError.js';
import { describeValue } from '../limits.js';
import { computeRestModel, isSkeleton, type Skeleton } from '../Skeleton.js';
import { nameWords, namesPart, readName, type NamedPart, type NameInfo } from './names.js';
import { HUMANOID_JOINTS, REQUIRED_HUMANOID_JOINTS, type HumanoidJoint, type HumanoidMap } from './types.js';

/** A humanoid's hips → head stands within this angle of +Y in the rest pose (45°). */
const UPRIGHT_COS = Math.SQRT1_2;
/** A foot lies below its upper leg by at least this fraction of the hips → head distance. */
const LEG_DROP = 0.25;
/** A foot outside the leg's chain lies within this angle of straight down from the lower leg (45°). */
const DETACHED_FOOT_COS = Math.SQRT1_2;
/** … and at most this many upper-leg lengths from the lower leg joint. */
const DETACHED_FOOT_REACH = 2;

/** Maps found (or the faults found), per skeleton: skeletons are immutable. */
const found = new WeakMap<Skeleton, HumanoidMap | readonly AnimationIssue[]>();

/**
 * The humanoid joints of a skeleton (VRM's humanoid bones without fingers and eyes, see
 * {@link HUMANOID_JOINTS}): which of its joints is the hips, the spine, each arm's and leg's
 * joints, the neck and the head. `bindSkeletons(…, { joints: 'humanoid' })` pairs two skeletons
 * through these maps, so a CMU capture plays on RobotExpressive or a Mixamo character.
 *
 * Names find the ends of the limbs, topology and the rest pose (model space, +Y up) the rest
 * (docs/retargeting.md, "Joint maps"):
 * 1. **Names** are read case-, separator- and namespace-insensitively (`mixamorig:LeftHand`,
 *    `hand_l`, `Hand.L`, `L_Hand`, `leftHand`, CMU's `lhand`, `DEF-hand.L`). They give the head
 *    (`head`), the hands (`hand`, `wrist`, `palm`), the feet (`foot`, `ankle`), the toes (`toe`,
 *    `toes`, `toebase`, `ball`) and each one's side (`left right l r` as a word, first or
 *    last). Helper joints (twist, roll, IK, pole, target, end sites, fingers, face) take no
 *    part. Of several joints named alike on one side the one nearest the root is taken, then
 *    the one holding the middle finger (RobotExpressive's `Palm2.L` of `Palm1..3.L`), then the
 *    first.
 * 2. **Arms**: the lower arm is the hand's parent, the upper arm the lower arm's parent (helper
 *    joints skipped), whatever their names (CMU's `LeftShoulder` is an upper arm, Mixamo's a
 *    clavicle). The shoulder is a joint between the upper arm and the spine (the one named
 *    `shoulder`, `clavicle` or `collar`, else the one on the spine); none there, none mapped.
 * 3. **Legs**: likewise the lower leg is the foot's parent and the upper leg its parent. A foot
 *    with fewer than two joints above it before the spine (RobotExpressive's IK feet `Foot.L/R`,
 *    children of the root) is still the foot when a joint of its side named as a lower leg
 *    (`lowerleg`, `calf`, `shin`, `knee`, `leg`) lies above it: the foot within 45° of straight
 *    down from that joint and at most two upper-leg lengths away (the Robot's: 0.93 m, 19°,
 *    1.5 lengths). That joint is the lower leg, its parent the upper leg.
 * 4. **Hips**: the joint nearest the head whose subtree holds both upper legs and the head —
 *    topology wins over a name (RobotExpressive: `Body`, not `Hips`, which holds only the spine
 *    and is mapped as the spine).
 * 5. **Spine**: the joints from the hips to the joint the arms branch from (inclusive), n of
 *    them: 1 → spine; 2 → spine, chest; 3 or more → spine (the first), chest (the middle one,
 *    the lower of two), upperChest (the last); others stay unmapped. The first joint after the
 *    arms' branch is the neck (CMU's `lowerneck`, the base of the neck); the head's other
 *    ancestors stay unmapped.
 * 6. **Sides**: names decide. A hand or foot whose name gives no side takes the side it lies
 *    on, from the head's vertical: the side the named pair of the other limbs gives, else left
 *    of the way the toes point, else +X (a figure facing +Z, glTF's convention). The left hand
 *    and the left foot must lie on the same side of the body (facing does not matter).
 * 7. **Refusals**: a skeleton with no upright hips → head (within 45° of +Y), no head, hands or
 *    feet, arms or legs of fewer than two joints, arms not on the spine, or feet not below the
 *    hips is not a humanoid (the Fox, a quadruped, stands its spine 74° from +Y).
 *
 * Maps are computed once per skeleton and cached.
 *
 * @throws AnimationError when `skeleton` is not a Skeleton, or is not a humanoid: the message
 * names what was not found or what does not fit.
 * @example
 * const map = humanoidMap(robot);
 * map.joints.hips;        // 'Body'
 * map.joints.leftFoot;    // 'Foot.L'
 * map.missing;            // ['leftToes', 'rightToes']: the optional joints it lacks
 */
export function humanoidMap(skeleton: Skeleton): HumanoidMap {
  if (!isSkeleton(skeleton)) fail('humanoidMap', 'skeleton', `is ${describeValue(skeleton)}: must be a Skeleton from createSkeleton`);
  let result = found.get(skeleton);
  if (result === undefined) {
    result = findHumanoid(skeleton);
    found.set(skeleton, result);
  }
  if (isIssues(result)) throw new AnimationError('humanoidMap', result);
  return result;
}

function isIssues(v: HumanoidMap | readonly AnimationIssue[]): v is readonly AnimationIssue[] {
  return Array.isArray(v);
}

type Side = 'left' | 'right';
const SIDES: readonly Side[] = ['left', 'right'];

/** The humanoid joints of `skeleton`, or why it is not a humanoid. */
function findHumanoid(skeleton: Skeleton): HumanoidMap | readonly AnimationIssue[] {
  const { names, parents, jointCount } = skeleton;
  const model = computeRestModel(parents, skeleton.rest);
  const info: NameInfo[] = names.map(readName);
  const where = `skeleton (root "${names[0]}", ${jointCount} joints)`;
  const issues: AnimationIssue[] = [];
  const refuse = (message: string): void => { issues.push({ path: where, message: `is not a humanoid: ${message}` }); };
  const x = (j: number): number => model[j * MATRIX_STRIDE + MATRIX_T];
  const y = (j: number): number => model[j * MATRIX_STRIDE + MATRIX_T + 1];
  const z = (j: number): number => model[j * MATRIX_STRIDE + MATRIX_T + 2];
  const isAncestor = (a: number, b: number): boolean => {
    for (let j = parents[b]; j !== NO_PARENT; j = parents[j]) if (j === a) return true;
    return false;
  };
  const named = (part: NamedPart): number[] => {
    const list: number[] = [];
    for (let j = 0; j < jointCount; j++) if (namesPart(info[j], part)) list.push(j);
    return list;
  };
  const quote = (j: number): string => `"${names[j]}"`;
  const children: number[][] = names.map(() => []);
  for (let j = 0; j < jointCount; j++) if (parents[j] !== NO_PARENT) children[parents[j]].push(j);

  // 1. The head, and the path from the root to it (the spine runs along it).
  const heads = named('head').filter((j) => info[j].side === null);
  if (heads.length === 0) {
    refuse('no joint is named as the head (head, without a side)');
    return issues;
  }
  const head = pickEnd(heads, isAncestor, () => false);
  const onHeadPath = new Uint8Array(jointCount);
  for (let j = parents[head]; j !== NO_PARENT; j = parents[j]) onHeadPath[j] = 1;

  /** The joints from `j`'s parent up to the head's path (excluded), helpers skipped; and where they meet it. */
  const limbAbove = (j: number): { joints: number[]; attach: number } => {
    const joints: number[] = [];
    let p = parents[j];
    for (; p !== NO_PARENT && onHeadPath[p] === 0; p = parents[p]) if (!info[p].helper) joints.push(p);
    return { joints, attach: p };
  };
  const offHead = (j: number): boolean => j !== head && onHeadPath[j] === 0 && !isAncestor(head, j);

  // 2. Hands and feet by name, each side; names without a side placed by geometry (rule 6),
  // on the sides no name claims.
  const ends = { hand: sided(named('hand').filter(offHead)), foot: sided(named('foot').filter(offHead)) };
  const lateral = lateralAxis();
  for (const part of ['hand', 'foot'] as const) {
    const { left, right, none } = ends[part];
    const open = { left: left.length === 0, right: right.length === 0 };
    for (const j of none) {
      const d = (x(j) - x(head)) * lateral[0] + (z(j) - z(head)) * lateral[1];
      if (d > 0 && open.left) left.push(j);
      else if (d < 0 && open.right) right.push(j);
    }
  }
  const inChain = (j: number): boolean => limbAbove(j).joints.length >= 2;
  const map: Partial<Record<HumanoidJoint, number>> = { head };

  // 3. Arms.
  const attach: Partial<Record<Side, number>> = {};
  for (const side of SIDES) {
    const list = ends.hand[side];
    if (list.length === 0) {
      refuse(`no joint is named as the ${side} hand (hand, wrist, palm with a side: Left…, …_L, .L, L_…)`);
      continue;
    }
    const hand = pickEnd(list, isAncestor, (j) => holdsMiddleFinger(j));
    const arm = limbAbove(hand);
    if (arm.joints.length < 2) {
      refuse(`the ${side} hand ${quote(hand)} hangs from ${arm.attach < 0 ? 'no joint of the head\'s path' : quote(arm.attach)} through ${arm.joints.length} joint(s): an arm needs an upper and a lower arm`);
      continue;
    }
    map[`${side}Hand`] = hand;
    map[`${side}LowerArm`] = arm.joints[0];
    map[`${side}UpperArm`] = arm.joints[1];
    const between = arm.joints.slice(2);
    if (between.length > 0) map[`${side}Shoulder`] = between.find((j) => namesPart(info[j], 'shoulder')) ?? between[between.length - 1];
    attach[side] = arm.attach;
  }

  // 4. Legs.
  for (const side of SIDES) {
    const list = ends.foot[side];
    if (list.length === 0) {
      refuse(`no joint is named as the ${side} foot (foot, ankle with a side: Left…, …_L, .L, L_…)`);
      continue;
    }
    const chained = list.filter(inChain);
    const foot = pickEnd(chained.length > 0 ? chained : list, isAncestor, () => false);
    let lower = -1, upper = -1;
    const leg = limbAbove(foot);
    if (leg.joints.length >= 2) {
      lower = leg.joints[0];
      upper = leg.joints[1];
    } else {
      lower = detachedFootLeg(foot, side);
      if (lower < 0) continue;
      upper = limbAbove(lower).joints[0];
    }
    map[`${side}Foot`] = foot;
    map[`${side}LowerLeg`] = lower;
    map[`${side}UpperLeg`] = upper;
    const toes = nearestDescendant(foot, (j) => namesPart(info[j], 'toes'));
    if (toes >= 0) map[`${side}Toes`] = toes;
  }
  if (issues.length > 0) return issues;

  // 5. Hips: the lowest common ancestor of both upper legs and the head.
  const upperL = map.leftUpperLeg!, upperR = map.rightUpperLeg!;
  let hips = -1;
  for (let j = parents[upperL]; j !== NO_PARENT; j = parents[j]) {
    if (isAncestor(j, upperR) && (onHeadPath[j] === 1)) {
      hips = j;
      break;
    }
  }
  if (hips < 0) {
    refuse(`no joint holds both upper legs (${quote(upperL)}, ${quote(upperR)}) and the head ${quote(head)}: they hang from different roots`);
    return issues;
  }
  map.hips = hips;

  // 6. Spine and neck: the head's path above the hips, cut where the arms branch.
  const path: number[] = [];
  for (let j = parents[head]; j !== hips; j = parents[j]) if (!info[j].helper) path.unshift(j);
  const branchL = path.indexOf(attach.left!), branchR = path.indexOf(attach.right!);
  if (branchL < 0 || branchR < 0) {
    const low = branchL < 0 ? attach.left! : attach.right!;
    refuse(`the ${branchL < 0 ? 'left' : 'right'} arm hangs from ${quote(low)}, not from the spine between the hips ${quote(hips)} and the head`);
    return issues;
  }
  let spine = path.slice(0, Math.max(branchL, branchR) + 1);
  const neck = path.slice(spine.length);
  if (neck.length === 0 && spine.length >= 2 && namesPart(info[spine[spine.length - 1]], 'neck')) {
    neck.push(spine[spine.length - 1]);
    spine = spine.slice(0, -1);
  }
  map.spine = spine[0];
  if (spine.length === 2) map.chest = spine[1];
  if (spine.length >= 3) {
    map.chest = spine[Math.ceil(spine.length / 2) - 1];
    map.upperChest = spine[spine.length - 1];
  }
  if (neck.length > 0) map.neck = neck[0];

  // 7. The figure: upright spine, feet below the hips, left limbs on one side.
  const up = [x(head) - x(hips), y(head) - y(hips), z(head) - z(hips)];
  const height = Math.hypot(up[0], up[1], up[2]);
  if (!(height > 0) || up[1] / height < UPRIGHT_COS) {
    const angle = height > 0 ? Math.round(Math.acos(Math.max(-1, Math.min(1, up[1] / height))) * 180 / Math.PI) : 90;
    refuse(`its spine does not stand: from the hips ${quote(hips)} to the head ${quote(head)} the rest pose leans ${angle}° from +Y (a humanoid's within 45°; found by name: hands ${quote(map.leftHand!)}, ${quote(map.rightHand!)}, feet ${quote(map.leftFoot!)}, ${quote(map.rightFoot!)})`);
  }
  for (const side of SIDES) {
    const foot = map[`${side}Foot`] as number, upper = map[`${side}UpperLeg`] as number;
    if (!(y(upper) - y(foot) >= LEG_DROP * height)) {
      refuse(`the ${side} foot ${quote(foot)} is not below its upper leg ${quote(upper)} by a quarter of the hips-to-head distance (${fmt(y(upper) - y(foot))} of ${fmt(LEG_DROP * height)})`);
    }
  }
  const hands = [x(map.leftHand!) - x(map.rightHand!), z(map.leftHand!) - z(map.rightHand!)];
  const feet = [x(map.leftFoot!) - x(map.rightFoot!), z(map.leftFoot!) - z(map.rightFoot!)];
  if (hands[0] * feet[0] + hands[1] * feet[1] < 0) {
    refuse(`its sides disagree: the left hand ${quote(map.leftHand!)} lies on the side of the right foot ${quote(map.rightFoot!)}`);
  }
  const taken = new Map<number, HumanoidJoint>();
  for (const joint of HUMANOID_JOINTS) {
    const j = map[joint];
    if (j === undefined) continue;
    const other = taken.get(j);
    if (other !== undefined) refuse(`${quote(j)} would be both ${other} and ${joint}`);
    taken.set(j, joint);
  }
  if (issues.length > 0) return issues;

  const joints: Partial<Record<HumanoidJoint, string>> = {};
  const missing: HumanoidJoint[] = [];
  for (const joint of HUMANOID_JOINTS) {
    const j = map[joint];
    if (j !== undefined) joints[joint] = names[j];
    else if (!REQUIRED_HUMANOID_JOINTS.includes(joint)) missing.push(joint);
  }
  return Object.freeze({ joints: Object.freeze(joints), missing: Object.freeze(missing) });

  /** Joints split by the side their names give. */
  function sided(list: number[]): Record<Side | 'none', number[]> {
    return {
      left: list.filter((j) => info[j].side === 'left'),
      right: list.filter((j) => info[j].side === 'right'),
      none: list.filter((j) => info[j].side === null),
    };
  }

  /**
   * The horizontal (x, z) direction of the figure's left (rule 6): from the right to the left
   * foot (or hand) when names give both, else up × the way the toes point, else +X.
   */
  function lateralAxis(): [number, number] {
    for (const part of ['foot', 'hand'] as const) {
      const s = ends[part];
      if (s.left.length > 0 && s.right.length > 0) {
        const l = pickEnd(s.left, isAncestor, () => false), r = pickEnd(s.right, isAncestor, () => false);
        const dx = x(l) - x(r), dz = z(l) - z(r);
        if (dx !== 0 || dz !== 0) return [dx, dz];
      }
    }
    let fx = 0, fz = 0;
    for (const t of named('toes')) {
      for (let f = parents[t]; f !== NO_PARENT; f = parents[f]) {
        if (namesPart(info[f], 'foot')) {
          fx += x(t) - x(f);
          fz += z(t) - z(f);
          break;
        }
      }
    }
    // up × forward, with up = +Y: (fz, −fx).
    return fx !== 0 || fz !== 0 ? [fz, -fx] : [1, 0];
  }

  function holdsMiddleFinger(j: number): boolean {
    return nearestDescendant(j, (d) => nameWords(names[d]).includes('middle')) >= 0;
  }

  /** The nearest descendant of `j` (breadth first, then index) that passes `test`, or −1. */
  function nearestDescendant(j: number, test: (d: number) => boolean): number {
    let level = [j];
    while (level.length > 0) {
      const next = level.flatMap((p) => children[p]);
      const hit = next.find(test);
      if (hit !== undefined) return hit;
      level = next;
    }
    return -1;
  }

  /**
   * The lower leg of a foot outside the leg's chain (rule 3), or −1 (and the fault recorded):
   * the joint of the foot's side named as a lower leg, with a joint above it off the head's path,
   * that has the foot within 45° of straight down and two upper-leg lengths; the nearest such.
   */
  function detachedFootLeg(foot: number, side: Side): number {
    let best = -1, bestDistance = Infinity;
    const tried: string[] = [];
    for (const j of named('lowerLeg')) {
      if (!offHead(j) || (info[j].side !== side && info[j].side !== null) || isAncestor(j, foot) || isAncestor(foot, j)) continue;
      const above = limbAbove(j);
      if (above.joints.length < 1) continue;
      const upper = above.joints[0];
      const dx = x(foot) - x(j), dy = y(foot) - y(j), dz = z(foot) - z(j);
      const distance = Math.hypot(dx, dy, dz);
      const length = Math.hypot(x(j) - x(upper), y(j) - y(upper), z(j) - z(upper));
      const fits = distance > 0 && -dy / distance >= DETACHED_FOOT_COS && distance <= DETACHED_FOOT_REACH * length;
      tried.push(`${quote(j)} (${fmt(distance)} away, ${distance > 0 ? Math.round(Math.acos(Math.max(-1, Math.min(1, -dy / distance))) * 180 / Math.PI) : 0}° from down, upper leg ${fmt(length)})`);
      if (fits && distance < bestDistance) {
        best = j;
        bestDistance = distance;
      }
    }
    if (best < 0) {
      refuse(`the ${side} foot ${quote(foot)} is not in a leg's chain (it hangs from ${parents[foot] < 0 ? 'no joint' : quote(parents[foot])}) and no ${side} lower leg has it at its end (within 45° of straight down, two upper-leg lengths)${tried.length > 0 ? `: tried ${tried.join(', ')}` : ': no joint is named as one (lowerleg, calf, shin, knee, leg)'}`);
    }
    return best;
  }
}

/**
 * The one of several joints named alike to take (rule 1): those with no other candidate above
 * them, then those `prefer` holds, then the lowest index.
 */
function pickEnd(list: readonly number[], isAncestor: (a: number, b: number) => boolean, prefer: (j: number) => boolean): number {
  const top = list.filter((j) => !list.some((k) => k !== j && isAncestor(k, j)));
  return top.find(prefer) ?? top[0];
}

/** A length for a message: 3 significant digits, no exponent for a rounding error's −8e-19. */
function fmt(v: number): string {
  return `${Math.abs(v) < 5e-4 ? 0 : Number(v.toPrecision(3))}`;
}

export { HUMANOID_JOINTS, type HumanoidJoint, type HumanoidMap } from './types.js';
