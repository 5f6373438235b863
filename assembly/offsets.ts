/**
 * The transition offsets on the WebAssembly kernels: the per-update kernels of
 * src/systems/inertializeOffsets.ts (quintic inertialization, the decay spring) and
 * src/systems/deadBlendOffsets.ts (dead blending), joints and float curves, with the same
 * operations in the same order in doubles, each result rounded to float32 once when stored —
 * so the same bits as the JavaScript kernels, except where those call `Math.sin`, `Math.cos` or
 * `Math.exp` (a spring's rotation, a dead blend's rotation beyond a half angle of ½ radian, a
 * dead blend's curves): AssemblyScript's own versions of those, within an ulp of V8's
 * (docs/wasm.md). Scalar code, but for the dead blend's joints, two per `f64x2` (each lane the
 * scalar statements' doubles).
 *
 * Layouts (src/components/Inertialization.ts, test/wasm/exportSignatures.test.ts checks them):
 * a joint pose is 10 float32 (T at 0, Q at 12, S at 28 bytes); a joint's quintic or spring
 * offsets are 18 float32 (channels T, Q, S at 0, 24, 48 bytes; in a channel the direction or
 * offset vector, then x0, k, 1/t1 or the velocity); a joint's dead-blend state is 20 float32
 * (source T Q S, velocities, decay rate); a curve's slot entry 3 float32.
 */

// Bytes of one joint's records and the offsets inside them.
const POSE: usize = 40, POSE_T: usize = 0, POSE_Q: usize = 12, POSE_S: usize = 28;
const OFFSETS: usize = 72, CHANNEL: usize = 24, OFF_T: usize = 0, OFF_Q: usize = 24, OFF_S: usize = 48;
const X0: usize = 12, K: usize = 16, INV_T1: usize = 20, VELOCITY: usize = 12;
const DEAD: usize = 80, DEAD_T: usize = 0, DEAD_Q: usize = 12, DEAD_S: usize = 28, DEAD_VT: usize = 40, DEAD_W: usize = 52, DEAD_VS: usize = 64, DEAD_RATE: usize = 76;
const CURVE: usize = 12;
// A spring's parameters block (f64): y = 2 ln 2 / half-life, e^(−y·dt), dt. A dead blend's clock (f64): seconds, target weight.
const SPRING_Y: usize = 0, SPRING_DECAY: usize = 8, SPRING_DT: usize = 16;
const CLOCK_T: usize = 0, CLOCK_WEIGHT: usize = 8;

/** A spring offset below this (and its velocity below ten times it, per second) has ended (inertializeOffsets.ts). */
const SPRING_REST: f64 = 1e-5;
const SPRING_REST_VELOCITY: f64 = 10 * SPRING_REST;
/** Beyond this r·t, e^(−rt) counts as 0 (deadBlendOffsets.ts `EXP_CUTOFF`). */
const EXP_CUTOFF: f64 = 40;

// Taylor coefficients of the quintic's rotation: sin (odd powers) and cos (even powers).
const QS3: f64 = -1.0 / 6, QS5: f64 = 1.0 / 120, QS7: f64 = -1.0 / 5040, QS9: f64 = 1.0 / 362880, QS11: f64 = -1.0 / 39916800;
const QC2: f64 = -1.0 / 2, QC4: f64 = 1.0 / 24, QC6: f64 = -1.0 / 720, QC8: f64 = 1.0 / 40320, QC10: f64 = -1.0 / 3628800, QC12: f64 = 1.0 / 479001600;
// Dead blending's: e^(−y) to y⁵, sin φ / φ and cos φ in φ².
const E2: f64 = 1.0 / 2, E3: f64 = 1.0 / 6, E4: f64 = 1.0 / 24, E5: f64 = 1.0 / 120;
// Its range reduction x = k·(ln 2)/8 + y and 2^(−1/8), 2^(−1/4), 2^(−1/2) (deadBlendOffsets.ts's literals).
const EIGHTHS_PER_LN2: f64 = 8 * Math.LOG2E, LN2_EIGHTH: f64 = Math.LN2 / 8;
const ROOT8: f64 = 0.9170040432046712, ROOT4: f64 = 0.8408964152537145, ROOT2: f64 = 0.7071067811865476;
const S3: f64 = 1.0 / 6, S5: f64 = 1.0 / 120, S7: f64 = 1.0 / 5040, S9: f64 = 1.0 / 362880;
const C4: f64 = 1.0 / 24, C6: f64 = 1.0 / 720, C8: f64 = 1.0 / 40320;

