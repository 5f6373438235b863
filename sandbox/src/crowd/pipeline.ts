/**
 * The frame of `step`, run system by system with a timer around each, for the overlay.
 * The systems are bitanim's frame table (`defaultFrame.systems`, src/frame.ts), which the
 * crowd's worlds run: nothing here lists them.
 *
 * - 'chunked': exactly what `step` does — the caller systems (`FrameSystem.caller`: the state
 *   machines) once over the whole crowd, then the characters `FRAME_CHUNK` at a time, each chunk
 *   through every other system of the frame in order — with each system's time summed over the
 *   chunks (cross-origin isolation gives performance.now() 5 µs resolution; see vite.config.ts);
 * - 'systems': each system over the whole crowd in turn, as the "bitanim systems" row of
 *   `npm run bench` times them;
 * - 'step': one `step` call, timed as a whole.
 * All three give the same poses (test/step.test.ts checks chunked = whole); each frame begins
 * and ends as `step`'s does (`beginFrame`, `endFrame`: the clock advances there, once).
 *
 * A world of more than one thread runs `stepParallel` instead (`runParallel`): its wall time,
 * from the call to the promise's settling, and each thread's share from `world.parallel.timing`
 * (thread 0 is the page's own thread); systems are not timed one by one there.
 */
import { defaultFrame, step, stepParallel, type AnimationWorld, type Frame, type FrameSystem } from 'bitanim';
import { beginFrame, endFrame, FRAME_CHUNK, PARALLEL_MIN_CHARACTERS } from 'bitanim/kernels';

export type TimingMode = 'chunked' | 'systems' | 'step';

/** Frames averaged for the overlay. */
const WINDOW = 90;

export class TimedPipeline {
  readonly names: string[];
  private readonly systems: readonly FrameSystem[];
  /** Last `WINDOW` frames' ms per system (ring), plus the total (last column). */
  private readonly history: Float64Array;
  private readonly frameMs: Float64Array;
  private frames = 0;
  /** Last `WINDOW` threaded frames' ms per thread (ring), `threads` columns. */
  private threadHistory = new Float64Array(0);
  /** Threads of the frames timed: 1 for `run`, the world's `threads` for `runParallel`. */
  threads = 1;
  /** Whether the last threaded frame ran inline (fewer than PARALLEL_MIN_CHARACTERS characters: no per-thread times). */
  inline = false;
  mode: TimingMode = 'chunked';

  /** Times `frame` (the table `step` runs: the crowd's worlds run the default one). */
  constructor(frame: Frame = defaultFrame) {
    this.systems = frame.systems;
    this.names = this.systems.map((system) => system.name);
    this.frameMs = new Float64Array(this.names.length + 1);
    this.history = new Float64Array(WINDOW * (this.names.length + 1));
  }

  /** Advances `world` by `dt` and records the times. */
  run(world: AnimationWorld, dt: number): void {
    if (this.threads !== 1) this.reset(1);
    const ms = this.frameMs;
    ms.fill(0);
    const systems = this.systems, n = systems.length;
    const start = performance.now();
    if (this.mode === 'step') {
      step(world, dt);
    } else if (this.mode === 'systems') {
      const count = beginFrame(world);
      for (let s = 0; s < n; s++) {
        const t0 = performance.now();
        systems[s]!.entities(world, dt, 0, count);
        ms[s] = performance.now() - t0;
      }
      endFrame(world, dt);
    } else {
      const count = beginFrame(world);
      // The caller systems (stateMachineSystem) once over the whole crowd first, as runFrame runs them.
      for (let s = 0; s < n; s++) {
        if (systems[s]!.caller !== true) continue;
        const t0 = performance.now();
        systems[s]!.entities(world, dt, 0, count);
        ms[s] = performance.now() - t0;
      }
      for (let first = 0; first < count; first += FRAME_CHUNK) {
        const end = Math.min(first + FRAME_CHUNK, count);
        let t0 = performance.now();
        for (let s = 0; s < n; s++) {
          if (systems[s]!.caller === true) continue;
          systems[s]!.entities(world, dt, first, end);
          const t1 = performance.now();
          ms[s] += t1 - t0;
          t0 = t1;
        }
      }
      endFrame(world, dt);
    }
    ms[n] = performance.now() - start;
    this.history.set(ms, (this.frames % WINDOW) * (n + 1));
    this.frames++;
  }

  /**
   * Advances `world` (of `world.threads` > 1) by `dt` with `stepParallel` and records the
   * frame's wall time and each thread's ms. The caller makes no other call on the world until
   * the promise settles.
   */
  async runParallel(world: AnimationWorld, dt: number, characters: number): Promise<void> {
    const threads = world.threads;
    if (threads !== this.threads) this.reset(threads);
    const start = performance.now();
    await stepParallel(world, dt);
    const wall = performance.now() - start;
    const width = this.names.length + 1;
    const row = this.frames % WINDOW;
    this.history.fill(0, row * width, (row + 1) * width);
    this.history[row * width + width - 1] = wall;
    this.inline = characters < PARALLEL_MIN_CHARACTERS;
    const timing = world.parallel!.timing;
    for (let t = 0; t < threads; t++) this.threadHistory[row * threads + t] = this.inline ? 0 : timing[t]!;
    this.frames++;
  }

  /**
   * Mean ms per frame of each system (and `total`: the wall time with threads) over the last
   * frames; systems are 0 in 'step' mode and with threads; `threadMs`: each thread's share
   * (thread 0: this page's), empty with one thread.
   */
  means(): { names: string[]; ms: number[]; total: number; frames: number; threadMs: number[] } {
    const width = this.names.length + 1;
    const count = Math.min(this.frames, WINDOW);
    const sums = new Array<number>(width).fill(0);
    for (let f = 0; f < count; f++) for (let s = 0; s < width; s++) sums[s]! += this.history[f * width + s]!;
    const mean = sums.map((v) => (count > 0 ? v / count : 0));
    const threadMs: number[] = [];
    if (this.threads > 1) {
      for (let t = 0; t < this.threads; t++) {
        let sum = 0;
        for (let f = 0; f < count; f++) sum += this.threadHistory[f * this.threads + t]!;
        threadMs.push(count > 0 ? sum / count : 0);
      }
    }
    return { names: this.names, ms: mean.slice(0, -1), total: mean[width - 1]!, frames: count, threadMs };
  }

  /** Forgets the frames timed; `threads`: the thread count of the frames to come (1: `run`). */
  reset(threads = this.threads): void {
    this.frames = 0;
    this.history.fill(0);
    this.threads = threads;
    if (this.threadHistory.length !== WINDOW * threads) this.threadHistory = new Float64Array(WINDOW * threads);
    else this.threadHistory.fill(0);
  }
}
