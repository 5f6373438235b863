/**
 * The retargeting row of the crowd benchmark: what playing a clip on another skeleton costs.
 * Three worlds of the same crowd (N = 10,000 unless BENCH_RETARGET says otherwise; 0 skips the
 * row), the main table's 64-joint skeleton and two clips on layers 0 and 1 (the plan's weights,
 * start times and speeds), played on:
 * - the clips' own skeleton;
 * - a copy at 0.8× its bone lengths (retargeting by proportions: the sampler's plain path);
 * - a copy at 0.8× whose every joint's rest rotation is also turned (other bone axes: the
 *   reference-pose path, `retargetPose` after sampling).
 * `step` on each, alternating frame by frame after the same warm-up, once on each kernel
 * path; each row is the median frame.
 */
import { bindSkeletons, createAnimationWorld, createSkeleton, play, spawnCharacter, step, type AnimationWorld, type Skeleton } from '../src/index.js';
import { alternateSteps, collectGarbage, formatMs, median } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdAssets, type CrowdPlan } from './plan.js';

/** Crowd size of the retargeting row unless BENCH_RETARGET says otherwise. */
export const RETARGET_CROWD = 10_000;
const WARMUP_FRAMES = 30;
const KINDS = ['own skeleton', '0.8× proportions', '0.8×, other bone axes'] as const;

/** What the retargeting section prints: ms/frame of each measured frame, per kernel path and kind. */
export interface RetargetResult {
  readonly count: number;
  readonly runs: readonly { readonly kernels: string; readonly times: readonly (readonly number[])[] }[];
}

/** The skeleton at `scale` × its bone lengths, each rest rotation turned by 0.3 rad about a joint-dependent axis when `turn`. */
function copyOf(skeleton: Skeleton, scale: number, turn: boolean): Skeleton {
  const rest = Float32Array.from(skeleton.rest);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const o = j * 10;
    for (let c = 0; c < 3; c++) rest[o + c] = rest[o + c]! * scale;
    if (!turn) continue;
    const s = Math.sin(0.15), c = Math.cos(0.15), axis = j % 3;
    const b = [axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0, c];
    const x = rest[o + 3]!, y = rest[o + 4]!, z = rest[o + 5]!, w = rest[o + 6]!;
    rest.set([w * b[0]! + x * b[3]! + y * b[2]! - z * b[1]!, w * b[1]! - x * b[2]! + y * b[3]! + z * b[0]!,
      w * b[2]! + x * b[1]! - y * b[0]! + z * b[3]!, w * b[3]! - x * b[0]! - y * b[1]! - z * b[2]!], o + 3);
  }
  return createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest });
}

function crowdWorld(plan: CrowdPlan, skeleton: Skeleton, kernels: 'js' | 'wasm'): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, kernels });
  for (let i = 0; i < plan.count; i++) {
    const eid = spawnCharacter(world, skeleton);
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, plan.clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }
  return world;
}

/** Measures the three crowds on each kernel path, alternating frame by frame (see the file header). */
export async function benchmarkRetarget(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<RetargetResult> {
  const plan = planCrowd(assets, count, [0.6, 0.4]);
  const skeletons = [plan.skeleton, copyOf(plan.skeleton, 0.8, false), copyOf(plan.skeleton, 0.8, true)];
  if (bindSkeletons(plan.skeleton, skeletons[1]!).retarget !== null || bindSkeletons(plan.skeleton, skeletons[2]!).retarget === null) {
    throw new Error('retarget bench: the copies do not take the paths they are meant to');
  }
  const runs = [];
  for (const kernels of ['js', 'wasm'] as const) {
    collectGarbage();
    const worlds = skeletons.map((skeleton) => crowdWorld(plan, skeleton, kernels));
    for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
    // The order rotates, so none always follows another's cache traffic.
    const times = await alternateSteps(worlds, Math.max(20, frames ?? 120), dt);
    runs.push({ kernels: worlds[0]!.kernels, times });
  }
  collectGarbage();
  return { count, runs };
}

/** Prints the retargeting section. */
export function printRetarget(r: RetargetResult): void {
  console.log(`\n## Retargeting: N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints, two blended clips of another skeleton\n`);
  console.log('| kernels | skeleton | median step ms/frame | × own skeleton | frames |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const run of r.runs) {
    const own = median(run.times[0]!);
    run.times.forEach((times, k) => {
      const m = median(times);
      console.log(`| ${run.kernels} | ${KINDS[k]} | ${formatMs(m)} | ${(m / own).toFixed(2)}× | ${times.length} |`);
    });
  }
  console.log('\nFrames measured alternately, medians. Retargeted rows play the clips baked onto the character\'s skeleton once (by proportions, or through reference poses by retargetPose), so every row samples on its kernels as the character\'s own clip.');
}

/** BENCH_RETARGET: unset → {@link RETARGET_CROWD}; 0 → no retargeting row; another positive integer → that crowd size. */
export function parseRetargetCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return RETARGET_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_RETARGET="${value}": expected 0 (skip the retargeting row) or a crowd size`);
  return n;
}
