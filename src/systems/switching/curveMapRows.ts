/**
 * A world's curve maps (`world.assets.curveMaps`): per skeleton, which of each clip's float
 * curves is which of the skeleton's, resolved by name when a clip is played or bound (`play`,
 * `transition`, blend spaces, state machines, LOD levels) — never per frame. Shared by the
 * commands (src/api) and stateMachineSystem.
 */
import type { Clip } from '../../assets/Clip.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { LOD_MAX_LEVELS, lodClipId } from '../../components/Lod.js';
import type { AnimationWorld, CurveMapRow } from '../../world.js';
import { curveMapOf } from './curveMaps.js';
import { registerAsset } from './registry.js';

/** The skeleton each row of a world's `curveMaps` was made for (a released id may be taken by another). */
const rowSkeleton = new WeakMap<CurveMapRow, Skeleton>();

/** The skeleton id of the row {@link rowOf} returned last (a module variable: a result object per call would be garbage). */
let rowId = -1;

/**
 * The skeleton's row of `world.assets.curveMaps` (made or remade for it; its id in
 * {@link rowId}), or null when it has no curves or the world keeps none.
 */
export function rowOf(world: AnimationWorld, skeleton: Skeleton): CurveMapRow | null {
  if (skeleton.curves.length === 0 || world.components.Curves.maxCurves === 0) return null;
  const { skeletons, skeletonIds, curveMaps } = world.assets;
  const id = registerAsset(skeletons, skeletonIds, skeleton);
  let row = curveMaps[id];
  if (row === undefined || rowSkeleton.get(row) !== skeleton) {
    row = { defaults: Float32Array.from(skeleton.curves, (c) => c.default), clips: [] };
    rowSkeleton.set(row, skeleton);
    curveMaps[id] = row;
  }
  rowId = id;
  return row;
}

/**
 * Makes sure the blend finds the curve map of clip `clipId` — and of its LOD levels — for
 * characters of `skeleton`. A changed row is replaced, not written in place, so the workers of a
 * threaded world receive it (src/parallel/assetMirror.ts). Called where a clip is registered
 * for a skeleton; nothing for a skeleton without curves.
 */
export function resolveCurveMap(world: AnimationWorld, skeleton: Skeleton, clipId: number): void {
  const found = rowOf(world, skeleton);
  if (found === null) return;
  const id0 = rowId;
  const { clips, curveMaps } = world.assets;
  let clipsOfRow: (Int16Array | undefined)[] | null = null;
  for (let level = -1; level < LOD_MAX_LEVELS; level++) {
    const id = lodClipId(world.lod.clipLevels, clipId, level);
    if (level >= 0 && id === clipId) continue;
    const clip = clips[id] as Clip | undefined;
    const map = clip === undefined ? undefined : curveMapOf(skeleton, clip) ?? undefined;
    const current = (clipsOfRow ?? found.clips)[id];
    if (current === map) continue;
    clipsOfRow ??= found.clips.slice();
    clipsOfRow[id] = map;
  }
  if (clipsOfRow !== null) {
    const row: CurveMapRow = { defaults: found.defaults, clips: clipsOfRow };
    rowSkeleton.set(row, skeleton);
    curveMaps[id0] = row;
  }
}

/**
 * After `registerLodLevels` gave clip `clipId` levels: resolves them for every skeleton that
 * already plays the clip with curves.
 */
export function resolveLodCurveMaps(world: AnimationWorld, clipId: number): void {
  const { curveMaps, skeletons } = world.assets;
  for (let id = 0; id < curveMaps.length; id++) {
    const row = curveMaps[id];
    const skeleton = skeletons[id] as Skeleton | undefined;
    if (row !== undefined && skeleton !== undefined && row.clips[clipId] !== undefined) resolveCurveMap(world, skeleton, clipId);
  }
}
