/**
 * Small assets for the float-curve tests: a one-joint skeleton with three curves (defaults 0,
 * 0.5, 0.25) and clips whose curves (and, for the inertialization tests, whose root x
 * translation) follow given functions of time.
 */
import { createClip, createSkeleton, type Clip, type Skeleton } from '../../src/index.js';

/** The skeleton's curves: `a` (default 0), `b` (default 0.5), `c` (default 0.25). */
export const DEFAULTS = { a: 0, b: 0.5, c: 0.25 } as const;

export function curveSkeleton(): Skeleton {
  return createSkeleton({
    names: ['root'],
    parents: [-1],
    rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    curves: [{ name: 'a' }, { name: 'b', default: 0.5 }, { name: 'c', default: 0.25 }],
  });
}

/**
 * A clip of `frames` frames at `frameRate`: curve `name` takes `f(t)` at each frame time t
 * (for each entry of `curves`), and the root's x translation `tx(t)` (default 0).
 */
export function curveClip(
  skeleton: Skeleton, name: string, curves: Record<string, (t: number) => number>,
  options: { frames?: number; frameRate?: number; loop?: boolean; tx?: (t: number) => number } = {},
): Clip {
  const frameCount = options.frames ?? 11;
  const frameRate = options.frameRate ?? 10;
  const jointCount = skeleton.jointCount;
  const frames = new Float32Array(frameCount * jointCount * 10);
  for (let f = 0; f < frameCount; f++) {
    frames.set(skeleton.rest, f * jointCount * 10);
    if (options.tx) frames[f * jointCount * 10] = options.tx(f / frameRate);
  }
  return createClip({
    skeleton, frameRate, frames, loop: options.loop ?? false, name,
    curves: Object.entries(curves).map(([curve, fn]) => ({ name: curve, values: Array.from({ length: frameCount }, (_, f) => fn(f / frameRate)) })),
  });
}

/** Float32 of x (the values clips store). */
export const f32 = Math.fround;
