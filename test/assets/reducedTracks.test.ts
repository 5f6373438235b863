import { describe, expect, it } from 'vitest';
import { createClip, createSkeleton } from '../../src/index.js';
import { createReducedClip, expandFrames } from '../../src/assets/reducedClip.js';
import { isClip } from '../../src/assets/Clip.js';
import { readFileSync } from 'node:fs';
import {
  createReducedTracks, PACKED_STRIDE_3, PACKED_STRIDE_4, readTrack, RECORD_STRIDE_1, RECORD_STRIDE_3, RECORD_STRIDE_4,
  TRACK_Q, TRACK_Q16, TRACK_S, TRACK_S1, TRACK_S16, TRACK_T, TRACK_T16, type ReducedChannel,
} from '../../src/assets/ReducedTracks.js';
import { sampleReducedInto } from '../../src/assets/sampleReduced.js';
import { decimateChannels } from '../fixtures/decimate.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

/** A channel holding `value` over [0, duration]. */
const still = (value: number, duration = 1): ReducedChannel => ({ keyTimes: Float64Array.of(0, duration), coefficients: Float64Array.of(value, 0, 0, 0) });
/** One joint at rest (identity rotation, unit scale, origin). */
const restJoint = (duration = 1): ReducedChannel[] => [0, 0, 0, 0, 0, 0, 1, 1, 1, 1].map((v) => still(v, duration));

describe('createReducedTracks: validation', () => {
  it('accepts a well-formed channel set', () => {
    const tracks = createReducedTracks(1, 1, restJoint());
    expect(tracks.jointCount).toBe(1);
    expect(tracks.keyCount).toBe(20);
  });

  it('refuses a joint count, duration or channel count that cannot be', () => {
    expect(refused(() => createReducedTracks(0, 1, [])).issues[0]!.path).toBe('jointCount');
    expect(refused(() => createReducedTracks(1.5, 1, restJoint())).issues[0]!.path).toBe('jointCount');
    for (const duration of [0, -1, Number.NaN, Infinity]) {
      expect(refused(() => createReducedTracks(1, duration, restJoint())).issues[0]!.path).toBe('duration');
    }
    const error = refused(() => createReducedTracks(2, 1, restJoint()));
    expect(error.issues[0]!.path).toBe('channels');
    expect(error.message).toContain('20 channels, has 10');
  });

  it('names the channel, joint, component and key of each fault', () => {
    const channels = [...restJoint(), ...restJoint()];
    channels[0] = { keyTimes: Float64Array.of(0.1, 1), coefficients: Float64Array.of(0, 0, 0, 0) }; // first key not 0
    channels[4] = { keyTimes: Float64Array.of(0, 0.6, 0.5, 1), coefficients: new Float64Array(12) }; // not increasing
    channels[8] = { keyTimes: Float64Array.of(0, 0.9), coefficients: Float64Array.of(1, 0, 0, 0) }; // last ≠ duration
    channels[11] = { keyTimes: Float64Array.of(0, 0.5, 1), coefficients: Float64Array.of(0, 0, 0, 0) }; // 4 of 8 coefficients
    channels[12] = { keyTimes: Float64Array.of(0, Number.NaN, 1), coefficients: new Float64Array(8) };
    channels[15] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(0, Number.NaN, 0, 1e39) };
    channels[17] = { keyTimes: Float64Array.of(0), coefficients: new Float64Array(0) };
    channels[19] = { keyTimes: Float64Array.of(0, 0.5, 0.5 + 1e-12, 1), coefficients: new Float64Array(12) }; // same float32 time
    const issues = refused(() => createReducedTracks(2, 1, channels)).issues;
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual([
      'channels[0] (joint 0 tx).keyTimes[0]',
      'channels[4] (joint 0 qy).keyTimes[2]',
      'channels[8] (joint 0 sy).keyTimes[1]',
      'channels[11] (joint 1 ty).coefficients',
      'channels[12] (joint 1 tz).keyTimes[1]',
      'channels[15] (joint 1 qz).coefficients[1] (segment 0 b)',
      'channels[15] (joint 1 qz).coefficients[3] (segment 0 d)',
      'channels[17] (joint 1 sx).keyTimes',
      'channels[19] (joint 1 sz).keyTimes[2]',
    ]);
    expect(issues[2]!.message).toContain('must be at the duration 1');
    expect(issues[3]!.message).toContain('4 × 2 = 8');
    expect(issues[6]!.message).toContain('too large for a 32-bit float');
    expect(issues[8]!.message).toContain('same 32-bit float time');
  });

  it('accepts a last key within rounding of the duration', () => {
    const duration = 29 / 30;
    const channels = restJoint(duration);
    channels[0] = { keyTimes: Float64Array.of(0, 29 * (1 / 30)), coefficients: Float64Array.of(0, 1, 0, 0) }; // 29 × (1/30) ≠ 29 / 30 by an ulp
    expect(createReducedTracks(1, duration, channels).endTime).toBe(Math.fround(duration));
  });

  it('refuses a constant zero rotation and non-channel input', () => {
    const channels = restJoint();
    channels[6] = still(0);
    expect(refused(() => createReducedTracks(1, 1, channels)).issues[0]!.path).toBe('channels[3..6] (joint 0 q)');
    const broken = restJoint() as unknown[];
    broken[2] = { keyTimes: 'soon' };
    expect(refused(() => createReducedTracks(1, 1, broken as ReducedChannel[])).issues[0]!.path).toBe('channels[2] (joint 0 tz)');
  });
});

