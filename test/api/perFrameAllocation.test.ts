/**
 * The calls a game makes every frame allocate nothing (issue 19): `setBlendSpace`,
 * `setTargetSpeed`, `setFollowTarget`, `drainEachEvent` — each alone over 100,000 calls,
 * the smallest of up to eight runs under 8 bytes a call (half a boxed double).
 *
 * The arguments come from arrays of generic elements, whose numbers are already heap objects:
 * a double read from a plain number array and passed to a call is boxed by the caller, which is
 * the game's allocation (and the same for any JavaScript function), not the library's.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createBlendSpace, drainEachEvent, play, setBlendSpace, setFollower, setFollowTarget, setTargetSpeed, spawnCharacter, step,
  transition, type EventRecord, type TransitionOptions,
} from '../../src/index.js';
import { biped, directionalWalk } from '../rootMotion/locomotion.js';
import { smallestAllocation } from '../support/allocation.js';

/**
 * Bytes a call: the smallest of up to eight runs of 100,000 calls (test/support/allocation.ts).
 * Many calls per run, because what V8 itself allocates while it compiles (code objects,
 * feedback) is a fixed ~100–200 KB on a busy machine: spread over 100,000 calls it stays near
 * 1–2 bytes a call, while a boxed double per call would be 16.
 */
function bytesPerCall(call: (i: number) => void): number {
  return smallestAllocation(call, { calls: 100_000, bound: 100_000 * 8 }) / 100_000;
}

/** Heap numbers for arguments (see the file's comment); the string keeps the array generic. */
const numbers = (values: number[]): number[] => [...values, 'generic' as unknown as number];

function walker() {
  const skeleton = biped(1);
  const forward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 2, duration: 1, name: 'forward' });
  const side = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 4, duration: 1, name: 'side' });
  const world = createAnimationWorld({ maxEntities: 8, maxJoints: 32 });
  const eid = spawnCharacter(world, skeleton, { rootMotion: true });
  return { world, eid, forward, side };
}

describe('per-frame calls allocate nothing', () => {
  it('setBlendSpace, the point moving inside the blend and clips entering and leaving it', () => {
    const { world, eid, forward, side } = walker();
    const space = createBlendSpace({ type: '1d', samples: [{ clip: forward, x: 0 }, { clip: side, x: 1 }] });
    // 0 and 1 play one clip, the others both: clips leave and re-enter the blend.
    const xs = numbers([0, 0.25, 0.5, 0.75, 1, 0.6, 0.1]);
    const perCall = bytesPerCall((i) => setBlendSpace(world, eid, space, xs[i % 7]!));
    console.log(`setBlendSpace: ${perCall.toFixed(2)} bytes a call`);
    expect(perCall).toBeLessThan(8);
  });

  it('setTargetSpeed on a travelling blend', () => {
    const { world, eid, forward } = walker();
    play(world, eid, forward);
    const speeds = numbers([1, 1.25, 1.5]);
    const perCall = bytesPerCall((i) => setTargetSpeed(world, eid, speeds[i % 3]!));
    console.log(`setTargetSpeed: ${perCall.toFixed(2)} bytes a call`);
    expect(perCall).toBeLessThan(8);
  });

  it('setFollowTarget on a follower', () => {
    const { world, eid, forward } = walker();
    play(world, eid, forward);
    setFollower(world, eid, { x: 0, y: 1, z: 0 });
    const xs = numbers([0.5, -1.25, 2.75, 0.125]);
    const perCall = bytesPerCall((i) => setFollowTarget(world, eid, xs[i % 4]!, xs[(i + 1) % 4]!, xs[(i + 2) % 4]!));
    console.log(`setFollowTarget: ${perCall.toFixed(2)} bytes a call`);
    expect(perCall).toBeLessThan(8);
  });

  it('the harness sees garbage: a call that makes one small object is over the bound', () => {
    const kept: { i: number }[] = [];
    const perCall = bytesPerCall((i) => { kept[i & 15] = { i }; });
    expect(perCall).toBeGreaterThan(8);
  });

  it('a game loop: step, then drain the events every frame', () => {
    const { world, eid, forward } = walker();
    play(world, eid, forward);
    let seen = 0;
    const onEvent = (event: EventRecord): void => { seen += event.eid; };
    const perFrame = bytesPerCall(() => { step(world, 1 / 60); drainEachEvent(world, onEvent); });
    console.log(`step + drainEachEvent: ${perFrame.toFixed(2)} bytes a frame`);
    expect(perFrame).toBeLessThan(8);
  });

  it('transition, quintic and spring, each request interrupting the last', () => {
    const { world, eid, forward, side } = walker();
    play(world, eid, forward);
    // Options made once, as a game keeps them. (Extra numbers in them — weight, speed, time,
    // halfLife — may each cost V8 a boxed number per call when it reads them: docs/transitions.md.)
    const options: TransitionOptions[] = [{ duration: 0.25 }, { duration: 0.2, mode: 'spring' }, { duration: 0.3, mode: 'inertialize' }];
    // A step between requests, so each is captured and its slot held or returned as in a game.
    const perFrame = bytesPerCall((i) => { transition(world, eid, i % 2 ? forward : side, options[i % 3]!); step(world, 1 / 64); });
    console.log(`transition + step: ${perFrame.toFixed(2)} bytes a frame`);
    expect(perFrame).toBeLessThan(8);
  });

  it('a game loop: one transition and one setFollowTarget a frame, step, drain the events', () => {
    const { world, eid, forward, side } = walker();
    play(world, eid, forward);
    setFollower(world, eid, { x: 0, y: 1, z: 0 });
    const target = numbers([0.5, -1.25, 2.75, 0.125]);
    const options: TransitionOptions = { duration: 0.2 };
    let seen = 0;
    const onEvent = (event: EventRecord): void => { seen += event.eid; };
    const perFrame = bytesPerCall((i) => {
      transition(world, eid, i % 2 ? forward : side, options);
      setFollowTarget(world, eid, target[i % 4]!, target[(i + 1) % 4]!, target[(i + 2) % 4]!);
      step(world, 1 / 64);
      drainEachEvent(world, onEvent);
    });
    console.log(`game loop (transition, setFollowTarget, step, drainEachEvent): ${perFrame.toFixed(2)} bytes a frame`);
    expect(perFrame).toBeLessThan(8);
  });
});
