/**
 * Sampling a reduced (LOD) clip at one instant: the cubic curves of its `ReducedTracks`
 * instead of two interpolated frames. `sampleClipInto` sends clips with `reduced !== null`
 * here, so layers, transitions and additive references all read reduced clips this way.
 */
import type { Binding } from './bindingTypes.js';
import { retargetTranslation } from '../math/retargetTranslation.js';
import type { Clip } from './Clip.js';
import { sampleCompressedInto } from './compressedTracks.js';
import * as layout from '../math/layout.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_T, POSE_Q, POSE_S } = layout;

/**
 * Samples the reduced clip `clip` at time `times[timeIndex]` seconds into `out` at `outOff`,
 * 10 floats per joint — the contract of `sampleClipInto`:
 *
 * 1. Times outside [0, duration] clamp to the ends; a negative or NaN time samples 0.
 * 2. Each animated track (translation, rotation, scale of a joint) finds its record with one
 *    table read and at most one comparison (see `ReducedTracks`), then evaluates
 *    a + u·(b + u·(c + u·d)), u = t − τ, per channel (Horner); a uniform scale evaluates one
 *    curve for sx = sy = sz. Constant tracks copy their value.
 * 3. The rotation is normalized (q / |q|): its components are fitted one by one, so the sum
 *    is only close to unit length. A constant rotation is stored unit already.
 *    The reducer makes consecutive quaternion samples hemisphere-continuous, so no sign fix is
 *    needed between keys.
 * 4. Without a binding the pose is in the clip skeleton's order; with one, in the target's,
 *    target joints without a source joint take the target's rest pose, and bound joints'
 *    translations follow the binding's modes (`retargetTranslation`).
 *
 * At every key time the result is the stored a of that record exactly (u = 0), and at frame
 * times it is what `expandFrames` gives (it calls this kernel). A clip with 16-bit tracks
 * (`quantize`) is handed to `sampleReduced16Into`. Pure kernel: writes only
 * `out[outOff .. outOff + jointCount × 10)`, allocates nothing; the time comes in an array for
 * the reason given at `sampleClipInto`. Precondition: `clip.reduced` is not null (call
 * `sampleClipInto`, which checks); with null nothing is written. A compressed clip
 * (`tracks.compressed` set, `compressClip`) is handed to `sampleCompressedInto`.
 */
