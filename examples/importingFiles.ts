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
