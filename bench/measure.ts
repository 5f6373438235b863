/**
 * The measuring harness shared by both runtimes: frame timing per phase, heap growth,
 * allocation and garbage collections over a run of frames.
 */
import { constants as perfConstants, PerformanceObserver, type NodeGCPerformanceDetail, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { GCProfiler } from 'node:v8';
import { step, type AnimationWorld } from '../src/index.js';

/** A crowd that one runtime animates, advanced one frame at a time. */
export interface CrowdRunner {
  /** Runtime name, as printed in the table. */
  readonly label: string;
  /** Names of the timed phases of a frame, in the order they run. */
  readonly phaseNames: readonly string[];
  /**
   * Advances every character by `dt` seconds and adds each phase's wall time, milliseconds,
   * to `phaseMs[phase]` (`phaseMs.length === phaseNames.length`).
   */
  frame(dt: number, phaseMs: Float64Array): void;
}

/** Result of {@link measure}: averages over the measured frames. */
export interface Measurement {
  /** The runner's label. */
  readonly label: string;
  /** The runner's phase names, matching `phaseMs`. */
  readonly phaseNames: readonly string[];
  /** Milliseconds per frame of each phase. */
  readonly phaseMs: readonly number[];
  /** Milliseconds per frame, all phases. */
  readonly totalMs: number;
  /** `heapUsed` growth over the run divided by the frames; a lower bound when `gcCount > 0`. */
  readonly heapBytesPerFrame: number;
  /**
   * Bytes allocated per frame: the `heapUsed` growth plus what each GC during the run freed
   * (used heap before it − after it, from `v8.GCProfiler`). Equals `heapBytesPerFrame` when
   * no GC ran. Everything dead before the run was collected by the full GC preceding it, so
   * what a GC frees was (nearly all) allocated by the measured frames.
   */
  readonly allocatedBytesPerFrame: number;
  /** Garbage collections (any kind) that ran during the measured frames. */
  readonly gcCount: number;
  /** How many of them were scavenges (minor GCs); the rest are major or incremental steps. */
  readonly gcMinor: number;
  /** Their total pause, milliseconds (already included in the phase times). */
  readonly gcMs: number;
  /** Frames measured. */
  readonly frames: number;
}

/** Runs a full garbage collection. Needs `node --expose-gc`. */
export function collectGarbage(): void {
  if (typeof globalThis.gc !== 'function') throw new Error('run node with --expose-gc (npm run bench does)');
  globalThis.gc();
}

/** Runs `frames` frames of `dt` seconds untimed (JIT warm-up, or to reach a given frame). */
export function runFrames(runner: CrowdRunner, frames: number, dt: number): void {
  const scratch = new Float64Array(runner.phaseNames.length);
  for (let f = 0; f < frames; f++) runner.frame(dt, scratch);
}

/**
 * Times `frames` frames of `dt` seconds. Before them: a full GC, then `heapUsed` is read;
 * after them `heapUsed` is read again (no GC), so the difference is what the frames left on
 * the heap. GC entries are counted with a PerformanceObserver while the frames run.
 */
export async function measure(runner: CrowdRunner, frames: number, dt: number): Promise<Measurement> {
  const phaseMs = new Float64Array(runner.phaseNames.length);
  collectGarbage();
  // Node delivers 'gc' entries a couple of event-loop turns after the collection: let the
  // forced one pass before observing, so only collections during the frames are counted.
  await sleep(50);
  let gcCount = 0;
  let gcMinor = 0;
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount++;
      if (gcKind(entry) === perfConstants.NODE_PERFORMANCE_GC_MINOR) gcMinor++;
      gcMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const profiler = new GCProfiler();
  profiler.start();

  const heapBefore = process.memoryUsage().heapUsed;
  for (let f = 0; f < frames; f++) runner.frame(dt, phaseMs);
  const heapAfter = process.memoryUsage().heapUsed;

  const gcs = profiler.stop().statistics;
  await sleep(50);
  observer.disconnect();
  let freed = 0;
  for (const gc of gcs) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  const perFrame = Array.from(phaseMs, (ms) => ms / frames);
  return {
    label: runner.label,
    phaseNames: runner.phaseNames,
    phaseMs: perFrame,
    totalMs: perFrame.reduce((a, b) => a + b, 0),
    heapBytesPerFrame: (heapAfter - heapBefore) / frames,
    allocatedBytesPerFrame: (heapAfter - heapBefore + freed) / frames,
    gcCount,
    gcMinor,
    gcMs,
    frames,
  };
}

/** Milliseconds with three significant digits or so. */
export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

/** Whole bytes with thousands separators. */
export function formatBytes(bytes: number): string {
  return Math.round(bytes).toLocaleString('en-US');
}

/** The kind of a 'gc' entry (`perf_hooks.constants.NODE_PERFORMANCE_GC_*`); @types/node omits `detail`. */
function gcKind(entry: PerformanceEntry): number | undefined {
  return (entry as PerformanceEntry & { readonly detail?: NodeGCPerformanceDetail }).detail?.kind;
}

/** The median of `values` (the mean of the middle two for an even count); `values` is not changed. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `step`s each of `worlds` `frames` times by `dt`, the worlds in turn every frame (the order
 * rotating, so none is always first), yielding to the event loop between frames; returns each
 * world's milliseconds per step. How the bench's paired rows compare two worlds on the same
 * machine moment.
 */
export async function alternateSteps(worlds: readonly AnimationWorld[], frames: number, dt: number): Promise<number[][]> {
  const times = worlds.map(() => [] as number[]);
  for (let f = 0; f < frames; f++) {
    for (let n = 0; n < worlds.length; n++) {
      const k = (f + n) % worlds.length;
      const t0 = performance.now();
      step(worlds[k]!, dt);
      times[k]!.push(performance.now() - t0);
    }
    await Promise.resolve();
  }
  return times;
}
