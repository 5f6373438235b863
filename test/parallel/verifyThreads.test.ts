/**
 * Verify mode (`verifyThreads`, docs/threads.md): every threaded frame compares each worker's
 * hash of its asset copies with the world's. With it on the threaded scenarios still give
 * `step` bit for bit; a table changed behind the mirror's back (a clip's frames poked in
 * place, a skeleton's rest pose, the LOD level table with the mirror's copy poked alike, so
 * the mirror sees no change) rejects the next frame with an `AnimationError` naming the table,
 * and the frame after it sends every table again and matches `step` once more. Off (the
 * default), the same poke goes unnoticed: verify mode is what sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnimationError } from '../../src/assets/AnimationError.js';
import { hashAssetValue } from '../../src/parallel/assetHash.js';
import { assetMirrorOf } from '../../src/parallel/threadPool.js';
import {
  createAnimationWorld, disposeAnimationWorld, play, registerLodLevels, setLod, setLodCamera, spawnCharacter, step, stepParallel,
  type AnimationWorld, type Clip, type Skeleton,
} from '../../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 1 / 60;
const COUNT = 400; // past PARALLEL_MIN_CHARACTERS: the frames run on both threads
const skeleton: Skeleton = syntheticSkeleton(16);
const walk: Clip = syntheticClip(skeleton, { seed: 2, name: 'walk' });
const coarse: Clip = syntheticClip(skeleton, { seed: 5, name: 'coarse' });
const open: AnimationWorld[] = [];

afterEach(() => {
  for (const world of open.splice(0)) disposeAnimationWorld(world);
});

function crowd(threads: number, verifyThreads?: boolean): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 16, threads, kernels: 'js', ...(verifyThreads === undefined ? {} : { verifyThreads }) });
  open.push(world);
  setLodCamera(world, 0, 0, 0);
  for (let i = 0; i < COUNT; i++) {
    const eid = spawnCharacter(world, skeleton, { x: 2 * (i % 20), z: 2 * Math.floor(i / 20) });
    play(world, eid, walk, { time: (i / COUNT) * walk.duration });
    setLod(world, eid, { levels: 2, distances: [12] });
  }
  registerLodLevels(world, walk, [walk, coarse]);
  return world;
}

function samePools(a: AnimationWorld, b: AnimationWorld): boolean {
  for (const name of ['LocalPose', 'ModelPose', 'SkinPalette'] as const) {
    const x = a.components[name].data, y = b.components[name].data;
    if (!Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength))) return false;
  }
  return true;
}

async function stepBoth(single: AnimationWorld, threaded: AnimationWorld, frames: number): Promise<void> {
  for (let f = 0; f < frames; f++) {
    step(single, DT);
    await stepParallel(threaded, DT);
    expect(samePools(single, threaded), `frame ${f}`).toBe(true);
  }
}

/** The error the next threaded frame rejects with (fails the test when it resolves). */
async function rejection(world: AnimationWorld): Promise<AnimationError> {
  const error = await stepParallel(world, DT).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AnimationError);
  return error as AnimationError;
}

describe('the asset hash', () => {
  it('a structured clone hashes as its original; one float, key or shared reference of difference changes it', () => {
    const rest = new Float32Array([0, 1, 2, 3.5]);
    const shared = { name: 'hip', joint: 3 };
    const table = [{ rest, parents: new Int16Array([-1, 0]), names: ['a', 'b'], ids: new Map([['a', 0]]), a: shared, b: shared }, null, { big: 2n }];
    const clone = structuredClone(table);
    expect(clone[0]).not.toBe(table[0]);
    expect(hashAssetValue(clone)).toBe(hashAssetValue(table));
    const poked = structuredClone(table);
    (poked[0] as { rest: Float32Array }).rest[3] = 3.5000002;
    expect(hashAssetValue(poked)).not.toBe(hashAssetValue(table));
    const renamed = structuredClone(table);
    (renamed[0] as { names: string[] }).names[1] = 'c';
    expect(hashAssetValue(renamed)).not.toBe(hashAssetValue(table));
    const unshared = structuredClone(table);
    (unshared[0] as { b: object }).b = { name: 'hip', joint: 3 }; // equal values, no longer the same object
    expect(hashAssetValue(unshared)).not.toBe(hashAssetValue(table));
    expect(hashAssetValue(new Int32Array([1, 2]))).not.toBe(hashAssetValue(new Float32Array(new Int32Array([1, 2]).buffer)));
  });
});

