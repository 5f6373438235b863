import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnimationError } from '../../../src/assets/AnimationError.js';
import {
  DEFAULT_MIN_INTERVAL, differenceQuotient, prepareQuotients, selectKeys, selectKeysFrom, selectKeysWithOrders,
} from '../../../src/offline/lod/atkins.js';
import { arbitraryPiecewise, lcg, range, samplePiecewise, type PiecewiseCubic } from './curves.js';

/** The ε that resolves every knot on the order-3 pass: a quarter of the weakest signature. */
function resolvingEpsilon(curve: PiecewiseCubic, y: Float64Array): number {
  // Every join type first shows in the window that ends one frame past the knot, at |c|/3!
  // of the range-normalized channel (only that window's last sample sees the new piece).
  let weakest = Infinity;
  for (const k of curve.knots) weakest = Math.min(weakest, Math.abs(k.c));
  return weakest / 6 / range(y) / 4;
}

/** A single knot of power `power` and coefficient c at `frame` on a quiet cubic base. */
function oneKnot(power: 1 | 2 | 3, c: number, frame = 60, frameCount = 121): PiecewiseCubic {
  return { frameCount, base: [0.3, 0.01, -2e-4, 1e-6], knots: [{ frame, power, c }] };
}

describe('differenceQuotient', () => {
  it('the k-th per-frame divided difference: a cubic\'s third is its leading coefficient', () => {
    const y = Float64Array.from({ length: 10 }, (_, i) => 5 - i + 0.5 * i * i + 2 * i ** 3);
    const q3 = differenceQuotient(y, 3, 4);
    expect(q3.length).toBe(7);
    for (const v of q3) expect(v).toBeCloseTo(2 / 4, 12);
    const q2 = differenceQuotient(y, 2);
    // f[i, i+1, i+2] of a cubic = 0.5 + 2·(3i + 3) (sum of the nodes times the leading coefficient).
    q2.forEach((v, i) => expect(v).toBeCloseTo(0.5 + 2 * (3 * i + 3), 9));
    expect(differenceQuotient(y, 10).length).toBe(0);
    expect(Array.from(differenceQuotient(y, 0, 2))).toEqual(Array.from(y, (v) => v / 2));
  });
});

describe('selectKeys on piecewise cubics with known knots', () => {
  it('keys exactly the knots, whatever the joins (C², C¹, C⁰), all on the third-quotient pass', () => {
    fc.assert(
      fc.property(arbitraryPiecewise(), (curve) => {
        const y = samplePiecewise(curve);
        const { keys, orders } = selectKeysWithOrders(y, { epsilon: resolvingEpsilon(curve, y) });
        const expected = [0, ...curve.knots.map((k) => k.frame), y.length - 1];
        expect(Array.from(keys)).toEqual(expected);
        expect(Array.from(orders)).toEqual([0, ...curve.knots.map(() => 3), 0]);
      }),
      { numRuns: 200 },
    );
  });

  it('C² joins only, with δ = 1, 2 and 4: every knot within δ of a key and every key within δ of a knot', () => {
    fc.assert(
      fc.property(arbitraryPiecewise([3]), fc.constantFrom(1, 2, 4), (curve, minInterval) => {
        const y = samplePiecewise(curve);
        const keys = Array.from(selectKeys(y, { epsilon: resolvingEpsilon(curve, y), minInterval }));
        const marks = [0, ...curve.knots.map((k) => k.frame), y.length - 1];
        for (const knot of marks) expect(Math.min(...keys.map((k) => Math.abs(k - knot)))).toBeLessThanOrEqual(minInterval);
        for (const key of keys) expect(Math.min(...marks.map((k) => Math.abs(k - key)))).toBeLessThanOrEqual(minInterval);
      }),
      { numRuns: 100 },
    );
  });

  it('a C² join: keyed on the knot from the first disturbed window to its full jump, then by the order-1 pass up to twice the jump', () => {
    // q⁽³⁾ goes 0, c/6, 5c/6, c through the windows K−3 … K (per unit of c/range): whichever
    // window triggers, the key lands on K. Above c, the order-1 pass sees the join as −2c.
    const curve = oneKnot(3, 1e-4);
    const y = samplePiecewise(curve);
    const jump = 1e-4 / range(y);
    for (const fraction of [0.1, 0.17, 0.5, 0.9, 0.99]) {
      const { keys, orders } = selectKeysWithOrders(y, { epsilon: fraction * jump });
      expect(Array.from(keys)).toEqual([0, 60, 120]);
      expect(orders[1]).toBe(3);
    }
    for (const fraction of [1.01, 1.99]) {
      const { keys, orders } = selectKeysWithOrders(y, { epsilon: fraction * jump });
      expect(Array.from(keys)).toEqual([0, 60, 120]);
      expect(orders[1]).toBe(1);
    }
    expect(Array.from(selectKeys(y, { epsilon: 2.01 * jump }))).toEqual([0, 120]);
  });

  it('a C¹ join below the third quotient\'s ε is keyed by the second-quotient pass, on the knot', () => {
    // q⁽³⁾ sees c/6 (two windows), the order-2 jump statistic sees c at the knot.
    const curve = oneKnot(2, 3e-3);
    const y = samplePiecewise(curve);
    const c = 3e-3 / range(y);
    const { keys, orders } = selectKeysWithOrders(y, { epsilon: 0.5 * c });
    expect(Array.from(keys)).toEqual([0, 60, 120]);
    expect(Array.from(orders)).toEqual([0, 2, 0]);
  });

  it('a C⁰ join below the upper passes\' ε is keyed by the first-quotient pass, on the knot', () => {
    // q⁽³⁾: ±c/6; J⁽²⁾: −c/2, c, 0, −c, c/2 around the knot (left to pass 1); J⁽¹⁾: c at the knot.
    const curve = oneKnot(1, 0.2);
    const y = samplePiecewise(curve);
    const c = 0.2 / range(y);
    const { keys, orders } = selectKeysWithOrders(y, { epsilon: 0.6 * c });
    expect(Array.from(keys)).toEqual([0, 60, 120]);
    expect(Array.from(orders)).toEqual([0, 1, 0]);
    expect(Array.from(selectKeys(y, { epsilon: 1.01 * c }))).toEqual([0, 120]);
  });

  it('degree 1 keys the kinks of a polyline, degree 2 the C¹ joins of a piecewise quadratic', () => {
    const kinks = Float64Array.from({ length: 50 }, (_, f) => (f < 20 ? f : f < 35 ? 20 - 2 * (f - 20) : -10 + 0.5 * (f - 35)));
    expect(Array.from(selectKeys(kinks, { epsilon: 0.01, degree: 1 }))).toEqual([0, 20, 35, 49]);
    const quadratic = Float64Array.from({ length: 80 }, (_, f) => 0.01 * f * f - 0.03 * Math.max(0, f - 30) ** 2);
    expect(Array.from(selectKeys(quadratic, { epsilon: 1e-6, degree: 2 }))).toEqual([0, 30, 79]);
  });
});

