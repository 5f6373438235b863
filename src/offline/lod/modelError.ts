/**
 * Model-space error of a reduced clip: how far each joint (or a point at a distance from it)
 * moves, and how far it turns, when the clip is replaced by its reduction — measured in
 * continuous time, at the frames and between them, as the runtime samples each.
 *
 * Why model space: per-channel tolerances let error pile up down the hierarchy — a small
 * rotation error at the hips moves the feet by that angle times the leg's length — which is
 * the visible foot jitter the best engines guard against (ozz-animation measures at a
 * distance from each joint; ACL on a shell around it). A reduction is accepted only when this
 * measure, not the channels', stays within the tolerance.
 *
 * Why between frames: the runtime plays a clip at any time, not only on its frames. The source
 * plays as the uniform sampler interpolates it (lerp of translation and scale, nlerp of the
 * rotation between two frames); the reduction plays its own curves. A per-segment cubic that
 * meets every frame can still swing between them (measured before this bound: a hip curve
 * within 0.04° on every frame of a 100 fps capture and 3.6° off between two of them), so the
 * two are compared at `subdivisions` instants inside every frame interval too (default 4:
 * u = 0.2, 0.4, 0.6, 0.8) besides the frames.
 */
import { fail } from '../../assets/AnimationError.js';
import type { Clip } from '../../assets/Clip.js';
import { sampleClipInto } from '../../assets/sampleClip.js';
import { computeRestModel, type Skeleton } from '../../assets/Skeleton.js';
import { composeModel } from '../../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T, NO_PARENT, POSE_Q, POSE_STRIDE } from '../../math/layout.js';

/** What {@link measureModelError} found. */
export interface ModelError {
  /** Largest distance between a measured point of the clip and of the reduction, metres (clip units). */
  readonly maxError: number;
  /** Mean of that distance over every joint, measured point and sample instant. */
  readonly meanError: number;
  /** Joint of the largest distance (−1 for an empty clip). */
  readonly worstJoint: number;
  /**
   * Where the largest distance is, in frames: `time × frameRate`, fractional between frames
   * (e.g. 12.4 is 0.4 of the way from frame 12 to 13); −1 for an empty clip.
   */
  readonly worstFrame: number;
  /**
   * Largest rotation error, degrees: the angle between a joint's model-space rotation in the
   * clip and in the reduction (the rotation a joint's own frame turns by in the scene, its
   * ancestors' errors included), over every joint and sample instant.
   */
  readonly maxRotationError: number;
  /** Joint of the largest rotation error (−1 for an empty clip). */
  readonly worstRotationJoint: number;
  /**
   * With a `threshold` (ACL's way of reporting): the 99th percentile of the per-sample error,
   * a sample being one joint at one instant and its error the largest over its measured points
   * (nearest rank: the ⌈0.99 n⌉-th smallest), metres (clip units).
   */
  readonly p99Error?: number;
  /** With a `threshold`: the share of those samples whose error is at most the threshold, in [0, 1]. */
  readonly shareWithin?: number;
}

/** Options of {@link measureModelError}. */
export interface ModelErrorOptions {
  /**
   * Also measure at the three points `distance` along the joint's local x, y and z axes
   * (default 0: the joint's origin only), as ozz-animation does, so rotation error shows as it
   * would on a skin vertex that far from the joint. Clip units, in model space (a joint's scale
   * does not stretch it).
   */
  distance?: number;
  /**
   * Instants measured inside each frame interval besides the frames, evenly spaced (default
   * `SUBDIVISIONS`: u = 1/5 … 4/5); 0 measures at the frames only. Integer ≥ 0.
   */
  subdivisions?: number;
  /** Also report the error's distribution against this threshold (`p99Error`, `shareWithin`). */
  threshold?: number;
}

/** Default instants per frame interval between the frames: u = 0.2, 0.4, 0.6, 0.8. */
export const SUBDIVISIONS = 4;

