/**
 * The kernels of dead blending (orangeduck's "Dead Blending", 2023; Unreal 5.3's DeadBlending
 * node): at the switch the outgoing output and its velocity are recorded per joint
 * ({@link captureDeadBlend}); every update then extrapolates that source with a velocity that
 * decays exponentially with the joint's half-life and cross-fades from the extrapolated source
 * to the new clips' pose by the transition's fade curve ({@link applyDeadBlend}).
 *
 * Extrapolation of a channel with velocity v and decay rate r = ln 2 / half-life: the velocity
 * is v·e^(−r t), so the channel has moved by (v / r)·(1 − e^(−r t)) and comes to rest v / r
 * from where it started. The state keeps that distance to rest, v / r, rather than v, so an
 * update multiplies where it would divide. Rotations move by exp((ω / r)·(1 − e^(−r t))) · q (ω
 * the angular velocity in the frame the output's rotations compose in, as the rest of the
 * capture measures it).
 *
 * The half-life fit (one per joint): for each channel whose velocity is not negligible,
 * τ = (d · v) / |v|² is the time at which the straight extrapolation passes closest to the
 * target pose (d = target − source: the rotation's as the rotation vector of q_T · q_src⁻¹).
 * Heading toward the target (τ > 0) the half-life is ln 2 · τ — the extrapolation then comes
 * to rest at that closest point — clamped to [halfLife / 10, halfLife]; heading away (τ ≤ 0) it
 * is halfLife / 10, so the joint stops drifting away quickly but without a velocity jump. The
 * joint takes the shortest of its channels'. Velocities are clamped first
 * ({@link DEAD_MAX_ANGULAR_VELOCITY}, {@link DEAD_MAX_SPEED}, {@link DEAD_MAX_SCALE_RATE}).
 * A channel whose source moved by no more than float32 rounding of its values between P2 and
 * P1 ({@link DEAD_STILL_RATIO}) is still: no velocity and no fit. Without that floor, rounding
 * alone — a scale held at 1 that one of the two float32 blends 1 ms apart rounds to 1 − 1 ulp —
 * reads as a velocity of 6e-5 per second whose direction is noise, and τ = (d·v)/|v|² of two
 * noises can set the joint's half-life anywhere in its range (measured: a wasm world whose
 * velocity blends rounded in float32 drifted 7e-3 from the JavaScript world's dead blends).
 *
 * Pure kernels over caller-owned blocks; nothing allocated, no double boxed (the clock and the
 * weight travel in a Float64Array).
 */
import * as inertialization from '../components/Inertialization.js';
import * as layout from '../math/layout.js';
import * as quat from '../math/quat.js';
import { CURVE_SLOT_STRIDE } from '../components/Curves.js';
import { copy4, writeScaledAxis, type CaptureJob } from './captureOffsets.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
const { SLOT_STRIDE, DEAD_T, DEAD_Q, DEAD_S, DEAD_VT, DEAD_W, DEAD_VS, DEAD_RATE } = inertialization;

/** Largest angular velocity a dead blend extrapolates, rad/s (8π: 1,440°/s); faster joints are slowed to it. */
export const DEAD_MAX_ANGULAR_VELOCITY = 8 * Math.PI;
/** Largest translation speed a dead blend extrapolates, in the skeleton's units per second. */
export const DEAD_MAX_SPEED = 50;
/** Largest rate of change of a scale component a dead blend extrapolates, per second. */
export const DEAD_MAX_SCALE_RATE = 10;
/** The shortest half-life a joint gets (heading away), as a fraction of the transition's `halfLife`. */
export const DEAD_MIN_HALF_LIFE_RATIO = 0.1;
/** Below this squared speed (units²/s², rad²/s²) a channel is still and takes no part in the fit. */
const STILL = 1e-12;
/**
 * A channel whose displacement |P1 − P2| is at most this × |P1| (a rotation's: this many
 * radians) is still: eight float32 ulps, the rounding of a blend of a few float32 layers.
 */
