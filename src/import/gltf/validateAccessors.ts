/**
 * The accessor half of the glTF validator (validate.ts): the uses of each accessor are
 * collected while skins, meshes and animations are read, then every used accessor is checked
 * once — its element and component types against every use, and every byte it reads (dense
 * elements with their stride, sparse indices and values) inside its buffer view, and each
 * buffer view inside its buffer.
 */
import type { Checker, Json } from './validateJson.js';
import { show } from './validateJson.js';

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
/** glTF's FLOAT component type. */
export const FLOAT = 5126;
/** The component types of index data (unsigned byte, short, int). */
export const INDEX_TYPES = [5121, 5123, 5125] as const;
/** Elements of an accessor with no buffer view (zero-filled), allocated without backing bytes. */
const MAX_UNBACKED_COMPONENTS = 1 << 24;
/**
 * The most bytes the accessors a file's skins, meshes and animations use may hold together,
 * 2²⁹ (512 MiB, the command line's largest input): @gltf-transform copies each accessor's
 * elements out of its buffer view (and allocates a zero-filled one without a view), so
 * accessors that alias the same bytes — many small JSON objects over one large view — would
 * otherwise cost their count times the view. Each used accessor counts its elements
 * (count × element bytes) and its sparse indices and values.
 */
export const MAX_GLTF_ACCESSOR_BYTES = 2 ** 29;
/** What an unused accessor becomes in the pruned document. */
const STUB_ACCESSOR = { componentType: FLOAT, type: 'SCALAR', count: 1 } as const;

/** One use of an accessor, with the element types and component types that use accepts. */
interface AccessorUse {
  readonly path: string;
  readonly types: readonly string[];
  readonly componentTypes?: readonly number[];
}

/** The uses of each accessor, by accessor index, collected before any accessor is checked. */
export class AccessorUses {
  private readonly uses = new Map<number, AccessorUse[]>();

  constructor(private readonly c: Checker, private readonly accessorCount: number) {}

  /**
   * Reads `owner[key]` as an accessor index (a fault at `path.key` when it is not one) and
   * records that use with the element `types` (and `componentTypes`) it accepts.
   */
  use(owner: Json, key: string, path: string, types: readonly string[], componentTypes?: readonly number[]): number | undefined {
    const index = this.c.index(owner, key, path, this.accessorCount, 'accessors');
    if (index === undefined) return undefined;
    const list = this.uses.get(index) ?? [];
    list.push({ path: `${path}.${key}`, types, ...(componentTypes ? { componentTypes } : {}) });
    this.uses.set(index, list);
    return index;
  }

  /** The uses of accessor `index`, undefined when it has none. */
  get(index: number): readonly AccessorUse[] | undefined {
    return this.uses.get(index);
  }
}

/** A buffer's usable length, or why it cannot be read. */
export interface BufferInfo {
  length: number;
  fault: string | null;
  /** The fault is listed once, for the first view that reads the buffer. */
  reported: boolean;
}

/** A checked buffer view: its buffer, byte range and stride. */
export interface CheckedView {
  readonly buffer: number;
  readonly offset: number;
  readonly length: number;
  readonly stride: number | undefined;
}

/** Buffer views checked on first use (inside their buffer), and the set of views used. */
export class BufferViews {
  private readonly used = new Set<number>();
  private readonly checked = new Map<number, CheckedView | null>();

  constructor(private readonly c: Checker, private readonly defs: readonly unknown[], private readonly buffers: BufferInfo[]) {}