// @ts-ignore: decorator
@inline function f(ptr: usize, offset: usize): f64 {
  return <f64>load<f32>(ptr + offset);
}

// @ts-ignore: decorator
@inline function put(ptr: usize, offset: usize, value: f64): void {
  store<f32>(ptr + offset, <f32>value);
}

/**
 * inertializeOffsets.ts `applyQuinticOffsets`: adds the quintic offsets at `elapsed` (f32, the
 * character's `Inertialization.elapsed`) seconds to `jointCount` joint poses at `pose`, from the
 * offsets at `offsets`.
 */
export function applyQuinticOffsets(pose: usize, offsets: usize, jointCount: i32, elapsed: usize): void {
  const t = <f64>load<f32>(elapsed);
  for (let j = 0; j < jointCount; j++) {
    const p = pose + <usize>j * POSE;
    const c = offsets + <usize>j * OFFSETS;
    quinticVector(p + POSE_T, c + OFF_T, t);
    quinticVector(p + POSE_S, c + OFF_S, t);
    const cq = c + OFF_Q;
    const s = t * f(cq, INV_T1);
    if (s < 1 && load<f32>(cq, X0) != 0) {
      const r = 1 - s, r2 = r * r;
      const h = 0.5 * r2 * r2 * (f(cq, X0) * (1 + 4 * s) + f(cq, K) * s);
      const sc = sinCos(h);
      const sin = f64x2.extract_lane(sc, 0), w = f64x2.extract_lane(sc, 1);
      rotate(p + POSE_Q, f(cq, 0) * sin, f(cq, 4) * sin, f(cq, 8) * sin, w);
    }
  }
}

/**
 * The quintic's sin h (lane 0) and cos h (lane 1) by their series, the two Horner loops side by
 * side: sin = h·(1 + h²·(S3 + h²·(… + h²·S11))), cos = 1 + h²·(C2 + h²·(… + h²·C12)), each lane the
 * scalar statements' operations in their order (sin's loop starts a step early from 0: S11 + h²·0
 * is S11 for a finite h²), so the same bits.
 */
// @ts-ignore: decorator
@inline function sinCos(h: f64): v128 {
  const h2 = f64x2.splat(h * h);
  let acc = f64x2.add(f64x2.replace_lane(f64x2.splat(QS11), 1, QC10), f64x2.mul(h2, f64x2.replace_lane(f64x2.splat(0), 1, QC12)));
  acc = f64x2.add(f64x2.replace_lane(f64x2.splat(QS9), 1, QC8), f64x2.mul(h2, acc));
  acc = f64x2.add(f64x2.replace_lane(f64x2.splat(QS7), 1, QC6), f64x2.mul(h2, acc));
  acc = f64x2.add(f64x2.replace_lane(f64x2.splat(QS5), 1, QC4), f64x2.mul(h2, acc));
  acc = f64x2.add(f64x2.replace_lane(f64x2.splat(QS3), 1, QC2), f64x2.mul(h2, acc));
  acc = f64x2.add(f64x2.splat(1), f64x2.mul(h2, acc));
  return f64x2.mul(acc, f64x2.replace_lane(f64x2.splat(h), 1, 1));
}

/** One translation or scale channel of {@link applyQuinticOffsets}: along the direction at `c`. */
// @ts-ignore: decorator
@inline function quinticVector(p: usize, c: usize, t: f64): void {
  const s = t * f(c, INV_T1);
  if (s < 1 && load<f32>(c, X0) != 0) {
    const r = 1 - s, r2 = r * r;
    const x = r2 * r2 * (f(c, X0) * (1 + 4 * s) + f(c, K) * s);
    put(p, 0, f(p, 0) + f(c, 0) * x);
    put(p, 4, f(p, 4) + f(c, 4) * x);
    put(p, 8, f(p, 8) + f(c, 8) * x);
  }
}

/** q ← (x, y, z, w) · q for the rotation q at `q` (the products of inertializeOffsets.ts). */
// @ts-ignore: decorator
@inline function rotate(q: usize, x: f64, y: f64, z: f64, w: f64): void {
  const bx = f(q, 0), by = f(q, 4), bz = f(q, 8), bw = f(q, 12);
  put(q, 0, w * bx + x * bw + y * bz - z * by);
  put(q, 4, w * by - x * bz + y * bw + z * bx);
  put(q, 8, w * bz + x * by - y * bx + z * bw);
  put(q, 12, w * bw - x * bx - y * by - z * bz);
}

