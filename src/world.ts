import { $internal, createWorld, registerComponents, registerQuery, type Query, type World } from 'bitecs';
import { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
import type { Binding } from './assets/Binding.js';
import type { RootFrame, RootTrack } from './assets/rootTrack.js';
import type { SyncMarkers } from './assets/syncMarkers.js';
import type { Clip } from './assets/Clip.js';
import type { Mask } from './assets/Mask.js';
import type { Skeleton } from './assets/Skeleton.js';
import { characterRows, createCharacterComponent, type CharacterComponent } from './components/Character.js';
import { createEventQueue, type EventQueue } from './components/EventQueue.js';
import {
  createInertializationComponent, defaultMaxTransitions, inertializationRows, transitionSlotBytes, type InertializationComponent,
} from './components/Inertialization.js';
import { createCurvesComponent, curveSlotBytes, curvesRows, DEFAULT_MAX_CURVES, MAX_CURVES, type CurvesComponent } from './components/Curves.js';
import { createLayersComponent, DEFAULT_MAX_LAYERS, layersRows, MAX_LAYERS, type LayersComponent } from './components/Layers.js';
import type { RowLifecycle } from './components/lifecycle.js';
import { createRootMotionComponent, rootMotionRows, type RootMotionComponent } from './components/RootMotion.js';
import { createFollowerComponent, followerRows, type FollowerComponent } from './components/Follower.js';
import { createLookAtComponent, lookAtRows, type LookAtComponent } from './components/LookAt.js';
import { createReachComponent, reachRows, type ReachComponent } from './components/Reach.js';
import { createFootLockComponent, footLockRows, type FootLockComponent } from './components/FootLock.js';
import { createLodComponent, createLodShared, lodRows, type LodComponent, type LodShared } from './components/Lod.js';
import { createStateMachineComponent, DEFAULT_MAX_MACHINES, stateMachineRows, type StateMachineComponent } from './components/StateMachine.js';
import type { BoundStateMachine } from './assets/StateMachine.js';
import { createLocalPoseComponent, createMatrixPoolComponent, poseRows, type PoolComponent } from './components/Pose.js';
import { createUpdateList, type UpdateList } from './components/UpdateList.js';
import { createBufferAllocator, heapAllocator, measureAllocations, type PoolAllocator } from './memory/poolAllocator.js';
import { CHUNK_LOG_STRIDE, CLOCK_SIZE, CONTROL_INTS, FAILURE_TEXT, STATUS_STRIDE } from './components/ThreadControl.js';
import { POSE_STRIDE } from './math/layout.js';
import { logicalCores, MAX_THREADS, sharedMemoryIssue } from './memory/environment.js';
import { createKernelArea, instantiateKernels, KERNEL_POOL_START, type KernelArea, type WasmKernels } from './wasm/kernels.js';
import { kernelModule, type KernelChoice } from './wasm/loader.js';
import { wasmApi, WASM_PAGE, type WasmMemory, type WasmModule } from './wasm/wasmApi.js';
import { describeValue, FLOAT32_MAX, MAX_EVENTS, MAX_JOINTS, MAX_WORLD_BYTES, shownNumber } from './assets/limits.js';

/** Options of {@link createAnimationWorld}. */
export interface AnimationWorldOptions {
  /**
   * Largest entity id the pools hold (and so the most characters). bitecs ids start at 1 and
   * are recycled, so with a world of its own this is the character capacity. When sharing the
   * game's bitecs world (`world`), ids are shared with the game's other entities: size this to
   * the largest id the game will reach.
   */
  maxEntities: number;
  /** Most joints of any skeleton spawned in this world (pools hold this many per entity), ≤ 32767 (Int16 parents). */
  maxJoints: number;
  /** The game's own bitecs world; default: a new one owned by the animation world. */
  world?: World;
  /** Capacity of the event ring buffer in records (default 4096, at most 2²⁴). */
  maxEvents?: number;
  /**
   * Inertializations (`transition` in the `'inertialize'` or `'spring'` mode) that can run at
   * once: each holds a transition slot of `maxJoints × 80` bytes (its source poses, then its
   * offsets) from the `transition` call until its offsets have ended, so characters that are
   * not transitioning cost no per-joint inertialization memory. An integer in [0, maxEntities];
   * default `min(maxEntities, max(128, ceil(maxEntities / 8)))` (every world of up to 128
   * characters has one per character; at 64 joints 640 bytes per character of a larger crowd).
   * A `transition` with none free throws, changing nothing; `maxEntities` never runs out.
   */
  maxTransitions?: number;
  /**
   * Layer slots per character (`play`'s and `transition`'s `layer` is 0 … maxLayers − 1): an
   * integer in [1, MAX_LAYERS = 16], default `DEFAULT_MAX_LAYERS` = 4. A `'crossfade'`
   * transition holds a free slot for the outgoing clip while it fades, and a blend space takes
   * one slot per sample it blends, so layers, blend spaces and cross-fades at once may need
   * more than 4. Each slot costs a character 78 bytes of `Layers` (no per-joint memory), and
   * each thread's blend scratch `maxJoints × 40` bytes.
   */
  maxLayers?: number;
  /**
   * Float curves (metachannels: expression weights, a blink; `skeleton.curves`) a character can
   * carry, blended into `Curves` (`getCurves`): an integer in [0, MAX_CURVES = 1024], default
   * `DEFAULT_MAX_CURVES` = 8. A skeleton with more curves cannot be spawned. Each costs a
   * character 4 bytes and a transition slot 12. 0 turns curves off: nothing is allocated, the
   * systems skip them, any skeleton spawns and `getCurves` gives empty views.
   */
  maxCurves?: number;
  /**
   * State machines a character can run at once (`setStateMachine` on disjoint layer ranges): an
   * integer in [1, maxLayers] (a machine owns at least one layer), default
   * `DEFAULT_MAX_MACHINES` = 2 (1 when `maxLayers` is 1). Each costs every character 115 bytes
   * of `StateMachine`.
   */
  maxMachines?: number;
  /**
   * Total override-layer weight below which the rest pose is blended in, with weight
   * `threshold − total` (ozz-animation's blending threshold): a character whose layers all
   * fade to 0 settles smoothly into its rest pose. Default 0.1; must be > 0.
   */
  blendThreshold?: number;
  /**
   * The systems `step` runs, in order (src/frame.ts): default `defaultFrame`; a game adds its
   * own systems with `insertSystem(defaultFrame, system, { after })` or `createFrame([...])`.
   * The world builds the scratch every system of the frame declares.
   */
  frame?: Frame;
  /**
   * Threads `stepParallel` runs the frame on, the calling thread included: an integer ≥ 1
   * (default 1: no workers, `stepParallel` is `step`), or `'auto'` for the machine's logical
   * cores. With more than one, every pool is allocated on a `SharedArrayBuffer` and workers
   * start with the world (`disposeAnimationWorld` ends them); see docs/threads.md.
   */
  threads?: number | 'auto';
  /**
   * Which kernels run the hot systems (src/wasm, docs/wasm.md): `'wasm'` (WebAssembly SIMD on
   * pools in the module's memory), `'js'`, or `'auto'` (default: wasm where its module is
   * loaded and validates, else JS). `world.kernels` says which runs.
   */
  kernels?: KernelChoice;
}

/**
 * One system of a frame (src/frame.ts, docs/design.md §4): its chunked form and what it
 * touches, as data the docs are checked against.
 */
export interface FrameSystem {
  /** Unique in the frame, e.g. `'sample'` (the system `sampleSystem`). */
  readonly name: string;
  /**
   * The system's work for the chunk `world.characters.dense[first .. end)` (at most
   * `FRAME_CHUNK` characters): the systems after `lodSystem` visit the chunk's characters in
   * the update list, `world.updates.eids[first .. last)` with
   * `last = updateRange(world.updates, world.characters.dense, dt, first, end)`, each by its
   * own seconds `world.updates.dt[k]`. Allocates nothing, never throws.
   */
  readonly entities: (world: AnimationWorld, dt: number, first: number, end: number) => void;
  /** What it reads: `Component.field` (or `Component` for all of it), `world.x`, registries. */
  readonly reads: readonly string[];
  /** What it writes, named the same way. */
  readonly writes: readonly string[];
  /**
   * Its scratch: per name, a function of `maxJoints` returning the buffer, built once at world
   * creation into `world.scratch[name]` (systems declaring the same name share one; type it by
   * augmenting `Scratch`).
   */
  readonly scratch?: ScratchDeclaration;
  /**
   * True for a system that must run on the calling thread (it takes world-wide resources, as
   * `stateMachineSystem` takes transition slots): each frame it runs once, over the whole
   * crowd (`first = 0`, `end` = the frame's characters; it visits `world.characters.dense`, not
   * the update list), before the chunks — in `step` and in `stepParallel` alike, so both give
   * the same pools. It must read nothing the chunked systems before it write.
   */
  readonly caller?: boolean;
}

/**
 * Named scratch factories of a system, `(maxJoints, alloc, maxLayers) => buffer`; see
 * `FrameSystem.scratch`. A factory may take its typed arrays from `alloc` (the world's
 * pool buffer: shared with the workers of a threaded world) or allocate them itself; a
 * threaded world builds one scratch per thread. `maxLayers` is the world's layer slots per
 * character (for buffers of one entry per layer).
 */
export type ScratchDeclaration = Readonly<Record<string, (maxJoints: number, alloc: PoolAllocator, maxLayers: number) => object>>;

/** The scratch a declaration builds, by name: what a system adds to `Scratch`. */
export type ScratchOf<D extends ScratchDeclaration> = { readonly [K in keyof D]: ReturnType<D[K]> };

/** An ordered table of systems, validated by `createFrame` (src/frame.ts). */
export interface Frame {
  /**
   * The systems, in order: each chunk of characters runs through them, except those marked
   * `caller` (run once per frame before the chunks; `runCallerSystems` in src/frame.ts).
   */
  readonly systems: readonly FrameSystem[];
}

/**
 * Assets referenced from components by integer id (registered on first use). `releaseClip`,
 * `releaseSkeleton` and `releaseMask` (src/api/release.ts) free an id: its slot holds `undefined`
 * until the next asset registered takes it (released slots at the end are cut off).
 */
export interface AssetRegistry {
  /** Skeletons by skeleton id. */
  readonly skeletons: Skeleton[];
  /** Skeleton id of each registered skeleton. */
  readonly skeletonIds: Map<Skeleton, number>;
  /** Clips by clip id (`Layers.clip`). */
  readonly clips: Clip[];
  /** Clip id of each registered clip. */
  readonly clipIds: Map<Clip, number>;
  /** Mask weights by mask id. */
  readonly masks: Float32Array[];
  /** Mask id of each registered mask (`Layers.mask`). */
  readonly maskIds: Map<Mask, number>;
  /** Additive reference poses (`jointCount × 10`) by reference id. */
  readonly references: Float32Array[];
  /** Reference id of each reference pose, by its clip and time (`Layers.reference`). */
  readonly referenceIds: Map<string, number>;
  /** Root-motion tracks by clip id (set when a clip is played). */
  readonly rootTracks: RootTrack[];
  /** Sync markers by clip id (set when a clip joins a sync group by markers; read by marker sync, src/assets/syncMarkers.ts). */
  readonly syncMarkers: SyncMarkers[];
  /** Root-motion joint placement by skeleton id (set at spawn). */
  readonly rootFrames: RootFrame[];
  /** Name bindings (clip skeleton → character skeleton) by binding id. */
  readonly bindings: Binding[];
  /** Binding id of each registered binding (`Layers.binding`). */
  readonly bindingIds: Map<Binding, number>;
  /** State machines bound to a skeleton, by machine id (`StateMachine.machine`; `setStateMachine`). */
  readonly machines: BoundStateMachine[];
  /**
   * Float-curve maps by skeleton id (src/api/curves.ts): for a skeleton with curves, its
   * defaults and, by clip id, each clip curve's index in `skeleton.curves` (−1: not the
   * skeleton's); resolved when a clip is played or bound, replaced (never changed in place).
   */
  readonly curveMaps: (CurveMapRow | undefined)[];
}

/** One skeleton's entry of `AssetRegistry.curveMaps`. */
export interface CurveMapRow {
  /** The skeleton's curve defaults, in `skeleton.curves` order. */
  readonly defaults: Float32Array;
  /** By clip id: clip curve i → skeleton curve index (−1: none); undefined for a clip not resolved or without curves. */
  readonly clips: readonly (Int16Array | undefined)[];
}

/**
 * Fixed-size per-frame temporaries, sized at creation so systems never allocate. The world
 * holds `blendThreshold`; every other entry is declared by a system of the frame
 * (`FrameSystem.scratch`) and built from that declaration, and the system's file adds its type
 * here by augmentation (`declare module '../world.js' { interface Scratch extends
 * ScratchOf<typeof xxxScratch> {} }`), so this file imports nothing from `systems/`.
 */
export interface Scratch {
  /** `[blendThreshold]`, as an array so kernels receive it without boxing a double. */
  readonly blendThreshold: Float64Array;
}

/**
 * Per-character views of the pools, made at spawn (`jointCount × 10` floats each), so systems
 * can copy a whole pose with `TypedArray.set` — a native memcpy — without making a view per
 * frame. Slots of entities that are not characters hold an empty array.
 */
export interface PoseViews {
  /** `local[eid]`: the character's block of `LocalPose`. */
  readonly local: Float32Array[];
}

/**
 * The animation components of a world; every array is sized at creation. Each is also a
 * bitecs component of `world.ecs` (registered at creation), on exactly the entities that have
 * its state, so a game can `query(world.ecs, [world.components.Follower])`, `hasComponent`,
 * or `observe(world.ecs, onAdd(…), …)` with it:
 *
 * | component | on an entity | added by | removed by |
 * | --- | --- | --- | --- |
 * | `Character`, `Layers`, `LocalPose`, `ModelPose`, `SkinPalette`, `Inertialization` | every character | `spawnCharacter` | `removeCharacter` |
 * | `RootMotion` | moved by root motion | `spawnCharacter(…, { rootMotion: true })` | `removeCharacter` |
 * | `Follower` | with a follower in any slot | `setFollower`, `setFollowTarget`, `setLookAt`, `setReach` | `removeFollower` (its last slot), `removeCharacter` |
 * | `LookAt` | looking at a follower | `setLookAt` | `clearLookAt`, `removeCharacter` |
 * | `Reach` | reaching for a follower | `setReach` | `clearReach`, `removeCharacter` |
 * | `FootLock` | holding planted feet | `setFootLock` | `clearFootLock`, `removeCharacter` |
 * | `Lod` | with motion LOD | `setLod` | `removeLod`, `removeCharacter` |
 * | `StateMachine` | running a state machine | `setStateMachine` | `removeCharacter` |
 * | `Curves` | with float curves (its skeleton's `curves`) | `spawnCharacter` | `removeCharacter` |
 *
 * The arrays hold a row for every entity id (defaults where a character lacks the component:
 * `RootMotion.x/y/z/yaw` is the position of every character; a removed entity's rows keep
 * their values until `spawnCharacter` resets them, `resetRows`). Systems visit `characters` and
 * read the `enabled` flags, which agree with the bitecs membership (see docs/ecs-components.md).
 */
export interface AnimationComponents {
  /** Every character: its skeleton id and joint count. */
  readonly Character: CharacterComponent;
  /** Every character: its clip slots (clip, time, speed, weight, fades, sampled poses). */
  readonly Layers: LayersComponent;
  /** Every character: the blended local pose, 10 floats per joint. */
  readonly LocalPose: PoolComponent;
  /** Every character: model-space matrices, 12 floats per joint (3×4, column-major). */
  readonly ModelPose: PoolComponent;
  /** Every character: skinning matrices `model × inverseBind`, 12 floats per joint. */
  readonly SkinPalette: PoolComponent;
  /** Every character: transition state (its per-joint poses and offsets in the pool of transition slots). */
  readonly Inertialization: InertializationComponent;
  /** World transform of every character; the bitecs component marks those root motion moves (`enabled`). */
  readonly RootMotion: RootMotionComponent;
  /** Minimum-jerk followers: on the entities with a follower in some slot (`enabled[eid × FOLLOW_SLOTS + slot]`). */
  readonly Follower: FollowerComponent;
  /** Look-at toward a follower: on the entities that look at one (`enabled`). */
  readonly LookAt: LookAtComponent;
  /** Two-bone reach toward a follower: on the entities that reach for one (`enabled`). */
  readonly Reach: ReachComponent;
  /** Planted feet held by two-bone IK on the legs: on the entities whose feet lock (`enabled`). */
  readonly FootLock: FootLockComponent;
  /** Motion LOD and update-rate LOD: on the entities with LOD (`enabled` is `LOD_ON`). */
  readonly Lod: LodComponent;
  /** State machines: on the entities that run one (`enabled` > 0). */
  readonly StateMachine: StateMachineComponent;
  /** Blended float curves: on the characters whose skeleton has curves (`count` > 0). */
  readonly Curves: CurvesComponent;
}

/**
 * Everything bitanim keeps for one game world: the bitecs world, the component pools, the
 * asset registries, the event queue and the clock. Systems take it as their first argument.
 */
export interface AnimationWorld {
  /** The bitecs world holding the character entities (the game's, if it passed one). */
  readonly ecs: World;
  /** Characters the pools hold (`createAnimationWorld`'s `maxEntities`; rows = maxEntities + 1). */
  readonly maxEntities: number;
  /** Joints per character the pools hold. */
  readonly maxJoints: number;
  /** Layer slots per character (`createAnimationWorld`'s `maxLayers`, default 4): `Layers`' stride, `Layers.maxLayers`. */
  readonly maxLayers: number;
  /** Total override-layer weight below which the rest pose is blended in (`createAnimationWorld` option). */
  readonly blendThreshold: number;
  /** The component pools, by name; each is also a bitecs component. */
  readonly components: AnimationComponents;
  /**
   * Registered once: the characters (entities with the components every character has:
   * `Character`, `Layers`, `LocalPose`, `ModelPose`, `SkinPalette`, `Inertialization`),
   * iterated via `dense`.
   */
  readonly characters: Query;
  /** Skeletons, clips, masks, reference poses and bindings by the ids components hold. */
  readonly assets: AssetRegistry;
  /** Events crossed by playback, until `drainEvents` or `drainEachEvent` takes them. */
  readonly events: EventQueue;
  /** Per-frame temporaries of the frame's systems, sized at creation. */
  readonly scratch: Scratch;
  /** Per-character views into the pose pools (what `getLocalPose` and friends return). */
  readonly views: PoseViews;
  /** World-level LOD state: the LOD camera, the clip level registry, the shared update seconds. */
  readonly lod: LodShared;
  /** The systems `step` runs, in order (src/frame.ts). */
  readonly frame: Frame;
  /** The characters this frame updates and each one's seconds, written by `lodSystem` (components/UpdateList.ts). */
  readonly updates: UpdateList;
  /** Seconds simulated so far (advanced once per frame, by `advanceClock`). */
  time: number;
  /** Threads `stepParallel` runs the frame on (1: the calling thread only). */
  readonly threads: number;
  /**
   * The buffer every pool is a view of (src/memory/poolAllocator.ts): an `ArrayBuffer`, or a
   * `SharedArrayBuffer` when `threads > 1`.
   */
  readonly poolBuffer: ArrayBufferLike;
  /** The shared state of a threaded frame (`threads > 1`), else null; src/parallel. */
  readonly parallel: ThreadPools | null;
  /** The kernels the systems run: `'wasm'` (then `poolBuffer` is `wasm.memory`'s) or `'js'`. */
  readonly kernels: 'wasm' | 'js';
  /** This thread's WebAssembly kernels (src/wasm/kernels.ts) when `kernels` is `'wasm'`, else null. */
  readonly wasm: WasmKernels | null;
}

/**
 * The pools of a threaded world beyond its components, on the same SharedArrayBuffer: the
 * control block and clock of a frame (components/ThreadControl.ts), the frame's character
 * list, the chunk log, and per thread an event queue and a scratch (thread 0, the caller, uses
 * `world.scratch`; its queue is `queues[0]`, merged into `world.events` at the frame's end).
 */
export interface ThreadPools {
  readonly control: Int32Array;
  readonly clock: Float64Array;
  /** `world.characters.dense`, copied at the frame's start. */
  readonly dense: Int32Array;
  /** `CHUNK_LOG_STRIDE` floats per chunk. */
  readonly chunkLog: Float64Array;
  /** `STATUS_STRIDE` floats per thread. */
  readonly status: Float64Array;
  /** Per thread: milliseconds its share of the last threaded frame took (`performance.now()`), for overlays and benches. */
  readonly timing: Float64Array;
  /** A failed thread's error message, one UTF-16 code unit per slot (`FAILURE_TEXT` of them). */
  readonly failure: Uint16Array;
  readonly queues: readonly EventQueue[];
  /** Scratch of threads 1 …; thread 0's is `world.scratch`. */
  readonly scratch: readonly Scratch[];
}

/**
 * The body of `createAnimationWorld` (src/frame.ts, which passes the frame: this file imports
 * no system): creates an animation world with pools for `maxEntities` characters of up to
 * `maxJoints` joints, running `frame` (`options.frame` is ignored here), with the scratch its
 * systems declare. Memory is allocated here once; frames allocate nothing.
 *
 * Pools hold `maxEntities + 1` rows because bitecs entity ids start at 1. Per character:
 * `maxJoints × 10` pose floats (LocalPose; layers are sampled into per-thread scratch) and
 * `2 × maxJoints × 12` matrix floats; per transition slot (`maxTransitions`) `maxJoints × 20`
 * floats (a transition's source poses, then its offsets).
 *
 * The pools' total bytes (`worldBytes`) are computed before anything is allocated: a
 * world above `MAX_WORLD_BYTES` (2 GiB) is refused, naming the byte count (at 64 joints and
 * the default options, 11,173 bytes per character of a crowd of 10,000: 192,423
 * characters fit; docs/hardening.md).
 *
 * @throws AnimationError when `options` is not an object, a size is not a positive integer
 * (`maxJoints` ≤ 32767, `maxEvents` ≤ 2²⁴, `maxLayers` ≤ 16), the pools would take more than
 * 2 GiB, or allocating them fails.
 */
export function buildAnimationWorld(options: AnimationWorldOptions, frame: Frame): AnimationWorld {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new AnimationError('createAnimationWorld', [{ path: 'options', message: `is ${describeValue(options)}: must be an object { maxEntities, maxJoints, … }` }]);
  }
  const { maxEntities, maxJoints } = options;
  const maxEvents = options.maxEvents ?? 4096;
  const maxTransitions = options.maxTransitions ?? (Number.isInteger(maxEntities) && maxEntities >= 1 ? defaultMaxTransitions(maxEntities) : 0);
  const maxLayers = options.maxLayers ?? DEFAULT_MAX_LAYERS;
  const maxCurves = options.maxCurves ?? DEFAULT_MAX_CURVES;
  const layersValid = typeof maxLayers === 'number' && Number.isInteger(maxLayers) && maxLayers >= 1 && maxLayers <= MAX_LAYERS;
  // Default 2, or one per layer when the world has fewer.
  const maxMachines = options.maxMachines ?? Math.min(DEFAULT_MAX_MACHINES, layersValid ? maxLayers : DEFAULT_MAX_MACHINES);
  const threads = options.threads === 'auto' ? logicalCores() : options.threads ?? 1;
  const blendThreshold = options.blendThreshold ?? 0.1;
  const issues: AnimationIssue[] = [];
  const positiveInt = (path: string, v: unknown, max: number, why: string): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
      issues.push({ path, message: `is ${shownNumber(v)}: must be an integer ≥ 1${Number.isFinite(max) ? ` and ≤ ${max} (${why})` : ''}` });
    }
  };
  positiveInt('maxEntities', maxEntities, Infinity, '');
  positiveInt('maxJoints', maxJoints, MAX_JOINTS, 'joint parents are stored as Int16');
  positiveInt('maxEvents', maxEvents, MAX_EVENTS, 'MAX_EVENTS');
  positiveInt('maxLayers', maxLayers, MAX_LAYERS, 'MAX_LAYERS; default 4');
  if (typeof maxCurves !== 'number' || !Number.isInteger(maxCurves) || maxCurves < 0 || maxCurves > MAX_CURVES) {
    issues.push({ path: 'maxCurves', message: `is ${shownNumber(maxCurves)}: must be an integer ≥ 0 and ≤ ${MAX_CURVES} (MAX_CURVES; default ${DEFAULT_MAX_CURVES})` });
  }
  if (options.maxMachines !== undefined) positiveInt('maxMachines', maxMachines, layersValid ? maxLayers : MAX_LAYERS, 'maxLayers: a machine owns at least one layer; default 2');
  if (typeof maxTransitions !== 'number' || !Number.isInteger(maxTransitions) || maxTransitions < 0 || (Number.isInteger(maxEntities) && maxTransitions > maxEntities)) {
    issues.push({ path: 'maxTransitions', message: `is ${shownNumber(maxTransitions)}: must be an integer ≥ 0 and ≤ maxEntities (${shownNumber(maxEntities)}; a character holds at most one transition slot)` });
  }
  if (typeof blendThreshold !== 'number' || !(blendThreshold > 0) || !(blendThreshold <= FLOAT32_MAX)) {
    issues.push({ path: 'blendThreshold', message: `is ${shownNumber(blendThreshold)}: must be a finite number > 0 and ≤ 3.4e38 (the Float32 range)` });
  }
  if (options.world !== undefined && !(typeof options.world === 'object' && options.world !== null && $internal in options.world)) {
    issues.push({ path: 'world', message: 'must be a bitecs world from createWorld()' });
  }
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    issues.push({ path: 'threads', message: `is ${shownNumber(options.threads)}: must be an integer ≥ 1 and ≤ ${MAX_THREADS}, or 'auto' (the machine's logical cores)` });
  } else if (threads > 1) {
    const missing = sharedMemoryIssue();
    if (missing !== null) issues.push({ path: 'threads', message: `is ${threads}: ${missing}` });
  }
  const kernels = options.kernels ?? 'auto';
  let module: WasmModule | null = null;
  if (kernels !== 'auto' && kernels !== 'wasm' && kernels !== 'js') {
    issues.push({ path: 'kernels', message: `is ${describeValue(kernels)}: must be 'auto', 'wasm' or 'js'` });
  } else if (kernels !== 'js' && typeof threads === 'number') {
    const found = kernelModule(threads > 1);
    if (typeof found !== 'string') module = found;
    else if (kernels === 'wasm') issues.push({ path: 'kernels', message: `is 'wasm': ${found}; use 'auto' to fall back to the JavaScript kernels` });
  }
  if (issues.length) throw new AnimationError('createAnimationWorld', issues);

  const rows = maxEntities + 1;
  const bytes = frameWorldBytes(frame, maxEntities, maxJoints, maxEvents, maxTransitions, maxLayers, maxCurves, maxMachines);
  if (bytes > MAX_WORLD_BYTES) {
    const fit = mostCharacters(frame, maxJoints, maxEvents, options.maxTransitions, maxLayers, maxCurves, maxMachines);
    throw new AnimationError('createAnimationWorld', [{
      path: 'maxEntities',
      message: `is ${shownNumber(maxEntities)} with maxJoints ${maxJoints}: the pools would take ${bytesText(bytes)}, more than the limit MAX_WORLD_BYTES of ${bytesText(MAX_WORLD_BYTES)}, `
        + `so nothing was allocated; a world of ${maxJoints} joints holds at most ${fit} characters`,
    }]);
  }
  // Every pool through one allocator on one buffer: measured first, then allocated once.
  const layout = (alloc: PoolAllocator): WorldPools => {
    const scratch = createScratch(frame, maxJoints, blendThreshold, alloc, maxLayers);
    return {
      components: createComponents(rows, maxJoints, alloc, maxTransitions, maxLayers, maxCurves, maxMachines),
      events: createEventQueue(maxEvents, alloc),
      scratch,
      updates: createUpdateList(rows, alloc),
      lod: createLodShared(alloc),
      parallel: threads > 1 ? createThreadPools(frame, rows, maxJoints, maxEvents, blendThreshold, threads, alloc, maxLayers) : null,
      kernelArea: module !== null ? createKernelArea(maxJoints, alloc) : null,
    };
  };
  let pools: WorldPools, poolBuffer: ArrayBufferLike, memory: WasmMemory | null = null;
  try {
    const size = measureAllocations(layout);
    if (module !== null) {
      // The pools in the kernels' memory: pointers into it are the pools' byteOffsets.
      const pages = Math.max(1, Math.ceil((KERNEL_POOL_START + size) / WASM_PAGE));
      memory = new (wasmApi as NonNullable<typeof wasmApi>).Memory({ initial: pages, maximum: pages, shared: threads > 1 });
      poolBuffer = memory.buffer;
    } else {
      poolBuffer = threads > 1 ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    }
    const alloc = createBufferAllocator(poolBuffer);
    if (memory !== null) alloc.array(Uint8Array, KERNEL_POOL_START);
    pools = layout(alloc);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new AnimationError('createAnimationWorld', [{
      path: 'maxEntities',
      message: `is ${shownNumber(maxEntities)} with maxJoints ${maxJoints}: allocating the pools' ${bytesText(bytes)} failed (${error.message})`,
    }]);
  }
  const { components, events, scratch, updates } = pools;
  const ecs = options.world ?? createWorld();
  // Registered up front (not on first use), so `hasComponent` and queries know every one of
  // them from the start and the bitflags do not depend on which API call came first.
  // The six every character has (spawnCharacter adds them): the characters query.
  const characterParts = [
    components.Character,
    components.Layers,
    components.LocalPose,
    components.ModelPose,
    components.SkinPalette,
    components.Inertialization,
  ];
  registerComponents(ecs, [...characterParts, components.RootMotion, components.Follower, components.LookAt, components.Reach, components.FootLock, components.Lod, components.StateMachine, components.Curves]);
  const characters = registerQuery(ecs, characterParts);
  const masks: Float32Array[] = [], references: Float32Array[] = [], bindings: Binding[] = []; // also the kernels' (their copies in the kernel area)
  return {
    ecs,
    maxEntities,
    maxJoints,
    maxLayers,
    blendThreshold,
    components,
    characters,
    assets: {
      skeletons: [],
      skeletonIds: new Map(),
      clips: [],
      clipIds: new Map(),
      masks,
      maskIds: new Map(),
      references,
      referenceIds: new Map(),
      rootTracks: [],
      syncMarkers: [],
      rootFrames: [],
      bindings,
      bindingIds: new Map(),
      machines: [],
      curveMaps: [],
    },
    events,
    scratch,
    views: {
      local: new Array<Float32Array>(rows).fill(EMPTY_VIEW),
    },
    lod: pools.lod,
    frame,
    updates,
    time: 0,
    threads,
    poolBuffer,
    parallel: pools.parallel,
    kernels: module !== null ? 'wasm' : 'js',
    wasm: module !== null ? instantiateKernels(module, memory as WasmMemory, pools.kernelArea as KernelArea, 0, { masks, references, bindings }) : null,
  };
}

