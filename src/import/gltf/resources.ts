/**
 * External resources of a `.gltf` (or a GLB's second buffer): the URIs read, before validation,
 * through a {@link ResourceReader} that `loadGltfFile` (files beside the file) or `loadGltfUrl`
 * (URLs beside the URL) supplies and that decides what may be read. Buffers are read, and the
 * images that skinned primitives' base colour textures use (their bytes, never decoded; other
 * images are never opened); an EXT_meshopt_compression fallback buffer is not, its views being
 * decoded from the compressed buffer.
 */
import { MAX_IMAGE_BYTES, usedImageUris } from './materials.js';
import { isMeshoptFallback } from './meshopt.js';
import { isObject } from './validateJson.js';

/**
 * Reads one external resource. `uri` is as the file writes it (percent-encoded, relative),
 * `path` its JSON path for messages (`buffers[0].uri`), `byteLength` the buffer's declared
 * length (a reader may stop there). Throws an `AnimationError` naming the URI and the file when
 * the URI is refused or cannot be read.
 */
export type ResourceReader = (uri: string, path: string, byteLength: number) => Promise<Uint8Array>;

/**
 * The bytes of every external buffer URI of `json`, and of the used images' URIs (see the
 * module comment; read up to 256 MiB), by URI, each read once. Buffers the validator will
 * refuse anyway (not an object, byteLength not a positive integer) are not read.
 */
export async function readExternalBuffers(json: unknown, reader: ResourceReader): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (!isObject(json)) return out;
  const buffers = Array.isArray(json['buffers']) ? json['buffers'] as unknown[] : [];
  for (let i = 0; i < buffers.length; i++) {
    const def = buffers[i];
    if (!isObject(def) || isMeshoptFallback(def)) continue;
    const uri = def['uri'];
    const byteLength = def['byteLength'];
    if (typeof uri !== 'string' || /^data:/i.test(uri) || out.has(uri)) continue;
    if (typeof byteLength !== 'number' || !Number.isSafeInteger(byteLength) || byteLength < 1) continue;
    out.set(uri, await reader(uri, `buffers[${i}].uri`, byteLength));
  }
  for (const [uri, path] of usedImageUris(json)) {
    if (!out.has(uri)) out.set(uri, await reader(uri, path, MAX_IMAGE_BYTES));
  }
  return out;
}
