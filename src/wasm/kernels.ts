/**
 * A world's WebAssembly kernels (`world.wasm`, `kernels: 'wasm'`): the instance of
 * assembly/kernels.ts on the world's memory, whose buffer every pool is a view of (so a
 * pointer into it is a pool's `byteOffset` plus a row), and the kernel area: the copies of
 * the assets the kernels read (assets live outside the pools) — the skeletons' parents,
 * inverse binds and rest poses, the frames of dense clips, the masks' weights and the additive
 * layers' reference poses, and the per-joint tables of proportions-only bindings.
 *
 * The kernel area is a pool of its own (allocated with the others, after them): bump
 * counters, `KERNEL_AREA_SKELETONS × maxJoints` joints' worth of bytes for skeletons,
 * {@link clipAreaBytes} for clips, {@link poseAreaBytes} for masks and reference poses, and
 * tables of the copies' pointers by asset id. One copy per asset for the whole world: the
 * world's own thread copies the skeletons, clips, masks and reference poses registered
 * since the last frame before each frame ({@link syncKernelArea}, from
 * `beginFrame`), in id order; workers only read the tables. When the area is full, what was
 * not copied runs on the JavaScript kernels on every thread, so the numbers (the kernels
 * round in float32: docs/wasm.md) never depend on the thread count.
 */
import type { Binding } from '../assets/bindingTypes.js';
import type { Clip } from '../assets/Clip.js';
import { ANIMATED_Q, ANIMATED_S, ANIMATED_T, BIT_SCALE, DEFAULT_Q, DEFAULT_S, DEFAULT_T, DROP_SHIFT, INV255, SEGMENT_LENGTH, type CompressedTracks } from '../assets/compressedTracks.js';
import type { Skeleton } from '../assets/Skeleton.js';
import type { ReducedTracks } from '../assets/ReducedTracks.js';
import { reducedRecord } from './reducedCopy.js';
import * as layout from '../math/layout.js';
import { measureAllocations } from '../memory/poolAllocator.js';
import {
  coverId, createKernelAreaHeader, createKernelSpace, giveBytes, inertSpace, KIND_CLIPS, KIND_CONTACTS, KIND_POSES, KIND_SKELETONS,
  L_NO_CONTACTS, planTableBytes, refreshKernelArea, tableIds, TABLE_BINDING, TABLE_CLIP, TABLE_MASK, TABLE_REFERENCE, TABLE_REST, TABLE_SKIN, TABLE_CONTACT,
  takeBytes, viewKernelArea, type HeapPlan, type KernelArea, type KernelAreaHeader, type KernelSpace,
} from './areaLayout.js';
import { kernelAreaGrows } from './loader.js';
import { wasmApi, type WasmMemory, type WasmModule } from './wasmApi.js';
const { MATRIX_STRIDE } = layout;

import { KERNEL_STATIC_BYTES } from './dataSegments.js';
export { KERNEL_STATIC_BYTES };

/**
 * Where the first pool starts in the kernels' memory: past the module's data
 * ({@link KERNEL_STATIC_BYTES}) and 16 bytes into a page, where the pools sit in a large
 * `ArrayBuffer` (whose data starts 16 bytes into its pages, after the allocator's header):
 * measured at 10,000 × 64 joints, the blend system ran 5–8 % slower on pools starting at a page
 * boundary (offset 0 or 64), and as fast with this start.
 */
export const KERNEL_POOL_START = KERNEL_STATIC_BYTES + 16;

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
/** Byte of the joint count in a clip's record (negated in a compressed clip's). */
const CLIP_JOINT_COUNT = CLIP_COUNTS + 4;
const CLIP_HEADER = 16;

/**
 * Skeleton ids the kernel area's tables cover (`KernelArea.skinTable`, `KernelArea.restTable`):
 * characters of skeletons with larger ids run on the JavaScript kernels, on every thread.
 */
export const SKIN_TABLE_IDS = 64;

/**
 * Mask, reference pose and binding ids the kernel area's tables cover (`KernelArea.maskTable`,
 * `referenceTable`, `bindingTable`): beyond them the JavaScript kernels blend and sample.
 */
export const POSE_TABLE_IDS = 256;

/**
 * Masks, reference poses and bindings of `maxJoints` joints each the kernel area holds (per
 * world, all threads together), as long as that is at most {@link KERNEL_AREA_POSE_JOINTS}
 * joints: 64 of each.
 */
export const KERNEL_AREA_POSES = 64;

/** Most joints the kernel area holds reference poses (40 bytes a joint), masks (4 bytes) and bindings (56 bytes) for. */
export const KERNEL_AREA_POSE_JOINTS = 16_384;

/**
 * Bytes of the kernel area for the clips' contact tables (foot locking, `clip.contacts`): 256 KiB,
 * a flag byte per frame and marked joint (about 130 two-foot clips of 1,000 frames). A clip whose
 * table does not fit leaves the characters playing it to the JavaScript foot lock.
 */
export const KERNEL_AREA_CONTACT_BYTES = 262_144;

/**
 * A contact table's record in the kernel area (assembly/footLock.ts): the frame rate (f64), the
 * distinct frames, the rows and the clip's loop flag (i32) from byte 8, the rows' keys (i32) from
 * byte `CONTACT_HEADER`, then the flags (a byte per row and frame, row-major). The first record of
 * the room is all zeros: no rows, the copy of every clip without a table.
 */
const CONTACT_HEADER = 24;
const CONTACT_COUNTS = 8;
const NO_CONTACTS_BYTES = 32;

/** Clip ids the kernel area's clip table covers (`KernelArea.clipTable`): clips with larger ids are sampled on the JavaScript kernel. */
export const CLIP_TABLE_IDS = 1024;

/**
 * First ids of the tables on a growable area (skeletons, rest poses, clips, contact tables,
 * masks, reference poses, bindings): they grow, twice as long each time, with the ids used.
 */
const GROWABLE_TABLE_IDS = [16, 16, 64, 64, 16, 16, 16] as const;

/** Bytes a growable kernel area's heap starts with: the tables at their first ids, the no-contacts record, room for a few copies. */
export const KERNEL_AREA_START_BYTES = 65_536;

/**
 * How a world's kernel area starts (src/wasm/areaLayout.ts): on a shared memory (`grows`) a
 * small heap, {@link KERNEL_AREA_START_BYTES}, with no budgets and short tables, grown as assets
 * are registered; on a plain memory a fixed heap — room for {@link kernelAreaSkeletons}
 * skeletons, {@link clipAreaBytes} of clips, {@link poseAreaBytes} of masks, reference poses
 * and bindings, {@link KERNEL_AREA_CONTACT_BYTES} of contact tables, and tables of
 * {@link SKIN_TABLE_IDS}, {@link CLIP_TABLE_IDS} and {@link POSE_TABLE_IDS} ids.
 */
