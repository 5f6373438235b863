import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as affine from '../../src/math/affine.js';
import * as quat from '../../src/math/quat.js';
import {
  IK_END, IK_MID, IK_PARAMS, IK_POLE, IK_ROOT, IK_TARGET, IK_WEIGHT, solveTwoBoneIk,
} from '../../src/math/twoBoneIk.js';
import { expectClose, expectQuatClose, expectUntouched, S, sentinels } from './helpers.js';

type V3 = readonly [number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V3): number => Math.sqrt(dot(a, a));
const dist = (a: V3, b: V3): number => len(sub(a, b));
const unit = (a: V3): V3 => scale(a, 1 / len(a));

/** Writes a params block at offset `po` of a NaN-filled buffer of `po + IK_PARAMS + 2` floats. */
function block(root: V3, mid: V3, end: V3, target: V3, pole: V3, weight = 1, po = 0): Float64Array {
  const p = sentinels(po + IK_PARAMS + 2);
  p.set(root, po + IK_ROOT);
  p.set(mid, po + IK_MID);
  p.set(end, po + IK_END);
  p.set(target, po + IK_TARGET);
  p.set(pole, po + IK_POLE);
  p[po + IK_WEIGHT] = weight;
  return p;
}

function rotate(q: Float64Array, qo: number, v: V3): V3 {
  const out = new Float64Array(3);
  quat.rotateVec3(out, 0, q, qo, new Float64Array(v), 0);
  return [out[0], out[1], out[2]];
}

/**
 * The documented convention: the upper joint turns by D1 about the root, the lower by D2·D1
 * about the new mid position, so mid' = a + D1·e1, end' = mid' + D2·(D1·e2).
 */
function applied(root: V3, mid: V3, end: V3, d: Float64Array, o = 0): { mid: V3; end: V3 } {
  const newMid = add(root, rotate(d, o, sub(mid, root)));
  const newEnd = add(newMid, rotate(d, o + 4, rotate(d, o, sub(end, mid))));
  return { mid: newMid, end: newEnd };
}

function solve(root: V3, mid: V3, end: V3, target: V3, pole: V3, weight = 1) {
  const d = new Float64Array(8);
  const reached = solveTwoBoneIk(d, 0, block(root, mid, end, target, pole, weight), 0);
  return { d, reached, ...applied(root, mid, end, d) };
}

function expectFiniteUnit(d: Float64Array): void {
  for (let i = 0; i < 8; i++) expect(Number.isFinite(d[i]), `element ${i}`).toBe(true);
  expect(quat.length(d, 0)).toBeCloseTo(1, 12);
  expect(quat.length(d, 4)).toBeCloseTo(1, 12);
}

const ORIGIN: V3 = [0, 0, 0];

