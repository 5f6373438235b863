/**
 * aimSystem — look-at and reach: turns each character's head chain toward a follower and
 * puts its reach chain's end joint on a follower (the same one, or another slot), by
 * correcting local rotations of the animated pose.
 *
 * Reads:  Character (skeleton, jointCount), the skeletons' parents, LookAt, Reach (each with
 *         its `follower` slot), Follower (enabled, state: the followed points, world space, at
 *         row eid × FOLLOW_SLOTS + slot), RootMotion (x y z yaw: the world transform),
 *         LocalPose, the update list (`world.updates`).
 * Writes: LocalPose (rotations of the look-at chain: spine, neck, head; of the reach chain:
 *         upper, lower), `world.scratch.aim`.
 * Order:  after followSystem (which moves the followed point) and rootMotionSystem (which sets
 *         the world transform for this frame), before skinSystem (DESIGN §4). Visits the update
 *         list: characters `lodSystem` is not updating this frame are skipped: blendSystem has not
 *         rewritten their pose, which still holds the last update's correction, and applying
 *         it again would compound a weight below 1.
 *
 * Per character with an enabled look-at or reach of weight > 0 whose follower slot has a
 * follower (a look-at or reach whose slot is empty is skipped, the other still runs):
 * 1. Targets: each aimed follower's world position p_w into model space (`followerInModel`), the inverse of
 *    p_w = R(yaw)·p_m + pos (R about +Y: x' = x cos + z sin, z' = −x sin + z cos):
 *    p_m = R(−yaw)·(p_w − pos); look-at and reach each take their own slot's (the same
 *    numbers when they share one). A non-finite target skips the look-at or reach aiming at
 *    it, leaving the pose as it is.
 * 2. Model transforms of only the joints involved: the head and the reach chain's end joint
 *    and all their ancestors, composed parents first from `LocalPose` (3×4 matrix for
 *    positions, quaternion product for rotations; `math/composeModel.ts`) into `scratch.aim.model`. After a joint's
 *    local rotation changes, the joints after it in that list are recomposed when next read.
 * 3. Look-at (`math/lookAt.ts`): the chain spine → neck → head, top down. At chain joint k the
 *    kernel solves the head's aim from the head's current position and rotation and returns
 *    the delta with its angle times the share σ_k; the delta is applied at joint k and the
 *    next joint solves again from the moved head (the kernel's "re-solve per joint"), so the
 *    head, which always finishes (σ = 1 at weight 1), ends exactly on the limited direction
 *    for any target distance. With weight w and fractions f_spine, f_neck,
 *    f_head = 1 − f_spine − f_neck, joint k takes σ_k = w·f_k / (1 − w·Σ_{i<k} f_i) of what
 *    remains: about w·f_k of the whole turn.
 * 4. Reach (`math/twoBoneIk.ts`): after the look-at, on the updated chain positions, so a
 *    reach whose upper joint hangs below a look-at joint (an arm on a turned spine) still
 *    lands on the target. If a reach joint were an ancestor of the head, the head would move
 *    after its aim; no humanoid chain does that. A chain straight to within 1e-5 rad (a
 *    T-pose arm) is handed to the kernel exactly straight, so its bend plane comes from the
 *    pole rather than from float32 noise (see `straightenNoise`).
 * 5. Each delta D is applied as the kernels' comments prescribe:
 *    q_j' = inverse(Q_p') · D · Q_p' · q_j, normalized, with Q_p' the parent's current model
 *    rotation (after the corrections above it). Translations and scales are not touched.
 *    A correction that comes out non-finite (a NaN pose) is not written.
 *
 * Weight 0 (or a disabled look-at/reach, or an empty follower slot) leaves `LocalPose` bit
 * for bit as the blend left it. Exact when the ancestors' scales are uniform (the kernels' assumption).
 * No allocation, no throwing: joint indices beyond the character's skeleton are skipped.
 */
import { commitRemovals } from 'bitecs';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../components/Follower.js';
import { updateRange } from '../components/UpdateList.js';
import { composeModel } from '../math/composeModel.js';
import { markPath, sortAscending } from '../math/jointList.js';
import * as layout from '../math/layout.js';
import {
  LOOK_AXIS, LOOK_FORWARD, LOOK_PARAMS, LOOK_PITCH_LIMIT, LOOK_POSITION, LOOK_ROTATION, LOOK_TARGET, LOOK_UP,
  LOOK_WEIGHT, LOOK_YAW_LIMIT, solveLookAt,
} from '../math/lookAt.js';
import { IK_D1, IK_D2, IK_END, IK_MID, IK_PARAMS, IK_POLE, IK_ROOT, IK_TARGET, IK_WEIGHT, solveTwoBoneIk } from '../math/twoBoneIk.js';
import type { AnimationWorld, ScratchOf } from '../world.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_Q, MATRIX_T } = layout;

