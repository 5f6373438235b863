/**
 * The materials of skinned primitives (the **Materials** paragraph of `../gltf.ts`): base colour
 * factor, base colour texture (the image's encoded bytes, MIME type and sampler), double-sided
 * and alpha mode, read from the glTF JSON and checked by the validator (`./validate.ts`) once
 * the buffer views are known. Images are never decoded: their bytes are handed on as stored.
 *
 * Faults name the primitive and the material, e.g.
 * `meshes[0] "fox1".primitives[0].material → materials[0] "fox_material".pbrMetallicRoughness.baseColorTexture.index`.
 */
import { decodeDataUri } from './container.js';
import type { CheckedView } from './validateAccessors.js';
import { isObject, show, type Checker, type Json } from './validateJson.js';

/** The material of a skinned primitive: what a renderer needs to draw it textured. */
export interface GltfMaterial {
  /** The material's name, `''` when it has none. */
  readonly name: string;
  /** `pbrMetallicRoughness.baseColorFactor`, linear RGBA in [0, 1] (default [1, 1, 1, 1]). */
  readonly baseColorFactor: readonly [number, number, number, number];
  /** `pbrMetallicRoughness.baseColorTexture`, or null when the material has none. */
  readonly baseColorTexture: {
    /** The image file's encoded bytes (PNG, JPEG, …) as stored: never decoded by bitanim. */
    readonly image: Uint8Array;
    /** The image's MIME type (`image/png`, `image/jpeg`, …): declared, or recognized from its bytes. */
    readonly mimeType: string;
    /**
     * The texture's sampler, as glTF numeric enums: filters when the file gives them
     * (9728 NEAREST, 9729 LINEAR, 9984–9987 mipmapped), wraps default 10497 REPEAT
     * (33071 CLAMP_TO_EDGE, 33648 MIRRORED_REPEAT).
     */
    readonly sampler: { readonly magFilter?: number; readonly minFilter?: number; readonly wrapS: number; readonly wrapT: number };
    /** The set of texture coordinates it uses (`TEXCOORD_<n>`; only 0 is read, into `uvs`). */
    readonly texCoord: number;
  } | null;
  /** Whether back faces are drawn (default false). */
  readonly doubleSided: boolean;
  /** How alpha is used: `'OPAQUE'` (default), `'MASK'` (cut at `alphaCutoff`) or `'BLEND'`. */
  readonly alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  /** The `'MASK'` threshold (default 0.5). */
  readonly alphaCutoff: number;
}

type Sampler = NonNullable<GltfMaterial['baseColorTexture']>['sampler'];

/** Largest external image `loadGltfFile`/`loadGltfUrl` read: 256 MiB. */
export const MAX_IMAGE_BYTES = 256 * 1024 * 1024;

const WRAPS = [33071, 33648, 10497];
const MAG_FILTERS = [9728, 9729];
const MIN_FILTERS = [9728, 9729, 9984, 9985, 9986, 9987];
const ALPHA_MODES = ['OPAQUE', 'MASK', 'BLEND'] as const;
/** Texture extensions that name their own image source (a texture may have only these). */
const SOURCE_EXTENSIONS = ['KHR_texture_basisu', 'EXT_texture_webp', 'EXT_texture_avif'];

/** The image index a texture draws from: `source`, else the first extension that names one. */
function textureSource(texture: Json): unknown {
  if (texture['source'] !== undefined) return texture['source'];
  const extensions = texture['extensions'];
  if (!isObject(extensions)) return undefined;
  for (const name of SOURCE_EXTENSIONS) {
    const ext = extensions[name];
    if (isObject(ext) && ext['source'] !== undefined) return ext['source'];
  }
  return undefined;
}

