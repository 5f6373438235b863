/**
 * A threaded frame whose workers cannot run: a worker script that throws as it loads, one that
 * loads and never answers, and one that starts but never finishes a frame (custom scripts named
 * by BITANIM_WORKER_URL, as an application that bundles its own worker would). Each frame
 * rejects with an AnimationError naming the thread or the timeout (`workerTimeout`); when the
 * workers never started, the world is byte-identical to before the call — the caller systems
 * (stateMachineSystem) included, which run only once the workers are known to be up; and in
 * every case `step` and `disposeAnimationWorld` work afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createStateMachine, disposeAnimationWorld, getState, setParameter, setStateMachine, spawnCharacter, step,
  stepParallel, type AnimationWorld, type AnimationWorldOptions, type Clip, type Skeleton,
} from '../../src/index.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { hashComponents } from '../support/poolHash.js';

const DT = 1 / 60;
const COUNT = 300; // past PARALLEL_MIN_CHARACTERS: stepParallel runs the threaded frame
const skeleton: Skeleton = syntheticSkeleton(12);
const walk: Clip = syntheticClip(skeleton, { seed: 2, name: 'walk' });
const run: Clip = syntheticClip(skeleton, { seed: 3, name: 'run' });
const machine = createStateMachine({
  parameters: [{ name: 'speed', type: 'float' }],
  states: [{ name: 'walk', clip: walk }, { name: 'run', clip: run }],
  transitions: [{ from: 'walk', to: 'run', when: [['speed', '>', 1]], duration: 0.2 }],
  initial: 'walk',
});

const scripts = mkdtempSync(join(tmpdir(), 'bitanim-workers-'));
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

/** A worker script of `source` (an ES module), as a file URL. */
function script(name: string, source: string): string {
  const path = join(scripts, `${name}.mjs`);
  writeFileSync(path, source);
  return pathToFileURL(path).href;
}

const THROWS_AT_LOAD = script('throws', "throw new Error('this worker does not load');\n");
const NEVER_ANSWERS = script('silent', "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {}); // takes init, never reports ready\n");
const NEVER_FINISHES = script('stuck', [
  "import { parentPort } from 'node:worker_threads';",
  "parentPort.on('message', (m) => { if (m.type === 'init') parentPort.postMessage({ type: 'ready', thread: m.thread }); }); // ready, then no frame ever",
  '',
].join('\n'));

// Thread 1 crashes on its first frame; thread 2 keeps writing the shared pools (its timing slot) from then on.
const ONE_CRASHES = script('crashes', [
  "import { parentPort } from 'node:worker_threads';",
  'let init = null;',
  "parentPort.on('message', (m) => {",
  "  if (m.type === 'init') { init = m; parentPort.postMessage({ type: 'ready', thread: m.thread }); return; }",
  "  if (init.thread === 1) throw new Error('thread 1 crashes mid-frame');",
  '  setInterval(() => { init.pools.timing[2] += 1; }, 2);',
  '});',
  '',
].join('\n'));

/** A world of COUNT characters running the machine, its workers from `workerUrl`. */
function machineCrowd(workerUrl: string | null, options: Partial<AnimationWorldOptions> = {}): AnimationWorld {
  const saved = process.env['BITANIM_WORKER_URL'];
  if (workerUrl !== null) process.env['BITANIM_WORKER_URL'] = workerUrl;
  try {
    const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 12, threads: 2, verifyThreads: true, ...options });
    for (let i = 0; i < COUNT; i++) {
      const eid = spawnCharacter(world, skeleton, { x: i % 20, z: Math.floor(i / 20), rootMotion: true });
      setStateMachine(world, eid, machine);
      setParameter(world, eid, 'speed', i % 2 === 0 ? 2 : 0); // half of them start a transition on the first frame
    }
    return world;
  } finally {
    process.env['BITANIM_WORKER_URL'] = saved;
  }
}

/** SHA-256 of every typed array of every component (the per-thread Follower.scratch aside), the clock and the event counters. */
function hash(world: AnimationWorld): string {
  const h = hashComponents(world);
  const { head, count, dropped, pushed } = world.events;
  return h.update(`${world.time} ${head} ${count} ${dropped} ${pushed}`).digest('hex');
}

/** The error `promise` rejects with (failing when it resolves). */
async function rejection(promise: Promise<void>): Promise<AnimationError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AnimationError);
  return error as AnimationError;
}