  /** Buffer view `index` (read at `path`), checked once; null when it is not usable. */
  view(index: unknown, path: string): CheckedView | null {
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= this.defs.length) {
      this.c.issues.add(path, `is ${String(index)}: not a buffer view index (0..${this.defs.length - 1})`);
      return null;
    }
    const i = index as number;
    if (!this.checked.has(i)) this.checked.set(i, this.check(this.defs[i], `bufferViews[${i}]`));
    this.used.add(i);
    return this.checked.get(i)!;
  }

  /** The pruned buffer views: the used ones as they are, the others empty stubs on a used view's buffer. */
  prune(): Json[] {
    if (this.used.size === 0) return [];
    const first = this.used.values().next().value as number;
    const stubBuffer = (this.defs[first] as Json)['buffer'];
    return this.defs.map((def, i) => {
      if (!this.used.has(i)) return { buffer: stubBuffer, byteOffset: 0, byteLength: 0 };
      const d = def as Json;
      const out: Json = { buffer: d['buffer'], byteOffset: d['byteOffset'] ?? 0, byteLength: d['byteLength'] };
      if (d['byteStride'] !== undefined) out['byteStride'] = d['byteStride'];
      return out;
    });
  }

  private check(def: unknown, path: string): CheckedView | null {
    const c = this.c;
    if (!c.object(def, path)) return null;
    const buffer = c.index(def, 'buffer', path, this.buffers.length, 'buffers');
    const offset = c.int(def, 'byteOffset', path, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
    const length = c.int(def, 'byteLength', path, 1, Number.MAX_SAFE_INTEGER, true);
    const stride = c.int(def, 'byteStride', path, 4, 252, false);
    if (buffer === undefined) c.issues.add(`${path}.buffer`, 'is missing');
    if (buffer === undefined || length === undefined) return null;
    const info = this.buffers[buffer];
    if (info.fault) {
      if (!info.reported) c.issues.add(`buffers[${buffer}] (read by ${path})`, info.fault);
      info.reported = true;
      return null;
    }
    if (offset + length > info.length) {
      c.issues.add(path, `bytes ${offset}..${offset + length} are out of range of buffers[${buffer}] (${info.length} bytes)`);
      return null;
    }
    return { buffer, offset, length, stride };
  }
}

/**
 * Checks every used accessor (type, component type, and every byte inside its buffer view)
 * and returns the pruned accessors: the used ones checked, the others one-element zero stubs.
 */
export function checkAccessors(c: Checker, accessors: readonly unknown[], uses: AccessorUses, views: BufferViews): Json[] {
  let bytes = 0, over = -1;
  const out = accessors.map((def, i) => {
    const list = uses.get(i);
    if (!list) return { ...STUB_ACCESSOR }; // unused: a zero stub
    const path = `accessors[${i}]`;
    if (!c.object(def, path)) return { ...STUB_ACCESSOR };
    const checked = checkAccessor(c, def, path, list, views);
    bytes += accessorBytes(checked);
    if (over < 0 && bytes > MAX_GLTF_ACCESSOR_BYTES) over = i;
    return checked;
  });
  if (over >= 0) {
    c.issues.add('accessors', `used by the skins, meshes and animations hold ${bytes} bytes (past the limit at accessors[${over}]; accessors sharing bytes each count them): more than the ${MAX_GLTF_ACCESSOR_BYTES} one file may use (MAX_GLTF_ACCESSOR_BYTES)`);
  }
  return out;
}

/** The bytes a checked accessor's elements and sparse indices and values take once read. */
function accessorBytes(def: Json): number {
  const elementBytes = (COMPONENT_BYTES[def['componentType'] as number] ?? 0) * (TYPE_SIZE[def['type'] as string] ?? 0);
  const count = typeof def['count'] === 'number' ? def['count'] : 0;
  const sparse = def['sparse'] as Json | undefined;
  const sparseCount = sparse !== undefined && typeof sparse['count'] === 'number' ? sparse['count'] : 0;
  return count * elementBytes + sparseCount * (elementBytes + SPARSE_INDEX_BYTES);
}

/** Bytes a sparse index takes once read (indices are widened to 32 bits). */
const SPARSE_INDEX_BYTES = 4;

