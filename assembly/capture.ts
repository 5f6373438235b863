/**
 * A transition's capture kernels on the WebAssembly side: src/systems/captureOffsets.ts
 * `captureOffsets` (the quintic and spring offsets at the switch, from P1, P2 and the target
 * blend at τ and τ − σh) and `writeSourcePast` (at the request, P2 from P1 along the source's
 * velocity), with the same operations in the same order in doubles, each result rounded to
 * float32 once when stored — so the JavaScript kernels' bits, except where those call
 * `Math.atan2`, `Math.sin` or `Math.cos` (a rotation's angle, the running offset's rotation):
 * AssemblyScript's versions of those (from musl) stand for V8's (docs/wasm.md). Scalar code.
 *
 * Layouts (src/components/Inertialization.ts; test/wasm/exportSignatures.test.ts checks the
 * parameters block): a joint pose is 10 float32 (T at 0, Q at 12, S at 28 bytes); a joint's
 * offsets 18 float32 (channels T, Q, S at 0, 24, 48 bytes; in a channel the direction or offset
 * vector, then x0, k, 1/t1 — or the spring's velocity). The numbers a capture reads travel in a
 * block of f64 at `params`: σh, Δt (P1 − P2), the duration t1 and the running offset's clock.
 */

// Byte offsets (test/wasm/exportSignatures.test.ts checks them against the TypeScript layouts).
const POSE: usize = 40, POSE_T: usize = 0, POSE_Q: usize = 12, POSE_S: usize = 28;
const OFFSETS: usize = 72;
const OFF_T: usize = 0;
const OFF_Q: usize = 24;
const OFF_S: usize = 48;
const X0: usize = 12;
const K: usize = 16;
const INV_T1: usize = 20;
const VELOCITY: usize = 12;
// The parameters block (f64; src/wasm/offsetsWasm.ts `CAPTURE_PARAMS`).
const INTERVAL: usize = 0;
const PREV_DT: usize = 8;
const DURATION: usize = 16;
const CLOCK: usize = 24;
// Inertialization modes (src/components/Inertialization.ts).
const QUINTIC: i32 = 1;
const SPRING: i32 = 2;

/** Below this an offset is zero (captureOffsets.ts `NEGLIGIBLE`). */
const NEGLIGIBLE: f64 = 1e-7;
/** Seconds between the two evaluations of a velocity (captureOffsets.ts `SOURCE_INTERVAL`). */
const SOURCE_INTERVAL: f64 = 1e-3;

// @ts-ignore: decorator
@inline function f(ptr: usize, offset: usize): f64 {
  return <f64>load<f32>(ptr + offset);
}

// @ts-ignore: decorator
@inline function put(ptr: usize, offset: usize, value: f64): void {
  store<f32>(ptr + offset, <f32>value);
}

// A quaternion or vector in locals travels through these (the kernels call no function that returns two numbers).
let qx: f64 = 0, qy: f64 = 0, qz: f64 = 0, qw: f64 = 0;
let vx: f64 = 0, vy: f64 = 0, vz: f64 = 0;

/** (qx, qy, qz, qw) ← a · b (src/math/quat.ts `multiply`). */
// @ts-ignore: decorator
@inline function multiply(ax: f64, ay: f64, az: f64, aw: f64, bx: f64, by: f64, bz: f64, bw: f64): void {
  qx = aw * bx + ax * bw + ay * bz - az * by;
  qy = aw * by - ax * bz + ay * bw + az * bx;
  qz = aw * bz + ax * by - ay * bx + az * bw;
  qw = aw * bw - ax * bx - ay * by - az * bz;
}

/** (vx, vy, vz) ← axis × angle of the unit quaternion (x, y, z, w), shortest arc (captureOffsets.ts `writeScaledAxis`). */
// @ts-ignore: decorator
@inline function scaledAxis(x: f64, y: f64, z: f64, w: f64): void {
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    vx = 0; vy = 0; vz = 0;
    return;
  }
  if (w < 0) { x = -x; y = -y; z = -z; }
  const k = (2 * Math.atan2(s, Math.abs(w))) / s;
  vx = x * k; vy = y * k; vz = z * k;
}

/** (vx, vy, vz) ← the rotation (x, y, z, w) applied to (px, py, pz) (src/math/quat.ts `rotateVec3`). */
// @ts-ignore: decorator
@inline function rotateVec(x: f64, y: f64, z: f64, w: f64, px: f64, py: f64, pz: f64): void {
  const tx = 2 * (y * pz - z * py);
  const ty = 2 * (z * px - x * pz);
  const tz = 2 * (x * py - y * px);
  vx = px + w * tx + (y * tz - z * ty);
  vy = py + w * ty + (z * tx - x * tz);
  vz = pz + w * tz + (x * ty - y * tx);
}

