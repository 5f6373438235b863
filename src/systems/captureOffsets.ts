/**
 * The kernels of a transition's capture (inertializeCapture.ts runs them): from the outgoing
 * output P1, the output before it P2 and the target blend at two instants σh apart, per-joint
 * offsets and their velocities for `inertializeSystem` to decay ({@link captureOffsets}); and,
 * at the request, P2 from P1 and the source's velocity ({@link writeSourcePast}).
 *
 * Channels: translation and scale offsets are 3-vectors, stored as a unit direction and a
 * length x0 ≥ 0 with the velocity projected on that direction (kept as the clamped curve
 * parameters x0, v0·t1, 1/t1); rotation offsets are the axis and shortest-arc angle of
 * q_P1 · q_T(τ)⁻¹, with the offset's angular velocity ω_src − R_off ω_tgt projected on that
 * axis. The spring mode keeps full vectors instead.
 *
 * Jobs in the style of ozz-animation's: named inputs and outputs over caller-owned buffers,
 * pure functions of them; nothing allocated, no double boxed (floats travel in arrays).
 */
import * as inertialization from '../components/Inertialization.js';
import * as layout from '../math/layout.js';
import * as quat from '../math/quat.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
const {
  INERTIA_QUINTIC, INERTIA_SPRING, OFFSET_CHANNEL, OFFSET_INV_T1, OFFSET_K, OFFSET_Q, OFFSET_S, OFFSET_STRIDE, OFFSET_T,
  OFFSET_V, OFFSET_X0,
} = inertialization;

/**
 * Seconds between the two evaluations a velocity is measured from (h): fixed, so a switch
 * gives the same velocities at any frame rate. Small enough that a clip's curvature adds
 * little (a·h/2), large enough that float32 poses (≈6e-8) give ≤ 1e-4 per second of noise.
 */
export const SOURCE_INTERVAL = 1e-3;

/** Index in `world.scratch.params` of the seconds back a capture evaluates the layers (negative: ahead; `planLayersAt`'s `back`). */
export const CAPTURE_BACK = 5;
/** Index in `world.scratch.params` of a capture's update seconds, for `captureCurveOffsets` (a double argument would be boxed). */
export const CAPTURE_DT = 6;
/** Index in `world.scratch.params` of a request's lead: the seconds into the coming step its switch happens (`captureSourceMotion` takes the source there). */
export const CAPTURE_LEAD = 7;
/** Floats of scratch a {@link CaptureJob} needs in `tmp`. */
export const CAPTURE_TMP = 40;

/** Below this an offset is zero: no direction to decay along. */
export const NEGLIGIBLE = 1e-7;

// Offsets of quaternions, vectors and rates in `tmp`.
const Q_P1 = 0, Q_P2 = 4, Q_T = 8, Q_TO = 12, Q_DELTA = 16, Q_OFF = 24, V = 28, W = 32, LEN = 35, U = 36, SOURCE_RATE = 37, TARGET_RATE = 38, CLOCK = 39;

/**
 * The inputs and outputs of the two capture kernels, {@link captureOffsets} (at the switch)
 * and `writeSourcePast` (at the request), named instead of passed by position: an
 * ozz-animation style job over caller-owned buffers. Poses are `jointCount × 10` floats at
 * their offsets; offsets blocks `jointCount × 18` (`OFFSET_STRIDE`). The world holds one in
 * `world.scratch.capture`, filled field by field for each capture, so a capture allocates
 * nothing.
 *
 * | field | captureOffsets | writeSourcePast |
 * | --- | --- | --- |
 * | `blend`, `blendOther` | reads: T(τ), T(τ − σh) | reads: the source blend at τ, τ − σh |
 * | `p1` | reads: P1 | reads: P1 |
 * | `p2` | reads: the output `prevDt` before P1 | writes: P2 = the output h before P1 |
 * | `offsets` | writes | reads: the running offset |
 * | `interval`, `jointCount`, `mode` | reads | reads |
 * | `prevDt`, `duration` | reads | — |
 * | `clock` | — | reads |
 * | `halfLife` | reads (dead blending: `captureDeadBlend`) | — |
 */