export function heapPlan(maxJoints: number, grows: boolean): HeapPlan {
  if (grows) return { grows, tableIds: GROWABLE_TABLE_IDS, budget: [Infinity, Infinity, Infinity, Infinity], bytes: KERNEL_AREA_START_BYTES };
  const tableIdsAtFirst = [SKIN_TABLE_IDS, SKIN_TABLE_IDS, CLIP_TABLE_IDS, CLIP_TABLE_IDS, POSE_TABLE_IDS, POSE_TABLE_IDS, POSE_TABLE_IDS];
  const budget = [kernelAreaSkeletons(maxJoints) * areaBytes(maxJoints), clipAreaBytes(maxJoints), poseAreaBytes(maxJoints), KERNEL_AREA_CONTACT_BYTES];
  return { grows, tableIds: tableIdsAtFirst, budget, bytes: budget.reduce((a, b) => a + b, 0) + planTableBytes(tableIdsAtFirst) };
}

/**
 * Bytes of the kernel area for masks, reference poses and bindings: {@link KERNEL_AREA_POSES}
 * of each at `maxJoints` joints (16-byte aligned), at most {@link KERNEL_AREA_POSE_JOINTS}
 * joints' worth.
 */
export function poseAreaBytes(maxJoints: number): number {
  const poses = Math.max(1, Math.min(KERNEL_AREA_POSES, Math.floor(KERNEL_AREA_POSE_JOINTS / maxJoints)));
  return poses * (restBytes(maxJoints) + maskBytes(maxJoints) + bindingBytes(maxJoints));
}

/** A binding's record (assembly/kernels.ts `sampleBound`): header bytes, then a row per target joint. */
const BINDING_HEADER = 16;
const BINDING_ROW = 16;

/** Bytes of a binding's record for `jointCount` target joints: header, rows, the target's rest pose. */
function bindingBytes(jointCount: number): number {
  return BINDING_HEADER + jointCount * BINDING_ROW + restBytes(jointCount);
}

/** Bytes of a mask's copy (float32 per joint) in the kernel area, 16-byte aligned. */
function maskBytes(jointCount: number): number {
  return Math.ceil((jointCount * 4) / 16) * 16;
}

/** Bytes of the kernel area for clips' frames: {@link KERNEL_AREA_CLIP_FRAMES} frames of `maxJoints` joints, at most {@link KERNEL_AREA_CLIP_JOINTS} joint poses. */
export function clipAreaBytes(maxJoints: number): number {
  return Math.min(KERNEL_AREA_CLIP_FRAMES * maxJoints, KERNEL_AREA_CLIP_JOINTS) * layout.POSE_STRIDE * 4;
}

/**
 * Bytes a world on the WebAssembly kernels allocates beyond a JavaScript world's pools when it
 * is created: the kernel area's header and its heap as it starts ({@link heapPlan}: small on a
 * shared memory, which grows as assets are registered; fixed on a plain one) and the
 * {@link KERNEL_POOL_START} bytes before the first pool (`worldBytes({ …, kernels: 'wasm' })`).
 * The memory itself is whole 64 KiB pages, so up to a page more is reserved.
 */
export function kernelAreaBytes(maxJoints: number, grows = kernelAreaGrows(1)): number {
  return KERNEL_POOL_START + measureAllocations((alloc) => createKernelAreaHeader(alloc)) + heapPlan(maxJoints, grows).bytes;
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
  local: number, model: number, palette: number, poseRow: number, matrixRow: number, modelRow: number,
) => number;

/** `memory.copy` of `bytes` bytes from `src` to `dst` (assembly/kernels.ts `copyBytes`). */
export type CopyKernel = (dst: number, src: number, bytes: number) => void;

/** The sampling kernel: one layer from a dense unbound clip (assembly/kernels.ts `sampleClip`). */
export type SampleKernel = (out: number, clip: number, time: number) => void;

/** Sampling with the JavaScript sampler's bits at any time (assembly/kernels.ts `sampleClipExact`, doubles): a transition's velocity blends. */
export type ExactSampleKernel = (out: number, clip: number, time: number) => void;

/** The override blend kernel: one character's unmasked override layers (assembly/kernels.ts `blendOverride`). */
export type BlendKernel = (
  out: number, poses: number, layerBytes: number, weights: number, layers: number, jointCount: number, rest: number, threshold: number,
) => void;

/** The override blend kernel for masked layers (assembly/kernels.ts `blendOverrideMasked`): `masks` points at the slots' mask pointers. */
export type MaskedBlendKernel = (
  out: number, poses: number, layerBytes: number, weights: number, masks: number, layers: number, jointCount: number, rest: number, threshold: number,
) => void;

/**
 * The override blend kernel with blend modes (assembly/kernels.ts `blendOverrideLayered`): `steps`
 * points at the plan's `count` blend steps (i32, layerRules.ts `planOverrideSteps`), `masks` at the
 * slots' mask pointers.
 */
export type LayeredBlendKernel = (
  out: number, poses: number, layerBytes: number, weights: number, masks: number, steps: number, count: number, jointCount: number, rest: number, threshold: number,
) => void;

/** The sampling kernel through a proportions-only binding (assembly/kernels.ts `sampleBound`). */
export type BoundSampleKernel = (out: number, clip: number, time: number, binding: number) => void;

/** The additive layer kernel (assembly/kernels.ts `applyAdditive`): one layer onto a character's pose in place. */
export type AdditiveKernel = (target: number, pose: number, reference: number, weight: number, mask: number, jointCount: number) => void;

/**
 * Foot locking's per-character kernel (assembly/footLock.ts `footLockLegs`): character `eid`'s
 * legs from `fromLeg` on, through the pointer block at `block`, its skeleton's parents (i32) at
 * `parents`; returns −1 when done, or the leg whose IK needs `solveTwoBoneIk` first.
 */
export type FootLockLegsKernel = (block: number, eid: number, parents: number, fromLeg: number) => number;

/**
 * Foot locking's batch kernel (assembly/footLock.ts `footLockEntries`): the batch's entries from
 * `from` to `count` through the pointer block at `block`; returns −1 when done, else
 * `k × 8 + code` (code 0–3: leg of entry k whose IK needs `solveTwoBoneIk`; 4: entry k is left to JavaScript).
 */
export type FootLockEntriesKernel = (block: number, from: number, count: number) => number;

/** The corrections of one leg after `solveTwoBoneIk` (assembly/footLock.ts `footLockTurn`). */
export type FootLockTurnKernel = (block: number, eid: number, parents: number, leg: number) => void;