export function sampleReducedInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  // Layout constants as locals, not imports: V8 reads an imported binding from its module cell
  // (with a TDZ check) at every use in the loop, which measured ~20% of this kernel's time (the
  // pose offsets POSE_T/Q/S are bound as module constants above, which V8 folds the same way).
  // They equal POSE_STRIDE, RECORD_STRIDE_3/4/1 and TRACK_T/Q/S/S1 (a test checks).
  const STRIDE = 10, T3 = 13, Q4 = 17, S1 = 5, HAS_T = 1, HAS_Q = 2, HAS_S = 4, HAS_S1 = 8;
  const tracks = clip.reduced;
  if (tracks === null) return;
  if (tracks.compressed !== undefined) {
    sampleCompressedInto(out, outOff, clip, times, timeIndex, binding);
    return;
  }
  if (tracks.packedTracks !== 0) {
    sampleReduced16Into(out, outOff, clip, times, timeIndex, binding);
    return;
  }
  const records = tracks.records;
  const table = tracks.bucketRecords;
  const constants = tracks.constants;
  const jointMask = tracks.jointMask;
  const jointTrack = tracks.jointTrack;
  const end = tracks.endTime;
  let t = times[timeIndex];
  if (!(t > 0)) t = 0; // negative or NaN: the start
  else if (t > end) t = end;
  // Key times are 32-bit floats: compare in that precision, so a time given exactly at a key
  // (as a double, e.g. f / frameRate) lands on that key's record.
  const ts = Math.fround(t);
  const row = ((ts * tracks.bucketScale) | 0) * tracks.animatedTracks;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const modes = binding === null ? null : binding.translationMode;
  const scales = binding === null ? null : binding.translationScale;
  const jointCount = sourceJoint === null ? tracks.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j];
    if (source < 0) {
      for (let c = 0, r = j * STRIDE; c < STRIDE; c++) out[o + c] = rest![r + c];
      continue;
    }
    const mask = jointMask[source];
    const k = source * STRIDE;
    let entry = row + jointTrack[source];

    if ((mask & HAS_T) === 0) {
      out[o + POSE_T] = constants[k + POSE_T];
      out[o + POSE_T + 1] = constants[k + POSE_T + 1];
      out[o + POSE_T + 2] = constants[k + POSE_T + 2];
    } else {
      let r = table[entry++];
      if (records[r + T3] <= ts) r += T3;
      const u = t - records[r];
      out[o + POSE_T] = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_T + 1] = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      out[o + POSE_T + 2] = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
    }

    if ((mask & HAS_Q) === 0) {
      out[o + POSE_Q] = constants[k + POSE_Q];
      out[o + POSE_Q + 1] = constants[k + POSE_Q + 1];
      out[o + POSE_Q + 2] = constants[k + POSE_Q + 2];
      out[o + POSE_Q + 3] = constants[k + POSE_Q + 3];
    } else {
      let r = table[entry++];
      if (records[r + Q4] <= ts) r += Q4;
      const u = t - records[r];
      const x = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      const y = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      const z = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
      const w = records[r + 13] + u * (records[r + 14] + u * (records[r + 15] + u * records[r + 16]));
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      out[o + POSE_Q] = x * inv;
      out[o + POSE_Q + 1] = y * inv;
      out[o + POSE_Q + 2] = z * inv;
      out[o + POSE_Q + 3] = w * inv;
    }

    if ((mask & (HAS_S | HAS_S1)) === 0) {
      out[o + POSE_S] = constants[k + POSE_S];
      out[o + POSE_S + 1] = constants[k + POSE_S + 1];
      out[o + POSE_S + 2] = constants[k + POSE_S + 2];
    } else if ((mask & HAS_S1) !== 0) {
      let r = table[entry];
      if (records[r + S1] <= ts) r += S1;
      const u = t - records[r];
      const scale = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_S] = scale;
      out[o + POSE_S + 1] = scale;
      out[o + POSE_S + 2] = scale;
    } else {
      let r = table[entry];
      if (records[r + T3] <= ts) r += T3;
      const u = t - records[r];
      out[o + POSE_S] = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_S + 1] = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      out[o + POSE_S + 2] = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
    }
    if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
  }
}

/**
 * {@link sampleReducedInto} for clips with 16-bit tracks (`tracks.packedTracks > 0`; it sends
 * them here): the same contract and lookup — one-frame buckets, one table read and at most one
 * comparison per track — except that the table's entries count 32-bit words of `packed` for a
 * 16-bit track (`packedTimes` / `packedPairs` indices; floats of `records` for a 32-bit track)
 * and are 16-bit when they fit. A 16-bit track (see `ReducedTracks`) is evaluated from its
 * codes as value = lo + step·(q_a + s·(q_b + s·(q_c + s·q_d))), s = (t − τ)·(1/Δ) (1/Δ as
 * stored), except that a rotation's four channels share lo = 0 and one step, which the
 * normalization cancels, so its codes are used as they are, in the form
 * (q_a + s·q_b) + s²·(q_c + s·q_d) (same operations as Horner, shorter dependency chains;
 * measured ~1% faster). The codes are read two per 32-bit load (`packedPairs`: the low half
 * sign-extended by `(v << 16) >> 16`, the high by `v >> 16`; a rotation keeps both scaled by
 * 2¹⁶, `v << 16` and `v & −65536`, which its normalization cancels), which measured
 * 1.55× → 1.47× uniform per joint against 16-bit reads. The rotation test comes first: in a
 * 16-bit clip nearly every joint has one. 32-bit tracks of such a clip are evaluated as in
 * `sampleReducedInto`. A separate function, so that clips without 16-bit tracks run that
 * kernel's code unchanged (measured: one kernel with both paths cost the 32-bit clips ~3% more
 * per joint).
 */
