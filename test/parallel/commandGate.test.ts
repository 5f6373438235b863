/**
 * One gate for every command: each function of the main entry that takes a world refuses it,
 * with the documented AnimationError and without changing it, while a `stepParallel` frame is
 * in flight and after `disposeAnimationWorld` — the per-frame follower target setters, whose
 * fast path skips the full checks, included. The list of commands is enumerated from the
 * entry's exports (every function whose first parameter is `world`), so a new command that
 * the table below does not call fails the test.
 */
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/index.js';
import {
  AnimationError, createAnimationWorld, createBlendSpace, createMask, createStateMachine, disposeAnimationWorld, drainEvents, play, setFollower, setFollowTarget,
  setFollowTargetAcceleration, setFollowTargetVelocity, spawnCharacter, step, stepParallel, type AnimationWorld, type Clip, type Skeleton,
} from '../../src/index.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { hashComponents } from '../support/poolHash.js';
import { disposedAfterEach } from '../support/openWorlds.js';

const DT = 1 / 60;
const skeleton: Skeleton = syntheticSkeleton(16);
const walk: Clip = syntheticClip(skeleton, { seed: 2, name: 'walk' });
const run: Clip = syntheticClip(skeleton, { seed: 3, name: 'run' });
const open = disposedAfterEach();

/** 400 walking characters (past PARALLEL_MIN_CHARACTERS, so a threaded frame is in flight), each with a moving follower. */
function crowd(threads: number, count = 400): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: count + 8, maxJoints: 16, threads, verifyThreads: true });
  open.push(world);
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, skeleton, { x: i % 20, z: Math.floor(i / 20), rootMotion: true });
    play(world, eid, walk, { time: i / count });
    setFollower(world, eid, { x: 0, y: 1, z: 0 });
    setFollowTarget(world, eid, 1, 1, i / count);
    setFollowTargetVelocity(world, eid, 0.5, 0, 0);
  }
  return world;
}

/** SHA-256 of every typed array of every component (the per-thread Follower.scratch aside), the clock and the event queue's counters. */
function hash(world: AnimationWorld): string {
  const h = hashComponents(world);
  const { head, count, dropped, pushed } = world.events;
  return h.update(`${world.time} ${head} ${count} ${dropped} ${pushed} ${world.characters.dense.length}`).digest('hex');
}

const machine = createStateMachine({
  parameters: [{ name: 'speed', type: 'float' }, { name: 'jump', type: 'trigger' }],
  states: [{ name: 'walk', clip: walk }, { name: 'run', clip: run }],
  transitions: [{ from: 'walk', to: 'run', when: [['speed', '>', 1]], duration: 0.2 }],
  initial: 'walk',
});
const space = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 0 }, { clip: run, x: 1 }] });
const mask = createMask(skeleton, new Array<number>(skeleton.jointCount).fill(1));

/** Every command of the main entry that takes a world, called with arguments it would take between frames. */
function commands(world: AnimationWorld): Record<string, () => unknown> {
  const eid = 1;
  return {
    spawnCharacter: () => entry.spawnCharacter(world, skeleton),
    removeCharacter: () => entry.removeCharacter(world, 2),
    getLocalPose: () => entry.getLocalPose(world, eid),
    getModelMatrices: () => entry.getModelMatrices(world, eid),
    getSkinPalette: () => entry.getSkinPalette(world, eid),
    getJointWorldMatrix: () => entry.getJointWorldMatrix(world, eid, 0, new Float32Array(12)),
    getCurves: () => entry.getCurves(world, eid),
    play: () => entry.play(world, eid, run),
    stop: () => entry.stop(world, eid, 0),
    setLayerWeight: () => entry.setLayerWeight(world, eid, 0, 0.5),
    step: () => entry.step(world, DT),
    stepParallel: () => entry.stepParallel(world, DT),
    disposeAnimationWorld: () => entry.disposeAnimationWorld(world),
    drainEvents: () => entry.drainEvents(world),
    kernelAreaReport: () => entry.kernelAreaReport(world),
    drainEachEvent: () => entry.drainEachEvent(world, () => {}),
    transition: () => entry.transition(world, eid, run, { duration: 0.2 }),
    getRootTransform: () => entry.getRootTransform(world, eid),
    setRootTransform: () => entry.setRootTransform(world, eid, { x: 3 }),
    setTargetSpeed: () => entry.setTargetSpeed(world, eid, 1.5),
    clearTargetSpeed: () => entry.clearTargetSpeed(world, eid),
    setBlendSpace: () => entry.setBlendSpace(world, eid, space, 0.5),
    setStateMachine: () => entry.setStateMachine(world, eid, machine),
    setParameter: () => entry.setParameter(world, eid, 'speed', 2),
    fireTrigger: () => entry.fireTrigger(world, eid, 'jump'),
    getState: () => entry.getState(world, eid),
    setFollower: () => entry.setFollower(world, eid, { duration: 0.3 }),
    setFollowTarget: () => entry.setFollowTarget(world, eid, 4, 5, 6),
    setFollowTargetVelocity: () => entry.setFollowTargetVelocity(world, eid, 1, 2, 3),
    setFollowTargetAcceleration: () => entry.setFollowTargetAcceleration(world, eid, 0, -9.81, 0),
    getFollowPosition: () => entry.getFollowPosition(world, eid),
    removeFollower: () => entry.removeFollower(world, eid),
    setLookAt: () => entry.setLookAt(world, eid, { joint: 3 }),
    setReach: () => entry.setReach(world, eid, { upper: 1, lower: 2, end: 3 }),
    clearLookAt: () => entry.clearLookAt(world, eid),
    clearReach: () => entry.clearReach(world, eid),
    setFootLock: () => entry.setFootLock(world, eid, { legs: [{ upper: 1, lower: 2, foot: 3 }] }),
    clearFootLock: () => entry.clearFootLock(world, eid),
    setLod: () => entry.setLod(world, eid, { levels: 2, distances: [10] }),
    removeLod: () => entry.removeLod(world, eid),
    getLod: () => entry.getLod(world, eid),
    setLodCamera: () => entry.setLodCamera(world, 1, 2, 3),
    registerLodLevels: () => entry.registerLodLevels(world, walk, [run]),
    releaseClip: () => entry.releaseClip(world, run),
    releaseSkeleton: () => entry.releaseSkeleton(world, skeleton),
    releaseMask: () => entry.releaseMask(world, mask),
  };
}

