/**
 * Transactional threaded frames (`createAnimationWorld({ transactionalFrames: true })`,
 * docs/threads.md): a copy of what a frame can write, taken before the frame writes anything
 * and put back when the frame does not complete — a thread that fails mid-frame, a worker that
 * stops, a frame past `workerTimeout`, a stale asset copy in verify mode — so a rejected frame
 * leaves the world byte-identical to before the call.
 *
 * What a frame writes lives in the world's pools (every component, the event queue's records,
 * the LOD camera) plus the event queue's counters, which are plain fields. The copy covers the
 * pools as byte ranges: the arrays' ranges in the world's buffer, merged where they touch, so a
 * copy is a few large `set`s (memory bandwidth: docs/threads.md has the measured cost). Taking
 * and restoring allocate nothing; the copy itself is allocated once, with the world's workers.
 */
import type { EventQueue } from '../components/EventQueue.js';
import { POOL_ALIGN } from '../memory/poolAllocator.js';
import type { AnimationWorld } from '../world.js';

// The event queue's counters in `FrameSnapshot.counters`.
const HEAD = 0, COUNT = 1, DROPPED = 2, PUSHED = 3, FRAME_START = 4;

/** A world's frame copy: its pools' byte ranges (`live`) and their saved bytes (`saved`, same order), and the event counters. */
export interface FrameSnapshot {
  readonly live: readonly Uint8Array[];
  readonly saved: readonly Uint8Array[];
  /** The event queue's head, count, dropped, pushed and frameStart. */
  readonly counters: Float64Array;
}

/** The byte ranges of the typed arrays in `value` (an object or array of them, nested up to 3 deep), appended to `out`. */
function collectArrays(value: unknown, out: ArrayBufferView[], depth = 0): void {
  if (ArrayBuffer.isView(value)) {
    out.push(value);
    return;
  }
  if (typeof value !== 'object' || value === null || depth > 3) return;
  for (const v of Object.values(value)) collectArrays(v, out, depth + 1);
}

/**
 * The ranges a frame of `world` can write: every component's arrays, the event queue's records and
 * the LOD camera, merged per buffer where they overlap or lie within `POOL_ALIGN` bytes (the
 * allocator's padding) of each other.
 */
export function frameRanges(world: AnimationWorld): Uint8Array[] {
  const arrays: ArrayBufferView[] = [];
  collectArrays(world.components, arrays);
  const { eid, clip, event, at } = world.events;
  arrays.push(eid, clip, event, at, world.lod.camera);
  const byBuffer = new Map<ArrayBufferLike, [number, number][]>();
  for (const a of arrays) {
    if (a.byteLength === 0) continue;
    let spans = byBuffer.get(a.buffer);
    if (spans === undefined) byBuffer.set(a.buffer, (spans = []));
    spans.push([a.byteOffset, a.byteOffset + a.byteLength]);
  }
  const ranges: Uint8Array[] = [];
  for (const [buffer, spans] of byBuffer) {
    spans.sort((p, q) => p[0] - q[0]);
    let [start, end] = spans[0] as [number, number];
    for (let i = 1; i <= spans.length; i++) {
      const next = spans[i];
      if (next !== undefined && next[0] <= end + POOL_ALIGN) {
        if (next[1] > end) end = next[1];
        continue;
      }
      ranges.push(new Uint8Array(buffer, start, end - start));
      if (next !== undefined) [start, end] = next;
    }
  }
  return ranges;
}

/** Bytes the copy of {@link frameRanges} takes. */
export function frameRangeBytes(ranges: readonly Uint8Array[]): number {
  let bytes = 0;
  for (const r of ranges) bytes += r.byteLength;
  return bytes;
}

/** Allocates the frame copy of `world` (once, when its workers start). */
export function createFrameSnapshot(world: AnimationWorld): FrameSnapshot {
  const live = frameRanges(world);
  const store = new Uint8Array(frameRangeBytes(live));
  const saved: Uint8Array[] = [];
  let at = 0;
  for (const r of live) {
    saved.push(store.subarray(at, at + r.byteLength));
    at += r.byteLength;
  }
  return { live, saved, counters: new Float64Array(FRAME_START + 1) };
}

/** Copies what a frame of `world` can write into `snapshot`. Allocates nothing. */
export function takeSnapshot(snapshot: FrameSnapshot, events: EventQueue): void {
  const { live, saved, counters } = snapshot;
  for (let i = 0; i < live.length; i++) (saved[i] as Uint8Array).set(live[i] as Uint8Array);
  counters[HEAD] = events.head;
  counters[COUNT] = events.count;
  counters[DROPPED] = events.dropped;
  counters[PUSHED] = events.pushed;
  counters[FRAME_START] = events.frameStart;
}

/** Puts back what {@link takeSnapshot} copied: the world's pools and event counters as they were. Allocates nothing. */
export function restoreSnapshot(snapshot: FrameSnapshot, events: EventQueue): void {
  const { live, saved, counters } = snapshot;
  for (let i = 0; i < live.length; i++) (live[i] as Uint8Array).set(saved[i] as Uint8Array);
  events.head = counters[HEAD] as number;
  events.count = counters[COUNT] as number;
  events.dropped = counters[DROPPED] as number;
  events.pushed = counters[PUSHED] as number;
  events.frameStart = counters[FRAME_START] as number;
}
