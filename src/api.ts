/**
 * The entity-level API games call: spawn and remove characters, play clips on layers, step
 * the world, read poses and events. Every function validates its input and throws an
 * `AnimationError` before changing anything; the per-frame work happens in the systems.
 */
import { addComponent, addEntity, commitRemovals, removeEntity } from 'bitecs';
import { fail, IssueList } from './assets/AnimationError.js';
import { bindClip, checkTranslation, type TranslationOption } from './assets/Binding.js';
import type { Clip } from './assets/Clip.js';
import type { Mask } from './assets/Mask.js';
import type { Skeleton } from './assets/Skeleton.js';
import { holdPose } from './components/Inertialization.js';
import { clearLayer, MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_FREE, ROOT_AXIS_LATERAL } from './components/Layers.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, layerFlags, measureSyncGroup, SYNC_PHASE } from './components/layerRules.js';
import { MATRIX_STRIDE, POSE_STRIDE } from './math/layout.js';
import { getRootFrame, getRootTrack } from './assets/rootTrack.js';
import { computeModelPose, computeSkinPalette } from './systems/skinSystem.js';
import { runFrame } from './frame.js';
import { resetRows, type AnimationWorld } from './world.js';
import {
  checkBindable, checkSkeleton, isClip, isFiniteNumber, registerAsset, registerMask, registerReference, requireCharacter,
  requireLayer, wrapTime, identityReference, requireOptions, requireWorld,
} from './registry.js';
import { FLOAT32_MAX, MAX_DT, MAX_PLAYBACK_RATE, MAX_TIME, MAX_WEIGHT, rangeIssue } from './assets/limits.js';

export { isFiniteNumber, requireCharacter } from './registry.js';

/** Options of {@link spawnCharacter}: where the character starts and how root motion moves it. */
export interface SpawnOptions {
  /** World position, metres (default 0). */
  x?: number;
  y?: number;
  z?: number;
  /** Heading about +Y, radians (default 0: facing +Z). */
  yaw?: number;
  /**
   * Move the character through the world by its clips' root motion, holding the pose's root
   * in place (default false: the pose keeps all of the clip's motion and the character stays
   * where it was spawned).
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
  computeModelPose(ModelPose.data, matrixOff, LocalPose.data, poseOff, skeleton.parents, skeleton.jointCount);
  computeSkinPalette(SkinPalette.data, matrixOff, ModelPose.data, matrixOff, skeleton.inverseBind, skeleton.jointCount);
  holdPose(Inertialization, eid, world.maxJoints, skeleton.rest);
  makeViews(world, eid, skeleton.jointCount);
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
  return eid;
}

/** Views of `eid`'s pose blocks, `jointCount` joints long (see `PoseViews`). */
function makeViews(world: AnimationWorld, eid: number, jointCount: number): void {
  const size = jointCount * POSE_STRIDE;
  const block = world.maxJoints * POSE_STRIDE;
  const { local, layers, history } = world.views;
  local[eid] = world.components.LocalPose.data.subarray(eid * block, eid * block + size);
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const li = eid * MAX_LAYERS + layer;
    layers[li] = world.components.Layers.pose.subarray(li * block, li * block + size);
  }
  for (let slot = 0; slot < 2; slot++) {
    const h = eid * 2 + slot;
    history[h] = world.components.Inertialization.history.subarray(h * block, h * block + size);
  }
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
  removeEntity(world.ecs, eid);
  commitRemovals(world.ecs);
}

