import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
// Until src/index.ts exports them, the blend-space functions come from their module.
import { createBlendSpace, type BlendSpace, type BlendSpaceSample, type BlendSpaceType } from '../../src/index.js';
import { blendSpaceWeights, pickHemisphere } from '../../src/kernels.js';
import type { Clip } from '../../src/index.js';
import { refused } from '../fixtures/errors.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const skeleton = syntheticSkeleton(3);
const clips = Array.from({ length: 9 }, (_, n) => syntheticClip(skeleton, { seed: n + 2, frameCount: 5, name: `clip${n}` }));
const clip = (n: number): Clip => clips[n]!;

/** Samples at the given positions, clip n at position n. */
function at(...positions: Array<[number, number?]>): BlendSpaceSample[] {
  return positions.map(([x, y], n) => (y === undefined ? { clip: clip(n), x } : { clip: clip(n), x, y }));
}

/** The weights of one query, as a plain array of the space's sample count. */
function weights(space: BlendSpace, x: number, y = 0): number[] {
  const out = new Float64Array(space.clips.length);
  blendSpaceWeights(space, x, y, out);
  return Array.from(out);
}

function expectWeights(actual: number[], expected: number[], digits = 12): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((w, i) => expect(actual[i], `weight ${i}`).toBeCloseTo(w, digits));
}

/** Σ wᵢ·(xᵢ, yᵢ): the point the weights reproduce. */
function blendedPosition(space: BlendSpace, w: number[]): [number, number] {
  let x = 0;
  let y = 0;
  w.forEach((wi, i) => {
    x += wi * space.xs[i]!;
    y += wi * space.ys[i]!;
  });
  return [x, y];
}

const sum = (w: number[]): number => w.reduce((a, b) => a + b, 0);

describe("createBlendSpace '1d'", () => {
  // Input order shuffled: run (x = 4), idle (0), walk (1.5).
  const space = createBlendSpace({ type: '1d', samples: at([4], [0], [1.5]) });

  it('sorts the samples by x and keeps clips in input order', () => {
    expect(Array.from(space.order)).toEqual([1, 2, 0]);
    expect(space.clips).toEqual([clip(0), clip(1), clip(2)]);
    expect(Array.from(space.xs)).toEqual([4, 0, 1.5]);
    expect(Array.from(space.ys)).toEqual([0, 0, 0]);
    expect(space.triangles).toHaveLength(0);
    expect(space.hull).toHaveLength(0);
  });

  it('LERPs between the two neighbours', () => {
    // x = 1 between idle (0) and walk (1.5): u = 1 / 1.5 = 2/3 → idle 1/3, walk 2/3.
    expectWeights(weights(space, 1), [0, 1 / 3, 2 / 3]);
    // x = 2.75 between walk (1.5) and run (4): u = 1.25 / 2.5 = 0.5.
    expectWeights(weights(space, 2.75), [0.5, 0, 0.5]);
  });

  it('puts weight exactly 1 on a sample at its x', () => {
    expect(weights(space, 1.5)).toEqual([0, 0, 1]);
    expect(weights(space, 0)).toEqual([0, 1, 0]);
    expect(weights(space, 4)).toEqual([1, 0, 0]);
  });

  it('clamps x to the samples’ range', () => {
    expect(weights(space, -3)).toEqual([0, 1, 0]);
    expect(weights(space, 1e300)).toEqual([1, 0, 0]);
  });

  it('ignores y, and gives weight 1 on sample 0 for a non-finite x', () => {
    expect(weights(space, 1, Number.NaN)).toEqual(weights(space, 1, 0));
    for (const x of [Number.NaN, Infinity, -Infinity]) expect(weights(space, x)).toEqual([1, 0, 0]);
  });

  it('binary-searches many samples correctly', () => {
    const positions = Array.from({ length: 9 }, (_, n): [number] => [(n * 5) % 9]); // 0, 5, 1, 6, 2, 7, 3, 8, 4
    const big = createBlendSpace({ type: '1d', samples: at(...positions) });
    const random = createRandom(3);
    for (let q = 0; q < 200; q++) {
      const x = -1 + 10 * random();
      const w = weights(big, x);
      expect(sum(w)).toBeCloseTo(1, 12);
      expect(blendedPosition(big, w)[0]).toBeCloseTo(Math.min(8, Math.max(0, x)), 12);
      expect(w.filter((wi) => wi !== 0).length).toBeLessThanOrEqual(2);
      // The non-zero weights sit on neighbouring positions.
      const xsOn = w.flatMap((wi, i) => (wi !== 0 ? [big.xs[i]!] : []));
      if (xsOn.length === 2) expect(Math.abs(xsOn[0]! - xsOn[1]!)).toBe(1);
    }
  });

  it('writes only out[0 .. samples)', () => {
    const out = new Float64Array(5).fill(Number.NaN);
    blendSpaceWeights(space, 1, 0, out);
    expect(Array.from(out.subarray(3))).toEqual([Number.NaN, Number.NaN]);
    expect(sum(Array.from(out.subarray(0, 3)))).toBeCloseTo(1, 12);
  });
});

