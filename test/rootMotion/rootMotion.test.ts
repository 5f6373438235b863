import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createClip,
  createSkeleton,
  getLocalPose,
  getRootTransform,
  parseBvh,
  play,
  setTargetSpeed,
  spawnCharacter,
  step,
  type Skeleton,
} from '../../src/index.js';
import { createRandom } from '../fixtures/synthetic.js';
import { assetPath } from '../support/assets.js';

/** hips (root) → leg: hips at `hipHeight` above the ground at rest. */
function biped(hipHeight: number): Skeleton {
  return createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [0, hipHeight, 0, 0, 0, 0, 1, 1, 1, 1, 0, -hipHeight / 2, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/**
 * A looping walk: the hips travel `distance` along +Z over `duration` seconds (with a
 * within-cycle surge and a bob, so the travel is not a straight line in time), at `rate` fps.
 */
function walk(skeleton: Skeleton, hipHeight: number, distance: number, duration: number, rate = 30) {
  const frames: number[] = [];
  const count = Math.round(duration * rate);
  for (let f = 0; f <= count; f++) {
    const u = f / count;
    const z = distance * (u + 0.03 * Math.sin(2 * Math.PI * u * 2));
    frames.push(0.02 * Math.sin(2 * Math.PI * u), hipHeight + 0.03 * Math.cos(4 * Math.PI * u), z, 0, 0, 0, 1, 1, 1, 1);
    frames.push(0, -hipHeight / 2, 0, Math.sin(0.3 * Math.sin(2 * Math.PI * u)), 0, 0, Math.cos(0.3 * Math.sin(2 * Math.PI * u)), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: rate, frames, loop: true, name: 'walk' });
}

/** Steps `world` to exactly `seconds` later, in steps of at most `maxDt` (or random ones). */
function runFor(world: Parameters<typeof step>[0], seconds: number, maxDt = 1 / 60, random?: () => number): void {
  let t = 0;
  while (seconds - t > 1e-12) {
    const dt = Math.min(random ? 1 / 240 + random() * (1 / 20 - 1 / 240) : maxDt, seconds - t);
    step(world, dt);
    t += dt;
  }
}

describe('root motion', () => {
  it("reproduces the seed's appendix 2: 0.7 m hips, 1.25 m clip hips, 2.0 m per 1.2 s, 1.6667 m/s", () => {
    const character = biped(0.7);
    const clip = walk(biped(1.25), 1.25, 2.0, 1.2);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, character, { rootMotion: true });
    play(world, eid, clip);
    setTargetSpeed(world, eid, 1.6667);
    // The rate: (0.7 / 1.25) · 2.0 m = 1.12 m per 1.2 s = 0.9333 m/s at rate 1; 1.6667 / 0.9333.
    expect(world.components.Layers.speed[eid * 4]).toBeCloseTo(1.7858, 3);
    expect(Number(world.components.Layers.speed[eid * 4]!.toPrecision(5))).toBe(1.7858);
    // Over 8 whole cycles (the clip surges within a cycle) it moves at 1.6667 m/s along +Z.
    const seconds = (8 * clip.duration) / world.components.Layers.speed[eid * 4]!;
    runFor(world, seconds);
    const root = getRootTransform(world, eid);
    expect(Number((root.z / seconds).toPrecision(5))).toBe(1.6667);
    expect(Math.abs(root.x)).toBeLessThan(0.05); // the hip sway, not travel
  });

  it('over 10 loop cycles travels 10 × one cycle, at dt = 1/60 and at random dt', () => {
    for (const random of [null, createRandom(3)]) {
      const skeleton = biped(1);
      const clip = walk(skeleton, 1, 1.5, 1.0);
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      play(world, eid, clip, { speed: 1.3 });
      runFor(world, 10 / 1.3, 1 / 60, random ?? undefined); // ten cycles of 1 s at rate 1.3
      const root = getRootTransform(world, eid);
      expect(Math.abs(root.z - 15) / 15).toBeLessThan(1e-4);
    }
  });

  it('keeps the pose in place horizontally and keeps the bob; yaw turns the travel', () => {
    const skeleton = biped(1);
    const clip = walk(skeleton, 1, 1.0, 1.0);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, x: 5, yaw: Math.PI / 2 });
    play(world, eid, clip);
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    const pose = getLocalPose(world, eid);
    expect(pose[0]).toBe(0);
    expect(pose[2]).toBe(0);
    expect(pose[1]).not.toBe(1); // the bob stays
    const root = getRootTransform(world, eid);
    // Facing +X (yaw 90°): the clip's +Z travel moves the character along +X.
    expect(root.x - 5).toBeGreaterThan(0.4);
    expect(Math.abs(root.z)).toBeLessThan(0.05);
  });

  it('axis restriction keeps only forward travel of a forward clip', () => {
    const skeleton = biped(1);
    const frames: number[] = [];
    for (let f = 0; f <= 30; f++) frames.push(0.5 * f / 30, 1, f / 30, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
    const diagonal = createClip({ skeleton, frameRate: 30, frames, loop: true });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, diagonal, { rootAxis: 'forward' });
    for (let f = 0; f < 60; f++) step(world, 1 / 60);
    const root = getRootTransform(world, eid);
    expect(root.x).toBe(0);
    expect(root.z).toBeCloseTo(1, 5);
  });

  it('a clip without net travel cannot drive a speed; bad speeds are refused; the world is unchanged', () => {
    const skeleton = biped(1);
    const inPlace = walk(skeleton, 1, 0, 1.0);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, inPlace);
    const speeds = Array.from(world.components.Layers.speed);
    expect(() => setTargetSpeed(world, eid, 1)).toThrow(/"walk" has no net travel per cycle/);
    for (const v of [Number.NaN, -1, Infinity]) expect(() => setTargetSpeed(world, eid, v)).toThrow(AnimationError);
    expect(Array.from(world.components.Layers.speed)).toEqual(speeds);
    expect(() => spawnCharacter(world, skeleton, { x: Number.NaN })).toThrow(/spawnCharacter: x is NaN/);
  });

  it('drives a character with the CMU walk at a commanded speed within ±2%', () => {
    const text = readFileSync(assetPath('cmu_131_01_start_walk_stop.bvh'), 'utf8');
    const { skeleton, clip } = parseBvh(text, { scale: 0.056444 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 32 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, clip, { loop: false });
    setTargetSpeed(world, eid, 0.5);
    const rate = world.components.Layers.speed[eid * 4]!;
    const seconds = clip.duration / rate; // the whole clip, start to stop
    runFor(world, seconds);
    const root = getRootTransform(world, eid);
    const speed = Math.hypot(root.x, root.z) / seconds;
    expect(Math.abs(speed - 0.5) / 0.5).toBeLessThan(0.02);
  });
});
