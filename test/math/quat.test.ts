import { describe, it, expect } from 'vitest';
import * as quat from '../../src/math/quat.js';
import { expectClose, expectQuatClose, expectUntouched, placed, S, sentinels } from './helpers.js';

// Hand-derived quaternions (x y z w): a rotation of θ about unit u is (sin(θ/2)·u, cos(θ/2)).
const ID = [0, 0, 0, 1];
const X90 = [S, 0, 0, S];
const Y90 = [0, S, 0, S];
const Z90 = [0, 0, S, S];
const sin225 = Math.sin(Math.PI / 8), cos225 = Math.cos(Math.PI / 8);
const Z45 = [0, 0, sin225, cos225];

// Inputs at offset 2 of a 9-float buffer, outputs at offset 3 of a 10-float buffer, NaN around.
const at2 = (q: readonly number[]): Float64Array => placed(9, 2, q);

describe('quat', () => {
  it('identity, set and copy', () => {
    const out = sentinels(10);
    quat.identity(out, 3);
    expectClose(out, 3, ID);
    expectUntouched(out, 3, 4);
    quat.set(out, 3, 1, 2, 3, 4);
    expectClose(out, 3, [1, 2, 3, 4]);
    expectUntouched(out, 3, 4);
    const copied = sentinels(10);
    quat.copy(copied, 5, at2(Z90), 2);
    expectClose(copied, 5, Z90);
    expectUntouched(copied, 5, 4);
  });

  it('rotateVec3: 90° about Z maps +X to +Y, 90° about X maps +Y to +Z, 90° about Y maps +Z to +X', () => {
    const out = sentinels(8);
    quat.rotateVec3(out, 3, at2(Z90), 2, placed(6, 1, [1, 0, 0]), 1);
    expectClose(out, 3, [0, 1, 0]);
    expectUntouched(out, 3, 3);
    quat.rotateVec3(out, 3, at2(X90), 2, placed(6, 1, [0, 1, 0]), 1);
    expectClose(out, 3, [0, 0, 1]);
    quat.rotateVec3(out, 3, at2(Y90), 2, placed(6, 1, [0, 0, 1]), 1);
    expectClose(out, 3, [1, 0, 0]);
    // A non-axis vector: 90° about Z sends (x, y, z) to (−y, x, z).
    quat.rotateVec3(out, 3, at2(Z90), 2, placed(6, 1, [2, 3, 4]), 1);
    expectClose(out, 3, [-3, 2, 4]);
    expectUntouched(out, 3, 3);
  });

  it('multiply(a, b) rotates by b first, then a', () => {
    // Z90·X90 by the Hamilton product with s = √½:
    //   x = aw·bx + ax·bw + ay·bz − az·by = s·s + 0 + 0 − 0 = ½
    //   y = aw·by − ax·bz + ay·bw + az·bx = 0 − 0 + 0 + s·s = ½
    //   z = aw·bz + ax·by − ay·bx + az·bw = 0 + 0 − 0 + s·s = ½
    //   w = aw·bw − ax·bx − ay·by − az·bz = s·s − 0 = ½
    // i.e. 120° about (1,1,1)/√3, the cyclic map x→y→z→x. Check with +X: X90 keeps it,
    // then Z90 sends it to +Y.
    const zx = sentinels(10);
    quat.multiply(zx, 3, at2(Z90), 2, at2(X90), 2);
    expectClose(zx, 3, [0.5, 0.5, 0.5, 0.5]);
    expectUntouched(zx, 3, 4);
    const v = sentinels(6);
    quat.rotateVec3(v, 1, zx, 3, placed(3, 0, [1, 0, 0]), 0);
    expectClose(v, 1, [0, 1, 0]);

    // X90·Z90 (Z first): x = s·s = ½, y = −ax·bz = −½, z = aw·bz = ½, w = ½.
    // +X: Z90 sends it to +Y, then X90 sends +Y to +Z.
    const xz = sentinels(10);
    quat.multiply(xz, 3, at2(X90), 2, at2(Z90), 2);
    expectClose(xz, 3, [0.5, -0.5, 0.5, 0.5]);
    quat.rotateVec3(v, 1, xz, 3, placed(3, 0, [1, 0, 0]), 0);
    expectClose(v, 1, [0, 0, 1]);
  });

  it('multiply of general quaternions, every term of the product', () => {
    // a = (1,2,3,4), b = (5,6,7,8) as (u, p), (v, q): a·b = (p·v + q·u + u × v, p·q − u·v)
    //   p·v = (20,24,28), q·u = (8,16,24), u × v = (2·7−3·6, 3·5−1·7, 1·6−2·5) = (−4,8,−4)
    //   → xyz = (24,48,48); w = 32 − (5 + 12 + 21) = −6.
    const out = sentinels(10);
    quat.multiply(out, 3, at2([1, 2, 3, 4]), 2, at2([5, 6, 7, 8]), 2);
    expectClose(out, 3, [24, 48, 48, -6]);
    // b·a flips the cross product: (28,40,52) − (−4,8,−4) = (32,32,56).
    quat.multiply(out, 3, at2([5, 6, 7, 8]), 2, at2([1, 2, 3, 4]), 2);
    expectClose(out, 3, [32, 32, 56, -6]);
    expectUntouched(out, 3, 4);
  });

  it('rotateVec3 by 120° about (1,1,1)/√3 cycles the components', () => {
    // (½,½,½,½) sends x→y→z→x, so (2, 3, 4) becomes (4, 2, 3).
    const out = sentinels(8);
    quat.rotateVec3(out, 3, at2([0.5, 0.5, 0.5, 0.5]), 2, placed(6, 1, [2, 3, 4]), 1);
    expectClose(out, 3, [4, 2, 3]);
  });

  it('multiply by identity leaves a quaternion unchanged; Z90·Z90 is 180° about Z', () => {
    const out = sentinels(10);
    quat.multiply(out, 3, at2(ID), 2, at2([1, 2, 3, 4]), 2);
    expectClose(out, 3, [1, 2, 3, 4]);
    quat.multiply(out, 3, at2([1, 2, 3, 4]), 2, at2(ID), 2);
    expectClose(out, 3, [1, 2, 3, 4]);
    quat.multiply(out, 3, at2(Z90), 2, at2(Z90), 2);
    expectClose(out, 3, [0, 0, 1, 0]);
  });

  it('conjugate and invert', () => {
    const out = sentinels(10);
    quat.conjugate(out, 3, at2([1, 2, 3, 4]), 2);
    expectClose(out, 3, [-1, -2, -3, 4]);
    expectUntouched(out, 3, 4);
    // |(1,1,1,1)|² = 4, so the inverse is (−1,−1,−1,1)/4.
    quat.invert(out, 3, at2([1, 1, 1, 1]), 2);
    expectClose(out, 3, [-0.25, -0.25, -0.25, 0.25]);
    expectUntouched(out, 3, 4);
    const prod = sentinels(10);
    quat.multiply(prod, 3, at2([1, 1, 1, 1]), 2, out, 3);
    expectClose(prod, 3, ID);
    quat.multiply(prod, 3, out, 3, at2([1, 1, 1, 1]), 2);
    expectClose(prod, 3, ID);
  });

  it('invert keeps a zero quaternion zero', () => {
    const out = sentinels(10);
    quat.invert(out, 3, at2([0, 0, 0, 0]), 2);
    expectClose(out, 3, [0, 0, 0, 0]);
    expectUntouched(out, 3, 4);
  });

  it('dot and length', () => {
    // 1·5 + 2·6 + 3·7 + 4·8
    expect(quat.dot(at2([1, 2, 3, 4]), 2, at2([5, 6, 7, 8]), 2)).toBeCloseTo(70, 6);
    expect(quat.length(at2([1, 2, 2, 4]), 2)).toBeCloseTo(5, 6);
    // cos(θ/2) between identity and Z90
    expect(quat.dot(at2(ID), 2, at2(Z90), 2)).toBeCloseTo(S, 6);
  });

  it('normalize returns the original length', () => {
    const out = sentinels(10);
    expect(quat.normalize(out, 3, at2([0, 0, 3, 4]), 2)).toBeCloseTo(5, 6);
    expectClose(out, 3, [0, 0, 0.6, 0.8]);
    expectUntouched(out, 3, 4);
  });

  it('normalize turns a zero quaternion into the identity', () => {
    const out = sentinels(10);
    expect(quat.normalize(out, 3, at2([0, 0, 0, 0]), 2)).toBe(0);
    expectClose(out, 3, ID);
    expectUntouched(out, 3, 4);
  });

  it('slerp identity → 90° about Z', () => {
    const out = sentinels(10);
    quat.slerp(out, 3, at2(ID), 2, at2(Z90), 2, 0);
    expectClose(out, 3, ID);
    quat.slerp(out, 3, at2(ID), 2, at2(Z90), 2, 1);
    expectClose(out, 3, Z90);
    // t = ½ is 45° about Z.
    quat.slerp(out, 3, at2(ID), 2, at2(Z90), 2, 0.5);
    expectClose(out, 3, Z45);
    expectUntouched(out, 3, 4);
    // Constant angular speed: t = ¼ is 22.5° about Z.
    quat.slerp(out, 3, at2(ID), 2, at2(Z90), 2, 0.25);
    expectClose(out, 3, [0, 0, Math.sin(Math.PI / 16), Math.cos(Math.PI / 16)]);
  });

  it('slerp takes the shortest arc: −b gives the same result as b', () => {
    const plain = sentinels(10), flipped = sentinels(10);
    quat.slerp(plain, 3, at2(ID), 2, at2(Z90), 2, 0.3);
    quat.slerp(flipped, 3, at2(ID), 2, at2([0, 0, -S, -S]), 2, 0.3);
    expectClose(flipped, 3, Array.from(plain.subarray(3, 7)));
    // 0.3 of 90° = 27° about Z, with w > 0.
    const half = (0.3 * Math.PI) / 4;
    expectClose(plain, 3, [0, 0, Math.sin(half), Math.cos(half)]);
  });

  it('slerp of nearly parallel inputs falls back to nlerp and stays finite and unit', () => {
    const out = sentinels(10);
    const tiny = 1e-8; // angle between the inputs, far under the fallback threshold
    quat.slerp(out, 3, at2(ID), 2, at2([0, 0, Math.sin(tiny / 2), Math.cos(tiny / 2)]), 2, 0.5);
    expectClose(out, 3, [0, 0, Math.sin(tiny / 4), Math.cos(tiny / 4)], 12);
    expect(quat.length(out, 3)).toBeCloseTo(1, 12);
    // Identical inputs.
    quat.slerp(out, 3, at2(Z90), 2, at2(Z90), 2, 0.7);
    expectClose(out, 3, Z90);
    // Opposite signs of one rotation.
    quat.slerp(out, 3, at2(Z90), 2, at2([0, 0, -S, -S]), 2, 0.7);
    expectQuatClose(out, 3, Z90);
    expectUntouched(out, 3, 4);
  });

  it('nlerp identity → 90° about Z', () => {
    const out = sentinels(10);
    quat.nlerp(out, 3, at2(ID), 2, at2(Z90), 2, 0);
    expectClose(out, 3, ID);
    quat.nlerp(out, 3, at2(ID), 2, at2(Z90), 2, 1);
    expectClose(out, 3, Z90);
    // At t = ½ nlerp and slerp agree: (0, 0, s/2, (1+s)/2) normalized is 45° about Z.
    quat.nlerp(out, 3, at2(ID), 2, at2(Z90), 2, 0.5);
    expectClose(out, 3, Z45);
    expectUntouched(out, 3, 4);
    // At t = ¼: (0, 0, s/4, ¾ + s/4) normalized — not the slerp value (22.5°).
    const z = S / 4, w = 0.75 + S / 4, len = Math.hypot(z, w);
    quat.nlerp(out, 3, at2(ID), 2, at2(Z90), 2, 0.25);
    expectClose(out, 3, [0, 0, z / len, w / len]);
    expect(2 * Math.atan2(out[5], out[6])).toBeLessThan(Math.PI / 8);
  });

  it('nlerp hemisphere fix: −b gives the same result as b', () => {
    const plain = sentinels(10), flipped = sentinels(10);
    quat.nlerp(plain, 3, at2(X90), 2, at2(Z90), 2, 0.3);
    quat.nlerp(flipped, 3, at2(X90), 2, at2([0, 0, -S, -S]), 2, 0.3);
    expectClose(flipped, 3, Array.from(plain.subarray(3, 7)));
    // X90·0.7 + Z90·0.3 = (0.7s, 0, 0.3s, s), |·| = s·√(0.49 + 0.09 + 1) = s·√1.58.
    const n = Math.sqrt(1.58);
    expectClose(plain, 3, [0.7 / n, 0, 0.3 / n, 1 / n]);
    // Without the fix, ID → −Z90 at ½ would be (0, 0, −s, 1 − s)/|·|, about −135°; with it, 45°.
    quat.nlerp(flipped, 3, at2(ID), 2, at2([0, 0, -S, -S]), 2, 0.5);
    expectClose(flipped, 3, Z45);
  });

  it('nlerp of zero inputs gives the identity', () => {
    const out = sentinels(10);
    quat.nlerp(out, 3, at2([0, 0, 0, 0]), 2, at2([0, 0, 0, 0]), 2, 0.5);
    expectClose(out, 3, ID);
  });

  it('fromAxisAngle', () => {
    const out = sentinels(10);
    quat.fromAxisAngle(out, 3, placed(6, 2, [0, 0, 1]), 2, Math.PI / 2);
    expectClose(out, 3, Z90);
    expectUntouched(out, 3, 4);
    quat.fromAxisAngle(out, 3, placed(6, 2, [0, 1, 0]), 2, Math.PI);
    expectClose(out, 3, [0, 1, 0, 0]);
    quat.fromAxisAngle(out, 3, placed(6, 2, [1, 0, 0]), 2, 0);
    expectClose(out, 3, ID);
    // Negative angle = conjugate.
    quat.fromAxisAngle(out, 3, placed(6, 2, [0, 0, 1]), 2, -Math.PI / 2);
    expectClose(out, 3, [0, 0, -S, S]);
  });

  it('toAxisAngle recovers axis and angle', () => {
    const axis = sentinels(7);
    expect(quat.toAxisAngle(axis, 2, at2(Z90), 2)).toBeCloseTo(Math.PI / 2, 6);
    expectClose(axis, 2, [0, 0, 1]);
    expectUntouched(axis, 2, 3);
    const c = Math.cos(0.6), s = Math.sin(0.6); // 1.2 rad about (2, 3, 6)/7
    expect(quat.toAxisAngle(axis, 2, at2([(s * 2) / 7, (s * 3) / 7, (s * 6) / 7, c]), 2)).toBeCloseTo(1.2, 6);
    expectClose(axis, 2, [2 / 7, 3 / 7, 6 / 7]);
    // 180° about Y: w = 0.
    expect(quat.toAxisAngle(axis, 2, at2([0, 1, 0, 0]), 2)).toBeCloseTo(Math.PI, 6);
    expectClose(axis, 2, [0, 1, 0]);
  });

  it('toAxisAngle of a 270° rotation returns π/2 about the negated axis', () => {
    // 270° about +Z: (0, 0, sin 135°, cos 135°) = (0, 0, s, −s); −q = (0, 0, −s, s).
    const axis = sentinels(7);
    expect(quat.toAxisAngle(axis, 2, at2([0, 0, S, -S]), 2)).toBeCloseTo(Math.PI / 2, 6);
    expectClose(axis, 2, [0, 0, -1]);
    expectUntouched(axis, 2, 3);
  });

  it('toAxisAngle of the identity (either sign) and the zero quaternion gives 0 about +X', () => {
    const axis = sentinels(7);
    expect(quat.toAxisAngle(axis, 2, at2(ID), 2)).toBe(0);
    expectClose(axis, 2, [1, 0, 0]);
    expect(quat.toAxisAngle(axis, 2, at2([0, 0, 0, -1]), 2)).toBe(0);
    expectClose(axis, 2, [1, 0, 0]);
    expect(quat.toAxisAngle(axis, 2, at2([0, 0, 0, 0]), 2)).toBe(0);
    expectClose(axis, 2, [1, 0, 0]);
    expectUntouched(axis, 2, 3);
  });

  it('toAxisAngle is accurate for tiny angles', () => {
    const axis = sentinels(7);
    const angle = 1e-7;
    expect(quat.toAxisAngle(axis, 2, at2([0, Math.sin(angle / 2), 0, Math.cos(angle / 2)]), 2))
      .toBeCloseTo(angle, 15);
    expectClose(axis, 2, [0, 1, 0]);
  });

  it('works on Float32Array pools', () => {
    const pool = new Float32Array(14).fill(Number.NaN);
    pool.set(Z90, 1);
    pool.set(X90, 5);
    quat.multiply(pool, 9, pool, 1, pool, 5);
    expectClose(pool, 9, [0.5, 0.5, 0.5, 0.5]);
    expect(Number.isNaN(pool[13])).toBe(true);
  });

  describe('aliasing: out === a or out === b at the same offset matches a separate out', () => {
    const A = [0.1, -0.4, 0.3, 0.85];
    const B = [-0.5, 0.2, 0.6, -0.59]; // dot(A, B) < 0, so the hemisphere paths run
    type Binary = (o: Float64Array, oo: number, a: Float64Array, ao: number, b: Float64Array, bo: number) => void;
    const binary: Record<string, Binary> = {
      multiply: quat.multiply,
      nlerp: (o, oo, a, ao, b, bo) => quat.nlerp(o, oo, a, ao, b, bo, 0.3),
      slerp: (o, oo, a, ao, b, bo) => quat.slerp(o, oo, a, ao, b, bo, 0.3),
      // rotateVec3 reads a quaternion and a vector; out may alias either.
      rotateVec3: (o, oo, a, ao, b, bo) => quat.rotateVec3(o, oo, a, ao, b, bo),
    };
    for (const [name, fn] of Object.entries(binary)) {
      it(name, () => {
        const a0 = sentinels(9), b0 = sentinels(9);
        quat.normalize(a0, 2, at2(A), 2);
        quat.normalize(b0, 2, at2(B), 2);
        const width = name === 'rotateVec3' ? 3 : 4;
        const expected = sentinels(10);
        fn(expected, 3, a0, 2, b0, 2);
        const want = Array.from(expected.subarray(3, 3 + width));

        const a = a0.slice();
        fn(a, 2, a, 2, b0, 2);
        expectClose(a, 2, want);
        expectUntouched(a, 2, 4);

        const b = b0.slice();
        fn(b, 2, a0, 2, b, 2);
        expectClose(b, 2, want);
        expectUntouched(b, 2, 4);
      });
    }

    it('unary functions', () => {
      const q = at2([1, 2, 3, 4]);
      quat.copy(q, 2, q, 2);
      expectClose(q, 2, [1, 2, 3, 4]);
      quat.conjugate(q, 2, q, 2);
      expectClose(q, 2, [-1, -2, -3, 4]);
      quat.invert(q, 2, q, 2);
      expectClose(q, 2, [1 / 30, 2 / 30, 3 / 30, 4 / 30]);
      expect(quat.normalize(q, 2, q, 2)).toBeCloseTo(Math.sqrt(30) / 30, 6);
      const n = Math.sqrt(30);
      expectClose(q, 2, [1 / n, 2 / n, 3 / n, 4 / n]);
      expectUntouched(q, 2, 4);

      const axisIn = placed(9, 2, [0, 0, 1]);
      quat.fromAxisAngle(axisIn, 2, axisIn, 2, Math.PI / 2);
      expectClose(axisIn, 2, Z90);
      const axisOut = axisIn.slice();
      expect(quat.toAxisAngle(axisOut, 2, axisOut, 2)).toBeCloseTo(Math.PI / 2, 6);
      expectClose(axisOut, 2, [0, 0, 1]);
    });
  });
});
