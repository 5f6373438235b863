import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnimationError } from '../../../src/assets/AnimationError.js';
import { selectKeys } from '../../../src/offline/lod/atkins.js';
import { evaluateSpline, fitSpline, keyTimes, measureSplineError, SPLINE_STRIDE } from '../../../src/offline/lod/spline.js';
import { arbitraryPiecewise, lcg, range, samplePiecewise } from './curves.js';

/** Brute force: |evaluateSpline − value| at every frame time. */
function bruteError(values: Float64Array, frameRate: number, keys: Uint32Array, coefficients: Float64Array): number {
  const times = keyTimes(keys, frameRate);
  let max = 0;
  for (let f = 0; f < values.length; f++) max = Math.max(max, Math.abs(evaluateSpline(coefficients, times, f / frameRate) - values[f]!));
  return max;
}

describe('fitSpline', () => {
  it('reproduces a piecewise cubic keyed at its knots (C², C¹ and C⁰ joins) within 1e-6 of its range', () => {
    fc.assert(
      fc.property(arbitraryPiecewise(), fc.constantFrom(24, 30, 60, 120), (curve, frameRate) => {
        const y = samplePiecewise(curve);
        const keys = Uint32Array.from([0, ...curve.knots.map((k) => k.frame), y.length - 1]);
        const coefficients = fitSpline(y, frameRate, keys);
        expect(coefficients.length).toBe(SPLINE_STRIDE * (keys.length - 1));
        expect(measureSplineError(y, frameRate, keys, coefficients)).toBeLessThan(1e-6 * range(y));
        // And between frames: the polynomial of each piece, at the segment midpoints.
        const times = keyTimes(keys, frameRate);
        for (let s = 0; s + 1 < keys.length; s++) {
          const mid = (keys[s]! + keys[s + 1]!) / 2;
          const [b0, b1, b2, b3] = curve.base;
          let exact = b0 + mid * (b1 + mid * (b2 + mid * b3));
          for (const k of curve.knots) if (mid > k.frame) exact += k.c * (mid - k.frame) ** k.power;
          expect(Math.abs(evaluateSpline(coefficients, times, mid / frameRate) - exact)).toBeLessThan(1e-6 * range(y));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('passes through every key value: a exactly, the segment end to rounding (C⁰)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 200 }), (seed, n) => {
        const r = lcg(seed);
        const y = Float64Array.from({ length: n }, (_, f) => Math.sin(f / 5) + 0.2 * r());
        const keys = selectKeys(y, { epsilon: 1e-3 });
        const frameRate = 30;
        const c = fitSpline(y, frameRate, keys);
        for (let s = 0; s + 1 < keys.length; s++) {
          const o = SPLINE_STRIDE * s;
          expect(c[o]).toBe(y[keys[s]!]);
          const T = (keys[s + 1]! - keys[s]!) / frameRate;
          const end = c[o]! + T * (c[o + 1]! + T * (c[o + 2]! + T * c[o + 3]!));
          expect(Math.abs(end - y[keys[s + 1]!]!)).toBeLessThan(1e-12 * (1 + Math.abs(y[keys[s + 1]!]!)));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('is the least-squares fit through both keys: it matches the 2×2 normal equations in the monomial bubbles', () => {
    const r = lcg(11);
    const y = Float64Array.from({ length: 23 }, (_, f) => Math.cos(f / 4) + 0.05 * r());
    const keys = Uint32Array.of(0, 22);
    const c = fitSpline(y, 1, keys);
    // Brute force with φ₁ = s(1−s), φ₂ = s²(1−s): minimize Σ (e − αφ₁ − βφ₂)².
    let s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
    for (let f = 1; f < 22; f++) {
      const s = f / 22;
      const e = y[f]! - (y[0]! + (y[22]! - y[0]!) * s);
      const p1 = s * (1 - s), p2 = s * s * (1 - s);
      s11 += p1 * p1; s12 += p1 * p2; s22 += p2 * p2; r1 += p1 * e; r2 += p2 * e;
    }
    const det = s11 * s22 - s12 * s12;
    const alpha = (r1 * s22 - r2 * s12) / det, beta = (s11 * r2 - s12 * r1) / det;
    for (let f = 0; f <= 22; f++) {
      const s = f / 22;
      const expected = y[0]! + (y[22]! - y[0]!) * s + alpha * s * (1 - s) + beta * s * s * (1 - s);
      const u = f; // frame rate 1: u = frames
      expect(c[0]! + u * (c[1]! + u * (c[2]! + u * c[3]!))).toBeCloseTo(expected, 10);
    }
  });

  it('is nearly C¹ on smooth data: slopes either side of each key agree to a few per cent of the peak slope', () => {
    const frameRate = 60;
    const y = Float64Array.from({ length: 240 }, (_, f) => Math.sin((2 * Math.PI * f) / 80) + 0.4 * Math.sin((2 * Math.PI * f) / 33));
    const keys = selectKeys(y, { epsilon: 2e-5 });
    expect(keys.length).toBeGreaterThan(10);
    const c = fitSpline(y, frameRate, keys);
    let worst = 0;
    for (let s = 1; s + 1 < keys.length; s++) {
      const o = SPLINE_STRIDE * (s - 1);
      const T = (keys[s]! - keys[s - 1]!) / frameRate;
      const left = c[o + 1]! + T * (2 * c[o + 2]! + 3 * T * c[o + 3]!);
      const right = c[SPLINE_STRIDE * s + 1]!;
      worst = Math.max(worst, Math.abs(left - right));
    }
    // Peak slope ≈ 2π·60·(1/80 + 0.4/33) ≈ 9.3 per second.
    expect(worst).toBeLessThan(0.02 * 9.3);
  });

  it('short segments: one interior sample gives the quadratic through three, none the line', () => {
    const y = Float64Array.of(1, 4, 2, 7);
    const c = fitSpline(y, 10, Uint32Array.of(0, 2, 3));
    const times = keyTimes(Uint32Array.of(0, 2, 3), 10);
    for (let f = 0; f < 4; f++) expect(evaluateSpline(c, times, f / 10)).toBeCloseTo(y[f]!, 12);
    expect(c[3]).toBe(0); // β = 0 on the three-sample segment
    expect(Array.from(c.subarray(4))).toEqual([2, 50, 0, 0]); // the line 2 → 7 over 0.1 s
  });

  it('degree 2 reproduces a piecewise quadratic, degree 1 interpolates linearly', () => {
    const y = Float64Array.from({ length: 41 }, (_, f) => 0.5 * f * f - 3 * Math.max(0, f - 20) ** 2 + f);
    const keys = Uint32Array.of(0, 20, 40);
    const c2 = fitSpline(y, 30, keys, { degree: 2 });
    expect(measureSplineError(y, 30, keys, c2)).toBeLessThan(1e-9 * range(y));
    for (let s = 0; s < 2; s++) expect(c2[SPLINE_STRIDE * s + 3]).toBe(0);
    const c1 = fitSpline(y, 30, keys, { degree: 1 });
    const times = keyTimes(keys, 30);
    expect(evaluateSpline(c1, times, 10 / 30)).toBeCloseTo((y[0]! + y[20]!) / 2, 9);
  });

  it('one frame: one constant segment; no frames: no coefficients', () => {
    expect(Array.from(fitSpline(Float64Array.of(3.5), 30, Uint32Array.of(0)))).toEqual([3.5, 0, 0, 0]);
    expect(fitSpline(new Float64Array(0), 30, new Uint32Array(0)).length).toBe(0);
    expect(evaluateSpline(Float64Array.of(3.5, 0, 0, 0), Float64Array.of(0), 12)).toBe(3.5);
  });

  it('refuses keys that do not run 0 … n − 1 ascending, and a bad frame rate', () => {
    const y = Float64Array.of(0, 1, 2, 3, 4);
    const cases: [() => unknown, string][] = [
      [() => fitSpline(y, 30, Uint32Array.of(1, 4)), 'keys[0]'],
      [() => fitSpline(y, 30, Uint32Array.of(0, 3)), 'keys[1]'],
      [() => fitSpline(y, 30, Uint32Array.of(0, 2, 2, 4)), 'keys[2]'],
      [() => fitSpline(y, 30, new Uint32Array(0)), 'keys[0]'],
      [() => fitSpline(y, 0, Uint32Array.of(0, 4)), 'frameRate'],
      [() => fitSpline(y, Number.NaN, Uint32Array.of(0, 4)), 'frameRate'],
      [() => fitSpline(y, 30, Uint32Array.of(0, 4), { degree: 0 as 1 }), 'degree'],
    ];
    for (const [call, path] of cases) {
      let error: unknown;
      try { call(); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(AnimationError);
      expect((error as AnimationError).issues[0]!.path).toBe(path);
    }
  });
});

describe('evaluateSpline', () => {
  const frameRate = 24;
  const y = Float64Array.from({ length: 50 }, (_, f) => Math.sin(f / 6) * 2 + 0.01 * f * f);
  const keys = Uint32Array.of(0, 7, 15, 31, 49);
  const c = fitSpline(y, frameRate, keys);
  const times = keyTimes(keys, frameRate);

  it('returns the key values at the key times and clamps outside [t₀, t_last]', () => {
    for (let k = 0; k < keys.length; k++) expect(evaluateSpline(c, times, times[k]!)).toBeCloseTo(y[keys[k]!]!, 12);
    expect(evaluateSpline(c, times, -1)).toBe(y[0]);
    expect(evaluateSpline(c, times, 100)).toBeCloseTo(y[49]!, 12);
  });

  it('agrees with measureSplineError at every frame', () => {
    expect(measureSplineError(y, frameRate, keys, c)).toBeCloseTo(bruteError(y, frameRate, keys, c), 14);
  });

  it('evaluates the segment that holds t (binary search), u in seconds from its start', () => {
    for (let f = 0; f < 49; f++) {
      const t = (f + 0.37) / frameRate;
      let s = 0;
      while (s + 2 < keys.length && keys[s + 1]! <= f + 0.37) s++;
      const u = t - times[s]!;
      const o = SPLINE_STRIDE * s;
      expect(evaluateSpline(c, times, t)).toBeCloseTo(c[o]! + u * (c[o + 1]! + u * (c[o + 2]! + u * c[o + 3]!)), 12);
    }
  });
});

describe('measureSplineError between frames', () => {
  it('compares the curve with the straight line between frames at the subdivision instants', () => {
    // y = 0, 1, 0 keyed at 0 and 2: the quadratic through the three samples, p(s) = 4s(1 − s),
    // s = x/2 for x frames in: 2x − x² against the line x on [0, 1]: x − x², 0.24 at x = 0.4, 0.6
    // (4 subdivisions), 0.25 at x = 0.5 (1), 0 at the frames.
    const y = Float64Array.of(0, 1, 0);
    const keys = Uint32Array.of(0, 2);
    const c = fitSpline(y, 30, keys);
    expect(measureSplineError(y, 30, keys, c)).toBeLessThan(1e-12);
    expect(measureSplineError(y, 30, keys, c, 4)).toBeCloseTo(0.24, 12);
    expect(measureSplineError(y, 30, keys, c, 1)).toBeCloseTo(0.25, 12);
    // limit: stops once past it (with some error above it), else the full figure.
    expect(measureSplineError(y, 30, keys, c, 4, 0.1)).toBeGreaterThan(0.1);
    expect(measureSplineError(y, 30, keys, c, 4, 0.3)).toBeCloseTo(0.24, 12);
  });
});
