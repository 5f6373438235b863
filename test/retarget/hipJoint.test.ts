/**
 * The default hip joint (issue 13 item 7): by name, else the joint where the legs branch, else
 * the root's first child. Checked on the real assets (assets/) and on skeletons whose names do not help.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSkeleton, loadGltf, parseBvh, type Skeleton } from '../../src/index.js';
import { CMU_SCALE } from '../fixtures/realClips.js';
import { ASSETS_URL } from '../support/assets.js';

const assets = ASSETS_URL;
const gltfSkeleton = async (file: string) => (await loadGltf(new Uint8Array(readFileSync(new URL(file, assets))))).skeletons[0]!;
const cmu = parseBvh(readFileSync(new URL('cmu_131_01_start_walk_stop.bvh', assets), 'utf8'), { scale: CMU_SCALE }).skeleton;

/** `skeleton` with every joint renamed `j<index>`: only the structure is left to find the hips. */
function anonymous(skeleton: Skeleton): Skeleton {
  return createSkeleton({ names: skeleton.names.map((_, j) => `j${j}`), parents: skeleton.parents, rest: skeleton.rest });
}

const I = [0, 0, 0, 1, 1, 1, 1];

describe('the default hip joint', () => {
  it('Fox, RobotExpressive and the CMU walk resolve to their hips by name, at their rest heights', async () => {
    const fox = await gltfSkeleton('Fox.glb');
    const robot = await gltfSkeleton('RobotExpressive.glb');
    expect(fox.names[fox.hipJoint]).toBe('b_Hip_01');
    expect(robot.names[robot.hipJoint]).toBe('Hips');
    expect(cmu.names[cmu.hipJoint]).toBe('Hips');
    expect(fox.hipHeight).toBeCloseTo(42.94, 2); // centimetres
    expect(robot.hipHeight).toBeCloseTo(1.276, 3);
    expect(cmu.hipHeight).toBe(0); // a BVH rest has its hips at the origin
  });

  it('without names, the joint where the legs branch: b_Hip_01, the CMU Hips, and the Robot\'s Body (its legs hang from Body, beside Hips)', async () => {
    const fox = anonymous(await gltfSkeleton('Fox.glb'));
    const robot = await gltfSkeleton('RobotExpressive.glb');
    expect(fox.hipJoint).toBe(2); // b_Hip_01: hind legs, tail and spine (to the forelegs) hang below it
    expect(anonymous(cmu).hipJoint).toBe(0);
    // RobotExpressive: UpperLeg.L and UpperLeg.R are children of Body (1.372 m), and reach
    // 1.372 − 0.903 = 0.469 m below it (the feet are IK targets under the root), over a tenth
    // of its 2.98 m rest height; Hips (1.276 m) holds only the spine.
    expect(robot.names[robot.parents[robot.names.indexOf('UpperLeg.L')]!]).toBe('Body');
    expect(anonymous(robot).hipJoint).toBe(robot.names.indexOf('Body'));
  });

  it("finds CesiumMan's hips where the legs branch, not the spine joint the old rule guessed", () => {
    // CesiumMan's hierarchy (glTF-Sample-Models 2.0/CesiumMan), Y-up, simplified offsets: the
    // root's first child is the spine, which "first child of the root" took for the hips.
    const names = [
      'Skeleton_torso_joint_1', 'Skeleton_torso_joint_2', 'torso_joint_3', 'Skeleton_neck_joint_1', 'Skeleton_neck_joint_2',
      'Skeleton_arm_joint_L__4_', 'Skeleton_arm_joint_L__3_', 'Skeleton_arm_joint_R', 'Skeleton_arm_joint_R__2_',
      'leg_joint_L_1', 'leg_joint_L_2', 'leg_joint_L_3', 'leg_joint_L_5',
      'leg_joint_R_1', 'leg_joint_R_2', 'leg_joint_R_3', 'leg_joint_R_5',
    ];
    const parents = [-1, 0, 1, 2, 3, 2, 5, 2, 7, 0, 9, 10, 11, 0, 13, 14, 15];
    const offsets = [
      [0, 0.68, 0], [0, 0.15, 0], [0, 0.25, 0], [0, 0.1, 0], [0, 0.1, 0],
      [0.09, 0, 0], [0.24, -0.05, 0], [-0.09, 0, 0], [-0.24, -0.05, 0],
      [0.07, -0.03, 0], [0, -0.27, 0], [0, -0.28, 0], [0, -0.07, 0.03],
      [-0.07, -0.03, 0], [0, -0.27, 0], [0, -0.28, 0], [0, -0.07, 0.03],
    ];
    const skeleton = createSkeleton({ names, parents, rest: offsets.flatMap((t) => [...t, ...I]) });
    expect(skeleton.names[skeleton.hipJoint]).toBe('Skeleton_torso_joint_1');
    expect(skeleton.hipHeight).toBeCloseTo(0.68, 6);
  });

  it('the legs\' branch closest to the root wins; arms hanging from the chest come later', () => {
    // root (ground) → pelvis-like "a" (1 m) → legs "b", "c" down to the ground; "a" → chest "d"
    // → arms "e", "f" hanging 0.6 m. Both "a" and "d" have two downward chains: "a" is higher.
    const skeleton = createSkeleton({
      names: ['root', 'a', 'b', 'b2', 'c', 'c2', 'd', 'e', 'f'],
      parents: [-1, 0, 1, 2, 1, 4, 1, 6, 6],
      rest: [
        [0, 0, 0], [0, 1, 0], [0.1, 0, 0], [0, -0.95, 0], [-0.1, 0, 0], [0, -0.95, 0], [0, 0.5, 0], [0.2, -0.6, 0], [-0.2, -0.6, 0],
      ].flatMap((t) => [...t, ...I]),
    });
    expect(skeleton.names[skeleton.hipJoint]).toBe('a');
  });

  it("a name with a side marker is a leg's joint, not the hips", () => {
    // Blender's metarig names its side pelvis bones pelvis.L / pelvis.R; here the legs branch at "spine".
    const skeleton = createSkeleton({
      names: ['spine', 'pelvis.L', 'thigh.L', 'shin.L', 'pelvis.R', 'thigh.R', 'shin.R', 'spine.001'],
      parents: [-1, 0, 0, 2, 0, 0, 5, 0],
      rest: [[0, 1, 0], [0.1, 0, 0.05], [0.1, 0, 0], [0, -0.9, 0], [-0.1, 0, 0.05], [-0.1, 0, 0], [0, -0.9, 0], [0, 0.2, 0]].flatMap((t) => [...t, ...I]),
    });
    expect(skeleton.names[skeleton.hipJoint]).toBe('spine');
    expect(createSkeleton({ names: ['root', 'Hip_L', 'knee'], parents: [-1, 0, 1], rest: [...[0, 1, 0], ...I, ...[0, 0, 0], ...I, ...[0, -0.5, 0], ...I] }).hipJoint).toBe(1); // no branch: the root's first child
  });

  it('hipJoint still overrides the default', () => {
    const skeleton = createSkeleton({ names: cmu.names, parents: cmu.parents, rest: cmu.rest, hipJoint: 'lowerback' });
    expect(skeleton.names[skeleton.hipJoint]).toBe('lowerback');
  });
});
