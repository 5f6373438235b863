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
 * its axis and scaled by the hip-height ratio, over its cycle time, blended by weight —
 * divided into the target speed. All layers get the same rate, so a blend keeps its proportions.
 *
 * A layer's cycle time is its clip's duration, or for a member of a sync group the group's
 * cycle duration D_g = Σ wᵢDᵢ / Σ wᵢ (each member covers one cycle per D_g at rate 1), so a
 * synced group travels Σ wᵢ·scaleᵢ·|axis(cycleᵢ)| / Σ wᵢ / D_g per second at rate 1. Synced
 * members get the rate as their group's `syncRate` (every member of the group, weighted or
 * not, so a member fading in later keeps it).
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
  let groups = 0; // sync groups with a weighted override member
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
    const group = Layers.syncGroup[li]!;
    const cycleTime = group >= 0 && clip.duration > 0 ? groupDuration(world, eid, group) : clip.duration;
    if (group >= 0) groups |= 1 << group;
    const perSecond = cycleTime > 0 ? (Math.hypot(dx, dz) * Layers.rootScale[li]!) / cycleTime : 0;
    total += w;
    travel += w * perSecond;
  }
  if (total > 0) travel /= total;
  if (!(travel > NO_TRAVEL)) {
    fail(where, 'clip', `${names.length ? names.join(', ') : 'no weighted clip'} ${names.length === 1 ? 'has' : 'have'} no net travel per cycle, so no playback rate gives a speed: play ${names.length === 1 ? 'it' : 'them'} in place`);
  }
  const rate = metersPerSecond / travel;
  for (let li = eid * MAX_LAYERS; li < (eid + 1) * MAX_LAYERS; li++) {
    if (Layers.clip[li]! < 0) continue;
    const group = Layers.syncGroup[li]!;
    if (group >= 0 && (groups & (1 << group)) !== 0) {
      Layers.syncRate[li] = rate;
      Layers.speed[li] = rate; // sampleSystem rescales it to rate × Dᵢ / D_g each frame
      continue;
    }
    if (!(Layers.weight[li]! > 0) || (Layers.flags[li]! & LAYER_ADDITIVE) !== 0) continue;
    Layers.speed[li] = rate;
  }
}

/**
 * Cycle duration of sync group `group` of `eid`, as `syncPhases` computes it: Σ wᵢDᵢ / Σ wᵢ
 * over members with weight > 0 and duration > 0, else the plain mean of their durations.
 */
function groupDuration(world: AnimationWorld, eid: number, group: number): number {
  const { Layers } = world.components;
  const clips = world.assets.clips;
  let sumW = 0, sumWD = 0, sumD = 0, count = 0;
  for (let li = eid * MAX_LAYERS; li < (eid + 1) * MAX_LAYERS; li++) {
    const clipId = Layers.clip[li]!;
    if (clipId < 0 || Layers.syncGroup[li]! !== group) continue;
    const duration = clips[clipId]!.duration;
    if (!(duration > 0)) continue;
    const w = Layers.weight[li]!;
    count++;
    sumD += duration;
    if (w > 0) { sumW += w; sumWD += w * duration; }
  }
  return sumW > 0 ? sumWD / sumW : count > 0 ? sumD / count : 0;
}
