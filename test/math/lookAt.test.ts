import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as affine from '../../src/math/affine.js';
import * as quat from '../../src/math/quat.js';
import {
  LOOK_AXIS, LOOK_FORWARD, LOOK_PARAMS, LOOK_PITCH_LIMIT, LOOK_POSITION, LOOK_ROTATION,
  LOOK_TARGET, LOOK_UP, LOOK_WEIGHT, LOOK_YAW_LIMIT, solveLookAt,
} from '../../src/math/lookAt.js';
import { fromUnitVectors, perpendicular, splitRotation } from '../../src/math/rotationArc.js';
import { expectClose, expectQuatClose, expectUntouched, placed, S, sentinels } from './helpers.js';

type V3 = readonly [number, number, number];
type Q4 = readonly [number, number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V3): number => Math.sqrt(dot(a, a));
const unit = (a: V3): V3 => scale(a, 1 / len(a));
/** The angle between two directions, atan2(|a × b|, a·b): accurate near 0 and π. */
const angle = (a: V3, b: V3): number => Math.atan2(len(cross(a, b)), dot(a, b));
const clamp = (x: number, lim: number): number => Math.min(Math.max(x, -lim), lim);

const ID: Q4 = [0, 0, 0, 1];
const X: V3 = [1, 0, 0], Y: V3 = [0, 1, 0], Z: V3 = [0, 0, 1];
const HEAD: V3 = [0, 1.6, 0];
const deg = Math.PI / 180;
/** The rotation of `a` radians about the unit axis `u`: (sin(a/2)·u, cos(a/2)). */
const rot = (u: V3, a: number): Q4 => [u[0] * Math.sin(a / 2), u[1] * Math.sin(a / 2), u[2] * Math.sin(a / 2), Math.cos(a / 2)];

function rotate(q: ArrayLike<number>, v: V3): V3 {
  const out = new Float64Array(3);
  quat.rotateVec3(out, 0, Float64Array.from(q), 0, new Float64Array(v), 0);
  return [out[0], out[1], out[2]];
}

interface Look {
  rotation?: Q4; position?: V3; axis?: V3; target: V3; forward?: V3; up?: V3;
  yawLimit?: number; pitchLimit?: number; weight?: number;
}

/** A params block at offset `po` of a NaN-filled buffer. */
function block(l: Look, po = 0): Float64Array {
  const p = sentinels(po + LOOK_PARAMS + 2);
  p.set(l.rotation ?? ID, po + LOOK_ROTATION);
  p.set(l.position ?? HEAD, po + LOOK_POSITION);
  p.set(l.axis ?? Z, po + LOOK_AXIS);
  p.set(l.target, po + LOOK_TARGET);
  p.set(l.forward ?? Z, po + LOOK_FORWARD);
  p.set(l.up ?? Y, po + LOOK_UP);
  p[po + LOOK_YAW_LIMIT] = l.yawLimit ?? Math.PI;
  p[po + LOOK_PITCH_LIMIT] = l.pitchLimit ?? Math.PI / 2;
  p[po + LOOK_WEIGHT] = l.weight ?? 1;
  return p;
}

/** Solves; returns the delta, the return value and the joint's new forward, delta·Q·axis. */
function look(l: Look) {
  const delta = new Float64Array(4);
  const inside = solveLookAt(delta, 0, block(l), 0);
  const q = new Float64Array(4);
  quat.multiply(q, 0, delta, 0, Float64Array.from(l.rotation ?? ID), 0);
  return { delta, inside, forward: rotate(q, l.axis ?? Z) };
}

/** Yaw about U from F (positive toward U × F) and pitch above the plane ⊥ U, by definition. */
function yawPitch(v: V3, forward: V3 = Z, up: V3 = Y): [number, number] {
  const s = cross(up, forward);
  const f = dot(v, forward), side = dot(v, s);
  return [Math.atan2(side, f), Math.atan2(dot(v, up), Math.hypot(f, side))];
}

