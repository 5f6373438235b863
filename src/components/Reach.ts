import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `Reach`: two-bone IK (upper arm – forearm – hand, thigh – shin – foot) that puts a chain's
 * end joint on one of the character's followers (`Follower`, a slot chosen by `follower`;
 * `src/api/followers.ts`), the middle joint bending toward a pole, blended with the animated pose by
 * a weight. `aimSystem` applies it;
 * `setReach` / `clearReach` (`src/api/aim.ts`) set it. A target out of reach gets a straight chain
 * pointing at it (see `math/twoBoneIk.ts`).
 *
 * Indexed by eid (`rows = maxEntities + 1`):
 * - `enabled[eid]`: 1 when the character reaches for its follower, 0 (default) when not; the
 *   entity has the `Reach` bitecs component exactly when 1.
 * - `follower[eid]`: the follower slot it reaches for, in [0, FOLLOW_SLOTS) (default 0).
 * - `upper[eid]`, `lower[eid]`, `end[eid]`: joint indices (−1, `REACH_NO_JOINT`, when
 *   cleared); `upper` is an ancestor of `lower` and `lower` of `end` (usually the parent;
 *   joints in between, such as twist bones, ride along unchanged).
 * - `pole[eid × 3 ..]`: the pole, a point `x y z` in model space (metres): the middle joint
 *   bends toward it. Default (`setReach` without `pole`): behind and below the middle joint
 *   at rest, `lower_rest + (l1 + l2)·(0, −√½, −√½)` with l1, l2 the rest bone lengths — an
 *   elbow that drops down and back, as arms do. Legs want a pole in front of the knee.
 * - `weight[eid]`: [0, 1]: 0 leaves the animated pose untouched (bit for bit), 1 reaches the
 *   target; in between, both joints' corrections scaled in angle (default 1).
 *
 * Float64 for the numbers, so they reach the IK kernel's Float64 params block unrounded.
 * 40 bytes per character.
 */
export interface ReachComponent {
  readonly enabled: Uint8Array;
  readonly follower: Uint8Array;
  readonly upper: Int16Array;
  readonly lower: Int16Array;
  readonly end: Int16Array;
  readonly pole: Float64Array;
  readonly weight: Float64Array;
}

/** `Reach.upper` / `lower` / `end` of a cleared reach: no joint. */
export const REACH_NO_JOINT = -1;

/** Creates the `Reach` component for `rows` entity ids (nobody reaches for anything yet). */
export function createReachComponent(rows: number, alloc: PoolAllocator = heapAllocator): ReachComponent {
  const reach: ReachComponent = {
    enabled: alloc.array(Uint8Array, rows),
    follower: alloc.array(Uint8Array, rows),
    upper: alloc.array(Int16Array, rows),
    lower: alloc.array(Int16Array, rows),
    end: alloc.array(Int16Array, rows),
    pole: alloc.array(Float64Array, rows * 3),
    weight: alloc.array(Float64Array, rows),
  };
  for (let eid = 0; eid < rows; eid++) resetReach(reach, eid);
  return reach;
}

/**
 * Clears `eid`'s reach back to the state of a new world: disabled, follower slot 0, no
 * joints, pole at the model origin, weight 1. Also the row reset
 * ({@link reachRows}) that `spawnCharacter` runs when an entity id is (re)used.
 */
export function resetReach(reach: ReachComponent, eid: number): void {
  reach.enabled[eid] = 0;
  reach.follower[eid] = 0;
  reach.upper[eid] = REACH_NO_JOINT;
  reach.lower[eid] = REACH_NO_JOINT;
  reach.end[eid] = REACH_NO_JOINT;
  reach.pole[eid * 3] = 0;
  reach.pole[eid * 3 + 1] = 0;
  reach.pole[eid * 3 + 2] = 0;
  reach.weight[eid] = 1;
}

/** `Reach`'s row lifecycle: {@link resetReach}. */
export const reachRows: RowLifecycle<ReachComponent> = { reset: resetReach, kept: {} };
