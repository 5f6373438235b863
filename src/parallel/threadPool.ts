/**
 * The workers of a threaded world and the frame they run together (issue 17): started with
 * the world, given its shared pools once, woken per frame through the control block
 * (components/ThreadControl.ts), ended by `disposeAnimationWorld`.
 *
 * A frame (`runParallelFrame`): the caller copies the frame's characters into the shared list,
 * writes the frame's header, sends the assets registered since the last frame (a message; the
 * workers then take the frame from it) or else just wakes the workers (`Atomics.notify`), and
 * runs chunks itself until none is left. If the workers are done by then, the frame settles at
 * once; otherwise the caller waits with `Atomics.waitAsync` — never `Atomics.wait`, so a
 * browser's main thread does not block. Settling merges the threads' events in `step`'s order,
 * advances the clock, and resolves (or rejects, when a thread failed).
 */
import { AnimationError } from '../assets/AnimationError.js';
import {
  CLOCK_DT, CLOCK_TIME, COMMAND_FRAME, COMMAND_MESSAGE, CONTROL_COMMAND, CONTROL_COUNT, CONTROL_DONE, CONTROL_FAILED, CONTROL_NEXT,
  CONTROL_RUNNING, CONTROL_SEQ,
} from '../components/ThreadControl.js';
import { clearUpdateList } from '../components/UpdateList.js';
import { endFrame } from '../frame.js';
import { FRAME_CHUNK, type AnimationWorld, type ThreadPools } from '../world.js';
import { createAssetMirror, takeAssetUpdate, type AssetMirror } from './assetMirror.js';
import { readFailure, recordFailure } from './failure.js';
import { mergeThreadEvents, resetThreadQueue, writeQueueStatus } from './mergeEvents.js';
import { runClaimedChunks } from './runChunks.js';
import type { FrameMessage, InitMessage, WorkerMessage } from './messages.js';
import { startWorker, type WorkerHandle } from './workerHost.js';

/** The runtime of one threaded world (not in the world object: it holds workers and promises). */
interface ThreadRuntime {
  readonly world: AnimationWorld;
  readonly pools: ThreadPools;
  readonly workers: WorkerHandle[];
  readonly mirror: AssetMirror;
  /** Workers that reported ready. */
  readyCount: number;
  readonly ready: Promise<void>;
  /** Per worker: a character whose chunk it must fail on next frame (test hook), else −1. */
  readonly faults: number[];
  faultArmed: boolean;
  /** Why the pool can no longer run frames (a worker stopped), or null. */
  broken: string | null;
  /** The frame in flight: its seconds and chunks, and its promise's settle functions. */
  dt: number;
  chunks: number;
  resolve: (() => void) | null;
  reject: ((error: unknown) => void) | null;
  /** Bound once, so waiting allocates no closure per frame. */
  readonly executor: (resolve: () => void, reject: (error: unknown) => void) => void;
  readonly poll: () => void;
}

const runtimes = new WeakMap<AnimationWorld, ThreadRuntime>();

/** Starts `world.threads − 1` workers on `world`'s shared pools (createAnimationWorld). */
export function startThreads(world: AnimationWorld): void {
  const pools = world.parallel;
  if (pools === null) return;
  let markReady!: () => void, failReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failReady = reject)));
  ready.catch(() => {}); // a failure to start is reported by the frame that waits for it
  const runtime: ThreadRuntime = {
    world,
    pools,
    workers: [],
    mirror: createAssetMirror(),
    readyCount: 0,
    faults: [],
    faultArmed: false,
    ready,
    broken: null,
    dt: 0,
    chunks: 0,
    resolve: null,
    reject: null,
    executor: (resolve, reject) => {
      runtime.resolve = resolve;
      runtime.reject = reject;
      runtime.poll();
    },
    poll: () => pollFrame(runtime),
  };
  const onMessage = (data: unknown): void => {
    const message = data as WorkerMessage;
    if (message.type === 'ready' && ++runtime.readyCount === runtime.workers.length) markReady();
  };
  for (let thread = 1; thread < world.threads; thread++) {
    const onError = (message: string): void => {
      if (runtime.broken !== null) return;
      runtime.broken = `thread ${thread} stopped (${message})`;
      const error = new AnimationError('stepParallel', [{ path: 'world', message: `${runtime.broken}: the frame was not finished; step(world, dt) still runs frames on this thread` }]);
      failReady(error);
      if (runtime.reject !== null) settle(runtime, error);
    };
    const worker = startWorker(thread, onMessage, onError);
    runtime.workers.push(worker);
    runtime.faults.push(-1);
    const init: InitMessage = {
      type: 'init',
      thread,
      threads: world.threads,
      maxEntities: world.maxEntities,
      maxJoints: world.maxJoints,
      blendThreshold: world.blendThreshold,
      components: world.components,
      camera: world.lod.camera,
      pools,
    };
    worker.post(init);
  }
  runtimes.set(world, runtime);
}

/** Why `world`'s threads cannot run a frame (a sentence), or null when they can. */
export function threadsUnavailable(world: AnimationWorld): string | null {
  return runtimes.get(world)?.broken ?? null;
}

/**
 * Runs one frame of `count` (≥ 1) characters on every thread of `world` (its removals are
 * committed: `beginFrame` ran); see the file header. Sets `RUNNING` until it settles.
 */