describe('createReducedTracks: packing', () => {
  it('stores constant tracks as values (a constant rotation normalized) and animated ones as records', () => {
    const channels = restJoint();
    channels[0] = { keyTimes: Float64Array.of(0, 0.5, 1), coefficients: Float64Array.of(0, 1, 0, 0, 0.5, 1, 0, 0) }; // tx = t
    for (let c = 3; c < 7; c++) channels[c] = still(c === 6 ? 2 : 0); // q = (0, 0, 0, 2): constant, normalized to identity
    const tracks = createReducedTracks(1, 1, channels);
    expect(tracks.jointMask[0]).toBe(TRACK_T);
    expect(Array.from(tracks.constants.subarray(3, 10))).toEqual([0, 0, 0, 1, 1, 1, 1]);
    expect(tracks.animatedTracks).toBe(1);
    // Union of tx {0, .5, 1}, ty {0, 1}, tz {0, 1}: 3 records of 13 floats, then the end sentinel +∞.
    expect(tracks.recordCount).toBe(3);
    expect(tracks.records.length).toBe(3 * RECORD_STRIDE_3 + 1);
    expect(tracks.records[3 * RECORD_STRIDE_3]).toBe(Infinity);
    expect(Array.from(tracks.records.subarray(0, RECORD_STRIDE_3))).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // The end record: τ = 1 and the end values with b = c = d = 0.
    expect(Array.from(tracks.records.subarray(2 * RECORD_STRIDE_3, 3 * RECORD_STRIDE_3))).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(tracks.byteLength).toBe(
      tracks.jointMask.byteLength + tracks.jointTrack.byteLength + tracks.constants.byteLength + tracks.records.byteLength +
        tracks.trackStart.byteLength + tracks.bucketRecords.byteLength,
    );
  });

  it('re-expands each channel about the union keys of its track (the curve is unchanged)', () => {
    // qz: one cubic 1 + 2t − 3t² + 4t³ over [0, 1]; qw has a key at 0.25, so qz is re-expanded there:
    // a' = P(.25) = 1 + .5 − .1875 + .0625 = 1.375, b' = P'(.25) = 2 − 1.5 + 0.75 = 1.25,
    // c' = −3 + 3·4·.25 = 0, d' = 4.
    const channels = restJoint();
    channels[5] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, 2, -3, 4) };
    channels[6] = { keyTimes: Float64Array.of(0, 0.25, 1), coefficients: Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0) };
    const tracks = createReducedTracks(1, 1, channels);
    expect(tracks.jointMask[0]).toBe(TRACK_Q);
    const r = RECORD_STRIDE_4; // second record
    expect(tracks.records[r]).toBe(0.25);
    expect(Array.from(tracks.records.subarray(r + 9, r + 13))).toEqual([1.375, 1.25, 0, 4]);
    expect(tracks.records[2 * r + 9]).toBe(4); // end value P(1) = 1 + 2 − 3 + 4
  });

  it('finds every record with one table read and at most one step', () => {
    // Keys that differ per channel (strides 2, 3, 4), as a reducer's may.
    const skeleton = syntheticSkeleton(6);
    const clip = syntheticClip(skeleton, { frameCount: 37, frameRate: 24 });
    const tracks = createReducedTracks(6, clip.duration, decimateChannels(clip, (ch) => 2 + (ch % 3)));
    const { records, bucketRecords, trackStart, animatedTracks, bucketScale, endTime } = tracks;
    expect(animatedTracks).toBeGreaterThan(6);
    const strides: number[] = []; // per animated track, in storage order (joint, then T Q S)
    for (let j = 0; j < 6; j++) {
      for (const [bit, stride] of [[TRACK_T, RECORD_STRIDE_3], [TRACK_Q, RECORD_STRIDE_4], [TRACK_S, RECORD_STRIDE_3]] as const) {
        if ((tracks.jointMask[j]! & bit) !== 0) strides.push(stride);
      }
    }
    expect(strides.length).toBe(animatedTracks);
    let stepped = 0, samples = 0, wrong = 0;
    for (let n = 0; n <= 20000; n++) {
      const ts = Math.fround((n / 20000) * endTime);
      const row = Math.floor(ts * bucketScale);
      for (let i = 0; i < animatedTracks; i++) {
        const stride = strides[i]!;
        // The record in force: the last one with τ ≤ ts, by a linear walk.
        let want = trackStart[i]!;
        while (want + stride < trackStart[i + 1]! && records[want + stride]! <= ts) want += stride;
        let r = bucketRecords[row * animatedTracks + i]!;
        if (r < trackStart[i]!) wrong++;
        if (records[r + stride]! <= ts) { r += stride; stepped++; }
        if (r !== want) wrong++;
        samples++;
      }
    }
    expect(wrong).toBe(0);
    // Keys on the frame grid sit at the start of their bucket: the step is rare.
    expect(stepped / samples).toBeLessThan(0.01);
  });

  it('with 16-bit tracks, one-frame buckets whose entries count 32-bit words, in 16 bits: every record within one step of its entry', () => {
    // Keys on every frame for some channels (the finest gap: one frame), every 2–4 for others.
    const skeleton = syntheticSkeleton(6);
    const frameCount = 37;
    const clip = syntheticClip(skeleton, { frameCount, frameRate: 24 });
    // The root's translation without a quantization stays 32-bit: both kinds of entry.
    const channels = decimateChannels(clip, (ch) => 1 + (ch % 4)).map((c, ch) => ({ ...c, quantization: ch < 3 ? 0 : 1 }));
    const tracks = createReducedTracks(6, clip.duration, channels);
    const { records, packedTimes, bucketRecords, trackStart, animatedTracks, bucketScale, endTime } = tracks;
    expect(tracks.packedTracks).toBe(animatedTracks - 1);
    expect(tracks.jointMask[0]! & (TRACK_T | TRACK_T16)).toBe(TRACK_T);
    // 36 frame intervals: 36 buckets, as for 32-bit tracks only; the entries fit in 16 bits.
    expect(tracks.bucketCount).toBe(36);
    expect(tracks.bucketRows).toBe(36);
    expect(bucketRecords).toBeInstanceOf(Uint16Array);
    const wide = createReducedTracks(6, clip.duration, decimateChannels(clip, (ch) => 1 + (ch % 4)));
    expect(wide.bucketRows).toBe(36);
    expect(wide.bucketRecords).toBeInstanceOf(Uint32Array);
    // Per animated track: its stride and where its times are, in the entry's units (a 16-bit
    // track's entries count 32-bit words of packed, its trackStart slots).
    const kinds: { stride: number; first: number; time: (r: number) => number }[] = [];
    for (let j = 0; j < 6; j++) {
      const mask = tracks.jointMask[j]!;
      for (const [bit, bit16, stride, stride16] of [
        [TRACK_T, TRACK_T16, RECORD_STRIDE_3, PACKED_STRIDE_3], [TRACK_Q, TRACK_Q16, RECORD_STRIDE_4, PACKED_STRIDE_4],
        [TRACK_S, TRACK_S16, RECORD_STRIDE_3, PACKED_STRIDE_3], [TRACK_S1, 0, RECORD_STRIDE_1, 0],
      ] as const) {
        if ((mask & bit) === 0) continue;
        const i = kinds.length;
        kinds.push((mask & bit16) !== 0
          ? { stride: stride16 / 2, first: trackStart[i]! / 2, time: (r) => packedTimes[r]! }
          : { stride, first: trackStart[i]!, time: (r) => records[r]! });
      }
    }
    expect(kinds.length).toBe(animatedTracks);
    let wrong = 0, stepped = 0;
    for (let n = 0; n <= 20000; n++) {
      const ts = Math.fround((n / 20000) * endTime);
      const row = Math.floor(ts * bucketScale);
      for (let i = 0; i < animatedTracks; i++) {
        const { stride, first, time } = kinds[i]!;
        // The record in force, by a walk from the track's first record to its end record.
        let want = first;
        while (time(want) < endTime && time(want + stride) <= ts) want += stride;
        let r = bucketRecords[row * animatedTracks + i]!;
        if (time(r + stride) <= ts) { r += stride; stepped++; } // the sampler's one comparison
        if (r !== want) wrong++;
      }
    }
    expect(wrong).toBe(0);
    expect(stepped / (20001 * animatedTracks)).toBeLessThan(0.01);
  });

  it('keeps 32-bit lookup entries when a 16-bit clip has more than 65,535 words of records', () => {
    // One joint whose rotation zigzags, a key on each of 7,000 frames: qx = 0.01 at odd frames,
    // 0 at even ones, linear between; qw = 1. 7,001 records of 10 words.
    const frames = 7000, rate = 30, duration = frames / rate;
    const keyTimes = Float64Array.from({ length: frames + 1 }, (_, f) => f / rate);
    const zigzag = new Float64Array(4 * frames);
    for (let f = 0; f < frames; f++) {
      zigzag[4 * f] = 0.01 * (f % 2);
      zigzag[4 * f + 1] = (f % 2 === 0 ? 0.01 : -0.01) * rate;
    }
    const channels = restJoint(duration).map((c, ch) => (ch >= 3 && ch < 7 ? { ...c, quantization: 1e-3 } : c));
    channels[3] = { keyTimes, coefficients: zigzag, quantization: 1e-3 };
    const tracks = createReducedTracks(1, duration, channels);
    expect(tracks.packedTracks).toBe(1);
    expect(tracks.recordCount).toBe(frames + 1);
    expect(tracks.bucketRecords).toBeInstanceOf(Uint32Array);
    const last = tracks.bucketRecords[tracks.bucketRows - 1]!;
    expect(last).toBe(tracks.trackStart[0]! / 2 + (PACKED_STRIDE_4 / 2) * (frames - 1)); // the last segment, in words
    expect(last).toBeGreaterThan(0xffff);
    // Sampled through it: the zigzag between frames, far from where a wrong record would put it.
    const skeleton = createSkeleton({ names: ['root'], parents: [-1], rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] });
    const source = createClip({
      skeleton, frameRate: rate, frames: Float32Array.from({ length: (frames + 1) * 10 }, (_, i) => (i % 10 >= 6 ? 1 : 0)), loop: false, name: 'long',
    });
    const clip = createReducedClip(source, tracks, { keysBefore: 0, keysAfter: 0, maxError: 0, meanError: 0 });
    const out = new Float32Array(10);
    for (const [f, x] of [[6543.25, 0.0075], [6800.5, 0.005], [6999.75, 0.0025]] as const) {
      sampleReducedInto(out, 0, clip, Float64Array.of(f / rate), 0);
      const len = Math.hypot(x, 1);
      expect(Math.abs(out[3]! - x / len)).toBeLessThan(1e-4); // within the 16-bit rounding (1e-3 allowed)
      expect(Math.abs(out[6]! - 1 / len)).toBeLessThan(1e-4);
    }
  });
});

