/**
 * Local → model: the one kernel that composes joint poses down the hierarchy, used by every
 * part of bitanim that needs model space (the skinning system, aim's partial chains, the
 * skeleton's rest model, LOD's rest heights, `inspect`, the importer's and the offline
 * tools' checks).
 *
 * For each joint j of the range `[from, to)`, with L_j = T·R·S its local pose as a matrix
 * (three.js `Matrix4.compose`), q_j its local rotation and p = parents[j]:
 *
 *     C_j = L_j,  Q_j = q_j               (p = NO_PARENT, a root)
 *     C_j = C_p · L_j,  Q_j = Q_p · q_j   (otherwise; p < j, so C_p and Q_p are already written)
 *
 * The model rotation Q_j (Hamilton product, as `quat.multiply`) is written only when asked
 * for (`rotationOff` ≥ 0, Float64 records: aim's chains and the model-error measure); scale
 * is left out of it, so it is the rotation of C_j only when the ancestors' scales are uniform.
 *
 * Layout: `local` holds joint poses (`POSE_STRIDE` = 10 floats, `tx ty tz qx qy qz qw sx sy sz`)
 * back to back from `localOff`; `out` holds one record of `stride` floats per joint from
 * `outOff` (joint j at `outOff + j·stride`): the 3×4 column-major matrix in its first 12
 * (`m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz`), Q_j `x y z w` at `rotationOff` inside the
 * record. `stride` is `MATRIX_STRIDE` for a matrix palette; longer records keep the rest
 * untouched. Joints outside the range are neither read nor written, except the parents of
 * the range's joints, which must be up to date in `out`: a range may start after joints
 * composed earlier (aim recomposes only what a correction moved). With `joints` (Float64
 * records), the range is of positions in that list instead: the joints `joints[from .. to)`,
 * ascending, each one's parent composed before it (aim's chains: only the joints on the
 * paths to the aimed joints).
 *
 * The numbers: the products of `affine.fromSQT` then `affine.multiply`, with L_j kept in
 * doubles (never stored), so only C_j is rounded, to the precision of `out`. With a
 * Float64Array `out` that is exactly what the two affine calls give (a double stored in a
 * Float64Array is read back unchanged); with a Float32Array `out` it is a little better than
 * the calls (L_j is not rounded to float32 first). Every caller composes through here, so a
 * pose composed twice (skin and aim, rest model and importer) gives the same bits.
 *
 * Speed: the hot callers are the skinning system (Float32 pools in and out) and aim (Float32
 * local pose, Float64 records with rotations). V8 keeps type feedback per array access in
 * the code, so one loop fed both kinds of `out` checks the kind at every access: measured at
 * 10,000 × 64 joints, that made skinSystem and aimSystem each 12–14 % slower. So the loop is
 * written out once per output precision (`composeFloat32`, `composeFloat64`: the same
 * statements in the same order, the second also composing rotations and taking a joint list,
 * which aim needs in the same pass), and {@link composeModel} picks one per call. A Float64 `out` with a Float64
 * `local` (the importer's and the offline checks) goes through the affine and quat calls,
 * which give the same numbers there, so nothing offline teaches the hot loops a second array
 * kind. Calls per joint in the hot loops instead (which V8 does not inline there) made
 * skinSystem 2.1× and aimSystem about 1.15× slower; composing aim's rotations in a second
 * pass, 5 % slower; a call per run of consecutive joints instead of a joint list, 5–10 %. `test/math/composeModel.test.ts` checks the paths against each other and
 * against a per-joint reference.
 *
 * `out` must not overlap `local`. Quaternions are used as given (assumed unit). No
 * allocation, no throwing; indices are not checked.
 */
import * as affine from './affine.js';
import * as layout from './layout.js';
import * as quat from './quat.js';
import type { NumArray } from './types.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S, MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;

