/**
 * Float curves on characters (metachannels, issue 22): `getCurves`, and the curve maps the
 * blend reads — which of a clip's curves is which of a skeleton's, resolved by name when a
 * clip is played or bound (`play`, `transition`, blend spaces, state machines, LOD levels),
 * never per frame.
 */
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { fail } from '../assets/AnimationError.js';
import { LOD_MAX_LEVELS, lodClipId } from '../components/Lod.js';
import { addComponent } from 'bitecs';
import type { AnimationWorld, CurveMapRow } from '../world.js';
import { registerAsset } from './registry.js';
import { requireCharacter } from './validation.js';
import { curveMapOf } from './curveMaps.js';

/** The skeleton each row of a world's `curveMaps` was made for (a released id may be taken by another). */
const rowSkeleton = new WeakMap<CurveMapRow, Skeleton>();

/** The skeleton id of the row {@link rowOf} returned last (a module variable: a result object per call would be garbage). */
let rowId = -1;

/**
 * The skeleton's row of `world.assets.curveMaps` (made or remade for it; its id in
 * {@link rowId}), or null when it has no curves or the world keeps none.
 */
function rowOf(world: AnimationWorld, skeleton: Skeleton): CurveMapRow | null {
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

/**
 * At spawn (after the rows' reset): `eid`'s curves are `skeleton`'s, at their defaults, and it
 * gets the `Curves` component when it has any.
 * @throws AnimationError (as `spawnCharacter`) when the skeleton has more curves than the world's `maxCurves`; check it before the entity exists.
 */
export function spawnCurves(world: AnimationWorld, eid: number, skeleton: Skeleton): void {
  const Curves = world.components.Curves;
  const count = skeleton.curves.length;
  if (count === 0 || Curves.maxCurves === 0) return;
  Curves.count[eid] = count;
  for (let c = 0; c < count; c++) Curves.values[eid * Curves.maxCurves + c] = skeleton.curves[c].default;
  rowOf(world, skeleton);
  addComponent(world.ecs, eid, Curves);
}

/** The issue with spawning `skeleton` in `world` for its curves, or null (a world of `maxCurves: 0` keeps none and takes any skeleton). */
export function curvesIssue(world: AnimationWorld, skeleton: Skeleton): string | null {
  const count = Array.isArray(skeleton.curves) ? skeleton.curves.length : 0;
  const max = world.components.Curves.maxCurves;
  return max > 0 && count > max ? `has ${count} float curves, more than the world's maxCurves (${max}): create the world with createAnimationWorld({ maxCurves: ${count} }) or more` : null;
}

/**
 * Live view of `eid`'s blended float curves (`Float32Array`, one value per curve of its
 * skeleton, in `skeleton.curves` order: `curveIndex(skeleton, name)` finds one), valid until the
 * character is removed. Written by each update (blendSystem blends the layers' clip curves with
 * the pose's weights, inertializeSystem adds a transition's decaying offset); a character
 * without curves, or a world created with `maxCurves: 0`, gives an empty array. Curves its clips
 * lack hold the skeleton's defaults.
 * @throws AnimationError when `eid` is not a character of this world.
 * @example
 * const angry = curveIndex(skeleton, 'Head_4.Angry');
 * step(world, 1 / 60);
 * const weight = getCurves(world, eid)[angry];
 */
export function getCurves(world: AnimationWorld, eid: number): Float32Array {
  requireCharacter(world, eid, 'getCurves');
  const Curves = world.components.Curves;
  if (Curves.maxCurves === 0) return Curves.values.subarray(0, 0);
  const off = eid * Curves.maxCurves;
  return Curves.values.subarray(off, off + Curves.count[eid]);
}

/** Fails `where` when `skeleton` has more curves than `world` holds. */
export function requireCurvesFit(world: AnimationWorld, skeleton: Skeleton, where: string): void {
  const issue = curvesIssue(world, skeleton);
  if (issue !== null) fail(where, 'skeleton', issue);
}
