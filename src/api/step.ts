/** The frame a game calls: `step` runs the frame table (src/frame.ts) once. */
import { fail } from '../assets/AnimationError.js';
import { runFrame } from '../frame.js';
import type { AnimationWorld } from '../world.js';
import { requireWorld } from './validation.js';
import { MAX_DT, rangeIssue } from '../assets/limits.js';

/**
 * Advances the world by `dt` seconds: runs the world's frame (src/frame.ts; by default
 * lodSystem → sampleSystem → blendSystem → inertializeSystem → rootMotionSystem → followSystem →
 * aimSystem → skinSystem, docs/design.md §4), then advances the clock.
 * Allocates nothing. `dt = 0` re-evaluates the current poses without moving time.
 *
 * The systems run chunk by chunk (`FRAME_CHUNK`): the first 128 characters are sampled,
 * blended and skinned, then the next 128, so a character's layer poses are still in cache when
 * the blend reads them. Systems touch nothing of other characters, so this equals running each system over
 * the whole world in turn, and is faster for large crowds (see `npm run bench`).
 * Whatever `dt` and the layers' speeds, a step does bounded work: a layer advancing many loop
 * cycles counts the events beyond the queue's capacity as dropped instead of visiting them.
 * @throws AnimationError when `world` is not an AnimationWorld, or `dt` is not a finite number
 * in [0, MAX_DT = 1e6] seconds (nothing is advanced then).
 * @example
 * ticker.add(() => step(world, ticker.deltaMS / 1000));
 */
export function step(world: AnimationWorld, dt: number): void {
  requireWorld(world, 'step');
  const issue = rangeIssue(dt, 0, MAX_DT, 'seconds; the longest step, MAX_DT');
  if (issue !== null) fail('step', 'dt', issue);
  runFrame(world, dt);
}