/**
 * captureOffsets.ts `captureOffsets`: `jointCount` joints of offsets at `offsets` for a
 * transition of `mode` (quintic or spring) from the target at `blend` (τ) and `blendOther`
 * (τ − σh), P1 at `p1` and the output Δt before it at `p2`; `params` as in the file header.
 */
export function captureOffsets(blend: usize, blendOther: usize, p1: usize, p2: usize, offsets: usize, jointCount: i32, mode: i32, params: usize): void {
  const prevDt = load<f64>(params, PREV_DT), interval = load<f64>(params, INTERVAL);
  const sourceRate = prevDt > 0 ? 1 / prevDt : 0;
  const targetRate = interval != 0 ? 1 / interval : 0;
  const duration = load<f64>(params, DURATION);
  for (let j = 0; j < jointCount; j++) {
    const k = <usize>j * POSE, o = offsets + <usize>j * OFFSETS;
    captureVector(blend + k + POSE_T, blendOther + k + POSE_T, p1 + k + POSE_T, p2 + k + POSE_T, o + OFF_T, sourceRate, targetRate, mode, duration);
    captureVector(blend + k + POSE_S, blendOther + k + POSE_S, p1 + k + POSE_S, p2 + k + POSE_S, o + OFF_S, sourceRate, targetRate, mode, duration);
    captureRotation(blend + k + POSE_Q, blendOther + k + POSE_Q, p1 + k + POSE_Q, p2 + k + POSE_Q, o + OFF_Q, sourceRate, targetRate, mode, duration);
  }
}

/** captureOffsets.ts `captureVectorOffset`: one translation or scale channel (pose floats at `t`, `to`, `a`, `b`; the channel at `o`). */
// @ts-ignore: decorator
@inline function captureVector(t: usize, to: usize, a: usize, b: usize, o: usize, sourceRate: f64, targetRate: f64, mode: i32, duration: f64): void {
  const o0 = f(a, 0) - f(t, 0), o1 = f(a, 4) - f(t, 4), o2 = f(a, 8) - f(t, 8);
  const v0 = (f(a, 0) - f(b, 0)) * sourceRate - (f(t, 0) - f(to, 0)) * targetRate;
  const v1 = (f(a, 4) - f(b, 4)) * sourceRate - (f(t, 4) - f(to, 4)) * targetRate;
  const v2 = (f(a, 8) - f(b, 8)) * sourceRate - (f(t, 8) - f(to, 8)) * targetRate;
  storeChannel(o, o0, o1, o2, v0, v1, v2, mode, duration);
}

/**
 * captureOffsets.ts `captureRotationOffset`: q_off = q_P1 · q_T(τ)⁻¹ as axis·angle, its velocity
 * ω_src − R_off ω_tgt (quaternions at `t`, `to`, `a`, `b`; the channel at `o`).
 */
// @ts-ignore: decorator
@inline function captureRotation(t: usize, to: usize, a: usize, b: usize, o: usize, sourceRate: f64, targetRate: f64, mode: i32, duration: f64): void {
  const ax = f(a, 0), ay = f(a, 4), az = f(a, 8), aw = f(a, 12);
  const tx = f(t, 0), ty = f(t, 4), tz = f(t, 8), tw = f(t, 12);
  // q_off = q_P1 · conj(q_T)
  multiply(ax, ay, az, aw, -tx, -ty, -tz, tw);
  const fx = qx, fy = qy, fz = qz, fw = qw;
  // ω_tgt = axis·angle(q_T · conj(q_T(τ − σh))) / σh, rotated into the offset's frame.
  multiply(tx, ty, tz, tw, -f(to, 0), -f(to, 4), -f(to, 8), f(to, 12));
  scaledAxis(qx, qy, qz, qw);
  rotateVec(fx, fy, fz, fw, vx * targetRate, vy * targetRate, vz * targetRate);
  const wx = vx, wy = vy, wz = vz;
  // ω_src = axis·angle(q_P1 · conj(q_P2)) / Δt; the offset's velocity ω_src − R_off ω_tgt.
  multiply(ax, ay, az, aw, -f(b, 0), -f(b, 4), -f(b, 8), f(b, 12));
  scaledAxis(qx, qy, qz, qw);
  const v0 = vx * sourceRate - wx, v1 = vy * sourceRate - wy, v2 = vz * sourceRate - wz;
  scaledAxis(fx, fy, fz, fw);
  storeChannel(o, vx, vy, vz, v0, v1, v2, mode, duration);
}

