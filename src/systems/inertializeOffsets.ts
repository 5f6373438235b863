/**
 * The offset kernels of inertialization (inertializeSystem.ts applies them every update;
 * `captureSourceMotion`, inertializeCapture.ts, applies them again at a transition request to
 * rebuild the last output): pure functions over a pose block and an offsets block, the same
 * operations in both places so the rebuilt output has the bits the frame wrote.
 */
import * as inertialization from '../components/Inertialization.js';
import * as layout from '../math/layout.js';
import { CURVE_INV_T1, CURVE_K, CURVE_SLOT_STRIDE, CURVE_X0 } from '../components/Curves.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
const { OFFSET_CHANNEL, OFFSET_INV_T1, OFFSET_K, OFFSET_Q, OFFSET_S, OFFSET_STRIDE, OFFSET_T, OFFSET_V, OFFSET_X0 } = inertialization;

/** A spring offset below this (and its velocity below {@link SPRING_REST_VELOCITY}) has ended. */
const SPRING_REST = 1e-5;
/** Ten times {@link SPRING_REST}, per second. */
const SPRING_REST_VELOCITY = 10 * SPRING_REST;

/**
 * Adds the quintic offsets at `elapsed[index]` seconds to a pose (step 2 of the file header).
 * Offsets: `jointCount × 18` floats at `offOff`: per channel the direction or axis, then the
 * clamped curve parameters x0, k = v0·t1, 1/t1 written at capture. Pure kernel; writes only
 * the pose block.
 */
