/**
 * Releasing assets: a game that streams content drops the clips, skeletons and masks it no
 * longer needs from the world's registries (`world.assets`), so the registries — and the heap
 * — stay flat however much content passes through.
 *
 * Components store assets by integer id, so an asset is released only when nothing of a live
 * character refers to it (the call is refused otherwise, naming the character and layer); its
 * id is then free and taken by the next asset registered, which never confuses a running
 * character: no layer held the id. Derived entries go with the asset that made them:
 *
 * | released | also dropped |
 * | --- | --- |
 * | clip | its root-motion track, its LOD levels row (`registerLodLevels` for it), the additive reference poses sampled from it, the name bindings from its skeleton no layer uses, the identity reference of a difference clip when unused |
 * | skeleton | its root-motion joint placement, the reference poses made for it, the bindings to or from it no layer uses, its identity reference when unused |
 * | mask | — |
 *
 * Reference poses have no release of their own: they are made by `play(…, { additive: true })`
 * from a clip (the reference) for a skeleton, and released with either.
 */
import { commitRemovals } from 'bitecs';
import { AnimationError, fail, type AnimationIssue } from '../assets/AnimationError.js';
import type { Binding } from '../assets/Binding.js';
import type { Clip } from '../assets/Clip.js';
import type { Mask } from '../assets/Mask.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { BLEND_ADDITIVE, blendMode } from '../components/layerRules.js';
import { LOD_MAX_LEVELS } from '../components/Lod.js';
import { NO_MACHINE } from '../components/StateMachine.js';
import type { BoundStateMachine } from '../assets/StateMachine.js';
import { bakedFrom } from '../assets/retarget/bake.js';
import { freeId, identityClipOf, referenceKeyIds } from '../systems/switching/registry.js';
import { isClip, requireWorld } from './validation.js';
import type { AnimationWorld } from '../world.js';

/** The live characters (removals committed first, so a removed character is not one). */
function liveCharacters(world: AnimationWorld): ArrayLike<number> {
  commitRemovals(world.ecs);
  return world.characters.dense as ArrayLike<number>;
}

/** The reference clip id of each reference id (−1 for a released slot). */
function referenceClips(world: AnimationWorld): Int32Array {
  const ids = new Int32Array(world.assets.references.length).fill(-1);
  for (const [key, id] of world.assets.referenceIds) ids[id] = referenceKeyIds(key).clip;
  return ids;
}

/** Who uses clip `id`: layers playing it or using it as additive reference, LOD rows naming it as a level, queued events. */
function clipUsers(world: AnimationWorld, id: number, label: string): AnimationIssue[] {
  const issues: AnimationIssue[] = [];
  const { Layers } = world.components;
  const refClip = referenceClips(world);
  const live = liveCharacters(world);
  for (let i = 0; i < live.length; i++) {
    const eid = live[i];
    for (let layer = 0; layer < Layers.maxLayers; layer++) {
      const li = eid * Layers.maxLayers + layer;
      if (Layers.clip[li] === id) {
        issues.push({ path: label, message: `is played by character ${eid} on layer ${layer}: stop it first (stop, or removeCharacter)` });
      }
      const reference = Layers.reference[li];
      if (blendMode(Layers, li) === BLEND_ADDITIVE && reference >= 0 && refClip[reference] === id) {
        issues.push({ path: label, message: `is the additive reference of character ${eid}'s layer ${layer}: stop that layer first (stop, or removeCharacter)` });
      }
    }
  }
  const clip = world.assets.clips[id];
  const { StateMachine } = world.components;
  for (let i = 0; i < live.length; i++) {
    const eid = live[i];
    for (let ms = eid * StateMachine.slots; ms < (eid + 1) * StateMachine.slots; ms++) {
      const machineId = StateMachine.machine[ms];
      if (machineId === NO_MACHINE) continue;
      const use = machineUse(world.assets.machines[machineId], clip);
      if (use === null) continue;
      const name = world.assets.machines[machineId].machine.name;
      issues.push({
        path: label,
        message: `is used by state machine "${name}" of character ${eid} (${use}, on layer ${StateMachine.layer[ms]}): `
          + 'give that layer another machine (setStateMachine) or remove the character first (removeCharacter)',
      });
    }
  }
  const table = world.lod.clipLevels;
  const clips = world.assets.clips;
  for (let row = 0; row * LOD_MAX_LEVELS < table.length; row++) {
    if (row === id) continue;
    const levels: number[] = [];
    for (let l = 0; l < LOD_MAX_LEVELS; l++) if (table[row * LOD_MAX_LEVELS + l] === id) levels.push(l);
    if (levels.length > 0) {
      issues.push({
        path: label,
        message: `is LOD level ${levels.join(', ')} of clip "${clips[row]?.name ?? row}" (registerLodLevels): release that clip first, or register its levels without this one`,
      });
    }
  }
  const queue = world.events;
  let queued = 0;
  for (let n = 0; n < queue.count; n++) if (queue.clip[(queue.head + n) % queue.capacity] === id) queued++;
  if (queued > 0) issues.push({ path: label, message: `has ${queued} event${queued === 1 ? '' : 's'} waiting in world.events: call drainEvents first` });
  return issues;
}

