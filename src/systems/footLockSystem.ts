/**
 * footLockSystem — planted feet stay where they landed: while the clips a character plays mark
 * a foot in contact, two-bone IK on its leg holds the foot on a world-space lock; when the
 * contact ends the foot eases back onto the animation.
 *
 * Reads:  Character (skeleton, jointCount), the skeletons' parents, FootLock (settings and leg
 *         state), Layers (clip, time, weight, flags, mask), the masks, the clips' contact tables
 *         (`clip.contacts`, assets/footContactTable.ts), RootMotion (x y z yaw: the world
 *         transform), LocalPose, the update list (`world.updates`, its per-character seconds).
 * Writes: LocalPose (rotations of each locked leg's upper, lower and foot joints; a detached
 *         foot's translation), FootLock's leg state (lock, offset, release, clocks, flags),
 *         `world.scratch.footLock`.
 * Order:  after aimSystem and rootMotionSystem (the world transform of this frame), before
 *         skinSystem (DESIGN §4). Visits the update list: a character update-rate LOD skips keeps
 *         its pose and its locks' clocks.
 *
 * Per character with `FootLock.enabled` and weight w > 0, per leg (upper u, lower k, foot f;
 * R the character's yaw about +Y, t its position; T = `blendTime`; s = `minJerk`, the
 * minimum-jerk easing 6t⁵ − 15t⁴ + 10t³ of Flash and Hogan):
 * 1. **Contact** c = Σ_layers w·contact(clip, marker, time) / Σ w over the override layers
 *    (a clip, weight > 0, not additive), w = the layer's weight × its mask's weight of the foot
 *    joint (an upper-body layer does not count); a clip with no row for the marker counts as not
 *    in contact. Planted when c ≥ ½. contact(…) is the clip's flag at the nearest frame of the
 *    layer's time (loop-aware).
 * 2. **Animated foot** a = R·f_m + t, f_m the foot's model position from the local pose
 *    (`composeModel` of the legs' joints and their ancestors only, as aimSystem does).
 * 3. **Offset** o, the target being p = a + o (world space). Horizontally:
 *    - free: o = o_r·(1 − s(τ/T)), o_r the offset at the last release, τ the seconds since;
 *    - on the planted edge (and not held back, see below): the lock L = a + o (= p: no jump);
 *    - locked: o = L − a, its weight eased in over `easeIn` E when E > 0:
 *      o = o_free + s(λ/E)·(L − a − o_free), λ the seconds since the lock began;
 *    - released when the contact ends, when L lies farther than `FOOT_UNLOCK_RADIUS` (0.3) leg
 *      lengths l = l1 + l2 from a, or when the hip cannot reach L (a teleport by
 *      `setRootTransform`, a body run too far ahead): then o_r = the last applied o, τ = 0, so
 *      o decays continuously from where it was. A release by distance or reach holds the next
 *      lock back (hysteresis) until |o| ≤ `FOOT_REPLANT_RADIUS` (0.1) leg lengths or a new
 *      contact starts. Re-entrant: a foot planted again mid-blend locks at its current p.
 *    Vertically the foot keeps the animation's height, so a heel still rolls and a foot still
 *    lifts off, except that a locked foot the hip cannot reach at that height rises until it
 *    can (a heel coming up), by at most `FOOT_MAX_LIFT` (0.25) l — beyond that (or
 *    horizontally out of reach) the lock is released. That rise is o's vertical part, and
 *    decays like the rest after a release. On the ground (`FootLock.enabled` =
 *    `FOOT_LOCK_GROUND`) a locked foot is held at the plant height above the root transform
 *    instead, eased down over blendTime, after footGround.ts's `lowerPelvis` has lowered the
 *    pelvis as far as the planted legs need; feet not planted keep their animated positions.
 * 4. **IK** (`math/twoBoneIk.ts`: Holden's "Simple Two Joint IK", ozz's IKTwoBoneJob; at weight 1
 *    by {@link solveLegIk}, its construction without trigonometry) of u and k toward
 *    p' = R⁻¹·(a + w·o − t) (model space),
 *    kept within max(|f − u|, `FOOT_MAX_EXTENSION`·l) of the hip, so the knee never snaps
 *    straight; the pole is k + l·b with b the knee's animated bend direction (the part of k − u
 *    across u → f; a straight leg keeps its last one), so the knee bends as animated (it turns
 *    only as far as the hip → target line turns from hip → foot). Then the foot's local
 *    rotation is reset so its model rotation is the animated one. D1, D2 applied as
 *    aimSystem does: q' = inverse(Q_p')·D·Q_p'·q, normalized, with the corrected parents'
 *    rotations taken as products (Q' = D1·Q between upper and lower, D2·D1·Q between lower and
 *    foot) rather than recomposed. Legs are separate branches (setFootLock refuses others), so
 *    correcting one leaves every other leg's animated records valid. A detached foot (not below lower:
 *    an IK foot bone under the root, RobotExpressive's) is the chain's end as it stands: the leg
 *    turns as if it were attached, and the foot's local translation moves it onto p' (its
 *    parent does not move, so its rotation is the animated one).
 *
 * A leg whose o is exactly 0 (free and settled), weight 0, or no lock leaves `LocalPose` bit for
 * bit as it was; a leg neither planted, locked nor easing back is passed over before its chain
 * is composed (its release clock still runs), so a character with no other composes nothing.
 * Non-finite targets skip the leg (its state is cleared). No allocation, no throwing: joint
 * indices beyond the character's skeleton skip the leg. Cost: about 0.5 µs per held or easing leg
 * per frame on JavaScript, 0.6× that on the WebAssembly kernels (bench/footLockCrowd.ts,
 * docs/foot-locking.md).
 *
 * On the WebAssembly kernels (`world.wasm`) the chunk runs in assembly/footLock.ts through
 * src/wasm/footLockWasm.ts: the same steps, decisions and constants in doubles (docs/wasm.md);
 * characters whose skeleton, clips' contact tables or masks have no copy in the kernel area, and
 * characters on the ground, run here. This file's JavaScript path is the reference the kernel is tested against
 * (test/wasm/footLock.test.ts).
 */
