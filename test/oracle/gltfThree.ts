/**
 * The three.js side of the glTF skinning oracle (`gltfSkinning.test.ts`): the real asset bytes
 * parsed by three's own `GLTFLoader` in Node, one clip posed alone by an `AnimationMixer`, and
 * three's skinned vertex positions (`SkinnedMesh.applyBoneTransform`) in glTF world space.
 * Nothing here reads bitanim's importer or runtime.
 */
import * as THREE from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';

/** The real assets (the repository's `assets/`, see its README) and `readAsset('Fox.glb')`, their bytes. */
export { ASSETS_URL as ASSET_DIR, readAsset } from '../support/assets.js';

/** A file as three.js loaded it. */
export interface ThreeGltf {
  readonly gltf: GLTF;
  /** Every `SkinnedMesh` (one per skinned glTF primitive), in scene traversal order. */
  readonly meshes: THREE.SkinnedMesh[];
  /** glTF texture indices whose image decoding was skipped (see {@link parseWithThree}). */
  readonly skippedTextures: readonly number[];
  /** Every object's position, quaternion and scale as loaded: the glTF nodes' rest TRS. */
  readonly rest: ReadonlyMap<THREE.Object3D, readonly [THREE.Vector3, THREE.Quaternion, THREE.Vector3]>;
}

/**
 * Parses a GLB with three's `GLTFLoader.parseAsync`, in Node, from exactly these bytes.
 *
 * Images are skipped by a loader plugin rather than by editing the file: GLTFLoader asks its
 * plugins first for every texture (`getDependency('texture')` → `_invokeOne(ext.loadTexture)`),
 * and a plugin answering `Promise<null>` makes `assignTexture` leave the map out
 * (`if (!texture) return null`). So three never reaches `loadImageSource`, which needs the
 * DOM (`self.URL`, `Image`/`createImageBitmap`) and throws "self is not defined" in Node on
 * Fox.glb's PNG. Geometry, skins, nodes and animations are parsed untouched; no DOM shims.
 * With `meshopt`, `EXT_meshopt_compression` buffer views are decoded by three's `MeshoptDecoder`
 * (`three/examples/jsm/libs/meshopt_decoder.module.js`).
 */
export async function parseWithThree(bytes: Uint8Array, options: { meshopt?: boolean } = {}): Promise<ThreeGltf> {
  const skippedTextures: number[] = [];
  const loader = new GLTFLoader();
  // EXT_meshopt_compression: three's own decoder (WebAssembly, runs in Node), as a web page sets it.
  if (options.meshopt) loader.setMeshoptDecoder(MeshoptDecoder);
  loader.register(() => ({
    name: 'bitanim_oracle_skip_textures',
    loadTexture: (textureIndex: number) => {
      skippedTextures.push(textureIndex);
      // The typings say Promise<Texture>; GLTFLoader itself handles a null texture (see above).
      return Promise.resolve(null) as unknown as Promise<THREE.Texture>;
    },
  }));
  const buffer = bytes.slice().buffer; // an ArrayBuffer holding exactly the file's bytes
  const gltf = await loader.parseAsync(buffer, '');
  const meshes: THREE.SkinnedMesh[] = [];
  const rest = new Map<THREE.Object3D, readonly [THREE.Vector3, THREE.Quaternion, THREE.Vector3]>();
  gltf.scene.traverse((object) => {
    rest.set(object, [object.position.clone(), object.quaternion.clone(), object.scale.clone()]);
    if ((object as THREE.SkinnedMesh).isSkinnedMesh) meshes.push(object as THREE.SkinnedMesh);
  });
  gltf.scene.updateMatrixWorld(true);
  return { gltf, meshes, skippedTextures, rest };
}

/**
 * Poses the scene with `clip` alone at `time`: every node back to its rest TRS (so joints the
 * clip does not animate keep their rest pose, as in bitanim), a fresh `AnimationMixer` with one
 * action at weight 1, `mixer.setTime(time)`, then `scene.updateMatrixWorld(true)`.
 * @returns the action's time after the update (equal to `time` for `time < clip.duration`).
 */
export function poseThree(three: ThreeGltf, clip: THREE.AnimationClip, time: number): number {
  for (const [object, [position, quaternion, scale]] of three.rest) {
    object.position.copy(position);
    object.quaternion.copy(quaternion);
    object.scale.copy(scale);
  }
  const mixer = new THREE.AnimationMixer(three.gltf.scene);
  const action = mixer.clipAction(clip);
  action.play();
  mixer.setTime(time);
  three.gltf.scene.updateMatrixWorld(true);
  return action.time;
}

/**
 * three's skinned position of every vertex of `mesh`, in glTF world space, into `out` (V×3):
 * `mesh.applyBoneTransform(i, v)` gives it in the mesh's space, `mesh.matrixWorld` brings it to
 * world. The scene must be posed and its world matrices updated ({@link poseThree}).
 *
 * With GLTFLoader's `mesh.bind(skeleton, identity)` and the default attached bind mode
 * (`bindMatrixInverse = inverse(matrixWorld)`), this is Σᵢ wᵢ · boneᵢ.matrixWorld ·
 * boneInverseᵢ · v: the glTF spec's skinned position, the mesh node's own transform ignored.
 */
export function skinWithThree(mesh: THREE.SkinnedMesh, out: Float32Array): void {
  const position = mesh.geometry.getAttribute('position');
  const v = new THREE.Vector3();
  for (let i = 0; i < position.count; i++) {
    v.fromBufferAttribute(position, i);
    mesh.applyBoneTransform(i, v);
    v.applyMatrix4(mesh.matrixWorld);
    out[3 * i] = v.x;
    out[3 * i + 1] = v.y;
    out[3 * i + 2] = v.z;
  }
}

/**
 * What {@link skinWithThree} would give had the mesh been bound the way three binds by default
 * (`SkinnedMesh.bind(skeleton)` without a bind matrix uses the mesh's world matrix), i.e. the
 * mesh node's world transform M applied to the bind-pose vertex before skinning:
 * Σᵢ wᵢ · boneᵢ.matrixWorld · boneInverseᵢ · M · v. The glTF spec ignores the skinned node's
 * transform, so this is the non-spec reading; the oracle measures how far it is.
 * The mesh is left as it was.
 */
export function skinWithThreeBoundAtNode(mesh: THREE.SkinnedMesh, out: Float32Array): void {
  const saved = mesh.bindMatrix.clone();
  try {
    mesh.bindMatrix.copy(mesh.matrixWorld); // bindMatrixInverse stays inverse(matrixWorld): attached mode
    skinWithThree(mesh, out);
  } finally {
    mesh.bindMatrix.copy(saved);
  }
}

/** Key times of a three clip: the sorted union of its tracks' times. */
export function keyTimes(clip: THREE.AnimationClip): number[] {
  const times = new Set<number>();
  for (const track of clip.tracks) for (const t of track.times) times.add(t);
  return [...times].sort((a, b) => a - b);
}