describe('solveTwoBoneIk, hand-derived', () => {
  it('bones 3 and 4 reaching a target at 5 bend into the 3-4-5 right triangle', () => {
    // Straight chain along +X, target at 5 on it, pole toward +Y. Law of cosines at the root:
    // cos α = (3² + 5² − 4²)/(2·3·5) = 18/30 = 0.6, so the elbow goes to 3·(0.6, 0.8, 0) and
    // the inner angle at it is 90° (3² + 4² = 5²).
    const r = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0]);
    expect(r.reached).toBe(true);
    expectClose(new Float64Array(r.mid), 0, [1.8, 2.4, 0], 12);
    expectClose(new Float64Array(r.end), 0, [5, 0, 0], 12);
    expect(dot(sub(ORIGIN, r.mid), sub(r.end, r.mid))).toBeCloseTo(0, 12);
    // D1 turns the upper bone by α about +Z: (0, 0, sin(α/2), cos(α/2)) with
    // sin²(α/2) = (1 − 0.6)/2 = 0.2, cos²(α/2) = 0.8. The forearm then goes from D1·(+X) =
    // (0.6, 0.8, 0) to (5 − 1.8, −2.4, 0)/4 = (0.8, −0.6, 0): −90° about +Z.
    expectQuatClose(r.d, 0, [0, 0, Math.sqrt(0.2), Math.sqrt(0.8)], 12);
    expectQuatClose(r.d, 4, [0, 0, -S, S], 12);
  });

  it('bends toward the pole, wherever it is around the chain', () => {
    // Same chain, pole toward −Z: the elbow goes to (1.8, 0, −2.4).
    const r = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [2, 0, -10]);
    expectClose(new Float64Array(r.mid), 0, [1.8, 0, -2.4], 12);
    expectClose(new Float64Array(r.end), 0, [5, 0, 0], 12);
  });

  it('law of cosines on a bent chain, off the origin, to a target off the axes', () => {
    // Root at (1, 2, 3), bones 2 and 1.5 bent, target at distance 2.5 along (1, 1, 1)/√3,
    // pole at root + (0, 0, −5) (its part ⊥ the target line points to (1, 1, −2)/√6).
    const a: V3 = [1, 2, 3];
    const b = add(a, [0, 2, 0]);
    const c = add(b, [1.5, 0, 0]);
    const u = unit([1, 1, 1]);
    const t = add(a, scale(u, 2.5));
    const r = solve(a, b, c, t, add(a, [0, 0, -5]));
    expect(r.reached).toBe(true);
    expect(dist(r.end, t)).toBeLessThan(1e-12);
    // cos α = (2² + 2.5² − 1.5²)/(2·2·2.5) = 8/10: the elbow sits 2·0.8 along u and 2·0.6
    // along the pole's perpendicular direction.
    const side = unit([1, 1, -2]);
    const expected = add(a, add(scale(u, 1.6), scale(side, 1.2)));
    expect(dist(r.mid, expected)).toBeLessThan(1e-12);
  });

  it('unreachable: the chain is straight and points at the target', () => {
    const r = solve(ORIGIN, [0, 3, 0], [4, 3, 0], [10, 0, 0], [0, 0, 1]);
    expect(r.reached).toBe(false);
    expectClose(new Float64Array(r.mid), 0, [3, 0, 0], 12);
    expectClose(new Float64Array(r.end), 0, [7, 0, 0], 12);
  });

  it('too close: the chain folds and its end lies on the root→target ray', () => {
    // Long upper bone (4), short forearm (1), target at 2 along +Y (< 4 − 1): end at 3·Y,
    // mid at 4·Y.
    const long = solve(ORIGIN, [4, 0, 0], [4, 1, 0], [0, 2, 0], [0, 0, 1]);
    expect(long.reached).toBe(false);
    expectClose(new Float64Array(long.mid), 0, [0, 4, 0], 12);
    expectClose(new Float64Array(long.end), 0, [0, 3, 0], 12);
    // Short upper bone (1), long forearm (4), target at 2 along +Y: end at 3·Y, so the upper
    // bone points away (mid at −Y) and the forearm folds back through the root.
    const short = solve(ORIGIN, [1, 0, 0], [1, 4, 0], [0, 2, 0], [0, 0, 1]);
    expectClose(new Float64Array(short.mid), 0, [0, -1, 0], 12);
    expectClose(new Float64Array(short.end), 0, [0, 3, 0], 12);
  });

  it('weight blends both deltas toward the identity by angle, the elbow about its own hinge', () => {
    const zero = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0], 0);
    expectQuatClose(zero.d, 0, [0, 0, 0, 1], 15);
    expectQuatClose(zero.d, 4, [0, 0, 0, 1], 15);
    // Half weight on the 3-4-5 solve: α/2 about +Z for the upper bone, −45° about +Z (the
    // hinge axis, which D1 leaves in place) for the lower.
    const alpha = Math.acos(0.6);
    const half = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0], 0.5);
    expectQuatClose(half.d, 0, [0, 0, Math.sin(alpha / 4), Math.cos(alpha / 4)], 12);
    expectQuatClose(half.d, 4, [0, 0, -Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 12);
    // Outside [0, 1] it clamps; NaN counts as 0.
    const over = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0], 7);
    expect(dist(over.end, [5, 0, 0])).toBeLessThan(1e-12);
    const nan = solve(ORIGIN, [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0], Number.NaN);
    expectQuatClose(nan.d, 0, [0, 0, 0, 1], 15);
  });

  it('reads the params block at its offset, writes 8 floats at its own, and may alias', () => {
    const params = block([1, 2, 3], [1, 5, 3], [5, 5, 3], [4, 4, 3], [1, 10, 3], 1, 5);
    const out = sentinels(14);
    expect(solveTwoBoneIk(out, 3, params, 5)).toBe(true);
    expectUntouched(out, 3, 8);
    const again = new Float64Array(params);
    solveTwoBoneIk(again, 5, again, 5); // out over the params block itself
    for (let i = 0; i < 8; i++) expect(again[5 + i]).toBe(out[3 + i]);
    // Float32 outputs work too.
    const out32 = new Float32Array(8);
    solveTwoBoneIk(out32, 0, params, 5);
    for (let i = 0; i < 8; i++) expect(out32[i]).toBeCloseTo(out[3 + i], 6);
  });
});