/**
 * Compares `clip` with `reduced` — a reduction of it (a clip of the same skeleton and timing,
 * sampled by its own sampler: `sampleClipInto`, which evaluates a reduced clip's curves), or
 * frames in the clip's layout (`frameCount × jointCount × 10`, played as the uniform sampler
 * plays frames) — by forward kinematics at every frame and at `subdivisions` instants inside
 * every frame interval: the distance between each joint's model-space position (and, with
 * `distance`, the three points at that distance along its axes) in the two, and the angle
 * between its model-space rotations. Quaternions are normalized before use, as the samplers
 * do. Allocates; offline tool, not for the frame loop.
 */
export function measureModelError(clip: Clip, reduced: Clip | Float32Array, options: ModelErrorOptions = {}): ModelError {
  return createErrorMeter(clip, options).measure(reduced instanceof Float32Array ? { ...clip, frames: reduced, reduced: null, stats: null } : reduced, options.threshold);
}

/** A measurer of reductions of one clip, the clip's own model poses computed once. */
export interface ErrorMeter {
  /** Sample instants, seconds (frames and the instants between them, ascending). */
  readonly times: Float64Array;
  /** {@link measureModelError} of `reduced` against the meter's clip; with `threshold`, its distribution too. */
  measure(reduced: Clip, threshold?: number): ModelError;
}

/**
 * Precomputes `clip`'s model poses at every instant {@link measureModelError} measures (frames
 * and `subdivisions` per interval) so that many candidate reductions are measured against them
 * (the reducer's search measures each of its passes). Memory: 16 doubles per joint per
 * instant (the CMU jumps, 2,752 frames × 31 joints at 4 subdivisions: 55 MB).
 */
