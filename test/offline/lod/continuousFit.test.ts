import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnimationError } from '../../../src/assets/AnimationError.js';
import { selectKeysWithOrders } from '../../../src/offline/lod/atkins.js';
import { defaultErrorDistance, measureModelError } from '../../../src/offline/lod/modelError.js';
import { reduceChannel } from '../../../src/offline/lod/reduceChannel.js';
import { reduceClip } from '../../../src/offline/lod/reduceClip.js';
import { evaluateSpline, fitSpline, keyTimes, measureSplineError, SPLINE_STRIDE } from '../../../src/offline/lod/spline.js';
import { loadRealClips } from '../../fixtures/realClips.js';
import { arbitraryPiecewise, lcg, mocapLike, range, samplePiecewise } from './curves.js';
import { ASSETS_URL } from '../../support/assets.js';

/** Value, first and second derivative (per second) of segment s at its start and at its end, from a b c d. */
function ends(c: Float64Array, keys: Uint32Array, frameRate: number, s: number) {
  const o = SPLINE_STRIDE * s;
  const a = c[o]!, b = c[o + 1]!, cc = c[o + 2]!, d = c[o + 3]!;
  const T = (keys[s + 1]! - keys[s]!) / frameRate;
  return {
    start: [a, b, 2 * cc],
    end: [a + T * (b + T * (cc + T * d)), b + T * (2 * cc + 3 * T * d), 2 * cc + 6 * T * d],
  };
}

/** Per interior key j: |jump| of the first and second derivative between segments j − 1 and j. */
function jumps(c: Float64Array, keys: Uint32Array, frameRate: number): { first: number[]; second: number[] } {
  const first = [0], second = [0];
  for (let j = 1; j + 1 < keys.length; j++) {
    const l = ends(c, keys, frameRate, j - 1).end, r = ends(c, keys, frameRate, j).start;
    first.push(Math.abs(l[1]! - r[1]!));
    second.push(Math.abs(l[2]! - r[2]!));
  }
  first.push(0); second.push(0);
  return { first, second };
}

/** The largest |first| and |second| derivative at any key end: the scale jumps are judged against. */
function derivativeScale(c: Float64Array, keys: Uint32Array, frameRate: number): [number, number] {
  let d1 = 0, d2 = 0;
  for (let s = 0; s + 1 < keys.length; s++) {
    const e = ends(c, keys, frameRate, s);
    d1 = Math.max(d1, Math.abs(e.start[1]!), Math.abs(e.end[1]!));
    d2 = Math.max(d2, Math.abs(e.start[2]!), Math.abs(e.end[2]!));
  }
  return [d1, d2];
}

function sumOfSquares(y: Float64Array, frameRate: number, keys: Uint32Array, c: Float64Array): number {
  const times = keyTimes(keys, frameRate);
  let sum = 0;
  for (let f = 0; f < y.length; f++) sum += (evaluateSpline(c, times, f / frameRate) - y[f]!) ** 2;
  return sum;
}

/** Dense Gaussian elimination with partial pivoting (small test systems only). */
function solveDense(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(M[r]![i]!) > Math.abs(M[p]![i]!)) p = r;
    [M[i], M[p]] = [M[p]!, M[i]!];
    for (let r = i + 1; r < n; r++) {
      const f = M[r]![i]! / M[i]![i]!;
      for (let c = i; c <= n; c++) M[r]![c]! -= f * M[i]![c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = M[i]![n]!;
    for (let c = i + 1; c < n; c++) s -= M[i]![c]! * x[c]!;
    x[i] = s / M[i]![i]!;
  }
  return x;
}

/**
 * The constrained least-squares spline built independently, on the seed's own form
 * s(x) = s₋₁(x) + Σⱼ Σ_p c_{j,p}(x − xⱼ)₊^p: a cubic, plus at each interior key the truncated
 * powers its continuity allows (p = 3 at a C² key; 2, 3 at C¹; 1, 2, 3 at C⁰), minimising
 * Σ (y − s)² over every frame with s = y at every key (dense KKT). Returns s at every frame.
 */
