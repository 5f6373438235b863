/** setLookAt / setReach / clearLookAt / clearReach: defaults, kept settings, the follower they create, validation (AnimationError naming the field, world unchanged). */
import { describe, expect, it } from 'vitest';
import { clearLookAt, clearReach, setLookAt, setReach } from '../../src/api/aim.js';
import { FOLLOW_SLOTS } from '../../src/components/Follower.js';
import { LOOK_DEFAULT_PITCH_LIMIT, LOOK_DEFAULT_YAW_LIMIT } from '../../src/components/LookAt.js';
import { getFollowPosition, setFollower } from '../../src/api/followers.js';
import { createAnimationWorld, spawnCharacter, type AnimationWorld } from '../../src/index.js';
import { refused } from '../fixtures/errors.js';
import { twoJointSkeleton } from '../systems/helpers.js';
import { angle, deg, frame, humanoid, J, jointDirection, jointPosition, len, sub, toModel, type V3 } from './helpers.js';

function world1(place = { x: 2, y: 0, z: -1, yaw: 0.7 }): { world: AnimationWorld; eid: number } {
  const skeleton = humanoid();
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton, place);
  return { world, eid };
}

/** Every array of LookAt, Reach and Follower (scratch aside), copied. */
function snapshot(world: AnimationWorld): number[][] {
  const L = world.components.LookAt, R = world.components.Reach, F = world.components.Follower;
  return [
    L.enabled, L.head, L.neck, L.spine, L.neckFraction, L.spineFraction, L.axis, L.yawLimit, L.pitchLimit, L.weight,
    R.enabled, R.upper, R.lower, R.end, R.pole, R.weight,
    F.enabled, F.target, F.sampled, F.state, F.timer,
  ].map((a) => Array.from(a));
}

const triple = (a: Float64Array, eid: number): number[] => Array.from(a.subarray(eid * 3, eid * 3 + 3));