/** Quintic inertialization offsets added to a character's pose (assembly/offsets.ts `applyQuinticOffsets`): `elapsed` points at its f32 clock. */
export type QuinticOffsetsKernel = (pose: number, offsets: number, jointCount: number, elapsed: number) => void;

/** Spring offsets advanced and added (assembly/offsets.ts `applySpringOffsets`): `params` points at y, e^(−y·dt), dt (f64); returns 1 while any is above rest. */
export type SpringOffsetsKernel = (pose: number, offsets: number, jointCount: number, params: number) => number;

/** Spring offsets added as they stand (assembly/offsets.ts `addSpringOffsets`): a rebuilt output. */
export type AddSpringOffsetsKernel = (pose: number, offsets: number, jointCount: number) => void;

/** Dead blending of a character's pose (assembly/offsets.ts `applyDeadBlend`): `clock` points at the seconds and the target weight (f64). */
export type DeadBlendKernel = (pose: number, state: number, jointCount: number, clock: number) => void;

/**
 * A transition's offsets at the switch (assembly/capture.ts `captureOffsets`): the target's poses,
 * P1, P2 and the offsets block at their byte addresses; `params` points at σh, Δt, the duration
 * and the running offset's clock (f64, src/wasm/offsetsWasm.ts `CAPTURE_PARAMS`).
 */
export type CaptureOffsetsKernel = (blend: number, blendOther: number, p1: number, p2: number, offsets: number, jointCount: number, mode: number, params: number) => void;

/** A request's P2 from P1 along the source's velocity (assembly/capture.ts `writeSourcePast`): as {@link CaptureOffsetsKernel}, the running offsets read. */
export type SourcePastKernel = (blend: number, blendOther: number, p1: number, p2: number, offsets: number, jointCount: number, mode: number, params: number) => void;

/** Quintic offsets of float curves (assembly/offsets.ts `applyQuinticCurveOffsets`). */
export type QuinticCurveOffsetsKernel = (values: number, slots: number, curveCount: number, elapsed: number) => void;

/** Spring offsets of float curves (assembly/offsets.ts `applySpringCurveOffsets`); returns 1 while any is above rest. */
export type SpringCurveOffsetsKernel = (values: number, slots: number, curveCount: number, params: number) => number;

/** Dead blending of float curves (assembly/offsets.ts `applyDeadBlendCurves`). */
export type DeadBlendCurvesKernel = (values: number, slots: number, curveCount: number, clock: number) => void;

/**
 * One thread's kernels of a world: the instance's exports, and (used on the world's own thread
 * only, by {@link syncKernelArea}) the assets whose copies the area's tables point to.
 */
export type { KernelArea, KernelAreaHeader, KernelSpace } from './areaLayout.js';

export interface WasmKernels {
  /** The thread this instance runs on (0: the world's own; a worker's `thread`): its counter in `area.chunks`. */
  readonly thread: number;
  readonly module: WasmModule;
  readonly memory: WasmMemory;
  /** This thread's views of the kernel area (made again when the memory grew or a table moved: src/wasm/areaLayout.ts). */
  readonly area: KernelArea;
  /**
   * The buffer the pools were viewed on (`memory.buffer` when the kernels were instantiated): a
   * view on it is in the memory. (`memory.buffer` itself is a new, longer buffer after growth.)
   */
  readonly poolBuffer: ArrayBufferLike;
  readonly skin: SkinKernel;
  readonly skinEntries: SkinEntriesKernel;
  readonly copyBytes: CopyKernel;
  readonly sampleClip: SampleKernel;
  readonly sampleClipExact: ExactSampleKernel;
  readonly sampleBound: BoundSampleKernel;
  readonly blendOverride: BlendKernel;
  readonly blendOverrideMasked: MaskedBlendKernel;
  readonly blendOverrideLayered: LayeredBlendKernel;
  readonly applyAdditive: AdditiveKernel;
  readonly footLockEntries: FootLockEntriesKernel;
  readonly footLockLegs: FootLockLegsKernel;
  readonly footLockTurn: FootLockTurnKernel;
  readonly applyQuinticOffsets: QuinticOffsetsKernel;
  readonly applySpringOffsets: SpringOffsetsKernel;
  readonly addSpringOffsets: AddSpringOffsetsKernel;
  readonly applyDeadBlend: DeadBlendKernel;
  readonly applyQuinticCurveOffsets: QuinticCurveOffsetsKernel;
  readonly applySpringCurveOffsets: SpringCurveOffsetsKernel;
  readonly applyDeadBlendCurves: DeadBlendCurvesKernel;
  readonly captureOffsets: CaptureOffsetsKernel;
  readonly writeSourcePast: SourcePastKernel;
  /** Per skeleton id: the skeleton the tables' entry was made for (null: none; its copy may be 0, the area was full). */
  readonly copied: (Skeleton | null)[];
  /** Per clip id: the clip the table's entry was made for (null: none; its copy may be 0: it did not fit). */
  readonly clipCopied: (Clip | null)[];
  /** Per mask id: the weights the mask table's entry was made for (null: none). */
  readonly maskCopied: (Float32Array | null)[];
  /** Per reference id: the pose the reference table's entry was made for (null: none). */
  readonly referenceCopied: (Float32Array | null)[];
  /** Per binding id: the binding the binding table's entry was made for (null: none; its copy is 0 for a binding with `retarget`). */
  readonly bindingCopied: (Binding | null)[];
  /**
   * Where the copies are (the world's own thread only; inert on a worker): the heap's free
   * ranges, the bytes per kind of copy, each copy's range by asset id, so a released asset's
   * space goes to the next one (src/wasm/areaLayout.ts).
   */
  readonly space: KernelSpace;
  /**
   * What {@link syncKernelArea} could not copy, once per kind of reason, as sentences for the
   * game to read (`world.warnings` is this array): a world that runs assets on the JavaScript
   * kernels says so.
   */
  readonly warnings: string[];
  /**
   * The world's mask weights, reference poses and bindings by id (`world.assets.masks`,
   * `.references`, `.bindings`), which {@link syncKernelArea} copies; empty on a worker (which
   * never copies).
   */
  readonly registries: {
    readonly masks: readonly Float32Array[];
    readonly references: readonly Float32Array[];
    readonly bindings: readonly Binding[];
  };
}

const WARNED_FULL = 1, WARNED_IDS = 2;

/** No masks or reference poses (a worker's registries: it never copies). */
const NO_POSES = { masks: [], references: [], bindings: [] } as const;

