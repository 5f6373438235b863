import * as affine from '../math/affine.js';
import { composeModel } from '../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T, NO_PARENT, POSE_STRIDE } from '../math/layout.js';
import { fail, IssueList } from './AnimationError.js';
import { describeValue, shownNumber, shownString } from './limits.js';
import { copyValidatedPose, FLUSH_TO_ZERO_BELOW, QUATERNION_TOLERANCE, type NumberList } from './validatePose.js';

/**
 * An immutable joint hierarchy, shared by every character and clip that uses it.
 *
 * Joints are ordered parents first (`parents[j] < j`), so one forward pass computes model
 * space. Units are metres and radians; +Y up.
 */
export interface Skeleton {
  /** Joint names, unique; index = joint id. */
  readonly names: readonly string[];
  /** Parent of each joint, `NO_PARENT` (−1) for a root; always lower than the joint's index. */
  readonly parents: Int16Array;
  /** Rest (bind) pose, `jointCount × 10` floats `tx ty tz qx qy qz qw sx sy sz`, local space. */
  readonly rest: Float32Array;
  /** Inverse bind matrices, `jointCount × 12` floats, column-major 3×4. */
  readonly inverseBind: Float32Array;
  /** Number of joints. */
  readonly jointCount: number;
  /** The hip (pelvis) joint used by root motion, or −1 when the skeleton has none. */
  readonly hipJoint: number;
  /** Model-space height (y) of the hip joint in the rest pose; 0 without a hip joint. */
  readonly hipHeight: number;
  /**
   * Sockets: named points fixed to joints (a prop's grip, a muzzle, a camera mount), each a
   * joint and an offset in that joint's space. Empty unless given (`loadGltf` reads the glTF
   * nodes under joints that carry no mesh). Their world matrix is
   * `getJointWorldMatrix(world, eid, a.joint) × a.offset`.
   */
  readonly attachments: readonly {
    /** Unique among the skeleton's attachments. */
    readonly name: string;
    /** The joint it moves with. */
    readonly joint: number;
    /** Its transform in the joint's space, 3×4 column-major (12 floats), as the palette. */
    readonly offset: Float32Array;
  }[];
  /**
   * The float curves (metachannels) characters of this skeleton carry, in the order
   * `curveIndex(skeleton, name)` gives, each with the value it holds where no clip sets it.
   * Empty unless given (`loadGltf` lists the morph-target weights of the meshes bound to it).
   */
  readonly curves: readonly {
    /** Unique among the skeleton's curves (glTF morph weights: `<mesh>.<target>`). */
    readonly name: string;
    /** The value where no clip sets the curve (glTF: the mesh's default `weights`). */
    readonly default: number;
  }[];
}

/** Input of {@link createSkeleton}. Arrays are copied; the caller keeps ownership. */
export interface SkeletonDesc {
  /** Joint names, unique. */
  names: readonly string[];
  /** Parent index per joint, −1 for roots; every parent must come before its children. */
  parents: NumberList;
  /** Rest pose, `jointCount × 10` floats (local SQT). Quaternions are normalized. */
  rest: NumberList;
  /**
   * Inverse bind matrices, `jointCount × 12` floats (column-major 3×4). When omitted they are
   * computed from the rest pose, which is right for skeletons authored in their bind pose.
   */
  inverseBind?: NumberList;
  /**
   * The hip joint, by index or name. Default (`findHipJoint`):
   * 1. the first joint named "hip", "hips" or "pelvis" as a whole word, without a side marker
   *    (case-insensitive: `Hips`, `b_Hip_01`, `mixamorig:Hips`; not `LeftHip`, `pelvis.L`);
   * 2. else the joint where the legs branch: the joint closest to the root with two or more
   *    children whose subtrees reach below it, in the rest pose, by at least a tenth of the
   *    skeleton's rest height (CesiumMan's `Skeleton_torso_joint_1`);
   * 3. else the first child of the root, else −1.
   */
  hipJoint?: number | string;
  /** Accepted |q| − 1 before a rest quaternion is refused: a number in [0, 1) (default 0.01). */
  quaternionTolerance?: number;
  /** Sockets on joints (see {@link Skeleton.attachments}); default none. */
  attachments?: readonly {
    /** A non-empty name, unique among the attachments. */
    name: string;
    /** The joint, by index or name. */
    joint: number | string;
    /**
     * Its transform in the joint's space: 12 floats (3×4 column-major) or 10 floats
     * (`tx ty tz qx qy qz qw sx sy sz`, the quaternion unit within the tolerance). Default: the
     * identity (the joint itself).
     */
    offset?: NumberList;
  }[];
  /** Float curves, names unique, defaults finite (default 0); see {@link Skeleton.curves}. Default none. */
  curves?: readonly { name: string; default?: number }[];
}

