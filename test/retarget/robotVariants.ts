/**
 * Copies of RobotExpressive.glb exported differently, built with @gltf-transform: physically
 * the same character with physically the same animation (test/retarget/reaxed.test.ts checks
 * that bitanim plays the original's clips on them as on the original; threeRetarget.test.ts
 * runs three.js's retargetClip on them).
 *
 * Re-axed: every joint's local frame turned by its own rotation Q_j (rest positions kept):
 * r'_j = Q_p⁻¹·r_j·Q_j, t'_j = Q_p⁻¹·t_j for the node and every animation key, inverse bind
 * matrices R(Q_j)⁻¹·IBM_j, and a joint's non-joint children (sockets) Q_j⁻¹ on the left.
 * Root scale: the root joint's scale × k and every translation below it ÷ k (keys too), the
 * inverse bind matrices S(1/k)·IBM — as two exporters that fold a cm→m
 * factor into different nodes.
 */
import { NodeIO, type Document, type Node } from '@gltf-transform/core';
import { expect } from 'vitest';
import { loadGltf, type GltfResult } from '../../src/index.js';
import { createRandom } from '../fixtures/synthetic.js';
import { readAsset } from '../support/assets.js';

type Quat = [number, number, number, number];
const mul = (a: Quat, b: Quat): Quat => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
const inv = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
const rotate = (q: Quat, v: number[]): [number, number, number] => {
  const r = mul(mul(q, [v[0]!, v[1]!, v[2]!, 0]), inv(q));
  return [r[0], r[1], r[2]];
};
/** Column-major 3×3 of a unit quaternion. */
const matrixOf = (q: Quat): number[] => {
  const [x, y, z, w] = q;
  return [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
};
/** `L · IBM` for a column-major 3×3 `L` and a column-major 4×4 `IBM` (16 numbers). */
const leftMultiply = (l: number[], m: number[]): number[] => {
  const out = m.slice();
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 3; row++) out[col * 4 + row] = l[row]! * m[col * 4]! + l[3 + row]! * m[col * 4 + 1]! + l[6 + row]! * m[col * 4 + 2]!;
  }
  return out;
};

/** Rewrites every key of `node`'s `path` channels with `f`. */
function mapKeys(doc: Document, node: Node, path: 'rotation' | 'translation' | 'scale', f: (v: number[]) => number[]): void {
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      if (channel.getTargetNode() !== node || channel.getTargetPath() !== path) continue;
      const sampler = channel.getSampler()!;
      expect(sampler.getInterpolation()).not.toBe('CUBICSPLINE');
      const output = sampler.getOutput()!;
      const size = path === 'rotation' ? 4 : 3;
      const values = Array.from(output.getArray() as Float32Array);
      for (let k = 0; k < output.getCount(); k++) values.splice(k * size, size, ...f(values.slice(k * size, k * size + size)));
      // A fresh accessor: samplers may share outputs, and each node's keys change differently.
      sampler.setOutput(output.clone().setArray(new Float32Array(values)));
    }
  }
}

/** The bytes of RobotExpressive.glb after `change` (given the document and its skin's joints). */
export async function robotVariantBytes(change: (doc: Document, joints: Node[]) => void): Promise<Uint8Array> {
  const io = new NodeIO();
  const doc = await io.readBinary(readAsset('RobotExpressive.glb'));
  const skin = doc.getRoot().listSkins()[0]!;
  change(doc, skin.listJoints());
  return io.writeBinary(doc);
}

/** RobotExpressive.glb after `change`, loaded by bitanim. */
export async function robotVariant(change: (doc: Document, joints: Node[]) => void): Promise<GltfResult> {
  return loadGltf(await robotVariantBytes(change));
}

/** Every joint's local frame turned by a random rotation of its own. */
export function reaxe(doc: Document, joints: Node[]): void {
  const random = createRandom(29);
  const turn = new Map<Node, Quat>();
  for (const joint of joints) {
    const axis = [random() - 0.5, random() - 0.5, random() - 0.5];
    const len = Math.hypot(...axis), angle = (random() * 2 - 1) * Math.PI;
    // A non-uniform scale does not commute with a turn of the frame (T·R·S cannot hold it):
    // those joints keep their frames.
    const [sx, sy, sz] = joint.getScale();
    const uniform = Math.abs(sx - sy) < 1e-6 * Math.abs(sx) && Math.abs(sx - sz) < 1e-6 * Math.abs(sx);
    turn.set(joint, uniform ? [...axis.map((a) => (a / len) * Math.sin(angle / 2)), Math.cos(angle / 2)] as Quat : [0, 0, 0, 1]);
  }
  expect([...turn.values()].filter((q) => q[3] !== 1).length, 'joints re-axed').toBeGreaterThan(joints.length * 0.7);
  const identity: Quat = [0, 0, 0, 1];
  const parentTurn = (node: Node): Quat => {
    const parent = node.getParentNode();
    return parent !== null && turn.has(parent) ? turn.get(parent)! : identity;
  };
  for (const joint of joints) {
    const q = turn.get(joint)!, p = inv(parentTurn(joint));
    joint.setRotation(mul(mul(p, joint.getRotation() as Quat), q));
    joint.setTranslation(rotate(p, joint.getTranslation()));
    mapKeys(doc, joint, 'rotation', (r) => mul(mul(p, r as Quat), q));
    mapKeys(doc, joint, 'translation', (t) => rotate(p, t));
    for (const child of joint.listChildren()) {
      if (turn.has(child)) continue;
      const c = inv(q);
      child.setRotation(mul(c, child.getRotation() as Quat));
      child.setTranslation(rotate(c, child.getTranslation()));
    }
  }
  const skin = doc.getRoot().listSkins()[0]!;
  const ibm = skin.getInverseBindMatrices()!;
  const values = Array.from(ibm.getArray() as Float32Array);
  joints.forEach((joint, j) => values.splice(j * 16, 16, ...leftMultiply(matrixOf(inv(turn.get(joint)!)), values.slice(j * 16, j * 16 + 16))));
  skin.setInverseBindMatrices(ibm.clone().setArray(new Float32Array(values)));
}

/** The root scale factor of {@link rescaleRoot}. */
export const K = 0.12;

/** The root joint's scale × K, every translation below it ÷ K (keys too); the subtree's IBMs S(1/K)·IBM. */
export function rescaleRoot(doc: Document, joints: Node[]): void {
  const inSkin = new Set(joints);
  const root = joints.find((j) => j.getParentNode() === null || !inSkin.has(j.getParentNode()!))!;
  root.setScale(root.getScale().map((s) => s * K) as [number, number, number]);
  mapKeys(doc, root, 'scale', (v) => v.map((x) => x * K));
  const below = (node: Node): void => {
    for (const child of node.listChildren()) {
      child.setTranslation(child.getTranslation().map((t) => t / K) as [number, number, number]);
      mapKeys(doc, child, 'translation', (t) => t.map((v) => v / K));
      below(child);
    }
  };
  below(root);
  const skin = doc.getRoot().listSkins()[0]!;
  const ibm = skin.getInverseBindMatrices()!;
  const values = Array.from(ibm.getArray() as Float32Array);
  joints.forEach((_, j) => values.splice(j * 16, 16, ...leftMultiply([1 / K, 0, 0, 0, 1 / K, 0, 0, 0, 1 / K], values.slice(j * 16, j * 16 + 16))));
  skin.setInverseBindMatrices(ibm.clone().setArray(new Float32Array(values)));
  expect(root.getName()).toBe('Bone');
}
