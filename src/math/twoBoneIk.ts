/**
 * Analytic two-bone IK (upper arm – forearm – hand, thigh – shin – foot) on model-space
 * positions, solved with the law of cosines; the result is two model-space rotation deltas.
 *
 * ## Method
 * Sources: Daniel Holden, "Simple Two Joint IK" (2017),
 * https://theorangeduck.com/page/simple-two-joint (law of cosines on the joint angles, then
 * one rotation of the root to aim), and ozz-animation `IKTwoBoneJob`
 * (`include/ozz/animation/runtime/ik_two_bone_job.h`: the mid joint turns only about its
 * hinge axis; the start joint aims, then turns about the root→target axis toward the pole).
 * With root a, mid b, end c, target t, pole p, bones e1 = b − a, e2 = c − b, l1 = |e1|,
 * l2 = |e2|:
 *
 * 1. Aim direction u = (t − a)/|t − a|; reach d = clamp(|t − a|, |l1 − l2|, l1 + l2).
 * 2. Hinge axis h = (e1 × e2)/|e1 × e2|, the normal of the current bend plane.
 * 3. Mid (hinge) rotation, law of cosines d² = l1² + l2² − 2·l1·l2·cos θ' for the new inner
 *    angle θ' at the mid joint, evaluated in half-angle form
 *    θ' = 2·atan2(√(d² − (l1 − l2)²), √((l1 + l2)² − d²)) (= acos((l1² + l2² − d²)/(2·l1·l2)),
 *    but exact at the clamps, where acos loses half the digits); the current one is
 *    θ = atan2(|e1 × e2|, −e1·e2). Turning the forearm by θ − θ' about h
 *    (positive about h closes the elbow) puts the end at distance d from the root:
 *    c₁ = b + rot(h, θ − θ')·e2.
 * 4. Aim: A = the shortest arc from (c₁ − a) to u (about h if they are opposite).
 * 5. Pole: T = the rotation about u by the signed angle from the elbow's side
 *    n = u × (A·h) (where the mid joint now lies, seen from the root→target line; it is
 *    defined even for a straight chain) to p⊥ = the part of p − a perpendicular to u.
 *    After it, the mid joint lies in the half-plane of a, t and p on the pole's side.
 * 6. Upper delta D1 = T·A; lower delta D2 = rot(D1·h, θ − θ'): the hinge turn of step 3,
 *    expressed after D1 (D1·rot(h, ·)·D1⁻¹ = rot(D1·h, ·)), so that
 *    end' = a + D1·(c₁ − a) = a + d·u.
 * 7. Weight w ∈ [0, 1]: D1w = D1 with its angle times w (slerp from the identity) and
 *    D2w = rot(D1w·h, w·(θ − θ')), so at every weight the elbow still turns about its own
 *    hinge only.
 *
 * ## Degenerate inputs (each gives finite output, never NaN)
 * - Target beyond l1 + l2: d = l1 + l2, θ' = π — the chain is straight and points at it.
 * - Target nearer than |l1 − l2|: d = |l1 − l2|, θ' = 0 — the chain is folded and its end
 *   lies on the root→target ray.
 * - Target on the root (|t − a| ≤ 1e-9): u keeps the chain's current aim (c − a, else e1,
 *   else e2, else +Z).
 * - Straight or folded chain (|e1 × e2| ≤ 1e-9·l1·l2): h = ((p − a) × e1) normalized, the
 *   axis that bends the elbow toward the pole; when the pole is on that line too, any
 *   perpendicular of e1 (`perpendicular` in `rotationArc.ts`).
 * - Pole on the root→target line or on the root (|p⊥| ≤ 1e-9·|p − a|): no pole turn (T = 1);
 *   the current bend plane is kept.
 * - A bone shorter than 1e-9: no hinge turn (θ − θ' = 0); the chain is one bone, aimed.
 *   If the end then sits on the root (l1 = l2, d = 0), the upper bone is aimed instead.
 *
 * Lengths are in the units of the positions (metres by default); angles in radians.
 */
import type { NumArray } from './types.js';
import * as quat from './quat.js';
import { fromUnitVectors, perpendicular, splitRotation } from './rotationArc.js';

