/**
 * A thread's share of a threaded frame (src/parallel, components/ThreadControl.ts): claim
 * chunks of `FRAME_CHUNK` characters through the control block's atomic counter and run every
 * system of the frame on each, as `runFrame` does, until none is left. The calling thread and
 * every worker run this same loop, so uneven chunks (LOD-skipped, aiming, transitioning
 * characters) balance themselves. Allocates nothing.
 */
import { CHUNK_FROM, CHUNK_LOG_STRIDE, CHUNK_THREAD, CHUNK_TO, CLOCK_DT, CONTROL_COUNT, CONTROL_NEXT } from '../components/ThreadControl.js';
import { POSE_STRIDE } from '../math/layout.js';
import { chunkSystems } from '../frame.js';
import { FRAME_CHUNK, type AnimationWorld, type ThreadPools } from '../world.js';
import { makePoseViews } from '../worldPools.js';

/**
 * The chunk a thread is running, `[first, end)` of the frame's characters (−1: none), so a
 * failure can name the character it stopped on.
 */
export const runningChunk = new Int32Array([-1, -1]);

/**
 * Runs chunks of `world`'s frame for thread `thread` until the frame has none left; `world`
 * is the thread's view of the world (its `events` is its own queue, `characters.dense` holds
 * the frame's characters). Logs per chunk the thread and its queue's `pushed` before and
 * after, for `mergeThreadEvents`, and the milliseconds its share took in `pools.timing`.
 */
export function runClaimedChunks(world: AnimationWorld, pools: ThreadPools, thread: number): void {
  const control = pools.control;
  const count = control[CONTROL_COUNT];
  const dt = pools.clock[CLOCK_DT];
  const systems = chunkSystems(world.frame); // the caller systems ran before the chunks (runCallerSystems)
  const n = systems.length;
  const log = pools.chunkLog;
  const queue = world.events;
  const started = performance.now();
  for (;;) {
    const chunk = Atomics.add(control, CONTROL_NEXT, 1);
    const first = chunk * FRAME_CHUNK;
    if (first >= count) break;
    const end = first + FRAME_CHUNK < count ? first + FRAME_CHUNK : count;
    runningChunk[0] = first;
    runningChunk[1] = end;
    ensureViews(world, first, end);
    log[chunk * CHUNK_LOG_STRIDE + CHUNK_THREAD] = thread;
    log[chunk * CHUNK_LOG_STRIDE + CHUNK_FROM] = queue.pushed;
    for (let s = 0; s < n; s++) systems[s].entities(world, dt, first, end);
    log[chunk * CHUNK_LOG_STRIDE + CHUNK_TO] = queue.pushed;
  }
  runningChunk[0] = -1;
  runningChunk[1] = -1;
  pools.timing[thread] = performance.now() - started;
}

/**
 * Pose views of the chunk's characters at their skeleton's size: a worker makes them for a
 * character it has not seen (or seen with another skeleton); the spawning thread made them at
 * spawn, so there this only compares lengths.
 */
function ensureViews(world: AnimationWorld, first: number, end: number): void {
  const dense = world.characters.dense;
  const jointCount = world.components.Character.jointCount;
  const local = world.views.local;
  for (let i = first; i < end; i++) {
    const eid = dense[i];
    if (local[eid].length !== jointCount[eid] * POSE_STRIDE) makePoseViews(world, eid, jointCount[eid]);
  }
}
