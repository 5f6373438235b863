/**
 * The frame: the ordered table of systems that `step` runs — declared once, here. The
 * sandbox's timed pipeline and the bench run the same table (`world.frame`), and the docs'
 * frame tables (docs/how-it-works.md, docs/design.md §4) are checked against it by
 * test/frame/docs.test.ts.
 *
 * A frame (`runFrame`): removals are committed, then the characters are taken
 * `FRAME_CHUNK` at a time, each chunk through every system in order (so a character's local
 * pose is still in cache when the next system reads it), then the frame ends (`endFrame`): the
 * clock advances, once. `lodSystem` comes first: for each chunk it writes the update list
 * (components/UpdateList.ts) — the characters updated this frame and each one's seconds —
 * and every later system visits that list, so a character update-rate LOD skips is in no
 * system's loop.
 *
 * Adding a system: write its file (`xxxSystem(world, dt)` and its chunked form
 * `xxxEntities(world, dt, first, end)` over the update list, see `FrameSystem.entities`),
 * then add one line to {@link defaultFrame} — or, in a game, pass
 * `insertSystem(defaultFrame, system, { after: 'inertialize' })` as `frame` to
 * {@link createAnimationWorld}. Nothing else lists systems.
 */
import { commitRemovals } from 'bitecs';
import { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
import { describeValue } from './assets/limits.js';
import { clearUpdateList } from './components/UpdateList.js';
import { aimEntities, aimScratch } from './systems/aimSystem.js';
import { blendEntities, blendScratch } from './systems/blendSystem.js';
import { followEntities } from './systems/followSystem.js';
import { footLockEntities, footLockScratch } from './systems/footLockSystem.js';
import { inertializeEntities, inertializeScratch } from './systems/inertializeSystem.js';
import { lodEntities } from './systems/lodSystem.js';
import { rootMotionEntities } from './systems/rootMotionSystem.js';
import { advanceClock, sampleEntities } from './systems/sampleSystem.js';
import { skinEntities, skinScratch } from './systems/skinSystem.js';
import { stateMachineEntities } from './systems/stateMachineSystem.js';
import { syncKernelArea } from './wasm/kernels.js';
import { FRAME_CHUNK, type AnimationWorld, type Frame, type FrameSystem } from './world.js';

export type { Frame, FrameSystem, ScratchDeclaration, ScratchOf } from './world.js';
export { FRAME_CHUNK } from './world.js';

/** The frames made by {@link createFrame}: only those run. */
const frames = new WeakSet<Frame>();

/** Each frame's systems split: `caller` ones (`FrameSystem.caller`) and the chunked rest, in order. */
const parts = new WeakMap<Frame, { readonly caller: readonly FrameSystem[]; readonly chunk: readonly FrameSystem[] }>();

/** The systems of `frame` each chunk runs through: all but the `caller` ones, in order. */
export function chunkSystems(frame: Frame): readonly FrameSystem[] {
  return (parts.get(frame) as { readonly chunk: readonly FrameSystem[] }).chunk;
}

/**
 * Checks and freezes an ordered table of systems. Each is `{ name, entities, reads, writes,
 * scratch? }` ({@link FrameSystem}); names are unique. Put `lodSystem` (`'lod'`) first if the
 * frame has it: the systems before it would visit every character.
 * @throws AnimationError when `systems` is not an array of such objects, or a name repeats.
 * @example
 * const frame = createFrame([...defaultFrame.systems, { name: 'ragdoll', entities: ragdollEntities, reads: ['LocalPose'], writes: ['LocalPose'] }]);
 */
export function createFrame(systems: readonly FrameSystem[]): Frame {
  const issues: AnimationIssue[] = [];
  if (!Array.isArray(systems)) {
    throw new AnimationError('createFrame', [{ path: 'systems', message: `is ${describeValue(systems)}: must be an array of { name, entities, reads, writes, scratch? }` }]);
  }
  const names = new Set<string>();
  systems.forEach((system: unknown, n) => {
    const path = `systems[${n}]`;
    if (typeof system !== 'object' || system === null || Array.isArray(system)) {
      issues.push({ path, message: `is ${describeValue(system)}: must be an object { name, entities, reads, writes, scratch? }` });
      return;
    }
    const s = system as Record<string, unknown>;
    if (typeof s['name'] !== 'string' || s['name'] === '') issues.push({ path: `${path}.name`, message: `is ${describeValue(s['name'])}: must be a non-empty string` });
    else if (names.has(s['name'])) issues.push({ path: `${path}.name`, message: `"${s['name']}" is already in the frame: names must be unique` });
    else names.add(s['name']);
    if (s['caller'] !== undefined && typeof s['caller'] !== 'boolean') issues.push({ path: `${path}.caller`, message: `is ${describeValue(s['caller'])}: must be true or false` });
    if (typeof s['entities'] !== 'function') issues.push({ path: `${path}.entities`, message: `is ${describeValue(s['entities'])}: must be a function (world, dt, first, end) => void` });
    for (const key of ['reads', 'writes'] as const) {
      const list = s[key];
      if (!Array.isArray(list) || !list.every((entry) => typeof entry === 'string')) {
        issues.push({ path: `${path}.${key}`, message: `is ${describeValue(list)}: must be an array of strings (Component.field, world.x)` });
      }
    }
    const scratch = s['scratch'];
    if (scratch !== undefined) {
      if (typeof scratch !== 'object' || scratch === null || Array.isArray(scratch)) {
        issues.push({ path: `${path}.scratch`, message: `is ${describeValue(scratch)}: must be an object of (maxJoints) => buffer functions` });
      } else {
        for (const [name, make] of Object.entries(scratch)) {
          if (typeof make !== 'function') issues.push({ path: `${path}.scratch.${name}`, message: `is ${describeValue(make)}: must be a function (maxJoints) => buffer` });
        }
      }
    }
  });
  if (issues.length) throw new AnimationError('createFrame', issues);
  const checked = systems.map((system) => Object.freeze({ ...system, reads: Object.freeze([...system.reads]), writes: Object.freeze([...system.writes]) }));
  const frame: Frame = Object.freeze({ systems: Object.freeze(checked) });
  frames.add(frame);
  parts.set(frame, {
    caller: Object.freeze(checked.filter((system) => system.caller === true)),
    chunk: Object.freeze(checked.filter((system) => system.caller !== true)),
  });
  return frame;
}

/** Where `insertSystem` puts the system: right after or right before the system of that name. */
export type InsertAt = { readonly after: string } | { readonly before: string };

/**
 * A copy of `frame` with `system` inserted after (or before) the system named in `at` — the
 * one call a game makes to add a system (docs/design.md §4).
 * @throws AnimationError when `frame` is not a frame from {@link createFrame}, `at` names no
 * system of it, or `system` is not a valid {@link FrameSystem} (see {@link createFrame}).
 * @example
 * const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 64, frame: insertSystem(defaultFrame, recoil, { after: 'inertialize' }) });
 */
export function insertSystem(frame: Frame, system: FrameSystem, at: InsertAt): Frame {
  requireFrame(frame, 'insertSystem', 'frame');
  const where = typeof at === 'object' && at !== null ? at as Partial<Record<'after' | 'before', unknown>> : {};
  const name = 'after' in where ? where.after : where.before;
  const index = frame.systems.findIndex((s) => s.name === name);
  if (typeof name !== 'string' || index < 0) {
    throw new AnimationError('insertSystem', [{
      path: 'at',
      message: `is ${describeValue(at)}: must be { after: name } or { before: name } with a system of the frame (${frame.systems.map((s) => s.name).join(', ')})`,
    }]);
  }
  const systems = [...frame.systems];
  systems.splice('after' in where ? index + 1 : index, 0, system);
  return createFrame(systems);
}

export function requireFrame(frame: unknown, where: string, path: string): asserts frame is Frame {
  if (!frames.has(frame as Frame)) {
    throw new AnimationError(where, [{ path, message: `is ${describeValue(frame)}: must be a frame from createFrame, insertSystem or defaultFrame` }]);
  }
}

/**
 * bitanim's frame, in order (DESIGN §4, docs/design.md): level of detail and the update
 * list, sampling, blending, inertialization, root motion, followers, aiming, foot locking,
 * skinning.
 * `reads` and `writes` name components as `Component.field` (`Component`: all of it) and
 * world state as `world.x`; the docs' tables are generated from them.
 */
export const defaultFrame: Frame = createFrame([
  {
    name: 'lod',
    entities: lodEntities,
    reads: ['Lod', 'RootMotion.x', 'RootMotion.y', 'RootMotion.z', 'RootMotion.delta', 'world.lod.camera'],
    writes: ['world.updates', 'Lod.level', 'Lod.measure', 'Lod.tick', 'Lod.frames', 'Lod.elapsed', 'Lod.update', 'Lod.slot', 'Lod.dt', 'world.lod.dts'],
  },
  {
    name: 'stateMachine',
    entities: stateMachineEntities,
    caller: true,
    reads: ['StateMachine', 'Character', 'Layers', 'LocalPose', 'Inertialization', 'world.assets', 'world.time'],
    writes: ['StateMachine', 'Layers', 'Inertialization', 'world.events'],
  },
  {
    name: 'sample',
    entities: sampleEntities,
    reads: ['world.updates', 'Layers', 'RootMotion.enabled', 'RootMotion.extractYaw', 'Lod.slot', 'Lod.dt', 'world.assets.clips', 'world.assets.rootTracks', 'world.assets.syncMarkers'],
    writes: [
      'Layers.time', 'Layers.rootDelta', 'Layers.rootYaw', 'Layers.weight', 'Layers.speed', 'Layers.fadeElapsed',
      'Layers.clip', 'world.events', 'world.time',
    ],
  },
  {
    name: 'blend',
    entities: blendEntities,
    reads: [
      'world.updates', 'Character.skeleton', 'Character.jointCount', 'Layers.clip', 'Layers.time', 'Layers.binding', 'Layers.weight',
      'Layers.flags', 'Layers.mask', 'Layers.reference', 'Lod.enabled', 'Lod.level', 'world.lod.clipLevels', 'world.assets.clips',
      'world.assets.bindings', 'world.assets.skeletons', 'world.assets.masks', 'world.assets.references', 'world.scratch.blendThreshold',
      'world.interpolation', 'world.assets.curveMaps', 'Curves.count',
    ],
    writes: ['LocalPose', 'Curves.values'],
    scratch: blendScratch,
  },
  {
    name: 'inertialize',
    entities: inertializeEntities,
    reads: ['world.updates', 'Character', 'Layers', 'LocalPose', 'Inertialization', 'Lod.enabled', 'Lod.level', 'world.lod.clipLevels', 'world.assets', 'world.interpolation', 'Curves'],
    writes: ['LocalPose', 'Inertialization', 'Curves.values', 'Curves.slots'],
    scratch: inertializeScratch,
  },
  {
    name: 'rootMotion',
    entities: rootMotionEntities,
    reads: [
      'world.updates', 'Character', 'Layers.clip', 'Layers.weight', 'Layers.fadeCurve', 'Layers.fadeFrom', 'Layers.fadeTo', 'Layers.fadeElapsed', 'Layers.fadeDuration', 'Layers.flags', 'Layers.mask', 'Layers.reference', 'Layers.rootDelta', 'Layers.rootYaw', 'Layers.rootScale',
      'Layers.rootAxis', 'RootMotion.enabled', 'RootMotion.vertical', 'RootMotion.extractYaw', 'world.assets.rootFrames', 'world.assets.masks', 'world.scratch.blendThreshold',
    ],
    writes: ['RootMotion.x', 'RootMotion.y', 'RootMotion.z', 'RootMotion.yaw', 'RootMotion.delta', 'LocalPose'],
  },
  {
    name: 'follow',
    entities: followEntities,
    reads: ['world.updates', 'Follower'],
    writes: ['Follower'],
  },
  {
    name: 'aim',
    entities: aimEntities,
    reads: [
      'world.updates', 'Character', 'LookAt', 'Reach', 'Follower.enabled', 'Follower.state', 'RootMotion.x', 'RootMotion.y', 'RootMotion.z',
      'RootMotion.yaw', 'LocalPose', 'world.assets.skeletons',
    ],
    writes: ['LocalPose'],
    scratch: aimScratch,
  },
  {
    name: 'footLock',
    entities: footLockEntities,
    reads: [
      'world.updates', 'Character', 'FootLock', 'Layers.clip', 'Layers.time', 'Layers.weight', 'Layers.flags', 'Layers.mask', 'RootMotion.x',
      'RootMotion.y', 'RootMotion.z', 'RootMotion.yaw', 'LocalPose', 'world.assets.clips', 'world.assets.masks', 'world.assets.skeletons',
    ],
    writes: ['LocalPose', 'FootLock'],
    scratch: footLockScratch,
  },
  {
    name: 'skin',
    entities: skinEntities,
    reads: ['world.updates', 'Character.skeleton', 'Character.jointCount', 'LocalPose', 'world.assets.skeletons'],
    writes: ['ModelPose', 'SkinPalette'],
    scratch: skinScratch,
  },
]);

/**
 * Starts a frame of `world`: commits pending removals, brings the kernel area up to the assets (`syncKernelArea`) and returns the number of characters
 * (the chunks are `dense[first .. min(first + FRAME_CHUNK, count))`). With {@link endFrame},
 * what a caller that times the systems one by one (the sandbox, the bench) runs around its
 * own loop over `world.frame.systems`; {@link runFrame} otherwise. Allocates nothing.
 */
export function beginFrame(world: AnimationWorld): number {
  commitRemovals(world.ecs);
  if (world.wasm !== null) syncKernelArea(world.wasm, world.assets.skeletons, world.assets.clips); // the kernel area's copies, on this thread only
  return world.characters.dense.length;
}

/**
 * Ends a frame of `dt` seconds: the clock advances (`advanceClock`, once per frame — the one
 * place it moves in a frame) and the update list's chunks are retired, so the next frame's
 * systems do not take them for theirs. Allocates nothing.
 */
export function endFrame(world: AnimationWorld, dt: number): void {
  advanceClock(world, dt);
  clearUpdateList(world.updates);
}

/**
 * Runs one frame of `world` (`world.frame`'s systems, chunk by chunk) by `dt` seconds, without
 * checking its arguments: `step` is this after its checks. Allocates nothing.
 */
export function runFrame(world: AnimationWorld, dt: number): void {
  const count = beginFrame(world);
  runCallerSystems(world, dt, count);
  const systems = chunkSystems(world.frame);
  const n = systems.length;
  for (let first = 0; first < count; first += FRAME_CHUNK) {
    const end = first + FRAME_CHUNK < count ? first + FRAME_CHUNK : count;
    for (let s = 0; s < n; s++) systems[s].entities(world, dt, first, end);
  }
  endFrame(world, dt);
}

/**
 * Runs the frame's `caller` systems (`FrameSystem.caller`: `stateMachineSystem`) once over
 * the frame's `count` characters, on this thread, before the chunks: `runFrame` and
 * `stepParallel` both call it after `beginFrame`. Allocates nothing.
 */
export function runCallerSystems(world: AnimationWorld, dt: number, count: number): void {
  const systems = (parts.get(world.frame) as { readonly caller: readonly FrameSystem[] }).caller;
  for (let s = 0; s < systems.length; s++) systems[s].entities(world, dt, 0, count);
}
