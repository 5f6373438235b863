/**
 * Assets reach the workers of a threaded world once each: before a frame,
 * the caller compares the registries the systems read with what it last sent and posts only
 * the slots that changed (registered, replaced or released since), together with the LOD
 * level table when it was replaced. Comparing is a pass over the registries' slots (tens of
 * references) and allocates nothing when nothing changed.
 */
import type { AnimationWorld } from '../world.js';

/** The registries of `world.assets` the frame's systems read, mirrored in every worker. */
export const MIRRORED_REGISTRIES = ['skeletons', 'clips', 'masks', 'references', 'rootTracks', 'syncMarkers', 'rootFrames', 'bindings', 'curveMaps'] as const;

/** One of {@link MIRRORED_REGISTRIES}. */
export type MirroredRegistry = (typeof MIRRORED_REGISTRIES)[number];

/** What the workers have been sent: per registry its slots, and the LOD level table. */
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
  if (world.lod.clipLevels !== mirror.clipLevels) {
    mirror.clipLevels = world.lod.clipLevels;
    update ??= { slots: [], lengths: [], clipLevels: null };
    update.clipLevels = world.lod.clipLevels;
  }
  return update;
}

/** Applies an update from {@link takeAssetUpdate} to a worker's view of the world. */
export function applyAssetUpdate(world: AnimationWorld, update: AssetUpdate): void {
  const assets = world.assets as unknown as Record<MirroredRegistry, unknown[]>;
  for (const [name, slot, value] of update.slots) assets[name][slot] = value;
  for (const [name, length] of update.lengths) assets[name].length = length;
  if (update.clipLevels !== null) world.lod.clipLevels = update.clipLevels;
}
