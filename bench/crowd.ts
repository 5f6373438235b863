/**
 * Crowd benchmark: bitanim against three.js on the same crowd, printed as a markdown table.
 *
 * What is measured. N characters (default 1,000, 5,000 and 10,000) of one 64-joint synthetic
 * skeleton, each playing two looping clips (31 and 41 frames at 30 fps) on two layers with
 * weights 0.6 / 0.4 and its own start times and speeds. A frame (dt = 1/60 s) does, for every
 * character and joint: sample both clips at the current time (interpolate two keys), blend the
 * two poses by weight, compose local → model over the hierarchy, and multiply by the inverse
 * bind matrix into the skinning palette. Each phase is timed with `performance.now()`:
 *
 * - bitanim systems: the systems of the frame table (src/frame.ts: lod, sample, blend,
 *   inertialize, rootMotion, follow, aim, skin), each over the whole crowd in turn, timed one
 *   by one;
 * - bitanim step: `step`, which runs the same systems chunk by chunk (128 characters at a
 *   time, so layer poses are still in cache when blended) — what a game calls, and the figure
 *   the ratio uses;
 * - three.js: `mixer.update(dt)` per character (samples and mixes both actions),
 *   `scene.updateMatrixWorld()` (local → model), `skeleton.update()` per character (palette).
 *
 * Why it is fair. Same skeleton, same key data (three.js gets every key of every channel, no
 * track optimization), same weights, start times and speeds, same loop mode, same output (a
 * palette per joint, which is what a skinned renderer uploads). Neither side renders or skins
 * vertices. The two poses are checked to agree before timing. Both run in one process after
 * the same JIT warm-up; each N is measured after a full GC, and three.js's objects are dropped
 * before the next N. Differences that remain: bitanim nlerps where three.js slerps (at keys
 * and between actions), and three.js writes full 4×4 matrices where bitanim writes 3×4.
 *
 * Transitions (bitanim only; transitions.ts): after the tables, a crowd of 10,000 characters
 * that switches clips all the time, once per transition mode and once without transitions,
 * timing `step` and the `transition` calls apart.
 *
 * Motion LOD (lodCrowd.ts): last, a walking crowd of 10,000 at full rate, with distance LOD
 * only, and with distance LOD + update-rate LOD: the frame cost saved and the root travel
 * compared with the full-rate run.
 *
 * State machines (stateMachineCrowd.ts): after the transition rows, 10,000 characters each
 * running a locomotion machine with changing parameters against the same crowd switched by
 * `transition` / `setBlendSpace` calls, alternating frame by frame, medians and their ratio.
 * BENCH_MACHINES=0 skips the row; another number runs it at that crowd size.
 *
 * Followers + look-at + reach (aimCrowd.ts): a crowd of 10,000 characters that all aim a
 * look-at and a two-bone reach at moving followers, against the same crowd's plain `step`.
 * BENCH_AIM=0 skips those rows; another number runs them at that crowd size.
 *
 * Float curves (curvesCrowd.ts): the 10,000 crowd with 8 curves per character against the same
 * crowd without curves, alternating frame by frame, medians. BENCH_CURVES=0 skips the row;
 * another number runs it at that crowd size.
 *
 * Retargeting (retargetCrowd.ts): the 10,000 crowd on its own skeleton, on a 0.8× copy and on a
 * 0.8× copy with other bone axes, alternating frame by frame, medians, on each kernel path.
 * BENCH_RETARGET=0 skips the row; another number runs it at that crowd size.
 *
 * Foot locking (footLockCrowd.ts): 10,000 CMU walkers (31 joints, root motion) with both legs
 * locked against the same crowd without, alternating frame by frame, medians, and the ratio.
 * BENCH_FOOTLOCK=0 skips the row; another number runs it at that crowd size.
 * Blend paths (blendPathsCrowd.ts): 4,000 RobotExpressive.glb characters with an additive
 * masked upper-body layer, with a masked override layer, and retargeted onto a 0.8× copy of
 * their skeleton, each on a wasm world and a js world alternating frame by frame, medians.
 * BENCH_BLEND_PATHS=0 skips the rows; another number runs them at that crowd size.
 * Layer modes (layerModesCrowd.ts): 4,000 RobotExpressive.glb characters, a walk and a masked
 * upper-body wave played 'layer' against the same crowd played 'average', alternating frame by
 * frame, medians, on each kernel path. BENCH_LAYER_MODES=0 skips the row; another number runs
 * it at that crowd size.
 * Game crowds (gameCrowd.ts): 4,000 characters a row — the bench crowd, Foxes under a state
 * machine, Robots with an additive masked layer, on reduced clips, retargeted onto a 0.8× copy,
 * all four mixed, and the bench crowd over 200 distinct clips — each on a wasm world and a js
 * world alternating frame by frame, medians, wasm / js and ns per joint.
 * BENCH_GAME_CROWD=0 skips the rows; another number runs them at that crowd size.
 * Palette-only worlds (leanCrowd.ts): 10,000 bench-crowd characters in the default world against
 * one created with `modelPose: false`, alternating frame by frame, medians, bytes per character,
 * on each kernel path. BENCH_LEAN=0 skips the row; another number runs it at that crowd size.
 *
 * The per-size tables run the default kernels (`kernels: 'auto'`: WebAssembly, which the bench
 * build compiles into .bench-build/src/wasm; their header line says which ran).
 *
 * Scalar reference kernel (referenceRows.ts, referenceKernel.ts): after the per-size tables, at
 * the same sizes, `step` on the JavaScript kernels and `step` on the WebAssembly kernels against
 * a hand-fused scalar kernel doing this crowd's frame in one pass per character, the three
 * alternating frame by frame; the bench throws if a palette differs from the reference's by
 * more than 1e-5, or the wasm world's from the JS world's by more than 1e-5 (docs/wasm.md). BENCH_REFERENCE=0 skips
 * those rows.
 *
 * Threads (parallel.ts): last, `step` against `stepParallel` with 1, 2 and all cores' threads,
 * alternating frame by frame, at 100 to 10,000 characters and on the 10,000 LOD crowd, and the
 * threaded frame forced at 128 to 1,000 characters (where two threads start to pay).
 * BENCH_PARALLEL, BENCH_PARALLEL_LOD and BENCH_THRESHOLD pick their sizes (0 skips them).
 *
 * Environment: BENCH_SIZES="1000,5000" picks the crowd sizes (0: no main tables), BENCH_FRAMES the measured frames
 * of both runtimes (default: 300 → 60 for bitanim and 20 → 10 for three.js as N grows, since
 * three.js takes over a second per frame at 10,000; its workload is never reduced) and of the
 * transition rows (default 72, three transition periods) and of the LOD rows (default 60).
 * BENCH_TRANSITIONS=0 skips the transition rows (the sequential table and the modes alternated
 * frame by frame, transitionModes.ts), BENCH_LOD=0 the LOD rows; another number
 * runs them at that crowd size instead of 10,000. BENCH_CROWD=0 skips the per-size tables against
 * three.js (for a quick run of the other rows).
 */