/**
 * Characters a frame runs through all its systems at a time (src/frame.ts re-exports it): a
 * chunk's layer poses are still in cache when the blend reads them, and a threaded frame's
 * threads claim chunks of this size.
 */
export const FRAME_CHUNK = 128;

/** What {@link buildAnimationWorld} allocates on the pool buffer. */
interface WorldPools {
  readonly components: AnimationComponents;
  readonly events: EventQueue;
  readonly scratch: Scratch;
  readonly updates: UpdateList;
  readonly lod: LodShared;
  readonly parallel: ThreadPools | null;
  /** The skeleton copies the WebAssembly kernels read (src/wasm/kernels.ts), after the other pools. */
  readonly kernelArea: KernelArea | null;
}

/** The pools a threaded world adds (see {@link ThreadPools}). */
function createThreadPools(
  frame: Frame, rows: number, maxJoints: number, maxEvents: number, blendThreshold: number, threads: number, alloc: PoolAllocator, maxLayers: number,
): ThreadPools {
  const chunks = Math.ceil(rows / FRAME_CHUNK);
  return {
    control: alloc.array(Int32Array, CONTROL_INTS),
    clock: alloc.array(Float64Array, CLOCK_SIZE),
    dense: alloc.array(Int32Array, rows),
    chunkLog: alloc.array(Float64Array, chunks * CHUNK_LOG_STRIDE),
    status: alloc.array(Float64Array, threads * STATUS_STRIDE),
    failure: alloc.array(Uint16Array, FAILURE_TEXT),
    timing: alloc.array(Float64Array, threads),
    queues: Array.from({ length: threads }, () => createEventQueue(maxEvents, alloc)),
    scratch: Array.from({ length: threads - 1 }, () => createScratch(frame, maxJoints, blendThreshold, alloc, maxLayers)),
  };
}

