/**
 * Rotation quaternions stored as 4 consecutive floats `x y z w` (vector part first, as in
 * glTF and three.js) at an element offset.
 *
 * Conventions: Hamilton product, column vectors, right-handed. `multiply(a, b)` is the
 * rotation "b first, then a", the same as three.js `Quaternion.multiplyQuaternions(a, b)`.
 *
 * gl-matrix style: output first (`out`, `o`), then each input array with its offset. Every
 * function reads all inputs into locals before its first write, so `out` may overlap any
 * input (same array, any offsets). No allocation, no throwing.
 */
import type { NumArray } from './types.js';

/** Below this `1 − cos θ` (θ ≈ 1.4e-3 rad between the inputs) slerp falls back to nlerp. */
const SLERP_EPSILON = 1e-6;
/** Below this `|xyz|` (angle ≈ 2e-12 rad for a unit quaternion) the axis is reported as +X. */
const AXIS_EPSILON = 1e-12;

/** Writes the identity rotation `(0, 0, 0, 1)` to `out[o..o+3]`. */
export function identity(out: NumArray, o: number): void {
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = 1;
}

/** Copies the quaternion at `a[ao..ao+3]` to `out[o..o+3]`. `out` may alias `a`. */
export function copy(out: NumArray, o: number, a: NumArray, ao: number): void {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2], w = a[ao + 3];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
}

/** Writes `(x, y, z, w)` to `out[o..o+3]` as given (not normalized). */
export function set(out: NumArray, o: number, x: number, y: number, z: number, w: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  out[o + 3] = w;
}

/**
 * Writes the Hamilton product `a·b` to `out[o..o+3]`: the rotation that applies `b` first,
 * then `a` (three.js `multiplyQuaternions(a, b)`). `out` may alias `a` or `b`.
 *
 * With a = (u, p), b = (v, q) as (vector, scalar): a·b = (p·v + q·u + u × v, p·q − u·v).
 */
export function multiply(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number,
): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  out[o] = aw * bx + ax * bw + ay * bz - az * by;
  out[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * Writes the conjugate `(−x, −y, −z, w)` to `out[o..o+3]`; for a unit quaternion this is the
 * inverse rotation. `out` may alias `a`.
 */
export function conjugate(out: NumArray, o: number, a: NumArray, ao: number): void {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2], w = a[ao + 3];
  out[o] = -x;
  out[o + 1] = -y;
  out[o + 2] = -z;
  out[o + 3] = w;
}

/**
 * Writes the multiplicative inverse `conjugate(a) / |a|²` to `out[o..o+3]`, so that
 * `a·a⁻¹ = (0, 0, 0, 1)` for any non-zero `a`. A zero quaternion gives zero.
 * `out` may alias `a`.
 */
export function invert(out: NumArray, o: number, a: NumArray, ao: number): void {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2], w = a[ao + 3];
  const lenSq = x * x + y * y + z * z + w * w;
  const inv = lenSq > 0 ? 1 / lenSq : 0;
  out[o] = -x * inv;
  out[o + 1] = -y * inv;
  out[o + 2] = -z * inv;
  out[o + 3] = w * inv;
}

/** Returns the 4D dot product `a · b` (the cosine of half the angle between unit rotations). */
export function dot(a: NumArray, ao: number, b: NumArray, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
}

/** Returns the 4D Euclidean length `|a|`. */
export function length(a: NumArray, ao: number): number {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2], w = a[ao + 3];
  return Math.sqrt(x * x + y * y + z * z + w * w);
}

/**
 * Writes `a / |a|` to `out[o..o+3]` and returns the original length `|a|`.
 * A zero quaternion becomes the identity `(0, 0, 0, 1)` (returns 0). `out` may alias `a`.
 */
export function normalize(out: NumArray, o: number, a: NumArray, ao: number): number {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2], w = a[ao + 3];
  const len = Math.sqrt(x * x + y * y + z * z + w * w);
  if (len > 0) {
    const inv = 1 / len;
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
    out[o + 3] = w * inv;
  } else {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
  }
  return len;
}

