/**
 * glTF mesh primitives → {@link SkinnedMeshData} (the **Meshes** paragraph of `../gltf.ts`):
 * positions and normals read as checked float32, `JOINTS_0` remapped to the skeleton's joint
 * order, weights renormalized to sum 1, indices checked against the vertex count, `TEXCOORD_0`
 * read as float32 (normalized integers divided out), the material as the validator read it
 * (`./materials.ts`), morph targets as position and normal deltas.
 *
 * **Rigid meshes.** A mesh on a node without a skin whose node, or nearest such ancestor, is a
 * joint J of a skeleton moves with J: it becomes mesh data bound to J with weight 1, in bind
 * space, so palette × bind position = J's model matrix × the nodes' transforms × v, as glTF
 * places it. Its bind positions are B · P · v, with B = inverse(inverseBind[J]) (J's model
 * matrix in the bind pose) and P the transforms of the nodes from J down to the mesh node
 * (the mesh node's own included); normals and normal deltas take the inverse transpose of the
 * linear part of B · P (normals renormalized), position deltas its linear part.
 *
 * Primitives that are not triangle lists, or skinned nodes' primitives that lack the skinning
 * attributes, are skipped with a warning.
 */
import type { Accessor, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import { IssueList } from '../../assets/AnimationError.js';
import * as affine from '../../math/affine.js';
import { MATRIX_STRIDE } from '../../math/layout.js';
import { WHERE } from './container.js';
import type { GltfMaterial } from './materials.js';
import { composeNodes } from './nodePose.js';
import { firstNonFloat32, type Context } from './shared.js';
import type { Rig, SkinBinding } from './skeletons.js';

/** One triangle primitive bound to a skeleton, ready for `skinVertices`. */
export interface SkinnedMeshData {
  /** Mesh name (or node name, or `mesh<i>`) + `#` + primitive index, e.g. `"fox1#0"`. */
  readonly name: string;
  /** Index into {@link GltfResult.skeletons}. */
  readonly skeleton: number;
  /**
   * V×3 bind-pose positions: a skinned mesh's in mesh space (the skinned node's own transform
   * is ignored); a rigid mesh's in bind (model) space, its nodes' transforms folded in.
   */
  readonly positions: Float32Array;
  /** V×3 normals when the primitive has NORMAL, else null. */
  readonly normals: Float32Array | null;
  /** V×4 joint indices into the skeleton's joint order (remapped from the skin's order; a rigid mesh: its joint, 0, 0, 0). */
  readonly joints: Uint16Array;
  /** V×4 weights, renormalized to sum 1 (a rigid mesh: 1, 0, 0, 0). */
  readonly weights: Float32Array;
  /** Triangle list, or null when the primitive is not indexed. */
  readonly indices: Uint32Array | null;
  /** V×2 texture coordinates (`TEXCOORD_0`, dequantized when stored as normalized integers), or null when the primitive has none. */
  readonly uvs: Float32Array | null;
  /** The primitive's material, or null when it has none (glTF's default material: white, opaque). */
  readonly material: GltfMaterial | null;
  /**
   * −1 for a skinned mesh; for a rigid mesh (a mesh on a node under a joint, no skin) the
   * joint it moves with, every vertex bound to it with weight 1.
   */
  readonly rigidJoint: number;
  /**
   * The primitive's morph targets (empty when it has none): pass them with one weight per
   * target to `skinVertices`; the weights are the clip curves named as the targets.
   */
  readonly morphTargets: readonly {
    /**
     * The curve whose value is this target's weight: `<mesh>.<target name>`, the target name
     * from the mesh's `extras.targetNames`, else its index (`"Head.Angry"`, `"face.0"`).
     */
    readonly name: string;
    /** V×3 position deltas at weight 1, in the mesh data's (bind) space. */
    readonly positions: Float32Array;
    /** V×3 normal deltas, or null when the target has no NORMAL (or the primitive no normals). */
    readonly normals: Float32Array | null;
  }[];
}

type MorphTarget = SkinnedMeshData['morphTargets'][number];

/** The morph curves of a node with a morphed mesh, for its `weights` channels. */
export interface NodeMorphs {
  /** Index of the skeleton (rig) the mesh is bound to. */
  readonly rig: number;
  /** One curve name per target, `<mesh>.<target>`. */
  readonly names: readonly string[];
  /** Default weight per target (the node's `weights`, else the mesh's, else 0). */
  readonly defaults: readonly number[];
}

/** What {@link buildMeshes} returns. */
export interface BuiltMeshes {
  readonly meshes: SkinnedMeshData[];
  /** Nodes with a bound mesh that has morph targets, by node index. */
  readonly morphs: ReadonlyMap<number, NodeMorphs>;
}

/**
 * The triangle primitives of every node with a mesh and a skin (each mesh and skin pair once),
 * and of every node with a mesh, no skin, and a joint of one of `rigs` at or above it (rigid).
 */
export function buildMeshes(
  ctx: Context, bindings: readonly SkinBinding[], skins: readonly Skin[],
  meshes: readonly Mesh[], rigs: readonly Rig[],
): BuiltMeshes {
  const { nodes, warnings, valid } = ctx;
  const out: SkinnedMeshData[] = [];
  const morphs = new Map<number, NodeMorphs>();
  const done = new Set<string>();
  const issues = new IssueList(WHERE);
  nodes.forEach((node, n) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const skin = node.getSkin();
    const m = meshes.indexOf(mesh);
    const meshName = mesh.getName() || node.getName() || `mesh${m}`;
    let rig: Rig;
    let binding: SkinBinding | null = null;
    let joint = -1;
    let bindMatrix: Float64Array | null = null;
    let key: string;
    if (skin) {
      const s = skins.indexOf(skin);
      binding = bindings[s];
      rig = binding.rig;
      key = `${m}/${s}`;
    } else {
      const found = jointAbove(n, valid.nodeParents, rigs);
      if (!found) return;
      rig = found.rig;
      joint = found.joint;
      bindMatrix = rigidBindMatrix(found.rig, joint, found.chain.map((c) => nodes[c]), issues, `nodes[${n}] ("${meshName}")`);
      if (!bindMatrix) return;
      key = `node${n}`;
    }
    const targetNames = morphNames(mesh, meshName);
    if (targetNames.length) {
      const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
      morphs.set(n, { rig: rig.index, names: targetNames, defaults: targetNames.map((_, k) => (Number.isFinite(weights[k]) ? weights[k] : 0)) });
    }
    if (done.has(key)) return; // the same mesh and skin on another node: the same data
    done.add(key);
    mesh.listPrimitives().forEach((prim, p) => {
      const path = `meshes[${m}].primitives[${p}]`;
      const name = `${meshName}#${p}`;
      if (prim.getMode() !== 4) {
        warnings.push(`${path} ("${name}") has mode ${prim.getMode()}, not a triangle list (4): skipped`);
        return;
      }
      const position = prim.getAttribute('POSITION');
      const joints = prim.getAttribute('JOINTS_0');
      const weights = prim.getAttribute('WEIGHTS_0');
      let data: Omit<SkinnedMeshData, 'uvs' | 'material' | 'rigidJoint' | 'morphTargets'> | null;
      if (binding) {
        if (!position || !joints || !weights) {
          const missing = [position ? '' : 'POSITION', joints ? '' : 'JOINTS_0', weights ? '' : 'WEIGHTS_0'].filter(Boolean);
          warnings.push(`${path} ("${name}") on skinned node ${n} has no ${missing.join(', ')}: skipped`);
          return;
        }
        data = readPrimitive(issues, path, name, binding, position, prim.getAttribute('NORMAL'), joints, weights, prim.getIndices(), warnings, ctx.scale);
      } else {
        if (!position) {
          warnings.push(`${path} ("${name}") on node ${n} under joint "${rig.skeleton.names[joint]}" has no POSITION: skipped`);
          return;
        }
        data = readRigidPrimitive(issues, path, name, rig.index, joint, bindMatrix!, position, prim.getAttribute('NORMAL'), prim.getIndices(), ctx.scale);
      }
      if (!data) return;
      const uv = prim.getAttribute('TEXCOORD_0');
      if (uv && uv.getCount() !== position.getCount()) {
        issues.add(`${path}.attributes.TEXCOORD_0`, `has ${uv.getCount()} elements, POSITION has ${position.getCount()}`);
        return;
      }
      const uvs = uv ? readFloats(issues, `${path}.attributes.TEXCOORD_0`, uv, 2) : null;
      const morphTargets = readTargets(issues, path, prim, targetNames, position.getCount(), data.normals !== null, bindMatrix, ctx.scale);
      if (morphTargets && (uvs || !uv)) {
        out.push(Object.freeze({ ...data, uvs, material: ctx.valid.materials[m]?.[p] ?? null, rigidJoint: joint, morphTargets }));
      }
    });
  });
  issues.throwIfAny();
  return { meshes: out, morphs };
}

