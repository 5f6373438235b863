/**
 * examples/robotParts.ts (docs/importing.md, "Rigid meshes, morph targets, attachments" and "Sockets"): RobotExpressive drawn whole —
 * rigid meshes on joints and skinned hands through one kernel, its expression morph targets
 * driven by clip curves — and a prop held at a joint, read relative to the working directory
 * (the repository's root, as `npm test` runs). test/examples/robotParts.test.ts runs it.
 */
// #region imports
import { readFile } from 'node:fs/promises';
import {
  createAnimationWorld, curveIndex, getJointWorldMatrix, getSkinPalette, loadGltf, play, spawnCharacter, step,
} from 'bitanim';
import { affine, sampleCurvesInto, skinVertices } from 'bitanim/kernels';

// #endregion

/** Every vertex of the robot, posed by Wave at `time`, and the world matrix of a prop in its right hand. */
export async function robotAt(time: number) {
  // #region load
  const { skeletons, clips, meshes } = await loadGltf(await readFile('assets/RobotExpressive.glb'));
  const skeleton = skeletons[0]!;                    // the hands' skin; every other part hangs on its joints
  const parts = meshes.map((mesh) => {
    const how = mesh.rigidJoint >= 0 ? `rigid on ${skeleton.names[mesh.rigidJoint]}` : 'skinned';
    return `${mesh.name} ${how} ${mesh.morphTargets.map((t) => t.name)}`; // 'Head#0 rigid on Head Head.Angry,…'
  });
  // #endregion

  const world = createAnimationWorld({ maxEntities: 16, maxJoints: 64 });
  const eid = spawnCharacter(world, skeleton, { x: 2, yaw: Math.PI / 2 });
  const wave = clips.find((c) => c.name === 'Wave')!;
  play(world, eid, wave, { time, speed: 0 });
  step(world, 0);

  // #region skin
  // The clip's curves at the time; each mesh's targets take the curves of their names.
  const curves = new Float32Array(wave.curves.length);
  sampleCurvesInto(curves, 0, wave, Float64Array.of(time), 0);
  const palette = getSkinPalette(world, eid);
  const posed = meshes.map((mesh) => {
    const weights = mesh.morphTargets.map((target) => {
      const c = curveIndex(wave, target.name);
      return c >= 0 ? curves[c]! : skeleton.curves[curveIndex(skeleton, target.name)]!.default;
    });
    const out = new Float32Array(mesh.positions.length); // model space: place it with the root transform
    skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, out, mesh.morphTargets, weights);
    return out;
  });
  // #endregion

  // #region socket
  const hand = new Float32Array(12);
  getJointWorldMatrix(world, eid, 'LowerArm.R', hand); // world space: the root transform applied
  const grip = skeleton.attachments.find((a) => a.name === 'Middle2.R_end')!; // a socket the file names
  const fingertip = getJointWorldMatrix(world, eid, grip.joint, new Float32Array(12));
  affine.multiply(fingertip, 0, fingertip, 0, grip.offset, 0); // joint world × the attachment's offset
  // #endregion
  return { skeleton, meshes, parts, posed, hand, fingertip, world, eid };
}
