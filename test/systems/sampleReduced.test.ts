import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  bindSkeletons,
  createAnimationWorld,
  createClip,
  createSkeleton,
  getLocalPose,
  play,
  spawnCharacter,
  step,
  transition,
  type Clip,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS, POSE_STRIDE, sampleClipInto } from '../../src/kernels.js';
import { createReducedClip, expandFrames } from '../../src/assets/reducedClip.js';
import { createReducedTracks, type ReducedChannel } from '../../src/assets/ReducedTracks.js';
import { sampleReducedInto } from '../../src/assets/sampleReduced.js';
import { decimateChannels, decimateClip } from '../fixtures/decimate.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { twoJointSkeleton } from './helpers.js';

const skeleton = twoJointSkeleton(); // root, arm (rest 1 m along +X)
const still = (value: number): ReducedChannel => ({ keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(value, 0, 0, 0) });

/**
 * Known cubics over D = 1 s (u = t − t_k):
 * root tx: keys 0, ½, 1: t + 2t² − t³, then 1 + ½u + 4u³ (a jump: the left limit at ½ is 0.875);
 * root ty: keys 0, ¼, 1: 2 + 8t³, then 3 − u + ½u² (left limit at ¼: 2.125); tz = 5;
 * root sx = 1 + t; arm qz = ½t, qw = 1 − t²/10 (normalized by the sampler); the rest constant.
 */
function knownChannels(): ReducedChannel[] {
  const c = [0, 0, 5, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1].map(still);
  c[0] = { keyTimes: Float64Array.of(0, 0.5, 1), coefficients: Float64Array.of(0, 1, 2, -1, 1, 0.5, 0, 4) };
  c[1] = { keyTimes: Float64Array.of(0, 0.25, 1), coefficients: Float64Array.of(2, 0, 0, 8, 3, -1, 0.5, 0) };
  c[7] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, 1, 0, 0) };
  c[15] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(0, 0.5, 0, 0) };
  c[16] = { keyTimes: Float64Array.of(0, 1), coefficients: Float64Array.of(1, 0, -0.1, 0) };
  return c;
}

/** The pose those cubics give at t (clamped to [0, 1]), by hand. */
function expected(time: number): number[] {
  const t = time > 0 ? Math.min(time, 1) : 0;
  const tx = t < 0.5 ? t + 2 * t ** 2 - t ** 3 : 1 + 0.5 * (t - 0.5) + 4 * (t - 0.5) ** 3;
  const ty = t < 0.25 ? 2 + 8 * t ** 3 : 3 - (t - 0.25) + 0.5 * (t - 0.25) ** 2;
  const qz = 0.5 * t, qw = 1 - t * t / 10, n = Math.hypot(qz, qw);
  return [tx, ty, 5, 0, 0, 0, 1, 1 + t, 1, 1, 1, 0, 0, 0, 0, qz / n, qw / n, 1, 1, 1];
}

function reducedClip(loop: boolean): Clip {
  const frames = Array.from({ length: 5 }, () => [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1]).flat();
  const source = createClip({ skeleton, frameRate: 4, frames, loop, name: 'known' });
  return createReducedClip(source, createReducedTracks(2, 1, knownChannels()), { keysBefore: 100, keysAfter: 43, maxError: 0, meanError: 0 });
}

const clamped = reducedClip(false);
const looping = reducedClip(true);

function expectPose(actual: ArrayLike<number>, offset: number, want: readonly number[], digits = 5): void {
  for (let i = 0; i < want.length; i++) expect(actual[offset + i], `float ${i}`).toBeCloseTo(want[i]!, digits);
}

function sample(clip: Clip, time: number): Float32Array {
  const out = new Float32Array(20);
  sampleReducedInto(out, 0, clip, Float64Array.of(time), 0);
  return out;
}

