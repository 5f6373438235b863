/**
 * Look-at and reach on different follower slots: each hits its own target (the acceptance's
 * 1° and 1 mm), `setLookAt` / `setReach` create their follower in the slot they name, both on
 * one slot k behave exactly as both on slot 0, an empty slot pauses only the aim on it, and
 * bad slots are refused naming `follower` with nothing changed.
 */
import { describe, expect, it } from 'vitest';
import { clearLookAt, clearReach, setLookAt, setReach } from '../../src/api/aim.js';
import { FOLLOW_SLOTS } from '../../src/components/Follower.js';
import { getFollowPosition, removeFollower, setFollower } from '../../src/api/followers.js';
import { createAnimationWorld, play, removeCharacter, spawnCharacter, step, type AnimationWorld } from '../../src/index.js';
import { aimSystem } from '../../src/systems/aimSystem.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip } from '../fixtures/synthetic.js';
import {
  add, angle, deg, followerPosition, frame, frameWithoutAim, humanoid, J, jointDirection, jointPosition, len, sub, toModel, toWorld, type V3,
} from './helpers.js';

const DT = 1 / 60;
/** The head's forward axis in its own space (its rest rotation is 90° about +Y: helpers.humanoid). */
const HEAD_AXIS: V3 = [-1, 0, 0];
const ARM = { upper: 'upperArm', lower: 'foreArm', end: 'hand' } as const;

/** `count` humanoids playing the same clip (or standing in the rest pose), moved and turned differently (world ≠ model). */
function crowd(count: number, clip = true): { world: AnimationWorld; eids: number[] } {
  const skeleton = humanoid();
  const world = createAnimationWorld({ maxEntities: count + 1, maxJoints: skeleton.jointCount });
  const animation = syntheticClip(skeleton, { seed: 7, amplitude: 0.2 });
  const eids = Array.from({ length: count }, (_, n) => {
    const eid = spawnCharacter(world, skeleton, { x: n * 2 - 1, y: 0.1 * n, z: 1 - n, yaw: -0.6 + 0.5 * n });
    if (clip) play(world, eid, animation, { time: 0.25 });
    return eid;
  });
  return { world, eids };
}

/** Puts `eid`'s follower `slot` at rest on the model-space point `p`. */
function placeAt(world: AnimationWorld, eid: number, slot: number, p: V3): void {
  const w = toWorld(world, eid, p);
  setFollower(world, eid, { x: w[0], y: w[1], z: w[2], slot });
}

/** The model-space points to look at (ahead, swinging left and right) and to reach for (in front of the right shoulder) on frame `f`. */
function targets(world: AnimationWorld, eid: number, f: number): { look: V3; reach: V3 } {
  const head = jointPosition(world, eid, J.head);
  const yaw = 50 * deg * Math.sin(f / 4);
  const look = add(head, [2 * Math.sin(yaw), 0.3 * Math.cos(f / 3), 2 * Math.cos(yaw)]);
  const shoulder = jointPosition(world, eid, J.upperArm);
  const reach: V3 = [shoulder[0] + 0.1 * Math.sin(f / 5), shoulder[1] - 0.1, shoulder[2] + 0.3];
  return { look, reach };
}

const poseBits = (world: AnimationWorld): number[] => Array.from(new Uint32Array(world.components.LocalPose.data.slice().buffer));
const modelBits = (world: AnimationWorld): number[] => Array.from(new Uint32Array(world.components.ModelPose.data.slice().buffer));

/** Every array of LookAt, Reach and Follower (scratch aside), copied. */
function snapshot(world: AnimationWorld): number[][] {
  const L = world.components.LookAt, R = world.components.Reach, F = world.components.Follower;
  return [
    L.enabled, L.follower, L.head, L.neck, L.spine, L.neckFraction, L.spineFraction, L.axis, L.yawLimit, L.pitchLimit, L.weight,
    R.enabled, R.follower, R.upper, R.lower, R.end, R.pole, R.weight,
    F.enabled, F.integrator, F.target, F.sampled, F.state, F.duration, F.interval, F.timer,
  ].map((a) => Array.from(a));
}

