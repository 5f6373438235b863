/**
 * `EXT_meshopt_compression` (gltfpack `-c`, `gltf-transform meshopt`): compressed buffer views
 * decoded with meshoptimizer's decoder **before** the validator sees the document, so the
 * validator checks the decoded bytes like any others.
 *
 * Each buffer view with the extension becomes a plain view on a buffer of its own holding the
 * decoded bytes (`count × byteStride`, the view's `byteLength` of them); the fallback buffer
 * (`"fallback": true`, usually without data) is left unread. Every field the decoder relies on
 * is checked first against the specification
 * (https://github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Vendor/EXT_meshopt_compression):
 * the source range inside its buffer, `mode` (ATTRIBUTES: stride a multiple of 4 up to 256;
 * TRIANGLES: a multiple of 3 indices; TRIANGLES and INDICES: stride 2 or 4), `filter` (NONE,
 * OCTAHEDRAL: stride 4 or 8, QUATERNION: stride 8, EXPONENTIAL: a multiple of 4; filters only on
 * ATTRIBUTES) and the decoded size (at most {@link MAX_DECODED_BYTES} in all), so a malformed
 * file gives one `AnimationError` naming the view, never a huge allocation. Malformed
 * compressed data is the decoder's finding, reported the same way.
 *
 * The decoder (WebAssembly inside `meshoptimizer/decoder`) is imported only when a file uses
 * the extension. Every compressed view is decoded, used by an animation or skin or not.
 */
import { IssueList } from '../../assets/AnimationError.js';
import { decodeDataUri, WHERE } from './container.js';
import { isObject, show, type Json } from './validateJson.js';

/** The extension's name. */
export const MESHOPT = 'EXT_meshopt_compression';

/** Most bytes the compressed views of one file may decode to: 512 MiB. */
export const MAX_DECODED_BYTES = 512 * 1024 * 1024;

