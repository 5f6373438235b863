/**
 * A world's WebAssembly kernels (`world.wasm`, `kernels: 'wasm'`): the instance of
 * assembly/kernels.ts on the world's memory, whose buffer every pool is a view of (so a
 * pointer into it is a pool's `byteOffset` plus a row), and the kernel area: the copies of
 * the skeletons' parents and inverse binds the kernels read (assets live outside the pools).
 *
 * The kernel area is a pool of its own (allocated with the others, after them): a bump
 * counter and `KERNEL_AREA_SKELETONS × maxJoints` joints' worth of bytes. Each thread copies a
 * skeleton there the first time it skins one of its characters (the bump is an
 * `Atomics.add`, so threads sharing the memory never overlap) and keeps the pointers in its
 * own registry, indexed by skeleton id and checked against the skeleton object (ids are
 * recycled by `releaseSkeleton`; a new skeleton under an old id is copied anew). When the area
 * is full, characters of skeletons not yet copied are skinned by the JavaScript kernels, which
 * give the same numbers (assembly/kernels.ts), only slower.
 */
import type { Skeleton } from '../assets/Skeleton.js';
import * as layout from '../math/layout.js';
import { MAX_THREADS } from '../memory/environment.js';
import { measureAllocations, type PoolAllocator } from '../memory/poolAllocator.js';
import { wasmApi, type WasmMemory, type WasmModule } from './wasmApi.js';
const { MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T } = layout;

/**
 * Bytes left unused at the start of the kernels' memory, before the first pool. The pools then
 * sit where they do in a large `ArrayBuffer` (whose data starts 16 bytes into its pages, after
 * the allocator's header): measured at 10,000 × 64 joints, the blend system ran 5–8 % slower
 * on pools starting at a page boundary (offset 0 or 64), and as fast with this start.
 */
export const KERNEL_POOL_START = 16;

/**
 * Skeletons of `maxJoints` joints the kernel area holds (per world, all threads together), as
 * long as that is at most `KERNEL_AREA_JOINTS` joints; else as many as fit in that many joints
 * (at least one).
 */
export const KERNEL_AREA_SKELETONS = 32;

/** Most joints the kernel area is sized for, beyond one skeleton of `maxJoints` (see {@link kernelAreaSkeletons}). */
export const KERNEL_AREA_JOINTS = 8192;

/** Doubles of an inverse bind row in the kernel area (x y z t), and of a joint's three rows. */
const BIND_ROW = 4;
const BIND_STRIDE = 3 * BIND_ROW;

/**
 * The kernel area's pools: `top[0]` is the bytes of `bytes` handed out so far; `chunks[t]`
 * counts the calls thread `t` (0: the world's own thread, 1 …: its workers) made to the
 * skinning kernels' chunk loop (one per chunk of a frame, or per `skinSystem` pass over the
 * crowd): with it a test, or a page, sees that a worker really ran WebAssembly.
 */
export interface KernelArea {
  readonly top: Int32Array;
  readonly bytes: Float64Array;
  readonly chunks: Float64Array;
}

/** Allocates a kernel area for skeletons of up to `maxJoints` joints (buildAnimationWorld, after the pools). */
export function createKernelArea(maxJoints: number, alloc: PoolAllocator): KernelArea {
  return {
    top: alloc.array(Int32Array, 4),
    chunks: alloc.array(Float64Array, MAX_THREADS),
    bytes: alloc.array(Float64Array, (kernelAreaSkeletons(maxJoints) * areaBytes(maxJoints)) / 8),
  };
}

/**
 * Bytes a world on the WebAssembly kernels allocates beyond a JavaScript world's pools: the
 * kernel area of {@link createKernelArea} (alignment included) and the {@link KERNEL_POOL_START}
 * bytes before the first pool (`worldBytes(…, 'wasm')`). The memory itself is whole 64 KiB
 * pages, so up to a page more is reserved.
 */
export function kernelAreaBytes(maxJoints: number): number {
  return KERNEL_POOL_START + measureAllocations((alloc) => createKernelArea(maxJoints, alloc));
}

