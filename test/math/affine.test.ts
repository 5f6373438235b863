import { describe, it, expect } from 'vitest';
import * as affine from '../../src/math/affine.js';
import { expectClose, expectUntouched, placed, S, sentinels } from './helpers.js';

const I = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];

// Pose t = (1, 2, 3), q = 90° about Z, s = (2, 3, 4).
const POSE = [1, 2, 3, 0, 0, S, S, 2, 3, 4];
// By hand: column j is R·(s_j·e_j), R = 90° about Z sends (x, y, z) to (−y, x, z):
//   R·(2, 0, 0) = (0, 2, 0), R·(0, 3, 0) = (−3, 0, 0), R·(0, 0, 4) = (0, 0, 4); t = (1, 2, 3).
const M = [0, 2, 0, -3, 0, 0, 0, 0, 4, 1, 2, 3];
// Inverse by hand: M3 sends e_x → 2e_y, e_y → −3e_x, e_z → 4e_z, so M3⁻¹ sends
// e_x → −e_y/3, e_y → e_x/2, e_z → e_z/4; translation −M3⁻¹·(1, 2, 3) = −(1, −1/3, 3/4).
// det = 2·3·4 (a rotation has det 1).
const M_INV = [0, -1 / 3, 0, 0.5, 0, 0, 0, 0, 0.25, -1, 1 / 3, -0.75];

// Matrices at offset 4 of a 20-float buffer (outputs at offset 5 of a 21-float buffer).
const at4 = (m: readonly number[]): Float64Array => placed(20, 4, m);

