/**
 * Float curves on characters (metachannels): `getCurves`, and the curve maps the
 * blend reads — which of a clip's curves is which of a skeleton's, resolved by name when a
 * clip is played or bound (`play`, `transition`, blend spaces, state machines, LOD levels),
 * never per frame.
 */
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { fail } from '../assets/AnimationError.js';
import { addComponent } from 'bitecs';
import type { AnimationWorld } from '../world.js';
import { requireCharacter } from './validation.js';
import { rowOf } from '../systems/switching/curveMapRows.js';

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