export const DEAD_STILL_RATIO = 2 ** -20;
const STILL_RATIO2 = DEAD_STILL_RATIO * DEAD_STILL_RATIO;

/** In a float curve's slot entry (`CURVE_SLOT_STRIDE` floats) of a dead blend: the source value. */
export const CURVE_DEAD_SOURCE = 0;
/** … the source value's velocity (per second). */
export const CURVE_DEAD_VELOCITY = 1;
/** … the decay rate ln 2 / half-life (1/s). */
export const CURVE_DEAD_RATE = 2;
/** In `captureDeadCurve`'s `io`: the source value, its velocity, the target value, the longest half-life. */
export const CURVE_IO_SOURCE = 0, CURVE_IO_VELOCITY = 1, CURVE_IO_TARGET = 2, CURVE_IO_HALF_LIFE = 3;

/** In the clock array {@link applyDeadBlend} reads: seconds since the source was recorded. */
export const DEAD_CLOCK = 0;
/** In the clock array: the fade curve's weight of the target at that time (< 1). */
export const DEAD_WEIGHT = 1;

// Offsets in `job.tmp` (CaptureJob's scratch, 40 floats); V_T, V_W, V_S hold a joint's clamped velocities until its rate is known.
const Q_P1 = 0, Q_P2 = 4, Q_T = 8, Q_D = 12, W = 16, D = 19, FIT = 22, HL = 23, SHORTEST = 24, LONGEST = 25, SPEED2 = 26, MAX = 27, V_T = 28, V_W = 31, V_S = 34;

/**
 * Writes `job.jointCount` joints of dead-blend state (`SLOT_STRIDE` floats each at
 * `job.offsets[job.offsetsOff + j × 20]`, see `DEAD_T` …) from the source P1 (`job.p1`), the
 * output `job.prevDt` seconds before it (`job.p2`; prevDt 0: a still source) and the target at
 * the source's instant (`job.blend`), with the longest half-life `job.halfLife` (see the file
 * header). The offsets block may not overlap the poses. Pure kernel; writes only the block and
 * `job.tmp`.
 */
