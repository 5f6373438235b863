/**
 * The reduced-clip rows of the crowd benchmark: what sampling a reduced (LOD) clip costs per
 * joint against sampling the uniform clip it came from (issue 7 acceptance: at most 1.5×).
 *
 * The clips are the crowd's two (64 joints, 31 and 41 frames at 30 fps; a synthetic skeleton
 * about 1.8 m from the root to its farthest joint, 16 joints on the longest chain) reduced by
 * `reduceClip` (src/offline/lod/reduceClip.ts) at 1 mm and 5 mm of model-space joint error with ATKINS
 * keys (16-bit curves where the tolerance allows, the default; at 5 mm also 32-bit,
 * `quantize: false`), and at 5 mm with its uniform-decimation baseline (keys every k frames
 * per channel):
 * real reductions, whose keys differ from channel to channel within a track. Constant channels
 * (the non-root translations) become constants, as any reducer makes them. The reductions run
 * before the timing (about a second) in a worker thread (bench/reduceWorker.ts), and the clips
 * are rebuilt here from its curves with `createReducedClip`: the timed isolate never runs the
 * reducer. Run here, the reducer's clip construction discarded the samplers' optimized code
 * while they were hot ("code dependencies": it generalizes fields of the clips' hidden
 * classes), and in about a quarter of processes V8 then kept `sampleReduced16Into` (the 16-bit
 * kernel) or `sampleClipInto` in baseline code for the whole timing — the 16-bit rows at
 * ~2.8× uniform, or the uniform row at ~20 instead of ~12 ns/joint (docs/motion-lod.md, Memory).
 *
 * Kernel rows: `count` characters, each with its own time and speed on one of the two clips,
 * advanced by speed × dt (wrapping) and sampled with `sampleClipInto` (which sends reduced
 * clips to `sampleReducedInto`) into its own pose block, every frame. ns/joint = time /
 * (count × 64 × frames). Variants run alternately, one round each in turn, several rounds;
 * each row reports its median round (the machine is shared: alternating spreads its
 * disturbances over all rows). sampleSystem rows: the 'bitanim systems' crowd
 * (two layers, weights 0.6 / 0.4) timed in its sample phase, with uniform or reduced clips.
 */
import { Worker } from 'node:worker_threads';
import { type Clip } from '../src/index.js';
import { sampleClipInto, sampleReducedInto } from '../src/kernels.js';
import { createReducedClip } from '../src/lod.js';
import type { ReducedTracks } from '../src/assets/ReducedTracks.js';
import { sampleReduced16Into } from '../src/assets/sampleReduced.js';
import type { ReduceOptions, ReduceReply } from './reduceWorker.js';
import { createBitanimCrowd } from './bitanimCrowd.js';
import { collectGarbage, measure, runFrames } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets } from './plan.js';

/**
 * BENCH_REDUCED_TRACE=1 (with node --allow-natives-syntax): prints every round's kernel figure and
 * V8's optimization status of the kernel functions after the rounds (%GetOptimizationStatus bits:
 * 16 optimized, 64 TurboFan, 32768 baseline code).
 */
const TRACE = process.env['BENCH_REDUCED_TRACE'] === '1';
function optimizationStatus(f: unknown): string {
  if (!process.execArgv.includes('--allow-natives-syntax')) return 'unknown (run node with --allow-natives-syntax)';
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return (new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number)(f).toString(2);
}

/** One row of the table. */
export interface ReducedRow {
  readonly label: string;
  /** Per-channel keys kept / all channel-frames of both clips. */
  readonly keyShare: number;
  /** Largest model-space joint error of the two reductions as `reduceClip` measured it, metres (0 for the source clips). */
  readonly maxError: number;
  /** Bytes of both clips' sampled data: frames for uniform, `stats.bytes` for reduced. */
  readonly bytes: number;
  /** Kernel: ns per joint, median round. */
  readonly kernelNs: number;
  /** sampleSystem over the two-layer crowd: ns per joint (per character and joint, both layers). */
  readonly systemNs: number;
}

/** What {@link printReducedSampling} prints. */
export interface ReducedResult {
  readonly count: number;
  readonly frames: number;
  readonly rounds: number;
  readonly rows: readonly ReducedRow[];
}

interface Variant {
  readonly label: string;
  readonly clips: readonly Clip[];
}

const ROUNDS = 9;
/** Crowd size of these rows unless BENCH_REDUCED says otherwise. */
const REDUCED_CROWD = 2_000;

