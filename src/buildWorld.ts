/**
 * The body of `createAnimationWorld` (src/api/world.ts passes the frame: this file imports no
 * system): checks the options, counts the pools' bytes, allocates every pool once on one
 * buffer — the WebAssembly kernels' memory or an (Shared)ArrayBuffer — and assembles the world.
 */
import { $internal, createWorld, registerComponents, registerQuery } from 'bitecs';
import { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
import type { Binding } from './assets/Binding.js';
import { describeValue, MAX_WORLD_BYTES, shownNumber } from './assets/limits.js';
import { sharedMemoryIssue } from './memory/environment.js';
import { createBufferAllocator, measureAllocations, type PoolAllocator } from './memory/poolAllocator.js';
import type { KernelAreaHeader } from './wasm/areaLayout.js';
import { heapPlan, instantiateKernels, KERNEL_POOL_START } from './wasm/kernels.js';
import { kernelAreaGrows, kernelModule } from './wasm/loader.js';
import { MAX_MEMORY_PAGES } from './wasm/areaLayout.js';
import { wasmApi, WASM_PAGE, type WasmMemory, type WasmModule } from './wasm/wasmApi.js';
import { bytesText, frameWorldBytes, mostCharacters } from './worldBytes.js';
import { resolveCapacity } from './worldCapacity.js';
import { createWorldPools, type WorldPools } from './worldPools.js';
import { WORLD_OPEN } from './worldGate.js';
import { type AnimationWorld, type AnimationWorldOptions, type Frame } from './world.js';

const EMPTY_VIEW = new Float32Array(0);

/**
 * The kernels' memory of `pages` pages, shared when `shared`. One whose area grows may grow to
 * 4 GiB; a host that cannot reserve that much for a shared memory (a 32-bit or low-memory
 * browser) gets a memory that may grow to 1 GiB more, else none more (the area then fills as a
 * fixed one does: what does not fit runs on JavaScript, with a warning).
 * @throws RangeError when not even `pages` pages can be had.
 */
function createKernelMemory(pages: number, grows: boolean, shared: boolean): WasmMemory {
  const api = wasmApi as NonNullable<typeof wasmApi>;
  const maxima = grows ? [Math.max(pages, MAX_MEMORY_PAGES), Math.min(MAX_MEMORY_PAGES, pages + 16_384)] : [];
  for (const maximum of maxima) {
    try {
      return new api.Memory({ initial: pages, maximum, shared });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return new api.Memory({ initial: pages, maximum: pages, shared });
}

/**
 * Creates an animation world with pools for `maxEntities` characters of up to `maxJoints`
 * joints, running `frame` (`options.frame` is ignored here), with the scratch its systems
 * declare. Memory is allocated here once; frames allocate nothing.
 *
 * Pools hold `maxEntities + 1` rows because bitecs entity ids start at 1. Per character:
 * `maxJoints × 10` pose floats (LocalPose; layers are sampled into per-thread scratch) and
 * `2 × maxJoints × 12` matrix floats; per transition slot (`maxTransitions`) `maxJoints × 20`
 * floats (a transition's source poses, then its offsets).
 *
 * The pools' total bytes (`worldBytes`) are computed before anything is allocated: a world
 * above `MAX_WORLD_BYTES` (2 GiB) is refused, naming the byte count (docs/hardening.md).
 *
 * @throws AnimationError when `options` is not an object or holds an unknown option, a size is
 * not a positive integer (`maxJoints` ≤ 32767, `maxEvents` ≤ 2²⁴, `maxLayers` ≤ 16), the pools
 * would take more than 2 GiB, or allocating them fails.
 */
export function buildAnimationWorld(options: AnimationWorldOptions, frame: Frame): AnimationWorld {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new AnimationError('createAnimationWorld', [{ path: 'options', message: `is ${describeValue(options)}: must be an object { maxEntities, maxJoints, … }` }]);
  }
  const issues: AnimationIssue[] = [];
  const capacity = resolveCapacity(options, issues);
  const { maxEntities, maxJoints, threads } = capacity;
  if (options.world !== undefined && !(typeof options.world === 'object' && options.world !== null && $internal in options.world)) {
    issues.push({ path: 'world', message: 'must be a bitecs world from createWorld()' });
  }
  if (threads > 1) {
    const missing = sharedMemoryIssue();
    if (missing !== null) issues.push({ path: 'threads', message: `is ${threads}: ${missing}` });
  }
  const kernels = options.kernels ?? 'auto';
  // A growable kernel area needs a shared memory (never detached on growth): where the host can share one.
  const grows = kernelAreaGrows(threads);
  let module: WasmModule | null = null;
  if (kernels !== 'auto' && kernels !== 'wasm' && kernels !== 'js') {
    issues.push({ path: 'kernels', message: `is ${describeValue(kernels)}: must be 'auto', 'wasm' or 'js'` });
  } else if (kernels !== 'js') {
    const found = kernelModule(grows || threads > 1);
    if (typeof found !== 'string') module = found;
    else if (kernels === 'wasm') issues.push({ path: 'kernels', message: `is 'wasm': ${found}; use 'auto' to fall back to the JavaScript kernels` });
  }
  if (issues.length) throw new AnimationError('createAnimationWorld', issues);

  const bytes = frameWorldBytes(frame, capacity);
  if (bytes > MAX_WORLD_BYTES) {
    const fit = mostCharacters(frame, capacity, options.maxTransitions !== undefined);
    throw new AnimationError('createAnimationWorld', [{
      path: 'maxEntities',
      message: `is ${shownNumber(maxEntities)} with maxJoints ${maxJoints}: the pools would take ${bytesText(bytes)}, more than the limit MAX_WORLD_BYTES of ${bytesText(MAX_WORLD_BYTES)}, `
        + `so nothing was allocated; a world of ${maxJoints} joints holds at most ${fit} characters`,
    }]);
  }
  // Every pool through one allocator on one buffer: measured first, then allocated once.
  const layout = (alloc: PoolAllocator): WorldPools => createWorldPools(frame, capacity, alloc, module !== null);
  let pools: WorldPools, poolBuffer: ArrayBufferLike, memory: WasmMemory | null = null, heapStart = 0;
  const plan = heapPlan(maxJoints, grows);
  try {
    const size = measureAllocations(layout);
    if (module !== null) {
      // The pools in the kernels' memory (pointers into it are the pools' byteOffsets), then the
      // kernel area's heap, which grows at the end of a shared memory.
      const pages = Math.max(1, Math.ceil((KERNEL_POOL_START + size + plan.bytes) / WASM_PAGE));
      memory = createKernelMemory(pages, grows, grows || threads > 1);
      poolBuffer = memory.buffer;
    } else {
      poolBuffer = threads > 1 ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    }
    const alloc = createBufferAllocator(poolBuffer);
    if (memory !== null) alloc.array(Uint8Array, KERNEL_POOL_START);
    pools = layout(alloc);
    heapStart = alloc.used;
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
  const wasm = module !== null
    ? instantiateKernels(module, memory as WasmMemory, pools.kernelArea as KernelAreaHeader, 0, { masks, references, bindings }, { start: heapStart, plan })
    : null;
  return {
    ecs,
    maxEntities,
    maxJoints,
    maxLayers: capacity.maxLayers,
    blendThreshold: capacity.blendThreshold,
    interpolation: capacity.interpolation,
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
      local: new Array<Float32Array>(capacity.rows).fill(EMPTY_VIEW),
    },
    lod: pools.lod,
    frame,
    updates,
    time: 0,
    threads,
    poolBuffer,
    parallel: pools.parallel,
    kernels: module !== null ? 'wasm' : 'js',
    wasm,
    warnings: wasm !== null ? wasm.warnings : [],
    gate: WORLD_OPEN,
  };
}
