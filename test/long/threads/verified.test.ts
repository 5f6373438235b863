/**
 * The threaded frame with its stale-copy check on: the mixed crowd of
 * test/parallel/bitIdentical.test.ts (1,000 characters × 1,000 frames, assets first used after
 * the workers started, spawns and removals) on 2 and 3 threads with `verifyThreads`, so every
 * frame each worker hashes its copies of the assets and the main thread compares them — a stale
 * copy fails the frame at once — and the pools and events equal `step`'s bit for bit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FRAMES, loadMixedCrowd, runMixedCrowd, type Run } from '../../parallel/fixtures/mixedCrowd.js';

beforeAll(loadMixedCrowd, 120_000);

describe('stepParallel with verifyThreads over the mixed crowd', () => {
  let reference: Run;
  beforeAll(async () => {
    reference = await runMixedCrowd(null);
  }, 300_000);

  for (const threads of [2, 3]) {
    it(`threads: ${threads}, every worker's assets verified every frame, pools and events as step's`, async () => {
      const result = await runMixedCrowd(threads, true);
      expect(result.checkpoints).toHaveLength(FRAMES / 100);
      for (let c = 0; c < reference.checkpoints.length; c++) expect(result.checkpoints[c], `frame ${(c + 1) * 100}`).toBe(reference.checkpoints[c]);
      expect(result.workerChunks).toBeGreaterThan(100);
    }, 600_000);
  }
});