/**
 * Instantiates `module` on `memory` (the world's pool memory) for thread `thread` of the world
 * (0: its own), whose mask and reference registries are `registries` (the world's own thread),
 * viewing the kernel area of `header`. `heap` (the world's own thread, at creation) lays the
 * area's heap out from byte `start` to the memory's end by `plan`; a worker passes null and
 * views the layout the world's thread wrote.
 */
export function instantiateKernels(
  module: WasmModule, memory: WasmMemory, header: KernelAreaHeader, thread = 0, registries: WasmKernels['registries'] = NO_POSES,
  heap: { readonly start: number; readonly plan: HeapPlan } | null = null,
): WasmKernels {
  const api = wasmApi as NonNullable<typeof wasmApi>;
  const instance = new api.Instance(module, { env: { memory } });
  const exports = instance.exports;
  const area = viewKernelArea(header, memory);
  const space = heap === null ? inertSpace() : createKernelSpace(area, memory, heap.start, heap.plan, NO_CONTACTS_BYTES);
  return {
    thread, module, memory, area, space,
    poolBuffer: memory.buffer,
    skin: exports['skin'] as SkinKernel,
    skinEntries: exports['skinEntries'] as SkinEntriesKernel,
    copyBytes: exports['copyBytes'] as CopyKernel,
    sampleClip: exports['sampleClip'] as SampleKernel,
    sampleClipExact: exports['sampleClipExact'] as ExactSampleKernel,
    sampleBound: exports['sampleBound'] as BoundSampleKernel,
    blendOverride: exports['blendOverride'] as BlendKernel,
    blendOverrideMasked: exports['blendOverrideMasked'] as MaskedBlendKernel,
    blendOverrideLayered: exports['blendOverrideLayered'] as LayeredBlendKernel,
    applyAdditive: exports['applyAdditive'] as AdditiveKernel,
    footLockEntries: exports['footLockEntries'] as FootLockEntriesKernel,
    footLockLegs: exports['footLockLegs'] as FootLockLegsKernel,
    footLockTurn: exports['footLockTurn'] as FootLockTurnKernel,
    applyQuinticOffsets: exports['applyQuinticOffsets'] as QuinticOffsetsKernel,
    applySpringOffsets: exports['applySpringOffsets'] as SpringOffsetsKernel,
    addSpringOffsets: exports['addSpringOffsets'] as AddSpringOffsetsKernel,
    applyDeadBlend: exports['applyDeadBlend'] as DeadBlendKernel,
    applyQuinticCurveOffsets: exports['applyQuinticCurveOffsets'] as QuinticCurveOffsetsKernel,
    applySpringCurveOffsets: exports['applySpringCurveOffsets'] as SpringCurveOffsetsKernel,
    applyDeadBlendCurves: exports['applyDeadBlendCurves'] as DeadBlendCurvesKernel,
    captureOffsets: exports['captureOffsets'] as CaptureOffsetsKernel,
    writeSourcePast: exports['writeSourcePast'] as SourcePastKernel,
    copied: [],
    clipCopied: [],
    maskCopied: [],
    referenceCopied: [],
    bindingCopied: [],
    warnings: [],
    registries,
  };
}

/**
 * A worker's views of the kernel area made again when the world's thread grew the memory or
 * moved a table since (its layout's generation changed): before the worker's share of a frame.
 */
export function refreshKernels(kernels: WasmKernels): void {
  refreshKernelArea(kernels.area, kernels.memory);
}

/**
 * Brings the kernel area's tables up to the world's assets (`skeletons`, `clips`: its
 * registries, by id; its masks, reference poses and bindings from `kernels.registries`), on
 * the world's own thread before a frame (`beginFrame`, `skinSystem`, `blendSystem`), never on
 * a worker: each skeleton, each clip (dense, reduced or compressed), each mask, each reference
 * pose and each binding without `retarget` registered since the last call (or given an id
 * another asset had: `releaseSkeleton`, `releaseClip`) is copied into the area, in id order,
 * and its pointers written to the tables; a released id's entry is cleared and its copy's space
 * given back for the next asset (`kernels.space`). An asset that does not fit in what is free
 * (or whose id is beyond the tables) keeps a 0 entry: every thread runs it on the JavaScript
 * kernels, and `kernels.warnings` says so (once per reason). So which assets the kernels run
 * depends on the assets and the order they were registered and released in, never on the
 * thread count or on which thread meets an asset first. Allocates nothing when no asset
 * changed (a loop over the registries).
 */
export function syncKernelArea(kernels: WasmKernels, skeletons: readonly Skeleton[], clips: readonly Clip[]): void {
  const { copied, clipCopied, space, area, memory } = kernels;
  const skeletonIds = Math.max(skeletons.length, copied.length);
  for (let id = 0; id < skeletonIds; id++) {
    const skeleton = id < skeletons.length ? (skeletons[id] as Skeleton | undefined) ?? null : null;
    if (id < copied.length && copied[id] === skeleton) continue;
    while (copied.length <= id) copied.push(null);
    copied[id] = skeleton;
    if (id < tableIds(area, TABLE_SKIN)) {
      area.skinTable[id * 2] = 0;
      area.skinTable[id * 2 + 1] = 0;
    }
    if (id < area.restTable.length) area.restTable[id] = 0;
    release(kernels, KIND_SKELETONS, space.spans.skeletons, id);
    if (skeleton === null) continue;
    if (!coverId(space, area, memory, TABLE_SKIN, id) || !coverId(space, area, memory, TABLE_REST, id)) {
      warn(kernels, WARNED_IDS, `skeleton id ${id} is beyond the kernel area's ${area.restTable.length} skeleton ids`);
      continue;
    }
    copySkeleton(kernels, id, skeleton);
  }
  const clipIds = Math.max(clips.length, clipCopied.length);
  for (let id = 0; id < clipIds; id++) {
    const clip = id < clips.length ? (clips[id] as Clip | undefined) ?? null : null;
    if (id < clipCopied.length && clipCopied[id] === clip) continue;
    while (clipCopied.length <= id) clipCopied.push(null);
    clipCopied[id] = clip;
    if (id < area.clipTable.length) area.clipTable[id] = 0;
    if (id < area.contactTable.length) area.contactTable[id] = 0;
    release(kernels, KIND_CLIPS, space.spans.clips, id);
    release(kernels, KIND_CONTACTS, space.spans.contacts, id);
    if (clip === null) continue;
    if (!coverId(space, area, memory, TABLE_CLIP, id) || !coverId(space, area, memory, TABLE_CONTACT, id)) {
      warn(kernels, WARNED_IDS, `clip "${clip.name}" has id ${id}, beyond the kernel area's ${area.clipTable.length} clip ids`);
      continue;
    }
    if (clip.reduced === null) copyClip(kernels, id, clip); // every kind of clip has a copy
    else if (clip.reduced.compressed !== undefined) copyCompressedClip(kernels, id, clip, clip.reduced.compressed);
    else copyReducedClip(kernels, id, clip, clip.reduced);
    copyContacts(kernels, id, clip);
  }
  syncPoses(kernels, kernels.maskCopied, kernels.registries.masks, TABLE_MASK, space.spans.masks, 'mask');
  syncPoses(kernels, kernels.referenceCopied, kernels.registries.references, TABLE_REFERENCE, space.spans.references, 'reference pose');
  const { bindingCopied } = kernels;
  const bindings = kernels.registries.bindings;
  const bindingIds = Math.max(bindings.length, bindingCopied.length);
  for (let id = 0; id < bindingIds; id++) {
    const binding = id < bindings.length ? (bindings[id] as Binding | undefined) ?? null : null;
    if (id < bindingCopied.length && bindingCopied[id] === binding) continue;
    while (bindingCopied.length <= id) bindingCopied.push(null);
    bindingCopied[id] = binding;
    if (id < area.bindingTable.length) area.bindingTable[id] = 0;
    release(kernels, KIND_POSES, space.spans.bindings, id);
    if (binding === null || binding.retarget !== null) continue;
    if (!coverId(space, area, memory, TABLE_BINDING, id)) {
      warn(kernels, WARNED_IDS, `binding id ${id} is beyond the kernel area's ${area.bindingTable.length} binding ids`);
      continue;
    }
    copyBinding(kernels, id, binding);
  }
}

