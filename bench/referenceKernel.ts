/**
 * The scalar reference kernel (issue 18 item 1): the bench crowd's whole frame — two looping
 * uniform clips per character, blended by two override weights, composed local → model and
 * multiplied into the skinning palette — hand-fused into one pass per character in plain
 * TypeScript. It is the ceiling `step` is compared against: what the same arithmetic costs
 * without systems, components, pools between the phases or per-layer generality.
 *
 * Per character, per frame:
 * 1. Each layer's time advances as `sampleSystem`'s `advanceLayer` does for a looping layer:
 *    t ← t + speed × dt, then t − ⌊t / D⌋·D, and 0 at the seam or for NaN.
 * 2. Each clip's frame index and alpha at t as `sampleClipInto` (src/assets/sampleClip.ts):
 *    position = t × frameRate, frame = ⌊position⌋, alpha = position − frame (a frame at or past
 *    the last key reads the last key: here as frame − 1 with alpha 1, the same values, so the
 *    joint loop has no branch on alpha).
 * 3. Per joint, in registers: both clips sampled as `sampleClipInto` samples them — T and S by
 *    lerp, Q by nlerp with the second key flipped into the first's hemisphere, normalized —
 *    then blended as `blendOverrideLayers` (src/math/blendPose.ts) blends two unmasked override
 *    layers: weights normalized by their sum, T and S weighted means, the second layer's
 *    quaternion flipped into the first one's hemisphere, the weighted sum normalized. The last
 *    normalization is folded into the rotation matrix (scaled by 2 / |q|² instead of 2 with a
 *    unit q: the same matrix without a square root). The rest pose never joins: the weights
 *    must sum to at least the blend threshold (checked at creation).
 * 4. L = T·R·S and C = C_parent · L as `composeModel` (src/math/composeModel.ts), kept in a
 *    Float64 scratch of one character's model matrices (the one array the hierarchy needs:
 *    a child reads its parent's matrix), then K = C · B⁻¹ written to the palette (3×4
 *    column-major, 12 floats per joint) as `computeSkinPalette`.
 *
 * What `step` does besides, which this kernel leaves out because it does not change the
 * palette of this crowd: root-motion deltas and events of the layers, the per-layer pose and
 * LocalPose/ModelPose pools, LOD, inertialization, follow/aim. Differences in the
 * numbers: `step` rounds the layer poses, the blended pose and the model matrices to float32
 * on the way; this kernel keeps doubles until the palette. Both agree within 1e-5 per palette
 * element (checked by the bench before and after timing, and by test/bench/referenceKernel.test.ts).
 *
 * No allocation per frame: the frame's dt arrives in an array (a double passed to a function
 * V8 does not inline is boxed), every buffer is made at creation.
 */
import type { Clip, Skeleton } from '../src/index.js';

/** Floats per joint pose in a clip frame (`tx ty tz qx qy qz qw sx sy sz`). */
const POSE = 10;
/** Floats per 3×4 matrix. */
const MATRIX = 12;

/** A crowd animated by the reference kernel; build with {@link createReferenceKernel}. */
export interface ReferenceKernel {
  /** Characters. */
  readonly count: number;
  /** Joints per character. */
  readonly jointCount: number;
  /** The skeleton's parent of each joint (−1 for a root, below the joint otherwise). */
  readonly parents: Int16Array;
  /** The skeleton's inverse bind matrices, `jointCount × 12`. */
  readonly inverseBind: Float32Array;
  /** Keys of clip 0 (layer 0) and clip 1 (layer 1): `frameCount × jointCount × 10` each. */
  readonly frames0: Float32Array;
  readonly frames1: Float32Array;
  /** `[frameRate, duration, frameCount − 1]` of clip 0, then of clip 1. */
  readonly clipInfo: Float64Array;
  /** Playback time of each layer, seconds: `character × 2 + layer` (Float64, as `Layers.time`). */
  readonly time: Float64Array;
  /** Playback rate of each layer (Float32, as `Layers.speed`). */
  readonly speed: Float32Array;
  /** Blend weight of each layer (Float32, as `Layers.weight`). */
  readonly weight: Float32Array;
  /** One character's model matrices (`jointCount × 12`, Float64): scratch for the parents. */
  readonly model: Float64Array;
  /** Skinning palettes: character c's joint j at `(c × jointCount + j) × 12`, 3×4 column-major. */
  readonly palette: Float32Array;
  /** `[dt]`, seconds: the frame step read by {@link runReferenceKernel}. */
  readonly dt: Float64Array;
}

