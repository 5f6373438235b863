/**
 * Look-at: the model-space rotation that turns a joint's forward axis toward a target,
 * with the direction limited in yaw and pitch relative to the character.
 *
 * ## Method
 * An aim constraint (ozz-animation `IKAimJob`, `include/ozz/animation/runtime/ik_aim_job.h`:
 * turn the joint's forward axis onto the joint→target direction by the shortest arc), with
 * the direction first limited in spherical coordinates of the character frame:
 *
 * 1. Character frame: U = up/|up|; F = the part of `forward` perpendicular to U, normalized;
 *    S = U × F (for the default F = +Z, U = +Y: S = +X, the character's left).
 * 2. Direction to the target v = (t − h)/|t − h| from the head position h.
 *    yaw   = atan2(v·S, v·F) ∈ [−π, π]: the turn about U from F (positive toward S);
 *    pitch = atan2(v·U, √((v·F)² + (v·S)²)) ∈ [−π/2, π/2]: the elevation above the plane
 *    ⊥ U (positive up).
 * 3. Limits, clamped separately (a rectangle in yaw–pitch): yaw' = clamp(yaw, ±yawLimit),
 *    pitch' = clamp(pitch, ±pitchLimit). Inside both limits the direction is v itself;
 *    otherwise d = cos(pitch')·(cos(yaw')·F + sin(yaw')·S) + sin(pitch')·U, the point of the
 *    limit boundary at the target's other coordinate (a target 60° to the side and 10° up
 *    with a 45° yaw limit gives yaw 45°, pitch 10°). yawLimit ≥ π or pitchLimit ≥ π/2 means
 *    no limit on that coordinate.
 * 4. Delta = the shortest arc (S. Melax, Game Programming Gems 1, 2000) from the joint's
 *    current forward Q·axis to d; about U when the two are opposite.
 * 5. Weight w ∈ [0, 1]: the delta's angle times w (slerp from the identity).
 *
 * ## Degenerate inputs (finite output, never NaN)
 * - Target on the head (|t − h| ≤ 1e-9) or a zero forward axis: the identity.
 * - Target straight up or down (no horizontal part): yaw counts as 0 (toward F).
 * - Target exactly behind (v·S = 0, v·F < 0): yaw = +π, clamped to +yawLimit (toward S);
 *   a target a hair to the −S side clamps to −yawLimit. The flip is inherent to limits
 *   that are symmetric about F.
 * - Zero `up`: U = +Y. `forward` parallel to U or zero: F = any perpendicular of U.
 */
import type { NumArray } from './types.js';
import * as quat from './quat.js';
import { fromUnitVectors, perpendicular, splitRotation } from './rotationArc.js';

/** Offset of the joint's model rotation `qx qy qz qw` (unit) in a look-at params block. */
export const LOOK_ROTATION = 0;
/** Offset of the joint's model-space position `x y z` in a look-at params block. */
export const LOOK_POSITION = 4;
/** Offset of the joint's local forward axis `x y z` (unit, in the joint's own space). */
export const LOOK_AXIS = 7;
/** Offset of the target position `x y z` (model space). */
export const LOOK_TARGET = 10;
/** Offset of the character's model-space forward `x y z` (the limits' yaw 0; usually +Z). */
export const LOOK_FORWARD = 13;
/** Offset of the character's model-space up `x y z` (the yaw axis; usually +Y). */
export const LOOK_UP = 16;
/** Offset of the yaw limit, radians ≥ 0 (negative or NaN count as 0). */
export const LOOK_YAW_LIMIT = 19;
/** Offset of the pitch limit, radians ≥ 0 (negative or NaN count as 0). */
export const LOOK_PITCH_LIMIT = 20;
/** Offset of the weight in [0, 1] (clamped; NaN counts as 0). */
export const LOOK_WEIGHT = 21;
/** Floats in a {@link solveLookAt} params block. */
export const LOOK_PARAMS = 22;

/** Distances at or below this (in position units) count as zero. */
const ZERO_LENGTH = 1e-9;