/** Floats per joint in `AimScratch.model`: a 3×4 model matrix (12), then the model rotation `x y z w` (4). */
export const AIM_JOINT_STRIDE = 16;
/** Offset of the model rotation quaternion inside a joint's `AimScratch.model` record. */
export const AIM_JOINT_Q = 12;

/** `AimScratch.params`: the look-at kernel's params block. */
const P_LOOK = 0;
/** `AimScratch.params`: the two-bone IK kernel's params block. */
const P_IK = P_LOOK + LOOK_PARAMS;
/** `AimScratch.params`: the kernels' output deltas (look-at: 4; IK: D1 then D2, 8). */
const P_DELTA = P_IK + IK_PARAMS;
/** `AimScratch.params`: the character's world transform: x y z, cos(yaw), sin(yaw). */
const P_ROOT = P_DELTA + 8;
/** Inside the world transform at `P_ROOT`: the position x y z, cos(yaw), sin(yaw). */
const ROOT_POSITION = 0, ROOT_COS = 3, ROOT_SIN = 4;
/** Floats in `AimScratch.params`. */
export const AIM_PARAMS = P_ROOT + 5;

/** Below this remaining share (1 − w·Σ f) a chain joint takes all that remains. */
const SHARE_EPSILON = 1e-9;
/**
 * Below this sine of its bend angle (1e-5 rad, ~20× the float32 rounding of a pose) a reach
 * chain counts as straight (or folded); see `straightenNoise`.
 */
const STRAIGHT_SINE = 1e-5;

/**
 * World-owned temporaries of aimSystem, sized at world creation (`world.scratch.aim`):
 * - `model`: `maxJoints × AIM_JOINT_STRIDE` floats, one record per joint (only the joints of
 *   the current character's chains and their ancestors are written);
 * - `list`: the joints whose model transforms are needed, ascending (parents first);
 * - `slot`: per joint, its position in `list` plus 1 (0: not in the list); all 0 between
 *   characters;
 * - `params`: the kernels' params blocks and outputs (`AIM_PARAMS` floats).
 */
export interface AimScratch {
  readonly model: Float64Array;
  readonly list: Int32Array;
  readonly slot: Int32Array;
  readonly params: Float64Array;
}

/** Creates the aim scratch for skeletons of up to `maxJoints` joints. */
export function createAimScratch(maxJoints: number, alloc: PoolAllocator = heapAllocator): AimScratch {
  const params = new Float64Array(AIM_PARAMS);
  // The character frame of the look-at limits: forward model +Z, up model +Y (DESIGN §6).
  params[P_LOOK + LOOK_FORWARD + 2] = 1;
  params[P_LOOK + LOOK_UP + 1] = 1;
  return {
    model: alloc.array(Float64Array, maxJoints * AIM_JOINT_STRIDE),
    list: alloc.array(Int32Array, maxJoints),
    slot: alloc.array(Int32Array, maxJoints),
    params,
  };
}

/** aimSystem's scratch (FrameSystem.scratch, built once per world): `world.scratch.aim`. */
export const aimScratch = { aim: createAimScratch };

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof aimScratch> {}
}