/**
 * Writes the model matrices of joints `[from, to)` (see the file header): for each joint j,
 * `out[outOff + j·stride ..+12]` = C_parent(j) · T·R·S of `local[localOff + j·POSE_STRIDE ..]`,
 * or T·R·S for a root; with `rotationOff` ≥ 0 (Float64 `out` only) also the model rotation
 * Q_parent(j) · q_j at `out[outOff + j·stride + rotationOff ..+4]`; with `joints` (Float64
 * `out` only) for the joints `joints[from .. to)` instead of `from .. to - 1`. `parents[j]` is −1 for a
 * root and below j otherwise; the parents of the range's joints must already be composed in
 * `out`. `out` must not overlap `local`. A Float32 `out` takes a Float32 `local` (the pools);
 * a Float64 `out` takes either.
 */
export function composeModel(
  out: Float32Array, outOff: number, stride: number, local: Float32Array, localOff: number, parents: Int16Array, from: number, to: number,
): void;
export function composeModel(
  out: Float64Array, outOff: number, stride: number, local: NumArray, localOff: number, parents: Int16Array, from: number, to: number,
  rotationOff?: number, joints?: Int32Array | null,
): void;
export function composeModel(
  out: NumArray, outOff: number, stride: number, local: NumArray, localOff: number, parents: Int16Array, from: number, to: number,
  rotationOff = -1, joints: Int32Array | null = null,
): void {
  if (out instanceof Float32Array) composeFloat32(out, outOff, stride, local as Float32Array, localOff, parents, from, to);
  else if (local instanceof Float32Array) composeFloat64(out, outOff, stride, local, localOff, parents, from, to, rotationOff, joints);
  else composeByCalls(out, outOff, stride, local, localOff, parents, from, to, rotationOff, joints);
}

/** {@link composeModel} into Float32 records from a Float32 pose (the pools). */
function composeFloat32(
  out: Float32Array, outOff: number, stride: number, local: Float32Array, localOff: number, parents: Int16Array, from: number, to: number,
): void {
  for (let j = from; j < to; j++) {
    const l = localOff + j * POSE_STRIDE;
    const o = outOff + j * stride;
    // L = T·R·S (affine.fromSQT)
    const x = local[l + POSE_Q], y = local[l + POSE_Q + 1], z = local[l + POSE_Q + 2], w = local[l + POSE_Q + 3];
    const sx = local[l + POSE_S], sy = local[l + POSE_S + 1], sz = local[l + POSE_S + 2];
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;
    const ltx = local[l + POSE_T], lty = local[l + POSE_T + 1], ltz = local[l + POSE_T + 2];
    const parent = parents[j];
    if (parent < 0) {
      out[o + MATRIX_X] = l00; out[o + MATRIX_X + 1] = l10; out[o + MATRIX_X + 2] = l20;
      out[o + MATRIX_Y] = l01; out[o + MATRIX_Y + 1] = l11; out[o + MATRIX_Y + 2] = l21;
      out[o + MATRIX_Z] = l02; out[o + MATRIX_Z + 1] = l12; out[o + MATRIX_Z + 2] = l22;
      out[o + MATRIX_T] = ltx; out[o + MATRIX_T + 1] = lty; out[o + MATRIX_T + 2] = ltz;
      continue;
    }
    // C = C_parent · L (affine.multiply)
    const p = outOff + parent * stride;
    const p00 = out[p + MATRIX_X], p10 = out[p + MATRIX_X + 1], p20 = out[p + MATRIX_X + 2];
    const p01 = out[p + MATRIX_Y], p11 = out[p + MATRIX_Y + 1], p21 = out[p + MATRIX_Y + 2];
    const p02 = out[p + MATRIX_Z], p12 = out[p + MATRIX_Z + 1], p22 = out[p + MATRIX_Z + 2];
    out[o + MATRIX_X] = p00 * l00 + p01 * l10 + p02 * l20;
    out[o + MATRIX_X + 1] = p10 * l00 + p11 * l10 + p12 * l20;
    out[o + MATRIX_X + 2] = p20 * l00 + p21 * l10 + p22 * l20;
    out[o + MATRIX_Y] = p00 * l01 + p01 * l11 + p02 * l21;
    out[o + MATRIX_Y + 1] = p10 * l01 + p11 * l11 + p12 * l21;
    out[o + MATRIX_Y + 2] = p20 * l01 + p21 * l11 + p22 * l21;
    out[o + MATRIX_Z] = p00 * l02 + p01 * l12 + p02 * l22;
    out[o + MATRIX_Z + 1] = p10 * l02 + p11 * l12 + p12 * l22;
    out[o + MATRIX_Z + 2] = p20 * l02 + p21 * l12 + p22 * l22;
    out[o + MATRIX_T] = p00 * ltx + p01 * lty + p02 * ltz + out[p + MATRIX_T];
    out[o + MATRIX_T + 1] = p10 * ltx + p11 * lty + p12 * ltz + out[p + MATRIX_T + 1];
    out[o + MATRIX_T + 2] = p20 * ltx + p21 * lty + p22 * ltz + out[p + MATRIX_T + 2];
  }
}