// Fixed-size temporaries (STYLE: math temporaries may live at module level).
const scratch = new Float64Array(16);
const S_FROM = 0; // current forward Q·axis (3)
const S_TO = 3; // limited direction d (3)
const S_UP = 6; // U, the fallback axis of the arc (3)
const S_ARC = 9; // the full delta (4)
const S_W = 13; // the clamped weight (1)

/**
 * Writes the model-space rotation delta that turns the joint's forward axis toward the target
 * (limited, weighted; see the module comment) to `out[o..o+3]`, a unit quaternion `x y z w`.
 * Returns whether the target is inside the limits (then, at weight 1, the forward axis points
 * exactly at it); false when the direction was clamped or the target sits on the joint.
 *
 * `params[po..po+21]` (use a Float64Array; layout constants `LOOK_*`, {@link LOOK_PARAMS}):
 *
 * | offset | field |
 * | --- | --- |
 * | 0–3 `LOOK_ROTATION` | the joint's model rotation Q (unit quaternion) |
 * | 4–6 `LOOK_POSITION` | the joint's model-space position |
 * | 7–9 `LOOK_AXIS` | its forward axis in its own space (unit), e.g. `0 0 1` |
 * | 10–12 `LOOK_TARGET` | target position, model space |
 * | 13–15 `LOOK_FORWARD` | character forward, model space (usually `0 0 1`) |
 * | 16–18 `LOOK_UP` | character up, model space (usually `0 1 0`) |
 * | 19 `LOOK_YAW_LIMIT` | radians ≥ 0 |
 * | 20 `LOOK_PITCH_LIMIT` | radians ≥ 0 |
 * | 21 `LOOK_WEIGHT` | [0, 1] |
 *
 * ## Applying the delta
 * `model' = delta · Q` (pre-multiplied, about the joint's own position). For a local pose with
 * parent model rotation Q_p (the product of the local quaternions from the root), the joint's
 * new local rotation is `q' = inverse(Q_p) · delta · Q_p · q` (normalize afterwards); exact when
 * the ancestors' scales are uniform.
 *
 * ## Sharing it along a chain (spine, neck, head)
 * Split the delta with `splitRotation(outK, 0, delta, 0, fractions, k)` into per-joint
 * deltas D_k with fractions f_k (Σ f_k ≤ 1, head last) and apply them in the same
 * pre-multiplied way from the top of the chain down (joint k's Q_p' includes the deltas of the
 * chain joints above it). All D_k share one axis, so the head's model rotation turns by
 * exactly (Σ f_k)·angle; its position moves with the spine, so the aim is exact only for a
 * distant target — re-solve per joint (solve, take your fraction, apply, go down) when that
 * matters.
 *
 * `out` may alias `params`. No allocation.
 *
 * @example
 * const p = new Float64Array(LOOK_PARAMS);
 * p.set([0, 0, 0, 1,  0, 1.6, 0,  0, 0, 1,  1, 1.6, 1,  0, 0, 1,  0, 1, 0,  0.5, 0.3, 1]);
 * const delta = new Float64Array(4);
 * solveLookAt(delta, 0, p, 0); // false: 45° to the side, clamped to 0.5 rad about +Y
 */