export function runParallelFrame(world: AnimationWorld, dt: number, count: number): Promise<void> {
  const runtime = runtimes.get(world) as ThreadRuntime;
  const control = runtime.pools.control;
  control[CONTROL_RUNNING] = 1;
  if (runtime.readyCount < runtime.workers.length) {
    // Only the first frames: the workers are still loading (and keep a Node process alive meanwhile).
    for (const worker of runtime.workers) worker.hold(true);
    const release = (): void => {
      for (const worker of runtime.workers) worker.hold(false);
    };
    return runtime.ready.then(
      () => {
        release();
        return startFrame(runtime, dt, count);
      },
      (error: unknown) => {
        release();
        control[CONTROL_RUNNING] = 0;
        throw error;
      },
    );
  }
  return startFrame(runtime, dt, count);
}

const RESOLVED = Promise.resolve();

function startFrame(runtime: ThreadRuntime, dt: number, count: number): Promise<void> {
  const { world, pools, workers } = runtime;
  const { control, clock } = pools;
  const dense = world.characters.dense;
  const shared = pools.dense;
  for (let i = 0; i < count; i++) shared[i] = dense[i];
  clock[CLOCK_DT] = dt;
  clock[CLOCK_TIME] = world.time;
  control[CONTROL_COUNT] = count;
  control[CONTROL_NEXT] = 0;
  control[CONTROL_DONE] = 0;
  control[CONTROL_FAILED] = 0;
  const update = takeAssetUpdate(world, runtime.mirror);
  if (update !== null || runtime.faultArmed) {
    runtime.faultArmed = false;
    for (let w = 0; w < workers.length; w++) {
      const message: FrameMessage = { type: 'frame', update, fault: runtime.faults[w] };
      workers[w].post(message);
      runtime.faults[w] = -1;
    }
    control[CONTROL_COMMAND] = COMMAND_MESSAGE;
  } else {
    control[CONTROL_COMMAND] = COMMAND_FRAME;
  }
  Atomics.add(control, CONTROL_SEQ, 1);
  Atomics.notify(control, CONTROL_SEQ);

  // The caller's share, recorded in its own queue (merged with the others' at the end).
  const own = pools.queues[0];
  const events = world.events;
  resetThreadQueue(own);
  (world as { events: typeof events }).events = own;
  try {
    runClaimedChunks(world, pools, 0);
  } catch (error) {
    recordFailure(pools, 0, error, dense);
    Atomics.store(control, CONTROL_NEXT, 1 << 30); // the others stop claiming
  } finally {
    (world as { events: typeof events }).events = events;
  }
  writeQueueStatus(pools, 0, own);
  runtime.dt = dt;
  runtime.chunks = Math.ceil(count / FRAME_CHUNK);
  if (Atomics.load(control, CONTROL_DONE) === workers.length) {
    const error = finishFrame(runtime);
    return error === null ? RESOLVED : Promise.reject(error);
  }
  workers[0].hold(true);
  return new Promise(runtime.executor);
}

/** Settles the frame when every worker is done, else waits (asynchronously) for the next one. */
function pollFrame(runtime: ThreadRuntime): void {
  if (runtime.reject === null) return; // settled already (a worker stopped)
  const control = runtime.pools.control;
  const done = Atomics.load(control, CONTROL_DONE);
  if (done === runtime.workers.length) {
    settle(runtime, finishFrame(runtime));
    return;
  }
  const wait = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } })
    .waitAsync(control, CONTROL_DONE, done);
  if (wait.async) (wait.value as Promise<unknown>).then(runtime.poll);
  else runtime.poll();
}

function settle(runtime: ThreadRuntime, error: unknown): void {
  const { resolve, reject } = runtime;
  runtime.resolve = null;
  runtime.reject = null;
  runtime.workers[0].hold(false);
  runtime.pools.control[CONTROL_RUNNING] = 0;
  if (error === null) resolve?.();
  else reject?.(error);
}

/** Merges the events and ends the frame; on a thread's failure, drops the frame's events and returns the error instead. */
function finishFrame(runtime: ThreadRuntime): AnimationError | null {
  const { world, pools } = runtime;
  const failure = readFailure(pools);
  if (failure !== null) {
    clearUpdateList(world.updates);
    pools.control[CONTROL_RUNNING] = 0;
    return new AnimationError('stepParallel', [{
      path: `thread ${failure.thread}`,
      message: `${failure.text}; the frame was left unfinished (its events dropped, the clock not advanced); the world steps on`,
    }]);
  }
  mergeThreadEvents(world.events, pools, runtime.chunks, world.threads);
  endFrame(world, runtime.dt);
  pools.control[CONTROL_RUNNING] = 0;
  return null;
}

/** Ends `world`'s workers (disposeAnimationWorld). */
export function stopThreads(world: AnimationWorld): void {
  const runtime = runtimes.get(world);
  if (runtime === undefined) return;
  for (const worker of runtime.workers) worker.terminate();
  runtime.broken = 'the world was disposed';
  runtimes.delete(world);
}

/**
 * Test hook: makes worker `thread` throw a {@link CharacterFault} when it next runs a chunk
 * holding character `eid` (src/parallel/worker.ts), so the failure path can be tested.
 */
export function injectWorkerFault(world: AnimationWorld, thread: number, eid: number): void {
  const runtime = runtimes.get(world);
  if (runtime !== undefined && thread >= 1 && thread <= runtime.faults.length) {
    runtime.faults[thread - 1] = eid;
    runtime.faultArmed = true;
  }
}
