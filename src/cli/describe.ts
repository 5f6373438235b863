/**
 * What `bitanim inspect` prints about an imported asset, as plain lines: skeletons (joint
 * count, depth, hip joint and height, the rest figure's height), clips (name, duration, frames, rate, root travel), mesh
 * statistics with each mesh's binding (skinned, or rigid on a joint), morph targets and material
 * (colour factor, texture type and size, UV count), each skeleton's attachments and curves,
 * each clip's curves, and warnings; {@link inspectJson} gives the same as one object (`--json`).
 * Pure: no I/O, so tests check it directly.
 */
import type { Clip } from '../assets/Clip.js';
import type { GltfMaterial } from '../import/gltf/materials.js';
import { restFigureHeight, type FigureMesh } from '../import/figureHeight.js';
import { sampleFrameInto } from '../assets/reducedClip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { composeModel } from '../math/composeModel.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../math/layout.js';

/** The parts of an import result `inspect` reports on. */
export interface InspectedAsset {
  readonly skeletons: readonly Skeleton[];
  readonly clips: readonly Clip[];
  readonly meshes?: readonly InspectedMesh[];
  readonly warnings: readonly string[];
}

/** The parts of an imported mesh `inspect` reports on. */
export interface InspectedMesh {
  name: string; skeleton: number; positions: Float32Array; normals: Float32Array | null; weights: Float32Array; indices: Uint32Array | null;
  uvs?: Float32Array | null; material?: GltfMaterial | null;
  rigidJoint?: number; morphTargets?: readonly { name: string }[];
  /** V×4 joint indices (the rest figure's height skins the mesh with them; without, it is not counted). */
  joints?: Uint16Array;
}

/** The meshes of skeleton `s` that have joint indices, as {@link restFigureHeight} reads them. */
export function figureMeshes(asset: InspectedAsset, s: number): FigureMesh[] {
  const meshes: FigureMesh[] = [];
  for (const m of asset.meshes ?? []) if (m.skeleton === s && m.joints) meshes.push({ positions: m.positions, joints: m.joints, weights: m.weights });
  return meshes;
}

/** Longest root-to-leaf chain, counting joints (a lone root has depth 1). */
export function skeletonDepth(skeleton: Skeleton): number {
  const depth = new Int32Array(skeleton.jointCount);
  let max = 0;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const parent = skeleton.parents[j];
    depth[j] = parent < 0 ? 1 : depth[parent] + 1;
    max = Math.max(max, depth[j]);
  }
  return max;
}

/**
 * Model-space positions of the clip's hip joint (else its first joint) at the first and the
 * last frame, in the file's units: their difference is what root motion will extract.
 */
export function hipPath(clip: Clip): { first: number[]; last: number[] } {
  const skeleton = clip.skeleton;
  const joint = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
  const poseSize = skeleton.jointCount * POSE_STRIDE;
  const model = new Float32Array(skeleton.jointCount * MATRIX_STRIDE);
  const pose = new Float32Array(poseSize);
  const position = (frame: number): number[] => {
    sampleFrameInto(pose, 0, clip, frame); // a reduced clip has no frames: its curves there
    composeModel(model, 0, MATRIX_STRIDE, pose, 0, skeleton.parents, 0, skeleton.jointCount);
    return [9, 10, 11].map((k) => model[joint * MATRIX_STRIDE + k]);
  };
  const first = position(0);
  return { first, last: position(clip.frameCount - 1) };
}