/** Options of {@link play}. */
export interface PlayOptions {
  /** Layer slot, 0 … MAX_LAYERS − 1 (default 0). Override layers blend by weight; see blendSystem. */
  layer?: number;
  /** Blend weight in [0, MAX_WEIGHT = 1000] (default 1); for an additive layer, its β. */
  weight?: number;
  /** Playback rate in [−MAX_PLAYBACK_RATE, MAX_PLAYBACK_RATE] = ±1000 (default 1; negative plays backwards). */
  speed?: number;
  /** Wrap at the end; default: the clip's own `loop`. */
  loop?: boolean;
  /** Start time in seconds, |time| ≤ MAX_TIME = 1e9 (default 0); wrapped into [0, D) when looping, clamped otherwise. */
  time?: number;
  /** Add this clip on top of the override blend instead of blending with it (default false). */
  additive?: boolean;
  /** Per-joint weights for partial-skeleton blending. */
  mask?: Mask;
  /**
   * Additive reference R of D = S·R⁻¹: this clip at `referenceTime` (default: the played clip;
   * for a difference clip from `createDifferenceClip`, the identity — it takes no reference).
   */
  reference?: Clip;
  /** Time of the reference pose in `reference` (default 0, its first frame). */
  referenceTime?: number;
  /**
   * Root-motion axis restriction: 'forward' keeps only the clip's travel along Z (forward and
   * backward clips), 'lateral' only along X (sideways clips), 'free' (default) all of it.
   */
  rootAxis?: 'free' | 'forward' | 'lateral';
  /**
   * Scale the clip's root travel by character hips ÷ animation hips (default true): smaller
   * characters take shorter steps (and `setTargetSpeed` plays them faster). The character's
   * hip height is its skeleton's rest `hipHeight`; the animation's, the clip skeleton's (or,
   * without one, the clip's mean hip height — see `RootTrack`). A character without a rest
   * hip height (0, as BVH skeletons) uses ratio 1.
   */
  hipScaling?: boolean;
  /**
   * Phase sync group, an integer 0 … MAX_LAYERS − 1 (default: none). The looping clips of one
   * group on a character play at one normalized phase, cycling once per weight-averaged
   * duration Σ wᵢDᵢ / Σ wᵢ (a walk of 0.8 s and a run of 1.2 s at weights 0.25 / 0.75 both
   * cycle in 1.1 s). Joining a group where another weighted member plays, the clip starts at
   * the group's current phase (unless `time` is given) and takes the group's rate; otherwise
   * its `speed` becomes the group's rate. The clip must loop. See `Layers.syncGroup`.
   */
  syncGroup?: number;
  /** Phase offset within the sync group, in cycles (default 0); finite, wrapped into [0, 1). */
  phaseOffset?: number;
  /**
   * Retargeting of a clip made for another skeleton (`bindSkeletons`): where its joints take
   * their translation — 'skeleton' (the character's rest: its bone lengths), 'animation' (the
   * clip's), 'scaled' (the clip's × character hips ÷ clip hips, the ratio root travel uses), or
   * a map of joint names to those. Default: the character's root, hip joint and the joints
   * between 'scaled', every other joint 'skeleton'. The clip's own skeleton, or one with the
   * same joints and rest translations, plays the clip as authored unless this is given.
   */
  translation?: TranslationOption;
}

/**
 * Plays `clip` on a layer of character `eid`, replacing what that layer played. The pose
 * changes at the next `step` (or `sampleSystem`).
 *
 * The clip may be made for another skeleton: joints are matched by name and the clip is fitted
 * to the character's proportions (`bindSkeletons` gives the rule; `translation` chooses per
 * joint), once per pair of skeletons and options.
 *
 * @throws AnimationError for an unknown entity, a clip sharing no joint name with the
 * character's skeleton, a mask made for another skeleton, a layer out of range, or numbers
 * outside their ranges (weight in [0, 1000], |speed| ≤ 1000, |time| ≤ 1e9 s; see
 * docs/hardening.md). The layer is untouched then.
 * @example
 * play(world, eid, walk, { layer: 0, weight: 0.7 });
 * play(world, eid, run, { layer: 1, weight: 0.3, time: walkPhase * run.duration });
 * // or let the runtime keep them in phase:
 * play(world, eid, walk, { layer: 0, weight: 0.7, syncGroup: 0 });
 * play(world, eid, run, { layer: 1, weight: 0.3, syncGroup: 0 });
 */
export function play(world: AnimationWorld, eid: number, clip: Clip, options: PlayOptions = {}): void {
  const skeleton = requireCharacter(world, eid, 'play');
  requireOptions(options, 'play');
  const issues = new IssueList('play');
  const resolved = resolvePlay(issues, skeleton, clip, options, 1);
  issues.throwIfAny();
  writeLayer(world, eid, skeleton, clip, resolved);
}

/** {@link PlayOptions} checked, with defaults filled in. */
export interface ResolvedPlay {
  readonly layer: number;
  readonly weight: number;
  readonly speed: number;
  readonly time: number;
  readonly loop: boolean;
  readonly additive: boolean;
  readonly mask: Mask | undefined;
  readonly reference: Clip;
  readonly referenceTime: number;
  readonly rootAxis: 'free' | 'forward' | 'lateral';
  readonly hipScaling: boolean;
  /** Sync group, or −1. */
  readonly syncGroup: number;
  /** In [0, 1). */
  readonly phaseOffset: number;
  /** Whether `time` was given (a clip joining a sync group then keeps it). */
  readonly timeGiven: boolean;
  /** Retargeting translation modes (undefined: the default rule). */
  readonly translation?: TranslationOption;
}

