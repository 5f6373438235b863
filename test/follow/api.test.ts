/** The follower API: defaults, reconfiguring, validation (AnimationError naming the field, world unchanged). */
import { describe, expect, it } from 'vitest';
import { FOLLOW_EULER, FOLLOW_EXACT } from '../../src/components/Follower.js';
import { getFollowPosition, removeFollower, setFollower, setFollowTarget } from '../../src/api/followers.js';
import { createAnimationWorld, spawnCharacter, type AnimationWorld } from '../../src/index.js';
import { followSystem } from '../../src/systems/followSystem.js';
import { refused } from '../fixtures/errors.js';
import { twoJointSkeleton } from '../systems/helpers.js';
import { followRow, followState, followTriple } from './helpers.js';

function world1(place = { x: 1, y: 2, z: 3 }): { world: AnimationWorld; eid: number } {
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
  const eid = spawnCharacter(world, twoJointSkeleton(), place);
  return { world, eid };
}

/** Every array of the Follower component (scratch aside) and the root transforms, copied. */
function snapshot(world: AnimationWorld): number[][] {
  const F = world.components.Follower;
  const R = world.components.RootMotion;
  return [F.enabled, F.integrator, F.target, F.sampled, F.state, F.duration, F.interval, F.timer, R.x, R.y, R.z].map((a) => Array.from(a));
}

describe('setFollower', () => {
  it('defaults: T = 0.4 s, every 0.2 s, exact, at rest at the character’s world position', () => {
    const { world, eid } = world1();
    setFollower(world, eid);
    const F = world.components.Follower;
    expect([F.enabled[followRow(eid)], F.duration[followRow(eid)], F.interval[followRow(eid)], F.integrator[followRow(eid)], F.timer[followRow(eid)]]).toEqual([1, 0.4, 0.2, FOLLOW_EXACT, 0]);
    expect(getFollowPosition(world, eid)).toEqual({ x: 1, y: 2, z: 3 });
    expect(followState(world, eid)).toEqual({ x: [1, 2, 3], v: [0, 0, 0], a: [0, 0, 0] });
    expect(followTriple(F.target, eid)).toEqual([1, 2, 3]);
    expect(followTriple(F.sampled, eid)).toEqual([1, 2, 3]);
    // At rest on its own target, it stays put.
    for (let f = 0; f < 60; f++) followSystem(world, 1 / 60);
    expect(getFollowPosition(world, eid)).toEqual({ x: 1, y: 2, z: 3 });
  });

  it('takes the options; an omitted coordinate comes from the character', () => {
    const { world, eid } = world1();
    setFollower(world, eid, { duration: 0.3, interval: 0.1, integrator: 'euler', y: -4 });
    const F = world.components.Follower;
    expect([F.duration[followRow(eid)], F.interval[followRow(eid)], F.integrator[followRow(eid)]]).toEqual([0.3, 0.1, FOLLOW_EULER]);
    expect(getFollowPosition(world, eid)).toEqual({ x: 1, y: -4, z: 3 });
  });

  it('reconfiguring a running follower keeps its motion; giving a position restarts it at rest there', () => {
    const { world, eid } = world1();
    setFollower(world, eid, { x: 0, y: 0, z: 0 });
    setFollowTarget(world, eid, 1, 1, 1);
    followSystem(world, 0.3); // moving now
    const moving = followState(world, eid);
    expect(moving.v[0]).toBeGreaterThan(0);
    setFollower(world, eid, { duration: 0.6, integrator: 'euler' });
    expect(followState(world, eid)).toEqual(moving);
    expect(world.components.Follower.timer[followRow(eid)]).toBeCloseTo(0.1, 15); // interval unchanged: clock kept
    setFollower(world, eid, { interval: 0.5 });
    expect(world.components.Follower.timer[followRow(eid)]).toBe(0); // a new interval restarts the clock
    setFollower(world, eid, { z: 7 });
    expect(followState(world, eid)).toEqual({ x: [moving.x[0], moving.x[1], 7], v: [0, 0, 0], a: [0, 0, 0] });
    expect(world.components.Follower.duration[followRow(eid)]).toBe(0.6); // settings kept
  });

  it('refuses bad options, naming each field, and changes nothing', () => {
    const { world, eid } = world1();
    setFollower(world, eid, { x: 0, y: 0, z: 0 });
    setFollowTarget(world, eid, 1, 1, 1);
    followSystem(world, 0.3);
    const before = snapshot(world);
    const cases: Array<[unknown, string]> = [
      [{ duration: 0 }, 'duration'],
      [{ duration: -0.4 }, 'duration'],
      [{ duration: Number.NaN }, 'duration'],
      [{ duration: Infinity }, 'duration'],
      [{ duration: '0.4' }, 'duration'],
      [{ interval: 0 }, 'interval'],
      [{ interval: -1 }, 'interval'],
      [{ interval: Number.NaN }, 'interval'],
      [{ integrator: 'rk4' }, 'integrator'],
      [{ integrator: 'toString' }, 'integrator'],
      [{ x: Number.NaN }, 'x'],
      [{ y: Infinity }, 'y'],
      [{ z: -Infinity }, 'z'],
    ];
    for (const [options, field] of cases) {
      const error = refused(() => setFollower(world, eid, options as never));
      expect(error.where).toBe('setFollower');
      expect(error.issues.map((i) => i.path)).toEqual([field]);
    }
    // Several faults are listed together.
    const error = refused(() => setFollower(world, eid, { duration: 0, interval: Number.NaN, x: Infinity }));
    expect(error.issues.map((i) => i.path)).toEqual(['duration', 'interval', 'x']);
    expect(refused(() => setFollower(world, eid, null as never)).issues[0]!.path).toBe('options');
    for (const bad of [0, 99, 1.5, -1]) expect(refused(() => setFollower(world, bad)).issues[0]!.path).toBe('eid');
    expect(snapshot(world)).toEqual(before);
  });
});