/** Offset of the root (upper) joint's model-space position `x y z` in a params block. */
export const IK_ROOT = 0;
/** Offset of the mid (lower) joint's model-space position `x y z` in a params block. */
export const IK_MID = 3;
/** Offset of the end joint's model-space position `x y z` in a params block. */
export const IK_END = 6;
/** Offset of the target position `x y z` (model space) in a params block. */
export const IK_TARGET = 9;
/** Offset of the pole position `x y z` (model space) in a params block: the elbow bends toward it. */
export const IK_POLE = 12;
/** Offset of the weight in [0, 1] in a params block (clamped; NaN counts as 0). */
export const IK_WEIGHT = 15;
/** Floats in a {@link solveTwoBoneIk} params block. */
export const IK_PARAMS = 16;
/** Offset of D1, the upper (root) joint's model-space delta, in the output of {@link solveTwoBoneIk}. */
export const IK_D1 = 0;
/** Offset of D2, the lower (mid) joint's model-space delta, in the output of {@link solveTwoBoneIk}. */
export const IK_D2 = 4;

/** Distances at or below this (in position units) count as zero. */
const ZERO_LENGTH = 1e-9;
/** Sines of angles at or below this count as parallel. */
const PARALLEL_SINE = 1e-9;

// Fixed-size temporaries (STYLE: math temporaries may live at module level).
const scratch = new Float64Array(32);
const S_U = 0; // aim direction u (3)
const S_H = 3; // hinge axis h (3)
const S_V = 6; // a vector being turned (3)
const S_Q = 9; // a quaternion: the hinge turn, then T (4)
const S_A = 13; // aim arc A, then D1 (4)
const S_D1W = 17; // weighted D1 (4)
const S_W = 21; // the clamped weight (1)
const S_T = 22; // T·A before it is copied (4)
const S_HW = 26; // D1w·h (3)
const S_HALF = 29; // a half angle handed to setAxisHalfAngle (1)

/**
 * Solves two-bone IK for one chain and writes the two model-space rotation deltas:
 * `out[o + IK_D1 ..]` = D1 for the upper (root) joint and `out[o + IK_D2 ..]` = D2 for the lower (mid)
 * joint, unit quaternions `x y z w`. Returns whether the target is within reach
 * (|l1 − l2| ≤ |t − a| ≤ l1 + l2); out of reach the chain still points at it, straight or
 * folded (see the module comment for the method and every degenerate case).
 *
 * `params[po..po+15]` (use a Float64Array; layout constants `IK_*`, {@link IK_PARAMS} floats):
 *
 * | offset | field |
 * | --- | --- |
 * | 0–2 `IK_ROOT` | root (upper joint) position, model space |
 * | 3–5 `IK_MID` | mid (lower joint) position |
 * | 6–8 `IK_END` | end joint position |
 * | 9–11 `IK_TARGET` | target position |
 * | 12–14 `IK_POLE` | pole position: the mid joint bends toward it |
 * | 15 `IK_WEIGHT` | weight in [0, 1]: 0 gives identities, 1 the full solve |
 *
 * The positions are the translations of the joints' model matrices (`m[9..11]` of a 3×4
 * record). Scalars travel in the block, not as arguments, so the per-frame call boxes no
 * double.
 *
 * ## Applying the deltas
 * Model rotations are pre-multiplied, each delta about its own joint's position:
 *
 *     model_upper' = D1 · model_upper
 *     model_lower' = D2 · D1 · model_lower      (D2 acts after D1)
 *     model_end'   = D2 · D1 · model_end        (the end keeps its local rotation)
 *
 * so that the end joint lands on the target. For a local pose (SQT records), with Q_j the
 * model rotation of joint j (the product of the local quaternions from the root,
 * Q_j = Q_parent · q_j), every corrected joint j with parent p gets
 *
 *     q_j' = inverse(Q_p') · delta_j · Q_p' · q_j    (normalize afterwards)
 *
 * where Q_p' is the parent's model rotation after its own correction:
 * - upper: delta = D1, Q_p' = Q_p (the parent is not changed);
 * - lower: delta = D2, Q_p' = Q_upper' = D1 · Q_upper.
 * Translations and scales stay as they are. Exact when the ancestors' scales are uniform
 * (then a model matrix's linear part is a scaled rotation and Q_p is that rotation).
 *
 * `out` may alias `params` (all inputs are read before the first write). No allocation.
 *
 * @example
 * const p = new Float64Array(IK_PARAMS);
 * p.set([0, 0, 0, 3, 0, 0, 7, 0, 0, 5, 0, 0, 0, 1, 0, 1], 0); // root, mid, end, target, pole, weight
 * const deltas = new Float64Array(8);
 * solveTwoBoneIk(deltas, 0, p, 0); // true: bones 3 and 4 reach 5 with a right-angle elbow
 */
