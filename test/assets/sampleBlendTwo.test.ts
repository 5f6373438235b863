import { describe, expect, it } from 'vitest';
import type { Clip } from '../../src/index.js';
import { sampleBlendTwoInto, sampleClipInto } from '../../src/assets/sampleClip.js';
import { blendTwoLayers } from '../../src/math/blendPose.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const JOINTS = 24;
const skeleton = syntheticSkeleton(JOINTS, 3);
const clipA = syntheticClip(skeleton, { seed: 2, amplitude: 1.2 });
const clipB = syntheticClip(skeleton, { seed: 5, frameCount: 41, amplitude: 1.2 });

/**
 * The same blend computed independently in doubles from the keys: per clip, lerp of T and S and
 * nlerp of Q (second key into the first's hemisphere), then the two layers by normalized
 * weights, B's rotation into A's hemisphere, the sum normalized.
 */
function exactBlend(clips: readonly Clip[], times: readonly number[], weights: readonly number[]): Float64Array {
  const layers = clips.map((clip, n) => {
    const position = times[n]! * clip.frameRate;
    const frame = Math.floor(position), alpha = position - frame;
    const pose = new Float64Array(JOINTS * POSE_STRIDE);
    for (let j = 0; j < JOINTS; j++) {
      const a = (frame * JOINTS + j) * POSE_STRIDE, b = a + JOINTS * POSE_STRIDE, o = j * POSE_STRIDE;
      const key = (i: number): [number, number] => [clip.frames[a + i]!, clip.frames[b + i]!];
      for (const i of [0, 1, 2, 7, 8, 9]) pose[o + i] = key(i)[0] * (1 - alpha) + key(i)[1] * alpha;
      const dot = [3, 4, 5, 6].reduce((s, i) => s + key(i)[0] * key(i)[1], 0);
      const q = [3, 4, 5, 6].map((i) => key(i)[0] * (1 - alpha) + (dot < 0 ? -1 : 1) * key(i)[1] * alpha);
      const length = Math.hypot(...q);
      for (let c = 0; c < 4; c++) pose[o + 3 + c] = q[c]! / length;
    }
    return pose;
  });
  const [wa, wb] = [weights[0]! / (weights[0]! + weights[1]!), weights[1]! / (weights[0]! + weights[1]!)];
  const out = new Float64Array(JOINTS * POSE_STRIDE);
  for (let j = 0; j < JOINTS; j++) {
    const o = j * POSE_STRIDE;
    const [p, r] = [layers[0]!, layers[1]!];
    for (const i of [0, 1, 2, 7, 8, 9]) out[o + i] = p[o + i]! * wa + r[o + i]! * wb;
    const sign = [3, 4, 5, 6].reduce((s, i) => s + p[o + i]! * r[o + i]!, 0) < 0 ? -1 : 1;
    const q = [3, 4, 5, 6].map((i) => p[o + i]! * wa + sign * r[o + i]! * wb);
    const length = Math.hypot(...q);
    for (let c = 0; c < 4; c++) out[o + 3 + c] = q[c]! / length;
  }
  return out;
}

/** Largest |x[i] − exact[i]| over the pose. */
function maxError(x: Float32Array, offset: number, exact: Float64Array): number {
  let max = 0;
  for (let i = 0; i < exact.length; i++) max = Math.max(max, Math.abs(x[offset + i]! - exact[i]!));
  return max;
}

describe('sampleBlendTwoInto: two dense clips sampled and blended in one pass', () => {
  it('agrees with sampling then blendTwoLayers within float32 rounding, and is at least as close to the exact blend', () => {
    const random = createRandom(7);
    const n = JOINTS * POSE_STRIDE;
    let worstTwoStep = 0, worstOnePass = 0;
    for (let trial = 0; trial < 40; trial++) {
      const times = Float64Array.of(random() * clipA.duration, random() * clipB.duration);
      const weights = [0.05 + random() * 2, 0.05 + random() * 2];
      const layerWeight = Float32Array.of(weights[0]!, weights[1]!);
      const samples = new Float32Array(2 * n);
      sampleClipInto(samples, 0, clipA, times, 0);
      sampleClipInto(samples, n, clipB, times, 1);
      const twoStep = new Float32Array(n);
      blendTwoLayers(twoStep, 0, samples, 0, n, layerWeight, JOINTS);
      const onePass = new Float32Array(n + 8).fill(7); // sentinels around the pose
      expect(sampleBlendTwoInto(onePass, 4, clipA, clipB, times, 0, 1, layerWeight, JOINTS)).toBe(true);
      expect([...onePass.slice(0, 4), ...onePass.slice(n + 4)]).toEqual(new Array(8).fill(7)); // nothing written outside
      const exact = exactBlend([clipA, clipB], [times[0]!, times[1]!], [layerWeight[0]!, layerWeight[1]!]);
      for (let i = 0; i < n; i++) expect(Math.abs(onePass[4 + i]! - twoStep[i]!), `element ${i}, trial ${trial}`).toBeLessThanOrEqual(5e-7);
      worstTwoStep = Math.max(worstTwoStep, maxError(twoStep, 0, exact));
      worstOnePass = Math.max(worstOnePass, maxError(onePass, 4, exact));
    }
    // Both round the result to float32 (~6e-8 relative); the two-step path also rounds each layer pose.
    expect(worstOnePass).toBeLessThan(3e-7);
    expect(worstOnePass).toBeLessThanOrEqual(worstTwoStep);
  });

  it('declines, writing nothing, on a key, before the first, at or past the last, and for NaN (sampleClipInto copies the key there)', () => {
    const layerWeight = Float32Array.of(0.6, 0.4);
    const between = 0.3 / clipB.frameRate + 0.1; // strictly between two keys of either clip
    for (const time of [0, 10 / clipA.frameRate, -0.01, clipA.duration, clipA.duration + 1, NaN]) {
      for (const times of [Float64Array.of(time, between), Float64Array.of(between, time)]) {
        const out = new Float32Array(JOINTS * POSE_STRIDE).fill(7);
        const clips = times[0] === between ? [clipB, clipA] : [clipA, clipB];
        expect(sampleBlendTwoInto(out, 0, clips[0]!, clips[1]!, times, 0, 1, layerWeight, JOINTS), `time ${time}`).toBe(false);
        expect(out.every((v) => v === 7)).toBe(true);
      }
    }
  });
});