export interface CaptureJob {
  /** The layers' blend at τ, at `blendOff`. */
  blend: Float32Array;
  /** Element offset of that pose in `blend`. */
  blendOff: number;
  /** The layers' blend at τ − σh (σh = `interval`), at `blendOtherOff`. */
  blendOther: Float32Array;
  /** Element offset of that pose in `blendOther`. */
  blendOtherOff: number;
  /** Signed seconds σh between `blend` and `blendOther` (non-zero). */
  interval: number;
  /** P1, the last output before the switch, at `p1Off`. */
  p1: Float32Array;
  /** Element offset of P1 in `p1`. */
  p1Off: number;
  /** The output before P1 (P2), at `p2Off`. */
  p2: Float32Array;
  /** Element offset of that pose in `p2`. */
  p2Off: number;
  /** Seconds between `p2` and `p1` (0: no velocity from the source). */
  prevDt: number;
  /** The offsets block, at `offsetsOff`. */
  offsets: Float32Array;
  /** Element offset of the block in `offsets`. */
  offsetsOff: number;
  /** Joints of the character (10 floats each in the poses). */
  jointCount: number;
  /** `INERTIA_QUINTIC`, `INERTIA_SPRING` or `INERTIA_DEAD` (the new transition's for a capture, the running one's for the source). */
  mode: number;
  /** The requested duration t1 (quintic), seconds > 0. */
  duration: number;
  /** The running offset's clock (seconds since its capture). */
  clock: number;
  /** Dead blending: the longest half-life of the fit, seconds > 0 (`captureDeadBlend`). */
  halfLife: number;
  /** Scratch of `CAPTURE_TMP` floats. */
  readonly tmp: Float64Array;
}

const NO_POSE = new Float32Array(0);

/** A {@link CaptureJob} with no buffers yet and its own `tmp` (sized once, at world creation). */
export function createCaptureJob(): CaptureJob {
  // The seconds start as NaN so their fields hold doubles from the start (V8 keeps one field
  // representation, and writing a double into it allocates nothing).
  return {
    blend: NO_POSE, blendOff: 0, blendOther: NO_POSE, blendOtherOff: 0, interval: NaN,
    p1: NO_POSE, p1Off: 0, p2: NO_POSE, p2Off: 0, prevDt: NaN,
    offsets: NO_POSE, offsetsOff: 0, jointCount: 0, mode: 0, duration: NaN, clock: NaN, halfLife: NaN,
    tmp: new Float64Array(CAPTURE_TMP),
  };
}

/**
 * Writes `job.jointCount` joints of offsets to `job.offsets` from the target T(τ) (`blend`),
 * T(τ − σh) (`blendOther`), P1 (`p1`) and the output `prevDt` seconds before it (`p2`), for
 * a transition of `job.mode` and `job.duration` (see the file header). Pure kernel; writes
 * only the offsets block and `job.tmp`.
 */
export function captureOffsets(job: CaptureJob): void {
  const tmp = job.tmp;
  tmp[SOURCE_RATE] = job.prevDt > 0 ? 1 / job.prevDt : 0;
  tmp[TARGET_RATE] = job.interval !== 0 ? 1 / job.interval : 0;
  for (let j = 0, n = job.jointCount; j < n; j++) {
    captureVectorOffset(job, j, POSE_T, OFFSET_T);
    captureVectorOffset(job, j, POSE_S, OFFSET_S);
    captureRotationOffset(job, j);
  }
}

/**
 * Joint `j`'s translation (pose floats at `c` = `POSE_T`, offset channel at `out` = `OFFSET_T`) or
 * scale (`POSE_S`, `OFFSET_S`) offset P1 − T(τ) and its velocity (P1 − P2)/Δt − (T(τ) − T(τ − σh))/σh.
 */
function captureVectorOffset(job: CaptureJob, j: number, c: number, out: number): void {
  const { blend: targetNow, blendOther: targetOther, p1: prev1, p2: prev2, offsets, tmp } = job;
  const k = j * POSE_STRIDE + c;
  const t = job.blendOff + k, to = job.blendOtherOff + k, p1 = job.p1Off + k, p2 = job.p2Off + k;
  const o = job.offsetsOff + j * OFFSET_STRIDE + out;
  const sourceRate = tmp[SOURCE_RATE], targetRate = tmp[TARGET_RATE];
  let len = 0;
  for (let a = 0; a < 3; a++) {
    const offset = prev1[p1 + a] - targetNow[t + a];
    const velocity = (prev1[p1 + a] - prev2[p2 + a]) * sourceRate - (targetNow[t + a] - targetOther[to + a]) * targetRate;
    tmp[V + a] = velocity;
    offsets[o + a] = offset;
    len += offset * offset;
  }
  tmp[LEN] = Math.sqrt(len);
  storeVectorOffset(offsets, o, tmp, job);
}