import { commitRemovals } from 'bitecs';
import { FOOT_LEGS, FOOT_LOCK_GROUND } from '../components/FootLock.js';
import { updateRange } from '../components/UpdateList.js';
import { composeModel } from '../math/composeModel.js';
import { markPath } from '../math/jointList.js';
import * as affine from '../math/affine.js';
import * as layout from '../math/layout.js';
import { IK_D1, IK_D2, IK_END, IK_MID, IK_POLE, IK_ROOT, IK_TARGET, IK_WEIGHT, solveLegIk } from '../math/twoBoneIk.js';
import { footLockEntriesWasm } from '../wasm/footLockWasm.js';
import { syncKernelArea } from '../wasm/kernels.js';
import type { AnimationWorld, ScratchOf } from '../world.js';
import { lowerPelvis } from './footGround.js';
import * as parts from './footLockParts.js';
import { createFootLockScratch, plantContacts } from './footLockParts.js';
export { createFootLockScratch, FOOT_JOINT_STRIDE, type FootLockScratch } from './footLockParts.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, MATRIX_T } = layout;
const { FOOT_JOINT_STRIDE, FOOT_JOINT_Q, FOOT_MAX_EXTENSION, P_IK, P_DELTA, P_INVERSE, P_MOVE, P_REACH, P_LIFT, P_QA, P_SECONDS, NOT_A_LEG, IDLE } = parts;

/** A lock farther than this many leg lengths (l1 + l2) from the animated foot is released. */
export const FOOT_UNLOCK_RADIUS = 0.3;
/** After a release by distance, a foot locks again only once its offset is within this many leg lengths (or a new contact starts). */
export const FOOT_REPLANT_RADIUS = 0.1;
export { FOOT_MAX_EXTENSION } from './footLockParts.js';
/**
 * A locked foot out of reach at its animated height rises (a heel coming up) by at most this
 * many leg lengths; farther, the lock is released.
 */
export const FOOT_MAX_LIFT = 0.25;
/** Below this sine of the knee's bend, a leg counts as straight and keeps its last bend direction. */
const STRAIGHT_SINE = 1e-4;