/**
 * The skinning system's pass (JavaScript kernels): {@link composeModel} of joints
 * `[0, jointCount)` into Float32 matrices `model` at `modelOff` (stride `MATRIX_STRIDE`) and,
 * in the same pass, each joint's palette matrix K_j = C_j · B_j⁻¹ into `palette` at
 * `paletteOff` (`computeSkinPalette`'s product, from C_j as stored: rounded to float32 by
 * `Math.fround`, so the bits are those of `composeModel` then `computeSkinPalette`). One pass
 * instead of two saves reloading C_j and a second loop (measured at 10,000 × 64 joints:
 * docs/performance.md). `model` must not overlap `local` or `palette`.
 */
export function composeSkin(
  model: Float32Array, modelOff: number, palette: Float32Array, paletteOff: number, local: Float32Array, localOff: number,
  parents: Int16Array, inverseBind: Float32Array, jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const l = localOff + j * POSE_STRIDE;
    const o = modelOff + j * MATRIX_STRIDE;
    // L = T·R·S (affine.fromSQT), as composeFloat32.
    const x = local[l + POSE_Q], y = local[l + POSE_Q + 1], z = local[l + POSE_Q + 2], w = local[l + POSE_Q + 3];
    const sx = local[l + POSE_S], sy = local[l + POSE_S + 1], sz = local[l + POSE_S + 2];
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;
    const ltx = local[l + POSE_T], lty = local[l + POSE_T + 1], ltz = local[l + POSE_T + 2];
    // C = C_parent · L (affine.multiply), or L for a root; rounded to float32 as the pool stores it.
    let c00 = l00, c10 = l10, c20 = l20, c01 = l01, c11 = l11, c21 = l21, c02 = l02, c12 = l12, c22 = l22, ctx = ltx, cty = lty, ctz = ltz;
    const parent = parents[j];
    if (parent >= 0) {
      const p = modelOff + parent * MATRIX_STRIDE;
      const p00 = model[p + MATRIX_X], p10 = model[p + MATRIX_X + 1], p20 = model[p + MATRIX_X + 2];
      const p01 = model[p + MATRIX_Y], p11 = model[p + MATRIX_Y + 1], p21 = model[p + MATRIX_Y + 2];
      const p02 = model[p + MATRIX_Z], p12 = model[p + MATRIX_Z + 1], p22 = model[p + MATRIX_Z + 2];
      c00 = p00 * l00 + p01 * l10 + p02 * l20;
      c10 = p10 * l00 + p11 * l10 + p12 * l20;
      c20 = p20 * l00 + p21 * l10 + p22 * l20;
      c01 = p00 * l01 + p01 * l11 + p02 * l21;
      c11 = p10 * l01 + p11 * l11 + p12 * l21;
      c21 = p20 * l01 + p21 * l11 + p22 * l21;
      c02 = p00 * l02 + p01 * l12 + p02 * l22;
      c12 = p10 * l02 + p11 * l12 + p12 * l22;
      c22 = p20 * l02 + p21 * l12 + p22 * l22;
      ctx = p00 * ltx + p01 * lty + p02 * ltz + model[p + MATRIX_T];
      cty = p10 * ltx + p11 * lty + p12 * ltz + model[p + MATRIX_T + 1];
      ctz = p20 * ltx + p21 * lty + p22 * ltz + model[p + MATRIX_T + 2];
    }
    const a00 = Math.fround(c00), a10 = Math.fround(c10), a20 = Math.fround(c20);
    const a01 = Math.fround(c01), a11 = Math.fround(c11), a21 = Math.fround(c21);
    const a02 = Math.fround(c02), a12 = Math.fround(c12), a22 = Math.fround(c22);
    const atx = Math.fround(ctx), aty = Math.fround(cty), atz = Math.fround(ctz);
    model[o + MATRIX_X] = a00; model[o + MATRIX_X + 1] = a10; model[o + MATRIX_X + 2] = a20;
    model[o + MATRIX_Y] = a01; model[o + MATRIX_Y + 1] = a11; model[o + MATRIX_Y + 2] = a21;
    model[o + MATRIX_Z] = a02; model[o + MATRIX_Z + 1] = a12; model[o + MATRIX_Z + 2] = a22;
    model[o + MATRIX_T] = atx; model[o + MATRIX_T + 1] = aty; model[o + MATRIX_T + 2] = atz;
    // K = C · B⁻¹ (computeSkinPalette).
    const b = j * MATRIX_STRIDE;
    const k = paletteOff + j * MATRIX_STRIDE;
    const b00 = inverseBind[b + MATRIX_X], b10 = inverseBind[b + MATRIX_X + 1], b20 = inverseBind[b + MATRIX_X + 2];
    const b01 = inverseBind[b + MATRIX_Y], b11 = inverseBind[b + MATRIX_Y + 1], b21 = inverseBind[b + MATRIX_Y + 2];
    const b02 = inverseBind[b + MATRIX_Z], b12 = inverseBind[b + MATRIX_Z + 1], b22 = inverseBind[b + MATRIX_Z + 2];
    const btx = inverseBind[b + MATRIX_T], bty = inverseBind[b + MATRIX_T + 1], btz = inverseBind[b + MATRIX_T + 2];
    palette[k + MATRIX_X] = a00 * b00 + a01 * b10 + a02 * b20;
    palette[k + MATRIX_X + 1] = a10 * b00 + a11 * b10 + a12 * b20;
    palette[k + MATRIX_X + 2] = a20 * b00 + a21 * b10 + a22 * b20;
    palette[k + MATRIX_Y] = a00 * b01 + a01 * b11 + a02 * b21;
    palette[k + MATRIX_Y + 1] = a10 * b01 + a11 * b11 + a12 * b21;
    palette[k + MATRIX_Y + 2] = a20 * b01 + a21 * b11 + a22 * b21;
    palette[k + MATRIX_Z] = a00 * b02 + a01 * b12 + a02 * b22;
    palette[k + MATRIX_Z + 1] = a10 * b02 + a11 * b12 + a12 * b22;
    palette[k + MATRIX_Z + 2] = a20 * b02 + a21 * b12 + a22 * b22;
    palette[k + MATRIX_T] = a00 * btx + a01 * bty + a02 * btz + atx;
    palette[k + MATRIX_T + 1] = a10 * btx + a11 * bty + a12 * btz + aty;
    palette[k + MATRIX_T + 2] = a20 * btx + a21 * bty + a22 * btz + atz;
  }
}

