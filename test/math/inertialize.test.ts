import { describe, it, expect } from 'vitest';
import {
  clampInertializeTime,
  halfLifeToDamping,
  inertializeAcceleration,
  inertializeCurve,
  inertializeVelocity,
  springDecay,
} from '../../src/math/inertialize.js';
import { createRandom } from '../fixtures/synthetic.js';
import { expectUntouched, sentinels } from './helpers.js';

const prng = createRandom; // mulberry32: seeded, so failures reproduce

/**
 * The seed's quintic, expanded and unclamped, as an independent oracle: returns x, x′, x″ at
 * t for a0 = (−8 v0 t1 − 20 x0) / t1² and the seed's A, B, C.
 */
function seedQuintic(x0: number, v0: number, t1: number, t: number): [number, number, number] {
  const a0 = (-8 * v0 * t1 - 20 * x0) / (t1 * t1);
  const A = -(a0 * t1 * t1 + 6 * v0 * t1 + 12 * x0) / (2 * t1 ** 5);
  const B = (3 * a0 * t1 * t1 + 16 * v0 * t1 + 30 * x0) / (2 * t1 ** 4);
  const C = -(3 * a0 * t1 * t1 + 12 * v0 * t1 + 20 * x0) / (2 * t1 ** 3);
  return [
    A * t ** 5 + B * t ** 4 + C * t ** 3 + (a0 / 2) * t * t + v0 * t + x0,
    5 * A * t ** 4 + 4 * B * t ** 3 + 3 * C * t * t + a0 * t + v0,
    20 * A * t ** 3 + 12 * B * t * t + 6 * C * t + a0,
  ];
}

/** The velocity after rule 4: in the x0 ≥ 0 frame, a v0 heading away from 0 becomes 0. */
/** The curve's starting velocity: v0 itself, whichever way it heads (rule 4 keeps a v0 heading away). */
function clampedV0(_x0: number, v0: number): number {
  return v0;
}

const N = 10_000;

/** 10,000 seeded draws: x0 ∈ [−2, 2], v0 ∈ [−20, 20], t1 ∈ [0.05, 1]. */
function randomCases(seed: number): Float64Array {
  const rand = prng(seed);
  const cases = new Float64Array(3 * N);
  for (let i = 0; i < N; i++) {
    cases[3 * i] = -2 + 4 * rand();
    cases[3 * i + 1] = -20 + 40 * rand();
    cases[3 * i + 2] = 0.05 + 0.95 * rand();
  }
  return cases;
}