describe('solveTwoBoneIk, degenerate inputs give finite unit deltas', () => {
  const mid: V3 = [0, 3, 0], end: V3 = [4, 3, 0];
  const cases: Array<[string, V3, V3, V3, V3]> = [
    ['target at the root', mid, end, ORIGIN, [0, 0, 1]],
    ['pole on the root–target line', mid, end, [2, 2, 0], [4, 4, 0]],
    ['pole behind the root on the line', mid, end, [2, 2, 0], [-1, -1, 0]],
    ['pole at the root', mid, end, [2, 2, 0], ORIGIN],
    ['pole at the target', mid, end, [2, 2, 0], [2, 2, 0]],
    ['target behind (opposite the current aim)', mid, end, [-2, -1.5, 0], [0, 0, 1]],
    ['target behind, pole in front', mid, end, [0, 0, -4], [0, 0, 5]],
    ['straight chain, pole on its line', [0, 3, 0], [0, 7, 0], [0, 5, 0], [0, 9, 0]],
    ['straight chain, target opposite', [0, 3, 0], [0, 7, 0], [0, -5, 0], [1, 0, 0]],
    ['folded chain', [0, 3, 0], [0, 1, 0], [0, 2, 0], [1, 0, 0]],
    ['zero-length upper bone', ORIGIN, [4, 0, 0], [0, 2, 0], [0, 0, 1]],
    ['zero-length lower bone', [3, 0, 0], [3, 0, 0], [0, 2, 0], [0, 0, 1]],
    ['both bones zero', ORIGIN, ORIGIN, [0, 2, 0], [0, 0, 1]],
    ['everything on the root', ORIGIN, ORIGIN, ORIGIN, ORIGIN],
    ['equal bones folded onto the root, target at the root', [0, 3, 0], ORIGIN, ORIGIN, ORIGIN],
  ];
  for (const [name, b, c, t, p] of cases) {
    it(name, () => {
      const r = solve(ORIGIN, b, c, t, p);
      expectFiniteUnit(r.d);
      const l1 = len(b), l2 = dist(c, b), dt = len(t);
      // Bones keep their lengths; the end is at the clamped reach along the aim.
      expect(dist(r.mid, ORIGIN)).toBeCloseTo(l1, 12);
      expect(dist(r.end, r.mid)).toBeCloseTo(l2, 12);
      const reach = Math.min(Math.max(dt, Math.abs(l1 - l2)), l1 + l2);
      expect(len(r.end)).toBeCloseTo(reach, 9);
      if (dt > 0) expect(dist(r.end, scale(unit(t), reach))).toBeLessThan(1e-9);
    });
  }

  it('a pole on the target line keeps the current bend plane', () => {
    // Bend plane z = 0 (mid at +Y of the chain), pole on the root→target line: the elbow
    // stays in z = 0.
    const r = solve(ORIGIN, [0, 3, 0], [4, 3, 0], [2, 2, 0], [4, 4, 0]);
    expect(Math.abs(r.mid[2])).toBeLessThan(1e-12);
    expect(dist(r.end, [2, 2, 0])).toBeLessThan(1e-12);
  });
});