describe('look-at and reach on different follower slots', () => {
  for (const slots of [{ look: 0, reach: 1 }, { look: FOLLOW_SLOTS - 1, reach: 0 }]) {
    it(`look-at on slot ${slots.look} and reach on slot ${slots.reach} each hit their own target (1°, 1 mm)`, () => {
      const { world, eids } = crowd(3);
      for (const eid of eids) {
        setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', spineFraction: 0.3, yawLimit: 80 * deg, pitchLimit: 80 * deg, follower: slots.look });
        setReach(world, eid, { ...ARM, follower: slots.reach });
      }
      let worstAngle = 0, worstDistance = 0, nearestApart = Infinity;
      for (let f = 0; f < 40; f++) {
        for (const eid of eids) {
          const { look, reach } = targets(world, eid, f);
          placeAt(world, eid, slots.look, look);
          placeAt(world, eid, slots.reach, reach);
        }
        frame(world, DT);
        for (const eid of eids) {
          const look = toModel(world, eid, followerPosition(world, eid, slots.look));
          const reach = toModel(world, eid, followerPosition(world, eid, slots.reach));
          const head = jointPosition(world, eid, J.head), hand = jointPosition(world, eid, J.hand);
          const forward = jointDirection(world, eid, J.head, HEAD_AXIS);
          worstAngle = Math.max(worstAngle, angle(forward, sub(look, head)));
          worstDistance = Math.max(worstDistance, len(sub(hand, reach)));
          // The two targets are apart: the head does not look at the hand's target, the hand is not at the gaze's.
          nearestApart = Math.min(nearestApart, angle(forward, sub(reach, head)) / deg, len(sub(hand, look)) * 100);
        }
      }
      console.log(`look-at slot ${slots.look} / reach slot ${slots.reach}, 3 characters × 40 frames: worst head-axis error ${(worstAngle / deg).toExponential(2)}°, worst hand error ${(worstDistance * 1000).toExponential(2)} mm`);
      expect(worstAngle).toBeLessThan(1 * deg);
      expect(worstDistance).toBeLessThan(0.001);
      expect(nearestApart).toBeGreaterThan(10); // > 10° off the other target, > 10 cm from it
    });
  }

  it('both on one slot k give exactly what both on slot 0 give, bit for bit', () => {
    const a = crowd(2), b = crowd(2);
    for (const eid of a.eids) {
      setLookAt(a.world, eid, { joint: 'head', neck: 'neck', weight: 0.8, follower: 2 });
      setReach(a.world, eid, { ...ARM, weight: 0.9, follower: 2 });
    }
    for (const eid of b.eids) {
      setLookAt(b.world, eid, { joint: 'head', neck: 'neck', weight: 0.8 });
      setReach(b.world, eid, { ...ARM, weight: 0.9 });
    }
    expect(Array.from(a.world.components.Follower.enabled)).not.toEqual(Array.from(b.world.components.Follower.enabled));
    for (let f = 0; f < 20; f++) {
      for (const eid of a.eids) {
        const { reach } = targets(a.world, eid, f);
        placeAt(a.world, eid, 2, reach);
        placeAt(b.world, eid, 0, reach);
      }
      frame(a.world, DT);
      frame(b.world, DT);
      expect(poseBits(a.world)).toEqual(poseBits(b.world));
      expect(modelBits(a.world)).toEqual(modelBits(b.world));
    }
  });

  it('setLookAt and setReach create their follower in the slot they name, and keep it', () => {
    const { world, eids } = crowd(1, false); // the rest pose: a head that does not aim stays put
    const eid = eids[0]!;
    const { LookAt, Reach, Follower } = world.components;
    const before = jointDirection(world, eid, J.head, HEAD_AXIS);
    setLookAt(world, eid, { joint: 'head', follower: 2 });
    setReach(world, eid, { ...ARM, follower: 1 });
    expect([LookAt.follower[eid], Reach.follower[eid]]).toEqual([2, 1]);
    expect(Array.from(Follower.enabled.subarray(eid * FOLLOW_SLOTS, (eid + 1) * FOLLOW_SLOTS))).toEqual([0, 1, 1, 0]);
    refused(() => getFollowPosition(world, eid)); // slot 0 stays empty
    // Slot 2: 1 m in front of the head; slot 1: on the hand. So nothing moves.
    const gaze = sub(toModel(world, eid, followerPosition(world, eid, 2)), jointPosition(world, eid, J.head));
    expect(len(gaze)).toBeCloseTo(1, 5);
    expect(angle(gaze, before)).toBeLessThan(1e-5);
    expect(len(sub(toModel(world, eid, followerPosition(world, eid, 1)), jointPosition(world, eid, J.hand)))).toBeLessThan(1e-5);
    frame(world, DT);
    expect(angle(jointDirection(world, eid, J.head, HEAD_AXIS), before)).toBeLessThan(1e-5);
    // An existing follower in the named slot is left where it is.
    setFollower(world, eid, { x: 5, y: 6, z: 7, slot: 3 });
    setReach(world, eid, { ...ARM, follower: 3 });
    expect(getFollowPosition(world, eid, 3)).toEqual({ x: 5, y: 6, z: 7 });
    // The same head / chain keeps an omitted slot; another one starts from slot 0; clearing resets it.
    setLookAt(world, eid, { joint: 'head', weight: 0.5 });
    setReach(world, eid, { ...ARM, weight: 0.5 });
    expect([LookAt.follower[eid], Reach.follower[eid]]).toEqual([2, 3]);
    setLookAt(world, eid, { joint: 'neck' });
    expect(LookAt.follower[eid]).toBe(0);
    expect(Follower.enabled[eid * FOLLOW_SLOTS]).toBe(1); // created in slot 0 for it
    clearReach(world, eid);
    clearLookAt(world, eid);
    expect([LookAt.follower[eid], Reach.follower[eid]]).toEqual([0, 0]);
  });

  it('an empty slot pauses only the look-at or reach aiming at it', () => {
    const a = crowd(1), look = crowd(1), plain = crowd(1);
    const eid = a.eids[0]!;
    setLookAt(a.world, eid, { joint: 'head', neck: 'neck', follower: 0 });
    setReach(a.world, eid, { ...ARM, follower: 1 });
    setLookAt(look.world, eid, { joint: 'head', neck: 'neck' });
    const aimAt = (): void => {
      const { look: gaze, reach } = targets(a.world, eid, 3);
      placeAt(a.world, eid, 0, gaze);
      placeAt(look.world, eid, 0, gaze);
      if (a.world.components.Follower.enabled[eid * FOLLOW_SLOTS + 1] === 1) placeAt(a.world, eid, 1, reach);
    };
    aimAt();
    frame(a.world, DT);
    frame(look.world, DT);
    frameWithoutAim(plain.world, DT);
    expect(poseBits(a.world)).not.toEqual(poseBits(look.world)); // the reach moved the arm
    removeFollower(a.world, eid, 1);
    aimAt();
    frame(a.world, DT);
    frame(look.world, DT);
    frameWithoutAim(plain.world, DT);
    expect(poseBits(a.world)).toEqual(poseBits(look.world)); // the look-at alone
    expect(poseBits(a.world)).not.toEqual(poseBits(plain.world));
    removeFollower(a.world, eid, 0);
    frame(a.world, DT);
    frameWithoutAim(plain.world, DT);
    expect(poseBits(a.world)).toEqual(poseBits(plain.world)); // neither
  });

  it('a follower slot beyond FOLLOW_SLOTS written straight into the component is skipped', () => {
    const { world, eids } = crowd(1);
    const eid = eids[0]!;
    setLookAt(world, eid, { joint: 'head' });
    setReach(world, eid, { ...ARM });
    placeAt(world, eid, 0, [1, 1.5, 1]);
    frameWithoutAim(world, DT);
    world.components.LookAt.follower[eid] = FOLLOW_SLOTS;
    world.components.Reach.follower[eid] = 255;
    const before = poseBits(world);
    expect(() => aimSystem(world, DT)).not.toThrow();
    expect(poseBits(world)).toEqual(before);
  });

  it('refuses a follower slot that is not an integer in [0, FOLLOW_SLOTS − 1], naming `follower`, and changes nothing', () => {
    const { world, eids } = crowd(1);
    const eid = eids[0]!;
    setLookAt(world, eid, { joint: 'head', follower: 1 });
    setReach(world, eid, { ...ARM, follower: 2 });
    const before = snapshot(world);
    for (const follower of [FOLLOW_SLOTS, -1, 0.5, Number.NaN, '0', null]) {
      const look = refused(() => setLookAt(world, eid, { joint: 'head', follower } as never));
      expect([look.where, look.issues.map((i) => i.path)], String(follower)).toEqual(['setLookAt', ['follower']]);
      const reach = refused(() => setReach(world, eid, { ...ARM, follower } as never));
      expect([reach.where, reach.issues.map((i) => i.path)], String(follower)).toEqual(['setReach', ['follower']]);
      expect(snapshot(world)).toEqual(before);
    }
    // Also when the slot is empty and would get a new follower: none is created.
    const fresh = crowd(1);
    const none = snapshot(fresh.world);
    refused(() => setLookAt(fresh.world, eid, { joint: 'head', follower: 7 }));
    refused(() => setReach(fresh.world, eid, { ...ARM, weight: 2, follower: 7 }));
    expect(snapshot(fresh.world)).toEqual(none);
  });

  it('a character spawned on a reused entity id starts with look-at and reach on slot 0 and every follower slot empty', () => {
    const skeleton = humanoid();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
    const first = spawnCharacter(world, skeleton);
    setLookAt(world, first, { joint: 'head', follower: 3 });
    setReach(world, first, { ...ARM, follower: 2 });
    setFollower(world, first, { x: 1, y: 1, z: 1 });
    setFollower(world, first, { x: 1, y: 1, z: 1, slot: 1 });
    step(world, DT);
    removeCharacter(world, first);
    step(world, DT);
    const again = spawnCharacter(world, skeleton);
    expect(again).toBe(first);
    const reference = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
    spawnCharacter(reference, skeleton);
    expect(snapshot(world)).toEqual(snapshot(reference));
  });
});
