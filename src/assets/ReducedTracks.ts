/**
 * The runtime form of a reduced (LOD) clip: piecewise cubic curves per channel, packed so that
 * sampling one instant costs one table read and at most one comparison per joint track.
 *
 * **Input (the reducer's contract).** Each of the `jointCount × 10` channels (joint j,
 * component c of `tx ty tz qx qy qz qw sx sy sz`, channel j·10 + c) is given as ascending key
 * times t_0 = 0 < … < t_K = duration (seconds) and, per segment k (from key k to key k + 1),
 * four coefficients with value(t) = a + b·u + c·u² + d·u³, u = t − t_k (seconds). Quaternion
 * channels are fitted per component on hemisphere-continuous samples; the sampler normalizes.
 *
 * **Packing.** The 10 channels of a joint form three tracks: translation (3 channels), rotation
 * (4) and scale (3). A track whose channels are all constant (every segment a constant, one
 * value) is stored as that value in {@link ReducedTracks.constants} and costs no search. Every
 * other track is *animated*: its key times are the union of its channels' key times, and at
 * each union key s it stores one record
 *
 *     [τ_s, a₀ b₀ c₀ d₀, a₁ b₁ c₁ d₁, …]   (1 + 4m floats, m = 3 or 4 channels)
 *
 * — or m = 1 for a uniform scale, whose three channels are the same curve (equal keys and
 * coefficients; `TRACK_S1`), so it is stored and evaluated once.
 * holding each channel's cubic re-expanded about τ_s: if τ_s lies in segment k of a channel,
 * P(u) = a + b·u + c·u² + d·u³ with h = τ_s − t_k becomes
 * a' = P(h), b' = P'(h) = b + 2c·h + 3d·h², c' = P''(h)/2 = c + 3d·h, d' = d (an exact shift of
 * the same polynomial, so the curve is unchanged). The last record of a track, at the
 * duration, holds each channel's end value P(t_K − t_{K−1}) with b' = c' = d' = 0. A track's
 * records are consecutive, in time order, followed by one 32-bit float +∞ (a sentinel time
 * that ends the lookup's forward scan); tracks follow joint order, T before Q before S.
 *
 * **Why tracks and not channels.** Measured on the crowd's 64-joint clips (bench/reducedSearch.ts),
 * a search per channel — binary search, a bucket index with a forward scan, or a cursor kept
 * per character — costs 3–5× the uniform sampler per joint: the search, not the cubic,
 * dominates. One search per track, then 4m contiguous coefficients, brings it near the uniform
 * sampler. The price is memory when a track's channels have different keys (a union key
 * repeats the other channels' cubics).
 *
 * **Segment lookup.** Time is cut into `bucketCount` equal buckets (width about
 * `duration / bucketCount`, no more than the smallest gap between consecutive union keys of any
 * track — one frame when keys lie on frames — so a bucket never holds two keys).
 * `bucketRecords[row × animatedTracks + i]` gives the record of animated track i in force at
 * the start of bucket `row` — the last record whose time is at or before the smallest 32-bit
 * float time of that bucket, and never a track's last record — so the record for a time in the
 * bucket is that one or the next: one comparison (`records[r + 1 + 4m] ≤ t`). An entry is the
 * record's offset r in `records`; in a clip with 16-bit tracks, for a 16-bit track its 32-bit
 * word in `packed` (an index of `packedTimes` / `packedPairs`), and such a clip's table is a
 * Uint16Array when every entry fits in 16 bits (records within 256 KB: the CMU walk at 5 mm
 * takes 167 KB), else a Uint32Array. The 16-bit table halves the lookup of a 16-bit clip at
 * one-frame buckets; before it, such clips took buckets two key gaps wide (also half the
 * table) and a scan of up to two steps, which cost their sampler ~0.05× uniform per joint
 * (medians of alternating runs of bench/reducedSampling.ts, CPU time: 1.43× → 1.40×, the same
 * as 32-bit clips). Entries relative to each track's start, in 16 bits for any clip, measured
 * 1.57–1.63× (an add of two loads on the path to the record). Times compare as 32-bit floats
 * (`Math.fround(t)`), as they are stored; the cubic takes the full-precision u = t − τ_s. A
 * track's records are followed by a +∞ time (from the scan of two steps; kept, 4 bytes a
 * track).
 *
 * **16-bit tracks.** A track whose channels all accept it (`ReducedChannel.quantization`) is
 * stored in `ReducedTracks.packed` instead, each record
 *
 *     [τ_s, 1/Δ_s (two 32-bit floats), q_a q_b q_c q_d per channel (signed 16-bit)]   (4 + 4m slots)
 *
 * with Δ_s = τ_{s+1} − τ_s and the channel's cubic written in s = (t − τ_s)/Δ_s ∈ [0, 1):
 * a + bΔ·s + cΔ²·s² + dΔ³·s³ ≈ lo + step·(q_a + q_b·s + q_c·s² + q_d·s³), q = round of
 * (a − lo, bΔ, cΔ², dΔ³) / step, lo the middle of the channel's values a and step its largest
 * |a − lo|, |bΔ|, |cΔ²|, |dΔ³| over the track / 32767. The track's records are preceded by a
 * header of 32-bit floats: lo and step per channel (2m floats), or for a rotation its one
 * step; `trackStart` points past it, at the first record. For s in [0, 1] the rounding moves the value by at most Σ|q·step − exact| of a
 * record, which is measured at build time against the channel's `quantization`. A rotation's
 * four channels share lo = 0 and one step: the sampler normalizes, so that common scale cancels
 * and it uses the codes as they are. The end record has 1/Δ = 0 (s = 0: the end value q_a). A
 * 16-bit track has its `jointMask` bit `TRACK_*16` set, and its `trackStart` and lookup
 * entries count slots of `packed`. A uniform scale stays 32-bit (20 bytes a record against 16
 * plus a header). The sampler reads a record's codes two at a time through
 * {@link ReducedTracks.packedPairs} (one 32-bit load and two shifts for two codes: fewer loads
 * and bounds checks than 16-bit reads; little-endian platforms only). Measured
 * (bench/reducedSampling.ts, crowd clips at 5 mm, medians of alternating rounds): 16-bit clips
 * sample as fast as 32-bit ones per joint (see docs/motion-lod.md, Memory), and `reduceClip`
 * stores them by default (`quantize: false` for 32 bits only): the CMU walk at 5 mm takes 0.57×
 * the bytes (215,275 against 378,771: 5.73× smaller than its 1,232,560 bytes of frames instead
 * of 3.25×).
 *
 * **Memory** (bytes): per union key of a 32-bit track 4 + 16m (52 for T and S, 68 for Q, 20
 * for a uniform S — 17 to 17.3 per channel key when a track's channels share their keys); of a
 * 16-bit track 8 + 8m (32 for T and S, 40 for Q; a uniform S stays 32-bit); plus, per
 * animated track, 4 × `bucketRows` for the lookup (≈ one row per frame for keys on frames; 2 ×
 * in a clip with 16-bit tracks whose entries fit), 4 for `trackStart` and 4 for the sentinel;
 * plus 45 per joint (constants, `jointMask`, `jointTrack`) and, per 16-bit track, a header of
 * 8m bytes (4 for a rotation). See {@link ReducedTracks.byteLength}. A uniform clip takes 40
 * per joint per frame. The CMU walk at 5 mm (31 joints, 994 frames, 24 animated tracks, 4,163
 * records): 32-bit 378,771 bytes (lookup 95,328, 25%), 16-bit 215,275 (lookup 47,664, 22%).
 */