export function sampleReduced16Into(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  // Layout constants as locals, not imports: V8 reads an imported binding from its module cell
  // (with a TDZ check) at every use in the loop, which measured ~20% of this kernel's time (the
  // pose offsets POSE_T/Q/S are bound as module constants above, which V8 folds the same way).
  // They equal POSE_STRIDE, RECORD_STRIDE_3/4/1, PACKED_STRIDE_3/4 in 32-bit words (H3, H4:
  // records are indexed as packedTimes / packedPairs), TRACK_T/Q/S/S1 and TRACK_T16/Q16/S16
  // (a test checks).
  const STRIDE = 10, T3 = 13, Q4 = 17, S1 = 5, HAS_T = 1, HAS_Q = 2, HAS_S = 4, HAS_S1 = 8;
  const H3 = 8, H4 = 10, T16 = 16, Q16 = 32, S16 = 64;
  const tracks = clip.reduced;
  if (tracks === null) return;
  const records = tracks.records;
  const packedTimes = tracks.packedTimes;
  const pairs = tracks.packedPairs;
  const table = tracks.bucketRecords;
  const trackStart = tracks.trackStart;
  const constants = tracks.constants;
  const jointMask = tracks.jointMask;
  const jointTrack = tracks.jointTrack;
  const end = tracks.endTime;
  let t = times[timeIndex];
  if (!(t > 0)) t = 0; // negative or NaN: the start
  else if (t > end) t = end;
  // Key times are 32-bit floats: compare in that precision, so a time given exactly at a key
  // (as a double, e.g. f / frameRate) lands on that key's record.
  const ts = Math.fround(t);
  const row = ((ts * tracks.bucketScale) | 0) * tracks.animatedTracks;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const modes = binding === null ? null : binding.translationMode;
  const scales = binding === null ? null : binding.translationScale;
  const jointCount = sourceJoint === null ? tracks.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j];
    if (source < 0) {
      for (let c = 0, r = j * STRIDE; c < STRIDE; c++) out[o + c] = rest![r + c];
      continue;
    }
    const mask = jointMask[source];
    const k = source * STRIDE;
    const track = jointTrack[source];
    let entry = row + track;

    if ((mask & HAS_T) === 0) {
      out[o + POSE_T] = constants[k + POSE_T];
      out[o + POSE_T + 1] = constants[k + POSE_T + 1];
      out[o + POSE_T + 2] = constants[k + POSE_T + 2];
    } else if ((mask & T16) === 0) {
      let r = table[entry++];
      if (records[r + T3] <= ts) r += T3;
      const u = t - records[r];
      out[o + POSE_T] = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_T + 1] = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      out[o + POSE_T + 2] = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
    } else {
      let h = table[entry++]; // the record, in 32-bit words
      if (packedTimes[h + H3] <= ts) h += H3;
      const s = (t - packedTimes[h]) * packedTimes[h + 1];
      const g = (trackStart[track] >> 1) - 6; // the track's header: lo, step per channel
      // Two codes per 32-bit read (little-endian: the low half is the first slot).
      const v0 = pairs[h + 2], v1 = pairs[h + 3], v2 = pairs[h + 4], v3 = pairs[h + 5], v4 = pairs[h + 6], v5 = pairs[h + 7];
      out[o + POSE_T] = packedTimes[g] + packedTimes[g + 1] * (((v0 << 16) >> 16) + s * ((v0 >> 16) + s * (((v1 << 16) >> 16) + s * (v1 >> 16))));
      out[o + POSE_T + 1] = packedTimes[g + 2] + packedTimes[g + 3] * (((v2 << 16) >> 16) + s * ((v2 >> 16) + s * (((v3 << 16) >> 16) + s * (v3 >> 16))));
      out[o + POSE_T + 2] = packedTimes[g + 4] + packedTimes[g + 5] * (((v4 << 16) >> 16) + s * ((v4 >> 16) + s * (((v5 << 16) >> 16) + s * (v5 >> 16))));
    }

    if ((mask & Q16) !== 0) {
      let h = table[entry++]; // the record, in 32-bit words
      if (packedTimes[h + H4] <= ts) h += H4;
      const s = (t - packedTimes[h]) * packedTimes[h + 1];
      // The four share one step about 0, which the normalization cancels: codes as they are.
      // Two codes per 32-bit read, each kept scaled by 2¹⁶ (the normalization cancels it too):
      // v << 16 is the low half (the first slot, little-endian), v & -65536 the high one.
      const v0 = pairs[h + 2], v1 = pairs[h + 3], v2 = pairs[h + 4], v3 = pairs[h + 5];
      const v4 = pairs[h + 6], v5 = pairs[h + 7], v6 = pairs[h + 8], v7 = pairs[h + 9];
      const s2 = s * s;
      const x = (v0 << 16) + s * (v0 & -65536) + s2 * ((v1 << 16) + s * (v1 & -65536));
      const y = (v2 << 16) + s * (v2 & -65536) + s2 * ((v3 << 16) + s * (v3 & -65536));
      const z = (v4 << 16) + s * (v4 & -65536) + s2 * ((v5 << 16) + s * (v5 & -65536));
      const w = (v6 << 16) + s * (v6 & -65536) + s2 * ((v7 << 16) + s * (v7 & -65536));
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      out[o + POSE_Q] = x * inv;
      out[o + POSE_Q + 1] = y * inv;
      out[o + POSE_Q + 2] = z * inv;
      out[o + POSE_Q + 3] = w * inv;
    } else if ((mask & HAS_Q) === 0) {
      out[o + POSE_Q] = constants[k + POSE_Q];
      out[o + POSE_Q + 1] = constants[k + POSE_Q + 1];
      out[o + POSE_Q + 2] = constants[k + POSE_Q + 2];
      out[o + POSE_Q + 3] = constants[k + POSE_Q + 3];
    } else if ((mask & Q16) === 0) {
      let r = table[entry++];
      if (records[r + Q4] <= ts) r += Q4;
      const u = t - records[r];
      const x = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      const y = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      const z = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
      const w = records[r + 13] + u * (records[r + 14] + u * (records[r + 15] + u * records[r + 16]));
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      out[o + POSE_Q] = x * inv;
      out[o + POSE_Q + 1] = y * inv;
      out[o + POSE_Q + 2] = z * inv;
      out[o + POSE_Q + 3] = w * inv;
    }

    if ((mask & (HAS_S | HAS_S1)) === 0) {
      out[o + POSE_S] = constants[k + POSE_S];
      out[o + POSE_S + 1] = constants[k + POSE_S + 1];
      out[o + POSE_S + 2] = constants[k + POSE_S + 2];
    } else if ((mask & HAS_S1) !== 0) {
      let r = table[entry];
      if (records[r + S1] <= ts) r += S1;
      const u = t - records[r];
      const scale = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_S] = scale;
      out[o + POSE_S + 1] = scale;
      out[o + POSE_S + 2] = scale;
    } else if ((mask & S16) !== 0) {
      // Three scale curves (a uniform scale stays 32-bit): rare, out of line.
      const header = trackStart[jointTrack[source] + (mask & HAS_T) + ((mask & HAS_Q) >> 1)] >> 1;
      SCALE_TIME[0] = t;
      SCALE_TIME[1] = ts;
      sampleScale16(out, o, pairs, packedTimes, table[entry], header - 6, H3);
    } else {
      let r = table[entry];
      if (records[r + T3] <= ts) r += T3;
      const u = t - records[r];
      out[o + POSE_S] = records[r + 1] + u * (records[r + 2] + u * (records[r + 3] + u * records[r + 4]));
      out[o + POSE_S + 1] = records[r + 5] + u * (records[r + 6] + u * (records[r + 7] + u * records[r + 8]));
      out[o + POSE_S + 2] = records[r + 9] + u * (records[r + 10] + u * (records[r + 11] + u * records[r + 12]));
    }
    if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
  }
}

