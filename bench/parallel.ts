/**
 * The thread rows of the crowd benchmark (issue 17, docs/threads.md): `step` against
 * `stepParallel` with 1 thread, 2 threads and all cores (`threads: 'auto'`), and where two
 * threads start to pay.
 *
 * Workload: the main table's crowd (bench/plan.ts: 64 joints, two looping clips blended
 * 0.6 / 0.4, the plan's start times and speeds; default 100, 1,000, 5,000 and 10,000
 * characters), and the LOD rows' walking crowd of 10,000 with distance LOD + update-rate LOD
 * (bench/lodCrowd.ts, levels updated every 1st / 2nd / 4th frame). Every contender is its own
 * world of the same plan, built once; then the contenders run in turn frame by frame in this one
 * process (`step(A)`, `await stepParallel(B)`, … — the order rotates each frame so none always
 * follows the same one), so a busy spell of the machine falls on all of them alike. Each
 * frame is timed on its own (`performance.now()` around the call and, for `stepParallel`, the
 * `await`, which is where the calling thread waits for the workers); a row gives the median
 * over the measured frames and the 25th–75th percentile range. After the run every world's
 * palettes are compared with the `step` world's (equal bit for bit, or the bench stops).
 *
 * For threaded frames, `world.parallel.timing` gives each thread's time in its chunks; the
 * rows show their medians, and "outside chunks" is the frame's wall time minus the longest
 * thread's: copying the frame's characters, waking the workers, merging events, settling the
 * promise.
 *
 * The `transactionalFrames` row is a 2-thread world that copies what a frame can write as each
 * frame starts (docs/threads.md): its time over the plain 2-thread row is that copy's cost.
 *
 * Threshold rows: `stepParallel` runs crowds under `PARALLEL_MIN_CHARACTERS` inline. To see
 * where two threads start to pay, these rows force the threaded frame at every size: they call
 * what `stepParallel` calls past its checks (`beginFrame`, then `runParallelFrame`, an
 * internal of src/parallel — not public API) on a 2-thread world, against `step`.
 *
 * Environment: BENCH_PARALLEL="1000,10000" picks the crowd sizes (0 skips these rows),
 * BENCH_PARALLEL_LOD the LOD crowd's size (0 skips it), BENCH_THRESHOLD the threshold sizes
 * (0 skips them), BENCH_FRAMES the measured frames (default: 60 to 400 as N shrinks).
 */
import { availableParallelism } from 'node:os';
import { beginFrame } from '../src/frame.js';
import { disposeAnimationWorld, getSkinPalette, step, stepParallel, type AnimationWorld } from '../src/index.js';
import { PARALLEL_MIN_CHARACTERS } from '../src/api/threads.js';
import { logicalCores } from '../src/memory/environment.js';
import { runParallelFrame } from '../src/parallel/threadPool.js';
import { createBitanimCrowd } from './bitanimCrowd.js';
import { createLodWorld, planWalkingCrowd, UPDATE_RATE_LOD } from './lodCrowd.js';
import { collectGarbage, formatMs } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets } from './plan.js';

/** Crowd sizes of the thread rows unless BENCH_PARALLEL says otherwise. */
const SIZES = [100, 1000, 5000, 10_000];
/** Crowd size of the LOD thread rows unless BENCH_PARALLEL_LOD says otherwise. */
const LOD_CROWD = 10_000;
/** Crowd sizes of the threshold rows unless BENCH_THRESHOLD says otherwise. */
const THRESHOLD_SIZES = [128, 192, 256, 384, 512, 768, 1000];
/** Untimed frames before the measured ones (the first threaded frames also wait for the workers to load). */
const WARMUP_FRAMES = 30;
/** Layer weights of the crowd (as the main table). */
const WEIGHTS = [0.6, 0.4];

/** How a contender advances its world. */
type Kind = 'step' | 'stepParallel' | 'forced';

/** One world of a race and what was measured on it. */
interface Contender {
  readonly label: string;
  readonly kind: Kind;
  readonly world: AnimationWorld;
  readonly eids: Int32Array;
  /** Wall time of each measured frame, ms. */
  readonly ms: Float64Array;
  /** Per measured frame, the calling thread's time in its chunks (threaded frames only), ms. */
  readonly own: Float64Array;
  /** Per measured frame, the longest worker's time in its chunks (threaded frames only), ms. */
  readonly workers: Float64Array;
  /** Whether its frames run threaded (more than one thread and, unless forced, enough characters). */
  readonly threaded: boolean;
}

/** One printed row. */
export interface ThreadRow {
  readonly count: number;
  readonly label: string;
  readonly threads: number;
  readonly threaded: boolean;
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
  /** The `step` row's median / this row's. */
  readonly speedUp: number;
  /** Medians of the calling thread's and the longest worker's chunk time, and of the wall time outside the chunks, ms (threaded rows). */
  readonly own: number;
  readonly worker: number;
  readonly outside: number;
  readonly frames: number;
}

