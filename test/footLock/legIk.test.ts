/**
 * solveLegIk (math/twoBoneIk.ts), the weight-1 two-bone solve without trigonometry foot locking runs, against the kernel
 * it stands in for (math/twoBoneIk.ts's solveTwoBoneIk at weight 1): the same D1 and D2 to
 * rounding on random bent chains, targets and poles (and a pole along the aim, where both skip
 * the pole turn); exactly the kernel's bits on the special cases it hands over (straight or
 * folded knee, target on the root, zero bone); and the 3-4-5 triangle by hand.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IK_END, IK_MID, IK_PARAMS, IK_POLE, IK_ROOT, IK_TARGET, IK_WEIGHT, solveTwoBoneIk } from '../../src/math/twoBoneIk.js';
import * as quat from '../../src/math/quat.js';
import { solveLegIk } from '../../src/math/twoBoneIk.js';

type V3 = readonly [number, number, number];

function block(root: V3, mid: V3, end: V3, target: V3, pole: V3): Float64Array {
  const p = new Float64Array(IK_PARAMS);
  p.set(root, IK_ROOT);
  p.set(mid, IK_MID);
  p.set(end, IK_END);
  p.set(target, IK_TARGET);
  p.set(pole, IK_POLE);
  p[IK_WEIGHT] = 1;
  return p;
}

/** D1 D2 of both solvers on one block: [kernel, leg]. */
function both(root: V3, mid: V3, end: V3, target: V3, pole: V3): [Float64Array, Float64Array] {
  const params = block(root, mid, end, target, pole);
  const kernel = new Float64Array(8).fill(NaN), leg = new Float64Array(8).fill(NaN);
  solveTwoBoneIk(kernel, 0, params, 0);
  solveLegIk(leg, 0, params, 0);
  return [kernel, leg];
}

/** Largest component of a − b or of a + b, whichever is smaller (q and −q are one rotation; at 180° w ≈ 0 fixes no sign). */
function quatGap(a: Float64Array, o: number, b: Float64Array): number {
  let minus = 0, plus = 0;
  for (let c = o; c < o + 4; c++) {
    minus = Math.max(minus, Math.abs(a[c] - b[c]));
    plus = Math.max(plus, Math.abs(a[c] + b[c]));
  }
  return Math.min(minus, plus);
}

const coord = fc.double({ min: -2, max: 2, noNaN: true });
const point = fc.tuple(coord, coord, coord);

describe('solveLegIk', () => {
  it('gives solveTwoBoneIk\'s D1 and D2 at weight 1, to 1e-12, on bent chains', () => {
    let compared = 0;
    fc.assert(fc.property(point, point, point, point, point, (root, mid, end, target, pole) => {
      const e1 = [mid[0] - root[0], mid[1] - root[1], mid[2] - root[2]], e2 = [end[0] - mid[0], end[1] - mid[1], end[2] - mid[2]];
      const l1 = Math.hypot(e1[0], e1[1], e1[2]), l2 = Math.hypot(e2[0], e2[1], e2[2]);
      const sine = Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]) / (l1 * l2);
      // Leg-like chains (bones within 2× of each other, the knee bent by at least ~0.6°), away
      // from the ill-conditioned cases where any two roundings part: the pole near the aim line,
      // and an aim arc near 180° (the target kept within 60° of the end's direction, so the
      // end, which the hinge turn moves by less than 90°, never ends up opposite it).
      const u = [target[0] - root[0], target[1] - root[1], target[2] - root[2]], p = [pole[0] - root[0], pole[1] - root[1], pole[2] - root[2]];
      const c = [end[0] - root[0], end[1] - root[1], end[2] - root[2]];
      const reach = Math.hypot(u[0], u[1], u[2]), poleLen = Math.hypot(p[0], p[1], p[2]), cLen = Math.hypot(c[0], c[1], c[2]);
      const poleSine = Math.hypot(u[1] * p[2] - u[2] * p[1], u[2] * p[0] - u[0] * p[2], u[0] * p[1] - u[1] * p[0]) / (reach * poleLen);
      const aimCos = (u[0] * c[0] + u[1] * c[1] + u[2] * c[2]) / (reach * cLen);
      fc.pre(l1 > 0.1 && l2 > 0.1 && l1 < 2 * l2 && l2 < 2 * l1 && sine > 0.01 && reach > 0.05 && poleLen > 0.05 && poleSine > 0.01 && aimCos > 0.5);
      const [kernel, leg] = both(root, mid, end, target, pole);
      expect(quatGap(leg, 0, kernel), 'D1').toBeLessThan(1e-12);
      expect(quatGap(leg, 4, kernel), 'D2').toBeLessThan(1e-12);
      compared++;
    }), { numRuns: 300, seed: 20261201, maxSkipsPerRun: 1000 });
    expect(compared).toBe(300);
  });

  it('hands the special cases to solveTwoBoneIk: the same bits', () => {
    const cases: [V3, V3, V3, V3, V3][] = [
      [[0, 0, 0], [3, 0, 0], [7, 0, 0], [5, 0, 0], [0, 1, 0]], // straight knee
      [[0, 0, 0], [3, 0, 0], [0, 0, 0], [1, 1, 0], [0, 1, 0]], // folded knee
      [[0, 0, 0], [3, 1, 0], [5, 0, 0], [0, 0, 0], [0, 1, 0]], // target on the root
      [[0, 0, 0], [0, 0, 0], [5, 1, 0], [3, 3, 0], [0, 1, 0]], // zero upper bone
    ];
    for (const [root, mid, end, target, pole] of cases) {
      const [kernel, leg] = both(root, mid, end, target, pole);
      expect(Array.from(leg)).toEqual(Array.from(kernel));
    }
  });

  it('skips the pole turn as the kernel does when the pole lies along the aim', () => {
    const [kernel, leg] = both([0, 0, 0], [3, 1, 0], [5, 0, 0], [4, 0, 0], [8, 0, 0]);
    for (let i = 0; i < 8; i++) expect(Math.abs(leg[i] - kernel[i]), `element ${i}`).toBeLessThan(1e-12);
    expect(Math.abs(leg[0])).toBe(0); // D1 = A, the arc in the chain's plane: about ±Z only
    expect(Math.abs(leg[1])).toBe(0);
  });

  it('bends a 3-4 chain into the 3-4-5 right triangle (by hand)', () => {
    // Knee bent in the XY plane, target at 5 on +X, pole toward +Y. Law of cosines at the root:
    // cos α = (3² + 5² − 4²)/(2·3·5) = 0.6, so the knee goes to 3·(0.6, 0.8, 0), the end to (5, 0, 0).
    const params = block([0, 0, 0], [0, 3, 0], [4, 3, 0], [5, 0, 0], [0, 1, 0]);
    const d = new Float64Array(8);
    solveLegIk(d, 0, params, 0);
    const knee = new Float64Array(3), shin = new Float64Array(3);
    quat.rotateVec3(knee, 0, d, 0, new Float64Array([0, 3, 0]), 0);
    quat.rotateVec3(shin, 0, d, 0, new Float64Array([4, 0, 0]), 0);
    quat.rotateVec3(shin, 0, d, 4, shin, 0);
    const expected = [1.8, 2.4, 0, 5, 0, 0];
    const got = [knee[0], knee[1], knee[2], knee[0] + shin[0], knee[1] + shin[1], knee[2] + shin[2]];
    for (let i = 0; i < 6; i++) expect(got[i]).toBeCloseTo(expected[i], 12);
    expect(quat.length(d, 0)).toBeCloseTo(1, 14);
    expect(quat.length(d, 4)).toBeCloseTo(1, 14);
  });
});