describe('selectKeys on a sine', () => {
  const sine = Float64Array.from({ length: 300 }, (_, f) => Math.sin((2 * Math.PI * f) / 60));

  it('the key count never grows as ε grows, and falls across every decade where it is above 2', () => {
    const prepared = prepareQuotients(sine);
    const counts: number[] = [];
    for (let e = -8; e <= -2.0001; e += 1 / 16) counts.push(selectKeysFrom(prepared, 10 ** e).keys.length);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThanOrEqual(counts[i - 1]!);
    for (let i = 16; i < counts.length; i++) {
      if (counts[i - 16]! > 2 && counts[i - 16]! < counts[0]!) expect(counts[i]).toBeLessThan(counts[i - 16]!);
    }
    // The measured ladder (δ = 2): a key every third frame for tiny ε, 12 keys at ε = 1e-4.
    expect(selectKeys(sine, { epsilon: 1e-7 }).length).toBe(101);
    expect(selectKeys(sine, { epsilon: 1e-5 }).length).toBeLessThan(101);
    expect(selectKeys(sine, { epsilon: 1e-4 }).length).toBe(12);
    expect(selectKeys(sine, { epsilon: 1e-3 }).length).toBe(2);
  });

  it('at any period (12–200 frames) and phase, ten times the ε never gives more keys, and gives fewer below the saturation', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 12, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 6.3, noNaN: true }),
        fc.double({ min: -8, max: -1, noNaN: true }),
        (period, phase, exponent) => {
          const y = Float64Array.from({ length: 400 }, (_, f) => Math.sin((2 * Math.PI * f) / period + phase));
          const prepared = prepareQuotients(y);
          // Saturated: every window triggers, keys as dense as the order-3 pass allows.
          const saturated = selectKeysFrom(prepared, 0).keys.length;
          const fine = selectKeysFrom(prepared, 10 ** exponent).keys.length;
          const coarse = selectKeysFrom(prepared, 10 ** (exponent + 1)).keys.length;
          expect(coarse).toBeLessThanOrEqual(fine);
          if (fine > 2 && fine < 0.9 * saturated) expect(coarse).toBeLessThan(fine);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the sequential rule is not monotone at fine steps of ε (a later key shifts every later reference)', () => {
    // Documented, not wanted: a 23.1-frame sine, ε on a 1/32-decade grid, rises somewhere.
    const y = Float64Array.from({ length: 400 }, (_, f) => Math.sin((2 * Math.PI * f) / 23.1 + 0.9));
    const prepared = prepareQuotients(y);
    let rises = 0, previous = Infinity;
    for (let e = -4; e <= -2; e += 1 / 32) {
      const count = selectKeysFrom(prepared, 10 ** e).keys.length;
      if (count > previous) rises++;
      previous = count;
    }
    expect(rises).toBeGreaterThan(0);
  });
});