export function captureDeadBlend(job: CaptureJob): void {
  const { p1, p2, blend: target, offsets: out, tmp } = job;
  const rate = job.prevDt > 0 ? 1 / job.prevDt : 0;
  tmp[LONGEST] = job.halfLife;
  tmp[SHORTEST] = job.halfLife * DEAD_MIN_HALF_LIFE_RATIO;
  for (let j = 0, n = job.jointCount; j < n; j++) {
    const k = j * POSE_STRIDE;
    const p = job.p1Off + k, q = job.p2Off + k, t = job.blendOff + k;
    const o = job.offsetsOff + j * SLOT_STRIDE;
    for (let i = 0; i < POSE_STRIDE; i++) out[o + i] = p1[p + i];
    tmp[HL] = tmp[LONGEST];
    // Translation and scale: v = (P1 − P2) / Δt, d = T − P1.
    for (let channel = 0; channel < 2; channel++) {
      const c = channel === 0 ? POSE_T : POSE_S;
      const v = channel === 0 ? V_T : V_S;
      let speed2 = 0, moved2 = 0, size2 = 0;
      for (let a = 0; a < 3; a++) {
        const moved = p1[p + c + a] - p2[q + c + a];
        tmp[W + a] = moved * rate;
        tmp[D + a] = target[t + c + a] - p1[p + c + a];
        speed2 += tmp[W + a] * tmp[W + a];
        moved2 += moved * moved;
        size2 += p1[p + c + a] * p1[p + c + a];
      }
      if (moved2 <= STILL_RATIO2 * size2) {
        stillChannel(tmp);
        speed2 = 0;
      }
      tmp[SPEED2] = speed2;
      tmp[MAX] = channel === 0 ? DEAD_MAX_SPEED : DEAD_MAX_SCALE_RATE;
      clampSpeed(tmp);
      for (let a = 0; a < 3; a++) tmp[v + a] = tmp[W + a];
      fitHalfLife(tmp);
    }
    // Rotation: ω = rotation vector of q_P1 · q_P2⁻¹ over Δt, d = rotation vector of q_T · q_P1⁻¹.
    copy4(tmp, Q_P1, p1, p + POSE_Q);
    copy4(tmp, Q_P2, p2, q + POSE_Q);
    copy4(tmp, Q_T, target, t + POSE_Q);
    quat.conjugate(tmp, Q_P2, tmp, Q_P2);
    quat.multiply(tmp, Q_D, tmp, Q_P1, tmp, Q_P2);
    writeScaledAxis(tmp, W, tmp, Q_D);
    let speed2 = 0, moved2 = 0;
    for (let a = 0; a < 3; a++) {
      moved2 += tmp[W + a] * tmp[W + a];
      tmp[W + a] = tmp[W + a] * rate;
      speed2 += tmp[W + a] * tmp[W + a];
    }
    if (moved2 <= STILL_RATIO2) {
      stillChannel(tmp);
      speed2 = 0;
    }
    tmp[SPEED2] = speed2;
    tmp[MAX] = DEAD_MAX_ANGULAR_VELOCITY;
    clampSpeed(tmp);
    for (let a = 0; a < 3; a++) tmp[V_W + a] = tmp[W + a];
    quat.conjugate(tmp, Q_P1, tmp, Q_P1);
    quat.multiply(tmp, Q_D, tmp, Q_T, tmp, Q_P1);
    writeScaledAxis(tmp, D, tmp, Q_D);
    fitHalfLife(tmp);
    const decayRate = Math.LN2 / tmp[HL];
    out[o + DEAD_RATE] = decayRate;
    // Each velocity as its distance to rest, v / r (see the file header).
    for (let a = 0; a < 3; a++) {
      out[o + DEAD_VT + a] = tmp[V_T + a] / decayRate;
      out[o + DEAD_W + a] = tmp[V_W + a] / decayRate;
      out[o + DEAD_VS + a] = tmp[V_S + a] / decayRate;
    }
  }
}

/** Zeroes the velocity at `tmp[W..]` (a still channel, see {@link DEAD_STILL_RATIO}). */
function stillChannel(tmp: Float64Array): void {
  tmp[W] = 0; tmp[W + 1] = 0; tmp[W + 2] = 0;
}

/** Scales the velocity at `tmp[W..]` (squared length `tmp[SPEED2]`) down to length `tmp[MAX]` if it is longer (numbers in `tmp`: a double argument would be boxed). */
function clampSpeed(tmp: Float64Array): void {
  const speed2 = tmp[SPEED2], max = tmp[MAX];
  if (speed2 <= max * max) return;
  const s = max / Math.sqrt(speed2);
  for (let a = 0; a < 3; a++) tmp[W + a] = tmp[W + a] * s;
}

/**
 * The fit of one channel (velocity at `tmp[W..]`, difference to the target at `tmp[D..]`):
 * lowers the joint's half-life `tmp[HL]` to this channel's, ln 2 · (d·v)/|v|² within
 * [`tmp[SHORTEST]`, `tmp[LONGEST]`], or the shortest when the velocity heads away. A still
 * channel changes nothing.
 */
function fitHalfLife(tmp: Float64Array): void {
  const shortest = tmp[SHORTEST], longest = tmp[LONGEST];
  const vx = tmp[W], vy = tmp[W + 1], vz = tmp[W + 2];
  const speed2 = vx * vx + vy * vy + vz * vz;
  if (!(speed2 > STILL)) return;
  const toward = (tmp[D] * vx + tmp[D + 1] * vy + tmp[D + 2] * vz) / speed2; // τ, seconds
  let halfLife = Math.LN2 * toward;
  if (!(halfLife > shortest)) halfLife = shortest;
  else if (halfLife > longest) halfLife = longest;
  tmp[FIT] = halfLife;
  if (tmp[FIT] < tmp[HL]) tmp[HL] = tmp[FIT];
}