/**
 * Joint `j`'s rotation offset q_off = q_P1 · q_T(τ)⁻¹ as axis·angle, and its angular velocity
 * ω_src − R_off ω_tgt (ω from P1 · P2⁻¹ over Δt and T(τ) · T(τ − σh)⁻¹ over σh).
 */
function captureRotationOffset(job: CaptureJob, j: number): void {
  const tmp = job.tmp;
  const k = j * POSE_STRIDE + POSE_Q;
  const sourceRate = tmp[SOURCE_RATE], targetRate = tmp[TARGET_RATE];
  copy4(tmp, Q_P1, job.p1, job.p1Off + k);
  copy4(tmp, Q_P2, job.p2, job.p2Off + k);
  copy4(tmp, Q_T, job.blend, job.blendOff + k);
  copy4(tmp, Q_TO, job.blendOther, job.blendOtherOff + k);
  quat.conjugate(tmp, Q_OFF, tmp, Q_T);
  quat.multiply(tmp, Q_OFF, tmp, Q_P1, tmp, Q_OFF);
  // ω_tgt = axis·angle(T(τ) · T(τ − σh)⁻¹) / σh, rotated into the offset's frame: R_off ω_tgt.
  quat.conjugate(tmp, Q_DELTA, tmp, Q_TO);
  quat.multiply(tmp, Q_DELTA, tmp, Q_T, tmp, Q_DELTA);
  writeScaledAxis(tmp, W, tmp, Q_DELTA);
  for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * targetRate;
  quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
  // ω_src = axis·angle(P1 · P2⁻¹) / Δt; the offset's velocity is ω_src − R_off ω_tgt.
  quat.conjugate(tmp, Q_P2, tmp, Q_P2);
  quat.multiply(tmp, Q_P2, tmp, Q_P1, tmp, Q_P2);
  writeScaledAxis(tmp, V, tmp, Q_P2);
  for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] * sourceRate - tmp[W + a];
  // The offset itself as a vector axis·angle, like the translation and scale offsets.
  const offsets = job.offsets;
  const out = job.offsetsOff + j * OFFSET_STRIDE + OFFSET_Q;
  writeScaledAxis(tmp, W, tmp, Q_OFF);
  let len = 0;
  for (let a = 0; a < 3; a++) {
    offsets[out + a] = tmp[W + a];
    len += tmp[W + a] * tmp[W + a];
  }
  tmp[LEN] = Math.sqrt(len);
  storeVectorOffset(offsets, out, tmp, job);
}

/**
 * Writes into `job.p2` the output h = `SOURCE_INTERVAL` before P1 (`job.p1`) along the
 * output's velocity: v = the blend's (`blend` minus `blendOther`, the blend at τ − σh,
 * σh = `job.interval`) plus the running offset's, per `job.mode` at clock `job.clock`
 * (quintic) from `job.offsets`. Translation and scale: P2 = P1 − h·v; rotation:
 * q_P2 = exp(−h·ω)·q_P1 with ω = ω_off + R_off·ω_blend (the output is q_off·q_blend).
 * Pure kernel; writes only the P2 pose and `job.tmp`.
 */