/** The nearest joint of a rig at or above node `n` (rigs in order), with the nodes from `n` up to it, `n` first (the joint excluded). */
function jointAbove(n: number, parents: Int32Array, rigs: readonly Rig[]): { rig: Rig; joint: number; chain: number[] } | null {
  const chain: number[] = [];
  for (let a = n; a >= 0; a = parents[a]) {
    for (const rig of rigs) {
      const joint = rig.jointOf.get(a);
      if (joint !== undefined) return { rig, joint, chain };
    }
    chain.push(a);
  }
  return null;
}

/**
 * B · P (3×4, file units): B = inverse(inverseBind[joint]), J's bind model matrix; P the
 * nodes' transforms from the joint down to the mesh node (bottom-up `chain`). Null after
 * recording a fault (a singular inverse bind matrix).
 */
function rigidBindMatrix(rig: Rig, joint: number, chain: readonly Node[], issues: IssueList, path: string): Float64Array | null {
  const m = new Float64Array(MATRIX_STRIDE);
  if (affine.invert(m, 0, rig.inverseBind, joint * MATRIX_STRIDE) === 0) {
    issues.add(path, `is a mesh under joint "${rig.skeleton.names[joint]}", whose inverse bind matrix is singular: it cannot be bound to it`);
    return null;
  }
  const p = composeNodes(chain);
  if (p) affine.multiply(m, 0, m, 0, p, 0);
  return m;
}