import { POSE_STRIDE } from '../math/layout.js';
import { IssueList } from './AnimationError.js';
import { describeValue, shownValue, shownString } from './limits.js';
import { isNumberList } from './Skeleton.js';
import { POSE_CHANNELS, type NumberList } from './validatePose.js';

/** `jointMask` bit: the joint's translation is animated (else constant). */
export const TRACK_T = 1;
/** `jointMask` bit: the joint's rotation is animated. */
export const TRACK_Q = 2;
/** `jointMask` bit: the joint's scale is animated (three curves). */
export const TRACK_S = 4;
/** `jointMask` bit: the joint's scale is animated and uniform (sx = sy = sz, one curve stored). */
export const TRACK_S1 = 8;
/** Floats of one record of a translation or scale track: τ and 3 × (a b c d). */
export const RECORD_STRIDE_3 = 13;
/** Floats of one record of a rotation track: τ and 4 × (a b c d). */
export const RECORD_STRIDE_4 = 17;
/** Floats of one record of a uniform-scale track: τ and a b c d. */
export const RECORD_STRIDE_1 = 5;

/** `jointMask` bit: the joint's translation track is stored in 16 bits (`packed`). */
export const TRACK_T16 = 16;
/** `jointMask` bit: the joint's rotation track is stored in 16 bits. */
export const TRACK_Q16 = 32;
/** `jointMask` bit: the joint's scale track (three curves; a uniform scale stays 32-bit) is stored in 16 bits. */
export const TRACK_S16 = 64;
/** 16-bit slots of one `packed` record of a translation or scale track: τ, 1/Δ (2 slots each), 3 × P₀…P₃. */
export const PACKED_STRIDE_3 = 16;
/** 16-bit slots of one `packed` record of a rotation track: τ, 1/Δ, 4 × P₀…P₃. */
export const PACKED_STRIDE_4 = 20;

/** At most this many lookup buckets: keys closer than duration / 2²⁰ in one track are refused. */
export const MAX_BUCKETS = 1 << 20;

/**
 * A reduced clip's curves, packed for sampling (see the file header for the model and layout).
 * Immutable; built by {@link createReducedTracks}; sampled by `sampleReducedInto`.
 */
