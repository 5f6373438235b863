/**
 * The float-curve row of the crowd benchmark (issue 22): what blending 8 curves per character
 * costs. Two worlds of the same crowd (N = 10,000 unless BENCH_CURVES says otherwise; 0 skips
 * the row): the main table's 64-joint skeleton and two clips on layers 0 and 1 (the plan's
 * weights, start times and speeds), once as it is (no curves) and once with 8 curves on the
 * skeleton and 8 animated curves on each clip (blendSystem's curves pass blends them with the
 * layer weights; `getCurves` views them). `step` on each, alternating frame by frame after the
 * same warm-up; each row is the median frame.
 */
import { createAnimationWorld, createClip, createSkeleton, play, spawnCharacter, step, type AnimationWorld, type Clip, type Skeleton } from '../src/index.js';
import { collectGarbage, formatMs, median } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdAssets, type CrowdPlan } from './plan.js';

/** Crowd size of the curve row unless BENCH_CURVES says otherwise. */
export const CURVES_CROWD = 10_000;
/** Curves per character of the curved crowd. */
const CURVES = 8;
const WARMUP_FRAMES = 30;

/** What the curve section prints. */
export interface CurvesResult {
  readonly count: number;
  readonly kernels: string;
  /** ms/frame of each measured frame: without curves, with. */
  readonly none: readonly number[];
  readonly curved: readonly number[];
}

/** The plan's skeleton and clips with `CURVES` curves (clip curves: waves of their own phase, on the clip's frames). */
function withCurves(assets: CrowdAssets): { skeleton: Skeleton; clips: Clip[] } {
  const s = assets.skeleton;
  const skeleton = createSkeleton({
    names: s.names, parents: s.parents, rest: s.rest, inverseBind: s.inverseBind,
    curves: Array.from({ length: CURVES }, (_, c) => ({ name: `curve${c}`, default: 0 })),
  });
  const clips = assets.clips.map((clip, k) => createClip({
    skeleton, frameRate: clip.frameRate, frames: clip.frames, loop: clip.loop, name: clip.name,
    curves: Array.from({ length: CURVES }, (_, c) => ({
      name: `curve${c}`,
      values: Array.from({ length: clip.frameCount }, (_, f) => 0.5 + 0.5 * Math.sin((2 * Math.PI * f) / (clip.frameCount - 1) + c + k)),
    })),
  }));
  return { skeleton, clips };
}

function crowdWorld(plan: CrowdPlan, skeleton: Skeleton, clips: readonly Clip[]): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT });
  for (let i = 0; i < plan.count; i++) {
    const eid = spawnCharacter(world, skeleton);
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }
  return world;
}

/** Measures both crowds, alternating frame by frame (see the file header). */
export async function benchmarkCurves(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<CurvesResult> {
  const plan = planCrowd(assets, count, [0.6, 0.4]);
  const curved = withCurves(assets);
  collectGarbage();
  const worlds = [crowdWorld(plan, plan.skeleton, plan.clips), crowdWorld(plan, curved.skeleton, curved.clips)];
  for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
  const times: number[][] = [[], []];
  const measured = Math.max(20, frames ?? 120);
  for (let f = 0; f < measured; f++) {
    // Alternate which goes first, so neither always follows the other's cache traffic.
    for (let n = 0; n < 2; n++) {
      const k = (f + n) % 2;
      const t0 = performance.now();
      step(worlds[k]!, dt);
      times[k]!.push(performance.now() - t0);
    }
    await Promise.resolve();
  }
  const values = worlds[1]!.components.Curves.values;
  if (!values.every(Number.isFinite) || values.every((v) => v === 0)) throw new Error('curves bench: the curves are not blended');
  const kernels = worlds[0]!.kernels;
  collectGarbage();
  return { count, kernels, none: times[0]!, curved: times[1]! };
}

/** Prints the curve section. */
export function printCurves(r: CurvesResult): void {
  const none = median(r.none), curved = median(r.curved);
  console.log(`\n## Float curves: N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints, two blended clips, ${CURVES} curves per character vs none (${r.kernels} kernels)\n`);
  console.log('| crowd | median step ms/frame | ns/character | frames |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| no curves | ${formatMs(none)} | ${((none * 1e6) / r.count).toFixed(0)} | ${r.none.length} |`);
  console.log(`| ${CURVES} curves per character | ${formatMs(curved)} | ${((curved * 1e6) / r.count).toFixed(0)} | ${r.curved.length} |`);
  const extra = curved - none;
  console.log(`\n${CURVES} curves: +${formatMs(extra)} ms/frame (${((extra / none) * 100).toFixed(1)} %, ${((extra * 1e6) / r.count).toFixed(0)} ns per character, ` +
    `${((extra * 1e6) / (r.count * CURVES)).toFixed(1)} ns per curve); frames measured alternately, medians. The curves are blended on JavaScript on both kernel paths.`);
}

/** BENCH_CURVES: unset → {@link CURVES_CROWD}; 0 → no curve row; another positive integer → that crowd size. */
export function parseCurvesCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return CURVES_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_CURVES="${value}": expected 0 (skip the curve row) or a crowd size`);
  return n;
}