/** footLockSystem's scratch (FrameSystem.scratch, built once per world): `world.scratch.footLock`. */
export const footLockScratch = { footLock: createFootLockScratch };

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof footLockScratch> {}
}

/** Holds every character's planted feet; see the file header. */
export function footLockSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  if (world.wasm !== null) syncKernelArea(world.wasm, world.assets.skeletons, world.assets.clips);
  footLockEntities(world, dt, 0, world.characters.dense.length);
}

/**
 * The work of {@link footLockSystem} for the chunk `world.characters.dense[first .. end)`: its
 * characters in the update list. On the WebAssembly kernels (`world.wasm`) the chunk goes to
 * `footLockEntriesWasm` (src/wasm/footLockWasm.ts), which returns each entry it leaves (its
 * skeleton, a clip's contact table or a mask has no copy in the kernel area): that one runs here.
 */
export function footLockEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);
  if (world.wasm === null) {
    footLockRange(world, first, last);
    return;
  }
  let entry = first;
  while (entry < last) {
    entry = footLockEntriesWasm(world, world.wasm, entry, last);
    if (entry >= last) break;
    footLockRange(world, entry, entry + 1);
    entry++;
  }
}

/** The JavaScript path of {@link footLockEntities} for the update-list entries `[first, last)`. */
function footLockRange(world: AnimationWorld, first: number, last: number): void {
  const { Character, FootLock, RootMotion, LocalPose } = world.components;
  const local = LocalPose.data;
  const skeletons = world.assets.skeletons;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const scratch = world.scratch.footLock;
  const { params, list, slot, model, planted: plantedNow } = scratch;
  const updated = world.updates.eids;
  const dts = world.updates.dt;
  const { upper: uppers, lower: lowers, foot: feet, locked, hold, contact: contacts, lock, offset, release, releaseClock, lockClock, bend } = FootLock;

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const mode = FootLock.enabled[eid];
    if (mode === 0) continue;
    const weight = FootLock.weight[eid];
    if (!(weight > 0)) continue;
    const legs = FootLock.legs[eid];
    const jointCount = Character.jointCount[eid];
    const parents = skeletons[Character.skeleton[eid]].parents;
    const seconds = dts[entry];
    const blendTime = FootLock.blendTime[eid];

    // 1. Contact, per leg. A leg neither planted, held nor easing back (o = 0) keeps the animated
    // pose bit for bit, so only its clocks run; the others' paths are composed (below).
    plantContacts(world, eid, jointCount, plantedNow, params);
    let count = 0;
    for (let leg = 0; leg < legs; leg++) {
      const r = eid * FOOT_LEGS + leg;
      if (plantedNow[leg] === NOT_A_LEG) continue;
      // On the ground no leg is idle: a lowered pelvis bends every knee.
      if (mode !== FOOT_LOCK_GROUND && plantedNow[leg] === 0 && locked[r] === 0 && offset[r * 3] === 0 && offset[r * 3 + 1] === 0 && offset[r * 3 + 2] === 0) {
        plantedNow[leg] = IDLE;
        contacts[r] = 0;
        if (releaseClock[r] < blendTime) releaseClock[r] += seconds;
        continue;
      }
      // The joints involved: the leg's foot (and a detached foot's lower) and their ancestors not
      // yet marked, appended top-down, so each joint's parent comes before it in `list`.
      count = markPath(list, slot, parents, feet[r], count);
      if (FootLock.detached[r] === 1) count = markPath(list, slot, parents, lowers[r], count);
    }
    if (count === 0) continue;
    const localOff = eid * poseSize;
    composeModel(model, 0, FOOT_JOINT_STRIDE, local, localOff, parents, 0, count, FOOT_JOINT_Q, list);
    for (let pos = 0; pos < count; pos++) slot[list[pos]] = 0;
    const onGround = mode === FOOT_LOCK_GROUND;
    if (onGround) {
      params[P_SECONDS] = seconds;
      lowerPelvis(world, eid, count, local, localOff, parents);
    }

    const tx = RootMotion.x[eid], ty = RootMotion.y[eid], tz = RootMotion.z[eid];
    const yaw = RootMotion.yaw[eid];
    const cos = Math.cos(yaw), sin = Math.sin(yaw);

    for (let leg = 0; leg < legs; leg++) {
      const r = eid * FOOT_LEGS + leg;
      if (plantedNow[leg] > 1) continue; // not a leg, or idle (step 1)
      const upper = uppers[r], lower = lowers[r], foot = feet[r];
      const r3 = r * 3;

      const inContact = plantedNow[leg] === 1;
      const contactStart = inContact && contacts[r] === 0;
      contacts[r] = inContact ? 1 : 0;

      // 2. The animated leg. Its model records are the animated pose, and stay so: corrections
      // are written to the local pose only, and legs are disjoint (setFootLock refuses a leg
      // inside another), so correcting one moves no joint of another.
      const detached = FootLock.detached[r] === 1;
      const u = upper * FOOT_JOINT_STRIDE + MATRIX_T, k = lower * FOOT_JOINT_STRIDE + MATRIX_T, f = foot * FOOT_JOINT_STRIDE + MATRIX_T;
      const ux = model[u], uy = model[u + 1], uz = model[u + 2];
      const kx = model[k], ky = model[k + 1], kz = model[k + 2];
      const fx = model[f], fy = model[f + 1], fz = model[f + 2];
      // The chain's end: the foot, except that a detached foot stays put while a lowered pelvis
      // (on the ground) moves its leg down: the shin then ends that much below it.
      const ey = detached && onGround ? fy - FootLock.drop[eid] : fy;
      const l1 = Math.sqrt((kx - ux) * (kx - ux) + (ky - uy) * (ky - uy) + (kz - uz) * (kz - uz));
      const l2 = Math.sqrt((fx - kx) * (fx - kx) + (ey - ky) * (ey - ky) + (fz - kz) * (fz - kz));
      const legLength = l1 + l2;
      // World positions: w = R·m + t, R about +Y (x' = x cos + z sin, z' = −x sin + z cos).
      const ax = fx * cos + fz * sin + tx, az = -fx * sin + fz * cos + tz;
      const hx = ux * cos + uz * sin + tx, hy = uy + ty, hz = -ux * sin + uz * cos + tz;
      const ay = fy + ty;
      // The height the planted foot is held at: the animation's, or on the ground the plant height above the root.
      const plantY = onGround ? FootLock.plant[r] + ty : ay;
      // On the ground the pelvis may be lowered: a foot not planted stays where the animation puts
      // it, so an attached one (lowered with the pelvis) is raised back by the drop.
      const rise = onGround && !detached ? FootLock.drop[eid] : 0;
      if (!(ax - ax === 0 && az - az === 0 && hx - hx === 0 && hz - hz === 0 && legLength > 0 && legLength < Infinity)) {
        clearLeg(FootLock, r);
        continue;
      }

      // Never straighter than FOOT_MAX_EXTENSION of the leg (or than the animation has it).
      const animated = Math.sqrt((fx - ux) * (fx - ux) + (ey - uy) * (ey - uy) + (fz - uz) * (fz - uz));
      const limit = animated > FOOT_MAX_EXTENSION * legLength ? animated : FOOT_MAX_EXTENSION * legLength;
      const maxLift = FOOT_MAX_LIFT * legLength;

      // 3. Offset. The clocks advance by this update's seconds, then the free offset decays from the last release.
      const easeIn = FootLock.easeIn[eid];
      if (releaseClock[r] < blendTime) releaseClock[r] += seconds;
      const lockTime = onGround && blendTime > easeIn ? blendTime : easeIn; // on the ground the foot also eases down
      if (locked[r] === 1 && lockClock[r] < lockTime) lockClock[r] += seconds;
      // s(u) = 6u⁵ − 15u⁴ + 10u³ (math/minJerk.ts), written out: a call taking and returning a
      // float, were V8 not to inline it in this long loop, would box both on every leg.
      const tr = blendTime > 0 ? releaseClock[r] / blendTime : 1;
      const free = tr >= 1 ? 0 : tr <= 0 ? 1 : 1 - tr * tr * tr * (tr * (6 * tr - 15) + 10);
      let ofx = release[r3] * free, ofy = release[r3 + 1] * free + rise, ofz = release[r3 + 2] * free;
      let lift = 0;
      if (locked[r] === 1) {
        const dx = lock[r3] - ax, dz = lock[r3 + 2] - az;
        const far = dx * dx + dz * dz > FOOT_UNLOCK_RADIUS * FOOT_UNLOCK_RADIUS * legLength * legLength;
        params[P_REACH] = lock[r3] - hx; params[P_REACH + 1] = plantY - hy; params[P_REACH + 2] = lock[r3 + 2] - hz; params[P_REACH + 3] = limit;
        liftToReach(params);
        lift = params[P_LIFT];
        const unreachable = !(lift <= maxLift);
        if (!inContact || far || unreachable) {
          locked[r] = 0;
          hold[r] = far || unreachable ? 1 : 0;
          release[r3] = offset[r3];
          release[r3 + 1] = offset[r3 + 1] - rise;
          release[r3 + 2] = offset[r3 + 2];
          releaseClock[r] = 0;
          ofx = offset[r3];
          ofy = offset[r3 + 1];
          ofz = offset[r3 + 2];
        }
      }
      if (locked[r] === 0 && inContact) {
        if (contactStart) hold[r] = 0;
        if (hold[r] === 1 && ofx * ofx + ofz * ofz <= FOOT_REPLANT_RADIUS * FOOT_REPLANT_RADIUS * legLength * legLength) hold[r] = 0;
        const lx = ax + ofx, lz = az + ofz;
        params[P_REACH] = lx - hx; params[P_REACH + 1] = plantY - hy; params[P_REACH + 2] = lz - hz; params[P_REACH + 3] = limit;
        liftToReach(params);
        lift = params[P_LIFT];
        if (hold[r] === 0 && lift <= maxLift) {
          locked[r] = 1;
          lock[r3] = lx;
          lock[r3 + 1] = ay + ofy;
          lock[r3 + 2] = lz;
          lockClock[r] = 0;
        }
      }
      let ox = ofx, oy = ofy, oz = ofz;
      if (locked[r] === 1) {
        // The locked offset (L − a horizontally, the lift that keeps L within reach vertically), its weight eased in over `easeIn`.
        const v = easeIn > 0 ? lockClock[r] / easeIn : 1;
        const e = v >= 1 ? 1 : v <= 0 ? 0 : v * v * v * (v * (6 * v - 15) + 10);
        ox = ofx + e * (lock[r3] - ax - ofx);
        if (onGround) {
          // Down (or up) to the ground, plus any lift the hip needs, eased in over blendTime.
          const g = blendTime > 0 ? lockClock[r] / blendTime : 1;
          const s = g >= 1 ? 1 : g <= 0 ? 0 : g * g * g * (g * (6 * g - 15) + 10);
          oy = ofy + e * s * (plantY - ay + lift - ofy);
        } else {
          const lockY = lift > ofy ? lift : ofy;
          oy = ofy + e * (lockY - ofy);
        }
        oz = ofz + e * (lock[r3 + 2] - az - ofz);
      }
      offset[r3] = ox;
      offset[r3 + 1] = oy;
      offset[r3 + 2] = oz;
      // Free and settled: the animated pose, bit for bit (on the ground, unless the pelvis is lowered).
      if (ox === 0 && oy === 0 && oz === 0 && !(onGround && FootLock.drop[eid] > 0)) continue;

      // 4. IK toward the target, in model space: p' = R⁻¹·(a + w·o − t).
      const px = ax + weight * ox - tx, pz = az + weight * oz - tz;
      let qx = px * cos - pz * sin, qy = fy + weight * oy, qz = px * sin + pz * cos;
      const gx = qx - ux, gy = qy - uy, gz = qz - uz;
      const reach = Math.sqrt(gx * gx + gy * gy + gz * gz);
      if (reach > limit) {
        const scale = limit / reach;
        qx = ux + gx * scale; qy = uy + gy * scale; qz = uz + gz * scale;
      }
      if (!(qx - qx === 0 && qz - qz === 0)) {
        clearLeg(FootLock, r);
        continue;
      }
      // The pole: the knee's bend direction, the part of k − u across the hip → foot line.
      const ax2 = fx - ux, ay2 = ey - uy, az2 = fz - uz;
      const along = animated > 0 ? ((kx - ux) * ax2 + (ky - uy) * ay2 + (kz - uz) * az2) / (animated * animated) : 0;
      let bx = kx - ux - ax2 * along, by = ky - uy - ay2 * along, bz = kz - uz - az2 * along;
      const bl = Math.sqrt(bx * bx + by * by + bz * bz);
      if (bl > STRAIGHT_SINE * l1) {
        bx /= bl; by /= bl; bz /= bl;
        bend[r3] = bx; bend[r3 + 1] = by; bend[r3 + 2] = bz;
      } else {
        bx = bend[r3]; by = bend[r3 + 1]; bz = bend[r3 + 2];
      }
      params[P_IK + IK_ROOT] = ux; params[P_IK + IK_ROOT + 1] = uy; params[P_IK + IK_ROOT + 2] = uz;
      params[P_IK + IK_MID] = kx; params[P_IK + IK_MID + 1] = ky; params[P_IK + IK_MID + 2] = kz;
      params[P_IK + IK_END] = fx; params[P_IK + IK_END + 1] = ey; params[P_IK + IK_END + 2] = fz;
      params[P_IK + IK_TARGET] = qx; params[P_IK + IK_TARGET + 1] = qy; params[P_IK + IK_TARGET + 2] = qz;
      params[P_IK + IK_POLE] = kx + legLength * bx;
      params[P_IK + IK_POLE + 1] = ky + legLength * by;
      params[P_IK + IK_POLE + 2] = kz + legLength * bz;
      params[P_IK + IK_WEIGHT] = 1;
      solveLegIk(params, P_DELTA, params, P_IK);
      turnLeg(local, localOff, FootLock, r, model, parents, params);
      if (detached) {
        // A detached foot does not follow the shin: move it onto the target itself (its parent
        // is not turned, so it keeps its animated model rotation): t' = t + M_p⁻¹·(p' − f).
        params[P_MOVE] = qx - fx; params[P_MOVE + 1] = qy - fy; params[P_MOVE + 2] = qz - fz;
        const parent = parents[foot];
        if (parent >= 0) {
          affine.invert(params, P_INVERSE, model, parent * FOOT_JOINT_STRIDE);
          affine.transformVector(params, P_MOVE, params, P_INVERSE, params, P_MOVE);
        }
        const t = localOff + foot * POSE_STRIDE + POSE_T;
        const mx = local[t] + params[P_MOVE], my = local[t + 1] + params[P_MOVE + 1], mz = local[t + 2] + params[P_MOVE + 2];
        if (mx - mx === 0 && my - my === 0 && mz - mz === 0) {
          local[t] = mx; local[t + 1] = my; local[t + 2] = mz;
        }
      }
    }
  }
}

