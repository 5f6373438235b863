import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MIN_JERK_DAMPING,
  MIN_JERK_EULER_LIMIT,
  MIN_JERK_FREQUENCY,
  MIN_JERK_REAL_ROOT,
  minJerk,
  minJerkEulerMatrix,
  minJerkQuintic,
  minJerkStepMatrix,
} from '../../src/math/minJerk.js';
import { expmTaylor, M, mul3, rk4 } from '../follow/reference.js';

/** The seed's C# easing, copied as written: clamp, then ((6t − 15)t + 10)t³. */
const seedEasing = (t: number): number => {
  const tc = Math.min(Math.max(t, 0), 1);
  return ((6 * tc - 15) * tc + 10) * tc * tc * tc;
};

/**
 * The seed's expanded general solution for duration 1 (its second form, not the α's):
 * x(s) = x0 + (xf − x0)(6s⁵ − 15s⁴ + 10s³) − v0(3s⁵ − 8s⁴ + 6s³ − s) − vf(3s⁵ − 7s⁴ + 4s³)
 *        − ½a0(s⁵ − 3s⁴ + 3s³ − s²) + ½af(s⁵ − 2s⁴ + s³),
 * used for duration T with s = t/T and the rates in units of T (v·T, a·T²).
 */
function seedExpanded(t: number, T: number, x0: number, v0: number, a0: number, xf: number, vf: number, af: number): number {
  const s = t / T;
  const w0 = v0 * T, wf = vf * T, b0 = a0 * T * T, bf = af * T * T;
  return (
    x0 +
    (xf - x0) * (6 * s ** 5 - 15 * s ** 4 + 10 * s ** 3) -
    w0 * (3 * s ** 5 - 8 * s ** 4 + 6 * s ** 3 - s) -
    wf * (3 * s ** 5 - 7 * s ** 4 + 4 * s ** 3) -
    0.5 * b0 * (s ** 5 - 3 * s ** 4 + 3 * s ** 3 - s ** 2) +
    0.5 * bf * (s ** 5 - 2 * s ** 4 + s ** 3)
  );
}

/**
 * Value, first and second derivative at `at` of the polynomial of degree ≤ 5 through
 * (nodes[j], values[j]) (Lagrange form: L′ = L·Σ 1/(at − sₘ), L″ = L·((Σ 1/(at − sₘ))² − Σ 1/(at − sₘ)²)).
 * Exact for a quintic, so it recovers the curve's end conditions from interior samples only.
 */
function lagrange(nodes: readonly number[], values: readonly number[], at: number): [number, number, number] {
  let f = 0, d1 = 0, d2 = 0;
  for (let j = 0; j < nodes.length; j++) {
    let L = 1, s1 = 0, s2 = 0;
    for (let m = 0; m < nodes.length; m++) {
      if (m === j) continue;
      L *= (at - nodes[m]!) / (nodes[j]! - nodes[m]!);
      s1 += 1 / (at - nodes[m]!);
      s2 += 1 / (at - nodes[m]!) ** 2;
    }
    f += values[j]! * L;
    d1 += values[j]! * L * s1;
    d2 += values[j]! * L * (s1 * s1 - s2);
  }
  return [f, d1, d2];
}

const rate = fc.double({ min: -10, max: 10, noNaN: true });
const duration = fc.double({ min: 0.05, max: 5, noNaN: true });