export interface ReducedTracks {
  /** Joints, in the skeleton's order. */
  readonly jointCount: number;
  /** Seconds, > 0: the last key time of every channel. */
  readonly duration: number;
  /** `Math.fround(duration)`: the last key time as stored; sampling clamps times to [0, endTime]. */
  readonly endTime: number;
  /**
   * Per joint, which of its tracks are animated: `TRACK_T | TRACK_Q | (TRACK_S or TRACK_S1)`
   * bits, and which of those are stored in 16 bits: `TRACK_T16 | TRACK_Q16 | TRACK_S16`.
   */
  readonly jointMask: Uint8Array;
  /**
   * Per joint, the index of its first animated track among all animated tracks (its tracks
   * follow in T, Q, S order), so a bound joint finds its lookup entries without a walk.
   */
  readonly jointTrack: Uint32Array;
  /** `jointCount × 10` floats: the value of each channel of a constant track (unit quaternions); 0 elsewhere. */
  readonly constants: Float32Array;
  /** Records of the animated 32-bit tracks, track after track; see the file header. */
  readonly records: Float32Array;
  /** Records of the 16-bit tracks, track after track (empty when there are none); see the file header. */
  readonly packed: Int16Array;
  /** The same memory as `packed` as 32-bit floats: τ of a record at slot r is `packedTimes[r >> 1]`, 1/Δ the next. */
  readonly packedTimes: Float32Array;
  /**
   * The same memory as `packed` as 32-bit integers: slots r and r + 1 (r even) are the low
   * and high halves of `packedPairs[r >> 1]` (little-endian), so the sampler reads two codes at
   * once (`(v << 16) >> 16`, `v >> 16`). Little-endian platforms only: on a big-endian one no
   * track is stored in 16 bits.
   */
  readonly packedPairs: Int32Array;
  /** Number of animated tracks. */
  readonly animatedTracks: number;
  /**
   * Per animated track, the offset of its first record in `records`, or for a 16-bit track its
   * first slot in `packed` (`animatedTracks + 1` entries: each track's records end with a
   * +∞ time, a float before where the next track of that buffer starts (its 16-bit header
   * first); entry `animatedTracks` is `records.length`).
   */
  readonly trackStart: Uint32Array;
  /** Equal time buckets over [0, duration]. */
  readonly bucketCount: number;
  /** Buckets per second (a hair under `bucketCount / duration`): time t is in row `⌊fround(t) × bucketScale⌋`. */
  readonly bucketScale: number;
  /** Rows of `bucketRecords` (`⌊endTime × bucketScale⌋ + 1`, so the end time has a row). */
  readonly bucketRows: number;
  /**
   * `bucketRows × animatedTracks` record offsets (in `records`, or 32-bit words of `packed` for
   * a 16-bit track), row-major: row b, track i at `b × animatedTracks + i`. A Uint16Array in a
   * clip with 16-bit tracks whose entries all fit, else a Uint32Array.
   */
  readonly bucketRecords: Uint32Array | Uint16Array;
  /** Keys given, summed over channels (K + 1 per channel). */
  readonly keyCount: number;
  /** Records stored (union keys, summed over animated tracks). */
  readonly recordCount: number;
  /** Tracks stored in 16 bits. */
  readonly packedTracks: number;
  /** Bytes of all the arrays above (`packed` and `packedTimes` share theirs, counted once). */
  readonly byteLength: number;
  /**
   * Set on a compressed clip (`compressClip`): its quantized samples, which the samplers read
   * instead of the curves (the curve arrays above are then empty). Absent otherwise.
   */
  readonly compressed?: import('./compressedTracks.js').CompressedTracks;
}

/** One channel of the reducer's output (see the file header). Arrays are read, not kept. */
export interface ReducedChannel {
  /** Ascending key times, seconds: 0 first, the duration last; at least 2. */
  readonly keyTimes: NumberList;
  /** 4 per segment (`(keyTimes.length − 1) × 4`): a b c d of value = a + b·u + c·u² + d·u³. */
  readonly coefficients: NumberList;
  /**
   * Largest error (the channel's units) this channel accepts from 16-bit storage; omitted or 0:
   * 32 bits. Its track is stored in 16 bits when every channel of it accepts the error its
   * quantization makes (measured on the control points, see the file header).
   */
  readonly quantization?: number;
}

/** Accepted |t_K − duration|, relative to max(1, duration): a few ulps of rounding in t = f / rate. */
const DURATION_TOLERANCE = 1e-9;
/** Below this length a constant rotation has no direction and is refused. */
const ZERO_QUATERNION = 1e-6;

/** Channel offset and count of each track of a joint: translation, rotation, scale. */
const TRACK_OFFSET = [0, 3, 7] as const;
const TRACK_CHANNELS = [3, 4, 3] as const;

/**
 * Validates the reducer's per-channel curves and packs them into {@link ReducedTracks}.
 *
 * `channels[j × 10 + c]` is component c (`tx ty tz qx qy qz qw sx sy sz`) of joint j. Key
 * times are stored as 32-bit floats (resolution ~6e-8 × t): consecutive keys must stay distinct
 * after that rounding.
 *
 * @throws AnimationError naming the channel (index, joint, component) and the key or
 * coefficient at fault: jointCount not a positive integer, duration not finite and > 0, not
 * `jointCount × 10` channels, fewer than 2 keys, a first key other than 0, times not finite or
 * not increasing (also after rounding to 32 bits), a last key other than the duration, a
 * coefficient count other than 4 × segments, non-finite coefficients or values too large for a
 * 32-bit float, a constant rotation of zero length, or keys so close that the lookup would
 * need more than `MAX_BUCKETS` buckets.
 * @example
 * // One joint at rest except tx = 2t on [0, 1] s (one linear segment per channel).
 * const still = (v: number) => ({ keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(v, 0, 0, 0) });
 * const channels = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1].map(still);
 * channels[0] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(0, 2, 0, 0) };
 * const tracks = createReducedTracks(1, 1, channels);
 */