/** The sample's time and its float32 rounding, for {@link sampleScale16} (through an array: a double argument to a call V8 does not inline is boxed). */
const SCALE_TIME = new Float64Array(2);

/**
 * A 16-bit scale track of three curves (rare: animated, not uniform) at record word `h` (its
 * lookup entry; records `stride` words apart), its header (lo, step per channel) at
 * `packedTimes[g]`, codes read two at a time from `pairs` (`packedPairs`), at the time in
 * `SCALE_TIME`. See `ReducedTracks`.
 */
function sampleScale16(out: Float32Array, o: number, pairs: Int32Array, packedTimes: Float32Array, h: number, g: number, stride: number): void {
  const t = SCALE_TIME[0], ts = SCALE_TIME[1];
  if (packedTimes[h + stride] <= ts) h += stride;
  const s = (t - packedTimes[h]) * packedTimes[h + 1];
  for (let c = 0; c < 3; c++) {
    const v0 = pairs[h + 2 + 2 * c], v1 = pairs[h + 3 + 2 * c];
    out[o + POSE_S + c] = packedTimes[g + 2 * c] + packedTimes[g + 2 * c + 1] * (((v0 << 16) >> 16) + s * ((v0 >> 16) + s * (((v1 << 16) >> 16) + s * (v1 >> 16))));
  }
}
