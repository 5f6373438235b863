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
 * records are consecutive, in time order; tracks follow joint order, T before Q before S.
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
 * `bucketRecords[row × animatedTracks + i]` is the record of animated track i in force at the
 * start of bucket `row` — the last record whose
 * time is at or before the smallest 32-bit float time of that bucket, and never a track's last
 * record — so the record for a time in the bucket is that one or the next: one comparison
 * (`records[r + 1 + 4m] ≤ t`). Times compare as 32-bit floats (`Math.fround(t)`), as they
 * are stored; the cubic takes the full-precision u = t − τ_s.
 *
 * **Memory** (bytes): per union key of a track 4 + 16m (52 for T and S, 68 for Q, 20 for a
 * uniform S — 17 to 17.3 per channel key when a track's channels share their keys), plus
 * 4 × `bucketRows` (≈ one per frame for keys on frames) + 4 per animated track for the lookup,
 * plus 45 per joint (constants, `jointMask`, `jointTrack`). See {@link ReducedTracks.byteLength}.
 * A uniform clip takes 40 per joint per frame.
 */
import { POSE_STRIDE } from '../math/layout.js';
import { IssueList } from './AnimationError.js';
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
  /** Per joint, which of its tracks are animated: `TRACK_T | TRACK_Q | (TRACK_S or TRACK_S1)` bits. */
  readonly jointMask: Uint8Array;
  /**
   * Per joint, the index of its first animated track among all animated tracks (its tracks
   * follow in T, Q, S order), so a bound joint finds its lookup entries without a walk.
   */
  readonly jointTrack: Uint32Array;
  /** `jointCount × 10` floats: the value of each channel of a constant track (unit quaternions); 0 elsewhere. */
  readonly constants: Float32Array;
  /** Records of the animated tracks, track after track; see the file header. */
  readonly records: Float32Array;
  /** Number of animated tracks. */
  readonly animatedTracks: number;
  /** Per animated track, the offset of its first record in `records` (`animatedTracks + 1` entries). */
  readonly trackStart: Uint32Array;
  /** Equal time buckets over [0, duration]. */
  readonly bucketCount: number;
  /** Buckets per second (a hair under `bucketCount / duration`): time t is in row `⌊fround(t) × bucketScale⌋`. */
  readonly bucketScale: number;
  /** Rows of {@link bucketRecords} (`⌊endTime × bucketScale⌋ + 1`, so the end time has a row). */
  readonly bucketRows: number;
  /** `bucketRows × animatedTracks` record offsets, row-major: row b, track i at `b × animatedTracks + i`. */
  readonly bucketRecords: Uint32Array;
  /** Keys given, summed over channels (K + 1 per channel). */
  readonly keyCount: number;
  /** Records stored (union keys, summed over animated tracks). */
  readonly recordCount: number;
  /** Bytes of all the arrays above. */
  readonly byteLength: number;
}