describe('sampleReducedInto: known cubics', () => {
  it('evaluates the cubics at arbitrary times, inside the given block only', () => {
    for (const t of [0.1, 0.3, 0.37, 0.62, 0.9, 0.999]) {
      const out = new Float32Array(26).fill(Number.NaN);
      sampleReducedInto(out, 3, clamped, Float64Array.of(t), 0);
      expectPose(out, 3, expected(t));
      expect([out[2], out[23]].every(Number.isNaN)).toBe(true);
    }
    // By hand at t = 0.3: tx = 0.3 + 0.18 − 0.027, ty = 3 − 0.05 + 0.00125.
    expect(sample(clamped, 0.3)[0]).toBeCloseTo(0.453, 6);
    expect(sample(clamped, 0.3)[1]).toBeCloseTo(2.95125, 6);
  });

  it('takes the segment that starts at a key (not the one that ends there), and the ends exactly', () => {
    expect(sample(clamped, 0.25)[1]).toBe(3); // not the left limit 2.125
    expect(sample(clamped, 0.5)[0]).toBe(1); // not 0.875
    expectPose(sample(clamped, 0), 0, expected(0), 6);
    expect(Array.from(sample(clamped, 0).subarray(0, 3))).toEqual([0, 2, 5]);
    // t = D: the end values 1 + ¼ + ½ and 3 − ¾ + 0.28125.
    expect(sample(clamped, 1)[0]).toBe(1.75);
    expect(sample(clamped, 1)[1]).toBe(2.53125);
    expectPose(sample(clamped, 1), 0, expected(1), 6);
  });

  it('clamps times outside [0, D] like the uniform sampler: late to the end, negative and NaN to the start', () => {
    const end = Array.from(sample(clamped, 1));
    const start = Array.from(sample(clamped, 0));
    for (const t of [1.5, 1 + 1e-9, Infinity]) expect(Array.from(sample(clamped, t))).toEqual(end);
    for (const t of [-0.2, -Infinity, Number.NaN]) expect(Array.from(sample(clamped, t))).toEqual(start);
    // The uniform sampler on the same clip's frames does the same at the ends.
    const uniform = createClip({ skeleton, frameRate: 4, frames: expandFrames(clamped), loop: false });
    const out = new Float32Array(20);
    sampleClipInto(out, 0, uniform, Float64Array.of(1.5), 0);
    expect(Array.from(out)).toEqual(end);
    sampleClipInto(out, 0, uniform, Float64Array.of(Number.NaN), 0);
    expect(Array.from(out)).toEqual(start);
  });

  it('normalizes the rotation: unit quaternions along the fitted direction', () => {
    for (let n = 0; n <= 40; n++) {
      const out = sample(clamped, n / 40);
      const len = Math.hypot(out[13]!, out[14]!, out[15]!, out[16]!);
      expect(Math.abs(len - 1)).toBeLessThan(1e-6);
      expectPose(out, 13, expected(n / 40).slice(13, 17), 6);
    }
  });

  it('sampleClipInto sends a reduced clip to the reduced sampler', () => {
    const out = new Float32Array(20);
    for (const t of [0, 0.13, 0.5, 0.77, 1]) {
      sampleClipInto(out, 0, clamped, Float64Array.of(t), 0);
      expect(Array.from(out)).toEqual(Array.from(sample(clamped, t)));
    }
  });

  it('plays on another skeleton through a binding: matched joints by name, the rest at the target rest pose', () => {
    const target = createSkeleton({
      names: ['arm', 'tail', 'root'],
      parents: [-1, 0, 0],
      rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 7, 8, 9, 0, 0, 0, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    });
    const out = new Float32Array(30).fill(Number.NaN);
    sampleReducedInto(out, 0, clamped, Float64Array.of(0.3), 0, bindSkeletons(skeleton, target, { translation: 'animation' })); // the clip's translations, as authored
    const want = expected(0.3);
    expectPose(out, 0, want.slice(10, 20)); // arm
    expect(Array.from(out.subarray(10, 20))).toEqual([7, 8, 9, 0, 0, 0, 1, 2, 2, 2]); // tail: target rest
    expectPose(out, 20, want.slice(0, 10)); // root
  });
});