export function solveTwoBoneIk(out: NumArray, o: number, params: NumArray, po: number): boolean {
  const ax = params[po + IK_ROOT], ay = params[po + IK_ROOT + 1], az = params[po + IK_ROOT + 2];
  const bx = params[po + IK_MID], by = params[po + IK_MID + 1], bz = params[po + IK_MID + 2];
  const cx = params[po + IK_END], cy = params[po + IK_END + 1], cz = params[po + IK_END + 2];
  const tx = params[po + IK_TARGET], ty = params[po + IK_TARGET + 1], tz = params[po + IK_TARGET + 2];
  let px = params[po + IK_POLE] - ax, py = params[po + IK_POLE + 1] - ay, pz = params[po + IK_POLE + 2] - az;
  const weightIn = params[po + IK_WEIGHT];
  const weight = weightIn > 0 ? (weightIn < 1 ? weightIn : 1) : 0;
  const s = scratch;

  // Only the pole's direction from the root matters: scale p − a to a largest |component| of
  // 1, so a pole extremely near the root does not underflow when squared (1e-162² = 0).
  const poleMax = Math.max(Math.abs(px), Math.abs(py), Math.abs(pz));
  if (poleMax > 0 && poleMax < Infinity) { px /= poleMax; py /= poleMax; pz /= poleMax; }

  const e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const e2x = cx - bx, e2y = cy - by, e2z = cz - bz;
  const l1 = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
  const l2 = Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);

  // 1. Aim direction u and clamped reach d.
  let ux = tx - ax, uy = ty - ay, uz = tz - az;
  const dist = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (!(dist > ZERO_LENGTH)) {
    // Target on the root: keep the chain's current aim.
    ux = cx - ax; uy = cy - ay; uz = cz - az;
    if (!(ux * ux + uy * uy + uz * uz > ZERO_LENGTH * ZERO_LENGTH)) { ux = e1x; uy = e1y; uz = e1z; }
    if (!(ux * ux + uy * uy + uz * uz > ZERO_LENGTH * ZERO_LENGTH)) { ux = e2x; uy = e2y; uz = e2z; }
    if (!(ux * ux + uy * uy + uz * uz > ZERO_LENGTH * ZERO_LENGTH)) { ux = 0; uy = 0; uz = 1; }
  }
  const uLen = Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux /= uLen; uy /= uLen; uz /= uLen;
  s[S_U] = ux; s[S_U + 1] = uy; s[S_U + 2] = uz;
  const lo = Math.abs(l1 - l2), hi = l1 + l2;
  const d = dist < lo ? lo : dist > hi ? hi : dist;

  // 2. Hinge axis h: the bend-plane normal e1 × e2, or for a straight/folded chain the axis
  // (p − a) × base that bends the elbow toward the pole, or any perpendicular of base.
  const crossX = e1y * e2z - e1z * e2y, crossY = e1z * e2x - e1x * e2z, crossZ = e1x * e2y - e1y * e2x;
  const crossLen = Math.sqrt(crossX * crossX + crossY * crossY + crossZ * crossZ);
  if (crossLen > PARALLEL_SINE * l1 * l2) {
    s[S_H] = crossX / crossLen; s[S_H + 1] = crossY / crossLen; s[S_H + 2] = crossZ / crossLen;
  } else {
    let fx = e1x, fy = e1y, fz = e1z, fl = l1;
    if (!(fl > ZERO_LENGTH)) { fx = e2x; fy = e2y; fz = e2z; fl = l2; }
    if (!(fl > ZERO_LENGTH)) { fx = ux; fy = uy; fz = uz; fl = 1; }
    const hx = py * fz - pz * fy, hy = pz * fx - px * fz, hz = px * fy - py * fx;
    const hl = Math.sqrt(hx * hx + hy * hy + hz * hz);
    const pl = Math.sqrt(px * px + py * py + pz * pz);
    if (hl > PARALLEL_SINE * pl * fl) {
      s[S_H] = hx / hl; s[S_H + 1] = hy / hl; s[S_H + 2] = hz / hl;
    } else {
      s[S_V] = fx; s[S_V + 1] = fy; s[S_V + 2] = fz;
      perpendicular(s, S_H, s, S_V);
    }
  }

  // 3. Hinge turn θ − θ' at the mid joint. θ' from the law of cosines in half-angle form:
  // 1 − cos θ' = (d² − (l1 − l2)²)/(2·l1·l2) and 1 + cos θ' = ((l1 + l2)² − d²)/(2·l1·l2), so
  // θ' = 2·atan2(√((d − lo)(d + lo)), √((hi − d)(hi + d))). Same angle as
  // acos((l1² + l2² − d²)/(2·l1·l2)), but exact at the clamps: there acos(1 − ε) ≈ √(2ε)
  // ≈ 1.5e-8 rad, which turns a folded chain's short end vector by l2·1.5e-8/(l1 − l2)
  // (1e-6 m measured on 1.93 m and 1.96 m bones).
  let hinge = 0;
  if (l1 > ZERO_LENGTH && l2 > ZERO_LENGTH) {
    const current = Math.atan2(crossLen, -(e1x * e2x + e1y * e2y + e1z * e2z));
    const open = (d - lo) * (d + lo), closed = (hi - d) * (hi + d);
    const inner = 2 * Math.atan2(Math.sqrt(open > 0 ? open : 0), Math.sqrt(closed > 0 ? closed : 0));
    hinge = current - inner;
  }
  s[S_HALF] = 0.5 * hinge;
  setAxisHalfAngle(s, S_Q, s, S_H, s, S_HALF);
  s[S_V] = e2x; s[S_V + 1] = e2y; s[S_V + 2] = e2z;
  quat.rotateVec3(s, S_V, s, S_Q, s, S_V);
  // v = c₁ − a = e1 + rot(h, θ − θ')·e2
  let vx = e1x + s[S_V], vy = e1y + s[S_V + 1], vz = e1z + s[S_V + 2];
  let vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (!(vl > ZERO_LENGTH)) {
    // The end sits on the root (l1 = l2, d = 0): aim the upper bone instead.
    vx = e1x; vy = e1y; vz = e1z; vl = l1;
  }

  // 4. Aim arc A: (c₁ − a) → u, about h when opposite (h ⊥ c₁ − a: both bones ⊥ h).
  if (vl > ZERO_LENGTH) {
    s[S_V] = vx / vl; s[S_V + 1] = vy / vl; s[S_V + 2] = vz / vl;
    fromUnitVectors(s, S_A, s, S_V, s, S_U, s, S_H);
  } else {
    quat.identity(s, S_A);
  }

  // 5. Pole turn T about u: from the elbow's side n = u × (A·h) to p⊥.
  const along = px * ux + py * uy + pz * uz;
  const ppx = px - ux * along, ppy = py - uy * along, ppz = pz - uz * along;
  const ppl = Math.sqrt(ppx * ppx + ppy * ppy + ppz * ppz);
  const poleLen = Math.sqrt(px * px + py * py + pz * pz);
  if (ppl > PARALLEL_SINE * poleLen) {
    quat.rotateVec3(s, S_V, s, S_A, s, S_H);
    const ahx = s[S_V], ahy = s[S_V + 1], ahz = s[S_V + 2];
    const nx = uy * ahz - uz * ahy, ny = uz * ahx - ux * ahz, nz = ux * ahy - uy * ahx;
    // Signed angle n → p⊥ about u: atan2(u·(n × p⊥), n·p⊥).
    const sin = ux * (ny * ppz - nz * ppy) + uy * (nz * ppx - nx * ppz) + uz * (nx * ppy - ny * ppx);
    const cos = nx * ppx + ny * ppy + nz * ppz;
    s[S_HALF] = 0.5 * Math.atan2(sin, cos);
    setAxisHalfAngle(s, S_Q, s, S_U, s, S_HALF);
    quat.multiply(s, S_T, s, S_Q, s, S_A);
    quat.copy(s, S_A, s, S_T);
  }

  // 6–7. Weighted deltas: D1w = D1 to the power w, D2w = rot(D1w·h, w·(θ − θ')).
  s[S_W] = weight;
  splitRotation(s, S_D1W, s, S_A, s, S_W);
  quat.rotateVec3(s, S_HW, s, S_D1W, s, S_H);
  quat.copy(out, o + IK_D1, s, S_D1W);
  s[S_HALF] = 0.5 * weight * hinge;
  setAxisHalfAngle(out, o + IK_D2, s, S_HW, s, S_HALF);
  return dist >= lo && dist <= hi;
}