export function writeSourcePast(job: CaptureJob): void {
  const { blend: now, blendOther: other, p1: prev1, p2: out, offsets, tmp } = job;
  const rate = 1 / job.interval;
  const mode = job.mode;
  // The offset's clock travels to quinticVelocity in `tmp` (a double argument would be boxed).
  tmp[CLOCK] = job.clock;
  const h = SOURCE_INTERVAL;
  for (let j = 0, n = job.jointCount; j < n; j++) {
    const k = j * POSE_STRIDE;
    const o = job.offsetsOff + j * OFFSET_STRIDE;
    const p = job.p1Off + k, q = job.p2Off + k;
    const b = job.blendOff + k, bo = job.blendOtherOff + k;
    // Translation and scale: the blend's velocity plus the offset's along its direction.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? POSE_T : POSE_S;
      const oc = o + (channel === 0 ? OFFSET_T : OFFSET_S);
      for (let a = 0; a < 3; a++) tmp[V + a] = (now[b + c + a] - other[bo + c + a]) * rate;
      if (mode === INERTIA_QUINTIC) {
        quinticVelocity(tmp, offsets, oc);
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + a] * tmp[U];
      } else if (mode === INERTIA_SPRING) {
        for (let a = 0; a < 3; a++) tmp[V + a] = tmp[V + a] + offsets[oc + OFFSET_V + a];
      }
      for (let a = 0; a < 3; a++) out[q + c + a] = prev1[p + c + a] - h * tmp[V + a];
    }
    // Rotation: ω_blend = axis·angle(now · other⁻¹) / σh.
    copy4(tmp, Q_T, now, b + POSE_Q);
    copy4(tmp, Q_TO, other, bo + POSE_Q);
    quat.conjugate(tmp, Q_TO, tmp, Q_TO);
    quat.multiply(tmp, Q_DELTA, tmp, Q_T, tmp, Q_TO);
    writeScaledAxis(tmp, W, tmp, Q_DELTA);
    for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * rate;
    const r = o + OFFSET_Q;
    if (mode === INERTIA_QUINTIC) {
      // q_off = rotation by x(t) about the axis; ω_off = axis·x′(t).
      quinticVelocity(tmp, offsets, r);
      const half = 0.5 * tmp[LEN], sin = Math.sin(half);
      tmp[Q_OFF] = offsets[r] * sin; tmp[Q_OFF + 1] = offsets[r + 1] * sin; tmp[Q_OFF + 2] = offsets[r + 2] * sin; tmp[Q_OFF + 3] = Math.cos(half);
      quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
      for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] + offsets[r + a] * tmp[U];
    } else if (mode === INERTIA_SPRING) {
      springAngularVelocity(tmp, offsets, r);
    }
    // q_P2 = exp(−h·ω) · q_P1.
    const wx = tmp[W], wy = tmp[W + 1], wz = tmp[W + 2];
    const angle = Math.sqrt(wx * wx + wy * wy + wz * wz) * h;
    if (angle > 0) {
      const s = -Math.sin(0.5 * angle) / (angle / h);
      tmp[Q_DELTA] = wx * s; tmp[Q_DELTA + 1] = wy * s; tmp[Q_DELTA + 2] = wz * s; tmp[Q_DELTA + 3] = Math.cos(0.5 * angle);
    } else {
      tmp[Q_DELTA] = 0; tmp[Q_DELTA + 1] = 0; tmp[Q_DELTA + 2] = 0; tmp[Q_DELTA + 3] = 1;
    }
    copy4(tmp, Q_P1, prev1, p + POSE_Q);
    quat.multiply(tmp, Q_P1, tmp, Q_DELTA, tmp, Q_P1);
    for (let a = 0; a < 4; a++) out[q + POSE_Q + a] = tmp[Q_P1 + a];
  }
}

/**
 * For the quintic channel whose parameters (direction or axis, x0, v0·t1, 1/t1) start at
 * `offsets[c]`, at t = `tmp[CLOCK]`: writes x(t) to `tmp[LEN]` and x′(t) to `tmp[U]` (both 0 once the curve has
 * ended) — the factored forms of `inertializeCurve` and `inertializeVelocity`.
 */
function quinticVelocity(tmp: Float64Array, offsets: Float32Array, c: number): void {
  const t = tmp[CLOCK];
  const x0 = offsets[c + OFFSET_X0], k = offsets[c + OFFSET_K], inv = offsets[c + OFFSET_INV_T1];
  const s = t * inv;
  if (!(s < 1) || x0 === 0) {
    tmp[LEN] = 0;
    tmp[U] = 0;
    return;
  }
  const u = 1 - s, u2 = u * u;
  tmp[LEN] = u2 * u2 * (x0 * (1 + 4 * s) + k * s);
  // x′ = (1 − s)³ · (v0 − s (20 x0 / t1 + 5 v0)) with v0 = k / t1.
  tmp[U] = u2 * u * (k - s * (20 * x0 + 5 * k)) * inv;
}

/**
 * The spring's rotation offset r (axis × angle at `offsets[r..]`) and its rate ṙ (at r + `OFFSET_V`):
 * `tmp[W..]` holds ω_blend and becomes R(r)·ω_blend + J(r)·ṙ, J the left Jacobian of the
 * rotation vector: J ṙ = ṙ + ((1 − cos θ)/θ²) r × ṙ + ((θ − sin θ)/θ³) r × (r × ṙ), θ = |r|.
 */
