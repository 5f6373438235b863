import { describe, it, expect } from 'vitest';
import {
  applyFadeCurve,
  FADE_CURVE_KINDS,
  FADE_LINEAR,
  FADE_MINJERK,
  FADE_SMOOTHSTEP,
  fadeCurve,
  fadeCurveName,
  type FadeCurveName,
} from '../../src/math/fadeCurves.js';

const KINDS = [FADE_LINEAR, FADE_SMOOTHSTEP, FADE_MINJERK];

describe('fadeCurve', () => {
  it('kinds and names round-trip', () => {
    expect([FADE_LINEAR, FADE_SMOOTHSTEP, FADE_MINJERK]).toEqual([1, 2, 3]);
    const names: FadeCurveName[] = ['linear', 'smoothstep', 'minjerk', 'ease-in', 'ease-out'];
    for (const name of names) expect(fadeCurveName(FADE_CURVE_KINDS[name])).toBe(name);
    expect(Object.keys(FADE_CURVE_KINDS).sort()).toEqual([...names].sort());
    expect(fadeCurveName(0)).toBeUndefined();
    expect(fadeCurveName(6)).toBeUndefined();
    expect(Object.isFrozen(FADE_CURVE_KINDS)).toBe(true);
    // Null prototype: inherited names are not kinds.
    expect('toString' in FADE_CURVE_KINDS).toBe(false);
    expect('constructor' in FADE_CURVE_KINDS).toBe(false);
  });

  it('hits 0 and 1 at the ends, ½ at the midpoint, and clamps outside [0, 1]', () => {
    for (const kind of KINDS) {
      expect(fadeCurve(kind, 0)).toBe(0);
      expect(fadeCurve(kind, 1)).toBe(1);
      expect(fadeCurve(kind, 0.5)).toBeCloseTo(0.5, 15);
      expect(fadeCurve(kind, -3)).toBe(0);
      expect(fadeCurve(kind, 7)).toBe(1);
      expect(fadeCurve(kind, -Infinity)).toBe(0);
      expect(fadeCurve(kind, Infinity)).toBe(1);
    }
  });

  it('matches hand values at t = ¼', () => {
    expect(fadeCurve(FADE_LINEAR, 0.25)).toBe(0.25);
    // 3/16 − 2/64 = 12/64 − 2/64 = 10/64
    expect(fadeCurve(FADE_SMOOTHSTEP, 0.25)).toBeCloseTo(10 / 64, 15);
    // 6/1024 − 15/256 + 10/64 = (6 − 60 + 160)/1024 = 106/1024
    expect(fadeCurve(FADE_MINJERK, 0.25)).toBeCloseTo(106 / 1024, 15);
    // An unknown kind behaves as linear.
    expect(fadeCurve(99, 0.25)).toBe(0.25);
  });

  it('is antisymmetric about the midpoint and monotone', () => {
    const steps = 1000;
    for (const kind of KINDS) {
      let prev = 0;
      for (let i = 0; i <= steps; i++) {
        const t = i / steps;
        const f = fadeCurve(kind, t);
        expect(fadeCurve(kind, 1 - t) + f, `kind ${kind}, t=${t}`).toBeCloseTo(1, 14);
        expect(f, `kind ${kind}, t=${t}`).toBeGreaterThanOrEqual(prev);
        prev = f;
      }
    }
  });

  it('min-jerk has zero first and second derivatives at both ends', () => {
    // One-sided differences with h = 1e-4. For f = 6t⁵ − 15t⁴ + 10t³ the forward first
    // difference is ≈ 10h² = 1e-7 and the second ≈ f‴(0)·h = 60h = 6e-3 (truncation error of
    // a first-order formula), so the tolerances are 1e-6 and 1e-2. Smoothstep, with
    // f′(0) = 0 but f″(0) = 6, shows the second test can fail.
    const h = 1e-4;
    const d1 = (kind: number, t: number, s: number): number => (fadeCurve(kind, t + s * h) - fadeCurve(kind, t)) / (s * h);
    const d2 = (kind: number, t: number, s: number): number =>
      (fadeCurve(kind, t + 2 * s * h) - 2 * fadeCurve(kind, t + s * h) + fadeCurve(kind, t)) / (h * h);
    expect(Math.abs(d1(FADE_MINJERK, 0, 1))).toBeLessThan(1e-6);
    expect(Math.abs(d1(FADE_MINJERK, 1, -1))).toBeLessThan(1e-6);
    expect(Math.abs(d2(FADE_MINJERK, 0, 1))).toBeLessThan(1e-2);
    expect(Math.abs(d2(FADE_MINJERK, 1, -1))).toBeLessThan(1e-2);
    expect(Math.abs(d1(FADE_SMOOTHSTEP, 0, 1))).toBeLessThan(1e-3);
    expect(d2(FADE_SMOOTHSTEP, 0, 1)).toBeCloseTo(6, 2);
    expect(d1(FADE_LINEAR, 0, 1)).toBeCloseTo(1, 10);
  });
});

describe('applyFadeCurve', () => {
  it('replaces a time by fadeCurve at it, bit for bit, for every kind (and an unknown one), leaving the other entries', () => {
    const values = new Float64Array(3);
    for (const kind of [...Object.values(FADE_CURVE_KINDS), 99]) {
      for (const t of [-0.5, 0, 1e-9, 0.1, 0.25, 0.5, 0.7, 0.999, 1, 2, NaN]) {
        values.set([7, t, 9]);
        applyFadeCurve(values, 1, kind);
        expect(Object.is(values[1], fadeCurve(kind, t))).toBe(true);
        expect([values[0], values[2]]).toEqual([7, 9]);
      }
    }
  });
});
