/**
 * Where the crowd reads a character's morph-target weights from: the one place the renderer
 * meets the runtime's curve values. A character's weight of curve `curve` (its index in its
 * skeleton's `curves`) is the world's `Curves` component's blended value (`getCurves`'s view:
 * `maxCurves` floats per entity id); the crowd's own per-character override
 * (`CrowdRenderer.setMorphWeights`) wins over it when set.
 */
import type { AnimationWorld } from '../world.js';

/**
 * The value of curve `curve` of character `eid` in `world`'s `Curves` component (0 past the
 * world's `maxCurves`). Called per drawn character and morph target of a morphed body each
 * frame: no allocation, no validation (`curve` comes from the body's map, ≥ 0).
 */
export function morphWeightOf(world: AnimationWorld, eid: number, curve: number): number {
  const { values, maxCurves } = world.components.Curves;
  return curve < maxCurves ? values[eid * maxCurves + curve] : 0;
}
