/**
 * A world's WebAssembly kernels (`world.wasm`, `kernels: 'wasm'`): the instance of
 * assembly/kernels.ts on the world's memory, whose buffer every pool is a view of (so a
 * pointer into it is a pool's `byteOffset` plus a row), and the kernel area: the copies of
 * the assets the kernels read (assets live outside the pools) — the skeletons' parents,
 * inverse binds and rest poses, and the frames of dense clips.
 *
 * The kernel area is a pool of its own (allocated with the others, after them): bump
 * counters, `KERNEL_AREA_SKELETONS × maxJoints` joints' worth of bytes for skeletons and
 * {@link clipAreaBytes} for clips. Each thread copies a skeleton there the first time it
 * skins or blends one of its characters, a clip the first time it samples it (the bumps are
 * atomic, so threads sharing the memory never overlap), and keeps the pointers in its own
 * registries, indexed by id and checked against the asset object (ids are recycled by
 * `releaseSkeleton` / `releaseClip`; a new asset under an old id is copied anew). When the
 * area is full, what was not copied runs on the JavaScript kernels, which give the same
 * numbers (assembly/kernels.ts), only slower.
 */
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import * as layout from '../math/layout.js';
import { MAX_THREADS } from '../memory/environment.js';
import { measureAllocations, type PoolAllocator } from '../memory/poolAllocator.js';
import { wasmApi, type WasmMemory, type WasmModule } from './wasmApi.js';
const { MATRIX_STRIDE } = layout;

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

/**
 * Pose frames of `maxJoints` joints the kernel area holds for clips (per world, all threads
 * together: each thread copies the clips it samples), as long as that is at most
 * {@link KERNEL_AREA_CLIP_JOINTS} joint poses: 2,048 frames (68 s at 30 fps) at 64 joints.
 */
export const KERNEL_AREA_CLIP_FRAMES = 2048;

/** Most joint poses (40 bytes each) the kernel area holds for clips: 5 MiB. */
export const KERNEL_AREA_CLIP_JOINTS = 131_072;

/**
 * A clip's record in the kernel area (assembly/kernels.ts `sampleClip`): the frame rate (f64)
 * at byte 0, the frame count and the joint count (i32) from byte `CLIP_COUNTS`, the frames from
 * byte `CLIP_HEADER`.
 */
const CLIP_COUNTS = 8;
const CLIP_HEADER = 16;

/**
 * Skeleton ids each thread's table for the chunk skinning kernel covers (`KernelArea.skinTable`);
 * characters of skeletons with larger ids are skinned one call each.
 */
export const SKIN_TABLE_IDS = 64;


/**
 * The kernel area's pools: `top[0]` is the bytes of `bytes` (skeletons) handed out so far,
 * `top[1]` those of `clips`; `chunks[t]` counts the calls thread `t` (0: the world's own
 * thread, 1 …: its workers) made to the skinning kernels' chunk loop (one per chunk of a
 * frame, or per `skinSystem` pass over the crowd): with it a test, or a page, sees that a
 * worker really ran WebAssembly. `params[t]` is thread `t`'s slot for a float the kernels read
 * (the blend threshold), so none is passed as a number argument. `skinTable` holds, per thread,
 * {@link SKIN_TABLE_IDS} (parents, bind) pointer pairs by skeleton id (0: not copied, or stale)
 * that the chunk kernel `skinEntries` reads; thread `t`'s from element `t × 2 × SKIN_TABLE_IDS`.
 */
export interface KernelArea {
  readonly top: Int32Array;
  readonly bytes: Float64Array;
  readonly chunks: Float64Array;
  readonly params: Float64Array;
  readonly clips: Float64Array;
  readonly skinTable: Int32Array;
}

/** Allocates a kernel area for skeletons of up to `maxJoints` joints (buildAnimationWorld, after the pools). */
export function createKernelArea(maxJoints: number, alloc: PoolAllocator): KernelArea {
  return {
    top: alloc.array(Int32Array, 4),
    chunks: alloc.array(Float64Array, MAX_THREADS),
    params: alloc.array(Float64Array, MAX_THREADS),
    bytes: alloc.array(Float64Array, (kernelAreaSkeletons(maxJoints) * areaBytes(maxJoints)) / 8),
    skinTable: alloc.array(Int32Array, MAX_THREADS * 2 * SKIN_TABLE_IDS),
    clips: alloc.array(Float64Array, clipAreaBytes(maxJoints) / 8),
  };
}

