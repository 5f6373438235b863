/**
 * The frame on every core (docs/threads.md): `stepParallel` runs the world's frame
 * on `world.threads` threads over its shared pools, equal to `step` bit for bit;
 * `disposeAnimationWorld` ends a world and its workers.
 */
import { fail } from '../assets/AnimationError.js';
import { MAX_DT, rangeIssue } from '../assets/limits.js';
import { beginFrame, runFrame } from '../frame.js';
import { runParallelFrame, stopThreads, threadsUnavailable } from '../parallel/threadPool.js';
import { setWorldGate, WORLD_DISPOSED } from '../worldGate.js';
import { type AnimationWorld } from '../world.js';
import { requireWorld } from './validation.js';

/**
 * Crowds smaller than this run `stepParallel` inline on the calling thread: waking the workers
 * and waiting for them costs more than they save (measured: docs/threads.md).
 */
export const PARALLEL_MIN_CHARACTERS = 192;

const RESOLVED = Promise.resolve();

/**
 * Advances the world by `dt` seconds on `world.threads` threads (`createAnimationWorld({
 * threads })`): the calling thread and the world's workers claim chunks of `FRAME_CHUNK`
 * characters through an atomic counter and run every system of the frame on them. The pools
 * and the events (`drainEvents`) come out equal to `step(world, dt)`'s, bit for bit. With one
 * thread, or fewer than `PARALLEL_MIN_CHARACTERS` characters, the frame runs inline and
 * the promise is already resolved.
 *
 * Until the promise settles, every other call on the world throws ("a parallel step is
 * running"): make API calls between frames. The calling thread never blocks on the workers (it
 * waits with `Atomics.waitAsync`), so a browser's main thread can call it from its frame loop.
 * Allocates nothing per frame but the promise.
 * @throws AnimationError when `world` is not an AnimationWorld, was disposed, has a step in
 * flight, or `dt` is not a finite number in [0, MAX_DT]; the promise rejects with an
 * AnimationError naming the thread and the character when a thread fails (the frame is left
 * unfinished: events dropped, clock not advanced; the world steps on) or a worker stopped.
 * @example
 * const world = createAnimationWorld({ maxEntities: 10_000, maxJoints: 64, threads: 'auto' });
 * // … spawn and play …
 * await stepParallel(world, 1 / 60);
 */
export function stepParallel(world: AnimationWorld, dt: number): Promise<void> {
  requireWorld(world, 'stepParallel');
  const issue = rangeIssue(dt, 0, MAX_DT, 'seconds; the longest step, MAX_DT');
  if (issue !== null) fail('stepParallel', 'dt', issue);
  if (world.parallel === null) {
    runFrame(world, dt);
    return RESOLVED;
  }
  const unavailable = threadsUnavailable(world);
  if (unavailable !== null) fail('stepParallel', 'world', `cannot run threads: ${unavailable}; step(world, dt) still runs frames on this thread`);
  const count = beginFrame(world);
  if (count < PARALLEL_MIN_CHARACTERS) {
    runFrame(world, dt);
    return RESOLVED;
  }
  return runParallelFrame(world, dt, count); // the caller systems, then the chunks, once the workers are known to be up
}

/**
 * Ends `world`: its workers stop (a Node process then exits on its own) and every later call
 * on it throws. The pools are the garbage collector's once the game drops its references.
 * @throws AnimationError when `world` is not an AnimationWorld, was disposed already, or has a
 * `stepParallel` in flight (await it first).
 */
export function disposeAnimationWorld(world: AnimationWorld): void {
  requireWorld(world, 'disposeAnimationWorld');
  stopThreads(world);
  setWorldGate(world, WORLD_DISPOSED);
}
