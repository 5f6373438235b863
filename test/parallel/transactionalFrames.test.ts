/**
 * Transactional threaded frames (`transactionalFrames: true`): a `stepParallel` frame that does
 * not complete — a thread that fails mid-frame (a system throws on a character, on a worker or on
 * the calling thread), a worker that crashes, a frame past `workerTimeout` — rejects with an
 * AnimationError and leaves every pool, the event queue and the clock byte-identical to before
 * the call, the state machines' writes (the caller systems run before the chunks) included. The
 * world then steps on: its next frames equal those of a twin that never saw the failed frame.
 * Without the option the same failure keeps what the chunks wrote (checked too, so the
 * comparison can fail).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createClip, createStateMachine, disposeAnimationWorld, drainEvents, setParameter, setStateMachine, spawnCharacter, step,
  stepParallel, type AnimationWorld, type AnimationWorldOptions, type Clip, type Skeleton,
} from '../../src/index.js';
import { createFrameSnapshot, frameRangeBytes, frameRanges, restoreSnapshot, takeSnapshot } from '../../src/parallel/frameSnapshot.js';
import { injectWorkerFault } from '../../src/parallel/threadPool.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { hashComponents } from '../support/poolHash.js';
import { disposedAfterEach } from '../support/openWorlds.js';

const DT = 1 / 60;
const COUNT = 1200;
const skeleton: Skeleton = syntheticSkeleton(12);
const walk: Clip = createClip({ ...syntheticClip(skeleton, { seed: 2, name: 'walk' }), events: [{ time: 0.25, name: 'left' }, { time: 0.75, name: 'right' }] });
const run: Clip = syntheticClip(skeleton, { seed: 3, name: 'run' });
const machine = createStateMachine({
  parameters: [{ name: 'speed', type: 'float' }],
  states: [{ name: 'walk', clip: walk }, { name: 'run', clip: run }],
  transitions: [{ from: 'walk', to: 'run', when: [['speed', '>', 1]], duration: 0.2 }, { from: 'run', to: 'walk', when: [['speed', '<', 1]], duration: 0.3 }],
  initial: 'walk',
});

const open = disposedAfterEach();

const scripts = mkdtempSync(join(tmpdir(), 'bitanim-transactional-'));
afterAll(() => rmSync(scripts, { recursive: true, force: true }));
function script(name: string, source: string): string {
  const path = join(scripts, `${name}.mjs`);
  writeFileSync(path, source);
  return pathToFileURL(path).href;
}
// Ready at once, then thread 1 crashes on its first frame (the calling thread has run every chunk by then).
const CRASHES = script('crashes', [
  "import { parentPort } from 'node:worker_threads';",
  "parentPort.on('message', (m) => { if (m.type === 'init') { parentPort.postMessage({ type: 'ready', thread: m.thread }); return; } throw new Error('thread 1 crashes mid-frame'); });",
  '',
].join('\n'));
// Ready at once, then never finishes a frame.
const STUCK = script('stuck', [
  "import { parentPort } from 'node:worker_threads';",
  "parentPort.on('message', (m) => { if (m.type === 'init') parentPort.postMessage({ type: 'ready', thread: m.thread }); });",
  '',
].join('\n'));

/** A crowd under the locomotion machine, half of them switching every 20 frames (`frame` says where in that cycle). */
function machineCrowd(options: Partial<AnimationWorldOptions>, workerUrl: string | null = null): AnimationWorld {
  const saved = process.env['BITANIM_WORKER_URL'];
  if (workerUrl !== null) process.env['BITANIM_WORKER_URL'] = workerUrl;
  try {
    const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 12, ...options });
    open.push(world);
    for (let i = 0; i < COUNT; i++) {
      const eid = spawnCharacter(world, skeleton, { x: i % 40, z: Math.floor(i / 40), rootMotion: true });
      setStateMachine(world, eid, machine);
    }
    return world;
  } finally {
    process.env['BITANIM_WORKER_URL'] = saved;
  }
}

function drive(world: AnimationWorld, frame: number): void {
  for (let eid = 1; eid <= COUNT; eid += 2) setParameter(world, eid, 'speed', Math.floor(frame / 20) % 2 === 0 ? 2 : 0);
}

/** SHA-256 of every typed array of every component (the per-thread Follower.scratch aside), the clock and the event counters. */
function hash(world: AnimationWorld): string {
  const { head, count, dropped, pushed } = world.events;
  return hashComponents(world).update(`${world.time} ${head} ${count} ${dropped} ${pushed}`).digest('hex');
}

async function rejection(promise: Promise<void>): Promise<AnimationError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AnimationError);
  return error as AnimationError;
}

/** Steps `threaded` (stepParallel) and `twin` (step) `frames` frames alike; expects them equal after each, events too. */
async function stepTogether(threaded: AnimationWorld, twin: AnimationWorld, from: number, frames: number): Promise<void> {
  for (let f = from; f < from + frames; f++) {
    drive(threaded, f);
    drive(twin, f);
    await stepParallel(threaded, DT);
    step(twin, DT);
    expect(hash(threaded), `frame ${f}`).toBe(hash(twin));
    expect(drainEvents(threaded)).toEqual(drainEvents(twin));
  }
}

