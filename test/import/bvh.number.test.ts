/** The BVH number reader: bit-identical to `Number()` on decimals, NaN on everything else. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/import/bvh/number.js';

const read = (s: string): number => parseDecimal(s, 0, s.length);

describe('parseDecimal', () => {
  it('equals Number() bit for bit on decimals as BVH writers print them', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 20 }), (v, digits) => {
        for (const s of [v.toFixed(digits), String(v), v.toPrecision(Math.max(1, digits)), v.toExponential(Math.min(digits, 20))]) {
          expect(Object.is(read(s), Number(s)), s).toBe(true);
        }
      }),
      { numRuns: 5000, seed: 131 },
    );
  });

  it('reads the forms found in real files', () => {
    expect(read('.0083333')).toBe(0.0083333);
    expect(read('-0.0000')).toBe(-0);
    expect(read('5.')).toBe(5);
    expect(read('+2.5')).toBe(2.5);
    expect(read('-33.8986')).toBe(-33.8986);
    expect(read('1E-3')).toBe(0.001);
    expect(read('12345678901234567890.5')).toBe(12345678901234567890.5);
  });

  it('gives NaN for anything that is not a decimal number', () => {
    for (const s of ['', '-', '+', '.', '-.', 'e5', '1e', '1e+', '1.2.3', '1-2', '0x10', '0b1', 'Infinity', '-Infinity', 'NaN', '1,5', '1 ', '١']) {
      expect(read(s), JSON.stringify(s)).toBeNaN();
    }
    expect(read('1e999')).toBe(Infinity); // well-formed but out of range: the caller's isFinite refuses it
  });
});
