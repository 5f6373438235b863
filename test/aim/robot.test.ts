/**
 * The acceptance on a real rig: RobotExpressive.glb (assets/; CC0, Y-up, ≈4.6 m tall,
 * a root joint scaled by 100), playing its Idle clip, moved and turned in the world. Head
 * look-at (Head, Neck, Torso) with the default axis from the rest pose, and a right-hand
 * reach (UpperArm.R → LowerArm.R → Palm2.R), measured on the skinned model matrices.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setLookAt, setReach } from '../../src/api/aim.js';
import { setFollower } from '../../src/api/followers.js';
import { loadGltf } from '../../src/import/gltf.js';
import { createAnimationWorld, findJoint, play, spawnCharacter, type AnimationWorld, type Clip, type Skeleton } from '../../src/index.js';
import { createRandom } from '../fixtures/synthetic.js';
import { add, angle, deg, frame, jointDirection, jointPosition, len, scale, sub, toModel, toWorld, unit, yawPitch, type V3 } from './helpers.js';
import { ASSETS_URL } from '../support/assets.js';

const ASSETS = ASSETS_URL;
const DT = 1 / 60;

let skeleton: Skeleton;
let idle: Clip;

beforeAll(async () => {
  const { skeletons, clips } = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS))));
  skeleton = skeletons[0]!;
  idle = clips.find((c) => c.name === 'Idle')!;
});

function robot(): { world: AnimationWorld; eid: number } {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton, { x: -4, y: 0.2, z: 7, yaw: -2.2 });
  play(world, eid, idle, { time: 1.1 });
  frame(world, DT);
  return { world, eid };
}

function aimAt(world: AnimationWorld, eid: number, modelPoint: V3): void {
  const p = toWorld(world, eid, modelPoint);
  setFollower(world, eid, { x: p[0], y: p[1], z: p[2] });
  frame(world, DT);
}

describe('RobotExpressive', () => {
  it('look-at: the head points at targets inside the limits within 1°, stops on the limits outside', () => {
    const { world, eid } = robot();
    const head = findJoint(skeleton, 'Head');
    setLookAt(world, eid, { joint: 'Head', neck: 'Neck', spine: 'Torso' });
    const axis = Array.from(world.components.LookAt.axis.subarray(eid * 3, eid * 3 + 3)) as unknown as V3;
    const headRest = jointPosition(world, eid, head);
    const random = createRandom(5);
    let worst = 0;
    for (let n = 0; n < 30; n++) {
      const yaw = (random() * 2 - 1) * 60 * deg, pitch = (random() * 2 - 1) * 30 * deg;
      const target = add(headRest, scale([Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch), Math.cos(pitch) * Math.cos(yaw)], 3 + 10 * random()));
      aimAt(world, eid, target);
      const toTarget = sub(toModel(world, eid, toWorld(world, eid, target)), jointPosition(world, eid, head));
      worst = Math.max(worst, angle(jointDirection(world, eid, head, axis), toTarget));
    }
    console.log(`RobotExpressive look-at, 30 targets inside the limits: worst ${(worst / deg).toExponential(2)}°`);
    expect(worst).toBeLessThan(1 * deg);
    for (const [yawDeg, pitchDeg] of [[120, 0], [-100, 20], [10, -70]] as const) {
      const target = add(headRest, scale([Math.cos(pitchDeg * deg) * Math.sin(yawDeg * deg), Math.sin(pitchDeg * deg), Math.cos(pitchDeg * deg) * Math.cos(yawDeg * deg)], 5));
      aimAt(world, eid, target);
      const [targetYaw, targetPitch] = yawPitch(sub(target, jointPosition(world, eid, head)));
      const [y, p] = yawPitch(jointDirection(world, eid, head, axis));
      expect(Math.abs(y - Math.min(Math.max(targetYaw, -70 * deg), 70 * deg))).toBeLessThan(1 * deg);
      expect(Math.abs(p - Math.min(Math.max(targetPitch, -40 * deg), 40 * deg))).toBeLessThan(1 * deg);
    }
  });

  it('reach: the right palm reaches targets within 1 mm; out of reach the arm is straight and points at them', () => {
    const { world, eid } = robot();
    const [upper, lower, end] = ['UpperArm.R', 'LowerArm.R', 'Palm2.R'].map((n) => findJoint(skeleton, n)) as [number, number, number];
    setReach(world, eid, { upper: 'UpperArm.R', lower: 'LowerArm.R', end: 'Palm2.R' });
    const l1 = len(sub(jointPosition(world, eid, lower), jointPosition(world, eid, upper)));
    const l2 = len(sub(jointPosition(world, eid, end), jointPosition(world, eid, lower)));
    const random = createRandom(6);
    let worst = 0, checked = 0;
    for (let n = 0; n < 40; n++) {
      const d = unit([random() * 2 - 1, random() * 2 - 1, random() * 2 - 1]);
      const target = add(jointPosition(world, eid, upper), scale(d, (Math.abs(l1 - l2) + 0.1) + (l1 + l2 - Math.abs(l1 - l2) - 0.2) * random()));
      aimAt(world, eid, target);
      const reach = len(sub(target, jointPosition(world, eid, upper)));
      if (reach < Math.abs(l1 - l2) * 1.02 || reach > (l1 + l2) * 0.99) continue;
      checked++;
      worst = Math.max(worst, len(sub(jointPosition(world, eid, end), target)));
    }
    console.log(`RobotExpressive reach (l1 ${l1.toFixed(3)}, l2 ${l2.toFixed(3)} m), ${checked} reachable targets: worst ${(worst * 1000).toExponential(2)} mm`);
    expect(checked).toBeGreaterThan(30);
    expect(worst).toBeLessThan(0.001);
    for (const target of [[-3, 2, 2], [2, 1, -3], [0, 6, 0]] as V3[]) {
      aimAt(world, eid, target);
      const a = jointPosition(world, eid, upper), b = jointPosition(world, eid, lower), c = jointPosition(world, eid, end);
      expect(angle(sub(b, a), sub(c, b))).toBeLessThan(0.1 * deg);
      expect(angle(sub(c, a), sub(target, a))).toBeLessThan(0.1 * deg);
      expect(world.components.LocalPose.data.every(Number.isFinite)).toBe(true);
    }
  });
});
