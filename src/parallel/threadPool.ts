/**
 * The workers of a threaded world and the frame they run together: started with
 * the world, given its shared pools once, woken per frame through the control block
 * (components/ThreadControl.ts), ended by `disposeAnimationWorld`.
 *
 * A frame (`runParallelFrame`): the caller copies the frame's characters into the shared list,
 * writes the frame's header, sends the assets registered since the last frame (a message; the
 * workers then take the frame from it) or else just wakes the workers (`Atomics.notify`), and
 * runs chunks itself until none is left. The workers are then at most a chunk behind: the
 * caller polls their counter for up to ~2 ms and settles the frame at once (no promise made);
 * past that it waits with `Atomics.waitAsync` — never `Atomics.wait`, so a browser's main
 * thread does not block. Settling merges the threads' events in `step`'s order,
 * advances the clock, and resolves (or rejects, when a thread failed).
 *
 * The world's gate (`AnimationWorld.gate`) is `WORLD_STEPPING` from the call until the frame
 * settles, so the API refuses calls meanwhile. Nothing is written before every worker has
 * reported ready; a worker that stops, or does not start or finish within the world's
 * `workerTimeout`, ends them all (none may write the pools once the world takes calls again).
 *
 * Verify mode (`verifyThreads`, src/parallel/assetHash.ts): each worker hashes its asset copies
 * at the end of its share, and settling compares them with the world's before merging; a stale
 * copy rejects the frame naming the table. Off, the frame only tests one field for null.
 */
import { AnimationError } from '../assets/AnimationError.js';
import {
  CLOCK_DT, CLOCK_TIME, COMMAND_FRAME, COMMAND_MESSAGE, CONTROL_COMMAND, CONTROL_COUNT, CONTROL_DONE, CONTROL_FAILED, CONTROL_NEXT,
  CONTROL_SEQ, STATUS_PUSHED, STATUS_STRIDE,
} from '../components/ThreadControl.js';
import { clearUpdateList } from '../components/UpdateList.js';
import { endFrame, runCallerSystems } from '../frame.js';
import { FRAME_CHUNK, type AnimationWorld, type ThreadPools } from '../world.js';
import { setWorldGate, WORLD_OPEN, WORLD_STEPPING } from '../worldGate.js';
import { hashAssetTables, VERIFIED_TABLE_COUNT, VERIFIED_TABLES } from './assetHash.js';
import { createAssetMirror, forgetAssetMirror, takeAssetUpdate, type AssetMirror } from './assetMirror.js';
import { readFailure, recordFailure } from './failure.js';
import { createFrameSnapshot, restoreSnapshot, takeSnapshot, type FrameSnapshot } from './frameSnapshot.js';
import { mergeThreadEvents, resetThreadQueue, writeQueueStatus } from './mergeEvents.js';
import { runClaimedChunks } from './runChunks.js';
import type { FrameMessage, HeapReport, InitMessage, WorkerHooks, WorkerMessage } from './messages.js';
import { startWorker, type WorkerHandle } from './workerHost.js';
import { kernelAreaHeader } from '../wasm/areaLayout.js';

