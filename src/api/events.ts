/** Events: the clip events playback crossed, drained by the game. */
import type { Clip } from '../assets/Clip.js';
import type { AnimationWorld } from '../world.js';
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
 * Returns and clears the events crossed since the last drain, in the order they happened
 * (by world time; ties keep the order they were recorded in). If more than `maxEvents`
 * accumulated, the oldest were dropped and `world.events.dropped` counts them.
 * @throws AnimationError when `world` is not an AnimationWorld.
 */
export function drainEvents(world: AnimationWorld): AnimationEvent[] {
  requireWorld(world, 'drainEvents');
  const queue = world.events;
  const clips = world.assets.clips;
  const records: { at: number; event: AnimationEvent }[] = [];
  for (let n = 0; n < queue.count; n++) {
    const slot = (queue.head + n) % queue.capacity;
    const clip = clips[queue.clip[slot]];
    const event = clip.events[queue.event[slot]];
    records.push({ at: queue.at[slot], event: { eid: queue.eid[slot], clip, name: event.name, time: event.time } });
  }
  queue.head = 0;
  queue.count = 0;
  return records.sort((a, b) => a.at - b.at).map((r) => r.event);
}
