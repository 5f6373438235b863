/**
 * Creating a world: the pools, registries and scratch of `createAnimationWorld`, running the
 * default frame (src/frame.ts) or one the game built with `createFrame` / `insertSystem`.
 */
import { defaultFrame, requireFrame } from '../frame.js';
import { fail } from '../assets/AnimationError.js';
import { startThreads } from '../parallel/threadPool.js';
import { kernelAreaBytes } from '../wasm/kernels.js';
import { buildAnimationWorld, frameWorldBytes, type AnimationWorld, type AnimationWorldOptions } from '../world.js';

/**
 * Creates an animation world with pools for `maxEntities` characters of up to `maxJoints`
 * joints, running `options.frame` (default {@link defaultFrame}) with the scratch its systems
 * declare. Memory is allocated here once; frames allocate nothing.
 *
 * Pools hold `maxEntities + 1` rows because bitecs entity ids start at 1. Per character:
 * `(1 + MAX_LAYERS) × maxJoints × 10` pose floats, `2 × maxJoints × 12` matrix floats and
 * `maxJoints × 38` inertialization floats (two history poses and the offsets).
 *
 * The pools' total bytes ({@link worldBytes}) are computed before anything is allocated: a
 * world above `MAX_WORLD_BYTES` (2 GiB) is refused, naming the byte count (at 64 joints, 30,299
 * bytes per character: 70,871 characters fit).
 *
 * @throws AnimationError when `options` is not an object, a size is not a positive integer
 * (`maxJoints` ≤ 32767, `maxEvents` ≤ 2²⁴), `frame` is not a frame from `createFrame`, the
 * pools would take more than 2 GiB, allocating them fails, or `kernels` is `'wasm'` where the
 * WebAssembly kernels are not available (`'auto'` falls back to JavaScript; docs/wasm.md).
 * @example
 * const world = createAnimationWorld({ maxEntities: 10_000, maxJoints: 64 });
 */
export function createAnimationWorld(options: AnimationWorldOptions): AnimationWorld {
  let frame = defaultFrame;
  if (typeof options === 'object' && options !== null && options.frame !== undefined) {
    requireFrame(options.frame, 'createAnimationWorld', 'frame');
    frame = options.frame;
  }
  if (frame !== defaultFrame && typeof options === 'object' && options !== null && options.threads !== undefined && options.threads !== 1) {
    fail('createAnimationWorld', 'threads', `is ${String(options.threads)} with a custom frame: worker threads run the default frame only (their systems are the library's); use threads: 1 with a custom frame`);
  }
  const world = buildAnimationWorld(options, frame);
  startThreads(world);
  return world;
}

/**
 * The bytes {@link createAnimationWorld} allocates for `maxEntities` characters of `maxJoints`
 * joints and `maxEvents` event records, with the default frame's scratch: the components',
 * scratch and update-list typed arrays (counted from their definitions), the event queue and
 * the per-character plain arrays. At 64 joints a character takes 30,299 bytes (six pose pools
 * of 64 × 10 floats, two matrix pools, the inertialization history). Registries grow with the
 * assets registered and are not counted.
 *
 * `kernels`: the kernels the world runs (`world.kernels`). A world on `'wasm'` also holds the
 * WebAssembly kernels' area (copies of the skeletons and clips they read, src/wasm/kernels.ts:
 * about 5.5 MB at 64 joints, 5 MiB of it room for clips' frames, per world, not per
 * character), counted here; its memory is whole
 * 64 KiB pages, so up to one page more is reserved. Default `'js'`.
 * @throws AnimationError when a count is not an integer ≥ 0, or `kernels` is not `'wasm'` or `'js'`.
 * @example
 * worldBytes(10_000, 64); // 303,000,000 bytes or so: what createAnimationWorld would allocate
 * worldBytes(10_000, 64, 4096, world.kernels); // with the kernel area when world.kernels is 'wasm'
 */
export function worldBytes(maxEntities: number, maxJoints: number, maxEvents = 4096, kernels: 'wasm' | 'js' = 'js'): number {
  if (kernels !== 'wasm' && kernels !== 'js') fail('worldBytes', 'kernels', `is ${String(kernels)}: must be 'wasm' or 'js' (world.kernels)`);
  const pools = frameWorldBytes(defaultFrame, maxEntities, maxJoints, maxEvents);
  return kernels === 'wasm' ? pools + kernelAreaBytes(maxJoints) : pools;
}