/**
 * The frame's dead blend of `jointCount` joints: the target pose at `pose[poseOff ..]` (the
 * layers' blend, `jointCount × 10` floats) becomes the cross-fade from the source extrapolated to
 * `clock[DEAD_CLOCK]` seconds (the state `captureDeadBlend` wrote at `state[stateOff ..]`) to
 * it, with the target's weight `clock[DEAD_WEIGHT]` (< 1): translations and scales by lerp,
 * rotations by nlerp on the target's hemisphere. Pure kernel; writes only the pose block.
 */
export function applyDeadBlend(pose: Float32Array, poseOff: number, state: Float32Array, stateOff: number, jointCount: number, clock: Float64Array): void {
  const t = clock[DEAD_CLOCK];
  const keep = 1 - clock[DEAD_WEIGHT]; // the extrapolated source's weight
  for (let j = 0; j < jointCount; j++) {
    const o = stateOff + j * SLOT_STRIDE, p = poseOff + j * POSE_STRIDE;
    const r = state[o + DEAD_RATE];
    // e^(−rt) inline (a call would box its double): 2^(−k/8) · e^(−y), rt = k (ln 2)/8 + y,
    // y ∈ [0, (ln 2)/8), e^(−y) by its Taylor series to y⁵ in Estrin's form (relative error
    // < 6e-10, a short chain of dependent products); under 1e-17 it is 0.
    const x = r * t;
    let decay = 0;
    if (x < EXP_CUTOFF) {
      const k = (x * EIGHTHS_PER_LN2) | 0;
      const y = x - k * LN2_EIGHTH;
      const y2 = y * y;
      decay = POW2_NEG_EIGHTHS[k] * ((1 - y) + y2 * ((E2 - y * E3) + y2 * (E4 - y * E5)));
    }
    const g = 1 - decay; // the share of the distance to rest travelled
    for (let a = 0; a < 3; a++) {
      const tt = pose[p + POSE_T + a];
      pose[p + POSE_T + a] = tt + keep * (state[o + DEAD_T + a] + state[o + DEAD_VT + a] * g - tt);
      const ts = pose[p + POSE_S + a];
      pose[p + POSE_S + a] = ts + keep * (state[o + DEAD_S + a] + state[o + DEAD_VS + a] * g - ts);
    }
    // q_ext = exp(ω f) · q_src, ω f = (ω / r)·g: half-angle φ = |ω f| / 2, (sin φ / |ω f|) ω f and
    // cos φ — by their Taylor series to φ⁸ (Estrin's form) below φ = 1/2 (error < 3e-10), else by
    // Math.sin and Math.cos.
    const wx = state[o + DEAD_W] * g, wy = state[o + DEAD_W + 1] * g, wz = state[o + DEAD_W + 2] * g;
    const half2 = 0.25 * (wx * wx + wy * wy + wz * wz);
    let s: number, dw: number;
    if (half2 < 0.25) {
      const half4 = half2 * half2;
      s = 0.5 * ((1 - half2 * S3) + half4 * ((S5 - half2 * S7) + half4 * S9));
      dw = (1 - half2 * 0.5) + half4 * ((C4 - half2 * C6) + half4 * C8);
    } else {
      const half = Math.sqrt(half2);
      s = (0.5 * Math.sin(half)) / half;
      dw = Math.cos(half);
    }
    const dx = wx * s, dy = wy * s, dz = wz * s;
    const sx = state[o + DEAD_Q], sy = state[o + DEAD_Q + 1], sz = state[o + DEAD_Q + 2], sw = state[o + DEAD_Q + 3];
    let ex = dw * sx + dx * sw + dy * sz - dz * sy;
    let ey = dw * sy - dx * sz + dy * sw + dz * sx;
    let ez = dw * sz + dx * sy - dy * sx + dz * sw;
    let ew = dw * sw - dx * sx - dy * sy - dz * sz;
    const tx = pose[p + POSE_Q], ty = pose[p + POSE_Q + 1], tz = pose[p + POSE_Q + 2], tw = pose[p + POSE_Q + 3];
    if (ex * tx + ey * ty + ez * tz + ew * tw < 0) { ex = -ex; ey = -ey; ez = -ez; ew = -ew; }
    const qx = tx + keep * (ex - tx), qy = ty + keep * (ey - ty), qz = tz + keep * (ez - tz), qw = tw + keep * (ew - tw);
    const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    pose[p + POSE_Q] = qx * inv;
    pose[p + POSE_Q + 1] = qy * inv;
    pose[p + POSE_Q + 2] = qz * inv;
    pose[p + POSE_Q + 3] = qw * inv;
  }
}

