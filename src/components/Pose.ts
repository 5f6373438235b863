import { MATRIX_STRIDE, POSE_STRIDE } from '../math/layout.js';
import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * Pose pools: one Float32Array per component for the whole world, `rows × maxJoints × stride`
 * floats, so each character's joints are one contiguous run starting at
 * `eid × maxJoints × stride`. Only the first `jointCount` joints of a block are used.
 *
 * - `LocalPose.data`: the blended local pose, 10 floats per joint (`tx ty tz qx qy qz qw sx sy sz`).
 * - `ModelPose.data`: model-space (character-space) matrices, 12 floats per joint (3×4, column-major).
 * - `SkinPalette.data`: skinning matrices `model × inverseBind`, 12 floats per joint.
 */
export interface PoolComponent {
  /** Floats per joint in `data`. */
  readonly stride: number;
  /** The pool: `stride` floats per joint, `maxJoints` joints per entity row (see the list above). */
  readonly data: Float32Array;
}

/** Creates the `LocalPose` pool. */
export function createLocalPoseComponent(rows: number, maxJoints: number, alloc: PoolAllocator = heapAllocator): PoolComponent {
  return { stride: POSE_STRIDE, data: alloc.array(Float32Array, rows * maxJoints * POSE_STRIDE) };
}

/** Creates a matrix pool (`ModelPose` or `SkinPalette`). */
export function createMatrixPoolComponent(rows: number, maxJoints: number, alloc: PoolAllocator = heapAllocator): PoolComponent {
  return { stride: MATRIX_STRIDE, data: alloc.array(Float32Array, rows * maxJoints * MATRIX_STRIDE) };
}

/**
 * The pose pools' row lifecycle (`LocalPose`, `ModelPose`, `SkinPalette`): the entity's whole
 * block of `maxJoints × stride` floats back to 0 (spawn then writes the rest pose, its model
 * matrices and palette over the skeleton's joints).
 */
export const poseRows: RowLifecycle<PoolComponent> = {
  reset(pool: PoolComponent, eid: number, maxJoints: number): void {
    const block = maxJoints * pool.stride;
    pool.data.fill(0, eid * block, (eid + 1) * block);
  },
  kept: {},
};
