/** `step` allocates nothing per frame on the WebAssembly kernels (issue 18: their calls must not allocate either). */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createAnimationWorld, createDifferenceClip, createMask, createSkeleton, play, spawnCharacter, step } from '../../src/index.js';
import { describeStepAllocation } from '../fixtures/stepAllocation.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

describeStepAllocation('wasm');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

it('a masked override layer, an additive masked layer and a proportions-only binding on the kernels: 600 frames of 600 characters allocate under 600 KB', () => {
  const skeleton = syntheticSkeleton(32);
  const small = createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest: skeleton.rest.map((v, i) => (i % 10 < 3 ? v * 0.8 : v)) });
  const walk = syntheticClip(skeleton, { seed: 2 }), wave = syntheticClip(skeleton, { seed: 4 });
  const difference = createDifferenceClip(syntheticClip(skeleton, { seed: 5 }), walk);
  const world = createAnimationWorld({ maxEntities: 600, maxJoints: 32, kernels: 'wasm' });
  const random = createRandom(3);
  for (let n = 0; n < 600; n++) {
    const target = n % 3 === 2 ? small : skeleton;
    const upper = createMask(target, { joint5: 1 });
    const eid = spawnCharacter(world, target);
    play(world, eid, walk, { time: random() });
    play(world, eid, wave, { layer: 1, weight: 0.7, mask: upper, time: random() });
    play(world, eid, difference, { layer: 2, weight: 0.6, mask: upper, additive: true, time: random() });
  }
  for (let f = 0; f < 50; f++) step(world, 1 / 60);
  // The kernels took them: masks, the difference clip's reference and the binding have copies.
  const area = world.wasm!.area;
  expect(area.maskTable[0]).not.toBe(0);
  expect(area.referenceTable[0]).not.toBe(0);
  expect(area.bindingTable[0]).not.toBe(0);
  gc();
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  for (let f = 0; f < 600; f++) step(world, 1 / 60);
  const collections = profiler.stop()?.statistics ?? [];
  const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
  const allocated = process.memoryUsage().heapUsed - before + freed;
  console.log(`600 frames × 600 characters (masked, additive, bound): ${allocated} bytes allocated (${collections.length} GCs)`);
  expect(allocated).toBeLessThan(600 * 1024);
});
