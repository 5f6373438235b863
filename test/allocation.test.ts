import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createMask, play, spawnCharacter, step } from '../src/index.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';

// A handle on V8's collector without restarting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('step allocates nothing', () => {
  it('1,000 frames of 1,000 characters grow the heap by under 1 MB after GC', () => {
    const skeleton = syntheticSkeleton(32);
    const walk = syntheticClip(skeleton, { seed: 2, name: 'walk' });
    const run = syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'run' });
    const wave = syntheticClip(skeleton, { seed: 4, name: 'wave' });
    const upper = createMask(skeleton, { joint5: 1 });
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 32, maxEvents: 256 });
    const random = createRandom(9);
    for (let n = 0; n < 1000; n++) {
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, walk, { layer: 0, weight: 0.6, time: random() });
      play(world, eid, run, { layer: 1, weight: 0.4, speed: 1.3, time: random() });
      play(world, eid, wave, { layer: 2, weight: 0.5, mask: upper, additive: true });
    }
    // Warm up so the JIT has compiled the systems and lazily created structures exist.
    for (let f = 0; f < 50; f++) step(world, 1 / 60);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let f = 0; f < 1000; f++) step(world, 1 / 60);
    // Before collecting: garbage made by the frames would still be counted here (the young
    // generation holds many MB before a scavenge), so this catches allocation, not just leaks.
    const allocated = process.memoryUsage().heapUsed - before;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    console.log(`1,000 frames × 1,000 characters: heap +${allocated} bytes before GC, ${grown} bytes after GC`);
    expect(grown).toBeLessThan(1024 * 1024);
    expect(allocated).toBeLessThan(1024 * 1024);
  });
});
