/**
 * Tiny values in the data a character is built from are stored as 0 (`FLUSH_TO_ZERO_BELOW`,
 * src/assets/validatePose.ts): translation and rotation components of clip frames and rest
 * poses, and inverse bind matrix entries, below 1e-15 in magnitude — exporters' noise that makes
 * the float32 kernels' products subnormal. Scales keep their value; values at or above the
 * threshold are kept (to float32).
 */
import { describe, expect, it } from 'vitest';
import { createClip, createSkeleton } from '../../src/index.js';
import { FLUSH_TO_ZERO_BELOW } from '../../src/assets/validatePose.js';

const POSE_T = 0, POSE_Q = 3, POSE_S = 7;

/** Two joints: the second's pose carries noise the size of what exporters leave. */
function noisyPose(): number[] {
  return [
    0, 1, 0, 0, 0, 0, 1, 1, 1, 1,
    1.4e-36, 0.25, -3e-16, -2e-38, 7e-20, Math.SQRT1_2, Math.SQRT1_2, 1e-20, 1, 2e-15,
  ];
}

describe('tiny values in clips and skeletons', () => {
  it('is 1e-15', () => {
    expect(FLUSH_TO_ZERO_BELOW).toBe(1e-15);
  });

  it('createSkeleton stores rest translations and rotations below 1e-15 as 0, scales and larger values as given', () => {
    const skeleton = createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: noisyPose() });
    const r = Array.from(skeleton.rest.subarray(10));
    expect(r.slice(POSE_T, POSE_T + 3)).toEqual([0, 0.25, 0]);
    expect(r.slice(POSE_Q, POSE_Q + 2)).toEqual([0, 0]);
    expect(r[POSE_Q + 2]).toBe(Math.fround(Math.SQRT1_2));
    expect(r.slice(POSE_S, POSE_S + 3)).toEqual([Math.fround(1e-20), 1, Math.fround(2e-15)]);
  });

  it('createSkeleton flushes inverse bind entries below 1e-15 and keeps the rest', () => {
    const bind = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    const noisy = [1, 3e-37, -5e-16, 0, 1, 1e-15, 0, 2e-15, 1, 0.5, -1e-30, 0];
    const skeleton = createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: noisyPose(), inverseBind: [...bind, ...noisy] });
    expect(Array.from(skeleton.inverseBind.subarray(12))).toEqual([1, 0, 0, 0, 1, Math.fround(1e-15), 0, Math.fround(2e-15), 1, 0.5, 0, 0]);
  });

  it('createClip stores frame translations and rotations below 1e-15 as 0, within 1e-15 of what was given', () => {
    const skeleton = createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: noisyPose() });
    const given = [...noisyPose(), ...noisyPose()];
    const clip = createClip({ skeleton, frameRate: 30, frames: given });
    let flushed = 0;
    for (let i = 0; i < given.length; i++) {
      const stored = clip.frames[i]!;
      if (i % 10 >= POSE_S) {
        expect(stored, `frames[${i}]`).toBe(Math.fround(given[i]!));
        continue;
      }
      if (given[i] !== 0 && Math.abs(given[i]!) < FLUSH_TO_ZERO_BELOW) {
        expect(stored, `frames[${i}]`).toBe(0);
        flushed++;
      } else {
        // As given, to float32 (rotations within their normalization's rounding).
        expect(Math.abs(stored - given[i]!), `frames[${i}]`).toBeLessThanOrEqual(Math.abs(given[i]!) * 6e-8);
      }
    }
    expect(flushed).toBe(2 * 4); // per frame: the second joint's tx, tz, qx and qy
  });
});