/**
 * Builds the reference crowd: `count` characters of `skeleton`, each playing `clips[0]` on
 * layer 0 and `clips[1]` on layer 1, looping, with `weights[layer]` and, per character c,
 * the start time `startTime[c × 2 + layer]` and rate `speed[c × 2 + layer]` (the bench plan's
 * arrays). Throws when the crowd is outside what the kernel computes exactly as `step`:
 * reduced clips, clips of another skeleton size or of duration 0, a weight ≤ 0 or weights
 * summing below the blend threshold (the rest pose would join).
 */
export function createReferenceKernel(
  skeleton: Skeleton,
  clips: readonly Clip[],
  weights: readonly number[],
  startTime: Float64Array,
  speed: Float64Array,
  count: number,
  blendThreshold = 0.1,
): ReferenceKernel {
  const jointCount = skeleton.jointCount;
  if (clips.length !== 2 || weights.length !== 2) throw new Error('reference kernel: exactly two clips and two weights');
  for (const clip of clips) {
    if (clip.reduced !== null) throw new Error(`reference kernel: clip "${clip.name}" is reduced; the kernel samples uniform clips`);
    if (clip.skeleton.jointCount !== jointCount) throw new Error(`reference kernel: clip "${clip.name}" has ${clip.skeleton.jointCount} joints, not ${jointCount}`);
    if (!(clip.duration > 0) || clip.frameCount < 2) throw new Error(`reference kernel: clip "${clip.name}" has no duration`);
  }
  const w0 = Math.fround(weights[0]!), w1 = Math.fround(weights[1]!);
  if (!(w0 > 0 && w1 > 0) || w0 + w1 < blendThreshold) {
    throw new Error(`reference kernel: weights ${weights.join(' / ')} must be > 0 and sum to ≥ the blend threshold ${blendThreshold}`);
  }
  if (startTime.length < count * 2 || speed.length < count * 2) throw new Error('reference kernel: startTime and speed need count × 2 entries');
  const weight = new Float32Array(count * 2);
  for (let c = 0; c < count; c++) {
    weight[c * 2] = w0;
    weight[c * 2 + 1] = w1;
  }
  const [clip0, clip1] = clips as [Clip, Clip];
  return {
    count,
    jointCount,
    parents: skeleton.parents,
    inverseBind: skeleton.inverseBind,
    frames0: clip0.frames,
    frames1: clip1.frames,
    clipInfo: Float64Array.of(clip0.frameRate, clip0.duration, clip0.frameCount - 1, clip1.frameRate, clip1.duration, clip1.frameCount - 1),
    time: Float64Array.from(startTime.subarray(0, count * 2)),
    speed: Float32Array.from(speed.subarray(0, count * 2)),
    weight,
    model: new Float64Array(jointCount * MATRIX),
    palette: new Float32Array(count * jointCount * MATRIX),
    dt: new Float64Array(1),
  };
}

/**
 * Advances characters `[first, end)` by `kernel.dt[0]` seconds and writes their palettes: the
 * whole frame of the bench crowd in one pass per character (see the file header).
 */