describe('verifyThreads', () => {
  it('is refused unless a boolean', () => {
    expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 4, verifyThreads: 1 as unknown as boolean })).toThrow(/verifyThreads.*true or false/s);
  });

  it('with verify on, the threaded frames give step; a clip poked in place is caught, naming world.assets.clips, then resent', async () => {
    const single = crowd(1), threaded = crowd(2, true);
    await stepBoth(single, threaded, 3);
    const id = threaded.assets.clips.indexOf(threaded.assets.clips.find((c) => c?.name === 'walk')!);
    for (const world of [single, threaded]) world.assets.clips[id].frames[40] += 0.25; // behind the mirror's back
    const error = await rejection(threaded);
    expect(error.issues.map((i) => i.path)).toEqual(['world.assets.clips']);
    expect(error.message).toMatch(/thread 1's copy differs from the world's/);
    // The frame was left unfinished (the clock not advanced); the next one sends every table
    // again, so the worker's copy is the world's once more and the frame verifies.
    const time = threaded.time;
    await stepParallel(threaded, DT);
    expect(threaded.time).toBe(time + DT);
    await stepParallel(threaded, DT);
  });

  it('a skeleton rest pose poked in place is caught, naming world.assets.skeletons (and the clips that hold the skeleton)', async () => {
    const threaded = crowd(2, true);
    await stepParallel(threaded, DT);
    threaded.assets.skeletons[0].rest[7] += 0.5;
    const error = await rejection(threaded);
    expect(error.issues.map((i) => i.path)).toContain('world.assets.skeletons');
    expect(error.issues.every((i) => i.path === 'world.assets.skeletons' || i.path === 'world.assets.clips')).toBe(true);
    await stepParallel(threaded, DT); // resent: verifies again
  });

  it('the LOD level table changed with the mirror fooled alike is caught, naming world.lod.clipLevels; stepParallel = step after', async () => {
    const single = crowd(1), threaded = crowd(2, true);
    await stepBoth(single, threaded, 2);
    const mirror = assetMirrorOf(threaded)!;
    const levels = threaded.lod.clipLevels;
    const walkId = threaded.assets.clips.findIndex((c) => c?.name === 'walk');
    const coarseId = threaded.assets.clips.findIndex((c) => c?.name === 'coarse');
    const row = levels.indexOf(coarseId); // walk's coarse level: make it walk itself
    expect(row).toBeGreaterThanOrEqual(0);
    levels[row] = walkId;
    mirror.clipLevels![row] = walkId; // the mirror believes it sent this
    const error = await rejection(threaded);
    expect(error.issues.map((i) => i.path)).toEqual(['world.lod.clipLevels']);
    await stepParallel(threaded, DT); // resent: verifies again
    // Put back through the ordinary path (compared by value, resent): stepParallel = step on a fresh pair.
    levels[row] = coarseId;
    await stepParallel(threaded, DT);
    const single2 = crowd(1), threaded2 = crowd(2, true);
    await stepBoth(single2, threaded2, 2);
    for (const world of [single2, threaded2]) registerLodLevels(world, walk, [walk, walk]);
    await stepBoth(single2, threaded2, 2);
  });

  it('off (the default), the same poke goes unnoticed: the frame resolves', async () => {
    const threaded = crowd(2);
    await stepParallel(threaded, DT);
    threaded.assets.skeletons[0].rest[7] += 0.5;
    await expect(stepParallel(threaded, DT)).resolves.toBeUndefined();
  });

  it('BITANIM_VERIFY_THREADS=1 turns it on by default; verifyThreads: false overrides it', async () => {
    process.env['BITANIM_VERIFY_THREADS'] = '1';
    try {
      const on = crowd(2), off = crowd(2, false);
      for (const world of [on, off]) await stepParallel(world, DT);
      for (const world of [on, off]) world.assets.skeletons[0].rest[7] += 0.5;
      await rejection(on);
      await expect(stepParallel(off, DT)).resolves.toBeUndefined();
    } finally {
      delete process.env['BITANIM_VERIFY_THREADS'];
    }
  });
});
