/**
 * Sampling a clip at one instant: the kernel `sampleSystem` runs per layer, and what the
 * importers, additive references and transitions use to read a pose off a clip.
 */
import * as layout from '../math/layout.js';
import type { Binding } from './bindingTypes.js';
import { retargetPose } from '../math/retargetPose.js';
import { retargetTranslation } from '../math/retargetTranslation.js';
import type { Clip } from './Clip.js';
import { sampleReducedInto } from './sampleReduced.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;

/**
 * Samples `clip` at time `times[timeIndex]` seconds into `out` at `outOff`, 10 floats per
 * joint: the two frames around that time are interpolated, translation and scale by lerp,
 * rotation by nlerp with the hemisphere fix (the shorter arc). Times outside [0, duration]
 * clamp to the ends.
 *
 * Without a binding the pose is in the clip skeleton's joint order. With one (a clip made for
 * another skeleton, see `bindSkeletons`) it is in the binding target's order: each target joint
 * reads its source joint, or takes the target's rest pose when the clip lacks it, and its
 * translation follows the binding's per-joint mode: the target's rest translation
 * ('skeleton'), the clip's ('animation') or the clip's × `translationScale[joint]` ('scaled').
 * Pure kernel: writes only `out[outOff .. outOff + jointCount × 10)`.
 *
 * The time arrives as an array element, not a number argument, on purpose: V8 boxes a
 * computed double passed to a function it does not inline (a 16-byte heap object per call),
 * and a frame must allocate nothing. Per-character kernels take no float scalars.
 *
 * A reduced clip (`clip.reduced !== null`) is sampled from its curves by `sampleReducedInto`
 * instead, with the same contract. A binding with `retarget` (skeletons that differ in more than
 * proportions) goes through `retargetPose`: straight from the two frames for a dense clip, from
 * the binding's scratch (the reduced clip sampled whole) for a reduced one.
 */
export function sampleClipInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  const retarget = binding === null ? null : binding.retarget;
  if (clip.reduced !== null) {
    if (retarget === null) {
      sampleReducedInto(out, outOff, clip, times, timeIndex, binding);
    } else {
      sampleReducedInto(retarget.scratch, 0, clip, times, timeIndex, null);
      retarget.alpha[0] = 0;
      retargetPose(out, outOff, retarget.scratch, 0, 0, retarget);
    }
    return;
  }
  const frames = clip.frames;
  const frameCount = clip.frameCount;
  const poseSize = clip.skeleton.jointCount * POSE_STRIDE;
  const position = times[timeIndex] * clip.frameRate;
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0; // negative or NaN time: first frame
    alpha = 0;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
    alpha = 0;
  }
  const a0 = frame * poseSize;
  if (retarget !== null) {
    // Sampled and retargeted in one pass over the two frames.
    retarget.alpha[0] = alpha;
    retargetPose(out, outOff, frames, a0, alpha === 0 ? a0 : a0 + poseSize, retarget);
    return;
  }
  const beta = 1 - alpha;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const modes = binding === null ? null : binding.translationMode;
  const scales = binding === null ? null : binding.translationScale;
  const jointCount = sourceJoint === null ? clip.skeleton.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * POSE_STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j];
    if (source < 0) {
      for (let c = 0, r = j * POSE_STRIDE; c < POSE_STRIDE; c++) out[o + c] = rest![r + c];
      continue;
    }
    const a = a0 + source * POSE_STRIDE;
    if (alpha === 0) {
      for (let c = 0; c < POSE_STRIDE; c++) out[o + c] = frames[a + c];
      if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
      continue;
    }
    const b = a + poseSize;
    out[o + POSE_T] = frames[a + POSE_T] * beta + frames[b + POSE_T] * alpha;
    out[o + POSE_T + 1] = frames[a + POSE_T + 1] * beta + frames[b + POSE_T + 1] * alpha;
    out[o + POSE_T + 2] = frames[a + POSE_T + 2] * beta + frames[b + POSE_T + 2] * alpha;
    const ax = frames[a + POSE_Q], ay = frames[a + POSE_Q + 1], az = frames[a + POSE_Q + 2], aw = frames[a + POSE_Q + 3];
    let bx = frames[b + POSE_Q], by = frames[b + POSE_Q + 1], bz = frames[b + POSE_Q + 2], bw = frames[b + POSE_Q + 3];
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    const qx = ax * beta + bx * alpha, qy = ay * beta + by * alpha;
    const qz = az * beta + bz * alpha, qw = aw * beta + bw * alpha;
    const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * inv;
    out[o + POSE_Q + 1] = qy * inv;
    out[o + POSE_Q + 2] = qz * inv;
    out[o + POSE_Q + 3] = qw * inv;
    out[o + POSE_S] = frames[a + POSE_S] * beta + frames[b + POSE_S] * alpha;
    out[o + POSE_S + 1] = frames[a + POSE_S + 1] * beta + frames[b + POSE_S + 1] * alpha;
    out[o + POSE_S + 2] = frames[a + POSE_S + 2] * beta + frames[b + POSE_S + 2] * alpha;
    if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
  }
}