/** The runtime of one threaded world (not in the world object: it holds workers and promises). */
interface ThreadRuntime {
  readonly world: AnimationWorld;
  readonly pools: ThreadPools;
  readonly workers: WorkerHandle[];
  readonly mirror: AssetMirror;
  /** Workers that reported ready. */
  readyCount: number;
  /** Per worker (thread − 1): whether it reported ready. */
  readonly started: boolean[];
  /** Milliseconds to wait for the workers (`createAnimationWorld`'s `workerTimeout`): to start, and for a frame's last chunks. */
  readonly timeout: number;
  /**
   * Verify mode (`verifyThreads`): per thread `VERIFIED_TABLE_COUNT` hashes of its asset tables,
   * the workers' written after each frame (src/parallel/assetHash.ts), on shared memory; null when off.
   */
  readonly verify: Int32Array | null;
  /** `transactionalFrames`: the copy of what a frame writes, taken as it starts and put back when it does not complete; null when off. */
  readonly snapshot: FrameSnapshot | null;
  /** When the frame in flight gives up on the workers (`performance.now()` milliseconds), once it waits asynchronously. */
  deadline: number;
  readonly ready: Promise<void>;
  /** Per worker: test hooks to send with the next frame, or null. */
  readonly hooks: (WorkerHooks | null)[];
  hooksArmed: boolean;
  /** Frames that settled asynchronously (the workers were not done within the poll): what their promises cost, for the allocation test. */
  asyncFrames: number;
  /** Receives the workers' heap reports (test hook). */
  onHeap: ((thread: number, report: HeapReport) => void) | null;
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

/**
 * Starts `world.threads − 1` workers on `world`'s shared pools (createAnimationWorld); a frame
 * waits at most `timeout` milliseconds for them to start, and for their last chunks. With
 * `verify`, every threaded frame compares the workers' asset copies with the world's by hash;
 * with `transactional`, a frame that does not complete is undone (src/parallel/frameSnapshot.ts).
 */
export function startThreads(world: AnimationWorld, timeout: number, verify = false, transactional = false): void {
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
    started: [],
    timeout,
    verify: verify ? new Int32Array(new SharedArrayBuffer(world.threads * VERIFIED_TABLE_COUNT * 4)) : null,
    snapshot: transactional ? createFrameSnapshot(world) : null,
    deadline: 0,
    hooks: [],
    hooksArmed: false,
    asyncFrames: 0,
    onHeap: null,
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
    if (message.type === 'ready' && !runtime.started[message.thread - 1]) {
      runtime.started[message.thread - 1] = true;
      if (++runtime.readyCount === runtime.workers.length) markReady();
    }
    if (message.type === 'heap') runtime.onHeap?.(message.thread, message.report);
  };
  for (let thread = 1; thread < world.threads; thread++) {
    const onError = (message: string): void => {
      if (runtime.broken !== null) return;
      // The others are ended too: none may write the pools once the frame settled and the world takes calls again.
      const ended = endWorkers(runtime, `thread ${thread} stopped (${message})`);
      const undone = runtime.reject !== null && runtime.snapshot !== null;
      const error = new AnimationError('stepParallel', [{
        path: 'world',
        message: `${runtime.broken}: the frame was ${undone ? 'undone (transactionalFrames: the world is as before the call)' : 'not finished'}; step(world, dt) still runs frames on this thread`,
      }]);
      failReady(error);
      if (runtime.reject !== null) settleEnded(runtime, ended, error);
    };
    const worker = startWorker(thread, onMessage, onError);
    runtime.workers.push(worker);
    runtime.started.push(false);
    runtime.hooks.push(null);
    const init: InitMessage = {
      type: 'init',
      thread,
      threads: world.threads,
      maxEntities: world.maxEntities,
      maxJoints: world.maxJoints,
      blendThreshold: world.blendThreshold,
      interpolation: world.interpolation,
      components: world.components,
      camera: world.lod.camera,
      pools,
      verify: runtime.verify,
      wasm: world.wasm === null ? null : { module: world.wasm.module, memory: world.wasm.memory, area: kernelAreaHeader(world.wasm.area) },
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
 * committed: `beginFrame` ran) — the caller systems (`runCallerSystems`), then the chunks; see
 * the file header. The world's gate is `WORLD_STEPPING` until the frame settles. Nothing of
 * the world is written before every worker has started: when one cannot (its script fails,
 * it stops, or it does not report within the timeout) the promise rejects and the world is
 * as it was.
 */
export function runParallelFrame(world: AnimationWorld, dt: number, count: number): Promise<void> {
  const runtime = runtimes.get(world) as ThreadRuntime;
  setWorldGate(world, WORLD_STEPPING);
  if (runtime.readyCount < runtime.workers.length) {
    // Only the first frames: the workers are still loading.
    return whenStarted(runtime).then(
      () => startFrame(runtime, dt, count),
      (error: unknown) => {
        setWorldGate(world, WORLD_OPEN);
        throw error;
      },
    );
  }
  return startFrame(runtime, dt, count);
}

/**
 * Resolves once every worker has reported ready; rejects when one stopped first, or when some
 * have not reported within the timeout (naming them; the workers are then ended).
 */
function whenStarted(runtime: ThreadRuntime): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const late: number[] = [];
      for (let w = 0; w < runtime.workers.length; w++) if (!runtime.started[w]) late.push(w + 1);
      const reason = `thread${late.length > 1 ? 's' : ''} ${late.join(', ')} did not start within ${runtime.timeout} ms (createAnimationWorld's workerTimeout)`;
      void endWorkers(runtime, reason);
      reject(new AnimationError('stepParallel', late.map((thread) => ({
        path: `thread ${thread}`,
        message: `did not report ready within ${runtime.timeout} ms (workerTimeout): the workers were ended and the frame not run (the world is as before the call); step(world, dt) still runs frames on this thread`,
      }))));
    }, runtime.timeout);
    runtime.ready.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Ends the workers of a runtime that can no longer run frames, for `reason` (a sentence;
 * `stepParallel` then throws it); resolves once they have stopped.
 */
