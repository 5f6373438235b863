/**
 * The frame of `step`, run system by system with a timer around each, for the overlay.
 *
 * - 'chunked': exactly what `step` does — the characters 128 at a time, each chunk through
 *   every system in DESIGN §4 order — with each system's time summed over the chunks
 *   (cross-origin isolation gives performance.now() 5 µs resolution; see vite.config.ts);
 * - 'systems': each system over the whole crowd in turn, as the "bitanim systems" row of
 *   `npm run bench` times them;
 * - 'step': one `step` call, timed as a whole.
 * All three give the same poses (test/step.test.ts checks chunked = whole).
 */
import {
  aimEntities,
  blendEntities,
  followEntities,
  inertializeEntities,
  lodEntities,
  rootMotionEntities,
  sampleEntities,
  skinEntities,
  step,
  type AnimationWorld,
} from 'bitanim';

export type TimingMode = 'chunked' | 'systems' | 'step';

type EntitiesFn = (world: AnimationWorld, dt: number, first: number, end: number) => void;

/** `step`'s chunk size (src/api.ts STEP_CHUNK). */
const CHUNK = 128;
/** Frames averaged for the overlay. */
const WINDOW = 90;

export class TimedPipeline {
  readonly names: string[];
  private readonly fns: EntitiesFn[];
  /** Last `WINDOW` frames' ms per system (ring), plus the total (last column). */
  private readonly history: Float64Array;
  private readonly frameMs: Float64Array;
  private frames = 0;
  mode: TimingMode = 'chunked';

  constructor() {
    // `step`'s systems in its order (src/api.ts, DESIGN §4).
    this.names = ['lod', 'sample', 'blend', 'inertialize', 'rootMotion', 'follow', 'aim', 'skin'];
    this.fns = [lodEntities, sampleEntities, blendEntities, inertializeEntities, rootMotionEntities, followEntities, aimEntities, skinEntities];
    this.frameMs = new Float64Array(this.names.length + 1);
    this.history = new Float64Array(WINDOW * (this.names.length + 1));
  }

  /** Advances `world` by `dt` and records the times. */
  run(world: AnimationWorld, dt: number): void {
    const ms = this.frameMs;
    ms.fill(0);
    const count = world.characters.dense.length;
    const fns = this.fns, n = fns.length;
    const start = performance.now();
    if (this.mode === 'step') {
      step(world, dt);
    } else if (this.mode === 'systems') {
      for (let s = 0; s < n; s++) {
        const t0 = performance.now();
        fns[s]!(world, dt, 0, count);
        ms[s] = performance.now() - t0;
      }
      world.time += dt;
    } else {
      for (let first = 0; first < count; first += CHUNK) {
        const end = Math.min(first + CHUNK, count);
        let t0 = performance.now();
        for (let s = 0; s < n; s++) {
          fns[s]!(world, dt, first, end);
          const t1 = performance.now();
          ms[s] += t1 - t0;
          t0 = t1;
        }
      }
      world.time += dt;
    }
    ms[n] = performance.now() - start;
    this.history.set(ms, (this.frames % WINDOW) * (n + 1));
    this.frames++;
  }

  /** Mean ms per frame of each system (and `total`) over the last frames; systems are 0 in 'step' mode. */
  means(): { names: string[]; ms: number[]; total: number; frames: number } {
    const width = this.names.length + 1;
    const count = Math.min(this.frames, WINDOW);
    const sums = new Array<number>(width).fill(0);
    for (let f = 0; f < count; f++) for (let s = 0; s < width; s++) sums[s]! += this.history[f * width + s]!;
    const mean = sums.map((v) => (count > 0 ? v / count : 0));
    return { names: this.names, ms: mean.slice(0, -1), total: mean[width - 1]!, frames: count };
  }

  reset(): void {
    this.frames = 0;
    this.history.fill(0);
  }
}
