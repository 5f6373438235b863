import { describe, it, expect } from 'vitest';
import * as vec3 from '../../src/math/vec3.js';
import { expectClose, expectUntouched, placed, sentinels } from './helpers.js';

// Inputs live at offset 2 of a 7-float buffer, outputs at offset 3 of an 8-float buffer,
// everything else NaN, so a wrong offset shows up as NaN or as an overwritten sentinel.
const A = [1, 2, 3];
const B = [4, -5, 6];

describe('vec3', () => {
  it('set and copy write three floats at the offset', () => {
    const out = sentinels(8);
    vec3.set(out, 3, 1, 2, 3);
    expectClose(out, 3, [1, 2, 3]);
    expectUntouched(out, 3, 3);

    const copied = sentinels(8);
    vec3.copy(copied, 4, placed(7, 2, B), 2);
    expectClose(copied, 4, B);
    expectUntouched(copied, 4, 3);
  });

  it('add, sub, scale', () => {
    const a = placed(7, 2, A), b = placed(7, 2, B);
    const out = sentinels(8);
    vec3.add(out, 3, a, 2, b, 2);
    expectClose(out, 3, [5, -3, 9]);
    expectUntouched(out, 3, 3);
    vec3.sub(out, 3, a, 2, b, 2);
    expectClose(out, 3, [-3, 7, -3]);
    vec3.scale(out, 3, a, 2, -2);
    expectClose(out, 3, [-2, -4, -6]);
    expectUntouched(out, 3, 3);
  });

  it('lerp hits the ends and the midpoint', () => {
    const a = placed(7, 2, A), b = placed(7, 2, B);
    const out = sentinels(8);
    vec3.lerp(out, 3, a, 2, b, 2, 0);
    expectClose(out, 3, A);
    vec3.lerp(out, 3, a, 2, b, 2, 1);
    expectClose(out, 3, B);
    // (1 + 4)/2, (2 − 5)/2, (3 + 6)/2
    vec3.lerp(out, 3, a, 2, b, 2, 0.5);
    expectClose(out, 3, [2.5, -1.5, 4.5]);
    // a + 0.25·(3, −7, 3)
    vec3.lerp(out, 3, a, 2, b, 2, 0.25);
    expectClose(out, 3, [1.75, 0.25, 3.75]);
    expectUntouched(out, 3, 3);
  });

  it('dot, length, distance', () => {
    const a = placed(7, 2, A), b = placed(7, 2, B);
    // 4 − 10 + 18
    expect(vec3.dot(a, 2, b, 2)).toBeCloseTo(12, 6);
    expect(vec3.length(placed(5, 1, [2, 3, 6]), 1)).toBeCloseTo(7, 6);
    // |(−3, 7, −3)| = √67
    expect(vec3.distance(a, 2, b, 2)).toBeCloseTo(Math.sqrt(67), 6);
  });

  it('cross is right-handed', () => {
    const out = sentinels(8);
    vec3.cross(out, 3, placed(3, 0, [1, 0, 0]), 0, placed(3, 0, [0, 1, 0]), 0);
    expectClose(out, 3, [0, 0, 1]);
    vec3.cross(out, 3, placed(3, 0, [0, 0, 1]), 0, placed(3, 0, [1, 0, 0]), 0);
    expectClose(out, 3, [0, 1, 0]);
    // (2·6 − 3·(−5), 3·4 − 1·6, 1·(−5) − 2·4)
    vec3.cross(out, 3, placed(7, 2, A), 2, placed(7, 2, B), 2);
    expectClose(out, 3, [27, 6, -13]);
    expectUntouched(out, 3, 3);
  });

  it('normalize returns the original length', () => {
    const out = sentinels(8);
    const len = vec3.normalize(out, 3, placed(7, 2, [0, 3, -4]), 2);
    expect(len).toBeCloseTo(5, 6);
    expectClose(out, 3, [0, 0.6, -0.8]);
    expectUntouched(out, 3, 3);
  });

  it('normalize keeps a zero vector zero', () => {
    const out = sentinels(8);
    expect(vec3.normalize(out, 3, placed(7, 2, [0, 0, 0]), 2)).toBe(0);
    expectClose(out, 3, [0, 0, 0]);
    expectUntouched(out, 3, 3);
  });

  it('works on Float32Array pools', () => {
    const pool = new Float32Array(9).fill(Number.NaN);
    pool.set([1, 2, 3], 0);
    pool.set([4, -5, 6], 3);
    vec3.cross(pool, 6, pool, 0, pool, 3);
    expectClose(pool, 6, [27, 6, -13]);
  });

  describe('aliasing: out === a or out === b at the same offset matches a separate out', () => {
    const binary = {
      add: vec3.add,
      sub: vec3.sub,
      cross: vec3.cross,
      lerp: (o: Float64Array, oo: number, a: Float64Array, ao: number, b: Float64Array, bo: number) =>
        vec3.lerp(o, oo, a, ao, b, bo, 0.3),
    };
    for (const [name, fn] of Object.entries(binary)) {
      it(name, () => {
        const expected = sentinels(8);
        fn(expected, 3, placed(7, 2, A), 2, placed(7, 2, B), 2);

        const a = placed(8, 3, A);
        fn(a, 3, a, 3, placed(7, 2, B), 2);
        expectClose(a, 3, Array.from(expected.subarray(3, 6)));
        expectUntouched(a, 3, 3);

        const b = placed(8, 3, B);
        fn(b, 3, placed(7, 2, A), 2, b, 3);
        expectClose(b, 3, Array.from(expected.subarray(3, 6)));
        expectUntouched(b, 3, 3);

        // Both inputs and the output in one buffer, the output overlapping both.
        const shared = placed(8, 1, [...A, ...B]);
        fn(shared, 2, shared, 1, shared, 4);
        expectClose(shared, 2, Array.from(expected.subarray(3, 6)));
      });
    }

    it('copy, scale, normalize', () => {
      const a = placed(6, 2, A);
      vec3.copy(a, 2, a, 2);
      expectClose(a, 2, A);
      vec3.scale(a, 2, a, 2, 2);
      expectClose(a, 2, [2, 4, 6]);
      const len = vec3.normalize(a, 2, a, 2);
      expect(len).toBeCloseTo(Math.sqrt(56), 6);
      expectClose(a, 2, [1 / Math.sqrt(14), 2 / Math.sqrt(14), 3 / Math.sqrt(14)]);
      expectUntouched(a, 2, 3);
    });
  });
});