function seedSpline(y: Float64Array, keys: Uint32Array, continuity: number[]): Float64Array {
  const n = y.length;
  const x = (f: number) => f / (n - 1); // normalised time keeps the powers well scaled
  const basis: ((f: number) => number)[] = [() => 1, (f) => x(f), (f) => x(f) ** 2, (f) => x(f) ** 3];
  for (let j = 1; j + 1 < keys.length; j++) {
    const k = x(keys[j]!);
    for (let p = continuity[j]! + 1; p <= 3; p++) basis.push((f) => (x(f) > k ? (x(f) - k) ** p : 0));
  }
  const m = basis.length, K = keys.length;
  const A: number[][] = Array.from({ length: m + K }, () => new Array<number>(m + K).fill(0));
  const b = new Array<number>(m + K).fill(0);
  for (let f = 0; f < n; f++) {
    const row = basis.map((g) => g(f));
    for (let i = 0; i < m; i++) {
      b[i]! += 2 * row[i]! * y[f]!;
      for (let c = 0; c < m; c++) A[i]![c]! += 2 * row[i]! * row[c]!;
    }
  }
  for (let j = 0; j < K; j++) {
    for (let i = 0; i < m; i++) {
      const v = basis[i]!(keys[j]!);
      A[m + j]![i] = v;
      A[i]![m + j] = v;
    }
    b[m + j] = y[keys[j]!]!;
  }
  const coefficients = solveDense(A, b).slice(0, m);
  return Float64Array.from({ length: n }, (_, f) => basis.reduce((s, g, i) => s + coefficients[i]! * g(f), 0));
}