/**
 * The quaternion tolerance of a desc (`quaternionTolerance`), checked: a finite number in
 * [0, 1), or the default when omitted. NaN would switch the unit-quaternion check off (every
 * comparison with it is false), and 1 or more would accept a quaternion of twice unit length.
 * Records an issue and returns the default otherwise.
 */
export function readQuaternionTolerance(issues: IssueList, value: unknown): number {
  if (value === undefined) return QUATERNION_TOLERANCE;
  if (typeof value === 'number' && value >= 0 && value < 1) return value;
  issues.add('quaternionTolerance', `is ${shownNumber(value)}: must be a number in [0, 1) (accepted |q| − 1; default ${QUATERNION_TOLERANCE})`);
  return QUATERNION_TOLERANCE;
}

/** Whether `v` looks like a Skeleton from {@link createSkeleton} (names, Int16 parents, rest pose). */
export function isSkeleton(v: unknown): v is Skeleton {
  return typeof v === 'object' && v !== null && (v as Skeleton).parents instanceof Int16Array
    && Array.isArray((v as Skeleton).names) && (v as Skeleton).rest instanceof Float32Array;
}

/**
 * "Hips", "b_Hip_01", "mixamorig:Hips", "Pelvis" — but not "LeftHip" or "LHipJoint", which are
 * leg roots beside the hips.
 */
const HIP_NAME = /(^|[^a-z])(hips?|pelvis)([^a-z]|$)/i;
/** A side marker as a whole word: "pelvis.L", "Hip_R", "left_hip" name a leg's joint, not the hips. */
const SIDE_NAME = /(^|[^a-z])(l|r|left|right)([^a-z]|$)/i;
/** A leg reaches below its hip by at least this fraction of the skeleton's rest height. */
const LEG_REACH = 0.1;

/**
 * Builds and validates a {@link Skeleton}. The rest pose's rotations are normalized, and its
 * translation and rotation components and the inverse bind matrices' entries below 1e-15 in
 * magnitude are stored as 0 (`FLUSH_TO_ZERO_BELOW`, as `createClip` does its frames).
 *
 * @throws AnimationError naming every fault: a desc that is not an object, missing or
 * duplicate names, a parent that is not lower than its child, wrong array lengths, non-finite
 * numbers, zero or non-unit quaternions, a `quaternionTolerance` that is not in [0, 1),
 * attachments with a missing or repeated name, an unknown joint or a bad offset, curves with
 * a missing or repeated name or a default that is not a finite float.
 * @example
 * const skeleton = createSkeleton({
 *   names: ['hips', 'spine'],
 *   parents: [-1, 0],
 *   rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1,   0, 0.2, 0, 0, 0, 0, 1, 1, 1, 1],
 * });
 */
