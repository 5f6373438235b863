/**
 * bitanim palettes driving three.js: a `THREE.SkinnedMesh` per character whose skeleton takes its
 * bone matrices from the character's bitanim skin palette (docs/three.md).
 *
 * bitanim computes each joint's skinning matrix K = model · inverse bind (3×4 column-major,
 * 12 floats, `getSkinPalette`); three.js skins with `skeleton.boneMatrices` (4×4 column-major,
 * 16 floats per bone), which its renderers refresh by calling `skeleton.update()` once per
 * frame before drawing (WebGLRenderer through WebGLObjects, WebGPURenderer through the skinning
 * node). {@link PaletteSkeleton} overrides that `update()` to copy the palette in — the 3×4 →
 * 4×4 upload, no allocation, no bone hierarchy for three to walk — and flags the bone texture.
 *
 * The mesh is bound with `DetachedBindMode` and an identity bind matrix, so the vertex shader
 * computes `modelMatrix · Σ wᵢ Kᵢ · v`: the palette in the character's model space, the mesh's
 * own position and rotation placing the character in the world. Each bone's `matrixWorld` holds
 * the same Kᵢ (its inverse is the identity), so three's CPU-side skinning — `getVertexPosition`,
 * `computeBoundingBox`, raycasting — sees the pose the GPU draws.
 */
import * as THREE from 'three';
import { createAnimationWorld, getSkinPalette, loadGltf, play, spawnCharacter, step, type AnimationWorld, type GltfMaterial, type SkinnedMeshData } from 'bitanim';

/** Floats per joint in a bitanim palette (3×4) and in three's `boneMatrices` (4×4). */
const PALETTE_STRIDE = 12;
const BONE_STRIDE = 16;

/**
 * Writes `jointCount` palette matrices (3×4 column-major: `m00 m10 m20 m01 m11 m21 m02 m12 m22
 * tx ty tz`) from `palette[paletteOff…]` as 4×4 column-major matrices (three's `Matrix4.elements`
 * order, bottom row 0 0 0 1) into `out[outOff…]`. No allocation.
 */
// #region writeBoneMatrices
export function writeBoneMatrices(out: Float32Array, outOff: number, palette: Float32Array, paletteOff: number, jointCount: number): void {
  for (let j = 0; j < jointCount; j++) {
    const p = paletteOff + j * PALETTE_STRIDE;
    const o = outOff + j * BONE_STRIDE;
    out[o] = palette[p]; out[o + 1] = palette[p + 1]; out[o + 2] = palette[p + 2]; out[o + 3] = 0;
    out[o + 4] = palette[p + 3]; out[o + 5] = palette[p + 4]; out[o + 6] = palette[p + 5]; out[o + 7] = 0;
    out[o + 8] = palette[p + 6]; out[o + 9] = palette[p + 7]; out[o + 10] = palette[p + 8]; out[o + 11] = 0;
    out[o + 12] = palette[p + 9]; out[o + 13] = palette[p + 10]; out[o + 14] = palette[p + 11]; out[o + 15] = 1;
  }
}
// #endregion

/**
 * A `THREE.Skeleton` fed by a bitanim skin palette: `update()` — which three's renderers call
 * once per frame before drawing — copies the palette into `boneMatrices` (and, for three's
 * CPU-side skinning, into each bone's `matrixWorld`) and flags the bone texture. Its bones are
 * placeholders outside the scene graph (their matrices are never recomputed by three); their
 * inverses are the identity, the palette already holds the inverse bind matrices.
 */