export function createErrorMeter(clip: Clip, options: ModelErrorOptions = {}): ErrorMeter {
  const { skeleton, frameCount, frameRate } = clip;
  const jointCount = skeleton.jointCount;
  const distance = options.distance ?? 0;
  const subdivisions = options.subdivisions ?? SUBDIVISIONS;
  const perInterval = subdivisions + 1;
  const count = frameCount <= 1 ? frameCount : (frameCount - 1) * perInterval + 1;
  const times = new Float64Array(count);
  for (let f = 0; f + 1 < frameCount; f++) {
    for (let i = 0; i < perInterval; i++) times[f * perInterval + i] = (f + i / perInterval) / frameRate;
  }
  if (count > 0) times[count - 1] = (frameCount - 1) / frameRate;

  const poseSize = jointCount * POSE_STRIDE;
  const pose = new Float32Array(poseSize);
  const local = new Float64Array(poseSize); // modelPose's normalized copy
  const source = new Float64Array(count * jointCount * MODEL_STRIDE);
  for (let k = 0; k < count; k++) {
    sampleClipInto(pose, 0, clip, times, k); // as it plays
    modelPose(source, k * jointCount * MODEL_STRIDE, skeleton, pose, local);
    if (distance > 0) unitAxes(source, k * jointCount * MODEL_STRIDE, jointCount);
  }
  const candidate = new Float64Array(jointCount * MODEL_STRIDE);

  return {
    times,
    measure(reduced: Clip, threshold?: number): ModelError {
      let max = 0, sum = 0, samples = 0, worstJoint = -1, worstSample = -1;
      const perSample = threshold === undefined ? null : new Float64Array(count * jointCount);
      let maxAngle = 0, worstRotationJoint = -1;
      const points = distance > 0 ? 4 : 1;
      for (let k = 0; k < count; k++) {
        sampleClipInto(pose, 0, reduced, times, k);
        modelPose(candidate, 0, skeleton, pose, local);
        if (points > 1) unitAxes(candidate, 0, jointCount);
        const base = k * jointCount * MODEL_STRIDE;
        for (let j = 0; j < jointCount; j++) {
          const a = base + j * MODEL_STRIDE, b = j * MODEL_STRIDE;
          let jointMax = 0;
          for (let p = 0; p < points; p++) {
            // Point p: the origin, then distance along the joint's x, y, z axis (unit columns of M).
            let dx = source[a + MATRIX_T] - candidate[b + MATRIX_T], dy = source[a + MATRIX_T + 1] - candidate[b + MATRIX_T + 1], dz = source[a + MATRIX_T + 2] - candidate[b + MATRIX_T + 2];
            if (p > 0) {
              const c = (p - 1) * 3;
              dx += distance * (source[a + c] - candidate[b + c]);
              dy += distance * (source[a + c + 1] - candidate[b + c + 1]);
              dz += distance * (source[a + c + 2] - candidate[b + c + 2]);
            }
            const e = Math.sqrt(dx * dx + dy * dy + dz * dz);
            sum += e;
            samples++;
            if (e > max) { max = e; worstJoint = j; worstSample = k; }
            if (e > jointMax) jointMax = e;
          }
          if (perSample !== null) perSample[k * jointCount + j] = jointMax;
          // Angle between unit quaternions q and r: 4·asin(|q − ±r| / 2), the sign taking the nearer.
          const sx = source[a + MODEL_Q], sy = source[a + MODEL_Q + 1], sz = source[a + MODEL_Q + 2], sw = source[a + MODEL_Q + 3];
          const cx = candidate[b + MODEL_Q], cy = candidate[b + MODEL_Q + 1], cz = candidate[b + MODEL_Q + 2], cw = candidate[b + MODEL_Q + 3];
          const dot = sx * cx + sy * cy + sz * cz + sw * cw;
          const s = dot < 0 ? -1 : 1;
          const ex = sx - s * cx, ey = sy - s * cy;
          const ez = sz - s * cz, ew = sw - s * cw;
          const angle = 4 * Math.asin(Math.min(1, Math.sqrt(ex * ex + ey * ey + ez * ez + ew * ew) / 2));
          if (angle > maxAngle) { maxAngle = angle; worstRotationJoint = j; }
        }
      }
      return {
        maxError: max,
        meanError: samples > 0 ? sum / samples : 0,
        worstJoint,
        worstFrame: worstSample < 0 ? -1 : Math.round(times[worstSample] * frameRate * perInterval) / perInterval,
        maxRotationError: (maxAngle * 180) / Math.PI,
        worstRotationJoint,
        ...(perSample === null ? {} : distribution(perSample, threshold!)),
      };
    },
  };
}

/** The 99th percentile (nearest rank) of `errors` and the share of them ≤ `threshold` (0 and 1 for none). */
function distribution(errors: Float64Array, threshold: number): { p99Error: number; shareWithin: number } {
  if (errors.length === 0) return { p99Error: 0, shareWithin: 1 };
  let within = 0;
  for (let i = 0; i < errors.length; i++) if (errors[i] <= threshold) within++;
  const sorted = errors.slice().sort();
  return { p99Error: sorted[Math.ceil(0.99 * sorted.length) - 1], shareWithin: within / errors.length };
}

/** Doubles per joint of a model pose here: the 3×4 matrix, then the model rotation quaternion. */
const MODEL_STRIDE = 16;
/** Offset of the model rotation quaternion in a joint's record, after its matrix. */
const MODEL_Q = MATRIX_STRIDE;

/**
 * Model matrices and rotations of one local pose into `out` at `off` (16 doubles per joint:
 * the affine matrix, then the unit quaternion of the joint's model rotation, the product of
 * its and its ancestors' local rotations — scale left out), by `composeModel` on a copy of
 * the pose (`local`, poseSize doubles) with the quaternions normalized.
 */
