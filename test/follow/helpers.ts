/** Worlds and stepping for the follower tests. */
import { createAnimationWorld, spawnCharacter, type AnimationWorld } from '../../src/index.js';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../../src/components/Follower.js';
import { followSystem } from '../../src/systems/followSystem.js';
import { twoJointSkeleton } from '../systems/helpers.js';
import { rk4, type AxisState } from './reference.js';

/** A world with `count` characters (eids in spawn order), spare rows for sentinels. */
export function followWorld(count: number): { world: AnimationWorld; eids: number[] } {
  const skeleton = twoJointSkeleton();
  const world = createAnimationWorld({ maxEntities: count + 2, maxJoints: 2 });
  const eids = Array.from({ length: count }, () => spawnCharacter(world, skeleton));
  return { world, eids };
}

/**
 * Runs `followSystem` from time `now` to exactly `until`, frame lengths from `nextDt`, the
 * last frame cut short so it lands on `until`. Returns `until`.
 */
export function advanceTo(world: AnimationWorld, now: number, until: number, nextDt: () => number): number {
  let t = now;
  while (until - t > 1e-12) {
    const dt = Math.min(nextDt(), until - t);
    followSystem(world, dt);
    t += dt;
  }
  return until;
}

/** The row of `eid`'s follower `slot` in the Follower arrays (`eid × FOLLOW_SLOTS + slot`). */
export const followRow = (eid: number, slot = 0): number => eid * FOLLOW_SLOTS + slot;

/** `array[row × 3 ..]` of `eid`'s follower `slot` (target, sampled), copied. */
export function followTriple(array: Float64Array, eid: number, slot = 0): number[] {
  const o = followRow(eid, slot) * 3;
  return Array.from(array.subarray(o, o + 3));
}

/** The follower state of `eid`'s `slot` (default 0): position, velocity, acceleration (x y z each). */
export function followState(world: AnimationWorld, eid: number, slot = 0): { x: number[]; v: number[]; a: number[] } {
  const s = world.components.Follower.state;
  const o = followRow(eid, slot) * FOLLOW_STATE_STRIDE;
  return { x: [s[o]!, s[o + 1]!, s[o + 2]!], v: [s[o + 3]!, s[o + 4]!, s[o + 5]!], a: [s[o + 6]!, s[o + 7]!, s[o + 8]!] };
}

/** Euclidean distance between two 3-vectors. */
export const distance = (p: readonly number[], q: readonly number[]): number => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);

/** A target the game sets at `time` (between frames). */
export interface TargetEvent {
  readonly time: number;
  readonly value: readonly [number, number, number];
}

/**
 * The seed's model for one follower, integrated by RK4 at ≤ 1e-4 s steps: starts at rest at
 * `start`, samples the latest target set strictly before each instant k·interval (k ≥ 1),
 * and reports the state (per axis [x, v, a]) at each of `checkpoints` (ascending).
 */
export function referenceRun(
  start: readonly [number, number, number],
  T: number,
  interval: number,
  events: readonly TargetEvent[],
  checkpoints: readonly number[],
): AxisState[][] {
  const axes: AxisState[] = [0, 1, 2].map((k) => [start[k]!, 0, 0]);
  let xf = [...start];
  const out: AxisState[][] = [];
  let t = 0;
  let instant = 1;
  let nextInstant = interval;
  for (const checkpoint of checkpoints) {
    while (t < checkpoint - 1e-12) {
      const until = Math.min(checkpoint, nextInstant);
      const steps = Math.max(1, Math.ceil((until - t) / 1e-4));
      for (let k = 0; k < 3; k++) axes[k] = rk4(axes[k]!, xf[k]!, T, until - t, steps);
      t = until;
      if (Math.abs(t - nextInstant) < 1e-12) {
        const latest = events.filter((e) => e.time < nextInstant - 1e-9).at(-1);
        if (latest) xf = [...latest.value];
        nextInstant = ++instant * interval;
      }
    }
    out.push(axes.map((a) => [...a] as AxisState));
  }
  return out;
}