// #region PaletteSkeleton
export class PaletteSkeleton extends THREE.Skeleton {
  constructor(readonly palette: Float32Array, jointCount: number) {
    // Placeholder bones outside the scene graph; identity inverses (K already holds the inverse bind).
    const bones = Array.from({ length: jointCount }, () => Object.assign(new THREE.Bone(), { matrixAutoUpdate: false, matrixWorldAutoUpdate: false }));
    super(bones, bones.map(() => new THREE.Matrix4()));
  }
  override update(): void {
    writeBoneMatrices(this.boneMatrices!, 0, this.palette, 0, this.bones.length);
    // So three's CPU skinning (getVertexPosition, raycasts, bounds) sees the same pose:
    for (let j = 0; j < this.bones.length; j++) this.bones[j].matrixWorld.fromArray(this.boneMatrices!, j * 16);
    if (this.boneTexture !== null) this.boneTexture.needsUpdate = true;
  }
}
// #endregion

/**
 * The geometry of an imported mesh (`loadGltf(...).meshes[i]`): positions, normals and UVs, the
 * 4 joint indices and weights per vertex (already in the skeleton's joint order) and the
 * triangles. Each array is tightly packed, so each attribute's item size is its stride.
 */
export function createPaletteGeometry(mesh: SkinnedMeshData): THREE.BufferGeometry {
  // #region geometry
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.positions, 3)); // V × 3 float32
  if (mesh.normals) geometry.setAttribute('normal', new THREE.BufferAttribute(mesh.normals, 3)); // V × 3
  if (mesh.uvs) geometry.setAttribute('uv', new THREE.BufferAttribute(mesh.uvs, 2)); // V × 2, TEXCOORD_0
  geometry.setAttribute('skinIndex', new THREE.BufferAttribute(mesh.joints, 4)); // V × 4 joint indices
  geometry.setAttribute('skinWeight', new THREE.BufferAttribute(mesh.weights, 4)); // V × 4 weights
  if (mesh.indices) geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1)); // 3 per triangle
  // #endregion
  return geometry;
}

/** glTF sampler enums (WebGL's numbers) as three's constants. */
const WRAP: Record<number, THREE.Wrapping> = { 33071: THREE.ClampToEdgeWrapping, 33648: THREE.MirroredRepeatWrapping, 10497: THREE.RepeatWrapping };
const MAG: Record<number, THREE.MagnificationTextureFilter> = { 9728: THREE.NearestFilter, 9729: THREE.LinearFilter };
const MIN: Record<number, THREE.MinificationTextureFilter> = {
  9728: THREE.NearestFilter, 9729: THREE.LinearFilter, 9984: THREE.NearestMipmapNearestFilter,
  9985: THREE.LinearMipmapNearestFilter, 9986: THREE.NearestMipmapLinearFilter, 9987: THREE.LinearMipmapLinearFilter,
};

/**
 * A three.js material of an imported mesh's material (`meshes[i].material`): its base colour
 * factor and, when it has one, its base colour texture. bitanim hands on the image's encoded
 * bytes; `decode` turns them into an image three can upload (in a browser:
 * `(image, type) => createImageBitmap(new Blob([image], { type }))`). The texture is sRGB, not flipped (glTF's UV origin is the image's
 * top-left corner, as three's GLTFLoader sets it), with the file's wraps and filters.
 */
export async function createPaletteMaterial(
  material: GltfMaterial | null,
  decode: (image: Uint8Array, mimeType: string) => Promise<THREE.Texture['image']>,
): Promise<THREE.MeshStandardMaterial> {
  // #region material
  const [r, g, b, a] = material?.baseColorFactor ?? [1, 1, 1, 1];
  const out = new THREE.MeshStandardMaterial({ color: new THREE.Color().setRGB(r, g, b, THREE.LinearSRGBColorSpace), opacity: a });
  out.side = material?.doubleSided ? THREE.DoubleSide : THREE.FrontSide;
  out.transparent = material?.alphaMode === 'BLEND';
  out.alphaTest = material?.alphaMode === 'MASK' ? material.alphaCutoff : 0;
  const texture = material?.baseColorTexture;
  if (texture) {
    const map = new THREE.Texture(await decode(texture.image, texture.mimeType));
    map.flipY = false; // glTF UVs start at the image's top-left corner
    map.colorSpace = THREE.SRGBColorSpace;
    map.wrapS = WRAP[texture.sampler.wrapS] ?? THREE.RepeatWrapping;
    map.wrapT = WRAP[texture.sampler.wrapT] ?? THREE.RepeatWrapping;
    map.magFilter = MAG[texture.sampler.magFilter ?? 9729] ?? THREE.LinearFilter;
    map.minFilter = MIN[texture.sampler.minFilter ?? 9987] ?? THREE.LinearMipmapLinearFilter;
    map.needsUpdate = true;
    out.map = map;
  }
  // #endregion
  return out;
}