/** The image index `material`'s base colour texture draws from, or undefined (nothing checked: see {@link MaterialReader}). */
function baseColorImage(json: Json, material: unknown): unknown {
  if (!isObject(material) || !isObject(material['pbrMetallicRoughness'])) return undefined;
  const info = material['pbrMetallicRoughness']['baseColorTexture'];
  const textures = json['textures'];
  if (!isObject(info) || !Array.isArray(textures) || typeof info['index'] !== 'number') return undefined;
  const texture = textures[info['index']];
  return isObject(texture) ? textureSource(texture) : undefined;
}

/**
 * The external (not `data:`) URIs of the images that skinned primitives' base colour textures
 * use, each once, with the JSON path of the first: what `loadGltfFile`/`loadGltfUrl` read
 * beside the file. Malformed JSON is skipped here; the validator reports it.
 */
export function usedImageUris(json: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(json)) return out;
  const list = (key: string): unknown[] => (Array.isArray(json[key]) ? json[key] as unknown[] : []);
  const [nodes, meshes, materials, images] = [list('nodes'), list('meshes'), list('materials'), list('images')];
  const skinned = new Set<unknown>();
  for (const node of nodes) if (isObject(node) && node['skin'] !== undefined) skinned.add(node['mesh']);
  for (const m of skinned) {
    const mesh = typeof m === 'number' ? meshes[m] : undefined;
    if (!isObject(mesh) || !Array.isArray(mesh['primitives'])) continue;
    for (const prim of mesh['primitives'] as unknown[]) {
      if (!isObject(prim) || typeof prim['material'] !== 'number') continue;
      const source = baseColorImage(json, materials[prim['material']]);
      const image = typeof source === 'number' ? images[source] : undefined;
      if (!isObject(image) || image['bufferView'] !== undefined) continue;
      const uri = image['uri'];
      if (typeof uri === 'string' && !/^data:/i.test(uri) && !out.has(uri)) out.set(uri, `images[${source as number}].uri`);
    }
  }
  return out;
}

/** What {@link MaterialReader} reads image bytes from. */
export interface ImageSources {
  /** Buffer view `index` checked (read at `path`), with its buffer's index; null when not usable (a fault recorded). */
  readonly view: (index: unknown, path: string) => CheckedView | null;
  /** Buffer `i`'s bytes, null when it has none. */
  readonly buffer: (i: number) => Uint8Array | null;
  /** External resources read beside the file, by URI; absent: `loadGltf(bytes)`, which reads none. */
  readonly external?: ReadonlyMap<string, Uint8Array>;
}

/** Reads and checks materials, textures, samplers and images, each once, on first use. */
export class MaterialReader {
  private readonly materials = new Map<number, GltfMaterial | null>();
  private readonly images = new Map<number, { image: Uint8Array; mimeType: string } | null>();
  private readonly materialDefs: unknown[];
  private readonly textures: unknown[];
  private readonly imageDefs: unknown[];
  private readonly samplers: unknown[];

  constructor(private readonly c: Checker, json: Json, private readonly warnings: string[], private readonly sources: ImageSources) {
    this.materialDefs = c.array(json, 'materials', 'materials');
    this.textures = c.array(json, 'textures', 'textures');
    this.imageDefs = c.array(json, 'images', 'images');
    this.samplers = c.array(json, 'samplers', 'samplers');
  }

  /**
   * The material of a primitive (its JSON `prim`, at `ppath`, e.g. `meshes[0] "fox1".primitives[0]`):
   * null when it has none; checked on first use, faults naming `ppath` and the material.
   */
  read(prim: Json, ppath: string): GltfMaterial | null {
    const index = this.c.index(prim, 'material', ppath, this.materialDefs.length, 'materials');
    if (index === undefined) return null;
    if (!this.materials.has(index)) this.materials.set(index, this.readMaterial(index, ppath));
    return this.materials.get(index) ?? null;
  }

