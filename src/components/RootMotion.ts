import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `RootMotion`: where each character stands in the world, moved by its clips' root motion.
 *
 * Indexed by eid (`rows = maxEntities + 1`):
 * - `x[eid]`, `y[eid]`, `z[eid]`: world position, metres; `yaw[eid]`: heading about +Y, radians
 *   (0 faces +Z). Float64 so long walks do not lose precision.
 * - `delta[eid × 3 ..]`: this frame's world displacement (x, y, z).
 * - `vertical[eid]`: 1 to move the character by the root's vertical travel too (and keep the
 *   pose's root height at rest); 0 (default) keeps the vertical bob in the pose.
 * - `enabled[eid]`: 1 when root motion moves the character (`spawnCharacter(…, { rootMotion: true })`);
 *   0 (default) leaves it where it is and the pose untouched. The entity has the `RootMotion`
 *   bitecs component exactly when 1; `x y z yaw` hold every character's transform either way.
 * - `extractYaw[eid]`: 1 when the clips' root yaw turns the character too
 *   (`spawnCharacter(…, { rootMotion: true, rootYaw: true })`): `yaw` follows the root's
 *   turn, travel is taken in the root's heading frame, and the pose's root loses its twist
 *   about +Y (it faces the rest heading; the facing lives in `yaw`). 0 (default): `yaw`
 *   changes only when set, the clips' turning stays in the pose. Only read with `enabled`.
 * - `targetSpeed[eid]`: the speed `setTargetSpeed` asked for, m/s, or −1 (none, or after
 *   `clearTargetSpeed`); every switch (`play`, `transition`, `setBlendSpace`, machines)
 *   re-derives the playback rate of travelling layers from it.
 * - `cycleMeasure[eid]`: how `setTargetSpeed` measures a cycle's travel: 0 (`'net'`, default)
 *   its net displacement, 1 (`'max'`) the farthest the root gets from where it started.
 *
 * 51 bytes per character.
 */
export interface RootMotionComponent {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly yaw: Float64Array;
  readonly delta: Float32Array;
  readonly vertical: Uint8Array;
  readonly enabled: Uint8Array;
  readonly extractYaw: Uint8Array;
  readonly targetSpeed: Float32Array;
  readonly cycleMeasure: Uint8Array;
}

/** Creates the `RootMotion` component for `rows` entity ids. */
export function createRootMotionComponent(rows: number, alloc: PoolAllocator = heapAllocator): RootMotionComponent {
  return {
    x: alloc.array(Float64Array, rows),
    y: alloc.array(Float64Array, rows),
    z: alloc.array(Float64Array, rows),
    yaw: alloc.array(Float64Array, rows),
    delta: alloc.array(Float32Array, rows * 3),
    vertical: alloc.array(Uint8Array, rows),
    enabled: alloc.array(Uint8Array, rows),
    extractYaw: alloc.array(Uint8Array, rows),
    targetSpeed: alloc.array(Float32Array, rows).fill(-1),
    cycleMeasure: alloc.array(Uint8Array, rows),
  };
}

/**
 * `RootMotion`'s row lifecycle: at the origin facing +Z, still, not moved by root motion, no
 * target speed (spawn then writes its position, heading and root-motion options).
 */
export const rootMotionRows: RowLifecycle<RootMotionComponent> = {
  reset(rootMotion: RootMotionComponent, eid: number): void {
    rootMotion.x[eid] = 0;
    rootMotion.y[eid] = 0;
    rootMotion.z[eid] = 0;
    rootMotion.yaw[eid] = 0;
    rootMotion.delta.fill(0, eid * 3, eid * 3 + 3);
    rootMotion.vertical[eid] = 0;
    rootMotion.enabled[eid] = 0;
    rootMotion.extractYaw[eid] = 0;
    rootMotion.targetSpeed[eid] = -1;
    rootMotion.cycleMeasure[eid] = 0;
  },
  kept: {},
};
