/**
 * Where the kernel area's bytes are, and how the area grows. The area is a small header pool
 * allocated with the world's other pools (the layout below, the chunk counters, the per-thread
 * parameters and layer-mask rows) and a **heap** from the end of the pools to the end of the
 * WebAssembly memory, which holds every copy (skeletons, clips, masks, reference poses,
 * bindings, contact tables) and the tables of the copies' pointers by asset id.
 *
 * On a shared memory (`WebAssembly.Memory({ shared: true })`, a `SharedArrayBuffer`) the heap
 * grows: `memory.grow` appends pages at the end, and since a shared memory's buffer is never
 * detached, every pool view made before keeps aliasing the same bytes — only the area's own
 * views (the tables, `words`) are made again on the longer buffer. A table too short for an id
 * is moved to a longer copy. Both happen on the world's own thread between frames
 * (`syncKernelArea`), never during one; the layout's generation counter tells every thread's
 * views that they are stale ({@link refreshKernelArea}: a worker checks it before its share of
 * a frame). On a plain memory (a browser page that is not cross-origin isolated) nothing can
 * grow without detaching the pools, so the heap is fixed: each kind of copy has its budget and
 * the tables their fixed ids, and what does not fit runs on the JavaScript kernels.
 */
import { MAX_LAYERS } from '../components/Layers.js';
import { MAX_THREADS } from '../memory/environment.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import { createAreaPart, giveRange, takeRange, type AreaPart } from './areaSpace.js';
import { WASM_PAGE, type WasmMemory } from './wasmApi.js';

/** Ints of `layout`: the generation of the layout (bumped when the memory grows or a table moves), the heap's start and end (bytes). */
const L_GENERATION = 0, L_HEAP_START = 1, L_HEAP_END = 2;
/** `layout[L_NO_CONTACTS]`: the all-zero contact record every clip without a contact table points at. */
export const L_NO_CONTACTS = 3;
/** From here, per table: its pointer (bytes) and the ids it covers. */
const L_TABLES = 4;

/** The tables of the copies' pointers by asset id (index into `layout`'s table pairs). */
export const TABLE_SKIN = 0, TABLE_REST = 1, TABLE_CLIP = 2, TABLE_CONTACT = 3, TABLE_MASK = 4, TABLE_REFERENCE = 5, TABLE_BINDING = 6;
const TABLE_COUNT = 7;
/** i32 entries per id of each table: the skinning table holds (parents, inverse bind) pairs. */
const TABLE_WIDTH = [2, 1, 1, 1, 1, 1, 1] as const;
const LAYOUT_INTS = L_TABLES + 2 * TABLE_COUNT;

/** The kinds of copies (their bytes counted apart, and budgeted apart on a fixed heap). */
export const KIND_SKELETONS = 0, KIND_CLIPS = 1, KIND_POSES = 2, KIND_CONTACTS = 3, KIND_TABLES = 4;
const KIND_COUNT = 5;

/** Smallest step the heap grows by (bytes): a quarter of the heap, at least this. */
const MIN_GROWTH = 1 << 20;

/** Most pages of a growable kernels memory (4 GiB: the 32-bit address space). */
export const MAX_MEMORY_PAGES = 65_536;

/** The area's pools allocated with the world's (fixed; posted to workers as they are). */
export interface KernelAreaHeader {
  /** Generation, heap start and end, the no-contacts record, then (pointer, ids) per table. */
  readonly layout: Int32Array;
  /** `chunks[t]`: the skinning kernel's chunk calls on thread `t` (0: the world's own). */
  readonly chunks: Float64Array;
  /** `params[t]`: thread `t`'s float the kernels read (the blend threshold). */
  readonly params: Float64Array;
  /** `layerMasks[t × MAX_LAYERS + n]`: thread `t`'s mask pointer of layer slot n (0: unmasked). */
  readonly layerMasks: Int32Array;
}

/**
 * One thread's views of the kernel area: the header, the whole memory as 32-bit words, and
 * each table as a view of the ids it covers (its length: ids × width), all made for layout
 * generation `generation`.
 */
export interface KernelArea extends KernelAreaHeader {
  generation: number;
  words: Int32Array;
  skinTable: Int32Array;
  restTable: Int32Array;
  clipTable: Int32Array;
  contactTable: Int32Array;
  maskTable: Int32Array;
  referenceTable: Int32Array;
  bindingTable: Int32Array;
}

/** Allocates the area's header (buildAnimationWorld, after the other pools). */
export function createKernelAreaHeader(alloc: PoolAllocator): KernelAreaHeader {
  return {
    layout: alloc.array(Int32Array, LAYOUT_INTS),
    chunks: alloc.array(Float64Array, MAX_THREADS),
    params: alloc.array(Float64Array, MAX_THREADS),
    layerMasks: alloc.array(Int32Array, MAX_THREADS * MAX_LAYERS),
  };
}

