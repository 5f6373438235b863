import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * The world's event ring buffer: `sampleSystem` appends a record each time playback crosses a
 * clip event; the game drains them (`drainEvents`). Fixed capacity; when it is full the oldest
 * records are overwritten and `dropped` counts them, so a game that never drains leaks nothing.
 *
 * Record `i` (0 ≤ i < capacity) is spread over the arrays: entity, clip id, event index in the
 * clip's `events`, and `at`, the world time (seconds since the world began) at which playback
 * crossed it — used to return events in the order they happened.
 */
export interface EventQueue {
  /** Records the ring holds (the world's `maxEvents`). */
  readonly capacity: number;
  /** `eid[i]`: the character of record i. */
  readonly eid: Int32Array;
  /** `clip[i]`: the clip id (the world's asset registry) of record i. */
  readonly clip: Int32Array;
  /** `event[i]`: the index of record i's event in its clip's `events`. */
  readonly event: Int32Array;
  /** `at[i]`: the world time, seconds since the world began, at which playback crossed it. */
  readonly at: Float64Array;
  /** Index of the oldest record. */
  head: number;
  /** Number of records held. */
  count: number;
  /** Records overwritten because the queue was full, since the world began. */
  dropped: number;
  /**
   * Records appended since the world began, kept or overwritten (not those counted into
   * `dropped` without being appended): how a threaded frame places each thread's records
   * back in order (src/parallel/mergeEvents.ts).
   */
  pushed: number;
  /** World time at the start of the frame being sampled (set by `sampleSystem`). */
  frameStart: number;
  /**
   * `[at]` of the record `pushEvent` appends next. The time travels in this array rather than
   * as an argument because V8 boxes a double passed to a function it does not inline.
   */
  readonly stamp: Float64Array;
}

/** Creates an empty event queue of `capacity` records. */
export function createEventQueue(capacity: number, alloc: PoolAllocator = heapAllocator): EventQueue {
  return {
    capacity,
    eid: alloc.array(Int32Array, capacity),
    clip: alloc.array(Int32Array, capacity),
    event: alloc.array(Int32Array, capacity),
    at: alloc.array(Float64Array, capacity),
    head: 0,
    count: 0,
    dropped: 0,
    pushed: 0,
    frameStart: 0,
    stamp: new Float64Array(1), // per thread: the time travelling to pushEvent
  };
}

/** Appends one record, at world time `queue.stamp[0]`, overwriting the oldest when full. No allocation. */
export function pushEvent(queue: EventQueue, eid: number, clip: number, event: number): void {
  let slot: number;
  queue.pushed++;
  if (queue.count === queue.capacity) {
    slot = queue.head;
    queue.head = (queue.head + 1) % queue.capacity;
    queue.dropped++;
  } else {
    slot = (queue.head + queue.count) % queue.capacity;
    queue.count++;
  }
  queue.eid[slot] = eid;
  queue.clip[slot] = clip;
  queue.event[slot] = event;
  queue.at[slot] = queue.stamp[0];
}
