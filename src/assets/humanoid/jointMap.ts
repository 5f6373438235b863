/**
 * Which source joint each target joint reads: the joint map a binding is built on
 * (docs/retargeting.md, "Joint maps"). `bindSkeletons` calls {@link resolveJointMap} with its
 * `joints` option.
 */
import { NO_PARENT } from '../../math/layout.js';
import { AnimationError, fail, type AnimationIssue } from '../AnimationError.js';
import { describeValue } from '../limits.js';
import { isSkeleton, type Skeleton } from '../Skeleton.js';
import { humanoidMap } from './humanoidMap.js';
import { HUMANOID_JOINTS, type HumanoidJoint, type HumanoidMap } from './types.js';

/**
 * How a binding pairs joints:
 * - `'names'`: a target joint reads the source joint of the same name (exact, case-sensitive);
 * - `'humanoid'`: a target joint reads the source joint that {@link humanoidMap} finds for the
 *   same humanoid joint; only the humanoid joints both skeletons have are paired;
 * - `'auto'`: `'names'` when most joints match by name — more than half of the smaller
 *   skeleton's joints have a namesake in the other — else `'humanoid'`;
 * - a record: target joint name → source joint name, the whole map (joints it leaves out keep
 *   their rest pose), as `translation` maps target names.
 */
export type JointsOption = 'names' | 'humanoid' | 'auto' | Readonly<Record<string, string>>;

/** One pair of a joint map (`Binding.pairs`): the target joint and the source joint it reads. */
export interface JointPair {
  /** The target joint's name. */
  readonly target: string;
  /** The source joint's name. */
  readonly source: string;
  /** The humanoid joint both are, under the `'humanoid'` rule. */
  readonly humanoid?: HumanoidJoint;
}

/** The joint map of a source skeleton onto a target skeleton (see {@link resolveJointMap}). */
export interface JointMap {
  /** For each target joint, the source joint it reads, or −1 (it keeps its rest pose); a new array per call. */
  readonly sourceJoint: Int16Array;
  /** The pairs, in target joint order. */
  readonly pairs: readonly JointPair[];
  /** The rule that made the map: `'auto'` resolves to `'names'` or `'humanoid'`; a record is `'map'`. */
  readonly rule: 'names' | 'humanoid' | 'map';
}

const OPTION_TEXT = "it must be 'auto', 'names', 'humanoid' or a map of target joint names to source joint names";

/**
 * The joint map of `source` onto `target` under `joints` (default `'names'`): for each target
 * joint the source joint it reads, the pairs in target joint order, and the rule used.
 *
 * `'auto'` takes names when more than half of the smaller skeleton's joints match by name (a
 * clip on its own rig, or a rig that differs by a few joints), else the humanoid maps of both.
 *
 * @param where The call named in errors (default `bindSkeletons`).
 * @throws AnimationError (path `joints`) for an option that is none of the above; for
 * `'humanoid'`, a skeleton that is not a humanoid (which one, and why); for `'auto'`, skeletons
 * that share too few names when one is not a humanoid; for a record, target or source names
 * that name no joint, values that are not strings, and pairs that break the hierarchy (a
 * target joint above another whose source joint lies below the other's source joint).
 * @example
 * resolveJointMap(cmuWalk.skeleton, robot, 'humanoid').pairs;
 * // [{ target: 'Body', source: 'Hips', humanoid: 'hips' }, { target: 'Foot.L', source: 'LeftAnkle', humanoid: 'leftFoot' }, …]
 */
export function resolveJointMap(source: Skeleton, target: Skeleton, joints: JointsOption = 'names', where = 'bindSkeletons'): JointMap {
  if (!isSkeleton(source)) fail(where, 'source', `is ${describeValue(source)}: must be a Skeleton from createSkeleton`);
  if (!isSkeleton(target)) fail(where, 'target', `is ${describeValue(target)}: must be a Skeleton from createSkeleton`);
  if (joints === 'names') return byNames(source, target);
  if (joints === 'humanoid') return byHumanoid(source, target, where, 'joints (\'humanoid\')');
  if (joints === 'auto') {
    const names = byNames(source, target);
    const smaller = Math.min(source.jointCount, target.jointCount);
    if (names.pairs.length * 2 > smaller) return names;
    const refusals = [tryHumanoid(source, 'source'), tryHumanoid(target, 'target')].filter((r) => r !== null);
    if (refusals.length === 0) return byHumanoid(source, target, where, 'joints (\'auto\')');
    const shared = names.pairs.length === 0 ? 'share no joint names' : `share ${names.pairs.length} joint name(s), not more than half of the smaller skeleton's ${smaller}`;
    throw new AnimationError(where, refusals.map((r) => ({ path: 'joints (\'auto\')', message: `cannot pair the skeletons: they ${shared}, and the ${r!.which} ${r!.text}` })));
  }
  if (typeof joints !== 'object' || joints === null || Array.isArray(joints)) {
    fail(where, 'joints', `is ${typeof joints === 'string' ? `'${joints}'` : describeValue(joints)}: ${OPTION_TEXT}`);
  }
  return byRecord(source, target, joints, where);
}