function springAngularVelocity(tmp: Float64Array, offsets: Float32Array, r: number): void {
  const rx = offsets[r], ry = offsets[r + 1], rz = offsets[r + 2];
  const dx = offsets[r + OFFSET_V], dy = offsets[r + OFFSET_V + 1], dz = offsets[r + OFFSET_V + 2];
  const theta2 = rx * rx + ry * ry + rz * rz, theta = Math.sqrt(theta2);
  let a: number, b: number;
  if (theta < 1e-4) {
    a = 0.5 - theta2 / 24;
    b = 1 / 6 - theta2 / 120;
  } else {
    a = (1 - Math.cos(theta)) / theta2;
    b = (theta - Math.sin(theta)) / (theta2 * theta);
  }
  const cx = ry * dz - rz * dy, cy = rz * dx - rx * dz, cz = rx * dy - ry * dx; // r × ṙ
  const ex = ry * cz - rz * cy, ey = rz * cx - rx * cz, ez = rx * cy - ry * cx; // r × (r × ṙ)
  if (theta > 0) {
    const sin = Math.sin(0.5 * theta) / theta;
    tmp[Q_OFF] = rx * sin; tmp[Q_OFF + 1] = ry * sin; tmp[Q_OFF + 2] = rz * sin; tmp[Q_OFF + 3] = Math.cos(0.5 * theta);
    quat.rotateVec3(tmp, W, tmp, Q_OFF, tmp, W);
  }
  tmp[W] = tmp[W] + dx + a * cx + b * ex;
  tmp[W + 1] = tmp[W + 1] + dy + a * cy + b * ey;
  tmp[W + 2] = tmp[W + 2] + dz + a * cz + b * ez;
}

/**
 * `offsets[out..out+2]` holds an offset vector of length `tmp[LEN]`; `tmp[V..V+2]` its velocity.
 * Quintic: rewrite it as the direction u, then the curve's parameters with Bollo's clamps
 * already applied (see `inertializeCurve`), so each frame only evaluates a polynomial:
 * x0 (the length), k = v0·t1 and 1/t1, where v0 = velocity·u (a start heading away from zero
 * keeps its velocity: the curve goes on, peaks, returns) and t1 = min(duration, −5·x0/v0) when
 * v0 heads towards zero (no overshoot).
 * Spring: keep the vector and store the velocity after it.
 * (Floats travel in arrays so no double is boxed per call.)
 */
function storeVectorOffset(offsets: Float32Array, out: number, tmp: Float64Array, job: CaptureJob): void {
  const len = tmp[LEN];
  if (job.mode === INERTIA_SPRING) {
    for (let a = 0; a < 3; a++) offsets[out + OFFSET_V + a] = tmp[V + a];
    return;
  }
  if (!(len > NEGLIGIBLE)) {
    for (let a = 0; a < OFFSET_CHANNEL; a++) offsets[out + a] = 0;
    return;
  }
  const inv = 1 / len;
  let v0 = 0;
  for (let a = 0; a < 3; a++) {
    const d = offsets[out + a] * inv;
    offsets[out + a] = d;
    v0 += tmp[V + a] * d;
  }
  let t1 = job.duration;
  if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
  offsets[out + OFFSET_X0] = len;
  offsets[out + OFFSET_K] = v0 * t1;
  offsets[out + OFFSET_INV_T1] = 1 / t1; // t1 > 0: duration > 0 and −5·x0/v0 > 0
}

/**
 * Writes `axis × angle` of the unit quaternion `q[qo..]` (shortest arc, angle in [0, π]) to
 * `out[o..o+2]`. Takes and returns no float, so no double is boxed (see sampleClipInto).
 */
export function writeScaledAxis(out: Float64Array, o: number, q: Float64Array, qo: number): void {
  let x = q[qo], y = q[qo + 1], z = q[qo + 2];
  const w = q[qo + 3];
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
    return;
  }
  if (w < 0) { x = -x; y = -y; z = -z; }
  const k = (2 * Math.atan2(s, Math.abs(w))) / s;
  out[o] = x * k; out[o + 1] = y * k; out[o + 2] = z * k;
}

/** Copies the quaternion at `a[ao..ao+3]` to `out[o..o+3]`. */
export function copy4(out: Float64Array, o: number, a: Float32Array, ao: number): void {
  out[o] = a[ao];
  out[o + 1] = a[ao + 1];
  out[o + 2] = a[ao + 2];
  out[o + 3] = a[ao + 3];
}