/** The header of `area` alone (what a worker is sent: it makes its own views). */
export function kernelAreaHeader(area: KernelAreaHeader): KernelAreaHeader {
  return { layout: area.layout, chunks: area.chunks, params: area.params, layerMasks: area.layerMasks };
}

/** This thread's views of the area of `header` on `memory`, as its layout stands. */
export function viewKernelArea(header: KernelAreaHeader, memory: WasmMemory): KernelArea {
  const empty = new Int32Array(0);
  const area: KernelArea = {
    ...header, generation: -1, words: empty,
    skinTable: empty, restTable: empty, clipTable: empty, contactTable: empty, maskTable: empty, referenceTable: empty, bindingTable: empty,
  };
  refreshKernelArea(area, memory);
  return area;
}

/**
 * Makes `area`'s views again when the layout changed since they were made (the memory grew, a
 * table moved); nothing otherwise. The world's own thread calls it after each change, a worker
 * before its share of each frame.
 */
export function refreshKernelArea(area: KernelArea, memory: WasmMemory): void {
  const layout = area.layout;
  if (area.generation === layout[L_GENERATION]) return;
  const buffer = memory.buffer;
  area.generation = layout[L_GENERATION];
  area.words = new Int32Array(buffer, 0, buffer.byteLength >> 2);
  const table = (t: number): Int32Array => new Int32Array(buffer, layout[L_TABLES + 2 * t], layout[L_TABLES + 2 * t + 1] * TABLE_WIDTH[t]);
  area.skinTable = table(TABLE_SKIN);
  area.restTable = table(TABLE_REST);
  area.clipTable = table(TABLE_CLIP);
  area.contactTable = table(TABLE_CONTACT);
  area.maskTable = table(TABLE_MASK);
  area.referenceTable = table(TABLE_REFERENCE);
  area.bindingTable = table(TABLE_BINDING);
}

/** The ids table `t` covers now. */
export function tableIds(area: KernelAreaHeader, t: number): number {
  return area.layout[L_TABLES + 2 * t + 1];
}

/**
 * How the world's own thread hands out the heap (never a worker): one first-fit part over the
 * heap's bytes (src/wasm/areaSpace.ts, offsets from the heap's start), the bytes in copies of
 * each kind, each kind's budget (Infinity on a growable heap), and whether and how far the
 * memory may grow.
 */
export interface KernelSpace {
  readonly heap: AreaPart;
  /** Bytes in copies by kind (`KIND_*`). */
  readonly used: number[];
  readonly budget: readonly number[];
  /** Whether the memory grows (a shared memory). */
  readonly grows: boolean;
  /** Each copy's range by asset id: `spans.clips[2 × id]` its pointer (−1: none), `[2 × id + 1]` its size. */
  readonly spans: {
    readonly skeletons: number[];
    readonly clips: number[];
    readonly contacts: number[];
    readonly masks: number[];
    readonly references: number[];
    readonly bindings: number[];
  };
  /** Reasons already warned of (bits). */
  warned: number;
}

/** How a world's heap starts: where, whether it grows, the tables' first ids, each kind's budget. */
export interface HeapPlan {
  readonly grows: boolean;
  /** Ids each table covers at first (`TABLE_*` order). */
  readonly tableIds: readonly number[];
  /** Bytes per kind (`KIND_*` order but the tables, which are counted from `tableIds`); Infinity when the heap grows. */
  readonly budget: readonly number[];
  /** Bytes the heap starts with (before the memory's page rounding). */
  readonly bytes: number;
}

/** Bytes of table `t` covering `ids` ids, 16-byte aligned. */
function tableBytes(t: number, ids: number): number {
  return Math.ceil((ids * TABLE_WIDTH[t] * 4) / 16) * 16;
}

/** Bytes of the tables of `plan` at their first ids. */
export function planTableBytes(tableIdsAtFirst: readonly number[]): number {
  let sum = 0;
  for (let t = 0; t < TABLE_COUNT; t++) sum += tableBytes(t, tableIdsAtFirst[t]);
  return sum;
}

/** No space (a worker's: it never copies). */
export function inertSpace(): KernelSpace {
  return {
    heap: createAreaPart(0), used: [0, 0, 0, 0, 0], budget: [0, 0, 0, 0, 0], grows: false,
    spans: { skeletons: [], clips: [], contacts: [], masks: [], references: [], bindings: [] }, warned: 0,
  };
}

/**
 * The world's space over the heap from `heapStart` to the memory's end, laid out by `plan`:
 * writes the layout (the heap's bounds, the tables at their first ids, the all-zero contact
 * record of `noContactsBytes`), then views `area` on it.
 */
