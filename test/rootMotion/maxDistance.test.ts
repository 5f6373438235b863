import { describe, expect, it } from 'vitest';
import { createClip, createSkeleton, type Skeleton } from '../../src/index.js';
import { getRootTrack } from '../../src/kernels.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

/** hips (root) → leg, hips 1 m up at rest. */
function biped(): Skeleton {
  return createSkeleton({ names: ['hips', 'leg'], parents: [-1, 0], rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1] });
}

describe('RootTrack.maxDistance', () => {
  it('a root that goes out 3 m and comes back to 1 m: maxDistance 3, net 1', () => {
    // The hips start at (2, 1, −1) and move along the unit direction (0.6, 0.8) in (x, z) by
    // s = 0, 1, 2, 3, 2.5, 1.5, 1 m; at s = 3 they also rise 4 m, which must not count
    // (that frame's 3D distance is hypot(3, 4) = 5).
    const skeleton = biped();
    const s = [0, 1, 2, 3, 2.5, 1.5, 1];
    const frames: number[] = [];
    for (let f = 0; f < s.length; f++) {
      frames.push(2 + 0.6 * s[f]!, f === 3 ? 5 : 1, -1 + 0.8 * s[f]!, 0, 0, 0, 1, 1, 1, 1);
      frames.push(0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
    }
    const track = getRootTrack(createClip({ skeleton, frameRate: 30, frames, loop: true }));
    expect(track.maxDistance).toBeCloseTo(3, 6);
    expect(Math.hypot(track.cycle[0]!, track.cycle[2]!)).toBeCloseTo(1, 6);
  });

  it('a clip that never leaves its first position has maxDistance 0', () => {
    const skeleton = biped();
    const frames: number[] = [];
    for (let f = 0; f < 4; f++) frames.push(0.5, 1 + 0.1 * f, 0.25, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
    expect(getRootTrack(createClip({ skeleton, frameRate: 30, frames })).maxDistance).toBe(0);
  });

  it('bounds the horizontal distance from the start at every time, and the net cycle (property)', () => {
    // Any point of the (piecewise linear) track, sampled between frames, is no farther from the
    // first frame's position than maxDistance, and some frame reaches it.
    const random = createRandom(17);
    for (let seed = 1; seed <= 6; seed++) {
      const skeleton = syntheticSkeleton(8, seed);
      const clip = syntheticClip(skeleton, { seed, frameCount: 21 });
      const track = getRootTrack(clip);
      const p = track.positions;
      let reached = 0;
      for (let f = 0; f < clip.frameCount; f++) reached = Math.max(reached, Math.hypot(p[f * 3]! - p[0]!, p[f * 3 + 2]! - p[2]!));
      expect(track.maxDistance).toBe(reached);
      expect(reached).toBeGreaterThan(0.01); // the synthetic root does travel
      for (let k = 0; k < 200; k++) {
        const u = random() * (clip.frameCount - 1);
        const f = Math.min(Math.floor(u), clip.frameCount - 2), w = u - f;
        const x = p[f * 3]! + (p[f * 3 + 3]! - p[f * 3]!) * w, z = p[f * 3 + 2]! + (p[f * 3 + 5]! - p[f * 3 + 2]!) * w;
        expect(Math.hypot(x - p[0]!, z - p[2]!)).toBeLessThanOrEqual(track.maxDistance + 1e-9);
      }
      expect(track.maxDistance).toBeGreaterThanOrEqual(Math.hypot(track.cycle[0]!, track.cycle[2]!) - 1e-9);
    }
  });
});