describe('solveLookAt, hand-derived', () => {
  it('a target straight ahead needs no turn', () => {
    const r = look({ target: add(HEAD, [0, 0, 3]) });
    expect(r.inside).toBe(true);
    expectQuatClose(r.delta, 0, ID, 15);
  });

  it('45° to the side: 45° about +Y; with a 30° yaw limit: 30°', () => {
    // Target at (1, 0, 1) from the head: yaw atan2(1, 1) = 45° toward +X = Y × Z.
    const free = look({ target: add(HEAD, [1, 0, 1]) });
    expect(free.inside).toBe(true);
    expectQuatClose(free.delta, 0, [0, Math.sin(22.5 * deg), 0, Math.cos(22.5 * deg)], 12);
    const limited = look({ target: add(HEAD, [1, 0, 1]), yawLimit: 30 * deg });
    expect(limited.inside).toBe(false);
    expectQuatClose(limited.delta, 0, rot(Y, 30 * deg), 12);
    // To the other side, −45° clamps to −30°.
    expectQuatClose(look({ target: add(HEAD, [-1, 0, 1]), yawLimit: 30 * deg }).delta, 0, rot(Y, -30 * deg), 12);
  });

  it('45° up: 45° about −X (turning +Z toward +Y); with a 20° pitch limit: 20°', () => {
    const free = look({ target: add(HEAD, [0, 1, 1]) });
    expectQuatClose(free.delta, 0, [-Math.sin(22.5 * deg), 0, 0, Math.cos(22.5 * deg)], 12);
    const limited = look({ target: add(HEAD, [0, 1, 1]), pitchLimit: 20 * deg });
    expect(limited.inside).toBe(false);
    expectQuatClose(limited.delta, 0, rot([-1, 0, 0], 20 * deg), 12);
  });

  it('clamps yaw and pitch separately: (45°, 45°) with limits (30°, 20°) looks at (30°, 20°)', () => {
    // (1, √2, 1): horizontal length √2 at 45° yaw, elevation atan2(√2, √2) = 45°.
    const r = look({ target: add(HEAD, [1, Math.SQRT2, 1]), yawLimit: 30 * deg, pitchLimit: 20 * deg });
    const c20 = Math.cos(20 * deg);
    expectClose(new Float64Array(r.forward), 0, [c20 * Math.sin(30 * deg), Math.sin(20 * deg), c20 * Math.cos(30 * deg)], 12);
    // Only yaw outside: pitch kept. Target 60° to the side and 10° up, yaw limit 45°.
    const t: V3 = [Math.cos(10 * deg) * Math.sin(60 * deg), Math.sin(10 * deg), Math.cos(10 * deg) * Math.cos(60 * deg)];
    const y = look({ target: add(HEAD, scale(t, 4)), yawLimit: 45 * deg, pitchLimit: 30 * deg });
    const [yaw, pitch] = yawPitch(y.forward);
    expect(yaw).toBeCloseTo(45 * deg, 12);
    expect(pitch).toBeCloseTo(10 * deg, 12);
  });

  it('starts from the joint\'s current forward: its rotation and its local axis', () => {
    // The head already faces +X (90° about +Y); the target is straight ahead of the body.
    const turned = look({ rotation: rot(Y, 90 * deg), target: add(HEAD, [0, 0, 2]) });
    expect(turned.inside).toBe(true);
    expectQuatClose(turned.delta, 0, rot(Y, -90 * deg), 12);
    // Local forward +X, turned by −90° about +Y onto +Z: already aimed.
    const axis = look({ rotation: rot(Y, -90 * deg), axis: X, target: add(HEAD, [0, 0, 2]) });
    expectQuatClose(axis.delta, 0, ID, 12);
  });

  it('limits are relative to the given character frame (forward +X, up +Z here), which it orthonormalizes', () => {
    // Forward +X, up +Z: side = Z × X = +Y. Target (1, 1, 0): yaw 45° toward +Y, clamped to
    // 0.2 rad: the turn is 0.2 rad about +Z. forward (2, 0, 1) loses its part along up.
    const r = look({ axis: X, target: add(HEAD, [1, 1, 0]), forward: [2, 0, 1], up: [0, 0, 3], yawLimit: 0.2 });
    expect(r.inside).toBe(false);
    expectQuatClose(r.delta, 0, rot(Z, 0.2), 12);
  });

  it('weight turns by that fraction of the angle; outside [0, 1] it clamps, NaN is 0', () => {
    const half = look({ target: add(HEAD, [1, 0, 1]), weight: 0.5 });
    expectQuatClose(half.delta, 0, rot(Y, 22.5 * deg), 12);
    expectQuatClose(look({ target: add(HEAD, [1, 0, 1]), weight: 0 }).delta, 0, ID, 15);
    expectQuatClose(look({ target: add(HEAD, [1, 0, 1]), weight: 3 }).delta, 0, rot(Y, 45 * deg), 12);
    expectQuatClose(look({ target: add(HEAD, [1, 0, 1]), weight: Number.NaN }).delta, 0, ID, 15);
    // Negative or NaN limits count as 0: the head looks straight ahead of the body.
    expectQuatClose(look({ target: add(HEAD, [1, 1, 1]), yawLimit: -1, pitchLimit: Number.NaN }).delta, 0, ID, 12);
  });

  it('reads the block at its offset, writes 4 floats at its own, and may alias', () => {
    const params = block({ rotation: rot(X, 0.3), target: [2, 3, 4], yawLimit: 0.5, pitchLimit: 0.4 }, 4);
    const out = sentinels(9);
    solveLookAt(out, 2, params, 4);
    expectUntouched(out, 2, 4);
    const again = new Float64Array(params);
    solveLookAt(again, 4 + LOOK_ROTATION, again, 4); // out over the joint's own rotation
    for (let i = 0; i < 4; i++) expect(again[4 + i]).toBe(out[2 + i]);
  });
});