/** Applies every character's look-at and reach; see the file header. */
export function aimSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  aimEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link aimSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function aimEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { Character, LookAt, Reach, Follower, RootMotion, LocalPose } = world.components;
  const local = LocalPose.data;
  const skeletons = world.assets.skeletons;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const aim = world.scratch.aim;
  const { params, list, slot } = aim;
  const followerState = Follower.state;
  const followerEnabled = Follower.enabled;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const lookWeight = LookAt.weight[eid];
    const reachWeight = Reach.weight[eid];
    const lookSlot = LookAt.follower[eid], reachSlot = Reach.follower[eid];
    const lookRow = eid * FOLLOW_SLOTS + lookSlot, reachRow = eid * FOLLOW_SLOTS + reachSlot;
    let look = LookAt.enabled[eid] === 1 && lookWeight > 0 && lookSlot < FOLLOW_SLOTS && followerEnabled[lookRow] === 1;
    let reach = Reach.enabled[eid] === 1 && reachWeight > 0 && reachSlot < FOLLOW_SLOTS && followerEnabled[reachRow] === 1;
    if (!look && !reach) continue;
    const jointCount = Character.jointCount[eid];
    const head = LookAt.head[eid], neck = LookAt.neck[eid], spine = LookAt.spine[eid];
    const upper = Reach.upper[eid], lower = Reach.lower[eid], endJoint = Reach.end[eid];
    if (look && !(head >= 0 && head < jointCount && neck < jointCount && spine < jointCount)) look = false;
    if (reach && !(upper >= 0 && lower > upper && endJoint > lower && endJoint < jointCount)) reach = false;
    if (!look && !reach) continue;

    // 1. The targets in model space, one per aimed slot, written into the kernels' blocks.
    const yaw = RootMotion.yaw[eid];
    params[P_ROOT + ROOT_POSITION] = RootMotion.x[eid];
    params[P_ROOT + ROOT_POSITION + 1] = RootMotion.y[eid];
    params[P_ROOT + ROOT_POSITION + 2] = RootMotion.z[eid];
    params[P_ROOT + ROOT_COS] = Math.cos(yaw);
    params[P_ROOT + ROOT_SIN] = Math.sin(yaw);
    if (look && !followerInModel(params, P_LOOK + LOOK_TARGET, followerState, lookRow * FOLLOW_STATE_STRIDE)) look = false;
    if (reach && !followerInModel(params, P_IK + IK_TARGET, followerState, reachRow * FOLLOW_STATE_STRIDE)) reach = false;
    if (!look && !reach) continue;

    // 2. The joints involved: the head's and the end joint's paths to the root, ascending.
    const parents = skeletons[Character.skeleton[eid]].parents;
    let count = 0;
    if (look) count = markPath(list, slot, parents, head, count);
    if (reach) count = markPath(list, slot, parents, endJoint, count);
    sortAscending(list, count);
    for (let pos = 0; pos < count; pos++) slot[list[pos]] = pos + 1;
    const localOff = eid * poseSize;
    let dirty = 0; // first list position whose model transform is out of date

    // 3. Look-at: spine → neck → head, re-solving the head's aim at each.
    if (look) {
      const a = eid * 3;
      params[P_LOOK + LOOK_AXIS] = LookAt.axis[a];
      params[P_LOOK + LOOK_AXIS + 1] = LookAt.axis[a + 1];
      params[P_LOOK + LOOK_AXIS + 2] = LookAt.axis[a + 2];
      params[P_LOOK + LOOK_YAW_LIMIT] = LookAt.yawLimit[eid];
      params[P_LOOK + LOOK_PITCH_LIMIT] = LookAt.pitchLimit[eid];
      const w = lookWeight < 1 ? lookWeight : 1;
      const spineShare = spine >= 0 ? LookAt.spineFraction[eid] : 0;
      const neckShare = neck >= 0 ? LookAt.neckFraction[eid] : 0;
      let taken = 0; // w·Σ f of the joints above
      for (let stage = 0; stage < 3; stage++) {
        const joint = stage === 0 ? spine : stage === 1 ? neck : head;
        if (joint < 0) continue;
        const share = stage === 0 ? spineShare : stage === 1 ? neckShare : 1 - spineShare - neckShare;
        const remaining = 1 - taken;
        let sigma = stage === 2 && w >= 1 ? 1 : remaining > SHARE_EPSILON ? (w * share) / remaining : 1;
        sigma = sigma < 1 ? sigma : 1;
        taken += w * share;
        if (!(sigma > 0)) continue;
        dirty = composeUpTo(aim, local, localOff, parents, dirty, count, head);
        const h = head * AIM_JOINT_STRIDE;
        copyRotation(params, P_LOOK + LOOK_ROTATION, aim.model, h + AIM_JOINT_Q);
        params[P_LOOK + LOOK_POSITION] = aim.model[h + MATRIX_T];
        params[P_LOOK + LOOK_POSITION + 1] = aim.model[h + MATRIX_T + 1];
        params[P_LOOK + LOOK_POSITION + 2] = aim.model[h + MATRIX_T + 2];
        params[P_LOOK + LOOK_WEIGHT] = sigma;
        solveLookAt(params, P_DELTA, params, P_LOOK);
        if (rotateByModelDelta(local, localOff + joint * POSE_STRIDE, aim.model, parentRotationOff(parents, joint), params, P_DELTA)) {
          const at = slot[joint] - 1;
          if (at < dirty) dirty = at;
        }
      }
    }

    // 4. Reach: two-bone IK on the (updated) chain.
    if (reach) {
      dirty = composeUpTo(aim, local, localOff, parents, dirty, count, endJoint);
      const m = aim.model;
      copyPosition(params, P_IK + IK_ROOT, m, upper * AIM_JOINT_STRIDE + MATRIX_T);
      copyPosition(params, P_IK + IK_MID, m, lower * AIM_JOINT_STRIDE + MATRIX_T);
      copyPosition(params, P_IK + IK_END, m, endJoint * AIM_JOINT_STRIDE + MATRIX_T);
      straightenNoise(params, P_IK);
      copyPosition(params, P_IK + IK_POLE, Reach.pole, eid * 3);
      params[P_IK + IK_WEIGHT] = reachWeight;
      solveTwoBoneIk(params, P_DELTA, params, P_IK);
      if (rotateByModelDelta(local, localOff + upper * POSE_STRIDE, m, parentRotationOff(parents, upper), params, P_DELTA + IK_D1)) {
        const at = slot[upper] - 1;
        if (at < dirty) dirty = at;
      }
      // The lower joint's parent rotation after D1 (recomposed from the corrected upper joint).
      dirty = composeUpTo(aim, local, localOff, parents, dirty, count, parents[lower]);
      rotateByModelDelta(local, localOff + lower * POSE_STRIDE, m, parentRotationOff(parents, lower), params, P_DELTA + IK_D2);
    }

    for (let pos = 0; pos < count; pos++) slot[list[pos]] = 0;
  }
}