describe('sampleReducedInto against the uniform sampler', () => {
  // One key per frame with linear segments a = p_f, b = (p_{f+1} − p_f) × rate: the same
  // straight lines the uniform sampler interpolates. Translations and scales are the same
  // lerp, written a + b·u instead of p_f·(1 − α) + p_{f+1}·α; rotations are in both the
  // normalized component-wise lerp (nlerp) of the two frames, so they agree to float32
  // rounding as well (up to sign: the uniform sampler flips a frame into the other's
  // hemisphere, the reduced data is made hemisphere-continuous beforehand).
  const skel = syntheticSkeleton(8);
  const source = syntheticClip(skel, { frameCount: 25, frameRate: 30 });
  const poseSize = 8 * POSE_STRIDE;

  function linearChannels(): ReducedChannel[] {
    const values = Float64Array.from(source.frames);
    for (let f = 1; f < source.frameCount; f++) {
      for (let j = 0; j < 8; j++) {
        const a = (f - 1) * poseSize + j * 10 + 3, b = f * poseSize + j * 10 + 3;
        if (values[a]! * values[b]! + values[a + 1]! * values[b + 1]! + values[a + 2]! * values[b + 2]! + values[a + 3]! * values[b + 3]! < 0) {
          for (let c = 0; c < 4; c++) values[b + c] = -values[b + c]!;
        }
      }
    }
    const keyTimes = Float64Array.from({ length: source.frameCount }, (_, f) => f / 30);
    return Array.from({ length: poseSize }, (_, ch) => {
      const coefficients = new Float64Array(4 * (source.frameCount - 1));
      for (let f = 0; f + 1 < source.frameCount; f++) {
        const p0 = values[f * poseSize + ch]!, p1 = values[(f + 1) * poseSize + ch]!;
        coefficients[4 * f] = p0;
        coefficients[4 * f + 1] = (p1 - p0) * 30;
      }
      return { keyTimes, coefficients };
    });
  }

  it('gives the uniform pose at any time (translation, scale exactly lerp; rotation both nlerp)', () => {
    const tracks = createReducedTracks(8, source.duration, linearChannels());
    const reduced = createReducedClip(source, tracks, { keysBefore: 0, keysAfter: tracks.keyCount, maxError: 0, meanError: 0 });
    const a = new Float32Array(poseSize), b = new Float32Array(poseSize);
    const random = createRandom(5);
    let maxVector = 0, maxRotation = 0;
    for (let n = 0; n < 400; n++) {
      const time = Float64Array.of(n < 25 ? n / 30 : random() * source.duration);
      sampleClipInto(a, 0, source, time, 0);
      sampleReducedInto(b, 0, reduced, time, 0);
      for (let j = 0; j < 8; j++) {
        const o = j * 10;
        for (const c of [0, 1, 2, 7, 8, 9]) maxVector = Math.max(maxVector, Math.abs(a[o + c]! - b[o + c]!));
        const sign = a[o + 3]! * b[o + 3]! + a[o + 4]! * b[o + 4]! + a[o + 5]! * b[o + 5]! + a[o + 6]! * b[o + 6]! < 0 ? -1 : 1;
        for (let c = 3; c < 7; c++) maxRotation = Math.max(maxRotation, Math.abs(a[o + c]! - sign * b[o + c]!));
      }
    }
    expect(maxVector).toBeLessThan(2e-6);
    expect(maxRotation).toBeLessThan(2e-6);
    // And the reduced clip's frames are the source frames (to the same rounding).
    let maxFrame = 0;
    const reducedFrames = expandFrames(reduced);
    for (let i = 0; i < source.frames.length; i++) {
      const c = i % 10;
      if (c >= 3 && c < 7) continue;
      maxFrame = Math.max(maxFrame, Math.abs(source.frames[i]! - reducedFrames[i]!));
    }
    expect(maxFrame).toBeLessThan(2e-6);
  });
});

/** `clip` decimated (strides 2–4) with every channel accepting `quantization` of 16-bit rounding. */
function sixteenBit(clip: Clip, quantization: number): Clip {
  const channels = decimateChannels(clip, (ch) => 2 + (ch % 3)).map((c) => ({ ...c, quantization }));
  const keys = channels.reduce((n, c) => n + c.keyTimes.length, 0);
  return createReducedClip(clip, createReducedTracks(clip.skeleton.jointCount, clip.duration, channels), {
    keysBefore: clip.frames.length, keysAfter: keys, maxError: 0, meanError: 0,
  });
}

describe('16-bit tracks', () => {
  it('sample within the accepted rounding of the same curves in 32 bits, through play, step and a binding', () => {
    const skel = syntheticSkeleton(12);
    const source = syntheticClip(skel, { seed: 5, frameCount: 37 });
    const float = decimateClip(source, (ch) => 2 + (ch % 3));
    const packed = sixteenBit(source, 2e-4);
    expect(packed.reduced!.packedTracks).toBe(packed.reduced!.animatedTracks);
    const a = new Float32Array(12 * 10), b = new Float32Array(12 * 10);
    let worst = 0;
    for (let n = 0; n <= 200; n++) {
      const time = Float64Array.of((n / 200) * source.duration);
      sampleClipInto(a, 0, float, time, 0);
      sampleClipInto(b, 0, packed, time, 0);
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    }
    // Translation and scale within 2e-4; rotations, normalized, within about twice that.
    expect(worst).toBeLessThanOrEqual(4e-4 + 1e-6);
    expect(worst).toBeGreaterThan(0);
    // In the world, and bound to a skeleton with its joints in another order.
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 12 });
    const eid = spawnCharacter(world, skel);
    play(world, eid, packed, { time: 0.3 });
    step(world, 0);
    sampleClipInto(b, 0, packed, Float64Array.of(0.3), 0);
    expect(Array.from(getLocalPose(world, eid))).toEqual(Array.from(b));
    // A target with one more joint: matched joints read the curves, the extra takes its rest.
    const wider = createSkeleton({
      names: [...skel.names, 'extra'], parents: [...skel.parents, 0], rest: [...skel.rest, 0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    });
    const binding = bindSkeletons(skel, wider, { translation: 'animation' });
    const bound = new Float32Array(13 * 10);
    sampleClipInto(bound, 0, packed, Float64Array.of(0.3), 0, binding);
    expect(Array.from(bound.subarray(0, 120))).toEqual(Array.from(b));
    expect(Array.from(bound.subarray(120))).toEqual([0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1].map(Math.fround));
  });
});

