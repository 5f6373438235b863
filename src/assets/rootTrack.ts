/**
 * A clip's root-motion track: where its root-motion joint (the hip joint, else joint 0) is in
 * model space on every frame, and which way it faces (its yaw), computed once per clip and
 * cached. Both are composed along the chain from the skeleton's root to the joint, so the
 * travel is measured once wherever the capture keeps it: on the hips, on a root joint above
 * them (MotionBuilder's `joint_Root`, an Unreal-style `root` bone), or split between them.
 * Root motion reads the joint's displacement and turn between two times off this track, and
 * normalization reads its cycle: the net displacement and yaw from the first to
 * the last frame, the farthest the joint gets from where it started, and the hips' height.
 * A reduced (LOD) clip, which stores no frames, has the track of its curves at the frame
 * times (`sampleFrameInto`, what playback gives there).
 */
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_Q, POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';
import type { Clip } from './Clip.js';
import { sampleFrameInto } from './reducedClip.js';
import { computeRestModel, type Skeleton } from './Skeleton.js';

/** See the module comment. Positions are in the clip's units (metres for well-made assets). */
export interface RootTrack {
  /** The joint of the clip's skeleton whose motion drives the character. */
  readonly joint: number;
  /** `frameCount × 3` floats: the joint's model-space x, y, z per frame. */
  readonly positions: Float32Array;
  /** Net displacement over the clip, last frame minus first (x, y, z). */
  readonly cycle: Float64Array;
  /**
   * The largest horizontal distance of the joint from its first-frame position over the
   * clip's frames: max over frames f of |(x_f − x_0, z_f − z_0)|, in the clip's units. The
   * last frame is one of them, so it is ≥ the horizontal length of `cycle`.
   *
   * Tokage It Lab normalizes a cycle's travel "by the animation's maximum displacement or its net
   * travel" (its section 移動値による速度制限): this is the
   * former, which stays > 0 for a clip that goes out and comes back (net travel ~0). Frames
   * suffice: the track is linear between frames and distance is convex, so on each piece its
   * maximum is at a frame.
   */
  readonly maxDistance: number;
  /**
   * `frameCount` floats: the joint's yaw per frame, radians, unwrapped (successive frames
   * differ by at most π, so a clip that turns 1.5 turns ends near 3π, not −π).
   *
   * The yaw ψ of a frame is the twist about model +Y of the joint's rotation relative to its
   * rest: with q_rel = q_model · q_restModel⁻¹ (both composed along the joint's chain, scale
   * ignored) and the swing–twist split q_rel = swing · twist(+Y), ψ = 2·atan2(q_rel.y, q_rel.w)
   * (right-handed about +Y: +Z turns toward +X). Relative to the rest, so the rig's own
   * orientation of the hip joint does not count: ψ = 0 is "facing as at rest". Frame 0 is
   * wrapped into (−π, π].
   */
  readonly yaw: Float64Array;
  /** Net yaw over the clip, Ψ = ψ(last) − ψ(first), radians (a loop turns by this per cycle). */
  readonly cycleYaw: number;
  /**
   * "Animation hips" of the hip-height ratio: the clip skeleton's rest hip height, or — when
   * the skeleton's rest pose has none (0, as BVH skeletons, whose rest is their offsets) — the
   * joint's mean height over the clip.
   */
  readonly hipHeight: number;
}

const cache = new WeakMap<Clip, RootTrack>();

/** The {@link RootTrack} of `clip`, computed on first use. */
export function getRootTrack(clip: Clip): RootTrack {
  let track = cache.get(clip);
  if (track === undefined) {
    track = computeRootTrack(clip);
    cache.set(clip, track);
  }
  return track;
}