// fast-check arbitraries: vectors with coordinates in [−r, r].
const coord = (r: number) => fc.double({ min: -r, max: r, noNaN: true });
const vec = (r: number) => fc.tuple(coord(r), coord(r), coord(r));
const direction = vec(1).filter((v) => len(v) > 0.1).map(unit);
const chain = fc.record({
  root: vec(3),
  upper: direction,
  lower: direction,
  l1: fc.double({ min: 0.2, max: 3, noNaN: true }),
  l2: fc.double({ min: 0.2, max: 3, noNaN: true }),
  aim: direction,
  pole: vec(5),
});

describe('solveTwoBoneIk, properties', () => {
  it('reachable targets are reached within 1e-6; bones keep their lengths; the elbow lies in the plane of root, target and pole, on the pole side', () => {
    fc.assert(
      fc.property(chain, fc.double({ min: 0, max: 1, noNaN: true }), (ch, s) => {
        const a = ch.root;
        const b = add(a, scale(ch.upper, ch.l1));
        const c = add(b, scale(ch.lower, ch.l2));
        const lo = Math.abs(ch.l1 - ch.l2), hi = ch.l1 + ch.l2;
        const reach = lo + 1e-3 + s * (hi - lo - 2e-3);
        const t = add(a, scale(ch.aim, reach));
        const p = add(a, ch.pole);
        const poleSide = sub(ch.pole, scale(ch.aim, dot(ch.pole, ch.aim)));
        fc.pre(len(poleSide) > 0.05);
        const r = solve(a, b, c, t, p);
        expect(r.reached).toBe(true);
        expectFiniteUnit(r.d);
        expect(dist(r.end, t)).toBeLessThan(1e-6);
        expect(Math.abs(dist(r.mid, a) - ch.l1)).toBeLessThan(1e-9);
        expect(Math.abs(dist(r.end, r.mid) - ch.l2)).toBeLessThan(1e-9);
        const normal = unit(cross(ch.aim, poleSide));
        expect(Math.abs(dot(sub(r.mid, a), normal))).toBeLessThan(1e-6);
        expect(dot(sub(r.mid, a), poleSide)).toBeGreaterThan(0);
        // And the elbow is where the law of cosines puts it, measured from the root.
        const cosAlpha = (ch.l1 ** 2 + reach ** 2 - ch.l2 ** 2) / (2 * ch.l1 * reach);
        expect(dot(sub(r.mid, a), ch.aim) / ch.l1).toBeCloseTo(cosAlpha, 6);
      }),
      { numRuns: 2000, seed: 61 },
    );
  });

  it('unreachable targets give a straight chain pointing at them', () => {
    fc.assert(
      fc.property(chain, fc.double({ min: 1e-3, max: 5, noNaN: true }), (ch, extra) => {
        const a = ch.root;
        const b = add(a, scale(ch.upper, ch.l1));
        const c = add(b, scale(ch.lower, ch.l2));
        const t = add(a, scale(ch.aim, ch.l1 + ch.l2 + extra));
        const r = solve(a, b, c, t, add(a, ch.pole));
        expect(r.reached).toBe(false);
        expectFiniteUnit(r.d);
        expect(dist(r.mid, add(a, scale(ch.aim, ch.l1)))).toBeLessThan(1e-6);
        expect(dist(r.end, add(a, scale(ch.aim, ch.l1 + ch.l2)))).toBeLessThan(1e-6);
      }),
      { numRuns: 1000, seed: 62 },
    );
  });

  it('targets nearer than |l1 − l2| give the folded chain with its end on the ray to them', () => {
    fc.assert(
      fc.property(chain, fc.double({ min: 0, max: 1, noNaN: true }), (ch, s) => {
        const lo = Math.abs(ch.l1 - ch.l2);
        fc.pre(lo > 0.01);
        const a = ch.root;
        const b = add(a, scale(ch.upper, ch.l1));
        const c = add(b, scale(ch.lower, ch.l2));
        const t = add(a, scale(ch.aim, 1e-3 + s * (lo - 2e-3)));
        const r = solve(a, b, c, t, add(a, ch.pole));
        expect(r.reached).toBe(false);
        expectFiniteUnit(r.d);
        expect(dist(r.end, add(a, scale(ch.aim, lo)))).toBeLessThan(1e-6);
        // Folded: the upper bone lies on the line, toward the target when it is the longer.
        const sign = ch.l1 > ch.l2 ? 1 : -1;
        expect(dist(r.mid, add(a, scale(ch.aim, sign * ch.l1)))).toBeLessThan(1e-6);
      }),
      { numRuns: 1000, seed: 63 },
    );
  });

  it('weight w turns each delta by w times its full angle', () => {
    fc.assert(
      fc.property(chain, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (ch, s, w) => {
        const a = ch.root;
        const b = add(a, scale(ch.upper, ch.l1));
        const c = add(b, scale(ch.lower, ch.l2));
        const t = add(a, scale(ch.aim, s * 7));
        const full = solve(a, b, c, t, add(a, ch.pole));
        const part = solve(a, b, c, t, add(a, ch.pole), w);
        expectFiniteUnit(part.d);
        const axis = new Float64Array(3);
        for (const k of [0, 4]) {
          const angle = quat.toAxisAngle(axis, 0, full.d, k);
          expect(quat.toAxisAngle(axis, 0, part.d, k)).toBeCloseTo(w * angle, 9);
        }
      }),
      { numRuns: 500, seed: 64 },
    );
  });

  it('no NaN on a lattice of coincident and collinear points; reach whenever reachable', () => {
    const lattice = fc.constantFrom(0, 1, -1, 2);
    const point = fc.tuple(lattice, lattice, lattice);
    fc.assert(
      fc.property(point, point, point, point, point, (a, b, c, t, p) => {
        const r = solve(a, b, c, t, p);
        expectFiniteUnit(r.d);
        const l1 = dist(b, a), l2 = dist(c, b), dt = dist(t, a);
        expect(Math.abs(dist(r.mid, a) - l1)).toBeLessThan(1e-9);
        expect(Math.abs(dist(r.end, r.mid) - l2)).toBeLessThan(1e-9);
        const reach = Math.min(Math.max(dt, Math.abs(l1 - l2)), l1 + l2);
        if (dt > 0) expect(dist(r.end, add(a, scale(unit(sub(t, a)), reach)))).toBeLessThan(1e-6);
        else expect(dist(r.end, a)).toBeCloseTo(reach, 9);
      }),
      { numRuns: 3000, seed: 65 },
    );
  });
});

