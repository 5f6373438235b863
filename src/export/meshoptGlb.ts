/**
 * A GLB's buffer views compressed with `EXT_meshopt_compression`
 * (https://github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Vendor/EXT_meshopt_compression),
 * as gltfpack writes them: meshoptimizer's vertex codec (`ATTRIBUTES`: byte-wise deltas of
 * consecutive elements), its index codec (`TRIANGLES`, `INDICES`) and, per accessor, the
 * lossy filters the writer asked for (`QUATERNION` for unit rotations, `EXPONENTIAL` for
 * floats at a chosen mantissa width). Offline tooling (`bitanim lod --out`): allocates freely.
 *
 * **Input.** The GLB @gltf-transform/core writes: one buffer (the BIN chunk). An accessor asks
 * for a filter through `extras.bitanimMeshopt` (`{ filter, bits }`, set by the writer and
 * removed here); every other accessor is compressed losslessly (filter `NONE`).
 *
 * **Layout.** Accessors are grouped by use (vertex attributes, indices, other), codec mode,
 * filter, bits and element stride; each group becomes one buffer view on a *fallback* buffer
 * (`"fallback": true`, no data: the decoded bytes' place) whose extension object points at the
 * compressed stream in the BIN chunk. Images and sparse or unaligned accessors keep plain views
 * in the BIN chunk. The extension is in `extensionsRequired`: a fallback buffer with the
 * decoded bytes would make the file larger than the uncompressed one, so it holds none and the
 * file cannot be read without the extension (three.js: `GLTFLoader.setMeshoptDecoder`).
 */
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { MeshoptEncoder } from 'meshoptimizer/encoder';

/** The extension's name. */
export const EXT_MESHOPT = 'EXT_meshopt_compression';

/** A lossy filter one accessor asks for (see {@link compressGlb}). */
export interface MeshoptFilter {
  /** `QUATERNION`: unit VEC4 floats stored as normalized int16 (`bits` 4–16 per component); `EXPONENTIAL`: floats with `bits` (1–24) of mantissa. */
  readonly filter: 'QUATERNION' | 'EXPONENTIAL';
  readonly bits: number;
  /** EXPONENTIAL: meshoptimizer's exponent sharing (default `'Separate'`: each component its own, so `bits` are relative to it; `'SharedComponent'`: one per component over the stream, a fixed grid). */
  readonly mode?: 'Separate' | 'SharedComponent';
}

/** The `extras` key through which an accessor asks for a {@link MeshoptFilter}. */
export const FILTER_EXTRAS = 'bitanimMeshopt';

/** One buffer view of the written file: what it holds and its bytes before and after. */
export interface CompressedView {
  /** `vertex` (attributes and morph targets), `index`, `animation` (sampler inputs and outputs), `other` (inverse bind matrices, …), `image` or `plain` (left uncompressed). */
  readonly use: 'vertex' | 'index' | 'animation' | 'other' | 'image' | 'plain';
  readonly mode: 'ATTRIBUTES' | 'TRIANGLES' | 'INDICES' | null;
  readonly filter: 'NONE' | 'QUATERNION' | 'EXPONENTIAL' | 'OCTAHEDRAL' | null;
  /** Decoded bytes. */
  readonly bytes: number;
  /** Bytes in the file. */
  readonly stored: number;
}

/** What {@link compressGlb} wrote. */
export interface CompressedGlb {
  readonly glb: Uint8Array;
  /** Bytes of the JSON chunk. */
  readonly jsonBytes: number;
  readonly views: readonly CompressedView[];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const BYTE = 5120;
const SHORT = 5122;
/** Integer normals need it (core glTF 2.0 wants float normals). */
const KHR_QUANTIZATION = 'KHR_mesh_quantization';
const FLOAT = 5126;

/** Resolves once meshoptimizer's encoder and decoder (WebAssembly) are ready. */
export async function meshoptReady(): Promise<void> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
}

/**
 * `values` (`count` vectors of `size` floats) through `filter` and back, as a decoder reads
 * them: the decoded floats (normalized int16 divided out for `QUATERNION`). For choosing bits.
 * Call {@link meshoptReady} first.
 */