/** Adds `message` to `kernels.warnings` unless a warning of `reason` was given already. */
function warn(kernels: WasmKernels, reason: number, message: string): void {
  if ((kernels.space.warned & reason) !== 0) return;
  kernels.space.warned |= reason;
  const why = reason === WARNED_FULL ? 'the kernel area is full' : 'an asset id is beyond the kernel area\'s tables';
  kernels.warnings.push(`kernels 'wasm': ${message}; it runs on the JavaScript kernels (${why}; kernelAreaReport(world) lists what runs there)`);
}

/** Gives back the range asset `id` of `kind` (`spans`) held, if any. */
function release(kernels: WasmKernels, kind: number, spans: number[], id: number): void {
  if (2 * id >= spans.length || spans[2 * id] < 0) return;
  giveBytes(kernels.space, kernels.area, kind, spans[2 * id], spans[2 * id + 1]);
  spans[2 * id] = -1;
}

/**
 * Takes `size` bytes of the heap for asset `id` of `kind` (its range noted in `spans`; the
 * memory grown when it can): the pointer, or −1 when nothing has room. Views of the memory are
 * made after it (`kernels.area.words.buffer`): growth makes a new buffer.
 */
function reserve(kernels: WasmKernels, kind: number, spans: number[], id: number, size: number): number {
  const at = takeBytes(kernels.space, kernels.area, kernels.memory, kind, size);
  while (spans.length <= 2 * id + 1) spans.push(-1, 0);
  spans[2 * id] = at;
  spans[2 * id + 1] = size;
  return at;
}

/**
 * Copies binding `id` (`binding`, without `retarget`) into the kernel area's `poses` and writes
 * its pointer to the binding table ({@link syncKernelArea}): the target joint count (i32), a
 * 16-byte row per target joint (the source joint as i32, −1 unbound; the translation mode as
 * i32; the translation scale as f32), then the target's rest pose; leaves the entry 0 when it
 * does not fit.
 */
function copyBinding(kernels: WasmKernels, id: number, binding: Binding): void {
  const n = binding.sourceJoint.length;
  const at = reserve(kernels, KIND_POSES, kernels.space.spans.bindings, id, bindingBytes(n));
  if (at < 0) {
    warn(kernels, WARNED_FULL, `binding ${id} (onto ${n} joints) does not fit`);
    return;
  }
  const { area } = kernels;
  const buffer = area.words.buffer;
  const ints = new Int32Array(buffer, at, (BINDING_HEADER + n * BINDING_ROW) / 4);
  const floats = new Float32Array(buffer, at, (BINDING_HEADER + n * BINDING_ROW) / 4);
  ints[0] = n;
  for (let j = 0; j < n; j++) {
    const row = (BINDING_HEADER + j * BINDING_ROW) / 4;
    ints[row] = binding.sourceJoint[j];
    ints[row + 1] = binding.translationMode[j];
    floats[row + 2] = binding.translationScale[j];
  }
  new Float32Array(buffer, at + BINDING_HEADER + n * BINDING_ROW, n * layout.POSE_STRIDE).set(binding.target.rest.subarray(0, n * layout.POSE_STRIDE));
  area.bindingTable[id] = at;
}

/**
 * {@link syncKernelArea} for masks or reference poses (`what`): each entry of `registry` (by
 * id) not the one `copied` holds for its id is copied whole into `area.poses` (a mask's one
 * float32 per joint; a reference's pose and the curves' reference values after it), 16-byte
 * aligned, and its pointer written to `table`; 0 when it does not fit in what is free (a
 * smaller one may still fit) or its id was released (its space given back).
 */
function syncPoses(
  kernels: WasmKernels, copied: (Float32Array | null)[], registry: readonly Float32Array[], t: number, spans: number[], what: string,
): void {
  const { area, space, memory } = kernels;
  const ids = Math.max(registry.length, copied.length);
  for (let id = 0; id < ids; id++) {
    const values = id < registry.length ? (registry[id] as Float32Array | undefined) ?? null : null;
    if (id < copied.length && copied[id] === values) continue;
    while (copied.length <= id) copied.push(null);
    copied[id] = values;
    const before = t === TABLE_MASK ? area.maskTable : area.referenceTable;
    if (id < before.length) before[id] = 0;
    release(kernels, KIND_POSES, spans, id);
    if (values === null) continue;
    if (!coverId(space, area, memory, t, id)) {
      warn(kernels, WARNED_IDS, `${what} id ${id} is beyond the kernel area's ${before.length} ids`);
      continue;
    }
    const at = reserve(kernels, KIND_POSES, spans, id, Math.ceil((values.length * 4) / 16) * 16);
    if (at < 0) {
      warn(kernels, WARNED_FULL, `${what} ${id} does not fit`);
      continue;
    }
    new Float32Array(area.words.buffer, at, values.length).set(values);
    (t === TABLE_MASK ? area.maskTable : area.referenceTable)[id] = at; // the views after any growth
  }
}

/**
 * Copies skeleton `id` (`skeleton`) into the kernel area and writes its pointers to the tables
 * ({@link syncKernelArea}); leaves them 0 when the area is full.
 */