export function runReferenceKernel(kernel: ReferenceKernel, first: number, end: number): void {
  const { jointCount, parents, inverseBind, frames0, frames1, clipInfo, time, speed, weight, model, palette } = kernel;
  const dt = kernel.dt[0];
  const rate0 = clipInfo[0], duration0 = clipInfo[1], last0 = clipInfo[2];
  const rate1 = clipInfo[3], duration1 = clipInfo[4], last1 = clipInfo[5];
  const poseSize = jointCount * POSE;

  for (let c = first; c < end; c++) {
    const k = c * 2;
    // 1. Times (advanceLayer, looping).
    let t0 = time[k] + speed[k] * dt;
    t0 -= Math.floor(t0 / duration0) * duration0;
    if (t0 >= duration0 || !(t0 >= 0)) t0 = 0;
    time[k] = t0;
    let t1 = time[k + 1] + speed[k + 1] * dt;
    t1 -= Math.floor(t1 / duration1) * duration1;
    if (t1 >= duration1 || !(t1 >= 0)) t1 = 0;
    time[k + 1] = t1;

    // 2. Frame and alpha of each clip (sampleClipInto).
    const position0 = t0 * rate0;
    let frame0 = Math.floor(position0);
    let alpha0 = position0 - frame0;
    if (!(frame0 >= 0)) { frame0 = 0; alpha0 = 0; } else if (frame0 >= last0) { frame0 = last0 - 1; alpha0 = 1; }
    const position1 = t1 * rate1;
    let frame1 = Math.floor(position1);
    let alpha1 = position1 - frame1;
    if (!(frame1 >= 0)) { frame1 = 0; alpha1 = 0; } else if (frame1 >= last1) { frame1 = last1 - 1; alpha1 = 1; }
    const beta0 = 1 - alpha0, beta1 = 1 - alpha1;
    const key0 = frame0 * poseSize, key1 = frame1 * poseSize;

    // Normalized weights (blendOverrideLayers: the sum, then its inverse).
    const wa = weight[k], wb = weight[k + 1];
    const inverseTotal = 1 / (wa + wb);
    const u0 = wa * inverseTotal, u1 = wb * inverseTotal;

    const paletteBase = c * jointCount * MATRIX;
    for (let j = 0; j < jointCount; j++) {
      // 3a. Clip 0 at t0: keys a (frame0) and b (frame0 + 1).
      const a = key0 + j * POSE, b = a + poseSize;
      const pAx = frames0[a + 3], pAy = frames0[a + 4], pAz = frames0[a + 5], pAw = frames0[a + 6];
      let pBx = frames0[b + 3], pBy = frames0[b + 4], pBz = frames0[b + 5], pBw = frames0[b + 6];
      if (pAx * pBx + pAy * pBy + pAz * pBz + pAw * pBw < 0) { pBx = -pBx; pBy = -pBy; pBz = -pBz; pBw = -pBw; }
      let px = pAx * beta0 + pBx * alpha0, py = pAy * beta0 + pBy * alpha0;
      let pz = pAz * beta0 + pBz * alpha0, pw = pAw * beta0 + pBw * alpha0;
      const pInv = 1 / Math.sqrt(px * px + py * py + pz * pz + pw * pw);
      px *= pInv; py *= pInv; pz *= pInv; pw *= pInv;

      // 3b. Clip 1 at t1.
      const c0 = key1 + j * POSE, c1 = c0 + poseSize;
      const rAx = frames1[c0 + 3], rAy = frames1[c0 + 4], rAz = frames1[c0 + 5], rAw = frames1[c0 + 6];
      let rBx = frames1[c1 + 3], rBy = frames1[c1 + 4], rBz = frames1[c1 + 5], rBw = frames1[c1 + 6];
      if (rAx * rBx + rAy * rBy + rAz * rBz + rAw * rBw < 0) { rBx = -rBx; rBy = -rBy; rBz = -rBz; rBw = -rBw; }
      let rx = rAx * beta1 + rBx * alpha1, ry = rAy * beta1 + rBy * alpha1;
      let rz = rAz * beta1 + rBz * alpha1, rw = rAw * beta1 + rBw * alpha1;
      const rInv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + rw * rw);
      rx *= rInv; ry *= rInv; rz *= rInv; rw *= rInv;

      // 3c. Blend: layer 1's rotation into layer 0's hemisphere, weighted sums.
      if (px * rx + py * ry + pz * rz + pw * rw < 0) { rx = -rx; ry = -ry; rz = -rz; rw = -rw; }
      const x = px * u0 + rx * u1, y = py * u0 + ry * u1, z = pz * u0 + rz * u1, w = pw * u0 + rw * u1;
      const ltx = (frames0[a] * beta0 + frames0[b] * alpha0) * u0 + (frames1[c0] * beta1 + frames1[c1] * alpha1) * u1;
      const lty = (frames0[a + 1] * beta0 + frames0[b + 1] * alpha0) * u0 + (frames1[c0 + 1] * beta1 + frames1[c1 + 1] * alpha1) * u1;
      const ltz = (frames0[a + 2] * beta0 + frames0[b + 2] * alpha0) * u0 + (frames1[c0 + 2] * beta1 + frames1[c1 + 2] * alpha1) * u1;
      const sx = (frames0[a + 7] * beta0 + frames0[b + 7] * alpha0) * u0 + (frames1[c0 + 7] * beta1 + frames1[c1 + 7] * alpha1) * u1;
      const sy = (frames0[a + 8] * beta0 + frames0[b + 8] * alpha0) * u0 + (frames1[c0 + 8] * beta1 + frames1[c1 + 8] * alpha1) * u1;
      const sz = (frames0[a + 9] * beta0 + frames0[b + 9] * alpha0) * u0 + (frames1[c0 + 9] * beta1 + frames1[c1 + 9] * alpha1) * u1;

      // 4a. L = T·R·S with the normalization folded in: 2 / |q|² for a unit q's 2.
      const s = 2 / (x * x + y * y + z * z + w * w);
      const x2 = x * s, y2 = y * s, z2 = z * s;
      const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
      const wx = w * x2, wy = w * y2, wz = w * z2;
      const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
      const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
      const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;

      // 4b. C = C_parent · L.
      let m00 = l00, m10 = l10, m20 = l20, m01 = l01, m11 = l11, m21 = l21, m02 = l02, m12 = l12, m22 = l22;
      let mtx = ltx, mty = lty, mtz = ltz;
      const parent = parents[j];
      if (parent >= 0) {
        const q = parent * MATRIX;
        const p00 = model[q], p10 = model[q + 1], p20 = model[q + 2];
        const p01 = model[q + 3], p11 = model[q + 4], p21 = model[q + 5];
        const p02 = model[q + 6], p12 = model[q + 7], p22 = model[q + 8];
        m00 = p00 * l00 + p01 * l10 + p02 * l20;
        m10 = p10 * l00 + p11 * l10 + p12 * l20;
        m20 = p20 * l00 + p21 * l10 + p22 * l20;
        m01 = p00 * l01 + p01 * l11 + p02 * l21;
        m11 = p10 * l01 + p11 * l11 + p12 * l21;
        m21 = p20 * l01 + p21 * l11 + p22 * l21;
        m02 = p00 * l02 + p01 * l12 + p02 * l22;
        m12 = p10 * l02 + p11 * l12 + p12 * l22;
        m22 = p20 * l02 + p21 * l12 + p22 * l22;
        mtx = p00 * ltx + p01 * lty + p02 * ltz + model[q + 9];
        mty = p10 * ltx + p11 * lty + p12 * ltz + model[q + 10];
        mtz = p20 * ltx + p21 * lty + p22 * ltz + model[q + 11];
      }
      const m = j * MATRIX;
      model[m] = m00; model[m + 1] = m10; model[m + 2] = m20;
      model[m + 3] = m01; model[m + 4] = m11; model[m + 5] = m21;
      model[m + 6] = m02; model[m + 7] = m12; model[m + 8] = m22;
      model[m + 9] = mtx; model[m + 10] = mty; model[m + 11] = mtz;

      // 4c. K = C · B⁻¹.
      const b00 = inverseBind[m], b10 = inverseBind[m + 1], b20 = inverseBind[m + 2];
      const b01 = inverseBind[m + 3], b11 = inverseBind[m + 4], b21 = inverseBind[m + 5];
      const b02 = inverseBind[m + 6], b12 = inverseBind[m + 7], b22 = inverseBind[m + 8];
      const btx = inverseBind[m + 9], bty = inverseBind[m + 10], btz = inverseBind[m + 11];
      const o = paletteBase + m;
      palette[o] = m00 * b00 + m01 * b10 + m02 * b20;
      palette[o + 1] = m10 * b00 + m11 * b10 + m12 * b20;
      palette[o + 2] = m20 * b00 + m21 * b10 + m22 * b20;
      palette[o + 3] = m00 * b01 + m01 * b11 + m02 * b21;
      palette[o + 4] = m10 * b01 + m11 * b11 + m12 * b21;
      palette[o + 5] = m20 * b01 + m21 * b11 + m22 * b21;
      palette[o + 6] = m00 * b02 + m01 * b12 + m02 * b22;
      palette[o + 7] = m10 * b02 + m11 * b12 + m12 * b22;
      palette[o + 8] = m20 * b02 + m21 * b12 + m22 * b22;
      palette[o + 9] = m00 * btx + m01 * bty + m02 * btz + mtx;
      palette[o + 10] = m10 * btx + m11 * bty + m12 * btz + mty;
      palette[o + 11] = m20 * btx + m21 * bty + m22 * btz + mtz;
    }
  }
}

/**
 * Largest |reference − `palettes(c)`| over every palette element of every character, where
 * `palettes(c)` is another runtime's palette of character c (`jointCount × 12`, the same
 * layout). NaN anywhere makes the result NaN.
 */
export function maxReferenceDifference(kernel: ReferenceKernel, palettes: (character: number) => Float32Array): number {
  const size = kernel.jointCount * MATRIX;
  let max = 0;
  for (let c = 0; c < kernel.count; c++) {
    const other = palettes(c);
    const base = c * size;
    for (let i = 0; i < size; i++) {
      const d = Math.abs(kernel.palette[base + i] - other[i]);
      if (d > max) max = d;
      else if (!(d <= max)) return NaN;
    }
  }
  return max;
}
