/** The messages between a threaded world's caller and its workers (src/parallel). */
import type { AnimationComponents, ThreadPools } from '../world.js';
import type { AssetUpdate } from './assetMirror.js';

/** Caller → worker, once: the shared pools (typed arrays on the world's SharedArrayBuffer arrive as views of the same memory). */
export interface InitMessage {
  readonly type: 'init';
  readonly thread: number;
  readonly threads: number;
  readonly maxEntities: number;
  readonly maxJoints: number;
  readonly blendThreshold: number;
  readonly components: AnimationComponents;
  /** `world.lod.camera`, shared. */
  readonly camera: Float64Array;
  readonly pools: ThreadPools;
}

/**
 * Caller → worker, for a frame that carries more than the control block can: the assets
 * registered since the last frame, or a test fault. The worker applies it and runs its share
 * of the frame whose header is in the control block.
 */
export interface FrameMessage {
  readonly type: 'frame';
  readonly update: AssetUpdate | null;
  /** Test hook: a character whose chunk this worker fails on (−1: none). */
  readonly fault: number;
}

/** Worker → caller. */
export interface WorkerMessage {
  readonly type: 'ready';
  readonly thread: number;
}
