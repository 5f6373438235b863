/**
 * Follower slots: each character has FOLLOW_SLOTS independent followers. A slot steps exactly
 * as a single follower on a character of its own (bit for bit), the API calls touch only the
 * slot they name (slot 0 by default), bad slots are refused naming the field with nothing
 * changed, and a character spawned on a reused entity id starts with every slot empty.
 */
import { describe, expect, it } from 'vitest';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../../src/components/Follower.js';
import { getFollowPosition, removeFollower, setFollower, setFollowTarget, type FollowerOptions } from '../../src/api/followers.js';
import { createAnimationWorld, removeCharacter, spawnCharacter, step, type AnimationWorld } from '../../src/index.js';
import { FOLLOW_SLOTS as EXPORTED_SLOTS } from '../../src/kernels.js';
import { followEntities, followSystem } from '../../src/systems/followSystem.js';
import { refused } from '../fixtures/errors.js';
import { createRandom } from '../fixtures/synthetic.js';
import { twoJointSkeleton } from '../systems/helpers.js';
import { followRow, followState, followWorld } from './helpers.js';

/** Every array of the Follower component (scratch aside), copied. */
function snapshot(world: AnimationWorld): number[][] {
  const F = world.components.Follower;
  return [F.enabled, F.integrator, F.target, F.sampled, F.state, F.duration, F.interval, F.timer].map((a) => Array.from(a));
}

/** The bits of a slot's state (x v a), so −0 and +0 or NaN payloads would show. */
function stateBits(world: AnimationWorld, eid: number, slot: number): bigint[] {
  const o = followRow(eid, slot) * FOLLOW_STATE_STRIDE;
  const state = world.components.Follower.state;
  return Array.from(new BigUint64Array(state.buffer, state.byteOffset + o * 8, FOLLOW_STATE_STRIDE));
}

/** Settings of three followers that differ in everything: integrator, T, interval, start. */
const SETTINGS: Array<{ slot: number; options: FollowerOptions }> = [
  { slot: 0, options: { x: 0, y: 1, z: 0 } },
  { slot: 1, options: { x: 2, y: 0.5, z: -1, duration: 0.3, interval: 0.15, integrator: 'euler' } },
  { slot: FOLLOW_SLOTS - 1, options: { x: -1, y: 2, z: 3, duration: 0.55, interval: 0.25 } },
];