describe('solveTwoBoneIk, applied to a local pose as documented', () => {
  it('q′ = inverse(Q_p′)·delta·Q_p′·q puts the end joint on the target through the hierarchy', () => {
    // Joints: 0 body (turned 30° about Y, uniform scale 2, moved), 1 upper, 2 lower, 3 end.
    // SQT records tx ty tz qx qy qz qw sx sy sz.
    const c30 = Math.cos(Math.PI / 12), s30 = Math.sin(Math.PI / 12);
    const sx20 = Math.sin(0.1), cx20 = Math.cos(0.1);
    const local = new Float64Array([
      1, 0.5, -2, 0, s30, 0, c30, 2, 2, 2,
      0.3, 1.4, 0, 0, 0, sx20, cx20, 1, 1, 1,
      0, -0.3, 0, sx20, 0, 0, cx20, 1, 1, 1,
      0, -0.25, 0, 0, 0, 0, 1, 1, 1, 1,
    ]);
    const parents = [-1, 0, 1, 2];
    const modelMatrices = (pose: Float64Array): Float64Array => {
      const m = new Float64Array(48), tmp = new Float64Array(12);
      for (let j = 0; j < 4; j++) {
        affine.fromSQT(tmp, 0, pose, j * 10);
        if (parents[j] < 0) m.set(tmp, j * 12);
        else affine.multiply(m, j * 12, m, parents[j] * 12, tmp, 0);
      }
      return m;
    };
    const modelRotations = (pose: Float64Array): Float64Array => {
      const q = new Float64Array(16);
      for (let j = 0; j < 4; j++) {
        if (parents[j] < 0) quat.copy(q, j * 4, pose, j * 10 + 3);
        else quat.multiply(q, j * 4, q, parents[j] * 4, pose, j * 10 + 3);
      }
      return q;
    };
    const pos = (m: Float64Array, j: number): V3 => [m[j * 12 + 9], m[j * 12 + 10], m[j * 12 + 11]];

    const m = modelMatrices(local);
    const target = add(pos(m, 1), [0.3, -0.6, 0.4]);
    const pole = add(pos(m, 1), [0.5, 0, 1]);
    const lo = Math.abs(dist(pos(m, 2), pos(m, 1)) - dist(pos(m, 3), pos(m, 2)));
    const hi = dist(pos(m, 2), pos(m, 1)) + dist(pos(m, 3), pos(m, 2));
    const reach = dist(target, pos(m, 1));
    expect(reach > lo && reach < hi).toBe(true); // the case is reachable

    const d = new Float64Array(8);
    solveTwoBoneIk(d, 0, block(pos(m, 1), pos(m, 2), pos(m, 3), target, pole), 0);
    const Q = modelRotations(local);
    const pose = new Float64Array(local);
    const tmp = new Float64Array(8);
    // upper (joint 1): parent 0 unchanged.
    quat.invert(tmp, 0, Q, 0);
    quat.multiply(tmp, 0, tmp, 0, d, 0);
    quat.multiply(tmp, 0, tmp, 0, Q, 0);
    quat.multiply(pose, 13, tmp, 0, local, 13);
    quat.normalize(pose, 13, pose, 13);
    // lower (joint 2): parent 1 after its correction, Q_1′ = D1·Q_1.
    quat.multiply(tmp, 4, d, 0, Q, 4);
    quat.invert(tmp, 0, tmp, 4);
    quat.multiply(tmp, 0, tmp, 0, d, 4);
    quat.multiply(tmp, 0, tmp, 0, tmp, 4);
    quat.multiply(pose, 23, tmp, 0, local, 23);
    quat.normalize(pose, 23, pose, 23);

    const after = modelMatrices(pose);
    expect(dist(pos(after, 3), target)).toBeLessThan(1e-9);
    // The new model rotations are the pre-multiplied ones.
    const Q2 = modelRotations(pose);
    quat.multiply(tmp, 0, d, 0, Q, 4);
    expectQuatClose(Q2, 4, Array.from(tmp.subarray(0, 4)), 12);
    quat.multiply(tmp, 0, d, 0, Q, 8);
    quat.multiply(tmp, 0, d, 4, tmp, 0);
    expectQuatClose(Q2, 8, Array.from(tmp.subarray(0, 4)), 12);
    // The elbow is on the pole's side of the shoulder→target line.
    const a = pos(after, 1), u = unit(sub(target, a));
    const poleSide = sub(sub(pole, a), scale(u, dot(sub(pole, a), u)));
    expect(dot(sub(pos(after, 2), a), poleSide)).toBeGreaterThan(0);
  });
});
