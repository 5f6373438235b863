/**
 * aimSystem conventions: weight 0 and characters without look-at/reach keep the animated pose
 * bit for bit, other entities' blocks are untouched (NaN sentinels), non-finite targets and
 * bad joint indices leave the pose as it is, look-at and reach together are both exact, and
 * the world → model transform follows the character's position and heading.
 */
import { describe, expect, it } from 'vitest';
import { clearLookAt, clearReach, setLookAt, setReach } from '../../src/api/aim.js';
import { removeFollower, setFollower } from '../../src/api/followers.js';
import { createAnimationWorld, play, setLod, spawnCharacter, type AnimationWorld, type Clip } from '../../src/index.js';
import { lodSystem } from '../../src/kernels.js';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../../src/components/Follower.js';
import { aimSystem } from '../../src/systems/aimSystem.js';
import { syntheticClip } from '../fixtures/synthetic.js';
import { angle, deg, followerPosition, frame, frameWithoutAim, humanoid, J, jointDirection, jointPosition, len, sub, toModel, toWorld, type V3 } from './helpers.js';

const DT = 1 / 60;

/** `count` characters of the humanoid, each playing the same clip from the same time, at different places. */
function crowd(count: number, spare = 2): { world: AnimationWorld; eids: number[]; clip: Clip } {
  const skeleton = humanoid();
  const world = createAnimationWorld({ maxEntities: count + spare, maxJoints: skeleton.jointCount + 1 });
  const clip = syntheticClip(skeleton, { seed: 7, amplitude: 0.2 });
  const eids = Array.from({ length: count }, (_, n) => {
    const eid = spawnCharacter(world, skeleton, { x: n * 2 - 1, y: 0.1 * n, z: 1 - n, yaw: -0.6 + 0.5 * n });
    play(world, eid, clip, { time: 0.25 });
    return eid;
  });
  return { world, eids, clip };
}

const poseBlock = (world: AnimationWorld, eid: number): Float32Array =>
  world.components.LocalPose.data.slice(eid * world.maxJoints * 10, (eid + 1) * world.maxJoints * 10);
const modelBlock = (world: AnimationWorld, eid: number): Float32Array =>
  world.components.ModelPose.data.slice(eid * world.maxJoints * 12, (eid + 1) * world.maxJoints * 12);