export function roundTripFilter(values: Float32Array, count: number, size: number, filter: MeshoptFilter): Float32Array {
  const { data, stride } = applyFilter(values, count, size, filter);
  const decoded = new Uint8Array(count * stride);
  MeshoptDecoder.decodeGltfBuffer(decoded, count, stride, MeshoptEncoder.encodeGltfBuffer(data, count, stride, 'ATTRIBUTES'), 'ATTRIBUTES', filter.filter);
  if (filter.filter === 'EXPONENTIAL') return new Float32Array(decoded.buffer, 0, count * size).slice();
  const shorts = new Int16Array(decoded.buffer, 0, count * 4);
  const out = new Float32Array(count * 4);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(shorts[i] / 32767, -1);
  return out;
}

/** Bytes the vertex codec stores for `count` elements of `stride` bytes filtered by `filter` (or raw). */
export function compressedSize(values: Float32Array, count: number, size: number, filter: MeshoptFilter | null): number {
  if (filter === null) return MeshoptEncoder.encodeGltfBuffer(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), count, 4 * size, 'ATTRIBUTES').byteLength;
  const { data, stride } = applyFilter(values, count, size, filter);
  return MeshoptEncoder.encodeGltfBuffer(data, count, stride, 'ATTRIBUTES').byteLength;
}

function applyFilter(values: Float32Array, count: number, size: number, filter: MeshoptFilter): { data: Uint8Array; stride: number } {
  if (filter.filter === 'QUATERNION') return { data: MeshoptEncoder.encodeFilterQuat(values, count, 8, filter.bits), stride: 8 };
  return { data: MeshoptEncoder.encodeFilterExp(values, count, 4 * size, filter.bits, filter.mode ?? 'Separate'), stride: 4 * size };
}

/** Options of {@link compressGlb}. */
export interface CompressOptions {
  /**
   * Store primitives' float `NORMAL`s with the `OCTAHEDRAL` filter at this many bits per
   * component (8: normalized int8, gltfpack's default; 9–16: int16), which needs
   * `KHR_mesh_quantization` (added to `extensionsRequired`); default null: normals lossless.
   */
  normalBits?: number | null;
  /**
   * Store float `POSITION`s and morph-target `POSITION` deltas with the `EXPONENTIAL` filter
   * (one exponent per component: a fixed grid), at the fewest bits whose round trip is within
   * this fraction of the primitive's largest extent (e.g. 2⁻¹⁶; gltfpack's default 14-bit
   * positions are within 2⁻¹⁵); min and max are recomputed from the stored values. Default
   * null: positions lossless.
   */
  positionPrecision?: number | null;
}

/**
 * Compresses the buffer views of `glb` (see the module comment) and returns the new GLB.
 * Call {@link meshoptReady} first. Accessors' `extras.bitanimMeshopt` are consumed.
 * @throws Error for a GLB that is not one buffer in its BIN chunk (what @gltf-transform writes).
 */