/**
 * Checks play options for `clip` on a character of `skeleton`, recording faults in `issues`;
 * `defaultWeight` applies when `options.weight` is absent. Changes nothing.
 */
export function resolvePlay(issues: IssueList, skeleton: Skeleton, clip: Clip, options: PlayOptions, defaultWeight: number): ResolvedPlay {
  const layer = options.layer ?? 0;
  const weight = options.weight ?? defaultWeight;
  const speed = options.speed ?? 1;
  const time = options.time ?? 0;
  const referenceTime = options.referenceTime ?? 0;
  const additive = options.additive === true;
  if (!isClip(clip)) issues.add('clip', 'must be a Clip from createClip');
  else checkBindable(issues, 'clip', clip.skeleton, skeleton);
  if (!Number.isInteger(layer) || layer < 0 || layer >= MAX_LAYERS) issues.add('layer', `is ${layer}: must be an integer in [0, ${MAX_LAYERS - 1}]`);
  const weightIssue = rangeIssue(weight, 0, MAX_WEIGHT, 'the largest layer weight, MAX_WEIGHT');
  if (weightIssue !== null) issues.add('weight', weightIssue);
  const speedIssue = rangeIssue(speed, -MAX_PLAYBACK_RATE, MAX_PLAYBACK_RATE, 'the fastest playback rate, MAX_PLAYBACK_RATE');
  if (speedIssue !== null) issues.add('speed', speedIssue);
  const timeIssue = rangeIssue(time, -MAX_TIME, MAX_TIME, 'seconds');
  if (timeIssue !== null) issues.add('time', timeIssue);
  if (options.mask !== undefined) {
    if (!(options.mask?.weights instanceof Float32Array)) issues.add('mask', 'must be a Mask from createMask');
    else checkSkeleton(issues, 'mask', options.mask.skeleton, skeleton);
  }
  // A difference clip (createDifferenceClip) is already D = S·R⁻¹: it plays against the identity.
  const difference = isClip(clip) && clip.difference === true;
  const reference = options.reference ?? (difference ? identityReference(clip.skeleton) : clip);
  if (difference) {
    if (!additive) issues.add('additive', `must be true to play "${clip.name}": a difference clip holds differences D = S·R⁻¹, not poses, so it plays only as an additive layer`);
    if (options.reference !== undefined || options.referenceTime !== undefined) {
      issues.add('reference', `must be left out for the difference clip "${clip.name}": its reference was subtracted when it was made, and it plays against the identity`);
    }
  }
  if (additive) {
    if (!isClip(reference)) issues.add('reference', 'must be a Clip from createClip');
    else checkBindable(issues, 'reference', reference.skeleton, skeleton);
    const referenceIssue = rangeIssue(referenceTime, -MAX_TIME, MAX_TIME, 'seconds');
    if (referenceIssue !== null) issues.add('referenceTime', referenceIssue);
  }
  checkTranslation(issues, 'translation', skeleton, options.translation);
  const loop = options.loop ?? (isClip(clip) ? clip.loop : true);
  const rootAxis = options.rootAxis ?? 'free';
  if (rootAxis !== 'free' && rootAxis !== 'forward' && rootAxis !== 'lateral') issues.add('rootAxis', `is ${String(rootAxis)}: must be 'free', 'forward' or 'lateral'`);
  const hipScaling = options.hipScaling ?? true;
  const syncGroup = options.syncGroup ?? -1;
  let phaseOffset = options.phaseOffset ?? 0;
  if (options.syncGroup !== undefined) {
    if (!Number.isInteger(syncGroup) || syncGroup < 0 || syncGroup >= MAX_LAYERS) {
      issues.add('syncGroup', `is ${String(syncGroup)}: must be an integer in [0, ${MAX_LAYERS - 1}]`);
    } else if (!loop) {
      issues.add('syncGroup', `needs a looping clip: "${isClip(clip) ? clip.name : '?'}" does not loop (pass loop: true to loop it)`);
    }
  }
  if (!isFiniteNumber(phaseOffset)) issues.add('phaseOffset', `is ${String(phaseOffset)}: must be a finite number (cycles)`);
  else {
    phaseOffset = wrapTime(phaseOffset, 1);
    if (Math.fround(phaseOffset) >= 1) phaseOffset = 0; // stored as float32: 1 − ε rounds to 1
  }
  return {
    layer, weight, speed, time, loop, additive, mask: options.mask, reference, referenceTime, rootAxis, hipScaling,
    syncGroup, phaseOffset, timeGiven: options.time !== undefined, translation: options.translation,
  };
}