describe('setLookAt', () => {
  it('defaults: axis from the rest pose, 70° / 40° limits, weight 1, head only', () => {
    const { world, eid } = world1();
    setLookAt(world, eid, { joint: 'head' });
    const L = world.components.LookAt;
    expect([L.enabled[eid], L.head[eid], L.neck[eid], L.spine[eid], L.neckFraction[eid], L.spineFraction[eid], L.weight[eid]]).toEqual([1, J.head, -1, -1, 0, 0, 1]);
    expect(L.yawLimit[eid]).toBe(LOOK_DEFAULT_YAW_LIMIT);
    expect(L.pitchLimit[eid]).toBe(LOOK_DEFAULT_PITCH_LIMIT);
    expect(LOOK_DEFAULT_YAW_LIMIT).toBeCloseTo(70 * deg, 15);
    expect(LOOK_DEFAULT_PITCH_LIMIT).toBeCloseTo(40 * deg, 15);
    // The head's rest model rotation is 90° about +Y, so the axis that points along model +Z at rest is −X.
    const axis = triple(L.axis, eid);
    expect(axis[0]).toBeCloseTo(-1, 6);
    expect(axis[1]).toBeCloseTo(0, 6);
    expect(axis[2]).toBeCloseTo(0, 6);
    // Joints by index; the neck and spine take their default shares.
    setLookAt(world, eid, { joint: J.head, neck: J.neck, spine: J.chest });
    expect([L.neck[eid], L.spine[eid], L.neckFraction[eid], L.spineFraction[eid]]).toEqual([J.neck, J.chest, 0.3, 0.2]);
  });

  it('with no follower, creates one 1 m in front of the head, so the head does not move', () => {
    const { world, eid } = world1();
    const axis: V3 = [-1, 0, 0];
    const before = jointDirection(world, eid, J.head, axis);
    setLookAt(world, eid, { joint: 'head' });
    const p = getFollowPosition(world, eid);
    const target = toModel(world, eid, [p.x, p.y, p.z]);
    const head = jointPosition(world, eid, J.head);
    expect(len(sub(target, head))).toBeCloseTo(1, 5);
    expect(angle(sub(target, head), [0, 0, 1])).toBeLessThan(1e-5);
    frame(world, 1 / 60);
    expect(angle(jointDirection(world, eid, J.head, axis), before)).toBeLessThan(1e-5);
  });

  it('an existing follower is left where it is', () => {
    const { world, eid } = world1();
    setFollower(world, eid, { x: 5, y: 6, z: 7 });
    setLookAt(world, eid, { joint: 'head' });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    expect(getFollowPosition(world, eid)).toEqual({ x: 5, y: 6, z: 7 });
  });

  it('the same head keeps omitted settings; another head starts from the defaults; null removes a joint', () => {
    const { world, eid } = world1();
    const L = world.components.LookAt;
    setLookAt(world, eid, { joint: 'head', neck: 'neck', neckFraction: 0.4, spine: 'spine', spineFraction: 0.1, yawLimit: 1, pitchLimit: 0.5, axis: [0, 0, 2] });
    setLookAt(world, eid, { joint: 'head', weight: 0.25 });
    expect([L.neck[eid], L.neckFraction[eid], L.spine[eid], L.spineFraction[eid], L.yawLimit[eid], L.pitchLimit[eid], L.weight[eid]]).toEqual([J.neck, 0.4, J.spine, 0.1, 1, 0.5, 0.25]);
    expect(triple(L.axis, eid)).toEqual([0, 0, 1]);
    setLookAt(world, eid, { joint: 'head', spine: null });
    expect([L.neck[eid], L.spine[eid], L.spineFraction[eid]]).toEqual([J.neck, -1, 0]);
    setLookAt(world, eid, { joint: 'neck' });
    expect([L.head[eid], L.neck[eid], L.weight[eid], L.yawLimit[eid]]).toEqual([J.neck, -1, 1, LOOK_DEFAULT_YAW_LIMIT]);
  });

  it('refuses bad options, naming each field, and changes nothing', () => {
    const { world, eid } = world1();
    setLookAt(world, eid, { joint: 'head', neck: 'neck', weight: 0.5 });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    const before = snapshot(world);
    const cases: Array<[unknown, string]> = [
      [{ joint: 'nose' }, 'joint'],
      [{ joint: 13 }, 'joint'],
      [{ joint: -1 }, 'joint'],
      [{ joint: 1.5 }, 'joint'],
      [{}, 'joint'],
      [{ joint: 'head', neck: 'hand' }, 'neck'],
      [{ joint: 'head', neck: 'head' }, 'neck'],
      [{ joint: 'neck', neck: 'head' }, 'neck'],
      [{ joint: 'head', spine: 'upperArm' }, 'spine'],
      [{ joint: 'head', neck: 'chest', spine: 'neck' }, 'spine'],
      [{ joint: 'head', weight: -0.1 }, 'weight'],
      [{ joint: 'head', weight: 1.5 }, 'weight'],
      [{ joint: 'head', weight: Number.NaN }, 'weight'],
      [{ joint: 'head', weight: '1' }, 'weight'],
      [{ joint: 'head', yawLimit: -1 }, 'yawLimit'],
      [{ joint: 'head', yawLimit: 4 }, 'yawLimit'],
      [{ joint: 'head', yawLimit: Infinity }, 'yawLimit'],
      [{ joint: 'head', pitchLimit: 2 }, 'pitchLimit'],
      [{ joint: 'head', pitchLimit: Number.NaN }, 'pitchLimit'],
      [{ joint: 'head', neck: 'neck', neckFraction: 1.2 }, 'neckFraction'],
      [{ joint: 'head', neck: 'neck', spine: 'chest', neckFraction: 0.6, spineFraction: 0.5 }, 'neckFraction'],
      [{ joint: 'head', neck: null, neckFraction: 0.3 }, 'neckFraction'],
      [{ joint: 'head', spineFraction: 0.3 }, 'spineFraction'],
      [{ joint: 'head', axis: [0, 0, 0] }, 'axis'],
      [{ joint: 'head', axis: [0, 1] }, 'axis'],
      [{ joint: 'head', axis: { x: 0, y: Number.NaN, z: 1 } }, 'axis'],
    ];
    for (const [options, field] of cases) {
      const error = refused(() => setLookAt(world, eid, options as never));
      expect(error.where).toBe('setLookAt');
      expect(error.issues.map((i) => i.path), JSON.stringify(options)).toContain(field);
      expect(snapshot(world)).toEqual(before);
    }
    expect(refused(() => setLookAt(world, 99, { joint: 'head' })).issues[0]!.path).toBe('eid');
    expect(refused(() => setLookAt(world, eid, null as never)).issues[0]!.path).toBe('options');
    expect(snapshot(world)).toEqual(before);
  });
});

