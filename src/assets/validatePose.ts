import { POSE_Q, POSE_STRIDE, POSE_T } from '../math/layout.js';
import { shownString } from './limits.js';
import type { IssueList } from './AnimationError.js';

/** Names of the 10 floats of a joint pose, for error messages. */
export const POSE_CHANNELS = ['tx', 'ty', 'tz', 'qx', 'qy', 'qz', 'qw', 'sx', 'sy', 'sz'] as const;

/** Default tolerance on |q| − 1 within which a quaternion is silently re-normalized. */
export const QUATERNION_TOLERANCE = 0.01;

/** Below this length a quaternion is "zero": it has no direction and is refused. */
const ZERO_QUATERNION = 1e-6;

/**
 * Translation and rotation components, and inverse bind matrix entries, smaller than this in
 * magnitude are stored as 0 when a clip or a skeleton is created (clip frames, rest poses,
 * attachment offsets given as poses, and a binding's reference poses: every pose validated
 * here; and `createSkeleton`'s inverse binds). Exporters leave values like
 * 1e-36 where they mean 0 (RobotExpressive's clips hold a few hundred). The WebAssembly kernels
 * compute in float32 lanes, where the product of such a value with anything below about 1e-2
 * is subnormal, and subnormal arithmetic is many times slower on x86 processors unless
 * flush-to-zero is on — which WebAssembly cannot turn on (docs/performance.md has the measured
 * cost). Products of two values at or above the threshold stay far above float32's smallest
 * normal number (1.2e-38); a metre of 1e-15 is a femtometre, a quaternion component of 1e-15 a
 * turn of 2e-15 rad. Scales are kept as given (a tiny scale that hides a joint stays a scale).
 */
export const FLUSH_TO_ZERO_BELOW = 1e-15;

/** Anything indexable by number with a length: typed arrays and plain arrays alike. */
export type NumberList = ArrayLike<number>;

/**
 * Copies `jointCount` joint poses from `src` into `dst`, checking each value and normalizing
 * each rotation. Faults go to `issues` with paths like `frames[3] joint "Knee" (2).qw`.
 *
 * Rules: every float is finite; a quaternion whose length is within `tolerance` of 1 is
 * normalized; a zero quaternion, or one further from unit length, is a fault (it usually
 * means the channels are in the wrong order or the data is not rotations at all); translation
 * and rotation components below {@link FLUSH_TO_ZERO_BELOW} in magnitude are then stored as 0.
 */
export function copyValidatedPose(
  issues: IssueList,
  label: string,
  names: readonly string[],
  src: NumberList,
  srcOff: number,
  dst: Float32Array,
  dstOff: number,
  jointCount: number,
  tolerance: number,
): void {
  for (let joint = 0; joint < jointCount && !issues.full; joint++) {
    const s = srcOff + joint * POSE_STRIDE;
    const d = dstOff + joint * POSE_STRIDE;
    let finite = true;
    for (let c = 0; c < POSE_STRIDE; c++) {
      const v = src[s + c] as number;
      dst[d + c] = v;
      // Checked after storing: a finite double beyond ±3.4e38 becomes Infinity as a float32.
      if (typeof v !== 'number' || !Number.isFinite(dst[d + c])) {
        const what = typeof v === 'number' && Number.isFinite(v) ? `is ${v}, too large for a 32-bit float` : `is ${shownString(v)}, not a finite number`;
        issues.add(`${label} joint "${names[joint]}" (${joint}).${POSE_CHANNELS[c]}`, what);
        finite = false;
      }
    }
    if (!finite) continue;
    const qx = dst[d + POSE_Q], qy = dst[d + POSE_Q + 1], qz = dst[d + POSE_Q + 2], qw = dst[d + POSE_Q + 3];
    const len = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    const where = `${label} joint "${names[joint]}" (${joint}).q`;
    if (len < ZERO_QUATERNION) {
      issues.add(where, 'is a zero quaternion: a rotation needs a unit quaternion');
    } else if (Math.abs(len - 1) > tolerance) {
      issues.add(where, `has length ${len.toPrecision(6)}: a rotation needs a unit quaternion (tolerance ${tolerance})`);
    } else {
      const inv = 1 / len;
      dst[d + POSE_Q] = qx * inv;
      dst[d + POSE_Q + 1] = qy * inv;
      dst[d + POSE_Q + 2] = qz * inv;
      dst[d + POSE_Q + 3] = qw * inv;
    }
    for (let a = 0; a < 3; a++) if (Math.abs(dst[d + POSE_T + a]) < FLUSH_TO_ZERO_BELOW) dst[d + POSE_T + a] = 0;
    for (let a = 0; a < 4; a++) if (Math.abs(dst[d + POSE_Q + a]) < FLUSH_TO_ZERO_BELOW) dst[d + POSE_Q + a] = 0;
  }
}
