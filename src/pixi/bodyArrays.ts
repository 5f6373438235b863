/**
 * The vertex data of a character body, built on the CPU without pixi.js (so Node tests and
 * tools can check it): one interleaved float32 buffer of {@link BODY_STRIDE} floats per vertex
 * — position (3), normal (3), UV (2), joint indices (4, as floats), weights (4) — and a
 * triangle list. Float joints and weights keep the GPU's skinning equal to `skinVertices`
 * (unorm8 weights would be off by up to 1/510 of a bone's reach); joint indices up to 2^24 are
 * exact in float32.
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import type { SkinnedMeshData } from '../import/gltf/meshes.js';

/** Floats per vertex in {@link BodyArrays.vertices}. */
export const BODY_STRIDE = 16;
/** Float offset of the position (x y z) in a vertex. */
export const BODY_POSITION = 0;
/** Float offset of the normal (x y z) in a vertex. */
export const BODY_NORMAL = 3;
/** Float offset of the texture coordinates (u v) in a vertex. */
export const BODY_UV = 6;
/** Float offset of the 4 joint indices in a vertex. */
export const BODY_JOINTS = 8;
/** Float offset of the 4 weights in a vertex. */
export const BODY_WEIGHTS = 12;

/** A body's vertex data, ready to become GPU buffers. */
export interface BodyArrays {
  /** Vertices. */
  readonly vertexCount: number;
  /** `vertexCount × BODY_STRIDE` floats, interleaved (see the `BODY_*` offsets). */
  readonly vertices: Float32Array;
  /** Triangle list (the mesh's own, or 0 … V−1 for an unindexed mesh). */
  readonly indices: Uint32Array;
  /** One more than the highest joint index a vertex uses with a non-zero weight (0 for no joints). */
  readonly jointCount: number;
  /** Whether the mesh had UVs (else every vertex has UV (0, 0)). */
  readonly hasUvs: boolean;
  /** Whether the normals are the mesh's own (else computed: area-weighted per vertex). */
  readonly hasNormals: boolean;
}

type BodyMesh = Pick<SkinnedMeshData, 'positions' | 'normals' | 'joints' | 'weights' | 'indices' | 'uvs'> & { readonly name?: string };

/**
 * Interleaves a skinned mesh's attributes into one vertex buffer.
 * @throws AnimationError (where `createCharacterBody`) when the arrays' lengths disagree, an
 *   index is out of range, or a value is not finite.
 */
export function buildBodyArrays(mesh: BodyMesh, where = 'createCharacterBody'): BodyArrays {
  if (typeof mesh !== 'object' || mesh === null || !(mesh.positions instanceof Float32Array)) fail(where, 'mesh.positions', 'must be a Float32Array');
  const V = mesh.positions.length / 3;
  const issues = new IssueList(where);
  if (!Number.isInteger(V) || V === 0) issues.add('mesh.positions', `has ${mesh.positions.length} floats: must be a non-zero multiple of 3`);
  if (!(mesh.joints instanceof Uint16Array) || mesh.joints.length !== V * 4) issues.add('mesh.joints', `must be a Uint16Array of ${V * 4} (4 per vertex)`);
  if (!(mesh.weights instanceof Float32Array) || mesh.weights.length !== V * 4) issues.add('mesh.weights', `must be a Float32Array of ${V * 4} (4 per vertex)`);
  if (mesh.normals != null && mesh.normals.length !== V * 3) issues.add('mesh.normals', `has ${mesh.normals.length} floats: must be ${V * 3} (3 per vertex) or null`);
  if (mesh.uvs != null && mesh.uvs.length !== V * 2) issues.add('mesh.uvs', `has ${mesh.uvs.length} floats: must be ${V * 2} (2 per vertex) or null`);
  if (mesh.indices != null && mesh.indices.length % 3 !== 0) issues.add('mesh.indices', `has ${mesh.indices.length} entries: must be a multiple of 3`);
  issues.throwIfAny();

  const indices = mesh.indices != null ? Uint32Array.from(mesh.indices) : Uint32Array.from({ length: V }, (_, i) => i);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= V && !issues.add(`mesh.indices[${i}]`, `is ${indices[i]}: must be < ${V} vertices`)) break;
  }
  for (let i = 0; i < mesh.positions.length; i++) {
    if (!Number.isFinite(mesh.positions[i]) && !issues.add(`mesh.positions[${i}]`, `is ${mesh.positions[i]}: must be finite`)) break;
  }
  issues.throwIfAny();

  const normals = mesh.normals ?? vertexNormals(mesh.positions, indices);
  const vertices = new Float32Array(V * BODY_STRIDE);
  let jointCount = 0;
  for (let v = 0; v < V; v++) {
    const o = v * BODY_STRIDE;
    for (let c = 0; c < 3; c++) {
      vertices[o + BODY_POSITION + c] = mesh.positions[v * 3 + c];
      vertices[o + BODY_NORMAL + c] = normals[v * 3 + c];
    }
    if (mesh.uvs != null) {
      vertices[o + BODY_UV] = mesh.uvs[v * 2];
      vertices[o + BODY_UV + 1] = mesh.uvs[v * 2 + 1];
    }
    for (let c = 0; c < 4; c++) {
      const joint = mesh.joints[v * 4 + c];
      const weight = mesh.weights[v * 4 + c];
      vertices[o + BODY_JOINTS + c] = joint;
      vertices[o + BODY_WEIGHTS + c] = weight;
      if (weight > 0 && joint + 1 > jointCount) jointCount = joint + 1;
    }
  }
  return { vertexCount: V, vertices, indices, jointCount, hasUvs: mesh.uvs != null, hasNormals: mesh.normals != null };
}

/** Per-vertex normals: the sum of the adjacent triangles' (area-weighted) normals, normalized; +Y where it is zero. */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const out = new Float32Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const i of [a, b, c]) {
      out[i] += nx;
      out[i + 1] += ny;
      out[i + 2] += nz;
    }
  }
  for (let i = 0; i < out.length; i += 3) {
    const n = Math.hypot(out[i], out[i + 1], out[i + 2]);
    if (n > 0) {
      out[i] /= n;
      out[i + 1] /= n;
      out[i + 2] /= n;
    } else {
      out[i + 1] = 1;
    }
  }
  return out;
}
