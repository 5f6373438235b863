/** Small builders shared by the system tests: hand-checkable skeletons, clips and worlds. */
import { expect } from 'vitest';
import { createAnimationWorld, createClip, createSkeleton, spawnCharacter, type AnimationWorld, type Clip, type Skeleton } from '../../src/index.js';
import { getRootTrack } from '../../src/kernels.js';

export const S = Math.SQRT1_2;
/** 90° about Z, about X, about Y (x y z w). */
export const Z90 = [0, 0, S, S] as const;
export const X90 = [S, 0, 0, S] as const;
export const Y90 = [0, S, 0, S] as const;
export const IDENTITY = [0, 0, 0, 1] as const;

/** One joint pose: translation, rotation, uniform or per-axis scale. */
export function jointPose(t: readonly number[], q: readonly number[] = IDENTITY, s: readonly number[] = [1, 1, 1]): number[] {
  return [t[0]!, t[1]!, t[2]!, q[0]!, q[1]!, q[2]!, q[3]!, s[0]!, s[1]!, s[2]!];
}

/** root → arm: the root at the origin, the arm 1 m along +X. */
export function twoJointSkeleton(): Skeleton {
  return createSkeleton({ names: ['root', 'arm'], parents: [-1, 0], rest: [...jointPose([0, 0, 0]), ...jointPose([1, 0, 0])] });
}

/**
 * A clip of 3 frames at 8 fps (D = 0.25 s, exact in binary): the root moves x = 0 → 1 → 0,
 * the arm turns identity → 90° about Z → identity and scales 1 → 2 → 1.
 */
export function wiggleClip(skeleton: Skeleton, options: { loop?: boolean; events?: { time: number; name: string }[] } = {}): Clip {
  return createClip({
    skeleton,
    frameRate: 8,
    frames: [
      ...jointPose([0, 0, 0]), ...jointPose([1, 0, 0]),
      ...jointPose([1, 0, 0]), ...jointPose([1, 0, 0], Z90, [2, 2, 2]),
      ...jointPose([0, 0, 0]), ...jointPose([1, 0, 0]),
    ],
    loop: options.loop ?? true,
    events: options.events ?? [],
    name: 'wiggle',
  });
}

/** A world with `count` characters of `skeleton` (eids 1…count), on `kernels` (default: the world's default). */
export function worldWith(skeleton: Skeleton, count: number, maxJoints = 4, kernels?: 'js' | 'wasm' | 'auto'): { world: AnimationWorld; eids: number[] } {
  const world = createAnimationWorld({ maxEntities: count + 2, maxJoints, ...(kernels === undefined ? {} : { kernels }) });
  const eids = Array.from({ length: count }, () => spawnCharacter(world, skeleton));
  return { world, eids };
}

/** Registers a clip the way `play` does and returns its id, for tests that write layers directly. */
export function registerClip(world: AnimationWorld, clip: Clip): number {
  const id = world.assets.clips.length;
  world.assets.clips.push(clip);
  world.assets.clipIds.set(clip, id);
  world.assets.rootTracks[id] = getRootTrack(clip);
  return id;
}

/** Expects two quaternions (x y z w) equal up to sign. */
export function expectQuat(actual: ArrayLike<number>, offset: number, expected: readonly number[], digits = 6): void {
  const sign = actual[offset + 3]! * expected[3]! + actual[offset]! * expected[0]! + actual[offset + 1]! * expected[1]! + actual[offset + 2]! * expected[2]! < 0 ? -1 : 1;
  for (let c = 0; c < 4; c++) expect(sign * actual[offset + c]!).toBeCloseTo(expected[c]!, digits);
}

/** Expects `count` values starting at `offset` to all be NaN (an untouched sentinel block). */
export function expectAllNaN(array: Float32Array | Float64Array, offset: number, count: number): void {
  let touched = 0;
  for (let i = offset; i < offset + count; i++) if (!Number.isNaN(array[i])) touched++;
  expect(touched).toBe(0);
}