describe("createBlendSpace 'bilinear'", () => {
  // Corners given out of order: s0 (1, 2) = (x₁, y₁), s1 (−1, 0) = (x₀, y₀), s2 (−1, 2) = (x₀, y₁), s3 (1, 0) = (x₁, y₀).
  const space = createBlendSpace({ type: 'bilinear', samples: at([1, 2], [-1, 0], [-1, 2], [1, 0]) });

  it('identifies the corners', () => {
    expect(Array.from(space.order)).toEqual([1, 3, 2, 0]);
  });

  it('gives the two-step LERP weights at a hand-picked point', () => {
    // q = (0.5, 0.5): u = (0.5 − (−1)) / 2 = 0.75, v = (0.5 − 0) / 2 = 0.25.
    // Step 1 along x: B_AB = 0.25·A + 0.75·B (bottom edge), B_CD = 0.25·C + 0.75·D (top edge).
    // Step 2 along y: 0.75·B_AB + 0.25·B_CD, so
    //   A = (x₀, y₀) = s1: 0.25 · 0.75 = 0.1875    B = (x₁, y₀) = s3: 0.75 · 0.75 = 0.5625
    //   C = (x₀, y₁) = s2: 0.25 · 0.25 = 0.0625    D = (x₁, y₁) = s0: 0.75 · 0.25 = 0.1875
    const w = weights(space, 0.5, 0.5);
    expectWeights(w, [0.1875, 0.1875, 0.0625, 0.5625]);
    expect(sum(w)).toBeCloseTo(1, 14);
    const [x, y] = blendedPosition(space, w);
    expect(x).toBeCloseTo(0.5, 14);
    expect(y).toBeCloseTo(0.5, 14);
  });

  it('puts weight 1 on a corner and LERPs along an edge', () => {
    expect(weights(space, -1, 2)).toEqual([0, 0, 1, 0]);
    expect(weights(space, 1, 2)).toEqual([1, 0, 0, 0]);
    expectWeights(weights(space, 0, 0), [0, 0.5, 0, 0.5]); // bottom edge midpoint: A and B
  });

  it('clamps the query to the rectangle', () => {
    expect(weights(space, 5, -3)).toEqual([0, 0, 0, 1]); // beyond (x₁, y₀)
    expectWeights(weights(space, -7, 1), [0, 0.5, 0.5, 0]); // left of the x₀ edge, halfway up
  });

  it('gives weight 1 on sample 0 for a non-finite x or y', () => {
    expect(weights(space, Number.NaN, 0)).toEqual([1, 0, 0, 0]);
    expect(weights(space, 0, -Infinity)).toEqual([1, 0, 0, 0]);
  });
});

