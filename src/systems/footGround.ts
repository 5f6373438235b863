/**
 * Feet on the ground for footLockSystem (`setFootLock(…, { ground })`): the pelvis lowered as far
 * as the planted legs need to reach the ground. A body retargeted from another build — wider
 * hips, other leg proportions — often stands its hips too high for its feet to touch the ground
 * where they land; Unreal's foot placement lowers the pelvis the same way.
 *
 * Reads:  FootLock (legs, locks, plant heights, pelvis, drop, blendTime), RootMotion (x z yaw),
 *         the scratch's composed model records, list and planted verdicts.
 * Writes: FootLock.drop; the model records of the pelvis and the composed joints below it
 *         (lowered); LocalPose (the pelvis's translation).
 */
import { FOOT_LEGS } from '../components/FootLock.js';
import * as affine from '../math/affine.js';
import { MATRIX_T, POSE_STRIDE, POSE_T } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';
import { FOOT_JOINT_STRIDE, FOOT_MAX_EXTENSION, IDLE, P_INVERSE, P_MOVE, P_SECONDS } from './footLockParts.js';

/** The pelvis is lowered by at most this many leg lengths (l1 + l2 of the leg that asks most). */
export const FOOT_MAX_DROP = 0.25;
/**
 * The pelvis's drop follows a rising goal with a time constant of this share of `blendTime` (the
 * goal eases in with the feet already), a falling one with blendTime itself.
 */
const DROP_TIME_SHARE = 1 / 16;

/**
 * For character `eid` (its `count` composed joints in the scratch, its pose at `local[localOff ..]`,
 * the update's seconds at `params[P_SECONDS]`): the drop each planted or locked leg needs for
 * its hip to reach the ground under the foot's target (the lock, or the animated foot on the
 * contact's first frame) within `FOOT_MAX_EXTENSION` of the leg: δ = H − √(l² − r²), H the hip's
 * height above the planted height, r its horizontal distance; the goal is the largest (legs out
 * of reach horizontally ask nothing: they release), at most `FOOT_MAX_DROP` of that leg; the
 * height is the one the foot eases to from its animated height over blendTime (and back after a
 * release, as its offset decays), so the goal comes and goes with the foot. The drop follows
 * the goal by δ += (goal − δ)(1 − e^(−dt/τ)), τ = blendTime / 16 going down and blendTime
 * coming back up (a foot lifting off stops asking within a few frames; at once when 0), and
 * is applied by moving the pelvis down (its local translation by M_parent⁻¹·(0, −δ, 0)) and
 * every composed joint below it in the model records, so the legs' IK sees the lowered hips.
 * footLockSystem then keeps every foot that is not planted where the animation puts it (the
 * knees bend more): an attached foot's target rises by δ again, a detached one did not move.
 */
