/**
 * The control block of a threaded world (`threads > 1`, src/parallel): a few Int32 slots on
 * the world's SharedArrayBuffer through which the calling thread and its workers run a frame
 * with `Atomics` — no message per chunk.
 *
 * A frame: the caller writes the frame's count, dt and clock, sets `NEXT` and `DONE` to 0,
 * bumps `SEQ` and wakes the workers (`Atomics.notify` on `SEQ`). Every thread then claims
 * chunks of `FRAME_CHUNK` characters with `Atomics.add(control, NEXT, 1)` until none is left,
 * logs which thread ran each chunk (for the event order), and each worker adds 1 to `DONE`
 * when it has no more. From the start of `stepParallel` until its promise settles the
 * world's gate (`AnimationWorld.gate`) is `WORLD_STEPPING`: the API refuses calls meanwhile.
 */

/** Frame sequence number; workers wait on it. */
export const CONTROL_SEQ = 0;
/** What a wake-up means: {@link COMMAND_FRAME}, {@link COMMAND_MESSAGE} or {@link COMMAND_EXIT}. */
export const CONTROL_COMMAND = 1;
/** The next chunk to claim. */
export const CONTROL_NEXT = 2;
/** Workers done with the frame. */
export const CONTROL_DONE = 3;
/** Characters in the frame. */
export const CONTROL_COUNT = 4;
// Slot 5 is free (whether a frame is in flight is the world's gate, AnimationWorld.gate: unthreaded worlds have one too).
/** 0, or 1 + the thread whose frame failed (its message follows by `postMessage`). */
export const CONTROL_FAILED = 6;
/** The character the failed thread was working on (−1: none known). */
export const CONTROL_FAILED_EID = 7;
/** Int32 slots in the control block. */
export const CONTROL_INTS = 8;

/** Run the frame whose header is in the control block. */
export const COMMAND_FRAME = 0;
/** Return to the event loop: a message (assets, then the frame) is waiting. */
export const COMMAND_MESSAGE = 1;
/** Stop. */
export const COMMAND_EXIT = 2;

/** `clock[CLOCK_DT]`: the frame's seconds. */
export const CLOCK_DT = 0;
/** `clock[CLOCK_TIME]`: the world time at the frame's start. */
export const CLOCK_TIME = 1;
/** Float64 slots of the clock. */
export const CLOCK_SIZE = 2;

/** Chunk log record: the thread that ran the chunk. */
export const CHUNK_THREAD = 0;
/** Chunk log record: the thread's queue's `pushed` before the chunk. */
export const CHUNK_FROM = 1;
/** Chunk log record: … and after it. */
export const CHUNK_TO = 2;
/** Floats per chunk in the chunk log. */
export const CHUNK_LOG_STRIDE = 3;
/** Status record of a thread after its share: its queue's `head`. */
export const STATUS_HEAD = 0;
/** … `count`. */
export const STATUS_COUNT = 1;
/** … `dropped`. */
export const STATUS_DROPPED = 2;
/** … `pushed`. */
export const STATUS_PUSHED = 3;
/** Floats per thread in the status block. */
export const STATUS_STRIDE = 4;
/** UTF-16 code units of a failed thread's message kept in `ThreadPools.failure`. */
export const FAILURE_TEXT = 512;