export function createKernelSpace(area: KernelArea, memory: WasmMemory, heapStart: number, plan: HeapPlan, noContactsBytes: number): KernelSpace {
  const end = memory.buffer.byteLength;
  const tablesBudget = plan.grows ? Infinity : planTableBytes(plan.tableIds);
  const space: KernelSpace = {
    heap: createAreaPart(end - heapStart),
    used: new Array<number>(KIND_COUNT).fill(0),
    budget: [...plan.budget, tablesBudget],
    grows: plan.grows,
    spans: { skeletons: [], clips: [], contacts: [], masks: [], references: [], bindings: [] },
    warned: 0,
  };
  const layout = area.layout;
  layout[L_HEAP_START] = heapStart;
  layout[L_HEAP_END] = end;
  for (let t = 0; t < TABLE_COUNT; t++) moveTable(space, area, memory, t, plan.tableIds[t]);
  layout[L_NO_CONTACTS] = takeBytes(space, area, memory, KIND_CONTACTS, noContactsBytes);
  layout[L_GENERATION]++;
  refreshKernelArea(area, memory);
  return space;
}

/**
 * Takes `size` bytes of the heap for a copy of `kind`: their pointer in the memory, or −1 when
 * the kind's budget or the heap (grown as far as the memory may) has no room. Growing the
 * memory re-views `area` (on this thread; other threads see the new generation).
 */
export function takeBytes(space: KernelSpace, area: KernelArea, memory: WasmMemory, kind: number, size: number): number {
  if (space.used[kind] + size > space.budget[kind]) return -1;
  const heap = space.heap;
  let start = takeRange(heap, size);
  if (start < 0 && space.grows && growHeap(space, area, memory, size - (heap.capacity - heap.top))) start = takeRange(heap, size);
  if (start < 0) return -1;
  space.used[kind] += size;
  return area.layout[L_HEAP_START] + start;
}

/** Gives back the `size` bytes at pointer `at` of a copy of `kind`. */
export function giveBytes(space: KernelSpace, area: KernelAreaHeader, kind: number, at: number, size: number): void {
  space.used[kind] -= size;
  giveRange(space.heap, at - area.layout[L_HEAP_START], size);
}

/**
 * Grows the memory by at least `needed` bytes (a quarter of the heap, at least 1 MiB, when the
 * memory's maximum allows; else just what is needed): false when it cannot.
 */
function growHeap(space: KernelSpace, area: KernelArea, memory: WasmMemory, needed: number): boolean {
  const step = Math.max(needed, space.heap.capacity / 4, MIN_GROWTH);
  for (const bytes of [step, needed]) {
    try {
      memory.grow(Math.ceil(bytes / WASM_PAGE));
    } catch {
      continue; // beyond the memory's maximum, or the host refused the pages
    }
    const end = memory.buffer.byteLength;
    area.layout[L_HEAP_END] = end;
    space.heap.capacity = end - area.layout[L_HEAP_START];
    area.layout[L_GENERATION]++;
    refreshKernelArea(area, memory);
    return true;
  }
  return false;
}

/**
 * Makes table `t` cover id `id` (a longer copy of it when it is too short: twice its ids, at
 * least `id + 1`): false when the heap has no room for that (the asset then runs on the
 * JavaScript kernels). A new table's entries beyond the old ones are 0 (no copy).
 */
export function coverId(space: KernelSpace, area: KernelArea, memory: WasmMemory, t: number, id: number): boolean {
  const ids = tableIds(area, t);
  if (id < ids) return true;
  if (!moveTable(space, area, memory, t, Math.max(id + 1, 2 * ids))) return false;
  area.layout[L_GENERATION]++;
  refreshKernelArea(area, memory);
  return true;
}

/** Moves table `t` to a new range covering `ids` ids (its entries kept, the rest zeroed); false when nothing has room. */
function moveTable(space: KernelSpace, area: KernelArea, memory: WasmMemory, t: number, ids: number): boolean {
  const layout = area.layout;
  const oldAt = layout[L_TABLES + 2 * t], oldIds = layout[L_TABLES + 2 * t + 1];
  const at = takeBytes(space, area, memory, KIND_TABLES, tableBytes(t, ids));
  if (at < 0) return false;
  const words = new Int32Array(memory.buffer); // after any growth
  const width = TABLE_WIDTH[t];
  words.fill(0, at >> 2, (at >> 2) + ids * width); // a range given back holds its last copy's bytes
  if (oldIds > 0) {
    words.copyWithin(at >> 2, oldAt >> 2, (oldAt >> 2) + oldIds * width);
    giveBytes(space, area, KIND_TABLES, oldAt, tableBytes(t, oldIds));
  }
  layout[L_TABLES + 2 * t] = at;
  layout[L_TABLES + 2 * t + 1] = ids;
  return true;
}
