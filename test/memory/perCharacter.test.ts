/**
 * The memory bound: a character costs at most 12 KB of pools at 64 joints with the
 * default options — measured as the world's buffer (every component, the transition slots, the
 * event queue, each thread's scratch, and with WebAssembly kernels the kernel area) divided by
 * `maxEntities`, on the bench crowd's size and on both kernel paths.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, worldBytes } from '../../src/index.js';

const BOUND = 12 * 1024;

describe('pools per character at 64 joints, default options', () => {
  for (const kernels of ['js', 'wasm'] as const) {
    it(`≤ 12 KB in a world of 10,000 characters (kernels: ${kernels})`, () => {
      const world = createAnimationWorld({ maxEntities: 10_000, maxJoints: 64, kernels });
      expect(world.kernels).toBe(kernels);
      const perCharacter = world.poolBuffer.byteLength / 10_000;
      console.log(`${kernels}: ${world.poolBuffer.byteLength.toLocaleString('en-US')} bytes for 10,000 characters = ${perCharacter.toFixed(0)} per character`);
      expect(perCharacter).toBeLessThanOrEqual(BOUND);
    });
  }

  for (const kernels of ['js', 'wasm'] as const) {
    it(`≤ 12 KB in a world of 1,000 characters, and a fixed part (beyond the characters' rows) under 1 MB (kernels: ${kernels})`, () => {
      const world = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, kernels });
      expect(world.kernels).toBe(kernels);
      expect(world.poolBuffer.byteLength / 1_000).toBeLessThanOrEqual(BOUND);
      // The fixed part: the world's bytes less 1,000 times what one character more adds (the
      // kernel area starts with what is registered and grows, so it is in here, small).
      const options = { maxJoints: 64, kernels };
      const perCharacter = (worldBytes({ ...options, maxEntities: 10_008 }) - worldBytes({ ...options, maxEntities: 10_000 })) / 8;
      const fixed = worldBytes({ ...options, maxEntities: 1_000 }) - 1_000 * perCharacter;
      expect(fixed).toBeGreaterThan(0);
      expect(fixed).toBeLessThanOrEqual(1024 * 1024);
    });
  }

  it('each character more adds under 11.5 KB (its rows, its share of the transition slots, its foot-lock legs)', () => {
    const added = (worldBytes({ maxEntities: 10_008, maxJoints: 64 }) - worldBytes({ maxEntities: 10_000, maxJoints: 64 })) / 8;
    expect(added).toBeLessThan(11.5 * 1024);
    // The bound is not met by an empty world: a character's rows are most of it (LocalPose 10,
    // ModelPose and SkinPalette 12 floats a joint each: 8,704 bytes at 64 joints).
    expect(added).toBeGreaterThan(64 * (10 + 12 + 12) * 4);
  });
});
