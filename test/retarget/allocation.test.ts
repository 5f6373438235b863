import { describe, expect, it } from 'vitest';
import { bindSkeletons, createAnimationWorld, createSkeleton, play, spawnCharacter, step } from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { smallestAllocation } from '../support/allocation.js';

describe('retargeted playback allocates nothing per frame', () => {
  it('500 characters on a skeleton of other proportions (half of them also with other rest rotations), each translation mode, full and reduced clips', () => {
    const source = syntheticSkeleton(32);
    const rest = Float32Array.from(source.rest);
    for (let o = 0; o < rest.length; o += 10) for (let c = 0; c < 3; c++) rest[o + c]! *= 0.8;
    const target = createSkeleton({ names: source.names, parents: source.parents, rest });
    // Other rest rotations (each joint's turned by 0.3 rad about its own axis): the reference-pose path.
    const turnedRest = Float32Array.from(rest);
    for (let j = 0, o = 3; o < turnedRest.length; o += 10, j++) {
      const [x, y, z, w] = turnedRest.subarray(o, o + 4), s = Math.sin(0.15), c = Math.cos(0.15);
      const axis = [[1, 0, 0], [0, 1, 0], [0, 0, 1]][j % 3]!;
      const b = [axis[0]! * s, axis[1]! * s, axis[2]! * s, c] as const;
      turnedRest.set([w! * b[0] + x! * b[3] + y! * b[2] - z! * b[1], w! * b[1] - x! * b[2] + y! * b[3] + z! * b[0], w! * b[2] + x! * b[1] - y! * b[0] + z! * b[3], w! * b[3] - x! * b[0] - y! * b[1] - z! * b[2]], o);
    }
    const turned = createSkeleton({ names: source.names, parents: source.parents, rest: turnedRest });
    expect(bindSkeletons(source, turned).retarget).not.toBeNull();
    expect(bindSkeletons(source, target).retarget).toBeNull();
    const clip = syntheticClip(source, { seed: 2 });
    const reduced = reduceClip(clip, { tolerance: 1e-3 });
    const world = createAnimationWorld({ maxEntities: 500, maxJoints: 32 });
    const modes = [undefined, 'skeleton', 'animation', 'scaled', { joint3: 'animation' }] as const;
    for (let n = 0; n < 500; n++) {
      const eid = spawnCharacter(world, n % 4 < 2 ? target : turned, { rootMotion: n % 2 === 0 });
      const translation = modes[n % modes.length];
      play(world, eid, n % 3 === 0 ? reduced : clip, translation === undefined ? { time: n / 500 } : { time: n / 500, translation });
    }
    // The smallest of several runs of 500 frames after a warm-up (the JIT tiers up the retargeting
    // paths; on a busy machine its background compiler may finish late: test/support/allocation.ts).
    const allocated = smallestAllocation(() => step(world, 1 / 60), { calls: 500, bound: 1024 * 1024, warmUp: 200 });
    console.log(`500 frames × 500 retargeted characters: ${allocated} bytes allocated`);
    // One boxed double per character per frame would be 500 × 500 × 16 B = 4 MB; what remains
    // (measured 7–430 KB, varying run to run) is the JIT's, as in test/allocation.test.ts.
    expect(allocated).toBeLessThan(1024 * 1024);
  });
});