describe('transactionalFrames: a frame that does not complete leaves the world as before the call', () => {
  it('a system that throws on a character mid-frame (a corrupt pool row): rejected, every pool as before; fixed, the world steps on as its twin', async () => {
    const world = machineCrowd({ threads: 2, transactionalFrames: true });
    const twin = machineCrowd({});
    await stepTogether(world, twin, 0, 25); // into the machines' first switches
    const victim = COUNT - 3; // in one of the last chunks: the others have run when it fails
    const { Character } = world.components;
    const skeletonId = Character.skeleton[victim]!;
    Character.skeleton[victim] = 60_000; // no such skeleton: the blend system throws on it
    drive(world, 25);
    const before = hash(world);
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toMatch(/stepParallel: thread \d/);
    expect(error.message).toContain('the frame was undone (transactionalFrames: every pool and the clock as before the call)');
    expect(hash(world)).toBe(before);
    Character.skeleton[victim] = skeletonId;
    await stepTogether(world, twin, 25, 15);
  });

  it('without the option the same failure keeps what the chunks wrote (the clock aside)', async () => {
    const world = machineCrowd({ threads: 2 });
    for (let f = 0; f < 25; f++) {
      drive(world, f);
      await stepParallel(world, DT);
    }
    const { Character } = world.components;
    Character.skeleton[COUNT - 3] = 60_000;
    drive(world, 25);
    const before = hash(world), time = world.time;
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toContain('the frame was left unfinished');
    expect(world.time).toBe(time);
    expect(hash(world)).not.toBe(before);
  });

  it('a fault on a worker (thread 1 throws on a character): rejected naming it, every pool as before; the world steps on', async () => {
    const world = machineCrowd({ threads: 2, transactionalFrames: true });
    const twin = machineCrowd({});
    await stepTogether(world, twin, 0, 3);
    injectWorkerFault(world, 1, 0); // its first chunk of a later frame
    let failure: AnimationError | null = null;
    let f = 3;
    for (; f < 200 && failure === null; f++) {
      drive(world, f);
      drive(twin, f);
      const before = hash(world);
      const outcome = await stepParallel(world, DT).then(() => null, (e: unknown) => e as AnimationError);
      if (outcome === null) {
        step(twin, DT);
        continue;
      }
      failure = outcome;
      expect(hash(world)).toBe(before);
    }
    expect(failure).toBeInstanceOf(AnimationError);
    expect(failure!.message).toMatch(/thread 1 while running character \d+: injected fault/);
    drainEvents(twin);
    drainEvents(world);
    await stepTogether(world, twin, f, 10);
  });

  it('a worker that crashes mid-frame: rejected, every pool as before (after the workers stopped); step and dispose work', async () => {
    const world = machineCrowd({ threads: 2, transactionalFrames: true, verifyThreads: false }, CRASHES);
    drive(world, 0);
    const before = hash(world);
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toContain('thread 1 stopped');
    expect(error.message).toContain('the frame was undone');
    expect(hash(world)).toBe(before);
    expect(refused(() => stepParallel(world, DT)).message).toContain('cannot run threads');
    const time = world.time;
    step(world, DT);
    expect(world.time).toBe(time + DT);
    disposeAnimationWorld(world);
  });

  it('a worker that never finishes its frame: rejected after workerTimeout, every pool as before; step and dispose work', async () => {
    const world = machineCrowd({ threads: 2, transactionalFrames: true, verifyThreads: false, workerTimeout: 300 }, STUCK);
    drive(world, 0);
    const before = hash(world);
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toContain('did not finish the frame within 300 ms (workerTimeout): the workers were ended and the frame undone');
    expect(hash(world)).toBe(before);
    step(world, DT);
    disposeAnimationWorld(world);
  });

  it('the copy covers every component array and the event records, once each, and taking and restoring it allocate nothing', () => {
    const world = machineCrowd({ threads: 2, transactionalFrames: true });
    const ranges = frameRanges(world);
    let arrays = 0;
    for (const component of Object.values(world.components)) {
      for (const field of Object.values(component as Record<string, unknown>)) {
        if (!ArrayBuffer.isView(field) || field.byteLength === 0) continue;
        arrays += field.byteLength;
        const inside = ranges.some((r) => r.buffer === field.buffer && field.byteOffset >= r.byteOffset && field.byteOffset + field.byteLength <= r.byteOffset + r.byteLength);
        expect(inside).toBe(true);
      }
    }
    // Merged ranges hold the arrays and at most the allocator's padding between them.
    const { eid, clip, event, at } = world.events;
    const records = eid.byteLength + clip.byteLength + event.byteLength + at.byteLength + world.lod.camera.byteLength;
    expect(frameRangeBytes(ranges)).toBeGreaterThanOrEqual(arrays + records);
    expect(frameRangeBytes(ranges)).toBeLessThan((arrays + records) * 1.01);

    // A small world, so that the calls take little time and the harness's own bytes meanwhile stay few.
    const small = createAnimationWorld({ maxEntities: 8, maxJoints: 12, threads: 2, transactionalFrames: true });
    open.push(small);
    const snapshot = createFrameSnapshot(small);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const allocatedBy = (n: number): number => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const profiler = new GCProfiler();
      profiler.start();
      for (let k = 0; k < n; k++) {
        takeSnapshot(snapshot, small.events);
        restoreSnapshot(snapshot, small.events);
      }
      const collections = profiler.stop()?.statistics ?? [];
      const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
      return process.memoryUsage().heapUsed - before + freed;
    };
    allocatedBy(1000); // compiled
    // The harness's own bytes (the profiler, its statistics) are the same for both counts: the
    // difference is the calls' and the process's background meanwhile (~1 B a call on a loaded
    // machine). Anything a call allocated would be ≥ 16 bytes (the smallest heap object).
    const perCall = (allocatedBy(100_100) - allocatedBy(100)) / 100_000;
    expect(perCall).toBeLessThan(8);
  });

  it('transactionalFrames must be a boolean', () => {
    for (const transactionalFrames of [1, 'yes', null]) {
      expect(refused(() => createAnimationWorld({ maxEntities: 4, maxJoints: 4, transactionalFrames: transactionalFrames as unknown as boolean })).message).toContain('transactionalFrames');
    }
  });
});