describe('setFollowTarget', () => {
  it('sets the target the follower samples at its next instant', () => {
    const { world, eid } = world1();
    setFollower(world, eid);
    setFollowTarget(world, eid, 4, 5, 6);
    expect(followTriple(world.components.Follower.target, eid)).toEqual([4, 5, 6]);
    expect(followTriple(world.components.Follower.sampled, eid)).toEqual([1, 2, 3]);
  });

  it('gives a character without a follower one at rest at the target', () => {
    const { world, eid } = world1();
    setFollowTarget(world, eid, 4, 5, 6);
    const F = world.components.Follower;
    expect([F.enabled[followRow(eid)], F.duration[followRow(eid)], F.interval[followRow(eid)], F.integrator[followRow(eid)]]).toEqual([1, 0.4, 0.2, FOLLOW_EXACT]);
    expect(followState(world, eid)).toEqual({ x: [4, 5, 6], v: [0, 0, 0], a: [0, 0, 0] });
  });

  it('refuses non-finite coordinates and non-characters, changing nothing', () => {
    const { world, eid } = world1();
    setFollower(world, eid);
    const before = snapshot(world);
    expect(refused(() => setFollowTarget(world, eid, Number.NaN, 0, 0)).issues.map((i) => i.path)).toEqual(['x']);
    expect(refused(() => setFollowTarget(world, eid, 0, Infinity, Number.NaN)).issues.map((i) => i.path)).toEqual(['y', 'z']);
    expect(refused(() => setFollowTarget(world, eid, 0, 0, '1' as never)).issues.map((i) => i.path)).toEqual(['z']);
    expect(refused(() => setFollowTarget(world, 2, 0, 0, 0)).issues[0]!.path).toBe('eid');
    expect(snapshot(world)).toEqual(before);
    // …also for a character that had no follower yet: it still has none.
    const other = world1();
    const none = snapshot(other.world);
    refused(() => setFollowTarget(other.world, other.eid, 0, Number.NaN, 0));
    expect(snapshot(other.world)).toEqual(none);
  });
});

describe('getFollowPosition and removeFollower', () => {
  it('refuses a character without a follower; removing one stops it', () => {
    const { world, eid } = world1();
    const error = refused(() => getFollowPosition(world, eid));
    expect(error.where).toBe('getFollowPosition');
    expect(error.issues[0]!.path).toBe('eid');
    setFollower(world, eid, { x: 0, y: 0, z: 0 });
    setFollowTarget(world, eid, 1, 0, 0);
    followSystem(world, 0.3);
    removeFollower(world, eid);
    expect(world.components.Follower.enabled[followRow(eid)]).toBe(0);
    refused(() => getFollowPosition(world, eid));
    const state = Array.from(world.components.Follower.state);
    followSystem(world, 0.5);
    expect(Array.from(world.components.Follower.state)).toEqual(state);
    expect(refused(() => removeFollower(world, 42)).issues[0]!.path).toBe('eid');
  });
});