const EMPTY_VIEW = new Float32Array(0);

/**
 * Makes `world.views` of `eid`'s pose blocks, `jointCount` joints long (see `PoseViews`): at
 * spawn, and in a worker of a threaded world for a character it has not seen at that size.
 */
export function makePoseViews(world: AnimationWorld, eid: number, jointCount: number): void {
  const size = jointCount * POSE_STRIDE;
  const block = world.maxJoints * POSE_STRIDE;
  const { local } = world.views;
  local[eid] = world.components.LocalPose.data.subarray(eid * block, eid * block + size);
}

/** The components of a world of `rows` entity ids, `maxJoints` joints and `maxLayers` layer slots (DESIGN §3). */
function createComponents(
  rows: number, maxJoints: number, alloc: PoolAllocator = heapAllocator, maxTransitions = 0, maxLayers = DEFAULT_MAX_LAYERS, maxCurves = DEFAULT_MAX_CURVES,
  maxMachines = DEFAULT_MAX_MACHINES,
): AnimationComponents {
  return {
    Character: createCharacterComponent(rows, alloc),
    Layers: createLayersComponent(rows, alloc, maxLayers),
    LocalPose: createLocalPoseComponent(rows, maxJoints, alloc),
    ModelPose: createMatrixPoolComponent(rows, maxJoints, alloc),
    SkinPalette: createMatrixPoolComponent(rows, maxJoints, alloc),
    Inertialization: createInertializationComponent(rows, maxJoints, alloc, maxTransitions),
    RootMotion: createRootMotionComponent(rows, alloc),
    Follower: createFollowerComponent(rows, alloc),
    LookAt: createLookAtComponent(rows, alloc),
    Reach: createReachComponent(rows, alloc),
    FootLock: createFootLockComponent(rows, alloc),
    Lod: createLodComponent(rows, alloc),
    StateMachine: createStateMachineComponent(rows, alloc, maxMachines),
    Curves: createCurvesComponent(rows, alloc, maxCurves, maxTransitions),
  };
}

