/**
 * The root-motion seed's normalizations, option by option (seeds/root-motion-normalization.txt):
 * axis restriction of a sideways clip (移動軸の制限: "a left/right animation keeps only its X
 * travel") and the hip-height ratio turned off (`hipScaling: false`), against appendix 2.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  createSkeleton,
  getRootTransform,
  play,
  setBlendSpace,
  setTargetSpeed,
  spawnCharacter,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { runFor } from './locomotion.js';

/** Hips at height h with two legs whose feet reach the ground; the hip joint named explicitly. */
function twoLegs(h: number): Skeleton {
  const leg = (side: number) => [side * 0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, -h, 0, 0, 0, 0, 1, 1, 1, 1];
  return createSkeleton({
    names: ['hips', 'leftLeg', 'leftFoot', 'rightLeg', 'rightFoot'],
    parents: [-1, 0, 1, 0, 3],
    rest: [0, h, 0, 0, 0, 0, 1, 1, 1, 1, ...leg(1), ...leg(-1)],
    hipJoint: 'hips',
  });
}

/**
 * A looping cycle of `duration` s at 30 fps for a skeleton of hip height h: the hips travel
 * (along, drift) = (ax, az) metres per cycle in model (X, Z) with a within-cycle surge (so the
 * travel is not linear in time) and a bob. Net travel per cycle is exactly (ax, az).
 */
function cycle(skeleton: Skeleton, h: number, ax: number, az: number, duration: number, name: string): Clip {
  const frames: number[] = [];
  const count = Math.round(duration * 30);
  for (let f = 0; f <= count; f++) {
    const u = f / count;
    const s = u + 0.03 * Math.sin(4 * Math.PI * u);
    frames.push(ax * s, h + 0.02 * Math.cos(4 * Math.PI * u), az * s, 0, 0, 0, 1, 1, 1, 1);
    for (const side of [1, -1]) frames.push(side * 0.1, 0, 0, Math.sin(0.1 * side), 0, 0, Math.cos(0.1 * side), 1, 1, 1, 0, -h, 0, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: count / duration, frames, loop: true, name });
}

describe("axis restriction: 'lateral' keeps only a sideways clip's X travel", () => {
  // A strafe to the character's left (+X) of 1.5 m per 1 s cycle that also drifts 0.4 m
  // forward (+Z): the seed sets every axis but X to 0.
  const skeleton = twoLegs(1);
  const strafe = cycle(skeleton, 1, 1.5, 0.4, 1, 'strafe');

  it('two cycles move 3.0 m along X and not at all along Z (unrestricted: 0.8 m of Z)', () => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const lateral = spawnCharacter(world, skeleton, { rootMotion: true });
    const free = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, lateral, strafe, { rootAxis: 'lateral' });
    play(world, free, strafe);
    runFor(world, 2);
    const a = getRootTransform(world, lateral), b = getRootTransform(world, free);
    expect(a.x).toBeCloseTo(3.0, 5);
    expect(a.z).toBe(0);
    expect(b.x).toBeCloseTo(3.0, 5);
    expect(b.z).toBeCloseTo(0.8, 5);
  });

  it('turned by the character: yaw π/2 sends model +X to world −Z, still nothing along model Z', () => {
    // World delta = (cos ψ·dx + sin ψ·dz, −sin ψ·dx + cos ψ·dz) with dz = 0: (≈0, −3.0).
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 5 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true, yaw: Math.PI / 2 });
    play(world, eid, strafe, { rootAxis: 'lateral' });
    runFor(world, 2);
    const root = getRootTransform(world, eid);
    expect(root.x).toBeCloseTo(0, 12);
    expect(root.z).toBeCloseTo(-3.0, 5);
  });

  it('setTargetSpeed measures the restricted travel: 1.2 m/s over 1.5 m per 1 s is rate 0.8, not 1.2 / |(1.5, 0.4)|', () => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const lateral = spawnCharacter(world, skeleton, { rootMotion: true });
    const free = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, lateral, strafe, { rootAxis: 'lateral' });
    play(world, free, strafe);
    setTargetSpeed(world, lateral, 1.2);
    setTargetSpeed(world, free, 1.2);
    const { Layers } = world.components;
    expect(Layers.speed[lateral * DEFAULT_MAX_LAYERS]).toBeCloseTo(0.8, 6);
    expect(Layers.speed[free * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.2 / Math.hypot(1.5, 0.4), 6); // 0.7730
    runFor(world, 5); // 4 whole cycles at rate 0.8: 6 m along X
    const root = getRootTransform(world, lateral);
    expect(root.x / 5).toBeCloseTo(1.2, 5);
    expect(root.z).toBe(0);
  });

  it("a blend space restricts a sample on its x axis to sideways travel (restrictAxes: false keeps the drift)", () => {
    const forward = cycle(skeleton, 1, 0.1, 1.4, 1, 'forward'); // on the y axis: forward only
    const space = createBlendSpace({ type: 'freeform', samples: [{ clip: forward, x: 0, y: 1 }, { clip: strafe, x: 1, y: 0 }, { clip: cycle(skeleton, 1, -1.5, 0.4, 1, 'right'), x: -1, y: 0 }] });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const restricted = spawnCharacter(world, skeleton, { rootMotion: true });
    const unrestricted = spawnCharacter(world, skeleton, { rootMotion: true });
    setBlendSpace(world, restricted, space, 1, 0); // the strafe alone
    setBlendSpace(world, unrestricted, space, 1, 0, { restrictAxes: false });
    runFor(world, 2);
    // Restricted: 1.5 m of X per cycle, none of Z. The stride scale of a lone clip pointed
    // along its own axis is 1, so 3.0 m.
    const a = getRootTransform(world, restricted), b = getRootTransform(world, unrestricted);
    expect(a.z).toBe(0);
    expect(a.x).toBeCloseTo(3.0, 4);
    expect(Math.abs(b.z)).toBeGreaterThan(0.1);
  });
});