function copySkeleton(kernels: WasmKernels, id: number, skeleton: Skeleton): void {
  const n = skeleton.jointCount;
  const parentsAt = reserve(kernels, KIND_SKELETONS, kernels.space.spans.skeletons, id, areaBytes(n));
  if (parentsAt < 0) {
    warn(kernels, WARNED_FULL, `skeleton ${id} (${n} joints) does not fit`);
    return;
  }
  const { area } = kernels;
  const bytes = area.words;
  const bindAt = parentsAt + parentsBytes(n);
  const restAt = bindAt + n * MATRIX_STRIDE * 4;
  new Float32Array(bytes.buffer, restAt, n * layout.POSE_STRIDE).set(skeleton.rest.subarray(0, n * layout.POSE_STRIDE));
  const parents = new Int32Array(bytes.buffer, parentsAt, n);
  new Float32Array(bytes.buffer, bindAt, n * MATRIX_STRIDE).set(skeleton.inverseBind.subarray(0, n * MATRIX_STRIDE));
  for (let j = 0; j < n; j++) parents[j] = skeleton.parents[j];
  area.skinTable[id * 2] = parentsAt;
  area.skinTable[id * 2 + 1] = bindAt;
  area.restTable[id] = restAt;
}

/**
 * Copies clip `id` (`clip`, dense: `reduced === null`) into the kernel area ({@link
 * syncKernelArea}): a record of its frame rate, frame count and joint count, then its frames
 * as they are (float32), which assembly/kernels.ts `sampleClip` reads; writes its pointer to
 * the clip table, or leaves it 0 when the clip does not fit in what is free (a smaller clip
 * may still fit).
 */
function copyClip(kernels: WasmKernels, id: number, clip: Clip): void {
  const at = reserve(kernels, KIND_CLIPS, kernels.space.spans.clips, id, clipBytes(clip));
  if (at < 0) {
    warn(kernels, WARNED_FULL, `clip "${clip.name}" (${clip.frameCount} frames of ${clip.skeleton.jointCount} joints) does not fit`);
    return;
  }
  const { area } = kernels;
  const clips = area.words;
  new Float64Array(clips.buffer, at, 1)[0] = clip.frameRate;
  const counts = new Int32Array(clips.buffer, at + CLIP_COUNTS, 2);
  counts[0] = clip.frameCount;
  counts[1] = clip.skeleton.jointCount;
  new Float32Array(clips.buffer, at + CLIP_HEADER, clip.frames.length).set(clip.frames);
  area.clipTable[id] = at;
}

/**
 * Copies reduced clip `id` (`clip.reduced`, not compressed) into the kernel area for
 * assembly/reduced.ts `sampleReduced`: its record as src/wasm/reducedCopy.ts lays it out. Leaves
 * the clip table's entry 0 when it does not fit.
 */
function copyReducedClip(kernels: WasmKernels, id: number, clip: Clip, tracks: ReducedTracks): void {
  const record = reducedRecord(clip, tracks);
  const at = reserve(kernels, KIND_CLIPS, kernels.space.spans.clips, id, record.length);
  if (at < 0) {
    warn(kernels, WARNED_FULL, `reduced clip "${clip.name}" (${record.length} bytes) does not fit`);
    return;
  }
  new Uint8Array(kernels.area.words.buffer, at, record.length).set(record);
  kernels.area.clipTable[id] = at;
}

/**
 * Byte offsets of a compressed clip's record after `CLIP_HEADER`'s frame rate and counts (its
 * joint count stored negated, which tells `sampleClip` to decode): the animated track count,
 * then the addresses of its arrays (assembly/kernels.ts `sampleCompressed`).
 */
const CC_TRACKS = 16;
/** First of the 6 array addresses (i32 each): clip ranges, segment records, data, static pose, translations and scales, rotation pairs. */
const CC_ARRAYS = 20;
/** The counts of animated translations and scales and of rotation-pair records (after the 6 addresses). */
const CC_COUNTS = 44;
/** Bytes of an animated translation's or scale's entry (assembly/kernels.ts `CC_VECTOR_BYTES`). */
const CC_VECTOR_BYTES = 16;
/** Bytes of a compressed record's header. */
const CC_HEADER = 64;
/** Bytes of one segment's record of one track (assembly/kernels.ts `CC_SEGMENT_BYTES`). */
const CC_SEGMENT_BYTES = 64;
/** Bytes of a track's clip ranges (assembly/kernels.ts `CC_TRACK_BYTES`). */
const CC_TRACK_BYTES = 48;
/** Bytes of a record of two animated rotations (assembly/kernels.ts `CC_PAIR_BYTES`). */
const CC_PAIR_BYTES = 160;

/**
 * Copies compressed clip `id` (`clip.reduced.compressed`, see src/assets/compressedTracks.ts)
 * into the kernel area for assembly/kernels.ts `sampleCompressed`: a header (frame rate, frame
 * count, the joint count negated, the animated track count, its arrays' addresses), then the
 * arrays, each 16-byte aligned — each track's clip ranges as doubles, one 64-byte record per
 * segment and track (see {@link segmentRecords}), the samples as they are, the pose of what
 * does not move ({@link staticPose}), the animated translations and scales
 * ({@link vectorTracks}) and the animated rotations two by two ({@link rotationPairs}). Leaves the clip table's entry 0 when it does not fit.
 */
function copyCompressedClip(kernels: WasmKernels, id: number, clip: Clip, c: CompressedTracks): void {
  const J = c.jointCount;
  const align = (n: number): number => Math.ceil(n / 16) * 16;
  const vectors = vectorTracks(c), pairs = new Uint8Array(rotationPairs(c));
  const arrays: [ArrayLike<number>, 'u8' | 'u32' | 'f32' | 'f64'][] = [
    [clipRanges(c), 'f64'], [new Uint8Array(segmentRecords(c)), 'u8'], [c.data, 'u32'], [staticPose(clip, c), 'f32'],
    [vectors, 'u32'], [pairs, 'u8'],
  ];
  const sizes = arrays.map(([a, kind]) => align(a.length * (kind === 'u8' ? 1 : kind === 'f64' ? 8 : 4)));
  const at = reserve(kernels, KIND_CLIPS, kernels.space.spans.clips, id, CC_HEADER + sizes.reduce((x, y) => x + y, 0));
  if (at < 0) {
    warn(kernels, WARNED_FULL, `compressed clip "${clip.name}" (${c.byteLength} bytes) does not fit`);
    return;
  }
  const { area } = kernels;
  const clips = area.words;
  new Float64Array(clips.buffer, at, 1)[0] = clip.frameRate;
  const header = new Int32Array(clips.buffer, at + CLIP_COUNTS, (CC_HEADER - CLIP_COUNTS) / 4);
  header[0] = clip.frameCount;
  header[1] = -J;
  header[(CC_TRACKS - CLIP_COUNTS) / 4] = c.animatedTracks;
  header[(CC_COUNTS - CLIP_COUNTS) / 4] = vectors.length / (CC_VECTOR_BYTES / 4);
  header[(CC_COUNTS - CLIP_COUNTS) / 4 + 1] = pairs.length / CC_PAIR_BYTES;
  let p = at + CC_HEADER;
  arrays.forEach(([a, kind], i) => {
    header[(CC_ARRAYS - CLIP_COUNTS) / 4 + i] = p;
    if (kind === 'u8') new Uint8Array(clips.buffer, p, a.length).set(a);
    else if (kind === 'u32') new Uint32Array(clips.buffer, p, a.length).set(a);
    else if (kind === 'f64') new Float64Array(clips.buffer, p, a.length).set(a);
    else new Float32Array(clips.buffer, p, a.length).set(a);
    p += sizes[i];
  });
  area.clipTable[id] = at;
}