function byNames(source: Skeleton, target: Skeleton): JointMap {
  const index = new Map(source.names.map((name, joint) => [name, joint]));
  const sourceJoint = new Int16Array(target.jointCount).fill(-1);
  const pairs: JointPair[] = [];
  target.names.forEach((name, joint) => {
    const found = index.get(name);
    if (found === undefined) return;
    sourceJoint[joint] = found;
    pairs.push(Object.freeze({ target: name, source: name }));
  });
  return Object.freeze({ sourceJoint, pairs: Object.freeze(pairs), rule: 'names' as const });
}

/** The humanoid map of `skeleton`, or null; for the refusal, which skeleton and the reason. */
function tryHumanoid(skeleton: Skeleton, which: 'source' | 'target'): { which: string; text: string } | null {
  try {
    humanoidMap(skeleton);
    return null;
  } catch (error) {
    if (!(error instanceof AnimationError)) throw error;
    return { which, text: error.issues.map((i) => `${i.path} ${i.message}`).join('; ') };
  }
}

function byHumanoid(source: Skeleton, target: Skeleton, where: string, field: string): JointMap {
  const maps: HumanoidMap[] = [];
  const issues: AnimationIssue[] = [];
  for (const [skeleton, which] of [[source, 'source'], [target, 'target']] as const) {
    try {
      maps.push(humanoidMap(skeleton));
    } catch (error) {
      if (!(error instanceof AnimationError)) throw error;
      for (const i of error.issues) issues.push({ path: field, message: `the ${which} ${i.path} ${i.message}` });
    }
  }
  if (issues.length > 0) throw new AnimationError(where, issues);
  const [from, to] = maps;
  const sourceJoint = new Int16Array(target.jointCount).fill(-1);
  const humanoidOf = new Map<number, HumanoidJoint>();
  for (const joint of HUMANOID_JOINTS) {
    const t = to.joints[joint], s = from.joints[joint];
    if (t === undefined || s === undefined) continue;
    const tj = target.names.indexOf(t);
    sourceJoint[tj] = source.names.indexOf(s);
    humanoidOf.set(tj, joint);
  }
  const pairs: JointPair[] = [];
  for (let joint = 0; joint < target.jointCount; joint++) {
    const humanoid = humanoidOf.get(joint);
    if (humanoid !== undefined) pairs.push(Object.freeze({ target: target.names[joint], source: source.names[sourceJoint[joint]], humanoid }));
  }
  return Object.freeze({ sourceJoint, pairs: Object.freeze(pairs), rule: 'humanoid' as const });
}

function byRecord(source: Skeleton, target: Skeleton, record: Readonly<Record<string, string>>, where: string): JointMap {
  const issues: AnimationIssue[] = [];
  const sourceJoint = new Int16Array(target.jointCount).fill(-1);
  for (const [name, value] of Object.entries(record)) {
    const path = `joints["${name}"]`;
    const tj = target.names.indexOf(name);
    if (tj < 0) issues.push({ path, message: 'names no joint of the target skeleton' });
    if (typeof value !== 'string') {
      issues.push({ path, message: `is ${describeValue(value)}: it must be the name of a source joint` });
      continue;
    }
    const sj = source.names.indexOf(value);
    if (sj < 0) issues.push({ path, message: `is "${value}", which names no joint of the source skeleton` });
    if (tj >= 0 && sj >= 0) sourceJoint[tj] = sj;
  }
  // A target joint above another must not read a source joint below the other's.
  for (let b = 0; b < target.jointCount; b++) {
    const sb = sourceJoint[b];
    if (sb < 0) continue;
    for (let a = target.parents[b]; a !== NO_PARENT; a = target.parents[a]) {
      const sa = sourceJoint[a];
      if (sa >= 0 && sa !== sb && isAncestor(source.parents, sb, sa)) {
        issues.push({
          path: `joints["${target.names[a]}"], joints["${target.names[b]}"]`,
          message: `break the hierarchy: target "${target.names[a]}" is above "${target.names[b]}", but its source "${source.names[sa]}" is below "${source.names[sb]}"`,
        });
      }
    }
  }
  if (issues.length > 0) throw new AnimationError(where, issues);
  const pairs: JointPair[] = [];
  for (let joint = 0; joint < target.jointCount; joint++) {
    if (sourceJoint[joint] >= 0) pairs.push(Object.freeze({ target: target.names[joint], source: source.names[sourceJoint[joint]] }));
  }
  return Object.freeze({ sourceJoint, pairs: Object.freeze(pairs), rule: 'map' as const });
}

/** Whether `a` is a proper ancestor of `b` in `parents`. */
function isAncestor(parents: Int16Array, a: number, b: number): boolean {
  for (let j = parents[b]; j !== NO_PARENT; j = parents[j]) if (j === a) return true;
  return false;
}