/**
 * The scratch of a world running `frame`: `blendThreshold`, then each system's declared
 * buffers in frame order (a name already built — declared by an earlier system — is shared),
 * for `maxJoints` joints and `maxLayers` layer slots per character.
 */
export function createScratch(
  frame: Frame, maxJoints: number, blendThreshold: number, alloc: PoolAllocator = heapAllocator, maxLayers = DEFAULT_MAX_LAYERS,
): Scratch {
  const scratch: Record<string, object> = { blendThreshold: Float64Array.of(blendThreshold) };
  for (const system of frame.systems) {
    const declared = system.scratch;
    if (declared === undefined) continue;
    for (const name of Object.keys(declared)) {
      if (!(name in scratch)) scratch[name] = declared[name](maxJoints, alloc, maxLayers);
    }
  }
  return scratch as unknown as Scratch;
}

/**
 * How each component's row of an entity is reset (declared by its file; see
 * components/lifecycle.ts). Typed by `AnimationComponents`, so a component added there
 * without its lifecycle here does not compile.
 */
export const COMPONENT_ROWS: { readonly [K in keyof AnimationComponents]: RowLifecycle<AnimationComponents[K]> } = {
  Character: characterRows,
  Layers: layersRows,
  LocalPose: poseRows,
  ModelPose: poseRows,
  SkinPalette: poseRows,
  Inertialization: inertializationRows,
  RootMotion: rootMotionRows,
  Follower: followerRows,
  LookAt: lookAtRows,
  Reach: reachRows,
  FootLock: footLockRows,
  Lod: lodRows,
  StateMachine: stateMachineRows,
  Curves: curvesRows,
};

