import { describe, expect, it } from 'vitest';
import { createClip, createSkeleton } from '../../src/index.js';
import { jointReach, measureModelError } from '../../src/lod/modelError.js';

/** root → a (1 m along +X) → b (2 m further along +X). */
function chain() {
  return createSkeleton({
    names: ['root', 'a', 'b'],
    parents: [-1, 0, 1],
    rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

describe('measureModelError', () => {
  it('a root rotation error of θ on one frame moves the chain end by its chord 2·3·sin(θ/2)', () => {
    const skeleton = chain();
    const clip = createClip({ skeleton, frameRate: 10, frames: [...skeleton.rest, ...skeleton.rest, ...skeleton.rest], loop: false });
    const frames = Float32Array.from(clip.frames);
    const theta = 0.02;
    // Frame 1, root turned θ about +Z.
    frames[30 + 5] = Math.sin(theta / 2);
    frames[30 + 6] = Math.cos(theta / 2);
    const error = measureModelError(clip, frames);
    expect(error.maxError).toBeCloseTo(2 * 3 * Math.sin(theta / 2), 6);
    expect(error.worstJoint).toBe(2);
    expect(error.worstFrame).toBe(1);
    // Mean over 3 joints × 3 frames: only frame 1's a (chord at 1 m) and b (at 3 m) moved.
    expect(error.meanError).toBeCloseTo((2 * Math.sin(theta / 2) * (1 + 3)) / 9, 6);
    // Measured 0.5 m along each axis too: b's point 0.5 m along x is 3.5 m from the root.
    const far = measureModelError(clip, frames, { distance: 0.5 });
    expect(far.maxError).toBeCloseTo(2 * 3.5 * Math.sin(theta / 2), 6);
  });

  it('an unnormalized but parallel quaternion is no error; identical frames give 0', () => {
    const skeleton = chain();
    const clip = createClip({ skeleton, frameRate: 10, frames: [...skeleton.rest, ...skeleton.rest], loop: false });
    const frames = Float32Array.from(clip.frames);
    frames[6] = 2; // root qw scaled: same rotation
    expect(measureModelError(clip, frames).maxError).toBeLessThan(1e-7);
  });

  it('jointReach: the farthest descendant at rest, plus the measuring distance', () => {
    expect(Array.from(jointReach(chain()))).toEqual([3, 2, 0]);
    const reach = jointReach(chain(), 0.1);
    [3.1, 2.1, 0.1].forEach((r, j) => expect(reach[j]).toBeCloseTo(r, 12));
  });
});
