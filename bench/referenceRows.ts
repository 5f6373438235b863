/**
 * The "scalar reference kernel vs step" rows of the crowd benchmark (issue 18 items 1 and 3):
 * on the bench crowd (64 joints, two clips blended 0.6 / 0.4, own times and speeds), `step` on
 * the JavaScript kernels and `step` on the WebAssembly kernels (`createAnimationWorld({ kernels })`,
 * docs/wasm.md) against the hand-fused scalar kernel of bench/referenceKernel.ts — the ceiling
 * of plain TypeScript for this frame — at each crowd size of BENCH_SIZES.
 *
 * Per size: the crowds are built from the same plan and warmed up by the same frames; both
 * worlds' palettes must then agree within 1e-5 with the reference's on every element of every
 * character, and the wasm world's with the JS world's (the wasm kernels compute in float32,
 * docs/wasm.md), or the run throws. The
 * contenders then alternate frame by frame in this process (the order rotates each frame, so
 * each runs first, second and third equally often), each frame timed with `performance.now()`,
 * and each row reports the median frame of each. After the timed frames (the same count for
 * all) the palettes are compared again. Without WebAssembly kernels (not built, no SIMD) the
 * wasm column is left empty. BENCH_REFERENCE=0 skips the rows.
 */
import { step, type AnimationWorld } from '../src/index.js';
import { createBitanimCrowd, type BitanimCrowd } from './bitanimCrowd.js';
import { collectGarbage, formatMs, runFrames } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets } from './plan.js';
import { createReferenceKernel, maxReferenceDifference, runReferenceKernel } from './referenceKernel.js';

/** Untimed frames of each before the first check and the timing. */
const WARMUP_FRAMES = 20;
/** Largest palette element difference allowed between the reference and `step`. */
const TOLERANCE = 1e-5;

/** One crowd size. */
export interface ReferenceRow {
  readonly count: number;
  /** Median ms per frame of `step` on the JavaScript kernels. */
  readonly stepMs: number;
  /** Median ms per frame of `step` on the WebAssembly kernels, or NaN without them. */
  readonly wasmMs: number;
  /** Median ms per frame of the reference kernel. */
  readonly referenceMs: number;
  /** Largest palette element difference from the reference (either world), after the warm-up and after the timed frames. */
  readonly difference: number;
  /** Timed frames of each. */
  readonly frames: number;
}

/** BENCH_REFERENCE: unset or anything but "0" runs the rows. */
export function referenceRowsEnabled(value: string | undefined = process.env['BENCH_REFERENCE']): boolean {
  return value === undefined || value.trim() !== '0';
}

/** Measures `step` (JS and wasm kernels) against the reference kernel at each of `sizes`; see the file header. */
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