export function lowerPelvis(world: AnimationWorld, eid: number, count: number, local: Float32Array, localOff: number, parents: Int16Array): void {
  const { FootLock, RootMotion } = world.components;
  const { model, list, slot, params, planted } = world.scratch.footLock;
  const pelvis = FootLock.pelvis[eid];
  if (pelvis < 0) return;
  const tx = RootMotion.x[eid], tz = RootMotion.z[eid];
  const cos = Math.cos(RootMotion.yaw[eid]), sin = Math.sin(RootMotion.yaw[eid]);
  const blendTime = FootLock.blendTime[eid];
  let goal = 0;
  for (let leg = 0; leg < FootLock.legs[eid]; leg++) {
    const r = eid * FOOT_LEGS + leg;
    if (planted[leg] >= IDLE) continue;
    const locked = FootLock.locked[r] === 1;
    // A released foot's offset decays over blendTime (from the previous update's clock): the goal follows it back up.
    const back = blendTime > 0 ? FootLock.releaseClock[r] / blendTime : 1;
    const easing = !locked && back < 1 && (FootLock.release[r * 3] !== 0 || FootLock.release[r * 3 + 1] !== 0 || FootLock.release[r * 3 + 2] !== 0);
    if (planted[leg] === 0 && !locked && !easing) continue;
    const u = FootLock.upper[r] * FOOT_JOINT_STRIDE + MATRIX_T, k = FootLock.lower[r] * FOOT_JOINT_STRIDE + MATRIX_T;
    const f = FootLock.foot[r] * FOOT_JOINT_STRIDE + MATRIX_T;
    const l1 = Math.sqrt((model[k] - model[u]) ** 2 + (model[k + 1] - model[u + 1]) ** 2 + (model[k + 2] - model[u + 2]) ** 2);
    const l2 = Math.sqrt((model[f] - model[k]) ** 2 + (model[f + 1] - model[k + 1]) ** 2 + (model[f + 2] - model[k + 2]) ** 2);
    const limit = FOOT_MAX_EXTENSION * (l1 + l2);
    // The target's horizontal position in model space: the lock, R⁻¹·(L − t); a released foot's
    // animated position plus its decaying offset, R⁻¹·o_r·(1 − s); else the animated foot.
    const free = easing ? (back <= 0 ? 1 : 1 - back * back * back * (back * (6 * back - 15) + 10)) : 0;
    let px = model[f], pz = model[f + 2];
    if (locked) {
      const wx = FootLock.lock[r * 3] - tx, wz = FootLock.lock[r * 3 + 2] - tz;
      px = wx * cos - wz * sin;
      pz = wx * sin + wz * cos;
    } else if (easing) {
      const ox = FootLock.release[r * 3] * free, oz = FootLock.release[r * 3 + 2] * free;
      px += ox * cos - oz * sin;
      pz += ox * sin + oz * cos;
    }
    const h2 = (px - model[u]) * (px - model[u]) + (pz - model[u + 2]) * (pz - model[u + 2]);
    if (!(h2 < limit * limit)) continue;
    // The foot's target height as footLockSystem eases it from the animated height down to the
    // plant height over blendTime (from the lock's clock; 0 on a contact's first frame).
    let height = model[f + 1];
    if (locked) {
      const g = blendTime > 0 ? FootLock.lockClock[r] / blendTime : 1;
      const ease = g <= 0 ? 0 : g >= 1 ? 1 : g * g * g * (g * (6 * g - 15) + 10);
      height += ease * (FootLock.plant[r] - height);
    } else if (easing) {
      height += FootLock.release[r * 3 + 1] * free;
    }
    let need = model[u + 1] - height - Math.sqrt(limit * limit - h2);
    if (need > FOOT_MAX_DROP * (l1 + l2)) need = FOOT_MAX_DROP * (l1 + l2);
    if (need > goal) goal = need;
  }
  // Down with the feet (their goal eases in already), back up over about blendTime: a foot that
  // lifts off stops asking within a few frames, and the hips would pop up with it.
  const tau = (goal > FootLock.drop[eid] ? DROP_TIME_SHARE : 1) * blendTime;
  const previous = FootLock.drop[eid];
  let drop = tau > 0 ? previous + (goal - previous) * (1 - Math.exp(-params[P_SECONDS] / tau)) : goal;
  if (!(drop > 1e-7)) drop = 0; // settled (or not finite): the animated pose, bit for bit
  FootLock.drop[eid] = drop;
  if (drop === 0) return;

  // Lower the pelvis and the composed joints below it (model space: −δ in y), marking them in `slot` as found top-down.
  for (let pos = 0; pos < count; pos++) {
    const j = list[pos];
    if (j !== pelvis && !(parents[j] >= 0 && slot[parents[j]] === 1)) continue;
    slot[j] = 1;
    model[j * FOOT_JOINT_STRIDE + MATRIX_T + 1] -= drop;
  }
  for (let pos = 0; pos < count; pos++) slot[list[pos]] = 0;
  params[P_MOVE] = 0; params[P_MOVE + 1] = -drop; params[P_MOVE + 2] = 0;
  const parent = parents[pelvis];
  if (parent >= 0) {
    affine.invert(params, P_INVERSE, model, parent * FOOT_JOINT_STRIDE);
    affine.transformVector(params, P_MOVE, params, P_INVERSE, params, P_MOVE);
  }
  const t = localOff + pelvis * POSE_STRIDE + POSE_T;
  local[t] += params[P_MOVE];
  local[t + 1] += params[P_MOVE + 1];
  local[t + 2] += params[P_MOVE + 2];
}
