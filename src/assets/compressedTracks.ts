/**
 * The compressed clip format (`compressClip` in `bitanim/lod`) and its JavaScript decoder.
 *
 * The technique is ACL's (Nicholas Frechette's Animation Compression Library): uniform samples
 * cut into segments of {@link SEGMENT_LENGTH} frames; per track (a joint's translation, rotation
 * or scale) a range over the whole clip and, per segment, a sub-range inside it quantized to
 * 8 bits per bound; each sample then quantized within its segment range at a bit rate chosen
 * per track and per segment (0–24 bits per component) so that the model-space error stays
 * within the tolerance. Tracks that do not move are stripped: a *default* track equals the
 * skeleton's rest pose and costs nothing; a *constant* track stores its one value. Rotations
 * are stored as three of their components, the fourth (per track, the one farthest from 0:
 * `DROP_SHIFT`) made ≥ 0 by the sign fix (q and −q are one rotation) and rebuilt as
 * √(1 − the others²).
 *
 * **Layout.** Animated tracks are numbered in joint order, T before Q before S (3 components
 * each). With A animated tracks, segment s (n_s frames: 16, fewer in the last) and track i:
 * `segmentBits[s·(A + 1) + i]` is the sum of the bit rates of the tracks before i in s (so
 * track i's rate b is the next entry minus this one, and A + 1 entries cost 2 bytes each);
 * the track's samples start at bit `segmentStart[s] + n_s·3·(that sum)` of `data` and follow
 * frame after frame, 3 components each, b bits per component, least significant bit first in
 * the 32-bit words; `segmentRanges[((s·A + i)·3 + c)·2 ..]` hold the 8-bit minimum m and
 * extent x of component c in that segment as a share of the clip range. A sample q of b bits
 * decodes as
 *
 *     v = clipMin + clipExtent · (m/255 + (x/255) · q/(2^b − 1))
 *
 * (b = 0: v = clipMin + clipExtent · m/255). Random access: any frame decodes from its own
 * segment's entries, so sampling at any time costs the same as playing forward.
 *
 * **Sampling** interpolates the two decoded frames around the time as the dense sampler does
 * its frames (lerp, nlerp with the hemisphere fix), so the error between frames is that of the
 * frames, which `compressClip` measures at frames and midpoints.
 */
import type { Binding } from './bindingTypes.js';
import { retargetTranslation } from '../math/retargetTranslation.js';
import type { Clip } from './Clip.js';
import * as layout from '../math/layout.js';
import { curveFramePosition } from './sampleCurves.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;
/** A constant rotation's w, after its x y z (a quaternion record's own order). */
const POSE_Q_W = 3;

/** Frames per segment. */
export const SEGMENT_LENGTH = 16;
/** log2 of {@link SEGMENT_LENGTH}. */
export const SEGMENT_SHIFT = 4;
/** Largest bit rate per component. */
export const MAX_BITS = 24;
/** `jointMask` bit: the translation is animated (one animated track). */
export const ANIMATED_T = 1;
/** `jointMask` bit: the rotation is animated. */
export const ANIMATED_Q = 2;
/** `jointMask` bit: the scale is animated. */
export const ANIMATED_S = 4;
/** `jointMask` bit: the (not animated) translation is the skeleton's rest translation. */
export const DEFAULT_T = 8;
/** `jointMask` bit: the (not animated) rotation is the rest rotation. */
export const DEFAULT_Q = 16;
/** `jointMask` bit: the (not animated) scale is the rest scale. */
export const DEFAULT_S = 32;
/**
 * `jointMask` bits 6–7 of an animated rotation: which component (x 0, y 1, z 2, w 3) is not
 * stored but rebuilt as √(1 − the others²) — the one farthest from 0 over the clip, so the
 * rebuild keeps its precision (w alone loses it near a half turn, where w ≈ 0) — and made ≥ 0
 * by the sign fix; the three others are stored in order.
 */
export const DROP_SHIFT = 6;