describe('reduced clips in the world', () => {
  it('sampleSystem plays a reduced clip through play and step: looping wraps, clamped stops at the end', () => {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const a = spawnCharacter(world, skeleton);
    const b = spawnCharacter(world, skeleton);
    play(world, a, looping, { time: 0.9 });
    play(world, b, clamped, { time: 0.8, loop: false });
    step(world, 0.4); // a: 1.3 → 0.3; b: 1.2 → the end
    expect(world.components.Layers.time[a * DEFAULT_MAX_LAYERS]).toBeCloseTo(0.3, 12);
    expectPose(getLocalPose(world, a), 0, expected(0.3));
    expectPose(getLocalPose(world, b), 0, expected(1), 6);
    step(world, 0.25);
    expectPose(getLocalPose(world, a), 0, expected(0.55));
  });

  it('inertialization captures from a reduced clip and settles on it', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const wiggle = createClip({ skeleton, frameRate: 4, frames: expandFrames(looping).map((v, i) => (i % 10 === 1 ? v + 1 : v)) });
    play(world, eid, wiggle);
    for (let f = 0; f < 5; f++) step(world, 1 / 60);
    transition(world, eid, looping, { duration: 0.2, mode: 'inertialize' });
    for (let f = 0; f < 20; f++) {
      step(world, 1 / 60);
      expect(getLocalPose(world, eid).every(Number.isFinite)).toBe(true);
    }
    // 0.33 s after the switch the offsets have decayed: the pose is the reduced clip's.
    const time = world.components.Layers.time[eid * DEFAULT_MAX_LAYERS]!;
    expectPose(getLocalPose(world, eid), 0, expected(time), 4);
  });
});

describe('reduced sampling allocates nothing', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  it('200 characters × 2 reduced layers (32-bit and 16-bit tracks) per step, and 1,000 kernel calls', () => {
    const skel = syntheticSkeleton(32);
    const clips = [
      decimateClip(syntheticClip(skel, { seed: 2 }), (ch) => 2 + (ch % 3)),
      sixteenBit(syntheticClip(skel, { seed: 3, frameCount: 41 }), 1e-3),
    ];
    expect([clips[0]!.reduced!.packedTracks, clips[1]!.reduced!.packedTracks > 0]).toEqual([0, true]);
    const world = createAnimationWorld({ maxEntities: 200, maxJoints: 32 });
    const random = createRandom(3);
    for (let n = 0; n < 200; n++) {
      const eid = spawnCharacter(world, skel, { rootMotion: n % 2 === 0 });
      play(world, eid, clips[0]!, { layer: 0, weight: 0.6, time: random() });
      play(world, eid, clips[1]!, { layer: 1, weight: 0.4, speed: 1.3, time: random() });
    }
    const out = new Float32Array(32 * POSE_STRIDE);
    const times = new Float64Array(1);
    const kernel = (calls: number): void => {
      for (let i = 0; i < calls; i++) {
        times[0] = (i * 0.0137) % 1.2 - 0.05; // inside, before and after the clip
        sampleReducedInto(out, 0, clips[i & 1]!, times, 0);
      }
    };
    for (let f = 0; f < 50; f++) step(world, 1 / 60);
    kernel(10_000);
    gc();
    // Median bytes of one measured piece of work (a step, or 1,000 kernel calls): a median is
    // blind to the odd lazily made structure or profiler bookkeeping under a loaded test run.
    const medianBytes = (pieces: number, work: () => void): number => {
      const bytes: number[] = [];
      for (let n = 0; n < pieces; n++) {
        const profiler = new GCProfiler();
        profiler.start();
        const before = process.memoryUsage().heapUsed;
        work();
        const after = process.memoryUsage().heapUsed;
        const collections = profiler.stop()?.statistics ?? [];
        bytes.push(after - before + collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
      }
      return bytes.sort((a, b) => a - b)[pieces >> 1]!;
    };
    const perStep = medianBytes(300, () => step(world, 1 / 60));
    const perKernelBlock = medianBytes(100, () => kernel(1000));
    console.log(`200 characters × 2 reduced layers: median ${perStep} bytes per step; 1,000 kernel calls: median ${perKernelBlock} bytes`);
    // The measuring costs a few hundred bytes; 16 B per sample would be 6,400 per step (400
    // samples) and 16,000 per 1,000 kernel calls.
    expect(perStep).toBeLessThan(1024);
    expect(perKernelBlock).toBeLessThan(1024);
    expect(out.every(Number.isFinite)).toBe(true);
  });
});
