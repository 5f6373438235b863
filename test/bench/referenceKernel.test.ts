/**
 * The bench's scalar reference kernel (bench/referenceKernel.ts) computes what `step` computes
 * for the bench crowd: same layer times, and palettes within 1e-5 per element, frame after
 * frame — otherwise the "reference vs step" ratio would compare different work.
 */
import { describe, expect, it } from 'vitest';
import { createBitanimCrowd } from '../../bench/bitanimCrowd.js';
import { createCrowdAssets, JOINT_COUNT, LAYER_COUNT, planCrowd } from '../../bench/plan.js';
import { createReferenceKernel, maxReferenceDifference, runReferenceKernel } from '../../bench/referenceKernel.js';
import { DEFAULT_MAX_LAYERS } from '../../src/components/Layers.js';
import { getSkinPalette } from '../../src/index.js';
import { smallestAllocation } from '../support/allocation.js';

const DT = 1 / 60;
const WEIGHTS = [0.6, 0.4];
const FRAMES = 30;
const COUNT = 24;

describe('reference kernel', () => {
  const assets = createCrowdAssets();

  it('matches step on the bench crowd: times exactly, palettes within 1e-5, over 30 frames', () => {
    const plan = planCrowd(assets, COUNT, WEIGHTS, 11);
    const crowd = createBitanimCrowd(plan, 'step');
    const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, plan.count);
    kernel.dt[0] = DT;
    const { time: layerTime } = crowd.world.components.Layers;
    const palette = (c: number): Float32Array => getSkinPalette(crowd.world, crowd.eids[c]!);
    const scratch = new Float64Array(1);
    const first = Float32Array.from(kernel.palette);
    let wraps = 0;
    let worst = 0;
    for (let f = 0; f < FRAMES; f++) {
      const before = Float64Array.from(kernel.time);
      crowd.frame(DT, scratch);
      runReferenceKernel(kernel, 0, kernel.count);
      for (let c = 0; c < COUNT; c++) {
        for (let layer = 0; layer < LAYER_COUNT; layer++) {
          const k = c * LAYER_COUNT + layer;
          expect(kernel.time[k]).toBe(layerTime[crowd.eids[c]! * DEFAULT_MAX_LAYERS + layer]);
          if (kernel.time[k]! < before[k]!) wraps++;
        }
      }
      const difference = maxReferenceDifference(kernel, palette);
      expect(difference).toBeLessThanOrEqual(1e-5);
      worst = Math.max(worst, difference);
    }
    // The run crossed loop seams and the poses moved, so the comparison covered real motion.
    expect(wraps).toBeGreaterThan(0);
    let moved = 0;
    for (let i = 0; i < first.length; i++) moved = Math.max(moved, Math.abs(first[i]! - kernel.palette[i]!));
    expect(moved).toBeGreaterThan(0.05);
    expect(worst).toBeLessThanOrEqual(1e-5);
    expect(kernel.palette.length).toBe(COUNT * JOINT_COUNT * 12);
  });

  it('is told apart from step when its blend differs (weights 0.5 / 0.5 against 0.6 / 0.4)', () => {
    const plan = planCrowd(assets, 4, WEIGHTS, 11);
    const crowd = createBitanimCrowd(plan, 'step');
    const kernel = createReferenceKernel(plan.skeleton, plan.clips, [0.5, 0.5], plan.startTime, plan.speed, plan.count);
    kernel.dt[0] = DT;
    crowd.frame(DT, new Float64Array(1));
    runReferenceKernel(kernel, 0, kernel.count);
    expect(maxReferenceDifference(kernel, (c) => getSkinPalette(crowd.world, crowd.eids[c]!))).toBeGreaterThan(1e-3);
  });

  it('reports NaN in either palette as NaN, and refuses crowds it would not compute as step does', () => {
    const plan = planCrowd(assets, 2, WEIGHTS, 11);
    const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, plan.count);
    kernel.dt[0] = DT;
    runReferenceKernel(kernel, 0, kernel.count);
    const copy = Float32Array.from(kernel.palette);
    const size = JOINT_COUNT * 12;
    expect(maxReferenceDifference(kernel, (c) => copy.subarray(c * size, (c + 1) * size))).toBe(0);
    copy[size + 5] = NaN;
    expect(maxReferenceDifference(kernel, (c) => copy.subarray(c * size, (c + 1) * size))).toBeNaN();
    expect(() => createReferenceKernel(plan.skeleton, plan.clips, [0.05, 0.04], plan.startTime, plan.speed, 2)).toThrow(/threshold/);
    expect(() => createReferenceKernel(plan.skeleton, plan.clips, [1, 0], plan.startTime, plan.speed, 2)).toThrow(/> 0/);
    expect(() => createReferenceKernel(plan.skeleton, plan.clips.slice(0, 1), [1], plan.startTime, plan.speed, 2)).toThrow(/two clips/);
  });

  it('allocates nothing per frame (60,000 frames of 10 characters: under 8 bytes a frame, half a boxed double)', () => {
    const plan = planCrowd(assets, 10, WEIGHTS, 11);
    const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, plan.count);
    kernel.dt[0] = DT;
    // The smallest of up to eight runs (test/support/allocation.ts): a per-frame allocation
    // shows in every run, code not yet optimized only until the optimizing compiler is done.
    const allocated = smallestAllocation(() => runReferenceKernel(kernel, 0, kernel.count), { calls: 60_000, bound: 60_000 * 8 });
    console.log(`reference kernel, 60,000 frames × 10 characters: ${allocated} bytes allocated (the smallest run)`);
    expect(allocated).toBeLessThan(60_000 * 8);
  });
});
