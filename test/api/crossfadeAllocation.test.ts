/**
 * A cross-fade `transition` allocates nothing per call, a frame inside the fade included. A
 * fade-path call V8 leaves un-inlined boxed its double arguments (~64 bytes a call, seen in some
 * runs only); the fade path passes none, which this file also holds with inlining off
 * (test/support/vitest.noInlining.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, play, spawnCharacter, step, transition, type TransitionOptions } from '../../src/index.js';
import { biped, directionalWalk } from '../rootMotion/locomotion.js';
import { smallestAllocation } from '../support/allocation.js';

describe('cross-fade transitions allocate nothing', () => {
  it('transition as a cross-fade, a frame inside the fade and one past its end (its layer freed again)', () => {
    const skeleton = biped(1);
    const forward = directionalWalk(skeleton, 1, { dirX: 0, dirZ: 1, distance: 2, duration: 1, name: 'forward' });
    const side = directionalWalk(skeleton, 1, { dirX: 1, dirZ: 0, distance: 4, duration: 1, name: 'side' });
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 32 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, forward);
    const options: TransitionOptions = { duration: 0.2, mode: 'crossfade', curve: 'smoothstep' };
    const calls = 100_000;
    const perCall = smallestAllocation((i) => {
      transition(world, eid, i % 2 ? forward : side, options);
      step(world, 1 / 64);
      step(world, 0.25);
    }, { calls, bound: calls * 8 }) / calls;
    console.log(`cross-fade transition + 2 steps: ${perCall.toFixed(2)} bytes a call`);
    expect(perCall).toBeLessThan(8);
  });
});