/** Everything the thread section prints. */
export interface ThreadResult {
  readonly cores: number;
  readonly auto: number;
  readonly rows: readonly ThreadRow[];
  readonly lodRows: readonly ThreadRow[];
  readonly thresholdRows: readonly ThreadRow[];
}

/** The sizes of the three parts, from the environment; null when every part is skipped. */
export function parallelSizes(env: NodeJS.ProcessEnv = process.env): { sizes: number[]; lod: number; threshold: number[] } | null {
  const sizes = parseSizes('BENCH_PARALLEL', env['BENCH_PARALLEL'], SIZES);
  const lod = parseSizes('BENCH_PARALLEL_LOD', env['BENCH_PARALLEL_LOD'], [LOD_CROWD])[0] ?? 0;
  const threshold = parseSizes('BENCH_THRESHOLD', env['BENCH_THRESHOLD'], THRESHOLD_SIZES);
  return sizes.length === 0 && lod === 0 && threshold.length === 0 ? null : { sizes, lod, threshold };
}

/** Measures the thread rows; disposes every threaded world it built, so the process can exit. */
export async function benchmarkParallel(assets: CrowdAssets, parts: { sizes: number[]; lod: number; threshold: number[] }, frames: number | undefined, dt: number): Promise<ThreadResult> {
  const auto = logicalCores();
  const threadCounts = auto > 2 ? [1, 2, auto] : [1, 2];
  const rows: ThreadRow[] = [];
  for (const count of parts.sizes) {
    const plan = planCrowd(assets, count, WEIGHTS);
    const contenders = [contender('step', 'step', createBitanimCrowd(plan, 'step'), 1)];
    for (const threads of threadCounts) {
      const label = threads === auto && auto > 2 ? `stepParallel, 'auto' (${auto})` : `stepParallel, ${threads}`;
      contenders.push(contender(label, 'stepParallel', createBitanimCrowd(plan, 'step', 'auto', threads), threads));
    }
    // What undoing a failed frame costs: the copy of the pools each frame takes as it starts.
    contenders.push(contender('stepParallel, 2, transactionalFrames', 'stepParallel', createBitanimCrowd(plan, 'step', 'auto', 2, true), 2));
    rows.push(...(await race(count, contenders, frames ?? framesFor(count), dt)));
  }

  const lodRows: ThreadRow[] = [];
  if (parts.lod > 0) {
    const { plan, baked } = planWalkingCrowd(assets, parts.lod);
    const contenders = [contender('step', 'step', createLodWorld(plan, UPDATE_RATE_LOD, baked), 1)];
    for (const threads of threadCounts) {
      contenders.push(contender(`stepParallel, ${threads}`, 'stepParallel', createLodWorld(plan, UPDATE_RATE_LOD, baked, threads), threads));
    }
    lodRows.push(...(await race(parts.lod, contenders, frames ?? framesFor(parts.lod), dt)));
  }

  const thresholdRows: ThreadRow[] = [];
  for (const count of parts.threshold) {
    const plan = planCrowd(assets, count, WEIGHTS);
    const contenders = [
      contender('step', 'step', createBitanimCrowd(plan, 'step'), 1),
      contender('2 threads, forced', 'forced', createBitanimCrowd(plan, 'step', 'auto', 2), 2),
    ];
    thresholdRows.push(...(await race(count, contenders, frames ?? framesFor(count), dt)));
  }
  return { cores: availableParallelism(), auto, rows, lodRows, thresholdRows };
}

/** Prints the thread section. */
export function printParallel(r: ThreadResult): void {
  console.log(`\n## Threads: step vs stepParallel, × ${JOINT_COUNT} joints (${r.cores} logical cores; threads: 'auto' = ${r.auto}${r.auto === 2 ? ', so the 2-thread rows are the all-cores rows' : ''})\n`);
  console.log('- the contenders alternate frame by frame in this process (own worlds of one plan, built once); median ms per frame over the');
  console.log('  measured frames, p25–p75 in brackets; speed-up = step median / row median; palettes equal to step\'s bit for bit after the run');
  console.log('- threads ms: median time in chunks of the calling thread / of the slowest worker; outside = median of wall − longest thread');
  console.log(`- stepParallel runs crowds under PARALLEL_MIN_CHARACTERS = ${PARALLEL_MIN_CHARACTERS} inline ("inline" rows)`);
  if (r.rows.length > 0) {
    console.log('');
    printRows(r.rows);
  }
  if (r.lodRows.length > 0) {
    console.log(`\n### ${r.lodRows[0]!.count.toLocaleString('en-US')} walking characters with distance LOD + update-rate LOD (k = ${UPDATE_RATE_LOD.join(' / ')}; bench/lodCrowd.ts)\n`);
    printRows(r.lodRows);
  }
  if (r.thresholdRows.length > 0) {
    console.log('\n### Threshold: 2 threads forced (the threaded frame at every size, PARALLEL_MIN_CHARACTERS bypassed) vs step\n');
    printRows(r.thresholdRows);
    const pays = r.thresholdRows.filter((row) => row.threaded && row.speedUp > 1).map((row) => row.count);
    console.log(`\n2 threads faster than step at: ${pays.length ? pays.map((n) => n.toLocaleString('en-US')).join(', ') : 'none of these sizes'}`);
  }
}

