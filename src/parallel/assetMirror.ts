/**
 * Assets reach the workers of a threaded world once each: before a frame,
 * the caller compares the registries the systems read with what it last sent and posts only
 * the slots that changed (registered, replaced or released since), together with the LOD
 * level table when its contents changed. Comparing is a pass over the registries' slots (tens of
 * references) and over the level table (`LOD_MAX_LEVELS` ints per clip), and allocates nothing
 * when nothing changed.
 *
 * Registry slots hold immutable assets, so a slot is compared by identity. The level table is
 * written in place (`registerLodLevels` for a clip whose row exists, `releaseClip`), so it is
 * compared by value with a copy of what was sent: identity would miss an in-place change and
 * leave the workers sampling the old levels.
 */
import type { AnimationWorld } from '../world.js';

/** The registries of `world.assets` the frame's systems read, mirrored in every worker. */
export const MIRRORED_REGISTRIES = ['skeletons', 'clips', 'masks', 'references', 'rootTracks', 'syncMarkers', 'rootFrames', 'bindings', 'curveMaps'] as const;

/** One of {@link MIRRORED_REGISTRIES}. */
export type MirroredRegistry = (typeof MIRRORED_REGISTRIES)[number];

/** What the workers have been sent: per registry its slots, and a copy of the LOD level table (null: none sent yet). */
export interface AssetMirror {
  readonly sent: Record<MirroredRegistry, unknown[]>;
  clipLevels: Int32Array | null;
}

/** The changes a worker applies with {@link applyAssetUpdate} (structured-cloned by `postMessage`). */
export interface AssetUpdate {
  /** `[registry, slot, value]`, in order. */
  readonly slots: [MirroredRegistry, number, unknown][];
  /** Each changed registry's length after the update. */
  readonly lengths: [MirroredRegistry, number][];
  /** The LOD level table, when it changed. */
  clipLevels: Int32Array | null;
}

/** A mirror of nothing sent yet. */
export function createAssetMirror(): AssetMirror {
  return {
    sent: { skeletons: [], clips: [], masks: [], references: [], rootTracks: [], syncMarkers: [], rootFrames: [], bindings: [], curveMaps: [] },
    clipLevels: null,
  };
}

/** Forgets what was sent, so the next {@link takeAssetUpdate} sends every slot and the level table again (after verify mode found a stale copy). */
export function forgetAssetMirror(mirror: AssetMirror): void {
  for (let r = 0; r < MIRRORED_REGISTRIES.length; r++) mirror.sent[MIRRORED_REGISTRIES[r]].length = 0;
  mirror.clipLevels = null;
}

/** The changes since the last call (recording them as sent), or null when there are none. */
export function takeAssetUpdate(world: AnimationWorld, mirror: AssetMirror): AssetUpdate | null {
  let update: AssetUpdate | null = null;
  const assets = world.assets as unknown as Record<MirroredRegistry, unknown[]>;
  for (let r = 0; r < MIRRORED_REGISTRIES.length; r++) {
    const name = MIRRORED_REGISTRIES[r];
    const list = assets[name];
    const sent = mirror.sent[name];
    let changed = list.length !== sent.length;
    for (let i = 0; i < list.length; i++) {
      if (i < sent.length && list[i] === sent[i]) continue;
      update ??= { slots: [], lengths: [], clipLevels: null };
      update.slots.push([name, i, list[i]]);
      sent[i] = list[i];
      changed = true;
    }
    if (changed) {
      sent.length = list.length;
      update ??= { slots: [], lengths: [], clipLevels: null };
      update.lengths.push([name, list.length]);
    }
  }
  const levels = world.lod.clipLevels;
  if (mirror.clipLevels === null || !sameInts(levels, mirror.clipLevels)) {
    mirror.clipLevels = levels.slice(); // a copy: the world's table may change in place later
    update ??= { slots: [], lengths: [], clipLevels: null };
    update.clipLevels = mirror.clipLevels;
  }
  return update;
}

/** Whether `a` and `b` hold the same ints. */
function sameInts(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Applies an update from {@link takeAssetUpdate} to a worker's view of the world. */
export function applyAssetUpdate(world: AnimationWorld, update: AssetUpdate): void {
  const assets = world.assets as unknown as Record<MirroredRegistry, unknown[]>;
  for (const [name, slot, value] of update.slots) assets[name][slot] = value;
  for (const [name, length] of update.lengths) assets[name].length = length;
  if (update.clipLevels !== null) world.lod.clipLevels = update.clipLevels;
}
