/**
 * The glTF container layer: GLB chunks or `.gltf` JSON text → the parsed JSON object and the
 * binary chunk, and `data:` URIs → bytes. Nothing here knows what the JSON means.
 *
 * Every length is checked against the real byte length before it is used, so a truncated or
 * corrupted file gives an `AnimationError` naming the byte offset, never a RangeError or a
 * huge allocation.
 */
import { fail } from '../../assets/AnimationError.js';

/** The `where` of every error the glTF importer throws. */
export const WHERE = 'loadGltf';

/** `glTF` read as a little-endian uint32. */
const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const GLB_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

/**
 * The WHATWG `TextDecoder` (a global in browsers and Node ≥ 11), typed here because the
 * package builds against plain ES2022 without DOM or Node typings.
 */
const Utf8Decoder = (globalThis as unknown as {
  TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(bytes: Uint8Array): string };
}).TextDecoder;

/** A glTF file split into its JSON document and (for GLB) its binary chunk. */
export interface GltfContainer {
  readonly format: 'glb' | 'gltf';
  /** `JSON.parse` of the JSON chunk or text: not yet known to be glTF. */
  readonly json: unknown;
  /** The GLB BIN chunk (a view into the input), or null. */
  readonly bin: Uint8Array | null;
  /** Byte offset of the JSON text in the file, for error positions. */
  readonly jsonOffset: number;
}

/**
 * Splits `bytes` into JSON and binary chunk. The format is decided by the first four bytes:
 * the GLB magic `glTF`, otherwise the bytes must be a UTF-8 JSON object (a `.gltf` file).
 */
export function readContainer(bytes: Uint8Array): GltfContainer {
  if (!(bytes instanceof Uint8Array)) fail(WHERE, 'bytes', 'must be a Uint8Array holding a .glb or .gltf file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 4 && view.getUint32(0, true) === GLB_MAGIC) return readGlb(bytes, view);
  return { format: 'gltf', json: parseJson(bytes, 0, bytes.byteLength, 0, 'file'), bin: null, jsonOffset: 0 };
}

function readGlb(bytes: Uint8Array, view: DataView): GltfContainer {
  const size = bytes.byteLength;
  if (size < GLB_HEADER_BYTES + CHUNK_HEADER_BYTES) {
    fail(WHERE, 'GLB header', `is truncated: the file has ${size} bytes, a GLB needs at least ${GLB_HEADER_BYTES + CHUNK_HEADER_BYTES}`);
  }
  const version = view.getUint32(4, true);
  if (version !== 2) fail(WHERE, 'GLB header version (byte 4)', `is ${version}: only glTF 2.0 is supported`);
  const declared = view.getUint32(8, true);
  if (declared > size) fail(WHERE, 'GLB header length (byte 8)', `is ${declared} but the file has only ${size} bytes: the file is truncated`);
  if (declared < GLB_HEADER_BYTES + CHUNK_HEADER_BYTES) fail(WHERE, 'GLB header length (byte 8)', `is ${declared}: too small for a GLB`);

  let json: unknown = undefined;
  let jsonOffset = 0;
  let bin: Uint8Array | null = null;
  let offset = GLB_HEADER_BYTES;
  for (let chunk = 0; offset < declared; chunk++) {
    if (offset + CHUNK_HEADER_BYTES > declared) {
      fail(WHERE, `GLB chunk ${chunk} header (byte ${offset})`, `is truncated: ${declared - offset} bytes left of the declared length`);
    }
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + CHUNK_HEADER_BYTES;
    if (length > declared - start) {
      fail(WHERE, `GLB chunk ${chunk} (byte ${offset})`, `declares ${length} bytes but only ${declared - start} remain: the file is truncated`);
    }
    if (chunk === 0) {
      if (type !== CHUNK_JSON) fail(WHERE, `GLB chunk 0 type (byte ${offset + 4})`, `is 0x${type.toString(16)}: the first chunk must be JSON (0x4e4f534a)`);
      json = parseJson(bytes, start, length, start, 'GLB JSON chunk');
      jsonOffset = start;
    } else if (type === CHUNK_BIN && bin === null) {
      if (chunk !== 1) fail(WHERE, `GLB chunk ${chunk} (byte ${offset})`, 'is a BIN chunk: it must be the second chunk');
      bin = bytes.subarray(start, start + length);
    }
    // Unknown chunk types are skipped, as the specification requires.
    offset = start + length;
  }
  return { format: 'glb', json, bin, jsonOffset };
}

function parseJson(bytes: Uint8Array, start: number, length: number, fileOffset: number, label: string): unknown {
  let text: string;
  try {
    text = new Utf8Decoder('utf-8', { fatal: true }).decode(bytes.subarray(start, start + length));
  } catch {
    const magic = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    const looksJson = bytes.subarray(start, start + 16).some((b) => b === 0x7b /* { */);
    const what = label === 'file' && !looksJson
      ? `is neither GLB (magic "glTF", found bytes ${magic}) nor UTF-8 JSON`
      : 'is not valid UTF-8 (glTF JSON must be UTF-8)';
    fail(WHERE, label, what);
  }
  const first = text.search(/\S/);
  if (label === 'file' && (first < 0 || text[first] !== '{')) {
    const magic = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
    fail(WHERE, label, `is neither GLB (magic "glTF", found bytes ${magic}) nor a glTF JSON object`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? ` (near byte ${fileOffset + Number(position[1])})` : '';
    fail(WHERE, label, `is not valid JSON${where}: ${message}`);
  }
}

/**
 * Decodes a `data:` URI (`data:[<media type>][;base64],<data>`) to bytes. Base64 and
 * percent-encoded payloads are supported; anything else is an error naming `path`.
 */
export function decodeDataUri(uri: string, path: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0) fail(WHERE, path, 'is a data: URI without a "," before its data');
  const header = uri.slice(5, comma);
  const data = uri.slice(comma + 1);
  return /;base64$/i.test(header) ? decodeBase64(data, path) : decodePercent(data, path);
}

const BASE64 = new Int16Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  BASE64[c.charCodeAt(0)] = i;
});
BASE64['-'.charCodeAt(0)] = 62; // base64url, which some writers use
BASE64['_'.charCodeAt(0)] = 63;

function decodeBase64(data: string, path: string): Uint8Array {
  let end = data.length;
  while (end > 0 && data.charCodeAt(end - 1) === 61 /* = */) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < end; i++) {
    const code = data.charCodeAt(i);
    const v = code < 128 ? BASE64[code] : -1;
    if (v < 0) fail(WHERE, path, `has a character that is not base64 at data offset ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return o === out.length ? out : out.subarray(0, o);
}

function decodePercent(data: string, path: string): Uint8Array {
  const out = new Uint8Array(data.length);
  let o = 0;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code === 37 /* % */) {
      const byte = Number.parseInt(data.slice(i + 1, i + 3), 16);
      if (!/^[0-9a-f]{2}$/i.test(data.slice(i + 1, i + 3))) fail(WHERE, path, `has a bad percent escape at data offset ${i}`);
      out[o++] = byte;
      i += 2;
    } else if (code < 256) {
      out[o++] = code;
    } else {
      fail(WHERE, path, `has a non-byte character at data offset ${i}: binary data: URIs must be base64 or percent-encoded`);
    }
  }
  return out.subarray(0, o);
}