/** Curve names of a mesh's morph targets, `<mesh>.<name>` (extras.targetNames, else the index); empty without targets. */
function morphNames(mesh: Mesh, meshName: string): string[] {
  const count = Math.max(0, ...mesh.listPrimitives().map((p) => p.listTargets().length));
  if (count === 0) return [];
  const given = mesh.getExtras()?.targetNames;
  const names = Array.isArray(given) && given.length === count && given.every((t) => typeof t === 'string' && t.length > 0)
    ? (given as string[]) : null;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let name = `${meshName}.${names ? names[k] : k}`;
    if (out.includes(name)) name = `${meshName}.${k}`;
    out.push(name);
  }
  return out;
}

/**
 * A primitive's morph targets: POSITION and NORMAL deltas (absent: zero, resp. null), counts
 * checked; for a rigid mesh moved into bind space by `bind`'s linear part (normals by its
 * inverse transpose); positions × `scale`. Null after recording a fault.
 */
function readTargets(
  issues: IssueList, path: string, prim: Primitive, names: readonly string[], vertexCount: number,
  hasNormals: boolean, bind: Float64Array | null, scale: number,
): MorphTarget[] | null {
  const out: MorphTarget[] = [];
  const targets = prim.listTargets();
  if (targets.length !== names.length && targets.length > 0) {
    issues.add(`${path}.targets`, `has ${targets.length} morph targets, another primitive of the mesh ${names.length}: every primitive must have the same`);
    return null;
  }
  const normalMatrix = bind ? inverseTranspose(bind) : null;
  for (let k = 0; k < targets.length; k++) {
    const target = targets[k];
    const where = `${path}.targets[${k}]`;
    const position = target.getAttribute('POSITION');
    const normal = target.getAttribute('NORMAL');
    for (const [label, a] of [['POSITION', position], ['NORMAL', normal]] as const) {
      if (a && a.getCount() !== vertexCount) {
        issues.add(`${where}.${label}`, `has ${a.getCount()} elements, the primitive's POSITION has ${vertexCount}`);
        return null;
      }
    }
    const positions = position ? readFloats(issues, `${where}.POSITION`, position, 3) : new Float32Array(vertexCount * 3);
    const normals = normal && hasNormals ? readFloats(issues, `${where}.NORMAL`, normal, 3) : null;
    if (!positions || (normal && hasNormals && !normals)) return null;
    if (bind) transformAll(positions, bind, false);
    if (scale !== 1) for (let i = 0; i < positions.length; i++) positions[i] *= scale;
    if (normals && normalMatrix) transformAll(normals, normalMatrix, false);
    out.push(Object.freeze({ name: names[k], positions, normals }));
  }
  return out;
}