/**
 * Two dense, unbound clips sampled and blended as two unmasked override layers, in one pass
 * per joint (`blendSystem`'s two-layer case): the pose `sampleClipInto` gives for each clip at
 * `times[timeA]` and `times[timeB]`, then the blend of `blendTwoLayers` (src/math/blendPose.ts)
 * with the weights `layerWeight[0]` and `layerWeight[1]`, written to `out` at `outOff`
 * (`jointCount × 10` floats). The same operations in the same order, except that the two
 * layer poses stay in registers as doubles instead of being stored as float32 and read back:
 * the blend is at least as accurate and differs from the two-step result by float32 rounding
 * (under 1e-6 relative; measured in docs/performance.md). It skips 20 float32 stores and loads
 * per joint, which is most of what the two steps cost beyond their arithmetic.
 *
 * Returns false and writes nothing when either time falls on a key, before the first or at or
 * past the last (where `sampleClipInto` copies the key as stored): the caller then samples and
 * blends in two steps. Preconditions (the caller checks): both clips dense
 * (`reduced === null`) with `jointCount` joints, no binding, `layerWeight[0] + layerWeight[1]`
 * > 0. Takes no float scalar (see {@link sampleClipInto}); pure kernel.
 */
export function sampleBlendTwoInto(
  out: Float32Array,
  outOff: number,
  clipA: Clip,
  clipB: Clip,
  times: Float64Array,
  timeA: number,
  timeB: number,
  layerWeight: Float32Array,
  jointCount: number,
): boolean {
  const positionA = times[timeA] * clipA.frameRate, positionB = times[timeB] * clipB.frameRate;
  const frameA = Math.floor(positionA), frameB = Math.floor(positionB);
  const alphaA = positionA - frameA, alphaB = positionB - frameB;
  // Strictly between two keys, or NaN/out of range/on a key: the two-step path.
  if (!(frameA >= 0 && frameA < clipA.frameCount - 1 && alphaA > 0 && frameB >= 0 && frameB < clipB.frameCount - 1 && alphaB > 0)) return false;
  const fa = clipA.frames, fb = clipB.frames;
  const poseSize = jointCount * POSE_STRIDE;
  // Int32 key offsets (`| 0`: V8 types Math.floor as a double, and double indices cost a conversion per read).
  const keyA = (frameA | 0) * poseSize, keyB = (frameB | 0) * poseSize;
  const betaA = 1 - alphaA, betaB = 1 - alphaB;
  const wa = layerWeight[0], wb = layerWeight[1];
  const inv = 1 / (wa + wb);
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    // Clip A: keys a and b, rotation by nlerp with the hemisphere fix, normalized (sampleClipInto).
    const a = keyA + k, b = a + poseSize;
    const ax = fa[a + POSE_Q], ay = fa[a + POSE_Q + 1], az = fa[a + POSE_Q + 2], aw = fa[a + POSE_Q + 3];
    let bx = fa[b + POSE_Q], by = fa[b + POSE_Q + 1], bz = fa[b + POSE_Q + 2], bw = fa[b + POSE_Q + 3];
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    let px = ax * betaA + bx * alphaA, py = ay * betaA + by * alphaA;
    let pz = az * betaA + bz * alphaA, pw = aw * betaA + bw * alphaA;
    const pInv = 1 / Math.sqrt(px * px + py * py + pz * pz + pw * pw);
    px *= pInv; py *= pInv; pz *= pInv; pw *= pInv;
    // Clip B: keys c and d.
    const c = keyB + k, d = c + poseSize;
    const cx = fb[c + POSE_Q], cy = fb[c + POSE_Q + 1], cz = fb[c + POSE_Q + 2], cw = fb[c + POSE_Q + 3];
    let dx = fb[d + POSE_Q], dy = fb[d + POSE_Q + 1], dz = fb[d + POSE_Q + 2], dw = fb[d + POSE_Q + 3];
    if (cx * dx + cy * dy + cz * dz + cw * dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    let rx = cx * betaB + dx * alphaB, ry = cy * betaB + dy * alphaB;
    let rz = cz * betaB + dz * alphaB, rw = cw * betaB + dw * alphaB;
    const rInv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
    rx *= rInv; ry *= rInv; rz *= rInv; rw *= rInv;
    // The blend (blendTwoLayers): B's rotation into A's hemisphere, weighted sums from 0, normalized.
    if (px * rx + py * ry + pz * rz + pw * rw < 0) {
      rx = -rx; ry = -ry; rz = -rz; rw = -rw;
    }
    const qx = 0 + px * wa + rx * wb, qy = 0 + py * wa + ry * wb, qz = 0 + pz * wa + rz * wb, qw = 0 + pw * wa + rw * wb;
    const o = outOff + k;
    out[o + POSE_T] = (0 + (fa[a + POSE_T] * betaA + fa[b + POSE_T] * alphaA) * wa + (fb[c + POSE_T] * betaB + fb[d + POSE_T] * alphaB) * wb) * inv;
    out[o + POSE_T + 1] = (0 + (fa[a + POSE_T + 1] * betaA + fa[b + POSE_T + 1] * alphaA) * wa + (fb[c + POSE_T + 1] * betaB + fb[d + POSE_T + 1] * alphaB) * wb) * inv;
    out[o + POSE_T + 2] = (0 + (fa[a + POSE_T + 2] * betaA + fa[b + POSE_T + 2] * alphaA) * wa + (fb[c + POSE_T + 2] * betaB + fb[d + POSE_T + 2] * alphaB) * wb) * inv;
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + POSE_Q] = qx * qInv; out[o + POSE_Q + 1] = qy * qInv; out[o + POSE_Q + 2] = qz * qInv; out[o + POSE_Q + 3] = qw * qInv;
    out[o + POSE_S] = (0 + (fa[a + POSE_S] * betaA + fa[b + POSE_S] * alphaA) * wa + (fb[c + POSE_S] * betaB + fb[d + POSE_S] * alphaB) * wb) * inv;
    out[o + POSE_S + 1] = (0 + (fa[a + POSE_S + 1] * betaA + fa[b + POSE_S + 1] * alphaA) * wa + (fb[c + POSE_S + 1] * betaB + fb[d + POSE_S + 1] * alphaB) * wb) * inv;
    out[o + POSE_S + 2] = (0 + (fa[a + POSE_S + 2] * betaA + fa[b + POSE_S + 2] * alphaA) * wa + (fb[c + POSE_S + 2] * betaB + fb[d + POSE_S + 2] * alphaB) * wb) * inv;
  }
  return true;
}