describe("createBlendSpace 'freeform'", () => {
  it('triangulates once, counter-clockwise with x right and y up', () => {
    const space = createBlendSpace({ type: 'freeform', samples: at([0, 0], [4, 0], [0, 4], [4, 4.5]) });
    expect(space.triangles.length).toBe(6);
    const area2 = (a: number, b: number, c: number): number =>
      (space.xs[b]! - space.xs[a]!) * (space.ys[c]! - space.ys[a]!) - (space.ys[b]! - space.ys[a]!) * (space.xs[c]! - space.xs[a]!);
    for (let t = 0; t < 2; t++) expect(area2(space.triangles[3 * t]!, space.triangles[3 * t + 1]!, space.triangles[3 * t + 2]!)).toBeGreaterThan(0);
    // Hull (0,0) → (4,0) → (4,4.5) → (0,4): the shoelace sum is positive.
    const h = Array.from(space.hull);
    expect(new Set(h)).toEqual(new Set([0, 1, 2, 3]));
    let shoelace = 0;
    h.forEach((a, k) => {
      const b = h[(k + 1) % h.length]!;
      shoelace += space.xs[a]! * space.ys[b]! - space.xs[b]! * space.ys[a]!;
    });
    expect(shoelace).toBeGreaterThan(0);
  });

  it('gives barycentric weights inside a triangle, derived by hand', () => {
    // Samples p0 (0, 0), p1 (4, 0), p2 (0, 4); q = (1, 1) = α·p0 + β·p1 + γ·p2 with
    // x: 4β = 1, y: 4γ = 1 → β = γ = 1/4, α = 1 − β − γ = 1/2.
    const space = createBlendSpace({ type: 'freeform', samples: at([0, 0], [4, 0], [0, 4]) });
    expectWeights(weights(space, 1, 1), [0.5, 0.25, 0.25]);
    // On the edge p1–p2 at (2, 2): α = 0, β = γ = 1/2.
    expectWeights(weights(space, 2, 2), [0, 0.5, 0.5]);
  });

  it('reproduces 1,000 random points inside the hull: Σ w·p = q, Σ w = 1, w ≥ 0, ≤ 3 non-zero', () => {
    const random = createRandom(17);
    const positions = Array.from({ length: 9 }, (): [number, number] => [4 * random() - 2, 4 * random() - 2]);
    const space = createBlendSpace({ type: 'freeform', samples: at(...positions) });
    const triangleCount = space.triangles.length / 3;
    for (let q = 0; q < 1000; q++) {
      // A uniform point of a random triangle: p = (1 − √r₁)a + √r₁(1 − r₂)b + √r₁·r₂·c.
      const t = Math.floor(random() * triangleCount);
      const [a, b, c] = [space.triangles[3 * t]!, space.triangles[3 * t + 1]!, space.triangles[3 * t + 2]!];
      const s = Math.sqrt(random());
      const r = random();
      const x = (1 - s) * space.xs[a]! + s * (1 - r) * space.xs[b]! + s * r * space.xs[c]!;
      const y = (1 - s) * space.ys[a]! + s * (1 - r) * space.ys[b]! + s * r * space.ys[c]!;
      const w = weights(space, x, y);
      expect(sum(w)).toBeCloseTo(1, 12);
      const [bx, by] = blendedPosition(space, w);
      expect(bx).toBeCloseTo(x, 12);
      expect(by).toBeCloseTo(y, 12);
      expect(Math.min(...w)).toBeGreaterThanOrEqual(0);
      expect(w.filter((wi) => wi !== 0).length).toBeLessThanOrEqual(3);
    }
  });

  describe('outside the hull', () => {
    // Triangle p0 (1, −1), p1 (1, 1), p2 (3, 0).
    const space = createBlendSpace({ type: 'freeform', samples: at([1, -1], [1, 1], [3, 0]) });

    it('projects onto the nearest edge: two weights', () => {
      // q = (3, 2), edge p1 → p2: d = (2, −1), q − p1 = (2, 1), t = (2·2 + 1·(−1)) / |d|² = 3/5,
      // so the nearest point is p1 + 0.6·d = (2.2, 0.4): 0.4 on p1, 0.6 on p2. The other
      // edges are farther (edge p0–p1 is the line x = 1, 2 away; p2 is √4 = 2 away, the edge
      // point √(0.8² + 1.6²) ≈ 1.79).
      expectWeights(weights(space, 3, 2), [0, 0.4, 0.6]);
    });

    it('projects onto the nearest vertex: one weight', () => {
      // q = (5, 0): q − p2 = (2, 0) points away from both edges at p2 (dot products with
      // p1 − p2 = (−2, 1) and p0 − p2 = (−2, −1) are −4 < 0), so t clamps to the vertex p2.
      expect(weights(space, 5, 0)).toEqual([0, 0, 1]);
      // q = (0, −3): nearest to p0; the edge p0–p1 clamps at t = 0, the edge p2 → p0 at t = 1.
      expect(weights(space, 0, -3)).toEqual([1, 0, 0]);
    });

    it('stays finite for huge finite queries', () => {
      for (const [x, y] of [[1e308, 1e308], [-1e308, 5], [1e200, -1e300]] as const) {
        const w = weights(space, x, y);
        expect(w.every(Number.isFinite)).toBe(true);
        expect(sum(w)).toBeCloseTo(1, 12);
      }
    });
  });

  describe('the origin', () => {
    it('as a sample: weight 1 on it', () => {
      const space = createBlendSpace({ type: 'freeform', samples: at([2, 0], [0, 0], [0, 2], [-1, -1]) });
      expect(weights(space, 0, 0)).toEqual([0, 1, 0, 0]);
    });

    it('inside a triangle', () => {
      // p0 (−2, −1), p1 (2, −1), p2 (0, 3): x: −2α + 2β = 0 → α = β; y: −α − β + 3γ = 0 →
      // γ = 2α/3; α + β + γ = 1 → 8α/3 = 1 → α = β = 3/8, γ = 1/4.
      const space = createBlendSpace({ type: 'freeform', samples: at([-2, -1], [2, -1], [0, 3]) });
      expectWeights(weights(space, 0, 0), [3 / 8, 3 / 8, 1 / 4]);
    });

    it('outside the hull, onto an edge and onto a vertex', () => {
      // Edge x = 1 from (1, −1) to (1, 1): the origin projects to its midpoint (1, 0).
      const edge = createBlendSpace({ type: 'freeform', samples: at([1, -1], [1, 1], [3, 0]) });
      expectWeights(weights(edge, 0, 0), [0.5, 0.5, 0]);
      // Triangle (1, 1), (3, 1), (1, 3): the origin's nearest hull point is the corner (1, 1).
      const corner = createBlendSpace({ type: 'freeform', samples: at([1, 1], [3, 1], [1, 3]) });
      expect(weights(corner, 0, 0)).toEqual([1, 0, 0]);
    });
  });

  describe('8 directions on a circle plus the centre (locomotion)', () => {
    // x lateral (+ right), y forward. s = √½. Sample 0 idle at the centre, then N, NE, E, …
    const s = Math.SQRT1_2;
    const ring: Array<[number, number]> = [[0, 1], [s, s], [1, 0], [s, -s], [0, -1], [-s, -s], [-1, 0], [-s, s]];
    const space = createBlendSpace({ type: 'freeform', samples: at([0, 0], ...ring) });

    it('fans 8 triangles around the centre', () => {
      expect(space.triangles.length / 3).toBe(8);
      for (let t = 0; t < 8; t++) expect(Array.from(space.triangles.subarray(3 * t, 3 * t + 3))).toContain(0);
      expect(new Set(space.hull)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
    });

    it('puts weight 1 on each sample at its position', () => {
      for (let i = 0; i < 9; i++) {
        const w = weights(space, space.xs[i]!, space.ys[i]!);
        expect(w[i]).toBe(1);
        expect(sum(w)).toBe(1);
      }
    });

    it('half speed forward: half idle, half forward', () => {
      expectWeights(weights(space, 0, 0.5), [0.5, 0.5, 0, 0, 0, 0, 0, 0, 0]);
    });

    it('between two directions: barycentric in the fan triangle, derived by hand', () => {
      // Direction 22.5° right of forward at speed 0.5. By symmetry β = γ on N and NE, and
      // q = β(N + NE) = β(s, 1 + s), |N + NE| = √(s² + (1 + s)²) = √(2 + √2), so
      // β = 0.5 / √(2 + √2) ≈ 0.2706 and idle gets 1 − 2β.
      const beta = 0.5 / Math.sqrt(2 + Math.SQRT2);
      const angle = Math.PI / 8;
      expectWeights(weights(space, 0.5 * Math.sin(angle), 0.5 * Math.cos(angle)), [1 - 2 * beta, beta, beta, 0, 0, 0, 0, 0, 0]);
    });

    it('faster than the samples: projected onto the ring', () => {
      // At 22.5°, speed 2 the nearest hull point is the midpoint of the N–NE edge.
      const angle = Math.PI / 8;
      expectWeights(weights(space, 2 * Math.sin(angle), 2 * Math.cos(angle)), [0, 0.5, 0.5, 0, 0, 0, 0, 0, 0]);
      // Straight backward at speed 3: the vertex S.
      expect(weights(space, 0, -3)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0]);
    });

    it('gives weight 1 on sample 0 for a non-finite query', () => {
      expect(weights(space, Infinity, 0)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(weights(space, 0.2, Number.NaN)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0]);
    });
  });

  it('leaves a sliver triangle to its neighbours and the hull, keeping results finite', () => {
    // Sample 2 sits 1e-13 above the edge (0, 0)–(2, 0), so the Delaunay triangle (0, 1, 2) has
    // 2 × area = 2e-13 < 1e-12 × extent² = 9e-12: its frame is NaN and it never claims a query.
    const space = createBlendSpace({ type: 'freeform', samples: at([0, 0], [2, 0], [1, 1e-13], [1, 3]) });
    expect(Array.from(space.triangleFrames).some(Number.isNaN)).toBe(true);
    const random = createRandom(5);
    for (let q = 0; q < 200; q++) {
      const x = 3 * random() - 0.5;
      const y = 2e-13 * (random() - 0.5);
      const w = weights(space, x, y);
      expect(w.every((wi) => Number.isFinite(wi) && wi >= 0)).toBe(true);
      expect(sum(w)).toBeCloseTo(1, 12);
      const [bx, by] = blendedPosition(space, w);
      expect(bx).toBeCloseTo(Math.min(2, Math.max(0, x)), 12);
      expect(by).toBeCloseTo(0, 12);
    }
  });
});