/** After a failed frame: the world refuses further threaded frames, steps on this thread, and disposes. */
function stepsOnAndDisposes(world: AnimationWorld): void {
  expect(refused(() => stepParallel(world, DT)).message).toContain('cannot run threads');
  const time = world.time;
  step(world, DT);
  expect(world.time).toBe(time + DT);
  expect(getState(world, 2).state).toBe('walk');
  expect(getState(world, 1).next).toBe('run'); // the machine's transition started in this step
  disposeAnimationWorld(world);
  expect(refused(() => step(world, DT)).message).toContain('was disposed');
}

describe('a threaded frame whose workers cannot run rejects and leaves the world as it was', () => {
  it('a worker script that throws as it loads: rejects naming the thread, the world byte-identical (the state machines did not run)', async () => {
    const world = machineCrowd(THROWS_AT_LOAD);
    const before = hash(world);
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toMatch(/thread 1 stopped/);
    expect(error.message).toContain('this worker does not load');
    expect(hash(world)).toBe(before);
    expect(getState(world, 1)).toEqual({ state: 'walk', time: 0, next: null });
    stepsOnAndDisposes(world);
  });

  it('a worker that loads and never answers: the first frame rejects after workerTimeout, naming the thread; the world byte-identical', async () => {
    const world = machineCrowd(NEVER_ANSWERS, { workerTimeout: 300 });
    const before = hash(world);
    const started = performance.now();
    const frame = stepParallel(world, DT);
    expect(refused(() => disposeAnimationWorld(world)).message).toContain('a parallel step is running'); // in flight until it settles
    const error = await rejection(frame);
    expect(performance.now() - started).toBeGreaterThanOrEqual(299); // not before the timeout
    expect(error.message).toContain('stepParallel: thread 1 did not report ready within 300 ms (workerTimeout)');
    expect(hash(world)).toBe(before);
    stepsOnAndDisposes(world);
  });

  it('a worker that starts and never finishes its frame: the frame rejects after workerTimeout, the clock not advanced', async () => {
    const world = machineCrowd(NEVER_FINISHES, { workerTimeout: 300 });
    const time = world.time;
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toContain('stepParallel: thread 1 did not finish the frame within 300 ms (workerTimeout)');
    expect(world.time).toBe(time);
    expect(refused(() => stepParallel(world, DT)).message).toContain('did not finish a frame within 300 ms');
    const stepped = world.time;
    step(world, DT);
    expect(world.time).toBe(stepped + DT);
    disposeAnimationWorld(world);
  });

  it('a worker that crashes mid-frame: the frame rejects at once naming it, and the other worker is ended (it writes the pools no more)', async () => {
    const world = machineCrowd(ONE_CRASHES, { threads: 3, workerTimeout: 60_000 });
    const started = performance.now();
    const error = await rejection(stepParallel(world, DT));
    expect(error.message).toContain('thread 1 stopped (thread 1 crashes mid-frame)');
    expect(performance.now() - started).toBeLessThan(30_000); // not the 60 s timeout
    const timing = world.parallel!.timing;
    await new Promise((done) => setTimeout(done, 100)); // thread 2's last writes land, if it still runs
    const last = timing[2];
    await new Promise((done) => setTimeout(done, 200));
    expect(timing[2]).toBe(last); // ended: no more writes
    expect(refused(() => stepParallel(world, DT)).message).toContain('cannot run threads');
    disposeAnimationWorld(world);
  });

  it('the real workers start well within the default timeout, and the same frame then runs', async () => {
    const world = machineCrowd(null);
    const twin = createAnimationWorld({ maxEntities: COUNT, maxJoints: 12 });
    for (let i = 0; i < COUNT; i++) {
      const eid = spawnCharacter(twin, skeleton, { x: i % 20, z: Math.floor(i / 20), rootMotion: true });
      setStateMachine(twin, eid, machine);
      setParameter(twin, eid, 'speed', i % 2 === 0 ? 2 : 0);
    }
    await stepParallel(world, DT);
    step(twin, DT);
    expect(hash(world)).toBe(hash(twin));
    expect(getState(world, 1).next).toBe('run');
    disposeAnimationWorld(world);
  });

  it('workerTimeout must be a number of milliseconds in [1, 2³¹ − 1]', () => {
    for (const workerTimeout of [0, -5, Number.NaN, Infinity, '100', 2 ** 31]) {
      expect(refused(() => createAnimationWorld({ maxEntities: 4, maxJoints: 4, workerTimeout: workerTimeout as number })).message).toContain('workerTimeout');
    }
    expect(createAnimationWorld({ maxEntities: 4, maxJoints: 4, workerTimeout: 50 }).threads).toBe(1);
  });
});
