/**
 * The blend-path rows of the crowd benchmark: the WebAssembly kernels against the JavaScript
 * kernels on blends beyond two dense override clips, on RobotExpressive.glb characters
 * (N = 4,000 unless BENCH_BLEND_PATHS says otherwise; 0 skips the rows):
 * - "Robots with an additive masked upper-body layer": a walk, and on layer 1 a difference clip
 *   (Punch − Idle, `createDifferenceClip`) played additive with an upper-body mask (Torso and
 *   what hangs from it);
 * - "Robots with a masked upper-body override layer": a walk, and Wave on layer 1 masked to the
 *   upper body at weight 0.7;
 * - "Robots retargeted onto a 0.8× copy": the walk and Running (0.6 / 0.4) played on a copy of
 *   the Robot's skeleton at 0.8× its bone lengths (a proportions-only binding: `retarget` null).
 * Per row, a wasm world and a js world of the same scenario, `step` alternating frame by frame
 * (the order rotating) after the same warm-up; medians.
 */
import { fileURLToPath } from 'node:url';
import {
  bindSkeletons,
  createAnimationWorld,
  createDifferenceClip,
  createMask,
  createSkeleton,
  loadGltfFile,
  play,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../src/index.js';
import { createRandom } from '../test/fixtures/synthetic.js';
import { collectGarbage, formatMs, median } from './measure.js';

/** Crowd size of the blend-path rows unless BENCH_BLEND_PATHS says otherwise. */
export const BLEND_PATHS_CROWD = 4_000;
const WARMUP_FRAMES = 30;

/** One row: ms/frame of each measured frame on each kernel path. */
export interface BlendPathsRow {
  readonly name: string;
  readonly js: readonly number[];
  readonly wasm: readonly number[];
  readonly kernels: string;
}

/** What the section prints. */
export interface BlendPathsResult {
  readonly count: number;
  readonly rows: readonly BlendPathsRow[];
}

/** A skeleton at `scale` × its bone lengths (its rest translations scaled). */
export function scaled(skeleton: Skeleton, scale: number): Skeleton {
  const rest = Float32Array.from(skeleton.rest);
  for (let j = 0; j < skeleton.jointCount; j++) for (let c = 0; c < 3; c++) rest[j * 10 + c] = rest[j * 10 + c]! * scale;
  return createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest });
}

type Scenario = (world: AnimationWorld, random: () => number) => void;

function crowd(count: number, skeleton: Skeleton, kernels: 'js' | 'wasm', scenario: Scenario): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, kernels });
  const random = createRandom(11);
  for (let n = 0; n < count; n++) scenario(world, random);
  return world;
}

/** Measures the rows (see the file header). */
export async function benchmarkBlendPaths(count: number, frames: number | undefined, dt: number): Promise<BlendPathsResult> {
  const gltf = await loadGltfFile(fileURLToPath(new URL('../../assets/RobotExpressive.glb', import.meta.url)));
  const robot = gltf.skeletons[0]!;
  const named = (name: string): Clip => gltf.clips.find((c) => c.name === name)!;
  const walk = named('Walking'), run = named('Running'), wave = named('Wave');
  const difference = createDifferenceClip(named('Punch'), named('Idle'));
  const upper = createMask(robot, { Torso: 1 });
  const small = scaled(robot, 0.8);
  if (bindSkeletons(robot, small).retarget !== null) throw new Error('blend-path bench: the 0.8× copy does not take the proportions-only path');
  const rows: [string, Skeleton, Scenario][] = [
    ['Robots with an additive masked upper-body layer', robot, (world, random) => {
      const eid = spawnCharacter(world, robot);
      play(world, eid, walk, { time: random() * walk.duration, speed: 0.9 + 0.2 * random() });
      play(world, eid, difference, { layer: 1, time: random() * difference.duration, weight: 0.5 + 0.5 * random(), mask: upper, additive: true });
    }],
    ['Robots with a masked upper-body override layer', robot, (world, random) => {
      const eid = spawnCharacter(world, robot);
      play(world, eid, walk, { time: random() * walk.duration, speed: 0.9 + 0.2 * random() });
      play(world, eid, wave, { layer: 1, time: random() * wave.duration, weight: 0.7, mask: upper });
    }],
    ['Robots retargeted onto a 0.8× copy', small, (world, random) => {
      const eid = spawnCharacter(world, small);
      play(world, eid, walk, { time: random() * walk.duration, weight: 0.6 });
      play(world, eid, run, { layer: 1, time: random() * run.duration, weight: 0.4 });
    }],
  ];
  const out: BlendPathsRow[] = [];
  for (const [name, skeleton, scenario] of rows) {
    collectGarbage();
    const worlds = [crowd(count, skeleton, 'js', scenario), crowd(count, skeleton, 'wasm', scenario)];
    for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
    const times: number[][] = [[], []];
    const measured = Math.max(20, frames ?? 120);
    for (let f = 0; f < measured; f++) {
      for (let n = 0; n < 2; n++) {
        const k = (f + n) % 2;
        const t0 = performance.now();
        step(worlds[k]!, dt);
        times[k]!.push(performance.now() - t0);
      }
      await Promise.resolve();
    }
    out.push({ name, js: times[0]!, wasm: times[1]!, kernels: worlds[1]!.kernels });
  }
  collectGarbage();
  return { count, rows: out };
}

/** Prints the section. */
export function printBlendPaths(r: BlendPathsResult): void {
  console.log(`\n## Blend paths: N = ${r.count.toLocaleString('en-US')} RobotExpressive.glb characters, wasm against js\n`);
  console.log('| scenario | js ms/frame | wasm ms/frame | wasm / js | frames |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const js = median(row.js), wasm = median(row.wasm);
    console.log(`| ${row.name} | ${formatMs(js)} | ${formatMs(wasm)}${row.kernels === 'wasm' ? '' : ' (ran js)'} | ${(wasm / js).toFixed(2)} | ${row.js.length} |`);
  }
  console.log('\nThe two worlds of a row step alternately frame by frame (the order rotating), medians.');
}

/** BENCH_BLEND_PATHS: unset → {@link BLEND_PATHS_CROWD}; 0 → no rows; another positive integer → that crowd size. */
export function parseBlendPathsCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return BLEND_PATHS_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_BLEND_PATHS="${value}": expected 0 (skip the blend-path rows) or a crowd size`);
  return n;
}
