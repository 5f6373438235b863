/**
 * `createCharacterBody`: a skinned mesh's GPU geometry — or a whole character's, several
 * primitives merged into one body, one draw — built once and shared by every character drawn
 * with it. One interleaved vertex buffer (see `./bodyArrays.ts`) read by five
 * pixi v8 attributes — `aPosition` (float32x3), `aNormal` (float32x3), `aUV` (float32x2),
 * `aJoints` (float32x4, joint indices), `aWeights` (float32x4) — and a uint32 index buffer,
 * for pixi meshes of your own; and what the crowd renderer pulls: the same vertices in
 * triangle-list order as an rgba32float texture (`./bodyData.ts`), the bind sphere it culls
 * with, and the base colour texture (decoded in the browser: `./bodyTexture.ts`). Several
 * primitives of different base colour factors carry their colour per vertex; morph targets
 * add their deltas to the vertex texture (layout: `./bodyData.ts`).
 */
import { Buffer, BufferImageSource, BufferUsage, Geometry } from 'pixi.js';
import { fail } from '../assets/AnimationError.js';
import type { GltfMaterial } from '../import/gltf/materials.js';
import type { SkinnedMeshData } from '../import/gltf/meshes.js';
import { bindSphere, cornerImage, TEXELS_PER_CORNER } from './bodyData.js';
import { BodyTexture } from './bodyTexture.js';
import { BODY_JOINTS, BODY_NORMAL, BODY_POSITION, BODY_STRIDE, BODY_UV, BODY_WEIGHTS, buildBodyArrays, type BodyArrays } from './bodyArrays.js';

/** A mesh ready to draw: its GPU geometry, vertex data and material. */
export interface CharacterBody {
  /** The mesh's name (`SkinnedMeshData.name`; several meshes: the first's and how many more), for messages. */
  readonly name: string;
  /** The pixi geometry: attributes aPosition, aNormal, aUV, aJoints, aWeights over one buffer, and the triangle list. */
  readonly geometry: Geometry;
  /** The CPU vertex data the geometry was built from. */
  readonly arrays: BodyArrays;
  /** One more than the highest joint a vertex uses: a character drawn with it needs at least this many joints. */
  readonly jointCount: number;
  /** The material (the argument, else the mesh's; several meshes: the first's), or null for glTF's default (white, opaque). */
  readonly material: GltfMaterial | null;
  /** Each mesh's material as drawn (one entry per mesh given). */
  readonly materials: readonly (GltfMaterial | null)[];
  /** The base colour factor of the whole body, rgba; [1, 1, 1, 1] when the colour is per vertex (meshes of different factors). */
  readonly baseColorFactor: readonly [number, number, number, number];
  /** Whether the colour is per vertex (each mesh's material's factor). */
  readonly vertexColors: boolean;
  /** Curve names of the body's morph targets (target k's weight is the character's curve of that name); empty when it has none. */
  readonly morphTargets: readonly string[];
  /** Texels per corner in {@link CharacterBody.cornerSource}: 4, or 5 with per-vertex colours or morph targets. */
  readonly texelsPerCorner: number;
  /** First texel of the morph deltas in {@link CharacterBody.cornerSource} (0 without morph targets). */
  readonly morphBase: number;
  /** Vertices one character draws (the triangle list's length). */
  readonly corners: number;
  /** The vertices in triangle-list order, {@link CharacterBody.texelsPerCorner} rgba32float texels each, then the morph deltas (what the crowd shader fetches). */
  readonly cornerSource: BufferImageSource;
  /** The bind positions' bounding sphere, radius × 1.5 for animation: [x, y, z, radius], metres. */
  readonly sphere: Float64Array;
  /** The base colour texture: white until decoded, and if it fails (then a pixi warning names the mesh). */
  readonly texture: BodyTexture;
}

const FLOAT = 4;