function endWorkers(runtime: ThreadRuntime, reason: string): Promise<unknown> {
  if (runtime.broken === null) runtime.broken = reason;
  return Promise.all(runtime.workers.map((worker) => worker.terminate()));
}

/**
 * Settles the frame in flight with `error` once the workers `ended` (none writes the pools any
 * more), having undone it first when the frame is transactional.
 */
function settleEnded(runtime: ThreadRuntime, ended: Promise<unknown>, error: unknown): void {
  const undo = (): void => {
    if (runtime.snapshot !== null) restoreSnapshot(runtime.snapshot, runtime.world.events);
    settle(runtime, error);
  };
  if (runtime.snapshot === null) undo();
  else ended.then(undo, undo);
}

const RESOLVED = Promise.resolve();

function startFrame(runtime: ThreadRuntime, dt: number, count: number): Promise<void> {
  const { world, pools, workers } = runtime;
  const { control, clock } = pools;
  if (runtime.broken !== null) {
    // A worker stopped after it started, before this frame: nothing written yet.
    setWorldGate(world, WORLD_OPEN);
    return Promise.reject(new AnimationError('stepParallel', [{ path: 'world', message: `${runtime.broken}: the frame was not run (the world is as before the call); step(world, dt) still runs frames on this thread` }]));
  }
  // The workers are up: from here on the frame writes the world (a transactional one copies it first).
  if (runtime.snapshot !== null) takeSnapshot(runtime.snapshot, world.events);
  runCallerSystems(world, dt, count);
  const dense = world.characters.dense;
  const shared = pools.dense;
  for (let i = 0; i < count; i++) shared[i] = dense[i];
  clock[CLOCK_DT] = dt;
  clock[CLOCK_TIME] = world.time;
  control[CONTROL_COUNT] = count;
  control[CONTROL_NEXT] = 0;
  control[CONTROL_DONE] = 0;
  control[CONTROL_FAILED] = 0;
  // A worker writes its status at the end of its share: until then its `pushed` is −1, which
  // names the workers that did not finish when the frame times out.
  for (let t = 1; t < world.threads; t++) pools.status[t * STATUS_STRIDE + STATUS_PUSHED] = -1;
  const update = takeAssetUpdate(world, runtime.mirror);
  if (update !== null || runtime.hooksArmed) {
    runtime.hooksArmed = false;
    for (let w = 0; w < workers.length; w++) {
      const message: FrameMessage = { type: 'frame', seq: control[CONTROL_SEQ] + 1, update, hooks: runtime.hooks[w] };
      workers[w].post(message);
      runtime.hooks[w] = null;
    }
    control[CONTROL_COMMAND] = COMMAND_MESSAGE;
  } else {
    control[CONTROL_COMMAND] = COMMAND_FRAME;
  }
  Atomics.add(control, CONTROL_SEQ, 1);
  Atomics.notify(control, CONTROL_SEQ);

  runCallerShare(world, pools);
  runtime.dt = dt;
  runtime.chunks = Math.ceil(count / FRAME_CHUNK);
  if (awaitWorkers(control, workers.length)) {
    const error = finishFrame(runtime);
    return error === null ? RESOLVED : Promise.reject(error);
  }
  runtime.asyncFrames++;
  runtime.deadline = performance.now() + runtime.timeout;
  return new Promise(runtime.executor);
}

/**
 * The caller's share of the frame, recorded in its own queue (merged with the others' at the
 * end). Its own function: the try/finally made the frame allocate where it was inlined.
 */