export function compressGlb(glb: Uint8Array, options: CompressOptions = {}): CompressedGlb {
  const normalBits = options.normalBits ?? null;
  const positionPrecision = options.positionPrecision ?? null;
  const { json, bin } = splitGlb(glb);
  const buffers: Json[] = json['buffers'] ?? [];
  if (buffers.length !== 1 || buffers[0]['uri'] !== undefined) throw new Error('compressGlb: expects one buffer, in the GLB BIN chunk');
  const accessors: Json[] = json['accessors'] ?? [];
  const views: Json[] = json['bufferViews'] ?? [];

  // The use of every accessor, and which primitives' indices are triangle lists.
  const use = new Map<number, 'vertex' | 'index' | 'animation' | 'other'>();
  const triangles = new Map<number, boolean>();
  const normals = new Set<number>();
  /** POSITION accessors (bases and morph deltas) and the largest extent of their primitives. */
  const positions = new Map<number, number>();
  for (const mesh of json['meshes'] ?? []) {
    for (const p of mesh['primitives'] ?? []) {
      for (const a of Object.values(p['attributes'] ?? {})) use.set(a as number, 'vertex');
      if (p['attributes']?.['NORMAL'] !== undefined) normals.add(p['attributes']['NORMAL']);
      const base = p['attributes']?.['POSITION'];
      if (base !== undefined) {
        const extent = positionExtent(accessors[base]);
        positions.set(base, Math.max(extent, positions.get(base) ?? 0));
        for (const target of p['targets'] ?? []) if (target['POSITION'] !== undefined) positions.set(target['POSITION'], Math.max(extent, positions.get(target['POSITION']) ?? 0));
      }
      for (const target of p['targets'] ?? []) for (const a of Object.values(target)) use.set(a as number, 'vertex');
      if (p['indices'] !== undefined) {
        use.set(p['indices'], 'index');
        triangles.set(p['indices'], (triangles.get(p['indices']) ?? true) && (p['mode'] ?? 4) === 4);
      }
    }
  }
  for (const animation of json['animations'] ?? []) {
    for (const s of animation['samplers'] ?? []) {
      use.set(s['input'], 'animation');
      use.set(s['output'], 'animation');
    }
  }

  // Views holding anything but whole, aligned, non-sparse accessors stay as they are.
  const accessorsOf = new Map<number, number[]>();
  accessors.forEach((a, i) => {
    if (a['bufferView'] !== undefined) accessorsOf.set(a['bufferView'], [...(accessorsOf.get(a['bufferView']) ?? []), i]);
    if (a['sparse'] !== undefined) for (const v of [a['sparse']['indices']['bufferView'], a['sparse']['values']['bufferView']]) accessorsOf.set(v, [...(accessorsOf.get(v) ?? []), -1]);
  });

  let quantized = false;
  interface Group { key: string; use: CompressedView['use']; mode: 'ATTRIBUTES' | 'TRIANGLES' | 'INDICES'; filter: { filter: 'QUATERNION' | 'EXPONENTIAL' | 'OCTAHEDRAL'; bits: number } | null; stride: number; target?: number; parts: Uint8Array[]; members: { accessor: number; element: number }[]; count: number }
  const groups = new Map<string, Group>();
  const plain: { view: number; use: CompressedView['use'] }[] = [];
  const imageViews = new Set<number>((json['images'] ?? []).map((i: Json) => i['bufferView']).filter((v: unknown) => v !== undefined));
  views.forEach((view, v) => {
    const list = accessorsOf.get(v) ?? [];
    const compressible = !imageViews.has(v) && list.length > 0 && list.every((i) => i >= 0 && elementLayout(accessors[i], view, use.get(i), triangles.get(i)) !== null);
    if (!compressible) {
      plain.push({ view: v, use: imageViews.has(v) ? 'image' : 'plain' });
      return;
    }
    for (const i of list) {
      const a = accessors[i];
      const layout = elementLayout(a, view, use.get(i), triangles.get(i))!;
      const requested = a['extras']?.[FILTER_EXTRAS] as MeshoptFilter | undefined;
      const octahedral = normalBits !== null && normals.has(i) && a['componentType'] === FLOAT && a['type'] === 'VEC3';
      const data = readElements(bin, view, a, layout.elementBytes, layout.stride);
      const position = positionPrecision !== null && positions.has(i) && a['componentType'] === FLOAT && a['type'] === 'VEC3' && positions.get(i)! > 0
        ? positionFilter(data, a['count'], positionPrecision * positions.get(i)!) : null;
      const filter: Group['filter'] = octahedral ? { filter: 'OCTAHEDRAL', bits: normalBits } : position ?? (requested && layout.mode === 'ATTRIBUTES' && a['componentType'] === FLOAT ? requested : null);
      let encoded = data, stride = layout.stride;
      if (filter?.filter === 'OCTAHEDRAL') {
        // Padded to four components (the filter's input), stored as normalized int8 or int16.
        const xyz = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
        const padded = new Float32Array(a['count'] * 4);
        for (let e = 0; e < a['count']; e++) for (let c = 0; c < 3; c++) padded[e * 4 + c] = xyz[e * 3 + c];
        stride = filter.bits > 8 ? 8 : 4;
        encoded = MeshoptEncoder.encodeFilterOct(padded, a['count'], stride, filter.bits);
        a['componentType'] = filter.bits > 8 ? SHORT : BYTE;
        a['normalized'] = true;
        quantized = true;
      } else if (filter) {
        const size = TYPE_SIZE[a['type']];
        const floats = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
        ({ data: encoded, stride } = applyFilter(floats, a['count'], size, filter as MeshoptFilter));
        if (filter === position && a['min'] !== undefined) {
          // The bounds of the values a decoder gets.
          const stored = roundTripFilter(floats, a['count'], 3, position);
          const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
          for (let e = 0; e < stored.length; e += 3) for (let c = 0; c < 3; c++) {
            min[c] = Math.min(min[c], stored[e + c]);
            max[c] = Math.max(max[c], stored[e + c]);
          }
          a['min'] = min;
          a['max'] = max;
        }
        if (filter.filter === 'QUATERNION') {
          a['componentType'] = SHORT;
          a['normalized'] = true;
          delete a['min'];
          delete a['max'];
        }
      }
      const u = use.get(i) ?? 'other';
      const key = [u, layout.mode, filter?.filter ?? 'NONE', stride].join(':');
      let group = groups.get(key);
      if (!group) {
        group = { key, use: u, mode: layout.mode, filter, stride, parts: [], members: [], count: 0, ...(view['target'] !== undefined ? { target: view['target'] } : {}) };
        groups.set(key, group);
      }
      group.members.push({ accessor: i, element: group.count });
      group.parts.push(encoded);
      group.count += a['count'];
      if (a['extras']) {
        delete a['extras'][FILTER_EXTRAS];
        if (Object.keys(a['extras']).length === 0) delete a['extras'];
      }
    }
  });

  // The new BIN chunk: plain views first (as they were), then the compressed streams.
  const chunks: Uint8Array[] = [];
  let binLength = 0;
  const append = (bytes: Uint8Array): number => {
    const offset = binLength;
    chunks.push(bytes);
    binLength += bytes.byteLength;
    const pad = (4 - (binLength % 4)) % 4;
    if (pad) {
      chunks.push(new Uint8Array(pad));
      binLength += pad;
    }
    return offset;
  };
  const newViews: Json[] = [];
  const remap = new Map<number, number>();
  const report: CompressedView[] = [];
  for (const { view: v, use: u } of plain) {
    const view = views[v];
    const bytes = bin.subarray(view['byteOffset'] ?? 0, (view['byteOffset'] ?? 0) + view['byteLength']);
    remap.set(v, newViews.length);
    newViews.push({ ...view, buffer: 0, byteOffset: append(bytes) });
    report.push({ use: u, mode: null, filter: null, bytes: view['byteLength'], stored: view['byteLength'] });
  }
  let fallbackLength = 0;
  const moved = new Set<number>();
  for (const group of groups.values()) {
    const data = concat(group.parts);
    const compressed = MeshoptEncoder.encodeGltfBuffer(data, group.count, group.stride, group.mode);
    const offset = append(compressed);
    const index = newViews.length;
    const view: Json = {
      buffer: 1, byteOffset: fallbackLength, byteLength: data.byteLength,
      extensions: {
        [EXT_MESHOPT]: {
          buffer: 0, byteOffset: offset, byteLength: compressed.byteLength, byteStride: group.stride, count: group.count, mode: group.mode,
          ...(group.filter ? { filter: group.filter.filter } : {}),
        },
      },
    };
    if (group.use === 'vertex') view['byteStride'] = group.stride;
    if (group.target !== undefined) view['target'] = group.target;
    newViews.push(view);
    fallbackLength += data.byteLength + ((4 - (data.byteLength % 4)) % 4);
    for (const { accessor, element } of group.members) {
      moved.add(accessor);
      accessors[accessor]['bufferView'] = index;
      accessors[accessor]['byteOffset'] = element * group.stride;
      if (accessors[accessor]['byteOffset'] === 0) delete accessors[accessor]['byteOffset'];
    }
    report.push({ use: group.use, mode: group.mode, filter: group.filter?.filter ?? 'NONE', bytes: data.byteLength, stored: compressed.byteLength });
  }
  accessors.forEach((a, i) => {
    if (!moved.has(i) && a['bufferView'] !== undefined) a['bufferView'] = remap.get(a['bufferView']);
    if (a['sparse']) {
      a['sparse']['indices']['bufferView'] = remap.get(a['sparse']['indices']['bufferView']);
      a['sparse']['values']['bufferView'] = remap.get(a['sparse']['values']['bufferView']);
    }
  });
  for (const image of json['images'] ?? []) if (image['bufferView'] !== undefined) image['bufferView'] = remap.get(image['bufferView']);
  json['bufferViews'] = newViews;
  json['buffers'] = [{ byteLength: binLength }, { byteLength: fallbackLength, extensions: { [EXT_MESHOPT]: { fallback: true } } }];
  const required = [...(groups.size > 0 ? [EXT_MESHOPT] : []), ...(quantized ? [KHR_QUANTIZATION] : [])];
  if (required.length > 0) {
    json['extensionsUsed'] = [...new Set([...(json['extensionsUsed'] ?? []), ...required])];
    json['extensionsRequired'] = [...new Set([...(json['extensionsRequired'] ?? []), ...required])];
  }
  const out = joinGlb(json, concat(chunks));
  return { glb: out.glb, jsonBytes: out.jsonBytes, views: report };
}

