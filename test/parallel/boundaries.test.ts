/**
 * Issue 17 item 5, the boundaries of a threaded world: a call made while a `stepParallel` is in
 * flight, a worker that fails, a host without SharedArrayBuffer (or a page that is not
 * cross-origin isolated), disposing twice, stepping after dispose. Each expects an
 * AnimationError and a world the refused call did not change (compared with a twin world
 * that never saw the call).
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createClip, defaultFrame, insertSystem, disposeAnimationWorld, drainEvents, play, spawnCharacter, step, stepParallel, transition,
  type AnimationWorld, type Clip, type Skeleton,
} from '../../src/index.js';
import { injectWorkerFault } from '../../src/parallel/threadPool.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { hashComponents } from '../support/poolHash.js';
import { disposedAfterEach } from '../support/openWorlds.js';

const DT = 1 / 60;
const skeleton: Skeleton = syntheticSkeleton(16);
const walk: Clip = createClip({ ...syntheticClip(skeleton, { seed: 2, name: 'walk' }), events: [{ time: 0.25, name: 'left' }, { time: 0.75, name: 'right' }] });
const run: Clip = syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'run' });
const open = disposedAfterEach();

function crowd(threads: number, count = 1000): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: 16, threads, verifyThreads: true });
  open.push(world);
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, skeleton, { x: i % 40, z: Math.floor(i / 40), rootMotion: true });
    play(world, eid, walk, { time: i / count });
    play(world, eid, run, { layer: 1, weight: 0.3, time: i / count });
  }
  return world;
}

/** SHA-256 of every typed array of every component (the per-thread Follower.scratch aside) and the clock. */
function hash(world: AnimationWorld): string {
  const h = hashComponents(world);
  return h.update(String(world.time)).digest('hex');
}

describe('a threaded world refuses what it cannot do, and changes nothing', () => {
  it('a call while stepParallel is in flight throws "a parallel step is running"', async () => {
    const threaded = crowd(2), twin = crowd(1);
    // The first frame waits for the workers to load, so it is in flight when stepParallel returns.
    const frame = stepParallel(threaded, DT);
    const calls: [string, () => unknown][] = [
      ['play', () => play(threaded, 1, run)],
      ['transition', () => transition(threaded, 2, run, { duration: 0.2 })],
      ['step', () => step(threaded, DT)],
      ['stepParallel', () => stepParallel(threaded, DT)],
      ['drainEvents', () => drainEvents(threaded)],
      ['spawnCharacter', () => spawnCharacter(threaded, skeleton)],
      ['disposeAnimationWorld', () => disposeAnimationWorld(threaded)],
    ];
    for (const [name, call] of calls) {
      const error = refused(call);
      expect(error.message, name).toContain('a parallel step is running');
    }
    await frame;
    step(twin, DT);
    expect(hash(threaded)).toBe(hash(twin));
    expect(drainEvents(threaded)).toEqual(drainEvents(twin).map((e) => ({ ...e })));
    // Between frames every call works again.
    play(threaded, 1, run);
    play(twin, 1, run);
    await stepParallel(threaded, DT);
    step(twin, DT);
    expect(hash(threaded)).toBe(hash(twin));
  });

  it('a failing worker rejects with an AnimationError naming the thread and the character; the world steps on', async () => {
    const world = crowd(2, 2000);
    await stepParallel(world, DT);
    drainEvents(world);
    injectWorkerFault(world, 1, 0); // its first chunk from the next frame on
    let failure: unknown = null;
    let time = world.time;
    for (let f = 0; f < 200 && failure === null; f++) {
      time = world.time;
      await stepParallel(world, DT).catch((error: unknown) => (failure = error));
    }
    expect(failure).toBeInstanceOf(AnimationError);
    const message = (failure as AnimationError).message;
    expect(message).toMatch(/thread 1/);
    const eid = Number(/character (\d+)/.exec(message)?.[1]);
    expect(Number.isInteger(eid) && eid >= 1 && eid <= 2000, message).toBe(true);
    expect(message).toContain('injected fault');
    // The failed frame did not advance the clock; the world takes calls and frames again.
    expect(world.time).toBe(time);
    play(world, eid, run);
    for (let f = 0; f < 5; f++) await stepParallel(world, DT);
    expect(world.time).toBeCloseTo(time + 5 * DT, 12);
  });

  it('threads > 1 without SharedArrayBuffer, or on a page that is not cross-origin isolated, throws how to enable it', () => {
    const shared = globalThis.SharedArrayBuffer;
    try {
      (globalThis as { SharedArrayBuffer?: unknown }).SharedArrayBuffer = undefined;
      const error = refused(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: 2 }));
      expect(error.message).toContain('Cross-Origin-Opener-Policy: same-origin');
      expect(error.message).toContain('Cross-Origin-Embedder-Policy: require-corp');
    } finally {
      globalThis.SharedArrayBuffer = shared;
    }
    const page = globalThis as { crossOriginIsolated?: boolean };
    try {
      page.crossOriginIsolated = false;
      expect(refused(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: 2 })).message).toContain('crossOriginIsolated');
      // One thread needs no shared memory.
      expect(createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: 1 }).threads).toBe(1);
    } finally {
      delete page.crossOriginIsolated;
    }
  });

  it('threads must be an integer ≥ 1 or "auto"', () => {
    for (const threads of [0, -1, 1.5, Number.NaN, '2', 65]) {
      expect(refused(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: threads as number })).message).toContain('threads');
    }
    const auto = createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: 'auto' });
    open.push(auto);
    expect(auto.threads).toBe(availableParallelism());
    // Workers run the library's own frame: a custom frame is single-threaded.
    const custom = insertSystem(defaultFrame, { name: 'mine', reads: [], writes: [], entities: () => {} }, { after: 'skin' });
    expect(refused(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, threads: 2, frame: custom })).message).toContain('default frame only');
  });

  it('disposing twice, and any call after dispose, throws; the pools stay as they were', async () => {
    for (const threads of [1, 2]) {
      const world = crowd(threads, 300);
      await stepParallel(world, DT);
      const before = hash(world);
      disposeAnimationWorld(world);
      expect(refused(() => disposeAnimationWorld(world)).message).toContain('was disposed');
      expect(refused(() => step(world, DT)).message).toContain('was disposed');
      expect(refused(() => stepParallel(world, DT)).message).toContain('was disposed');
      expect(refused(() => play(world, 1, run)).message).toContain('was disposed');
      expect(hash(world)).toBe(before);
    }
  });
});
