import { expect } from 'vitest';
import type { NumArray } from '../../src/math/types.js';

/** A Float64Array of `n` NaN sentinels. */
export function sentinels(n: number): Float64Array {
  return new Float64Array(n).fill(Number.NaN);
}

/** A Float64Array of `n` NaNs with `values` written at `off`. */
export function placed(n: number, off: number, values: readonly number[]): Float64Array {
  const out = sentinels(n);
  for (let i = 0; i < values.length; i++) out[off + i] = values[i];
  return out;
}

/** Expects `actual[off..off+expected.length-1]` close to `expected`. */
export function expectClose(actual: NumArray, off: number, expected: readonly number[], digits = 6): void {
  for (let i = 0; i < expected.length; i++) {
    expect(actual[off + i], `element ${i}`).toBeCloseTo(expected[i], digits);
  }
}

/** Expects the quaternion at `actual[off..off+3]` to equal `expected` up to sign. */
export function expectQuatClose(actual: NumArray, off: number, expected: readonly number[], digits = 6): void {
  let d = 0;
  for (let i = 0; i < 4; i++) d += actual[off + i] * expected[i];
  const sign = d < 0 ? -1 : 1;
  for (let i = 0; i < 4; i++) {
    expect(actual[off + i] * sign, `element ${i}`).toBeCloseTo(expected[i], digits);
  }
}

/** Expects every element of `arr` outside `[from, from + count)` to still be a NaN sentinel. */
export function expectUntouched(arr: NumArray, from: number, count: number): void {
  for (let i = 0; i < arr.length; i++) {
    if (i >= from && i < from + count) continue;
    expect(Number.isNaN(arr[i]), `element ${i} was overwritten`).toBe(true);
  }
}

/** `Math.SQRT1_2`, sin and cos of 45°. */
export const S = Math.SQRT1_2;
