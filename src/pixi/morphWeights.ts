/**
 * Where the crowd reads a character's morph-target weights from: THE ONE ADAPTER between the
 * renderer and the runtime's curve values. A character's weight of curve `curve` (its index in
 * its skeleton's `curves`) is the world's `Curves` component's value when the world has one:
 * a Float32Array `values`, eid-major, `maxCurves` floats per character (the world's
 * `maxCurves`, else `values.length / (maxEntities + 1)`); 0 without it. The crowd's own
 * per-character override (`CrowdRenderer.setMorphWeights`) wins over it when set.
 */
import type { AnimationWorld } from '../world.js';

/** The curve values as the adapter reads them (the `Curves` component's shape it assumes). */
interface CurveValues {
  readonly values?: unknown;
}

/**
 * The value of curve `curve` of character `eid` in `world`'s `Curves` component, or 0 when the
 * world has none. Called per drawn character and morph target of a morphed body each frame: no
 * allocation, no validation (`curve` comes from the body's map, ≥ 0).
 */
export function morphWeightOf(world: AnimationWorld, eid: number, curve: number): number {
  const curves = (world.components as { readonly Curves?: CurveValues }).Curves;
  if (curves === undefined) return 0;
  const values = curves.values;
  if (!(values instanceof Float32Array)) return 0;
  const stride = (world as { readonly maxCurves?: number }).maxCurves ?? values.length / (world.maxEntities + 1);
  return curve < stride ? values[eid * stride + curve] : 0;
}