function checkAccessor(c: Checker, def: Json, path: string, list: readonly AccessorUse[], views: BufferViews): Json {
  const componentType = def['componentType'];
  const type = def['type'];
  const componentBytes = typeof componentType === 'number' ? COMPONENT_BYTES[componentType] : undefined;
  const size = typeof type === 'string' ? TYPE_SIZE[type] : undefined;
  if (componentBytes === undefined) c.issues.add(`${path}.componentType`, `is ${String(componentType)}: not a glTF component type`);
  if (size === undefined) c.issues.add(`${path}.type`, `is ${show(type)}: not a glTF accessor type`);
  const count = c.int(def, 'count', path, 1, 2 ** 32, true);
  const byteOffset = c.int(def, 'byteOffset', path, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
  const normalized = def['normalized'];
  if (normalized !== undefined && typeof normalized !== 'boolean') c.issues.add(`${path}.normalized`, 'must be true or false');
  checkUses(c, path, type, componentType, list);
  const out: Json = { componentType, type, count, byteOffset };
  if (normalized === true) out['normalized'] = true;
  if (componentBytes === undefined || size === undefined || count === undefined) return out;
  const elementBytes = componentBytes * size;

  if (def['bufferView'] !== undefined) {
    checkDenseRange(c, def, path, views, elementBytes, count, byteOffset);
    out['bufferView'] = def['bufferView'];
  } else if (count * size > MAX_UNBACKED_COMPONENTS) {
    c.issues.add(`${path}.count`, `is ${count} with no buffer view: more than the ${MAX_UNBACKED_COMPONENTS} zero-filled components allowed`);
  }

  const sparse = def['sparse'];
  if (sparse !== undefined) {
    const outSparse = checkSparse(c, sparse, `${path}.sparse`, views, elementBytes, count);
    if (outSparse) out['sparse'] = outSparse;
  }
  return out;
}

/** The accessor's element type and component type against what each of its uses accepts. */
function checkUses(c: Checker, path: string, type: unknown, componentType: unknown, list: readonly AccessorUse[]): void {
  for (const u of list) {
    if (typeof type === 'string' && !u.types.includes(type)) c.issues.add(path, `is ${type}, but ${u.path} needs ${u.types.join(' or ')}`);
    if (u.componentTypes && typeof componentType === 'number' && !u.componentTypes.includes(componentType)) {
      c.issues.add(`${path}.componentType`, `is ${componentType}, but ${u.path} needs ${u.componentTypes.join(' or ')}`);
    }
  }
}

/** `count` elements of `elementBytes` from `byteOffset`, at the view's stride, inside the buffer view. */
function checkDenseRange(c: Checker, def: Json, path: string, views: BufferViews, elementBytes: number, count: number, byteOffset: number): void {
  const v = views.view(def['bufferView'], `${path}.bufferView`);
  if (!v) return;
  const stride = v.stride ?? elementBytes;
  const end = byteOffset + stride * (count - 1) + elementBytes;
  if (stride < elementBytes) c.issues.add(path, `elements of ${elementBytes} bytes do not fit the buffer view's byteStride ${stride}`);
  else if (end > v.length) {
    c.issues.add(path, `${count} elements from byte ${byteOffset} need ${end} bytes: out of range of bufferViews[${String(def['bufferView'])}] (${String(v.length)} bytes)`);
  }
}

/** A sparse accessor's indices and values, tightly packed inside their buffer views; the pruned `sparse`, or undefined. */
function checkSparse(c: Checker, sparse: unknown, spath: string, views: BufferViews, elementBytes: number, count: number): Json | undefined {
  if (!c.object(sparse, spath)) return undefined;
  const n = c.int(sparse, 'count', spath, 1, count, true);
  const indices = sparse['indices'];
  const values = sparse['values'];
  if (!c.object(indices, `${spath}.indices`) || !c.object(values, `${spath}.values`) || n === undefined) return undefined;
  const indexType = indices['componentType'];
  if (typeof indexType !== 'number' || !(INDEX_TYPES as readonly number[]).includes(indexType)) {
    c.issues.add(`${spath}.indices.componentType`, `is ${String(indexType)}: must be 5121, 5123 or 5125`);
    return undefined;
  }
  const parts: Array<[Json, string, number]> = [[indices, `${spath}.indices`, COMPONENT_BYTES[indexType] * n], [values, `${spath}.values`, elementBytes * n]];
  for (const [part, ppath, bytes] of parts) {
    const v = views.view(part['bufferView'], `${ppath}.bufferView`);
    const offset = c.int(part, 'byteOffset', ppath, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
    if (!v) continue;
    if (v.stride !== undefined) c.issues.add(`${ppath}.bufferView`, 'has a byteStride: sparse data must be tightly packed');
    if (offset + bytes > v.length) c.issues.add(ppath, `${bytes} bytes from byte ${offset} are out of range of its buffer view (${String(v.length)} bytes)`);
  }
  return {
    count: n,
    indices: { bufferView: indices['bufferView'], byteOffset: indices['byteOffset'] ?? 0, componentType: indexType },
    values: { bufferView: values['bufferView'], byteOffset: values['byteOffset'] ?? 0 },
  };
}