describe('solveLookAt, degenerate inputs', () => {
  it('target on the head: the identity', () => {
    const r = look({ target: HEAD });
    expect(r.inside).toBe(false);
    expectQuatClose(r.delta, 0, ID, 15);
  });

  it('target exactly behind: clamped to +yawLimit (toward Y × Z); unlimited, half a turn about up', () => {
    const limited = look({ target: add(HEAD, [0, 0, -2]), yawLimit: 1 });
    expectQuatClose(limited.delta, 0, rot(Y, 1), 12);
    const free = look({ target: add(HEAD, [0, 0, -2]) });
    expect(free.inside).toBe(true);
    expectQuatClose(free.delta, 0, [0, 1, 0, 0], 12);
    // Head facing backward, target ahead: the same half turn about up.
    expectQuatClose(look({ rotation: [0, 1, 0, 0], target: add(HEAD, [0, 0, 2]) }).delta, 0, [0, 1, 0, 0], 12);
  });

  it('target straight up: yaw 0, pitch at the limit; unlimited, 90° about −X', () => {
    expectQuatClose(look({ target: add(HEAD, [0, 5, 0]), pitchLimit: 0.5 }).delta, 0, rot([-1, 0, 0], 0.5), 12);
    expectQuatClose(look({ target: add(HEAD, [0, 5, 0]) }).delta, 0, rot([-1, 0, 0], Math.PI / 2), 12);
    // Head axis pointing down, target straight up, no limits: opposite directions, and up
    // (the preferred axis) is parallel too: half a turn about some horizontal axis.
    const flip = look({ axis: [0, -1, 0], target: add(HEAD, [0, 5, 0]) });
    expect(angle(flip.forward, Y)).toBeLessThan(1e-12);
  });

  it('zero axis, zero up, forward along up: finite unit results', () => {
    expectQuatClose(look({ axis: [0, 0, 0], target: [3, 2, 1] }).delta, 0, ID, 15);
    const zeroUp = look({ up: [0, 0, 0], target: add(HEAD, [1, 0, 1]) });
    expectQuatClose(zeroUp.delta, 0, rot(Y, 45 * deg), 12); // up falls back to +Y
    for (const forward of [Y, [0, 0, 0] as V3]) {
      const r = look({ forward, target: add(HEAD, [1, 2, 3]), yawLimit: 0.3, pitchLimit: 0.2 });
      for (let i = 0; i < 4; i++) expect(Number.isFinite(r.delta[i])).toBe(true);
      expect(quat.length(r.delta, 0)).toBeCloseTo(1, 12);
    }
  });
});

const coord = (r: number) => fc.double({ min: -r, max: r, noNaN: true });
const vec = (r: number) => fc.tuple(coord(r), coord(r), coord(r));
const direction = vec(1).filter((v) => len(v) > 0.1).map(unit);
const rotation = fc.tuple(coord(1), coord(1), coord(1), coord(1))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q): Q4 => { const l = Math.hypot(...q); return [q[0] / l, q[1] / l, q[2] / l, q[3] / l]; });