describe('createReducedClip', () => {
  const skeleton = createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1] });
  const frames = Array.from({ length: 5 }, (_, f) => [f, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1]).flat();
  const source = createClip({ skeleton, frameRate: 4, frames, loop: false, events: [{ time: 0.5, name: 'hit' }], name: 'swing' });
  const channels = (): ReducedChannel[] => {
    const c = [...restJoint(), ...restJoint()];
    c[10] = still(1);
    c[0] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(0, 3, 0, 1) }; // tx = 3t + t³
    return c;
  };
  const stats = { keysBefore: 100, keysAfter: 22, maxError: 0.01, meanError: 0.002 };

  it('keeps the source identity, carries the tracks and stats, and holds the curves at frame times', () => {
    const tracks = createReducedTracks(2, 1, channels());
    const clip = createReducedClip(source, tracks, stats);
    expect(clip.name).toBe('swing');
    expect(clip.skeleton).toBe(skeleton);
    expect([clip.frameRate, clip.frameCount, clip.duration, clip.loop]).toEqual([4, 5, 1, false]);
    expect(clip.events).toBe(source.events);
    expect(clip.reduced).toBe(tracks);
    // Stats: the reducer's figures, the tracks' bytes (no frames are kept) and the source's.
    expect(clip.stats).toEqual({ ...stats, bytes: tracks.byteLength, sourceBytes: 5 * 2 * 10 * 4 });
    expect(Object.isFrozen(clip) && Object.isFrozen(clip.stats)).toBe(true);
    expect(clip.frames.length).toBe(0);
    expect(isClip(clip)).toBe(true);
    const frames = expandFrames(clip);
    expect(frames.length).toBe(5 * 2 * 10);
    for (let f = 0; f < 5; f++) {
      const t = f / 4;
      expect(frames[f * 20]).toBeCloseTo(3 * t + t ** 3, 6);
      expect(frames[f * 20 + 10]).toBe(1);
    }
    // The same values the sampler gives at those times, bit for bit.
    const out = new Float32Array(20);
    for (let f = 0; f < 5; f++) {
      sampleReducedInto(out, 0, clip, Float64Array.of(f / 4), 0);
      expect(Array.from(out)).toEqual(Array.from(frames.subarray(f * 20, f * 20 + 20)));
    }
    // An ordinary clip's frames are returned as they are.
    expect(expandFrames(source)).toBe(source.frames);
  });

  it('ordinary clips carry no tracks and no stats', () => {
    expect(source.reduced).toBeNull();
    expect(source.stats).toBeNull();
  });

  it('refuses tracks of another skeleton or duration, and bad stats', () => {
    const other = createReducedTracks(1, 1, restJoint());
    expect(refused(() => createReducedClip(source, other, stats)).issues[0]!.path).toBe('tracks.jointCount');
    const longer = createReducedTracks(2, 2, [...restJoint(2), ...restJoint(2)]);
    expect(refused(() => createReducedClip(source, longer, stats)).issues[0]!.path).toBe('tracks.duration');
    const tracks = createReducedTracks(2, 1, channels());
    const error = refused(() => createReducedClip(source, tracks, { ...stats, maxError: Number.NaN, keysAfter: -1 }));
    expect(error.issues.map((i) => i.path)).toEqual(['stats.keysAfter', 'stats.maxError']);
    expect(refused(() => createReducedClip({} as typeof source, tracks, stats)).issues[0]!.path).toBe('source');
  });

  it('refuses curves whose rotation passes through zero at a frame', () => {
    const c = channels();
    // qw = 1 − 2t: zero at t = 0.5 (frame 2) while qx = qy = qz = 0.
    c[6] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, -2, 0, 0) };
    const error = refused(() => createReducedClip(source, createReducedTracks(2, 1, c), stats));
    expect(error.issues[0]!.path).toBe('frames[2] joint "root" (0).qx');
  });

  it('decimated synthetic clips keep the animated-track bits the data calls for', () => {
    const synthetic = syntheticClip(syntheticSkeleton(4), { frameCount: 13 });
    const tracks = createReducedTracks(4, synthetic.duration, decimateChannels(synthetic, () => 3));
    // The root translates; other joints only rotate and breathe (a uniform scale: sx = sy = sz,
    // so one curve is stored, TRACK_S1, not three).
    expect(tracks.jointMask[0]).toBe(TRACK_T | TRACK_Q | TRACK_S1);
    for (let j = 1; j < 4; j++) expect(tracks.jointMask[j]).toBe(TRACK_Q | TRACK_S1);
  });
});