describe('follower slots', () => {
  it('FOLLOW_SLOTS is exported and sizes the component: (maxEntities + 1) × FOLLOW_SLOTS rows', () => {
    expect(EXPORTED_SLOTS).toBe(FOLLOW_SLOTS);
    expect(FOLLOW_SLOTS).toBe(4);
    const { world } = followWorld(3);
    const F = world.components.Follower;
    const rows = (world.maxEntities + 1) * FOLLOW_SLOTS;
    expect([F.enabled.length, F.integrator.length, F.duration.length, F.interval.length, F.timer.length]).toEqual([rows, rows, rows, rows, rows]);
    expect([F.target.length, F.sampled.length, F.state.length]).toEqual([rows * 3, rows * 3, rows * FOLLOW_STATE_STRIDE]);
  });

  it('followers in slots 0, 1 and 3 of one character equal three single-follower characters, bit for bit', () => {
    // World A: one character with three followers (slot 2 empty), plus a bystander with one.
    // World B: three characters, each with one follower (slot 0) set as one of A's slots.
    const a = followWorld(2);
    const b = followWorld(3);
    const [eid, bystander] = a.eids as [number, number];
    for (const { slot, options } of SETTINGS) setFollower(a.world, eid, { ...options, slot });
    setFollower(a.world, bystander, { x: 5, y: 5, z: 5 });
    SETTINGS.forEach(({ options }, k) => setFollower(b.world, b.eids[k]!, options));
    const random = createRandom(5);
    for (let f = 0; f < 240; f++) {
      // Targets move on some frames; frames of random length split at the sampling instants.
      SETTINGS.forEach(({ slot }, k) => {
        if (random() < 0.15) {
          const [x, y, z] = [random() * 4 - 2, random() * 2, random() * 4 - 2];
          setFollowTarget(a.world, eid, x, y, z, slot);
          setFollowTarget(b.world, b.eids[k]!, x, y, z);
        }
      });
      if (random() < 0.1) setFollowTarget(a.world, bystander, random(), random(), random());
      const dt = 1 / 240 + random() * (1 / 20 - 1 / 240);
      followSystem(a.world, dt);
      followSystem(b.world, dt);
    }
    SETTINGS.forEach(({ slot }, k) => {
      expect(stateBits(a.world, eid, slot), `slot ${slot}`).toEqual(stateBits(b.world, b.eids[k]!, 0));
      expect(a.world.components.Follower.timer[followRow(eid, slot)]).toBe(b.world.components.Follower.timer[followRow(b.eids[k]!)]);
      expect(getFollowPosition(a.world, eid, slot)).toEqual(getFollowPosition(b.world, b.eids[k]!));
    });
    // The followers moved (the comparison is not between resting points), and slot 2 stayed empty.
    expect(followState(a.world, eid, 1).x).not.toEqual([2, 0.5, -1]);
    expect(a.world.components.Follower.enabled[followRow(eid, 2)]).toBe(0);
    expect(Array.from(a.world.components.Follower.state.subarray(followRow(eid, 2) * FOLLOW_STATE_STRIDE, followRow(eid, 3) * FOLLOW_STATE_STRIDE))).toEqual(new Array(FOLLOW_STATE_STRIDE).fill(0));
  });

  it('followEntities steps all of a character’s slots, and only the characters in range', () => {
    const { world, eids } = followWorld(2);
    for (const eid of eids) for (const { slot, options } of SETTINGS) setFollower(world, eid, { ...options, slot });
    for (const eid of eids) for (const { slot } of SETTINGS) setFollowTarget(world, eid, 9, 9, 9, slot);
    followEntities(world, 0.3, 0, 1);
    for (const { slot, options } of SETTINGS) {
      const rest = { x: [options.x, options.y, options.z], v: [0, 0, 0], a: [0, 0, 0] };
      expect(followState(world, eids[0]!, slot), `slot ${slot}`).not.toEqual(rest); // (one Euler step from rest moves only a)
      expect(followState(world, eids[1]!, slot), `slot ${slot}`).toEqual(rest);
    }
  });

  it('each call touches only the slot it names; slot 0 is the default', () => {
    const { world, eids } = followWorld(1);
    const eid = eids[0]!;
    const F = world.components.Follower;
    setFollower(world, eid, { x: 1, y: 2, z: 3 });
    expect(Array.from(F.enabled.subarray(followRow(eid), followRow(eid + 1)))).toEqual([1, 0, 0, 0]);
    // A new slot starts at the character's position with the default settings, whatever slot 0 has.
    setFollower(world, eid, { duration: 0.9 });
    setFollower(world, eid, { slot: 2 });
    expect(getFollowPosition(world, eid, 2)).toEqual({ x: 0, y: 0, z: 0 });
    expect([F.duration[followRow(eid, 2)], F.duration[followRow(eid, 0)]]).toEqual([0.4, 0.9]);
    // setFollowTarget on an empty slot places a follower there; on a running one sets its target.
    let before = snapshot(world);
    setFollowTarget(world, eid, 7, 8, 9, 3);
    expect(getFollowPosition(world, eid, 3)).toEqual({ x: 7, y: 8, z: 9 });
    setFollowTarget(world, eid, 4, 5, 6);
    expect(Array.from(F.target.subarray(followRow(eid) * 3, followRow(eid) * 3 + 3))).toEqual([4, 5, 6]);
    const after = snapshot(world);
    // Only slot 3's rows and slot 0's target changed.
    const changed = (k: number, stride: number): number[] => {
      const rows: number[] = [];
      for (let i = 0; i < after[k]!.length; i++) if (!Object.is(after[k]![i], before[k]![i])) rows.push(Math.floor(i / stride));
      return [...new Set(rows)];
    };
    expect(changed(0, 1)).toEqual([followRow(eid, 3)]); // enabled
    expect(changed(2, 3)).toEqual([followRow(eid, 0), followRow(eid, 3)]); // target
    expect(changed(4, FOLLOW_STATE_STRIDE)).toEqual([followRow(eid, 3)]); // state
    // removeFollower with a slot removes that one; without, all of them.
    before = snapshot(world);
    removeFollower(world, eid, 2);
    expect(Array.from(F.enabled.subarray(followRow(eid), followRow(eid + 1)))).toEqual([1, 0, 0, 1]);
    expect(getFollowPosition(world, eid, 3)).toEqual({ x: 7, y: 8, z: 9 });
    removeFollower(world, eid);
    expect(Array.from(F.enabled.subarray(followRow(eid), followRow(eid + 1)))).toEqual([0, 0, 0, 0]);
    expect(snapshot(world)).toEqual(snapshot(followWorld(1).world)); // as a new world
  });

  it('refuses a slot that is not an integer in [0, FOLLOW_SLOTS − 1], naming the field, and changes nothing', () => {
    const { world, eids } = followWorld(1);
    const eid = eids[0]!;
    setFollower(world, eid, { x: 0, y: 0, z: 0 });
    setFollower(world, eid, { x: 1, y: 1, z: 1, slot: 1 });
    setFollowTarget(world, eid, 3, 3, 3);
    followSystem(world, 0.3);
    const before = snapshot(world);
    const bad: unknown[] = [FOLLOW_SLOTS, -1, 1.5, Number.NaN, Infinity, '1', null];
    for (const slot of bad) {
      const label = String(slot);
      const set = refused(() => setFollower(world, eid, { slot } as never));
      expect([set.where, set.issues.map((i) => i.path)], label).toEqual(['setFollower', ['slot']]);
      expect(set.message).toContain(`[0, ${FOLLOW_SLOTS - 1}]`);
      const target = refused(() => setFollowTarget(world, eid, 1, 2, 3, slot as never));
      expect([target.where, target.issues.map((i) => i.path)], label).toEqual(['setFollowTarget', ['slot']]);
      const get = refused(() => getFollowPosition(world, eid, slot as never));
      expect([get.where, get.issues.map((i) => i.path)], label).toEqual(['getFollowPosition', ['slot']]);
      const remove = refused(() => removeFollower(world, eid, slot as never));
      expect([remove.where, remove.issues.map((i) => i.path)], label).toEqual(['removeFollower', ['slot']]);
      expect(snapshot(world), label).toEqual(before);
    }
    // Listed with the other faults.
    expect(refused(() => setFollower(world, eid, { slot: 9, duration: -1 })).issues.map((i) => i.path)).toEqual(['slot', 'duration']);
    expect(refused(() => setFollowTarget(world, eid, Number.NaN, 0, 0, 9)).issues.map((i) => i.path)).toEqual(['x', 'slot']);
    // An empty slot: getFollowPosition names it.
    const empty = refused(() => getFollowPosition(world, eid, 2));
    expect(empty.issues[0]!.path).toBe('eid');
    expect(empty.message).toContain('slot 2');
    expect(snapshot(world)).toEqual(before);
  });

  it('a character spawned on a reused entity id starts with every slot empty', () => {
    const skeleton = twoJointSkeleton();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const first = spawnCharacter(world, skeleton);
    for (let slot = 0; slot < FOLLOW_SLOTS; slot++) {
      setFollower(world, first, { slot, x: slot, y: 1, z: 2, duration: 0.2 + slot / 10, interval: 0.05, integrator: slot % 2 === 0 ? 'euler' : 'exact' });
      setFollowTarget(world, first, 5, 5, slot, slot);
    }
    step(world, 0.1);
    removeCharacter(world, first);
    step(world, 0.1);
    const again = spawnCharacter(world, skeleton);
    expect(again).toBe(first);
    const fresh = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    spawnCharacter(fresh, skeleton);
    expect(snapshot(world)).toEqual(snapshot(fresh));
    for (let slot = 0; slot < FOLLOW_SLOTS; slot++) expect(refused(() => getFollowPosition(world, again, slot)).issues[0]!.path).toBe('eid');
  });
});
