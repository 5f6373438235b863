/**
 * Curve maps (resolved per world in ./curveMapRows.ts) and additive reference curves: which of a clip's float curves
 * is which of a skeleton's, by name, cached per pair (assets are immutable).
 */
import type { Clip } from '../../assets/Clip.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { sampleCurvesInto } from '../../assets/sampleCurves.js';

/** Maps by skeleton and clip (assets are immutable, so a pair's map never changes). */
const mapCache = new WeakMap<Skeleton, WeakMap<Clip, Int16Array | null>>();
/**
 * Clip curve i → index of the curve of the same name in `skeleton.curves` (−1: none), or null
 * when no curve of `clip` is one of the skeleton's.
 */
export function curveMapOf(skeleton: Skeleton, clip: Clip): Int16Array | null {
  let byClip = mapCache.get(skeleton);
  if (byClip === undefined) mapCache.set(skeleton, (byClip = new WeakMap()));
  let map = byClip.get(clip);
  if (map === undefined) {
    const out = new Int16Array(clip.curves.length).fill(-1);
    let found = false;
    clip.curves.forEach((curve, i) => {
      const c = skeleton.curves.findIndex((s) => s.name === curve.name);
      out[i] = c;
      if (c >= 0) found = true;
    });
    map = found ? out : null;
    byClip.set(clip, map);
  }
  return map;
}

/**
 * The reference values of an additive layer's curves, in `skeleton.curves` order, appended to
 * its reference pose (`registerReference`): `clip`'s curves at time `at` by name, a curve it
 * lacks at the skeleton's default — or all 0 for the identity reference of a difference clip,
 * whose curves already hold S − R.
 */
export function referenceCurves(out: Float32Array, outOff: number, skeleton: Skeleton, clip: Clip, at: number, identity: boolean): void {
  const curves = skeleton.curves;
  for (let c = 0; c < curves.length; c++) out[outOff + c] = identity ? 0 : curves[c].default;
  if (identity || clip.curves.length === 0) return;
  const map = curveMapOf(skeleton, clip);
  if (map === null) return;
  const values = new Float32Array(clip.curves.length);
  sampleCurvesInto(values, 0, clip, Float64Array.of(at), 0);
  for (let i = 0; i < map.length; i++) if (map[i] >= 0) out[outOff + map[i]] = values[i];
}
