import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `LookAt`: turns a character's head (and optionally its neck and a spine joint) so that the
 * head's forward axis points at one of the character's followers (`Follower`, a slot chosen
 * by `follower`; `src/api/followers.ts`), within yaw and pitch limits, blended with the animated pose
 * by a weight. `aimSystem` applies it; `setLookAt` / `clearLookAt` (`src/api/aim.ts`) set it.
 *
 * Indexed by eid (`rows = maxEntities + 1`):
 * - `enabled[eid]`: 1 when the character looks at its follower, 0 (default) when not; the
 *   entity has the `LookAt` bitecs component exactly when 1.
 * - `follower[eid]`: the follower slot it looks at, in [0, FOLLOW_SLOTS) (default 0).
 * - `head[eid]`, `neck[eid]`, `spine[eid]`: joint indices; `neck` and `spine` are −1 when absent
 *   (`LOOK_NO_JOINT`). When present, `spine` is an ancestor of `neck` (or of `head` without a
 *   neck) and `neck` an ancestor of `head`.
 * - `spineFraction[eid]`, `neckFraction[eid]`: the share of the turn the spine and the neck
 *   take, each in [0, 1], summed ≤ 1 (0 when the joint is absent); the head takes the rest
 *   and always finishes the aim (see `aimSystem`).
 * - `axis[eid × 3 ..]`: the head's forward axis `x y z` in the head joint's own space, unit.
 *   Default (`setLookAt` without `axis`): the direction that points along the character's
 *   model +Z (forward) when the skeleton is in its rest pose, i.e. inverse(Q_rest)·(0, 0, 1)
 *   with Q_rest the head's rest model rotation. So a rig whose head looks ahead at rest needs
 *   no axis; a rig whose rest pose looks elsewhere (or whose model forward is not +Z) does.
 * - `yawLimit[eid]`: radians in [0, π]: how far the head may turn left or right of the
 *   character's forward (model +Z), about model +Y (default 70°, `LOOK_DEFAULT_YAW_LIMIT`).
 * - `pitchLimit[eid]`: radians in [0, π/2]: how far it may look up or down (default 40°).
 * - `weight[eid]`: [0, 1]: 0 leaves the animated pose untouched (bit for bit), 1 applies the
 *   whole turn; in between, the turn's angle times the weight (default 1).
 *
 * Float64 for the numbers, so they reach the look-at kernel's Float64 params block unrounded.
 * 72 bytes per character.
 */
export interface LookAtComponent {
  readonly enabled: Uint8Array;
  readonly follower: Uint8Array;
  readonly head: Int16Array;
  readonly neck: Int16Array;
  readonly spine: Int16Array;
  readonly neckFraction: Float64Array;
  readonly spineFraction: Float64Array;
  readonly axis: Float64Array;
  readonly yawLimit: Float64Array;
  readonly pitchLimit: Float64Array;
  readonly weight: Float64Array;
}

/** `LookAt.neck` / `LookAt.spine` (and `head` of a cleared look-at): no joint. */
export const LOOK_NO_JOINT = -1;
/** Default yaw limit: 70°, in radians. */
export const LOOK_DEFAULT_YAW_LIMIT = (70 * Math.PI) / 180;
/** Default pitch limit: 40°, in radians. */
export const LOOK_DEFAULT_PITCH_LIMIT = (40 * Math.PI) / 180;
/** Default share of the turn taken by the neck, when a neck is given. */
export const LOOK_DEFAULT_NECK_FRACTION = 0.3;
/** Default share of the turn taken by the spine joint, when one is given. */
export const LOOK_DEFAULT_SPINE_FRACTION = 0.2;

/** Creates the `LookAt` component for `rows` entity ids (nobody looks at anything yet). */
export function createLookAtComponent(rows: number, alloc: PoolAllocator = heapAllocator): LookAtComponent {
  const lookAt: LookAtComponent = {
    enabled: alloc.array(Uint8Array, rows),
    follower: alloc.array(Uint8Array, rows),
    head: alloc.array(Int16Array, rows),
    neck: alloc.array(Int16Array, rows),
    spine: alloc.array(Int16Array, rows),
    neckFraction: alloc.array(Float64Array, rows),
    spineFraction: alloc.array(Float64Array, rows),
    axis: alloc.array(Float64Array, rows * 3),
    yawLimit: alloc.array(Float64Array, rows),
    pitchLimit: alloc.array(Float64Array, rows),
    weight: alloc.array(Float64Array, rows),
  };
  for (let eid = 0; eid < rows; eid++) resetLookAt(lookAt, eid);
  return lookAt;
}

/**
 * Clears `eid`'s look-at back to the state of a new world: disabled, follower slot 0, no
 * joints, axis +Z, default limits, weight 1. Also the row reset
 * ({@link lookAtRows}) that `spawnCharacter` runs when an entity id is (re)used.
 */
export function resetLookAt(lookAt: LookAtComponent, eid: number): void {
  lookAt.enabled[eid] = 0;
  lookAt.follower[eid] = 0;
  lookAt.head[eid] = LOOK_NO_JOINT;
  lookAt.neck[eid] = LOOK_NO_JOINT;
  lookAt.spine[eid] = LOOK_NO_JOINT;
  lookAt.neckFraction[eid] = 0;
  lookAt.spineFraction[eid] = 0;
  lookAt.axis[eid * 3] = 0;
  lookAt.axis[eid * 3 + 1] = 0;
  lookAt.axis[eid * 3 + 2] = 1;
  lookAt.yawLimit[eid] = LOOK_DEFAULT_YAW_LIMIT;
  lookAt.pitchLimit[eid] = LOOK_DEFAULT_PITCH_LIMIT;
  lookAt.weight[eid] = 1;
}

/** `LookAt`'s row lifecycle: {@link resetLookAt}. */
export const lookAtRows: RowLifecycle<LookAtComponent> = { reset: resetLookAt, kept: {} };
