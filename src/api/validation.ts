/**
 * The API's argument checks: each throws an AnimationError that names the call and the field
 * (see assets/AnimationError.ts) before anything changes.
 */
import { AnimationError, fail, type IssueList } from '../assets/AnimationError.js';
import { describeValue, shownString } from '../assets/limits.js';
import { bindSkeletons, sameJointOrder } from '../assets/Binding.js';
import { isClip, type Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { hasComponent } from 'bitecs';
import { MAX_LAYERS } from '../components/Layers.js';
import { WORLD_DISPOSED, WORLD_OPEN, WORLD_STEPPING } from '../worldGate.js';
import { type AnimationWorld } from '../world.js';

export { describeValue } from '../assets/limits.js';

/**
 * Throws an AnimationError naming `where` unless `world` has the shape of an AnimationWorld
 * (an object with the components, registries, event queue and LOD state of one).
 */
export function requireWorld(world: AnimationWorld, where: string): void {
  if (typeof world !== 'object' || world === null || typeof world.components !== 'object' || world.components === null
    || typeof world.ecs !== 'object' || world.ecs === null || typeof world.assets !== 'object' || world.assets === null
    || typeof world.events !== 'object' || world.events === null || typeof world.characters !== 'object' || world.characters === null
    || typeof world.lod !== 'object' || world.lod === null) {
    fail(where, 'world', `is ${describeValue(world)}: must be an AnimationWorld from createAnimationWorld`);
  }
  const gate = world.gate;
  if (gate === WORLD_OPEN) return;
  if (gate === WORLD_DISPOSED) fail(where, 'world', 'was disposed (disposeAnimationWorld): create a new world');
  if (gate === WORLD_STEPPING) fail(where, 'world', 'a parallel step is running: call between frames, once the promise of stepParallel has settled');
  fail(where, 'world', `is ${describeValue(world)}: must be an AnimationWorld from createAnimationWorld`);
}

/** Throws an AnimationError naming `where` and `field` unless `options` is undefined or an object (not an array). */
export function requireOptions(options: unknown, where: string, field = 'options'): void {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    fail(where, field, `is ${describeValue(options)}: must be an object (or omitted)`);
  }
}

/** Throws an AnimationError naming `where` and `field` unless `options` is an object (not an array). */
export function requireObject(options: unknown, where: string, field: string, shape: string): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(where, field, `is ${describeValue(options)}: must be ${shape}`);
}

/** The skeleton of character `eid`; throws an AnimationError naming `where` when it is not one. */
export function requireCharacter(world: AnimationWorld, eid: number, where: string): Skeleton {
  requireWorld(world, where);
  if (!Number.isInteger(eid) || eid < 1 || eid > world.maxEntities || !hasComponent(world.ecs, eid, world.components.Character)) {
    fail(where, 'eid', `${typeof eid === 'number' ? eid : describeValue(eid)} is not a character of this world`);
  }
  return world.assets.skeletons[world.components.Character.skeleton[eid]];
}

/** Throws an AnimationError naming `where` unless `layer` is a layer slot of a world of `maxLayers` slots per character. */
export function requireLayer(layer: number, where: string, maxLayers: number): void {
  if (!Number.isInteger(layer) || layer < 0 || layer >= maxLayers) fail(where, 'layer', layerRangeIssue(layer, maxLayers));
}

/**
 * The message for a layer (or sync group) `value` outside [0, maxLayers − 1] in a world of
 * `maxLayers` slots per character: the range, and the option that widens it.
 */
export function layerRangeIssue(value: unknown, maxLayers: number): string {
  const wider = maxLayers < MAX_LAYERS ? `; createAnimationWorld({ maxLayers }) allows up to ${MAX_LAYERS}` : '';
  return `is ${shownString(value)}: must be an integer in [0, ${maxLayers - 1}] (the world's maxLayers is ${maxLayers}${wider})`;
}

/** A mask must be made for the character's skeleton, or one with the same joints in the same order. */
export function checkSkeleton(issues: IssueList, field: string, actual: Skeleton, expected: Skeleton): void {
  if (!sameJointOrder(actual, expected)) {
    issues.add(`${field}.skeleton`, `has other joints than the character's skeleton (${actual.jointCount} vs ${expected.jointCount}, or other names or order)`);
  }
}

/** A clip plays on any skeleton sharing at least one joint name with its own (see `bindSkeletons`). */
export function checkBindable(issues: IssueList, field: string, source: Skeleton, target: Skeleton): void {
  // The check itself lives apart: its closure would make V8 allocate a context on every call,
  // and transition calls this every frame with the same skeleton.
  if (!sameJointOrder(source, target)) checkPairing(issues, field, source, target);
}

function checkPairing(issues: IssueList, field: string, source: Skeleton, target: Skeleton): void {
  let matched = 0;
  try {
    matched = bindSkeletons(source, target).matched;
  } catch (error) {
    // Too few shared names, and one of them is not a humanoid: resolveJointMap says which and why.
    if (!(error instanceof AnimationError)) throw error;
    if (source.names.some((name) => target.names.includes(name))) {
      for (const issue of error.issues) issues.add(`${field}.skeleton`, issue.message);
      return;
    }
  }
  if (matched === 0) issues.add(`${field}.skeleton`, `shares no joint names with the character's skeleton, and is not paired with it as a humanoid, so nothing of it can play there`);
}

/** A number that is not NaN or ±Infinity. */
export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Whether `v` is a clip, dense or reduced (see `isClip` in assets/Clip.ts). */
export { isClip };

/**
 * A joint of `skeleton` given by name or index (an option of setLookAt, setReach, setFootLock):
 * its index, or −1 with an issue recorded under `field` when there is none.
 */
export function resolveJoint(issues: IssueList, field: string, skeleton: Skeleton, ref: unknown): number {
  if (typeof ref === 'string') {
    const joint = skeleton.names.indexOf(ref);
    if (joint < 0) issues.add(field, `"${ref}" is not a joint of this skeleton`);
    return joint;
  }
  if (typeof ref === 'number' && Number.isInteger(ref) && ref >= 0 && ref < skeleton.jointCount) return ref;
  issues.add(field, `is ${describeValue(ref)}: must be a joint name or an index in [0, ${skeleton.jointCount - 1}]`);
  return -1;
}