export function createReducedTracks(jointCount: number, duration: number, channels: readonly ReducedChannel[]): ReducedTracks {
  const issues = new IssueList('createReducedTracks');
  if (!Number.isInteger(jointCount) || jointCount < 1) {
    issues.add('jointCount', `is ${shownValue(jointCount)}: must be an integer ≥ 1`);
    issues.throwIfAny();
  }
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
    issues.add('duration', `is ${shownValue(duration)}: must be a finite number > 0 (a one-frame clip has nothing to reduce)`);
    issues.throwIfAny();
  }
  const channelCount = jointCount * POSE_STRIDE;
  if (!Array.isArray(channels) || channels.length !== channelCount) {
    issues.add('channels', `must be an array of jointCount × 10 = ${channelCount} channels, has ${Array.isArray(channels) ? channels.length : describeValue(channels)}`);
    issues.throwIfAny();
  }

  // 1. Validate each channel; keep its key times as 32-bit floats (what is compared at run time).
  const endTime = Math.fround(duration);
  const times32: Float64Array[] = [];
  let keyCount = 0;
  for (let ch = 0; ch < channelCount && !issues.full; ch++) {
    const where = `channels[${ch}] (joint ${Math.floor(ch / POSE_STRIDE)} ${POSE_CHANNELS[ch % POSE_STRIDE]})`;
    times32.push(validateChannel(issues, where, channels[ch], duration, endTime));
    keyCount += times32[ch].length;
  }
  issues.throwIfAny();

  // 2. Classify tracks, collect constants and the union key times of animated tracks.
  const jointMask = new Uint8Array(jointCount);
  const jointTrack = new Uint32Array(jointCount);
  const constants = new Float32Array(channelCount);
  const unions: Float64Array[] = [];
  const unionChannels: number[] = []; // first channel of each animated track
  const trackChannels: number[] = []; // channels stored per record of each animated track: 3, 4 or 1
  const trackJoint: number[] = [];
  const trackKind: number[] = []; // 0 translation, 1 rotation, 2 scale
  for (let joint = 0; joint < jointCount; joint++) {
    jointTrack[joint] = unions.length;
    for (let track = 0; track < 3; track++) {
      const first = joint * POSE_STRIDE + TRACK_OFFSET[track];
      let m: number = TRACK_CHANNELS[track];
      let constant = true;
      for (let c = 0; c < m && constant; c++) constant = isConstant(channels[first + c].coefficients);
      if (constant) {
        storeConstants(issues, constants, channels, first, m, joint, track);
        continue;
      }
      let bit = 1 << track;
      if (track === 2 && sameCurve(channels[first], channels[first + 1]) && sameCurve(channels[first], channels[first + 2])) {
        bit = TRACK_S1; // sx = sy = sz: one curve
        m = 1;
      }
      jointMask[joint] = jointMask[joint] | bit;
      unionChannels.push(first);
      trackChannels.push(m);
      trackJoint.push(joint);
      trackKind.push(track);
      unions.push(unionTimes(times32, first, m));
    }
  }
  issues.throwIfAny();

  // 3. Records: each channel's cubic re-expanded about every union key of its track (float64);
  //    a track whose channels accept 16 bits goes to `packed`, the others to `records`.
  const animatedTracks = unions.length;
  const trackStart = new Uint32Array(animatedTracks + 1);
  const strides: number[] = [];
  const expanded: Float64Array[] = [];
  const quantized: (Int16Array | null)[] = [];
  let recordFloats = 0;
  let packedSlots = 0;
  let recordCount = 0;
  let packedTracks = 0;
  for (let i = 0; i < animatedTracks; i++) {
    const m = trackChannels[i];
    const e = expandRecords(unions[i], channels, times32, unionChannels[i], m);
    const q = quantizeTrack(e, unions[i], channels, unionChannels[i], m);
    expanded.push(e);
    quantized.push(q);
    recordCount += unions[i].length;
    if (q === null) {
      trackStart[i] = recordFloats;
      strides.push(1 + 4 * m);
      recordFloats += e.length + 1; // and the end sentinel
    } else {
      trackStart[i] = packedSlots + headerSlots(m); // past the track's header, at its first record
      strides.push(4 + 4 * m);
      packedSlots += q.length + 2; // and the end sentinel (one 32-bit float)
      packedTracks++;
      jointMask[trackJoint[i]] = jointMask[trackJoint[i]] | (TRACK_T16 << trackKind[i]);
    }
  }
  trackStart[animatedTracks] = recordFloats;
  const records = new Float32Array(recordFloats);
  const packedBuffer = new ArrayBuffer(2 * packedSlots);
  const packed = new Int16Array(packedBuffer);
  const packedTimes = new Float32Array(packedBuffer);
  const packedPairs = new Int32Array(packedBuffer);
  for (let i = 0; i < animatedTracks; i++) {
    const q = quantized[i];
    if (q === null || q === undefined) records.set(expanded[i], trackStart[i]);
    else packed.set(q, trackStart[i] - headerSlots(trackChannels[i]));
  }
  for (let i = 0; i < animatedTracks && !issues.full; i++) {
    if (quantized[i] !== null) continue;
    for (let f = trackStart[i], end = f + expanded[i].length; f < end; f++) {
      if (!Number.isFinite(records[f])) {
        issues.add(`records[${f}]`, 'is not finite as a 32-bit float: a re-expanded coefficient overflowed (keys far apart with large coefficients)');
        break;
      }
    }
  }
  issues.throwIfAny();
  // After each track's end record, a time of +∞: the lookup's forward scan stops there.
  for (let i = 0; i < animatedTracks; i++) {
    const q = quantized[i];
    if (q === null || q === undefined) records[trackStart[i] + expanded[i].length] = Infinity;
    else packedTimes[(trackStart[i] - headerSlots(trackChannels[i]) + q.length) >> 1] = Infinity;
  }

  // 4. The bucket lookup table: one-frame buckets (at most one step) in every clip. A clip with
  //    16-bit tracks counts its entries in 32-bit words of `packed` for those (floats of
  //    `records` for its 32-bit tracks) and stores them in 16 bits when they all fit.
  const table = buildLookup(issues, duration, endTime, unions, trackStart, strides);
  issues.throwIfAny();
  let bucketRecords: Uint32Array | Uint16Array = table.bucketRecords;
  if (packedTracks > 0) {
    let largest = 0;
    for (let e = 0; e < bucketRecords.length; e++) {
      if (quantized[e % animatedTracks] !== null) bucketRecords[e] = bucketRecords[e] >> 1;
      largest = Math.max(largest, bucketRecords[e]);
    }
    if (largest <= 0xffff) bucketRecords = Uint16Array.from(bucketRecords);
  }

  const byteLength =
    jointMask.byteLength + jointTrack.byteLength + constants.byteLength + records.byteLength + packedBuffer.byteLength +
    trackStart.byteLength + bucketRecords.byteLength;
  return Object.freeze({
    jointCount,
    duration,
    endTime,
    jointMask,
    jointTrack,
    constants,
    records,
    packed,
    packedTimes,
    packedPairs,
    animatedTracks,
    trackStart,
    bucketCount: table.bucketCount,
    bucketScale: table.bucketScale,
    bucketRows: table.bucketRows,
    bucketRecords,
    keyCount,
    recordCount,
    packedTracks,
    byteLength,
  });
}

