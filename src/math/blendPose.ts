/**
 * The blend kernels (GEA "LERP blending", additive blending D = S·R⁻¹ applied as D·T): pure
 * functions over pose buffers with offsets, shared by `blendSystem` and the transition
 * capture (which blends the outgoing layers a fixed interval apart, so it must blend exactly
 * as the frame does).
 */
import * as layout from './layout.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;

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
      let x = poses[p + POSE_Q], y = poses[p + POSE_Q + 1], z = poses[p + POSE_Q + 2], s = poses[p + POSE_Q + 3];
      if (total === 0) {
        rx = x; ry = y; rz = z; rw = s;
      } else if (rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total += w;
      tx += poses[p + POSE_T] * w; ty += poses[p + POSE_T + 1] * w; tz += poses[p + POSE_T + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += poses[p + POSE_S] * w; sy += poses[p + POSE_S + 1] * w; sz += poses[p + POSE_S + 2] * w;
    }
    const o = outOff + k;
    if (total < theta) {
      const w = theta - total;
      let x = rest[k + POSE_Q], y = rest[k + POSE_Q + 1], z = rest[k + POSE_Q + 2], s = rest[k + POSE_Q + 3];
      if (total > 0 && rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total = theta;
      tx += rest[k + POSE_T] * w; ty += rest[k + POSE_T + 1] * w; tz += rest[k + POSE_T + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += rest[k + POSE_S] * w; sy += rest[k + POSE_S + 1] * w; sz += rest[k + POSE_S + 2] * w;
    }
    const inv = 1 / total;
    out[o + POSE_T] = tx * inv; out[o + POSE_T + 1] = ty * inv; out[o + POSE_T + 2] = tz * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = sx * inv; out[o + POSE_S + 1] = sy * inv; out[o + POSE_S + 2] = sz * inv;
  }
}

/** A layer plan's step kind (components/layerRules.ts `STEP_AVERAGE`): the layer joins the blend below it. */
export const BLEND_STEP_AVERAGE = 0;
/** A layer plan's step kind (`STEP_LAYER`): the layer starts a group that lerps the normalized blend below toward it. */
export const BLEND_STEP_LAYER = 1;
/** A layer plan's step kind (`STEP_JOIN`): the layer joins the group the step before it started. */
export const BLEND_STEP_JOIN = 2;
/** A step is `layer | kind << BLEND_STEP_KIND_SHIFT` (`STEP_KIND_SHIFT`). */
export const BLEND_STEP_KIND_SHIFT = 8;

/**
 * The override blend with blend modes (components/layerRules.ts, GEA's partial-skeleton LERP for
 * `'layer'` layers): `count` layer poses taken in the order of `steps` (step n: kind
 * `steps[n] >>> 8`, {@link BLEND_STEP_AVERAGE} / {@link BLEND_STEP_LAYER} / {@link BLEND_STEP_JOIN};
 * its pose at `layerOff[n]` in `poses`, its weight `layerWeight[n]` times `layerMask[n][j]` when
 * it has a mask). Per joint j, with a running sum `acc` of weighted poses and its total W, and
 * a = weight × mask[j] (a layer with a ≤ 0 changes nothing):
 * - an average step adds a·L to acc and a to W (its quaternion in the hemisphere of the first
 *   one added, or of the blend so far once a group has closed), as {@link blendOverrideLayers};
 * - a layer step and the join steps after it form a group G with A = Σ aᵢ, summed as averages
 *   among themselves (hemisphere of acc, or of the first member when W = 0); when the group ends,
 *   acc = keep·acc / W + Σ aᵢLᵢ and W = keep + A, keep = max(0, 1 − A), or acc = Σ aᵢLᵢ and W = A
 *   when W = 0 (nothing below: the group starts the blend);
 * - at the end the rest pose (`rest`, `jointCount × 10`) joins with θ − W below the threshold
 *   θ = `threshold[0]`, then T and S are divided by W and Q normalized.
 * For a single layer of a group that is (1 − a)·(acc / W) + a·L: the normalized blend below lerped
 * toward the layer. With every step an average this is {@link blendOverrideLayers}' sum (the plan
 * then uses that function). Pure kernel: writes only `out[outOff .. outOff + jointCount × 10)`;
 * floats arrive in arrays (nothing boxed).
 */
export function blendLayeredLayers(
  out: Float32Array,
  outOff: number,
  rest: Float32Array,
  poses: Float32Array,
  layerOff: Int32Array,
  layerWeight: Float32Array,
  layerMask: readonly (Float32Array | null)[],
  steps: Int32Array,
  count: number,
  jointCount: number,
  threshold: Float64Array,
): void {
  const theta = threshold[0];
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    let total = 0;
    let tx = 0, ty = 0, tz = 0, qx = 0, qy = 0, qz = 0, qw = 0, sx = 0, sy = 0, sz = 0;
    // Hemisphere reference of average steps: the first contributing quaternion, then the blend so far.
    let rx = 0, ry = 0, rz = 0, rw = 0;
    // The open group: its sums, its total A and its hemisphere reference.
    let open = false, group = 0;
    let gtx = 0, gty = 0, gtz = 0, gqx = 0, gqy = 0, gqz = 0, gqw = 0, gsx = 0, gsy = 0, gsz = 0;
    let hx = 0, hy = 0, hz = 0, hw = 0;
    for (let n = 0; n <= count; n++) {
      const kind = n < count ? steps[n] >>> BLEND_STEP_KIND_SHIFT : BLEND_STEP_AVERAGE;
      if (open && kind !== BLEND_STEP_JOIN) {
        // The group ends: the normalized blend below, lerped toward the group's sum by A.
        open = false;
        if (group > 0) {
          if (total > 0) {
            const keep = group < 1 ? 1 - group : 0;
            const f = keep / total;
            tx = tx * f + gtx; ty = ty * f + gty; tz = tz * f + gtz;
            qx = qx * f + gqx; qy = qy * f + gqy; qz = qz * f + gqz; qw = qw * f + gqw;
            sx = sx * f + gsx; sy = sy * f + gsy; sz = sz * f + gsz;
            total = keep + group;
          } else {
            tx = gtx; ty = gty; tz = gtz; qx = gqx; qy = gqy; qz = gqz; qw = gqw; sx = gsx; sy = gsy; sz = gsz;
            total = group;
          }
          rx = qx; ry = qy; rz = qz; rw = qw;
        }
      }
      if (n === count) break;
      if (kind === BLEND_STEP_LAYER) {
        open = true;
        group = 0;
        gtx = 0; gty = 0; gtz = 0; gqx = 0; gqy = 0; gqz = 0; gqw = 0; gsx = 0; gsy = 0; gsz = 0;
        hx = qx; hy = qy; hz = qz; hw = qw;
      }
      const m = layerMask[n];
      const w = m === null ? layerWeight[n] : layerWeight[n] * m[j];
      if (!(w > 0)) continue;
      const p = layerOff[n] + k;
      let x = poses[p + POSE_Q], y = poses[p + POSE_Q + 1], z = poses[p + POSE_Q + 2], s = poses[p + POSE_Q + 3];
      if (open) {
        if (total === 0 && group === 0) {
          hx = x; hy = y; hz = z; hw = s;
        } else if (hx * x + hy * y + hz * z + hw * s < 0) {
          x = -x; y = -y; z = -z; s = -s;
        }
        group += w;
        gtx += poses[p + POSE_T] * w; gty += poses[p + POSE_T + 1] * w; gtz += poses[p + POSE_T + 2] * w;
        gqx += x * w; gqy += y * w; gqz += z * w; gqw += s * w;
        gsx += poses[p + POSE_S] * w; gsy += poses[p + POSE_S + 1] * w; gsz += poses[p + POSE_S + 2] * w;
        continue;
      }
      if (total === 0) {
        rx = x; ry = y; rz = z; rw = s;
      } else if (rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total += w;
      tx += poses[p + POSE_T] * w; ty += poses[p + POSE_T + 1] * w; tz += poses[p + POSE_T + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += poses[p + POSE_S] * w; sy += poses[p + POSE_S + 1] * w; sz += poses[p + POSE_S + 2] * w;
    }
    const o = outOff + k;
    if (total < theta) {
      const w = theta - total;
      let x = rest[k + POSE_Q], y = rest[k + POSE_Q + 1], z = rest[k + POSE_Q + 2], s = rest[k + POSE_Q + 3];
      if (total > 0 && rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total = theta;
      tx += rest[k + POSE_T] * w; ty += rest[k + POSE_T + 1] * w; tz += rest[k + POSE_T + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += rest[k + POSE_S] * w; sy += rest[k + POSE_S + 1] * w; sz += rest[k + POSE_S + 2] * w;
    }
    const inv = 1 / total;
    out[o + POSE_T] = tx * inv; out[o + POSE_T + 1] = ty * inv; out[o + POSE_T + 2] = tz * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = sx * inv; out[o + POSE_S + 1] = sy * inv; out[o + POSE_S + 2] = sz * inv;
  }
}

/**
 * {@link blendLayeredLayers} for its most common layered plan, written out: two steps, an
 * average (the base, pose at `offA`, weight `layerWeight[0]`, mask `maskA`) and a layer over it
 * (pose at `offB`, weight `layerWeight[1]`, mask `maskB`). Per joint, with a = weight × mask[j]:
 * where both contribute the base's weight becomes max(0, 1 − a_B) — the normalized base lerped
 * toward B, (1 − a_B)·L_A + a_B·L_B over a total of 1 (or B alone for a_B ≥ 1) — and otherwise
 * each keeps its own; the two are then blended as {@link blendOverrideLayers} blends two layers
 * (B's quaternion in A's hemisphere, the rest pose joining below the threshold). The same values
 * as {@link blendLayeredLayers} up to float rounding, without its step loop. Pure kernel: writes
 * only `out[outOff .. outOff + jointCount × 10)`.
 */
export function blendLayerOverBase(
  out: Float32Array,
  outOff: number,
  rest: Float32Array,
  poses: Float32Array,
  offA: number,
  offB: number,
  layerWeight: Float32Array,
  maskA: Float32Array | null,
  maskB: Float32Array | null,
  jointCount: number,
  threshold: Float64Array,
): void {
  const theta = threshold[0];
  const weightA = layerWeight[0], weightB = layerWeight[1];
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    let wa = maskA === null ? weightA : weightA * maskA[j];
    const wb = maskB === null ? weightB : weightB * maskB[j];
    if (wa > 0 && wb > 0) wa = wb < 1 ? 1 - wb : 0;
    let total = 0;
    let tx = 0, ty = 0, tz = 0, qx = 0, qy = 0, qz = 0, qw = 0, sx = 0, sy = 0, sz = 0;
    let rx = 0, ry = 0, rz = 0, rw = 0;
    if (wa > 0) {
      const p = offA + k;
      rx = poses[p + POSE_Q]; ry = poses[p + POSE_Q + 1]; rz = poses[p + POSE_Q + 2]; rw = poses[p + POSE_Q + 3];
      total = wa;
      tx = poses[p + POSE_T] * wa; ty = poses[p + POSE_T + 1] * wa; tz = poses[p + POSE_T + 2] * wa;
      qx = rx * wa; qy = ry * wa; qz = rz * wa; qw = rw * wa;
      sx = poses[p + POSE_S] * wa; sy = poses[p + POSE_S + 1] * wa; sz = poses[p + POSE_S + 2] * wa;
    }
    if (wb > 0) {
      const p = offB + k;
      let x = poses[p + POSE_Q], y = poses[p + POSE_Q + 1], z = poses[p + POSE_Q + 2], s = poses[p + POSE_Q + 3];
      if (total === 0) {
        rx = x; ry = y; rz = z; rw = s;
      } else if (rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total += wb;
      tx += poses[p + POSE_T] * wb; ty += poses[p + POSE_T + 1] * wb; tz += poses[p + POSE_T + 2] * wb;
      qx += x * wb; qy += y * wb; qz += z * wb; qw += s * wb;
      sx += poses[p + POSE_S] * wb; sy += poses[p + POSE_S + 1] * wb; sz += poses[p + POSE_S + 2] * wb;
    }
    if (total < theta) {
      const w = theta - total;
      let x = rest[k + POSE_Q], y = rest[k + POSE_Q + 1], z = rest[k + POSE_Q + 2], s = rest[k + POSE_Q + 3];
      if (total > 0 && rx * x + ry * y + rz * z + rw * s < 0) {
        x = -x; y = -y; z = -z; s = -s;
      }
      total = theta;
      tx += rest[k + POSE_T] * w; ty += rest[k + POSE_T + 1] * w; tz += rest[k + POSE_T + 2] * w;
      qx += x * w; qy += y * w; qz += z * w; qw += s * w;
      sx += rest[k + POSE_S] * w; sy += rest[k + POSE_S + 1] * w; sz += rest[k + POSE_S + 2] * w;
    }
    const o = outOff + k;
    const inv = 1 / total;
    out[o + POSE_T] = tx * inv; out[o + POSE_T + 1] = ty * inv; out[o + POSE_T + 2] = tz * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = sx * inv; out[o + POSE_S + 1] = sy * inv; out[o + POSE_S + 2] = sz * inv;
  }
}

/**
 * {@link blendOverrideLayers} for its most common case, written out: two unmasked layers
 * (weights `layerWeight[0]`, `layerWeight[1]` > 0, poses at `offA` and `offB`) whose weights
 * sum to at least the threshold, so the rest pose never joins. The same operations in the same
 * order — sums start from 0 (`0 + a·w`, which turns a −0 product into +0 as the loop does) —
 * so the output is bit for bit that of {@link blendOverrideLayers}, without its per-layer
 * loop, mask tests and offset loads.
 * The caller checks the preconditions. Pure kernel: writes only `out[outOff .. outOff + jointCount × 10)`.
 */
export function blendTwoLayers(
  out: Float32Array,
  outOff: number,
  poses: Float32Array,
  offA: number,
  offB: number,
  layerWeight: Float32Array,
  jointCount: number,
): void {
  const wa = layerWeight[0], wb = layerWeight[1];
  const inv = 1 / (wa + wb);
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    const a = offA + k, b = offB + k;
    const ax = poses[a + POSE_Q], ay = poses[a + POSE_Q + 1], az = poses[a + POSE_Q + 2], aw = poses[a + POSE_Q + 3];
    let bx = poses[b + POSE_Q], by = poses[b + POSE_Q + 1], bz = poses[b + POSE_Q + 2], bw = poses[b + POSE_Q + 3];
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    const qx = 0 + ax * wa + bx * wb, qy = 0 + ay * wa + by * wb, qz = 0 + az * wa + bz * wb, qw = 0 + aw * wa + bw * wb;
    const o = outOff + k;
    out[o + POSE_T] = (0 + poses[a + POSE_T] * wa + poses[b + POSE_T] * wb) * inv;
    out[o + POSE_T + 1] = (0 + poses[a + POSE_T + 1] * wa + poses[b + POSE_T + 1] * wb) * inv;
    out[o + POSE_T + 2] = (0 + poses[a + POSE_T + 2] * wa + poses[b + POSE_T + 2] * wb) * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = (0 + poses[a + POSE_S] * wa + poses[b + POSE_S] * wb) * inv;
    out[o + POSE_S + 1] = (0 + poses[a + POSE_S + 1] * wa + poses[b + POSE_S + 1] * wb) * inv;
    out[o + POSE_S + 2] = (0 + poses[a + POSE_S + 2] * wa + poses[b + POSE_S + 2] * wb) * inv;
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
    const sx = poses[s + POSE_Q], sy = poses[s + POSE_Q + 1], sz = poses[s + POSE_Q + 2], sw = poses[s + POSE_Q + 3];
    const rx = -reference[k + POSE_Q], ry = -reference[k + POSE_Q + 1], rz = -reference[k + POSE_Q + 2], rw = reference[k + POSE_Q + 3];
    const dx = sw * rx + sx * rw + sy * rz - sz * ry;
    const dy = sw * ry - sx * rz + sy * rw + sz * rx;
    const dz = sw * rz + sx * ry - sy * rx + sz * rw;
    const dw = sw * rw - sx * rx - sy * ry - sz * rz;
    // Q_A = Q_D · Q_T
    const tx = target[o + POSE_Q], ty = target[o + POSE_Q + 1], tz = target[o + POSE_Q + 2], tw = target[o + POSE_Q + 3];
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
    target[o + POSE_Q] = qx * inv; target[o + POSE_Q + 1] = qy * inv; target[o + POSE_Q + 2] = qz * inv; target[o + POSE_Q + 3] = qw * inv;
    // T_A = T_D + T_T, so lerp(T, A, β) = T + β·T_D
    target[o + POSE_T] += beta * (poses[s + POSE_T] - reference[k + POSE_T]);
    target[o + POSE_T + 1] += beta * (poses[s + POSE_T + 1] - reference[k + POSE_T + 1]);
    target[o + POSE_T + 2] += beta * (poses[s + POSE_T + 2] - reference[k + POSE_T + 2]);
    // S_A = (S_S / S_R) · S_T, so lerp(S, A, β) = S · (1 + β·(S_S / S_R − 1))
    for (let c = POSE_S; c < POSE_S + 3; c++) {
      const ratio = reference[k + c] !== 0 ? poses[s + c] / reference[k + c] : 1;
      target[o + c] = target[o + c] * (1 + beta * (ratio - 1));
    }
  }
}
