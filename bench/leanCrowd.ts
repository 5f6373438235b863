/**
 * The palette-only row of the crowd benchmark: what a world without ModelPose
 * (`createAnimationWorld({ modelPose: false })`: skinning composes each character's model
 * matrices in a scratch row and writes only the palette) buys on the bench crowd — N characters
 * × 64 joints (10,000 unless BENCH_LEAN says otherwise; 0 skips the row), each blending the
 * plan's two clips. Per kernel path, the default world and the palette-only one, `step`
 * alternating frame by frame (the order rotating) after the same warm-up; medians, their ratio,
 * and each world's bytes per character. The two must give the same palettes bit for bit.
 */
import { createAnimationWorld, step, worldBytes, type AnimationWorld } from '../src/index.js';
import { spawnPlan } from './bitanimCrowd.js';
import { alternateSteps, collectGarbage, formatMs, median } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets, type CrowdPlan } from './plan.js';

/** Crowd size of the palette-only row unless BENCH_LEAN says otherwise. */
export const LEAN_CROWD = 10_000;
const WARMUP_FRAMES = 30;

/** One kernel path: ms/frame of each measured frame and bytes per character, with and without ModelPose. */
export interface LeanRow {
  readonly kernels: string;
  readonly full: readonly number[];
  readonly lean: readonly number[];
  readonly fullBytes: number;
  readonly leanBytes: number;
}

/** What the section prints. */
export interface LeanResult {
  readonly count: number;
  readonly rows: readonly LeanRow[];
}

function crowd(plan: CrowdPlan, kernels: 'js' | 'wasm', modelPose: boolean): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, kernels, modelPose });
  spawnPlan(world, plan);
  return world;
}

/** Measures the row on both kernel paths (see the file header). */
export async function benchmarkLean(assets: CrowdAssets, count: number, frames: number | undefined, dt: number, weights: readonly number[]): Promise<LeanResult> {
  const plan = planCrowd(assets, count, weights);
  const measured = Math.max(20, frames ?? 120);
  const rows: LeanRow[] = [];
  for (const kernels of ['wasm', 'js'] as const) {
    collectGarbage();
    const worlds = [crowd(plan, kernels, true), crowd(plan, kernels, false)];
    for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
    const times = await alternateSteps(worlds, measured, dt);
    const a = worlds[0]!.components.SkinPalette.data, b = worlds[1]!.components.SkinPalette.data;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) throw new Error(`palette-only bench (${kernels}): palette element ${i} differs from the default world's`);
    const bytes = (modelPose: boolean): number => worldBytes({ maxEntities: count, maxJoints: JOINT_COUNT, kernels, modelPose }) / count;
    rows.push({ kernels: worlds[0]!.kernels, full: times[0]!, lean: times[1]!, fullBytes: bytes(true), leanBytes: bytes(false) });
  }
  collectGarbage();
  return { count, rows };
}

/** Prints the palette-only section. */
export function printLean(r: LeanResult): void {
  console.log(`\n## Palette-only worlds: N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints, the default world against \`modelPose: false\`\n`);
  console.log('| kernels | default ms/frame | `modelPose: false` ms/frame | ratio | default B/character | `modelPose: false` B/character | frames |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const full = median(row.full), lean = median(row.lean);
    console.log(`| ${row.kernels} | ${formatMs(full)} | ${formatMs(lean)} | ${(lean / full).toFixed(3)}× | ${Math.round(row.fullBytes).toLocaleString('en-US')} | ${Math.round(row.leanBytes).toLocaleString('en-US')} | ${row.full.length} |`);
  }
  console.log('\nWhole `step`, the two worlds alternating frame by frame, medians; their palettes equal bit for bit.');
}