/**
 * Writes the follower position `state[s .. s + 3)` (world space) into `out[off .. off + 3)` in
 * the character's model space, p_m = R(−yaw)·(p_w − pos), with pos, cos(yaw) and sin(yaw) read
 * from `out[P_ROOT ..]` (R about +Y: x' = x cos + z sin, z' = −x sin + z cos). Returns false,
 * having written the non-finite result, when the target is NaN or infinite. Takes no float
 * argument, so nothing is boxed if V8 does not inline it.
 */
function followerInModel(out: Float64Array, off: number, state: Float64Array, s: number): boolean {
  const dx = state[s] - out[P_ROOT + ROOT_POSITION], dy = state[s + 1] - out[P_ROOT + ROOT_POSITION + 1], dz = state[s + 2] - out[P_ROOT + ROOT_POSITION + 2];
  const c = out[P_ROOT + ROOT_COS], sn = out[P_ROOT + ROOT_SIN];
  const x = dx * c - dz * sn, z = dx * sn + dz * c;
  out[off] = x;
  out[off + 1] = dy;
  out[off + 2] = z;
  return x - x === 0 && dy - dy === 0 && z - z === 0; // false for NaN or ±Infinity
}

/** Offset of `joint`'s parent's model rotation in `AimScratch.model`, or −1 for a root. */
function parentRotationOff(parents: Int16Array, joint: number): number {
  const parent = parents[joint];
  return parent < 0 ? -1 : parent * AIM_JOINT_STRIDE + AIM_JOINT_Q;
}

/**
 * Composes the model records (matrix and rotation) of the joints at `list[from ..]` up to
 * and including joint `last`, one call of the local → model kernel `composeModel` over those
 * list positions; returns the first list position not composed, the new `dirty`. Joints
 * already up to date (positions before `from`) are not recomposed; every listed joint's
 * parent is listed before it, so it is composed before its children.
 */
function composeUpTo(
  aim: AimScratch, local: Float32Array, localOff: number, parents: Int16Array, from: number, count: number, last: number,
): number {
  const { list, model } = aim;
  let pos = from;
  while (pos < count && list[pos] <= last) pos++;
  composeModel(model, 0, AIM_JOINT_STRIDE, local, localOff, parents, from, pos, AIM_JOINT_Q, list);
  return pos;
}

/**
 * Turns the local rotation of the joint pose at `local[l ..]` by the model-space delta
 * `delta[d .. d + 3]`: q' = inverse(Q_p) · D · Q_p · q, normalized (Q_p at `model[qp ..]`,
 * unit; `qp` < 0 for a root: q' = D · q). Returns false and writes nothing when q' is not
 * finite or zero. Pure kernel.
 */