import os from 'node:os';
import { createBitanimCrowd, type BitanimCrowd } from './bitanimCrowd.js';
import { collectGarbage, formatBytes, formatMs, measure, runFrames, type CrowdRunner, type Measurement } from './measure.js';
import { createCrowdAssets, JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdAssets } from './plan.js';
import { createThreeCrowd, type ThreeCrowd } from './threeCrowd.js';
import { benchmarkTransitions, printTransitions } from './transitions.js';
import { benchmarkAim, parseAimCount, printAim } from './aimCrowd.js';
import { benchmarkCurves, parseCurvesCount, printCurves } from './curvesCrowd.js';
import { benchmarkRetarget, parseRetargetCount, printRetarget } from './retargetCrowd.js';
import { benchmarkFootLock, parseFootLockCount, printFootLock } from './footLockCrowd.js';
import { benchmarkBlendPaths, parseBlendPathsCount, printBlendPaths } from './blendPathsCrowd.js';
import { benchmarkLayerModes, parseLayerModesCount, printLayerModes } from './layerModesCrowd.js';
import { benchmarkLean, LEAN_CROWD, printLean } from './leanCrowd.js';
import { benchmarkTransitionModes, printTransitionModes } from './transitionModes.js';
import { benchmarkGameCrowd, parseGameCrowdCount, printGameCrowd } from './gameCrowd.js';
import { benchmarkStateMachines, parseMachineCount, printStateMachines } from './stateMachineCrowd.js';
import { benchmarkLod, printLod } from './lodCrowd.js';
import { benchmarkReducedSampling, printReducedSampling, reducedCrowdSize } from './reducedSampling.js';
import { benchmarkReference, printReference, referenceRowsEnabled } from './referenceRows.js';
import { benchmarkParallel, parallelSizes, printParallel } from './parallel.js';