/**
 * How far (≥ 0) a foot `params[P_REACH .. + 3)` (dx dy dz) from the hip must rise for the hip to
 * reach it within `params[P_REACH + 3]` (the limit), written to `params[P_LIFT]`: 0 when it
 * already does, Infinity when no height does (horizontally farther than the limit). Numbers go
 * through the block, so nothing is boxed if V8 does not inline the call.
 */
function liftToReach(params: Float64Array): void {
  const dx = params[P_REACH], dy = params[P_REACH + 1], dz = params[P_REACH + 2], limit = params[P_REACH + 3];
  const h2 = dx * dx + dz * dz;
  let lift = 0;
  if (!(h2 <= limit * limit)) lift = Infinity;
  else if (h2 + dy * dy > limit * limit) {
    // The height at which |(dx, y, dz)| = limit, below the hip: y = −√(limit² − h²).
    const y = -Math.sqrt(limit * limit - h2);
    lift = y > dy ? y - dy : 0;
  }
  params[P_LIFT] = lift;
}

/** A leg whose pose went non-finite: free, no offset (its settings stay). */
function clearLeg(footLock: AnimationWorld['components']['FootLock'], r: number): void {
  footLock.locked[r] = 0;
  footLock.hold[r] = 0;
  for (let c = 0; c < 3; c++) {
    footLock.offset[r * 3 + c] = 0;
    footLock.release[r * 3 + c] = 0;
  }
}

