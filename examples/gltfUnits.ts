/**
 * examples/gltfUnits.ts (docs/importing.md): a glTF in centimetres imported in metres, each clip
 * at its keys' own rate with the error of that resampling. test/examples/guides.test.ts runs it.
 */
// #region imports
import { loadGltf } from 'bitanim';

// #endregion

/** Each clip of the file as [name, frameRate, importError]. */
export async function clipRates(bytes: Uint8Array) {
  // #region load
  const fox = await loadGltf(bytes, { scale: 'cm' });       // centimetres → metres, clips at their keys' rate
  const rates = fox.clips.map((c) => [c.name, c.frameRate, c.importError]); // [['Survey', 24, 1.2e-7], ['Walk', 48, 7.6e-5], ['Run', 120, 3.1e-6]]
  // #endregion
  return rates;
}
