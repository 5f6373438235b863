/**
 * `createCharacterBody`: a skinned mesh's GPU geometry, built once per mesh and shared by every
 * character drawn with it. One interleaved vertex buffer (see `./bodyArrays.ts`) read by five
 * pixi v8 attributes — `aPosition` (float32x3), `aNormal` (float32x3), `aUV` (float32x2),
 * `aJoints` (float32x4, joint indices), `aWeights` (float32x4) — and a uint32 index buffer,
 * for pixi meshes of your own; and what the crowd renderer pulls: the same vertices in
 * triangle-list order as an rgba32float texture (`./bodyData.ts`), the bind sphere it culls
 * with, and the base colour texture (decoded in the browser: `./bodyTexture.ts`).
 */
import { Buffer, BufferImageSource, BufferUsage, Geometry } from 'pixi.js';
import { fail } from '../assets/AnimationError.js';
import type { GltfMaterial } from '../import/gltf/materials.js';
import type { SkinnedMeshData } from '../import/gltf/meshes.js';
import { bindSphere, cornerImage } from './bodyData.js';
import { BodyTexture } from './bodyTexture.js';
import { BODY_JOINTS, BODY_NORMAL, BODY_POSITION, BODY_STRIDE, BODY_UV, BODY_WEIGHTS, buildBodyArrays, type BodyArrays } from './bodyArrays.js';

/** A mesh ready to draw: its GPU geometry, vertex data and material. */
export interface CharacterBody {
  /** The mesh's name (`SkinnedMeshData.name`), for messages. */
  readonly name: string;
  /** The pixi geometry: attributes aPosition, aNormal, aUV, aJoints, aWeights over one buffer, and the triangle list. */
  readonly geometry: Geometry;
  /** The CPU vertex data the geometry was built from. */
  readonly arrays: BodyArrays;
  /** One more than the highest joint a vertex uses: a character drawn with it needs at least this many joints. */
  readonly jointCount: number;
  /** The material (the argument, else the mesh's), or null for glTF's default (white, opaque). */
  readonly material: GltfMaterial | null;
  /** Vertices one character draws (the triangle list's length). */
  readonly corners: number;
  /** The vertices in triangle-list order, 4 rgba32float texels each (what the crowd shader fetches). */
  readonly cornerSource: BufferImageSource;
  /** The bind positions' bounding sphere, radius × 1.5 for animation: [x, y, z, radius], metres. */
  readonly sphere: Float64Array;
  /** The base colour texture: white until decoded, and if it fails (then a pixi warning names the mesh). */
  readonly texture: BodyTexture;
}

const FLOAT = 4;

/**
 * Builds the GPU geometry of a skinned mesh once; give the body to any number of characters
 * (`crowd.setBody`). Normals missing from the mesh are computed (area-weighted per vertex),
 * missing UVs are (0, 0). With a base colour texture it starts decoding the image
 * (`createImageBitmap`, asynchronous); `body.texture.ready` resolves when it is done. Until
 * then, and for good if it fails, the body draws in its base colour factor (a failure is a
 * pixi warning naming the mesh).
 * @param mesh a skinned primitive from `loadGltf` (or the same fields built by hand).
 * @param material overrides `mesh.material` (e.g. another skin for the same mesh).
 * @throws AnimationError when the mesh's arrays disagree in length, an index is out of range
 *   or a position is not finite, or `material` is not an object.
 */
export function createCharacterBody(mesh: SkinnedMeshData, material?: GltfMaterial | null): CharacterBody {
  const where = 'createCharacterBody';
  if (material !== undefined && material !== null && (typeof material !== 'object' || !Array.isArray(material.baseColorFactor))) {
    fail(where, 'material', 'must be a GltfMaterial (from loadGltf), null or omitted');
  }
  const arrays = buildBodyArrays(mesh, where);
  const buffer = new Buffer({ data: arrays.vertices, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST, label: 'bitanim-body-vertices' });
  const stride = BODY_STRIDE * FLOAT;
  const geometry = new Geometry({
    label: `bitanim-body ${mesh.name ?? ''}`,
    attributes: {
      aPosition: { buffer, format: 'float32x3', stride, offset: BODY_POSITION * FLOAT },
      aNormal: { buffer, format: 'float32x3', stride, offset: BODY_NORMAL * FLOAT },
      aUV: { buffer, format: 'float32x2', stride, offset: BODY_UV * FLOAT },
      aJoints: { buffer, format: 'float32x4', stride, offset: BODY_JOINTS * FLOAT },
      aWeights: { buffer, format: 'float32x4', stride, offset: BODY_WEIGHTS * FLOAT },
    },
    indexBuffer: arrays.indices,
    topology: 'triangle-list',
  });
  const image = cornerImage(arrays);
  const cornerSource = new BufferImageSource({
    resource: image.data,
    width: image.width,
    height: image.height,
    format: 'rgba32float',
    scaleMode: 'nearest',
    autoGenerateMipmaps: false,
    alphaMode: 'no-premultiply-alpha',
    label: 'bitanim-body-corners',
  });
  const chosen = material === undefined ? (mesh.material ?? null) : material;
  return {
    name: mesh.name ?? '',
    geometry,
    arrays,
    jointCount: arrays.jointCount,
    material: chosen,
    corners: image.corners,
    cornerSource,
    sphere: bindSphere(arrays),
    texture: new BodyTexture(mesh.name ?? '', chosen),
  };
}