/** The report `bitanim inspect` prints, one string per line. */
export function describeAsset(file: string, asset: InspectedAsset): string[] {
  const lines = [file];
  asset.skeletons.forEach((skeleton, s) => {
    const hip = skeleton.hipJoint >= 0 ? `"${skeleton.names[skeleton.hipJoint]}" at height ${format(skeleton.hipHeight)}` : 'none';
    lines.push(`skeleton ${s}: ${skeleton.jointCount} joints, depth ${skeletonDepth(skeleton)}, root "${skeleton.names[0]}", hip ${hip}`);
    const figure = restFigureHeight(skeleton, figureMeshes(asset, s));
    lines.push(`  rest figure ${format(figure.height)} tall (${figure.from === 'mesh' ? 'skinned meshes' : 'joints'}, along +Y)`);
    const attachments = skeleton.attachments ?? [];
    if (attachments.length) lines.push(`  attachments (${attachments.length}): ${attachments.map((a) => `"${a.name}" on "${skeleton.names[a.joint]}"`).join(', ')}`);
    const curves = skeleton.curves ?? [];
    if (curves.length) lines.push(`  curves (${curves.length}): ${curves.map((c) => `"${c.name}"${c.default !== 0 ? ` = ${format(c.default)}` : ''}`).join(', ')}`);
  });
  if (asset.clips.length === 0) lines.push('clips: none');
  for (const clip of asset.clips) {
    const { first, travel, distance } = clipTravel(clip);
    const s = asset.skeletons.indexOf(clip.skeleton);
    lines.push(
      `clip "${clip.name}"${asset.skeletons.length > 1 ? ` (skeleton ${s})` : ''}: ${format(clip.duration)} s, ` +
      `${clip.frameCount} frames at ${format(clip.frameRate)} fps, ${clip.loop ? 'looping' : 'play-once'}, ` +
      `hips at height ${format(first[1])} on frame 0, root travel ${format(distance)} (${travel.map(format).join(', ')})` +
      ((clip.curves ?? []).length ? `, ${clip.curves.length} curve${clip.curves.length === 1 ? '' : 's'}` : ''),
    );
  }
  for (const mesh of asset.meshes ?? []) {
    const { vertices, triangles, influences } = meshCounts(mesh);
    const rigid = mesh.rigidJoint ?? -1;
    const skeleton = asset.skeletons[mesh.skeleton];
    const binding = rigid >= 0 ? `rigid on joint "${skeleton?.names[rigid] ?? rigid}"` : `skinned, up to ${influences} influences per vertex`;
    const targets = mesh.morphTargets ?? [];
    lines.push(
      `mesh "${mesh.name}" (skeleton ${mesh.skeleton}): ${vertices} vertices, ${triangles} triangles, ` +
      `normals ${mesh.normals ? 'yes' : 'no'}, ${binding}` +
      (targets.length ? `, ${targets.length} morph target${targets.length === 1 ? '' : 's'} (${targets.map((t) => `"${t.name}"`).join(', ')})` : ''),
    );
    lines.push(`  ${describeMaterial(mesh.material ?? null)}, ${mesh.uvs ? `${mesh.uvs.length / 2} UVs` : 'no UVs'}`);
  }
  lines.push(asset.warnings.length === 0 ? 'warnings: none' : `warnings (${asset.warnings.length}):`);
  for (const warning of asset.warnings) lines.push(`  ${warning}`);
  return lines;
}

/** A clip's hip position on frame 0, its travel to the last frame and that travel's length (see {@link hipPath}). */
function clipTravel(clip: Clip): { first: number[]; travel: number[]; distance: number } {
  const { first, last } = hipPath(clip);
  const travel = last.map((v, k) => v - first[k]);
  return { first, travel, distance: Math.hypot(...travel) };
}

/** A mesh's vertex and triangle counts and the most joints influencing one vertex (weights > 0, at most 4). */
function meshCounts(mesh: InspectedMesh): { vertices: number; triangles: number; influences: number } {
  const vertices = mesh.positions.length / 3;
  const triangles = mesh.indices ? mesh.indices.length / 3 : vertices / 3;
  let influences = 0;
  for (let v = 0; v < vertices; v++) {
    let n = 0;
    for (let i = 0; i < 4; i++) if (mesh.weights[v * 4 + i] > 0) n++;
    influences = Math.max(influences, n);
  }
  return { vertices, triangles, influences };
}

