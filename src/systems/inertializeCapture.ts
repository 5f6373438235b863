/**
 * The capture step of inertialization: at the frame a transition switches clips, turn the
 * difference between where the pose was going (the last two output poses) and where the new
 * clip is (its pose and velocity) into per-joint offsets that `inertializeSystem` then decays.
 *
 * Timing (seeds/inertialization.txt): the offsets are anchored at the previous frame n − 1, so
 * on the switch frame n the output is T_n + x(dt), continuing the motion instead of repeating
 * frame n − 1. With P1, P2 the outputs of frames n − 1 and n − 2 and T the new target:
 *   x0 = P1 − T_{n−1},   v0 = (P1 − P2)/Δt_prev − (T_n − T_{n−1})/dt,
 * i.e. the source's velocity minus the target's. The seed's v0 = (P1 − P2)/dt is the special
 * case of a still target. T_{n−1} is the target one frame earlier: the switched layer's clip is
 * sampled once more at its previous time (L_b), and its one-frame change L_n ⊖ L_b is undone
 * on the blended target T_n (exact when that layer is the whole blend).
 *
 * Channels: translation and scale offsets are 3-vectors, stored as a unit direction and a
 * length x0 ≥ 0 with the velocity projected on that direction (kept as the clamped curve
 * parameters x0, v0·t1, 1/t1); rotation offsets are the axis
 * and shortest-arc angle of q_P1 · q_{T,n−1}⁻¹, with the offset's angular velocity
 * ω_src − R_off ω_tgt projected on that axis. The spring mode keeps full vectors instead.
 */
import { INERTIA_SPRING, OFFSET_STRIDE } from '../components/Inertialization.js';
import { POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';

/** Layout of the `params` array of {@link captureOffsets}. */
export const CAPTURE_PREV_DT = 0;
/** Seconds over which the target's velocity is measured (this frame's dt, or the last one's). */
export const CAPTURE_DT = 1;
/** +1 when L_b was sampled one frame earlier, −1 when one frame later (a clamped clip at 0). */
export const CAPTURE_DIRECTION = 2;
/** The requested duration t1 (quintic). */
export const CAPTURE_DURATION = 3;
/** `INERTIA_QUINTIC` or `INERTIA_SPRING`. */
export const CAPTURE_MODE = 4;
/** 1 to anchor the offsets one frame back (undo the target's change over `CAPTURE_DT`), 0 on a dt = 0 frame. */
export const CAPTURE_UNDO = 5;
/** Floats of scratch {@link captureOffsets} needs in `tmp`. */
export const CAPTURE_TMP = 36;

/** Below this an offset is zero: no direction to decay along. */
const NEGLIGIBLE = 1e-7;

// Offsets of quaternions and vectors in `tmp`.
const Q_P1 = 0, Q_P2 = 4, Q_LN = 8, Q_LB = 12, Q_DELTA = 16, Q_PREV = 20, Q_OFF = 24, V = 28, W = 32, LEN = 35;

/**
 * Writes `jointCount` joints of offsets (18 floats each, see `OFFSET_STRIDE`) from:
 * `target` (T_n), `prev1`/`prev2` (P1, P2), `layerNow` (L_n) and `layerOther` (L_b), all
 * `jointCount × 10` poses at their offsets; `params` per the `CAPTURE_*` indices; `tmp`
 * scratch of `CAPTURE_TMP` floats. Pure kernel; writes only the offsets block and `tmp`.
 */
export function captureOffsets(
  offsets: Float32Array, offOff: number,
  target: Float32Array, targetOff: number,
  prev1: Float32Array, p1Off: number,
  prev2: Float32Array, p2Off: number,
  layerNow: Float32Array, nowOff: number,
  layerOther: Float32Array, otherOff: number,
  jointCount: number,
  params: Float64Array,
  tmp: Float64Array,
): void {
  const prevDt = params[CAPTURE_PREV_DT]!;
  const dt = params[CAPTURE_DT]!;
  const direction = params[CAPTURE_DIRECTION]!;
  const undo = params[CAPTURE_UNDO]!;
  const spring = params[CAPTURE_MODE]! === INERTIA_SPRING;
  const sourceRate = prevDt > 0 ? 1 / prevDt : 0;
  const targetRate = dt > 0 ? 1 / dt : 0;

  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    const t = targetOff + k, p1 = p1Off + k, p2 = p2Off + k, ln = nowOff + k, lb = otherOff + k;
    const o = offOff + j * OFFSET_STRIDE;

    // Translation (0..2) and scale (7..9): vector offsets.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? 0 : 7;
      const out = o + (channel === 0 ? 0 : 12);
      let len = 0;
      for (let a = 0; a < 3; a++) {
        // One-frame change of the target, n−1 → n (a forward sample is a step n → n+1).
        const step = direction * (layerNow[ln + c + a]! - layerOther[lb + c + a]!);
        const targetPrev = target[t + c + a]! - step * undo;
        const offset = prev1[p1 + c + a]! - targetPrev;
        const velocity = (prev1[p1 + c + a]! - prev2[p2 + c + a]!) * sourceRate - step * targetRate;
        tmp[V + a] = velocity;
        offsets[out + a] = offset;
        len += offset * offset;
      }
      tmp[LEN] = Math.sqrt(len);
      storeVectorOffset(offsets, out, tmp, spring, params);
    }

    // Rotation: q_off = q_P1 · q_{T,n−1}⁻¹ with q_{T,n−1} = Δ⁻¹ · q_{T,n}, Δ = the target's
    // one-frame rotation (L_n · L_b⁻¹, or its inverse for a forward sample).
    copy4(tmp, Q_P1, prev1, p1 + 3);
    copy4(tmp, Q_P2, prev2, p2 + 3);
    copy4(tmp, Q_LN, layerNow, ln + 3);
    copy4(tmp, Q_LB, layerOther, lb + 3);
    if (direction > 0) {
      quat.conjugate(tmp, Q_DELTA, tmp, Q_LB);
      quat.multiply(tmp, Q_DELTA, tmp, Q_LN, tmp, Q_DELTA); // Δ = L_n · L_b⁻¹
    } else {
      quat.conjugate(tmp, Q_DELTA, tmp, Q_LN);
      quat.multiply(tmp, Q_DELTA, tmp, Q_LB, tmp, Q_DELTA); // Δ = L_{n+1} · L_n⁻¹
    }
    copy4(tmp, Q_PREV, target, t + 3);
    if (undo !== 0) {
      quat.conjugate(tmp, Q_OFF, tmp, Q_DELTA);
      quat.multiply(tmp, Q_PREV, tmp, Q_OFF, tmp, Q_PREV); // q_{T,n−1}
    }
    quat.conjugate(tmp, Q_OFF, tmp, Q_PREV);
    quat.multiply(tmp, Q_OFF, tmp, Q_P1, tmp, Q_OFF); // q_off = q_P1 · q_{T,n−1}⁻¹
    // ω_tgt = axis·angle(Δ) / dt, rotated into the offset's frame: R_off ω_tgt.
    writeScaledAxis(tmp, W, tmp, Q_DELTA);
    for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a]! * targetRate;
    quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
    // ω_src = axis·angle(P1 · P2⁻¹) / Δt_prev; the offset's velocity is ω_src − R_off ω_tgt.
    quat.conjugate(tmp, Q_P2, tmp, Q_P2);
    quat.multiply(tmp, Q_P2, tmp, Q_P1, tmp, Q_P2);
    writeScaledAxis(tmp, V, tmp, Q_P2);
    for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a]! * sourceRate - tmp[W + a]!;
    // The offset itself as a vector axis·angle, like the translation and scale offsets.
    const out = o + 6;
    writeScaledAxis(tmp, W, tmp, Q_OFF);
    let len = 0;
    for (let a = 0; a < 3; a++) {
      offsets[out + a] = tmp[W + a]!;
      len += tmp[W + a]! * tmp[W + a]!;
    }
    tmp[LEN] = Math.sqrt(len);
    storeVectorOffset(offsets, out, tmp, spring, params);
  }
}