/** Skeletons of `maxJoints` joints a world's kernel area holds: {@link KERNEL_AREA_SKELETONS}, fewer for large `maxJoints`. */
export function kernelAreaSkeletons(maxJoints: number): number {
  return Math.max(1, Math.min(KERNEL_AREA_SKELETONS, Math.floor(KERNEL_AREA_JOINTS / maxJoints)));
}

/** Bytes one skeleton of `jointCount` joints takes in the kernel area (16-byte aligned parts). */
function areaBytes(jointCount: number): number {
  return Math.ceil((jointCount * 4) / 16) * 16 + jointCount * BIND_STRIDE * 8;
}

/** The skinning kernel: one character (assembly/kernels.ts `skin`). */
export type SkinKernel = (local: number, model: number, palette: number, parents: number, bind: number, count: number) => void;

/** One thread's kernels of a world: the instance's exports and its registry of skeleton copies. */
export interface WasmKernels {
  /** The thread this instance runs on (0: the world's own; a worker's `thread`): its counter in `area.chunks`. */
  readonly thread: number;
  readonly module: WasmModule;
  readonly memory: WasmMemory;
  readonly area: KernelArea;
  readonly skin: SkinKernel;
  /** Per skeleton id: the skeleton copied (null: none yet), its parents' and inverse bind's pointers (−1: the area was full). */
  readonly copied: (Skeleton | null)[];
  readonly parentsAt: number[];
  readonly bindAt: number[];
}

/** Instantiates `module` on `memory` (the world's pool memory) for thread `thread` of the world (0: its own). */
export function instantiateKernels(module: WasmModule, memory: WasmMemory, area: KernelArea, thread = 0): WasmKernels {
  const api = wasmApi as NonNullable<typeof wasmApi>;
  const instance = new api.Instance(module, { env: { memory } });
  return { thread, module, memory, area, skin: instance.exports['skin'] as SkinKernel, copied: [], parentsAt: [], bindAt: [] };
}

/**
 * Copies skeleton `id` (`skeleton`) into the kernel area for this thread (the first time one of
 * its characters is skinned here, or after its id went to another skeleton), recording the
 * pointers in `kernels`; −1 pointers when the area is full. Rare: no per-frame cost.
 */
export function copySkeleton(kernels: WasmKernels, id: number, skeleton: Skeleton): void {
  const { top, bytes } = kernels.area;
  const n = skeleton.jointCount;
  const size = areaBytes(n);
  const start = Atomics.add(top, 0, size);
  while (kernels.copied.length <= id) {
    kernels.copied.push(null);
    kernels.parentsAt.push(-1);
    kernels.bindAt.push(-1);
  }
  kernels.copied[id] = skeleton;
  if (start + size > bytes.byteLength) {
    kernels.parentsAt[id] = -1;
    kernels.bindAt[id] = -1;
    return;
  }
  const parentsAt = bytes.byteOffset + start;
  const bindAt = parentsAt + Math.ceil((n * 4) / 16) * 16;
  const parents = new Int32Array(bytes.buffer, parentsAt, n);
  const bind = new Float64Array(bytes.buffer, bindAt, n * BIND_STRIDE);
  const source = skeleton.inverseBind;
  for (let j = 0; j < n; j++) {
    parents[j] = skeleton.parents[j];
    // the matrix's rows (x y z t of row r), from its columns (src/math/layout.ts)
    const m = j * MATRIX_STRIDE;
    for (let row = 0; row < 3; row++) {
      const b = j * BIND_STRIDE + row * BIND_ROW;
      bind[b] = source[m + MATRIX_X + row];
      bind[b + 1] = source[m + MATRIX_Y + row];
      bind[b + 2] = source[m + MATRIX_Z + row];
      bind[b + BIND_ROW - 1] = source[m + MATRIX_T + row];
    }
  }
  kernels.parentsAt[id] = parentsAt;
  kernels.bindAt[id] = bindAt;
}
