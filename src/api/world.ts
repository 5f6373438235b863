/**
 * Creating a world: the pools, registries and scratch of `createAnimationWorld`, running the
 * default frame (src/frame.ts) or one the game built with `createFrame` / `insertSystem`.
 */
import { defaultFrame, requireFrame } from '../frame.js';
import { fail } from '../assets/AnimationError.js';
import { startThreads } from '../parallel/threadPool.js';
import { defaultMaxTransitions } from '../components/Inertialization.js';
import { DEFAULT_MAX_LAYERS } from '../components/Layers.js';
import { DEFAULT_MAX_CURVES } from '../components/Curves.js';
import { DEFAULT_MAX_MACHINES } from '../components/StateMachine.js';
import { kernelAreaBytes } from '../wasm/kernels.js';
import { buildAnimationWorld, frameWorldBytes, type AnimationWorld, type AnimationWorldOptions } from '../world.js';

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
 * the default options, 11,173 bytes per character of a crowd of 10,000: 192,423
 * characters fit; docs/hardening.md).
 *
 * @throws AnimationError when `options` is not an object, a size is not a positive integer
 * (`maxJoints` ≤ 32767, `maxEvents` ≤ 2²⁴, `maxLayers` ≤ 16, `maxMachines` ≤ `maxLayers`), `maxTransitions` is not an integer in [0,
 * maxEntities], `maxCurves` not one in [0, 1024], `frame` is not a frame from `createFrame`, the
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
 * the per-character plain arrays, and the default `maxTransitions` transition slots. At 64
 * joints a character of a crowd of 10,000 takes 11,173 bytes (a pose pool of 64 × 10 floats,
 * two matrix pools, an eighth of a transition slot, its layer and machine slots). Registries grow with the
 * assets registered and are not counted.
 *
 * `maxTransitions`: the world's transition slots (default: `createAnimationWorld`'s default for
 * `maxEntities`, `defaultMaxTransitions` (bitanim/kernels)).
 *
 * `maxLayers`: layer slots per character (default `DEFAULT_MAX_LAYERS` = 4; an integer in [1,
 * 16]): each slot adds 80 bytes per character and `maxJoints × 80` bytes of blend scratch.
 *
 * `maxCurves`: float curves per character (default `DEFAULT_MAX_CURVES` = 8; an integer in [0,
 * 1024]): each adds 4 bytes per character and 12 bytes per transition slot.
 * `maxMachines`: state-machine slots per character (default `DEFAULT_MAX_MACHINES` = 2, 1 when
 * `maxLayers` is 1; an integer in [1, maxLayers]): each adds 115 bytes per character.
 *
 * `kernels`: the kernels the world runs (`world.kernels`). A world on `'wasm'` also holds the
 * WebAssembly kernels' area (copies of the skeletons and clips they read, src/wasm/kernels.ts:
 * about 5.5 MB at 64 joints, 5 MiB of it room for clips' frames, per world, not per
 * character), counted here; its memory is whole
 * 64 KiB pages, so up to one page more is reserved. Default `'js'`.
 * @throws AnimationError when a count is not an integer ≥ 0, `maxLayers` is not one in [1, 16], `maxMachines` not one in [1, maxLayers], or `kernels` is not `'wasm'` or `'js'`.
 * @example
 * worldBytes(10_000, 64); // 303,000,000 bytes or so: what createAnimationWorld would allocate
 * worldBytes(10_000, 64, 4096, world.kernels); // with the kernel area when world.kernels is 'wasm'
 */
export function worldBytes(
  maxEntities: number, maxJoints: number, maxEvents = 4096, kernels: 'wasm' | 'js' = 'js',
  maxTransitions = Number.isInteger(maxEntities) && maxEntities >= 0 ? defaultMaxTransitions(maxEntities) : 0, maxLayers = DEFAULT_MAX_LAYERS,
  maxCurves = DEFAULT_MAX_CURVES,
  maxMachines = Math.min(DEFAULT_MAX_MACHINES, maxLayers),
): number {
  if (kernels !== 'wasm' && kernels !== 'js') fail('worldBytes', 'kernels', `is ${String(kernels)}: must be 'wasm' or 'js' (world.kernels)`);
  const pools = frameWorldBytes(defaultFrame, maxEntities, maxJoints, maxEvents, maxTransitions, maxLayers, maxCurves, maxMachines);
  return kernels === 'wasm' ? pools + kernelAreaBytes(maxJoints) : pools;
}