/** Largest side of a POSITION accessor's box (its min and max), 0 without them. */
function positionExtent(a: Json): number {
  const min = a?.['min'], max = a?.['max'];
  if (!Array.isArray(min) || !Array.isArray(max)) return 0;
  let extent = 0;
  for (let c = 0; c < 3; c++) extent = Math.max(extent, Number(max[c]) - Number(min[c]));
  return Number.isFinite(extent) ? extent : 0;
}

/** The fewest EXPONENTIAL bits (one exponent per component) whose round trip of `data` (float VEC3) stays within `precision`. */
function positionFilter(data: Uint8Array, count: number, precision: number): MeshoptFilter {
  const floats = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  for (let bits = 8; bits < 24; bits++) {
    const filter: MeshoptFilter = { filter: 'EXPONENTIAL', bits, mode: 'SharedComponent' };
    const stored = roundTripFilter(floats, count, 3, filter);
    let worst = 0;
    for (let k = 0; k < floats.length; k++) worst = Math.max(worst, Math.abs(stored[k] - floats[k]));
    if (worst <= precision) return filter;
  }
  return { filter: 'EXPONENTIAL', bits: 24, mode: 'SharedComponent' };
}

/**
 * How accessor `a` is read from `view` and stored in a compressed stream: its element's bytes,
 * the stream's stride (a multiple of 4 for ATTRIBUTES, 2 or 4 for indices) and the codec
 * mode; null when it cannot be (interleaved with other accessors, odd sizes).
 */