/** BENCH_REDUCED: unset → 2,000 characters; 0 → skip the reduced rows; another integer → that size. */
export function reducedCrowdSize(value: string | undefined = process.env['BENCH_REDUCED']): number {
  if (value === undefined || value.trim() === '') return REDUCED_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_REDUCED="${value}": expected 0 (skip the reduced rows) or a crowd size`);
  return n;
}

/**
 * The crowd's clips reduced with each of `options` by `reduceClip` in a worker thread (its own
 * V8 isolate), rebuilt here from the posted curves with `createReducedClip` (the clips
 * `reduceClip` returns, the same curves and stats). See the file header for why.
 */
async function reduceInWorker(assets: CrowdAssets, options: readonly ReduceOptions[]): Promise<Clip[][]> {
  const worker = new Worker(new URL('./reduceWorker.js', import.meta.url), { workerData: options });
  const reply = await new Promise<ReduceReply>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return reply.map((clips) =>
    clips.map(({ tracks, stats }, i) => createReducedClip(assets.clips[i]!, Object.freeze(tracks) as ReducedTracks, stats)),
  );
}

/** Measures the uniform clips and three reductions of them by reduceClip; see the file header. */
export async function benchmarkReducedSampling(assets: CrowdAssets, count: number, frameOverride: number | undefined, dt: number): Promise<ReducedResult> {
  const options: ReduceOptions[] = [
    { tolerance: 0.001, method: 'atkins', quantize: true },
    { tolerance: 0.005, method: 'atkins', quantize: true },
    { tolerance: 0.005, method: 'atkins', quantize: false },
    { tolerance: 0.005, method: 'uniform', quantize: true },
  ];
  const reduced = await reduceInWorker(assets, options);
  const variants: Variant[] = [
    { label: 'uniform clips (31 and 41 frames)', clips: assets.clips },
    { label: 'reduceClip ATKINS, 1 mm', clips: reduced[0]! },
    { label: 'reduceClip ATKINS, 5 mm', clips: reduced[1]! },
    { label: 'reduceClip ATKINS, 5 mm, 32-bit (quantize: false)', clips: reduced[2]! },
    { label: 'reduceClip uniform decimation, 5 mm', clips: reduced[3]! },
  ];
  const frames = frameOverride ?? 200;
  const poseSize = JOINT_COUNT * 10;
  const out = new Float32Array(count * poseSize);
  const times = new Float64Array(count);
  const speeds = new Float64Array(count);
  const plan = planCrowd(assets, count, [0.6, 0.4]);
  for (let i = 0; i < count; i++) {
    times[i] = plan.startTime[i * 2]! % assets.clips[i % 2]!.duration;
    speeds[i] = plan.speed[i * 2]!;
  }
  // One frame per call: after the warm-up the frame loop runs as ordinarily optimized code. A
  // frames loop around it in one function was compiled on the stack (OSR) while the first
  // variants ran, and measured whichever reduced variant came first after the uniform clips at
  // 2.4–2.8× uniform instead of ~1.4× (the same kernel, later in the order, at ~1.4×).
  const frame = (a: Clip, b: Clip): void => {
    for (let i = 0; i < count; i++) {
      const clip = (i & 1) === 0 ? a : b;
      const duration = clip.duration;
      let t = times[i]! + speeds[i]! * dt;
      t -= Math.floor(t / duration) * duration;
      times[i] = t < duration ? t : 0;
      sampleClipInto(out, i * poseSize, clip, times, i);
    }
  };
  const run = (clips: readonly Clip[], n: number): void => {
    for (let f = 0; f < n; f++) frame(clips[0]!, clips[1]!);
  };
  const rounds: number[][] = variants.map(() => []);
  for (const v of variants) run(v.clips, 30); // warm-up: every variant compiled before timing
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < variants.length; k++) {
      const start = performance.now();
      run(variants[k]!.clips, frames);
      rounds[k]!.push(((performance.now() - start) * 1e6) / (count * JOINT_COUNT * frames));
    }
  }
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
  };
  if (TRACE) {
    for (let k = 0; k < variants.length; k++) console.log(`trace: ${variants[k]!.label}: ${rounds[k]!.map((x) => x.toFixed(1)).join(' ')} ns/joint`);
    const fns = { frame, sampleClipInto, sampleReducedInto, sampleReduced16Into };
    console.log(`trace: optimization status (binary): ${Object.entries(fns).map(([name, f]) => `${name} ${optimizationStatus(f)}`).join(', ')}`);
  }
  if (!out.every(Number.isFinite)) throw new Error('reduced bench: a sampled pose is not finite');

  const rows: ReducedRow[] = [];
  for (let k = 0; k < variants.length; k++) {
    const { label, clips } = variants[k]!;
    collectGarbage();
    const crowd = createBitanimCrowd({ ...plan, clips });
    runFrames(crowd, 20, dt);
    const m = await measure(crowd, Math.max(20, Math.round(frames / 4)), dt);
    let kept = 0, all = 0, bytes = 0, maxError = 0;
    for (const clip of clips) {
      maxError = Math.max(maxError, clip.stats?.maxError ?? 0);
      all += clip.frameCount * clip.skeleton.jointCount * 10;
      kept += clip.reduced === null ? clip.frameCount * clip.skeleton.jointCount * 10 : clip.reduced.keyCount;
      bytes += clip.stats === null ? clip.frames.byteLength : clip.stats.bytes;
    }
    // The sample phase by name: the frame table runs lodSystem first (phase 0 is 'lod').
    const sample = crowd.phaseNames.indexOf('sample');
    if (sample < 0) throw new Error(`reduced bench: no 'sample' phase in ${crowd.phaseNames.join(', ')}`);
    rows.push({ label, keyShare: kept / all, maxError, bytes, kernelNs: median(rounds[k]!), systemNs: (m.phaseMs[sample]! * 1e6) / (count * JOINT_COUNT) });
  }
  collectGarbage();
  return { count, frames, rounds: ROUNDS, rows };
}

/** Prints the reduced-sampling table and its notes. */
export function printReducedSampling(r: ReducedResult): void {
  const base = r.rows[0]!;
  console.log(`\n## Reduced (LOD) clips: sampling cost per joint, ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints\n`);
  console.log('| clips | keys kept | max error, mm | bytes (both clips) | sampleClipInto ns/joint | vs uniform (target ≤ 1.5×) | sampleSystem ns/joint (2 layers) | vs uniform |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    console.log(
      `| ${row.label} | ${(100 * row.keyShare).toFixed(1)} % | ${(1000 * row.maxError).toFixed(2)} | ${row.bytes.toLocaleString('en-US')} | ${row.kernelNs.toFixed(1)} | ` +
        `${(row.kernelNs / base.kernelNs).toFixed(2)}× | ${row.systemNs.toFixed(1)} | ${(row.systemNs / base.systemNs).toFixed(2)}× |`,
    );
  }
  // The target is on the default (16-bit where the tolerance allows) reductions; 32-bit curves are an option.
  const defaults = r.rows.slice(1).filter((row) => !row.label.includes('32-bit'));
  const wide = r.rows.filter((row) => row.label.includes('32-bit'));
  const worst = Math.max(...defaults.map((row) => row.kernelNs / base.kernelNs));
  const worstSystem = Math.max(...defaults.map((row) => row.systemNs / base.systemNs));
  console.log(`\nreduced / uniform sampling per joint: at most ${worst.toFixed(2)}× in the sampleClipInto kernel, ${worstSystem.toFixed(2)}× in sampleSystem (target ≤ 1.5×)`);
  for (const row of wide) {
    console.log(`32-bit curves (option): ${(row.kernelNs / base.kernelNs).toFixed(2)}× in the kernel, ${(row.systemNs / base.systemNs).toFixed(2)}× in sampleSystem, for ${row.bytes.toLocaleString('en-US')} bytes`);
  }
  console.log(`\n- kernel: one clip per character, its own time and speed, ${r.frames} frames per round, median of ${r.rounds} rounds run alternately;`);
  console.log('  sampleSystem: the crowd above (two layers), its sample phase (time advance, events, root deltas, sampling).');
  console.log('- reduced clips: reduceClip on both crowd clips (bound on every joint\'s model-space position over every frame),');
  console.log('  run in a worker thread so that this process\'s compiled samplers are not discarded while clips are reduced;');
  console.log('  keys kept counts per-channel keys; the sampler\'s cost depends on which tracks are animated, not on how many keys they keep.');
  console.log('- bytes: Float32 frames for uniform clips; clip.stats.bytes (everything the reduced clip holds: the records of its curves, lookup table, constants; no frames) for reduced ones.');
}