/** The wasm crowd, or null where the WebAssembly kernels are not available ('wasm' is refused). */
function wasmCrowd(plan: ReturnType<typeof planCrowd>): BitanimCrowd | null {
  try {
    return createBitanimCrowd(plan, 'step', 'wasm');
  } catch (error) {
    console.log(`(no WebAssembly kernels for the reference rows: ${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

/** The largest difference between two worlds' palette elements (NaN if any is NaN on one side only). */
function paletteDifference(a: AnimationWorld, b: AnimationWorld): number {
  const x = a.components.SkinPalette.data, y = b.components.SkinPalette.data;
  if (x.length !== y.length) return NaN;
  let max = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.abs(x[i]! - y[i]!);
    if (d > max) max = d;
    else if (Number.isNaN(d) && !(Number.isNaN(x[i]!) && Number.isNaN(y[i]!))) return NaN;
  }
  return max;
}

async function benchmarkSize(
  assets: CrowdAssets, count: number, framesOption: number | undefined, dt: number, weights: readonly number[],
): Promise<ReferenceRow> {
  const plan = planCrowd(assets, count, weights);
  const js = createBitanimCrowd(plan, 'step', 'js');
  const wasm = wasmCrowd(plan);
  const kernel = createReferenceKernel(plan.skeleton, plan.clips, plan.weights, plan.startTime, plan.speed, count, js.world.blendThreshold);
  kernel.dt[0] = dt;

  runFrames(js, WARMUP_FRAMES, dt);
  if (wasm !== null) runFrames(wasm, WARMUP_FRAMES, dt);
  for (let f = 0; f < WARMUP_FRAMES; f++) runReferenceKernel(kernel, 0, count);
  const check = (when: string): number => {
    const difference = Math.max(maxReferenceDifference(kernel, js.palette), wasm !== null ? maxReferenceDifference(kernel, wasm.palette) : 0);
    if (!(difference <= TOLERANCE)) throw new Error(`reference kernel and step disagree at ${count} characters ${when}: max |Δ| ${difference}`);
    const kernels = wasm !== null ? paletteDifference(js.world, wasm.world) : 0;
    if (!(kernels <= TOLERANCE)) throw new Error(`step on wasm and on JS kernels differ at ${count} characters ${when}: max |Δ| ${kernels}`);
    return difference;
  };
  const before = check(`after ${WARMUP_FRAMES} frames`);

  const frames = framesOption ?? Math.min(Math.max(Math.round(300_000 / count), 60), 300);
  const stepMs = new Float64Array(frames);
  const wasmMs = new Float64Array(frames);
  const referenceMs = new Float64Array(frames);
  const jsWorld = js.world, wasmWorld = wasm?.world ?? null;
  collectGarbage();
  for (let f = 0; f < frames; f++) {
    // Rotating order: on frame f, contender (f + k) % 3 runs k-th.
    for (let k = 0; k < 3; k++) {
      const which = (f + k) % 3;
      const t0 = performance.now();
      if (which === 0) step(jsWorld, dt);
      else if (which === 1) {
        if (wasmWorld !== null) step(wasmWorld, dt);
      } else runReferenceKernel(kernel, 0, count);
      const ms = performance.now() - t0;
      if (which === 0) stepMs[f] = ms;
      else if (which === 1) wasmMs[f] = ms;
      else referenceMs[f] = ms;
    }
  }
  const after = check(`after ${WARMUP_FRAMES + frames} frames`);
  return {
    count, stepMs: median(stepMs), wasmMs: wasm !== null ? median(wasmMs) : NaN, referenceMs: median(referenceMs),
    difference: Math.max(before, after), frames,
  };
}

/** Prints the rows as a markdown table with its notes. */
export function printReference(rows: readonly ReferenceRow[]): void {
  console.log('\n## Scalar reference kernel vs step (JavaScript and WebAssembly kernels)\n');
  console.log('The bench crowd (two clips blended 0.6 / 0.4, 64 joints) through `step` on the JavaScript kernels, through');
  console.log('`step` on the WebAssembly kernels (`kernels: \'wasm\'`: sampling dense clips, the override blend and skinning in WebAssembly SIMD so far, docs/wasm.md), and');
  console.log('through one hand-fused scalar pass per character (bench/referenceKernel.ts: sample both clips, blend, local → model,');
  console.log('palette). The three alternate frame by frame in this process (rotating order); medians.\n');
  console.log('| N | reference ns/joint | step (JS) ns/joint | step (wasm) ns/joint | JS / reference | wasm / reference | wasm / JS | reference · JS · wasm ms/frame | max palette difference | frames |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const joints = r.count * JOINT_COUNT;
    const ns = (ms: number): string => (Number.isNaN(ms) ? '—' : ((ms * 1e6) / joints).toFixed(0));
    const ratio = (a: number, b: number): string => (Number.isNaN(a) || Number.isNaN(b) ? '—' : `${(a / b).toFixed(2)}×`);
    console.log(
      `| ${r.count.toLocaleString('en-US')} | ${ns(r.referenceMs)} | ${ns(r.stepMs)} | ${ns(r.wasmMs)} | ${ratio(r.stepMs, r.referenceMs)} | ` +
        `${ratio(r.wasmMs, r.referenceMs)} | ${ratio(r.wasmMs, r.stepMs)} | ${formatMs(r.referenceMs)} · ${formatMs(r.stepMs)} · ${Number.isNaN(r.wasmMs) ? '—' : formatMs(r.wasmMs)} | ` +
        `${r.difference.toExponential(1)} | ${r.frames} |`,
    );
  }
  console.log('\n- `step` also runs what this crowd does not need (lod, inertialization, root motion, follow, aim) and');
  console.log('  goes through a per-thread layer scratch and the LocalPose and ModelPose pools; the reference keeps one character\'s model');
  console.log('  matrices as its only intermediate array. Both worlds are checked to agree with it within 1e-5 per palette');
  console.log('  element (every element of every character), and the wasm world\'s palettes the JS world\'s within 1e-5,');
  console.log('  before and after the timed frames, or the bench throws. Targets (issue 18): JS ≤ 1.2×, wasm ≤ 0.6× the reference.');
}

/** Median of the values (sorted in place). */
function median(values: Float64Array): number {
  values.sort();
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}