/** One animated track of {@link ReducedTracks} as float64 cubics (see {@link readTrack}). */
export interface TrackCubics {
  /** Curves stored per record: 3 (translation, scale), 4 (rotation) or 1 (a uniform scale). */
  readonly channels: number;
  /** Record times τ_s, seconds (32-bit values), ascending; the last is `endTime`. */
  readonly times: Float64Array;
  /**
   * `times.length × channels × 4`: per record and curve, a b c d of a + b·u + c·u² + d·u³,
   * u = t − τ_s, on [τ_s, τ_{s+1}); the last record holds the end values (b = c = d = 0).
   */
  readonly coefficients: Float64Array;
}

/**
 * The curves `sampleReducedInto` evaluates for track `kind` (0 translation, 1 rotation,
 * 2 scale) of `joint`, in power form whichever way they are stored (32-bit records as they
 * are; a 16-bit track's Bernstein form converted: a = P₀, b = 3(P₁ − P₀)/Δ,
 * c = 3(P₀ − 2P₁ + P₂)/Δ², d = (P₃ − 3P₂ + 3P₁ − P₀)/Δ³ with 1/Δ as stored), or null for a
 * constant track (its value is in `constants`). For exporters and tools; allocates.
 */
export function readTrack(tracks: ReducedTracks, joint: number, kind: 0 | 1 | 2): TrackCubics | null {
  const mask = tracks.jointMask[joint];
  const animated = (bit: number): number => (mask & bit ? 1 : 0);
  if (kind === 0 && !animated(TRACK_T)) return null;
  if (kind === 1 && !animated(TRACK_Q)) return null;
  if (kind === 2 && !animated(TRACK_S | TRACK_S1)) return null;
  const track = tracks.jointTrack[joint] + (kind > 0 ? animated(TRACK_T) : 0) + (kind > 1 ? animated(TRACK_Q) : 0);
  const m = kind === 1 ? 4 : kind === 2 && mask & TRACK_S1 ? 1 : 3;
  const start = tracks.trackStart[track];
  const times: number[] = [];
  const coefficients: number[] = [];
  if ((mask & (TRACK_T16 << kind)) === 0) {
    const { records } = tracks;
    for (let r = start; ; r += 1 + 4 * m) {
      times.push(records[r]);
      for (let i = 1; i <= 4 * m; i++) coefficients.push(records[r + i]);
      if (records[r] === tracks.endTime) break;
    }
  } else {
    const { packed, packedTimes } = tracks;
    const header = (start - headerSlots(m)) >> 1; // lo, step per channel; a rotation: its step
    const first = joint * POSE_STRIDE + TRACK_OFFSET[kind];
    for (let r = start; ; r += 4 + 4 * m) {
      const tau = packedTimes[r >> 1], inv = packedTimes[(r >> 1) + 1];
      times.push(tau);
      for (let c = 0; c < m; c++) {
        const lo = m === 4 ? 0 : packedTimes[header + 2 * c], step = packedTimes[header + (m === 4 ? 0 : 2 * c + 1)];
        const q = r + 4 + 4 * c;
        coefficients.push(lo + step * packed[q], step * packed[q + 1] * inv, step * packed[q + 2] * inv * inv, step * packed[q + 3] * inv * inv * inv);
      }
      if (tau === tracks.endTime) break;
    }
  }
  return { channels: m, times: Float64Array.from(times), coefficients: Float64Array.from(coefficients) };
}

