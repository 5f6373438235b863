import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solveStrideScales, STRIDE_INPUT_STRIDE } from '../../src/kernels.js';

/** Packs clips `[w, ex, ez, ownSpeed]` into the kernel's input. */
function pack(clips: number[][]): Float64Array {
  const input = new Float64Array(clips.length * STRIDE_INPUT_STRIDE);
  clips.forEach((clip, i) => input.set(clip, i * STRIDE_INPUT_STRIDE));
  return input;
}

function solve(clips: number[][], dx: number, dz: number): Float64Array {
  const out = new Float64Array(clips.length);
  solveStrideScales(out, pack(clips), clips.length, Float64Array.of(dx, dz));
  return out;
}

/** Blended velocity Σ wᵢ sᵢ eᵢ / Σ wᵢ. */
function blended(clips: number[][], scales: Float64Array): [number, number] {
  let w = 0, x = 0, z = 0;
  clips.forEach(([wi, ex, ez], i) => { w += wi!; x += wi! * scales[i]! * ex!; z += wi! * scales[i]! * ez!; });
  return [x / w, z / w];
}

describe('solveStrideScales', () => {
  it("appendix 3: A (+Z, 2 m/s) and B (+X, 4 m/s) half and half along 45° → A ×1.8856, B ×0.94281", () => {
    const clips = [[0.5, 0, 2, 2], [0.5, 4, 0, 4]];
    const scales = solve(clips, 0.7071, 0.7071);
    expect(scales[0]).toBeCloseTo((8 / 3) * Math.SQRT1_2 / 1, 6);
    expect(scales[1]).toBeCloseTo((8 / 3) * Math.SQRT1_2 / 2, 6);
    // Speed at rate 1 = harmonic mean 1 / (0.5/2 + 0.5/4) = 8/3, so 4 m/s needs rate 1.5.
    const [x, z] = blended(clips, scales);
    expect(Math.hypot(x, z)).toBeCloseTo(8 / 3, 9);
    expect(Math.atan2(z, x)).toBeCloseTo(Math.PI / 4, 9);
  });

  it('two or three clips in different directions: the blend goes along d at the share × harmonic mean speed', () => {
    const clip = fc.tuple(fc.double({ min: 0.05, max: 1, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0.3, max: 5, noNaN: true }));
    fc.assert(
      fc.property(fc.array(clip, { minLength: 2, maxLength: 3 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (raw, pick, idle) => {
        // d inside the cone of the first two clips, so no scale needs to go negative.
        const [w0, a0, s0] = raw[0]!, [w1, a1raw, s1] = raw[1]!;
        const a1 = a0 + 0.3 + (a1raw / (2 * Math.PI)) * 2.2; // 17°…143° apart
        const clips = [[w0, s0 * Math.cos(a0), s0 * Math.sin(a0), s0], [w1, s1 * Math.cos(a1), s1 * Math.sin(a1), s1]];
        if (raw[2]) clips.push([raw[2][0] * 0.2, raw[2][2] * Math.cos(a0 + pick * (a1 - a0)), raw[2][2] * Math.sin(a0 + pick * (a1 - a0)), raw[2][2]]);
        clips.push([idle, 0, 0, 0]); // an idle clip: no travel, weight counts
        const heading = a0 + pick * (a1 - a0);
        const scales = solve(clips, Math.cos(heading), Math.sin(heading));
        const [x, z] = blended(clips, scales);
        const travelling = clips.slice(0, -1);
        const wt = travelling.reduce((sum, c) => sum + c[0]!, 0);
        const harmonic = wt / travelling.reduce((sum, c) => sum + c[0]! / c[3]!, 0);
        const expected = (wt / (wt + idle)) * harmonic;
        expect(Math.hypot(x, z) / expected).toBeCloseTo(1, 9);
        expect(Math.abs(Math.sin(Math.atan2(z, x) - heading))).toBeLessThan(1e-9);
        expect(Math.cos(Math.atan2(z, x) - heading)).toBeGreaterThan(0);
        expect(scales[clips.length - 1]).toBe(1); // idle untouched
      }),
      { numRuns: 300 },
    );
  });

  it('clips along one line are each scaled to the same speed (the seed: equal travel at one rate)', () => {
    const clips = [[0.25, 0, 1.4, 1.4], [0.75, 0, 3.5, 3.5]];
    const scales = solve(clips, 0, 0); // no commanded direction: keep theirs
    expect(scales[0]! * 1.4).toBeCloseTo(scales[1]! * 3.5, 9);
    const harmonic = 1 / (0.25 / 1.4 + 0.75 / 3.5);
    expect(scales[0]! * 1.4).toBeCloseTo(harmonic, 9);
  });

  it('a clip running against d gets scale 0, not a negative one; nothing travelling → all 1', () => {
    const scales = solve([[0.5, 0, 2, 2], [0.5, 0, -2, 2]], 0, 1);
    expect(scales[1]).toBe(0);
    expect(scales[0]! * 2 * 0.5).toBeCloseTo(2, 9); // the forward clip alone carries the speed
    expect(Array.from(solve([[1, 0, 0, 0], [0.5, 1e-9, 0, 1e-9]], 1, 0))).toEqual([1, 1]);
  });
});