/** Beyond this r·t, e^(−rt) < 1e-17 counts as 0 (applyDeadBlend). */
const EXP_CUTOFF = 40;
/** applyDeadBlend's range reduction of e^(−x): x = k·LN2_EIGHTH + y, k = ⌊x·EIGHTHS_PER_LN2⌋. */
const EIGHTHS_PER_LN2 = 8 * Math.LOG2E, LN2_EIGHTH = Math.LN2 / 8;
/** 2^(−1/8), 2^(−1/4), 2^(−1/2), rounded to doubles (assembly/offsets.ts has the same literals). */
const ROOT8 = 0.9170040432046712, ROOT4 = 0.8408964152537145, ROOT2 = 0.7071067811865476;
/**
 * 2^(−k/8) for every k below EXP_CUTOFF · EIGHTHS_PER_LN2, as 2^(−⌊k/8⌋) times the product of
 * the roots k's low three bits select — the product the WebAssembly kernel forms, so the same doubles.
 */
const POW2_NEG_EIGHTHS = Float64Array.from({ length: Math.ceil(EXP_CUTOFF * EIGHTHS_PER_LN2) + 1 }, (_, k) =>
  2 ** -(k >> 3) * (((k & 4 ? ROOT2 : 1) * (k & 2 ? ROOT4 : 1)) * (k & 1 ? ROOT8 : 1)));
// Taylor coefficients: e^(−y) = 1 − y + y²/2 − … (E_n = 1/n!); sin φ / φ and cos φ in φ².
const E2 = 1 / 2, E3 = 1 / 6, E4 = 1 / 24, E5 = 1 / 120;
const S3 = 1 / 6, S5 = 1 / 120, S7 = 1 / 5040, S9 = 1 / 362880;
const C4 = 1 / 24, C6 = 1 / 720, C8 = 1 / 40320;

/**
 * The dead blend of `curveCount` float curves, as {@link applyDeadBlend} does a translation
 * component: each slot entry (`CURVE_SLOT_STRIDE` = 3 floats at `slots[slotOff + c × 3]`) holds
 * the source value, its velocity and its decay rate; the value at `values[valuesOff + c]` (the
 * layers' blend) becomes the cross-fade from the extrapolated source to it. Pure kernel;
 * writes only the values.
 */
export function applyDeadBlendCurves(values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number, clock: Float64Array): void {
  const t = clock[DEAD_CLOCK];
  const keep = 1 - clock[DEAD_WEIGHT];
  for (let c = 0; c < curveCount; c++) {
    const o = slotOff + c * CURVE_SLOT_STRIDE;
    const r = slots[o + CURVE_DEAD_RATE];
    const f = (1 - Math.exp(-r * t)) / r;
    const v = values[valuesOff + c];
    values[valuesOff + c] = v + keep * (slots[o + CURVE_DEAD_SOURCE] + slots[o + CURVE_DEAD_VELOCITY] * f - v);
  }
}