const bits = (a: Float32Array): number[] => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe('aimSystem', () => {
  it('weight 0 leaves the animated pose bit for bit; so do characters without look-at or reach', () => {
    const { world, eids } = crowd(3);
    const [zero, none, active] = eids as [number, number, number];
    for (const eid of [zero, active]) {
      setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', weight: eid === zero ? 0 : 1 });
      setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', weight: eid === zero ? 0 : 1 });
    }
    for (const eid of eids) {
      const p = toWorld(world, eid, [-0.3, 1.4, 0.4]);
      setFollower(world, eid, { x: p[0], y: p[1], z: p[2] });
    }
    // A twin world without any aim, same characters and clips.
    const twin = crowd(3);
    for (let f = 0; f < 20; f++) {
      frame(world, DT);
      frameWithoutAim(twin.world, DT);
    }
    for (const eid of [zero, none]) {
      expect(bits(poseBlock(world, eid))).toEqual(bits(poseBlock(twin.world, eid)));
      expect(bits(modelBlock(world, eid))).toEqual(bits(modelBlock(twin.world, eid)));
    }
    // The active one did change, and only the rotations of its chain joints.
    const changed = poseBlock(world, active), animated = poseBlock(twin.world, active);
    const changedJoints = new Set<number>();
    for (let i = 0; i < changed.length; i++) {
      if (changed[i] === animated[i]) continue;
      expect(i % 10 >= 3 && i % 10 <= 6, `element ${i % 10} of joint ${Math.floor(i / 10)}`).toBe(true);
      changedJoints.add(Math.floor(i / 10));
    }
    expect([...changedJoints].sort((a, b) => a - b)).toEqual([J.chest, J.neck, J.head, J.upperArm, J.foreArm]);
  });

  it('touches no other entity’s block (NaN sentinels) and ignores entities that are not characters', () => {
    const { world, eids } = crowd(2, 3);
    const [a, b] = eids as [number, number];
    setLookAt(world, a, { joint: 'head', neck: 'neck' });
    setReach(world, a, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    setFollower(world, a, { x: 0, y: 1.5, z: 3 });
    frameWithoutAim(world, DT);
    // b: a character without aim; the spare rows: no entity. Fill them with NaN sentinels.
    const local = world.components.LocalPose.data;
    const block = world.maxJoints * 10;
    local.fill(Number.NaN, b * block, (b + 1) * block);
    local.fill(Number.NaN, (world.maxEntities - 1) * block);
    // A look-at on an id that is not a character must be ignored too.
    world.components.LookAt.enabled[world.maxEntities] = 1;
    world.components.LookAt.head[world.maxEntities] = J.head;
    world.components.Follower.enabled[world.maxEntities * FOLLOW_SLOTS] = 1;
    const before = local.slice();
    aimSystem(world, DT);
    for (let i = 0; i < local.length; i++) {
      if (i >= a * block && i < (a + 1) * block) continue;
      expect(Object.is(local[i], before[i]), `element ${i}`).toBe(true);
    }
    expect(bits(local.slice(a * block, (a + 1) * block))).not.toEqual(bits(before.slice(a * block, (a + 1) * block)));
  });

  it('a non-finite follower position or a NaN pose leaves the pose as it is', () => {
    const { world, eids } = crowd(1);
    const eid = eids[0]!;
    setLookAt(world, eid, { joint: 'head' });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    frameWithoutAim(world, DT);
    const state = world.components.Follower.state;
    for (const bad of [Number.NaN, Infinity, -Infinity]) {
      state[eid * FOLLOW_SLOTS * FOLLOW_STATE_STRIDE + 1] = bad; // slot 0
      const before = poseBlock(world, eid);
      aimSystem(world, DT);
      expect(bits(poseBlock(world, eid))).toEqual(bits(before));
    }
    // A NaN rotation upstream (the chest): nothing is written from it, and nothing throws.
    setFollower(world, eid, { x: 0, y: 1.5, z: 3 });
    const local = world.components.LocalPose.data;
    local[(eid * world.maxJoints + J.chest) * 10 + 3] = Number.NaN;
    const before = poseBlock(world, eid);
    expect(() => aimSystem(world, DT)).not.toThrow();
    const after = poseBlock(world, eid);
    for (let i = 0; i < after.length; i++) expect(Object.is(after[i], before[i]), `element ${i}`).toBe(true);
  });

  it('skips characters update-rate LOD is not updating this frame (not in the update list), so a weight below 1 does not compound', () => {
    const { world, eids } = crowd(2);
    for (const eid of eids) {
      setLookAt(world, eid, { joint: 'head', weight: 0.5 });
      setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', weight: 0.5 });
      setFollower(world, eid, { x: 0, y: 1.5, z: 3 });
    }
    frame(world, DT);
    const [held, updated] = eids as [number, number];
    // Every 2nd frame from phase 0: its tick is 1 on this frame, so lodSystem leaves it out of
    // the update list (issue 16: the list replaced the Lod.update flag the systems tested).
    setLod(world, held, { levels: 1, updateEvery: [2], phase: 0 });
    lodSystem(world, DT);
    expect(world.components.Lod.update[held]).toBe(0);
    const before = poseBlock(world, held), other = poseBlock(world, updated);
    aimSystem(world, DT);
    expect(bits(poseBlock(world, held))).toEqual(bits(before));
    expect(bits(poseBlock(world, updated))).not.toEqual(bits(other)); // re-aimed on its own output: compounds
  });

  it('joint indices beyond the skeleton (written straight into the component) are skipped', () => {
    const { world, eids } = crowd(1);
    const eid = eids[0]!;
    setLookAt(world, eid, { joint: 'head' });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    frameWithoutAim(world, DT);
    world.components.LookAt.head[eid] = 40;
    world.components.Reach.end[eid] = 40;
    const before = poseBlock(world, eid);
    expect(() => aimSystem(world, DT)).not.toThrow();
    expect(bits(poseBlock(world, eid))).toEqual(bits(before));
  });

  it('look-at and reach together: both exact, on characters moved and turned differently', () => {
    const { world, eids } = crowd(3);
    for (const eid of eids) {
      setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', spineFraction: 0.3, pitchLimit: 80 * deg, yawLimit: 80 * deg });
      setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    }
    const axis: V3 = [-1, 0, 0]; // the head's rest rotation is 90° about +Y (helpers.humanoid)
    for (let f = 0; f < 30; f++) {
      for (const eid of eids) {
        // In front of the right shoulder, 0.35 m from it, so it stays within reach after the chest turns.
        const shoulder = jointPosition(world, eid, J.upperArm);
        const target: V3 = [shoulder[0] + 0.1 * Math.sin(f / 5), shoulder[1] - 0.1, shoulder[2] + 0.3];
        const p = toWorld(world, eid, target);
        setFollower(world, eid, { x: p[0], y: p[1], z: p[2] });
      }
      frame(world, DT);
      for (const eid of eids) {
        const target = toModel(world, eid, followerPosition(world, eid));
        expect(len(sub(jointPosition(world, eid, J.hand), target))).toBeLessThan(0.001);
        expect(angle(jointDirection(world, eid, J.head, axis), sub(target, jointPosition(world, eid, J.head)))).toBeLessThan(1 * deg);
      }
    }
  });

  it('clearing the look-at and reach, or removing the follower, gives back the animated pose', () => {
    const { world, eids } = crowd(1);
    const eid = eids[0]!;
    const twin = crowd(1);
    setLookAt(world, eid, { joint: 'head' });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    setFollower(world, eid, { x: 1, y: 1, z: 1 });
    frame(world, DT);
    frameWithoutAim(twin.world, DT);
    expect(bits(poseBlock(world, eid))).not.toEqual(bits(poseBlock(twin.world, eid)));
    removeFollower(world, eid);
    frame(world, DT);
    frameWithoutAim(twin.world, DT);
    expect(bits(poseBlock(world, eid))).toEqual(bits(poseBlock(twin.world, eid)));
    setFollower(world, eid, { x: 1, y: 1, z: 1 });
    clearLookAt(world, eid);
    clearReach(world, eid);
    frame(world, DT);
    frameWithoutAim(twin.world, DT);
    expect(bits(poseBlock(world, eid))).toEqual(bits(poseBlock(twin.world, eid)));
  });
});
