/**
 * examples/retargetCapture.ts (docs/retargeting.md, "A capture on a character"): the CMU 131_01
 * walk (a BVH capture) played on RobotExpressive (a glTF character), from the repository's
 * assets/, read relative to the working directory (the repository's root, as `npm test` runs).
 * test/examples/retargetCapture.test.ts runs it.
 */
// #region imports
import { readFile } from 'node:fs/promises';
import { bindSkeletons, createAnimationWorld, getJointWorldMatrix, humanoidMap, loadGltf, parseBvh, play, spawnCharacter, step } from 'bitanim';

// #endregion
import type { AnimationWorld, Clip, Skeleton } from 'bitanim';

/** Prints the pairs and the Robot's hips height once a second (console.log); returns the pieces. */
export async function walkTheRobot() {
  // #region load
  const { skeleton: capture, clip: walk } = parseBvh(await readFile('assets/cmu_131_01_start_walk_stop.bvh', 'utf8'), { scale: 0.056444 });
  const robot = (await loadGltf(await readFile('assets/RobotExpressive.glb'))).skeletons[0]!;
  // #endregion
  // #region pairs
  const binding = bindSkeletons(capture, robot);   // the binding play makes by default
  console.log(`${binding.joints}, ${binding.reference}: ${binding.pairs.map((p) => `${p.target} ← ${p.source}`).join(', ')}`);
  // #endregion
  // #region play
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount });
  const eid = spawnCharacter(world, robot, { rootMotion: true });
  play(world, eid, walk);                          // through bindSkeletons(capture, robot)
  const hips = humanoidMap(robot).joints.hips!;    // 'Body': the Robot's legs hang from it
  const m = new Float32Array(12);
  for (let frame = 1; frame <= 8 * 60; frame++) {
    step(world, 1 / 60);
    if (frame % 60 === 0) console.log(`${frame / 60} s: hips ${getJointWorldMatrix(world, eid, hips, m)[10]!.toFixed(3)} m`);
  }
  // #endregion
  return { capture, walk, robot, binding, world, eid };
}

/** Plays `walk` on the Robot `eid` through a binding chosen by hand: humanoid pairs, the two rest poses as references. */
export function playThroughRests(world: AnimationWorld, eid: number, walk: Clip, capture: Skeleton, robot: Skeleton) {
  // #region choose
  const binding = bindSkeletons(capture, robot, { joints: 'humanoid', reference: 'rest' });
  play(world, eid, walk, { binding });
  // #endregion
  return binding;
}
