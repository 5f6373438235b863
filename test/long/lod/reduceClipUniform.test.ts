/**
 * ATKINS key selection against uniform decimation on every real clip of assets/ (its own file,
 * beside the error-bound sweep of reduceClip.test.ts, so the two heavy runs share the cores).
 */
import { describe, expect, it } from 'vitest';
import { reduceClip } from '../../../src/offline/lod/reduceClip.js';
import { loadRealClips } from '../../fixtures/realClips.js';
import { ASSETS_URL } from '../../support/assets.js';

describe('reduceClip against uniform decimation', () => {
  it('keeps fewer keys than uniform decimation at the same bound on at least 17 of the 19 clips (5 mm)', async () => {
    const clips = await loadRealClips(ASSETS_URL);
    let fewer = 0;
    for (const { clip, unitsPerMetre } of clips) {
      const tolerance = 0.005 * unitsPerMetre;
      const atkins = reduceClip(clip, { tolerance });
      const uniform = reduceClip(clip, { tolerance, method: 'uniform' });
      expect(uniform.stats!.maxError).toBeLessThanOrEqual(tolerance);
      if (atkins.stats!.keysAfter < uniform.stats!.keysAfter) fewer++;
    }
    expect(fewer).toBeGreaterThanOrEqual(17);
  }, 180_000);
});
