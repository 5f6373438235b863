/**
 * examples/loadingGltfFiles.ts (docs/importing.md): one model three ways — a .glb in memory, a
 * .gltf with its .bin beside it on disk (Node) and the same files over HTTP (a browser, or
 * any `fetch`). test/examples/guides.test.ts writes Fox as .gltf + .bin, serves it and runs it.
 */
// #region imports
import { loadGltf, loadGltfFile, loadGltfUrl } from 'bitanim';

// #endregion

/** `bytes`: a .glb; `models`: the folder holding fox/Fox.gltf; the page serves it at /models/fox/. */
export async function loadThreeWays(bytes: Uint8Array, models: string) {
  // #region load
  const a = await loadGltf(bytes, { scale: 'cm' });                        // a .glb (or .gltf with data: buffers) in memory
  const b = await loadGltfFile(`${models}/fox/Fox.gltf`, { scale: 'cm' }); // Node: reads Fox.bin beside it
  const c = await loadGltfUrl('/models/fox/Fox.gltf', { scale: 'cm' });    // browser (any fetch): fetches /models/fox/Fox.bin and its texture
  // #endregion
  return { a, b, c };
}
