/**
 * A character's model matrices for the API calls that read them (`getJointWorldMatrix`,
 * `setLookAt`, `setReach`): its row of `ModelPose`, or — in a world without ModelPose
 * (`createAnimationWorld({ modelPose: false })`) — composed when called from its local pose
 * into the scratch row, with the kernels its skinning runs (so with the bits a default world's
 * `ModelPose` would hold).
 */
import { composeModelRow, modelRowOf } from '../systems/skinSystem.js';
import type { AnimationWorld } from '../world.js';

/**
 * The element offset of character `eid`'s first model matrix in `modelArrayOf(world)`, its
 * matrices being those of its current local pose (after a `step`, that step's); see the file
 * header. Between frames only (it may write the scratch row).
 */
export function currentModelRow(world: AnimationWorld, eid: number): number {
  if (world.components.ModelPose.data.length === 0) composeModelRow(world, eid);
  return modelRowOf(world, eid);
}
