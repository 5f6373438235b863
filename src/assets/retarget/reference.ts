/**
 * Reference poses of a skeleton, the poses a binding transfers rotations relative to
 * (`bindSkeletons(…, { reference })`): the rest pose, the bind pose read from the inverse bind
 * matrices, or a pose the caller gives. Offline (once per binding), in doubles.
 */
import * as affine from '../../math/affine.js';
import { decompose } from '../../math/decompose.js';
import * as quat from '../../math/quat.js';
import { MATRIX_STRIDE, POSE_Q, POSE_S, POSE_STRIDE } from '../../math/layout.js';
import type { Skeleton } from '../Skeleton.js';


/** A skeleton's reference pose in model space: per joint its rotation (4 doubles) and uniform scale. */
export interface ModelReference {
  /** `jointCount × 4`: model rotation `x y z w`, unit. */
  readonly rotation: Float64Array;
  /** `jointCount`: the model scale (geometric mean of the composed scales). */
  readonly scale: Float64Array;
}

/**
 * The model rotations and scales of the local pose `local` (`jointCount × 10`) on `parents`:
 * `Q_j = Q_p · q_j` (q normalized), `σ_j = σ_p · ∛|sx·sy·sz|`.
 */
export function modelReference(parents: Int16Array, local: ArrayLike<number>): ModelReference {
  const n = parents.length;
  const rotation = new Float64Array(n * 4), scale = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const o = j * POSE_STRIDE;
    let x = local[o + POSE_Q], y = local[o + POSE_Q + 1], z = local[o + POSE_Q + 2], w = local[o + POSE_Q + 3];
    const len = Math.hypot(x, y, z, w);
    if (len > 0) { x /= len; y /= len; z /= len; w /= len; } else { x = 0; y = 0; z = 0; w = 1; }
    const own = Math.cbrt(Math.abs(local[o + POSE_S] * local[o + POSE_S + 1] * local[o + POSE_S + 2]));
    const p = parents[j];
    if (p < 0) {
      rotation.set([x, y, z, w], j * 4);
      scale[j] = own;
      continue;
    }
    quat.multiply(rotation, j * 4, rotation, p * 4, Float64Array.of(x, y, z, w), 0);
    scale[j] = scale[p] * own;
  }
  return { rotation, scale };
}

/**
 * The bind pose as local poses (`jointCount × 10`, doubles): each joint's model matrix is the
 * inverse of its inverse bind matrix, and its local pose that matrix relative to its parent's.
 * A joint whose inverse bind matrix cannot be inverted keeps its rest pose.
 */
export function bindPose(skeleton: Skeleton): Float64Array {
  const n = skeleton.jointCount;
  const model = new Float64Array(n * MATRIX_STRIDE), inverse = new Float64Array(MATRIX_STRIDE), local = new Float64Array(MATRIX_STRIDE);
  const pose = Float64Array.from(skeleton.rest);
  const usable = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    usable[j] = affine.invert(model, j * MATRIX_STRIDE, skeleton.inverseBind, j * MATRIX_STRIDE) === 0 ? 0 : 1;
  }
  for (let j = 0; j < n; j++) {
    const p = skeleton.parents[j];
    if (!usable[j] || (p >= 0 && !usable[p])) continue;
    if (p < 0) {
      decompose(pose, j * POSE_STRIDE, model, j * MATRIX_STRIDE);
      continue;
    }
    affine.invert(inverse, 0, model, p * MATRIX_STRIDE);
    affine.multiply(local, 0, inverse, 0, model, j * MATRIX_STRIDE);
    decompose(pose, j * POSE_STRIDE, local, 0);
  }
  return pose;
}
