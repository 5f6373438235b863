/**
 * examples/motionLod.ts (docs/motion-lod.md): a clip reduced offline under a model-space bound,
 * three baked levels registered, and a character that picks its level by camera distance.
 * test/examples/guides.test.ts runs it.
 */
// #region imports
import { registerLodLevels, setLod, setLodCamera } from 'bitanim';
import { bakeLod, reduceClip } from 'bitanim/lod';

// #endregion
import type { AnimationWorld, Clip } from 'bitanim';

/** Gives `eid` (playing `walk`) three levels of `walk`; `camera` is where the camera is. */
export function walkWithLod(world: AnimationWorld, eid: number, walk: Clip, camera: { x: number; y: number; z: number }) {
  // #region lod
  const walk5mm = reduceClip(walk, { tolerance: 0.005 });   // nothing moves more than 5 mm, at any time
  console.log(walk5mm.stats);   // { keysBefore, keysAfter, maxError, meanError, maxRotationError }
  registerLodLevels(world, walk, bakeLod(walk, [0.001, 0.005, 0.02]));   // finest first
  setLod(world, eid, { levels: 3, distances: [15, 40], updateEvery: [1, 2, 4] });
  setLodCamera(world, camera.x, camera.y, camera.z);        // every frame the camera moves
  // #endregion
  return walk5mm;
}