describe('affine', () => {
  it('identity', () => {
    const out = sentinels(21);
    affine.identity(out, 5);
    expectClose(out, 5, I);
    expectUntouched(out, 5, 12);
  });

  it('fromSQT builds T·R·S', () => {
    const out = sentinels(21);
    affine.fromSQT(out, 5, placed(15, 3, POSE), 3);
    expectClose(out, 5, M);
    expectUntouched(out, 5, 12);
    // 90° about X sends e_y → e_z and e_z → −e_y.
    affine.fromSQT(out, 5, placed(15, 3, [0, 0, 0, S, 0, 0, S, 1, 1, 1]), 3);
    expectClose(out, 5, [1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0]);
    // 120° about (1,1,1)/√3, q = (½,½,½,½), sends e_x → e_y → e_z → e_x; s = (2, 3, 4).
    affine.fromSQT(out, 5, placed(15, 3, [0, 0, 0, 0.5, 0.5, 0.5, 0.5, 2, 3, 4]), 3);
    expectClose(out, 5, [0, 2, 0, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
    affine.fromSQT(out, 5, placed(15, 3, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]), 3);
    expectClose(out, 5, I);
  });

  it('fromSQT applied to a point: scale, then rotate, then translate', () => {
    // (1, 1, 1) ·s→ (2, 3, 4) ·R→ (−3, 2, 4) +t→ (−2, 4, 7)
    const m = sentinels(21);
    affine.fromSQT(m, 5, placed(15, 3, POSE), 3);
    const out = sentinels(8);
    affine.transformPoint(out, 3, m, 5, placed(6, 1, [1, 1, 1]), 1);
    expectClose(out, 3, [-2, 4, 7]);
    expectUntouched(out, 3, 3);
    // A direction ignores the translation: (−3, 2, 4).
    affine.transformVector(out, 3, m, 5, placed(6, 1, [1, 1, 1]), 1);
    expectClose(out, 3, [-3, 2, 4]);
    expectUntouched(out, 3, 3);
  });

  it('multiply(a, b) applies b first', () => {
    const T = [1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0]; // translate +X
    const R = [0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0]; // 90° about Z
    const out = sentinels(21);
    // T·R: rotate, then translate; the translation is untouched by R.
    affine.multiply(out, 5, at4(T), 4, at4(R), 4);
    expectClose(out, 5, [0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 0, 0]);
    expectUntouched(out, 5, 12);
    // R·T: translate, then rotate the translation too: (1, 0, 0) → (0, 1, 0).
    affine.multiply(out, 5, at4(R), 4, at4(T), 4);
    expectClose(out, 5, [0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 1, 0]);
    // M·M by hand: M3·M3 sends e_x → M3(0,2,0) = (−6,0,0), e_y → M3(−3,0,0) = (0,−6,0),
    // e_z → (0,0,16); translation M3·(1,2,3) + (1,2,3) = (−6,2,12) + (1,2,3) = (−5,4,15).
    affine.multiply(out, 5, at4(M), 4, at4(M), 4);
    expectClose(out, 5, [-6, 0, 0, 0, -6, 0, 0, 0, 16, -5, 4, 15]);
    expectUntouched(out, 5, 12);
  });

  it('multiply by identity on either side leaves a matrix unchanged', () => {
    const out = sentinels(21);
    affine.multiply(out, 5, at4(I), 4, at4(M), 4);
    expectClose(out, 5, M);
    affine.multiply(out, 5, at4(M), 4, at4(I), 4);
    expectClose(out, 5, M);
  });

  it('multiply is associative', () => {
    const A = [1, 2, 0, 0, 1, 3, 4, 0, 1, 1, -1, 2]; // shear, not orthogonal
    const C = [0.5, -1, 2, 3, 0.25, -2, 1, 1, -1, -4, 0.5, 6];
    const ab = sentinels(21), abC = sentinels(21), bc = sentinels(21), aBC = sentinels(21);
    affine.multiply(ab, 5, at4(A), 4, at4(M), 4);
    affine.multiply(abC, 5, ab, 5, at4(C), 4);
    affine.multiply(bc, 5, at4(M), 4, at4(C), 4);
    affine.multiply(aBC, 5, at4(A), 4, bc, 5);
    expectClose(aBC, 5, Array.from(abC.subarray(5, 17)));
    // Spot-check one entry by hand: translation x of A·M = A3·(1,2,3) + (1,−1,2):
    // A3·(1,2,3) = 1·(1,2,0) + 2·(0,1,3) + 3·(4,0,1) = (13, 4, 9) → (14, 3, 11).
    expectClose(ab, 14, [14, 3, 11]);
  });

  it('invert by hand', () => {
    const out = sentinels(21);
    expect(affine.invert(out, 5, at4(M), 4)).toBeCloseTo(24, 6);
    expectClose(out, 5, M_INV);
    expectUntouched(out, 5, 12);
    // M⁻¹ takes (−2, 4, 7) back to (1, 1, 1).
    const p = sentinels(8);
    affine.transformPoint(p, 3, out, 5, placed(3, 0, [-2, 4, 7]), 0);
    expectClose(p, 3, [1, 1, 1]);
    // A mirror has a negative determinant.
    expect(affine.invert(out, 5, at4([-1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0]), 4)).toBeCloseTo(-1, 6);
    expectClose(out, 5, [-1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0]);
  });

  it('invert(fromSQT) · fromSQT = identity, both ways', () => {
    const n = Math.sqrt(30); // q = (1, 2, 3, 4)/√30
    const pose = placed(15, 3, [-1, 4, 2.5, 1 / n, 2 / n, 3 / n, 4 / n, 0.5, 2, 3]);
    const m = sentinels(21), inv = sentinels(21), out = sentinels(21);
    affine.fromSQT(m, 5, pose, 3);
    expect(affine.invert(inv, 5, m, 5)).toBeCloseTo(0.5 * 2 * 3, 6);
    affine.multiply(out, 5, inv, 5, m, 5);
    expectClose(out, 5, I);
    affine.multiply(out, 5, m, 5, inv, 5);
    expectClose(out, 5, I);
    expectUntouched(out, 5, 12);
  });

  it('invert of a singular matrix writes the identity and returns 0', () => {
    const out = sentinels(21);
    // Zero scale on Y.
    const flat = sentinels(21);
    affine.fromSQT(flat, 5, placed(15, 3, [1, 2, 3, 0, 0, S, S, 1, 0, 1]), 3);
    expect(affine.invert(out, 5, flat, 5)).toBe(0);
    expectClose(out, 5, I);
    expectUntouched(out, 5, 12);
    // All zeros; rank 2 (third column = first + second); NaN.
    const cases = [
      new Array<number>(12).fill(0),
      [1, 0, 0, 0, 1, 0, 1, 1, 0, 5, 5, 5],
      [Number.NaN, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0],
    ];
    for (const c of cases) {
      const o = sentinels(21);
      expect(affine.invert(o, 5, at4(c), 4)).toBe(0);
      expectClose(o, 5, I);
      expectUntouched(o, 5, 12);
    }
    // Tiny but regular: |det| = 1e-9 is still inverted.
    const tiny = sentinels(21);
    expect(affine.invert(tiny, 5, at4([1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3, 0, 0, 0]), 4)).toBeCloseTo(1e-9, 15);
    expectClose(tiny, 5, [1e3, 0, 0, 0, 1e3, 0, 0, 0, 1e3, 0, 0, 0]);
  });

  it('toMat4 writes the column-major 4×4', () => {
    const out = sentinels(20);
    affine.toMat4(out, 2, at4(M), 4);
    expectClose(out, 2, [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1]);
    expectUntouched(out, 2, 16);
  });

  it('works on Float32Array pools', () => {
    const pool = new Float32Array(12 * 3 + 1).fill(Number.NaN);
    pool.set(M, 0);
    affine.invert(pool, 12, pool, 0);
    affine.multiply(pool, 24, pool, 12, pool, 0);
    expectClose(pool, 24, I, 5);
    expect(Number.isNaN(pool[36])).toBe(true);
  });

  describe('aliasing: out === a or out === b at the same offset matches a separate out', () => {
    const A = [1, 2, 0, 0, 1, 3, 4, 0, 1, 1, -1, 2];

    it('multiply', () => {
      const expected = sentinels(21);
      affine.multiply(expected, 5, at4(A), 4, at4(M), 4);
      const want = Array.from(expected.subarray(5, 17));

      const a = at4(A);
      affine.multiply(a, 4, a, 4, at4(M), 4);
      expectClose(a, 4, want);
      expectUntouched(a, 4, 12);

      const b = at4(M);
      affine.multiply(b, 4, at4(A), 4, b, 4);
      expectClose(b, 4, want);
      expectUntouched(b, 4, 12);

      // The skeleton's pass: model[j] = model[parent] · model[j] in one buffer.
      const model = sentinels(25);
      model.set(A, 0);
      model.set(M, 12);
      affine.multiply(model, 12, model, 0, model, 12);
      expectClose(model, 12, want);
      expectClose(model, 0, A);

      // All three the same: M·M.
      const mm = at4(M);
      affine.multiply(mm, 4, mm, 4, mm, 4);
      expectClose(mm, 4, [-6, 0, 0, 0, -6, 0, 0, 0, 16, -5, 4, 15]);
    });

    it('invert, fromSQT, toMat4', () => {
      const m = at4(M);
      expect(affine.invert(m, 4, m, 4)).toBeCloseTo(24, 6);
      expectClose(m, 4, M_INV);
      expectUntouched(m, 4, 12);

      const pose = placed(15, 3, POSE);
      affine.fromSQT(pose, 3, pose, 3);
      expectClose(pose, 3, M);
      expectUntouched(pose, 3, 12);

      const wide = placed(20, 2, M);
      affine.toMat4(wide, 2, wide, 2);
      expectClose(wide, 2, [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1]);
    });

    it('transformPoint and transformVector with out === v', () => {
      const v = placed(6, 1, [1, 1, 1]);
      affine.transformPoint(v, 1, at4(M), 4, v, 1);
      expectClose(v, 1, [-2, 4, 7]);
      const d = placed(6, 1, [1, 1, 1]);
      affine.transformVector(d, 1, at4(M), 4, d, 1);
      expectClose(d, 1, [-3, 2, 4]);
      expectUntouched(d, 1, 3);
    });
  });
});
