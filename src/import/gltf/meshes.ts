/**
 * Skinned glTF primitives → {@link SkinnedMeshData} (the **Meshes** paragraph of `../gltf.ts`):
 * positions and normals read as checked float32, `JOINTS_0` remapped to the skeleton's joint
 * order, weights renormalized to sum 1, indices checked against the vertex count, `TEXCOORD_0`
 * read as float32 (normalized integers divided out), the material as the validator read it
 * (`./materials.ts`). Primitives
 * that are not triangle lists or lack the skinning attributes are skipped with a warning.
 */
import type { Accessor, Mesh, Skin } from '@gltf-transform/core';
import { IssueList } from '../../assets/AnimationError.js';
import { WHERE } from './container.js';
import type { GltfMaterial } from './materials.js';
import { firstNonFloat32, type Context } from './shared.js';
import type { SkinBinding } from './skeletons.js';

/** One skinned primitive, ready for `skinVertices`. */
export interface SkinnedMeshData {
  /** Mesh name (or node name, or `mesh<i>`) + `#` + primitive index, e.g. `"fox1#0"`. */
  readonly name: string;
  /** Index into {@link GltfResult.skeletons}. */
  readonly skeleton: number;
  /** V×3 bind-pose positions in mesh space (the skinned node's own transform is ignored). */
  readonly positions: Float32Array;
  /** V×3 normals when the primitive has NORMAL, else null. */
  readonly normals: Float32Array | null;
  /** V×4 joint indices into the skeleton's joint order (remapped from the skin's order). */
  readonly joints: Uint16Array;
  /** V×4 weights, renormalized to sum 1. */
  readonly weights: Float32Array;
  /** Triangle list, or null when the primitive is not indexed. */
  readonly indices: Uint32Array | null;
  /** V×2 texture coordinates (`TEXCOORD_0`, dequantized when stored as normalized integers), or null when the primitive has none. */
  readonly uvs: Float32Array | null;
  /** The primitive's material, or null when it has none (glTF's default material: white, opaque). */
  readonly material: GltfMaterial | null;
}

/** The skinned triangle primitives of every node with a mesh and a skin, each mesh and skin pair once. */
export function buildMeshes(
  ctx: Context, bindings: readonly SkinBinding[], skins: readonly Skin[],
  meshes: readonly Mesh[],
): SkinnedMeshData[] {
  const { nodes, warnings } = ctx;
  const out: SkinnedMeshData[] = [];
  const done = new Set<string>();
  const issues = new IssueList(WHERE);
  nodes.forEach((node, n) => {
    const mesh = node.getMesh();
    const skin = node.getSkin();
    if (!mesh || !skin) return;
    const m = meshes.indexOf(mesh);
    const s = skins.indexOf(skin);
    const key = `${m}/${s}`;
    if (done.has(key)) return; // the same mesh and skin on another node: the same data
    done.add(key);
    const binding = bindings[s];
    mesh.listPrimitives().forEach((prim, p) => {
      const path = `meshes[${m}].primitives[${p}]`;
      const name = `${mesh.getName() || node.getName() || `mesh${m}`}#${p}`;
      if (prim.getMode() !== 4) {
        warnings.push(`${path} ("${name}") has mode ${prim.getMode()}, not a triangle list (4): skipped`);
        return;
      }
      const position = prim.getAttribute('POSITION');
      const joints = prim.getAttribute('JOINTS_0');
      const weights = prim.getAttribute('WEIGHTS_0');
      if (!position || !joints || !weights) {
        const missing = [position ? '' : 'POSITION', joints ? '' : 'JOINTS_0', weights ? '' : 'WEIGHTS_0'].filter(Boolean);
        warnings.push(`${path} ("${name}") on skinned node ${n} has no ${missing.join(', ')}: skipped`);
        return;
      }
      const data = readPrimitive(issues, path, name, binding, position, prim.getAttribute('NORMAL'), joints, weights, prim.getIndices(), warnings, ctx.scale);
      const uv = prim.getAttribute('TEXCOORD_0');
      if (uv && uv.getCount() !== position.getCount()) {
        issues.add(`${path}.attributes.TEXCOORD_0`, `has ${uv.getCount()} elements, POSITION has ${position.getCount()}`);
        return;
      }
      const uvs = uv ? readFloats(issues, `${path}.attributes.TEXCOORD_0`, uv, 2) : null;
      if (data && (uvs || !uv)) out.push(Object.freeze({ ...data, uvs, material: ctx.valid.materials[m]?.[p] ?? null }));
    });
  });
  issues.throwIfAny();
  return out;
}

function readPrimitive(
  issues: IssueList, path: string, name: string, binding: SkinBinding,
  position: Accessor, normal: Accessor | null, joints: Accessor, weights: Accessor, indices: Accessor | null,
  warnings: string[], scale: number,
): Omit<SkinnedMeshData, 'uvs' | 'material'> | null {
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

  let indexOut: Uint32Array | null = null;
  if (indices) {
    const raw = indices.getArray()!;
    if (raw.length % 3 !== 0) {
      issues.add(`${path}.indices`, `has ${raw.length} indices, not a whole number of triangles`);
      return null;
    }
    indexOut = new Uint32Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const index = raw[i];
      if (index >= vertexCount) {
        issues.add(`${path}.indices[${i}]`, `is ${index}: the primitive has ${vertexCount} vertices`);
        return null;
      }
      indexOut[i] = index;
    }
  } else if (vertexCount % 3 !== 0) {
    issues.add(`${path}`, `is not indexed and has ${vertexCount} vertices, not a whole number of triangles`);
    return null;
  }
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
