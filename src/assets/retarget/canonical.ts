/**
 * The canonical pose of a humanoid skeleton: its rest pose with the humanoid chains turned to
 * one shape every humanoid can take — spine and neck up, legs straight down, arms out to the
 * sides, feet forward — so that two rigs modelled in different poses (A-pose and T-pose, a
 * half-step, other bone axes) have reference poses that show the same physical pose. This is
 * the idea of three-vrm's normalized humanoid bones and of Unreal's retarget-pose auto-align.
 *
 * Each chain joint turns by the shortest arc that points its bone (from it to the next humanoid
 * joint of its chain) along the canonical direction, so its twist about the bone stays the
 * rest's. Directions are in the character's own frame: up +Y, its left from its right upper leg
 * to its left one (horizontal), forward = left × up; so a character facing −Z keeps facing −Z.
 * Offline, in doubles.
 */
import { POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../../math/layout.js';
import * as quat from '../../math/quat.js';
import { fromUnitVectors } from '../../math/rotationArc.js';
import type { Skeleton } from '../Skeleton.js';
import type { HumanoidJoint } from '../humanoid/types.js';


/** A bone to align: the joint, the humanoid joints that may end it (first present wins), its direction. */
interface Bone {
  readonly joint: HumanoidJoint;
  readonly ends: readonly HumanoidJoint[];
  readonly direction: 'up' | 'down' | 'left' | 'right' | 'forward';
}

/** The bones of the canonical pose, parents first. */
const BONES: readonly Bone[] = [
  { joint: 'spine', ends: ['chest', 'upperChest', 'neck', 'head'], direction: 'up' },
  { joint: 'chest', ends: ['upperChest', 'neck', 'head'], direction: 'up' },
  { joint: 'upperChest', ends: ['neck', 'head'], direction: 'up' },
  { joint: 'neck', ends: ['head'], direction: 'up' },
  ...(['left', 'right'] as const).flatMap((side) => {
    const j = (name: string) => `${side}${name}` as HumanoidJoint;
    return [
      { joint: j('Shoulder'), ends: [j('UpperArm')], direction: side },
      { joint: j('UpperArm'), ends: [j('LowerArm')], direction: side },
      { joint: j('LowerArm'), ends: [j('Hand')], direction: side },
      { joint: j('UpperLeg'), ends: [j('LowerLeg')], direction: 'down' },
      { joint: j('LowerLeg'), ends: [j('Foot')], direction: 'down' },
      { joint: j('Foot'), ends: [j('Toes')], direction: 'forward' },
    ] as Bone[];
  }),
];

/**
 * The canonical pose of `skeleton` (local, `jointCount × 10` doubles: the rest pose with the
 * humanoid chains' rotations changed) for its humanoid map `joints` (humanoid joint → joint
 * name). Bones whose end is missing, or of zero length, keep their rest rotation.
 */
export function canonicalPose(skeleton: Skeleton, joints: Readonly<Partial<Record<HumanoidJoint, string>>>): Float64Array {
  const pose = Float64Array.from(skeleton.rest);
  const index = (name: HumanoidJoint): number => (joints[name] === undefined ? -1 : skeleton.names.indexOf(joints[name]));
  const { position, rotation } = forward(skeleton.parents, pose);

  // The character's frame from the rest: up, its left, its forward.
  const left = [0, 0, 0];
  const l = index('leftUpperLeg'), r = index('rightUpperLeg');
  const la = index('leftUpperArm'), ra = index('rightUpperArm');
  const [a, b] = l >= 0 && r >= 0 ? [l, r] : [la, ra];
  if (a !== undefined && b !== undefined && a >= 0 && b >= 0) {
    left[0] = position[a * 3] - position[b * 3];
    left[2] = position[a * 3 + 2] - position[b * 3 + 2];
  }
  const lateral = Math.hypot(left[0], left[2]);
  if (lateral > 0) { left[0] = left[0] / lateral; left[2] = left[2] / lateral; } else { left[0] = 1; left[2] = 0; }
  const directions: Record<Bone['direction'], number[]> = {
    up: [0, 1, 0], down: [0, -1, 0], left, right: [-left[0], 0, -left[2]],
    forward: [-left[2], 0, left[0]], // left × up
  };

  // Each bone in its joint's rest frame (so a bone that ends on a joint outside its chain, as
  // an IK foot parented elsewhere, keeps its rest length and direction in that frame).
  const bones: { joint: number; local: number[]; direction: number[] }[] = [];
  for (const bone of BONES) {
    const joint = index(bone.joint);
    const end = bone.ends.map(index).find((e) => e >= 0) ?? -1;
    if (joint < 0 || end < 0) continue;
    const d = [0, 1, 2].map((c) => position[end * 3 + c] - position[joint * 3 + c]);
    if (Math.hypot(...d) <= 1e-9 * (1 + Math.hypot(position[joint * 3], position[joint * 3 + 1], position[joint * 3 + 2]))) continue;
    bones.push({ joint, local: rotate(conjugate(rotation.slice(joint * 4, joint * 4 + 4)), d), direction: directions[bone.direction] });
  }

  for (const bone of bones) {
    const model = forward(skeleton.parents, pose).rotation;
    const q = model.slice(bone.joint * 4, bone.joint * 4 + 4);
    const d = normalize(rotate(q, bone.local));
    const turn = arc(d, bone.direction);
    // Model rotation turn · Q_j; local = Q_parent⁻¹ · turn · Q_j.
    const parent = skeleton.parents[bone.joint];
    const parentRotation = parent < 0 ? [0, 0, 0, 1] : model.slice(parent * 4, parent * 4 + 4);
    const local = normalize(multiply(conjugate(parentRotation), multiply(turn, q)));
    pose.set(local, bone.joint * POSE_STRIDE + POSE_Q);
  }
  return pose;
}

/**
 * The character's facing in its rest: the angle about +Y (radians) from +Z to its forward, its
 * left (from its right upper leg to its left one, else its right upper arm to its left one)
 * crossed with +Y; 0 when neither pair is mapped.
 */
export function facingAngle(skeleton: Skeleton, joints: Readonly<Partial<Record<HumanoidJoint, string>>>): number {
  const index = (name: HumanoidJoint): number => (joints[name] === undefined ? -1 : skeleton.names.indexOf(joints[name]));
  const { position } = forward(skeleton.parents, Float64Array.from(skeleton.rest));
  const l = index('leftUpperLeg'), r = index('rightUpperLeg'), la = index('leftUpperArm'), ra = index('rightUpperArm');
  const [a, b] = l >= 0 && r >= 0 ? [l, r] : [la, ra];
  if (a < 0 || b < 0) return 0;
  const lx = position[a * 3] - position[b * 3], lz = position[a * 3 + 2] - position[b * 3 + 2];
  if (Math.hypot(lx, lz) === 0) return 0;
  // forward = left × up = (−lz, 0, lx); its angle from +Z about +Y is atan2(x, z).
  return Math.atan2(-lz, lx);
}

/**
 * How high the hips stand above the lowest joint in the canonical pose (legs straight down):
 * the height a humanoid's hip ratio compares, whatever pose its rest was modelled in.
 */
export function standingHipHeight(skeleton: Skeleton, joints: Readonly<Partial<Record<HumanoidJoint, string>>>): number {
  const index = (name: HumanoidJoint): number => (joints[name] === undefined ? -1 : skeleton.names.indexOf(joints[name]));
  const hips = index('hips');
  if (hips < 0) return 0;
  const rest = forward(skeleton.parents, Float64Array.from(skeleton.rest));
  const { position, rotation } = forward(skeleton.parents, canonicalPose(skeleton, joints));
  let lowest = Infinity;
  for (let j = 0; j < skeleton.jointCount; j++) lowest = Math.min(lowest, position[j * 3 + 1]);
  // A foot hung outside its leg (an IK foot) stays put when the leg straightens: place it where
  // it follows the lower leg, as a binding attaches it (its rest offset in the lower leg's frame).
  for (const side of ['left', 'right'] as const) {
    const foot = index(`${side}Foot`), shin = index(`${side}LowerLeg`);
    if (foot < 0 || shin < 0) continue;
    let below = false;
    for (let k = skeleton.parents[foot]; k >= 0; k = skeleton.parents[k]) if (k === shin) below = true;
    if (below) continue;
    const offset = rotate(conjugate(rest.rotation.slice(shin * 4, shin * 4 + 4)), [0, 1, 2].map((c) => rest.position[foot * 3 + c] - rest.position[shin * 3 + c]));
    const placed = rotate(rotation.slice(shin * 4, shin * 4 + 4), offset);
    lowest = Math.min(lowest, position[shin * 3 + 1] + placed[1]);
  }
  return position[hips * 3 + 1] - lowest;
}

/** Model positions (3 per joint) and rotations (4 per joint) of `pose` (scales kept in the positions). */
function forward(parents: Int16Array, pose: Float64Array): { position: Float64Array; rotation: Float64Array } {
  const n = parents.length;
  const position = new Float64Array(n * 3), rotation = new Float64Array(n * 4), scale = new Float64Array(n * 3);
  for (let j = 0; j < n; j++) {
    const o = j * POSE_STRIDE;
    const q = normalize([pose[o + POSE_Q], pose[o + POSE_Q + 1], pose[o + POSE_Q + 2], pose[o + POSE_Q + 3]]);
    const t = [pose[o], pose[o + 1], pose[o + 2]], s = [pose[o + POSE_S], pose[o + POSE_S + 1], pose[o + POSE_S + 2]];
    const p = parents[j];
    if (p < 0) {
      position.set(t, j * 3); rotation.set(q, j * 4); scale.set(s, j * 3);
      continue;
    }
    const pq = Array.from(rotation.subarray(p * 4, p * 4 + 4));
    const scaled = [0, 1, 2].map((c) => t[c] * scale[p * 3 + c]);
    const offset = rotate(pq, scaled);
    for (let c = 0; c < 3; c++) position[j * 3 + c] = position[p * 3 + c] + offset[c];
    rotation.set(multiply(pq, q), j * 4);
    for (let c = 0; c < 3; c++) scale[j * 3 + c] = scale[p * 3 + c] * s[c];
  }
  return { position, rotation };
}

/** a · b (quat.multiply; offline code, so plain arrays in and out). */
function multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Float64Array(4);
  quat.multiply(out, 0, Float64Array.from(a), 0, Float64Array.from(b), 0);
  return Array.from(out);
}
function conjugate(q: ArrayLike<number>): number[] {
  const out = new Float64Array(4);
  quat.conjugate(out, 0, Float64Array.from(q), 0);
  return Array.from(out);
}
function rotate(q: ArrayLike<number>, v: ArrayLike<number>): number[] {
  const out = new Float64Array(3);
  quat.rotateVec3(out, 0, Float64Array.from(q), 0, Float64Array.from(v), 0);
  return Array.from(out);
}
function normalize(v: number[]): number[] {
  const len = Math.hypot(...v);
  return len > 0 ? v.map((c) => c / len) : v;
}
/** The shortest rotation taking unit `a` to unit `b` (rotationArc.fromUnitVectors; half a turn about +X, else +Y, when opposite). */
function arc(a: number[], b: number[]): number[] {
  const out = new Float64Array(4);
  fromUnitVectors(out, 0, Float64Array.from(a), 0, Float64Array.from(b), 0, Float64Array.of(Math.abs(a[0]) < 0.9 ? 1 : 0, Math.abs(a[0]) < 0.9 ? 0 : 1, 0), 0);
  return Array.from(out);
}
