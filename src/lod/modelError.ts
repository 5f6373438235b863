/**
 * Model-space error of a reduced clip: how far each joint (or a point at a distance from it)
 * moves when the clip's frames are replaced by their reduction, over every frame.
 *
 * Why model space: per-channel tolerances let error pile up down the hierarchy — a small
 * rotation error at the hips moves the feet by that angle times the leg's length — which is
 * the visible foot jitter the best engines guard against (ozz-animation measures at a
 * distance from each joint; ACL on a shell around it). A reduction is accepted only when this
 * measure, not the channels', stays within the tolerance.
 */
import type { Clip } from '../assets/Clip.js';
import { computeRestModel, type Skeleton } from '../assets/Skeleton.js';
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, NO_PARENT, POSE_STRIDE } from '../math/layout.js';

/** What {@link measureModelError} found. */
export interface ModelError {
  /** Largest distance between a measured point of the clip and of the reduction, metres (clip units). */
  readonly maxError: number;
  /** Mean of that distance over every joint, measured point and frame. */
  readonly meanError: number;
  /** Joint and frame of the largest error (−1 for an empty clip). */
  readonly worstJoint: number;
  readonly worstFrame: number;
}

/** Options of {@link measureModelError}. */
export interface ModelErrorOptions {
  /**
   * Also measure at the three points `distance` metres along the joint's local x, y and z axes
   * (default 0: the joint's origin only), as ozz-animation does, so rotation error shows as it
   * would on a skin vertex that far from the joint.
   */
  distance?: number;
}

/**
 * Compares `clip` with `frames` — a reduction of it in the same layout (`frameCount ×
 * jointCount × 10`, frame-major) — by forward kinematics on every frame: the distance between
 * each joint's model-space position (and, with `distance`, the three points at that distance
 * along its axes) in the two. Quaternions in `frames` are normalized before use, as the
 * sampler does. Allocates two model poses; offline tool, not for the frame loop.
 */
export function measureModelError(clip: Clip, frames: Float32Array, options: ModelErrorOptions = {}): ModelError {
  const { skeleton, frameCount } = clip;
  const jointCount = skeleton.jointCount;
  const poseSize = jointCount * POSE_STRIDE;
  const distance = options.distance ?? 0;
  const a = new Float64Array(jointCount * MATRIX_STRIDE);
  const b = new Float64Array(jointCount * MATRIX_STRIDE);
  const pose = new Float64Array(POSE_STRIDE);
  let max = 0, sum = 0, count = 0, worstJoint = -1, worstFrame = -1;
  for (let f = 0; f < frameCount; f++) {
    modelPose(a, skeleton, clip.frames, f * poseSize, pose);
    modelPose(b, skeleton, frames, f * poseSize, pose);
    for (let j = 0; j < jointCount; j++) {
      const o = j * MATRIX_STRIDE;
      const points = distance > 0 ? 4 : 1;
      for (let p = 0; p < points; p++) {
        // Point p: the origin, then distance along the joint's x, y, z axis (columns of R).
        let dx = a[o + 9]! - b[o + 9]!, dy = a[o + 10]! - b[o + 10]!, dz = a[o + 11]! - b[o + 11]!;
        if (p > 0) {
          const c = o + (p - 1) * 3;
          dx += distance * (a[c]! - b[c]!);
          dy += distance * (a[c + 1]! - b[c + 1]!);
          dz += distance * (a[c + 2]! - b[c + 2]!);
        }
        const e = Math.sqrt(dx * dx + dy * dy + dz * dz);
        sum += e;
        count++;
        if (e > max) { max = e; worstJoint = j; worstFrame = f; }
      }
    }
  }
  return { maxError: max, meanError: count > 0 ? sum / count : 0, worstJoint, worstFrame };
}

/** Model matrices of one frame of `frames` at `off` into `out` (quaternions normalized). */
function modelPose(out: Float64Array, skeleton: Skeleton, frames: Float32Array, off: number, pose: Float64Array): void {
  const parents = skeleton.parents;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = off + j * POSE_STRIDE;
    for (let c = 0; c < POSE_STRIDE; c++) pose[c] = frames[p + c]!;
    const n = Math.sqrt(pose[3]! * pose[3]! + pose[4]! * pose[4]! + pose[5]! * pose[5]! + pose[6]! * pose[6]!);
    if (n > 0) for (let c = 3; c < 7; c++) pose[c] = pose[c]! / n;
    const o = j * MATRIX_STRIDE;
    affine.fromSQT(out, o, pose, 0);
    const parent = parents[j]!;
    if (parent !== NO_PARENT) affine.multiply(out, o, out, parent * MATRIX_STRIDE, out, o);
  }
}

/**
 * For each joint, the farthest rest-pose distance from it to itself or any descendant, plus
 * `distance`: the lever arm that turns a rotation error at the joint into position error
 * below it (a rotation error of θ radians moves a point r away by at most θ·r). Reducers
 * divide a joint's position tolerance by this to get its rotation tolerance.
 */
export function jointReach(skeleton: Skeleton, distance = 0): Float64Array {
  const model = computeRestModel(skeleton.parents, skeleton.rest);
  const jointCount = skeleton.jointCount;
  const reach = new Float64Array(jointCount).fill(distance);
  for (let j = 0; j < jointCount; j++) {
    // Walk up from j: j is a descendant of every ancestor a.
    for (let a = skeleton.parents[j]!; a !== NO_PARENT; a = skeleton.parents[a]!) {
      const dx = model[j * MATRIX_STRIDE + 9]! - model[a * MATRIX_STRIDE + 9]!;
      const dy = model[j * MATRIX_STRIDE + 10]! - model[a * MATRIX_STRIDE + 10]!;
      const dz = model[j * MATRIX_STRIDE + 11]! - model[a * MATRIX_STRIDE + 11]!;
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz) + distance;
      if (r > reach[a]!) reach[a] = r;
    }
  }
  return reach;
}