describe("fitSpline with fit: 'continuous'", () => {
  it("is C¹ at C¹ and C² keys and C² at C² keys (from the coefficients, to 1e-9 of the curve's derivatives); C⁰ keys keep their jumps", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(24, 30, 60, 120), (seed, frameRate) => {
        const r = lcg(seed);
        const y = mocapLike(seed, 240, frameRate, 0.01);
        // Keys 6–20 frames apart, random orders 1–3.
        const keyList = [0];
        while (keyList[keyList.length - 1]! < 239 - 26) keyList.push(keyList[keyList.length - 1]! + 6 + Math.floor(r() * 15));
        keyList.push(239);
        const keys = Uint32Array.from(keyList);
        const orders = Uint8Array.from(keyList, (_, j) => (j === 0 || j === keyList.length - 1 ? 0 : 1 + Math.floor(r() * 3)));
        const c = fitSpline(y, frameRate, keys, { fit: 'continuous', orders });
        const [d1, d2] = derivativeScale(c, keys, frameRate);
        const { first, second } = jumps(c, keys, frameRate);
        const segment = jumps(fitSpline(y, frameRate, keys), keys, frameRate);
        for (let j = 1; j + 1 < keys.length; j++) {
          if (orders[j]! >= 2) expect(first[j]!).toBeLessThan(1e-9 * d1);
          if (orders[j]! >= 3) expect(second[j]!).toBeLessThan(1e-9 * d2);
          // The per-segment fit on the same noisy data does jump there: the check can fail.
          if (orders[j]! >= 3) expect(segment.second[j]!).toBeGreaterThan(1e-6 * d2);
        }
        // Where the order allows, the fit does break: some C⁰ key's slope jumps (noise makes them differ).
        const c0 = [...orders.keys()].filter((j) => j > 0 && j < keys.length - 1 && orders[j] === 1);
        if (c0.length >= 2) expect(Math.max(...c0.map((j) => first[j]!))).toBeGreaterThan(1e-6 * d1);
      }),
      { numRuns: 60 },
    );
  });

  it('passes through every key value: a exactly, the segment end to rounding', () => {
    const y = mocapLike(5, 300, 60, 0.02, true);
    const { keys } = selectKeysWithOrders(y, { epsilon: 1e-4 });
    expect(keys.length).toBeGreaterThan(20);
    const orders = Uint8Array.from(keys, (_, j) => 1 + (j % 3)); // C⁰, C¹, C² in turn
    const c = fitSpline(y, 60, keys, { fit: 'continuous', orders });
    for (let s = 0; s + 1 < keys.length; s++) {
      const e = ends(c, keys, 60, s);
      expect(e.start[0]).toBe(y[keys[s]!]);
      expect(Math.abs(e.end[0]! - y[keys[s + 1]!]!)).toBeLessThan(1e-12 * (1 + range(y)));
    }
  });

  it('reproduces a spline whose joins are those of the keys (knots on the keys, C², C¹, C⁰) within 1e-9 of its range, at and between frames', () => {
    fc.assert(
      fc.property(arbitraryPiecewise(), fc.constantFrom(24, 30, 60), (curve, frameRate) => {
        const y = samplePiecewise(curve);
        // A knot c·(f − k)₊^p joins C^{p−1}: the ATKINS order of that key is p.
        const keys = Uint32Array.from([0, ...curve.knots.map((k) => k.frame), y.length - 1]);
        const orders = Uint8Array.from([0, ...curve.knots.map((k) => k.power), 0]);
        const c = fitSpline(y, frameRate, keys, { fit: 'continuous', orders });
        const scale = range(y) || 1;
        expect(measureSplineError(y, frameRate, keys, c)).toBeLessThan(1e-9 * scale);
        const times = keyTimes(keys, frameRate);
        for (let s = 0; s + 1 < keys.length; s++) {
          const mid = (keys[s]! + keys[s + 1]! + 0.5) / 2;
          const [b0, b1, b2, b3] = curve.base;
          let exact = b0 + mid * (b1 + mid * (b2 + mid * b3));
          for (const k of curve.knots) if (mid > k.frame) exact += k.c * (mid - k.frame) ** k.power;
          expect(Math.abs(evaluateSpline(c, times, mid / frameRate) - exact)).toBeLessThan(1e-9 * scale);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('cannot reproduce a kink at a key declared C² (the constraint binds), but the per-segment fit can', () => {
    const y = Float64Array.from({ length: 61 }, (_, f) => Math.abs(f - 30) / 30);
    const keys = Uint32Array.of(0, 30, 60);
    expect(measureSplineError(y, 30, keys, fitSpline(y, 30, keys))).toBeLessThan(1e-12);
    const smooth = fitSpline(y, 30, keys, { fit: 'continuous', orders: Uint8Array.of(0, 3, 0) });
    expect(measureSplineError(y, 30, keys, smooth)).toBeGreaterThan(0.05);
    const kinked = fitSpline(y, 30, keys, { fit: 'continuous', orders: Uint8Array.of(0, 1, 0) });
    expect(measureSplineError(y, 30, keys, kinked)).toBeLessThan(1e-12);
  });

  it("is the seed's constrained least-squares spline: the same curve as a dense solve on truncated powers", () => {
    for (const seed of [1, 2, 3]) {
      const r = lcg(seed);
      const y = Float64Array.from({ length: 61 }, (_, f) => Math.sin(f / 7 + seed) + 0.3 * Math.cos(f / 3) + 0.05 * r());
      const keys = Uint32Array.of(0, 9, 20, 28, 41, 50, 60);
      const orders = Uint8Array.of(0, 3, 1, 3, 2, 3, 0);
      const continuity = Array.from(orders, (o) => o - 1);
      const expected = seedSpline(y, keys, continuity);
      const c = fitSpline(y, 30, keys, { fit: 'continuous', orders });
      const times = keyTimes(keys, 30);
      for (let f = 0; f < 61; f++) expect(Math.abs(evaluateSpline(c, times, f / 30) - expected[f]!)).toBeLessThan(1e-7);
    }
  });

  it('sits between the per-segment fit and any spline of its class in squared error; max error measured against the per-segment fit', () => {
    // Same keys: every continuous spline through the key values is also a per-segment
    // candidate, so the per-segment fit's squared error is never larger; and the interpolating
    // C² spline with natural ends (textbook tridiagonal solve here) is a continuous candidate.
    const ratiosOfMax: number[] = [];
    for (let seed = 1; seed <= 12; seed++) {
      const y = mocapLike(seed, 400, 60, 0);
      const keys = Uint32Array.from({ length: 41 }, (_, k) => Math.min(399, k * 10));
      const orders = new Uint8Array(keys.length).fill(3);
      const continuous = fitSpline(y, 60, keys, { fit: 'continuous', orders });
      const segment = fitSpline(y, 60, keys);
      const natural = naturalSpline(y, keys, 60);
      const e = (c: Float64Array) => sumOfSquares(y, 60, keys, c);
      expect(e(segment)).toBeLessThanOrEqual(e(continuous) * (1 + 1e-9));
      expect(e(continuous)).toBeLessThanOrEqual(e(natural) * (1 + 1e-9));
      ratiosOfMax.push(measureSplineError(y, 60, keys, continuous) / measureSplineError(y, 60, keys, segment));
    }
    // The largest error is not ordered by a theorem, only measured: with the same keys (every
    // 10 frames, all C²) on these smooth channels it is 7.8–16× the per-segment fit's. Through
    // the key values, a C² chain has 2 free parameters in all (its end slopes), where the
    // per-segment fit has 2 per segment: the continuous fit needs its keys closer.
    expect(Math.min(...ratiosOfMax)).toBeGreaterThan(5);
    expect(Math.max(...ratiosOfMax)).toBeLessThan(25);
  });

  it('with every key C⁰ it is the per-segment fit; degree 2 joins C¹ with d = 0; degree 1 is linear', () => {
    const y = mocapLike(9, 200, 30, 0.01);
    const keys = Uint32Array.of(0, 4, 7, 17, 40, 44, 90, 150, 199);
    const segment = fitSpline(y, 30, keys);
    const c0 = fitSpline(y, 30, keys, { fit: 'continuous', orders: new Uint8Array(keys.length).fill(1) });
    for (let i = 0; i < segment.length; i++) expect(Math.abs(c0[i]! - segment[i]!)).toBeLessThan(1e-9 * (1 + Math.abs(segment[i]!)));
    // Segments of one and two frames (no or one interior frame) fall back to the per-segment
    // line and quadratic: every frame interpolated, the same curve to 1e-6 between frames.
    const short = Uint32Array.of(0, 2, 3, 17, 40, 41, 90, 150, 199);
    const c0Short = fitSpline(y, 30, short, { fit: 'continuous', orders: new Uint8Array(short.length).fill(1) });
    const segmentShort = fitSpline(y, 30, short);
    const times = keyTimes(short, 30);
    for (let f = 0; f < 45; f += 0.25) {
      expect(Math.abs(evaluateSpline(c0Short, times, f / 30) - evaluateSpline(segmentShort, times, f / 30))).toBeLessThan(1e-6 * range(y));
    }
    const quadratic = fitSpline(y, 30, keys, { degree: 2, fit: 'continuous' }); // default orders: m = 2 → C¹
    const { first } = jumps(quadratic, keys, 30);
    const [d1] = derivativeScale(quadratic, keys, 30);
    for (let s = 0; s + 1 < keys.length; s++) expect(quadratic[SPLINE_STRIDE * s + 3]).toBe(0);
    for (const j of first) expect(j).toBeLessThan(1e-9 * d1);
    const linear = fitSpline(y, 30, keys, { degree: 1, fit: 'continuous' });
    expect(Array.from(linear)).toEqual(Array.from(fitSpline(y, 30, keys, { degree: 1 })));
  });

  it('refuses an unknown fit and orders of the wrong length', () => {
    const y = Float64Array.of(0, 1, 2, 3, 4);
    for (const [options, path] of [[{ fit: 'smooth' }, 'fit'], [{ fit: 'continuous', orders: Uint8Array.of(0, 0) }, 'orders']] as const) {
      let error: unknown;
      try { fitSpline(y, 30, Uint32Array.of(0, 2, 4), options as never); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(AnimationError);
      expect((error as AnimationError).issues[0]!.path).toBe(path);
    }
  });
});

/** The natural interpolating cubic spline through the key values (second derivative 0 at both ends), as a b c d. */
function naturalSpline(y: Float64Array, keys: Uint32Array, frameRate: number): Float64Array {
  const K = keys.length;
  const h = Array.from({ length: K - 1 }, (_, s) => (keys[s + 1]! - keys[s]!) / frameRate);
  const v = Array.from(keys, (k) => y[k]!);
  // Tridiagonal system for the second derivatives M (Thomas algorithm), M₀ = M_{K−1} = 0.
  const A = new Array<number>(K).fill(0), B = new Array<number>(K).fill(1), C = new Array<number>(K).fill(0), D = new Array<number>(K).fill(0);
  for (let j = 1; j < K - 1; j++) {
    A[j] = h[j - 1]!; B[j] = 2 * (h[j - 1]! + h[j]!); C[j] = h[j]!;
    D[j] = 6 * ((v[j + 1]! - v[j]!) / h[j]! - (v[j]! - v[j - 1]!) / h[j - 1]!);
  }
  for (let j = 1; j < K; j++) {
    const w = A[j]! / B[j - 1]!;
    B[j]! -= w * C[j - 1]!; D[j]! -= w * D[j - 1]!;
  }
  const M = new Array<number>(K).fill(0);
  M[K - 1] = D[K - 1]! / B[K - 1]!;
  for (let j = K - 2; j >= 0; j--) M[j] = (D[j]! - C[j]! * M[j + 1]!) / B[j]!;
  const out = new Float64Array(SPLINE_STRIDE * (K - 1));
  for (let s = 0; s < K - 1; s++) {
    const o = SPLINE_STRIDE * s;
    out[o] = v[s]!;
    out[o + 1] = (v[s + 1]! - v[s]!) / h[s]! - (h[s]! * (2 * M[s]! + M[s + 1]!)) / 6;
    out[o + 2] = M[s]! / 2;
    out[o + 3] = (M[s + 1]! - M[s]!) / (6 * h[s]!);
  }
  return out;
}

describe("reduceChannel with fit: 'continuous'", () => {
  it('never exceeds the tolerance and keeps each kept key\'s continuity (random mocap-like channels)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 3, max: 400 }), fc.double({ min: -4, max: -1, noNaN: true }),
        fc.boolean(), fc.boolean(),
        (seed, n, logTolerance, holds, merge) => {
          const y = mocapLike(seed, n, 60, 1e-3, holds);
          const tolerance = 10 ** logTolerance * (range(y) || 1);
          const reduced = reduceChannel(y, 60, tolerance, { fit: 'continuous', merge });
          expect(reduced.maxError).toBeLessThanOrEqual(tolerance);
          expect(measureSplineError(y, 60, reduced.keys, reduced.coefficients)).toBe(reduced.maxError);
          expect(reduced.orders.length).toBe(reduced.keys.length);
          if (reduced.keys.length < 3) return;
          const { first, second } = jumps(reduced.coefficients, reduced.keys, 60);
          const [d1, d2] = derivativeScale(reduced.coefficients, reduced.keys, 60);
          for (let j = 1; j + 1 < reduced.keys.length; j++) {
            if (reduced.orders[j]! >= 2) expect(first[j]!).toBeLessThanOrEqual(1e-9 * d1);
            if (reduced.orders[j]! >= 3) expect(second[j]!).toBeLessThanOrEqual(1e-9 * d2);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('its merge pass keeps the keys a global refit per key keeps (checked by brute force)', () => {
    for (const [seed, tolerance] of [[3, 1e-3], [4, 1e-2], [7, 3e-3]] as const) {
      const y = mocapLike(seed, 500, 60, 2e-4, seed === 4);
      const unmerged = reduceChannel(y, 60, tolerance, { fit: 'continuous', merge: false });
      const merged = reduceChannel(y, 60, tolerance, { fit: 'continuous' });
      // Brute force: drop keys left to right while the global refit stays within the tolerance.
      let keys = Array.from(unmerged.keys), orders = Array.from(unmerged.orders);
      for (let k = 1; k < keys.length - 1;) {
        const fewer = Uint32Array.from(keys.filter((_, i) => i !== k)), fewerOrders = Uint8Array.from(orders.filter((_, i) => i !== k));
        if (measureSplineError(y, 60, fewer, fitSpline(y, 60, fewer, { fit: 'continuous', orders: fewerOrders })) <= tolerance) {
          keys = Array.from(fewer); orders = Array.from(fewerOrders);
        } else k++;
      }
      expect(merged.keys.length).toBeLessThan(unmerged.keys.length);
      expect(Math.abs(merged.keys.length - keys.length)).toBeLessThanOrEqual(Math.ceil(0.02 * keys.length));
    }
  });

});

describe("reduceClip with fit: 'continuous' on real clips", () => {
  it('holds its tolerance on the Fox Walk and the CMU jumps (5 mm)', async () => {
    const clips = await loadRealClips(ASSETS_URL);
    for (const real of clips.filter((c) => (c.file === 'Fox.glb' && c.clip.name === 'Walk') || c.file.includes('forward_jumps'))) {
      const tolerance = 0.005 * real.unitsPerMetre;
      const reduced = reduceClip(real.clip, { tolerance, fit: 'continuous' });
      const error = measureModelError(real.clip, reduced, { distance: defaultErrorDistance(real.clip.skeleton) });
      expect(error.maxError, real.clip.name).toBeLessThanOrEqual(tolerance);
      // It still reduces: the CMU jumps keep 1/4.0 of their keys under the bound between frames
      // and the end-joint shell (1/4.6 before them).
      expect(reduced.stats!.keysAfter).toBeLessThan(reduced.stats!.keysBefore / 3);
    }
    let error: unknown;
    try { reduceClip(clips[0]!.clip, { tolerance: 0.1, fit: 'smooth' as 'segment' }); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).issues.map((i) => i.path)).toEqual(['fit']);
  }, 120_000);
});
