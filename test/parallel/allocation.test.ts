/**
 * Issue 17: a threaded frame allocates nothing per frame on either thread beyond the promise
 * `stepParallel` returns — measured as test/allocation.test.ts measures `step`: heap growth
 * plus what collections freed meanwhile (GCProfiler), on the calling thread here and in the
 * worker by its own probe (src/parallel/worker.ts).
 */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, createMask, disposeAnimationWorld, drainEvents, play, spawnCharacter, stepParallel } from '../../src/index.js';
import { asyncFrameCount, probeWorkerHeap } from '../../src/parallel/threadPool.js';
import type { HeapReport } from '../../src/parallel/messages.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes `run` allocates over `n` calls (heap growth plus what collections freed meanwhile). */
async function allocatedBy(n: number, run: () => unknown): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  for (let i = 0; i < n; i++) await run();
  const collections = profiler.stop()?.statistics ?? [];
  const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
  return process.memoryUsage().heapUsed - before + freed;
}

describe('stepParallel allocates nothing per frame but its promise', () => {
  it('1,000 frames of 1,000 characters on 2 threads: under 1 MB on the caller (~the promises) and on the worker', async () => {
    const skeleton = syntheticSkeleton(32);
    const walk = createClip({ ...syntheticClip(skeleton, { seed: 2, name: 'walk' }), events: [{ time: 0.2, name: 'left' }, { time: 0.7, name: 'right' }] });
    const run = createClip({ ...syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'run' }), events: [{ time: 0.5, name: 'step' }] });
    const wave = syntheticClip(skeleton, { seed: 4, name: 'wave' });
    const upper = createMask(skeleton, { joint5: 1 });
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 32, maxEvents: 256, threads: 2 });
    const random = createRandom(9);
    for (let n = 0; n < 1000; n++) {
      const eid = spawnCharacter(world, skeleton, { rootMotion: n % 2 === 0, rootYaw: n % 4 === 0 });
      play(world, eid, walk, { layer: 0, weight: 0.6, time: random() });
      play(world, eid, run, { layer: 1, weight: 0.4, speed: 1.3, time: random() });
      play(world, eid, wave, { layer: 2, weight: 0.5, mask: upper, additive: true });
    }
    for (let f = 0; f < 50; f++) await stepParallel(world, 1 / 60);
    probeWorkerHeap(world, 1, 'start');
    await stepParallel(world, 1 / 60); // carries the probe
    let chunks = 0;
    const asyncBefore = asyncFrameCount(world);
    gc();
    const before = process.memoryUsage().heapUsed;
    const profiler = new GCProfiler();
    profiler.start();
    for (let f = 0; f < 1000; f++) {
      await stepParallel(world, 1 / 60);
      if (f % 10 === 0) for (let c = 0; c < 8; c++) if (world.parallel!.chunkLog[c * 3] === 1) chunks++; // sampled: reading a Float64Array here boxes
    }
    const collections = profiler.stop()?.statistics ?? [];
    const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
    const allocated = process.memoryUsage().heapUsed - before + freed;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    const report = await new Promise<HeapReport>((resolve) => {
      probeWorkerHeap(world, 1, 'stop', resolve);
      void stepParallel(world, 1 / 60);
    });
    // A frame whose workers were not done within the caller's poll settles asynchronously: a
    // promise, Atomics.waitAsync's promise and result, a reaction. What that costs here:
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, t: number): { value: Promise<unknown> | string } }).waitAsync;
    const promiseCost = (await allocatedBy(1000, () => new Promise<void>((resolve) => {
      const wait = waitAsync(cell, 0, 0, 0).value;
      if (typeof wait === 'string') resolve();
      else void wait.then(() => resolve());
    }))) / 1000;
    // And what the test's own `await` of an already settled promise costs, per frame.
    const settled = Promise.resolve();
    const awaitCost = (await allocatedBy(1000, () => settled)) / 1000;
    const asyncFrames = asyncFrameCount(world) - asyncBefore;
    console.log(`caller: ${allocated} bytes allocated over 1,000 frames (${collections.length} GCs), heap ${grown} after GC, ${asyncFrames} frames settled asynchronously `
      + `(a promise and its wait: ${promiseCost.toFixed(0)} bytes each; the test's await ${awaitCost.toFixed(0)} per frame); worker: ${report.allocated} bytes allocated (${report.collections} GCs), heap ${report.grown} after GC; `
      + `worker ran ${chunks} of 800 sampled chunks`);
    expect(chunks).toBeGreaterThan(10); // the worker did take part
    expect(grown).toBeLessThan(1024 * 1024);
    // Nothing beyond the promises: at most 1 MB over 1,000 frames once the awaits and the
    // asynchronous frames' promises (counted twice: a frame may wait more than once) are counted out.
    expect(allocated - 1000 * awaitCost - asyncFrames * promiseCost * 2).toBeLessThan(1024 * 1024);
    expect(report.grown).toBeLessThan(1024 * 1024);
    expect(report.allocated).toBeLessThan(1024 * 1024);
    drainEvents(world);
    disposeAnimationWorld(world);
  });
});