/** Frame step, seconds. */
const DT = 1 / 60;
/** Untimed frames before the pose check and the measurement. */
const WARMUP_FRAMES = 20;
/** Layer weights of the benchmark crowd. */
const WEIGHTS = [0.6, 0.4];
/** Crowd size of the transition rows (BENCH_TRANSITIONS overrides; 0 skips them). */
const TRANSITION_CROWD = 10_000;
/** Crowd size of the motion-LOD rows (BENCH_LOD overrides; 0 skips them). */
const LOD_CROWD = 10_000;
/** Characters compared between the runtimes per crowd. */
const CHECKED_CHARACTERS = 5;

/** A frame with the timing calls of a real runner and no work: what the harness itself costs. */
const EMPTY_RUNNER: CrowdRunner = {
  label: 'empty',
  phaseNames: ['a', 'b', 'c'],
  frame(_dt, phaseMs) {
    const t0 = performance.now();
    const t1 = performance.now();
    const t2 = performance.now();
    const t3 = performance.now();
    phaseMs[0] += t1 - t0;
    phaseMs[1] += t2 - t1;
    phaseMs[2] += t3 - t2;
  },
};

/** Everything printed for one crowd size. */
interface SizeResult {
  readonly count: number;
  readonly buildSeconds: { readonly bitanim: number; readonly three: number };
  readonly paletteDifference: number;
  readonly checked: number;
  /** `world.kernels` of the bitanim crowds. */
  readonly kernels: string;
  readonly bitanim: Measurement;
  readonly bitanimStep: Measurement;
  /** `step` on the JavaScript kernels (absent when the default kernels are already JavaScript). */
  readonly bitanimStepJs: Measurement | undefined;
  readonly three: Measurement;
  /** Pool bytes per character (the world's buffer / maxEntities) of the default and the JavaScript worlds. */
  readonly bytesPerCharacter: { readonly step: number; readonly js: number | undefined };
}