/** How `bound`'s machine uses `clip` (its first use, for a message), or null when it does not. */
function machineUse(bound: BoundStateMachine, clip: Clip): string | null {
  const m = bound.machine;
  for (let s = 0; s < m.stateNames.length; s++) {
    if (m.stateClips[s] === clip) return `state "${m.stateNames[s]}" plays it`;
    if (m.stateSpaces[s]?.clips.includes(clip)) return `the blend space of state "${m.stateNames[s]}" plays it`;
  }
  return m.eventClip === clip ? 'its enter and exit events are of it' : null;
}

/**
 * Drops the world's entries of machines that use `clip` (no live character runs them: the
 * release was checked), so a later `setStateMachine` registers the clip again instead of
 * reusing ids made for it.
 */
function dropMachines(world: AnimationWorld, clip: Clip): void {
  const machines = world.assets.machines;
  for (let id = 0; id < machines.length; id++) {
    const bound = machines[id] as BoundStateMachine | undefined;
    if (bound !== undefined && machineUse(bound, clip) !== null) freeId(machines, id);
  }
}

/** Drops every reference pose whose key `matches` (none may be in use). */
function dropReferences(world: AnimationWorld, matches: (ids: { clip: number; skeleton: number; binding: number }) => boolean): void {
  const { references, referenceIds } = world.assets;
  for (const [key, id] of referenceIds) {
    if (!matches(referenceKeyIds(key))) continue;
    referenceIds.delete(key);
    freeId(references, id);
  }
}

/** Drops the bindings `which` selects that no live layer and no remaining reference pose names (they are re-registered when played again). */
function dropUnusedBindings(world: AnimationWorld, which: (binding: Binding) => boolean): void {
  const { bindings, bindingIds, referenceIds } = world.assets;
  const used = new Uint8Array(bindings.length);
  const { Layers } = world.components;
  const live = liveCharacters(world);
  for (let i = 0; i < live.length; i++) {
    for (let li = live[i] * Layers.maxLayers, end = li + Layers.maxLayers; li < end; li++) if (Layers.binding[li] >= 0) used[Layers.binding[li]] = 1;
  }
  for (const key of referenceIds.keys()) {
    const binding = referenceKeyIds(key).binding;
    if (binding >= 0) used[binding] = 1;
  }
  for (const [binding, id] of bindingIds) {
    if (used[id] === 1 || !which(binding)) continue;
    bindingIds.delete(binding);
    freeId(bindings, id);
  }
}

/** Removes clip `id` (checked unused) and what was derived from it. */
function dropClip(world: AnimationWorld, clip: Clip, id: number): void {
  const { clips, clipIds, rootTracks, syncMarkers } = world.assets;
  clipIds.delete(clip);
  freeId(clips, id);
  rootTracks[id] = undefined as never;
  if (rootTracks.length > clips.length) rootTracks.length = clips.length;
  syncMarkers[id] = undefined as never;
  if (syncMarkers.length > clips.length) syncMarkers.length = clips.length;
  // Its LOD row maps every level to itself again, so a clip given the id later has no levels.
  const lod = world.lod;
  if (id * LOD_MAX_LEVELS < lod.clipLevels.length) lod.clipLevels.fill(id, id * LOD_MAX_LEVELS, (id + 1) * LOD_MAX_LEVELS);
  if (lod.clipLevels.length > clips.length * LOD_MAX_LEVELS) lod.clipLevels = lod.clipLevels.slice(0, clips.length * LOD_MAX_LEVELS);
  dropReferences(world, (ids) => ids.clip === id);
}

/** Releases the identity reference clip of `skeleton` (a difference clip's reference) if registered and unused. */
function dropIdentity(world: AnimationWorld, skeleton: Skeleton): void {
  const identity = identityClipOf(skeleton);
  const id = identity === undefined ? undefined : world.assets.clipIds.get(identity);
  if (id === undefined || clipUsers(world, id, '').length > 0) return;
  dropClip(world, identity!, id);
}

/**
 * Releases `clip` from the world's registries, so a game that streams clips in and out keeps
 * a flat heap: its id, root-motion track, LOD levels row and the additive reference poses
 * sampled from it are dropped, with the name bindings of its skeleton that no layer uses. The
 * id goes to the next clip registered (by `play` and co.), and so do the copies of it baked onto
 * other skeletons (a clip played through a binding plays baked). Releasing a clip the world never
 * registered (never played) does nothing and returns false. The clip object itself stays valid
 * and can be played again later (it is registered again).
 *
 * Refused while the clip is in use: a live character plays it on a layer (a blend space's
 * sample, a cross-fade still fading out), uses it as the additive reference of a layer, runs a
 * state machine one of whose states plays it (or whose enter and exit events are of it), it is
 * an LOD level of another clip (`registerLodLevels`), or events of it wait in `world.events`.
 * Stop the layer first (`stop(world, eid, layer)`, or `removeCharacter`; a machine: give its
 * layer another machine with `setStateMachine`), and drain events.
 *
 * @returns whether the clip was registered (and is now released).
 * @throws AnimationError naming every user (character and layer, or machine) when the clip is in use, or
 * when `world` or `clip` is not one; nothing changes then.
 * @example
 * stop(world, eid, 0);
 * drainEvents(world);
 * releaseClip(world, cutscene);
 */