describe('createBlendSpace refuses', () => {
  const path = (fn: () => unknown): string[] => refused(fn).issues.map((i) => i.path);

  it('an unknown type', () => {
    const error = refused(() => createBlendSpace({ type: '3d' as BlendSpaceType, samples: at([0], [1]) }));
    expect(error.issues[0]!.path).toBe('type');
    expect(error.message).toMatch(/type is "3d": must be '1d', 'bilinear' or 'freeform'/);
    expect(path(() => createBlendSpace(null as never))).toEqual(['desc']);
    expect(path(() => createBlendSpace({ type: '1d', samples: 'walk' as never }))).toEqual(['samples']);
  });

  it('a sample count the type cannot use', () => {
    expect(refused(() => createBlendSpace({ type: '1d', samples: at([0]) })).message).toMatch(/samples has 1: a '1d' space needs at least 2/);
    for (const n of [3, 5]) {
      const samples = at(...Array.from({ length: n }, (_, i): [number, number] => [i % 2, i]));
      expect(refused(() => createBlendSpace({ type: 'bilinear', samples })).message).toMatch(new RegExp(`samples has ${n}: a 'bilinear' space needs exactly 4`));
    }
    expect(refused(() => createBlendSpace({ type: 'freeform', samples: at([0, 0], [1, 0]) })).message).toMatch(/samples has 2: a 'freeform' space needs at least 3/);
  });

  it('non-finite positions, naming the sample and field', () => {
    const samples = at([0, 0], [Number.NaN, 1], [1, Infinity], [2, 2]);
    expect(path(() => createBlendSpace({ type: 'freeform', samples }))).toEqual(['samples[1].x', 'samples[2].y']);
    expect(refused(() => createBlendSpace({ type: '1d', samples: at([0], [-Infinity]) })).message).toMatch(/samples\[1\]\.x is -Infinity: must be a finite number/);
    expect(path(() => createBlendSpace({ type: '1d', samples: [{ clip: clip(0), x: '1' as never }, { clip: clip(1), x: 2 }] }))).toEqual(['samples[0].x']);
  });

  it('a missing y in a 2D space, and a non-finite y even in 1D', () => {
    for (const type of ['bilinear', 'freeform'] as const) {
      const error = refused(() => createBlendSpace({ type, samples: at([0, 0], [1, 0], [0, 1], [1]) }));
      expect(error.issues.map((i) => i.path)).toEqual(['samples[3].y']);
      expect(error.message).toMatch(new RegExp(`samples\\[3\\]\\.y is missing: a '${type}' space is 2D`));
    }
    expect(path(() => createBlendSpace({ type: '1d', samples: at([0, Number.NaN], [1]) }))).toEqual(['samples[0].y']);
  });

  it('clips that are not Clips, and samples that are not objects', () => {
    const samples = [{ clip: clip(0), x: 0 }, { clip: { name: 'fake' } as unknown as Clip, x: 1 }, null as unknown as BlendSpaceSample];
    const error = refused(() => createBlendSpace({ type: '1d', samples }));
    expect(error.issues.map((i) => i.path)).toEqual(['samples[1].clip', 'samples[2]']);
    expect(error.message).toMatch(/samples\[1\]\.clip must be a Clip from createClip/);
  });

  it('duplicate positions (ties in 1D), naming both samples', () => {
    expect(refused(() => createBlendSpace({ type: '1d', samples: at([0], [1], [0]) })).message).toMatch(/samples\[2\] is at x = 0, the position of samples\[0\]/);
    expect(refused(() => createBlendSpace({ type: 'freeform', samples: at([0, 0], [1, 0], [0, 1], [1, 0]) })).message).toMatch(
      /samples\[3\] is at \(1, 0\), the position of samples\[1\]/,
    );
    expect(path(() => createBlendSpace({ type: 'bilinear', samples: at([0, 0], [1, 0], [0, 1], [0, 0]) }))).toEqual(['samples[3]']);
  });

  it('four samples that are not an axis-aligned rectangle', () => {
    // A trapezoid: samples 0 and 2 lie on no corner of the bounding box [−1, 1]².
    const rhombus = refused(() => createBlendSpace({ type: 'bilinear', samples: at([0, -1], [1, 1], [0, 1], [-1, -1]) }));
    expect(rhombus.issues.map((i) => i.path)).toEqual(['samples[0]', 'samples[2]']);
    expect(rhombus.message).toMatch(/samples\[0\] at \(0, -1\) is not a corner of the bounding box x ∈ \[-1, 1\], y ∈ \[-1, 1\]/);
    // All on one vertical line: no width.
    expect(refused(() => createBlendSpace({ type: 'bilinear', samples: at([0, 0], [0, 1], [0, 2], [0, 3]) })).message).toMatch(/samples all have x = 0/);
  });

  it('collinear freeform samples, naming them', () => {
    const error = refused(() => createBlendSpace({ type: 'freeform', samples: at([0, 0], [1, 1], [2, 2], [-3, -3]) }));
    expect(error.issues.map((i) => i.path)).toEqual(['samples']);
    expect(error.message).toMatch(/samples are collinear: samples\[0\] \(0, 0\), samples\[1\] \(1, 1\), samples\[2\] \(2, 2\), samples\[3\] \(-3, -3\) lie on one line/);
  });

  it('lists every fault of one call together', () => {
    const samples = [{ clip: clip(0), x: Number.NaN, y: 0 }, { clip: 7 as unknown as Clip, x: 1 }];
    expect(path(() => createBlendSpace({ type: 'freeform', samples }))).toEqual(['samples', 'samples[0].x', 'samples[1].clip', 'samples[1].y']);
  });
});