function runCallerShare(world: AnimationWorld, pools: ThreadPools): void {
  const own = pools.queues[0];
  const events = world.events;
  resetThreadQueue(own);
  (world as { events: typeof events }).events = own;
  try {
    runClaimedChunks(world, pools, 0);
  } catch (error) {
    recordFailure(pools, 0, error, world.characters.dense);
    Atomics.store(pools.control, CONTROL_NEXT, 1 << 30); // the others stop claiming
  } finally {
    (world as { events: typeof events }).events = events;
  }
  writeQueueStatus(pools, 0, own);
}

/**
 * Polls `DONE` a bounded number of times (about 0.1–0.5 ms): when the caller runs out of
 * chunks, each worker is at most one chunk behind it, so on an idle machine the frame settles
 * here, synchronously, without a promise to make. Polling reads a counter, never
 * `Atomics.wait`; it stays short so that workers the OS has descheduled (more threads than
 * free cores) are not kept waiting by the caller's core.
 */
function awaitWorkers(control: Int32Array, workers: number): boolean {
  for (let k = 0; k < SPIN_READS; k++) if (Atomics.load(control, CONTROL_DONE) === workers) return true;
  return false;
}

/** Reads of the synchronous wait for the workers' last chunks (then the promise waits with `Atomics.waitAsync`). */
const SPIN_READS = 1 << 16;

/** Settles the frame when every worker is done, else waits (asynchronously) for the next one. */
function pollFrame(runtime: ThreadRuntime): void {
  if (runtime.reject === null) return; // settled already (a worker stopped)
  const control = runtime.pools.control;
  const done = Atomics.load(control, CONTROL_DONE);
  if (done === runtime.workers.length) {
    settle(runtime, finishFrame(runtime));
    return;
  }
  const left = runtime.deadline - performance.now();
  if (left <= 0) {
    frameTimedOut(runtime, done);
    return;
  }
  const wait = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, timeout: number): { async: boolean; value: Promise<unknown> | string } })
    .waitAsync(control, CONTROL_DONE, done, left);
  if (wait.async) (wait.value as Promise<unknown>).then(runtime.poll);
  else runtime.poll();
}

function settle(runtime: ThreadRuntime, error: unknown): void {
  const { resolve, reject } = runtime;
  runtime.resolve = null;
  runtime.reject = null;
  setWorldGate(runtime.world, WORLD_OPEN);
  if (error === null) resolve?.();
  else reject?.(error);
}

/** Merges the events and ends the frame; on a thread's failure, drops the frame's events and returns the error instead. */
function finishFrame(runtime: ThreadRuntime): AnimationError | null {
  const { world, pools } = runtime;
  const failure = readFailure(pools);
  if (failure !== null) {
    clearUpdateList(world.updates);
    undoFrame(runtime);
    setWorldGate(world, WORLD_OPEN);
    return new AnimationError('stepParallel', [{
      path: `thread ${failure.thread}`,
      message: `${failure.text}; ${unfinished(runtime)}; the world steps on`,
    }]);
  }
  if (runtime.verify !== null) {
    const stale = staleCopies(runtime);
    if (stale !== null) {
      undoFrame(runtime);
      setWorldGate(world, WORLD_OPEN);
      return stale;
    }
  }
  mergeThreadEvents(world.events, pools, runtime.chunks, world.threads);
  endFrame(world, runtime.dt);
  setWorldGate(world, WORLD_OPEN);
  return null;
}

/**
 * Verify mode: compares each worker's hashes of its asset copies with the world's own. On a
 * difference the frame is left unfinished (as on a thread's failure), the mirror forgets what it
 * sent (the next frame sends every table again, so the world steps on), and the error names
 * each table and thread that differed.
 */
function staleCopies(runtime: ThreadRuntime): AnimationError | null {
  const world = runtime.world;
  const verify = runtime.verify as Int32Array;
  hashAssetTables(world, verify, 0);
  const issues: { path: string; message: string }[] = [];
  for (let t = 1; t < world.threads; t++) {
    for (let k = 0; k < VERIFIED_TABLE_COUNT; k++) {
      const own = verify[k], copy = verify[t * VERIFIED_TABLE_COUNT + k];
      if (own === copy) continue;
      issues.push({
        path: VERIFIED_TABLES[k],
        message: `thread ${t}'s copy differs from the world's (hash ${hex(copy)}, the world's ${hex(own)}): the table changed without reaching the workers (a stale copy); ${unfinished(runtime)}, and the next frame sends every table again`,
      });
    }
  }
  if (issues.length === 0) return null;
  forgetAssetMirror(runtime.mirror);
  clearUpdateList(world.updates);
  return new AnimationError('stepParallel (verifyThreads)', issues);
}