describe('createReducedTracks: 16-bit tracks', () => {
  // Joint 0: tx = 0.3 + 2u − 3u² + 4u³ on [0, 0.5), then its own cubic on [0.5, 1]; ty, tz still.
  // A rotation about z turning with qz = 0.1 + 0.6t − 0.2t², qw = 1 − 0.3t (normalized by the sampler).
  const channels = (quantization: number): ReducedChannel[] => {
    const c = restJoint().map((ch) => ({ ...ch, quantization }));
    c[0] = { keyTimes: Float64Array.of(0, 0.5, 1), coefficients: Float64Array.of(0.3, 2, -3, 4, 0.55, 1.5, 3, -1), quantization };
    c[5] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(0.1, 0.6, -0.2, 0), quantization };
    c[6] = { keyTimes: Float64Array.of(0, 0.25, 1), coefficients: Float64Array.of(1, -0.3, 0, 0, 0.925, -0.3, 0, 0), quantization };
    return c;
  };
  /** The given cubics evaluated directly (float64): tx, and the rotation normalized. */
  const exact = (t: number): { tx: number; qz: number; qw: number } => {
    const u = t < 0.5 ? t : t - 0.5;
    const tx = t < 0.5 ? 0.3 + 2 * u - 3 * u * u + 4 * u ** 3 : 0.55 + 1.5 * u + 3 * u * u - u ** 3;
    const z = 0.1 + 0.6 * t - 0.2 * t * t, w = t < 0.25 ? 1 - 0.3 * t : 0.925 - 0.3 * (t - 0.25);
    const n = Math.hypot(z, w);
    return { tx, qz: z / n, qw: w / n };
  };
  const clipOf = (tracks: ReturnType<typeof createReducedTracks>) => {
    const skeleton = createSkeleton({ names: ['root'], parents: [-1], rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] });
    const source = createClip({ skeleton, frameRate: 4, frames: Array.from({ length: 5 }, () => [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]).flat(), loop: false });
    return createReducedClip(source, tracks, { keysBefore: 50, keysAfter: 10, maxError: 0, meanError: 0 });
  };

  it('packs tracks whose channels accept the rounding, within their quantization of the exact cubics', () => {
    const budget = 1e-4;
    const tracks = createReducedTracks(1, 1, channels(budget));
    expect(tracks.jointMask[0]).toBe(TRACK_T | TRACK_Q | TRACK_T16 | TRACK_Q16);
    expect(tracks.packedTracks).toBe(2);
    expect(tracks.records.length).toBe(0);
    // Translation: union keys {0, 0.5, 1}; rotation: {0, 0.25, 1}: 3 records each, after a
    // header of lo and step per channel (6 floats) and of the rotation's one step (1 float);
    // each track's records end with a sentinel time +∞ (2 slots).
    expect(tracks.packed.length).toBe(12 + 3 * PACKED_STRIDE_3 + 2 + 2 + 3 * PACKED_STRIDE_4 + 2);
    expect(Array.from(tracks.trackStart)).toEqual([12, 12 + 3 * PACKED_STRIDE_3 + 2 + 2, 0]);
    expect(tracks.packedTimes[(12 + 3 * PACKED_STRIDE_3) >> 1]).toBe(Infinity);
    expect(tracks.packedTimes[tracks.packedTimes.length - 1]).toBe(Infinity);
    expect(tracks.packed.buffer).toBe(tracks.packedTimes.buffer);
    // packedPairs: the same memory, slot 2i the low half of pair i and 2i + 1 the high half, as
    // the sampler decodes them (a sign-extended low half, an arithmetic shift for the high one).
    expect(tracks.packedPairs.buffer).toBe(tracks.packed.buffer);
    expect(tracks.packedPairs.length * 2).toBe(tracks.packed.length);
    for (let i = 0; i < tracks.packedPairs.length; i++) {
      const v = tracks.packedPairs[i]!;
      expect([(v << 16) >> 16, v >> 16]).toEqual([tracks.packed[2 * i], tracks.packed[2 * i + 1]]);
    }
    expect(tracks.byteLength).toBe(1 + 4 + 40 + 0 + tracks.packed.byteLength + 4 * 3 + tracks.bucketRecords.byteLength);
    expect(tracks.packed.byteLength).toBe(24 + 3 * 32 + 4 + 4 + 3 * 40 + 4);
    const clip = clipOf(tracks);
    const out = new Float32Array(10);
    let worstT = 0, worstQ = 0;
    for (let n = 0; n <= 400; n++) {
      const t = n / 400;
      sampleReducedInto(out, 0, clip, Float64Array.of(t), 0);
      const e = exact(t);
      worstT = Math.max(worstT, Math.abs(out[0]! - e.tx));
      worstQ = Math.max(worstQ, Math.abs(out[5]! - e.qz), Math.abs(out[6]! - e.qw));
      expect([out[1], out[2], out[3], out[4]]).toEqual([0, 0, 0, 0]);
    }
    // Within the accepted rounding (plus 32-bit output rounding); a rotation's components, once
    // normalized, within about twice it (|q| ≈ 1).
    expect(worstT).toBeLessThanOrEqual(budget + 1e-6);
    expect(worstQ).toBeLessThanOrEqual(2 * budget + 1e-6);
    expect(worstT).toBeGreaterThan(0);
  });

  it('keeps 32-bit tracks where a channel does not accept the rounding, or gives no quantization', () => {
    const tight = channels(1e-4);
    tight[0] = { ...tight[0]!, quantization: 1e-9 };
    const tracks = createReducedTracks(1, 1, tight);
    expect(tracks.jointMask[0]).toBe(TRACK_T | TRACK_Q | TRACK_Q16);
    expect(tracks.records.length).toBe(3 * RECORD_STRIDE_3 + 1);
    const none = createReducedTracks(1, 1, channels(0));
    expect(none.packedTracks).toBe(0);
    expect(none.packed.length).toBe(0);
    // Its samples are those of tracks built without the field at all.
    const plain = createReducedTracks(1, 1, channels(0).map(({ keyTimes, coefficients }) => ({ keyTimes, coefficients })));
    expect(Array.from(none.records)).toEqual(Array.from(plain.records));
  });

  it('keeps a uniform scale as one 32-bit curve (16 bits would save 4 bytes a record)', () => {
    const c = channels(1e-4);
    for (const k of [7, 8, 9]) c[k] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, 0.5, 0, 0), quantization: 1e-4 };
    const tracks = createReducedTracks(1, 1, c);
    expect(tracks.jointMask[0]! & (TRACK_S1 | TRACK_S16)).toBe(TRACK_S1);
    expect(tracks.packed.length).toBe(12 + 3 * PACKED_STRIDE_3 + 2 + 2 + 3 * PACKED_STRIDE_4 + 2);
    expect(tracks.records.length).toBe(2 * RECORD_STRIDE_1 + 1);
    const out = new Float32Array(10);
    for (const t of [0, 0.3, 0.77, 1]) {
      sampleReducedInto(out, 0, clipOf(tracks), Float64Array.of(t), 0);
      for (const k of [7, 8, 9]) expect(out[k]).toBeCloseTo(1 + 0.5 * t, 6);
    }
  });

  it('packs a scale of three curves, each with its own range', () => {
    const c = channels(1e-4);
    for (const k of [7, 8, 9]) c[k] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, 0.5 * (k - 6), 0, -0.1 * k), quantization: 1e-4 };
    const tracks = createReducedTracks(1, 1, c);
    expect(tracks.jointMask[0]! & (TRACK_S | TRACK_S1 | TRACK_S16)).toBe(TRACK_S | TRACK_S16);
    const out = new Float32Array(10);
    for (const t of [0, 0.3, 0.77, 1]) {
      sampleReducedInto(out, 0, clipOf(tracks), Float64Array.of(t), 0);
      for (const k of [7, 8, 9]) expect(Math.abs(out[k]! - (1 + 0.5 * (k - 6) * t - 0.1 * k * t ** 3))).toBeLessThanOrEqual(1e-4 + 1e-6);
      expect(Math.abs(out[0]! - exact(t).tx)).toBeLessThanOrEqual(1e-4 + 1e-6);
    }
  });

  it('readTrack gives the cubics as stored, 32-bit or 16-bit: their values match the sampler', () => {
    for (const budget of [0, 1e-4]) {
      const tracks = createReducedTracks(1, 1, channels(budget));
      const clip = clipOf(tracks);
      const translation = readTrack(tracks, 0, 0)!;
      expect(translation.channels).toBe(3);
      expect(Array.from(translation.times)).toEqual([0, 0.5, 1]);
      expect(readTrack(tracks, 0, 2)).toBeNull();
      const out = new Float32Array(10);
      for (const t of [0, 0.2, 0.5, 0.61, 0.99]) {
        const s = t < 0.5 ? 0 : 1, u = t - translation.times[s]!;
        const [a, b, c, d] = translation.coefficients.subarray(12 * s, 12 * s + 4);
        sampleReducedInto(out, 0, clip, Float64Array.of(t), 0);
        expect(a! + u * (b! + u * (c! + u * d!))).toBeCloseTo(out[0]!, 6);
      }
      // The end record: the end value, flat.
      expect(Array.from(translation.coefficients.subarray(24, 28)).slice(1)).toEqual([0, 0, 0]);
    }
  });

  it('the sampler\'s layout constants are the exported ones', () => {
    const source = readFileSync(new URL('../../src/assets/sampleReduced.ts', import.meta.url), 'utf8');
    const constants = (name: string): number => Number(new RegExp(`\\b${name} = (\\d+)`).exec(source)![1]);
    expect([constants('STRIDE'), constants('T3'), constants('Q4'), constants('S1')]).toEqual([10, RECORD_STRIDE_3, RECORD_STRIDE_4, RECORD_STRIDE_1]);
    expect([constants('HAS_T'), constants('HAS_Q'), constants('HAS_S'), constants('HAS_S1')]).toEqual([TRACK_T, TRACK_Q, TRACK_S, TRACK_S1]);
    expect([2 * constants('H3'), 2 * constants('H4')]).toEqual([PACKED_STRIDE_3, PACKED_STRIDE_4]);
    expect([constants('T16'), constants('Q16'), constants('S16')]).toEqual([TRACK_T16, TRACK_Q16, TRACK_S16]);
  });
});
