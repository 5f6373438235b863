/** The messages between a threaded world's caller and its workers (src/parallel). */
import type { AnimationComponents, ThreadPools } from '../world.js';
import type { KernelAreaHeader } from '../wasm/areaLayout.js';
import type { WasmMemory, WasmModule } from '../wasm/wasmApi.js';
import type { AssetUpdate } from './assetMirror.js';

/** Caller → worker, once: the shared pools (typed arrays on the world's SharedArrayBuffer arrive as views of the same memory). */
export interface InitMessage {
  readonly type: 'init';
  readonly thread: number;
  readonly threads: number;
  readonly maxEntities: number;
  readonly maxJoints: number;
  readonly blendThreshold: number;
  readonly interpolation: 'nlerp' | 'slerp';
  readonly components: AnimationComponents;
  /** `world.lod.camera`, shared. */
  readonly camera: Float64Array;
  readonly pools: ThreadPools;
  /** Verify mode's hashes (src/parallel/assetHash.ts): the worker writes its row after each frame; null when off. */
  readonly verify: Int32Array | null;
  /** The WebAssembly kernels' compiled module, shared memory (the pools') and kernel area, when the world runs them; the worker instantiates its own. */
  readonly wasm: { readonly module: WasmModule; readonly memory: WasmMemory; readonly area: KernelAreaHeader } | null;
}

/**
 * Caller → worker, for a frame that carries more than the control block can: the assets
 * registered since the last frame, or a test fault. The worker applies it and runs its share
 * of the frame whose header is in the control block.
 */
export interface FrameMessage {
  readonly type: 'frame';
  /** The frame's sequence number (the value of the control block's `SEQ` for it): a worker runs each frame's share once. */
  readonly seq: number;
  readonly update: AssetUpdate | null;
  /** Test hooks for this worker, or null. */
  readonly hooks: WorkerHooks | null;
}

/** What the tests ask of a worker (src/parallel/threadPool.ts `injectWorkerFault`, `probeWorkerHeap`). */
export interface WorkerHooks {
  /** Fail on this character's chunk (0: on the first chunk it runs) until it has; −1: no change. */
  fault: number;
  /** Node: start measuring the worker's allocation after the frame ('start'), or report it ('stop'). */
  probe: 'start' | 'stop' | null;
}

/** Worker → caller: ready after `init`, or a heap report after a 'stop' probe. */
export type WorkerMessage =
  | { readonly type: 'ready'; readonly thread: number }
  | { readonly type: 'heap'; readonly thread: number; readonly report: HeapReport };

/** A worker's allocation between a 'start' and a 'stop' probe, measured as test/allocation.test.ts measures the caller's. */
export interface HeapReport {
  /** Bytes allocated (heap growth plus what collections freed meanwhile). */
  readonly allocated: number;
  /** Heap growth after a full collection. */
  readonly grown: number;
  readonly collections: number;
}
