/**
 * Issue 17 acceptance: `stepParallel` at 1, 2, 3 and 4 threads gives the pools and events of
 * `step`, bit for bit. A mixed crowd of 1,000 characters on both shared glTF skeletons (Robot
 * and Fox): clips with events, 1-D blend spaces, transitions in all four modes (dead blending included), an additive
 * masked layer, root motion, followers, look-at and reach, distance LOD with update-rate
 * levels 1/2/4 and reduced clips per level, a few characters at 1,000× speed on a clip of 100 events (the event queue's
 * bounded work), spawns and removals between frames, and assets first used after the workers
 * started. Every 100 frames: SHA-256 of every pool of every component and of the events
 * drained since the last checkpoint (the queue of 1,024 records overflows in between).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FRAMES, loadMixedCrowd, runMixedCrowd, type Run } from './fixtures/mixedCrowd.js';

beforeAll(loadMixedCrowd, 120_000);

describe('stepParallel equals step bit for bit', () => {
  let reference: Run;
  beforeAll(async () => {
    reference = await runMixedCrowd(null);
  }, 300_000);

  it('the reference run fires events and drops some (the queue overflows between drains)', () => {
    expect(reference.checkpoints).toHaveLength(FRAMES / 100);
    expect(reference.events).toBeGreaterThan(10_000);
  });

  for (const threads of [1, 2, 3, 4]) {
    it(`threads: ${threads}`, async () => {
      const result = await runMixedCrowd(threads);
      for (let c = 0; c < reference.checkpoints.length; c++) {
        expect(result.checkpoints[c], `frame ${(c + 1) * 100}`).toBe(reference.checkpoints[c]);
      }
      // The comparison means something only if the workers did part of the frames.
      if (threads > 1) expect(result.workerChunks).toBeGreaterThan(100);
      else expect(result.workerChunks).toBe(0);
    }, 300_000);
  }
});