/**
 * inertializeOffsets.ts `applySpringOffsets`: advances the spring offsets at `offsets` by dt and
 * adds them to `jointCount` joint poses at `pose`; `params` holds y, e^(−y·dt) and dt (f64).
 * Returns 1 while any offset is above rest, else 0.
 */
export function applySpringOffsets(pose: usize, offsets: usize, jointCount: i32, params: usize): i32 {
  const y = load<f64>(params, SPRING_Y), decay = load<f64>(params, SPRING_DECAY), dt = load<f64>(params, SPRING_DT);
  let active = 0;
  for (let j = 0; j < jointCount; j++) {
    const o = offsets + <usize>j * OFFSETS;
    for (let k = o, end = o + OFFSETS; k < end; k += CHANNEL) {
      for (let a = k; a < k + 12; a += 4) {
        const x = f(a, 0), v = f(a, VELOCITY);
        const jerk = v + x * y;
        const nx = decay * (x + jerk * dt);
        const nv = decay * (v - jerk * y * dt);
        put(a, 0, nx);
        put(a, VELOCITY, nv);
        if (Math.abs(nx) > SPRING_REST || Math.abs(nv) > SPRING_REST_VELOCITY) active = 1;
      }
    }
    addSpring(pose + <usize>j * POSE, o);
  }
  return active;
}

/** inertializeOffsets.ts `addSpringOffsets`: adds the spring offsets at `offsets`, as they are, to `jointCount` joint poses at `pose`. */
export function addSpringOffsets(pose: usize, offsets: usize, jointCount: i32): void {
  for (let j = 0; j < jointCount; j++) addSpring(pose + <usize>j * POSE, offsets + <usize>j * OFFSETS);
}

/** One joint of {@link addSpringOffsets}: the translation and scale offsets added, the rotation by its vector. */
// @ts-ignore: decorator
@inline function addSpring(p: usize, o: usize): void {
  put(p, POSE_T, f(p, POSE_T) + f(o, OFF_T));
  put(p, POSE_T + 4, f(p, POSE_T + 4) + f(o, OFF_T + 4));
  put(p, POSE_T + 8, f(p, POSE_T + 8) + f(o, OFF_T + 8));
  put(p, POSE_S, f(p, POSE_S) + f(o, OFF_S));
  put(p, POSE_S + 4, f(p, POSE_S + 4) + f(o, OFF_S + 4));
  put(p, POSE_S + 8, f(p, POSE_S + 8) + f(o, OFF_S + 8));
  const rx = f(o, OFF_Q), ry = f(o, OFF_Q + 4), rz = f(o, OFF_Q + 8);
  const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
  if (!(angle > 0)) return;
  const k = Math.sin(angle * 0.5) / angle;
  rotate(p + POSE_Q, rx * k, ry * k, rz * k, Math.cos(angle * 0.5));
}

/**
 * deadBlendOffsets.ts `applyDeadBlend`: the target pose of `jointCount` joints at `pose` becomes
 * the cross-fade from the source at `state`, extrapolated to `clock[0]` seconds, to it, with the
 * target's weight `clock[1]` (f64 each). Two joints at a time, one per lane of `f64x2`
 * ({@link deadBlendPair}: each lane the scalar statements' doubles), an odd last one alone.
 */
export function applyDeadBlend(pose: usize, state: usize, jointCount: i32, clock: usize): void {
  const t = load<f64>(clock, CLOCK_T);
  const keep = 1 - load<f64>(clock, CLOCK_WEIGHT);
  let j = 0;
  for (; j + 1 < jointCount; j += 2) deadBlendPair(pose + <usize>j * POSE, state + <usize>j * DEAD, t, keep);
  if (j < jointCount) deadBlendJoint(pose + <usize>j * POSE, state + <usize>j * DEAD, t, keep);
}

/**
 * 2^(−k/8) for 0 ≤ k < 64 · 8: 2^(−⌊k/8⌋) from its exponent bits (exact) times the roots k's
 * low three bits select, multiplied in deadBlendOffsets.ts's table order (the same doubles).
 * A k out of that range (x not below the cutoff, whose result is not kept) gives some number.
 */