/**
 * Writes the IK's deltas D1, D2 (`params[P_DELTA ..]`, model space) into the local rotations of
 * leg row `r` (its joints `upper`, `lower`, `foot` of the pose at `local[localOff ..]`), from the animated
 * model rotations in `model` (step 4 of the file header). The corrected rotations follow from the
 * animated ones without recomposing the chain: Q_upper' = D1·Q_upper, so a joint between upper
 * and lower (lower's parent) has Q' = D1·Q, and one between lower and foot (the foot's parent)
 * Q' = D2·D1·Q. So, with Q_p a joint's parent's animated model rotation:
 * - upper: q' = inverse(Q_p)·D1·Q_p·q (q' = D1·q for a root);
 * - lower: q' = inverse(P)·D2·P·q, P = D1·Q_p;
 * - the foot, unless `detached`: q' = inverse(P)·Q_f, P = D2·D1·Q_p, so it keeps its animated
 *   model rotation Q_f.
 * Each normalized; a joint whose result is not finite or zero is left as it was. Straight-line
 * products (Hamilton, as `quat.multiply`, in the order the former calls took them) in one call:
 * eight calls a leg cost more than their arithmetic. Takes no float argument, so nothing is boxed
 * if V8 does not inline it.
 */
function turnLeg(
  local: Float32Array, localOff: number, footLock: AnimationWorld['components']['FootLock'], r: number, model: Float64Array, parents: Int16Array,
  params: Float64Array,
): void {
  const upper = footLock.upper[r], lower = footLock.lower[r], foot = footLock.foot[r], detached = footLock.detached[r] === 1;
  const d1x = params[P_DELTA + IK_D1], d1y = params[P_DELTA + IK_D1 + 1], d1z = params[P_DELTA + IK_D1 + 2], d1w = params[P_DELTA + IK_D1 + 3];
  const d2x = params[P_DELTA + IK_D2], d2y = params[P_DELTA + IK_D2 + 1], d2z = params[P_DELTA + IK_D2 + 2], d2w = params[P_DELTA + IK_D2 + 3];

  // upper: r = conj(P)·(D1·P), then r·q.
  let rx = d1x, ry = d1y, rz = d1z, rw = d1w;
  const pu = parents[upper];
  if (pu >= 0) {
    const m = pu * FOOT_JOINT_STRIDE;
    const px = model[m + FOOT_JOINT_Q], py = model[m + FOOT_JOINT_Q + 1], pz = model[m + FOOT_JOINT_Q + 2], pw = model[m + FOOT_JOINT_Q + 3];
    const ux = d1w * px + d1x * pw + d1y * pz - d1z * py;
    const uy = d1w * py - d1x * pz + d1y * pw + d1z * px;
    const uz = d1w * pz + d1x * py - d1y * px + d1z * pw;
    const uw = d1w * pw - d1x * px - d1y * py - d1z * pz;
    rx = pw * ux - px * uw - py * uz + pz * uy;
    ry = pw * uy + px * uz - py * uw - pz * ux;
    rz = pw * uz - px * uy + py * ux - pz * uw;
    rw = pw * uw + px * ux + py * uy + pz * uz;
  }
  const lu = localOff + upper * POSE_STRIDE;
  const qux = local[lu + POSE_Q], quy = local[lu + POSE_Q + 1], quz = local[lu + POSE_Q + 2], quw = local[lu + POSE_Q + 3];
  params[P_QA] = rw * qux + rx * quw + ry * quz - rz * quy;
  params[P_QA + 1] = rw * quy - rx * quz + ry * quw + rz * qux;
  params[P_QA + 2] = rw * quz + rx * quy - ry * qux + rz * quw;
  params[P_QA + 3] = rw * quw - rx * qux - ry * quy - rz * quz;
  writeRotation(local, lu, params);

  // lower: P = D1·Q_p, r = conj(P)·(D2·P), then r·q.
  {
    const m = parents[lower] * FOOT_JOINT_STRIDE;
    const bx = model[m + FOOT_JOINT_Q], by = model[m + FOOT_JOINT_Q + 1], bz = model[m + FOOT_JOINT_Q + 2], bw = model[m + FOOT_JOINT_Q + 3];
    const px = d1w * bx + d1x * bw + d1y * bz - d1z * by;
    const py = d1w * by - d1x * bz + d1y * bw + d1z * bx;
    const pz = d1w * bz + d1x * by - d1y * bx + d1z * bw;
    const pw = d1w * bw - d1x * bx - d1y * by - d1z * bz;
    const ux = d2w * px + d2x * pw + d2y * pz - d2z * py;
    const uy = d2w * py - d2x * pz + d2y * pw + d2z * px;
    const uz = d2w * pz + d2x * py - d2y * px + d2z * pw;
    const uw = d2w * pw - d2x * px - d2y * py - d2z * pz;
    const sx = pw * ux - px * uw - py * uz + pz * uy, sy = pw * uy + px * uz - py * uw - pz * ux;
    const sz = pw * uz - px * uy + py * ux - pz * uw, sw = pw * uw + px * ux + py * uy + pz * uz;
    const l = localOff + lower * POSE_STRIDE;
    const qx = local[l + POSE_Q], qy = local[l + POSE_Q + 1], qz = local[l + POSE_Q + 2], qw = local[l + POSE_Q + 3];
    params[P_QA] = sw * qx + sx * qw + sy * qz - sz * qy;
    params[P_QA + 1] = sw * qy - sx * qz + sy * qw + sz * qx;
    params[P_QA + 2] = sw * qz + sx * qy - sy * qx + sz * qw;
    params[P_QA + 3] = sw * qw - sx * qx - sy * qy - sz * qz;
    writeRotation(local, l, params);
  }
  if (detached) return;

  // foot: P = (D2·D1)·Q_p, then conj(P)·Q_f.
  const ex = d2w * d1x + d2x * d1w + d2y * d1z - d2z * d1y;
  const ey = d2w * d1y - d2x * d1z + d2y * d1w + d2z * d1x;
  const ez = d2w * d1z + d2x * d1y - d2y * d1x + d2z * d1w;
  const ew = d2w * d1w - d2x * d1x - d2y * d1y - d2z * d1z;
  const m = parents[foot] * FOOT_JOINT_STRIDE;
  const bx = model[m + FOOT_JOINT_Q], by = model[m + FOOT_JOINT_Q + 1], bz = model[m + FOOT_JOINT_Q + 2], bw = model[m + FOOT_JOINT_Q + 3];
  const px = ew * bx + ex * bw + ey * bz - ez * by;
  const py = ew * by - ex * bz + ey * bw + ez * bx;
  const pz = ew * bz + ex * by - ey * bx + ez * bw;
  const pw = ew * bw - ex * bx - ey * by - ez * bz;
  const f = foot * FOOT_JOINT_STRIDE;
  const cx = -px, cy = -py, cz = -pz;
  const fx = model[f + FOOT_JOINT_Q], fy = model[f + FOOT_JOINT_Q + 1], fz = model[f + FOOT_JOINT_Q + 2], fw = model[f + FOOT_JOINT_Q + 3];
  params[P_QA] = pw * fx + cx * fw + cy * fz - cz * fy;
  params[P_QA + 1] = pw * fy - cx * fz + cy * fw + cz * fx;
  params[P_QA + 2] = pw * fz + cx * fy - cy * fx + cz * fw;
  params[P_QA + 3] = pw * fw - cx * fx - cy * fy - cz * fz;
  writeRotation(local, localOff + foot * POSE_STRIDE, params);
}

/** Writes `params[P_QA ..]` normalized into the rotation of the joint pose at `local[l ..]`; nothing when it is not finite or zero. */
function writeRotation(local: Float32Array, l: number, params: Float64Array): void {
  const nx = params[P_QA], ny = params[P_QA + 1], nz = params[P_QA + 2], nw = params[P_QA + 3];
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  if (!(len > 0 && len < Infinity)) return;
  // One division: n·(1/len) is n/len to a unit in the last place of a double, far below the
  // float32 the pose stores.
  const inv = 1 / len;
  local[l + POSE_Q] = nx * inv;
  local[l + POSE_Q + 1] = ny * inv;
  local[l + POSE_Q + 2] = nz * inv;
  local[l + POSE_Q + 3] = nw * inv;
}