function elementLayout(a: Json, view: Json, u: string | undefined, triangleList: boolean | undefined): { elementBytes: number; stride: number; mode: 'ATTRIBUTES' | 'TRIANGLES' | 'INDICES' } | null {
  const component = COMPONENT_BYTES[a['componentType']];
  const size = TYPE_SIZE[a['type']];
  if (!component || !size || a['type'].startsWith('MAT') && component < 4) return null;
  const elementBytes = component * size;
  const viewStride = view['byteStride'] ?? elementBytes;
  if (viewStride !== elementBytes) return null; // interleaved: left as it is
  if (u === 'index') {
    if (component === 1) return null;
    return { elementBytes, stride: component, mode: triangleList && a['count'] % 3 === 0 ? 'TRIANGLES' : 'INDICES' };
  }
  const stride = Math.ceil(elementBytes / 4) * 4;
  if (stride !== elementBytes && u !== 'vertex') return null; // padding needs a byteStride, which only vertex views have
  if (stride > 256) return null;
  return { elementBytes, stride, mode: 'ATTRIBUTES' };
}

/** The accessor's elements copied out of `view`, each padded to `stride` bytes. */
function readElements(bin: Uint8Array, view: Json, a: Json, elementBytes: number, stride: number): Uint8Array {
  const start = (view['byteOffset'] ?? 0) + (a['byteOffset'] ?? 0);
  const count = a['count'];
  const out = new Uint8Array(count * stride);
  if (stride === elementBytes) out.set(bin.subarray(start, start + count * stride));
  else for (let e = 0; e < count; e++) out.set(bin.subarray(start + e * elementBytes, start + (e + 1) * elementBytes), e * stride);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.byteLength;
  const out = new Uint8Array(length);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

function splitGlb(glb: Uint8Array): { json: Json; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Json;
  const binStart = 20 + jsonLength;
  const bin = binStart + 8 <= glb.byteLength ? glb.subarray(binStart + 8, binStart + 8 + view.getUint32(binStart, true)) : new Uint8Array(0);
  return { json, bin };
}

function joinGlb(json: Json, bin: Uint8Array): { glb: Uint8Array; jsonBytes: number } {
  let text: Uint8Array = new TextEncoder().encode(JSON.stringify(json));
  const jsonPad = (4 - (text.byteLength % 4)) % 4;
  if (jsonPad) text = concat([text, new TextEncoder().encode(' '.repeat(jsonPad))]);
  const total = 12 + 8 + text.byteLength + (bin.byteLength ? 8 + bin.byteLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, text.byteLength, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(text, 20);
  if (bin.byteLength) {
    const o = 20 + text.byteLength;
    view.setUint32(o, bin.byteLength, true);
    view.setUint32(o + 4, 0x004e4942, true); // 'BIN\0'
    out.set(bin, o + 8);
  }
  return { glb: out, jsonBytes: text.byteLength };
}
