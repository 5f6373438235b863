import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `FootLock`: planted feet held where they landed. Per character up to `FOOT_LEGS` (4) legs,
 * each a two-bone chain upper – lower – foot (thigh – shin – ankle, or a quadruped's); while
 * the clips it plays mark a foot in contact (`footDown:` / `footUp:` events, see
 * assets/footContactTable.ts) `footLockSystem` keeps the foot on its world-space lock by
 * two-bone IK and, when the contact ends, eases it back onto the animation. `setFootLock` /
 * `clearFootLock` (src/api/footLock.ts) set it.
 *
 * Indexed by eid (`rows = maxEntities + 1`):
 * - `enabled[eid]`: `FOOT_LOCK_ON` (1) when the character's feet lock, `FOOT_LOCK_GROUND` (2)
 *   when they lock on the ground (`setFootLock`'s `ground`), 0 (default); the entity has the
 *   `FootLock` bitecs component exactly when not 0.
 * - `legs[eid]`: legs in use, in [0, FOOT_LEGS].
 * - `weight[eid]`: [0, 1] (default 1): the share of each foot's offset from the animation
 *   applied; 0 leaves the pose untouched, bit for bit.
 * - `blendTime[eid]`: seconds (default `FOOT_BLEND_TIME`) over which a released foot eases back
 *   onto the animation (minimum-jerk).
 * - `easeIn[eid]`: seconds (default 0) over which a new lock's weight eases in (minimum-jerk):
 *   the foot slows onto its lock instead of stopping on the frame the contact starts, and slides
 *   meanwhile (see `setFootLock`).
 * - `pelvis[eid]`: on the ground, the joint lowered when a leg cannot reach the ground (the legs'
 *   nearest common ancestor); `FOOT_NO_JOINT` otherwise.
 * - `drop[eid]`: metres the pelvis is lowered by at the last update (model space, ≥ 0).
 *
 * Indexed by leg row `r = eid × FOOT_LEGS + leg` (settings, then state):
 * - `upper[r]`, `lower[r]`, `foot[r]`: joint indices (`FOOT_NO_JOINT`, −1, when unused); upper is
 *   an ancestor of lower, and lower of foot unless the foot is detached.
 * - `detached[r]`: 1 when the foot is not below lower in the hierarchy (an IK foot, as
 *   RobotExpressive's `Foot.L` under its root): the system then moves the foot joint itself onto
 *   the target and turns the leg so the shin follows it.
 * - `plant[r]`: on the ground, the foot joint's height above the root transform while planted
 *   (model space, metres: its rest height, or `ground`'s number).
 * - `key[r]`: `contactKey` of the marker the leg follows (the joint name in the clips' events).
 * - `locked[r]`: 1 while the foot is held on `lock`.
 * - `hold[r]`: 1 after a release by distance, until the animated foot comes back within the
 *   replant radius or a new contact starts (replant hysteresis).
 * - `contact[r]`: the contact verdict of the last update (to see a contact start).
 * - `lock[r × 3 ..]`: the lock, world space, metres.
 * - `offset[r × 3 ..]`: o, the offset of the IK target from the animated foot applied at the last
 *   update, world space (the target is a + o).
 * - `release[r × 3 ..]`: o at the last release, from which o decays to 0.
 * - `releaseClock[r]`, `lockClock[r]`: seconds since the last release, since the lock began.
 * - `bend[r × 3 ..]`: the knee's last bend direction, model space, unit (a straight leg has none
 *   of its own and keeps this one).
 *
 * The settings in Float64; the leg state (positions, offsets, clocks, bend) in Float32, which
 * resolves a world position 1 km from the origin to 0.06 mm: 328 bytes per character.
 */
export interface FootLockComponent {
  readonly enabled: Uint8Array;
  readonly legs: Uint8Array;
  readonly weight: Float64Array;
  readonly blendTime: Float64Array;
  readonly easeIn: Float64Array;
  readonly pelvis: Int16Array;
  readonly drop: Float32Array;
  readonly upper: Int16Array;
  readonly lower: Int16Array;
  readonly foot: Int16Array;
  readonly detached: Uint8Array;
  readonly plant: Float32Array;
  readonly key: Int32Array;
  readonly locked: Uint8Array;
  readonly hold: Uint8Array;
  readonly contact: Uint8Array;
  readonly lock: Float32Array;
  readonly offset: Float32Array;
  readonly release: Float32Array;
  readonly releaseClock: Float32Array;
  readonly lockClock: Float32Array;
  readonly bend: Float32Array;
}

/** `FootLock.enabled`: planted feet are held where they landed, at the animation's height. */
export const FOOT_LOCK_ON = 1;
/** `FootLock.enabled`: planted feet are held where they landed, on the ground (see `setFootLock`'s `ground`). */
export const FOOT_LOCK_GROUND = 2;
/** Legs per character (a biped uses 2, a quadruped 4). */
export const FOOT_LEGS = 4;
/** `FootLock.upper` / `lower` / `foot` of an unused leg: no joint. */
export const FOOT_NO_JOINT = -1;
/** Default `FootLock.blendTime`, seconds. */
export const FOOT_BLEND_TIME = 0.2;

/** Creates the `FootLock` component for `rows` entity ids (no feet lock yet). */
export function createFootLockComponent(rows: number, alloc: PoolAllocator = heapAllocator): FootLockComponent {
  const legRows = rows * FOOT_LEGS;
  const footLock: FootLockComponent = {
    enabled: alloc.array(Uint8Array, rows),
    legs: alloc.array(Uint8Array, rows),
    weight: alloc.array(Float64Array, rows),
    blendTime: alloc.array(Float64Array, rows),
    easeIn: alloc.array(Float64Array, rows),
    pelvis: alloc.array(Int16Array, rows),
    drop: alloc.array(Float32Array, rows),
    upper: alloc.array(Int16Array, legRows),
    lower: alloc.array(Int16Array, legRows),
    foot: alloc.array(Int16Array, legRows),
    detached: alloc.array(Uint8Array, legRows),
    plant: alloc.array(Float32Array, legRows),
    key: alloc.array(Int32Array, legRows),
    locked: alloc.array(Uint8Array, legRows),
    hold: alloc.array(Uint8Array, legRows),
    contact: alloc.array(Uint8Array, legRows),
    lock: alloc.array(Float32Array, legRows * 3),
    offset: alloc.array(Float32Array, legRows * 3),
    release: alloc.array(Float32Array, legRows * 3),
    releaseClock: alloc.array(Float32Array, legRows),
    lockClock: alloc.array(Float32Array, legRows),
    bend: alloc.array(Float32Array, legRows * 3),
  };
  for (let eid = 0; eid < rows; eid++) resetFootLock(footLock, eid);
  return footLock;
}

/**
 * Clears `eid`'s foot lock back to the state of a new world: disabled, no legs, weight 1, the
 * default blend time, every leg's joints and state cleared. Also the row reset
 * ({@link footLockRows}) that `spawnCharacter` runs when an entity id is (re)used.
 */
export function resetFootLock(footLock: FootLockComponent, eid: number): void {
  footLock.enabled[eid] = 0;
  footLock.legs[eid] = 0;
  footLock.weight[eid] = 1;
  footLock.blendTime[eid] = FOOT_BLEND_TIME;
  footLock.easeIn[eid] = 0;
  footLock.pelvis[eid] = FOOT_NO_JOINT;
  footLock.drop[eid] = 0;
  for (let leg = 0; leg < FOOT_LEGS; leg++) {
    const r = eid * FOOT_LEGS + leg;
    footLock.upper[r] = FOOT_NO_JOINT;
    footLock.lower[r] = FOOT_NO_JOINT;
    footLock.foot[r] = FOOT_NO_JOINT;
    footLock.detached[r] = 0;
    footLock.plant[r] = 0;
    footLock.key[r] = 0;
    resetLegState(footLock, r);
  }
}

/** Clears leg row `r`'s state (not its joints): free, no offset, clocks at 0, bend along +Z. */
export function resetLegState(footLock: FootLockComponent, r: number): void {
  footLock.locked[r] = 0;
  footLock.hold[r] = 0;
  footLock.contact[r] = 0;
  for (let c = 0; c < 3; c++) {
    footLock.lock[r * 3 + c] = 0;
    footLock.offset[r * 3 + c] = 0;
    footLock.release[r * 3 + c] = 0;
    footLock.bend[r * 3 + c] = c === 2 ? 1 : 0;
  }
  footLock.releaseClock[r] = 0;
  footLock.lockClock[r] = 0;
}

/** `FootLock`'s row lifecycle: {@link resetFootLock}. */
export const footLockRows: RowLifecycle<FootLockComponent> = { reset: resetFootLock, kept: {} };