/**
 * The offset vector (x, y, z) stored in the channel at `o` (float32), its length taken from the
 * doubles, then captureOffsets.ts `storeVectorOffset` with its velocity (v0, v1, v2). Spring: the
 * velocity stored after it. Quintic: the direction, x0, k = v0·t1 and 1/t1 (t1 shortened so a
 * start heading toward zero does not overshoot).
 */
// @ts-ignore: decorator
@inline function storeChannel(o: usize, x: f64, y: f64, z: f64, v0: f64, v1: f64, v2: f64, mode: i32, duration: f64): void {
  put(o, 0, x); put(o, 4, y); put(o, 8, z);
  let sum: f64 = 0;
  sum += x * x;
  sum += y * y;
  sum += z * z;
  const len = Math.sqrt(sum);
  if (mode == SPRING) {
    put(o, VELOCITY, v0); put(o, VELOCITY + 4, v1); put(o, VELOCITY + 8, v2);
    return;
  }
  if (!(len > NEGLIGIBLE)) {
    for (let a: usize = 0; a < 24; a += 4) store<f32>(o + a, 0);
    return;
  }
  const inv = 1 / len;
  const d0 = f(o, 0) * inv, d1 = f(o, 4) * inv, d2 = f(o, 8) * inv;
  put(o, 0, d0); put(o, 4, d1); put(o, 8, d2);
  let v: f64 = 0;
  v += v0 * d0;
  v += v1 * d1;
  v += v2 * d2;
  let t1 = duration;
  if (v < 0 && (-5 * len) / v < t1) t1 = (-5 * len) / v;
  put(o, X0, len);
  put(o, K, v * t1);
  put(o, INV_T1, 1 / t1);
}

// x(t) and x′(t) of a quintic channel (`quinticAt`).
let quinticX: f64 = 0, quinticRate: f64 = 0;

/** captureOffsets.ts `quinticVelocity`: x(t) and x′(t) of the quintic channel at `c` at `t` seconds (both 0 once it ended). */
// @ts-ignore: decorator
@inline function quinticAt(c: usize, t: f64): void {
  const x0 = f(c, X0), k = f(c, K), inv = f(c, INV_T1);
  const s = t * inv;
  if (!(s < 1) || x0 == 0) {
    quinticX = 0;
    quinticRate = 0;
    return;
  }
  const u = 1 - s, u2 = u * u;
  quinticX = u2 * u2 * (x0 * (1 + 4 * s) + k * s);
  quinticRate = u2 * u * (k - s * (20 * x0 + 5 * k)) * inv;
}

/**
 * captureOffsets.ts `writeSourcePast`: P2 at `p2` = the output h before P1 (`p1`) along the
 * output's velocity — the blend's (`blend` minus `blendOther`, σh apart) plus the running offset's
 * at `offsets` (`mode`: quintic at the clock, spring as it stands; any other: none).
 */