describe('solveLookAt, properties', () => {
  it('inside the limits the axis points at the target within 1e-6 rad; outside it sits on the limit boundary', () => {
    fc.assert(
      fc.property(
        rotation, vec(3), direction, vec(5), rotation,
        fc.double({ min: 0, max: Math.PI, noNaN: true }), fc.double({ min: 0, max: Math.PI / 2, noNaN: true }),
        (q, position, axis, target, frame, yawLimit, pitchLimit) => {
          const forward = rotate(frame, Z), up = rotate(frame, Y);
          const v = sub(target, position);
          fc.pre(len(v) > 1e-3);
          const [yaw, pitch] = yawPitch(v, forward, up);
          // Away from the boundaries, where inside/outside is a matter of rounding.
          fc.pre(Math.abs(Math.abs(yaw) - yawLimit) > 1e-6 && Math.abs(Math.abs(pitch) - pitchLimit) > 1e-6);
          fc.pre(Math.PI - Math.abs(yaw) > 1e-6 && Math.PI / 2 - Math.abs(clamp(pitch, pitchLimit)) > 1e-3);
          const r = look({ rotation: q, position, axis, target, forward, up, yawLimit, pitchLimit });
          const inside = Math.abs(yaw) <= yawLimit && Math.abs(pitch) <= pitchLimit;
          expect(r.inside).toBe(inside);
          expect(quat.length(r.delta, 0)).toBeCloseTo(1, 12);
          if (inside) {
            expect(angle(r.forward, v)).toBeLessThan(1e-6);
          } else {
            const [y, p] = yawPitch(r.forward, forward, up);
            expect(Math.abs(y - clamp(yaw, yawLimit))).toBeLessThan(1e-6);
            expect(Math.abs(p - clamp(pitch, pitchLimit))).toBeLessThan(1e-6);
          }
          // Shortest arc: the delta turns by exactly the angle between old and new forward.
          const axisOut = new Float64Array(3);
          expect(quat.toAxisAngle(axisOut, 0, r.delta, 0)).toBeCloseTo(angle(rotate(q, axis), r.forward), 9);
        },
      ),
      { numRuns: 3000, seed: 71 },
    );
  });

  it('weight w turns by w times the full angle', () => {
    fc.assert(
      fc.property(rotation, direction, vec(5), fc.double({ min: 0, max: 1, noNaN: true }), (q, axis, target, w) => {
        fc.pre(len(sub(target, HEAD)) > 1e-3);
        const full = look({ rotation: q, axis, target, yawLimit: 1, pitchLimit: 0.5 });
        const part = look({ rotation: q, axis, target, yawLimit: 1, pitchLimit: 0.5, weight: w });
        const tmp = new Float64Array(3);
        expect(quat.toAxisAngle(tmp, 0, part.delta, 0)).toBeCloseTo(w * quat.toAxisAngle(tmp, 0, full.delta, 0), 9);
      }),
      { numRuns: 500, seed: 72 },
    );
  });

  it('no NaN on a lattice of coincident, opposite and parallel inputs', () => {
    const lattice = fc.constantFrom(0, 1, -1);
    const point = fc.tuple(lattice, lattice, lattice);
    const q = fc.constantFrom<Q4>(ID, [0, 1, 0, 0], [1, 0, 0, 0], [S, 0, 0, S], [0, 0, S, -S]);
    const limit = fc.constantFrom(0, 0.5, Math.PI / 2, Math.PI, 4);
    fc.assert(
      fc.property(q, point, point, point, point, point, limit, limit, (rotation, position, axis, target, forward, up, yawLimit, pitchLimit) => {
        const r = look({ rotation, position, axis, target, forward, up, yawLimit, pitchLimit });
        for (let i = 0; i < 4; i++) expect(Number.isFinite(r.delta[i]), `element ${i}`).toBe(true);
        expect(quat.length(r.delta, 0)).toBeCloseTo(1, 12);
      }),
      { numRuns: 3000, seed: 73 },
    );
  });
});