// @ts-ignore: decorator
@inline function pow2Eighths(k: i32): f64 {
  const pow2 = reinterpret<f64>(<u64>(1023 - ((k >> 3) & 1023)) << 52);
  return pow2 * (((k & 4 ? ROOT2 : 1) * (k & 2 ? ROOT4 : 1)) * (k & 1 ? ROOT8 : 1));
}

/** One joint of {@link applyDeadBlend} (pose at `p`, state at `o`): deadBlendOffsets.ts's statements in their order. */
function deadBlendJoint(p: usize, o: usize, t: f64, keep: f64): void {
  const r = f(o, DEAD_RATE);
  const x = r * t;
  let decay: f64 = 0;
  if (x < EXP_CUTOFF) {
    const k = <i32>(x * EIGHTHS_PER_LN2);
    const y = x - <f64>k * LN2_EIGHTH;
    const y2 = y * y;
    decay = pow2Eighths(k) * ((1 - y) + y2 * ((E2 - y * E3) + y2 * (E4 - y * E5)));
  }
  const g = 1 - decay;
  for (let a: usize = 0; a < 12; a += 4) {
    const tt = f(p, POSE_T + a);
    put(p, POSE_T + a, tt + keep * (f(o, DEAD_T + a) + f(o, DEAD_VT + a) * g - tt));
    const ts = f(p, POSE_S + a);
    put(p, POSE_S + a, ts + keep * (f(o, DEAD_S + a) + f(o, DEAD_VS + a) * g - ts));
  }
  const wx = f(o, DEAD_W) * g, wy = f(o, DEAD_W + 4) * g, wz = f(o, DEAD_W + 8) * g;
  const half2 = 0.25 * (wx * wx + wy * wy + wz * wz);
  let s: f64, dw: f64;
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
  const sx = f(o, DEAD_Q), sy = f(o, DEAD_Q + 4), sz = f(o, DEAD_Q + 8), sw = f(o, DEAD_Q + 12);
  let ex = dw * sx + dx * sw + dy * sz - dz * sy;
  let ey = dw * sy - dx * sz + dy * sw + dz * sx;
  let ez = dw * sz + dx * sy - dy * sx + dz * sw;
  let ew = dw * sw - dx * sx - dy * sy - dz * sz;
  const q = p + POSE_Q;
  const tx = f(q, 0), ty = f(q, 4), tz = f(q, 8), tw = f(q, 12);
  if (ex * tx + ey * ty + ez * tz + ew * tw < 0) { ex = -ex; ey = -ey; ez = -ez; ew = -ew; }
  const qx = tx + keep * (ex - tx), qy = ty + keep * (ey - ty), qz = tz + keep * (ez - tz), qw = tw + keep * (ew - tw);
  const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
  put(q, 0, qx * inv);
  put(q, 4, qy * inv);
  put(q, 8, qz * inv);
  put(q, 12, qw * inv);
}

/** The float32 at `a + offset` and at `a + DEAD_OR_POSE + offset` (the next joint's) as the two lanes of an f64x2. */
// @ts-ignore: decorator
@inline function lanes(a: usize, next: usize, offset: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load32_lane(a + next + offset, v128.load32_zero(a + offset), 1));
}

/** Lane 0 of `v` rounded to float32 at `a + offset`, lane 1 at `a + next + offset`. */
// @ts-ignore: decorator
@inline function putLanes(a: usize, next: usize, offset: usize, v: v128): void {
  const r = f32x4.demote_f64x2_zero(v);
  v128.store32_lane(a + offset, r, 0);
  v128.store32_lane(a + next + offset, r, 1);
}

// @ts-ignore: decorator
@inline function add(a: v128, b: v128): v128 { return f64x2.add(a, b); }
// @ts-ignore: decorator
@inline function sub(a: v128, b: v128): v128 { return f64x2.sub(a, b); }
// @ts-ignore: decorator
@inline function mul(a: v128, b: v128): v128 { return f64x2.mul(a, b); }
// @ts-ignore: decorator
@inline function k2(x: f64): v128 { return f64x2.splat(x); }

