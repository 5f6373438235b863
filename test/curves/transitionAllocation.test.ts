/**
 * `transition` + `step` on a character with curves allocates nothing (own file: allocation is
 * measured in a process whose JIT feedback other tests have not shaped; see
 * test/support/allocation.ts): quintic and spring in turn, each request interrupting the last,
 * so every frame captures the curves' source and offsets. A boxed double per frame would be 16
 * bytes; what V8 allocates while it compiles stays a few bytes a frame over 20,000 frames.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, step, transition, type TransitionOptions } from '../../src/index.js';
import { smallestAllocation } from '../support/allocation.js';
import { spawnCurveCrowd } from './crowd.js';

describe('curves through transitions allocate nothing', () => {
  it('transition + step with 8 curves (two override layers and an additive one), each request interrupting the last: under 12 bytes a frame', () => {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 16, kernels: 'js' });
    const crowd = spawnCurveCrowd(world, 4, { lod: false });
    const eid = crowd.eids[0]!;
    expect(world.components.Curves.count[eid]).toBe(8);
    const options: TransitionOptions[] = [{ duration: 0.3 }, { duration: 0.3, mode: 'spring' }];
    const calls = 20_000;
    const allocated = smallestAllocation((i) => {
      transition(world, eid, crowd.clips[i % 4]!, options[i % 2]!);
      step(world, 1 / 60);
    }, { calls, bound: calls * 12 });
    console.log(`[curves] transition + step with curves: ${(allocated / calls).toFixed(2)} bytes a frame`);
    expect(allocated / calls).toBeLessThan(12);
  });
});