export function applyQuinticOffsets(
  pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number,
  elapsed: Float32Array, index: number,
): void {
  const t = elapsed[index];
  for (let j = 0; j < jointCount; j++) {
    const p = poseOff + j * POSE_STRIDE;
    const c = offOff + j * OFFSET_STRIDE;
    // Each channel: Bollo's quintic (a0 for zero jerk at t1), which with s = t/t1 factors as
    // x(t) = (1 − s)⁴·(x0·(1 + 4s) + v0·t1·s) — `inertializeCurve` in a few multiplies.
    // Translation along its direction:
    const ct = c + OFFSET_T;
    let s = t * offsets[ct + OFFSET_INV_T1];
    if (s < 1 && offsets[ct + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const x = r2 * r2 * (offsets[ct + OFFSET_X0] * (1 + 4 * s) + offsets[ct + OFFSET_K] * s);
      pose[p + POSE_T] = pose[p + POSE_T] + offsets[ct] * x;
      pose[p + POSE_T + 1] = pose[p + POSE_T + 1] + offsets[ct + 1] * x;
      pose[p + POSE_T + 2] = pose[p + POSE_T + 2] + offsets[ct + 2] * x;
    }
    // Scale along its direction:
    const cs = c + OFFSET_S;
    s = t * offsets[cs + OFFSET_INV_T1];
    if (s < 1 && offsets[cs + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const x = r2 * r2 * (offsets[cs + OFFSET_X0] * (1 + 4 * s) + offsets[cs + OFFSET_K] * s);
      pose[p + POSE_S] = pose[p + POSE_S] + offsets[cs] * x;
      pose[p + POSE_S + 1] = pose[p + POSE_S + 1] + offsets[cs + 1] * x;
      pose[p + POSE_S + 2] = pose[p + POSE_S + 2] + offsets[cs + 2] * x;
    }
    // Rotation about its axis: q ← (axis·sin(x/2), cos(x/2)) · q.
    const cq = c + OFFSET_Q;
    s = t * offsets[cq + OFFSET_INV_T1];
    if (s < 1 && offsets[cq + OFFSET_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      const h = 0.5 * r2 * r2 * (offsets[cq + OFFSET_X0] * (1 + 4 * s) + offsets[cq + OFFSET_K] * s);
      // The half angle is ≤ π/2, where these Taylor polynomials (to the 11th and 12th order)
      // are within 6e-8 of Math.sin and Math.cos — float32 precision — at a fraction of the cost.
      const h2 = h * h;
      const sin = h * (1 + h2 * (S3 + h2 * (S5 + h2 * (S7 + h2 * (S9 + h2 * S11)))));
      const w = 1 + h2 * (C2 + h2 * (C4 + h2 * (C6 + h2 * (C8 + h2 * (C10 + h2 * C12)))));
      const ax = offsets[cq] * sin, ay = offsets[cq + 1] * sin, az = offsets[cq + 2] * sin;
      const bx = pose[p + POSE_Q], by = pose[p + POSE_Q + 1], bz = pose[p + POSE_Q + 2], bw = pose[p + POSE_Q + 3];
      pose[p + POSE_Q] = w * bx + ax * bw + ay * bz - az * by;
      pose[p + POSE_Q + 1] = w * by - ax * bz + ay * bw + az * bx;
      pose[p + POSE_Q + 2] = w * bz + ax * by - ay * bx + az * bw;
      pose[p + POSE_Q + 3] = w * bw - ax * bx - ay * by - az * bz;
    }
  }
}

// Taylor coefficients of sin (odd powers) and cos (even powers).
const S3 = -1 / 6, S5 = 1 / 120, S7 = -1 / 5040, S9 = 1 / 362880, S11 = -1 / 39916800;
const C2 = -1 / 2, C4 = 1 / 24, C6 = -1 / 720, C8 = 1 / 40320, C10 = -1 / 3628800, C12 = 1 / 479001600;

/**
 * Advances the spring offsets by `dt` and adds them to a pose (step 2 of the file header).
 * Offsets: `jointCount × 18` floats at `offOff` (offset vector and velocity per channel; the
 * rotation's vector is axis × angle). `halfLife[index]` > 0 seconds. Returns whether any offset
 * is still above rest. Pure kernel; writes only the pose block and the offsets.
 */
export function applySpringOffsets(
  pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number,
  halfLife: Float32Array, index: number, dt: number,
): boolean {
  // Critically damped decay spring (Holden): y = 2 ln 2 / halfLife, j = v + x·y,
  // x' = e^(−y dt)·(x + j dt), v' = e^(−y dt)·(v − j y dt). Exact for any dt.
  const y = (2 * Math.LN2) / halfLife[index];
  const decay = Math.exp(-y * dt);
  let active = false;
  for (let j = 0; j < jointCount; j++) {
    const o = offOff + j * OFFSET_STRIDE;
    for (let k = o, end = o + OFFSET_STRIDE; k < end; k += OFFSET_CHANNEL) {
      for (let a = k; a < k + 3; a++) {
        const x = offsets[a], v = offsets[a + OFFSET_V];
        const jerk = v + x * y;
        const nx = decay * (x + jerk * dt);
        const nv = decay * (v - jerk * y * dt);
        offsets[a] = nx;
        offsets[a + OFFSET_V] = nv;
        if (Math.abs(nx) > SPRING_REST || Math.abs(nv) > SPRING_REST_VELOCITY) active = true;
      }
    }
    const p = poseOff + j * POSE_STRIDE;
    pose[p + POSE_T] = pose[p + POSE_T] + offsets[o + OFFSET_T];
    pose[p + POSE_T + 1] = pose[p + POSE_T + 1] + offsets[o + OFFSET_T + 1];
    pose[p + POSE_T + 2] = pose[p + POSE_T + 2] + offsets[o + OFFSET_T + 2];
    pose[p + POSE_S] = pose[p + POSE_S] + offsets[o + OFFSET_S];
    pose[p + POSE_S + 1] = pose[p + POSE_S + 1] + offsets[o + OFFSET_S + 1];
    pose[p + POSE_S + 2] = pose[p + POSE_S + 2] + offsets[o + OFFSET_S + 2];
    rotateByVector(pose, p, offsets, o + OFFSET_Q);
  }
  return active;
}

/**
 * Adds the spring offsets as they are (without advancing them) to a pose: the second half of
 * {@link applySpringOffsets}, the same operations, so a pose rebuilt from the blend and the
 * offsets after an update has that update's bits. Pure kernel; writes only the pose block.
 */
export function addSpringOffsets(pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number): void {
  for (let j = 0; j < jointCount; j++) {
    const o = offOff + j * OFFSET_STRIDE;
    const p = poseOff + j * POSE_STRIDE;
    pose[p + POSE_T] = pose[p + POSE_T] + offsets[o + OFFSET_T];
    pose[p + POSE_T + 1] = pose[p + POSE_T + 1] + offsets[o + OFFSET_T + 1];
    pose[p + POSE_T + 2] = pose[p + POSE_T + 2] + offsets[o + OFFSET_T + 2];
    pose[p + POSE_S] = pose[p + POSE_S] + offsets[o + OFFSET_S];
    pose[p + POSE_S + 1] = pose[p + POSE_S + 1] + offsets[o + OFFSET_S + 1];
    pose[p + POSE_S + 2] = pose[p + POSE_S + 2] + offsets[o + OFFSET_S + 2];
    rotateByVector(pose, p, offsets, o + OFFSET_Q);
  }
}

/**
 * q ← exp(r/2) · q for the rotation q of the joint pose at `pose[p]` and the rotation vector r
 * (axis × angle) at `offsets[r..r+2]`. Takes no float argument, so nothing is boxed if it is not
 * inlined.
 */
function rotateByVector(pose: Float32Array, p: number, offsets: Float32Array, r: number): void {
  const rx = offsets[r], ry = offsets[r + 1], rz = offsets[r + 2];
  const angle = Math.sqrt(rx * rx + ry * ry + rz * rz);
  if (!(angle > 0)) return;
  const k = Math.sin(angle * 0.5) / angle;
  const x = rx * k, y = ry * k, z = rz * k, w = Math.cos(angle * 0.5);
  const bx = pose[p + POSE_Q], by = pose[p + POSE_Q + 1], bz = pose[p + POSE_Q + 2], bw = pose[p + POSE_Q + 3];
  pose[p + POSE_Q] = w * bx + x * bw + y * bz - z * by;
  pose[p + POSE_Q + 1] = w * by - x * bz + y * bw + z * bx;
  pose[p + POSE_Q + 2] = w * bz + x * by - y * bx + z * bw;
  pose[p + POSE_Q + 3] = w * bw - x * bx - y * by - z * bz;
}

/**
 * Adds the quintic offsets of `curveCount` float curves at `elapsed[index]` seconds to their
 * values (`values[valuesOff ..]`): per curve, from its slot entry (`CURVE_SLOT_STRIDE` floats at
 * `slots[slotOff + c × 3]`: signed x0, signed k = v0·t1, 1/t1), x(t) = (1 − s)⁴·(x0·(1 + 4s) + k·s)
 * with s = t/t1, the translation channel's curve on one signed axis; exactly 0 from t1 on. Pure
 * kernel; writes only the values.
 */
export function applyQuinticCurveOffsets(
  values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number, elapsed: Float32Array, index: number,
): void {
  const t = elapsed[index];
  for (let c = 0; c < curveCount; c++) {
    const o = slotOff + c * CURVE_SLOT_STRIDE;
    const s = t * slots[o + CURVE_INV_T1];
    if (s < 1 && slots[o + CURVE_X0] !== 0) {
      const r = 1 - s, r2 = r * r;
      values[valuesOff + c] = values[valuesOff + c] + r2 * r2 * (slots[o + CURVE_X0] * (1 + 4 * s) + slots[o + CURVE_K] * s);
    }
  }
}

/**
 * Advances the spring offsets of `curveCount` float curves by `dt` (the half-life at
 * `halfLife[index]`) and adds them to their values, as {@link applySpringOffsets} does a joint's
 * translation: each slot entry holds the offset (at 0) and its velocity (at 1). Returns whether
 * any is still above rest. Pure kernel; writes the values and the slot entries.
 */
export function applySpringCurveOffsets(
  values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number, halfLife: Float32Array, index: number, dt: number,
): boolean {
  const y = (2 * Math.LN2) / halfLife[index];
  const decay = Math.exp(-y * dt);
  let active = false;
  for (let c = 0; c < curveCount; c++) {
    const o = slotOff + c * CURVE_SLOT_STRIDE;
    const x = slots[o + CURVE_X0], v = slots[o + CURVE_K];
    const jerk = v + x * y;
    const nx = decay * (x + jerk * dt);
    const nv = decay * (v - jerk * y * dt);
    slots[o + CURVE_X0] = nx;
    slots[o + CURVE_K] = nv;
    if (Math.abs(nx) > SPRING_REST || Math.abs(nv) > SPRING_REST_VELOCITY) active = true;
    values[valuesOff + c] = values[valuesOff + c] + slots[o + CURVE_X0];
  }
  return active;
}