/** Per animated track of `c` and component: the clip range's min and extent, as doubles (exact: float32 widened). */
function clipRanges(c: CompressedTracks): Float64Array {
  const out = new Float64Array(c.clipMin.length * 2);
  for (let a = 0; a < c.clipMin.length; a++) {
    out[a * 2] = c.clipMin[a];
    out[a * 2 + 1] = c.clipExtent[a];
  }
  return out;
}

/** Words of a segment record: the first bit, the bit rate, the code mask, 3 · the rate; then (in doubles) the ranges. */
const SEG_START = 0, SEG_BITS = 1, SEG_MASK = 2, SEG_FRAME_BITS = 3, SEG_RANGES = 2;

/**
 * Per segment s and animated track i of `c`, 64 bytes: u32 the first bit of the track's
 * samples in `data` (`segmentStart[s] + 3·n_s·(the bit rates before it)`), u32 its bit rate b,
 * u32 the code mask 2^b − 1, u32 3·b (one frame's bits), then per component the two doubles
 * `decodeSample` computes from the segment range: m/255 and (x/255)·(1/(2^b − 1)). The kernel
 * reads one record per track and frame instead of deriving the rate, position and range each
 * time (16 bytes of ranges per component against the format's 2).
 */
function segmentRecords(c: CompressedTracks): ArrayBuffer {
  const A = c.animatedTracks, buffer = new ArrayBuffer(c.segmentCount * A * CC_SEGMENT_BYTES);
  const words = new Uint32Array(buffer), doubles = new Float64Array(buffer);
  for (let s = 0; s < c.segmentCount; s++) {
    const frames = Math.min(c.frameCount - s * SEGMENT_LENGTH, SEGMENT_LENGTH);
    for (let i = 0; i < A; i++) {
      const before = c.segmentBits[s * (A + 1) + i], bits = c.segmentBits[s * (A + 1) + i + 1] - before;
      const span = BIT_SCALE[bits], w = (s * A + i) * (CC_SEGMENT_BYTES / 4);
      words[w + SEG_START] = c.segmentStart[s] + 3 * frames * before;
      words[w + SEG_BITS] = bits;
      words[w + SEG_MASK] = 2 ** bits - 1;
      words[w + SEG_FRAME_BITS] = 3 * bits;
      for (let k = 0, r = (s * A + i) * 6; k < 3; k++) {
        const d = w / 2 + SEG_RANGES + k * 2;
        doubles[d] = c.segmentRanges[r + k * 2] * INV255;
        doubles[d + 1] = c.segmentRanges[r + k * 2 + 1] * INV255 * span;
      }
    }
  }
  return buffer;
}

/**
 * The pose of `clip`'s tracks that do not move, which the kernel copies before decoding the
 * others over it: per joint and track the skeleton's rest value (default tracks), the stored
 * value (constant tracks: T 3, Q 4, S 3 floats in `constants`) or 0 (animated).
 */
function staticPose(clip: Clip, c: CompressedTracks): Float32Array {
  const out = new Float32Array(c.jointCount * layout.POSE_STRIDE), rest = clip.skeleton.rest;
  const parts: [number, number, number, number][] = [[ANIMATED_T, DEFAULT_T, layout.POSE_T, 3], [ANIMATED_Q, DEFAULT_Q, layout.POSE_Q, 4], [ANIMATED_S, DEFAULT_S, layout.POSE_S, 3]];
  for (let j = 0; j < c.jointCount; j++) {
    const mask = c.jointMask[j], o = j * layout.POSE_STRIDE;
    let k = c.jointConstant[j];
    for (const [animated, rested, at, n] of parts) {
      if ((mask & animated) !== 0) continue;
      for (let e = 0; e < n; e++) out[o + at + e] = (mask & rested) !== 0 ? rest[o + at + e] : c.constants[k + e];
      if ((mask & rested) === 0) k += n;
    }
  }
  return out;
}

/**
 * The animated translations and scales of `c`, 4 u32 each: the byte of the pose they go to
 * (j · 40, + 28 for a scale), the track's segment-record offset (t · 64) and clip-range offset
 * (t · 48), padding.
 */
function vectorTracks(c: CompressedTracks): Uint32Array {
  const entries: number[] = [];
  for (let j = 0; j < c.jointCount; j++) {
    const mask = c.jointMask[j];
    let track = c.jointTrack[j];
    if ((mask & ANIMATED_T) !== 0) entries.push(j * layout.POSE_STRIDE * 4 + layout.POSE_T * 4, track * CC_SEGMENT_BYTES, track++ * CC_TRACK_BYTES, 0);
    if ((mask & ANIMATED_Q) !== 0) track++;
    if ((mask & ANIMATED_S) !== 0) entries.push(j * layout.POSE_STRIDE * 4 + layout.POSE_S * 4, track * CC_SEGMENT_BYTES, track * CC_TRACK_BYTES, 0);
  }
  return Uint32Array.from(entries);
}

/** Bytes in a rotation-pair record: the two swizzles, then the clip ranges. */
const PAIR_SWIZZLES = 32, PAIR_RANGES = 64;

/**
 * The animated rotations of `c`, two per 160-byte record, which the kernel decodes in the two
 * lanes of its f64x2 (the last record repeats its first rotation when the count is odd): i32
 * each joint's pose offset (j · 40) and each track's segment-record offset (t · 64), 16 bytes
 * of padding, each rotation's byte swizzle from its stored order (the three stored components,
 * then the rebuilt one) to x y z w, then per component the two tracks' clip-range minima and
 * extents as doubles.
 */