function computeRootTrack(clip: Clip): RootTrack {
  const { skeleton, frameCount } = clip;
  // A reduced clip stores no frames: its curves at each frame time, one pose at a time.
  const reduced = clip.reduced !== null;
  const frames = reduced ? new Float32Array(skeleton.jointCount * POSE_STRIDE) : clip.frames;
  const joint = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
  // The chain root → joint, so each frame composes only the joint's ancestors.
  const chain: number[] = [];
  for (let j = joint; j >= 0; j = skeleton.parents[j]) chain.unshift(j);
  const poseSize = skeleton.jointCount * POSE_STRIDE;
  const positions = new Float32Array(frameCount * 3);
  const yaw = new Float64Array(frameCount);
  const m = new Float64Array(2 * MATRIX_STRIDE);
  // q[Q_MODEL ..]: model rotation of the joint; q[Q_REST ..]: its rest model rotation, inverted.
  const Q_MODEL = 0, Q_REST = 4;
  const q = new Float64Array(8);
  composeChainRotation(q, Q_REST, skeleton.rest, 0, chain);
  quat.conjugate(q, Q_REST, q, Q_REST);
  for (let f = 0; f < frameCount; f++) {
    if (reduced) sampleFrameInto(frames, 0, clip, f);
    const frameOff = reduced ? 0 : f * poseSize;
    affine.identity(m, 0);
    for (const j of chain) {
      affine.fromSQT(m, MATRIX_STRIDE, frames, frameOff + j * POSE_STRIDE);
      affine.multiply(m, 0, m, 0, m, MATRIX_STRIDE);
    }
    positions[f * 3] = m[MATRIX_T];
    positions[f * 3 + 1] = m[MATRIX_T + 1];
    positions[f * 3 + 2] = m[MATRIX_T + 2];
    composeChainRotation(q, Q_MODEL, frames, frameOff, chain);
    quat.multiply(q, Q_MODEL, q, Q_MODEL, q, Q_REST); // q_rel = q_model · q_restModel⁻¹
    const psi = wrapAngle(2 * Math.atan2(q[Q_MODEL + 1], q[Q_MODEL + 3])); // ±q give ψ and ψ ± 2π
    yaw[f] = f === 0 ? psi : yaw[f - 1] + wrapAngle(psi - yaw[f - 1]);
  }
  const last = (frameCount - 1) * 3;
  const cycle = Float64Array.of(positions[last] - positions[0], positions[last + 1] - positions[1], positions[last + 2] - positions[2]);
  let maxDistance = 0;
  for (let f = 0; f < frameCount; f++) {
    const d = Math.hypot(positions[f * 3] - positions[0], positions[f * 3 + 2] - positions[2]);
    if (d > maxDistance) maxDistance = d;
  }
  let meanHeight = 0;
  for (let f = 0; f < frameCount; f++) meanHeight += positions[f * 3 + 1];
  meanHeight /= frameCount;
  const hipHeight = skeleton.hipHeight > 0 ? skeleton.hipHeight : meanHeight;
  const cycleYaw = yaw[frameCount - 1] - yaw[0];
  return Object.freeze({ joint, positions, cycle, maxDistance, yaw, cycleYaw, hipHeight });
}

/**
 * Writes to `out[o..o+3]` the product of the rotations of the joints of `chain` (root first) in
 * the pose at `pose[poseOff ..]`: the last joint's model rotation, scale ignored.
 */
function composeChainRotation(out: Float64Array, o: number, pose: Float32Array, poseOff: number, chain: readonly number[]): void {
  quat.identity(out, o);
  for (const j of chain) quat.multiply(out, o, out, o, pose, poseOff + j * POSE_STRIDE + POSE_Q);
}

/** `angle` wrapped into (−π, π]. */
function wrapAngle(angle: number): number {
  const turns = Math.ceil((angle - Math.PI) / (2 * Math.PI));
  return angle - turns * 2 * Math.PI;
}

/**
 * Where a skeleton's root-motion joint sits at rest, and the chain of joints that carries it:
 * the joint, its parent's model matrix and inverse (3×4; identity for a root joint), the
 * joint's rest model position, the rest model rotations of its parent and of the joint
 * (quaternions x y z w composed along the chain, scale ignored; identity for a root's parent),
 * and every joint from the skeleton's root down to it with its rest pose and its parent's rest
 * model matrix, inverse and rotation.
 *
 * Root motion uses it to take the travel out of the pose wherever the capture put it: a take
 * may move the hips, a root joint above them (MotionBuilder's `joint_Root`, an Unreal-style
 * `root` bone), or both. The travel is the composed model-space motion of the chain (what
 * {@link RootTrack} measures); rootMotionSystem moves the body back rigidly at the highest
 * joint of the chain that is not at rest, through that joint's parent's rest transform, so
 * the body is not moved twice. When the joints above the hips are at rest (the common case)
 * that joint is the hips, through `parentModel` and `parentInverse`.
 */