export function solveLookAt(out: NumArray, o: number, params: NumArray, po: number): boolean {
  const s = scratch;
  const tx = params[po + LOOK_TARGET] - params[po + LOOK_POSITION];
  const ty = params[po + LOOK_TARGET + 1] - params[po + LOOK_POSITION + 1];
  const tz = params[po + LOOK_TARGET + 2] - params[po + LOOK_POSITION + 2];
  let fx = params[po + LOOK_FORWARD], fy = params[po + LOOK_FORWARD + 1], fz = params[po + LOOK_FORWARD + 2];
  let ux = params[po + LOOK_UP], uy = params[po + LOOK_UP + 1], uz = params[po + LOOK_UP + 2];
  const yawIn = params[po + LOOK_YAW_LIMIT], pitchIn = params[po + LOOK_PITCH_LIMIT];
  const weightIn = params[po + LOOK_WEIGHT];
  const yawLimit = yawIn > 0 ? yawIn : 0;
  const pitchLimit = pitchIn > 0 ? pitchIn : 0;
  s[S_W] = weightIn > 0 ? (weightIn < 1 ? weightIn : 1) : 0;
  // Current forward: Q·axis.
  quat.rotateVec3(s, S_FROM, params, po + LOOK_ROTATION, params, po + LOOK_AXIS);

  const dist = Math.sqrt(tx * tx + ty * ty + tz * tz);
  const fromLen = Math.sqrt(s[S_FROM] * s[S_FROM] + s[S_FROM + 1] * s[S_FROM + 1] + s[S_FROM + 2] * s[S_FROM + 2]);
  if (!(dist > ZERO_LENGTH) || !(fromLen > 0)) {
    quat.identity(out, o);
    return false;
  }
  s[S_FROM] /= fromLen; s[S_FROM + 1] /= fromLen; s[S_FROM + 2] /= fromLen;
  const vx = tx / dist, vy = ty / dist, vz = tz / dist;

  // 1. Character frame U, F, S.
  const upLen = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (upLen > 0) { ux /= upLen; uy /= upLen; uz /= upLen; } else { ux = 0; uy = 1; uz = 0; }
  s[S_UP] = ux; s[S_UP + 1] = uy; s[S_UP + 2] = uz;
  const fu = fx * ux + fy * uy + fz * uz;
  fx -= ux * fu; fy -= uy * fu; fz -= uz * fu;
  const fLen = Math.sqrt(fx * fx + fy * fy + fz * fz);
  if (fLen > ZERO_LENGTH) {
    fx /= fLen; fy /= fLen; fz /= fLen;
  } else {
    perpendicular(s, S_TO, s, S_UP);
    fx = s[S_TO]; fy = s[S_TO + 1]; fz = s[S_TO + 2];
  }
  const sx = uy * fz - uz * fy, sy = uz * fx - ux * fz, sz = ux * fy - uy * fx;

  // 2. Yaw and pitch of v. `+ 0` turns −0 into +0, so a zero side part reads as yaw +0
  // (not −0) and a zero horizontal part as yaw 0 (atan2(0, −0) would be π).
  const vf = vx * fx + vy * fy + vz * fz + 0;
  const vs = vx * sx + vy * sy + vz * sz + 0;
  const vu = vx * ux + vy * uy + vz * uz;
  const horizontal = Math.sqrt(vf * vf + vs * vs);
  const yaw = Math.atan2(vs, vf);
  const pitch = Math.atan2(vu, horizontal);

  // 3. Limit: inside, v itself (exact); outside, the boundary point of the clamped angles.
  const inside = yaw >= -yawLimit && yaw <= yawLimit && pitch >= -pitchLimit && pitch <= pitchLimit;
  if (inside) {
    s[S_TO] = vx; s[S_TO + 1] = vy; s[S_TO + 2] = vz;
  } else {
    const y = yaw < -yawLimit ? -yawLimit : yaw > yawLimit ? yawLimit : yaw;
    const p = pitch < -pitchLimit ? -pitchLimit : pitch > pitchLimit ? pitchLimit : pitch;
    const cp = Math.cos(p), sp = Math.sin(p);
    const alongF = cp * Math.cos(y), alongS = cp * Math.sin(y);
    s[S_TO] = alongF * fx + alongS * sx + sp * ux;
    s[S_TO + 1] = alongF * fy + alongS * sy + sp * uy;
    s[S_TO + 2] = alongF * fz + alongS * sz + sp * uz;
  }

  // 4–5. Shortest arc from the current forward to d (about U when opposite), weighted.
  fromUnitVectors(s, S_ARC, s, S_FROM, s, S_TO, s, S_UP);
  splitRotation(out, o, s, S_ARC, s, S_W);
  return inside;
}
