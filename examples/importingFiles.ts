/**
 * examples/importingFiles.ts (docs/importing.md): the Fox (glTF, centimetres) and a CMU walk
 * (BVH) from the repository's assets/, read relative to the working directory (the
 * repository's root, as `npm test` runs). test/examples/guides.test.ts runs it.
 */
// #region imports
import { readFile } from 'node:fs/promises';
import { loadGltf, parseBvh } from 'bitanim';

// #endregion

/** Everything both imports return. */
export async function importFoxAndWalk() {
  // #region load
  const { skeletons, clips, meshes, warnings } = await loadGltf(await readFile('assets/Fox.glb'), { scale: 'cm' });
  const { skeleton, clip } = parseBvh(await readFile('assets/cmu_131_01_start_walk_stop.bvh', 'utf8'), { scale: 0.056444 }); // CMU units → metres
  // #endregion
  return { skeletons, clips, meshes, warnings, skeleton, clip };
}

/** What a renderer needs to texture the Fox: its UVs, colour, image bytes (never decoded) and sampler. */
export async function foxTexture() {
  const { meshes } = await loadGltf(await readFile('assets/Fox.glb'), { scale: 'cm' });
  // #region materials
  const { uvs, material } = meshes[0]!;                     // uvs: V×2 TEXCOORD_0, or null
  const colour = material?.baseColorFactor ?? [1, 1, 1, 1]; // linear RGBA
  const texture = material?.baseColorTexture;               // null when the material has none
  const blob = texture && new Blob([texture.image], { type: texture.mimeType }); // e.g. for createImageBitmap(blob)
  // texture.sampler: { magFilter?, minFilter?, wrapS, wrapT } as WebGL enums (10497 = REPEAT)
  // #endregion
  return { uvs, colour, texture, blob };
}
