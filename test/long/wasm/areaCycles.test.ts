/**
 * 20,000 register / play / release cycles on a wasm world keep its WebAssembly memory and the
 * JavaScript heap flat, every clip on the kernels (the kernel area reuses released copies' space
 * and ids: src/wasm/areaLayout.ts). The 2,000-cycle version runs in test/wasm/areaGrowth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { releaseCycles } from '../../fixtures/areaCycles.js';

describe('kernel area cycles', () => {
  it('20,000 cycles: memory and heap flat, all on WebAssembly', () => {
    const result = releaseCycles(20_000);
    console.log(`kernel area, 20,000 cycles: memory +${result.memoryGrowth} bytes, heap +${result.heapGrowth} bytes`);
    expect(result.offWasm).toEqual([]);
    expect(result.memoryGrowth).toBe(0);
    expect(result.heapGrowth).toBeLessThan(1 << 20);
    expect(result.warnings).toEqual([]);
  }, 300_000);
});
