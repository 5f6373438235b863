import { describe, it } from 'vitest';
import { Matrix4, Quaternion, Vector3 } from 'three';
import * as affine from '../../src/math/affine.js';
import * as quat from '../../src/math/quat.js';
import { expectClose, sentinels } from './helpers.js';

// The conventions the math layer promises to share with three.js (DESIGN §3): quaternion
// product order, slerp, vector rotation, T·R·S composition, matrix product order, 4×4 layout.
const qa = new Quaternion(0.1, -0.4, 0.3, 0.85).normalize();
const qb = new Quaternion(-0.5, 0.2, 0.6, 0.59).normalize();
const qArr = (q: Quaternion): Float64Array => new Float64Array([q.x, q.y, q.z, q.w]);

describe('agreement with three.js', () => {
  it('quat.multiply(a, b) = multiplyQuaternions(a, b)', () => {
    const out = sentinels(4);
    quat.multiply(out, 0, qArr(qa), 0, qArr(qb), 0);
    expectClose(out, 0, Array.from(qArr(new Quaternion().multiplyQuaternions(qa, qb))));
  });

  it('quat.slerp = Quaternion.slerp', () => {
    const out = sentinels(4);
    quat.slerp(out, 0, qArr(qa), 0, qArr(qb), 0, 0.3);
    expectClose(out, 0, Array.from(qArr(qa.clone().slerp(qb, 0.3))));
  });

  it('quat.rotateVec3 = Vector3.applyQuaternion', () => {
    const out = sentinels(3);
    quat.rotateVec3(out, 0, qArr(qa), 0, new Float64Array([2, -3, 5]), 0);
    const v = new Vector3(2, -3, 5).applyQuaternion(qa);
    expectClose(out, 0, [v.x, v.y, v.z]);
  });

  it('affine.fromSQT + toMat4 = Matrix4.compose; affine.multiply = multiplyMatrices', () => {
    const ma = sentinels(12), mb = sentinels(12), ab = sentinels(12), m4 = sentinels(16);
    affine.fromSQT(ma, 0, new Float64Array([1, -2, 3, qa.x, qa.y, qa.z, qa.w, 0.5, 2, 3]), 0);
    affine.fromSQT(mb, 0, new Float64Array([-4, 0.5, 2, qb.x, qb.y, qb.z, qb.w, 1.5, 1, 0.25]), 0);
    const ta = new Matrix4().compose(new Vector3(1, -2, 3), qa, new Vector3(0.5, 2, 3));
    const tb = new Matrix4().compose(new Vector3(-4, 0.5, 2), qb, new Vector3(1.5, 1, 0.25));
    affine.toMat4(m4, 0, ma, 0);
    expectClose(m4, 0, ta.elements);
    affine.multiply(ab, 0, ma, 0, mb, 0);
    affine.toMat4(m4, 0, ab, 0);
    expectClose(m4, 0, new Matrix4().multiplyMatrices(ta, tb).elements);
  });
});