describe('pickHemisphere', () => {
  const s = Math.SQRT1_2;
  const forward = createBlendSpace({ type: 'freeform', samples: at([0, 0], [-1, 0], [-s, s], [0, 1], [s, s], [1, 0]) });
  const backward = createBlendSpace({ type: 'freeform', samples: at([0, 0], [-1, 0], [-s, -s], [0, -1], [s, -s], [1, 0]) });

  it('switches only past the hysteresis band', () => {
    expect(pickHemisphere(forward, backward, -0.06, 0)).toBe(1);
    expect(pickHemisphere(forward, backward, 0.06, 1)).toBe(0);
    // Inside ±0.05 the current choice stays.
    for (const y of [-0.05, -0.01, 0, 0.03, 0.05]) {
      expect(pickHemisphere(forward, backward, y, 0)).toBe(0);
      expect(pickHemisphere(forward, backward, y, 1)).toBe(1);
    }
    expect(pickHemisphere(forward, backward, Number.NaN, 1)).toBe(1);
  });

  it('follows a noisy velocity around y = 0 without flicker', () => {
    // y sweeps down through 0 with ±0.04 noise, then back up.
    const ys = [0.5, 0.2, 0.04, -0.03, 0.02, -0.04, -0.2, -0.5, -0.04, 0.03, -0.02, 0.04, 0.3];
    let hemisphere: 0 | 1 = 0;
    const picked = ys.map((y) => (hemisphere = pickHemisphere(forward, backward, y, hemisphere)));
    expect(picked).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0]);
  });

  it('takes a custom band, and a zero band switches on the sign', () => {
    expect(pickHemisphere(forward, backward, -0.2, 0, 0.25)).toBe(0);
    expect(pickHemisphere(forward, backward, -0.3, 0, 0.25)).toBe(1);
    expect(pickHemisphere(forward, backward, -1e-9, 0, 0)).toBe(1);
    expect(pickHemisphere(forward, backward, 0, 1, 0)).toBe(1);
  });

  it('picks the space whose samples the query then blends', () => {
    const out = new Float64Array(6);
    const h = pickHemisphere(forward, backward, -0.5, 0);
    blendSpaceWeights(h === 0 ? forward : backward, 0, -0.5, out);
    expectWeights(Array.from(out), [0.5, 0, 0, 0.5, 0, 0]); // half idle, half backward
  });
});

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('blendSpaceWeights allocates nothing', () => {
  const s = Math.SQRT1_2;
  const spaces = [
    createBlendSpace({ type: '1d', samples: at([4], [0], [1.5], [2.5], [6]) }),
    createBlendSpace({ type: 'bilinear', samples: at([1, 2], [-1, 0], [-1, 2], [1, 0]) }),
    createBlendSpace({ type: 'freeform', samples: at([0, 0], [0, 1], [s, s], [1, 0], [s, -s], [0, -1], [-s, -s], [-1, 0], [-s, s]) }),
  ];
  const QUERIES = 100_000;
  // Queries drawn before measuring: inside, outside, at a sample, non-finite. Held as heap
  // numbers (a generic array), so a call V8 does not inline passes them without boxing: the
  // measure is what blendSpaceWeights allocates, not the caller's boxing of its arguments.
  const random = createRandom(11);
  const qs: number[] = new Array<number>(2 * QUERIES).fill(null as unknown as number);
  for (let q = 0; q < 2 * QUERIES; q++) qs[q] = 4 * random() - 2;
  qs[0] = Number.NaN;
  qs[2] = 0;
  qs[3] = 1;
  const out = new Float64Array(9);
  const run = (space: BlendSpace, passes: number): void => {
    for (let pass = 0; pass < passes; pass++) {
      for (let q = 0; q < QUERIES; q++) blendSpaceWeights(space, qs[2 * q]!, qs[2 * q + 1]!, out);
    }
  };
  // Warm-up: until TurboFan has compiled (and, once the call site has seen all three types,
  // recompiled) the loop with the dispatcher inlined, the interpreter boxes every double.
  const warm = (): void => {
    for (let round = 0; round < 3; round++) for (const space of spaces) run(space, 1);
  };

  it('1e5 queries per type grow the heap by under 100 KB after GC', () => {
    warm();
    for (const space of spaces) {
      gc();
      const before = process.memoryUsage().heapUsed;
      run(space, 1);
      gc();
      expect(process.memoryUsage().heapUsed - before, space.type).toBeLessThan(100 * 1024);
    }
    expect(Array.from(out).every(Number.isFinite)).toBe(true);
  });

  it('1e6 queries per type allocate under 1 MB, garbage included', () => {
    // Growth after GC misses garbage, so this also counts what collections freed during the
    // run (as test/allocation.test.ts does). One boxed double per query would be 16 MB; the
    // ~100 KB seen per run is the test runner and the JIT, not the queries (it does not scale
    // with their number).
    warm();
    for (const space of spaces) {
      gc();
      const before = process.memoryUsage().heapUsed;
      const profiler = new GCProfiler();
      profiler.start();
      run(space, 10);
      const collections = profiler.stop()?.statistics ?? [];
      const freed = collections.reduce((total, c) => total + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
      const allocated = process.memoryUsage().heapUsed - before + freed;
      expect(allocated, space.type).toBeLessThan(1024 * 1024);
    }
  });
});

describe('createBlendSpace phaseOffset', () => {
  it('stores each offset wrapped into [0, 1), 0 when omitted, for every type', () => {
    // −0.25 ≡ 0.75, 1.5 ≡ 0.5, 3 ≡ 0 (cycles); all exact in float32.
    const line = createBlendSpace({
      type: '1d',
      samples: [{ clip: clip(0), x: 0, phaseOffset: 0.25 }, { clip: clip(1), x: 1, phaseOffset: -0.25 }, { clip: clip(2), x: 2, phaseOffset: 1.5 }, { clip: clip(3), x: 3, phaseOffset: 3 }, { clip: clip(4), x: 4 }],
    });
    expect(line.phaseOffsets).toBeInstanceOf(Float32Array);
    expect(Array.from(line.phaseOffsets)).toEqual([0.25, 0.75, 0.5, 0, 0]);
    const grid = createBlendSpace({ type: 'bilinear', samples: at([0, 0], [1, 0], [0, 1], [1, 1]).map((s, n) => ({ ...s, phaseOffset: n / 8 })) });
    expect(Array.from(grid.phaseOffsets)).toEqual([0, 0.125, 0.25, 0.375]);
    const free = createBlendSpace({ type: 'freeform', samples: at([0, 0], [1, 0], [0, 1]) });
    expect(Array.from(free.phaseOffsets)).toEqual([0, 0, 0]);
  });

  it('rounds to float32 as a layer stores it, and an offset just under a whole cycle to 0', () => {
    // 0.1 is not a float32; the layer that plays the clip holds fround(0.1). −1e-10 wraps to
    // 1 − 1e-10, below 1 as a double but 1 as a float32, so it is a whole cycle: 0.
    const space = createBlendSpace({ type: '1d', samples: [{ clip: clip(0), x: 0, phaseOffset: 0.1 }, { clip: clip(1), x: 1, phaseOffset: -1e-10 }] });
    expect(space.phaseOffsets[0]).toBe(Math.fround(0.1));
    expect(space.phaseOffsets[1]).toBe(0);
  });

  it('refuses an offset that is not a finite number, naming the sample', () => {
    const error = refused(() =>
      createBlendSpace({
        type: '1d',
        samples: [{ clip: clip(0), x: 0, phaseOffset: Number.NaN }, { clip: clip(1), x: 1, phaseOffset: 0.5 }, { clip: clip(2), x: 2, phaseOffset: Number.POSITIVE_INFINITY }, { clip: clip(3), x: 3, phaseOffset: '0.5' as unknown as number }],
      }),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['samples[0].phaseOffset', 'samples[2].phaseOffset', 'samples[3].phaseOffset']);
    expect(error.message).toBe(
      'createBlendSpace: samples[0].phaseOffset is NaN: must be a finite number (cycles); samples[2].phaseOffset is Infinity: must be a finite number (cycles); samples[3].phaseOffset is "0.5": must be a finite number (cycles)',
    );
  });
});