describe('setReach', () => {
  it('defaults: the pole behind and below the elbow at rest, weight 1; a new follower starts on the hand', () => {
    const { world, eid } = world1();
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: J.hand });
    const R = world.components.Reach;
    expect([R.enabled[eid], R.upper[eid], R.lower[eid], R.end[eid], R.weight[eid]]).toEqual([1, J.upperArm, J.foreArm, J.hand, 1]);
    const elbow = jointPosition(world, eid, J.foreArm);
    const pole = triple(R.pole, eid);
    const d = 0.55 * Math.SQRT1_2;
    [elbow[0], elbow[1] - d, elbow[2] - d].forEach((v, k) => expect(pole[k]).toBeCloseTo(v, 6));
    const p = getFollowPosition(world, eid);
    const hand = jointPosition(world, eid, J.hand);
    toModel(world, eid, [p.x, p.y, p.z]).forEach((v, k) => expect(v).toBeCloseTo(hand[k]!, 5));
    // The hand is already there: the pose hardly moves. (The rest arm is straight, so a target
    // at full extension that float32 rounding puts a hair nearer bends the elbow by ~√(2δ/l):
    // 1e-7 m gives a few 1e-4 rad. The straight chain is not rolled about its axis: aimSystem's
    // straightenNoise.)
    const before = world.components.LocalPose.data.slice();
    const positions = world.components.ModelPose.data.slice();
    frame(world, 1 / 60);
    const after = world.components.LocalPose.data;
    for (let i = 0; i < after.length; i++) expect(Math.abs(after[i]! - before[i]!), `pose element ${i}`).toBeLessThan(1e-3);
    const model = world.components.ModelPose.data;
    for (let i = 0; i < model.length; i++) expect(Math.abs(model[i]! - positions[i]!), `model element ${i}`).toBeLessThan(i % 12 >= 9 ? 1e-4 : 1e-3);
  });

  it('takes the pole as [x, y, z] or { x, y, z }; the same chain keeps omitted settings', () => {
    const { world, eid } = world1();
    const R = world.components.Reach;
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', pole: [1, 2, 3], weight: 0.5 });
    expect(triple(R.pole, eid)).toEqual([1, 2, 3]);
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', pole: { x: 4, y: 5, z: 6 } });
    expect([...triple(R.pole, eid), R.weight[eid]]).toEqual([4, 5, 6, 0.5]);
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', weight: 1 });
    expect(triple(R.pole, eid)).toEqual([4, 5, 6]);
    // Another chain: defaults (a joint in between is allowed: shoulder → foreArm skips upperArm).
    setReach(world, eid, { upper: 'shoulder', lower: 'foreArm', end: 'hand' });
    expect(triple(R.pole, eid)).not.toEqual([4, 5, 6]);
    expect(R.weight[eid]).toBe(1);
  });

  it('refuses bad options, naming each field, and changes nothing', () => {
    const { world, eid } = world1();
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', weight: 0.5 });
    const before = snapshot(world);
    const chain = { upper: 'upperArm', lower: 'foreArm', end: 'hand' };
    const cases: Array<[unknown, string]> = [
      [{ ...chain, upper: 'elbow' }, 'upper'],
      [{ ...chain, lower: 99 }, 'lower'],
      [{ ...chain, end: undefined }, 'end'],
      [{ upper: 'foreArm', lower: 'upperArm', end: 'hand' }, 'lower'],
      [{ upper: 'upperArm', lower: 'upperArm', end: 'hand' }, 'lower'],
      [{ upper: 'upperArm', lower: 'hand', end: 'foreArm' }, 'end'],
      [{ upper: 'upperArm', lower: 'foreArm', end: 'foreArm' }, 'end'],
      [{ upper: 'upperArm', lower: 'foreArm', end: 'head' }, 'end'],
      [{ upper: 'leftUpperArm', lower: 'foreArm', end: 'hand' }, 'lower'],
      [{ ...chain, pole: [0, 1] }, 'pole'],
      [{ ...chain, pole: [0, Number.NaN, 1] }, 'pole'],
      [{ ...chain, pole: { x: 0, y: 1 } }, 'pole'],
      [{ ...chain, pole: 3 }, 'pole'],
      [{ ...chain, weight: -1 }, 'weight'],
      [{ ...chain, weight: 2 }, 'weight'],
      [{ ...chain, weight: Infinity }, 'weight'],
    ];
    for (const [options, field] of cases) {
      const error = refused(() => setReach(world, eid, options as never));
      expect(error.where).toBe('setReach');
      expect(error.issues.map((i) => i.path), JSON.stringify(options)).toContain(field);
      expect(snapshot(world)).toEqual(before);
    }
    expect(refused(() => setReach(world, 0, chain)).issues[0]!.path).toBe('eid');
    expect(snapshot(world)).toEqual(before);
  });
});

describe('clearLookAt / clearReach', () => {
  it('reset the component rows and keep the follower', () => {
    const { world, eid } = world1();
    setLookAt(world, eid, { joint: 'head', neck: 'neck', weight: 0.5 });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    const fresh = createAnimationWorld({ maxEntities: 3, maxJoints: 13 });
    clearLookAt(world, eid);
    clearReach(world, eid);
    const row = (w: AnimationWorld, e: number): number[] => {
      const L = w.components.LookAt, R = w.components.Reach;
      return [L.enabled[e]!, L.head[e]!, L.neck[e]!, L.spine[e]!, L.neckFraction[e]!, L.spineFraction[e]!, ...triple(L.axis, e), L.yawLimit[e]!, L.pitchLimit[e]!, L.weight[e]!,
        R.enabled[e]!, R.upper[e]!, R.lower[e]!, R.end[e]!, ...triple(R.pole, e), R.weight[e]!];
    };
    expect(row(world, eid)).toEqual(row(fresh, eid));
    expect(world.components.Follower.enabled[eid * FOLLOW_SLOTS]).toBe(1); // slot 0
    expect(refused(() => clearLookAt(world, 2)).where).toBe('clearLookAt');
    expect(refused(() => clearReach(world, 2)).where).toBe('clearReach');
  });

  it('work on any skeleton size (a two-joint character cannot reach: no chain)', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, twoJointSkeleton());
    expect(refused(() => setReach(world, eid, { upper: 0, lower: 1, end: 1 })).issues.map((i) => i.path)).toEqual(['end']);
    setLookAt(world, eid, { joint: 'arm' });
    expect(world.components.LookAt.enabled[eid]).toBe(1);
  });
});