/**
 * Normalized linear interpolation: writes `normalize(a + t·(b' − a))` to `out[o..o+3]`, where
 * `b' = −b` when `a · b < 0` (hemisphere fix: q and −q are the same rotation, and negating
 * picks the shorter arc). `t = 0` gives `a`, `t = 1` gives `b` (up to sign). Constant-speed
 * only at t = 0, ½, 1; cheaper than `slerp` and what blending uses (ozz, DESIGN §3).
 * A zero result (only from zero inputs) becomes the identity. `out` may alias `a` or `b`.
 */
export function nlerp(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number, t: number,
): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  out[o] = ax + t * (bx - ax);
  out[o + 1] = ay + t * (by - ay);
  out[o + 2] = az + t * (bz - az);
  out[o + 3] = aw + t * (bw - aw);
  normalize(out, o, out, o);
}

/**
 * Spherical linear interpolation along the shortest arc (Shoemake 1985): with cos θ = a·b'
 * (b' = −b when a·b < 0),
 * `out = sin((1−t)θ)/sin θ · a + sin(tθ)/sin θ · b'`, constant angular speed in `t`.
 * When the inputs are nearly parallel (1 − cos θ < 1e-6) the weights are ill-conditioned and
 * it falls back to `nlerp`. Inputs are assumed unit; `out` may alias `a` or `b`.
 */
export function slerp(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number, t: number,
): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  if (1 - cos < SLERP_EPSILON) {
    nlerp(out, o, a, ao, b, bo, t);
    return;
  }
  // atan2 keeps θ accurate near both ends, where acos(cos) loses digits.
  const sin = Math.sqrt(1 - cos * cos);
  const theta = Math.atan2(sin, cos);
  const wa = Math.sin((1 - t) * theta) / sin;
  const wb = Math.sin(t * theta) / sin;
  out[o] = wa * ax + wb * bx;
  out[o + 1] = wa * ay + wb * by;
  out[o + 2] = wa * az + wb * bz;
  out[o + 3] = wa * aw + wb * bw;
}

/**
 * Writes the rotation of `angle` radians about `axis[axisOff..axisOff+2]` (right-hand rule):
 * `(sin(angle/2)·axis, cos(angle/2))`. The axis is assumed unit. `out` may alias `axis`.
 */
export function fromAxisAngle(
  out: NumArray, o: number, axis: NumArray, axisOff: number, angle: number,
): void {
  const ux = axis[axisOff], uy = axis[axisOff + 1], uz = axis[axisOff + 2];
  const half = 0.5 * angle;
  const s = Math.sin(half);
  out[o] = ux * s;
  out[o + 1] = uy * s;
  out[o + 2] = uz * s;
  out[o + 3] = Math.cos(half);
}

/**
 * Decomposes `q[qo..qo+3]` into a unit axis, written to `outAxis[axisOff..axisOff+2]`, and
 * returns the shortest-arc angle in [0, π]: `q` and `−q` are the same rotation, so when
 * w < 0 it uses `−q` (a 270° turn about +Z is reported as 90° about −Z). The angle is
 * `2·atan2(|xyz|, w)`, accurate at both ends. When `|xyz|` is ~0 (angle ~0, including the
 * zero quaternion) the axis is `(1, 0, 0)`. `q` is assumed unit; `outAxis` may alias `q`.
 */
export function toAxisAngle(outAxis: NumArray, axisOff: number, q: NumArray, qo: number): number {
  let x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < AXIS_EPSILON) {
    outAxis[axisOff] = 1;
    outAxis[axisOff + 1] = 0;
    outAxis[axisOff + 2] = 0;
  } else {
    const inv = 1 / s;
    outAxis[axisOff] = x * inv;
    outAxis[axisOff + 1] = y * inv;
    outAxis[axisOff + 2] = z * inv;
  }
  return 2 * Math.atan2(s, w);
}

/**
 * Writes `v[vo..vo+2]` rotated by `q[qo..qo+3]` (`q·v·q*`) to `out[o..o+2]` (3 floats).
 * Uses the expanded form with u = q.xyz: `t = 2·(u × v)`, `v' = v + w·t + u × t`
 * (15 multiplies instead of two quaternion products). `q` is assumed unit; `out` may alias
 * `v` or `q`.
 */
export function rotateVec3(
  out: NumArray, o: number, q: NumArray, qo: number, v: NumArray, vo: number,
): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}