describe('inertializeCurve', () => {
  it('matches a hand derivation of the seed quintic for x0 = 1, v0 = 0, t1 = 1', () => {
    // a0 = (−8·0·1 − 20·1)/1² = −20, so
    // A = −(−20 + 0 + 12)/2 = 4, B = (−60 + 0 + 30)/2 = −15, C = −(−60 + 0 + 20)/2 = 20,
    // x(t) = 4t⁵ − 15t⁴ + 20t³ − 10t² + 1 (= (1 − t)⁴ (1 + 4t)).
    // x(0.5) = 4/32 − 15/16 + 20/8 − 10/4 + 1 = 0.125 − 0.9375 + 2.5 − 2.5 + 1 = 0.1875.
    expect(inertializeCurve(1, 0, 1, 0.5)).toBeCloseTo(0.1875, 12);
    // x′(t) = 20t⁴ − 60t³ + 60t² − 20t; x′(0.5) = 1.25 − 7.5 + 15 − 10 = −1.25.
    expect(inertializeVelocity(1, 0, 1, 0.5)).toBeCloseTo(-1.25, 12);
    // x″(t) = 80t³ − 180t² + 120t − 20; x″(0.5) = 10 − 45 + 60 − 20 = 5; x″(0) = a0 = −20.
    expect(inertializeAcceleration(1, 0, 1, 0.5)).toBeCloseTo(5, 12);
    expect(inertializeAcceleration(1, 0, 1, 0)).toBeCloseTo(-20, 12);
  });

  it('matches a hand derivation with a starting velocity: x0 = 1, v0 = −2, t1 = 1', () => {
    // No clamp: −5·1/−2 = 2.5 > 1. a0 = (16 − 20)/1 = −4, so
    // A = −(−4 − 12 + 12)/2 = 2, B = (−12 − 32 + 30)/2 = −7, C = −(−12 − 24 + 20)/2 = 8,
    // x(t) = 2t⁵ − 7t⁴ + 8t³ − 2t² − 2t + 1.
    // x(0.5) = 2/32 − 7/16 + 8/8 − 2/4 − 1 + 1 = 0.0625 − 0.4375 + 1 − 0.5 = 0.125.
    expect(clampInertializeTime(1, -2, 1)).toBe(1);
    expect(inertializeCurve(1, -2, 1, 0.5)).toBeCloseTo(0.125, 12);
    // By symmetry the mirrored case gives the mirrored value.
    expect(inertializeCurve(-1, 2, 1, 0.5)).toBeCloseTo(-0.125, 12);
  });

  it('clamps t1 to −5 x0 / v0: x0 = 1, v0 = −10, t1 = 1 → 0.5', () => {
    expect(clampInertializeTime(1, -10, 1)).toBe(0.5);
    expect(clampInertializeTime(-1, 10, 1)).toBe(0.5);
    // Inactive when t1 is already shorter, or when v0 does not head towards 0.
    expect(clampInertializeTime(1, -10, 0.4)).toBe(0.4);
    expect(clampInertializeTime(1, 10, 1)).toBe(1);
    expect(clampInertializeTime(1, 0, 1)).toBe(1);
    for (let i = 0; i <= 20; i++) {
      const t = i / 20;
      expect(inertializeCurve(1, -10, 1, t)).toBe(inertializeCurve(1, -10, 0.5, t));
    }
    expect(inertializeCurve(1, -10, 1, 0.49)).toBeGreaterThan(0);
    expect(inertializeCurve(1, -10, 1, 0.5)).toBe(0);
    expect(inertializeCurve(1, -10, 1, 0.75)).toBe(0);
    // Why: the unclamped seed curve overshoots. At s = 0.9 its factored form is
    // (1 − 0.9)⁴ (1·(1 + 3.6) − 10·0.9) = 1e-4 · (−4.4) < 0.
    expect(seedQuintic(1, -10, 1, 0.9)[0]).toBeCloseTo(-4.4e-4, 12);
  });

  it('keeps a velocity heading away from 0: the curve starts with it, peaks past x0 (below x0 + 0.082·v0·t1) and returns without crossing 0', () => {
    expect(inertializeVelocity(1, 5, 1, 0)).toBe(5);
    expect(inertializeVelocity(-1, -5, 1, 0)).toBe(-5);
    expect(inertializeVelocity(-1, 3, 1, 0)).toBe(3);
    // By hand, x0 = 1, v0 = 5, t1 = 1: x(s) = (1 − s)⁴ (1 + 9s); at s = 0.1: 0.6561 · 1.9 = 1.24659.
    expect(inertializeCurve(1, 5, 1, 0.1)).toBeCloseTo(1.24659, 12);
    expect(inertializeCurve(-1, -5, 1, 0.1)).toBeCloseTo(-1.24659, 12);
    let peak = 0;
    for (let i = 0; i <= 1000; i++) {
      const x = inertializeCurve(1, 5, 1, i / 1000);
      expect(x).toBeGreaterThanOrEqual(0);
      peak = Math.max(peak, x);
    }
    // The peak: x′ = 0 at s = v0 / (20 x0 / t1 + 5 v0) = 5 / 45 = 1/9; x there = (8/9)⁴ · (1 + 4/9 + 5/9) = 2·(8/9)⁴ ≈ 1.24859.
    // (Its (1 − s)⁴(x0(1 + 4s)) part never exceeds x0, the (1 − s)⁴ w s part 0.08192 w.)
    expect(peak).toBeCloseTo(2 * (8 / 9) ** 4, 5);
    expect(peak).toBeLessThan(1 + 0.082 * 5);
  });

  it('has defined results for degenerate inputs', () => {
    const ts = [-1, 0, 0.1, 0.5, 1, 2];
    for (const t of ts) {
      for (const v0 of [-3, 0, 3]) {
        // x0 = 0: nothing to decay.
        expect(inertializeCurve(0, v0, 1, t)).toBe(0);
        expect(inertializeVelocity(0, v0, 1, t)).toBe(0);
        expect(inertializeAcceleration(0, v0, 1, t)).toBe(0);
        // t1 ≤ 0: a cut.
        expect(inertializeCurve(1.5, v0, 0, t)).toBe(0);
        expect(inertializeCurve(1.5, v0, -1, t)).toBe(0);
        expect(inertializeVelocity(1.5, v0, 0, t)).toBe(0);
        expect(inertializeAcceleration(1.5, v0, -1, t)).toBe(0);
      }
    }
    // t ≤ 0 holds the start; t ≥ t1 is 0.
    expect(inertializeCurve(0.7, -1, 0.3, -5)).toBe(0.7);
    expect(inertializeCurve(-0.7, 1, 0.3, 0)).toBe(-0.7);
    expect(inertializeCurve(0.7, -1, 0.3, 0.3)).toBe(0);
    expect(inertializeCurve(0.7, -1, 0.3, 10)).toBe(0);
    expect(inertializeVelocity(0.7, -1, 0.3, 10)).toBe(0);
    expect(inertializeAcceleration(0.7, -1, 0.3, 10)).toBe(0);
  });

  it('starts at (x0, clamped v0, a0) and ends at (0, 0, 0) at the clamped t1, on 10,000 cases', () => {
    const cases = randomCases(1);
    for (let i = 0; i < N; i++) {
      const x0 = cases[3 * i], v0raw = cases[3 * i + 1], t1raw = cases[3 * i + 2];
      const v0 = clampedV0(x0, v0raw);
      const t1 = clampInertializeTime(x0, v0raw, t1raw);
      const label = `case ${i}: x0=${x0} v0=${v0raw} t1=${t1raw}`;
      expect(t1, label).toBeGreaterThan(0);
      expect(t1, label).toBeLessThanOrEqual(t1raw);
      expect(inertializeCurve(x0, v0raw, t1raw, 0), label).toBe(x0);
      expect(inertializeVelocity(x0, v0raw, t1raw, 0), label).toBe(v0);
      const a0 = (-8 * v0 * t1 - 20 * x0) / (t1 * t1);
      const aScale = Math.abs(x0) / (t1 * t1) + Math.abs(v0) / t1;
      expect(Math.abs(inertializeAcceleration(x0, v0raw, t1raw, 0) - a0), label).toBeLessThanOrEqual(1e-12 * aScale);
      // At t1 itself the rule gives exact zeros …
      expect(inertializeCurve(x0, v0raw, t1raw, t1), label).toBe(0);
      expect(inertializeVelocity(x0, v0raw, t1raw, t1), label).toBe(0);
      expect(inertializeAcceleration(x0, v0raw, t1raw, t1), label).toBe(0);
      // … and the seed's own polynomial (clamped inputs) reaches zero there too, so the curve
      // is C² at t1, not cut off: x, x′, x″ of the expanded quintic all vanish up to rounding.
      const [xe, ve, ae] = seedQuintic(x0, v0, t1, t1);
      const xScale = Math.abs(x0) + Math.abs(v0) * t1;
      expect(Math.abs(xe), label).toBeLessThanOrEqual(1e-12 * xScale);
      expect(Math.abs(ve), label).toBeLessThanOrEqual((1e-12 * xScale) / t1);
      expect(Math.abs(ae), label).toBeLessThanOrEqual((1e-11 * xScale) / (t1 * t1));
    }
  });

  it('equals the seed quintic (expanded form) inside [0, t1], on 10,000 cases', () => {
    const cases = randomCases(2);
    for (let i = 0; i < N; i++) {
      const x0 = cases[3 * i], v0raw = cases[3 * i + 1], t1raw = cases[3 * i + 2];
      const v0 = clampedV0(x0, v0raw);
      const t1 = clampInertializeTime(x0, v0raw, t1raw);
      const xScale = Math.abs(x0) + Math.abs(v0) * t1;
      for (let k = 1; k < 8; k++) {
        const t = (k / 8) * t1;
        const [xe, ve, ae] = seedQuintic(x0, v0, t1, t);
        const label = `case ${i}, t=${t}`;
        expect(Math.abs(inertializeCurve(x0, v0raw, t1raw, t) - xe), label).toBeLessThanOrEqual(1e-12 * xScale);
        expect(Math.abs(inertializeVelocity(x0, v0raw, t1raw, t) - ve), label).toBeLessThanOrEqual((1e-12 * xScale) / t1);
        expect(Math.abs(inertializeAcceleration(x0, v0raw, t1raw, t) - ae), label)
          .toBeLessThanOrEqual((1e-11 * xScale) / (t1 * t1));
      }
    }
  });

  it('velocity and acceleration agree with central finite differences', () => {
    // h = 1e-5·t1. Truncation error is h²·x‴/6 ≈ 1e-10·t1²·(60·scale/t1³), rounding is
    // ≈ 1e-16·scale/h; both are far below the 1e-6 relative tolerance used here.
    const cases = randomCases(3);
    for (let i = 0; i < 1000; i++) {
      const x0 = cases[3 * i], v0raw = cases[3 * i + 1], t1raw = cases[3 * i + 2];
      const v0 = clampedV0(x0, v0raw);
      const t1 = clampInertializeTime(x0, v0raw, t1raw);
      const h = 1e-5 * t1;
      const vScale = Math.abs(x0) / t1 + Math.abs(v0);
      const aScale = vScale / t1;
      for (let k = 1; k < 10; k++) {
        const t = (k / 10) * t1;
        const label = `case ${i}, t=${t}`;
        const fdV = (inertializeCurve(x0, v0raw, t1raw, t + h) - inertializeCurve(x0, v0raw, t1raw, t - h)) / (2 * h);
        const fdA = (inertializeVelocity(x0, v0raw, t1raw, t + h) - inertializeVelocity(x0, v0raw, t1raw, t - h)) / (2 * h);
        expect(Math.abs(inertializeVelocity(x0, v0raw, t1raw, t) - fdV), label).toBeLessThanOrEqual(1e-6 * vScale);
        expect(Math.abs(inertializeAcceleration(x0, v0raw, t1raw, t) - fdA), label).toBeLessThanOrEqual(1e-6 * aScale);
      }
    }
  });

  it('in the x0 ≥ 0 frame never crosses 0; heading towards 0 it stays below x0 and decreases monotonically, heading away it rises once (below x0 + 0.082·v0·t1), then decreases; on 10,000 cases', () => {
    const cases = randomCases(4);
    const steps = 256;
    for (let i = 0; i < N; i++) {
      const x0 = cases[3 * i], v0 = cases[3 * i + 1], t1raw = cases[3 * i + 2];
      const sign = x0 < 0 ? -1 : 1;
      const ax0 = sign * x0;
      const away = sign * v0 > 0;
      const t1 = clampInertializeTime(x0, v0, t1raw);
      // Rounding slack: the curve is a sum of terms of size ≤ |x0| + |v0| t1.
      const eps = 1e-13 * (ax0 + Math.abs(v0) * t1);
      const top = away ? ax0 + 0.082 * sign * v0 * t1 : ax0;
      let prev = ax0, falling = !away;
      // The grid runs to 1.1·t1 to cover the join with the constant 0 tail.
      for (let k = 0; k <= steps; k++) {
        const t = (1.1 * k * t1) / steps;
        const y = sign * inertializeCurve(x0, v0, t1raw, t);
        if (y < prev - eps) falling = true;
        if (y < -eps || y > top + eps || (falling && y > prev + eps) || (!away && sign * inertializeVelocity(x0, v0, t1raw, t) > eps)) {
          expect.fail(`case ${i}: x0=${x0} v0=${v0} t1=${t1raw}, t=${t}: y=${y}, previous ${prev}`);
        }
        prev = y;
      }
    }
  });
});

