/**
 * Issue 6 acceptance, measured on the model matrices after skinning, with the character moved
 * and turned by its world transform (so the follower's world position goes through the
 * world → model transform):
 * - look-at: the head's forward axis points at a target inside the limits within 1°, and
 *   stops on the limit outside them;
 * - reach: a reachable target is reached within 1 mm; an unreachable one gives a straight
 *   chain pointing at it; no NaN for targets at the shoulder, behind the body and at the pole.
 */
import { describe, expect, it } from 'vitest';
import { setLookAt, setReach } from '../../src/api/aim.js';
import { setFollower } from '../../src/api/followers.js';
import { createAnimationWorld, play, spawnCharacter, type AnimationWorld } from '../../src/index.js';
import { createRandom, syntheticClip } from '../fixtures/synthetic.js';
import {
  add, angle, deg, frame, humanoid, J, jointDirection, jointPosition, len, scale, sub, toModel, toWorld, unit, yawPitch, type V3,
} from './helpers.js';

const DT = 1 / 60;
/** Where the character stands and faces: moved and turned, so world ≠ model. */
const PLACE = { x: 3, y: 0.5, z: -2, yaw: 0.9 };

function scene(options: { clip?: boolean } = {}): { world: AnimationWorld; eid: number } {
  const skeleton = humanoid();
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton, PLACE);
  if (options.clip ?? true) play(world, eid, syntheticClip(skeleton, { seed: 5, amplitude: 0.15 }), { time: 0.3 });
  return { world, eid };
}

/** Puts the follower at rest on the world point `p` and runs one frame. */
function aimAt(world: AnimationWorld, eid: number, p: V3): void {
  setFollower(world, eid, { x: p[0], y: p[1], z: p[2] });
  frame(world, DT);
}

/** A model-space point at `distance` from `from`, at `yaw` (toward +X) and `pitch` (up) of model +Z. */
function atAngles(from: V3, yaw: number, pitch: number, distance: number): V3 {
  return add(from, scale([Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch), Math.cos(pitch) * Math.cos(yaw)], distance));
}

const clamp = (x: number, limit: number): number => Math.min(Math.max(x, -limit), limit);

