/**
 * The tables of `retargetPose` (math/retargetPose.ts) for one binding, built once when the
 * binding is made: per target joint its chain of source joints, the two rotations around the
 * chain's product, the factor on its translation and the ratio of rest scales.
 */
import * as affine from '../../math/affine.js';
import * as quat from '../../math/quat.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../../math/layout.js';
import type { RetargetTables } from '../../math/retargetPose.js';
import type { Skeleton } from '../Skeleton.js';
import type { ModelReference } from './reference.js';

/** Where a quaternion (x y z w) keeps its w. */
const W = 3;

/** What a binding that retargets rotations carries: the kernel's tables and its sampling scratch. */
export interface Retarget extends RetargetTables {
  /** `source.jointCount × 10` floats: the clip's pose is sampled here before it is retargeted. */
  readonly scratch: Float32Array;
}

/** A rotation closer to the identity than this (|x|, |y|, |z|) is taken for it (~2e-7 rad). */
const IDENTITY_EPSILON = 1e-7;

/** Inputs of {@link planRetarget}: the pairing and translation rule already resolved per target joint. */
export interface RetargetInputs {
  readonly source: Skeleton;
  readonly target: Skeleton;
  /** Per target joint, the source joint it reads or −1. */
  readonly sourceJoint: Int16Array;
  /** Per target joint, 0 for its rest translation, else the clip's (see `Binding.translationMode`). */
  readonly translationMode: Uint8Array;
  /** Per target joint, the factor the translation rule puts on the clip's translation (1 or the hip ratio). */
  readonly translationScale: Float32Array;
  /** The binding's hip ratio (what mode 0's offsets from rest are scaled by). */
  readonly hipRatio: number;
  /** The two reference poses, in model space, and the target's as local poses (what unbound joints hold). */
  readonly sourceReference: ModelReference;
  readonly targetReference: ModelReference;
  readonly targetLocal: ArrayLike<number>;
  /**
   * The turn about +Y from the source's facing to the target's (x y z w), when the two face
   * different ways in their references; the source's model-space motion is turned by it
   * (`M_t = Y · M_s · C_s⁻¹ · Y⁻¹ · C_t`), its travel too. Default: none.
   */
  readonly facing?: Float64Array;
}

/**
 * The retargeting tables for `inputs`, or null when the plain copy of local rotations gives
 * the same pose (the identity case: every bound joint's source parent is the source joint of
 * its nearest bound ancestor, both references agree on every rotation there, the reference
 * scales and rest scales match and the unbound joints' reference is their rest pose), so such
 * bindings keep the sampler's plain path.
 *
 * Where the hierarchies disagree (a bound target joint's nearest bound ancestor reads a source
 * joint that is not above its own), the joint's local rotation is transferred between the two
 * parents' frames (`pre = C_p⁻¹ · C_{parent of s}`, chain of s alone).
 */
