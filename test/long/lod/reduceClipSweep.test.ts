/**
 * reduceClip's error bound on every real clip of assets/ at 1 mm, 5 mm and 1 cm, measured by
 * hand between frames too (test/offline/lod/handMeasure.ts): the exhaustive sweep, in
 * `npm run test:long`.
 */
import { describe, expect, it } from 'vitest';
import { reduceClip } from '../../../src/offline/lod/reduceClip.js';
import { loadRealClips } from '../../fixtures/realClips.js';
import { ASSETS_URL } from '../../support/assets.js';
import { continuousError, specifiedDistance } from '../../offline/lod/handMeasure.js';

describe('reduceClip on every real clip', () => {
  it('holds 1 mm, 5 mm and 1 cm of model-space error between frames too on every clip (at the default shell), with end joints within 5° at 5 mm', async () => {
    const clips = await loadRealClips(ASSETS_URL);
    expect(clips.length).toBe(19);
    for (const { clip, unitsPerMetre, file: source } of clips) {
      let previousKeys = Number.POSITIVE_INFINITY;
      const distance = specifiedDistance(clip.skeleton);
      for (const metres of [0.001, 0.005, 0.01]) {
        const tolerance = metres * unitsPerMetre;
        const reduced = reduceClip(clip, { tolerance });
        const label = `${source} "${clip.name}" at ${metres} m`;
        const error = continuousError(clip, reduced, distance);
        expect(error.position, label).toBeLessThanOrEqual(tolerance);
        // The reported figures are this measurement (float32 poses, doubles after).
        expect(reduced.stats!.maxError, label).toBeCloseTo(error.position, 6);
        expect(reduced.stats!.maxRotationError!, label).toBeCloseTo(error.rotation, 3);
        if (metres === 0.005) expect(error.endRotation, label).toBeLessThanOrEqual(5);
        expect(reduced.stats!.keysBefore).toBe(clip.frameCount * clip.skeleton.jointCount * 10);
        expect(reduced.stats!.keysAfter).toBeLessThanOrEqual(reduced.stats!.keysBefore);
        expect(reduced.stats!.keysAfter).toBeLessThanOrEqual(previousKeys * 1.02); // looser: not (meaningfully) more keys
        previousKeys = reduced.stats!.keysAfter;
      }
    }
  }, 180_000);

});