export function createSkeleton(desc: SkeletonDesc): Skeleton {
  const issues = new IssueList('createSkeleton');
  if (typeof desc !== 'object' || desc === null || Array.isArray(desc)) {
    issues.add('desc', `is ${describeValue(desc)}: must be an object { names, parents, rest, inverseBind?, hipJoint? }`);
    issues.throwIfAny();
  }
  const { names, parents, rest, inverseBind } = desc;
  const tolerance = readQuaternionTolerance(issues, desc.quaternionTolerance);

  if (!Array.isArray(names) || names.length === 0) {
    issues.add('names', 'must be a non-empty array of joint names');
    issues.throwIfAny();
  }
  const jointCount = names.length;
  if (jointCount > 0x7fff) issues.add('names', `has ${jointCount} joints; at most 32767 are supported`);

  const seen = new Map<string, number>();
  names.forEach((name, joint) => {
    if (typeof name !== 'string' || name.length === 0) {
      issues.add(`names[${joint}]`, 'must be a non-empty string');
    } else if (seen.has(name)) {
      issues.add(`names[${joint}]`, `"${name}" repeats names[${seen.get(name)}]: joint names must be unique`);
    } else {
      seen.set(name, joint);
    }
  });

  const parentArray = new Int16Array(jointCount);
  if (!isNumberList(parents) || parents.length !== jointCount) {
    issues.add('parents', `must have one entry per joint (${jointCount}), has ${lengthOf(parents)}`);
  } else {
    for (let joint = 0; joint < jointCount; joint++) {
      const p = parents[joint] as number;
      if (!Number.isInteger(p) || p < NO_PARENT || p >= joint) {
        issues.add(`parents[${joint}] (joint "${names[joint]}")`, `is ${p}: must be −1 or a joint index below ${joint} (parents come before children)`);
      } else {
        parentArray[joint] = p;
      }
    }
  }

  const restPose = new Float32Array(jointCount * POSE_STRIDE);
  if (!isNumberList(rest) || rest.length !== jointCount * POSE_STRIDE) {
    issues.add('rest', `must hold jointCount × 10 = ${jointCount * POSE_STRIDE} floats, has ${lengthOf(rest)}`);
  } else {
    copyValidatedPose(issues, 'rest', names, rest, 0, restPose, 0, jointCount, tolerance);
  }

  const inverseBindMatrices = new Float32Array(jointCount * MATRIX_STRIDE);
  if (inverseBind !== undefined) {
    if (!isNumberList(inverseBind) || inverseBind.length !== jointCount * MATRIX_STRIDE) {
      issues.add('inverseBind', `must hold jointCount × 12 = ${jointCount * MATRIX_STRIDE} floats, has ${lengthOf(inverseBind)}`);
    } else {
      for (let i = 0; i < inverseBind.length; i++) {
        const v = inverseBind[i] as number;
        inverseBindMatrices[i] = Math.abs(v) < FLUSH_TO_ZERO_BELOW ? 0 : v;
        if (!Number.isFinite(inverseBindMatrices[i])) { // also catches doubles beyond the float32 range
          const joint = Math.floor(i / MATRIX_STRIDE);
          if (!issues.add(`inverseBind joint "${names[joint]}" (${joint})[${i % MATRIX_STRIDE}]`, `is ${v}, not a finite 32-bit float`)) break;
        }
      }
    }
  }

  let hipJoint = resolveHipJoint(issues, desc.hipJoint, names);
  const attachments = readAttachments(issues, desc.attachments, names, tolerance);
  const curves = readSkeletonCurves(issues, desc.curves);
  issues.throwIfAny();

  const model = computeRestModel(parentArray, restPose);
  if (desc.hipJoint === undefined) hipJoint = findHipJoint(names, parentArray, model);
  if (inverseBind === undefined) {
    for (let joint = 0; joint < jointCount; joint++) {
      const off = joint * MATRIX_STRIDE;
      affine.invert(inverseBindMatrices, off, model, off);
    }
  }
  const hipHeight = hipJoint >= 0 ? model[hipJoint * MATRIX_STRIDE + MATRIX_T + 1] : 0;

  return Object.freeze({
    names: Object.freeze(names.slice()),
    parents: parentArray,
    rest: restPose,
    inverseBind: inverseBindMatrices,
    jointCount,
    hipJoint,
    hipHeight,
    attachments,
    curves,
  });
}

