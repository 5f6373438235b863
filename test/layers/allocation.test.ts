/**
 * Issue 21 item 3: `step` allocates nothing per frame at `maxLayers: 8` (own file: the
 * allocation tests run in a process of their own, see test/fixtures/stepAllocation.ts) — 1,000
 * characters with seven busy layers (override, masked, additive) and cross-fades running.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createMask, play, spawnCharacter, step, transition } from '../../src/index.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { smallestAllocation } from '../support/allocation.js';

const FRAMES = 200;

describe('step allocates nothing at maxLayers 8', () => {
  it(`${FRAMES} frames of 1,000 characters on all 8 layers, two cross-fades in progress: under 2 KB a frame (a character's allocation would be 16 KB)`, () => {
    const skeleton = syntheticSkeleton(32);
    const clips = Array.from({ length: 5 }, (_, k) => syntheticClip(skeleton, { seed: 2 + k, name: `c${k}` }));
    const upper = createMask(skeleton, { joint5: 1 });
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 32, maxEvents: 256, maxLayers: 8, kernels: 'js' });
    const random = createRandom(4);
    const eids = Array.from({ length: 1000 }, () => spawnCharacter(world, skeleton));
    for (const eid of eids) {
      for (let layer = 0; layer < 4; layer++) play(world, eid, clips[layer]!, { layer, weight: 0.2 + random(), time: random() });
      play(world, eid, clips[4]!, { layer: 4, weight: 0.5, mask: upper });
      play(world, eid, clips[1]!, { layer: 5, weight: 0.4, additive: true, reference: clips[0]! });
      // Long cross-fades on layers 0 and 1: two outgoing slots (6 and 7) fade through the measured frames.
      transition(world, eid, clips[2]!, { duration: 60, mode: 'crossfade', layer: 0 });
      transition(world, eid, clips[3]!, { duration: 60, mode: 'crossfade', layer: 1 });
    }
    const { clip } = world.components.Layers;
    for (const eid of eids) for (let layer = 0; layer < 8; layer++) expect(clip[eid * 8 + layer]).toBeGreaterThanOrEqual(0);
    const allocated = smallestAllocation(() => step(world, 1 / 60), { calls: FRAMES, bound: FRAMES * 2048, warmUp: 100 });
    console.log(`${FRAMES} frames × 1,000 characters at maxLayers 8: ${allocated} bytes allocated (the smallest run)`);
    expect(allocated).toBeLessThan(FRAMES * 2048);
    // Still fading: the measured frames blended all eight slots.
    expect(world.components.Layers.fadeCurve[eids[0]! * 8 + 6]).not.toBe(0);
  });
});