/**
 * Checks one channel; returns its key times rounded to 32 bits (the last one exactly `endTime`).
 * On a fault records it and returns what it has (the caller throws before using it).
 */
function validateChannel(issues: IssueList, where: string, channel: ReducedChannel | undefined, duration: number, endTime: number): Float64Array {
  const keyTimes = channel?.keyTimes;
  const coefficients = channel?.coefficients;
  if (!isNumberList(keyTimes) || !isNumberList(coefficients)) {
    issues.add(where, 'must be { keyTimes, coefficients } with arrays or typed arrays of numbers');
    return new Float64Array(0);
  }
  const keys = keyTimes.length;
  if (keys < 2) {
    issues.add(`${where}.keyTimes`, `has ${keys} keys: a channel needs at least 2 (0 and the duration ${duration})`);
    return new Float64Array(0);
  }
  const out = new Float64Array(keys);
  let ok = true;
  for (let k = 0; k < keys; k++) {
    const t = keyTimes[k] as number;
    if (typeof t !== 'number' || !Number.isFinite(t)) {
      issues.add(`${where}.keyTimes[${k}]`, `is ${shownString(t)}, not a finite number`);
      ok = false;
      continue;
    }
    out[k] = Math.fround(t);
    if (k > 0 && ok && !(t > (keyTimes[k - 1] as number))) {
      issues.add(`${where}.keyTimes[${k}]`, `is ${t}, not after keyTimes[${k - 1}] = ${keyTimes[k - 1]}: key times must increase`);
      ok = false;
    } else if (k > 0 && ok && !(out[k] > out[k - 1])) {
      issues.add(`${where}.keyTimes[${k}]`, `is ${t}, which rounds to the same 32-bit float time as keyTimes[${k - 1}] = ${keyTimes[k - 1]}: keys must be further apart`);
      ok = false;
    }
  }
  if (ok && keyTimes[0] !== 0) issues.add(`${where}.keyTimes[0]`, `is ${keyTimes[0]}: the first key must be at 0`);
  const last = keyTimes[keys - 1] as number;
  if (ok && Math.abs(last - duration) > DURATION_TOLERANCE * Math.max(1, duration)) {
    issues.add(`${where}.keyTimes[${keys - 1}]`, `is ${last}: the last key must be at the duration ${duration}`);
  }
  out[keys - 1] = endTime;
  if (coefficients.length !== 4 * (keys - 1)) {
    issues.add(`${where}.coefficients`, `has ${coefficients.length} numbers: must be 4 per segment, 4 × ${keys - 1} = ${4 * (keys - 1)}`);
  } else {
    for (let i = 0; i < coefficients.length; i++) {
      const v = coefficients[i] as number;
      if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isFinite(Math.fround(v))) {
        const what = typeof v === 'number' && Number.isFinite(v) ? `is ${v}, too large for a 32-bit float` : `is ${shownString(v)}, not a finite number`;
        if (!issues.add(`${where}.coefficients[${i}] (segment ${i >> 2} ${'abcd'[i & 3]})`, what)) break;
      }
    }
  }
  return out;
}

/** Whether two channels are the same curve: equal key times and coefficients. */
function sameCurve(a: ReducedChannel, b: ReducedChannel): boolean {
  if (a.keyTimes.length !== b.keyTimes.length || a.coefficients.length !== b.coefficients.length) return false;
  for (let k = 0; k < a.keyTimes.length; k++) if (a.keyTimes[k] !== b.keyTimes[k]) return false;
  for (let i = 0; i < a.coefficients.length; i++) if (a.coefficients[i] !== b.coefficients[i]) return false;
  return true;
}

/** Whether every segment is the constant of the first (b = c = d = 0, same a). */
function isConstant(coefficients: NumberList): boolean {
  const a = coefficients[0];
  for (let i = 0; i < coefficients.length; i += 4) {
    if (coefficients[i] !== a || coefficients[i + 1] !== 0 || coefficients[i + 2] !== 0 || coefficients[i + 3] !== 0) return false;
  }
  return true;
}

/** Writes a constant track's values; a rotation is normalized (and refused if of zero length). */
function storeConstants(
  issues: IssueList, constants: Float32Array, channels: readonly ReducedChannel[], first: number, m: number, joint: number, track: number,
): void {
  for (let c = 0; c < m; c++) constants[first + c] = channels[first + c].coefficients[0];
  if (track !== 1) return;
  let len = 0;
  for (let c = 0; c < 4; c++) len += constants[first + c] * constants[first + c];
  len = Math.sqrt(len);
  if (!(len >= ZERO_QUATERNION)) {
    issues.add(`channels[${first}..${first + 3}] (joint ${joint} q)`, 'are a constant zero quaternion: a rotation needs a unit quaternion');
    return;
  }
  for (let c = 0; c < 4; c++) constants[first + c] = constants[first + c] / len;
}

