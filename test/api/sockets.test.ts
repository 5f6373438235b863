/**
 * getJointWorldMatrix and skeleton attachments (issue 22, sockets): a moved, turned character's
 * joint world matrix against the model matrix composed with the root transform by three.js's
 * Matrix4 (an independent implementation), joints by index and by name, the errors; and
 * RobotExpressive's attachments (`Head_end`, …) placed by joint world × offset against where
 * three.js's GLTFLoader + AnimationMixer put those nodes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three';
import {
  createAnimationWorld, getJointWorldMatrix, getModelMatrices, play, removeCharacter, setRootTransform, spawnCharacter, step,
  type AnimationWorld, type GltfResult,
} from '../../src/index.js';
import { affine } from '../../src/kernels.js';
import { loadGltf } from '../../src/import/gltf.js';
import { parseWithThree, poseThree, readAsset, type ThreeGltf } from '../oracle/gltfThree.js';
import { refused } from '../fixtures/errors.js';

/** Our 3×4 column-major as a three Matrix4. */
function toMatrix4(m: ArrayLike<number>, o = 0): THREE.Matrix4 {
  return new THREE.Matrix4().set(
    m[o]!, m[o + 3]!, m[o + 6]!, m[o + 9]!,
    m[o + 1]!, m[o + 4]!, m[o + 7]!, m[o + 10]!,
    m[o + 2]!, m[o + 5]!, m[o + 8]!, m[o + 11]!,
    0, 0, 0, 1,
  );
}

function maxDiff(a: THREE.Matrix4, b: THREE.Matrix4): number {
  return Math.max(...a.elements.map((v, i) => Math.abs(v - b.elements[i]!)));
}

describe('getJointWorldMatrix', () => {
  let robot: GltfResult;
  let world: AnimationWorld;
  let eid: number;
  beforeAll(async () => {
    robot = await loadGltf(readAsset('RobotExpressive.glb'));
    world = createAnimationWorld({ maxEntities: 4, maxJoints: 64, kernels: 'js' });
    eid = spawnCharacter(world, robot.skeletons[0]!, { x: 3, y: 0.5, z: -2, yaw: 0.7 });
    play(world, eid, robot.clips.find((c) => c.name === 'Wave')!, { time: 0.8, speed: 0 });
    step(world, 0);
  });

  it('is T(x, y, z) · R_y(yaw) · model for every joint of a moved, turned character, by index and by name', () => {
    const skeleton = robot.skeletons[0]!;
    const model = getModelMatrices(world, eid);
    const root = new THREE.Matrix4().makeRotationY(0.7).setPosition(3, 0.5, -2);
    let worst = 0;
    for (let j = 0; j < skeleton.jointCount; j++) {
      const expected = root.clone().multiply(toMatrix4(model, j * 12));
      const byIndex = getJointWorldMatrix(world, eid, j, new Float64Array(12));
      const byName = getJointWorldMatrix(world, eid, skeleton.names[j]!, new Float32Array(12));
      worst = Math.max(worst, maxDiff(toMatrix4(byIndex), expected));
      expect(Array.from(byName)).toEqual(Array.from(byIndex, Math.fround));
    }
    expect(worst).toBeLessThan(1e-6);
    // yaw 0.7 turns +Z toward +X: the head is where the model puts it, turned.
    const head = getJointWorldMatrix(world, eid, 'Head', new Float64Array(12));
    const m = model.subarray(skeleton.names.indexOf('Head') * 12);
    expect(head[9]).toBeCloseTo(Math.cos(0.7) * m[9]! + Math.sin(0.7) * m[11]! + 3, 5);
    expect(head[11]).toBeCloseTo(-Math.sin(0.7) * m[9]! + Math.cos(0.7) * m[11]! - 2, 5);
  });

  it('follows setRootTransform', () => {
    setRootTransform(world, eid, { x: -1, y: 0, z: 4, yaw: -2 });
    const out = getJointWorldMatrix(world, eid, 0, new Float64Array(12));
    const expected = new THREE.Matrix4().makeRotationY(-2).setPosition(-1, 0, 4).multiply(toMatrix4(getModelMatrices(world, eid)));
    expect(maxDiff(toMatrix4(out), expected)).toBeLessThan(1e-6);
    setRootTransform(world, eid, { x: 3, y: 0.5, z: -2, yaw: 0.7 });
  });

  it('refuses an unknown joint name, an index out of range, a short or untyped out, and a removed character', () => {
    const out = new Float32Array(12);
    expect(refused(() => getJointWorldMatrix(world, eid, 'Tail', out)).message).toMatch(/"Tail" is not a joint/);
    for (const joint of [-1, 43, 1.5, Number.NaN]) expect(refused(() => getJointWorldMatrix(world, eid, joint, out)).issues[0]!.path).toBe('joint');
    expect(refused(() => getJointWorldMatrix(world, eid, 0, new Float32Array(11))).issues[0]!.path).toBe('out');
    expect(refused(() => getJointWorldMatrix(world, eid, 0, [] as never)).issues[0]!.path).toBe('out');
    const gone = spawnCharacter(world, robot.skeletons[0]!);
    removeCharacter(world, gone);
    expect(refused(() => getJointWorldMatrix(world, gone, 0, out)).issues[0]!.path).toBe('eid');
    expect(refused(() => getJointWorldMatrix(world, 999, 0, out)).issues[0]!.path).toBe('eid');
  });
});

describe('RobotExpressive attachments', () => {
  let robot: GltfResult;
  let three: ThreeGltf;
  beforeAll(async () => {
    const bytes = readAsset('RobotExpressive.glb');
    [robot, three] = await Promise.all([loadGltf(bytes, { frameRate: 24 }), parseWithThree(bytes)]);
  });

  it('are the 15 mesh-less children of joints; joint world × offset is where three.js puts each node, in a clip', () => {
    const skeleton = robot.skeletons[0]!;
    expect(skeleton.attachments).toHaveLength(15);
    expect(skeleton.attachments.find((a) => a.name === 'Head_end')!.joint).toBe(skeleton.names.indexOf('Head'));
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 64, kernels: 'js' });
    const eid = spawnCharacter(world, skeleton);
    const clip = robot.clips.find((c) => c.name === 'Dance')!;
    let worst = 0;
    for (const time of [0, 0.5, 1.25]) {
      poseThree(three, three.gltf.animations.find((a) => a.name === 'Dance')!, time);
      play(world, eid, clip, { time, speed: 0 });
      step(world, 0);
      for (const attachment of skeleton.attachments) {
        const m = getJointWorldMatrix(world, eid, attachment.joint, new Float64Array(12));
        affine.multiply(m, 0, m, 0, attachment.offset, 0);
        const node = three.gltf.scene.getObjectByName(THREE.PropertyBinding.sanitizeNodeName(attachment.name))!;
        expect(node, attachment.name).toBeDefined();
        const p = new THREE.Vector3().setFromMatrixPosition(node.matrixWorld);
        worst = Math.max(worst, Math.hypot(m[9]! - p.x, m[10]! - p.y, m[11]! - p.z));
      }
    }
    console.log(`[sockets] RobotExpressive attachments vs three.js node positions (Dance, 3 times): max ${worst.toExponential(2)} m`);
    expect(worst).toBeLessThan(1e-4); // 0.1 mm
  });
});