/** A transactional frame that did not complete: the world put back as it was before the call (every worker is done or ended). */
function undoFrame(runtime: ThreadRuntime): void {
  if (runtime.snapshot !== null) restoreSnapshot(runtime.snapshot, runtime.world.events);
}

/** What became of a frame that did not complete, for its error. */
function unfinished(runtime: ThreadRuntime): string {
  return runtime.snapshot !== null
    ? 'the frame was undone (transactionalFrames: every pool and the clock as before the call)'
    : 'the frame was left unfinished (its events dropped, the clock not advanced)';
}

function hex(hash: number): string {
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Settles a frame whose workers did not all finish within the timeout (`done` did) with its
 * error: the workers are ended (a stuck one must not write the pools later) and the frame left
 * unfinished, or undone once they have stopped when it is transactional.
 */
function frameTimedOut(runtime: ThreadRuntime, done: number): void {
  const workers = runtime.workers.length;
  const late: number[] = [];
  for (let t = 1; t <= workers; t++) if (runtime.pools.status[t * STATUS_STRIDE + STATUS_PUSHED] < 0) late.push(t);
  const ended = endWorkers(runtime, `${workers - done} of ${workers} workers did not finish a frame within ${runtime.timeout} ms (createAnimationWorld's workerTimeout)`);
  clearUpdateList(runtime.world.updates);
  const error = new AnimationError('stepParallel', (late.length > 0 ? late : [0]).map((thread) => ({
    path: thread > 0 ? `thread ${thread}` : 'world',
    message: `${thread > 0 ? 'did' : `${workers - done} of ${workers} workers did`} not finish the frame within ${runtime.timeout} ms (workerTimeout): the workers were ended and ${runtime.snapshot !== null ? 'the frame undone (transactionalFrames: every pool and the clock as before the call)' : 'the frame left unfinished (its events dropped, the clock not advanced)'}; step(world, dt) still runs frames on this thread`,
  })));
  settleEnded(runtime, ended, error);
}

/** Ends `world`'s workers (disposeAnimationWorld). */
export function stopThreads(world: AnimationWorld): void {
  const runtime = runtimes.get(world);
  if (runtime === undefined) return;
  for (const worker of runtime.workers) void worker.terminate();
  runtime.broken = 'the world was disposed';
  runtimes.delete(world);
}

/**
 * Test hook: makes worker `thread` (1 …) throw a `CharacterFault` when it next runs a chunk
 * holding character `eid` (0: the first chunk it runs), from the next frame on (src/parallel/worker.ts).
 */
export function injectWorkerFault(world: AnimationWorld, thread: number, eid: number): void {
  armHooks(world, thread, { fault: eid, probe: null });
}

/**
 * Test hook (Node): worker `thread` starts measuring its allocation after the next frame
 * ('start'), or reports it after the next frame ('stop') to `onReport`.
 */
export function probeWorkerHeap(world: AnimationWorld, thread: number, probe: 'start' | 'stop', onReport?: (report: HeapReport) => void): void {
  const runtime = runtimes.get(world);
  if (runtime !== undefined && onReport !== undefined) runtime.onHeap = (t, report) => t === thread && onReport(report);
  armHooks(world, thread, { fault: -1, probe });
}

function armHooks(world: AnimationWorld, thread: number, hooks: WorkerHooks): void {
  const runtime = runtimes.get(world);
  if (runtime === undefined || thread < 1 || thread > runtime.hooks.length) return;
  runtime.hooks[thread - 1] = hooks;
  runtime.hooksArmed = true;
}

/** Test hook: what `world`'s caller last sent its workers (the verify test changes it behind the mirror's back), or null without workers. */
export function assetMirrorOf(world: AnimationWorld): AssetMirror | null {
  return runtimes.get(world)?.mirror ?? null;
}

/** Test hook: frames of `world` that settled asynchronously so far (each made a promise and waited with `Atomics.waitAsync`). */
export function asyncFrameCount(world: AnimationWorld): number {
  return runtimes.get(world)?.asyncFrames ?? 0;
}