describe('look-at acceptance', () => {
  const chains = [
    { label: 'head only', options: {} },
    { label: 'head, neck 0.3 and chest 0.2', options: { neck: 'neck', spine: 'chest' } },
    { label: 'head and neck 0.6 (head takes 0.4)', options: { neck: 'neck', neckFraction: 0.6 } },
  ];

  for (const chain of chains) {
    it(`${chain.label}: inside the limits the head's forward axis points at the target within 1°`, () => {
      const { world, eid } = scene();
      setLookAt(world, eid, { joint: 'head', ...chain.options });
      const axis = Array.from(world.components.LookAt.axis.subarray(eid * 3, eid * 3 + 3)) as unknown as V3;
      const random = createRandom(3);
      let worst = 0;
      for (let n = 0; n < 40; n++) {
        // Within 60° / 32° of the 70° / 40° limits, 1–6 m away from the rest head.
        const target = atAngles([0, 1.7, 0], (random() * 2 - 1) * 60 * deg, (random() * 2 - 1) * 32 * deg, 1 + 5 * random());
        aimAt(world, eid, toWorld(world, eid, target));
        const head = jointPosition(world, eid, J.head);
        const toTarget = sub(toModel(world, eid, toWorld(world, eid, target)), head);
        const [yaw, pitch] = yawPitch(toTarget);
        expect(Math.abs(yaw)).toBeLessThan(70 * deg); // still inside, seen from where the head ended up
        expect(Math.abs(pitch)).toBeLessThan(40 * deg);
        const error = angle(jointDirection(world, eid, J.head, axis), toTarget);
        worst = Math.max(worst, error);
      }
      console.log(`look-at (${chain.label}), 40 targets inside the limits: worst forward-axis error ${(worst / deg).toExponential(2)}°`);
      expect(worst).toBeLessThan(1 * deg);
    });

    it(`${chain.label}: outside the limits the head stops on them`, () => {
      const { world, eid } = scene();
      setLookAt(world, eid, { joint: 'head', yawLimit: 70 * deg, pitchLimit: 40 * deg, ...chain.options });
      const axis = Array.from(world.components.LookAt.axis.subarray(eid * 3, eid * 3 + 3)) as unknown as V3;
      // [yaw, pitch] of the target from the rest head: beyond the yaw limit, the pitch limit, both, behind.
      const cases: Array<[number, number]> = [[100, 10], [-120, -15], [20, 65], [-30, -70], [110, 60], [170, 0], [-175, 20], [0, 89]];
      for (const [yawDeg, pitchDeg] of cases) {
        const target = atAngles([0, 1.7, 0], yawDeg * deg, pitchDeg * deg, 3);
        aimAt(world, eid, toWorld(world, eid, target));
        const head = jointPosition(world, eid, J.head);
        const [targetYaw, targetPitch] = yawPitch(sub(target, head));
        const [yaw, pitch] = yawPitch(jointDirection(world, eid, J.head, axis));
        // Exactly behind, the kernel picks +yawLimit (see math/lookAt.ts); a hair to −X, −yawLimit.
        expect(Math.abs(yaw - clamp(targetYaw, 70 * deg)), `yaw for target at ${yawDeg}°, ${pitchDeg}°`).toBeLessThan(1 * deg);
        expect(Math.abs(pitch - clamp(targetPitch, 40 * deg)), `pitch for target at ${yawDeg}°, ${pitchDeg}°`).toBeLessThan(1 * deg);
      }
    });
  }

  it('the spine and neck take about their shares of the turn, and weight ½ turns the head about half way', () => {
    const { world, eid } = scene({ clip: false });
    setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', neckFraction: 0.3, spineFraction: 0.2 });
    const axis = Array.from(world.components.LookAt.axis.subarray(eid * 3, eid * 3 + 3)) as unknown as V3;
    const far = atAngles([0, 1.7, 0], 50 * deg, 0, 100); // far away: shares are exact in the limit
    const chestBefore = jointDirection(world, eid, J.chest, [0, 0, 1]);
    const neckBefore = jointDirection(world, eid, J.neck, [0, 0, 1]);
    aimAt(world, eid, toWorld(world, eid, far));
    const chestTurn = angle(chestBefore, jointDirection(world, eid, J.chest, [0, 0, 1]));
    const neckTurn = angle(neckBefore, jointDirection(world, eid, J.neck, [0, 0, 1]));
    expect(chestTurn / deg).toBeCloseTo(0.2 * 50, 0);
    expect(neckTurn / deg).toBeCloseTo(0.5 * 50, 0); // the neck's frame carries the chest's turn too
    expect(angle(jointDirection(world, eid, J.head, axis), unit(sub(far, jointPosition(world, eid, J.head))))).toBeLessThan(0.01 * deg);

    // Weight ½ (the pose is re-blended each frame, so this is half of the turn from the rest pose).
    setLookAt(world, eid, { joint: 'head', weight: 0.5 });
    frame(world, DT);
    const [yaw] = yawPitch(jointDirection(world, eid, J.head, axis));
    expect(yaw / deg).toBeCloseTo(25, 0);
  });
});

