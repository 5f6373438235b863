/**
 * Measuring allocation in tests: bytes allocated by a loop of calls, with V8's collections
 * during it added back (so it measures allocation, not what survives).
 *
 * Code V8 has not yet optimized allocates where optimized code does not (unoptimized code boxes
 * every double it computes), and on a busy machine the optimizing compiler — a background
 * thread — may finish late. So a measurement takes the smallest of several runs, pausing
 * between them to leave that thread the CPU: a real per-call allocation shows in every run.
 */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A handle on V8's collector without restarting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Bytes allocated while calling `call(0 … calls − 1)`. */
export function allocatedBy(call: (i: number) => void, calls: number): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  for (let i = 0; i < calls; i++) call(i);
  const collections = profiler.stop()?.statistics ?? [];
  const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
  return process.memoryUsage().heapUsed - before + freed;
}

/**
 * The smallest of up to `runs` measurements of `calls` calls (after `warmUp` calls), stopping
 * at the first under half of `bound` bytes (so a result near the bound gets more tries);
 * between runs the thread sleeps 100 ms (see above).
 */
export function smallestAllocation(call: (i: number) => void, options: { calls: number; bound: number; warmUp?: number; runs?: number }): number {
  const { calls, bound, warmUp = 2_000, runs = 8 } = options;
  for (let i = 0; i < warmUp; i++) call(i);
  let smallest = Infinity;
  for (let run = 0; run < runs && smallest >= bound / 2; run++) {
    if (run > 0) Atomics.wait(pause, 0, 0, 100);
    smallest = Math.min(smallest, allocatedBy(call, calls));
  }
  return smallest;
}