/** Writes a resolved play into its layer slot (replacing what it held). */
export function writeLayer(world: AnimationWorld, eid: number, skeleton: Skeleton, clip: Clip, play: ResolvedPlay): void {
  const { Layers } = world.components;
  const assets = world.assets;
  const li = eid * MAX_LAYERS + play.layer;
  clearLayer(Layers, li);
  const clipId = registerAsset(assets.clips, assets.clipIds, clip);
  Layers.clip[li] = clipId;
  const track = getRootTrack(clip);
  assets.rootTracks[clipId] = track;
  Layers.rootAxis[li] = play.rootAxis === 'forward' ? ROOT_AXIS_FORWARD : play.rootAxis === 'lateral' ? ROOT_AXIS_LATERAL : ROOT_AXIS_FREE;
  // Hip-height ratio (root-motion seed): a character with shorter legs takes shorter steps.
  Layers.rootScale[li] = play.hipScaling && skeleton.hipHeight > 0 && track.hipHeight > 0 ? skeleton.hipHeight / track.hipHeight : 1;
  const binding = bindClip(clip, skeleton, play.translation);
  if (binding !== null) Layers.binding[li] = registerAsset(assets.bindings, assets.bindingIds, binding);
  Layers.time[li] = play.loop ? wrapTime(play.time, clip.duration) : Math.min(Math.max(play.time, 0), clip.duration);
  Layers.speed[li] = play.speed;
  Layers.weight[li] = play.weight;
  Layers.flags[li] = layerFlags(play.loop, play.additive ? BLEND_ADDITIVE : BLEND_OVERRIDE);
  if (play.mask) Layers.mask[li] = registerMask(world, play.mask);
  if (play.additive) Layers.reference[li] = registerReference(world, play.reference, play.referenceTime, skeleton, play.translation);
  if (play.syncGroup >= 0) joinSyncGroup(world, eid, li, clip, play);
}

/**
 * Puts layer slot `li` (just written, not yet in a group) into its sync group: when another
 * weighted member of the group plays (the group's leader, `measureSyncGroup`, has weight > 0),
 * the layer takes the group's rate and, unless `play.timeGiven`, its phase:
 * time = ((φ + offset) mod 1)·D. Otherwise the layer's speed becomes the group's rate.
 */
function joinSyncGroup(world: AnimationWorld, eid: number, li: number, clip: Clip, play: ResolvedPlay): void {
  const { Layers } = world.components;
  const leader = measureSyncGroup(SYNC, Layers, world.assets.clips, eid * MAX_LAYERS, (eid + 1) * MAX_LAYERS, play.syncGroup);
  Layers.syncGroup[li] = play.syncGroup;
  Layers.phaseOffset[li] = play.phaseOffset;
  if (leader < 0 || !(Layers.weight[leader] > 0)) {
    Layers.syncRate[li] = play.speed;
    return;
  }
  const rate = Layers.syncRate[leader];
  Layers.syncRate[li] = rate;
  Layers.speed[li] = rate;
  if (!play.timeGiven && clip.duration > 0) {
    const phase = wrapTime(SYNC[SYNC_PHASE], 1);
    Layers.time[li] = wrapTime(phase + play.phaseOffset, 1) * clip.duration;
    if (Layers.time[li] >= clip.duration) Layers.time[li] = 0;
  }
}

/** {@link measureSyncGroup}'s results. */
const SYNC = new Float64Array(2);

/** Empties a layer of character `eid`. @throws AnimationError for an unknown entity or layer. */
export function stop(world: AnimationWorld, eid: number, layer = 0): void {
  requireCharacter(world, eid, 'stop');
  requireLayer(layer, 'stop');
  clearLayer(world.components.Layers, eid * MAX_LAYERS + layer);
}

/**
 * Sets a layer's blend weight (in [0, MAX_WEIGHT = 1000]) — the way to drive a blend from frame to frame.
 * @throws AnimationError for an unknown entity or layer, or a weight that is not a finite number in [0, 1000].
 */