/**
 * Builds the GPU geometry of a skinned mesh once — or of a whole character: several meshes
 * (e.g. all of `loadGltf`'s meshes of one skeleton, rigid parts and skinned ones alike) merged
 * into one body, drawn in one call — and gives it to any number of characters
 * (`crowd.setBody`). Normals missing from a mesh are computed (area-weighted per vertex),
 * missing UVs are (0, 0). Meshes of different base colour factors keep their colours per
 * vertex; their morph targets (at most `MAX_MORPH_TARGETS` distinct curve names) are applied on
 * the GPU with each character's weights (see `CrowdRenderer.setMorphWeights`). With a base
 * colour texture it starts decoding the image (`createImageBitmap`, asynchronous);
 * `body.texture.ready` resolves when it is done. Until then, and for good if it fails, the body
 * draws in its base colour factor (a failure is a pixi warning naming the mesh).
 * @param meshes - a skinned or rigid primitive from `loadGltf` (or the same fields built by
 *   hand), or several: their vertices concatenated in the order given.
 * @param material - overrides every mesh's `material` (e.g. another skin, or `null` for plain white).
 * @throws AnimationError when a mesh's arrays disagree in length, an index is out of range or a
 *   position is not finite, `material` is not an object, the list is empty, the meshes use more
 *   than one base colour texture (or some have one and some not: make a body per texture), or
 *   have more than `MAX_MORPH_TARGETS` morph targets.
 * @example
 * const robot = createCharacterBody(meshes.filter((m) => m.skeleton === 0)); // the whole Robot, one draw
 */
export function createCharacterBody(meshes: SkinnedMeshData | readonly SkinnedMeshData[], material?: GltfMaterial | null): CharacterBody {
  const where = 'createCharacterBody';
  if (material !== undefined && material !== null && (typeof material !== 'object' || !Array.isArray(material.baseColorFactor))) {
    fail(where, 'material', 'must be a GltfMaterial (from loadGltf), null or omitted');
  }
  const list: readonly SkinnedMeshData[] = Array.isArray(meshes) ? meshes : [meshes as SkinnedMeshData];
  const arrays = buildBodyArrays(meshes, where);
  const materials = list.map((mesh) => (material === undefined ? (mesh.material ?? null) : material));
  const textures = new Set(materials.map((m) => m?.baseColorTexture?.image ?? null));
  if (textures.size > 1) fail(where, 'meshes', `use ${textures.has(null) ? 'a base colour texture and none' : `${textures.size} base colour textures`}: one body draws one texture (make a body per texture)`);
  const factors = materials.map((m) => m?.baseColorFactor ?? WHITE);
  const vertexColors = factors.some((f) => f.some((x, c) => x !== factors[0][c]));
  let colors: Float32Array | null = null;
  if (vertexColors) {
    colors = new Float32Array(arrays.vertexCount * 3);
    for (let i = 0; i < list.length; i++) {
      const end = i + 1 < list.length ? arrays.firstVertex[i + 1] : arrays.vertexCount;
      for (let v = arrays.firstVertex[i]; v < end; v++) for (let c = 0; c < 3; c++) colors[v * 3 + c] = factors[i][c];
    }
  }
  const name = list.length === 1 ? (list[0].name ?? '') : `${list[0].name ?? ''} (+${list.length - 1} meshes)`;
  const buffer = new Buffer({ data: arrays.vertices, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST, label: 'bitanim-body-vertices' });
  const stride = BODY_STRIDE * FLOAT;
  const geometry = new Geometry({
    label: `bitanim-body ${name}`,
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
  const image = cornerImage(arrays, colors);
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
  const chosen = materials[0];
  return {
    name,
    geometry,
    arrays,
    jointCount: arrays.jointCount,
    material: chosen,
    materials,
    baseColorFactor: vertexColors ? WHITE : factors[0],
    vertexColors,
    morphTargets: arrays.morphs?.names ?? [],
    texelsPerCorner: image.texelsPerCorner,
    morphBase: image.morphBase,
    corners: image.corners,
    cornerSource,
    sphere: bindSphere(arrays),
    texture: new BodyTexture(name, chosen),
  };
}

const WHITE = [1, 1, 1, 1] as const;