/**
 * Two joints of {@link applyDeadBlend}, the first's pose at `p` and state at `o`, the second's
 * the next records: {@link deadBlendJoint}'s statements on `f64x2`, one joint per lane — the
 * same IEEE operations in the same order, so each lane's doubles are the scalar code's. A branch
 * becomes both sides and a per-lane choice (the exponential's cutoff, the hemisphere flip); a lane
 * whose half angle is ½ radian or more takes `Math.sin` and `Math.cos` on its own, as there.
 */
function deadBlendPair(p: usize, o: usize, t: f64, keep: f64): void {
  const vt = k2(t), vkeep = k2(keep), one = k2(1);
  const r = lanes(o, DEAD, DEAD_RATE);
  const x = mul(r, vt);
  const k = f64x2.trunc(mul(x, k2(EIGHTHS_PER_LN2))); // ⌊x·8 log₂e⌋ for the x < 40 the result keeps
  const y = sub(x, mul(k, k2(LN2_EIGHTH)));
  const ki = i32x4.trunc_sat_f64x2_s_zero(k);
  const pow2 = f64x2.replace_lane(f64x2.splat(pow2Eighths(i32x4.extract_lane(ki, 0))), 1, pow2Eighths(i32x4.extract_lane(ki, 1)));
  const y2 = mul(y, y);
  const poly = add(sub(one, y), mul(y2, add(sub(k2(E2), mul(y, k2(E3))), mul(y2, sub(k2(E4), mul(y, k2(E5)))))));
  const decay = v128.and(mul(pow2, poly), f64x2.lt(x, k2(EXP_CUTOFF))); // 0 past the cutoff (and for NaN)
  const g = sub(one, decay);
  for (let a: usize = 0; a < 12; a += 4) {
    const tt = lanes(p, POSE, POSE_T + a);
    putLanes(p, POSE, POSE_T + a, add(tt, mul(vkeep, sub(add(lanes(o, DEAD, DEAD_T + a), mul(lanes(o, DEAD, DEAD_VT + a), g)), tt))));
    const ts = lanes(p, POSE, POSE_S + a);
    putLanes(p, POSE, POSE_S + a, add(ts, mul(vkeep, sub(add(lanes(o, DEAD, DEAD_S + a), mul(lanes(o, DEAD, DEAD_VS + a), g)), ts))));
  }
  const wx = mul(lanes(o, DEAD, DEAD_W), g), wy = mul(lanes(o, DEAD, DEAD_W + 4), g), wz = mul(lanes(o, DEAD, DEAD_W + 8), g);
  const half2 = mul(k2(0.25), add(add(mul(wx, wx), mul(wy, wy)), mul(wz, wz)));
  const half4 = mul(half2, half2);
  let s = mul(k2(0.5), add(sub(one, mul(half2, k2(S3))), mul(half4, add(sub(k2(S5), mul(half2, k2(S7))), mul(half4, k2(S9))))));
  let dw = add(sub(one, mul(half2, k2(0.5))), mul(half4, add(sub(k2(C4), mul(half2, k2(C6))), mul(half4, k2(C8)))));
  const h0 = f64x2.extract_lane(half2, 0), h1 = f64x2.extract_lane(half2, 1);
  if (!(h0 < 0.25)) {
    const half = Math.sqrt(h0);
    s = f64x2.replace_lane(s, 0, (0.5 * Math.sin(half)) / half);
    dw = f64x2.replace_lane(dw, 0, Math.cos(half));
  }
  if (!(h1 < 0.25)) {
    const half = Math.sqrt(h1);
    s = f64x2.replace_lane(s, 1, (0.5 * Math.sin(half)) / half);
    dw = f64x2.replace_lane(dw, 1, Math.cos(half));
  }
  const dx = mul(wx, s), dy = mul(wy, s), dz = mul(wz, s);
  const sx = lanes(o, DEAD, DEAD_Q), sy = lanes(o, DEAD, DEAD_Q + 4), sz = lanes(o, DEAD, DEAD_Q + 8), sw = lanes(o, DEAD, DEAD_Q + 12);
  let ex = sub(add(add(mul(dw, sx), mul(dx, sw)), mul(dy, sz)), mul(dz, sy));
  let ey = add(add(sub(mul(dw, sy), mul(dx, sz)), mul(dy, sw)), mul(dz, sx));
  let ez = add(sub(add(mul(dw, sz), mul(dx, sy)), mul(dy, sx)), mul(dz, sw));
  let ew = sub(sub(sub(mul(dw, sw), mul(dx, sx)), mul(dy, sy)), mul(dz, sz));
  const q = p + POSE_Q;
  const tx = lanes(q, POSE, 0), ty = lanes(q, POSE, 4), tz = lanes(q, POSE, 8), tw = lanes(q, POSE, 12);
  const flip = f64x2.lt(add(add(add(mul(ex, tx), mul(ey, ty)), mul(ez, tz)), mul(ew, tw)), k2(0));
  ex = v128.bitselect(f64x2.neg(ex), ex, flip);
  ey = v128.bitselect(f64x2.neg(ey), ey, flip);
  ez = v128.bitselect(f64x2.neg(ez), ez, flip);
  ew = v128.bitselect(f64x2.neg(ew), ew, flip);
  const qx = add(tx, mul(vkeep, sub(ex, tx))), qy = add(ty, mul(vkeep, sub(ey, ty)));
  const qz = add(tz, mul(vkeep, sub(ez, tz))), qw = add(tw, mul(vkeep, sub(ew, tw)));
  const inv = f64x2.div(one, f64x2.sqrt(add(add(add(mul(qx, qx), mul(qy, qy)), mul(qz, qz)), mul(qw, qw))));
  putLanes(q, POSE, 0, mul(qx, inv));
  putLanes(q, POSE, 4, mul(qy, inv));
  putLanes(q, POSE, 8, mul(qz, inv));
  putLanes(q, POSE, 12, mul(qw, inv));
}

