/**
 * The foot-locking row of the crowd benchmark: what holding planted feet costs on a large crowd.
 *
 * Workload: N characters (10,000 unless BENCH_FOOTLOCK says otherwise; 0 skips the row) on the
 * CMU 131_01 skeleton (31 joints), each playing the capture (start, walk, stop; looped, at
 * staggered start times) with its contacts marked by `detectFootContacts` (ankles) and root
 * motion on, so each moves by its own travel. Two worlds of that crowd, after the same warm-up:
 * - without locking;
 * - with `setFootLock` on both legs (the humanoid map's), defaults.
 * `step` on each, alternating frame by frame; each row is the median frame, and the ratio is
 * locked ÷ plain (target ≤ 1.2×).
 */
import { createAnimationWorld, detectFootContacts, parseBvh, play, setFootLock, spawnCharacter, step, type AnimationWorld, type Clip, type Skeleton } from '../src/index.js';
import { readAssetText } from '../test/support/assets.js';
import { collectGarbage, formatMs, median } from './measure.js';

/** Crowd size of the foot-locking row unless BENCH_FOOTLOCK says otherwise. */
export const FOOT_LOCK_CROWD = 10_000;
const WARMUP_FRAMES = 30;

/** What the foot-locking section prints, per kernel path. */
export interface FootLockResult {
  readonly count: number;
  readonly jointCount: number;
  readonly runs: readonly {
    readonly kernels: string;
    /** ms/frame of each measured frame: without locking, with. */
    readonly times: readonly [readonly number[], readonly number[]];
    /** Legs locked at the last measured frame (of 2 × count). */
    readonly locked: number;
  }[];
}

function crowdWorld(skeleton: Skeleton, clip: Clip, count: number, lock: boolean, kernels: 'js' | 'wasm'): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, kernels });
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, skeleton, { x: (i % 100) * 3, z: Math.floor(i / 100) * 3, rootMotion: true });
    play(world, eid, clip, { loop: true, time: ((i * 7919) % 1000) / 1000 * clip.duration });
    if (lock) setFootLock(world, eid);
  }
  return world;
}

/** Measures the two crowds on each kernel path, alternating frame by frame (see the file header). */
export async function benchmarkFootLock(count: number, frames: number | undefined, dt: number): Promise<FootLockResult> {
  const { skeleton, clip } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
  const walk = detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip;
  const runs = [];
  for (const kernels of ['js', 'wasm'] as const) {
    collectGarbage();
    const worlds = [crowdWorld(skeleton, walk, count, false, kernels), crowdWorld(skeleton, walk, count, true, kernels)] as const;
    for (let f = 0; f < WARMUP_FRAMES; f++) for (const world of worlds) step(world, dt);
    const times: [number[], number[]] = [[], []];
    const measured = Math.max(20, frames ?? 120);
    for (let f = 0; f < measured; f++) {
      for (let n = 0; n < 2; n++) {
        const k = (f + n) % 2;
        const t0 = performance.now();
        step(worlds[k], dt);
        times[k].push(performance.now() - t0);
      }
      await Promise.resolve();
    }
    const locked = Array.from(worlds[1].components.FootLock.locked).filter((v) => v === 1).length;
    runs.push({ kernels: worlds[0].kernels, times, locked });
  }
  collectGarbage();
  return { count, jointCount: skeleton.jointCount, runs };
}

/** Prints the foot-locking section. */
export function printFootLock(r: FootLockResult): void {
  console.log(`\n## Foot locking: N = ${r.count.toLocaleString('en-US')} characters × ${r.jointCount} joints (CMU 131_01, root motion), two legs each\n`);
  console.log('| kernels | crowd | median step ms/frame | × without | µs per locked leg | frames |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const run of r.runs) {
    const plain = median(run.times[0]);
    const locked = median(run.times[1]);
    console.log(`| ${run.kernels} | without locking | ${formatMs(plain)} | 1.00× | — | ${run.times[0].length} |`);
    console.log(`| ${run.kernels} | setFootLock, both legs | ${formatMs(locked)} | ${(locked / plain).toFixed(2)}× | ${((locked - plain) * 1000 / Math.max(1, run.locked)).toFixed(2)} | ${run.times[1].length} |`);
  }
  const legs = r.runs.map((run) => `${run.locked.toLocaleString('en-US')} (${run.kernels})`).join(', ');
  console.log(`\nFrames measured alternately, medians; legs locked at the last frame, of ${(2 * r.count).toLocaleString('en-US')}: ${legs}.`);
}
/** BENCH_FOOTLOCK: unset → {@link FOOT_LOCK_CROWD}; 0 → no foot-locking row; another positive integer → that crowd size. */
export function parseFootLockCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return FOOT_LOCK_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_FOOTLOCK="${value}": expected 0 (skip the foot-locking row) or a crowd size`);
  return n;
}
