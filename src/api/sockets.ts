/**
 * Sockets: where a joint is in the world, for props, cameras and effects attached to it
 * (`getJointWorldMatrix`), and the attachments a skeleton names (`Skeleton.attachments`).
 */
import { fail } from '../assets/AnimationError.js';
import { describeValue } from '../assets/limits.js';
import { MATRIX_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import type { JointRef } from './aim.js';
import { currentModelRow } from './modelMatrices.js';
import { modelArrayOf } from '../systems/skinSystem.js';
import { requireCharacter } from './validation.js';

/**
 * Writes the world matrix of joint `joint` (an index, or a name) of character `eid` to
 * `out[0..11]` and returns `out`: its model matrix as of the last `step` (the one
 * `getModelMatrices` holds) with the character's root transform applied in front,
 * `T(x, y, z) · R_y(yaw) · M` (the transform `getRootTransform` reports; yaw turns +Z toward
 * +X). 3×4 column-major, as the palette: columns X, Y, Z, then the position. To place a prop
 * on an attachment `a` of the skeleton, multiply the result by `a.offset`
 * (`affine.multiply(out, 0, out, 0, a.offset, 0)` from `bitanim/kernels`). Allocates nothing.
 * @throws AnimationError when `eid` is not a character of this world, `joint` is not one of
 * its skeleton's joints (index out of range, unknown name), or `out` is not a Float32Array or
 * Float64Array of at least 12 elements.
 * @example
 * const hand = new Float32Array(12);
 * getJointWorldMatrix(world, eid, 'Hand.R', hand); // after step: sword.matrix from hand
 */
export function getJointWorldMatrix<T extends Float32Array | Float64Array>(world: AnimationWorld, eid: number, joint: JointRef, out: T): T {
  const where = 'getJointWorldMatrix';
  const skeleton = requireCharacter(world, eid, where);
  let j = -1;
  if (typeof joint === 'string') {
    j = skeleton.names.indexOf(joint);
    if (j < 0) fail(where, 'joint', `"${joint}" is not a joint of this character's skeleton`);
  } else if (typeof joint === 'number' && Number.isInteger(joint) && joint >= 0 && joint < skeleton.jointCount) {
    j = joint;
  } else {
    fail(where, 'joint', `is ${describeValue(joint)}: must be a joint name or an index in [0, ${skeleton.jointCount - 1}]`);
  }
  if (!(out instanceof Float32Array || out instanceof Float64Array) || out.length < MATRIX_STRIDE) {
    fail(where, 'out', `is ${describeValue(out)}: must be a Float32Array or Float64Array of at least 12 elements`);
  }
  const model = modelArrayOf(world);
  const m = currentModelRow(world, eid) + j * MATRIX_STRIDE;
  const { x, y, z, yaw } = world.components.RootMotion;
  const c = Math.cos(yaw[eid]), s = Math.sin(yaw[eid]);
  for (let col = 0; col < 4; col++) {
    const o = col * 3;
    const mx = model[m + o], my = model[m + o + 1], mz = model[m + o + 2];
    const position = col === 3 ? 1 : 0; // only the last column moves
    out[o] = c * mx + s * mz + position * x[eid];
    out[o + 1] = my + position * y[eid];
    out[o + 2] = -s * mx + c * mz + position * z[eid];
  }
  return out;
}