/** The attachments of a desc, checked (see {@link SkeletonDesc.attachments}). */
function readAttachments(issues: IssueList, list: unknown, names: readonly string[], tolerance: number): Skeleton['attachments'] {
  if (list === undefined) return Object.freeze([]);
  if (!Array.isArray(list)) {
    issues.add('attachments', `is ${describeValue(list)}: must be an array of { name, joint, offset? }`);
    return Object.freeze([]);
  }
  const out: Skeleton['attachments'][number][] = [];
  const seen = new Map<string, number>();
  list.forEach((a: NonNullable<SkeletonDesc['attachments']>[number], i) => {
    const path = `attachments[${i}]`;
    if (typeof a !== 'object' || a === null) {
      issues.add(path, `is ${describeValue(a)}: must be { name, joint, offset? }`);
      return;
    }
    const name = a.name;
    if (typeof name !== 'string' || name.length === 0) issues.add(`${path}.name`, 'must be a non-empty string');
    else if (seen.has(name)) issues.add(`${path}.name`, `"${name}" repeats attachments[${seen.get(name)}]: attachment names must be unique`);
    else seen.set(name, i);
    let joint = -1;
    if (typeof a.joint === 'string') {
      joint = names.indexOf(a.joint);
      if (joint < 0) issues.add(`${path}.joint`, `"${a.joint}" is not a joint of this skeleton`);
    } else if (Number.isInteger(a.joint) && a.joint >= 0 && a.joint < names.length) {
      joint = a.joint;
    } else {
      issues.add(`${path}.joint`, `is ${shownNumber(a.joint)}: must be a joint name or an index below ${names.length}`);
    }
    const offset = new Float32Array(MATRIX_STRIDE);
    affine.identity(offset, 0);
    const given = a.offset;
    if (given !== undefined) {
      if (!isNumberList(given) || (given.length !== MATRIX_STRIDE && given.length !== POSE_STRIDE)) {
        issues.add(`${path}.offset`, `must hold 12 floats (3×4 column-major) or 10 (tx ty tz qx qy qz qw sx sy sz), has ${lengthOf(given)}`);
      } else if (given.length === POSE_STRIDE) {
        const pose = new Float32Array(POSE_STRIDE);
        const before = issues.issues.length;
        copyValidatedPose(issues, `${path}.offset`, [String(name)], given, 0, pose, 0, 1, tolerance);
        if (issues.issues.length === before) affine.fromSQT(offset, 0, pose, 0);
      } else {
        for (let k = 0; k < MATRIX_STRIDE; k++) {
          offset[k] = given[k] as number;
          if (typeof given[k] !== 'number' || !Number.isFinite(offset[k])) issues.add(`${path}.offset[${k}]`, `is ${shownString(given[k])}, not a finite 32-bit float`);
        }
      }
    }
    if (joint >= 0) out.push(Object.freeze({ name, joint, offset }));
  });
  return Object.freeze(out);
}

/** The curves of a desc, checked (see {@link SkeletonDesc.curves}). */
function readSkeletonCurves(issues: IssueList, list: unknown): Skeleton['curves'] {
  if (list === undefined) return Object.freeze([]);
  if (!Array.isArray(list)) {
    issues.add('curves', `is ${describeValue(list)}: must be an array of { name, default? }`);
    return Object.freeze([]);
  }
  const out: Skeleton['curves'][number][] = [];
  const seen = new Map<string, number>();
  list.forEach((c: { name: string; default?: number }, i) => {
    const path = `curves[${i}]`;
    if (typeof c !== 'object' || c === null) {
      issues.add(path, `is ${describeValue(c)}: must be { name, default? }`);
      return;
    }
    const name = c.name;
    if (typeof name !== 'string' || name.length === 0) issues.add(`${path}.name`, 'must be a non-empty string');
    else if (seen.has(name)) issues.add(`${path}.name`, `"${name}" repeats curves[${seen.get(name)}]: curve names must be unique`);
    else seen.set(name, i);
    const value = c.default ?? 0;
    if (typeof value !== 'number' || !Number.isFinite(Math.fround(value))) issues.add(`${path}.default`, `is ${shownNumber(value)}: must be a finite 32-bit float`);
    out.push(Object.freeze({ name, default: Math.fround(value) }));
  });
  return Object.freeze(out);
}

/** Model-space rest matrices (`jointCount × 12`), parents first. */
export function computeRestModel(parents: Int16Array, rest: Float32Array): Float64Array {
  const jointCount = parents.length;
  const model = new Float64Array(jointCount * MATRIX_STRIDE);
  composeModel(model, 0, MATRIX_STRIDE, rest, 0, parents, 0, jointCount);
  return model;
}