/** The sorted union of the (32-bit) key times of channels `first .. first + m − 1`. */
function unionTimes(times32: readonly Float64Array[], first: number, m: number): Float64Array {
  const all: number[] = [];
  for (let c = 0; c < m; c++) for (const t of times32[first + c]) all.push(t);
  all.sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of all) if (out.length === 0 || t > out[out.length - 1]) out.push(t);
  return Float64Array.from(out);
}

/**
 * The records of one track (see the file header) in float64, `union.length × (1 + 4m)`: for
 * union key τ_s, each channel's segment k is the last with (32-bit) t_k ≤ τ_s, and its cubic —
 * about the given (full precision) t_k — is re-expanded about τ_s. The last record holds the
 * end values. Stored as 32-bit floats these are the `records` (rounded once, here to there).
 */
function expandRecords(
  union: Float64Array, channels: readonly ReducedChannel[], times32: readonly Float64Array[], first: number, m: number,
): Float64Array {
  const stride = 1 + 4 * m;
  const last = union.length - 1;
  const records = new Float64Array(union.length * stride);
  for (let s = 0; s <= last; s++) {
    const tau = union[s];
    const r = s * stride;
    records[r] = tau;
    for (let c = 0; c < m; c++) {
      const { keyTimes, coefficients } = channels[first + c];
      const t32 = times32[first + c];
      const segments = t32.length - 1;
      let k = 0;
      while (k + 1 < segments && t32[k + 1] <= tau) k++;
      const o = 4 * k;
      const a = coefficients[o], b = coefficients[o + 1], cc = coefficients[o + 2], d = coefficients[o + 3];
      // The end record evaluates the last segment at its true end t_K − t_{K−1}.
      const h = s === last ? keyTimes[segments] - keyTimes[k] : tau - keyTimes[k];
      const q = r + 1 + 4 * c;
      records[q] = a + h * (b + h * (cc + h * d));
      if (s === last) continue; // b' = c' = d' = 0: the value holds at the end
      records[q + 1] = b + h * (2 * cc + 3 * d * h);
      records[q + 2] = cc + 3 * d * h;
      records[q + 3] = d;
    }
  }
  return records;
}

/** Largest 16-bit code magnitude (codes are signed, −32767 … 32767). */
const Q16 = 32767;

/**
 * Whether this platform stores typed arrays little-endian (every platform V8 runs on today but
 * s390x and big-endian PowerPC): the sampler reads two 16-bit codes through one 32-bit read
 * ({@link ReducedTracks.packedPairs}), which assumes it, so elsewhere every track stays 32-bit.
 */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * One track's 16-bit records (see the file header) from its float64 `records`, or null when
 * a channel does not accept the error, or for a uniform scale: the smallest `quantization` of
 * the track's channels against the largest Σ|coefficient rounding| of a record (the
 * most the rounding can move the value for s in [0, 1]). The result starts with the track's
 * header ({@link headerSlots}), then its records.
 */
function quantizeTrack(
  records: Float64Array, union: Float64Array, channels: readonly ReducedChannel[], first: number, m: number,
): Int16Array | null {
  // A uniform scale's 32-bit record is 20 bytes, a 16-bit one 16 plus its header: not worth it.
  if (m === 1 || !LITTLE_ENDIAN) return null;
  let budget = Infinity;
  for (let c = 0; c < m; c++) {
    const q = channels[first + c].quantization;
    if (typeof q !== 'number' || !(q > 0)) return null;
    budget = Math.min(budget, q);
  }
  const stride = 1 + 4 * m;
  const keys = union.length;
  const last = keys - 1;
  // Per record and channel the cubic in s = u / Δ: a, bΔ, cΔ², dΔ³.
  const scaled = new Float64Array(keys * 4 * m);
  for (let s = 0; s < keys; s++) {
    const delta = s === last ? 0 : union[s + 1] - union[s];
    for (let c = 0; c < m; c++) {
      const r = s * stride + 1 + 4 * c;
      const p = (s * m + c) * 4;
      scaled[p] = records[r];
      scaled[p + 1] = records[r + 1] * delta;
      scaled[p + 2] = records[r + 2] * delta * delta;
      scaled[p + 3] = records[r + 3] * delta * delta * delta;
    }
  }
  // Per channel: lo, the middle of its values a, and one step for a − lo and the other three.
  // A rotation's four channels share lo = 0 and one step: the sampler normalizes, so that
  // common scale cancels and it uses the codes as they are.
  const lo = new Float64Array(m), step = new Float64Array(m);
  let shared = 0;
  for (let c = 0; c < m; c++) {
    let min = Infinity, max = -Infinity;
    for (let s = 0; s < keys; s++) {
      const a = scaled[(s * m + c) * 4];
      if (a < min) min = a;
      if (a > max) max = a;
    }
    lo[c] = m === 4 ? 0 : Math.fround((min + max) / 2);
    let largest = 0;
    for (let s = 0; s < keys; s++) {
      const p = (s * m + c) * 4;
      largest = Math.max(largest, Math.abs(scaled[p] - lo[c]), Math.abs(scaled[p + 1]), Math.abs(scaled[p + 2]), Math.abs(scaled[p + 3]));
    }
    step[c] = largest;
    shared = Math.max(shared, largest);
  }
  for (let c = 0; c < m; c++) {
    step[c] = Math.fround(((m === 4 ? shared : step[c]) / Q16) * (1 + 2 ** -20));
    if (!Number.isFinite(lo[c]) || !Number.isFinite(step[c])) return null;
  }
  const slots = 4 + 4 * m;
  const head = headerSlots(m);
  const out = new Int16Array(head + keys * slots);
  const times = new Float32Array(out.buffer);
  for (let s = 0; s < keys; s++) {
    const o = head + s * slots;
    times[o >> 1] = union[s];
    times[(o >> 1) + 1] = s === last ? 0 : 1 / (union[s + 1] - union[s]);
    for (let c = 0; c < m; c++) {
      let error = 0;
      for (let i = 0; i < 4; i++) {
        const v = scaled[(s * m + c) * 4 + i] - (i === 0 ? lo[c] : 0);
        const code = step[c] > 0 ? Math.min(Q16, Math.max(-Q16, Math.round(v / step[c]))) : 0;
        error += Math.abs(step[c] * code - v);
        out[o + 4 + 4 * c + i] = code;
      }
      // The value moves by at most the sum of the roundings (|s| ≤ 1); a rotation's share of
      // scale is the common step, whose value units are those of its components.
      if (!(error <= budget)) return null;
    }
  }
  if (m === 4) times[0] = step[0];
  else for (let c = 0; c < m; c++) {
    times[2 * c] = lo[c];
    times[2 * c + 1] = step[c];
  }
  return out;
}

