import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createClip,
  createSkeleton,
  getLocalPose,
  getRootTransform,
  play,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { getRootTrack, DEFAULT_MAX_LAYERS, sampleSystem } from '../../src/kernels.js';
import { extractRootYawDelta } from '../../src/systems/sampleSystem.js';
import { axisAngle, createRandom } from '../fixtures/synthetic.js';
import { qmul, type Quat } from '../fixtures/quaternions.js';



/** Rotation about +Y by `angle` (right-handed: +Z turns toward +X). */
const yawQuat = (angle: number): Quat => axisAngle(0, 1, 0, angle);

/** (x, z) turned by `angle` about +Y. */
function turnXZ(x: number, z: number, angle: number): [number, number] {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [c * x + s * z, -x * s + z * c];
}

/** The twist angle about +Y of a rotation (sign of q chosen so w ≥ 0): 2·atan2(y, w). */
function twistY(q: ArrayLike<number>, o: number): number {
  const sign = q[o + 3]! < 0 ? -1 : 1;
  return 2 * Math.atan2(sign * q[o + 1]!, sign * q[o + 3]!);
}

/** v rotated by the unit quaternion q (q·v·q⁻¹). */
function rotate(q: Quat, v: readonly number[]): number[] {
  const r = qmul(qmul(q, [v[0]!, v[1]!, v[2]!, 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [r[0], r[1], r[2]];
}

/** The angle of the rotation between a and b, radians (sign and norm of each ignored). */
function angleBetween(a: Quat, b: Quat): number {
  const r = qmul([-a[0], -a[1], -a[2], a[3]], b); // a⁻¹·b, up to |a|
  return 2 * Math.atan2(Math.hypot(r[0], r[1], r[2]), Math.abs(r[3]));
}

/** hips (root) → leg; the hips rest at (restX, height, restZ). */
function biped(height = 1, restX = 0, restZ = 0): Skeleton {
  return createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [restX, height, restZ, 0, 0, 0, 1, 1, 1, 1, 0, -height / 2, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/** Authored hips motion: model position and rotation at clip time t. */
interface Motion {
  position(t: number): [number, number, number];
  rotation(t: number): Quat;
}

/** A clip of `skeleton` (a `biped`) whose hips follow `motion` over [0, duration] at `rate` fps. */
function clipOf(skeleton: Skeleton, motion: Motion, duration: number, rate: number, loop = true): Clip {
  const frames: number[] = [];
  const count = Math.round(duration * rate);
  for (let f = 0; f <= count; f++) {
    const t = f / rate;
    frames.push(...motion.position(t), ...motion.rotation(t), 1, 1, 1);
    frames.push(0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: rate, frames, loop, name: 'clip' });
}

/**
 * Walking a circle: the hips turn at ω about +Y while moving forward at v in their own heading
 * ψ = ωt, so (from `start`) x = R(1 − cos ωt), z = R·sin ωt with R = v/ω; they bob and lean
 * (a roll about their forward axis, which is swing, not yaw). Valid for any t (the loop continues the circle).
 */
function circle(omega: number, v: number, duration: number, start: readonly [number, number, number] = [0, 1, 0]): Motion {
  const radius = v / omega;
  return {
    position: (t) => [start[0] + radius * (1 - Math.cos(omega * t)), start[1] + 0.03 * Math.cos((4 * Math.PI * t) / duration), start[2] + radius * Math.sin(omega * t)],
    rotation: (t) => qmul(yawQuat(omega * t), axisAngle(0, 0, 1, 0.1 * Math.sin((2 * Math.PI * t) / duration))),
  };
}

const OMEGA = (2 * Math.PI) / 5; // Ψ = 72° per 1 s cycle
const V = 1.5;
const RADIUS = V / OMEGA;

/** Steps `world` by `dt` (or random dt in [1/240, 1/20]) for `seconds`, calling `check` with the elapsed time after each step. */
function run(world: AnimationWorld, seconds: number, random: (() => number) | null, check: (elapsed: number) => void = () => {}): void {
  let t = 0;
  while (seconds - t > 1e-12) {
    const dt = Math.min(random ? 1 / 240 + random() * (1 / 20 - 1 / 240) : 1 / 60, seconds - t);
    step(world, dt);
    t += dt;
    check(t);
  }
}

/** World position of the hips: the character's transform applied to the model-space joint. */
function worldHips(world: AnimationWorld, eid: number): [number, number, number] {
  const root = getRootTransform(world, eid);
  const pose = getLocalPose(world, eid);
  const [x, z] = turnXZ(pose[0]!, pose[2]!, root.yaw);
  return [root.x + x, root.y + pose[1]!, root.z + z];
}

describe('root yaw extraction', () => {
  it('walks the world circle of radius v/ω, turning Ψ per cycle, at dt = 1/60 and at random dt', () => {
    const spawn = { x: 2, y: 0.5, z: -3, yaw: 0.7 };
    const N = 7;
    for (const random of [null, createRandom(11)]) {
      const skeleton = biped();
      const motion = circle(OMEGA, V, 1);
      const clip = clipOf(skeleton, motion, 1, 120);
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true, ...spawn });
      play(world, eid, clip);
      // The world circle: its centre is R to the right of the spawn heading (model (R, 0) placed at spawn).
      const [cx, cz] = turnXZ(RADIUS, 0, spawn.yaw);
      let worst = 0, worstTwist = 0, worstRotation = 0;
      run(world, N, random, (t) => {
        // The hips where the authored clip puts them, placed at the spawn transform (linear
        // interpolation between 120 fps frames departs from the circle by R(ωΔt)²/8 ≈ 2e-5 m).
        const p = motion.position(t);
        const [ex, ez] = turnXZ(p[0], p[2], spawn.yaw);
        const [hx, hy, hz] = worldHips(world, eid);
        worst = Math.max(worst, Math.hypot(hx - spawn.x - ex, hy - spawn.y - p[1], hz - spawn.z - ez));
        const pose = getLocalPose(world, eid);
        worstTwist = Math.max(worstTwist, Math.abs(twistY(pose, 3)));
        // World rotation of the hips: R_y(yaw)·q_pose = R_y(spawn yaw)·q_authored(t), up to sign.
        const actual = qmul(yawQuat(getRootTransform(world, eid).yaw), [pose[3]!, pose[4]!, pose[5]!, pose[6]!]);
        const expected = qmul(yawQuat(spawn.yaw), motion.rotation(t));
        worstRotation = Math.max(worstRotation, angleBetween(actual, expected));
      });
      expect(worst).toBeLessThan(1e-4);
      expect(worstTwist).toBeLessThan(1e-5);
      // Between frames the clip's own interpolation departs from the analytic lean by up to
      // α''·Δt²/8 = 0.1·(2π)²/120²/8 ≈ 3.4e-5 rad.
      expect(worstRotation).toBeLessThan(1e-4);
      const root = getRootTransform(world, eid);
      expect(Math.abs(root.yaw - spawn.yaw - N * OMEGA) / (N * OMEGA)).toBeLessThan(1e-4);
      // After whole cycles the hips (at rest horizontally in the model) are on the circle.
      const [hx, , hz] = worldHips(world, eid);
      expect(Math.abs(Math.hypot(hx - spawn.x - cx, hz - spawn.z - cz) - RADIUS) / RADIUS).toBeLessThan(1e-4);
      expect(root.y).toBe(spawn.y); // the bob stays in the pose
    }
  });

  it('turns about the hips for a rig whose hips rest off the model origin', () => {
    // The clip starts at the rest position r; root motion takes the hips' horizontal rest
    // offset (r.x, r.z) out of the pose, so the hips are drawn at the root transform and the
    // authored hips placed at the spawn are spawn + R_y(yaw)·(r + circle(t) − (r.x, 0, r.z)):
    // a turn about any point but the hips would swing them off that circle.
    const r: [number, number, number] = [0.4, 1, -0.3];
    const skeleton = biped(1, r[0], r[2]);
    const motion = circle(OMEGA, V, 1, r);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true, yaw: -1.2 });
    play(world, eid, clipOf(skeleton, motion, 1, 120));
    let worst = 0;
    run(world, 2.5, createRandom(5), (t) => {
      const p = motion.position(t);
      const [ex, ez] = turnXZ(p[0] - r[0], p[2] - r[2], -1.2);
      const [hx, , hz] = worldHips(world, eid);
      worst = Math.max(worst, Math.hypot(hx - ex, hz - ez));
    });
    expect(worst).toBeLessThan(1e-4);
  });

  it('measures yaw relative to the rest, through a rotated parent (a Z-up rig with a turned hip joint)', () => {
    // root rotated −90° about X (Z-up export) → hips with a rest rotation of their own. The
    // clip turns the hips' model rotation by R_y(ωt) from rest and moves them on the circle:
    // local q = P⁻¹·R_y(ωt)·P·q_rest, local t = P⁻¹·m(t) (the root stays at the origin).
    const P = axisAngle(1, 0, 0, -Math.PI / 2);
    const Pinv: Quat = [-P[0], -P[1], -P[2], P[3]];
    const hipRest = axisAngle(0, 0, 1, 0.4);
    const restModel = qmul(P, hipRest);
    const toLocal = (m: readonly number[]): number[] => rotate(Pinv, m);
    const skeleton = createSkeleton({
      names: ['root', 'hips'],
      parents: [-1, 0],
      rest: [0, 0, 0, ...P, 1, 1, 1, ...toLocal([0, 1, 0]), ...hipRest, 1, 1, 1],
    });
    const motion = circle(OMEGA, V, 1);
    const frames: number[] = [];
    for (let f = 0; f <= 120; f++) {
      const t = f / 120;
      frames.push(0, 0, 0, ...P, 1, 1, 1);
      frames.push(...toLocal(motion.position(t)), ...qmul(Pinv, qmul(yawQuat(OMEGA * t), restModel)), 1, 1, 1);
    }
    const clip = createClip({ skeleton, frameRate: 120, frames, loop: true });
    expect(getRootTrack(clip).cycleYaw).toBeCloseTo(OMEGA, 6);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true, x: -1, yaw: 0.3 });
    play(world, eid, clip);
    let worst = 0, worstTwist = 0;
    run(world, 3, createRandom(21), (t) => {
      const pose = getLocalPose(world, eid);
      const m = rotate(P, [pose[10]!, pose[11]!, pose[12]!]); // hips model position = P·t
      const root = getRootTransform(world, eid);
      const [hx, hz] = turnXZ(m[0]!, m[2]!, root.yaw);
      const p = motion.position(t);
      const [ex, ez] = turnXZ(p[0], p[2], 0.3);
      worst = Math.max(worst, Math.hypot(root.x + hx - (-1 + ex), root.z + hz - ez));
      const rel = qmul(qmul(P, [pose[13]!, pose[14]!, pose[15]!, pose[16]!]), [-restModel[0], -restModel[1], -restModel[2], restModel[3]]);
      worstTwist = Math.max(worstTwist, Math.abs(twistY(rel, 0)));
    });
    expect(worst).toBeLessThan(1e-4);
    expect(worstTwist).toBeLessThan(1e-5);
    expect(Math.abs(getRootTransform(world, eid).yaw - 0.3 - 3 * OMEGA) / (3 * OMEGA)).toBeLessThan(1e-4);
  });

  it('a turn-in-place clip turns the character by Ψ per cycle and leaves its position unchanged', () => {
    const skeleton = biped();
    const psi = 2.5; // per 0.8 s cycle
    const motion: Motion = { position: () => [0, 1, 0], rotation: (t) => yawQuat((psi * t) / 0.8) };
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true, x: 1, z: 4 });
    play(world, eid, clipOf(skeleton, motion, 0.8, 30));
    run(world, 5 * 0.8, createRandom(8));
    const root = getRootTransform(world, eid);
    expect(Math.abs(root.yaw - 5 * psi) / (5 * psi)).toBeLessThan(1e-4);
    expect(root.x).toBe(1);
    expect(root.z).toBe(4);
  });

  it('a clip that starts turned walks the way the character faces', () => {
    // Authored facing +X (ψ(0) = 90°) and walking along +X. The pose loses its whole twist, so
    // at yaw 0 the character faces +Z — and walks along +Z, not sideways.
    const skeleton = biped();
    const motion: Motion = { position: (t) => [V * t, 1, 0], rotation: () => yawQuat(Math.PI / 2) };
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true });
    play(world, eid, clipOf(skeleton, motion, 1, 30));
    run(world, 3, null);
    const root = getRootTransform(world, eid);
    expect(root.z).toBeCloseTo(3 * V, 4);
    expect(Math.abs(root.x)).toBeLessThan(1e-5);
    expect(Math.abs(root.yaw)).toBeLessThan(1e-6);
    expect(Math.abs(twistY(getLocalPose(world, eid), 3))).toBeLessThan(1e-5);
  });

  it('a 50/50 blend of a turn in place and a straight walk walks the circle of radius v/ω through its start', () => {
    // The blend moves at ½v in its heading while turning at ½ω: the circle of radius
    // (½v)/(½ω) = v/ω, tangent to +Z at the start, centre (v/ω, 0). rootMotionSystem blends
    // the layers' motions as twists (step 1b of its header), so every frame's chord lies on
    // that circle whatever dt is. (Before, the blended chords, a step of ½v·dt then a turn of
    // ½ω·dt, walked a polygon on a circle centred δ/2 round from it: a lag that depended on dt.)
    const skeleton = biped();
    const turn: Motion = { position: () => [0, 1, 0], rotation: (t) => yawQuat(OMEGA * t) };
    const walk: Motion = { position: (t) => [0, 1, V * t], rotation: () => [0, 0, 0, 1] };
    for (const random of [null, createRandom(3)]) {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true });
      play(world, eid, clipOf(skeleton, turn, 1, 30), { layer: 0, weight: 0.5 });
      play(world, eid, clipOf(skeleton, walk, 1, 30), { layer: 1, weight: 0.5 });
      let worst = 0;
      run(world, 10, random, (t) => {
        const root = getRootTransform(world, eid);
        // Where on the circle: heading ½ω·t, so (R(1 − cos ½ωt), R sin ½ωt).
        const angle = 0.5 * OMEGA * t;
        worst = Math.max(worst, Math.hypot(root.x - RADIUS * (1 - Math.cos(angle)), root.z - RADIUS * Math.sin(angle)));
        expect(Math.abs(root.yaw - angle)).toBeLessThan(1e-6);
      });
      expect(worst).toBeLessThan(1e-5);
    }
  });

  it('extractRootYawDelta across wraps: an arc of the circle seen from its start, forward and backward', () => {
    // On a circle every arc of angle θ looks the same from its start's heading frame:
    // Δψ = θ, d = (R(1 − cos θ), R sin θ). Times are exact frames of a 128 fps, 1 s clip.
    const skeleton = biped();
    const clip = clipOf(skeleton, circle(OMEGA, V, 1), 1, 128);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const { Layers } = world.components;
    const li = 1 * DEFAULT_MAX_LAYERS;
    Layers.flags[li] = 1; // LAYER_LOOP
    const track = getRootTrack(clip);
    for (const [from, advance] of [[0.25, 0.5], [0.875, 0.25], [0.875, 2.25], [0.125, -2.25], [0.5, -0.375]] as const) {
      Layers.time[li] = from;
      Layers.speed[li] = advance;
      extractRootYawDelta(Layers, li, clip, track, 1);
      const theta = OMEGA * advance;
      expect(Layers.rootYaw[li]).toBeCloseTo(theta, 5);
      expect(Layers.rootDelta[li * 3]).toBeCloseTo(RADIUS * (1 - Math.cos(theta)), 5);
      expect(Layers.rootDelta[li * 3 + 2]).toBeCloseTo(RADIUS * Math.sin(theta), 5);
      // The bob: y(b) − y(a), whole cycles of it cancel.
      const bob = (t: number): number => 0.03 * Math.cos(4 * Math.PI * t);
      expect(Layers.rootDelta[li * 3 + 1]).toBeCloseTo(bob(from + advance) - bob(from), 5);
    }
  });

  it('sampleSystem writes rootYaw only for characters with yaw extraction', () => {
    const skeleton = biped();
    const clip = clipOf(skeleton, circle(OMEGA, V, 1), 1, 30);
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const turning = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true });
    const plain = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, turning, clip);
    play(world, plain, clip);
    world.components.Layers.rootYaw.fill(Number.NaN);
    sampleSystem(world, 0.1);
    expect(world.components.Layers.rootYaw[turning * DEFAULT_MAX_LAYERS]).toBeCloseTo(0.1 * OMEGA, 5);
    expect(world.components.Layers.rootYaw[plain * DEFAULT_MAX_LAYERS]).toBeNaN();
  });

  it('dt = 0 changes nothing; a character without rootYaw keeps the turn in its pose', () => {
    const skeleton = biped();
    const clip = clipOf(skeleton, circle(OMEGA, V, 1), 1, 30);
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const turning = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true });
    const plain = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, turning, clip);
    play(world, plain, clip);
    run(world, 0.5, null);
    const before = { ...getRootTransform(world, turning) };
    step(world, 0);
    expect(getRootTransform(world, turning)).toEqual(before);
    expect(getRootTransform(world, plain).yaw).toBe(0);
    expect(twistY(getLocalPose(world, plain), 3)).toBeCloseTo(0.5 * OMEGA, 4);
  });

  it('rootYaw without rootMotion is refused, naming the option; nothing is spawned', () => {
    const skeleton = biped();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    expect(() => spawnCharacter(world, skeleton, { rootYaw: true })).toThrow(AnimationError);
    expect(() => spawnCharacter(world, skeleton, { rootYaw: true, rootMotion: false })).toThrow(/spawnCharacter: rootYaw needs rootMotion: true/);
    expect(world.characters.dense.length).toBe(0);
  });
});
