/**
 * The sandbox's kernels selftest (sandbox/src/selftest/kernels.ts, which the end-to-end test
 * runs in Chromium) run here in Node on the same code: the WebAssembly worlds' palettes within
 * 1e-5 of the JavaScript world's, the same events, the threaded wasm world equal to the wasm
 * `step` world in every pool, and a palette-only threaded world giving its palettes bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { runKernelsSelftest } from '../../sandbox/src/selftest/kernels.js';

describe('the kernels selftest', () => {
  it('passes in Node as in Chromium', async () => {
    const r = await runKernelsSelftest();
    expect(r.firstDifference).toBeNull();
    expect(r.checkpoints).toBeGreaterThan(0);
    expect(r.paletteEqual).toBe(r.checkpoints);
    expect(r.equal).toBe(r.checkpoints);
    expect(r.equalThreaded).toBe(r.checkpoints);
    expect(r.paletteOnlyModelPose).toBe(0);
    expect(r.equalPaletteOnly).toBe(r.checkpoints);
  }, 120_000);
});
