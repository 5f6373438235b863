/**
 * The entry of a worker thread of a threaded world (src/parallel/threadPool.ts starts it; in
 * Node a `worker_threads` Worker, in a browser a module Web Worker). It builds its view of the
 * world over the shared pools once, mirrors the assets it is sent, and runs its share of each
 * frame: waiting on the control block's sequence number (`Atomics.wait` is allowed in
 * workers), claiming chunks until none is left, then adding itself to `DONE`.
 */
import type { World } from 'bitecs';
import {
  CLOCK_TIME, COMMAND_EXIT, COMMAND_MESSAGE, CONTROL_COMMAND, CONTROL_DONE, CONTROL_NEXT, CONTROL_SEQ,
} from '../components/ThreadControl.js';
import { createLodShared } from '../components/Lod.js';
import { clearUpdateList, createUpdateList } from '../components/UpdateList.js';
import { defaultFrame, insertSystem } from '../frame.js';
import { nodeBuiltin } from '../memory/environment.js';
import { instantiateKernels, refreshKernels } from '../wasm/kernels.js';
import { WORLD_OPEN } from '../worldGate.js';
import { type AnimationWorld, type Frame } from '../world.js';
import { hashAssetTables, VERIFIED_TABLE_COUNT } from './assetHash.js';
import { applyAssetUpdate } from './assetMirror.js';
import { CharacterFault, recordFailure } from './failure.js';
import { resetThreadQueue, writeQueueStatus } from './mergeEvents.js';
import type { FrameMessage, HeapReport, InitMessage } from './messages.js';
import { runClaimedChunks } from './runChunks.js';

/** How this worker talks to its caller, whichever the host. */
interface Port {
  post(message: unknown): void;
  listen(handler: (data: unknown) => void): void;
  close(): void;
}

function hostPort(): Port {
  const threads = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  const parent = threads?.parentPort;
  if (parent) return { post: (m) => parent.postMessage(m), listen: (h) => parent.on('message', h), close: () => parent.close() };
  const scope = globalThis as unknown as { postMessage(m: unknown): void; onmessage: ((e: { data: unknown }) => void) | null; close(): void };
  return { post: (m) => scope.postMessage(m), listen: (h) => (scope.onmessage = (e) => h(e.data)), close: () => scope.close() };
}

const EMPTY_VIEW = new Float32Array(0);
const port = hostPort();
let world: AnimationWorld | null = null;
let thread = 0;
let seen = 0;
/** The last frame (its SEQ) whose share this thread ran. */
let ran = 0;
let fault = -1;
let faultFrame: Frame | null = null;
/** Verify mode's hashes (InitMessage.verify), or null when off. */
let verify: Int32Array | null = null;

port.listen((data) => {
  const message = data as InitMessage | FrameMessage;
  if (message.type === 'init') {
    world = createWorkerWorld(message);
    thread = message.thread;
    verify = message.verify;
    seen = Atomics.load(message.pools.control, CONTROL_SEQ);
    ran = seen;
    port.post({ type: 'ready', thread });
  } else if (world !== null) {
    if (message.update !== null) applyAssetUpdate(world, message.update);
    if (message.hooks !== null && message.hooks.fault !== -1) fault = message.hooks.fault;
    // The frame's share, once: the message may be handled before or after this thread sees
    // the frame's SEQ in `serve` (a message travels by the event loop, SEQ by shared memory).
    if (message.seq > ran) {
      ran = message.seq;
      runShare(world);
    }
    if (message.hooks?.probe === 'start') heapProbe.start();
    if (message.hooks?.probe === 'stop') port.post({ type: 'heap', thread, report: heapProbe.stop() });
  }
  if (world !== null) serve(world);
});

/**
 * Runs frames woken through the control block until one needs a message (or the end). A frame
 * whose share ran already (its message came first) is passed over, so no frame runs twice.
 */
function serve(world: AnimationWorld): void {
  const control = (world.parallel as NonNullable<AnimationWorld['parallel']>).control;
  for (;;) {
    Atomics.wait(control, CONTROL_SEQ, seen);
    seen = Atomics.load(control, CONTROL_SEQ);
    const command = Atomics.load(control, CONTROL_COMMAND);
    if (command === COMMAND_EXIT) {
      port.close();
      return;
    }
    if (seen <= ran) continue; // its share ran from its message
    if (command === COMMAND_MESSAGE) return; // the frame comes with the message waiting in the event loop
    ran = seen;
    runShare(world);
  }
}

/** This thread's share of the frame in the control block. */
function runShare(world: AnimationWorld): void {
  const pools = world.parallel as NonNullable<AnimationWorld['parallel']>;
  const queue = world.events;
  world.time = pools.clock[CLOCK_TIME];
  if (world.wasm !== null) refreshKernels(world.wasm); // the kernel area's views, if the world's thread grew it since
  resetThreadQueue(queue);
  if (fault >= 0) runFaulty(world, pools);
  else runGuarded(world, pools);
  writeQueueStatus(pools, thread, queue);
  clearUpdateList(world.updates);
  if (verify !== null) hashAssetTables(world, verify, thread * VERIFIED_TABLE_COUNT);
  Atomics.add(pools.control, CONTROL_DONE, 1);
  Atomics.notify(pools.control, CONTROL_DONE);
}