function printRows(rows: readonly ThreadRow[]): void {
  console.log(`| N | runtime | threads | ms/frame (p25–p75) | speed-up vs step | threads ms (own / worker) | outside ms | frames |`);
  console.log('| ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |');
  for (const row of rows) {
    const threads = row.threaded ? `${formatMs(row.own)} / ${formatMs(row.worker)}` : row.threads > 1 ? 'inline' : '—';
    const outside = row.threaded ? formatMs(row.outside) : '—';
    console.log(
      `| ${row.count.toLocaleString('en-US')} | ${row.label} | ${row.threads} | ${formatMs(row.median)} (${formatMs(row.p25)}–${formatMs(row.p75)}) | ` +
        `${row.label === 'step' ? '1' : row.speedUp.toFixed(2)}× | ${threads} | ${outside} | ${row.frames} |`,
    );
  }
}

function contender(label: string, kind: Kind, built: { world: AnimationWorld; eids: Int32Array }, threads: number): Contender {
  const threaded = threads > 1 && (kind === 'forced' || built.eids.length >= PARALLEL_MIN_CHARACTERS);
  return { label, kind, world: built.world, eids: built.eids, ms: new Float64Array(0), own: new Float64Array(0), workers: new Float64Array(0), threaded };
}

/**
 * Runs `WARMUP_FRAMES` and then `frames` measured frames of every contender in turn, checks
 * their palettes against the first (`step`), disposes the threaded worlds, and returns a row each.
 */
async function race(count: number, list: Contender[], frames: number, dt: number): Promise<ThreadRow[]> {
  const contenders = list.map((c) => ({ ...c, ms: new Float64Array(frames), own: new Float64Array(frames), workers: new Float64Array(frames) }));
  const n = contenders.length;
  collectGarbage();
  for (let f = -WARMUP_FRAMES; f < frames; f++) {
    for (let k = 0; k < n; k++) {
      const c = contenders[(((k + f) % n) + n) % n]!;
      const t0 = performance.now();
      if (c.kind === 'step') step(c.world, dt);
      else if (c.kind === 'stepParallel') await stepParallel(c.world, dt);
      else await forcedParallelStep(c.world, dt);
      const ms = performance.now() - t0;
      if (f < 0) continue;
      c.ms[f] = ms;
      const timing = c.world.parallel?.timing;
      if (c.threaded && timing !== undefined) {
        c.own[f] = timing[0]!;
        let worker = 0;
        for (let t = 1; t < timing.length; t++) worker = Math.max(worker, timing[t]!);
        c.workers[f] = worker;
      }
    }
  }
  const reference = contenders[0]!;
  for (const c of contenders.slice(1)) {
    for (let i = 0; i < count; i++) {
      const a = getSkinPalette(reference.world, reference.eids[i]!), b = getSkinPalette(c.world, c.eids[i]!);
      if (a.some((v, j) => !Object.is(v, b[j]))) throw new Error(`${c.label} and step disagree on character ${i} of ${count}`);
    }
  }
  for (const c of contenders) if (c.world.threads > 1) disposeAnimationWorld(c.world);
  const stepMedian = quantile(reference.ms, 0.5);
  return contenders.map((c) => {
    const outside = c.ms.map((ms, f) => ms - Math.max(c.own[f]!, c.workers[f]!));
    const median = quantile(c.ms, 0.5);
    return {
      count,
      label: c.label,
      threads: c.world.threads,
      threaded: c.threaded,
      median,
      p25: quantile(c.ms, 0.25),
      p75: quantile(c.ms, 0.75),
      speedUp: stepMedian / median,
      own: quantile(c.own, 0.5),
      worker: quantile(c.workers, 0.5),
      outside: quantile(outside, 0.5),
      frames,
    };
  });
}

/**
 * `stepParallel` without its `PARALLEL_MIN_CHARACTERS` check: what it runs past its checks
 * on a threaded world (src/api/threads.ts), for the threshold rows only.
 */
function forcedParallelStep(world: AnimationWorld, dt: number): Promise<void> {
  return runParallelFrame(world, dt, beginFrame(world));
}

/** Measured frames for a crowd of `count`: about 6 s of `step` frames at ~0.1 µs per joint, 60 to 400. */
function framesFor(count: number): number {
  return Math.min(Math.max(Math.round(600_000 / count), 60), 400);
}

/** The `q` quantile of `values` (linear between the two nearest ranks). */
function quantile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return NaN;
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at), hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** A size-list variable: unset → `fallback`; 0 → none; else comma-separated positive integers. */
function parseSizes(name: string, value: string | undefined, fallback: readonly number[]): number[] {
  if (value === undefined || value.trim() === '') return [...fallback];
  if (value.trim() === '0') return [];
  const list = value.split(',').map((s) => Number(s.trim()));
  if (!list.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`${name}="${value}": expected 0 (skip those rows) or crowd sizes separated by commas`);
  return list;
}
