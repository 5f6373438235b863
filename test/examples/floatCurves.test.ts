/** examples/floatCurves.ts (docs/importing.md "Float curves"): the values the page states. */
import { describe, expect, it } from 'vitest';
import { faceCurves } from '../../examples/floatCurves.js';

describe('examples/floatCurves.ts', () => {
  it('blends layer over layer by weight (the default mode) with defaults for what a clip lacks, switches without a pop, settles on the target', () => {
    const { blended, justAfter, settled, weights } = faceCurves();
    expect(blended[0]).toBeCloseTo(0.5 * 1 + 0.5 * 0, 6);
    expect(blended[1]).toBeCloseTo(0.5 * 0.2 + 0.5 * 1, 6);
    // Without the offset the first frame after the switch would jump to Blink 0, Smile 1.
    expect(Math.abs(justAfter[0]! - blended[0]!)).toBeLessThan(0.05);
    expect(Math.abs(justAfter[1]! - blended[1]!)).toBeLessThan(0.05);
    expect(settled[0]).toBeCloseTo(0, 6);
    expect(settled[1]).toBeCloseTo(1, 6);
    expect(Array.from(weights)).toEqual([settled[1], settled[0]]);
  });
});
