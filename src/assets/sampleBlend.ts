/**
 * Sampling fused with the override blend, for its most common case: two layers of dense clips
 * without bindings (in the character's joint order), unmasked, whose weights reach the blend
 * threshold (so the rest pose does not join). One pass per joint samples both clips as
 * `sampleClipInto` does and blends the two samples as `blendTwoLayers` (math/blendPose.ts)
 * does, without writing the two layer poses: each sampled value is rounded to float32 with
 * `Math.fround` where `sampleClipInto` would store it in a Float32Array, so the output is bit
 * for bit that of sampling into two poses and blending them (test/systems/blendSystem.test.ts).
 */
import * as layout from '../math/layout.js';
import type { Clip } from './Clip.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;

/** Frame index (element 0, 2) and alpha (element 1, 3) of the two clips: a fixed-size math temporary. */
const KEYS = new Float64Array(4);

/**
 * Writes into `KEYS[at]`, `KEYS[at + 1]` the frame and alpha at which `sampleClipInto` samples
 * `clip` at `times[timeIndex]`, as it computes them (clamped to the ends; alpha 0 there).
 */
function findKeys(clip: Clip, times: Float64Array, timeIndex: number, at: number): void {
  const frameCount = clip.frameCount;
  const position = times[timeIndex] * clip.frameRate;
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
    alpha = 0;
  }
  KEYS[at] = frame;
  KEYS[at + 1] = alpha;
}

/**
 * Samples `clipA` at `times[timeA]` and `clipB` at `times[timeB]` (dense clips of the
 * character's `jointCount` joints, no binding) and blends them with weights `layerWeight[0]`, `layerWeight[1]` (both
 * > 0, their sum at least the blend threshold) into `out` at `outOff`: the bits of
 * `sampleClipInto` into two poses followed by `blendTwoLayers`. Pure kernel: writes only
 * `out[outOff .. outOff + jointCount × 10)`; takes only integers and arrays (see sampleClipInto).
 */
export function sampleBlendTwoInto(
  out: Float32Array, outOff: number, clipA: Clip, clipB: Clip, times: Float64Array, timeA: number, timeB: number,
  layerWeight: Float32Array, jointCount: number,
): void {
  const fa = clipA.frames, fb = clipB.frames;
  const poseSizeA = clipA.skeleton.jointCount * POSE_STRIDE, poseSizeB = clipB.skeleton.jointCount * POSE_STRIDE;
  findKeys(clipA, times, timeA, 0);
  findKeys(clipB, times, timeB, 2);
  // A key at alpha 0 is copied by sampleClipInto: read it twice with weights 1 and 0 (x·1 + x·0
  // is x for every finite x, −0 included) and skip the normalization.
  const alphaA = KEYS[1], alphaB = KEYS[3];
  const betaA = 1 - alphaA, betaB = 1 - alphaB;
  const keyA = KEYS[0] * poseSizeA, keyB = KEYS[2] * poseSizeB;
  const nextA = alphaA === 0 ? 0 : poseSizeA, nextB = alphaB === 0 ? 0 : poseSizeB;
  const wa = layerWeight[0], wb = layerWeight[1];
  const inv = 1 / (wa + wb);
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    // Layer A's sample of joint j (sampleClipInto, rounded as stored).
    const a = keyA + k, a1 = a + nextA;
    let ax = fa[a + POSE_Q] * betaA, ay = fa[a + POSE_Q + 1] * betaA, az = fa[a + POSE_Q + 2] * betaA, aw = fa[a + POSE_Q + 3] * betaA;
    let x1 = fa[a1 + POSE_Q], y1 = fa[a1 + POSE_Q + 1], z1 = fa[a1 + POSE_Q + 2], w1 = fa[a1 + POSE_Q + 3];
    if (fa[a + POSE_Q] * x1 + fa[a + POSE_Q + 1] * y1 + fa[a + POSE_Q + 2] * z1 + fa[a + POSE_Q + 3] * w1 < 0) {
      x1 = -x1; y1 = -y1; z1 = -z1; w1 = -w1;
    }
    ax += x1 * alphaA; ay += y1 * alphaA; az += z1 * alphaA; aw += w1 * alphaA;
    if (alphaA !== 0) {
      const n = 1 / Math.sqrt(ax * ax + ay * ay + az * az + aw * aw);
      ax = Math.fround(ax * n); ay = Math.fround(ay * n); az = Math.fround(az * n); aw = Math.fround(aw * n);
    }
    // Layer B's.
    const b = keyB + k, b1 = b + nextB;
    let bx = fb[b + POSE_Q] * betaB, by = fb[b + POSE_Q + 1] * betaB, bz = fb[b + POSE_Q + 2] * betaB, bw = fb[b + POSE_Q + 3] * betaB;
    let x2 = fb[b1 + POSE_Q], y2 = fb[b1 + POSE_Q + 1], z2 = fb[b1 + POSE_Q + 2], w2 = fb[b1 + POSE_Q + 3];
    if (fb[b + POSE_Q] * x2 + fb[b + POSE_Q + 1] * y2 + fb[b + POSE_Q + 2] * z2 + fb[b + POSE_Q + 3] * w2 < 0) {
      x2 = -x2; y2 = -y2; z2 = -z2; w2 = -w2;
    }
    bx += x2 * alphaB; by += y2 * alphaB; bz += z2 * alphaB; bw += w2 * alphaB;
    if (alphaB !== 0) {
      const n = 1 / Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
      bx = Math.fround(bx * n); by = Math.fround(by * n); bz = Math.fround(bz * n); bw = Math.fround(bw * n);
    }
    // The blend (blendTwoLayers): B into A's hemisphere, sums from 0.
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    const qx = 0 + ax * wa + bx * wb, qy = 0 + ay * wa + by * wb, qz = 0 + az * wa + bz * wb, qw = 0 + aw * wa + bw * wb;
    const o = outOff + k;
    out[o + POSE_T] = (0 + Math.fround(fa[a + POSE_T] * betaA + fa[a1 + POSE_T] * alphaA) * wa + Math.fround(fb[b + POSE_T] * betaB + fb[b1 + POSE_T] * alphaB) * wb) * inv;
    out[o + POSE_T + 1] = (0 + Math.fround(fa[a + POSE_T + 1] * betaA + fa[a1 + POSE_T + 1] * alphaA) * wa + Math.fround(fb[b + POSE_T + 1] * betaB + fb[b1 + POSE_T + 1] * alphaB) * wb) * inv;
    out[o + POSE_T + 2] = (0 + Math.fround(fa[a + POSE_T + 2] * betaA + fa[a1 + POSE_T + 2] * alphaA) * wa + Math.fround(fb[b + POSE_T + 2] * betaB + fb[b1 + POSE_T + 2] * alphaB) * wb) * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = (0 + Math.fround(fa[a + POSE_S] * betaA + fa[a1 + POSE_S] * alphaA) * wa + Math.fround(fb[b + POSE_S] * betaB + fb[b1 + POSE_S] * alphaB) * wb) * inv;
    out[o + POSE_S + 1] = (0 + Math.fround(fa[a + POSE_S + 1] * betaA + fa[a1 + POSE_S + 1] * alphaA) * wa + Math.fround(fb[b + POSE_S + 1] * betaB + fb[b1 + POSE_S + 1] * alphaB) * wb) * inv;
    out[o + POSE_S + 2] = (0 + Math.fround(fa[a + POSE_S + 2] * betaA + fa[a1 + POSE_S + 2] * alphaA) * wa + Math.fround(fb[b + POSE_S + 2] * betaB + fb[b1 + POSE_S + 2] * alphaB) * wb) * inv;
  }
}