describe('reach acceptance', () => {
  const l1 = 0.3, l2 = 0.25;

  function chain(world: AnimationWorld, eid: number): { upper: V3; lower: V3; end: V3 } {
    return { upper: jointPosition(world, eid, J.upperArm), lower: jointPosition(world, eid, J.foreArm), end: jointPosition(world, eid, J.hand) };
  }

  for (const withLookAt of [false, true]) {
    it(`a reachable target is reached within 1 mm${withLookAt ? ' (with a look-at turning the chest first)' : ''}`, () => {
      const { world, eid } = scene();
      setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
      if (withLookAt) setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', spineFraction: 0.4 });
      const random = createRandom(11);
      let worst = 0;
      let checked = 0;
      for (let n = 0; n < 60; n++) {
        // 0.1–0.45 m from where the upper-arm joint was last frame, any direction. The clip (and
        // the look-at turning the chest) moves the shoulder this frame, so the distance is
        // checked afterwards: only targets inside [|l1 − l2|, l1 + l2] with a margin count.
        const d: V3 = unit([random() * 2 - 1, random() * 2 - 1, random() * 2 - 1]);
        const target = add(jointPosition(world, eid, J.upperArm), scale(d, 0.1 + 0.35 * random()));
        aimAt(world, eid, toWorld(world, eid, target));
        const c = chain(world, eid);
        const reach = len(sub(target, c.upper));
        if (reach < Math.abs(l1 - l2) * 1.05 || reach > (l1 + l2) * 0.99) continue;
        checked++;
        worst = Math.max(worst, len(sub(c.end, toModel(world, eid, toWorld(world, eid, target)))));
      }
      console.log(`reach${withLookAt ? ' + look-at' : ''}, ${checked} reachable targets: worst hand error ${(worst * 1000).toExponential(2)} mm`);
      expect(checked).toBeGreaterThan(45);
      expect(worst).toBeLessThan(0.001);
    });
  }

  it('an unreachable target gives a straight chain pointing at it', () => {
    const { world, eid } = scene();
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    const random = createRandom(12);
    for (let n = 0; n < 30; n++) {
      const d: V3 = unit([random() * 2 - 1, random() * 2 - 1, random() * 2 - 1]);
      const target = add(jointPosition(world, eid, J.upperArm), scale(d, 0.8 + 3 * random()));
      aimAt(world, eid, toWorld(world, eid, target));
      const c = chain(world, eid);
      expect(angle(sub(c.lower, c.upper), sub(c.end, c.lower)), 'bend').toBeLessThan(0.1 * deg);
      expect(angle(sub(c.end, c.upper), sub(target, c.upper)), 'aim').toBeLessThan(0.1 * deg);
    }
  });

  it('targets at the shoulder, behind the body and at the pole give finite poses (no NaN)', () => {
    const { world, eid } = scene({ clip: false });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    const rest = chain(world, eid);
    const pole = Array.from(world.components.Reach.pole.subarray(eid * 3, eid * 3 + 3)) as unknown as V3;
    const targets: Array<[string, V3]> = [
      ['the upper-arm joint', rest.upper],
      ['the shoulder joint', jointPosition(world, eid, J.shoulder)],
      ['behind the body, within reach', [-0.2, 1.4, -0.45]],
      ['behind the body, out of reach', [0.1, 1.3, -2]],
      ['behind the body, through the chest', [0.3, 1.5, -0.1]],
      ['the pole', pole],
      ['the elbow at rest', rest.lower],
      ['the hand at rest', rest.end],
    ];
    for (const [label, target] of targets) {
      aimAt(world, eid, toWorld(world, eid, target));
      const pose = world.components.LocalPose.data.subarray(eid * world.maxJoints * 10, (eid + 1) * world.maxJoints * 10);
      const model = world.components.ModelPose.data.subarray(eid * world.maxJoints * 12, (eid + 1) * world.maxJoints * 12);
      expect(pose.every(Number.isFinite), label).toBe(true);
      expect(model.every(Number.isFinite), label).toBe(true);
      const c = chain(world, eid);
      expect(len(sub(c.lower, c.upper)), label).toBeCloseTo(l1, 5);
      expect(len(sub(c.end, c.lower)), label).toBeCloseTo(l2, 5);
      const distance = len(sub(target, c.upper));
      if (distance > l1 + l2) {
        expect(angle(sub(c.end, c.upper), sub(target, c.upper)), label).toBeLessThan(0.1 * deg);
      } else if (distance > Math.abs(l1 - l2) + 1e-3) {
        expect(len(sub(c.end, target)), label).toBeLessThan(0.001);
      }
    }
  });

  it('the default pole bends the elbow down and back', () => {
    const { world, eid } = scene({ clip: false });
    setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    // The rest elbow plus (l1 + l2)·(0, −√½, −√½).
    const restElbow = jointPosition(world, eid, J.foreArm); // the rest pose: nothing has played
    const pole = Array.from(world.components.Reach.pole.subarray(eid * 3, eid * 3 + 3));
    expect(pole[0]).toBeCloseTo(restElbow[0], 6);
    expect(pole[1]).toBeCloseTo(restElbow[1] - 0.55 * Math.SQRT1_2, 6);
    expect(pole[2]).toBeCloseTo(restElbow[2] - 0.55 * Math.SQRT1_2, 6);
    // Reaching in front of the chest: the elbow ends below and behind the shoulder–hand line.
    const target: V3 = [-0.05, 1.4, 0.35];
    aimAt(world, eid, toWorld(world, eid, target));
    const c = chain(world, eid);
    const u = unit(sub(target, c.upper));
    const elbow = sub(c.lower, c.upper);
    const side = sub(elbow, scale(u, elbow[0] * u[0] + elbow[1] * u[1] + elbow[2] * u[2]));
    expect(side[1]).toBeLessThan(0);
    expect(len(sub(c.end, target))).toBeLessThan(0.001);
  });
});
