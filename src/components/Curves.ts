import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/** The most float curves a character can carry: the upper bound of `createAnimationWorld`'s `maxCurves` (`Curves.count` is a Uint16). */
export const MAX_CURVES = 1024;

/**
 * Float curves per character when `createAnimationWorld` is given no `maxCurves`: 8, room for a
 * face's few expression weights (RobotExpressive has 3) at 32 bytes a character.
 */
export const DEFAULT_MAX_CURVES = 8;

/**
 * Floats per curve in a transition slot's curve part (`Curves.slots`), used in turn as the slot's
 * joint part is (components/Inertialization.ts): from a request to its capture the source values
 * P1 (at 0) and P2 (at 1); from the capture on the offset — quintic: the signed x0 (at 0), the
 * signed k = v0·t1 (at 1) and 1/t1 (at 2), so x(t) = (1 − s)⁴·(x0·(1 + 4s) + k·s) with s = t/t1;
 * spring: the offset (at 0) and its velocity (at 1).
 */
export const CURVE_SLOT_STRIDE = 3;
/** In a curve's slot entry: P1 before the capture, x0 (quintic) or the offset (spring) after. */
export const CURVE_X0 = 0;
/** In a curve's slot entry: P2 before the capture, k = v0·t1 (quintic) or the velocity (spring) after. */
export const CURVE_K = 1;
/** In a curve's slot entry, quintic: 1/t1. */
export const CURVE_INV_T1 = 2;

/**
 * `Curves`: each character's blended float curves (metachannels: expression weights, a blink,
 * a material parameter), the clips' `curves` blended with the pose's layer weights by
 * blendSystem and inertialized with the pose by inertializeSystem.
 *
 * Per character (indexed by eid, `rows = maxEntities + 1`):
 * - `maxCurves`: curves a character can carry (`createAnimationWorld({ maxCurves })`, default
 *   `DEFAULT_MAX_CURVES` = 8; a number, not a pool).
 * - `count[eid]`: the curves of its skeleton (`skeleton.curves.length` ≤ maxCurves), 0 for a
 *   character without curves (the systems then skip it) or an id that is not a character.
 * - `values[eid × maxCurves + c]`: curve c's value in the order of `skeleton.curves`
 *   (`curveIndex(skeleton, name)`), what `getCurves` views; the skeleton's defaults at spawn.
 *
 * Transition slots (one per `Inertialization` slot, same index s): `slots[(s × maxCurves + c) ×
 * CURVE_SLOT_STRIDE ..]`, curve c's part of slot s (see `CURVE_SLOT_STRIDE`).
 *
 * Memory: `maxCurves × 4 + 2` bytes per character and `maxCurves × 12` per transition slot —
 * at the defaults 34 bytes per character and 12 bytes per character's share of the slots (a
 * crowd of 1,024 or more has a slot for every eighth character). `maxCurves: 0` allocates
 * nothing (`count` is then empty: read it only when `maxCurves > 0`).
 */
export interface CurvesComponent {
  readonly maxCurves: number;
  readonly count: Uint16Array;
  readonly values: Float32Array;
  readonly slots: Float32Array;
}

/** Creates the `Curves` component for `rows` entity ids, `maxCurves` curves each and `maxTransitions` transition slots. */
export function createCurvesComponent(rows: number, alloc: PoolAllocator = heapAllocator, maxCurves = DEFAULT_MAX_CURVES, maxTransitions = 0): CurvesComponent {
  return {
    maxCurves,
    count: alloc.array(Uint16Array, maxCurves > 0 ? rows : 0), // maxCurves 0: nothing at all
    values: alloc.array(Float32Array, rows * maxCurves),
    slots: alloc.array(Float32Array, maxTransitions * maxCurves * CURVE_SLOT_STRIDE),
  };
}

/** Bytes of the curve parts of `maxTransitions` transition slots of `maxCurves` curves. */
export function curveSlotBytes(maxTransitions: number, maxCurves: number): number {
  return maxTransitions * maxCurves * CURVE_SLOT_STRIDE * Float32Array.BYTES_PER_ELEMENT;
}

/** `Curves`' row lifecycle: no curves, values 0 (spawn then writes the skeleton's count and defaults). */
export const curvesRows: RowLifecycle<CurvesComponent> = {
  reset(c: CurvesComponent, eid: number): void {
    if (c.maxCurves === 0) return;
    c.count[eid] = 0;
    c.values.fill(0, eid * c.maxCurves, (eid + 1) * c.maxCurves);
  },
  kept: {
    slots: 'per transition slot, not per entity: read only by the slot\'s owner (Inertialization.slot), after a request or a capture wrote it',
  },
};
