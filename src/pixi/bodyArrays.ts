/**
 * The vertex data of a character body, built on the CPU without pixi.js (so Node tests and
 * tools can check it): one interleaved float32 buffer of {@link BODY_STRIDE} floats per vertex
 * — position (3), normal (3), UV (2), joint indices (4, as floats), weights (4) — and a
 * triangle list. Float joints and weights keep the GPU's skinning equal to `skinVertices`
 * (unorm8 weights would be off by up to 1/510 of a bone's reach); joint indices up to 2^24 are
 * exact in float32.
 *
 * A body may be several primitives (a whole character of rigid and skinned parts, e.g. the
 * Robot's 19): their vertices are concatenated in the order given and their triangle lists
 * offset to match ({@link BodyArrays.firstVertex}). Their morph targets become the body's
 * ({@link BodyMorphs}): one list of targets for the body, named by their curves, and per vertex
 * a row of deltas (only for vertices of primitives that have targets).
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
  /** Where each primitive's vertices start (one entry per mesh given; `[0]` for one mesh). */
  readonly firstVertex: Uint32Array;
  /** The body's morph targets, or null when no primitive has any. */
  readonly morphs: BodyMorphs | null;
}

/** Most morph targets one body may have (the slot holds one weight per target: 2 texels). */
export const MAX_MORPH_TARGETS = 8;
/** Floats per (vertex, target) in {@link BodyMorphs.deltas}: position delta (3), normal delta (3). */
export const MORPH_DELTA_FLOATS = 6;
/** Float offset of the normal delta in a (vertex, target) record of {@link BodyMorphs.deltas} (the position delta at 0). */
export const MORPH_DELTA_NORMAL = 3;

/**
 * A body's morph targets: the union of its primitives' targets, by curve name (`Head.Angry`,
 * `Head.Surprised`, `Head.Sad` for the Robot, whose three head primitives share them), and the
 * deltas of each vertex that belongs to a primitive with targets.
 */
export interface BodyMorphs {
  /** Curve names of the targets (`MorphTarget.name`), in first-seen order: target k's weight is this curve's value. At most {@link MAX_MORPH_TARGETS}. */
  readonly names: readonly string[];
  /** Per vertex, its row of deltas, or −1 (a primitive without targets: morphing costs it nothing). */
  readonly rows: Int32Array;
  /** Rows with deltas. */
  readonly rowCount: number;
  /** `rowCount × names.length × MORPH_DELTA_FLOATS`: for row r, target k, at `(r × targets + k) × 6`: Δposition x y z, Δnormal x y z (0 where the primitive lacks the target or its normals). */
  readonly deltas: Float32Array;
}

/**
 * What {@link buildBodyArrays} reads of a mesh: `SkinnedMeshData`'s positions, normals, joints,
 * weights, indices, UVs and morph targets (a `loadGltf` mesh, or the same fields built by hand), and its name.
 */
export type MorphMesh = Pick<SkinnedMeshData, 'positions' | 'normals' | 'joints' | 'weights' | 'indices' | 'uvs'> & {
  readonly name?: string;
  readonly morphTargets?: SkinnedMeshData['morphTargets'];
};

/**
 * Interleaves skinned meshes' attributes into one vertex buffer: one mesh, or several
 * concatenated (their triangle lists offset), with their morph targets gathered.
 * @throws AnimationError (where `createCharacterBody`) when the arrays' lengths disagree, an
 *   index is out of range, a value is not finite, the list is empty, or the meshes have more
 *   than {@link MAX_MORPH_TARGETS} distinct targets or a target of the wrong length.
 */
export function buildBodyArrays(meshes: MorphMesh | readonly MorphMesh[], where = 'createCharacterBody'): BodyArrays {
  const single = !Array.isArray(meshes);
  const list = single ? [meshes as MorphMesh] : (meshes as readonly MorphMesh[]);
  if (list.length === 0) fail(where, 'meshes', 'is empty: give at least one mesh');
  const parts = list.map((mesh, i) => buildOne(mesh, where, single ? 'mesh' : `meshes[${i}]`));
  if (parts.length === 1) return { ...parts[0], morphs: buildMorphs(list, parts[0].firstVertex, parts[0].vertexCount, where) };
  let V = 0, I = 0;
  const firstVertex = new Uint32Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    firstVertex[i] = V;
    V += parts[i].vertexCount;
    I += parts[i].indices.length;
  }
  const vertices = new Float32Array(V * BODY_STRIDE);
  const indices = new Uint32Array(I);
  let jointCount = 0, at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    vertices.set(part.vertices, firstVertex[i] * BODY_STRIDE);
    for (let k = 0; k < part.indices.length; k++) indices[at++] = part.indices[k] + firstVertex[i];
    jointCount = Math.max(jointCount, part.jointCount);
  }
  return {
    vertexCount: V,
    vertices,
    indices,
    jointCount,
    hasUvs: parts.every((p) => p.hasUvs),
    hasNormals: parts.every((p) => p.hasNormals),
    firstVertex,
    morphs: buildMorphs(list, firstVertex, V, where),
  };
}