const MODES = ['ATTRIBUTES', 'TRIANGLES', 'INDICES'];
const FILTERS = ['NONE', 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL'];

/** Whether buffer `def` is an EXT_meshopt_compression fallback buffer (`extensions.EXT_meshopt_compression.fallback`). */
export function isMeshoptFallback(def: unknown): boolean {
  if (!isObject(def) || !isObject(def['extensions'])) return false;
  const ext = def['extensions'][MESHOPT];
  return isObject(ext) && ext['fallback'] === true;
}

/** The document with its compressed views rewritten, and the decoded buffers by buffer index. */
export interface MeshoptDecoded {
  readonly json: unknown;
  readonly decoded: ReadonlyMap<number, Uint8Array>;
}

/** One compressed view, checked. */
interface Compressed {
  readonly view: number;
  readonly path: string;
  readonly source: Uint8Array;
  readonly count: number;
  readonly stride: number;
  readonly mode: string;
  readonly filter: string;
  /** The view's own byteLength: what accessors may read of the decoded bytes. */
  readonly byteLength: number;
  readonly byteStride: unknown;
}

/**
 * Decodes every EXT_meshopt_compression buffer view of `json` (GLB chunk `bin`, external
 * resources by URI in `external`, or null when they are not read). Returns `json` itself when
 * no view is compressed; otherwise a shallow copy whose compressed views point at appended
 * buffers, whose bytes are in `decoded`. Malformed input that is not the extension's is left to
 * the validator.
 *
 * @throws AnimationError naming the view for a bad extension object, a source out of range, an
 * unsupported mode or filter, or data the decoder rejects.
 */
export async function decodeMeshopt(json: unknown, bin: Uint8Array | null, external: ReadonlyMap<string, Uint8Array> | null): Promise<MeshoptDecoded> {
  const none = { json, decoded: new Map<number, Uint8Array>() };
  if (!isObject(json) || !Array.isArray(json['bufferViews']) || !Array.isArray(json['buffers'])) return none;
  const views = json['bufferViews'] as unknown[];
  const buffers = json['buffers'] as unknown[];
  const issues = new IssueList(WHERE);
  const list: Compressed[] = [];
  let total = 0;
  views.forEach((def, v) => {
    if (!isObject(def) || !isObject(def['extensions']) || def['extensions'][MESHOPT] === undefined) return;
    const item = checkView(issues, def, v, buffers, bin, external);
    if (!item) return;
    total += item.count * item.stride;
    if (total > MAX_DECODED_BYTES) issues.add(item.path, `decodes to more than the ${MAX_DECODED_BYTES} bytes (512 MiB) allowed for one file's compressed views`);
    list.push(item);
  });
  issues.throwIfAny();
  if (list.length === 0) return none;

  const decoder = await loadDecoder(issues, list[0].path);
  const outViews = views.slice();
  const outBuffers = buffers.slice();
  const decoded = new Map<number, Uint8Array>();
  for (const item of list) {
    const target = new Uint8Array(item.count * item.stride);
    try {
      decoder.decodeGltfBuffer(target, item.count, item.stride, item.source, item.mode, item.filter === 'NONE' ? undefined : item.filter);
    } catch (error) {
      issues.add(item.path, `could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const buffer = outBuffers.length;
    outBuffers.push({ byteLength: item.byteLength });
    decoded.set(buffer, target.subarray(0, item.byteLength));
    const view: Json = { buffer, byteOffset: 0, byteLength: item.byteLength };
    if (item.byteStride !== undefined) view['byteStride'] = item.byteStride;
    outViews[item.view] = view;
  }
  issues.throwIfAny();
  return { json: { ...json, buffers: outBuffers, bufferViews: outViews }, decoded };
}

/** The checked fields of compressed view `v`, or null after recording its faults. */
function checkView(
  issues: IssueList, def: Json, v: number, buffers: readonly unknown[], bin: Uint8Array | null,
  external: ReadonlyMap<string, Uint8Array> | null,
): Compressed | null {
  const path = `bufferViews[${v}].extensions.${MESHOPT}`;
  const ext = (def['extensions'] as Json)[MESHOPT];
  if (!isObject(ext)) {
    issues.add(path, 'must be an object');
    return null;
  }
  const before = issues.issues.length;
  const int = (key: string, min: number, max: number, fallback?: number): number => {
    const value = ext[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      issues.add(`${path}.${key}`, `is ${show(value)}: must be an integer in [${min}, ${max}]`);
      return -1;
    }
    return value;
  };
  const buffer = int('buffer', 0, buffers.length - 1);
  const byteOffset = int('byteOffset', 0, Number.MAX_SAFE_INTEGER, 0);
  const byteLength = int('byteLength', 1, Number.MAX_SAFE_INTEGER);
  const stride = int('byteStride', 1, 256);
  const count = int('count', 1, MAX_DECODED_BYTES);
  const mode = ext['mode'];
  const filter = ext['filter'] ?? 'NONE';
  if (typeof mode !== 'string' || !MODES.includes(mode)) issues.add(`${path}.mode`, `is ${show(mode)}: must be ${MODES.join(', ')}`);
  if (typeof filter !== 'string' || !FILTERS.includes(filter)) issues.add(`${path}.filter`, `is ${show(filter)}: must be ${FILTERS.join(', ')}`);
  if (issues.issues.length > before) return null;
  const why = layoutFault(mode as string, filter as string, stride, count);
  if (why) issues.add(path, why);
  const viewLength = def['byteLength'];
  if (typeof viewLength !== 'number' || !Number.isInteger(viewLength) || viewLength < 1 || viewLength > count * stride) {
    issues.add(`bufferViews[${v}].byteLength`, `is ${show(viewLength)}: must be an integer in [1, ${count * stride}] (count × byteStride of its ${MESHOPT} data)`);
  }
  const bytes = bufferBytes(buffers[buffer], buffer, bin, external);
  if (typeof bytes === 'string') issues.add(`buffers[${buffer}] (read by ${path})`, bytes);
  else if (byteOffset + byteLength > bytes.byteLength) {
    issues.add(path, `bytes ${byteOffset}..${byteOffset + byteLength} are out of range of buffers[${buffer}] (${bytes.byteLength} bytes)`);
  }
  if (issues.issues.length > before || typeof bytes === 'string') return null;
  return {
    view: v, path, source: bytes.subarray(byteOffset, byteOffset + byteLength), count, stride,
    mode: mode as string, filter: filter as string, byteLength: viewLength as number, byteStride: def['byteStride'],
  };
}

/** Why `mode` and `filter` cannot decode elements of `stride` bytes (× `count`), or null. */
function layoutFault(mode: string, filter: string, stride: number, count: number): string | null {
  if (mode === 'ATTRIBUTES' && stride % 4 !== 0) return `has mode ATTRIBUTES with byteStride ${stride}: must be a multiple of 4`;
  if (mode !== 'ATTRIBUTES' && stride !== 2 && stride !== 4) return `has mode ${mode} with byteStride ${stride}: must be 2 or 4`;
  if (mode === 'TRIANGLES' && count % 3 !== 0) return `has mode TRIANGLES with count ${count}: not a whole number of triangles`;
  if (filter !== 'NONE' && mode !== 'ATTRIBUTES') return `has filter ${filter} with mode ${mode}: filters apply to ATTRIBUTES only`;
  if (filter === 'OCTAHEDRAL' && stride !== 4 && stride !== 8) return `has filter OCTAHEDRAL with byteStride ${stride}: must be 4 or 8`;
  if (filter === 'QUATERNION' && stride !== 8) return `has filter QUATERNION with byteStride ${stride}: must be 8`;
  return null;
}

/** Buffer `k`'s bytes (GLB chunk, data: URI, or an external resource already read), or why there are none. */
function bufferBytes(def: unknown, k: number, bin: Uint8Array | null, external: ReadonlyMap<string, Uint8Array> | null): Uint8Array | string {
  if (!isObject(def)) return 'must be an object';
  if (isMeshoptFallback(def)) return `is a fallback buffer: compressed data must come from a buffer with data`;
  const uri = def['uri'];
  if (uri === undefined) return k === 0 && bin ? bin : 'has no data (no uri and no GLB binary chunk)';
  if (typeof uri !== 'string') return 'has a uri that is not a string';
  if (/^data:/i.test(uri)) return decodeDataUri(uri, `buffers[${k}].uri`);
  const bytes = external?.get(uri);
  if (bytes) return bytes;
  return external
    ? `"${uri}" was not read`
    : `uri "${uri.slice(0, 80)}" is an external resource: not supported by loadGltf(bytes) (use loadGltfFile or loadGltfUrl)`;
}

/** The subset of meshoptimizer's MeshoptDecoder used here. */
interface Decoder {
  readonly supported: boolean;
  readonly ready: Promise<void>;
  decodeGltfBuffer(target: Uint8Array, count: number, size: number, source: Uint8Array, mode: string, filter?: string): void;
}

/** meshoptimizer's decoder, imported on first use and ready. */
async function loadDecoder(issues: IssueList, path: string): Promise<Decoder> {
  const { MeshoptDecoder } = (await import('meshoptimizer/decoder')) as { MeshoptDecoder: Decoder };
  if (!MeshoptDecoder.supported) {
    issues.add(path, 'needs WebAssembly, which this runtime does not have (meshoptimizer decodes in WebAssembly)');
    issues.throwIfAny();
  }
  await MeshoptDecoder.ready;
  return MeshoptDecoder;
}
