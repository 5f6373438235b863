import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, getRootTransform, play, setTargetSpeed, spawnCharacter } from '../../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { biped, directionalWalk, runFor } from './locomotion.js';

describe('setTargetSpeed', () => {
  it("'max' measures a cycle by the farthest the root gets: out 3 m and back to 1 m over 1.5 s", () => {
    const skeleton = biped(1);
    const frames: number[] = [];
    for (let f = 0; f <= 30; f++) {
      const u = f / 30;
      const z = u <= 0.5 ? 6 * u : 3 - 4 * (u - 0.5); // 0 → 3 m at mid-cycle → 1 m
      frames.push(0, 1, z, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
    }
    const clip = createClip({ skeleton, frameRate: 20, frames, loop: true, name: 'lunge' });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const net = spawnCharacter(world, skeleton, { rootMotion: true });
    const max = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, net, clip);
    play(world, max, clip);
    setTargetSpeed(world, net, 2);
    setTargetSpeed(world, max, 2, { cycle: 'max' });
    // net: 1 m per 1.5 s → rate 2 / (1 / 1.5) = 3; max: 3 m per 1.5 s → rate 1.
    expect(world.components.Layers.speed[net * DEFAULT_MAX_LAYERS]).toBeCloseTo(3, 5);
    expect(world.components.Layers.speed[max * DEFAULT_MAX_LAYERS]).toBeCloseTo(1, 5);
    expect(world.components.RootMotion.cycleMeasure[max]).toBe(1);
  });

  it('measures a blend of clips in different directions by its blended velocity, not the mean speed', () => {
    const skeleton = biped(1);
    const forward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 2, duration: 1 });
    const side = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 2, duration: 1 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, forward, { layer: 0, weight: 0.5 });
    play(world, eid, side, { layer: 1, weight: 0.5 });
    setTargetSpeed(world, eid, 1.5);
    // Blended velocity (1, 1) m/s at rate 1: |v| = √2, so rate 1.5 / √2.
    expect(world.components.Layers.speed[eid * DEFAULT_MAX_LAYERS]).toBeCloseTo(1.5 / Math.SQRT2, 5);
    runFor(world, 4 / (1.5 / Math.SQRT2)); // 4 whole cycles
    const root = getRootTransform(world, eid);
    expect(Math.hypot(root.x, root.z) / (4 / (1.5 / Math.SQRT2))).toBeCloseTo(1.5, 3);
  });
});