/** Bytes of the kernel area for clips' frames: {@link KERNEL_AREA_CLIP_FRAMES} frames of `maxJoints` joints, at most {@link KERNEL_AREA_CLIP_JOINTS} joint poses. */
export function clipAreaBytes(maxJoints: number): number {
  return Math.min(KERNEL_AREA_CLIP_FRAMES * maxJoints, KERNEL_AREA_CLIP_JOINTS) * layout.POSE_STRIDE * 4;
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

/** Bytes one skeleton of `jointCount` joints takes in the kernel area (16-byte aligned parts): parents, inverse binds, rest pose. */
function areaBytes(jointCount: number): number {
  return parentsBytes(jointCount) + jointCount * MATRIX_STRIDE * 4 + restBytes(jointCount);
}

/** Bytes of a skeleton's parents (i32) in the kernel area, 16-byte aligned. */
function parentsBytes(jointCount: number): number {
  return Math.ceil((jointCount * 4) / 16) * 16;
}

/** Bytes of a skeleton's rest pose (float32 poses) in the kernel area, 16-byte aligned. */
function restBytes(jointCount: number): number {
  return Math.ceil((jointCount * layout.POSE_STRIDE * 4) / 16) * 16;
}

/** Bytes a clip's record takes in the kernel area: header and frames, 16-byte aligned. */
function clipBytes(clip: Clip): number {
  return CLIP_HEADER + Math.ceil((clip.frames.length * 4) / 16) * 16;
}

/** The skinning kernel: one character (assembly/kernels.ts `skin`). */
export type SkinKernel = (local: number, model: number, palette: number, parents: number, bind: number, count: number) => void;

/** The chunk skinning kernel: update-list entries `[first, last)` (assembly/kernels.ts `skinEntries`); returns the first entry it left. */
export type SkinEntriesKernel = (
  eids: number, first: number, last: number, skeletonOf: number, jointCountOf: number, table: number, tableIds: number,
  local: number, model: number, palette: number, poseRow: number, matrixRow: number,
) => number;

/** `memory.copy` of `bytes` bytes from `src` to `dst` (assembly/kernels.ts `copyBytes`). */
export type CopyKernel = (dst: number, src: number, bytes: number) => void;

/** The sampling kernel: one layer from a dense unbound clip (assembly/kernels.ts `sampleClip`). */
export type SampleKernel = (out: number, clip: number, time: number) => void;

/** The override blend kernel: one character's unmasked override layers (assembly/kernels.ts `blendOverride`). */
export type BlendKernel = (
  out: number, poses: number, layerBytes: number, weights: number, layers: number, jointCount: number, rest: number, threshold: number,
) => void;

/** One thread's kernels of a world: the instance's exports and its registry of skeleton copies. */
export interface WasmKernels {
  /** The thread this instance runs on (0: the world's own; a worker's `thread`): its counter in `area.chunks`. */
  readonly thread: number;
  readonly module: WasmModule;
  readonly memory: WasmMemory;
  readonly area: KernelArea;
  readonly skin: SkinKernel;
  readonly skinEntries: SkinEntriesKernel;
  readonly copyBytes: CopyKernel;
  /** This thread's part of `area.skinTable` (pairs by skeleton id) and its byte offset in the memory. */
  readonly skinTable: Int32Array;
  readonly skinTableAt: number;
  readonly sampleClip: SampleKernel;
  readonly blendOverride: BlendKernel;
  /** Per skeleton id: the skeleton copied (null: none yet), its parents', inverse bind's and rest pose's pointers (−1: the area was full). */
  readonly copied: (Skeleton | null)[];
  readonly parentsAt: number[];
  readonly bindAt: number[];
  readonly restAt: number[];
  /** Per clip id: the clip copied (null: none yet), its record's pointer (−1: it did not fit). */
  readonly clipCopied: (Clip | null)[];
  readonly clipAt: number[];
}

/** Instantiates `module` on `memory` (the world's pool memory) for thread `thread` of the world (0: its own). */
export function instantiateKernels(module: WasmModule, memory: WasmMemory, area: KernelArea, thread = 0): WasmKernels {
  const api = wasmApi as NonNullable<typeof wasmApi>;
  const instance = new api.Instance(module, { env: { memory } });
  const exports = instance.exports;
  return {
    thread, module, memory, area,
    skin: exports['skin'] as SkinKernel,
    skinEntries: exports['skinEntries'] as SkinEntriesKernel,
    copyBytes: exports['copyBytes'] as CopyKernel,
    skinTable: area.skinTable.subarray(thread * 2 * SKIN_TABLE_IDS, (thread + 1) * 2 * SKIN_TABLE_IDS),
    skinTableAt: area.skinTable.byteOffset + thread * 2 * SKIN_TABLE_IDS * 4,
    sampleClip: exports['sampleClip'] as SampleKernel,
    blendOverride: exports['blendOverride'] as BlendKernel,
    copied: [], parentsAt: [], bindAt: [], restAt: [],
    clipCopied: [], clipAt: [],
  };
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
    kernels.restAt.push(-1);
  }
  kernels.copied[id] = skeleton;
  if (id < SKIN_TABLE_IDS) kernels.skinTable[id * 2] = 0;
  if (start + size > bytes.byteLength) {
    kernels.parentsAt[id] = -1;
    kernels.bindAt[id] = -1;
    kernels.restAt[id] = -1;
    return;
  }
  const parentsAt = bytes.byteOffset + start;
  const bindAt = parentsAt + parentsBytes(n);
  const restAt = bindAt + n * MATRIX_STRIDE * 4;
  new Float32Array(bytes.buffer, restAt, n * layout.POSE_STRIDE).set(skeleton.rest.subarray(0, n * layout.POSE_STRIDE));
  const parents = new Int32Array(bytes.buffer, parentsAt, n);
  new Float32Array(bytes.buffer, bindAt, n * MATRIX_STRIDE).set(skeleton.inverseBind.subarray(0, n * MATRIX_STRIDE));
  for (let j = 0; j < n; j++) parents[j] = skeleton.parents[j];
  kernels.parentsAt[id] = parentsAt;
  kernels.bindAt[id] = bindAt;
  kernels.restAt[id] = restAt;
  if (id < SKIN_TABLE_IDS) {
    kernels.skinTable[id * 2] = parentsAt;
    kernels.skinTable[id * 2 + 1] = bindAt;
  }
}

