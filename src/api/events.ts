/** Events: the clip events playback crossed, drained by the game. */
import type { Clip } from '../assets/Clip.js';
import type { EventQueue } from '../components/EventQueue.js';
import type { AnimationWorld } from '../world.js';
import { AnimationError } from '../assets/AnimationError.js';
import { describeValue } from '../assets/limits.js';
import { requireWorld } from './validation.js';

/** A clip event that playback crossed, as returned by {@link drainEvents}. */
export interface AnimationEvent {
  /** The character. */
  readonly eid: number;
  /** The clip whose event fired. */
  readonly clip: Clip;
  /** The event's name. */
  readonly name: string;
  /** The event's clip-local time, seconds. */
  readonly time: number;
}

/**
 * The record {@link drainEachEvent} hands its visitor: one object per world, refilled for
 * every event, so draining allocates nothing. Read it during the call; copy what you keep.
 */
export interface EventRecord extends AnimationEvent {
  /** The world time (seconds since the world began) at which playback crossed the event. */
  readonly at: number;
}

/** Writable view of {@link EventRecord}: only this module fills it. */
type FilledRecord = { -readonly [K in keyof EventRecord]: EventRecord[K] };

/** Each queue's reused record and its drain order (made at the first drain, then reused). */
const drainState = new WeakMap<EventQueue, { record: FilledRecord; order: Int32Array }>();

/**
 * Returns and clears the events crossed since the last drain, in the order they happened
 * (by world time; ties keep the order they were recorded in). If more than `maxEvents`
 * accumulated, the oldest were dropped and `world.events.dropped` counts them.
 * Allocates the returned array and its records: a game that drains every frame and wants no
 * garbage uses {@link drainEachEvent}.
 * @throws AnimationError when `world` is not an AnimationWorld.
 */
export function drainEvents(world: AnimationWorld): AnimationEvent[] {
  requireWorld(world, 'drainEvents');
  const events: AnimationEvent[] = [];
  visitInOrder(world, (record) => events.push({ eid: record.eid, clip: record.clip, name: record.name, time: record.time }));
  return events;
}

/**
 * Drains the events crossed since the last drain into `visit`, one call per event, in the
 * order {@link drainEvents} returns them, and returns how many there were. Every call gets
 * the same {@link EventRecord}, refilled: nothing is allocated, so a game loop can drain every
 * frame without garbage (define `visit` once, outside the loop). The queue is cleared even if
 * `visit` throws (the events after the throwing one are then lost).
 * @throws AnimationError when `world` is not an AnimationWorld or `visit` is not a function.
 * @example
 * const onEvent = (e: EventRecord) => { if (e.name === 'footstep') playSound(e.eid); };
 * // every frame:
 * step(world, dt);
 * drainEachEvent(world, onEvent);
 */
export function drainEachEvent(world: AnimationWorld, visit: (event: EventRecord) => void): number {
  requireWorld(world, 'drainEachEvent');
  if (typeof visit !== 'function') {
    throw new AnimationError('drainEachEvent', [{ path: 'visit', message: `is ${describeValue(visit)}: must be a function (event) => void` }]);
  }
  return visitInOrder(world, visit);
}

/** Visits the queue's records by world time (stable), then clears the queue. No allocation after a queue's first drain. */
function visitInOrder(world: AnimationWorld, visit: (event: EventRecord) => void): number {
  const queue = world.events;
  const clips = world.assets.clips;
  let state = drainState.get(queue);
  if (state === undefined) {
    state = { record: { eid: 0, clip: clips[0], name: '', time: 0, at: 0 }, order: new Int32Array(queue.capacity) };
    drainState.set(queue, state);
  }
  const { record, order } = state;
  const count = queue.count;
  // Insertion sort of the slots by `at`: records arrive almost in order (a frame's characters
  // cross their events at nearby times), so this is close to one pass; strict `>` keeps ties
  // in the order they were recorded.
  for (let n = 0; n < count; n++) {
    const slot = (queue.head + n) % queue.capacity;
    const at = queue.at[slot];
    let k = n;
    while (k > 0 && queue.at[order[k - 1]] > at) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = slot;
  }
  queue.head = 0;
  queue.count = 0;
  for (let n = 0; n < count; n++) {
    const slot = order[n];
    const clip = clips[queue.clip[slot]];
    const event = clip.events[queue.event[slot]];
    record.eid = queue.eid[slot];
    record.clip = clip;
    record.name = event.name;
    record.time = event.time;
    record.at = queue.at[slot];
    visit(record);
  }
  return count;
}
