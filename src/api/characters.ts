/**
 * Characters: spawn and remove them, and read their poses. Every function validates its input
 * and throws an `AnimationError` before changing anything.
 */
import { requireCurvesFit, spawnCurves } from './curves.js';
import { addComponent, addEntity, commitRemovals, removeEntity } from 'bitecs';
import { fail } from '../assets/AnimationError.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { releaseTransitionSlot } from '../components/Inertialization.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../math/layout.js';
import { getRootFrame } from '../assets/rootTrack.js';
import { computeModelPose, computeSkinPalette, modelArrayOf, modelRowOf } from '../systems/skinSystem.js';
import type { AnimationWorld } from '../world.js';
import { makePoseViews, resetRows } from '../worldPools.js';
import { registerAsset } from '../systems/switching/registry.js';
import { requireCharacter, requireOptions, requireWorld } from './validation.js';
import { FLOAT32_MAX, rangeIssue } from '../assets/limits.js';

/** Options of {@link spawnCharacter}: where the character starts and how root motion moves it. */
export interface SpawnOptions {
  /** World position x, metres (default 0). */
  x?: number;
  /** World position y (up), metres (default 0). */
  y?: number;
  /** World position z, metres (default 0). */
  z?: number;
  /** Heading about +Y, radians (default 0: facing +Z). */
  yaw?: number;
  /**
   * Move the character through the world by its clips' root motion, holding the pose's root
   * in place (default false: the pose keeps all of the clip's motion and the character stays
   * where it was spawned). The travel is the hips' motion composed from the skeleton's root,
   * whichever joint of that chain carries it (a `joint_Root` above the hips too), and the hips
   * are held at the model origin horizontally, so they are drawn at the root transform
   * whatever their rest offset (docs/root-motion-and-blend-spaces.md, "Where the travel lives").
   */
  rootMotion?: boolean;
  /** Also move it by the root's vertical travel instead of keeping the bob in the pose (default false). */
  verticalRootMotion?: boolean;
  /**
   * Also turn it by the root's yaw (default false; needs `rootMotion`): the character's heading
   * follows the root-motion joint's twist about +Y, its travel is taken in the root's own
   * heading frame (a clip that walks a curve walks the curve), and the pose's root faces the
   * rest heading — the facing lives in the heading `getRootTransform` reports.
   */
  rootYaw?: boolean;
}

/**
 * Spawns a character: a new entity of `world.ecs` with the animation components (`RootMotion`
 * only with `rootMotion`; see `AnimationComponents`), in its rest pose (local, model and palette already computed), with no clip playing, at the position and
 * heading of `options`.
 *
 * Root motion (see {@link SpawnOptions}): without `rootMotion` the pose keeps all of the clips'
 * motion and the character stays put; with it, the root's horizontal travel moves the
 * character (rotated by its heading) and the pose's root is held in place; `rootYaw` adds the
 * root's turn about +Y to the heading and takes it out of the pose.
 *
 * A removed character's entity id and pool blocks are reused by the next spawn; every
 * component's row is reset here first (`resetRows`: each component declares its reset in its
 * file, see components/lifecycle.ts), so nothing of the previous owner shows through.
 *
 * @returns the entity id.
 * @throws AnimationError when the world is full, the skeleton has more than `maxJoints` joints,
 * a position or heading is not a finite number within ±3.4e38 (Float32's range), or `rootYaw`
 * is asked for without `rootMotion`.
 * @example
 * const eid = spawnCharacter(world, skeleton);
 * play(world, eid, walk);
 * @example
 * // A character that walks and turns as its clips do.
 * const walker = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw: true, yaw: Math.PI / 2 });
 */
