/**
 * Oracle without blending: one clip on layer 0 at weight 1, so bitanim's palette reflects only
 * sampling (key interpolation, loop wrap or clamp), local→model and the palette product, and
 * three.js's `Skeleton.boneMatrices` the same work done by three (see `threeRig.ts`).
 * Rotations between keys: bitanim nlerp, three slerp; at 30 fps with the fixture's motion the
 * two differed by ≤ 1.6e-5 (synthetic24) and ≤ 2.9e-5 (deepChain40) on palette elements,
 * ~5e-7 at key instants.
 */
import { describe, expect, it } from 'vitest';
import { deepChain40, ORACLE_KERNELS, oracleClip, runOracle, synthetic24, type OracleSample } from './harness.js';

const TOLERANCE = 1e-4;

/** See threePalette.test.ts: three's Float32 key times make its 1.2 s clip 4.8e-8 s longer. */
const TIME_TOLERANCE = 1e-6;

/**
 * The clip lasts 1.2 s (37 frames at 30 fps). 0.1 ≈ frame 3; 0.2345, 0.8123 between keys;
 * 0.5 = frame 15; 1.3771 after the wrap (0.1771, between keys); 3.05 after the second wrap
 * (0.65, a key instant up to rounding).
 */
const LOOP_TIMES = [0.1, 0.2345, 0.5, 0.8123, 1.3771, 3.05];

/** For the clamped clip: before, at (up to rounding) and past its end (1.2 s), where it holds its last frame. */
const CLAMP_TIMES = [0.1, 0.2345, 0.8123, 1.2, 1.3771];

function check(sample: OracleSample): void {
  expect.soft(sample.timeGap, `${sample.message}: layer times differ`).toBeLessThan(TIME_TOLERANCE);
  expect.soft(sample.motion, `${sample.message}: palette is ~identity`).toBeGreaterThan(0.05);
  expect.soft(sample.diff.max, sample.message).toBeLessThan(TOLERANCE);
}

describe.each(ORACLE_KERNELS)('oracle: bitanim palette (%s kernels) vs three.js Skeleton.boneMatrices, one clip', (kernels) => {
  for (const build of [synthetic24, deepChain40]) {
    it(`${build.name}: a looping clip agrees within ${TOLERANCE} at every time`, () => {
      const s = build();
      const clip = oracleClip(s, { seed: 5, frameCount: 37, name: 'single' });
      for (const sample of runOracle(s, [{ clip, weight: 1 }], LOOP_TIMES, 'single clip', 'mixer', kernels)) check(sample);
    });

    it(`${build.name}: a clamped clip agrees within ${TOLERANCE}, also holding its last frame past the end`, () => {
      const s = build();
      const clip = oracleClip(s, { seed: 6, frameCount: 37, name: 'once', loop: false });
      for (const sample of runOracle(s, [{ clip, weight: 1, loop: false }], CLAMP_TIMES, 'single clamped clip', 'mixer', kernels)) check(sample);
    });
  }
});