export function releaseClip(world: AnimationWorld, clip: Clip): boolean {
  const where = 'releaseClip';
  requireWorld(world, where);
  if (!isClip(clip)) fail(where, 'clip', 'must be a Clip from createClip');
  // The clip and its copies baked onto other skeletons (played through bindings), as registered.
  const registered: [Clip, number][] = [];
  world.assets.clips.forEach((c, id) => {
    if (c !== undefined && (c === clip || bakedFrom(c) === clip)) registered.push([c, id]);
  });
  if (registered.length === 0) return false;
  const users = registered.flatMap(([, id]) => clipUsers(world, id, `clip "${clip.name}"`));
  if (users.length > 0) throw new AnimationError(where, users);
  for (const [c, id] of registered) dropClip(world, c, id);
  dropMachines(world, clip);
  // The identity reference first: its reference poses name bindings the sweep would keep.
  if (clip.difference === true) dropIdentity(world, clip.skeleton);
  dropUnusedBindings(world, (binding) => binding.source === clip.skeleton);
  return true;
}

/**
 * Releases `skeleton` from the world's registries: its id, its root-motion joint placement, the
 * additive reference poses made for it, the name bindings to or from it that no layer uses, and
 * its identity reference (of difference clips) when unused. Releasing a skeleton the world
 * never registered (no character spawned with it) does nothing and returns false. Clips made
 * for the skeleton are not touched (they hold the skeleton object, not its id).
 *
 * Refused while a live character is of this skeleton (remove it first with `removeCharacter`).
 *
 * @returns whether the skeleton was registered (and is now released).
 * @throws AnimationError naming every such character, or when `world` or `skeleton` is not
 * one; nothing changes then.
 */
export function releaseSkeleton(world: AnimationWorld, skeleton: Skeleton): boolean {
  const where = 'releaseSkeleton';
  requireWorld(world, where);
  if (typeof skeleton !== 'object' || skeleton === null || !(skeleton.parents instanceof Int16Array)) fail(where, 'skeleton', 'must be a Skeleton from createSkeleton');
  const { skeletons, skeletonIds, rootFrames } = world.assets;
  const id = skeletonIds.get(skeleton);
  if (id === undefined) return false;
  const issues: AnimationIssue[] = [];
  const live = liveCharacters(world);
  const character = world.components.Character.skeleton;
  for (let i = 0; i < live.length; i++) {
    if (character[live[i]] === id) issues.push({ path: `skeleton (${skeleton.jointCount} joints)`, message: `is character ${live[i]}'s: remove it first (removeCharacter)` });
  }
  if (issues.length > 0) throw new AnimationError(where, issues);
  skeletonIds.delete(skeleton);
  freeId(skeletons, id);
  rootFrames[id] = undefined as never;
  if (rootFrames.length > skeletons.length) rootFrames.length = skeletons.length;
  dropReferences(world, (ids) => ids.skeleton === id);
  dropIdentity(world, skeleton);
  dropUnusedBindings(world, (binding) => binding.source === skeleton || binding.target === skeleton);
  return true;
}

/**
 * Releases `mask` from the world's registries (its id goes to the next mask registered).
 * Releasing a mask the world never registered does nothing and returns false.
 *
 * Refused while a live character's layer blends through it (stop the layer first).
 *
 * @returns whether the mask was registered (and is now released).
 * @throws AnimationError naming every such character and layer, or when `world` or `mask` is
 * not one; nothing changes then.
 */
export function releaseMask(world: AnimationWorld, mask: Mask): boolean {
  const where = 'releaseMask';
  requireWorld(world, where);
  if (typeof mask !== 'object' || mask === null || !(mask.weights instanceof Float32Array)) fail(where, 'mask', 'must be a Mask from createMask');
  const { masks, maskIds } = world.assets;
  const id = maskIds.get(mask);
  if (id === undefined) return false;
  const issues: AnimationIssue[] = [];
  const { Layers } = world.components;
  const live = liveCharacters(world);
  for (let i = 0; i < live.length; i++) {
    for (let layer = 0; layer < Layers.maxLayers; layer++) {
      if (Layers.mask[live[i] * Layers.maxLayers + layer] === id) issues.push({ path: 'mask', message: `masks character ${live[i]}'s layer ${layer}: stop that layer first (stop, or removeCharacter)` });
    }
  }
  if (issues.length > 0) throw new AnimationError(where, issues);
  maskIds.delete(mask);
  freeId(masks, id);
  return true;
}
