/**
 * `step` runs look-at and reach in DESIGN §4's place: after root motion and the followers,
 * before skinning. A crowd stepped with `step` (chunks of 128) must match the same crowd run
 * through the systems one by one (sample → blend → rootMotion → follow → aim → skin), and a
 * character spawned on a reused entity id must not inherit the previous one's look-at or reach.
 */
import { describe, expect, it } from 'vitest';
import { setLookAt, setReach } from '../../src/api/aim.js';
import { setFollower, setFollowTarget } from '../../src/api/followers.js';
import { createAnimationWorld, play, removeCharacter, spawnCharacter, step, type AnimationWorld } from '../../src/index.js';
import { createRandom, syntheticClip } from '../fixtures/synthetic.js';
import { deg, frame, frameWithoutAim, humanoid, J, jointPosition } from './helpers.js';

const COUNT = 300; // three chunks of step, the last partial
const DT = 1 / 60;

function crowd(): { world: AnimationWorld; eids: number[] } {
  const skeleton = humanoid();
  const clip = syntheticClip(skeleton, { seed: 5, amplitude: 0.15 });
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: skeleton.jointCount });
  const random = createRandom(41);
  const eids: number[] = [];
  for (let n = 0; n < COUNT; n++) {
    const eid = spawnCharacter(world, skeleton, { x: (n % 20) * 2, z: Math.floor(n / 20) * 2, yaw: random() * 6 });
    play(world, eid, clip, { time: random() });
    const x = (n % 20) * 2, z = Math.floor(n / 20) * 2;
    setFollower(world, eid, { x: x + 1, y: 1.6, z: z + 1 });
    // Every other character looks; every third reaches; some do both, some neither.
    if (n % 2 === 0) setLookAt(world, eid, { joint: 'head', neck: 'neck', yawLimit: 80 * deg });
    if (n % 3 === 0) setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    eids.push(eid);
  }
  return { world, eids };
}

describe('step applies look-at and reach', () => {
  it('equals the systems run one by one, chunk boundaries included', () => {
    const a = crowd(), b = crowd();
    const random = createRandom(9);
    for (let f = 0; f < 90; f++) {
      if (f % 10 === 0) {
        const p = [random() * 40, 1 + random(), random() * 30] as const;
        for (const { world, eids } of [a, b]) for (const eid of eids) setFollowTarget(world, eid, p[0], p[1], p[2]);
      }
      step(a.world, DT);
      frame(b.world, DT);
    }
    const mismatch = a.world.components.ModelPose.data.findIndex((v, i) => v !== b.world.components.ModelPose.data[i]);
    expect(mismatch).toBe(-1);
  });

  it('moves the aimed joints away from the animated pose, and only for aiming characters', () => {
    const a = crowd(), b = crowd();
    for (let f = 0; f < 30; f++) {
      step(a.world, DT);
      frameWithoutAim(b.world, DT);
    }
    let lookMoved = 0, reachMoved = 0, idleMoved = 0;
    for (let n = 0; n < COUNT; n++) {
      const eid = a.eids[n]!;
      const head = Math.hypot(...jointPosition(a.world, eid, J.head).map((v, i) => v - jointPosition(b.world, eid, J.head)[i]!));
      const hand = Math.hypot(...jointPosition(a.world, eid, J.hand).map((v, i) => v - jointPosition(b.world, eid, J.hand)[i]!));
      if (n % 2 === 0 && head > 1e-4) lookMoved++; // the neck's share of the turn moves the head joint
      if (n % 3 === 0 && hand > 1e-4) reachMoved++;
      if (n % 2 !== 0 && n % 3 !== 0 && (head > 0 || hand > 0)) idleMoved++;
    }
    expect(lookMoved).toBe(Math.ceil(COUNT / 2));
    expect(reachMoved).toBe(Math.ceil(COUNT / 3));
    expect(idleMoved).toBe(0);
  });

  it('a character spawned on a reused entity id does not inherit look-at or reach', () => {
    const skeleton = humanoid();
    const clip = syntheticClip(skeleton, { seed: 5, amplitude: 0.15 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
    const first = spawnCharacter(world, skeleton);
    setFollower(world, first, { x: 1, y: 1.6, z: 1 });
    setLookAt(world, first, { joint: 'head' });
    setReach(world, first, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    removeCharacter(world, first);
    step(world, DT);
    const again = spawnCharacter(world, skeleton);
    expect(again).toBe(first);
    expect(world.components.LookAt.enabled[again]).toBe(0);
    expect(world.components.Reach.enabled[again]).toBe(0);
    play(world, again, clip);
    setFollower(world, again, { x: 1, y: 1.6, z: 1 });
    const plain = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
    const reference = spawnCharacter(plain, skeleton);
    play(plain, reference, clip);
    setFollower(plain, reference, { x: 1, y: 1.6, z: 1 });
    for (let f = 0; f < 10; f++) {
      step(world, DT);
      step(plain, DT);
    }
    expect(Array.from(jointPosition(world, again, J.head))).toEqual(Array.from(jointPosition(plain, reference, J.head)));
    expect(Array.from(jointPosition(world, again, J.hand))).toEqual(Array.from(jointPosition(plain, reference, J.hand)));
  });
});