/** The AnimationError `call` throws (failing with the command's name when it returns). */
function refusal(name: string, call: () => unknown): string {
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    expect(error, name).toBeInstanceOf(AnimationError);
    return (error as AnimationError).message;
  }
  if (result instanceof Promise) result.catch(() => {});
  throw new Error(`${name} took the call (returned ${String(result)})`);
}

/** The main entry's functions whose first parameter is `world` (from their source text). */
function worldCommands(): string[] {
  return Object.entries(entry)
    .filter(([, value]) => typeof value === 'function' && /^(?:function\s*[\w$]*\s*)?\(\s*world\b/.test(Function.prototype.toString.call(value)))
    .map(([name]) => name)
    .sort();
}

describe('every command refuses a world with a frame in flight or disposed, and changes nothing', () => {
  it('the table calls every command of the main entry that takes a world', () => {
    const found = worldCommands();
    expect(found).toContain('setFollowTarget'); // the enumeration sees the commands at all
    expect(found.length).toBeGreaterThan(30);
    expect(Object.keys(commands(null as unknown as AnimationWorld)).sort()).toEqual(found);
  });

  it('while stepParallel is in flight: "a parallel step is running", the world as its twin that never saw the calls', async () => {
    const threaded = crowd(2), twin = crowd(1);
    // The first frame waits for the workers to load, so it is in flight when stepParallel returns.
    const frame = stepParallel(threaded, DT);
    for (const [name, call] of Object.entries(commands(threaded))) {
      expect(refusal(name, call), name).toContain('a parallel step is running');
    }
    await frame;
    step(twin, DT);
    expect(hash(threaded)).toBe(hash(twin));
    expect(drainEvents(threaded)).toEqual(drainEvents(twin));
    // Between frames the setters' fast path writes again, on both.
    for (const world of [threaded, twin]) {
      setFollowTarget(world, 1, 4, 5, 6);
      setFollowTargetVelocity(world, 1, 1, 2, 3);
      setFollowTargetAcceleration(world, 1, 0, -9.81, 0);
    }
    const before = hash(threaded);
    expect(before).toBe(hash(twin));
    await stepParallel(threaded, DT);
    step(twin, DT);
    expect(hash(threaded)).toBe(hash(twin));
    expect(hash(threaded)).not.toBe(before);
  });

  it('a frame in flight refuses the target setters on every frame, not only the first', async () => {
    const world = crowd(2);
    await stepParallel(world, DT);
    let refusedCalls = 0, frames = 0;
    for (let f = 0; f < 20; f++) {
      const frame = stepParallel(world, DT);
      // A frame that settled synchronously (the workers were quick) is no longer in flight.
      const inFlight = world.gate !== 0;
      if (inFlight) {
        frames++;
        const before = world.components.Follower.target.slice(3, 6);
        for (const call of [() => setFollowTarget(world, 1, 7, 8, 9), () => setFollowTargetVelocity(world, 1, 7, 8, 9), () => setFollowTargetAcceleration(world, 1, 7, 8, 9)]) {
          expect(refused(call).message).toContain('a parallel step is running');
          refusedCalls++;
        }
        expect(world.components.Follower.target.slice(3, 6)).toEqual(before);
      }
      await frame;
    }
    expect(refusedCalls).toBe(frames * 3);
  });

  it('after disposeAnimationWorld: "was disposed", the pools as they were (unthreaded and threaded worlds)', async () => {
    for (const threads of [1, 2]) {
      const world = crowd(threads, 200);
      await stepParallel(world, DT);
      disposeAnimationWorld(world);
      const before = hash(world);
      for (const [name, call] of Object.entries(commands(world))) {
        expect(refusal(`${name}, ${threads} thread(s)`, call)).toContain('was disposed');
      }
      expect(hash(world)).toBe(before);
    }
  });
});