describe('solveLookAt, applied to a local pose as documented', () => {
  // Joints: 0 body (turned, uniform scale 1.5), 1 spine, 2 neck, 3 head. SQT records.
  const parents = [-1, 0, 1, 2];
  const local = new Float64Array([
    0.5, 0, -1, ...rot(Y, 0.4), 1.5, 1.5, 1.5,
    0, 1, 0, ...rot(X, 0.1), 1, 1, 1,
    0, 0.4, 0.05, ...rot(X, -0.2), 1, 1, 1,
    0, 0.15, 0, ...rot(Z, 0.1), 1, 1, 1,
  ]);
  const modelRotations = (pose: Float64Array): Float64Array => {
    const q = new Float64Array(16);
    for (let j = 0; j < 4; j++) {
      if (parents[j] < 0) quat.copy(q, j * 4, pose, j * 10 + 3);
      else quat.multiply(q, j * 4, q, parents[j] * 4, pose, j * 10 + 3);
    }
    return q;
  };
  const modelMatrices = (pose: Float64Array): Float64Array => {
    const m = new Float64Array(48), tmp = new Float64Array(12);
    for (let j = 0; j < 4; j++) {
      affine.fromSQT(tmp, 0, pose, j * 10);
      if (parents[j] < 0) m.set(tmp, j * 12);
      else affine.multiply(m, j * 12, m, parents[j] * 12, tmp, 0);
    }
    return m;
  };
  /** q_j′ = inverse(Q_p′)·delta·Q_p′·q_j, Q_p′ from the already corrected pose. */
  const applyDelta = (pose: Float64Array, j: number, delta: Float64Array, dOff: number): void => {
    const Qp = modelRotations(pose).subarray(parents[j] * 4, parents[j] * 4 + 4);
    const t = new Float64Array(4);
    quat.invert(t, 0, Qp, 0);
    quat.multiply(t, 0, t, 0, delta, dOff);
    quat.multiply(t, 0, t, 0, Qp, 0);
    quat.multiply(pose, j * 10 + 3, t, 0, pose, j * 10 + 3);
    quat.normalize(pose, j * 10 + 3, pose, j * 10 + 3);
  };

  it('the head\'s forward column points at the target', () => {
    const m = modelMatrices(local);
    const Q = modelRotations(local);
    const head: V3 = [m[45], m[46], m[47]];
    const target = add(head, [0.5, 0.2, 2]);
    const params = block({ rotation: [Q[12], Q[13], Q[14], Q[15]], position: head, target, axis: Z });
    const delta = new Float64Array(4);
    expect(solveLookAt(delta, 0, params, 0)).toBe(true);
    const pose = new Float64Array(local);
    applyDelta(pose, 3, delta, 0);
    const after = modelMatrices(pose);
    const fwd = new Float64Array(3);
    affine.transformVector(fwd, 0, after, 36, new Float64Array(Z), 0);
    expect(angle([fwd[0], fwd[1], fwd[2]], sub(target, head))).toBeLessThan(1e-9);
  });

  it('split along spine, neck and head (0.2, 0.3, 0.5), applied top-down, the head turns by the whole delta', () => {
    const Q = modelRotations(local);
    const m = modelMatrices(local);
    const head: V3 = [m[45], m[46], m[47]];
    const delta = new Float64Array(4);
    solveLookAt(delta, 0, block({ rotation: [Q[12], Q[13], Q[14], Q[15]], position: head, target: add(head, [-2, 0.5, 1]) }), 0);
    const fractions = new Float64Array([0.2, 0.3, 0.5]);
    const parts = new Float64Array(12);
    const pose = new Float64Array(local);
    for (let k = 0; k < 3; k++) {
      splitRotation(parts, k * 4, delta, 0, fractions, k);
      applyDelta(pose, k + 1, parts, k * 4);
    }
    const expected = new Float64Array(4);
    quat.multiply(expected, 0, delta, 0, Q, 12);
    expectQuatClose(modelRotations(pose), 12, Array.from(expected), 12);
  });
});