/**
 * What `bitanim inspect --json` prints: the report of {@link describeAsset} as one object, with
 * numbers unrounded. `scale` is the metres per file unit the file was read with (1 without
 * `--scale`); lengths are after it (metres, or file units for a BVH read without it).
 *
 * - `skeletons[]`: `joints`, `depth`, `root`, `hip` (name or null), `hipHeight`, `height`
 *   (the rest figure's, along +Y) and `heightFrom` (`'mesh'`: skinned meshes, `'joints'`),
 *   `attachments[]` (`name`, `joint`), `curves[]` (`name`, `default`);
 * - `clips[]`: `name`, `skeleton` (index), `duration`, `frames`, `frameRate`, `loop`,
 *   `hipHeight` (the hips' height on frame 0), `travel` ([x, y, z] from the first frame to the
 *   last), `distance` (its length), `curves` (count);
 * - `meshes[]`: `name`, `skeleton`, `vertices`, `triangles`, `normals`, `rigidJoint` (name, or
 *   null when skinned), `influences`, `morphTargets[]`, `uvs` (count), `material` (null or
 *   `name`, `baseColorFactor`, `texture` (null or `mimeType`, `bytes`), `alphaMode`, `doubleSided`);
 * - `warnings[]`.
 */
export function inspectJson(file: string, asset: InspectedAsset, scale: number): Record<string, unknown> {
  return {
    file,
    scale,
    skeletons: asset.skeletons.map((skeleton, s) => ({
      joints: skeleton.jointCount,
      depth: skeletonDepth(skeleton),
      root: skeleton.names[0],
      hip: skeleton.hipJoint >= 0 ? skeleton.names[skeleton.hipJoint] : null,
      hipHeight: skeleton.hipHeight,
      height: restFigureHeight(skeleton, figureMeshes(asset, s)).height,
      heightFrom: restFigureHeight(skeleton, figureMeshes(asset, s)).from,
      attachments: (skeleton.attachments ?? []).map((a) => ({ name: a.name, joint: skeleton.names[a.joint] })),
      curves: (skeleton.curves ?? []).map((c) => ({ name: c.name, default: c.default })),
    })),
    clips: asset.clips.map((clip) => {
      const { first, travel, distance } = clipTravel(clip);
      return {
        name: clip.name, skeleton: asset.skeletons.indexOf(clip.skeleton), duration: clip.duration, frames: clip.frameCount,
        frameRate: clip.frameRate, loop: clip.loop, hipHeight: first[1], travel, distance, curves: (clip.curves ?? []).length,
      };
    }),
    meshes: (asset.meshes ?? []).map((mesh) => {
      const { vertices, triangles, influences } = meshCounts(mesh);
      const rigid = mesh.rigidJoint ?? -1;
      const material = mesh.material ?? null;
      const texture = material?.baseColorTexture ?? null;
      return {
        name: mesh.name, skeleton: mesh.skeleton, vertices, triangles, normals: mesh.normals !== null,
        rigidJoint: rigid >= 0 ? asset.skeletons[mesh.skeleton]?.names[rigid] ?? rigid : null, influences,
        morphTargets: (mesh.morphTargets ?? []).map((t) => t.name), uvs: mesh.uvs ? mesh.uvs.length / 2 : 0,
        material: material === null ? null : {
          name: material.name, baseColorFactor: material.baseColorFactor,
          texture: texture === null ? null : { mimeType: texture.mimeType, bytes: texture.image.length },
          alphaMode: material.alphaMode, doubleSided: material.doubleSided,
        },
      };
    }),
    warnings: asset.warnings,
  };
}

/** A mesh's material on one line: name, base colour factor, base colour texture. */
function describeMaterial(material: GltfMaterial | null): string {
  if (!material) return 'material: none';
  const texture = material.baseColorTexture;
  const extra = [material.alphaMode !== 'OPAQUE' ? `alpha ${material.alphaMode}` : '', material.doubleSided ? 'double-sided' : ''].filter(Boolean);
  return `material "${material.name}": colour (${material.baseColorFactor.map(format).join(', ')}), ` +
    `${texture ? `texture ${texture.mimeType} ${texture.image.length} bytes` : 'no texture'}${extra.map((e) => `, ${e}`).join('')}`;
}

/** A number with up to 5 significant digits, without exponent noise for small values. */
function format(value: number): string {
  if (Math.abs(value) < 5e-6) return '0';
  return Number(value.toPrecision(5)).toString();
}