/** One channel of the reducer's output (see the file header). Arrays are read, not kept. */
export interface ReducedChannel {
  /** Ascending key times, seconds: 0 first, the duration last; at least 2. */
  readonly keyTimes: NumberList;
  /** 4 per segment (`(keyTimes.length − 1) × 4`): a b c d of value = a + b·u + c·u² + d·u³. */
  readonly coefficients: NumberList;
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
 * need more than {@link MAX_BUCKETS} buckets.
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
    issues.add('jointCount', `is ${String(jointCount)}: must be an integer ≥ 1`);
    issues.throwIfAny();
  }
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
    issues.add('duration', `is ${String(duration)}: must be a finite number > 0 (a one-frame clip has nothing to reduce)`);
    issues.throwIfAny();
  }
  const channelCount = jointCount * POSE_STRIDE;
  if (!Array.isArray(channels) || channels.length !== channelCount) {
    issues.add('channels', `must be an array of jointCount × 10 = ${channelCount} channels, has ${Array.isArray(channels) ? channels.length : String(channels)}`);
    issues.throwIfAny();
  }

  // 1. Validate each channel; keep its key times as 32-bit floats (what is compared at run time).
  const endTime = Math.fround(duration);
  const times32: Float64Array[] = [];
  let keyCount = 0;
  for (let ch = 0; ch < channelCount && !issues.full; ch++) {
    const where = `channels[${ch}] (joint ${Math.floor(ch / POSE_STRIDE)} ${POSE_CHANNELS[ch % POSE_STRIDE]})`;
    times32.push(validateChannel(issues, where, channels[ch], duration, endTime));
    keyCount += times32[ch]!.length;
  }
  issues.throwIfAny();

  // 2. Classify tracks, collect constants and the union key times of animated tracks.
  const jointMask = new Uint8Array(jointCount);
  const jointTrack = new Uint32Array(jointCount);
  const constants = new Float32Array(channelCount);
  const unions: Float64Array[] = [];
  const unionChannels: number[] = []; // first channel of each animated track
  const trackChannels: number[] = []; // channels stored per record of each animated track: 3, 4 or 1
  for (let joint = 0; joint < jointCount; joint++) {
    jointTrack[joint] = unions.length;
    for (let track = 0; track < 3; track++) {
      const first = joint * POSE_STRIDE + TRACK_OFFSET[track];
      let m: number = TRACK_CHANNELS[track];
      let constant = true;
      for (let c = 0; c < m && constant; c++) constant = isConstant(channels[first + c]!.coefficients);
      if (constant) {
        storeConstants(issues, constants, channels, first, m, joint, track);
        continue;
      }
      let bit = 1 << track;
      if (track === 2 && sameCurve(channels[first]!, channels[first + 1]!) && sameCurve(channels[first]!, channels[first + 2]!)) {
        bit = TRACK_S1; // sx = sy = sz: one curve
        m = 1;
      }
      jointMask[joint] = jointMask[joint]! | bit;
      unionChannels.push(first);
      trackChannels.push(m);
      unions.push(unionTimes(times32, first, m));
    }
  }
  issues.throwIfAny();

  // 3. Records: each channel's cubic re-expanded about every union key of its track.
  const animatedTracks = unions.length;
  const trackStart = new Uint32Array(animatedTracks + 1);
  let recordFloats = 0;
  let recordCount = 0;
  for (let i = 0; i < animatedTracks; i++) {
    trackStart[i] = recordFloats;
    recordFloats += unions[i]!.length * (1 + 4 * trackChannels[i]!);
    recordCount += unions[i]!.length;
  }
  trackStart[animatedTracks] = recordFloats;
  const records = new Float32Array(recordFloats);
  for (let i = 0; i < animatedTracks; i++) {
    writeRecords(records, trackStart[i]!, unions[i]!, channels, times32, unionChannels[i]!, trackChannels[i]!);
  }
  for (let i = 0; i < recordFloats && !issues.full; i++) {
    if (!Number.isFinite(records[i]!)) {
      issues.add(`records[${i}]`, 'is not finite as a 32-bit float: a re-expanded coefficient overflowed (keys far apart with large coefficients)');
    }
  }
  issues.throwIfAny();

  // 4. The bucket lookup table.
  const table = buildLookup(issues, duration, endTime, unions, trackStart, trackChannels);
  issues.throwIfAny();

  const byteLength =
    jointMask.byteLength + jointTrack.byteLength + constants.byteLength + records.byteLength +
    trackStart.byteLength + table.bucketRecords.byteLength;
  return Object.freeze({
    jointCount,
    duration,
    endTime,
    jointMask,
    jointTrack,
    constants,
    records,
    animatedTracks,
    trackStart,
    bucketCount: table.bucketCount,
    bucketScale: table.bucketScale,
    bucketRows: table.bucketRows,
    bucketRecords: table.bucketRecords,
    keyCount,
    recordCount,
    byteLength,
  });
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
      issues.add(`${where}.keyTimes[${k}]`, `is ${String(t)}, not a finite number`);
      ok = false;
      continue;
    }
    out[k] = Math.fround(t);
    if (k > 0 && ok && !(t > (keyTimes[k - 1] as number))) {
      issues.add(`${where}.keyTimes[${k}]`, `is ${t}, not after keyTimes[${k - 1}] = ${keyTimes[k - 1]}: key times must increase`);
      ok = false;
    } else if (k > 0 && ok && !(out[k]! > out[k - 1]!)) {
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
        const what = typeof v === 'number' && Number.isFinite(v) ? `is ${v}, too large for a 32-bit float` : `is ${String(v)}, not a finite number`;
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
  for (let c = 0; c < m; c++) constants[first + c] = channels[first + c]!.coefficients[0]!;
  if (track !== 1) return;
  let len = 0;
  for (let c = 0; c < 4; c++) len += constants[first + c]! * constants[first + c]!;
  len = Math.sqrt(len);
  if (!(len >= ZERO_QUATERNION)) {
    issues.add(`channels[${first}..${first + 3}] (joint ${joint} q)`, 'are a constant zero quaternion: a rotation needs a unit quaternion');
    return;
  }
  for (let c = 0; c < 4; c++) constants[first + c] = constants[first + c]! / len;
}