/** RK4 on ẍ = −2y ẋ − y² x with `n` steps over `dt`; returns [x, v]. */
function integrateSpring(x: number, v: number, y: number, dt: number, n: number): [number, number] {
  const h = dt / n;
  const acc = (p: number, q: number): number => -2 * y * q - y * y * p;
  for (let i = 0; i < n; i++) {
    const k1x = v, k1v = acc(x, v);
    const k2x = v + 0.5 * h * k1v, k2v = acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const k3x = v + 0.5 * h * k2v, k3v = acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const k4x = v + h * k3v, k4v = acc(x + h * k3x, v + h * k3v);
    x += (h / 6) * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return [x, v];
}

describe('springDecay', () => {
  it('halfLifeToDamping is 4 ln2 / halfLife', () => {
    expect(halfLifeToDamping(1)).toBeCloseTo(4 * Math.LN2, 15);
    expect(halfLifeToDamping(0.25)).toBeCloseTo(16 * Math.LN2, 14);
  });

  it('after one half-life from rest the offset is (1 + 2 ln2)/4 ≈ 0.597, not exactly ½', () => {
    // y = 2 ln2 / h, so y·h = 2 ln2, e = ¼, j1 = x·y: x′ = ¼ (1 + 2 ln2) x,
    // v′ = ¼ (0 − x·y·y·h) = −¼ · 2 ln2 · y · x.
    const out = sentinels(4);
    springDecay(out, 1, 0, 0.2, 0.2);
    expect(out[0]).toBeCloseTo((1 + 2 * Math.LN2) / 4, 14);
    expect(out[1]).toBeCloseTo(-0.25 * 2 * Math.LN2 * ((2 * Math.LN2) / 0.2), 12);
    expectUntouched(out, 0, 2);
  });

  it('matches a tiny-step RK4 integration of ẍ = −2y ẋ − y² x', () => {
    const out = new Float64Array(2);
    const rand = prng(5);
    for (let i = 0; i < 50; i++) {
      const x = -2 + 4 * rand(), v = -20 + 40 * rand();
      const halfLife = 0.02 + 0.5 * rand(), dt = 0.001 + 0.3 * rand();
      springDecay(out, x, v, halfLife, dt);
      const y = halfLifeToDamping(halfLife) / 2;
      const [xi, vi] = integrateSpring(x, v, y, dt, 20_000);
      const scale = Math.abs(x) + Math.abs(v) / y;
      expect(Math.abs(out[0] - xi), `case ${i}`).toBeLessThanOrEqual(1e-10 * scale);
      expect(Math.abs(out[1] - vi), `case ${i}`).toBeLessThanOrEqual(1e-10 * scale * y);
    }
  });

  it('is exact for any dt: two steps of dt equal one step of 2 dt', () => {
    const one = new Float64Array(2), two = new Float64Array(2);
    const rand = prng(6);
    for (let i = 0; i < 1000; i++) {
      const x = -2 + 4 * rand(), v = -20 + 40 * rand();
      const halfLife = 0.01 + rand(), dt = 0.5 * rand();
      springDecay(two, x, v, halfLife, dt);
      springDecay(two, two[0], two[1], halfLife, dt);
      springDecay(one, x, v, halfLife, 2 * dt);
      const y = halfLifeToDamping(halfLife) / 2;
      const scale = Math.abs(x) + Math.abs(v) / y;
      expect(Math.abs(two[0] - one[0]), `case ${i}`).toBeLessThanOrEqual(1e-13 * scale);
      expect(Math.abs(two[1] - one[1]), `case ${i}`).toBeLessThanOrEqual(1e-13 * scale * y);
    }
  });

  it('decays towards 0', () => {
    const sv = new Float64Array(2);
    // From rest a critically damped spring never crosses 0: x falls monotonically.
    let x = 1.5, v = 0;
    for (let frame = 0; frame < 120; frame++) {
      springDecay(sv, x, v, 0.1, 1 / 60);
      expect(sv[0]).toBeLessThan(x);
      expect(sv[0]).toBeGreaterThan(0);
      x = sv[0];
      v = sv[1];
    }
    expect(x).toBeLessThan(1e-5);
    // Moving away from 0 it first overshoots outwards, then comes back.
    springDecay(sv, 1, 10, 0.1, 0.02);
    expect(sv[0]).toBeGreaterThan(1);
    springDecay(sv, 1, 10, 0.1, 5);
    expect(Math.abs(sv[0])).toBeLessThan(1e-12);
    expect(Math.abs(sv[1])).toBeLessThan(1e-12);
  });

  it('has defined results for degenerate inputs and may alias its inputs via out', () => {
    const out = sentinels(4);
    springDecay(out, 0.3, -2, 0.1, 0);
    expect([out[0], out[1]]).toEqual([0.3, -2]);
    springDecay(out, 0.3, -2, 0, 1 / 60);
    expect([out[0], out[1]]).toEqual([0, 0]);
    springDecay(out, 0.3, -2, -1, 1 / 60);
    expect([out[0], out[1]]).toEqual([0, 0]);
    springDecay(out, 0.3, -2, 1e-300, 1 / 60);
    expect([out[0], out[1]]).toEqual([0, 0]);
    springDecay(out, 0.3, -2, Infinity, 0.5);
    expect(out[0]).toBeCloseTo(-0.7, 14);
    expect(out[1]).toBe(-2);
    expectUntouched(out, 0, 2);
    // Feeding out[0], out[1] back in is safe: inputs are scalars read before the writes.
    const state = new Float64Array([1, 0]);
    springDecay(state, state[0], state[1], 0.2, 0.2);
    expect(state[0]).toBeCloseTo((1 + 2 * Math.LN2) / 4, 14);
  });
});
