/**
 * The blend kernels (GEA "LERP blending", additive blending D = S·R⁻¹ applied as D·T): pure
 * functions over pose buffers with offsets, shared by `blendSystem` and the transition
 * capture (which blends the outgoing layers a fixed interval apart, so it must blend exactly
 * as the frame does).
 */
import { POSE_STRIDE } from './layout.js';

/**
 * Normalized weighted blend of `count` layer poses into `out` (the override blend: per joint, the weighted mean of T and S and the hemisphere-fixed nlerp of Q).
 * Layer n's pose starts at `layerOff[n]` in `poses`; its weight is `layerWeight[n]`, times
 * `layerMask[n][j]` when a mask is given. `rest` (`jointCount × 10`) fills in below the
 * threshold `threshold[0]`. Pure kernel: writes only `out[outOff .. outOff + jointCount × 10)`.
 *
 * Floats arrive in arrays, not as number arguments: V8 boxes a double passed to a function it
 * does not inline (16 bytes per call), and a frame must allocate nothing.
 */
export function blendOverrideLayers(
  out: Float32Array,
  outOff: number,
  rest: Float32Array,
  poses: Float32Array,
  layerOff: Int32Array,
  layerWeight: Float32Array,
  layerMask: readonly (Float32Array | null)[],
  count: number,
  jointCount: number,
  threshold: Float64Array,
): void {
  const theta = threshold[0];
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    let total = 0;
    let tx = 0, ty = 0, tz = 0, qx = 0, qy = 0, qz = 0, qw = 0, sx = 0, sy = 0, sz = 0;
    // Hemisphere reference: the first contributing quaternion.
    let rx = 0, ry = 0, rz = 0, rw = 0;
    for (let n = 0; n < count; n++) {
      const m = layerMask[n];
      const w = m === null ? layerWeight[n] : layerWeight[n] * m[j];
      if (!(w > 0)) continue;
      const p = layerOff[n] + k;
      let x = poses[p + 3], y = poses[p + 4], z = poses[p + 5], s = poses[p + 6];
      if (total === 0) {
        rx = x; ry = y; rz = z; rw = s;
      } else if (rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total += w;
      tx += poses[p] * w; ty += poses[p + 1] * w; tz += poses[p + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += poses[p + 7] * w; sy += poses[p + 8] * w; sz += poses[p + 9] * w;
    }
    const o = outOff + k;
    if (total < theta) {
      const w = theta - total;
      let x = rest[k + 3], y = rest[k + 4], z = rest[k + 5], s = rest[k + 6];
      if (total > 0 && rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total = theta;
      tx += rest[k] * w; ty += rest[k + 1] * w; tz += rest[k + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += rest[k + 7] * w; sy += rest[k + 8] * w; sz += rest[k + 9] * w;
    }
    const inv = 1 / total;
    out[o] = tx * inv; out[o + 1] = ty * inv; out[o + 2] = tz * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + 3] = qx * qInv; out[o + 4] = qy * qInv; out[o + 5] = qz * qInv; out[o + 6] = qw * qInv;
    out[o + 7] = sx * inv; out[o + 8] = sy * inv; out[o + 9] = sz * inv;
  }
}

/**
 * Applies one additive layer to `target` in place (step 2 of the file header): for each joint,
 * D = S·R⁻¹ from the layer pose S (`poses` at `layerOff`) and the reference R (`reference`,
 * `jointCount × 10`), then target ← lerp(target, D·target, β), β = `weights[weightIndex] ×
 * mask[j]` (the weight is read from its array so no double is boxed per call).
 * Pure kernel: writes only `target[targetOff .. targetOff + jointCount × 10)`.
 */
export function applyAdditiveLayer(
  target: Float32Array,
  targetOff: number,
  poses: Float32Array,
  layerOff: number,
  reference: Float32Array,
  weights: Float32Array,
  weightIndex: number,
  mask: Float32Array | null,
  jointCount: number,
): void {
  const weight = weights[weightIndex];
  for (let j = 0; j < jointCount; j++) {
    const beta = mask === null ? weight : weight * mask[j];
    if (!(beta > 0)) continue;
    const k = j * POSE_STRIDE;
    const s = layerOff + k;
    const o = targetOff + k;
    // Q_D = Q_S · conj(Q_R)   (unit quaternions: the inverse is the conjugate)
    const sx = poses[s + 3], sy = poses[s + 4], sz = poses[s + 5], sw = poses[s + 6];
    const rx = -reference[k + 3], ry = -reference[k + 4], rz = -reference[k + 5], rw = reference[k + 6];
    const dx = sw * rx + sx * rw + sy * rz - sz * ry;
    const dy = sw * ry - sx * rz + sy * rw + sz * rx;
    const dz = sw * rz + sx * ry - sy * rx + sz * rw;
    const dw = sw * rw - sx * rx - sy * ry - sz * rz;
    // Q_A = Q_D · Q_T
    const tx = target[o + 3], ty = target[o + 4], tz = target[o + 5], tw = target[o + 6];
    let ax = dw * tx + dx * tw + dy * tz - dz * ty;
    let ay = dw * ty - dx * tz + dy * tw + dz * tx;
    let az = dw * tz + dx * ty - dy * tx + dz * tw;
    let aw = dw * tw - dx * tx - dy * ty - dz * tz;
    if (ax * tx + ay * ty + az * tz + aw * tw < 0) {
      ax = -ax; ay = -ay; az = -az; aw = -aw;
    }
    const keep = 1 - beta;
    const qx = tx * keep + ax * beta, qy = ty * keep + ay * beta;
    const qz = tz * keep + az * beta, qw = tw * keep + aw * beta;
    const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    target[o + 3] = qx * inv; target[o + 4] = qy * inv; target[o + 5] = qz * inv; target[o + 6] = qw * inv;
    // T_A = T_D + T_T, so lerp(T, A, β) = T + β·T_D
    target[o] += beta * (poses[s] - reference[k]);
    target[o + 1] += beta * (poses[s + 1] - reference[k + 1]);
    target[o + 2] += beta * (poses[s + 2] - reference[k + 2]);
    // S_A = (S_S / S_R) · S_T, so lerp(S, A, β) = S · (1 + β·(S_S / S_R − 1))
    for (let c = 7; c < 10; c++) {
      const ratio = reference[k + c] !== 0 ? poses[s + c] / reference[k + c] : 1;
      target[o + c] = target[o + c] * (1 + beta * (ratio - 1));
    }
  }
}