export function writeSourcePast(blend: usize, blendOther: usize, p1: usize, p2: usize, offsets: usize, jointCount: i32, mode: i32, params: usize): void {
  const rate = 1 / load<f64>(params, INTERVAL);
  const clock = load<f64>(params, CLOCK);
  const h = SOURCE_INTERVAL;
  for (let j = 0; j < jointCount; j++) {
    const k = <usize>j * POSE, o = offsets + <usize>j * OFFSETS;
    const now = blend + k, other = blendOther + k, a = p1 + k, b = p2 + k;
    pastVector(now + POSE_T, other + POSE_T, a + POSE_T, b + POSE_T, o + OFF_T, rate, mode, clock);
    pastVector(now + POSE_S, other + POSE_S, a + POSE_S, b + POSE_S, o + OFF_S, rate, mode, clock);
    // ω_blend = axis·angle(now · other⁻¹) / σh.
    multiply(f(now, POSE_Q), f(now, POSE_Q + 4), f(now, POSE_Q + 8), f(now, POSE_Q + 12), -f(other, POSE_Q), -f(other, POSE_Q + 4), -f(other, POSE_Q + 8), f(other, POSE_Q + 12));
    scaledAxis(qx, qy, qz, qw);
    let wx = vx * rate, wy = vy * rate, wz = vz * rate;
    const r = o + OFF_Q;
    if (mode == QUINTIC) {
      // q_off = rotation by x(t) about the axis; ω_off = axis·x′(t).
      quinticAt(r, clock);
      const half = 0.5 * quinticX, sin = Math.sin(half);
      rotateVec(f(r, 0) * sin, f(r, 4) * sin, f(r, 8) * sin, Math.cos(half), wx, wy, wz);
      wx = vx + f(r, 0) * quinticRate;
      wy = vy + f(r, 4) * quinticRate;
      wz = vz + f(r, 8) * quinticRate;
    } else if (mode == SPRING) {
      springAngularVelocity(r, wx, wy, wz);
      wx = vx; wy = vy; wz = vz;
    }
    // q_P2 = exp(−h·ω) · q_P1.
    const angle = Math.sqrt(wx * wx + wy * wy + wz * wz) * h;
    let dx: f64 = 0, dy: f64 = 0, dz: f64 = 0, dw: f64 = 1;
    if (angle > 0) {
      const s = -Math.sin(0.5 * angle) / (angle / h);
      dx = wx * s; dy = wy * s; dz = wz * s; dw = Math.cos(0.5 * angle);
    }
    multiply(dx, dy, dz, dw, f(a, POSE_Q), f(a, POSE_Q + 4), f(a, POSE_Q + 8), f(a, POSE_Q + 12));
    put(b, POSE_Q, qx); put(b, POSE_Q + 4, qy); put(b, POSE_Q + 8, qz); put(b, POSE_Q + 12, qw);
  }
}

/** One translation or scale channel of {@link writeSourcePast} (pose floats at `now`, `other`, `a`, `b`; the running offset's channel at `c`). */
// @ts-ignore: decorator
@inline function pastVector(now: usize, other: usize, a: usize, b: usize, c: usize, rate: f64, mode: i32, clock: f64): void {
  let v0 = (f(now, 0) - f(other, 0)) * rate, v1 = (f(now, 4) - f(other, 4)) * rate, v2 = (f(now, 8) - f(other, 8)) * rate;
  if (mode == QUINTIC) {
    quinticAt(c, clock);
    v0 = v0 + f(c, 0) * quinticRate;
    v1 = v1 + f(c, 4) * quinticRate;
    v2 = v2 + f(c, 8) * quinticRate;
  } else if (mode == SPRING) {
    v0 = v0 + f(c, VELOCITY);
    v1 = v1 + f(c, VELOCITY + 4);
    v2 = v2 + f(c, VELOCITY + 8);
  }
  const h = SOURCE_INTERVAL;
  put(b, 0, f(a, 0) - h * v0);
  put(b, 4, f(a, 4) - h * v1);
  put(b, 8, f(a, 8) - h * v2);
}

/**
 * captureOffsets.ts `springAngularVelocity`: for the spring's rotation offset r (at `r`) and its
 * rate ṙ (at r + velocity), (vx, vy, vz) ← R(r)·ω_blend + J(r)·ṙ, J the left Jacobian of the
 * rotation vector, ω_blend = (wx, wy, wz).
 */
// @ts-ignore: decorator
@inline function springAngularVelocity(r: usize, wx: f64, wy: f64, wz: f64): void {
  const rx = f(r, 0), ry = f(r, 4), rz = f(r, 8);
  const dx = f(r, VELOCITY), dy = f(r, VELOCITY + 4), dz = f(r, VELOCITY + 8);
  const theta2 = rx * rx + ry * ry + rz * rz, theta = Math.sqrt(theta2);
  let a: f64, b: f64;
  if (theta < 1e-4) {
    a = 0.5 - theta2 / 24;
    b = 1.0 / 6 - theta2 / 120;
  } else {
    a = (1 - Math.cos(theta)) / theta2;
    b = (theta - Math.sin(theta)) / (theta2 * theta);
  }
  const cx = ry * dz - rz * dy, cy = rz * dx - rx * dz, cz = rx * dy - ry * dx; // r × ṙ
  const ex = ry * cz - rz * cy, ey = rz * cx - rx * cz, ez = rx * cy - ry * cx; // r × (r × ṙ)
  let px = wx, py = wy, pz = wz;
  if (theta > 0) {
    const sin = Math.sin(0.5 * theta) / theta;
    rotateVec(rx * sin, ry * sin, rz * sin, Math.cos(0.5 * theta), wx, wy, wz);
    px = vx; py = vy; pz = vz;
  }
  vx = px + dx + a * cx + b * ex;
  vy = py + dy + a * cy + b * ey;
  vz = pz + dz + a * cz + b * ez;
}