/**
 * Writes `(sin(h)·axis, cos(h))` to `out[o..o+3]` with h = `half[ho]`: the rotation of 2h
 * radians about the unit `axis[ao..ao+2]` (`quat.fromAxisAngle`, with the angle read from an
 * array so no double is boxed). `out` may alias the inputs.
 */
function setAxisHalfAngle(
  out: NumArray, o: number, axis: NumArray, ao: number, half: NumArray, ho: number,
): void {
  const x = axis[ao], y = axis[ao + 1], z = axis[ao + 2];
  const h = half[ho];
  const sin = Math.sin(h);
  out[o] = x * sin;
  out[o + 1] = y * sin;
  out[o + 2] = z * sin;
  out[o + 3] = Math.cos(h);
}

/** fromUnitVectors' opposite threshold (math/rotationArc.ts). */
const IK_OPPOSITE = 1e-15;

/**
 * `solveTwoBoneIk(out, o, params, po)` at weight 1 (the weight in the block is not read), D1 and
 * D2 into `out[o + IK_D1 ..]`, `out[o + IK_D2 ..]`: the same construction (Holden's two-joint IK
 * as above) with its angles kept as half-angle cosines and sines instead of
 * atan2, sin and cos, which cost most of the solve. With h the hinge axis (e1 × e2), C the knee's
 * interior angle and I the one that puts the end at the clamped reach d:
 * - C/2 from cos C and sin C (= |e1 × e2|/(l1·l2)) by the half-angle formulas;
 * - I/2 from the kernel's half-angle form: tan(I/2) = √((d − lo)(d + lo)) / √((hi − d)(hi + d));
 * - the hinge turn H about h by C − I: cos, sin of (C − I)/2 by the difference formulas;
 * - the aim arc A from v = e1 + H·e2 to the target direction u (fromUnitVectors' formula), then
 *   the pole turn T about u by the signed angle α from n = u × (A·h) to the pole's part across
 *   u, its half angle from cos α and sin α by the half-angle formulas;
 * - D1 = T·A, with w ≥ 0 (as splitRotation at weight 1 leaves it), D2 = the turn about D1·h
 *   by C − I.
 * The same rotations as the kernel's to rounding (about 1e-16 in the doubles, so an occasional
 * last-bit difference in a float32 local rotation). The kernel's special cases — target on the
 * root, a zero bone, a straight or folded knee, a clamped reach of zero, an aim arc of 180°
 * (to 1e-15) — go to `solveTwoBoneIk` itself. Numbers pass through the arrays only, so nothing
 * is boxed if V8 does not inline the call.
 */