/**
 * {@link composeModel} into Float64 records from a Float32 pose (aim's scratch, rest models):
 * `composeFloat32`'s statements, then the rotation when `rotationOff` ≥ 0.
 */
function composeFloat64(
  out: Float64Array, outOff: number, stride: number, local: Float32Array, localOff: number, parents: Int16Array, from: number, to: number,
  rotationOff: number, joints: Int32Array | null,
): void {
  for (let k = from; k < to; k++) {
    const j = joints === null ? k : joints[k];
    const l = localOff + j * POSE_STRIDE;
    const o = outOff + j * stride;
    const x = local[l + POSE_Q], y = local[l + POSE_Q + 1], z = local[l + POSE_Q + 2], w = local[l + POSE_Q + 3];
    const sx = local[l + POSE_S], sy = local[l + POSE_S + 1], sz = local[l + POSE_S + 2];
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;
    const ltx = local[l + POSE_T], lty = local[l + POSE_T + 1], ltz = local[l + POSE_T + 2];
    const parent = parents[j];
    if (parent < 0) {
      out[o + MATRIX_X] = l00; out[o + MATRIX_X + 1] = l10; out[o + MATRIX_X + 2] = l20;
      out[o + MATRIX_Y] = l01; out[o + MATRIX_Y + 1] = l11; out[o + MATRIX_Y + 2] = l21;
      out[o + MATRIX_Z] = l02; out[o + MATRIX_Z + 1] = l12; out[o + MATRIX_Z + 2] = l22;
      out[o + MATRIX_T] = ltx; out[o + MATRIX_T + 1] = lty; out[o + MATRIX_T + 2] = ltz;
      if (rotationOff >= 0) {
        const r = o + rotationOff;
        out[r] = x; out[r + 1] = y; out[r + 2] = z; out[r + 3] = w;
      }
      continue;
    }
    const p = outOff + parent * stride;
    const p00 = out[p + MATRIX_X], p10 = out[p + MATRIX_X + 1], p20 = out[p + MATRIX_X + 2];
    const p01 = out[p + MATRIX_Y], p11 = out[p + MATRIX_Y + 1], p21 = out[p + MATRIX_Y + 2];
    const p02 = out[p + MATRIX_Z], p12 = out[p + MATRIX_Z + 1], p22 = out[p + MATRIX_Z + 2];
    out[o + MATRIX_X] = p00 * l00 + p01 * l10 + p02 * l20;
    out[o + MATRIX_X + 1] = p10 * l00 + p11 * l10 + p12 * l20;
    out[o + MATRIX_X + 2] = p20 * l00 + p21 * l10 + p22 * l20;
    out[o + MATRIX_Y] = p00 * l01 + p01 * l11 + p02 * l21;
    out[o + MATRIX_Y + 1] = p10 * l01 + p11 * l11 + p12 * l21;
    out[o + MATRIX_Y + 2] = p20 * l01 + p21 * l11 + p22 * l21;
    out[o + MATRIX_Z] = p00 * l02 + p01 * l12 + p02 * l22;
    out[o + MATRIX_Z + 1] = p10 * l02 + p11 * l12 + p12 * l22;
    out[o + MATRIX_Z + 2] = p20 * l02 + p21 * l12 + p22 * l22;
    out[o + MATRIX_T] = p00 * ltx + p01 * lty + p02 * ltz + out[p + MATRIX_T];
    out[o + MATRIX_T + 1] = p10 * ltx + p11 * lty + p12 * ltz + out[p + MATRIX_T + 1];
    out[o + MATRIX_T + 2] = p20 * ltx + p21 * lty + p22 * ltz + out[p + MATRIX_T + 2];
    if (rotationOff >= 0) {
      // Q = Q_parent · q (quat.multiply)
      const r = o + rotationOff, pr = p + rotationOff;
      const ax = out[pr], ay = out[pr + 1], az = out[pr + 2], aw = out[pr + 3];
      out[r] = aw * x + ax * w + ay * z - az * y;
      out[r + 1] = aw * y - ax * z + ay * w + az * x;
      out[r + 2] = aw * z + ax * y - ay * x + az * w;
      out[r + 3] = aw * w - ax * x - ay * y - az * z;
    }
  }
}

/**
 * {@link composeModel} for a Float64 pose into Float64 records, by the math layer's calls
 * (`affine.fromSQT`, `affine.multiply`, `quat.multiply`): the same numbers as the written-out
 * loops, since every intermediate is a double. Import-time and offline callers only.
 */
function composeByCalls(
  out: NumArray, outOff: number, stride: number, local: NumArray, localOff: number, parents: Int16Array, from: number, to: number,
  rotationOff: number, joints: Int32Array | null,
): void {
  for (let k = from; k < to; k++) {
    const j = joints === null ? k : joints[k];
    const l = localOff + j * POSE_STRIDE;
    const o = outOff + j * stride;
    const parent = parents[j];
    const p = outOff + parent * stride;
    affine.fromSQT(out, o, local, l);
    if (parent >= 0) affine.multiply(out, o, out, p, out, o);
    if (rotationOff < 0) continue;
    if (parent >= 0) quat.multiply(out, o + rotationOff, out, p + rotationOff, local, l + POSE_Q);
    else quat.copy(out, o + rotationOff, local, l + POSE_Q);
  }
}
