/**
 * Reduced (LOD) clips on the WebAssembly kernels (assembly/reduced.ts through `sampleClip`, the
 * copy of src/wasm/reducedCopy.ts) against the JavaScript samplers (`sampleReducedInto`,
 * `sampleReduced16Into`): random cubic tracks of every kind — constant and animated
 * translations and rotations, constant, uniform and three-curve scales — stored in 32 and in
 * 16 bits (16- and 32-bit lookup tables), with decimal key times, sampled at keys, between
 * them, at the ends, past them, at negative and NaN times: the same bits everywhere. A bound
 * layer of a reduced clip stays on JavaScript (the kernel reports it does not sample it).
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip } from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import { createReducedClip } from '../../src/assets/reducedClip.js';
import { createReducedTracks, TRACK_Q16, TRACK_S, TRACK_S1, TRACK_S16, TRACK_T16, type ReducedChannel } from '../../src/assets/ReducedTracks.js';
import { sampleLayerWasm, syncKernelArea } from '../../src/wasm/kernels.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const JOINTS = 12;

/** Random ascending key times from 0 to `duration`, rounded to 3 decimals (a text file's times). */
function keyTimes(random: () => number, duration: number, segments: number): Float64Array {
  const inner = Array.from({ length: segments - 1 }, () => Math.round(random() * duration * 1000) / 1000).filter((t) => t > 0 && t < duration);
  return Float64Array.from([0, ...new Set(inner.sort((a, b) => a - b)), duration]);
}

/** A random cubic channel about `base` (amplitude `size`), `segments` pieces; `quantization` if given. */
function channel(random: () => number, duration: number, base: number, size: number, segments: number, quantization?: number): ReducedChannel {
  const keys = keyTimes(random, duration, segments);
  const coefficients: number[] = [];
  for (let k = 0; k + 1 < keys.length; k++) coefficients.push(base + size * (random() - 0.5), size * (random() - 0.5), size * (random() - 0.5), size * (random() - 0.5));
  return quantization === undefined ? { keyTimes: keys, coefficients } : { keyTimes: keys, coefficients, quantization };
}

/** A reduced clip on `skeleton` whose joints cycle through every kind of track (see the file header). */
function randomReducedClip(seed: number, quantize: boolean): ReturnType<typeof createReducedClip> {
  const random = createRandom(seed);
  const skeleton = syntheticSkeleton(JOINTS, seed);
  const duration = 1.37;
  const q = quantize ? 1 : undefined; // every channel accepts 16-bit rounding
  const channels: ReducedChannel[] = [];
  for (let j = 0; j < JOINTS; j++) {
    const kind = j % 6;
    const still = (v: number): ReducedChannel => ({ keyTimes: Float64Array.of(0, duration), coefficients: Float64Array.of(v, 0, 0, 0) });
    // Translation: animated but on joints 2 and 5.
    for (let c = 0; c < 3; c++) channels.push(kind === 2 || kind === 5 ? still(0.1 * c) : channel(random, duration, 0.1 * c, 0.2, 3 + (j % 4), q));
    // Rotation: animated but on joint kind 3 (a unit constant).
    if (kind === 3) [0, 0, 0.6, 0.8].forEach((v) => channels.push(still(v)));
    else for (let c = 0; c < 4; c++) channels.push(channel(random, duration, c === 3 ? 0.9 : 0.2, 0.3, 2 + (j % 3), q));
    // Scale: constant (kinds 0, 3), uniform (kinds 1, 4: three equal curves), three curves (2, 5).
    if (kind === 0 || kind === 3) for (let c = 0; c < 3; c++) channels.push(still(1));
    else if (kind === 1 || kind === 4) {
      const s = channel(random, duration, 1, 0.2, 3, q);
      for (let c = 0; c < 3; c++) channels.push(s);
    } else for (let c = 0; c < 3; c++) channels.push(channel(random, duration, 1, 0.2, 2 + c, q));
  }
  const frames = Array.from({ length: 10 }, () => Array.from(skeleton.rest)).flat();
  const source = createClip({ skeleton, frameRate: 9 / duration, frames, loop: seed % 2 === 0, name: `reduced ${seed}` });
  return createReducedClip(source, createReducedTracks(JOINTS, duration, channels), { keysBefore: 100, keysAfter: 50, maxError: 0, meanError: 0 });
}

