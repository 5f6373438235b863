/**
 * Creating a world: the pools, registries and scratch of `createAnimationWorld`, running the
 * default frame (src/frame.ts) or one the game built with `createFrame` / `insertSystem`.
 */
import { defaultFrame, requireFrame } from '../frame.js';
import { fail } from '../assets/AnimationError.js';
import { startThreads } from '../parallel/threadPool.js';
import { AnimationError, type AnimationIssue } from '../assets/AnimationError.js';
import { describeValue, shownString } from '../assets/limits.js';
import { buildAnimationWorld } from '../buildWorld.js';
import { kernelAreaBytes } from '../wasm/kernels.js';
import { kernelAreaGrows } from '../wasm/loader.js';
import type { AnimationWorld, AnimationWorldOptions } from '../world.js';
import { frameWorldBytes } from '../worldBytes.js';
import { DEFAULT_WORKER_TIMEOUT, resolveCapacity } from '../worldCapacity.js';

/**
 * Creates an animation world with pools for `maxEntities` characters of up to `maxJoints`
 * joints, running `options.frame` (default {@link defaultFrame}) with the scratch its systems
 * declare. Memory is allocated here once; frames allocate nothing.
 *
 * Pools hold `maxEntities + 1` rows because bitecs entity ids start at 1. Per character:
 * `maxJoints × 10` pose floats (LocalPose; layers are sampled into per-thread scratch),
 * `2 × maxJoints × 12` matrix floats, `maxLayers` layer slots (`Layers`, 80 bytes a slot;
 * `maxLayers` default 4, at most `MAX_LAYERS` = 16) and `maxMachines` state-machine slots
 * (115 bytes a slot; default 2, at most `maxLayers`); per transition slot (`maxTransitions`)
 * `maxJoints × 20` floats (a transition's source poses, then its offsets).
 *
 * The pools' total bytes ({@link worldBytes}) are computed before anything is allocated: a
 * world above `MAX_WORLD_BYTES` (2 GiB) is refused, naming the byte count (at 64 joints and
 * the default options about 11.5 KB per character of a crowd of 10,000: some 186,000
 * characters fit; docs/hardening.md has the table).
 *
 * @throws AnimationError when `options` is not an object or holds an unknown option, a size is not a positive integer
 * (`maxJoints` ≤ 32767, `maxEvents` ≤ 2²⁴, `maxLayers` ≤ 16, `maxMachines` ≤ `maxLayers`), `maxTransitions` is not an integer in [0,
 * maxEntities], `maxCurves` not one in [0, 1024], `workerTimeout` not a number of milliseconds in
 * [1, 2³¹ − 1], `verifyThreads` or `transactionalFrames` not a boolean, `frame` is not a frame from `createFrame`, the
 * pools would take more than 2 GiB, allocating them fails, or `kernels` is `'wasm'` where the
 * WebAssembly kernels are not available (`'auto'` falls back to JavaScript; docs/wasm.md).
 * @example
 * const world = createAnimationWorld({ maxEntities: 10_000, maxJoints: 64 });
 * // 1,250 inertializations at once by default; every character at once:
 * const busy = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, maxTransitions: 1_000 });
 * // 8 layer slots per character (state machines on layers, cross-fades on top):
 * const layered = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, maxLayers: 8 });
 * // Faces of up to 16 expression weights (skeleton.curves), blended into getCurves:
 * const faces = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, maxCurves: 16 });
 * // up to 4 state machines per character (on 8 layers):
 * const machines = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, maxLayers: 8, maxMachines: 4 });
 */
export function createAnimationWorld(options: AnimationWorldOptions): AnimationWorld {
  let frame = defaultFrame;
  if (typeof options === 'object' && options !== null && options.frame !== undefined) {
    requireFrame(options.frame, 'createAnimationWorld', 'frame');
    frame = options.frame;
  }
  if (frame !== defaultFrame && typeof options === 'object' && options !== null && options.threads !== undefined && options.threads !== 1) {
    fail('createAnimationWorld', 'threads', `is ${shownString(options.threads)} with a custom frame: worker threads run the default frame only (their systems are the library's); use threads: 1 with a custom frame`);
  }
  const world = buildAnimationWorld(options, frame); // checks every option, workerTimeout included
  startThreads(world, options.workerTimeout ?? DEFAULT_WORKER_TIMEOUT, options.verifyThreads ?? verifyThreadsByDefault(), options.transactionalFrames ?? false);
  return world;
}

/** `verifyThreads`'s default: whether the environment variable `BITANIM_VERIFY_THREADS` is `1` (Node; false elsewhere). */
function verifyThreadsByDefault(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['BITANIM_VERIFY_THREADS'] === '1';
}

/**
 * The bytes {@link createAnimationWorld} would allocate for `options` (the same object: its
 * sizes and `frame`; the game's bitecs world, `threads` and `kernels: 'auto'` aside, below),
 * counted without allocating: the components', scratch and update-list typed arrays (from
 * their definitions and the frame's scratch declarations), the event queue, the per-character
 * plain arrays and the transition slots. At 64 joints and the default options a character of
 * a crowd of 10,000 takes about 11.5 KB (a pose pool of 64 × 10 floats, two matrix pools, an
 * eighth of a transition slot, its layer, machine and foot-lock slots; docs/hardening.md).
 * Registries grow with the assets registered and are not counted. `maxEntities: 0` counts a
 * world's fixed part.
 *
 * `kernels: 'wasm'` adds the WebAssembly kernels' area (copies of the skeletons, clips, masks,
 * reference poses and bindings they read, src/wasm/kernels.ts: about 5.9 MB at 64 joints, per
 * world, not per character); its memory is whole 64 KiB pages, so up to one page more is
 * reserved. `'js'` and `'auto'` count the JavaScript kernels' pools (a world on `'auto'` runs
 * WebAssembly where it loads: pass the world's `kernels` to count what it holds). A threaded
 * world adds per thread a scratch and an event queue, and with `transactionalFrames` a copy of
 * its components and event queue (about the pools' size again), not counted.
 * @throws AnimationError when `options` is not an object, holds an unknown option, or a size
 * is not what `createAnimationWorld` takes (but `maxEntities` may be 0).
 * @example
 * worldBytes({ maxEntities: 10_000, maxJoints: 64 }); // about 117 MB
 * worldBytes({ maxEntities: 10_000, maxJoints: 64, kernels: world.kernels }); // with the kernel area on 'wasm'
 */
export function worldBytes(options: AnimationWorldOptions): number {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail('worldBytes', 'options', `is ${describeValue(options)}: must be an object { maxEntities, maxJoints, … } (createAnimationWorld's options)`);
  }
  const issues: AnimationIssue[] = [];
  const capacity = resolveCapacity(options, issues, 0);
  const kernels = options.kernels ?? 'auto';
  if (kernels !== 'auto' && kernels !== 'wasm' && kernels !== 'js') issues.push({ path: 'kernels', message: `is ${describeValue(kernels)}: must be 'auto', 'wasm' or 'js'` });
  let frame = defaultFrame;
  if (options.frame !== undefined) {
    requireFrame(options.frame, 'worldBytes', 'frame');
    frame = options.frame;
  }
  if (issues.length) throw new AnimationError('worldBytes', issues);
  const pools = frameWorldBytes(frame, capacity);
  return kernels === 'wasm' ? pools + kernelAreaBytes(capacity.maxJoints, kernelAreaGrows(capacity.threads)) : pools;
}
