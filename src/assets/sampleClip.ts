/**
 * Sampling a clip at one instant: the kernel `sampleSystem` runs per layer, and what the
 * importers, additive references and transitions use to read a pose off a clip.
 */
import * as layout from '../math/layout.js';
import type { Binding } from './bindingTypes.js';
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
 * instead, with the same contract.
 */
export function sampleClipInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  if (clip.reduced !== null) {
    sampleReducedInto(out, outOff, clip, times, timeIndex, binding);
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

