/**
 * The crowd both runtimes animate: one synthetic skeleton, two looping clips and, per
 * character, a start time and a playback speed for each clip. Everything is deterministic
 * (seeded), so bitanim and three.js get exactly the same numbers.
 */
import type { Clip, Skeleton } from '../src/index.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../test/fixtures/synthetic.js';

/** Joints per character. */
export const JOINT_COUNT = 64;

/** Clips played per character, one per layer (layer l plays `clips[l]`). */
export const LAYER_COUNT = 2;

/** The shared assets: built once, used for every crowd size. */
export interface CrowdAssets {
  readonly skeleton: Skeleton;
  /** `clips[l]` plays on layer l: 31 frames (seed 2) and 41 frames (seed 3), both at 30 fps. */
  readonly clips: readonly Clip[];
}

/** What each character of a crowd plays. Arrays are indexed `character × LAYER_COUNT + layer`. */
export interface CrowdPlan extends CrowdAssets {
  /** Number of characters. */
  readonly count: number;
  /** Blend weight of each layer (the same for every character). */
  readonly weights: readonly number[];
  /** Start time of each layer, seconds, in [0, clip duration). */
  readonly startTime: Float64Array;
  /**
   * Playback rate of each layer, in [0.8, 1.2). Rounded to float32, because bitanim stores
   * speeds as float32 and three.js as float64: rounding makes both advance time identically.
   */
  readonly speed: Float64Array;
}

/** Builds the 64-joint skeleton and the two clips from the test fixtures. */
export function createCrowdAssets(): CrowdAssets {
  const skeleton = syntheticSkeleton(JOINT_COUNT);
  const clips = [
    syntheticClip(skeleton, { seed: 2, name: 'cycleA' }),
    syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'cycleB' }),
  ];
  return { skeleton, clips };
}

/**
 * Plans a crowd of `count` characters playing both clips with `weights`, each with its own
 * start times and speeds (seeded: the same `count` and `seed` always give the same plan).
 */
export function planCrowd(assets: CrowdAssets, count: number, weights: readonly number[], seed = 42): CrowdPlan {
  const random = createRandom(seed);
  const startTime = new Float64Array(count * LAYER_COUNT);
  const speed = new Float64Array(count * LAYER_COUNT);
  for (let i = 0; i < count * LAYER_COUNT; i++) {
    const clip = assets.clips[i % LAYER_COUNT]!;
    startTime[i] = random() * clip.duration;
    speed[i] = Math.fround(0.8 + 0.4 * random());
  }
  return { ...assets, count, weights, startTime, speed };
}
