/**
 * Root-motion API: where a character is, and the playback rate that makes it move at a speed
 * (seeds/root-motion-normalization.txt, appendix 2). See rootMotionSystem.ts for the model.
 */
import { fail } from './assets/AnimationError.js';
import { getRootTrack } from './assets/rootTrack.js';
import { LAYER_ADDITIVE, MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from './components/Layers.js';
import { isFiniteNumber, requireCharacter } from './api.js';
import type { AnimationWorld } from './world.js';

/** A character's world transform: position in metres, heading about +Y in radians. */
export interface RootTransform {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly yaw: number;
}

/** Below this a clip's normalized travel (m/s at rate 1) cannot drive a speed. */
const NO_TRAVEL = 1e-6;

/**
 * The world transform root motion has moved character `eid` to.
 * @throws AnimationError when `eid` is not a character of this world.
 */
export function getRootTransform(world: AnimationWorld, eid: number): RootTransform {
  requireCharacter(world, eid, 'getRootTransform');
  const { x, y, z, yaw } = world.components.RootMotion;
  return { x: x[eid]!, y: y[eid]!, z: z[eid]!, yaw: yaw[eid]! };
}

/**
 * Sets the playback rate of every weighted override layer of `eid` so that the character
 * travels at `metersPerSecond` (appendix 2 of the root-motion seed): the layers' normalized
 * horizontal travel per second at rate 1 — each clip's net cycle displacement, restricted to
 * its axis and scaled by the hip-height ratio, over its duration, blended by weight — divided
 * into the target speed. All layers get the same rate, so a blend keeps its proportions.
 *
 * @example
 * // hips 0.7 m, clip hips 1.25 m, 2.0 m per 1.2 s cycle → rate 1.7858 for 1.6667 m/s
 * setTargetSpeed(world, eid, 1.6667);
 * @throws AnimationError for a speed that is negative or not finite, or when the weighted
 * clips do not travel (a net cycle displacement of ~0 cannot drive a speed; play such clips
 * in place instead). Nothing changes then.
 */
export function setTargetSpeed(world: AnimationWorld, eid: number, metersPerSecond: number): void {
  const where = 'setTargetSpeed';
  requireCharacter(world, eid, where);
  if (!isFiniteNumber(metersPerSecond) || metersPerSecond < 0) fail(where, 'metersPerSecond', `is ${metersPerSecond}: must be a finite number ≥ 0`);
  const { Layers } = world.components;
  const clips = world.assets.clips;
  let total = 0, travel = 0;
  const names: string[] = [];
  for (let li = eid * MAX_LAYERS; li < (eid + 1) * MAX_LAYERS; li++) {
    const w = Layers.weight[li]!;
    if (Layers.clip[li]! < 0 || !(w > 0) || (Layers.flags[li]! & LAYER_ADDITIVE) !== 0) continue;
    const clip = clips[Layers.clip[li]!]!;
    names.push(`"${clip.name}"`);
    const cycle = getRootTrack(clip).cycle;
    const axis = Layers.rootAxis[li]!;
    const dx = axis === ROOT_AXIS_FORWARD ? 0 : cycle[0]!;
    const dz = axis === ROOT_AXIS_LATERAL ? 0 : cycle[2]!;
    const perSecond = clip.duration > 0 ? (Math.hypot(dx, dz) * Layers.rootScale[li]!) / clip.duration : 0;
    total += w;
    travel += w * perSecond;
  }
  if (total > 0) travel /= total;
  if (!(travel > NO_TRAVEL)) {
    fail(where, 'clip', `${names.length ? names.join(', ') : 'no weighted clip'} ${names.length === 1 ? 'has' : 'have'} no net travel per cycle, so no playback rate gives a speed: play ${names.length === 1 ? 'it' : 'them'} in place`);
  }
  const rate = metersPerSecond / travel;
  for (let li = eid * MAX_LAYERS; li < (eid + 1) * MAX_LAYERS; li++) {
    if (Layers.clip[li]! < 0 || !(Layers.weight[li]! > 0) || (Layers.flags[li]! & LAYER_ADDITIVE) !== 0) continue;
    Layers.speed[li] = rate;
  }
}