/** The inverse transpose of `m`'s linear part, as a 3×4 with zero translation (for normals). */
function inverseTranspose(m: Float64Array): Float64Array {
  const inv = new Float64Array(MATRIX_STRIDE);
  affine.invert(inv, 0, m, 0);
  const out = new Float64Array(MATRIX_STRIDE);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[c * 3 + r] = inv[r * 3 + c];
  return out;
}

/** Every V×3 element of `values` × `m` (as points with its translation, or as directions without). */
function transformAll(values: Float32Array, m: Float64Array, point: boolean): void {
  const v = new Float64Array(3);
  for (let i = 0; i < values.length; i += 3) {
    v[0] = values[i]; v[1] = values[i + 1]; v[2] = values[i + 2];
    if (point) affine.transformPoint(v, 0, m, 0, v, 0);
    else affine.transformVector(v, 0, m, 0, v, 0);
    values[i] = v[0]; values[i + 1] = v[1]; values[i + 2] = v[2];
  }
}

/** A rigid primitive bound to `joint`: positions B·P·v × scale, normals by the inverse transpose (renormalized), weight 1 on the joint. */
function readRigidPrimitive(
  issues: IssueList, path: string, name: string, skeleton: number, joint: number, bind: Float64Array,
  position: Accessor, normal: Accessor | null, indices: Accessor | null, scale: number,
): Omit<SkinnedMeshData, 'uvs' | 'material' | 'rigidJoint' | 'morphTargets'> | null {
  const vertexCount = position.getCount();
  if (normal && normal.getCount() !== vertexCount) {
    issues.add(`${path}.attributes.NORMAL`, `has ${normal.getCount()} elements, POSITION has ${vertexCount}`);
    return null;
  }
  const positions = readFloats(issues, `${path}.attributes.POSITION`, position, 3);
  const normals = normal ? readFloats(issues, `${path}.attributes.NORMAL`, normal, 3) : null;
  if (!positions || (normal && !normals)) return null;
  transformAll(positions, bind, true);
  if (scale !== 1) for (let i = 0; i < positions.length; i++) positions[i] *= scale;
  const bad = firstNonFloat32(positions);
  if (bad >= 0) {
    issues.add(`${path}.attributes.POSITION[${Math.floor(bad / 3)}][${bad % 3}]`, 'overflows float32 once moved into bind space');
    return null;
  }
  if (normals) {
    transformAll(normals, inverseTranspose(bind), false);
    for (let i = 0; i < normals.length; i += 3) {
      const length = Math.hypot(normals[i], normals[i + 1], normals[i + 2]);
      if (length > 0) for (let k = 0; k < 3; k++) normals[i + k] /= length;
    }
  }
  const joints = new Uint16Array(vertexCount * 4);
  const weights = new Float32Array(vertexCount * 4);
  for (let v = 0; v < vertexCount; v++) {
    joints[v * 4] = joint;
    weights[v * 4] = 1;
  }
  const indexOut = readIndices(issues, path, indices, vertexCount);
  if (indexOut === false) return null;
  return { name, skeleton, positions, normals, joints, weights, indices: indexOut };
}

/** A primitive's indices checked (whole triangles, within the vertex count), null when not indexed, false after recording a fault. */
function readIndices(issues: IssueList, path: string, indices: Accessor | null, vertexCount: number): Uint32Array | null | false {
  if (!indices) {
    if (vertexCount % 3 !== 0) {
      issues.add(`${path}`, `is not indexed and has ${vertexCount} vertices, not a whole number of triangles`);
      return false;
    }
    return null;
  }
  const raw = indices.getArray()!;
  if (raw.length % 3 !== 0) {
    issues.add(`${path}.indices`, `has ${raw.length} indices, not a whole number of triangles`);
    return false;
  }
  const out = new Uint32Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const index = raw[i];
    if (index >= vertexCount) {
      issues.add(`${path}.indices[${i}]`, `is ${index}: the primitive has ${vertexCount} vertices`);
      return false;
    }
    out[i] = index;
  }
  return out;
}

