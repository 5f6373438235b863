/**
 * The model-space error of a reduction, measured by hand (the test's own measure, apart from
 * reduceClip's): shared by the reduction tests in test/offline/lod and test/long/lod.
 */
import { POSE_STRIDE, sampleClipInto } from '../../../src/kernels.js';
import type { Clip, Skeleton } from '../../../src/index.js';

/**
 * Model poses by hand, in doubles: per joint its position, its 3×3 linear part (rotation times
 * scale, columns = the joint's axes) and its model rotation quaternion, parents first:
 * p = p_parent + M_parent·t, M = M_parent·R(q)·diag(s), Q = Q_parent·q (q normalized).
 */
export function forwardKinematics(skeleton: Skeleton, pose: ArrayLike<number>): { p: Float64Array; m: Float64Array; q: Float64Array } {
  const n = skeleton.jointCount;
  const p = new Float64Array(n * 3), m = new Float64Array(n * 9), q = new Float64Array(n * 4);
  for (let j = 0; j < n; j++) {
    const o = j * POSE_STRIDE;
    const len = Math.hypot(pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!);
    const [x, y, z, w] = [pose[o + 3]! / len, pose[o + 4]! / len, pose[o + 5]! / len, pose[o + 6]! / len];
    const s = [pose[o + 7]!, pose[o + 8]!, pose[o + 9]!];
    // Row-major R(q)·diag(s).
    const local = [
      (1 - 2 * (y * y + z * z)) * s[0]!, 2 * (x * y - z * w) * s[1]!, 2 * (x * z + y * w) * s[2]!,
      2 * (x * y + z * w) * s[0]!, (1 - 2 * (x * x + z * z)) * s[1]!, 2 * (y * z - x * w) * s[2]!,
      2 * (x * z - y * w) * s[0]!, 2 * (y * z + x * w) * s[1]!, (1 - 2 * (x * x + y * y)) * s[2]!,
    ];
    const t = [pose[o]!, pose[o + 1]!, pose[o + 2]!];
    const parent = skeleton.parents[j]!;
    if (parent < 0) {
      p.set(t, j * 3);
      m.set(local, j * 9);
      q.set([x, y, z, w], j * 4);
      continue;
    }
    const pm = m.subarray(parent * 9, parent * 9 + 9);
    for (let r = 0; r < 3; r++) {
      p[j * 3 + r] = p[parent * 3 + r]! + pm[r * 3]! * t[0]! + pm[r * 3 + 1]! * t[1]! + pm[r * 3 + 2]! * t[2]!;
      for (let c = 0; c < 3; c++) m[j * 9 + r * 3 + c] = pm[r * 3]! * local[c]! + pm[r * 3 + 1]! * local[3 + c]! + pm[r * 3 + 2]! * local[6 + c]!;
    }
    const [ax, ay, az, aw] = q.subarray(parent * 4, parent * 4 + 4);
    q.set([
      aw! * x + ax! * w + ay! * z - az! * y, aw! * y - ax! * z + ay! * w + az! * x,
      aw! * z + ax! * y - ay! * x + az! * w, aw! * w - ax! * x - ay! * y - az! * z,
    ], j * 4);
  }
  return { p, m, q };
}

/** The default measuring distance as specified: a tenth of the hips' rest height above the lowest joint, else of the rest extent. */
export function specifiedDistance(skeleton: Skeleton): number {
  const { p } = forwardKinematics(skeleton, skeleton.rest);
  const axis = (c: number) => Array.from({ length: skeleton.jointCount }, (_, j) => p[j * 3 + c]!);
  const ys = axis(1);
  const hipHeight = skeleton.hipJoint >= 0 ? ys[skeleton.hipJoint]! - Math.min(...ys) : 0;
  if (hipHeight > 0) return hipHeight / 10;
  return Math.max(...[0, 1, 2].map((c) => Math.max(...axis(c)) - Math.min(...axis(c)))) / 10;
}

/**
 * The test's own measurement of a reduction: both clips sampled with the public `sampleClipInto`
 * (the source as frames, lerp/nlerp; the reduction from its curves) at every frame and at
 * u = 0.2, 0.4, 0.6, 0.8 inside every frame interval; the largest distance between a joint's
 * model position, or a point `distance` (model units) along one of its axes, in the two; and the largest
 * model-space rotation angle 2·acos|⟨Q, Q'⟩| of any joint and of the end joints (no children).
 */
export function continuousError(source: Clip, reduced: Clip, distance: number): { position: number; rotation: number; endRotation: number } {
  const skeleton = source.skeleton;
  const n = skeleton.jointCount;
  const isEnd = Array.from({ length: n }, (_, j) => !Array.from(skeleton.parents).includes(j));
  const a = new Float32Array(n * POSE_STRIDE), b = new Float32Array(n * POSE_STRIDE);
  const time = new Float64Array(1);
  let position = 0, rotation = 0, endRotation = 0;
  for (let f = 0; f < source.frameCount; f++) {
    for (const u of f + 1 < source.frameCount ? [0, 0.2, 0.4, 0.6, 0.8] : [0]) {
      time[0] = (f + u) / source.frameRate;
      sampleClipInto(a, 0, source, time, 0);
      sampleClipInto(b, 0, reduced, time, 0);
      const fa = forwardKinematics(skeleton, a), fb = forwardKinematics(skeleton, b);
      for (let j = 0; j < n; j++) {
        for (let point = 0; point < 4; point++) {
          let d2 = 0;
          // A point `distance` along the joint's axis (its column of M scaled to unit length).
          const c = point - 1;
          const na = point === 0 ? 1 : Math.hypot(fa.m[j * 9 + c]!, fa.m[j * 9 + 3 + c]!, fa.m[j * 9 + 6 + c]!);
          const nb = point === 0 ? 1 : Math.hypot(fb.m[j * 9 + c]!, fb.m[j * 9 + 3 + c]!, fb.m[j * 9 + 6 + c]!);
          for (let r = 0; r < 3; r++) {
            const axis = point === 0 ? 0 : distance * (fa.m[j * 9 + r * 3 + c]! / na - fb.m[j * 9 + r * 3 + c]! / nb);
            d2 += (fa.p[j * 3 + r]! - fb.p[j * 3 + r]! + axis) ** 2;
          }
          position = Math.max(position, Math.sqrt(d2));
        }
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += fa.q[j * 4 + c]! * fb.q[j * 4 + c]!;
        const angle = (2 * Math.acos(Math.min(1, Math.abs(dot))) * 180) / Math.PI;
        rotation = Math.max(rotation, angle);
        if (isEnd[j]) endRotation = Math.max(endRotation, angle);
      }
    }
  }
  return { position, rotation, endRotation };
}
