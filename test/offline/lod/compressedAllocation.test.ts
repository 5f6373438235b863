/**
 * Compressed clips sample and step without allocating: the JavaScript decoder on 200
 * characters × 2 layers, and 1,000 direct samples, measured by heap use and GC statistics
 * (medians: the measuring costs a few hundred bytes; 16 B per boxed double would be 6,400 per
 * step and 16,000 per 1,000 samples).
 */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, parseBvh, play, spawnCharacter, step, type Clip } from '../../../src/index.js';
import { POSE_STRIDE, sampleClipInto } from '../../../src/kernels.js';
import { compressClip } from '../../../src/lod.js';
import { readAssetText } from '../../support/assets.js';

describe('compressed sampling allocates nothing', () => {
  const load = (file: string): Clip => parseBvh(readAssetText(file), { scale: 0.056444, name: file }).clip;
  const cWalk = compressClip(load('cmu_131_01_start_walk_stop.bvh'), { tolerance: 0.001 });
  const cJumps = compressClip(load('cmu_01_01_forward_jumps.bvh'), { tolerance: 0.005 });
  const walk = { skeleton: cWalk.skeleton };

  it('samples and steps allocate nothing', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const world = createAnimationWorld({ maxEntities: 200, maxJoints: 31, kernels: 'js' }); // the JavaScript decoder
    for (let n = 0; n < 200; n++) {
      const eid = spawnCharacter(world, walk.skeleton);
      play(world, eid, cWalk, { time: n * 0.03 });
      play(world, eid, cJumps, { layer: 1, weight: 0.4, time: n * 0.05 });
    }
    const out = new Float32Array(31 * POSE_STRIDE);
    const times = new Float64Array(1);
    const kernel = (calls: number): void => {
      for (let i = 0; i < calls; i++) {
        times[0] = (i * 0.0137) % 9 - 0.05;
        sampleClipInto(out, 0, (i & 1) === 0 ? cWalk : cJumps, times, 0);
      }
    };
    for (let f = 0; f < 50; f++) step(world, 1 / 60);
    kernel(10_000);
    gc();
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
    // 16 B per boxed sample would be 6,400 per step (400 samples) and 16,000 per 1,000 calls.
    const perStep = medianBytes(300, () => step(world, 1 / 60)), perBlock = medianBytes(150, () => kernel(1000));
    console.log(`compressed: median ${perStep} bytes per step of 200 characters × 2 layers, ${perBlock} per 1,000 samples`);
    expect(perStep).toBeLessThan(1024);
    expect(perBlock).toBeLessThan(1024);
  });
});