/** A compressed clip's data (see the file header). Immutable; made by `compressClip`. */
export interface CompressedTracks {
  /** Joints, in the skeleton's order. */
  readonly jointCount: number;
  /** Frames (the clip's `frameCount`). */
  readonly frameCount: number;
  /** Segments: ⌈frameCount / SEGMENT_LENGTH⌉. */
  readonly segmentCount: number;
  /** Animated tracks (A). */
  readonly animatedTracks: number;
  /** Per joint: `ANIMATED_*` and `DEFAULT_*` bits (a track with neither is constant), the dropped rotation component in bits 6–7 (`DROP_SHIFT`). */
  readonly jointMask: Uint8Array;
  /** Per joint: its first animated track (the others follow, T, Q, S). */
  readonly jointTrack: Uint16Array;
  /** Per joint: its first value in `constants` (its constant tracks follow, T 3, Q 4, S 3 floats). */
  readonly jointConstant: Uint16Array;
  /** Values of the constant tracks (rotations unit). */
  readonly constants: Float32Array;
  /** Per animated track and component (A × 3): the clip range's minimum. */
  readonly clipMin: Float32Array;
  /** Per animated track and component (A × 3): the clip range's extent (≥ 0). */
  readonly clipExtent: Float32Array;
  /** Per segment: the bit of `data` where its samples start. */
  readonly segmentStart: Uint32Array;
  /**
   * Per segment, `A + 1` running sums of its tracks' bit rates (see the file header): a
   * Uint16Array when every sum fits (24 · A < 65536), else a Uint32Array.
   */
  readonly segmentBits: Uint16Array | Uint32Array;
  /** Per segment, animated track and component: the 8-bit minimum and extent (segmentCount × A × 3 × 2). */
  readonly segmentRanges: Uint8Array;
  /** The samples (one word of padding at the end, so a read of two words never leaves it). */
  readonly data: Uint32Array;
  /** Bytes of all the arrays above. */
  readonly byteLength: number;
}

/** 1 / (2^b − 1) per bit rate b (0 for b = 0). */
export const BIT_SCALE = (() => {
  const s = new Float64Array(MAX_BITS + 1);
  for (let b = 1; b <= MAX_BITS; b++) s[b] = 1 / (2 ** b - 1);
  return s;
})();
/** 1/255, the 8-bit segment range's unit. */
export const INV255 = 1 / 255;

/** Decoded components of the two frames of one track (a fixed-size temporary). */
const DECODED = new Float64Array(6);
/** The frame before the time and the fraction toward the next (`curveFramePosition`'s answer). */
const POSITION = new Float64Array(2);

/**
 * Decodes the 3 components of animated track `track` at frame `index` of segment `segment`
 * (see the file header) into `out[o .. o + 3)`. Integers only in and nothing out, so nothing
 * is boxed (the encoder's arithmetic is the same expression, so it measures what plays).
 */
export function decodeSample(out: Float64Array, o: number, c: CompressedTracks, segment: number, track: number, index: number): void {
  const A = c.animatedTracks;
  const row = segment * (A + 1) + track;
  const before = c.segmentBits[row];
  const bits = c.segmentBits[row + 1] - before;
  let frames = c.frameCount - (segment << 4); // SEGMENT_SHIFT
  if (frames > 16) frames = 16; // SEGMENT_LENGTH
  const mask = (1 << bits) - 1;
  const span = BIT_SCALE[bits];
  const data = c.data, ranges = c.segmentRanges, clipMin = c.clipMin, clipExtent = c.clipExtent;
  const entry = segment * A + track;
  let p = c.segmentStart[segment] + 3 * (frames * before + index * bits);
  for (let k = 0; k < 3; k++) {
    const w = p >>> 5, shift = p & 31;
    // (x << 1) << (31 − shift): the next word's low bits, 0 when shift is 0 (a shift by 32 is none in JS).
    const q = ((data[w] >>> shift) | ((data[w + 1] << 1) << (31 - shift))) & mask;
    const r = (entry * 3 + k) * 2;
    const a = track * 3 + k;
    out[o + k] = clipMin[a] + clipExtent[a] * (ranges[r] * INV255 + ranges[r + 1] * INV255 * span * q);
    p += bits;
  }
}

/**
 * Samples the compressed clip `clip` (`clip.reduced.compressed` set: `compressClip`) at time
 * `times[timeIndex]` seconds into `out` at `outOff`, 10 floats per joint — the contract of
 * `sampleClipInto`: the frame before the time and the one after are decoded (random access:
 * each from its own segment) and interpolated as the dense sampler interpolates frames (lerp;
 * nlerp with the hemisphere fix, normalized — also on a frame, as w is rebuilt); times outside
 * [0, duration] clamp; a binding maps joints, fills unbound ones with the target's rest pose
 * and applies its translation modes. Default tracks read the clip skeleton's rest pose,
 * constant ones their value. Pure kernel, allocates nothing; `sampleReducedInto` sends
 * compressed clips here.
 */