/** The bits of a float array. */
const bits = (a: Float32Array): number[] => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe('reduced clips on the WebAssembly kernels', () => {
  for (const quantize of [false, true]) {
    it(`gives the JavaScript sampler's bits on every kind of track (${quantize ? '16-bit' : '32-bit'} tracks), at any time`, () => {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: JOINTS, kernels: 'wasm' });
      const kernels = world.wasm!;
      const out = world.scratch.layerSamples; // in the kernels' memory
      const time = world.scratch.offsetParams; // a double in the kernels' memory
      let samples = 0;
      for (const seed of [3, 4, 7, 8]) {
        const clip = randomReducedClip(seed, quantize);
        const tracks = clip.reduced!;
        const masks = Array.from(tracks.jointMask);
        // The clip holds what it is meant to test.
        expect(masks.some((m) => (m & TRACK_S1) !== 0)).toBe(true);
        expect(masks.some((m) => (m & TRACK_S) !== 0)).toBe(true);
        if (quantize) {
          expect(masks.some((m) => (m & TRACK_T16) !== 0) && masks.some((m) => (m & TRACK_Q16) !== 0) && masks.some((m) => (m & TRACK_S16) !== 0)).toBe(true);
        } else expect(tracks.packedTracks).toBe(0);
        syncKernelArea(kernels, [clip.skeleton], [clip]);
        // Times on the 3-decimal grid the keys lie on (some are keys), the ends, past them, and between.
        const grid = Array.from({ length: 60 }, (_, n) => Math.round(n * 0.023 * 1000) / 1000);
        const times = [...grid, -0.3, Number.NaN, tracks.duration, tracks.endTime, tracks.duration + 0.5, 1e-9, ...Array.from({ length: 40 }, (_, n) => (n / 39) * tracks.duration * 1.01)];
        const expected = new Float32Array(JOINTS * 10), at = Float64Array.of(0);
        for (const t of times) {
          at[0] = t;
          time[0] = t;
          sampleClipInto(expected, 0, clip, at, 0);
          out.fill(7);
          expect(sampleLayerWasm(kernels, 0, out.byteOffset, time.byteOffset)).toBe(true);
          expect(bits(out.subarray(0, JOINTS * 10)), `seed ${seed}, t = ${t}`).toEqual(bits(expected));
          expect(out[JOINTS * 10]).toBe(7); // nothing past the pose
          samples++;
        }
      }
      expect(samples).toBeGreaterThan(200);
    });
  }

  it('reduceClip\'s clips (16-bit by default, and 32-bit): the JavaScript sampler\'s bits; through a binding the kernels decline (JavaScript samples it)', () => {
    const skeleton = syntheticSkeleton(20, 4);
    const walk = syntheticClip(skeleton, { seed: 6, amplitude: 0.4, frameCount: 61 });
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 20, kernels: 'wasm' });
    const kernels = world.wasm!;
    const out = world.scratch.layerSamples, time = world.scratch.offsetParams;
    const clips = [reduceClip(walk, { tolerance: 0.002 }), reduceClip(walk, { tolerance: 0.002, quantize: false })];
    expect(clips[0]!.reduced!.packedTracks).toBeGreaterThan(0);
    expect(clips[1]!.reduced!.packedTracks).toBe(0);
    syncKernelArea(kernels, [skeleton], clips);
    const expected = new Float32Array(200), at = Float64Array.of(0);
    for (let id = 0; id < 2; id++) {
      for (let f = 0; f <= 80; f++) {
        at[0] = time[0] = (f / 80) * clips[id]!.duration;
        sampleClipInto(expected, 0, clips[id]!, at, 0);
        expect(sampleLayerWasm(kernels, id, out.byteOffset, time.byteOffset)).toBe(true);
        expect(bits(out.subarray(0, 200))).toEqual(bits(expected));
      }
      // A binding's copy in the table (as a proportions-only one would have): the reduced record is still declined.
      kernels.area.bindingTable[0] = kernels.area.restTable[0]!;
      expect(kernels.area.bindingTable[0]).not.toBe(0);
      expect(sampleLayerWasm(kernels, id, out.byteOffset, time.byteOffset, 0)).toBe(false);
      kernels.area.bindingTable[0] = 0;
    }
  });
});