describe('rotationArc', () => {
  it('perpendicular: unit and orthogonal; zero gives +X', () => {
    const out = sentinels(7);
    for (const v of [[1, 0, 0], [0, 0, -2], [1, 2, 3], [1e-200, 3e-200, -2e-200], [-5, 5, 5]]) {
      perpendicular(out, 2, placed(5, 1, v), 1);
      expectUntouched(out, 2, 3);
      const p: V3 = [out[2], out[3], out[4]];
      expect(len(p)).toBeCloseTo(1, 12);
      const big = Math.max(...v.map(Math.abs));
      expect(dot(p, unit([v[0] / big, v[1] / big, v[2] / big]))).toBeCloseTo(0, 12);
    }
    perpendicular(out, 2, placed(5, 1, [0, 0, 0]), 1);
    expectClose(out, 2, [1, 0, 0], 15);
  });

  it('fromUnitVectors: X→Y is 90° about Z; equal gives the identity; opposite turns half about the fallback', () => {
    const out = sentinels(8);
    fromUnitVectors(out, 2, placed(5, 1, X), 1, placed(4, 0, Y), 0, placed(3, 0, Z), 0);
    expectClose(out, 2, [0, 0, S, S], 15);
    expectUntouched(out, 2, 4);
    fromUnitVectors(out, 2, placed(5, 1, unit([1, 2, 3])), 1, placed(5, 1, unit([1, 2, 3])), 1, placed(3, 0, Z), 0);
    expectQuatClose(out, 2, ID, 15);
    // Opposite: the fallback's part ⊥ a is the axis. X → −X with fallback (1, 0, 1): axis +Z.
    fromUnitVectors(out, 2, placed(3, 0, X), 0, placed(3, 0, [-1, 0, 0]), 0, placed(3, 0, [1, 0, 1]), 0);
    expectQuatClose(out, 2, [0, 0, 1, 0], 15);
    // Fallback parallel to a: some perpendicular; a still lands on b.
    fromUnitVectors(out, 2, placed(3, 0, X), 0, placed(3, 0, [-1, 0, 0]), 0, placed(3, 0, X), 0);
    expect(angle(rotate(out.subarray(2, 6), X), [-1, 0, 0])).toBeLessThan(1e-15);
    // Aliased: out over a.
    const buf = new Float64Array([0, 1, 0, 0]);
    fromUnitVectors(buf, 0, buf, 0, placed(3, 0, Z), 0, placed(3, 0, X), 0);
    expectClose(buf, 0, [S, 0, 0, S], 15); // Y → Z: 90° about +X
    const opposite = new Float64Array([0, 1, 0, 0]);
    fromUnitVectors(opposite, 0, opposite, 0, placed(3, 0, [0, -1, 0]), 0, placed(3, 0, Y), 0);
    expect(angle(rotate(opposite, Y), [0, -1, 0])).toBeLessThan(1e-15);
  });

  it('fromUnitVectors: turns a onto b by the angle between them', () => {
    fc.assert(
      fc.property(direction, direction, direction, (a, b, k) => {
        const q = new Float64Array(4);
        fromUnitVectors(q, 0, new Float64Array(a), 0, new Float64Array(b), 0, new Float64Array(k), 0);
        expect(quat.length(q, 0)).toBeCloseTo(1, 12);
        expect(angle(rotate(q, a), b)).toBeLessThan(1e-7);
        const axis = new Float64Array(3);
        expect(quat.toAxisAngle(axis, 0, q, 0)).toBeCloseTo(angle(a, b), 7);
      }),
      { numRuns: 1000, seed: 74 },
    );
  });

  it('splitRotation: a fraction of the angle along the shortest arc', () => {
    const Z90: Q4 = [0, 0, S, S];
    const Z45 = rot(Z, 45 * deg);
    const out = sentinels(8);
    const frac = (f: number) => placed(3, 1, [f]);
    splitRotation(out, 2, placed(6, 1, Z90), 1, frac(0.5), 1);
    expectClose(out, 2, Z45, 15);
    expectUntouched(out, 2, 4);
    splitRotation(out, 2, placed(6, 1, Z90), 1, frac(0), 1);
    expectClose(out, 2, ID, 15);
    splitRotation(out, 2, placed(6, 1, Z90), 1, frac(1), 1);
    expectQuatClose(out, 2, Z90, 15);
    // −q is the same rotation.
    splitRotation(out, 2, placed(6, 1, [0, 0, -S, -S]), 1, frac(0.5), 1);
    expectClose(out, 2, Z45, 15);
    // 270° about +Z stored as (0, 0, sin 135°, cos 135°) is −90°: half of it is −45°.
    splitRotation(out, 2, placed(6, 1, [0, 0, S, -S]), 1, frac(0.5), 1);
    expectClose(out, 2, rot(Z, -45 * deg), 15);
    // Not unit: same rotation; zero: the identity.
    splitRotation(out, 2, placed(6, 1, [0, 0, 2 * S, 2 * S]), 1, frac(0.5), 1);
    expectClose(out, 2, Z45, 15);
    splitRotation(out, 2, placed(6, 1, [0, 0, 0, 0]), 1, frac(0.5), 1);
    expectClose(out, 2, ID, 15);
    // A tiny rotation scales linearly without dividing out the axis.
    splitRotation(out, 2, placed(6, 1, rot(X, 1e-100)), 1, frac(0.25), 1);
    expectClose(out, 2, [0.125e-100, 0, 0, 1], 15);
    expect(out[2] / 0.125e-100).toBeCloseTo(1, 12);
    // Aliased, with a Float32 fraction.
    const q = Float64Array.from(Z90);
    splitRotation(q, 0, q, 0, new Float32Array([0.5]), 0);
    expectClose(q, 0, Z45, 15);
  });
});