export function planRetarget(inputs: RetargetInputs): Retarget | null {
  const { source, target, sourceJoint, translationMode, translationScale, hipRatio, sourceReference: S, targetReference: T, targetLocal, facing } = inputs;
  const facingInverse = facing === undefined ? new Float64Array(4) : Float64Array.of(-facing[0], -facing[1], -facing[2], facing[W]);
  const n = target.jointCount;
  const chainStart = new Int32Array(n + 1);
  const chain: number[] = [];
  const pre = new Float32Array(n * 4), post = new Float32Array(n * 4);
  const translationFactor = new Float32Array(n), scaleRatio = new Float32Array(n * 3).fill(1), restTranslation = new Float32Array(n * 3);
  let identity = true;
  const q = new Float64Array(4), r = new Float64Array(4);
  for (let t = 0; t < n; t++) {
    chainStart[t] = chain.length;
    const s = sourceJoint[t];
    if (s < 0) {
      for (let c = 0; c < POSE_STRIDE; c++) if (targetLocal[t * POSE_STRIDE + c] !== target.rest[t * POSE_STRIDE + c]) identity = false;
      continue;
    }
    let ancestor = target.parents[t];
    while (ancestor >= 0 && sourceJoint[ancestor] < 0) ancestor = target.parents[ancestor];
    let top = ancestor < 0 ? -1 : sourceJoint[ancestor];
    const path: number[] = [];
    for (let k = s; k !== top; k = source.parents[k]) {
      if (k < 0) {
        // The hierarchies disagree here (the bound ancestor's source joint is not above s):
        // s's local rotation is transferred between the two parents' frames instead.
        path.length = 0;
        path.push(s);
        top = source.parents[s];
        break;
      }
      path.push(k);
    }
    path.reverse();
    chain.push(...path);
    if (path.length !== 1) identity = false;

    // pre = C_p⁻¹ · Y · C_{s_a}, post = C_s⁻¹ · Y⁻¹ · C_t (identity for a missing parent or ancestor, or facing).
    const p = target.parents[t];
    conjugateOf(q, T.rotation, p);
    if (facing !== undefined) quat.multiply(q, 0, q, 0, facing, 0);
    quat.multiply(q, 0, q, 0, rotationOf(r, S.rotation, top), 0);
    identity = storeRotation(pre, t, q) && identity;
    conjugateOf(q, S.rotation, s);
    if (facing !== undefined) quat.multiply(q, 0, q, 0, facingInverse, 0);
    quat.multiply(q, 0, q, 0, rotationOf(r, T.rotation, t), 0);
    identity = storeRotation(post, t, q) && identity;

    // Mode 0 (the target's bone length) moves by the clip's offset from rest at the target's size (the hip ratio).
    const ratio = translationMode[t] === 0 ? hipRatio : translationScale[t];
    const factor = ratio * (top < 0 ? 1 : S.scale[top]) / (p < 0 ? 1 : T.scale[p]);
    translationFactor[t] = Number.isFinite(factor) ? factor : ratio;
    if (translationMode[t] !== 0 && translationFactor[t] !== translationScale[t]) identity = false;
    restTranslation.set(source.rest.subarray(s * POSE_STRIDE + POSE_T, s * POSE_STRIDE + POSE_T + 3), t * 3);
    for (let c = 0; c < 3; c++) {
      const from = source.rest[s * POSE_STRIDE + POSE_S + c], to = target.rest[t * POSE_STRIDE + POSE_S + c];
      const ratio = from !== 0 && Number.isFinite(to / from) ? to / from : 1;
      scaleRatio[t * 3 + c] = ratio;
      if (scaleRatio[t * 3 + c] !== 1) identity = false;
    }
  }
  chainStart[n] = chain.length;
  const attach = planAttachments(source, target, sourceJoint, translationMode);
  if (attach.attached.length > 0) identity = false;
  if (identity) return null;
  return Object.freeze({
    jointCount: n, sourceJoint, translationMode, restTranslation, translationFactor, chainStart, chain: Int16Array.from(chain),
    pre, post, scaleRatio, local: Float32Array.from(targetLocal), alpha: new Float64Array(1), scratch: new Float32Array(source.jointCount * POSE_STRIDE), ...attach,
  });
}

/**
 * The attached joints (math/retargetPose.ts, module header): bound target joints that keep
 * their rest translation (mode 0) whose source joint's nearest bound source ancestor is bound
 * to a target joint a that is neither above nor below them — the target hangs them elsewhere,
 * as RobotExpressive's IK feet under its root. Each keeps its rest offset in a's frame.
 */