/** The sorted union of the (32-bit) key times of channels `first .. first + m − 1`. */
function unionTimes(times32: readonly Float64Array[], first: number, m: number): Float64Array {
  const all: number[] = [];
  for (let c = 0; c < m; c++) for (const t of times32[first + c]!) all.push(t);
  all.sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of all) if (out.length === 0 || t > out[out.length - 1]!) out.push(t);
  return Float64Array.from(out);
}

/**
 * Writes the records of one track at `offset` (see the file header): for union key τ_s, each
 * channel's segment k is the last with (32-bit) t_k ≤ τ_s, and its cubic — about the given
 * (full precision) t_k — is re-expanded about τ_s. The last record holds the end values.
 */
function writeRecords(
  records: Float32Array, offset: number, union: Float64Array, channels: readonly ReducedChannel[],
  times32: readonly Float64Array[], first: number, m: number,
): void {
  const stride = 1 + 4 * m;
  const last = union.length - 1;
  for (let s = 0; s <= last; s++) {
    const tau = union[s]!;
    const r = offset + s * stride;
    records[r] = tau;
    for (let c = 0; c < m; c++) {
      const { keyTimes, coefficients } = channels[first + c]!;
      const t32 = times32[first + c]!;
      const segments = t32.length - 1;
      let k = 0;
      while (k + 1 < segments && t32[k + 1]! <= tau) k++;
      const o = 4 * k;
      const a = coefficients[o]!, b = coefficients[o + 1]!, cc = coefficients[o + 2]!, d = coefficients[o + 3]!;
      // The end record evaluates the last segment at its true end t_K − t_{K−1}.
      const h = s === last ? keyTimes[segments]! - keyTimes[k]! : tau - keyTimes[k]!;
      const q = r + 1 + 4 * c;
      records[q] = a + h * (b + h * (cc + h * d));
      if (s === last) continue; // b' = c' = d' = 0: the value holds at the end
      records[q + 1] = b + h * (2 * cc + 3 * d * h);
      records[q + 2] = cc + 3 * d * h;
      records[q + 3] = d;
    }
  }
}

/** Shared scratch for stepping between adjacent 32-bit floats (build time only). */
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The smallest non-negative 32-bit float x with ⌊x × scale⌋ ≥ row (0 for row 0). */
function rowStart(row: number, scale: number): number {
  if (row <= 0) return 0;
  F32[0] = row / scale;
  while (F32[0]! > 0 && Math.floor(F32[0]! * scale) >= row) U32[0] = U32[0]! - 1;
  while (Math.floor(F32[0]! * scale) < row) U32[0] = U32[0]! + 1;
  return F32[0]!;
}

interface Lookup {
  readonly bucketCount: number;
  readonly bucketScale: number;
  readonly bucketRows: number;
  readonly bucketRecords: Uint32Array;
}

/**
 * Builds the bucket table: starts from as many buckets as the smallest union-key gap allows
 * (`⌈duration / gap⌉`), checks exactly — over the 32-bit times each row covers — that no row
 * needs more than one step, and doubles the count when rounding makes one do so.
 */
function buildLookup(
  issues: IssueList, duration: number, endTime: number, unions: readonly Float64Array[], trackStart: Uint32Array, trackChannels: readonly number[],
): Lookup {
  const tracks = unions.length;
  let gap = duration;
  for (const union of unions) for (let s = 1; s < union.length; s++) gap = Math.min(gap, union[s]! - union[s - 1]!);
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
      const union = unions[i]!;
      const stride = 1 + 4 * trackChannels[i]!;
      const lastSegment = union.length - 2; // never the end record: it is reached by the step
      let s = 0;
      for (let row = 0; row < rows; row++) {
        const lo = starts[row]!;
        while (s < lastSegment && union[s + 1]! <= lo) s++;
        table[row * tracks + i] = trackStart[i]! + s * stride;
        // Times in this row lie in [lo, next row's start): the records after s that begin
        // before the next row are the steps some time of this row needs.
        let steps = 0;
        for (let q = s + 1; q < union.length && union[q]! < starts[row + 1]!; q++) steps++;
        if (steps > 1) fits = false;
      }
    }
    if (fits) return { bucketCount, bucketScale: scale, bucketRows: rows, bucketRecords: table };
    bucketCount *= 2;
  }
}
