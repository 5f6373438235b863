/**
 * The layer-mode row of the crowd benchmark: what the `'layer'` blend mode (the normalized blend
 * below lerped toward the layer by weight × mask, components/layerRules.ts) costs against
 * `'average'` (ozz-animation's normalized average) on the same masked crowd. RobotExpressive.glb
 * characters (N = 4,000 unless BENCH_LAYER_MODES says otherwise; 0 skips the row): a walk on
 * layer 0, and Wave on layer 1 masked to the upper body (Torso and what hangs from it, the Neck
 * at 0.4) at a weight in [0.3, 1]; one world plays the wave `'layer'`, the other `'average'`.
 * Per kernel path, `step` on the two worlds alternating frame by frame (the order rotating)
 * after the same warm-up; medians and their ratio.
 */
import { fileURLToPath } from 'node:url';
import { createAnimationWorld, createMask, loadGltfFile, play, spawnCharacter, step, type AnimationWorld, type Clip, type Mask, type Skeleton } from '../src/index.js';
import { createRandom } from '../test/fixtures/synthetic.js';
import { alternateSteps, collectGarbage, formatMs, median } from './measure.js';

/** Crowd size of the layer-mode row unless BENCH_LAYER_MODES says otherwise. */
export const LAYER_MODES_CROWD = 4_000;
const WARMUP_FRAMES = 30;

/** One kernel path: ms/frame of each measured frame, layered and averaged. */
export interface LayerModesRow {
  readonly kernels: string;
  readonly layered: readonly number[];
  readonly averaged: readonly number[];
}

/** What the section prints. */
export interface LayerModesResult {
  readonly count: number;
  readonly joints: number;
  readonly rows: readonly LayerModesRow[];
}

function crowd(count: number, robot: Skeleton, walk: Clip, wave: Clip, upper: Mask, kernels: 'js' | 'wasm', blend: 'layer' | 'average'): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: robot.jointCount, kernels });
  const random = createRandom(17);
  for (let n = 0; n < count; n++) {
    const eid = spawnCharacter(world, robot, { x: (n % 64) * 2, z: Math.floor(n / 64) * 2 });
    play(world, eid, walk, { time: random() * walk.duration, speed: 0.9 + 0.2 * random() });
    play(world, eid, wave, { layer: 1, time: random() * wave.duration, weight: 0.3 + 0.7 * random(), mask: upper, blend });
  }
  return world;
}

/** Measures the row on both kernel paths (see the file header). */
export async function benchmarkLayerModes(count: number, frames: number | undefined, dt: number): Promise<LayerModesResult> {
  const gltf = await loadGltfFile(fileURLToPath(new URL('../../assets/RobotExpressive.glb', import.meta.url)));
  const robot = gltf.skeletons[0]!;
  const named = (name: string): Clip => gltf.clips.find((c) => c.name === name)!;
  const walk = named('Walking'), wave = named('Wave');
  const upper = createMask(robot, { Torso: 1, Neck: 0.4 });
  const rows: LayerModesRow[] = [];
  const measured = Math.max(20, frames ?? 120);
  for (const kernels of ['wasm', 'js'] as const) {
    collectGarbage();
    const worlds = [crowd(count, robot, walk, wave, upper, kernels, 'layer'), crowd(count, robot, walk, wave, upper, kernels, 'average')];
    for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
    const times = await alternateSteps(worlds, measured, dt);
    // The two rules differ on the upper body: the row measures two different blends.
    const a = worlds[0]!.components.LocalPose.data, b = worlds[1]!.components.LocalPose.data;
    let apart = 0;
    for (let i = 0; i < a.length; i++) apart = Math.max(apart, Math.abs(a[i]! - b[i]!));
    if (!(apart > 1e-3)) throw new Error('layer-mode bench: the layered and averaged crowds give the same poses');
    rows.push({ kernels: worlds[0]!.kernels, layered: times[0]!, averaged: times[1]! });
  }
  collectGarbage();
  return { count, joints: robot.jointCount, rows };
}

/** Prints the layer-mode section. */
export function printLayerModes(r: LayerModesResult): void {
  console.log(`\n## Layer modes: N = ${r.count.toLocaleString('en-US')} RobotExpressive characters × ${r.joints} joints, a walk and a masked upper-body wave, 'layer' vs 'average'\n`);
  console.log("| kernels | 'average' ms/frame | 'layer' ms/frame | layered / averaged | frames |");
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const averaged = median(row.averaged), layered = median(row.layered);
    console.log(`| ${row.kernels} | ${formatMs(averaged)} | ${formatMs(layered)} | ${(layered / averaged).toFixed(3)}× | ${row.layered.length} |`);
  }
  console.log('\nWhole `step` (sampling, blend, skinning), the two worlds alternating frame by frame, medians.');
}

/** BENCH_LAYER_MODES: unset → {@link LAYER_MODES_CROWD}; 0 → no layer-mode row; another positive integer → that crowd size. */
export function parseLayerModesCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return LAYER_MODES_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_LAYER_MODES="${value}": expected 0 (skip the layer-mode row) or a crowd size`);
  return n;
}
