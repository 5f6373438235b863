/**
 * examples/threads.ts (docs/threads.md, README): the frame on every core in Node —
 * `stepParallel` between frames, `disposeAnimationWorld` at the end.
 * test/examples/guides.test.ts runs it against `step`, bit for bit.
 */
// #region imports
import { createAnimationWorld, disposeAnimationWorld, stepParallel } from 'bitanim';

// #endregion
import type { AnimationWorld } from 'bitanim';

/** `frames` frames of `count` characters (spawned and played by `populate`) on every core; returns the world, disposed. */
export async function runOnEveryCore(populate: (world: AnimationWorld) => void, count = 10_000, frames = 600): Promise<AnimationWorld> {
  // #region node
  const world = createAnimationWorld({ maxEntities: count, maxJoints: 64, threads: 'auto' });
  populate(world);                       // spawn, play, as with step
  for (let frame = 0; frame < frames; frame++) {
    await stepParallel(world, 1 / 60);   // make API calls here, between frames
  }
  disposeAnimationWorld(world);          // ends the workers; the process then exits on its own
  // #endregion
  return world;
}

/** The README's three lines: one frame of an empty world of 1,000 characters on every core. */
export async function oneFrameOnEveryCore(): Promise<AnimationWorld> {
  // #region readme
  const world = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, threads: 'auto' });
  await stepParallel(world, 1 / 60);   // every frame; API calls go between frames
  disposeAnimationWorld(world);        // ends the workers, so the process can exit
  // #endregion
  return world;
}