/** The morph targets of `meshes` (their vertices starting at `firstVertex`), or null when none has any. */
function buildMorphs(meshes: readonly MorphMesh[], firstVertex: Uint32Array, V: number, where: string): BodyMorphs | null {
  const names: string[] = [];
  for (const mesh of meshes) for (const target of mesh.morphTargets ?? []) if (!names.includes(target.name)) names.push(target.name);
  if (names.length === 0) return null;
  if (names.length > MAX_MORPH_TARGETS) fail(where, 'meshes', `have ${names.length} morph targets (${names.join(', ')}): a body draws at most ${MAX_MORPH_TARGETS}`);
  const T = names.length;
  const rows = new Int32Array(V).fill(-1);
  let rowCount = 0;
  for (let i = 0; i < meshes.length; i++) {
    if ((meshes[i].morphTargets ?? []).length === 0) continue;
    const count = meshes[i].positions.length / 3;
    for (let v = 0; v < count; v++) rows[firstVertex[i] + v] = rowCount++;
  }
  const deltas = new Float32Array(rowCount * T * MORPH_DELTA_FLOATS);
  for (let i = 0; i < meshes.length; i++) {
    const mesh = meshes[i], count = mesh.positions.length / 3;
    (mesh.morphTargets ?? []).forEach((target, n) => {
      const k = names.indexOf(target.name);
      if (!(target.positions instanceof Float32Array) || target.positions.length !== count * 3) {
        fail(where, `meshes[${i}].morphTargets[${n}].positions`, `must be a Float32Array of ${count * 3} (3 per vertex)`);
      }
      if (target.normals != null && target.normals.length !== count * 3) fail(where, `meshes[${i}].morphTargets[${n}].normals`, `must be ${count * 3} floats (3 per vertex) or null`);
      for (let v = 0; v < count; v++) {
        const o = (rows[firstVertex[i] + v] * T + k) * MORPH_DELTA_FLOATS;
        for (let c = 0; c < 3; c++) {
          deltas[o + c] = target.positions[v * 3 + c];
          if (target.normals != null) deltas[o + MORPH_DELTA_NORMAL + c] = target.normals[v * 3 + c];
        }
      }
    });
  }
  return { names, rows, rowCount, deltas };
}

/** One mesh's vertex data without its morphs (`path` names it in messages). */
function buildOne(mesh: MorphMesh, where: string, path: string): BodyArrays {
  if (typeof mesh !== 'object' || mesh === null || !(mesh.positions instanceof Float32Array)) fail(where, `${path}.positions`, 'must be a Float32Array');
  const V = mesh.positions.length / 3;
  const issues = new IssueList(where);
  if (!Number.isInteger(V) || V === 0) issues.add(`${path}.positions`, `has ${mesh.positions.length} floats: must be a non-zero multiple of 3`);
  if (!(mesh.joints instanceof Uint16Array) || mesh.joints.length !== V * 4) issues.add(`${path}.joints`, `must be a Uint16Array of ${V * 4} (4 per vertex)`);
  if (!(mesh.weights instanceof Float32Array) || mesh.weights.length !== V * 4) issues.add(`${path}.weights`, `must be a Float32Array of ${V * 4} (4 per vertex)`);
  if (mesh.normals != null && mesh.normals.length !== V * 3) issues.add(`${path}.normals`, `has ${mesh.normals.length} floats: must be ${V * 3} (3 per vertex) or null`);
  if (mesh.uvs != null && mesh.uvs.length !== V * 2) issues.add(`${path}.uvs`, `has ${mesh.uvs.length} floats: must be ${V * 2} (2 per vertex) or null`);
  if (mesh.indices != null && mesh.indices.length % 3 !== 0) issues.add(`${path}.indices`, `has ${mesh.indices.length} entries: must be a multiple of 3`);
  issues.throwIfAny();

  const indices = mesh.indices != null ? Uint32Array.from(mesh.indices) : Uint32Array.from({ length: V }, (_, i) => i);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= V && !issues.add(`${path}.indices[${i}]`, `is ${indices[i]}: must be < ${V} vertices`)) break;
  }
  for (let i = 0; i < mesh.positions.length; i++) {
    if (!Number.isFinite(mesh.positions[i]) && !issues.add(`${path}.positions[${i}]`, `is ${mesh.positions[i]}: must be finite`)) break;
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
  return { vertexCount: V, vertices, indices, jointCount, hasUvs: mesh.uvs != null, hasNormals: mesh.normals != null, firstVertex: Uint32Array.of(0), morphs: null };
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
