/**
 * 20,000 register / play / release cycles on a wasm world keep its WebAssembly memory and the
 * JavaScript heap as flat as a JavaScript world's, every clip on the kernels (the kernel area reuses released copies' space
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
    // The heap: a JavaScript world's register / release path leaves some 30–45 bytes a cycle
    // (measured over 5,000 cycles, alternating: js 221 / 139 KB, wasm 124 / 197 KB; over 20,000:
    // js 550 KB, wasm 920 KB), so the wasm world is held to the JavaScript world's growth over the
    // same cycles plus 1 MB (20,000 copies kept would be 2.3 GB).
    const js = releaseCycles(20_000, 'js');
    console.log(`the same on a JavaScript world: heap +${js.heapGrowth} bytes`);
    expect(result.heapGrowth).toBeLessThan(Math.max(js.heapGrowth, 0) + (1 << 20));
    expect(result.warnings).toEqual([]);
  }, 300_000);
});
