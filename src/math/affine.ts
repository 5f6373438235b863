/**
 * Affine transforms as 3×4 matrices: 12 consecutive floats, column-major (DESIGN §3),
 *
 *     m00 m10 m20 | m01 m11 m21 | m02 m12 m22 | tx ty tz
 *
 * i.e. the three basis-vector columns of the linear part, then the translation. The implied
 * fourth row is `0 0 0 1`. A point p maps to `M3·p + t`; a direction v to `M3·v`.
 *
 * gl-matrix style: output first (`out`, `o`), then each input array with its offset. Every
 * function reads all inputs into locals before its first write, so `out` may overlap any
 * input (same array, any offsets). No allocation, no throwing.
 */
import type { NumArray } from './types.js';

/** Below this |det| of the linear part, {@link invert} treats the matrix as singular. */
const SINGULAR_DET = 1e-12;

/** Writes the identity transform to `out[o..o+11]`. */
export function identity(out: NumArray, o: number): void {
  out[o] = 1; out[o + 1] = 0; out[o + 2] = 0;
  out[o + 3] = 0; out[o + 4] = 1; out[o + 5] = 0;
  out[o + 6] = 0; out[o + 7] = 0; out[o + 8] = 1;
  out[o + 9] = 0; out[o + 10] = 0; out[o + 11] = 0;
}

/**
 * Writes the matrix `T·R·S` of a joint pose to `out[o..o+11]`: scale first, then rotate,
 * then translate (three.js `Matrix4.compose`). `pose[po..po+9]` is the SQT record
 * `tx ty tz qx qy qz qw sx sy sz`; the quaternion is assumed unit. Column j of the linear
 * part is `s_j` times column j of the rotation matrix of q. `out` may alias `pose`.
 */
export function fromSQT(out: NumArray, o: number, pose: NumArray, po: number): void {
  const tx = pose[po], ty = pose[po + 1], tz = pose[po + 2];
  const x = pose[po + 3], y = pose[po + 4], z = pose[po + 5], w = pose[po + 6];
  const sx = pose[po + 7], sy = pose[po + 8], sz = pose[po + 9];
  // Rotation matrix of a unit quaternion, e.g. R00 = 1 − 2(y² + z²), R10 = 2(xy + wz).
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  out[o] = (1 - (yy + zz)) * sx;
  out[o + 1] = (xy + wz) * sx;
  out[o + 2] = (xz - wy) * sx;
  out[o + 3] = (xy - wz) * sy;
  out[o + 4] = (1 - (xx + zz)) * sy;
  out[o + 5] = (yz + wx) * sy;
  out[o + 6] = (xz + wy) * sz;
  out[o + 7] = (yz - wx) * sz;
  out[o + 8] = (1 - (xx + yy)) * sz;
  out[o + 9] = tx;
  out[o + 10] = ty;
  out[o + 11] = tz;
}

/**
 * Writes the product `a·b` to `out[o..o+11]`: the transform that applies `b` first, then `a`
 * (e.g. `model = parentModel · local`). Linear part `A3·B3`, translation `A3·tb + ta`.
 * `out` may alias `a` or `b`.
 */
export function multiply(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number,
): void {
  const a00 = a[ao], a10 = a[ao + 1], a20 = a[ao + 2];
  const a01 = a[ao + 3], a11 = a[ao + 4], a21 = a[ao + 5];
  const a02 = a[ao + 6], a12 = a[ao + 7], a22 = a[ao + 8];
  const atx = a[ao + 9], aty = a[ao + 10], atz = a[ao + 11];
  const b00 = b[bo], b10 = b[bo + 1], b20 = b[bo + 2];
  const b01 = b[bo + 3], b11 = b[bo + 4], b21 = b[bo + 5];
  const b02 = b[bo + 6], b12 = b[bo + 7], b22 = b[bo + 8];
  const btx = b[bo + 9], bty = b[bo + 10], btz = b[bo + 11];
  out[o] = a00 * b00 + a01 * b10 + a02 * b20;
  out[o + 1] = a10 * b00 + a11 * b10 + a12 * b20;
  out[o + 2] = a20 * b00 + a21 * b10 + a22 * b20;
  out[o + 3] = a00 * b01 + a01 * b11 + a02 * b21;
  out[o + 4] = a10 * b01 + a11 * b11 + a12 * b21;
  out[o + 5] = a20 * b01 + a21 * b11 + a22 * b21;
  out[o + 6] = a00 * b02 + a01 * b12 + a02 * b22;
  out[o + 7] = a10 * b02 + a11 * b12 + a12 * b22;
  out[o + 8] = a20 * b02 + a21 * b12 + a22 * b22;
  out[o + 9] = a00 * btx + a01 * bty + a02 * btz + atx;
  out[o + 10] = a10 * btx + a11 * bty + a12 * btz + aty;
  out[o + 11] = a20 * btx + a21 * bty + a22 * btz + atz;
}

