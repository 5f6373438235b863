/**
 * `drainEachEvent`: the same events as `drainEvents`, in the same order (by world time, ties
 * in recorded order), through one reused record and without allocating.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, drainEachEvent, drainEvents, play, spawnCharacter, step, type AnimationWorld, type EventRecord,
} from '../../src/index.js';
import { pushEvent } from '../../src/components/EventQueue.js';
import { smallestAllocation } from '../support/allocation.js';
import { twoJointSkeleton, wiggleClip } from './helpers.js';

const skeleton = twoJointSkeleton();
// D = 0.25 s: events at binary fractions.
const clip = wiggleClip(skeleton, { events: [{ time: 0, name: 'a' }, { time: 0.0625, name: 'b' }, { time: 0.1875, name: 'c' }] });

/** 12 characters at staggered times and speeds, so one frame's events arrive out of time order. */
function crowd(): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: 16, maxJoints: 2, maxEvents: 256 });
  for (let n = 0; n < 12; n++) {
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip, { time: (n * 0.037) % 0.25, speed: 0.5 + (n % 5) * 0.4 });
  }
  return world;
}

describe('drainEachEvent', () => {
  it('visits exactly what drainEvents returns, in the same order, sorted by world time', () => {
    const a = crowd();
    const b = crowd();
    let unsortedFrames = 0;
    for (let f = 0; f < 40; f++) {
      step(a, 0.05);
      step(b, 0.05);
      // The recorded order (character by character) is not the time order on some frames,
      // so the sort is exercised.
      const queue = b.events;
      const recorded = Array.from({ length: queue.count }, (_, n) => queue.at[(queue.head + n) % queue.capacity]!);
      if (recorded.some((at, n) => n > 0 && at < recorded[n - 1]!)) unsortedFrames++;
      const expected = drainEvents(a).map((e) => `${e.eid} ${e.name} ${e.time} ${e.clip.name}`);
      const visited: string[] = [];
      const times: number[] = [];
      const count = drainEachEvent(b, (e) => {
        visited.push(`${e.eid} ${e.name} ${e.time} ${e.clip.name}`);
        times.push(e.at);
      });
      expect(visited).toEqual(expected);
      expect(count).toBe(expected.length);
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(b.events.count).toBe(0);
    }
    expect(unsortedFrames).toBeGreaterThan(0);
  });

  it('hands every call the same record, refilled; clears the queue even when the visitor throws', () => {
    const world = crowd();
    step(world, 0.2);
    const records = new Set<EventRecord>();
    const names: string[] = [];
    const count = drainEachEvent(world, (e) => { records.add(e); names.push(e.name); });
    expect(count).toBeGreaterThan(3);
    expect(records.size).toBe(1);
    expect(new Set(names).size).toBeGreaterThan(1);
    step(world, 0.2);
    expect(world.events.count).toBeGreaterThan(0);
    expect(() => drainEachEvent(world, () => { throw new Error('game bug'); })).toThrow('game bug');
    expect(world.events.count).toBe(0);
    expect(drainEachEvent(world, () => {})).toBe(0);
  });

  it('refuses a visitor that is not a function, leaving the queue as it was', () => {
    const world = crowd();
    step(world, 0.2);
    const held = world.events.count;
    expect(() => drainEachEvent(world, 'onEvent' as never)).toThrow(AnimationError);
    expect(() => drainEachEvent(world, 'onEvent' as never)).toThrow(/visit is "onEvent"|visit is/);
    expect(world.events.count).toBe(held);
    expect(() => drainEachEvent({} as AnimationWorld, () => {})).toThrow(AnimationError);
  });

  it('allocates nothing: 100,000 drains of 40 events each (under 8 bytes a drain)', () => {
    const world = crowd();
    step(world, 0.01); // the first drain makes the queue's record and order
    drainEachEvent(world, () => {});
    let names = 0;
    const visit = (e: EventRecord): void => { names += e.name.length; };
    const fill = (): void => {
      // 40 records, times descending in blocks, as a chunked frame records them.
      for (let n = 0; n < 40; n++) {
        world.events.stamp[0] = ((n * 7) % 40) * 0.001;
        pushEvent(world.events, 1 + (n % 12), 0, n % 3);
      }
    };
    // Under 8 bytes a drain: garbage per event (a record, a boxed time: ≥ 16 bytes × 40
    // events) would be 80 times that.
    // 100,000 drains a run: V8's own allocation while compiling (~100–200 KB on a busy
    // machine) stays under 2 bytes a drain.
    const allocated = smallestAllocation(() => { fill(); drainEachEvent(world, visit); }, { calls: 100_000, bound: 100_000 * 8 });
    console.log(`drainEachEvent, 100,000 drains × 40 events: ${allocated} bytes allocated (the smallest run)`);
    expect(names).toBeGreaterThan(0);
    expect(allocated).toBeLessThan(100_000 * 8);
  });
});
