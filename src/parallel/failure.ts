/**
 * A thread's failure during a threaded frame, kept in shared memory (not a message) so the
 * thread that settles the frame reads it as soon as the workers are done: the first failing
 * thread, the character it was running, and its error's message.
 */
import { CONTROL_FAILED, CONTROL_FAILED_EID, FAILURE_TEXT } from '../components/ThreadControl.js';
import type { ThreadPools } from '../world.js';
import { runningChunk } from './runChunks.js';

/** An error that knows the character it happened on (the test hook of src/parallel/worker.ts throws these). */
export class CharacterFault extends Error {
  constructor(
    message: string,
    readonly eid: number,
  ) {
    super(message);
  }
}

/** Records `error` as thread `thread`'s failure unless another thread's came first; `dense` is the frame's character list. */
export function recordFailure(pools: ThreadPools, thread: number, error: unknown, dense: ArrayLike<number>): void {
  if (Atomics.compareExchange(pools.control, CONTROL_FAILED, 0, thread + 1) !== 0) return;
  const first = runningChunk[0], end = runningChunk[1];
  const eid = error instanceof CharacterFault ? error.eid : first >= 0 ? dense[first] : -1;
  pools.control[CONTROL_FAILED_EID] = eid;
  const what = error instanceof CharacterFault ? `character ${eid}` : first >= 0 ? `the chunk of characters ${dense[first]} … ${dense[end - 1]}` : 'no character';
  const text = `while running ${what}: ${error instanceof Error ? error.message : String(error)}`;
  const n = Math.min(text.length, FAILURE_TEXT - 1);
  for (let i = 0; i < n; i++) pools.failure[i] = text.charCodeAt(i);
  pools.failure[n] = 0;
}

/** The recorded failure: its thread, character (−1: unknown) and sentence, or null when none. */
export function readFailure(pools: ThreadPools): { thread: number; eid: number; text: string } | null {
  const failed = pools.control[CONTROL_FAILED];
  if (failed === 0) return null;
  let text = '';
  for (let i = 0; i < FAILURE_TEXT && pools.failure[i] !== 0; i++) text += String.fromCharCode(pools.failure[i]);
  return { thread: failed - 1, eid: pools.control[CONTROL_FAILED_EID], text };
}