/**
 * Writes the inverse of `a` to `out[o..o+11]` and returns the determinant of its 3×3 linear
 * part. With columns c0 c1 c2, det = c0·(c1 × c2) and the rows of the inverse linear part are
 * (c1 × c2, c2 × c0, c0 × c1) / det; the inverse translation is `−M3⁻¹·t`.
 * When |det| < 1e-12 (or det is NaN) the matrix is treated as singular: writes the identity
 * and returns 0.
 * `out` may alias `a`.
 */
export function invert(out: NumArray, o: number, a: NumArray, ao: number): number {
  const a00 = a[ao], a10 = a[ao + 1], a20 = a[ao + 2];
  const a01 = a[ao + 3], a11 = a[ao + 4], a21 = a[ao + 5];
  const a02 = a[ao + 6], a12 = a[ao + 7], a22 = a[ao + 8];
  const tx = a[ao + 9], ty = a[ao + 10], tz = a[ao + 11];
  // r0 = c1 × c2, r1 = c2 × c0, r2 = c0 × c1.
  const r0x = a11 * a22 - a21 * a12, r0y = a21 * a02 - a01 * a22, r0z = a01 * a12 - a11 * a02;
  const r1x = a12 * a20 - a22 * a10, r1y = a22 * a00 - a02 * a20, r1z = a02 * a10 - a12 * a00;
  const r2x = a10 * a21 - a20 * a11, r2y = a20 * a01 - a00 * a21, r2z = a00 * a11 - a10 * a01;
  const det = a00 * r0x + a10 * r0y + a20 * r0z;
  if (!(Math.abs(det) >= SINGULAR_DET)) {
    identity(out, o);
    return 0;
  }
  const inv = 1 / det;
  out[o] = r0x * inv;
  out[o + 1] = r1x * inv;
  out[o + 2] = r2x * inv;
  out[o + 3] = r0y * inv;
  out[o + 4] = r1y * inv;
  out[o + 5] = r2y * inv;
  out[o + 6] = r0z * inv;
  out[o + 7] = r1z * inv;
  out[o + 8] = r2z * inv;
  out[o + 9] = -(r0x * tx + r0y * ty + r0z * tz) * inv;
  out[o + 10] = -(r1x * tx + r1y * ty + r1z * tz) * inv;
  out[o + 11] = -(r2x * tx + r2y * ty + r2z * tz) * inv;
  return det;
}

/**
 * Writes the point `v[vo..vo+2]` transformed by `m` (`M3·v + t`) to `out[o..o+2]` (3 floats).
 * `out` may alias `v` or `m`.
 */
export function transformPoint(
  out: NumArray, o: number, m: NumArray, mo: number, v: NumArray, vo: number,
): void {
  const x = v[vo], y = v[vo + 1], z = v[vo + 2];
  const rx = m[mo] * x + m[mo + 3] * y + m[mo + 6] * z + m[mo + 9];
  const ry = m[mo + 1] * x + m[mo + 4] * y + m[mo + 7] * z + m[mo + 10];
  const rz = m[mo + 2] * x + m[mo + 5] * y + m[mo + 8] * z + m[mo + 11];
  out[o] = rx;
  out[o + 1] = ry;
  out[o + 2] = rz;
}

/**
 * Writes the direction `v[vo..vo+2]` transformed by the linear part of `m` (`M3·v`, no
 * translation) to `out[o..o+2]` (3 floats). `out` may alias `v` or `m`.
 */
export function transformVector(
  out: NumArray, o: number, m: NumArray, mo: number, v: NumArray, vo: number,
): void {
  const x = v[vo], y = v[vo + 1], z = v[vo + 2];
  const rx = m[mo] * x + m[mo + 3] * y + m[mo + 6] * z;
  const ry = m[mo + 1] * x + m[mo + 4] * y + m[mo + 7] * z;
  const rz = m[mo + 2] * x + m[mo + 5] * y + m[mo + 8] * z;
  out[o] = rx;
  out[o + 1] = ry;
  out[o + 2] = rz;
}

/**
 * Writes `m` as a column-major 4×4 matrix to `out[o..o+15]` (16 floats, the order of
 * three.js `Matrix4.elements` and WebGL uniforms): each column gets a 0 appended, the
 * translation column a 1. `out` may alias `m`.
 */
export function toMat4(out: NumArray, o: number, m: NumArray, mo: number): void {
  const m00 = m[mo], m10 = m[mo + 1], m20 = m[mo + 2];
  const m01 = m[mo + 3], m11 = m[mo + 4], m21 = m[mo + 5];
  const m02 = m[mo + 6], m12 = m[mo + 7], m22 = m[mo + 8];
  const tx = m[mo + 9], ty = m[mo + 10], tz = m[mo + 11];
  out[o] = m00; out[o + 1] = m10; out[o + 2] = m20; out[o + 3] = 0;
  out[o + 4] = m01; out[o + 5] = m11; out[o + 6] = m21; out[o + 7] = 0;
  out[o + 8] = m02; out[o + 9] = m12; out[o + 10] = m22; out[o + 11] = 0;
  out[o + 12] = tx; out[o + 13] = ty; out[o + 14] = tz; out[o + 15] = 1;
}