export function solveLegIk(out: Float64Array, o: number, params: Float64Array, po: number): void {
  const ax = params[po + IK_ROOT], ay = params[po + IK_ROOT + 1], az = params[po + IK_ROOT + 2];
  const bx = params[po + IK_MID], by = params[po + IK_MID + 1], bz = params[po + IK_MID + 2];
  const cx = params[po + IK_END], cy = params[po + IK_END + 1], cz = params[po + IK_END + 2];
  const e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const e2x = cx - bx, e2y = cy - by, e2z = cz - bz;
  const l1 = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
  const l2 = Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
  let ux = params[po + IK_TARGET] - ax, uy = params[po + IK_TARGET + 1] - ay, uz = params[po + IK_TARGET + 2] - az;
  const dist = Math.sqrt(ux * ux + uy * uy + uz * uz);
  const crossX = e1y * e2z - e1z * e2y, crossY = e1z * e2x - e1x * e2z, crossZ = e1x * e2y - e1y * e2x;
  const crossLen = Math.sqrt(crossX * crossX + crossY * crossY + crossZ * crossZ);
  if (!(dist > ZERO_LENGTH && l1 > ZERO_LENGTH && l2 > ZERO_LENGTH && crossLen > PARALLEL_SINE * l1 * l2)) {
    solveTwoBoneIk(out, o, params, po);
    return;
  }
  const iu = 1 / dist, ih = 1 / crossLen;
  ux *= iu; uy *= iu; uz *= iu;
  const hx = crossX * ih, hy = crossY * ih, hz = crossZ * ih;
  const lo = Math.abs(l1 - l2), hi = l1 + l2;
  const d = dist < lo ? lo : dist > hi ? hi : dist;

  // Half the hinge turn, (C − I)/2. C/2 from cos C = −e1·e2/(l1·l2) and sin C = |e1 × e2|/(l1·l2)
  // by the half-angle formulas, each where it does not cancel (cos C/2 = √((1 + cos C)/2) for
  // cos C ≥ 0, sin C/2 = √((1 − cos C)/2) otherwise, the other from sin C = 2 sin C/2 cos C/2).
  const il = 1 / (l1 * l2);
  const cosK = -(e1x * e2x + e1y * e2y + e1z * e2z) * il, sinK = crossLen * il;
  let cosC = 0, sinC = 0;
  if (cosK >= 0) {
    cosC = Math.sqrt(0.5 * (1 + cosK));
    sinC = sinK / (2 * cosC);
  } else {
    sinC = Math.sqrt(0.5 * (1 - cosK));
    cosC = sinK / (2 * sinC);
  }
  // I/2 from the kernel's half-angle form: open + closed = hi² − lo² = 4·l1·l2, so
  // cos(I/2) = √(closed/(4·l1·l2)) and sin(I/2) = √(open/(4·l1·l2)).
  const open = (d - lo) * (d + lo), closed = (hi - d) * (hi + d);
  const cosI = Math.sqrt(closed > 0 ? 0.25 * closed * il : 0), sinI = Math.sqrt(open > 0 ? 0.25 * open * il : 0);
  const cosH = cosC * cosI + sinC * sinI, sinH = sinC * cosI - cosC * sinI;

  // v = e1 + H·e2 (quat.rotateVec3 with H = (h sin, cos)).
  const qx = hx * sinH, qy = hy * sinH, qz = hz * sinH;
  const tx = 2 * (qy * e2z - qz * e2y), ty = 2 * (qz * e2x - qx * e2z), tz = 2 * (qx * e2y - qy * e2x);
  // |v| = d (the law of cosines put the end there), so v/d is its direction.
  if (!(d > ZERO_LENGTH)) { solveTwoBoneIk(out, o, params, po); return; }
  const iv = 1 / d;
  const vx = (e1x + e2x + cosH * tx + (qy * tz - qz * ty)) * iv;
  const vy = (e1y + e2y + cosH * ty + (qz * tx - qx * tz)) * iv;
  const vz = (e1z + e2z + cosH * tz + (qx * ty - qy * tx)) * iv;

  // A: the arc v → u.
  const wa = 1 + (vx * ux + vy * uy + vz * uz);
  if (!(wa > IK_OPPOSITE)) { solveTwoBoneIk(out, o, params, po); return; }
  let Ax = vy * uz - vz * uy, Ay = vz * ux - vx * uz, Az = vx * uy - vy * ux, Aw = wa;
  const ia = 1 / Math.sqrt(Ax * Ax + Ay * Ay + Az * Az + Aw * Aw);
  Ax *= ia; Ay *= ia; Az *= ia; Aw *= ia;

  // T: about u, from n = u × (A·h) to the pole's part across u. The pole's direction from the
  // root, scaled to a largest |component| of 1 as the kernel does (so the two take the same
  // branch on a pole along the aim).
  let px = params[po + IK_POLE] - ax, py = params[po + IK_POLE + 1] - ay, pz = params[po + IK_POLE + 2] - az;
  const poleMax = Math.max(Math.abs(px), Math.abs(py), Math.abs(pz));
  if (poleMax > 0 && poleMax < Infinity) {
    const ip = 1 / poleMax;
    px *= ip; py *= ip; pz *= ip;
  }
  const along = px * ux + py * uy + pz * uz;
  const ppx = px - ux * along, ppy = py - uy * along, ppz = pz - uz * along;
  // The kernel's test |p⊥| > PARALLEL_SINE·|p|, squared.
  const pp2 = ppx * ppx + ppy * ppy + ppz * ppz, pole2 = px * px + py * py + pz * pz;
  let Dx = Ax, Dy = Ay, Dz = Az, Dw = Aw;
  if (pp2 > PARALLEL_SINE * PARALLEL_SINE * pole2) {
    const sx = 2 * (Ay * hz - Az * hy), sy = 2 * (Az * hx - Ax * hz), sz = 2 * (Ax * hy - Ay * hx);
    const ahx = hx + Aw * sx + (Ay * sz - Az * sy), ahy = hy + Aw * sy + (Az * sx - Ax * sz), ahz = hz + Aw * sz + (Ax * sy - Ay * sx);
    const nx = uy * ahz - uz * ahy, ny = uz * ahx - ux * ahz, nz = ux * ahy - uy * ahx;
    // The signed angle α from n to p⊥ about u as the kernel has it, atan2(u·(n × p⊥), n·p⊥), kept
    // as its cosine and sine; its half angle by the half-angle formulas, each taken where it
    // does not cancel (cos α/2 = √((1 + cos α)/2) for cos α ≥ 0, sin α/2 = ±√((1 − cos α)/2)
    // otherwise, the other from sin α = 2 sin α/2 cos α/2).
    const sinR = ux * (ny * ppz - nz * ppy) + uy * (nz * ppx - nx * ppz) + uz * (nx * ppy - ny * ppx);
    const cosR = nx * ppx + ny * ppy + nz * ppz;
    const R = Math.sqrt(sinR * sinR + cosR * cosR);
    let Ts = 0, Tw = 1;
    if (R > 0) {
      const iR = 1 / R;
      const cosA = cosR * iR, sinA = sinR * iR;
      if (cosA >= 0) {
        Tw = Math.sqrt(0.5 * (1 + cosA));
        Ts = sinA / (2 * Tw);
      } else {
        Ts = Math.sqrt(0.5 * (1 - cosA));
        if (sinA < 0) Ts = -Ts;
        Tw = sinA / (2 * Ts);
      }
    }
    const Tx = ux * Ts, Ty = uy * Ts, Tz = uz * Ts;
    // D1 = T·A (quat.multiply)
    Dx = Tw * Ax + Tx * Aw + Ty * Az - Tz * Ay;
    Dy = Tw * Ay - Tx * Az + Ty * Aw + Tz * Ax;
    Dz = Tw * Az + Tx * Ay - Ty * Ax + Tz * Aw;
    Dw = Tw * Aw - Tx * Ax - Ty * Ay - Tz * Az;
  }
  // T and A are unit, so D1 is (to rounding; turnLeg normalizes what it writes).
  if (Dw < 0) { Dx = -Dx; Dy = -Dy; Dz = -Dz; Dw = -Dw; }
  out[o + IK_D1] = Dx; out[o + IK_D1 + 1] = Dy; out[o + IK_D1 + 2] = Dz; out[o + IK_D1 + 3] = Dw;
  // D2: about D1·h by C − I.
  const rx = 2 * (Dy * hz - Dz * hy), ry = 2 * (Dz * hx - Dx * hz), rz = 2 * (Dx * hy - Dy * hx);
  const gx = hx + Dw * rx + (Dy * rz - Dz * ry), gy = hy + Dw * ry + (Dz * rx - Dx * rz), gz = hz + Dw * rz + (Dx * ry - Dy * rx);
  out[o + IK_D2] = gx * sinH; out[o + IK_D2 + 1] = gy * sinH; out[o + IK_D2 + 2] = gz * sinH; out[o + IK_D2 + 3] = cosH;
}