async function main(): Promise<void> {
  const sizes = process.env['BENCH_SIZES']?.trim() === '0' ? [] : parseList('BENCH_SIZES', process.env['BENCH_SIZES']) ?? [1000, 5000, 10000];
  const frames = parseList('BENCH_FRAMES', process.env['BENCH_FRAMES'])?.[0];
  const transitionCount = parseTransitions(process.env['BENCH_TRANSITIONS']);
  const aimCount = parseAimCount(process.env['BENCH_AIM']);
  const curvesCount = parseCurvesCount(process.env['BENCH_CURVES']);
  const retargetCount = parseRetargetCount(process.env['BENCH_RETARGET']);
  const footLockCount = parseFootLockCount(process.env['BENCH_FOOTLOCK']);
  const blendPathsCount = parseBlendPathsCount(process.env['BENCH_BLEND_PATHS']);
  const layerModesCount = parseLayerModesCount(process.env['BENCH_LAYER_MODES']);
  const gameCrowdCount = parseGameCrowdCount(process.env['BENCH_GAME_CROWD']);
  const leanCount = parseCount('BENCH_LEAN', process.env['BENCH_LEAN'], LEAN_CROWD);
  const machineCount = parseMachineCount(process.env['BENCH_MACHINES']);
  const lodCount = parseCount('BENCH_LOD', process.env['BENCH_LOD'], LOD_CROWD);
  const crowdTables = process.env['BENCH_CROWD']?.trim() !== '0';
  const assets = createCrowdAssets();

  console.log('# bitanim crowd benchmark: bitanim vs three.js\n');
  console.log(`- node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} logical cores)`);
  console.log(`- ${JOINT_COUNT} joints per character, ${LAYER_COUNT} looping clips blended ${WEIGHTS.join(' / ')}, dt = 1/60 s, ${WARMUP_FRAMES} warm-up frames`);
  console.log(`- max palette difference vs three.js at equal weights 0.5 / 0.5: ${equalWeightDifference(assets).toExponential(1)} (there nlerp and slerp agree; only key interpolation differs)`);
  const baseline = await measure(EMPTY_RUNNER, 300, DT);
  console.log(`- harness baseline: an empty frame (the same performance.now() calls, no work) measures ${formatBytes(baseline.allocatedBytesPerFrame)} B/frame allocated`);

  if (crowdTables) {
    for (const count of sizes) {
      const result = await benchmarkSize(assets, count, frames);
      // The crowds of this size are unreachable now; free them before building the next.
      collectGarbage();
      printSize(result);
    }
  }
  if (referenceRowsEnabled()) printReference(await benchmarkReference(assets, sizes, frames, DT, WEIGHTS));
  if (transitionCount > 0) {
    printTransitions(await benchmarkTransitions(assets, transitionCount, frames, DT));
    printTransitionModes(await benchmarkTransitionModes(assets, transitionCount, frames, DT));
  }
  if (machineCount > 0) {
    printStateMachines(benchmarkStateMachines(machineCount));
    collectGarbage();
  }
  if (aimCount > 0) printAim(await benchmarkAim(assets, aimCount, frames, DT));
  if (curvesCount > 0) printCurves(await benchmarkCurves(assets, curvesCount, frames, DT));
  if (retargetCount > 0) printRetarget(await benchmarkRetarget(assets, retargetCount, frames, DT));
  if (footLockCount > 0) printFootLock(await benchmarkFootLock(footLockCount, frames, DT));
  if (blendPathsCount > 0) printBlendPaths(await benchmarkBlendPaths(blendPathsCount, frames, DT));
  if (layerModesCount > 0) printLayerModes(await benchmarkLayerModes(layerModesCount, frames, DT));
  if (gameCrowdCount > 0) printGameCrowd(await benchmarkGameCrowd(gameCrowdCount, frames, DT));
  if (leanCount > 0) printLean(await benchmarkLean(assets, leanCount, frames, DT, WEIGHTS));
  if (lodCount > 0) printLod(await benchmarkLod(assets, lodCount, frames, DT));
  const reducedCount = reducedCrowdSize();
  if (reducedCount > 0) printReducedSampling(await benchmarkReducedSampling(assets, reducedCount, frames, DT));
  const parallel = parallelSizes();
  if (parallel !== null) printParallel(await benchmarkParallel(assets, parallel, frames, DT));

  console.log('\nNotes:');
  console.log('- phases are ms per frame; total = their sum; ns/joint = total / (N × 64).');
  console.log('- ¹ heap B/frame = (heapUsed after the measured frames − heapUsed before them, after a full GC) / frames.');
  console.log('  A GC during the measured frames (e.g. a scavenge) frees young garbage, so when GCs > 0 this');
  console.log('  underestimates the allocation rate. GCs are counted with a PerformanceObserver on \'gc\' entries;');
  console.log('  their pauses are part of the phase times.');
  console.log('- ² allocated B/frame adds back what each of those GCs freed (used heap before − after, v8.GCProfiler);');
  console.log('  with no GC it equals heap B/frame. Figures near the harness baseline above are the harness\'s own.');
  console.log('- the palette difference is max |Δ| over the 12 affine entries of every joint of the checked characters;');
  console.log('  it is not 0 because three.js slerps (between keys and between actions) where bitanim nlerps.');
  if (transitionCount > 0) console.log('- ³ ⁴ and the transition workload: see the notes under the transition table.');
  console.log('bench: done');
}

