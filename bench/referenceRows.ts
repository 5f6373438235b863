/**
 * The "scalar reference kernel vs step" rows of the crowd benchmark (issue 18 item 1): on the
 * bench crowd (64 joints, two clips blended 0.6 / 0.4, own times and speeds), `step` against
 * the hand-fused scalar kernel of bench/referenceKernel.ts — the ceiling of plain TypeScript
 * for this frame — at each crowd size of BENCH_SIZES.
 *
 * Per size: both crowds are built from the same plan and warmed up by the same frames; their
 * palettes must then agree within 1e-5 on every element of every character, or the run
 * throws. The contenders then alternate frame by frame in this process (step first on even
 * frames, the reference first on odd ones), each frame timed with `performance.now()`, and
 * each row reports the median frame of each. After the timed frames (the same count for
 * both) the palettes are compared again. BENCH_REFERENCE=0 skips the rows.
 */
import { step } from '../src/index.js';
import { createBitanimCrowd } from './bitanimCrowd.js';
import { collectGarbage, formatMs, runFrames } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets } from './plan.js';
import { createReferenceKernel, maxReferenceDifference, runReferenceKernel } from './referenceKernel.js';

/** Untimed frames of both before the first check and the timing. */
const WARMUP_FRAMES = 20;
/** Largest palette element difference allowed between the reference and `step`. */
const TOLERANCE = 1e-5;

/** One crowd size. */
export interface ReferenceRow {
  readonly count: number;
  /** Median ms per frame of `step`. */
  readonly stepMs: number;
  /** Median ms per frame of the reference kernel. */
  readonly referenceMs: number;
  /** Largest palette element difference, after the warm-up and after the timed frames. */
  readonly difference: number;
  /** Timed frames of each. */
  readonly frames: number;
}

/** BENCH_REFERENCE: unset or anything but "0" runs the rows. */
export function referenceRowsEnabled(value: string | undefined = process.env['BENCH_REFERENCE']): boolean {
  return value === undefined || value.trim() !== '0';
}

/** Measures `step` against the reference kernel at each of `sizes`; see the file header. */
export async function benchmarkReference(
  assets: CrowdAssets, sizes: readonly number[], frames: number | undefined, dt: number, weights: readonly number[],
): Promise<ReferenceRow[]> {
  const rows: ReferenceRow[] = [];
  for (const count of sizes) {
    rows.push(await benchmarkSize(assets, count, frames, dt, weights));
    collectGarbage();
  }
  return rows;
}

async function benchmarkSize(
  assets: CrowdAssets, count: number, framesOption: number | undefined, dt: number, weights: readonly number[],
): Promise<ReferenceRow> {
  const plan = planCrowd(assets, count, weights);
  const crowd = createBitanimCrowd(plan, 'step');
  const world = crowd.world;
  const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, count, world.blendThreshold);
  kernel.dt[0] = dt;
  const stepPalette = crowd.palette;

  runFrames(crowd, WARMUP_FRAMES, dt);
  for (let f = 0; f < WARMUP_FRAMES; f++) runReferenceKernel(kernel, 0, count);
  const before = maxReferenceDifference(kernel, stepPalette);
  if (!(before <= TOLERANCE)) throw new Error(`reference kernel and step disagree at ${count} characters after ${WARMUP_FRAMES} frames: max |Δ| ${before}`);

  const frames = framesOption ?? Math.min(Math.max(Math.round(300_000 / count), 60), 300);
  const stepMs = new Float64Array(frames);
  const referenceMs = new Float64Array(frames);
  collectGarbage();
  for (let f = 0; f < frames; f++) {
    if ((f & 1) === 0) {
      const t0 = performance.now();
      step(world, dt);
      const t1 = performance.now();
      runReferenceKernel(kernel, 0, count);
      const t2 = performance.now();
      stepMs[f] = t1 - t0;
      referenceMs[f] = t2 - t1;
    } else {
      const t0 = performance.now();
      runReferenceKernel(kernel, 0, count);
      const t1 = performance.now();
      step(world, dt);
      const t2 = performance.now();
      referenceMs[f] = t1 - t0;
      stepMs[f] = t2 - t1;
    }
  }
  const after = maxReferenceDifference(kernel, stepPalette);
  if (!(after <= TOLERANCE)) throw new Error(`reference kernel and step disagree at ${count} characters after ${WARMUP_FRAMES + frames} frames: max |Δ| ${after}`);
  return { count, stepMs: median(stepMs), referenceMs: median(referenceMs), difference: Math.max(before, after), frames };
}

/** Prints the rows as a markdown table with its notes. */
export function printReference(rows: readonly ReferenceRow[]): void {
  console.log('\n## Scalar reference kernel vs step\n');
  console.log('The bench crowd (two clips blended 0.6 / 0.4, 64 joints) through `step` and through one hand-fused');
  console.log('scalar pass per character (bench/referenceKernel.ts: sample both clips, blend, local → model, palette).');
  console.log('Alternating frame by frame in this process; medians.\n');
  console.log('| N | step ms/frame | step ns/joint | reference ms/frame | reference ns/joint | step / reference | max palette difference | frames |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const joints = r.count * JOINT_COUNT;
    const stepNs = (r.stepMs * 1e6) / joints;
    const referenceNs = (r.referenceMs * 1e6) / joints;
    console.log(
      `| ${r.count.toLocaleString('en-US')} | ${formatMs(r.stepMs)} | ${stepNs.toFixed(0)} | ${formatMs(r.referenceMs)} | ${referenceNs.toFixed(0)} | ` +
        `${(r.stepMs / r.referenceMs).toFixed(2)}× | ${r.difference.toExponential(1)} | ${r.frames} |`,
    );
  }
  console.log('\n- `step` also runs what this crowd does not need (lod, inertialization history, root motion, follow, aim) and');
  console.log('  goes through the layer-pose, LocalPose and ModelPose pools; the reference keeps one character\'s model');
  console.log('  matrices as its only intermediate array. Both are checked to agree within 1e-5 per palette element');
  console.log('  (every element of every character) before and after the timed frames, or the bench throws.');
}

/** Median of the values (sorted in place). */
function median(values: Float64Array): number {
  values.sort();
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}