describe('selectKeys invariants', () => {
  it('keys ascend, start at 0, end at n − 1, and are never closer than δ (noisy channels)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 200 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 1e6 }),
        fc.double({ min: -8, max: 0, noNaN: true }), fc.constantFrom(1, 2, 3),
        (n, minInterval, seed, exponent, degree) => {
          const r = lcg(seed);
          const y = Float64Array.from({ length: n }, (_, f) => Math.sin(f / 7) + 0.05 * r());
          const keys = selectKeys(y, { epsilon: 10 ** exponent, minInterval, degree: degree as 1 | 2 | 3 });
          expect(keys[0]).toBe(0);
          expect(keys[keys.length - 1]).toBe(n - 1);
          for (let k = 1; k < keys.length; k++) {
            expect(keys[k]! - keys[k - 1]!).toBeGreaterThanOrEqual(n - 1 < minInterval ? 1 : minInterval);
          }
          // Deterministic.
          expect(Array.from(selectKeys(y, { epsilon: 10 ** exponent, minInterval, degree: degree as 1 | 2 | 3 }))).toEqual(Array.from(keys));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the default δ is 2 frames', () => {
    expect(DEFAULT_MIN_INTERVAL).toBe(2);
  });

  it('no statistic reaches the ceiling: only the two end keys there', () => {
    const r = lcg(7);
    const y = Float64Array.from({ length: 100 }, () => r());
    const prepared = prepareQuotients(y);
    expect(Array.from(selectKeysFrom(prepared, prepared.epsilonCeiling).keys)).toEqual([0, 99]);
    expect(selectKeysFrom(prepared, prepared.epsilonCeiling / 100).keys.length).toBeGreaterThan(2);
  });

  it('the range normalization: scaling a channel or shifting it does not change its keys', () => {
    const r = lcg(3);
    const y = Float64Array.from({ length: 150 }, (_, f) => Math.sin(f / 9) + 0.3 * Math.sin(f / 2.3) + 0.01 * r());
    const keys = Array.from(selectKeys(y, { epsilon: 1e-4 }));
    expect(Array.from(selectKeys(y.map((v) => 1000 * v - 7), { epsilon: 1e-4 }))).toEqual(keys);
    // An explicit scale replaces the range.
    expect(Array.from(selectKeys(y.map((v) => 1000 * v), { epsilon: 1e-4, scale: 1000 * range(y) }))).toEqual(keys);
  });
});

describe('selectKeys degenerate inputs', () => {
  it('0, 1, 2 and 3 frames', () => {
    expect(Array.from(selectKeys(new Float64Array(0), { epsilon: 0.1 }))).toEqual([]);
    expect(Array.from(selectKeys(Float64Array.of(4), { epsilon: 0.1 }))).toEqual([0]);
    expect(Array.from(selectKeys(Float64Array.of(4, 5), { epsilon: 0 }))).toEqual([0, 1]);
    expect(Array.from(selectKeys(Float64Array.of(4, 9, 5), { epsilon: 0 }))).toEqual([0, 2]);
    expect(Array.from(selectKeys(Float64Array.of(4, 9, 5, 1), { epsilon: 0, minInterval: 1 }))).toEqual([0, 3]);
  });

  it('a constant channel and a ramp: the two ends at any ε', () => {
    for (const epsilon of [0, 1e-9, 1]) {
      expect(Array.from(selectKeys(new Float64Array(40).fill(2.5), { epsilon }))).toEqual([0, 39]);
    }
    const ramp = Float64Array.from({ length: 40 }, (_, f) => 0.25 * f);
    expect(Array.from(selectKeys(ramp, { epsilon: 1e-9 }))).toEqual([0, 39]);
  });

  it('refuses bad input with an AnimationError naming the field', () => {
    const y = Float64Array.of(0, 1, 2, 3, 4);
    const cases: [() => unknown, string][] = [
      [() => selectKeys(Float64Array.of(0, Number.NaN, 1), { epsilon: 0.1 }), 'values[1]'],
      [() => selectKeys(y, { epsilon: -1 }), 'epsilon'],
      [() => selectKeys(y, { epsilon: Number.POSITIVE_INFINITY }), 'epsilon'],
      [() => selectKeys(y, { epsilon: 0.1, minInterval: 0 }), 'minInterval'],
      [() => selectKeys(y, { epsilon: 0.1, minInterval: 1.5 }), 'minInterval'],
      [() => selectKeys(y, { epsilon: 0.1, degree: 4 as 3 }), 'degree'],
      [() => selectKeys(y, { epsilon: 0.1, scale: 0 }), 'scale'],
    ];
    for (const [call, path] of cases) {
      let error: unknown;
      try { call(); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(AnimationError);
      expect((error as AnimationError).where).toBe('selectKeys');
      expect((error as AnimationError).issues[0]!.path).toBe(path);
    }
  });
});