/** Runs the chunks this thread claims, recording a failure instead of throwing (its own function: a try inlined into the frame loop allocated). */
function runGuarded(world: AnimationWorld, pools: NonNullable<AnimationWorld['parallel']>): void {
  try {
    runClaimedChunks(world, pools, thread);
  } catch (error) {
    recordFailure(pools, thread, error, world.characters.dense);
    Atomics.store(pools.control, CONTROL_NEXT, 1 << 30); // the others stop claiming
  }
}

/** {@link runGuarded} with the fault hook's frame. */
function runFaulty(world: AnimationWorld, pools: NonNullable<AnimationWorld['parallel']>): void {
  const frame = world.frame;
  (world as { frame: Frame }).frame = faultyFrame();
  runGuarded(world, pools);
  (world as { frame: Frame }).frame = frame;
}

/** The default frame with a system that throws on character `fault` (0: any; the failure test hook), until it fired. */
function faultyFrame(): Frame {
  faultFrame ??= insertSystem(defaultFrame, {
    name: 'fault',
    reads: [],
    writes: [],
    entities: (w, _dt, first, end) => {
      for (let i = first; i < end; i++) {
        if (w.characters.dense[i] === fault || fault === 0) {
          fault = -1;
          throw new CharacterFault(`injected fault on character ${w.characters.dense[i]}`, w.characters.dense[i]);
        }
      }
    },
  }, { after: 'sample' });
  return faultFrame;
}

/** Measures this worker's allocation between two probes as test/allocation.test.ts measures the caller's (Node only). */
const heapProbe = {
  before: 0,
  profiler: null as { start(): void; stop(): { statistics: { beforeGC: { heapStatistics: { usedHeapSize: number } }; afterGC: { heapStatistics: { usedHeapSize: number } } }[] } | undefined } | null,
  gc(): void {
    const v8 = nodeBuiltin<typeof import('node:v8')>('node:v8');
    const vm = nodeBuiltin<typeof import('node:vm')>('node:vm');
    if (v8 === null || vm === null) return;
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
  },
  used(): number {
    return nodeBuiltin<typeof import('node:v8')>('node:v8')?.getHeapStatistics().used_heap_size ?? 0;
  },
  start(): void {
    const v8 = nodeBuiltin<typeof import('node:v8')>('node:v8');
    if (v8 === null) return;
    this.gc();
    this.before = this.used();
    this.profiler = new v8.GCProfiler();
    this.profiler.start();
  },
  stop(): HeapReport {
    const collections = this.profiler?.stop()?.statistics ?? [];
    this.profiler = null;
    const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
    const allocated = this.used() - this.before + freed;
    this.gc();
    return { allocated, grown: this.used() - this.before, collections: collections.length };
  },
};

/** The worker's view of the world: shared pools, its own queue, scratch, update list, views and asset mirror. */
function createWorkerWorld(init: InitMessage): AnimationWorld {
  const rows = init.maxEntities + 1;
  const lod = createLodShared();
  const pools = init.pools;
  return {
    ecs: null as unknown as World, // workers never touch the entity world
    maxEntities: init.maxEntities,
    maxJoints: init.maxJoints,
    maxLayers: init.components.Layers.maxLayers, // the Layers pools' stride, cloned with them
    blendThreshold: init.blendThreshold,
    interpolation: init.interpolation,
    components: init.components,
    characters: { dense: pools.dense } as unknown as AnimationWorld['characters'],
    assets: {
      skeletons: [], skeletonIds: new Map(), clips: [], clipIds: new Map(), masks: [], maskIds: new Map(), references: [], referenceIds: new Map(),
      rootTracks: [], syncMarkers: [], rootFrames: [], bindings: [], bindingIds: new Map(), machines: [], curveMaps: [],
    },
    events: pools.queues[init.thread],
    scratch: pools.scratch[init.thread - 1],
    views: {
      local: new Array<Float32Array>(rows).fill(EMPTY_VIEW),
    },
    lod: { camera: init.camera, dts: lod.dts, clipLevels: lod.clipLevels, args: lod.args },
    frame: defaultFrame,
    updates: createUpdateList(rows),
    time: 0,
    threads: init.threads,
    poolBuffer: init.camera.buffer,
    parallel: pools,
    kernels: init.wasm !== null ? 'wasm' : 'js',
    wasm: init.wasm !== null ? instantiateKernels(init.wasm.module, init.wasm.memory, init.wasm.area, init.thread) : null,
    warnings: [], // the world's own thread gives them
    gate: WORLD_OPEN, // a worker's view takes no API calls
  };
}