/**
 * Copies clip `id` (`clip`, dense: `reduced === null`) into the kernel area for this thread
 * (the first time it samples it, or after its id went to another clip): a record of its frame
 * rate, frame count and joint count, then its frames as they are (float32), which
 * assembly/kernels.ts `sampleClip` reads. Records its pointer in `kernels`, −1 when it does not
 * fit in what is left of the area (the area's counter then stays, so a smaller clip may still
 * fit). Rare: no per-frame cost.
 */
export function copyClip(kernels: WasmKernels, id: number, clip: Clip): void {
  const { top, clips } = kernels.area;
  const size = clipBytes(clip);
  while (kernels.clipCopied.length <= id) {
    kernels.clipCopied.push(null);
    kernels.clipAt.push(-1);
  }
  kernels.clipCopied[id] = clip;
  kernels.clipAt[id] = -1;
  let start = Atomics.load(top, 1);
  for (;;) {
    if (start + size > clips.byteLength) return;
    const seen = Atomics.compareExchange(top, 1, start, start + size);
    if (seen === start) break;
    start = seen;
  }
  const at = clips.byteOffset + start;
  new Float64Array(clips.buffer, at, 1)[0] = clip.frameRate;
  const counts = new Int32Array(clips.buffer, at + CLIP_COUNTS, 2);
  counts[0] = clip.frameCount;
  counts[1] = clip.skeleton.jointCount;
  new Float32Array(clips.buffer, at + CLIP_HEADER, clip.frames.length).set(clip.frames);
  kernels.clipAt[id] = at;
}

/**
 * The copy of `clip`'s frames this thread's kernels sample (a view into the kernel area), or
 * null when it has none. The kernels never read `clip.frames` after the copy, so whoever
 * changes a clip's frames in place (tests poisoning a clip) changes this copy too.
 */
export function copiedClipFrames(kernels: WasmKernels, clip: Clip): Float32Array | null {
  const id = kernels.clipCopied.indexOf(clip);
  const at = id < 0 ? -1 : kernels.clipAt[id];
  return at < 0 ? null : new Float32Array(kernels.area.clips.buffer, at + CLIP_HEADER, clip.frames.length);
}

/**
 * Samples layer slot `li` from clip `id` (`clip`: dense, no binding) on the WebAssembly kernel
 * into the layer pose at byte `out`, its time at byte `time` (`Layers.time`'s element), copying
 * the clip first if this thread has not; false, having written nothing, when the clip does not
 * fit in the kernel area (the caller samples it on the JavaScript kernel).
 */
export function sampleLayerWasm(kernels: WasmKernels, id: number, clip: Clip, out: number, time: number): boolean {
  if (id >= kernels.clipCopied.length || kernels.clipCopied[id] !== clip) copyClip(kernels, id, clip);
  const at = kernels.clipAt[id];
  if (at < 0) return false;
  kernels.sampleClip(out, at, time);
  return true;
}