function readPrimitive(
  issues: IssueList, path: string, name: string, binding: SkinBinding,
  position: Accessor, normal: Accessor | null, joints: Accessor, weights: Accessor, indices: Accessor | null,
  warnings: string[], scale: number,
): Omit<SkinnedMeshData, 'uvs' | 'material' | 'rigidJoint' | 'morphTargets'> | null {
  const vertexCount = position.getCount();
  for (const [label, a] of [['NORMAL', normal], ['JOINTS_0', joints], ['WEIGHTS_0', weights]] as const) {
    if (a && a.getCount() !== vertexCount) {
      issues.add(`${path}.attributes.${label}`, `has ${a.getCount()} elements, POSITION has ${vertexCount}`);
      return null;
    }
  }
  const positions = readFloats(issues, `${path}.attributes.POSITION`, position, 3);
  const normals = normal ? readFloats(issues, `${path}.attributes.NORMAL`, normal, 3) : null;
  if (!positions || (normal && !normals)) return null;
  if (scale !== 1) {
    // File units → metres; a scale that overflows float32 is the file's fault as much as the option's.
    for (let i = 0; i < positions.length; i++) positions[i] *= scale;
    const bad = firstNonFloat32(positions);
    if (bad >= 0) {
      issues.add(`${path}.attributes.POSITION[${Math.floor(bad / 3)}][${bad % 3}]`, `overflows float32 at scale ${scale}`);
      return null;
    }
  }

  const skinJoints = binding.remap.length;
  const jointOut = new Uint16Array(vertexCount * 4);
  const weightOut = new Float32Array(vertexCount * 4);
  const rawJoints = joints.getArray()!;
  const w: number[] = [];
  let zeroSum = 0;
  for (let v = 0; v < vertexCount; v++) {
    weights.getElement(v, w);
    let sum = 0;
    for (let i = 0; i < 4; i++) {
      const weight = w[i];
      if (!Number.isFinite(weight) || weight < 0) {
        issues.add(`${path}.attributes.WEIGHTS_0[${v}][${i}]`, `is ${weight}: weights must be finite and ≥ 0`);
        return null;
      }
      const joint = rawJoints[v * 4 + i];
      if (!Number.isInteger(joint) || joint < 0 || (joint >= skinJoints && weight > 0)) {
        issues.add(`${path}.attributes.JOINTS_0[${v}][${i}]`, `is ${joint}: the skin has ${skinJoints} joints`);
        return null;
      }
      jointOut[v * 4 + i] = joint < skinJoints ? binding.remap[joint] : 0;
      sum += weight;
    }
    if (sum > 0) {
      for (let i = 0; i < 4; i++) weightOut[v * 4 + i] = w[i] / sum;
    } else {
      weightOut[v * 4] = 1;
      zeroSum++;
    }
  }
  if (zeroSum) {
    const which = zeroSum === 1 ? '1 vertex had weights summing to 0 and got weight 1 on its' : `${zeroSum} vertices had weights summing to 0 and got weight 1 on their`;
    warnings.push(`${path} ("${name}"): ${which} first joint`);
  }

  const indexOut = readIndices(issues, path, indices, vertexCount);
  if (indexOut === false) return null;
  return ({
    name, skeleton: binding.rig.index, positions, normals, joints: jointOut, weights: weightOut, indices: indexOut,
  });
}

/** An accessor's elements as float32 (normalized integers decoded), checked finite. */
function readFloats(issues: IssueList, path: string, accessor: Accessor, size: number): Float32Array | null {
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  const raw = accessor.getArray()!;
  if (raw instanceof Float32Array && raw.length === out.length) out.set(raw);
  else {
    const e: number[] = [];
    for (let i = 0; i < count; i++) {
      accessor.getElement(i, e);
      for (let k = 0; k < size; k++) out[i * size + k] = e[k];
    }
  }
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i])) {
      issues.add(`${path}[${Math.floor(i / size)}][${i % size}]`, `is ${out[i]}, not a finite number`);
      return null;
    }
  }
  return out;
}