describe('minJerk (rest-to-rest easing)', () => {
  it('is 0 at 0, 1 at 1, ½ at ½, and clamps outside [0, 1]', () => {
    expect(minJerk(0)).toBe(0);
    expect(minJerk(1)).toBe(1);
    expect(minJerk(0.5)).toBe(0.5); // 6/32 − 15/16 + 10/8 = 0.5 exactly
    expect(minJerk(-2)).toBe(0);
    expect(minJerk(3)).toBe(1);
    expect(minJerk(-Infinity)).toBe(0);
    expect(minJerk(Infinity)).toBe(1);
    expect(minJerk(Number.NaN)).toBeNaN();
    // Hand values: t = ¼: 6/1024 − 15/256 + 10/64 = 106/1024; t = ¾: 1 − that by symmetry.
    expect(minJerk(0.25)).toBeCloseTo(106 / 1024, 15);
    expect(minJerk(0.75)).toBeCloseTo(918 / 1024, 15);
  });

  it("equals the seed's C# easing everywhere", () => {
    fc.assert(fc.property(fc.double({ min: -2, max: 3, noNaN: true }), (t) => Math.abs(minJerk(t) - seedEasing(t)) < 1e-15));
  });

  it('is symmetric: f(1 − t) = 1 − f(t)', () => {
    fc.assert(fc.property(fc.double({ min: -1, max: 2, noNaN: true }), (t) => Math.abs(minJerk(1 - t) - (1 - minJerk(t))) < 1e-14));
  });

  it('is monotone (non-decreasing everywhere, increasing on (0, 1))', () => {
    fc.assert(fc.property(fc.double({ min: -1, max: 2, noNaN: true }), fc.double({ min: -1, max: 2, noNaN: true }), (a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return minJerk(lo) <= minJerk(hi);
    }));
    let last = minJerk(0);
    for (let k = 1; k <= 1000; k++) {
      const now = minJerk(k / 1000);
      expect(now).toBeGreaterThan(last);
      last = now;
    }
  });

  it('starts and ends at rest (velocity and acceleration → 0 at both ends)', () => {
    // f′ = 30t²(1 − t)², f″ = 60t(1 − t)(1 − 2t): both O(ε) or smaller at ε from an end.
    const e = 1e-4;
    expect(minJerk(e) / e).toBeLessThan(1e-6);
    expect((1 - minJerk(1 - e)) / e).toBeLessThan(1e-6);
    expect(minJerk(2 * e) - 2 * minJerk(e)).toBeLessThan(1e-10); // second difference at 0
  });

  it('is the general quintic with the rates at 0', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (t) => Math.abs(minJerkQuintic(t, 1, 0, 0, 0, 1, 0, 0) - minJerk(t)) < 1e-14));
  });
});

describe('minJerkQuintic (general boundary conditions)', () => {
  it('meets all six boundary conditions (from interior samples, by exact quintic interpolation)', () => {
    // Six interior samples determine a quintic; its value, slope and curvature extrapolated to
    // 0 and T must be the requested start and end states. A seventh sample checks it is a
    // quintic at all (d⁶x/dt⁶ = 0, the seed's Euler–Poisson condition).
    const nodes = [0.1, 0.26, 0.42, 0.58, 0.74, 0.9];
    fc.assert(
      fc.property(duration, rate, rate, rate, rate, rate, rate, (T, x0, v0, a0, xf, vf, af) => {
        const values = nodes.map((s) => minJerkQuintic(s * T, T, x0, v0, a0, xf, vf, af));
        const scale = Math.max(1, Math.abs(x0), Math.abs(xf), Math.abs(v0 * T), Math.abs(vf * T), Math.abs(a0 * T * T), Math.abs(af * T * T));
        const [p0, d0, dd0] = lagrange(nodes, values, 0);
        const [p1, d1, dd1] = lagrange(nodes, values, 1);
        const tol = 1e-9 * scale;
        expect(Math.abs(p0 - x0)).toBeLessThan(tol);
        expect(Math.abs(p1 - xf)).toBeLessThan(tol);
        expect(Math.abs(d0 / T - v0) * T).toBeLessThan(tol);
        expect(Math.abs(d1 / T - vf) * T).toBeLessThan(tol);
        expect(Math.abs(dd0 / T ** 2 - a0) * T * T).toBeLessThan(tol);
        expect(Math.abs(dd1 / T ** 2 - af) * T * T).toBeLessThan(tol);
        const [p, ,] = lagrange(nodes, values, 0.5);
        expect(Math.abs(p - minJerkQuintic(0.5 * T, T, x0, v0, a0, xf, vf, af))).toBeLessThan(tol);
      }),
      { numRuns: 300 },
    );
  });

  it('meets them by finite differences at the ends too', () => {
    fc.assert(
      fc.property(duration, rate, rate, rate, rate, rate, rate, (T, x0, v0, a0, xf, vf, af) => {
        const x = (t: number): number => minJerkQuintic(t, T, x0, v0, a0, xf, vf, af);
        const h = 1e-4 * T;
        const scale = Math.max(1, Math.abs(x0), Math.abs(xf), Math.abs(v0 * T), Math.abs(vf * T), Math.abs(a0 * T * T), Math.abs(af * T * T));
        // One-sided second-order differences (the curve is clamped outside [0, T]).
        const v0fd = (-3 * x(0) + 4 * x(h) - x(2 * h)) / (2 * h);
        const vffd = (3 * x(T) - 4 * x(T - h) + x(T - 2 * h)) / (2 * h);
        const a0fd = (2 * x(0) - 5 * x(h) + 4 * x(2 * h) - x(3 * h)) / (h * h);
        const affd = (2 * x(T) - 5 * x(T - h) + 4 * x(T - 2 * h) - x(T - 3 * h)) / (h * h);
        expect(Math.abs(v0fd - v0) * T).toBeLessThan(1e-5 * scale);
        expect(Math.abs(vffd - vf) * T).toBeLessThan(1e-5 * scale);
        expect(Math.abs(a0fd - a0) * T * T).toBeLessThan(1e-4 * scale);
        expect(Math.abs(affd - af) * T * T).toBeLessThan(1e-4 * scale);
      }),
      { numRuns: 200 },
    );
  });

  it("equals the seed's expanded form inside [0, T]", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), duration, rate, rate, rate, rate, rate, rate, (s, T, x0, v0, a0, xf, vf, af) => {
        const scale = Math.max(1, Math.abs(x0), Math.abs(xf), Math.abs(v0 * T), Math.abs(vf * T), Math.abs(a0 * T * T), Math.abs(af * T * T));
        return Math.abs(minJerkQuintic(s * T, T, x0, v0, a0, xf, vf, af) - seedExpanded(s * T, T, x0, v0, a0, xf, vf, af)) < 1e-12 * scale;
      }),
    );
  });

  it('matches hand values', () => {
    // Rest to rest is an easing: halfway is halfway.
    expect(minJerkQuintic(1, 2, 3, 0, 0, 5, 0, 0)).toBeCloseTo(4, 14);
    // Leaving 0 at v0 = 1 and returning to 0 at rest, T = 1: x(½) = −(3/32 − 8/16 + 6/8 − ½) = 0.15625.
    expect(minJerkQuintic(0.5, 1, 0, 1, 0, 0, 0, 0)).toBeCloseTo(0.15625, 14);
    // T = 2 doubles the effect of v0 in normalised units: v0·T = 2 → 0.3125 at s = ½.
    expect(minJerkQuintic(1, 2, 0, 1, 0, 0, 0, 0)).toBeCloseTo(0.3125, 14);
  });

  it('clamps t to [0, T] and treats T ≤ 0 as arrived', () => {
    expect(minJerkQuintic(-1, 1, 2, 5, 7, 9, 1, 1)).toBe(2);
    expect(minJerkQuintic(1.5, 1, 2, 5, 7, 9, 1, 1)).toBe(9);
    expect(minJerkQuintic(0.3, 0, 2, 5, 7, 9, 1, 1)).toBe(9);
    expect(minJerkQuintic(0.3, -1, 2, 5, 7, 9, 1, 1)).toBe(9);
  });
});