export function sampleCompressedInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  // Locals, not imports (see sampleReducedInto): ANIMATED_T/Q/S, DEFAULT_T/Q/S, SEGMENT_SHIFT.
  const AT = 1, AQ = 2, AS = 4, DT = 8, DQ = 16, DS = 32, SHIFT = 4, LOW = 15;
  const c = clip.reduced!.compressed!;
  const d = DECODED;
  curveFramePosition(POSITION, clip, times, timeIndex);
  const alpha = POSITION[1];
  const f0 = POSITION[0] | 0;
  const f1 = alpha === 0 ? f0 : f0 + 1;
  const beta = 1 - alpha;
  const s0 = f0 >> SHIFT, s1 = f1 >> SHIFT;
  const i0 = f0 & LOW, i1 = f1 & LOW;
  const jointMask = c.jointMask, jointTrack = c.jointTrack, jointConstant = c.jointConstant, constants = c.constants;
  const sourceRest = clip.skeleton.rest;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const modes = binding === null ? null : binding.translationMode;
  const scales = binding === null ? null : binding.translationScale;
  const jointCount = sourceJoint === null ? c.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * POSE_STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j];
    if (source < 0) {
      for (let k = 0, r = j * POSE_STRIDE; k < POSE_STRIDE; k++) out[o + k] = rest![r + k];
      continue;
    }
    const mask = jointMask[source];
    let track = jointTrack[source];
    let k = jointConstant[source];
    const r = source * POSE_STRIDE;

    if ((mask & AT) !== 0) {
      decodeSample(d, 0, c, s0, track, i0);
      decodeSample(d, 3, c, s1, track, i1);
      track++;
      out[o + POSE_T] = d[0] * beta + d[3] * alpha;
      out[o + POSE_T + 1] = d[1] * beta + d[4] * alpha;
      out[o + POSE_T + 2] = d[2] * beta + d[5] * alpha;
    } else if ((mask & DT) !== 0) {
      out[o + POSE_T] = sourceRest[r + POSE_T];
      out[o + POSE_T + 1] = sourceRest[r + POSE_T + 1];
      out[o + POSE_T + 2] = sourceRest[r + POSE_T + 2];
    } else {
      out[o + POSE_T] = constants[k];
      out[o + POSE_T + 1] = constants[k + 1];
      out[o + POSE_T + 2] = constants[k + 2];
      k += 3;
    }

    if ((mask & AQ) !== 0) {
      decodeSample(d, 0, c, s0, track, i0);
      decodeSample(d, 3, c, s1, track, i1);
      track++;
      // Rebuild the dropped component r (≥ 0) from the three stored, nlerp in the stored order
      // (the three, then r), then put each in its place: the WebAssembly kernel computes the
      // same sums in the same order, two rotations at a time, and places them with one swizzle.
      const drop = mask >> 6;
      const a0 = d[0], a1 = d[1], a2 = d[2];
      let b0 = d[3], b1 = d[4], b2 = d[5];
      const an = 1 - a0 * a0 - a1 * a1 - a2 * a2, bn = 1 - b0 * b0 - b1 * b1 - b2 * b2;
      const ar = an > 0 ? Math.sqrt(an) : 0;
      let br = bn > 0 ? Math.sqrt(bn) : 0;
      if (a0 * b0 + a1 * b1 + a2 * b2 + ar * br < 0) {
        b0 = -b0; b1 = -b1; b2 = -b2; br = -br;
      }
      const q0 = a0 * beta + b0 * alpha, q1 = a1 * beta + b1 * alpha;
      const q2 = a2 * beta + b2 * alpha, qr = ar * beta + br * alpha;
      const inv = 1 / Math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + qr * qr);
      // Stored component c is the rotation's c below the dropped one, c + 1 from it on.
      out[o + POSE_Q + (drop === 0 ? 1 : 0)] = q0 * inv;
      out[o + POSE_Q + (drop <= 1 ? 2 : 1)] = q1 * inv;
      out[o + POSE_Q + (drop <= 2 ? 3 : 2)] = q2 * inv;
      out[o + POSE_Q + drop] = qr * inv;
    } else if ((mask & DQ) !== 0) {
      out[o + POSE_Q] = sourceRest[r + POSE_Q];
      out[o + POSE_Q + 1] = sourceRest[r + POSE_Q + 1];
      out[o + POSE_Q + 2] = sourceRest[r + POSE_Q + 2];
      out[o + POSE_Q + 3] = sourceRest[r + POSE_Q + 3];
    } else {
      out[o + POSE_Q] = constants[k];
      out[o + POSE_Q + 1] = constants[k + 1];
      out[o + POSE_Q + 2] = constants[k + 2];
      out[o + POSE_Q + 3] = constants[k + POSE_Q_W];
      k += 4;
    }

    if ((mask & AS) !== 0) {
      decodeSample(d, 0, c, s0, track, i0);
      decodeSample(d, 3, c, s1, track, i1);
      out[o + POSE_S] = d[0] * beta + d[3] * alpha;
      out[o + POSE_S + 1] = d[1] * beta + d[4] * alpha;
      out[o + POSE_S + 2] = d[2] * beta + d[5] * alpha;
    } else if ((mask & DS) !== 0) {
      out[o + POSE_S] = sourceRest[r + POSE_S];
      out[o + POSE_S + 1] = sourceRest[r + POSE_S + 1];
      out[o + POSE_S + 2] = sourceRest[r + POSE_S + 2];
    } else {
      out[o + POSE_S] = constants[k];
      out[o + POSE_S + 1] = constants[k + 1];
      out[o + POSE_S + 2] = constants[k + 2];
    }
    if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
  }
}