/** Builds both crowds of `count` characters, checks they agree, and measures each. */
async function benchmarkSize(assets: CrowdAssets, count: number, frames: number | undefined): Promise<SizeResult> {
  const plan = planCrowd(assets, count, WEIGHTS);
  let start = performance.now();
  const bitanim = createBitanimCrowd(plan);
  const bitanimBuild = (performance.now() - start) / 1000;
  const bitanimStep = createBitanimCrowd(plan, 'step');
  // Both kernel paths against three.js: the JavaScript one too, when the default is wasm.
  const bitanimStepJs = bitanimStep.world.kernels === 'js' ? undefined : createBitanimCrowd(plan, 'step', 'js');
  start = performance.now();
  const three = createThreeCrowd(plan);
  const threeBuild = (performance.now() - start) / 1000;

  runFrames(bitanim, WARMUP_FRAMES, DT);
  runFrames(bitanimStep, WARMUP_FRAMES, DT);
  if (bitanimStepJs) runFrames(bitanimStepJs, WARMUP_FRAMES, DT);
  runFrames(three, WARMUP_FRAMES, DT);
  const checkedIndices = spread(count, CHECKED_CHARACTERS);
  const paletteDifference = maxPaletteDifference(bitanim, three, checkedIndices);
  // Chunked `step` must give exactly what the systems one by one give.
  for (const index of checkedIndices) {
    const a = bitanim.palette(index), b = bitanimStep.palette(index);
    if (a.some((v, i) => v !== b[i])) throw new Error(`step and the systems one by one disagree on character ${index}`);
    // The WebAssembly kernels compute in float32 SIMD: within 1e-5 of JavaScript (docs/wasm.md).
    const c = bitanimStepJs?.palette(index);
    if (c && c.some((v, i) => !(Math.abs(v - b[i]!) <= 1e-5 * Math.max(1, Math.abs(v))))) {
      throw new Error(`step on the JavaScript and WebAssembly kernels differ by more than 1e-5 on character ${index}`);
    }
  }

  const bitanimFrames = frames ?? clamp(Math.round(300_000 / count), 60, 300);
  const bitanimResult = await measure(bitanim, bitanimFrames, DT);
  const bitanimStepResult = await measure(bitanimStep, bitanimFrames, DT);
  const bitanimStepJsResult = bitanimStepJs ? await measure(bitanimStepJs, bitanimFrames, DT) : undefined;
  const threeResult = await measure(three, frames ?? clamp(Math.round(20_000 / count), 10, 20), DT);
  return {
    count,
    buildSeconds: { bitanim: bitanimBuild, three: threeBuild },
    paletteDifference,
    checked: checkedIndices.length,
    bitanim: bitanimResult,
    bitanimStep: bitanimStepResult,
    bitanimStepJs: bitanimStepJsResult,
    bytesPerCharacter: {
      step: bitanimStep.world.poolBuffer.byteLength / count,
      js: bitanimStepJs ? bitanimStepJs.world.poolBuffer.byteLength / count : undefined,
    },
    kernels: bitanimStep.world.kernels,
    three: threeResult,
  };
}

/** Max palette difference on a small crowd playing both clips at equal weights. */
function equalWeightDifference(assets: CrowdAssets): number {
  const plan = planCrowd(assets, 8, [0.5, 0.5], 7);
  const bitanim = createBitanimCrowd(plan);
  const three = createThreeCrowd(plan);
  runFrames(bitanim, WARMUP_FRAMES, DT);
  runFrames(three, WARMUP_FRAMES, DT);
  return maxPaletteDifference(bitanim, three, spread(plan.count, plan.count));
}

/**
 * Largest |bitanim − three.js| over the palettes of the given characters: bitanim's 3×4
 * column-major matrices against the top three rows of three.js's 4×4 column-major ones.
 */
function maxPaletteDifference(bitanim: BitanimCrowd, three: ThreeCrowd, indices: readonly number[]): number {
  let max = 0;
  for (const index of indices) {
    const affine = bitanim.palette(index);
    const mat4 = three.palette(index);
    for (let j = 0; j < JOINT_COUNT; j++) {
      for (let column = 0; column < 4; column++) {
        for (let row = 0; row < 3; row++) {
          const d = Math.abs(affine[j * 12 + column * 3 + row]! - mat4[j * 16 + column * 4 + row]!);
          if (!(d <= max)) max = d; // NaN propagates, so a broken pose cannot look good
        }
      }
    }
  }
  return max;
}