/** 16-bit slots of a 16-bit track's header: lo and step per channel as 32-bit floats, a rotation's one step. */
function headerSlots(m: number): number {
  return m === 4 ? 2 : 4 * m;
}

/** Shared scratch for stepping between adjacent 32-bit floats (build time only). */
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The smallest non-negative 32-bit float x with ⌊x × scale⌋ ≥ row (0 for row 0). */
function rowStart(row: number, scale: number): number {
  if (row <= 0) return 0;
  F32[0] = row / scale;
  while (F32[0] > 0 && Math.floor(F32[0] * scale) >= row) U32[0] = U32[0] - 1;
  while (Math.floor(F32[0] * scale) < row) U32[0] = U32[0] + 1;
  return F32[0];
}

interface Lookup {
  readonly bucketCount: number;
  readonly bucketScale: number;
  readonly bucketRows: number;
  readonly bucketRecords: Uint32Array | Uint16Array;
}

/**
 * Builds the bucket table (entries in `records` floats or `packed` slots): starts from as many
 * buckets as the smallest union-key gap allows (`⌈duration / gap⌉`), checks exactly — over the
 * 32-bit times each row covers — that no row needs more than one step, and doubles the count
 * when rounding makes one do so.
 */
function buildLookup(
  issues: IssueList, duration: number, endTime: number, unions: readonly Float64Array[], trackStart: Uint32Array, strides: readonly number[],
): Lookup {
  const tracks = unions.length;
  let gap = duration;
  for (const union of unions) for (let s = 1; s < union.length; s++) gap = Math.min(gap, union[s] - union[s - 1]);
  // The gap is a difference of 32-bit times, off by up to ~1e-7 s: keys on a grid of n equal
  // intervals give duration / gap within ~1e-4·n of n, which must count as n buckets, not n + 1.
  const ratio = duration / gap;
  let bucketCount = Math.max(1, Math.abs(ratio - Math.round(ratio)) <= 1e-4 * ratio ? Math.round(ratio) : Math.ceil(ratio));
  for (;;) {
    if (bucketCount > MAX_BUCKETS) {
      issues.add('channels', `have keys ${gap} s apart in one track: the lookup would need more than ${MAX_BUCKETS} buckets over ${duration} s`);
      return { bucketCount: 0, bucketScale: 0, bucketRows: 0, bucketRecords: new Uint32Array(0) };
    }
    // A hair fewer buckets per second than bucketCount / duration: with keys on a frame grid
    // (gap = one frame) each row then starts just after its key rather than just before it,
    // whatever the 32-bit rounding of the key times (~6e-8 relative), so almost no time of a
    // row needs the step and the branch is predictable. Correctness does not depend on it.
    const scale = (bucketCount / duration) * (1 - 2 ** -20);
    const rows = Math.floor(endTime * scale) + 1;
    const starts = new Float64Array(rows + 1);
    for (let row = 0; row < rows; row++) starts[row] = rowStart(row, scale);
    starts[rows] = Infinity;
    const table = new Uint32Array(rows * tracks);
    let fits = true;
    for (let i = 0; i < tracks && fits; i++) {
      const union = unions[i];
      const stride = strides[i];
      const lastSegment = union.length - 2; // never the end record: it is reached by the step
      let s = 0;
      for (let row = 0; row < rows; row++) {
        const lo = starts[row];
        while (s < lastSegment && union[s + 1] <= lo) s++;
        table[row * tracks + i] = trackStart[i] + s * stride;
        // Times in this row lie in [lo, next row's start): the records after s that begin
        // before the next row are the steps some time of this row needs.
        let steps = 0;
        for (let q = s + 1; q < union.length && union[q] < starts[row + 1]; q++) steps++;
        if (steps > 1) fits = false;
      }
    }
    if (fits) return { bucketCount, bucketScale: scale, bucketRows: rows, bucketRecords: table };
    bucketCount *= 2;
  }
}