function rotationPairs(c: CompressedTracks): ArrayBuffer {
  const joints: number[] = [];
  for (let j = 0; j < c.jointCount; j++) if ((c.jointMask[j] & ANIMATED_Q) !== 0) joints.push(j);
  const pairs = Math.ceil(joints.length / 2), buffer = new ArrayBuffer(pairs * CC_PAIR_BYTES);
  const ints = new Int32Array(buffer), bytes = new Uint8Array(buffer), doubles = new Float64Array(buffer);
  for (let n = 0; n < pairs * 2; n++) {
    const j = joints[Math.min(n, joints.length - 1)], lane = n & 1, at = (n >> 1) * CC_PAIR_BYTES;
    const mask = c.jointMask[j], drop = mask >> DROP_SHIFT;
    const track = c.jointTrack[j] + ((mask & ANIMATED_T) !== 0 ? 1 : 0);
    ints[at / 4 + lane] = j * layout.POSE_STRIDE * 4;
    ints[at / 4 + 2 + lane] = track * CC_SEGMENT_BYTES;
    // Component x y z w (L) comes from stored slot 3 (the rebuilt one) at L = drop, else L or L − 1.
    for (let L = 0; L < 4; L++) {
      const from = L === drop ? 3 : L < drop ? L : L - 1;
      for (let b = 0; b < 4; b++) bytes[at + PAIR_SWIZZLES + lane * 16 + L * 4 + b] = from * 4 + b;
    }
    for (let k = 0; k < 3; k++) {
      doubles[(at + PAIR_RANGES + k * 32) / 8 + lane] = c.clipMin[track * 3 + k];
      doubles[(at + PAIR_RANGES + 16 + k * 32) / 8 + lane] = c.clipExtent[track * 3 + k];
    }
  }
  return buffer;
}

/**
 * Copies clip `id`'s contact table (`clip.contacts`, foot locking) into the kernel area's
 * `contacts` ({@link syncKernelArea}) and writes its pointer to `contactTable`: a clip without a
 * table points at the room's all-zero first record (no rows); a table that does not fit in what
 * is left keeps the entry 0 (the JavaScript foot lock runs the characters playing it).
 */
function copyContacts(kernels: WasmKernels, id: number, clip: Clip): void {
  const table = clip.contacts;
  if (table === null || table === undefined) {
    kernels.area.contactTable[id] = kernels.area.layout[L_NO_CONTACTS]; // the all-zero record: no rows
    return;
  }
  const rows = table.keys.length;
  const at = reserve(kernels, KIND_CONTACTS, kernels.space.spans.contacts, id, Math.ceil((CONTACT_HEADER + rows * 4 + table.flags.length) / 16) * 16);
  if (at < 0) {
    warn(kernels, WARNED_FULL, `the contact table of clip "${clip.name}" does not fit (foot locking of the characters playing it)`);
    return;
  }
  const { area } = kernels;
  const contacts = area.words;
  new Float64Array(contacts.buffer, at, 1)[0] = table.frameRate;
  const ints = new Int32Array(contacts.buffer, at + CONTACT_COUNTS, (CONTACT_HEADER - CONTACT_COUNTS) / 4 + rows);
  ints[0] = table.frames;
  ints[1] = rows;
  ints[2] = clip.loop ? 1 : 0;
  ints.set(table.keys, (CONTACT_HEADER - CONTACT_COUNTS) / 4);
  new Uint8Array(contacts.buffer, at + CONTACT_HEADER + rows * 4, table.flags.length).set(table.flags);
  area.contactTable[id] = at;
}

/** The pointer of skeleton `id`'s (parents, inverse binds, rest pose) copy in the kernel area: 0 when it has none (the JavaScript kernels run it). */
export function skeletonCopyAt(area: KernelArea, id: number): number {
  return id < area.restTable.length && id * 2 < area.skinTable.length ? area.skinTable[id * 2] : 0;
}

/** The pointer of clip `id`'s record in the kernel area: 0 when it has none (the JavaScript kernel samples it). */
export function clipCopyAt(area: KernelArea, id: number): number {
  return id < area.clipTable.length ? area.clipTable[id] : 0;
}

/**
 * The copy of `clip`'s frames the kernels sample (a view into the kernel area), or null when it
 * has none. The kernels never read `clip.frames` after the copy, so whoever changes a clip's
 * frames in place (tests poisoning a clip) changes this copy too.
 */
export function copiedClipFrames(kernels: WasmKernels, clip: Clip): Float32Array | null {
  const id = kernels.clipCopied.indexOf(clip);
  const at = id < 0 ? 0 : clipCopyAt(kernels.area, id);
  return at === 0 ? null : new Float32Array(kernels.area.words.buffer, at + CLIP_HEADER, clip.frames.length);
}

/**
 * Samples clip `id` (unbound) on `sampleClipExact` into the pose at byte `out`, its time at byte
 * `time`: `sampleClipInto`'s bits (dense, reduced or compressed); false, having written nothing,
 * when the clip has no copy in the kernel area.
 */
export function sampleExactWasm(kernels: WasmKernels, id: number, out: number, time: number): boolean {
  const { area } = kernels;
  const at = id < area.clipTable.length ? area.clipTable[id] : 0;
  if (at === 0) return false;
  kernels.sampleClipExact(out, at, time);
  return true;
}

/**
 * Samples a layer from clip `id` (dense) on the WebAssembly kernels into the layer pose at byte
 * `out`, its time at byte `time` (`Layers.time`'s element): `sampleClip` without a binding
 * (`bindingId` −1), `sampleBound` through binding `bindingId` when it has no `retarget`; false,
 * having written nothing, when the clip or the binding has no copy in the kernel area (a
 * binding with `retarget` never has one), or the clip is compressed and bound: the caller
 * samples it on the JavaScript kernel. A compressed clip (`copyCompressedClip`) samples on
 * `sampleClip`, which decodes it.
 */
export function sampleLayerWasm(kernels: WasmKernels, id: number, out: number, time: number, bindingId = -1): boolean {
  const { area } = kernels;
  const at = id < area.clipTable.length ? area.clipTable[id] : 0;
  if (at === 0) return false;
  if (bindingId < 0) {
    kernels.sampleClip(out, at, time);
    return true;
  }
  const bindingAt = bindingId < area.bindingTable.length ? area.bindingTable[bindingId] : 0;
  // A compressed record (its joint count stored negated) is bound on JavaScript. Read from the
  // record, not `clipCopied`: a worker's kernels share the area but keep no copies list.
  if (bindingAt === 0 || area.words[(at + CLIP_JOINT_COUNT) >> 2] < 0) return false;
  kernels.sampleBound(out, at, time, bindingAt);
  return true;
}