/**
 * One curve's dead-blend entry at the switch: source value `p1`, its velocity `v` (clamped by
 * {@link DEAD_MAX_SPEED}), and the decay rate fitted against the target value `target` as a
 * joint's channel is (see the file header), into `slots[o .. o + 2]`. The numbers travel in
 * `io` (at `CURVE_IO_SOURCE`, `CURVE_IO_VELOCITY`, `CURVE_IO_TARGET`, `CURVE_IO_HALF_LIFE`: the
 * longest half-life) so no double is boxed.
 */
export function captureDeadCurve(slots: Float32Array, o: number, io: Float64Array): void {
  const longest = io[CURVE_IO_HALF_LIFE], shortest = longest * DEAD_MIN_HALF_LIFE_RATIO;
  let v = io[CURVE_IO_VELOCITY];
  if (v > DEAD_MAX_SPEED) v = DEAD_MAX_SPEED;
  else if (v < -DEAD_MAX_SPEED) v = -DEAD_MAX_SPEED;
  let halfLife = longest;
  if (v * v > STILL) {
    halfLife = Math.LN2 * ((io[CURVE_IO_TARGET] - io[CURVE_IO_SOURCE]) / v);
    if (!(halfLife > shortest)) halfLife = shortest;
    else if (halfLife > longest) halfLife = longest;
  }
  slots[o + CURVE_DEAD_SOURCE] = io[CURVE_IO_SOURCE];
  slots[o + CURVE_DEAD_VELOCITY] = v;
  slots[o + CURVE_DEAD_RATE] = Math.LN2 / halfLife;
}

/**
 * At a request that interrupts a running dead blend (captureSourceMotion): the output h =
 * `SOURCE_INTERVAL` before P1, from the dead blend applied to the layers' blend at τ
 * (`now`, at its clock) and at τ − σh (`other`, at its clock σh earlier; σ = +1 when
 * `back`, the blend h earlier, else −1, h later): P2 = P1 − σ·(A − B) for translations and
 * scales, q_P2 = (q_A·q_B⁻¹)^(−σ) · q_P1.
 * `now` and `other` hold A and B (the caller applied {@link applyDeadBlend} to each). Pure
 * kernel; writes only `p2`.
 */
export function writeDeadSourcePast(
  p1: Float32Array, p1Off: number, p2: Float32Array, p2Off: number, now: Float32Array, other: Float32Array, jointCount: number, back: boolean, tmp: Float64Array,
): void {
  const sign = back ? 1 : -1;
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    for (let a = 0; a < 3; a++) {
      p2[p2Off + k + POSE_T + a] = p1[p1Off + k + POSE_T + a] - sign * (now[k + POSE_T + a] - other[k + POSE_T + a]);
      p2[p2Off + k + POSE_S + a] = p1[p1Off + k + POSE_S + a] - sign * (now[k + POSE_S + a] - other[k + POSE_S + a]);
    }
    copy4(tmp, Q_P1, now, k + POSE_Q);
    copy4(tmp, Q_P2, other, k + POSE_Q);
    // δ = q_B · q_A⁻¹ carries A back to B (σ > 0); its inverse carries it forward.
    if (sign > 0) {
      quat.conjugate(tmp, Q_P1, tmp, Q_P1);
      quat.multiply(tmp, Q_D, tmp, Q_P2, tmp, Q_P1);
    } else {
      quat.conjugate(tmp, Q_P2, tmp, Q_P2);
      quat.multiply(tmp, Q_D, tmp, Q_P1, tmp, Q_P2);
    }
    copy4(tmp, Q_T, p1, p1Off + k + POSE_Q);
    quat.multiply(tmp, Q_T, tmp, Q_D, tmp, Q_T);
    for (let a = 0; a < 4; a++) p2[p2Off + k + POSE_Q + a] = tmp[Q_T + a];
  }
}