/**
 * inertializeOffsets.ts `applyQuinticCurveOffsets`: adds the quintic offsets at `elapsed` (f32)
 * seconds to `curveCount` float curve values at `values`, from their slot entries at `slots`.
 */
export function applyQuinticCurveOffsets(values: usize, slots: usize, curveCount: i32, elapsed: usize): void {
  const t = <f64>load<f32>(elapsed);
  for (let c = 0; c < curveCount; c++) {
    const o = slots + <usize>c * CURVE, v = values + (<usize>c << 2);
    const s = t * f(o, 8);
    if (s < 1 && load<f32>(o) != 0) {
      const r = 1 - s, r2 = r * r;
      put(v, 0, f(v, 0) + r2 * r2 * (f(o, 0) * (1 + 4 * s) + f(o, 4) * s));
    }
  }
}

/**
 * inertializeOffsets.ts `applySpringCurveOffsets`: advances the spring offsets of `curveCount`
 * float curves (slot entries at `slots`) by dt and adds them to their values at `values`;
 * `params` as {@link applySpringOffsets}'. Returns 1 while any is above rest, else 0.
 */
export function applySpringCurveOffsets(values: usize, slots: usize, curveCount: i32, params: usize): i32 {
  const y = load<f64>(params, SPRING_Y), decay = load<f64>(params, SPRING_DECAY), dt = load<f64>(params, SPRING_DT);
  let active = 0;
  for (let c = 0; c < curveCount; c++) {
    const o = slots + <usize>c * CURVE, v = values + (<usize>c << 2);
    const x = f(o, 0), velocity = f(o, 4);
    const jerk = velocity + x * y;
    const nx = decay * (x + jerk * dt);
    const nv = decay * (velocity - jerk * y * dt);
    put(o, 0, nx);
    put(o, 4, nv);
    if (Math.abs(nx) > SPRING_REST || Math.abs(nv) > SPRING_REST_VELOCITY) active = 1;
    put(v, 0, f(v, 0) + f(o, 0));
  }
  return active;
}

/**
 * deadBlendOffsets.ts `applyDeadBlendCurves`: each of `curveCount` float curve values at
 * `values` becomes the cross-fade from its extrapolated source (slot entries at `slots`) to it,
 * at the clock `clock` ({@link applyDeadBlend}'s).
 */
export function applyDeadBlendCurves(values: usize, slots: usize, curveCount: i32, clock: usize): void {
  const t = load<f64>(clock, CLOCK_T);
  const keep = 1 - load<f64>(clock, CLOCK_WEIGHT);
  for (let c = 0; c < curveCount; c++) {
    const o = slots + <usize>c * CURVE, v = values + (<usize>c << 2);
    const r = f(o, 8);
    const travel = (1 - Math.exp(-r * t)) / r;
    const value = f(v, 0);
    put(v, 0, value + keep * (f(o, 0) + f(o, 4) * travel - value));
  }
}
