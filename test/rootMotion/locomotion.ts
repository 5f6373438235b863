/** Synthetic locomotion for the blend-space tests: a two-joint biped and directional walks. */
import { createClip, createSkeleton, step, type AnimationWorld, type Clip, type Skeleton } from '../../src/index.js';

/** hips (root) → leg: hips at `hipHeight` above the ground at rest. */
export function biped(hipHeight: number): Skeleton {
  return createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [0, hipHeight, 0, 0, 0, 0, 1, 1, 1, 1, 0, -hipHeight / 2, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/** How a synthetic walk moves; see {@link directionalWalk}. */
export interface WalkShape {
  /** Direction of travel in model X/Z (any length). */
  dirX: number;
  dirZ: number;
  /** Net travel per cycle, metres. */
  distance: number;
  /** Cycle duration, seconds. */
  duration: number;
  /** Sideways drift per cycle as a fraction of `distance` (default 0). */
  drift?: number;
  /** Events on the clip. */
  events?: { time: number; name: string }[];
  name?: string;
}

/**
 * A looping walk of `skeleton` (hips at `hipHeight`): the hips travel `distance` along
 * (dirX, dirZ) per cycle with a within-cycle surge (so travel is not linear in time), a bob,
 * a sway and an optional drift, at 30 fps. The leg swings.
 */
export function directionalWalk(skeleton: Skeleton, hipHeight: number, shape: WalkShape): Clip {
  const length = Math.hypot(shape.dirX, shape.dirZ);
  const ux = shape.dirX / length, uz = shape.dirZ / length;
  const drift = shape.drift ?? 0;
  const frames: number[] = [];
  const count = Math.round(shape.duration * 30);
  for (let f = 0; f <= count; f++) {
    const u = f / count;
    const along = shape.distance * (u + 0.03 * Math.sin(4 * Math.PI * u));
    const side = shape.distance * drift * u + 0.02 * Math.sin(2 * Math.PI * u);
    const swing = 0.3 * Math.sin(2 * Math.PI * u);
    frames.push(ux * along + uz * side, hipHeight + 0.03 * Math.cos(4 * Math.PI * u), uz * along - ux * side, 0, 0, 0, 1, 1, 1, 1);
    frames.push(0, -hipHeight / 2, 0, Math.sin(swing / 2), 0, 0, Math.cos(swing / 2), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: count / shape.duration, frames, loop: true, events: shape.events ?? [], name: shape.name ?? 'walk' });
}

/**
 * Steps `world` to exactly `seconds` later in steps of `maxDt` (or random ones in
 * [1/240, 1/20] when `random` is given), calling `beforeStep` before each.
 */
export function runFor(world: AnimationWorld, seconds: number, maxDt = 1 / 60, random?: () => number, beforeStep?: () => void): void {
  let t = 0;
  while (seconds - t > 1e-12) {
    const dt = Math.min(random ? 1 / 240 + random() * (1 / 20 - 1 / 240) : maxDt, seconds - t);
    beforeStep?.();
    step(world, dt);
    t += dt;
  }
}
