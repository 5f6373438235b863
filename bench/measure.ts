/**
 * The measuring harness shared by both runtimes: frame timing per phase, heap growth and
 * garbage collections over a run of frames.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

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
  readonly label: string;
  readonly phaseNames: readonly string[];
  /** Milliseconds per frame of each phase. */
  readonly phaseMs: readonly number[];
  /** Milliseconds per frame, all phases. */
  readonly totalMs: number;
  /** `heapUsed` growth over the run divided by the frames; a lower bound when `gcCount > 0`. */
  readonly heapBytesPerFrame: number;
  /** Garbage collections (any kind) that ran during the measured frames. */
  readonly gcCount: number;
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
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcCount++;
      gcMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });

  const heapBefore = process.memoryUsage().heapUsed;
  for (let f = 0; f < frames; f++) runner.frame(dt, phaseMs);
  const heapAfter = process.memoryUsage().heapUsed;

  await sleep(50);
  observer.disconnect();
  const perFrame = Array.from(phaseMs, (ms) => ms / frames);
  return {
    label: runner.label,
    phaseNames: runner.phaseNames,
    phaseMs: perFrame,
    totalMs: perFrame.reduce((a, b) => a + b, 0),
    heapBytesPerFrame: (heapAfter - heapBefore) / frames,
    gcCount,
    gcMs,
    frames,
  };
}