  private readMaterial(i: number, ppath: string): GltfMaterial | null {
    const { c } = this;
    const issues = c.issues;
    const def = this.materialDefs[i];
    const name = isObject(def) && typeof def['name'] === 'string' ? def['name'] : '';
    const path = `${ppath}.material → materials[${i}]${name ? ` "${name}"` : ''}`;
    if (!c.object(def, path)) return null;
    const before = issues.issues.length;
    const pbr = def['pbrMetallicRoughness'] ?? {};
    let factor: number[] = [1, 1, 1, 1];
    let texture: GltfMaterial['baseColorTexture'] = null;
    if (c.object(pbr, `${path}.pbrMetallicRoughness`)) {
      const read = c.numbers(pbr, 'baseColorFactor', `${path}.pbrMetallicRoughness`, 4);
      if (read) {
        read.forEach((x, k) => {
          if (x < 0 || x > 1) issues.add(`${path}.pbrMetallicRoughness.baseColorFactor[${k}]`, `is ${x}: must be in [0, 1]`);
        });
        factor = read;
      }
      const info = pbr['baseColorTexture'];
      if (info !== undefined) texture = this.readTexture(info, `${path}.pbrMetallicRoughness.baseColorTexture`);
    }
    const doubleSided = def['doubleSided'] ?? false;
    if (typeof doubleSided !== 'boolean') issues.add(`${path}.doubleSided`, `is ${show(doubleSided)}: must be true or false`);
    const alphaMode = def['alphaMode'] ?? 'OPAQUE';
    if (!(ALPHA_MODES as readonly unknown[]).includes(alphaMode)) issues.add(`${path}.alphaMode`, `is ${show(alphaMode)}: must be "OPAQUE", "MASK" or "BLEND"`);
    const alphaCutoff = def['alphaCutoff'] ?? 0.5;
    if (typeof alphaCutoff !== 'number' || !Number.isFinite(alphaCutoff) || alphaCutoff < 0) issues.add(`${path}.alphaCutoff`, `is ${show(alphaCutoff)}: must be a number ≥ 0`);
    if (issues.issues.length !== before) return null;
    return Object.freeze({
      name,
      baseColorFactor: Object.freeze(factor.slice()) as unknown as GltfMaterial['baseColorFactor'],
      baseColorTexture: texture,
      doubleSided: doubleSided as boolean,
      alphaMode: alphaMode as GltfMaterial['alphaMode'],
      alphaCutoff: alphaCutoff as number,
    });
  }

  /** A texture info (`{ index, texCoord }`) at `path`: its sampler and image. */
  private readTexture(info: unknown, path: string): GltfMaterial['baseColorTexture'] {
    const { c } = this;
    if (!c.object(info, path)) return null;
    const index = c.index(info, 'index', path, this.textures.length, 'textures');
    if (index === undefined) {
      if (info['index'] === undefined) c.issues.add(`${path}.index`, 'is missing');
      return null;
    }
    const texCoord = c.int(info, 'texCoord', path, 0, 0xffff, false) ?? 0;
    if (texCoord !== 0) this.warnings.push(`${path} uses TEXCOORD_${texCoord}: only TEXCOORD_0 is read (into uvs)`);
    const tpath = `${path} → textures[${index}]`;
    const texture = this.textures[index];
    if (!c.object(texture, tpath)) return null;
    const sampler = this.readSampler(texture, tpath);
    const source = textureSource(texture);
    if (source === undefined) {
      c.issues.add(`${tpath}.source`, 'is missing: the texture has no image');
      return null;
    }
    if (!Number.isInteger(source) || (source as number) < 0 || (source as number) >= this.imageDefs.length) {
      c.issues.add(`${tpath}.source`, `is ${show(source)}: out of range of the ${this.imageDefs.length} images`);
      return null;
    }
    const s = source as number;
    if (!this.images.has(s)) this.images.set(s, this.readImage(s, `${tpath} → images[${s}]`));
    const image = this.images.get(s);
    if (!image || !sampler) return null;
    return Object.freeze({ image: image.image, mimeType: image.mimeType, sampler, texCoord });
  }

