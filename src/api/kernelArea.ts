/**
 * `kernelAreaReport`: what a world on the WebAssembly kernels holds in its kernel area (the
 * copies of the assets the kernels read) and which of its assets run on the JavaScript kernels
 * instead, and why — so a game sees a fallback rather than guessing from a slower frame.
 */
import type { Clip } from '../assets/Clip.js';
import { KIND_CLIPS, KIND_CONTACTS, KIND_POSES, KIND_SKELETONS } from '../wasm/areaLayout.js';
import { syncKernelArea } from '../wasm/kernels.js';
import type { AnimationWorld } from '../world.js';
import { requireWorld } from './validation.js';

/** Why an asset of a WebAssembly world runs on the JavaScript kernels. */
export type KernelFallbackReason = 'area full' | 'id beyond the tables' | 'binding with retarget';

/** An asset of a WebAssembly world that runs on the JavaScript kernels. */
export interface KernelFallback {
  /** The registry it is in. */
  readonly kind: 'skeleton' | 'clip' | 'mask' | 'reference' | 'binding';
  /** Its id in the world's registry of its kind. */
  readonly id: number;
  /** The clip's name (null for the other kinds). */
  readonly name: string | null;
  /** Why the kernels do not read it. */
  readonly reason: KernelFallbackReason;
}

/** Bytes of one kind of copy in the kernel area. */
export interface KernelAreaPart {
  /** Bytes in copies now. */
  readonly used: number;
  /** The most this kind may hold now: its fixed room, or on an area that grows the area's heap as it stands (the kinds share it). */
  readonly bytes: number;
}

/** What {@link kernelAreaReport} returns. */
export interface KernelAreaReport {
  /** Skeletons' parents, inverse binds and rest poses. */
  readonly skeletons: KernelAreaPart;
  /** Dense clips' frames. */
  readonly clips: KernelAreaPart;
  /** Masks, reference poses and proportions-only bindings. */
  readonly poses: KernelAreaPart;
  /** Clips' foot-contact tables. */
  readonly contacts: KernelAreaPart;
  /** Whether the area grows as assets are registered (its memory is shared); else each kind has a fixed room. */
  readonly grows: boolean;
  /** Bytes of the area's heap now (every copy and the tables of their pointers). */
  readonly bytes: number;
  /** The world's assets the kernels do not read, and why (empty when every asset runs on WebAssembly). */
  readonly onJavaScript: readonly KernelFallback[];
}

/**
 * The kernel area of `world` as it stands (its copies brought up to the registered assets
 * first, as the next frame would): bytes per part and the assets that run on the JavaScript
 * kernels — bindings with `retarget` always do; others when the area had no
 * room or their id is beyond its tables (on an area that grows, only when the memory could not
 * grow further). Null for a world on the JavaScript kernels. Call
 * between frames; allocates its answer.
 * @throws AnimationError when `world` is not a world, was disposed, or a parallel step is running.
 * @example
 * const report = kernelAreaReport(world);
 * if (report !== null && report.onJavaScript.length > 0) for (const line of world.warnings) console.warn(line);
 */
export function kernelAreaReport(world: AnimationWorld): KernelAreaReport | null {
  requireWorld(world, 'kernelAreaReport');
  const kernels = world.wasm;
  if (kernels === null) return null;
  syncKernelArea(kernels, world.assets.skeletons, world.assets.clips);
  const { area, space } = kernels;
  const onJavaScript: KernelFallback[] = [];
  const add = (kind: KernelFallback['kind'], id: number, reason: KernelFallbackReason, name: string | null = null): void => {
    onJavaScript.push({ kind, id, name, reason });
  };
  world.assets.skeletons.forEach((skeleton, id) => {
    if (skeleton === undefined || skeleton === null) return;
    if (id >= area.restTable.length || id * 2 >= area.skinTable.length) add('skeleton', id, 'id beyond the tables');
    else if (area.skinTable[id * 2] === 0) add('skeleton', id, 'area full');
  });
  world.assets.clips.forEach((clip: Clip | undefined | null, id) => {
    if (clip === undefined || clip === null) return;
    if (id >= area.clipTable.length) add('clip', id, 'id beyond the tables', clip.name);
    else if (area.clipTable[id] === 0) add('clip', id, 'area full', clip.name);
  });
  posesOnJavaScript(kernels.registries.masks, area.maskTable, 'mask', add);
  posesOnJavaScript(kernels.registries.references, area.referenceTable, 'reference', add);
  kernels.registries.bindings.forEach((binding, id) => {
    if (binding === undefined || binding === null) return;
    if (binding.retarget !== null) add('binding', id, 'binding with retarget');
    else if (id >= area.bindingTable.length) add('binding', id, 'id beyond the tables');
    else if (area.bindingTable[id] === 0) add('binding', id, 'area full');
  });
  const heap = space.heap.capacity;
  const part = (kind: number): KernelAreaPart => ({ used: space.used[kind], bytes: space.grows ? heap : space.budget[kind] });
  return {
    skeletons: part(KIND_SKELETONS), clips: part(KIND_CLIPS), poses: part(KIND_POSES), contacts: part(KIND_CONTACTS),
    grows: space.grows, bytes: heap, onJavaScript,
  };
}

function posesOnJavaScript(
  registry: readonly Float32Array[], table: Int32Array, kind: 'mask' | 'reference',
  add: (kind: KernelFallback['kind'], id: number, reason: KernelFallbackReason) => void,
): void {
  registry.forEach((values, id) => {
    if (values === undefined || values === null) return;
    if (id >= table.length) add(kind, id, 'id beyond the tables');
    else if (table[id] === 0) add(kind, id, 'area full');
  });
}
