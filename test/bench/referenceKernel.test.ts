/**
 * The bench's scalar reference kernel (bench/referenceKernel.ts) computes what `step` computes
 * for the bench crowd: same layer times, and palettes within 1e-5 per element, frame after
 * frame — otherwise the "reference vs step" ratio would compare different work.
 */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createBitanimCrowd } from '../../bench/bitanimCrowd.js';
import { createCrowdAssets, JOINT_COUNT, LAYER_COUNT, planCrowd } from '../../bench/plan.js';
import { createReferenceKernel, maxReferenceDifference, runReferenceKernel, type ReferenceKernel } from '../../bench/referenceKernel.js';
import { MAX_LAYERS } from '../../src/components/Layers.js';
import { getSkinPalette } from '../../src/index.js';

const DT = 1 / 60;
const WEIGHTS = [0.6, 0.4];
const FRAMES = 30;
const COUNT = 24;

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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
          expect(kernel.time[k]).toBe(layerTime[crowd.eids[c]! * MAX_LAYERS + layer]);
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

  it('allocates nothing per frame (20,000 frames of 10 characters: under 8 bytes a frame, half a boxed double)', () => {
    const plan = planCrowd(assets, 10, WEIGHTS, 11);
    const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, plan.count);
    kernel.dt[0] = DT;
    for (let f = 0; f < 2_000; f++) runReferenceKernel(kernel, 0, kernel.count);
    // The smallest of up to five runs: a per-frame allocation shows in every run, while code
    // not yet optimized (unoptimized code boxes every double it computes) shows only until
    // the optimizing compiler, a background thread on a busy machine, has finished.
    let allocated = Infinity;
    for (let run = 0; run < 5 && allocated >= 20_000 * 8; run++) allocated = Math.min(allocated, allocatedBy(kernel, 20_000));
    console.log(`reference kernel, 20,000 frames × 10 characters: ${allocated} bytes allocated (the smallest run)`);
    expect(allocated).toBeLessThan(20_000 * 8);
  });
});

/** Bytes allocated while running `frames` frames of `kernel` (GCs during them added back). */
function allocatedBy(kernel: ReferenceKernel, frames: number): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  for (let f = 0; f < frames; f++) runReferenceKernel(kernel, 0, kernel.count);
  const collections = profiler.stop()?.statistics ?? [];
  const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
  return process.memoryUsage().heapUsed - before + freed;
}