/**
 * A `THREE.SkinnedMesh` of an imported mesh ({@link createPaletteGeometry}), skinned by the
 * palette of character `eid`, bound with `DetachedBindMode` and an identity bind matrix (the
 * palette is in the character's model space; place the character with the mesh's `position`
 * and `rotation`).
 */
export function createPaletteMesh(world: AnimationWorld, eid: number, mesh: SkinnedMeshData, material: THREE.Material = new THREE.MeshStandardMaterial()): THREE.SkinnedMesh {
  const geometry = createPaletteGeometry(mesh);
  // #region bind
  const jointCount = world.components.Character.jointCount[eid];
  const skinned = new THREE.SkinnedMesh(geometry, material);
  skinned.bindMode = THREE.DetachedBindMode;
  skinned.bind(new PaletteSkeleton(getSkinPalette(world, eid), jointCount), new THREE.Matrix4());
  skinned.frustumCulled = false; // three computes the bounds once, from the first pose
  // #endregion
  skinned.name = mesh.name;
  return skinned;
}

/**
 * A row of foxes walking in place, drawn by three.js: `scene` holds one SkinnedMesh per fox;
 * `frame(dt)` advances bitanim. Render `scene` after it — the renderer's `skeleton.update()`
 * uploads the palettes ({@link uploadPalettes} does the same without a renderer, as the test).
 */
export async function threeFoxes(foxGlb: Uint8Array, count = 3) {
  const { skeletons, clips, meshes } = await loadGltf(foxGlb, { scale: 'cm' });
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeletons[0].jointCount });
  const scene = new THREE.Scene();
  const foxes: { eid: number; mesh: THREE.SkinnedMesh }[] = [];
  const walk = clips.find((clip) => clip.name === 'Walk')!;
  for (let n = 0; n < count; n++) {
    const eid = spawnCharacter(world, skeletons[0], { x: n * 1.2 - (count - 1) * 0.6, yaw: n * 0.5 });
    play(world, eid, walk, { time: (n * 0.17) % walk.duration });
    const mesh = createPaletteMesh(world, eid, meshes[0], new THREE.MeshBasicMaterial({ color: 0xd08040 }));
    scene.add(mesh);
    foxes.push({ eid, mesh });
  }
  // Where each character stands: RootMotion's arrays, read in place (getRootTransform returns a new object).
  // #region place
  const { x, y, z, yaw } = world.components.RootMotion; // once
  function place(): void { // per frame, after step(world, dt)
    for (let i = 0; i < foxes.length; i++) {
      const { eid, mesh } = foxes[i];
      mesh.position.set(x[eid], y[eid], z[eid]);
      mesh.rotation.y = yaw[eid]; // bitanim's yaw turns +Z toward +X about +Y, as rotation.y does
    }
  }
  // #endregion
  place();
  return {
    world, scene, foxes, mesh: meshes[0],
    /** Advances the animation by `dt` seconds and places the meshes where the characters stand. */
    frame(dt: number): void {
      step(world, dt);
      place();
    },
  };
}

/**
 * What three's renderer does before drawing each skinned mesh: its skeleton's `update()`, here
 * the palette upload. Call it yourself only when drawing without a three.js renderer (or in a
 * test); with one, `renderer.render(scene, camera)` does it.
 */
export function uploadPalettes(meshes: readonly THREE.SkinnedMesh[]): void {
  for (let i = 0; i < meshes.length; i++) meshes[i].skeleton.update();
}