const COMPONENT_NAMES = Object.keys(COMPONENT_ROWS) as (keyof AnimationComponents)[];

/**
 * Resets entity `eid`'s row of every component to what a never-used id holds (each
 * component's `RowLifecycle.reset`). `spawnCharacter` calls it first, whatever the id held
 * before and however its last owner was removed; it is the only reset of a reused id.
 */
export function resetRows(world: AnimationWorld, eid: number): void {
  for (const name of COMPONENT_NAMES) resetRow(world.components, name, eid, world.maxJoints);
}

function resetRow<K extends keyof AnimationComponents>(components: AnimationComponents, name: K, eid: number, maxJoints: number): void {
  COMPONENT_ROWS[name].reset(components[name], eid, maxJoints);
}

/** Bytes of the typed arrays in `value` (an object or array of them, nested up to 3 deep). */
function typedBytes(value: unknown, depth = 0): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value !== 'object' || value === null || depth > 3) return 0;
  let sum = 0;
  for (const v of Object.values(value)) sum += typedBytes(v, depth + 1);
  return sum;
}

/**
 * Coefficients of the bytes of components, scratch and the update list's ids,
 * a + b·rows + c·joints + d·rows·joints (each array is sized by rows, joints, both or
 * neither, for a given number of layer slots), measured once per frame and `maxLayers` on four
 * tiny worlds so the count follows the components and the frame's scratch declarations as
 * they are defined.
 */