function modelPose(out: Float64Array, off: number, skeleton: Skeleton, pose: Float32Array, local: Float64Array): void {
  for (let p = 0; p < skeleton.jointCount * POSE_STRIDE; p += POSE_STRIDE) {
    for (let c = 0; c < POSE_STRIDE; c++) local[p + c] = pose[p + c];
    const x = local[p + POSE_Q], y = local[p + POSE_Q + 1], z = local[p + POSE_Q + 2], w = local[p + POSE_Q + 3];
    const n = Math.sqrt(x * x + y * y + z * z + w * w);
    if (n > 0) for (let c = p + POSE_Q; c < p + POSE_Q + 4; c++) local[c] = local[c] / n;
  }
  composeModel(out, off, MODEL_STRIDE, local, 0, skeleton.parents, 0, skeleton.jointCount, MODEL_Q);
}

/**
 * Scales the three axis columns of each joint's matrix in `out` (at `off`, {@link MODEL_STRIDE}
 * apart) to unit length, so a shell point lies `distance` from the joint in model units whatever
 * the joint's scale (RobotExpressive's root joint scales by 100: without this its shell would
 * be 100× as far out). A zero column stays zero. Run after the whole pose is built (children
 * read their parent's scaled matrix).
 */
function unitAxes(out: Float64Array, off: number, jointCount: number): void {
  for (let j = 0; j < jointCount; j++) {
    for (let c = 0; c < 9; c += 3) {
      const o = off + j * MODEL_STRIDE + c;
      const n = Math.sqrt(out[o] * out[o] + out[o + 1] * out[o + 1] + out[o + 2] * out[o + 2]);
      if (n > 0) {
        out[o] = out[o] / n;
        out[o + 1] = out[o + 1] / n;
        out[o + 2] = out[o + 2] / n;
      }
    }
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
    for (let a = skeleton.parents[j]; a !== NO_PARENT; a = skeleton.parents[a]) {
      const tj = j * MATRIX_STRIDE + MATRIX_T, ta = a * MATRIX_STRIDE + MATRIX_T;
      const dx = model[tj] - model[ta];
      const dy = model[tj + 1] - model[ta + 1];
      const dz = model[tj + 2] - model[ta + 2];
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz) + distance;
      if (r > reach[a]) reach[a] = r;
    }
  }
  return reach;
}

/**
 * The default measuring distance of `reduceClip` for `skeleton`: a tenth of its hip height (the
 * hip joint's rest height above the lowest joint), or, without a hip joint (or with the hip
 * at the bottom), a tenth of the rest pose's extent (the largest side of the box around its
 * joints); 0 for a one-point skeleton. Rotation of an end joint moves no joint, so without a
 * distance nothing bounds it; measured on a shell this far out, a rotation error θ moves some
 * shell point by at least 2·distance·sin(θ/2)·√(2/3) − (the joint's own error), which the
 * tolerance bounds. ozz-animation uses 10 cm whatever the skeleton; a tenth of the hip height
 * is about that for a person (hips ~0.9–1 m) and scales with the character (and its units).
 * @throws AnimationError when `skeleton` is not a Skeleton.
 */
export function defaultErrorDistance(skeleton: Skeleton): number {
  if (typeof skeleton !== 'object' || skeleton === null || !(skeleton.parents instanceof Int16Array) || !(skeleton.rest instanceof Float32Array)) {
    fail('defaultErrorDistance', 'skeleton', `is ${skeleton === null ? 'null' : typeof skeleton}: must be a Skeleton from createSkeleton`);
  }
  const model = computeRestModel(skeleton.parents, skeleton.rest);
  const jointCount = skeleton.jointCount;
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < jointCount; j++) {
    for (let c = 0; c < 3; c++) {
      const v = model[j * MATRIX_STRIDE + MATRIX_T + c];
      if (v < low[c]) low[c] = v;
      if (v > high[c]) high[c] = v;
    }
  }
  if (jointCount === 0) return 0;
  const hip = skeleton.hipJoint;
  const hipHeight = hip >= 0 ? model[hip * MATRIX_STRIDE + MATRIX_T + 1] - low[1] : 0;
  if (hipHeight > 0) return hipHeight / 10;
  return Math.max(high[0] - low[0], high[1] - low[1], high[2] - low[2]) / 10;
}
