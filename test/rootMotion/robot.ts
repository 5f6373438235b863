/**
 * The Robot's locomotion for the target-speed and machine tests: assets/RobotExpressive.glb's
 * Idle, Walking and Running, the two gaits given the travel of their planted feet
 * (`rootMotionFromFeet`: the file's clips are in place), loaded at the file's size or at a
 * given height (a variant whose hip ratio and travel differ).
 */
import { loadGltf, rootMotionFromFeet, type Clip, type Skeleton } from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';
import { readAsset } from '../support/assets.js';

export interface RobotLocomotion {
  skeleton: Skeleton;
  idle: Clip;
  walk: Clip;
  run: Clip;
}

const cache = new Map<string, Promise<RobotLocomotion>>();

/** The Robot's Idle and its Walking / Running with root travel; `height` as loadGltf's option (undefined: the file's size). */
export function robotLocomotion(height?: number): Promise<RobotLocomotion> {
  const key = String(height);
  let found = cache.get(key);
  if (found === undefined) {
    found = (async () => {
      const robot = await loadGltf(readAsset('RobotExpressive.glb'), height === undefined ? {} : { height });
      const named = (name: string): Clip => robot.clips.find((c) => c.name === name)!;
      const feet = { feet: ['Foot.L', 'Foot.R'] };
      return { skeleton: robot.skeletons[0]!, idle: named('Idle'), walk: rootMotionFromFeet(named('Walking'), feet), run: rootMotionFromFeet(named('Running'), feet) };
    })();
    cache.set(key, found);
  }
  return found;
}

/** Horizontal travel per second of `clip` at rate 1, metres (its cycle's net displacement ÷ its duration; hip ratio 1). */
export function ownSpeed(clip: Clip): number {
  const cycle = getRootTrack(clip).cycle;
  return Math.hypot(cycle[0]!, cycle[2]!) / clip.duration;
}