describe('hipScaling: false keeps the clip\'s own stride (seed appendix 2 without the hip ratio)', () => {
  // Appendix 2: model hips 0.7 m, clip hips 1.25 m, 2.0 m per 1.2 s cycle, target 1.6667 m/s.
  // With the ratio: (0.7 / 1.25)·2.0 = 1.12 m per cycle, 0.9333 m/s, rate 1.7858.
  // Without: 2.0 m per cycle, 2.0 / 1.2 = 1.6667 m/s at rate 1, so rate 1.6667 / 1.66667 = 1.00002.
  const clipSkeleton = twoLegs(1.25);
  const walk = cycle(clipSkeleton, 1.25, 0, 2.0, 1.2, 'walk');
  const model = twoLegs(0.7);

  it('play: rate 1.00002 without the ratio, 1.7858 with it', () => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const unscaled = spawnCharacter(world, model, { rootMotion: true });
    const scaled = spawnCharacter(world, model, { rootMotion: true });
    play(world, unscaled, walk, { hipScaling: false });
    play(world, scaled, walk);
    // (The ratio is carried by the clip the layers play — baked onto the model's skeleton — or by
    // Layers.rootScale; the rates below are what either gives.)
    const { Layers } = world.components;
    setTargetSpeed(world, unscaled, 1.6667);
    setTargetSpeed(world, scaled, 1.6667);
    expect(Layers.speed[unscaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.6667 / (2.0 / 1.2), 6);
    expect(Layers.speed[scaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.6667 / ((0.7 / 1.25) * 2.0 / 1.2), 5);
    expect(Layers.speed[scaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.7858, 3);
  });

  it('two cycles at rate 1 travel 4.0 m without the ratio, 2.24 m with it', () => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const unscaled = spawnCharacter(world, model, { rootMotion: true });
    const scaled = spawnCharacter(world, model, { rootMotion: true });
    play(world, unscaled, walk, { hipScaling: false });
    play(world, scaled, walk);
    runFor(world, 2.4);
    expect(getRootTransform(world, unscaled).z).toBeCloseTo(4.0, 5);
    expect(getRootTransform(world, scaled).z).toBeCloseTo(2.24, 5);
  });

  it('setBlendSpace: the same through a 1D space', () => {
    const run = cycle(clipSkeleton, 1.25, 0, 3.0, 0.9, 'run');
    const line = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 0 }, { clip: run, x: 1 }] });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 5 });
    const unscaled = spawnCharacter(world, model, { rootMotion: true });
    const scaled = spawnCharacter(world, model, { rootMotion: true });
    setBlendSpace(world, unscaled, line, 0, undefined, { hipScaling: false });
    setBlendSpace(world, scaled, line, 0);
    setTargetSpeed(world, unscaled, 1.6667);
    setTargetSpeed(world, scaled, 1.6667);
    const { Layers } = world.components;
    expect(Layers.syncRate[unscaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.00002, 5);
    expect(Layers.syncRate[scaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.7858, 3);
    // Halfway, stride scales make both clips cover the same ground at the one rate: the blend
    // moves at the weighted harmonic mean of their own speeds, 1 / (0.5 / (2.0 / 1.2) +
    // 0.5 / (3.0 / 0.9)) = 2.2222 m/s at rate 1, so rate 1.6667 / 2.2222 = 0.75002 without
    // the ratio and 1.6667 / (0.56 · 2.2222) = 1.3393 with it.
    setBlendSpace(world, unscaled, line, 0.5, undefined, { hipScaling: false });
    setBlendSpace(world, scaled, line, 0.5);
    const harmonic = 1 / (0.5 / (2.0 / 1.2) + 0.5 / (3.0 / 0.9));
    expect(Layers.syncRate[unscaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.6667 / harmonic, 5);
    expect(Layers.syncRate[scaled * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.6667 / ((0.7 / 1.25) * harmonic), 5);
  });
});
