/**
 * The events of a threaded frame, put back in the order `step` records them.
 *
 * `step` records the frame's events chunk by chunk, in chunk order, into the world queue. A
 * threaded frame records each thread's into its own queue (same capacity, emptied at the
 * frame's start) and logs, per chunk, which thread ran it and that queue's `pushed` count
 * before and after. Replaying the chunks in order into the world queue gives exactly `step`'s
 * queue, dropped count included:
 * - a record still in its thread's queue is appended as `step` appended it;
 * - a record its thread's queue overwrote had at least `capacity` records of the same thread
 *   after it in this frame, so the world queue overwrites it too: it is replayed as an append
 *   whose slot is overwritten later (count, head and dropped move exactly as for the record);
 * - records a looping layer counted into `dropped` without appending them (sampleSystem's
 *   bounded work) touch neither head nor count, so their total is added once.
 * Allocates nothing.
 */
import {
  CHUNK_FROM, CHUNK_LOG_STRIDE, CHUNK_THREAD, CHUNK_TO, STATUS_COUNT, STATUS_DROPPED, STATUS_HEAD, STATUS_PUSHED, STATUS_STRIDE,
} from '../components/ThreadControl.js';
import type { EventQueue } from '../components/EventQueue.js';
import type { ThreadPools } from '../world.js';

/** Empties `queue` for a thread's share of a frame. */
export function resetThreadQueue(queue: EventQueue): void {
  queue.head = 0;
  queue.count = 0;
  queue.dropped = 0;
  queue.pushed = 0;
}

/** Writes `queue`'s counters into thread `thread`'s status slots (read by the merging thread). */
export function writeQueueStatus(pools: ThreadPools, thread: number, queue: EventQueue): void {
  const at = thread * STATUS_STRIDE;
  pools.status[at + STATUS_HEAD] = queue.head;
  pools.status[at + STATUS_COUNT] = queue.count;
  pools.status[at + STATUS_DROPPED] = queue.dropped;
  pools.status[at + STATUS_PUSHED] = queue.pushed;
}

/**
 * Replays the frame's `chunks` chunks from the threads' queues (`pools.queues`, counters in
 * `pools.status`) into `world` queue `into`, in chunk order; see the file header.
 */
export function mergeThreadEvents(into: EventQueue, pools: ThreadPools, chunks: number, threads: number): void {
  const { status, chunkLog, queues } = pools;
  let skipped = 0;
  for (let t = 0; t < threads; t++) {
    const s = t * STATUS_STRIDE;
    const overwritten = status[s + STATUS_PUSHED] - status[s + STATUS_COUNT]; // appended, then overwritten
    skipped += status[s + STATUS_DROPPED] - overwritten;
  }
  for (let c = 0; c < chunks; c++) {
    const t = chunkLog[c * CHUNK_LOG_STRIDE + CHUNK_THREAD];
    const from = chunkLog[c * CHUNK_LOG_STRIDE + CHUNK_FROM];
    const to = chunkLog[c * CHUNK_LOG_STRIDE + CHUNK_TO];
    if (to === from) continue;
    const s = t * STATUS_STRIDE;
    const head = status[s + STATUS_HEAD];
    const lost = status[s + STATUS_PUSHED] - status[s + STATUS_COUNT]; // the thread's records before this index were overwritten
    const source = queues[t];
    for (let p = from; p < to; p++) {
      const slot = appendSlot(into);
      if (p >= lost) {
        const k = (head + (p - lost)) % source.capacity;
        into.eid[slot] = source.eid[k];
        into.clip[slot] = source.clip[k];
        into.event[slot] = source.event[k];
        into.at[slot] = source.at[k];
      }
    }
  }
  into.dropped += skipped;
}

/** `pushEvent`'s bookkeeping without the record: the slot the next record goes to. */
function appendSlot(queue: EventQueue): number {
  queue.pushed++;
  if (queue.count === queue.capacity) {
    const slot = queue.head;
    queue.head = (queue.head + 1) % queue.capacity;
    queue.dropped++;
    return slot;
  }
  const slot = (queue.head + queue.count) % queue.capacity;
  queue.count++;
  return slot;
}
