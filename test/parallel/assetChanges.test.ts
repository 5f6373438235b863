/**
 * Assets changed after the workers copied them reach the workers: the LOD level table, which
 * `registerLodLevels` writes in place for a clip whose row exists (and `releaseClip` for a
 * released clip's row), is compared by value, not identity, so `stepParallel` keeps giving
 * `step`'s LocalPose, ModelPose and SkinPalette bit for bit after the change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAnimationWorld, disposeAnimationWorld, play, registerLodLevels, releaseClip, setLod, setLodCamera, spawnCharacter, step, stepParallel,
  type AnimationWorld, type Clip, type Skeleton,
} from '../../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 1 / 60;
const COUNT = 400; // past PARALLEL_MIN_CHARACTERS: the frames run on both threads
const skeleton: Skeleton = syntheticSkeleton(16);
const walk: Clip = syntheticClip(skeleton, { seed: 2, name: 'walk' });
// Level clips of walk's duration with other poses, so which one a worker samples shows in every pose.
const coarseA: Clip = syntheticClip(skeleton, { seed: 5, name: 'coarse A' });
const coarseB: Clip = syntheticClip(skeleton, { seed: 7, name: 'coarse B' });
const coarseC: Clip = syntheticClip(skeleton, { seed: 9, name: 'coarse C' });
const open: AnimationWorld[] = [];

afterEach(() => {
  for (const world of open.splice(0)) disposeAnimationWorld(world);
});

/** COUNT characters on a 20 × 20 grid 2 m apart playing walk, two LOD levels split at 12 m from the camera at the origin. */
function crowd(threads: number): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 16, threads, kernels: 'js', verifyThreads: true });
  open.push(world);
  setLodCamera(world, 0, 0, 0);
  for (let i = 0; i < COUNT; i++) {
    const eid = spawnCharacter(world, skeleton, { x: 2 * (i % 20), z: 2 * Math.floor(i / 20) });
    play(world, eid, walk, { time: (i / COUNT) * walk.duration });
    setLod(world, eid, { levels: 2, distances: [12] });
  }
  registerLodLevels(world, walk, [walk, coarseA]);
  return world;
}

/** Whether the two worlds' LocalPose, ModelPose and SkinPalette pools are equal bit for bit (the first pool that differs, else null). */
function differingPool(a: AnimationWorld, b: AnimationWorld): string | null {
  for (const name of ['LocalPose', 'ModelPose', 'SkinPalette'] as const) {
    const x = a.components[name].data, y = b.components[name].data;
    if (!Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength))) return name;
  }
  return null;
}

async function stepBoth(single: AnimationWorld, threaded: AnimationWorld, frames: number, label: string): Promise<void> {
  for (let f = 0; f < frames; f++) {
    step(single, DT);
    await stepParallel(threaded, DT);
    expect(differingPool(single, threaded), `${label}, frame ${f}`).toBeNull();
  }
}

describe('asset changes after the first threaded frame reach the workers', () => {
  it('registerLodLevels again for a clip with levels (its row written in place): stepParallel = step', async () => {
    const single = crowd(1), threaded = crowd(2);
    await stepBoth(single, threaded, 3, 'levels walk, coarse A');
    // The far characters sample the coarse level: the test sees which level a thread samples.
    const far = COUNT; // at (38, 0, 38), beyond 12 m
    const pose = threaded.components.LocalPose.data;
    const off = far * threaded.maxJoints * 10;
    const beforeChange = pose.slice(off, off + 16 * 10);

    const table = single.lod.clipLevels;
    for (const world of [single, threaded]) registerLodLevels(world, walk, [walk, coarseB]);
    expect(single.lod.clipLevels).toBe(table); // the case at hand: the same table, changed in place
    await stepBoth(single, threaded, 3, 'levels walk, coarse B');
    expect(pose.slice(off, off + 16 * 10)).not.toEqual(beforeChange);

    for (const world of [single, threaded]) registerLodLevels(world, walk, [coarseC]); // every level now
    await stepBoth(single, threaded, 3, 'levels coarse C');
  });

  it('releaseClip of a level clip no longer used (its own row reset in place): stepParallel = step', async () => {
    const single = crowd(1), threaded = crowd(2);
    for (const world of [single, threaded]) registerLodLevels(world, coarseA, [coarseA, coarseB]); // coarseA gets a row of its own
    await stepBoth(single, threaded, 2, 'coarse A with levels');
    for (const world of [single, threaded]) {
      registerLodLevels(world, walk, [walk, coarseC]);
      expect(releaseClip(world, coarseA)).toBe(true);
    }
    await stepBoth(single, threaded, 3, 'coarse A released');
    // A clip registered next takes coarse A's id: its row must be the fresh one in the workers too.
    for (const world of [single, threaded]) registerLodLevels(world, walk, [walk, coarseA]);
    await stepBoth(single, threaded, 3, 'coarse A again');
  });
});
