/**
 * examples/pixiRobot.ts (docs/pixi.md): the whole RobotExpressive — its 19 primitives, rigid
 * parts and skinned hands — drawn by bitanim/pixi as one body, with an expression from its
 * head's morph targets. test/pixi/robot.test.ts runs it in Node and checks what the crowd draws.
 */
// #region imports
import { createAnimationWorld, curveIndex, loadGltf, play, spawnCharacter, step } from 'bitanim';
import { createCharacterBody, createCrowdRenderer } from 'bitanim/pixi';

// #endregion
/** A world of one Robot with a surprised face, and the crowd renderer that draws it (add `crowd` to a pixi stage). */
export async function surprisedRobot(robotGlb: Uint8Array) {
  // #region robot
  // RobotExpressive is about 4.6 units tall: 0.4 makes it about 1.8 m.
  const { skeletons, clips, meshes } = await loadGltf(robotGlb, { scale: 0.4 });
  const skeleton = skeletons[0]!;
  const world = createAnimationWorld({ maxEntities: 63, maxJoints: skeleton.jointCount });
  const crowd = createCrowdRenderer(world);

  // Every mesh of the skeleton in one body: one draw, each part in its material's colour.
  const body = createCharacterBody(meshes.filter((mesh) => mesh.skeleton === 0));
  const robot = spawnCharacter(world, skeleton);
  play(world, robot, clips.find((clip) => clip.name === 'Idle')!);
  crowd.setBody(robot, body);

  // One weight per curve of the skeleton (Head.Angry, Head.Surprised, Head.Sad): surprised.
  const weights = new Float32Array(skeleton.curves.length);
  weights[curveIndex(skeleton, 'Head.Surprised')] = 1;
  crowd.setMorphWeights(robot, weights);
  step(world, 1 / 60);
  // #endregion
  return { world, crowd, body, robot };
}