export interface RootFrame {
  /** The root-motion joint's index (the hip joint, else joint 0). */
  readonly joint: number;
  /** Its parent's rest model matrix, 3×4 column-major (12 floats; identity for a root joint). */
  readonly parentModel: Float64Array;
  /** The inverse of `parentModel` (12 floats). */
  readonly parentInverse: Float64Array;
  /**
   * The joint's rest model position, x y z. Its horizontal part (x, z) is the hips' rest
   * offset, which root motion takes out of the pose (the hips are held at the model origin
   * horizontally, so they are drawn at the root transform); its height is where `vertical`
   * root motion holds them.
   */
  readonly restPosition: Float64Array;
  /** Its parent's rest model rotation, quaternion x y z w (identity for a root's parent). */
  readonly parentRotation: Float64Array;
  /** The joint's rest model rotation, quaternion x y z w. */
  readonly restRotation: Float64Array;
  /** The chain: the joints from the skeleton's root down to `joint`, root first, `joint` last. */
  readonly chain: Int16Array;
  /** The chain's rest local poses: 10 floats (SQT) per chain joint, in chain order. */
  readonly chainRest: Float32Array;
  /** Each chain joint's parent's rest model matrix: 12 floats per chain joint (identity for the root). */
  readonly chainParentModels: Float64Array;
  /** Their inverses: 12 floats per chain joint. */
  readonly chainParentInverses: Float64Array;
  /** Each chain joint's parent's rest model rotation: quaternion x y z w per chain joint (scale ignored). */
  readonly chainParentRotations: Float64Array;
  /**
   * The chain index at which the travel is taken out at the latest: the highest chain joint
   * with a child off the chain (IK targets under a rig's root, legs beside the hips), so those
   * move with the body; the last index (the joint itself) when there is none.
   */
  readonly holdFrom: number;
}

const frames = new WeakMap<Skeleton, RootFrame>();

/** The {@link RootFrame} of `skeleton`, computed on first use. */
export function getRootFrame(skeleton: Skeleton): RootFrame {
  let frame = frames.get(skeleton);
  if (frame === undefined) {
    const joint = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
    const model = computeRestModel(skeleton.parents, skeleton.rest);
    const parent = skeleton.parents[joint];
    const parentModel = new Float64Array(MATRIX_STRIDE);
    if (parent >= 0) parentModel.set(model.subarray(parent * MATRIX_STRIDE, parent * MATRIX_STRIDE + MATRIX_STRIDE));
    else affine.identity(parentModel, 0);
    const parentInverse = new Float64Array(MATRIX_STRIDE);
    affine.invert(parentInverse, 0, parentModel, 0);
    const t = joint * MATRIX_STRIDE + MATRIX_T;
    const restPosition = Float64Array.of(model[t], model[t + 1], model[t + 2]);
    const chain: number[] = [];
    for (let j = parent; j >= 0; j = skeleton.parents[j]) chain.unshift(j);
    const parentRotation = new Float64Array(4);
    composeChainRotation(parentRotation, 0, skeleton.rest, 0, chain);
    const restRotation = new Float64Array(4);
    quat.multiply(restRotation, 0, parentRotation, 0, skeleton.rest, joint * POSE_STRIDE + POSE_Q);
    const fullChain = [...chain, joint];
    const n = fullChain.length;
    const chainRest = new Float32Array(n * POSE_STRIDE);
    const chainParentModels = new Float64Array(n * MATRIX_STRIDE);
    const chainParentInverses = new Float64Array(n * MATRIX_STRIDE);
    const chainParentRotations = new Float64Array(n * 4);
    for (let k = 0; k < n; k++) {
      const j = fullChain[k], up = skeleton.parents[j];
      chainRest.set(skeleton.rest.subarray(j * POSE_STRIDE, j * POSE_STRIDE + POSE_STRIDE), k * POSE_STRIDE);
      if (up >= 0) chainParentModels.set(model.subarray(up * MATRIX_STRIDE, up * MATRIX_STRIDE + MATRIX_STRIDE), k * MATRIX_STRIDE);
      else affine.identity(chainParentModels, k * MATRIX_STRIDE);
      affine.invert(chainParentInverses, k * MATRIX_STRIDE, chainParentModels, k * MATRIX_STRIDE);
      composeChainRotation(chainParentRotations, k * 4, skeleton.rest, 0, fullChain.slice(0, k));
    }
    // The highest chain joint with a child off the chain (an IK target or a leg hung beside
    // the hips): the travel is taken out there at the latest, so those move with the body.
    let holdFrom = n - 1;
    for (let k = 0; k < n - 1 && holdFrom === n - 1; k++) {
      for (let c = 0; c < skeleton.jointCount; c++) if (skeleton.parents[c] === fullChain[k] && c !== fullChain[k + 1]) { holdFrom = k; break; }
    }
    frame = Object.freeze({
      joint, parentModel, parentInverse, restPosition, parentRotation, restRotation,
      chain: Int16Array.from(fullChain), chainRest, chainParentModels, chainParentInverses, chainParentRotations, holdFrom,
    });
    frames.set(skeleton, frame);
  }
  return frame;
}