function planAttachments(
  source: Skeleton, target: Skeleton, sourceJoint: Int16Array, translationMode: Uint8Array,
): Pick<Retarget, 'attached' | 'attachOffset' | 'attachPathStart' | 'attachPath' | 'attachScratch'> {
  const n = target.jointCount;
  const targetOf = new Int16Array(source.jointCount).fill(-1);
  for (let t = 0; t < n; t++) if (sourceJoint[t] >= 0 && targetOf[sourceJoint[t]] < 0) targetOf[sourceJoint[t]] = t;
  const above = (a: number, b: number): boolean => {
    for (let k = target.parents[b]; k >= 0; k = target.parents[k]) if (k === a) return true;
    return false;
  };
  const pathTo = (j: number): number[] => {
    const path: number[] = [];
    for (let k = j; k >= 0; k = target.parents[k]) path.push(k);
    return path.reverse();
  };
  // Rest model matrices of the target: where its rig puts the joint against its anchor (a
  // reference pose that turns the anchor, as the canonical pose turns a lower leg, moves only
  // the anchor, not a joint hung elsewhere).
  const model = new Float64Array(n * MATRIX_STRIDE), local = new Float64Array(MATRIX_STRIDE), inverse = new Float64Array(MATRIX_STRIDE);
  const pose = Float64Array.from(target.rest);
  for (let t = 0; t < n; t++) {
    affine.fromSQT(local, 0, pose, t * POSE_STRIDE);
    if (target.parents[t] < 0) model.set(local, t * MATRIX_STRIDE);
    else affine.multiply(model, t * MATRIX_STRIDE, model, target.parents[t] * MATRIX_STRIDE, local, 0);
  }
  const attached: number[] = [], offsets: number[] = [], starts: number[] = [0], paths: number[] = [];
  for (let t = 0; t < n; t++) {
    const s = sourceJoint[t];
    if (s < 0 || translationMode[t] !== 0) continue;
    let up = source.parents[s];
    while (up >= 0 && targetOf[up] < 0) up = source.parents[up];
    const a = up < 0 ? -1 : targetOf[up];
    if (a < 0 || a === t || above(a, t) || above(t, a)) continue;
    attached.push(t, a);
    // b_t = M_a⁻¹ · P_t in the reference pose.
    affine.invert(inverse, 0, model, a * MATRIX_STRIDE);
    const point = new Float64Array(3);
    affine.transformPoint(point, 0, inverse, 0, model, t * MATRIX_STRIDE + MATRIX_T);
    offsets.push(...point);
    paths.push(...pathTo(a));
    starts.push(paths.length);
    paths.push(...(target.parents[t] < 0 ? [] : pathTo(target.parents[t])));
    starts.push(paths.length);
  }
  return {
    attached: Int16Array.from(attached), attachOffset: Float32Array.from(offsets), attachPathStart: Int32Array.from(starts),
    attachPath: Int16Array.from(paths), attachScratch: new Float64Array(36),
  };
}

/** `out` = the rotation of joint `j` in `rotations` (identity for −1). */
function rotationOf(out: Float64Array, rotations: Float64Array, j: number): Float64Array {
  if (j < 0) out.set([0, 0, 0, 1]);
  else out.set(rotations.subarray(j * 4, j * 4 + 4));
  return out;
}

/** `out` = the inverse of joint `j`'s rotation (identity for −1). */
function conjugateOf(out: Float64Array, rotations: Float64Array, j: number): void {
  rotationOf(out, rotations, j);
  out[0] = -out[0]; out[1] = -out[1]; out[2] = -out[2];
}

/** Stores `q` (normalized, w ≥ 0; the exact identity when within {@link IDENTITY_EPSILON}) at joint `t`; true when it is the identity. */
function storeRotation(out: Float32Array, t: number, q: Float64Array): boolean {
  const len = Math.hypot(q[0], q[1], q[2], q[W]);
  const sign = q[W] < 0 ? -1 : 1;
  const x = (sign * q[0]) / len, y = (sign * q[1]) / len, z = (sign * q[2]) / len, w = (sign * q[W]) / len;
  const isIdentity = Math.abs(x) < IDENTITY_EPSILON && Math.abs(y) < IDENTITY_EPSILON && Math.abs(z) < IDENTITY_EPSILON;
  out.set(isIdentity ? [0, 0, 0, 1] : [x, y, z, w], t * 4);
  return isIdentity;
}