export function setLayerWeight(world: AnimationWorld, eid: number, layer: number, weight: number): void {
  requireCharacter(world, eid, 'setLayerWeight');
  requireLayer(layer, 'setLayerWeight');
  const issue = rangeIssue(weight, 0, MAX_WEIGHT, 'the largest layer weight, MAX_WEIGHT');
  if (issue !== null) fail('setLayerWeight', 'weight', issue);
  world.components.Layers.weight[eid * MAX_LAYERS + layer] = weight;
}

/**
 * Advances the world by `dt` seconds: runs the world's frame (src/frame.ts; by default
 * lodSystem → sampleSystem → blendSystem → inertializeSystem → rootMotionSystem → followSystem →
 * aimSystem → skinSystem, docs/design.md §4), then advances the clock.
 * Allocates nothing. `dt = 0` re-evaluates the current poses without moving time.
 *
 * The systems run chunk by chunk (`FRAME_CHUNK`): the first 128 characters are sampled,
 * blended and skinned, then the next 128, so a character's layer poses are still in cache when
 * the blend reads them. Systems touch nothing of other characters, so this equals running each system over
 * the whole world in turn, and is faster for large crowds (see `npm run bench`).
 * Whatever `dt` and the layers' speeds, a step does bounded work: a layer advancing many loop
 * cycles counts the events beyond the queue's capacity as dropped instead of visiting them.
 * @throws AnimationError when `world` is not an AnimationWorld, or `dt` is not a finite number
 * in [0, MAX_DT = 1e6] seconds (nothing is advanced then).
 * @example
 * ticker.add(() => step(world, ticker.deltaMS / 1000));
 */
export function step(world: AnimationWorld, dt: number): void {
  requireWorld(world, 'step');
  const issue = rangeIssue(dt, 0, MAX_DT, 'seconds; the longest step, MAX_DT');
  if (issue !== null) fail('step', 'dt', issue);
  runFrame(world, dt);
}

/** Live view of the local pose of `eid` (`jointCount × 10` floats), valid until it is removed. */
export function getLocalPose(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getLocalPose');
  const off = eid * world.maxJoints * POSE_STRIDE;
  return world.components.LocalPose.data.subarray(off, off + skeleton.jointCount * POSE_STRIDE);
}

/** Live view of the model-space matrices of `eid` (`jointCount × 12`, 3×4 column-major). */
export function getModelMatrices(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getModelMatrices');
  const off = eid * world.maxJoints * MATRIX_STRIDE;
  return world.components.ModelPose.data.subarray(off, off + skeleton.jointCount * MATRIX_STRIDE);
}

/** Live view of the skinning palette of `eid` (`jointCount × 12`, model × inverse bind). */
export function getSkinPalette(world: AnimationWorld, eid: number): Float32Array {
  const skeleton = requireCharacter(world, eid, 'getSkinPalette');
  const off = eid * world.maxJoints * MATRIX_STRIDE;
  return world.components.SkinPalette.data.subarray(off, off + skeleton.jointCount * MATRIX_STRIDE);
}

/** A clip event that playback crossed, as returned by {@link drainEvents}. */
export interface AnimationEvent {
  /** The character. */
  readonly eid: number;
  /** The clip whose event fired. */
  readonly clip: Clip;
  /** The event's name. */
  readonly name: string;
  /** The event's clip-local time, seconds. */
  readonly time: number;
}

/**
 * Returns and clears the events crossed since the last drain, in the order they happened
 * (by world time; ties keep the order they were recorded in). If more than `maxEvents`
 * accumulated, the oldest were dropped and `world.events.dropped` counts them.
 * @throws AnimationError when `world` is not an AnimationWorld.
 */
export function drainEvents(world: AnimationWorld): AnimationEvent[] {
  requireWorld(world, 'drainEvents');
  const queue = world.events;
  const clips = world.assets.clips;
  const records: { at: number; event: AnimationEvent }[] = [];
  for (let n = 0; n < queue.count; n++) {
    const slot = (queue.head + n) % queue.capacity;
    const clip = clips[queue.clip[slot]];
    const event = clip.events[queue.event[slot]];
    records.push({ at: queue.at[slot], event: { eid: queue.eid[slot], clip, name: event.name, time: event.time } });
  }
  queue.head = 0;
  queue.count = 0;
  return records.sort((a, b) => a.at - b.at).map((r) => r.event);
}