describe('follower step matrices', () => {
  it('eigenvalues: the roots of the seed model’s characteristic polynomial λ³ + 9λ² + 36λ + 60', () => {
    const r = MIN_JERK_REAL_ROOT, p = MIN_JERK_DAMPING, q = MIN_JERK_FREQUENCY;
    expect(Math.abs(((r + 9) * r + 36) * r + 60)).toBeLessThan(1e-12);
    // Complex root λ = p + iq: real and imaginary parts of λ³ + 9λ² + 36λ + 60.
    const re2 = p * p - q * q, im2 = 2 * p * q;
    const re3 = re2 * p - im2 * q, im3 = re2 * q + im2 * p;
    expect(Math.abs(re3 + 9 * re2 + 36 * p + 60)).toBeLessThan(1e-11);
    expect(Math.abs(im3 + 9 * im2 + 36 * q)).toBeLessThan(1e-11);
    expect(r).toBeCloseTo(-3.63783, 5);
    expect(p).toBeCloseTo(-2.68108, 5);
    expect(q).toBeCloseTo(3.05043, 5);
    // Euler's limit: |1 + h(p + iq)| = 1 at h = −2p / (p² + q²).
    const h = MIN_JERK_EULER_LIMIT;
    expect(Math.hypot(1 + h * p, h * q)).toBeCloseTo(1, 12);
    expect(h).toBeCloseTo(0.3251, 4);
  });

  it('exp(h·M) equals a Taylor-series matrix exponential', () => {
    const out = new Float64Array(9), params = new Float64Array(1);
    for (const h of [1e-6, 0.001, 1 / 144 / 0.4, 0.05, 0.3, 0.625, 1, 2.5, 8]) {
      params[0] = h;
      minJerkStepMatrix(out, 0, params, 0);
      const expected = expmTaylor(h);
      for (let i = 0; i < 9; i++) expect(Math.abs(out[i]! - expected[i]!), `h = ${h}, entry ${i}`).toBeLessThan(1e-11 * Math.max(1, Math.abs(expected[i]!)));
    }
  });

  it('exp(h·M) advances the seed ODE exactly (against RK4 with tiny steps)', () => {
    const out = new Float64Array(9), params = new Float64Array(1);
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 3, noNaN: true }), duration, rate, rate, rate, rate, (h, T, x, v, a, xf) => {
        params[0] = h;
        minJerkStepMatrix(out, 0, params, 0);
        const e = x - xf, w = v * T, b = a * T * T;
        const exact = [
          xf + out[0]! * e + out[1]! * w + out[2]! * b,
          (out[3]! * e + out[4]! * w + out[5]! * b) / T,
          (out[6]! * e + out[7]! * w + out[8]! * b) / (T * T),
        ];
        const ref = rk4([x, v, a], xf, T, h * T, Math.ceil(h * 2000));
        const scale = Math.max(1, Math.abs(e), Math.abs(w), Math.abs(b));
        expect(Math.abs(exact[0]! - ref[0])).toBeLessThan(1e-9 * scale);
        expect(Math.abs(exact[1]! - ref[1]) * T).toBeLessThan(1e-9 * scale);
        expect(Math.abs(exact[2]! - ref[2]) * T * T).toBeLessThan(1e-8 * scale);
      }),
      { numRuns: 100 },
    );
  });

  it('is a semigroup: exp(aM)·exp(bM) = exp((a + b)M), and the identity at h = 0', () => {
    const A = new Float64Array(9), B = new Float64Array(9), C = new Float64Array(9), params = new Float64Array(1);
    for (const [a, b] of [[0.1, 0.2], [0.001, 0.9], [1e-9, 0.5], [2, 3]] as const) {
      params[0] = a; minJerkStepMatrix(A, 0, params, 0);
      params[0] = b; minJerkStepMatrix(B, 0, params, 0);
      params[0] = a + b; minJerkStepMatrix(C, 0, params, 0);
      const product = mul3(Array.from(A), Array.from(B));
      for (let i = 0; i < 9; i++) expect(Math.abs(product[i]! - C[i]!)).toBeLessThan(1e-12 * Math.max(1, Math.abs(C[i]!)));
    }
    for (const h of [0, -1, Number.NaN]) {
      params[0] = h;
      minJerkStepMatrix(A, 0, params, 0);
      expect(Array.from(A)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    }
    // Tiny h: I + h·M to first order, with roundoff far below a frame's worth of motion.
    params[0] = 1e-9;
    minJerkStepMatrix(A, 0, params, 0);
    for (let i = 0; i < 9; i++) expect(Math.abs(A[i]! - ((i % 4 === 0 ? 1 : 0) + 1e-9 * M[i]!))).toBeLessThan(1e-13);
  });

  it('writes at an offset and leaves the rest of the array alone', () => {
    const out = new Float64Array(13).fill(Number.NaN), params = new Float64Array([Number.NaN, 0.25]);
    minJerkStepMatrix(out, 2, params, 1);
    expect(Number.isNaN(out[0]!) && Number.isNaN(out[1]!) && Number.isNaN(out[11]!) && Number.isNaN(out[12]!)).toBe(true);
    const expected = expmTaylor(0.25);
    for (let i = 0; i < 9; i++) expect(out[2 + i]).toBeCloseTo(expected[i]!, 11);
    minJerkEulerMatrix(out, 2, params, 1);
    expect(Number.isNaN(out[1]!) && Number.isNaN(out[11]!)).toBe(true);
  });

  it("the Euler matrix is the seed's update x += dt·v, v += dt·a, a −= dt·(60/T³(x − xf) + 36/T² v + 9/T a)", () => {
    const out = new Float64Array(9), params = new Float64Array(1);
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 2, noNaN: true }), duration, rate, rate, rate, rate, (h, T, x, v, a, xf) => {
        params[0] = h;
        minJerkEulerMatrix(out, 0, params, 0);
        const dt = h * T;
        const seed = [x + dt * v, v + dt * a, a - dt * ((60 / T ** 3) * (x - xf) + (36 / T ** 2) * v + (9 / T) * a)];
        const e = x - xf, w = v * T, b = a * T * T;
        const ours = [
          xf + out[0]! * e + out[1]! * w + out[2]! * b,
          (out[3]! * e + out[4]! * w + out[5]! * b) / T,
          (out[6]! * e + out[7]! * w + out[8]! * b) / (T * T),
        ];
        const scale = Math.max(1, Math.abs(e), Math.abs(w), Math.abs(b)) * (1 + 60 * h);
        expect(Math.abs(ours[0]! - seed[0]!)).toBeLessThan(1e-12 * scale);
        expect(Math.abs(ours[1]! - seed[1]!) * T).toBeLessThan(1e-12 * scale);
        expect(Math.abs(ours[2]! - seed[2]!) * T * T).toBeLessThan(1e-12 * scale);
      }),
    );
    expect(M).toEqual([0, 1, 0, 0, 0, 1, -60, -36, -9]);
  });
});
