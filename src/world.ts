/**
 * The animation world's shape: its options, its components, registries, scratch and frame —
 * the types every system and API function takes. How a world is made lives beside it: the
 * options resolved (worldCapacity.ts), the pools (worldPools.ts), their bytes (worldBytes.ts),
 * the world assembled (buildWorld.ts).
 */
import type { Query, World } from 'bitecs';
import type { Binding } from './assets/Binding.js';
import type { RootFrame, RootTrack } from './assets/rootTrack.js';
import type { SyncMarkers } from './assets/syncMarkers.js';
import type { Clip } from './assets/Clip.js';
import type { Mask } from './assets/Mask.js';
import type { Skeleton } from './assets/Skeleton.js';
import type { BoundStateMachine } from './assets/StateMachine.js';
import type { EventQueue } from './components/EventQueue.js';
import type { LodShared } from './components/Lod.js';
import type { UpdateList } from './components/UpdateList.js';
import type { PoolAllocator } from './memory/poolAllocator.js';
import type { WasmKernels } from './wasm/kernels.js';
import type { KernelChoice } from './wasm/loader.js';
import type { AnimationComponents } from './worldComponents.js';

export type { AnimationComponents } from './worldComponents.js';

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
   * How override layers blend rotations: `'nlerp'` (default: the normalized weighted sum, as
   * ozz) or `'slerp'` (each layer slerped onto the blend so far by its share of the weight, as
   * three.js's AnimationMixer mixes actions; translations and scales stay linear). Slerp costs
   * trigonometry per joint and layer, and runs the blend on JavaScript on either kernels.
   */
  interpolation?: 'nlerp' | 'slerp';
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
   * Milliseconds a threaded world (`threads > 1`) waits for its workers, default 10,000: for
   * every worker to start (the first `stepParallel` waits for them), and within a frame for
   * the workers' last chunks. Past it the frame's promise rejects with an AnimationError naming
   * the threads that did not answer, the workers are ended, the world is as before the call
   * when they never started, and `step` still runs frames (`stepParallel` then throws). A
   * number in [1, 2³¹ − 1]. docs/threads.md.
   */
  workerTimeout?: number;
  /**
   * Debug: after every threaded frame each worker hashes its copies of the assets (skeletons,
   * clips, masks, reference poses, root tracks, sync markers, root frames, bindings, curve maps,
   * the LOD level table) and the calling thread compares them with its own hash of the same
   * tables; a difference — a table changed without reaching the workers — rejects the frame
   * with an `AnimationError` naming the table. Hashing every asset every frame costs time: for
   * tests. Default false, or true when the environment variable `BITANIM_VERIFY_THREADS` is `1`
   * (Node). Off, it costs nothing. docs/threads.md.
   */
  verifyThreads?: boolean;
  /**
   * A threaded world (`threads > 1`) copies what a frame can write (every component, the event
   * queue) as the frame starts, and puts it back when the frame does not complete — a thread
   * that fails mid-frame, a worker that stops, a frame past `workerTimeout`, a stale asset copy
   * under `verifyThreads` — so a rejected `stepParallel` leaves the world byte-identical to
   * before the call. The copy costs a second allocation of those pools and memory bandwidth
   * every threaded frame (docs/threads.md has the measured cost). Default false: a rejected
   * frame keeps what its chunks wrote (its events dropped, the clock not advanced).
   */
  transactionalFrames?: boolean;
  /**
   * Whether `ModelPose` keeps every character's model-space matrices (default true). `false`
   * gives a palette-only world: skinning composes each character's matrices in a scratch row
   * and writes only `SkinPalette`, 48 bytes a joint less of pools (3 KB a character at 64
   * joints) and of memory written every frame (docs/performance.md has what it buys).
   * `ModelPose.data` is then empty and `getModelMatrices` throws; `getJointWorldMatrix`,
   * `setLookAt` and `setReach` compose the joints they read from `LocalPose` when called.
   */
  modelPose?: boolean;
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
  /** How override layers blend rotations (`createAnimationWorld` option `interpolation`). */
  readonly interpolation: 'nlerp' | 'slerp';
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
   * `SharedArrayBuffer` when `threads > 1` or (wasm) where the host can share memory. On a
   * wasm world it is `wasm.memory`'s buffer as the world was created: after the kernel area
   * grew, `memory.buffer` is a longer buffer over the same memory, and this one still holds
   * every pool.
   */
  readonly poolBuffer: ArrayBufferLike;
  /** The shared state of a threaded frame (`threads > 1`), else null; src/parallel. */
  readonly parallel: ThreadPools | null;
  /** The kernels the systems run: `'wasm'` (then `poolBuffer` is on `wasm.memory`) or `'js'`. */
  readonly kernels: 'wasm' | 'js';
  /** This thread's WebAssembly kernels (src/wasm/kernels.ts) when `kernels` is `'wasm'`, else null. */
  readonly wasm: WasmKernels | null;
  /**
   * What the world could not do as asked, as sentences for the game to read (once per kind):
   * on the WebAssembly kernels, an asset the kernel area could not hold runs on the JavaScript
   * kernels (`kernelAreaReport` lists them). Appended between frames, never during one.
   */
  readonly warnings: readonly string[];
  /**
   * Whether the world takes API calls: 0 (open), 1 (a `stepParallel` frame is in flight) or 2
   * (`disposeAnimationWorld` ended it). Every command reads it before it writes anything (src/api/validation.ts
   * `requireWorld`, and the follower target setters' fast path); only `stepParallel` and
   * `disposeAnimationWorld` change it (src/worldGate.ts). One number, so the per-frame setters
   * check it for the cost of a property read.
   */
  readonly gate: number;
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
 * Characters a frame runs through all its systems at a time (src/frame.ts re-exports it): a
 * chunk's layer poses are still in cache when the blend reads them, and a threaded frame's
 * threads claim chunks of this size.
 */
export const FRAME_CHUNK = 128;
