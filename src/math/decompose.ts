/**
 * A composed 3×4 affine matrix back into a joint pose (T, R, S): what the glTF importer bakes
 * node transforms with, and what a binding reads a skeleton's bind pose (inverse bind
 * matrices) through.
 *
 * Offline code (runs once per import or binding), so it favours clarity over speed.
 */
import { MATRIX_T, MATRIX_X, MATRIX_Y, MATRIX_Z, POSE_Q, POSE_S, POSE_T } from './layout.js';
import type { NumArray } from './types.js';

/** Columns whose normalized dot product exceeds this are "sheared" (≈ 0.006° off 90°). */
const SHEAR_TOLERANCE = 1e-4;
/** A column shorter than this (relative to the longest) counts as a zero scale. */
const DEGENERATE_SCALE = 1e-12;

/**
 * Decomposes the affine `m[mo..mo+11]` into the joint pose `out[o..o+9]`
 * (`tx ty tz qx qy qz qw sx sy sz`) with `m = T·R·S`, and returns false when `m` has shear
 * (its columns are not orthogonal), which T·R·S cannot hold: the pose then keeps the column
 * lengths as scale and the orthonormalized directions as rotation.
 *
 * - Scale is the length of each column; a negative determinant (a mirror) negates `sx`.
 * - A zero column is rebuilt from the other two (cross product) so the rotation stays proper;
 *   with two or more zero columns the rotation is the identity.
 * - Rotation matrix → quaternion by Shepperd's method (the largest of w, x, y, z is computed
 *   first), as three.js `Quaternion.setFromRotationMatrix`.
 */
export function decompose(out: NumArray, o: number, m: NumArray, mo: number): boolean {
  let c0x = m[mo + MATRIX_X], c0y = m[mo + MATRIX_X + 1], c0z = m[mo + MATRIX_X + 2];
  let c1x = m[mo + MATRIX_Y], c1y = m[mo + MATRIX_Y + 1], c1z = m[mo + MATRIX_Y + 2];
  let c2x = m[mo + MATRIX_Z], c2y = m[mo + MATRIX_Z + 1], c2z = m[mo + MATRIX_Z + 2];
  out[o + POSE_T] = m[mo + MATRIX_T];
  out[o + POSE_T + 1] = m[mo + MATRIX_T + 1];
  out[o + POSE_T + 2] = m[mo + MATRIX_T + 2];

  let sx = Math.hypot(c0x, c0y, c0z);
  const sy = Math.hypot(c1x, c1y, c1z);
  const sz = Math.hypot(c2x, c2y, c2z);
  const det = c0x * (c1y * c2z - c1z * c2y) + c0y * (c1z * c2x - c1x * c2z) + c0z * (c1x * c2y - c1y * c2x);
  if (det < 0) sx = -sx;
  out[o + POSE_S] = sx;
  out[o + POSE_S + 1] = sy;
  out[o + POSE_S + 2] = sz;

  const tiny = DEGENERATE_SCALE * Math.max(Math.abs(sx), sy, sz);
  const z0 = Math.abs(sx) <= tiny, z1 = sy <= tiny, z2 = sz <= tiny;
  let orthogonal = true;
  if ((z0 ? 1 : 0) + (z1 ? 1 : 0) + (z2 ? 1 : 0) >= 2 || !(tiny > 0)) {
    out[o + POSE_Q] = 0;
    out[o + POSE_Q + 1] = 0;
    out[o + POSE_Q + 2] = 0;
    out[o + POSE_Q + 3] = 1;
    return true;
  }
  if (!z0) { c0x /= sx; c0y /= sx; c0z /= sx; }
  if (!z1) { c1x /= sy; c1y /= sy; c1z /= sy; }
  if (!z2) { c2x /= sz; c2y /= sz; c2z /= sz; }
  if (z0) {
    c0x = c1y * c2z - c1z * c2y; c0y = c1z * c2x - c1x * c2z; c0z = c1x * c2y - c1y * c2x;
  } else if (z1) {
    c1x = c2y * c0z - c2z * c0y; c1y = c2z * c0x - c2x * c0z; c1z = c2x * c0y - c2y * c0x;
  } else if (z2) {
    c2x = c0y * c1z - c0z * c1y; c2y = c0z * c1x - c0x * c1z; c2z = c0x * c1y - c0y * c1x;
  } else {
    orthogonal = Math.abs(c0x * c1x + c0y * c1y + c0z * c1z) <= SHEAR_TOLERANCE
      && Math.abs(c1x * c2x + c1y * c2y + c1z * c2z) <= SHEAR_TOLERANCE
      && Math.abs(c2x * c0x + c2y * c0y + c2z * c0z) <= SHEAR_TOLERANCE;
  }

  // Row-major names: rRC = row R, column C of the rotation matrix.
  const r00 = c0x, r10 = c0y, r20 = c0z, r01 = c1x, r11 = c1y, r21 = c1z, r02 = c2x, r12 = c2y, r22 = c2z;
  const trace = r00 + r11 + r22;
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / s;
    x = (r21 - r12) * s;
    y = (r02 - r20) * s;
    z = (r10 - r01) * s;
  } else if (r00 > r11 && r00 > r22) {
    const s = 2 * Math.sqrt(1 + r00 - r11 - r22);
    w = (r21 - r12) / s;
    x = 0.25 * s;
    y = (r01 + r10) / s;
    z = (r02 + r20) / s;
  } else if (r11 > r22) {
    const s = 2 * Math.sqrt(1 + r11 - r00 - r22);
    w = (r02 - r20) / s;
    x = (r01 + r10) / s;
    y = 0.25 * s;
    z = (r12 + r21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + r22 - r00 - r11);
    w = (r10 - r01) / s;
    x = (r02 + r20) / s;
    y = (r12 + r21) / s;
    z = 0.25 * s;
  }
  const len = Math.hypot(x, y, z, w);
  if (len > 0 && Number.isFinite(len)) {
    out[o + POSE_Q] = x / len;
    out[o + POSE_Q + 1] = y / len;
    out[o + POSE_Q + 2] = z / len;
    out[o + POSE_Q + 3] = w / len;
  } else {
    out[o + POSE_Q] = 0;
    out[o + POSE_Q + 1] = 0;
    out[o + POSE_Q + 2] = 0;
    out[o + POSE_Q + 3] = 1;
  }
  return orthogonal;
}