  /** The texture's sampler (glTF's defaults when it has none). */
  private readSampler(texture: Json, tpath: string): Sampler | null {
    const { c } = this;
    const index = c.index(texture, 'sampler', tpath, this.samplers.length, 'samplers');
    if (index === undefined) return texture['sampler'] === undefined ? Object.freeze({ wrapS: 10497, wrapT: 10497 }) : null;
    const spath = `${tpath} → samplers[${index}]`;
    const def = this.samplers[index];
    if (!c.object(def, spath)) return null;
    let ok = true;
    const pick = (key: string, allowed: readonly number[], fallback?: number): number | undefined => {
      const v = def[key] ?? fallback;
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !allowed.includes(v)) {
        c.issues.add(`${spath}.${key}`, `is ${show(v)}: must be one of ${allowed.join(', ')}`);
        ok = false;
      }
      return v as number;
    };
    const magFilter = pick('magFilter', MAG_FILTERS);
    const minFilter = pick('minFilter', MIN_FILTERS);
    const wrapS = pick('wrapS', WRAPS, 10497) as number;
    const wrapT = pick('wrapT', WRAPS, 10497) as number;
    if (!ok) return null;
    return Object.freeze({ ...(magFilter !== undefined ? { magFilter } : {}), ...(minFilter !== undefined ? { minFilter } : {}), wrapS, wrapT });
  }

  /** Image `i`'s bytes (buffer view, data: URI or external resource) and MIME type. */
  private readImage(i: number, path: string): { image: Uint8Array; mimeType: string } | null {
    const { c, sources } = this;
    const issues = c.issues;
    const def = this.imageDefs[i];
    if (!c.object(def, path)) return null;
    const declared = def['mimeType'];
    if (declared !== undefined && (typeof declared !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(declared))) {
      issues.add(`${path}.mimeType`, `is ${show(declared)}: must be a MIME type such as "image/png"`);
      return null;
    }
    const uri = def['uri'];
    let bytes: Uint8Array | null = null;
    let uriType: string | undefined;
    if (def['bufferView'] !== undefined) {
      const view = sources.view(def['bufferView'], `${path}.bufferView`);
      if (!view) return null;
      const buffer = sources.buffer(view.buffer);
      if (!buffer) return null; // the buffer's fault is reported by the view
      bytes = buffer.slice(view.offset, view.offset + view.length);
    } else if (typeof uri !== 'string') {
      issues.add(path, uri === undefined ? 'has neither a bufferView nor a uri: no image bytes' : 'has a uri that is not a string');
      return null;
    } else if (/^data:/i.test(uri)) {
      bytes = decodeDataUri(uri, `${path}.uri`);
      uriType = /^data:([\w.+-]+\/[\w.+-]+)/i.exec(uri)?.[1];
    } else {
      bytes = sources.external?.get(uri) ?? null;
      if (!bytes) {
        const shown = JSON.stringify(uri.length > 80 ? `${uri.slice(0, 80)}…` : uri);
        issues.add(`${path}.uri`, `${shown} is an external image: not read by loadGltf(bytes) (load the file with loadGltfFile or loadGltfUrl, which read resources beside it, or embed it: .glb or a data: URI)`);
        return null;
      }
    }
    const mimeType = (declared as string | undefined) ?? uriType ?? sniff(bytes);
    if (!mimeType) {
      issues.add(path, 'has no mimeType and its bytes are not PNG, JPEG, WebP or KTX2');
      return null;
    }
    return { image: bytes, mimeType };
  }
}

/** The MIME type of PNG, JPEG, WebP or KTX2 bytes, from their signature. */
function sniff(b: Uint8Array): string | undefined {
  const at = (from: number, ...sig: number[]): boolean => sig.every((x, k) => b[from + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp'; // RIFF….WEBP
  if (at(0, 0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb)) return 'image/ktx2';
  return undefined;
}