/**
 * `offsets[out..out+2]` holds an offset vector of length `tmp[LEN]`; `tmp[V..V+2]` its velocity.
 * Quintic: rewrite it as the direction u, then the curve's parameters with the seed's clamps
 * already applied (see `inertializeCurve`), so each frame only evaluates a polynomial:
 * x0 (the length), k = v0·t1 and 1/t1, where v0 = velocity·u is clamped to ≤ 0 (a start heading
 * away from zero keeps still) and t1 = min(duration, −5·x0/v0) (no overshoot).
 * Spring: keep the vector and store the velocity after it.
 * (Floats travel in arrays so no double is boxed per call.)
 */
function storeVectorOffset(offsets: Float32Array, out: number, tmp: Float64Array, spring: boolean, params: Float64Array): void {
  const len = tmp[LEN]!;
  if (spring) {
    for (let a = 0; a < 3; a++) offsets[out + 3 + a] = tmp[V + a]!;
    return;
  }
  if (!(len > NEGLIGIBLE)) {
    for (let a = 0; a < 6; a++) offsets[out + a] = 0;
    return;
  }
  const inv = 1 / len;
  let v0 = 0;
  for (let a = 0; a < 3; a++) {
    const d = offsets[out + a]! * inv;
    offsets[out + a] = d;
    v0 += tmp[V + a]! * d;
  }
  if (v0 > 0) v0 = 0;
  let t1 = params[CAPTURE_DURATION]!;
  if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
  offsets[out + 3] = len;
  offsets[out + 4] = v0 * t1;
  offsets[out + 5] = 1 / t1; // t1 > 0: duration > 0 and −5·x0/v0 > 0
}

/**
 * Writes `axis × angle` of the unit quaternion `q[qo..]` (shortest arc, angle in [0, π]) to
 * `out[o..o+2]`. Takes and returns no float, so no double is boxed (see sampleClipInto).
 */
function writeScaledAxis(out: Float64Array, o: number, q: Float64Array, qo: number): void {
  let x = q[qo]!, y = q[qo + 1]!, z = q[qo + 2]!;
  const w = q[qo + 3]!;
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
    return;
  }
  if (w < 0) { x = -x; y = -y; z = -z; }
  const k = (2 * Math.atan2(s, Math.abs(w))) / s;
  out[o] = x * k; out[o + 1] = y * k; out[o + 2] = z * k;
}

function copy4(out: Float64Array, o: number, a: Float32Array, ao: number): void {
  out[o] = a[ao]!;
  out[o + 1] = a[ao + 1]!;
  out[o + 2] = a[ao + 2]!;
  out[o + 3] = a[ao + 3]!;
}
