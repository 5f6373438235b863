/**
 * The sandbox's `transactionalFrames` selftest (sandbox/src/selftest/transactional.ts, which the
 * end-to-end test runs in Chromium) run here in Node on the same code: a frame that fails
 * mid-frame on a corrupt pool row is undone, and the world then steps on equal to its twin.
 */
import { describe, expect, it } from 'vitest';
import { selftestClips } from '../../sandbox/src/selftest/threads.js';
import { runTransactionalSelftest } from '../../sandbox/src/selftest/transactional.js';

describe('the transactionalFrames selftest', () => {
  it('rejects the failing frame, leaves every pool as before, and steps on equal to the twin', async () => {
    const [a, b] = selftestClips();
    const r = await runTransactionalSelftest(a, b);
    expect(r.message).toMatch(/stepParallel: thread \d/);
    expect(r.message).toContain('the frame was undone');
    expect(r.unchanged).toBe(true);
    expect(r.stepsOn).toBe(true);
  }, 60_000);
});