export function rotateByModelDelta(
  local: Float32Array, l: number, model: Float64Array, qp: number, delta: Float64Array, d: number,
): boolean {
  const dx = delta[d], dy = delta[d + 1], dz = delta[d + 2], dw = delta[d + 3];
  let rx = dx, ry = dy, rz = dz, rw = dw;
  if (qp >= 0) {
    // r = conj(P) · D · P, the delta in the parent's frame.
    const px = model[qp], py = model[qp + 1], pz = model[qp + 2], pw = model[qp + 3];
    // u = D · P
    const ux = dw * px + dx * pw + dy * pz - dz * py;
    const uy = dw * py - dx * pz + dy * pw + dz * px;
    const uz = dw * pz + dx * py - dy * px + dz * pw;
    const uw = dw * pw - dx * px - dy * py - dz * pz;
    // r = conj(P) · u, conj(P) = (−px, −py, −pz, pw)
    rx = pw * ux - px * uw - py * uz + pz * uy;
    ry = pw * uy + px * uz - py * uw - pz * ux;
    rz = pw * uz - px * uy + py * ux - pz * uw;
    rw = pw * uw + px * ux + py * uy + pz * uz;
  }
  const qx = local[l + POSE_Q], qy = local[l + POSE_Q + 1], qz = local[l + POSE_Q + 2], qw = local[l + POSE_Q + 3];
  const nx = rw * qx + rx * qw + ry * qz - rz * qy;
  const ny = rw * qy - rx * qz + ry * qw + rz * qx;
  const nz = rw * qz + rx * qy - ry * qx + rz * qw;
  const nw = rw * qw - rx * qx - ry * qy - rz * qz;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  if (!(len > 0 && len < Infinity)) return false;
  local[l + POSE_Q] = nx / len;
  local[l + POSE_Q + 1] = ny / len;
  local[l + POSE_Q + 2] = nz / len;
  local[l + POSE_Q + 3] = nw / len;
  return true;
}

/**
 * A chain straight (or folded) to within `STRAIGHT_SINE` has no bend plane of its own: the
 * float32 pose leaves a cross product e1 × e2 of rounding noise, which the IK kernel would
 * take as the hinge (it needs |e1 × e2| ≤ 1e-9·l1·l2 to fall back to the pole), and its pole
 * turn would then roll the whole chain about its axis by an arbitrary angle — a T-pose arm
 * twisting as it starts to reach. So the end position handed to the kernel is put exactly on
 * the upper→lower line, at its distance from the middle joint (moving it by at most
 * l2·1e-5): the kernel then bends toward the pole without rolling the chain.
 */
function straightenNoise(params: Float64Array, po: number): void {
  const ax = params[po + IK_ROOT], ay = params[po + IK_ROOT + 1], az = params[po + IK_ROOT + 2];
  const bx = params[po + IK_MID], by = params[po + IK_MID + 1], bz = params[po + IK_MID + 2];
  const e1x = bx - ax, e1y = by - ay, e1z = bz - az;
  const e2x = params[po + IK_END] - bx, e2y = params[po + IK_END + 1] - by, e2z = params[po + IK_END + 2] - bz;
  const l1 = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
  const l2 = Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
  const cx = e1y * e2z - e1z * e2y, cy = e1z * e2x - e1x * e2z, cz = e1x * e2y - e1y * e2x;
  const sine = Math.sqrt(cx * cx + cy * cy + cz * cz);
  if (!(l1 > 0 && l2 > 0 && sine <= STRAIGHT_SINE * l1 * l2)) return;
  const k = (e1x * e2x + e1y * e2y + e1z * e2z >= 0 ? l2 : -l2) / l1;
  params[po + IK_END] = bx + e1x * k;
  params[po + IK_END + 1] = by + e1y * k;
  params[po + IK_END + 2] = bz + e1z * k;
}

function copyRotation(out: Float64Array, o: number, a: Float64Array, ao: number): void {
  out[o] = a[ao];
  out[o + 1] = a[ao + 1];
  out[o + 2] = a[ao + 2];
  out[o + 3] = a[ao + 3];
}

function copyPosition(out: Float64Array, o: number, a: Float64Array, ao: number): void {
  out[o] = a[ao];
  out[o + 1] = a[ao + 1];
  out[o + 2] = a[ao + 2];
}