/** Index of a joint by name, or −1 (also for a `name` that is not a string). @throws AnimationError when `skeleton` is not a Skeleton. */
export function findJoint(skeleton: Skeleton, name: string): number {
  if (!isSkeleton(skeleton)) fail('findJoint', 'skeleton', `is ${describeValue(skeleton)}: must be a Skeleton from createSkeleton`);
  return skeleton.names.indexOf(name);
}

/**
 * The default hip joint of a skeleton (see {@link SkeletonDesc.hipJoint}): by name, else where
 * the legs branch, else the root's first child, else −1. `model` holds the rest model matrices
 * (`jointCount × 12`, from {@link computeRestModel}); +Y is up.
 *
 * The legs' branch: with h the rest height (highest minus lowest joint), a child c of joint j
 * is a leg when some joint of c's subtree lies at least `0.1·h` below j; the hip is the joint
 * with two or more legs that is closest to the root (fewest ancestors; ties: lowest index).
 * A tenth keeps legs that end at the ankle (RobotExpressive's reach 0.47 m below their branch,
 * 16% of its 2.98 m) and ignores toes, fingers and tails curling down a little.
 */
export function findHipJoint(names: readonly string[], parents: Int16Array, model: Float64Array): number {
  const byName = names.findIndex((n) => HIP_NAME.test(n) && !SIDE_NAME.test(n));
  if (byName >= 0) return byName;
  const jointCount = names.length;
  let top = -Infinity, bottom = Infinity;
  for (let joint = 0; joint < jointCount; joint++) {
    const y = model[joint * MATRIX_STRIDE + MATRIX_T + 1];
    if (y > top) top = y;
    if (y < bottom) bottom = y;
  }
  const reach = LEG_REACH * (top - bottom);
  // Lowest joint of each subtree, children before parents (parents come first in the order).
  const lowest = new Float64Array(jointCount);
  for (let joint = 0; joint < jointCount; joint++) lowest[joint] = model[joint * MATRIX_STRIDE + MATRIX_T + 1];
  for (let joint = jointCount - 1; joint > 0; joint--) {
    const parent = parents[joint];
    if (parent !== NO_PARENT && lowest[joint] < lowest[parent]) lowest[parent] = lowest[joint];
  }
  const legs = new Int32Array(jointCount);
  for (let joint = 0; joint < jointCount; joint++) {
    const parent = parents[joint];
    if (parent !== NO_PARENT && reach > 0 && lowest[joint] <= model[parent * MATRIX_STRIDE + MATRIX_T + 1] - reach) legs[parent]++;
  }
  let hip = -1, hipDepth = Infinity;
  const depth = new Int32Array(jointCount);
  for (let joint = 0; joint < jointCount; joint++) {
    const parent = parents[joint];
    depth[joint] = parent === NO_PARENT ? 0 : depth[parent] + 1;
    if (legs[joint] >= 2 && depth[joint] < hipDepth) {
      hip = joint;
      hipDepth = depth[joint];
    }
  }
  if (hip >= 0) return hip;
  for (let joint = 1; joint < jointCount; joint++) if (parents[joint] === 0) return joint;
  return -1;
}

/** The hip joint given in the desc, checked; −1 when none is given (the default is found later). */
function resolveHipJoint(issues: IssueList, hip: number | string | undefined, names: readonly string[]): number {
  if (hip === undefined) return -1;
  if (typeof hip === 'string') {
    const joint = names.indexOf(hip);
    if (joint < 0) issues.add('hipJoint', `"${hip}" is not a joint of this skeleton`);
    return joint;
  }
  if (!Number.isInteger(hip) || hip < -1 || hip >= names.length) {
    issues.add('hipJoint', `is ${hip}: must be −1 or a joint index below ${names.length}`);
    return -1;
  }
  return hip;
}

/** True for arrays and typed arrays of numbers. */
export function isNumberList(v: unknown): v is NumberList {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function lengthOf(v: unknown): string {
  return isNumberList(v) ? String(v.length) : typeof v;
}
