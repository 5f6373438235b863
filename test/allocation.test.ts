import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, createMask, play, spawnCharacter, step, transition } from '../src/index.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';

// A handle on V8's collector without restarting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Both kernel paths (issue 18): the WebAssembly kernels' calls must not allocate either.
describe.each(['wasm', 'js'] as const)('step allocates nothing (kernels: %s)', (kernels) => {
  it('1,000 frames of 1,000 characters grow the heap by under 1 MB after GC', () => {
    const skeleton = syntheticSkeleton(32);
    // Clips with footstep events, so firing events is part of what is measured.
    const walk = createClip({ ...syntheticClip(skeleton, { seed: 2, name: 'walk' }), events: [{ time: 0.2, name: 'left' }, { time: 0.7, name: 'right' }] });
    const run = createClip({ ...syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'run' }), events: [{ time: 0.5, name: 'step' }] });
    const wave = syntheticClip(skeleton, { seed: 4, name: 'wave' });
    const upper = createMask(skeleton, { joint5: 1 });
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 32, maxEvents: 256, kernels });
    expect(world.kernels).toBe(kernels);
    const random = createRandom(9);
    for (let n = 0; n < 1000; n++) {
      // Half move by root motion; half of those also turn by the root's yaw.
      const eid = spawnCharacter(world, skeleton, { rootMotion: n % 2 === 0, rootYaw: n % 4 === 0 });
      play(world, eid, walk, { layer: 0, weight: 0.6, time: random() });
      play(world, eid, run, { layer: 1, weight: 0.4, speed: 1.3, time: random() });
      play(world, eid, wave, { layer: 2, weight: 0.5, mask: upper, additive: true });
    }
    // Warm up so the JIT has compiled the systems and lazily created structures exist.
    for (let f = 0; f < 50; f++) step(world, 1 / 60);
    gc();
    const before = process.memoryUsage().heapUsed;
    // The profiler reports every collection during the frames with the heap size before and
    // after it, so garbage a scavenge freed mid-run is added back: this measures allocation,
    // not just what survives.
    const profiler = new GCProfiler();
    profiler.start();
    for (let f = 0; f < 1000; f++) step(world, 1 / 60);
    const collections = profiler.stop()?.statistics ?? [];
    const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
    const allocated = process.memoryUsage().heapUsed - before + freed;
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    console.log(`1,000 frames × 1,000 characters: ${allocated} bytes allocated (${collections.length} GCs), heap ${grown} bytes after GC`);
    expect(grown).toBeLessThan(1024 * 1024);
    expect(allocated).toBeLessThan(1024 * 1024);
  });

  it('with transitions in every mode, including the frames that capture them', () => {
    const skeleton = syntheticSkeleton(32);
    const clips = [syntheticClip(skeleton, { seed: 2 }), syntheticClip(skeleton, { seed: 3 }), syntheticClip(skeleton, { seed: 4, loop: false })];
    const world = createAnimationWorld({ maxEntities: 500, maxJoints: 32, maxEvents: 256, kernels });
    expect(world.kernels).toBe(kernels);
    const eids = Array.from({ length: 500 }, () => spawnCharacter(world, skeleton));
    for (const eid of eids) play(world, eid, clips[0]!);
    const modes = ['inertialize', 'spring', 'crossfade'] as const;
    const round = (r: number): void => {
      // Transition calls (the API) may allocate; only `step` is measured below.
      eids.forEach((eid, n) => transition(world, eid, clips[(r + n) % 3]!, { duration: 0.2, mode: modes[(r + n) % 3]! }));
    };
    for (let r = 0; r < 20; r++) { round(r); for (let f = 0; f < 5; f++) step(world, 1 / 60); } // warm-up
    gc();
    const captures: number[] = []; // frames that capture 500 transitions
    const others: number[] = [];
    let collections = 0;
    for (let r = 0; r < 60; r++) {
      round(r);
      for (let f = 0; f < 5; f++) {
        const profiler = new GCProfiler();
        profiler.start();
        const before = process.memoryUsage().heapUsed;
        step(world, 1 / 60); // f = 0 captures 500 transitions
        const after = process.memoryUsage().heapUsed;
        const stats = profiler.stop()?.statistics ?? [];
        collections += stats.length;
        (f === 0 ? captures : others).push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
      }
    }
    const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;
    console.log(`300 frames × 500 characters, a transition per character every 5 frames: median ${median(captures)} bytes per capturing step, ${median(others)} per other step (${collections} GCs)`);
    // The measuring itself (memoryUsage objects, the profiler) costs a few hundred bytes, and a
    // frame during which the JIT installs optimized code counts that code: the median is
    // robust to those. One boxed double per character would be 8,000 bytes on every frame.
    expect(median(captures)).toBeLessThan(1024);
    expect(median(others)).toBeLessThan(1024);
  });
});