const coefficients = new WeakMap<Frame, Map<number, Float64Array>>();

function poolCoefficients(frame: Frame, maxLayers: number, maxCurves: number, maxMachines = DEFAULT_MAX_MACHINES): Float64Array {
  let byLayers = coefficients.get(frame);
  if (byLayers === undefined) coefficients.set(frame, byLayers = new Map());
  const key = (maxCurves * (MAX_LAYERS + 1) + maxLayers) * (MAX_LAYERS + 1) + maxMachines;
  let found = byLayers.get(key);
  if (found === undefined) {
    const at = (rows: number, joints: number): number =>
      typedBytes(createComponents(rows, joints, heapAllocator, 0, maxLayers, maxCurves, maxMachines)) + typedBytes(createScratch(frame, joints, 1, heapAllocator, maxLayers))
      + typedBytes(createUpdateList(rows));
    const b11 = at(1, 1), b21 = at(2, 1), b12 = at(1, 2), b22 = at(2, 2);
    const d = b22 - b21 - b12 + b11;
    const b = b21 - b11 - d, c = b12 - b11 - d;
    found = Float64Array.of(b11 - b - c - d, b, c, d);
    byLayers.set(key, found);
  }
  return found;
}

/** Bytes per record of the event queue (entity, clip, event, time). */
const EVENT_RECORD_BYTES = 3 * Int32Array.BYTES_PER_ELEMENT + Float64Array.BYTES_PER_ELEMENT;
/** The event queue's one-record stamp. */
const EVENT_STAMP_BYTES = Float64Array.BYTES_PER_ELEMENT;
/**
 * Bytes per row of the plain arrays: the pose view (`local`: 1 reference) and the update
 * list's `dt`, ~8 bytes a reference.
 */
