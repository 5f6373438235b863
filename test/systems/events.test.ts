import { describe, expect, it } from 'vitest';
import { createAnimationWorld, drainEvents, play, spawnCharacter, step } from '../../src/index.js';
import { twoJointSkeleton, wiggleClip } from './helpers.js';

// D = 0.25 s; times are binary fractions so every comparison below is exact.
const skeleton = twoJointSkeleton();
const events = [{ time: 0, name: 'a' }, { time: 0.0625, name: 'b' }, { time: 0.1875, name: 'c' }];
const loopClip = wiggleClip(skeleton, { events });
const onceClip = wiggleClip(skeleton, { loop: false, events: [...events, { time: 0.25, name: 'end' }] });

function setUp() {
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
  const eid = spawnCharacter(world, skeleton);
  return { world, eid };
}

const names = (world: Parameters<typeof drainEvents>[0]) => drainEvents(world).map((e) => e.name);

describe('clip events', () => {
  it('fire once when playback crosses them, start inclusive, end exclusive', () => {
    const { world, eid } = setUp();
    play(world, eid, loopClip);
    step(world, 0.0625); // [0, 0.0625): a
    expect(names(world)).toEqual(['a']);
    step(world, 0.0625); // [0.0625, 0.125): b
    expect(names(world)).toEqual(['b']);
    step(world, 0.0); // nothing moves, nothing fires
    expect(names(world)).toEqual([]);
  });

  it('fire across a loop wrap, in order', () => {
    const { world, eid } = setUp();
    play(world, eid, loopClip, { time: 0.125 });
    step(world, 0.1875); // [0.125, 0.25) then [0, 0.0625): c, a
    const drained = drainEvents(world);
    expect(drained.map((e) => e.name)).toEqual(['c', 'a']);
    expect(drained.map((e) => e.time)).toEqual([0.1875, 0]);
    expect(drained[0]!.eid).toBe(eid);
    expect(drained[0]!.clip).toBe(loopClip);
  });

  it('fire once per loop when one frame spans several loops', () => {
    const { world, eid } = setUp();
    play(world, eid, loopClip, { time: 0.125 });
    step(world, 0.625); // 0.125 → 0.75: c | a b c | a b c | (0.75 is the start of the next loop, exclusive)
    expect(names(world)).toEqual(['c', 'a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('fire in reverse order when playing backwards', () => {
    const { world, eid } = setUp();
    play(world, eid, loopClip, { time: 0.125, speed: -1 });
    step(world, 0.1875); // 0.125 → −0.0625: b (0.0625) and a (0) on the way down, then (0.1875, 0.25] after the wrap holds none
    expect(names(world)).toEqual(['b', 'a']);
    step(world, 0.0625); // 0.1875 → 0.125: (0.125, 0.1875] holds c
    expect(names(world)).toEqual(['c']);
  });

  it('a play-once clip fires its end event once and then nothing', () => {
    const { world, eid } = setUp();
    play(world, eid, onceClip, { time: 0.125 });
    step(world, 1);
    expect(names(world)).toEqual(['c', 'end']);
    step(world, 1);
    expect(names(world)).toEqual([]);
  });

  it('orders events of several characters by when they happened', () => {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
    const first = spawnCharacter(world, skeleton);
    const second = spawnCharacter(world, skeleton);
    play(world, first, loopClip, { time: 0.125 }); // reaches c (0.1875) after 0.0625 s
    play(world, second, loopClip, { time: 0.1875 }); // c at once, a after 0.0625 s
    step(world, 0.09375); // first: c at +0.0625; second: c at +0, a at +0.0625 (same instant as first's c)
    const drained = drainEvents(world);
    expect(drained.map((e) => [e.eid, e.name])).toEqual([
      [second, 'c'],
      [first, 'c'],
      [second, 'a'],
    ]);
  });

  it('drops the oldest events when the queue is full, and counts them', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxEvents: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, loopClip, { time: 0.125 });
    step(world, 0.625); // 7 events into a queue of 4
    expect(names(world)).toEqual(['c', 'a', 'b', 'c']);
    expect(world.events.dropped).toBe(3);
  });

  it('survive an absurd number of loops in one frame without looping forever', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxEvents: 6 });
    const eid = spawnCharacter(world, skeleton);
    // The fastest rate for the longest step (speed 1e9 is refused since issue 15: MAX_PLAYBACK_RATE).
    play(world, eid, loopClip, { speed: 1000 });
    step(world, 1e6); // 1e9 s of a 0.25 s clip: 4e9 loops, each crossing a, b and c once
    const drained = names(world);
    expect(drained).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
    expect(world.events.dropped).toBe(3 * 4e9 - 6);
  });
});