export function spawnCharacter(world: AnimationWorld, skeleton: Skeleton, options: SpawnOptions = {}): number {
  const where = 'spawnCharacter';
  requireWorld(world, where);
  if (!skeleton || !(skeleton.parents instanceof Int16Array)) fail(where, 'skeleton', 'must be a Skeleton from createSkeleton');
  requireOptions(options, where);
  const place = { x: options.x ?? 0, y: options.y ?? 0, z: options.z ?? 0, yaw: options.yaw ?? 0 };
  for (const [field, value] of Object.entries(place)) {
    const issue = rangeIssue(value, -FLOAT32_MAX, FLOAT32_MAX, 'the Float32 range');
    if (issue !== null) fail(where, field, issue);
  }
  if (options.rootYaw === true && options.rootMotion !== true) {
    fail(where, 'rootYaw', 'needs rootMotion: true (the root yaw turns a character that root motion moves)');
  }
  if (skeleton.jointCount > world.maxJoints) {
    fail(where, 'skeleton', `has ${skeleton.jointCount} joints, more than the world's maxJoints (${world.maxJoints})`);
  }
  requireCurvesFit(world, skeleton, where);
  commitRemovals(world.ecs);
  const live = world.characters.dense.length;
  if (live >= world.maxEntities) fail(where, 'maxEntities', `is ${world.maxEntities} and all are in use: remove a character or create the world larger`);

  const eid = addEntity(world.ecs);
  if (eid > world.maxEntities) {
    removeEntity(world.ecs, eid);
    fail(where, 'maxEntities', `is ${world.maxEntities} but the shared bitecs world issued entity id ${eid}: size maxEntities to the largest entity id of the game`);
  }
  const { Character, Layers, LocalPose, ModelPose, SkinPalette, Inertialization, RootMotion } = world.components;
  // Every row back to a never-used id's (the one reset of a reused id), then this character's own values.
  resetRows(world, eid);
  const skeletonId = registerAsset(world.assets.skeletons, world.assets.skeletonIds, skeleton);
  Character.skeleton[eid] = skeletonId;
  Character.jointCount[eid] = skeleton.jointCount;
  const poseOff = eid * world.maxJoints * POSE_STRIDE;
  const matrixOff = eid * world.maxJoints * MATRIX_STRIDE;
  LocalPose.data.set(skeleton.rest, poseOff);
  const model = modelArrayOf(world), modelOff = modelRowOf(world, eid); // ModelPose, or the scratch row of a world without it
  computeModelPose(model, modelOff, LocalPose.data, poseOff, skeleton.parents, skeleton.jointCount);
  computeSkinPalette(SkinPalette.data, matrixOff, model, modelOff, skeleton.inverseBind, skeleton.jointCount);
  makePoseViews(world, eid, skeleton.jointCount);
  world.assets.rootFrames[skeletonId] = getRootFrame(skeleton);
  RootMotion.x[eid] = place.x;
  RootMotion.y[eid] = place.y;
  RootMotion.z[eid] = place.z;
  RootMotion.yaw[eid] = place.yaw;
  RootMotion.enabled[eid] = options.rootMotion === true ? 1 : 0;
  RootMotion.vertical[eid] = options.verticalRootMotion === true ? 1 : 0;
  RootMotion.extractYaw[eid] = options.rootYaw === true ? 1 : 0;
  for (const component of [Character, Layers, LocalPose, ModelPose, SkinPalette, Inertialization]) addComponent(world.ecs, eid, component);
  if (options.rootMotion === true) addComponent(world.ecs, eid, RootMotion); // the bitecs component marks who root motion moves
  spawnCurves(world, eid, skeleton);
  return eid;
}

/**
 * Removes a character and its entity, with every animation component on it (game components
 * on the entity go too, as with bitecs' `removeEntity`). Its id and pool blocks become free for the next spawn;
 * events it already queued stay in the queue. Its rows are left as they are (nothing reads a
 * removed entity's rows) until `spawnCharacter` resets them for the id's next character — so a
 * game's own `removeEntity` of a character is the same removal.
 * @throws AnimationError when `eid` is not a character of this world.
 */
export function removeCharacter(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'removeCharacter');
  releaseTransitionSlot(world.components.Inertialization, eid); // (a game's own removeEntity: the slot is found free at the next search)
  removeEntity(world.ecs, eid);
  commitRemovals(world.ecs);
}

/** Live view of the local pose of `eid` (`jointCount × 10` floats), valid until it is removed. */
export function getLocalPose(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getLocalPose');
  const off = eid * world.maxJoints * POSE_STRIDE;
  return world.components.LocalPose.data.subarray(off, off + skeleton.jointCount * POSE_STRIDE);
}

/**
 * Live view of the model-space matrices of `eid` (`jointCount × 12`, 3×4 column-major).
 * @throws AnimationError when `eid` is not a character of this world, or the world keeps no
 * model matrices (`createAnimationWorld({ modelPose: false })`: `getJointWorldMatrix` still
 * gives a joint's).
 */
export function getModelMatrices(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getModelMatrices');
  if (world.components.ModelPose.data.length === 0) {
    fail('getModelMatrices', 'world', 'keeps no model matrices (created with modelPose: false): getJointWorldMatrix composes a joint\'s, or create the world without that option');
  }
  const off = eid * world.maxJoints * MATRIX_STRIDE;
  return world.components.ModelPose.data.subarray(off, off + skeleton.jointCount * MATRIX_STRIDE);
}

/** Live view of the skinning palette of `eid` (`jointCount × 12`, model × inverse bind). */
export function getSkinPalette(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getSkinPalette');
  const off = eid * world.maxJoints * MATRIX_STRIDE;
  return world.components.SkinPalette.data.subarray(off, off + skeleton.jointCount * MATRIX_STRIDE);
}