const VIEW_ROW_BYTES = (1 + 1) * 8;

/**
 * The body of `worldBytes` (src/frame.ts): the bytes a world running `frame` allocates for
 * `maxEntities` characters of `maxJoints` joints and `maxEvents` event records — the
 * components', scratch and update-list typed arrays (counted from their definitions and the
 * frame's scratch declarations), the event queue, the per-character plain arrays and
 * `maxTransitions` transition slots (default: the default for `maxEntities`), with `maxLayers`
 * layer slots per character (default `DEFAULT_MAX_LAYERS`), `maxCurves` float curves (default
 * `DEFAULT_MAX_CURVES`; their share of the transition slots included) and `maxMachines` machine
 * slots per character (default `DEFAULT_MAX_MACHINES`, at most `maxLayers`).
 * @throws AnimationError when a count is not an integer ≥ 0, `maxLayers` not one in [1, MAX_LAYERS], `maxCurves` not one in [0, MAX_CURVES], or `maxMachines` not one in [1, maxLayers].
 */
export function frameWorldBytes(
  frame: Frame, maxEntities: number, maxJoints: number, maxEvents = 4096, maxTransitions = defaultMaxTransitions(maxEntities), maxLayers = DEFAULT_MAX_LAYERS,
  maxCurves = DEFAULT_MAX_CURVES, maxMachines = Math.min(DEFAULT_MAX_MACHINES, maxLayers),
): number {
  for (const [path, v] of [['maxEntities', maxEntities], ['maxJoints', maxJoints], ['maxEvents', maxEvents], ['maxTransitions', maxTransitions]] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new AnimationError('worldBytes', [{ path, message: `is ${shownNumber(v)}: must be an integer ≥ 0` }]);
  }
  if (typeof maxLayers !== 'number' || !Number.isInteger(maxLayers) || maxLayers < 1 || maxLayers > MAX_LAYERS) {
    throw new AnimationError('worldBytes', [{ path: 'maxLayers', message: `is ${shownNumber(maxLayers)}: must be an integer ≥ 1 and ≤ ${MAX_LAYERS} (MAX_LAYERS; default 4)` }]);
  }
  if (typeof maxCurves !== 'number' || !Number.isInteger(maxCurves) || maxCurves < 0 || maxCurves > MAX_CURVES) {
    throw new AnimationError('worldBytes', [{ path: 'maxCurves', message: `is ${shownNumber(maxCurves)}: must be an integer ≥ 0 and ≤ ${MAX_CURVES} (MAX_CURVES; default ${DEFAULT_MAX_CURVES})` }]);
  }
  if (typeof maxMachines !== 'number' || !Number.isInteger(maxMachines) || maxMachines < 1 || maxMachines > maxLayers) {
    throw new AnimationError('worldBytes', [{ path: 'maxMachines', message: `is ${shownNumber(maxMachines)}: must be an integer ≥ 1 and ≤ maxLayers (${maxLayers}; default 2)` }]);
  }
  const [a, b, c, d] = poolCoefficients(frame, maxLayers, maxCurves, maxMachines) as unknown as [number, number, number, number];
  const rows = maxEntities + 1;
  return a + b * rows + c * maxJoints + d * rows * maxJoints + EVENT_RECORD_BYTES * maxEvents + EVENT_STAMP_BYTES + VIEW_ROW_BYTES * rows
    + transitionSlotBytes(maxTransitions, maxJoints) + curveSlotBytes(maxTransitions, maxCurves);
}

/**
 * The most characters of `maxJoints` joints whose world fits in `MAX_WORLD_BYTES`, with
 * `maxTransitions` slots (or the default for each size, which grows with it): a bisection,
 * since the bytes grow with `maxEntities`.
 */
function mostCharacters(frame: Frame, maxJoints: number, maxEvents: number, maxTransitions: number | undefined, maxLayers: number, maxCurves: number, maxMachines: number): number {
  const fits = (n: number): boolean => frameWorldBytes(frame, n, maxJoints, maxEvents, maxTransitions ?? defaultMaxTransitions(n), maxLayers, maxCurves, maxMachines) <= MAX_WORLD_BYTES;
  let low = 0, high = 1;
  while (fits(high)) low = high, high *= 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** Bytes in a message: the count in full and in MiB or GiB. */
function bytesText(bytes: number): string {
  const gib = bytes / 2 ** 30;
  const unit = gib >= 1 ? `${Number(gib.toPrecision(3))} GiB` : `${Number((bytes / 2 ** 20).toPrecision(3))} MiB`;
  return `${Math.round(bytes).toLocaleString('en-US')} bytes (${unit})`;
}