function printSize(r: SizeResult): void {
  const joints = r.count * JOINT_COUNT;
  console.log(`\n## N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints (${joints.toLocaleString('en-US')} joints)\n`);
  console.log(`- built in ${r.buildSeconds.bitanim.toFixed(2)} s (bitanim), ${r.buildSeconds.three.toFixed(2)} s (three.js); bitanim on the ${r.kernels === 'wasm' ? 'WebAssembly' : 'JavaScript'} kernels (world.kernels '${r.kernels}')`);
  console.log(`- max palette difference vs three.js: ${r.paletteDifference.toExponential(1)} (${r.checked} characters after ${WARMUP_FRAMES} frames, weights ${WEIGHTS.join(' / ')})`);
  const jsBytes = r.bytesPerCharacter.js === undefined ? '' : `, ${r.bytesPerCharacter.js.toFixed(0)} on the JavaScript kernels`;
  console.log(`- pools: ${r.bytesPerCharacter.step.toFixed(0)} bytes per character (the world's buffer / maxEntities, world.kernels '${r.kernels}'${jsBytes})\n`);
  console.log('| runtime | phases, ms/frame | total ms/frame | ns/joint | heap B/frame ¹ | allocated B/frame ² | GCs (pause) | frames |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const m of [r.bitanim, r.bitanimStep, ...(r.bitanimStepJs ? [r.bitanimStepJs] : []), r.three]) {
    const phases = m.phaseNames.map((name, p) => `${name} ${formatMs(m.phaseMs[p]!)}`).join(' · ');
    const ns = (m.totalMs * 1e6) / joints;
    const major = m.gcCount - m.gcMinor;
    const gcs = m.gcCount === 0 ? '0' : `${m.gcCount}: ${m.gcMinor} minor, ${major} major (${m.gcMs.toFixed(0)} ms)`;
    console.log(`| ${m.label} | ${phases} | ${formatMs(m.totalMs)} | ${ns.toFixed(0)} | ${formatBytes(m.heapBytesPerFrame)} | ${formatBytes(m.allocatedBytesPerFrame)} | ${gcs} | ${m.frames} |`);
  }
  const ratio = r.bitanimStep.totalMs / r.three.totalMs;
  const systemsRatio = r.bitanim.totalMs / r.three.totalMs;
  const jsRatio = r.bitanimStepJs ? `; step on the JavaScript kernels: ${(r.three.totalMs / r.bitanimStepJs.totalMs).toFixed(1)}×` : '';
  console.log(`\nbitanim step / three.js total time ratio: ${ratio.toFixed(3)} (three.js takes ${(1 / ratio).toFixed(1)}× longer; systems one by one: ${(1 / systemsRatio).toFixed(1)}×${jsRatio})`);
}

/** `n` distinct indices spread evenly over [0, count), first and last included. */
function spread(count: number, n: number): number[] {
  if (count <= n) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: n }, (_, i) => Math.round((i * (count - 1)) / (n - 1)));
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}

/**
 * BENCH_TRANSITIONS: unset → the transition rows at 10,000 characters; 0 → no transition rows;
 * another positive integer → that crowd size (for a quicker run).
 */
function parseTransitions(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return TRANSITION_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_TRANSITIONS="${value}": expected 0 (skip the transition rows) or a crowd size`);
  return n;
}

/** A crowd-size variable: unset → `fallback`; 0 → skip those rows; another integer → that size. */
function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name}="${value}": expected 0 (skip those rows) or a crowd size`);
  return n;
}

/** Parses a comma-separated list of positive integers from an environment variable. */
function parseList(name: string, value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const list = value.split(',').map((s) => Number(s.trim()));
  if (!list.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`${name}="${value}": expected positive integers separated by commas`);
  return list;
}

await main();
