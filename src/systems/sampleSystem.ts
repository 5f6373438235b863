/**
 * sampleSystem — advances every layer's playback time, reports the clip events it crossed and
 * samples each weighted layer's clip into that layer's pose.
 *
 * Reads:  Layers.clip/speed/weight/flags/binding, the clip and binding registries.
 * Writes: Layers.time, Layers.pose, the world event queue, `world.time` (the clock).
 * Order:  first in `step` (before blendSystem). Entities without the animation components
 *         are not visited. Layers with weight 0 keep advancing (and firing events) but are not
 *         sampled, since nothing reads their pose.
 *
 * Time rules: a looping layer wraps into [0, D); a clamped one stops at 0 or D. A clip of
 * duration 0 (one frame) stays at 0. Events fire once per crossing: moving forward from `a`
 * to `b`, those with a ≤ τ < b (and τ = D when a clamped clip reaches its end); moving
 * backward, those with b < τ ≤ a (and τ = 0 when it reaches the start). A frame that spans
 * several loops fires each event once per loop, in order.
 */
import { commitRemovals } from 'bitecs';
import type { Binding } from '../assets/Binding.js';
import type { Clip } from '../assets/Clip.js';
import { pushEvent, type EventQueue } from '../components/EventQueue.js';
import { LAYER_LOOP, MAX_LAYERS, type LayersComponent } from '../components/Layers.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';

/** Advances all layers by `dt` seconds and moves the world clock; see the file header. */
export function sampleSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  sampleEntities(world, dt, 0, world.characters.dense.length);
  world.time += dt;
}

/**
 * The work of {@link sampleSystem} for the characters at `world.characters.dense[first .. end)`,
 * without committing removals or moving the clock: `step` runs sample → blend → skin on one
 * cache-sized chunk of characters at a time, which gives the same result.
 */
export function sampleEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { Layers } = world.components;
  const { clip: clipIds, time, weight, pose, binding } = Layers;
  const { clips, bindings } = world.assets;
  const queue = world.events;
  const layerPoseSize = world.maxJoints * POSE_STRIDE;
  const dense = world.characters.dense;
  queue.frameStart = world.time;

  for (let i = first; i < end; i++) {
    const eid = dense[i]!;
    for (let li = eid * MAX_LAYERS, last = li + MAX_LAYERS; li < last; li++) {
      const clipId = clipIds[li]!;
      if (clipId < 0) continue;
      const clip = clips[clipId]!;
      advanceLayer(Layers, li, clip, dt, queue, eid, clipId);
      if (weight[li]! > 0) {
        const bindingId = binding[li]!;
        sampleClipInto(pose, li * layerPoseSize, clip, time, li, bindingId < 0 ? null : bindings[bindingId]!);
      }
    }
  }
}

/**
 * Samples `clip` at time `times[timeIndex]` seconds into `out` at `outOff`, 10 floats per
 * joint: the two frames around that time are interpolated, translation and scale by lerp,
 * rotation by nlerp with the hemisphere fix (the shorter arc). Times outside [0, duration]
 * clamp to the ends.
 *
 * Without a binding the pose is in the clip skeleton's joint order. With one (a clip made for
 * another skeleton, see `bindSkeletons`) it is in the binding target's order: each target joint
 * reads its source joint, or takes the target's rest pose when the clip lacks it.
 * Pure kernel: writes only `out[outOff .. outOff + jointCount × 10)`.
 *
 * The time arrives as an array element, not a number argument, on purpose: V8 boxes a
 * computed double passed to a function it does not inline (a 16-byte heap object per call),
 * and a frame must allocate nothing. Per-character kernels take no float scalars.
 */
export function sampleClipInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  const frames = clip.frames;
  const frameCount = clip.frameCount;
  const poseSize = clip.skeleton.jointCount * POSE_STRIDE;
  const position = times[timeIndex]! * clip.frameRate;
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0; // negative or NaN time: first frame
    alpha = 0;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
    alpha = 0;
  }
  const a0 = frame * poseSize;
  const beta = 1 - alpha;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const jointCount = sourceJoint === null ? clip.skeleton.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * POSE_STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j]!;
    if (source < 0) {
      for (let c = 0, r = j * POSE_STRIDE; c < POSE_STRIDE; c++) out[o + c] = rest![r + c]!;
      continue;
    }
    const a = a0 + source * POSE_STRIDE;
    if (alpha === 0) {
      for (let c = 0; c < POSE_STRIDE; c++) out[o + c] = frames[a + c]!;
      continue;
    }
    const b = a + poseSize;
    out[o] = frames[a]! * beta + frames[b]! * alpha;
    out[o + 1] = frames[a + 1]! * beta + frames[b + 1]! * alpha;
    out[o + 2] = frames[a + 2]! * beta + frames[b + 2]! * alpha;
    const ax = frames[a + 3]!, ay = frames[a + 4]!, az = frames[a + 5]!, aw = frames[a + 6]!;
    let bx = frames[b + 3]!, by = frames[b + 4]!, bz = frames[b + 5]!, bw = frames[b + 6]!;
    if (ax * bx + ay * by + az * bz + aw * bw < 0) {
      bx = -bx; by = -by; bz = -bz; bw = -bw;
    }
    const qx = ax * beta + bx * alpha, qy = ay * beta + by * alpha;
    const qz = az * beta + bz * alpha, qw = aw * beta + bw * alpha;
    const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    out[o + 3] = qx * inv;
    out[o + 4] = qy * inv;
    out[o + 5] = qz * inv;
    out[o + 6] = qw * inv;
    out[o + 7] = frames[a + 7]! * beta + frames[b + 7]! * alpha;
    out[o + 8] = frames[a + 8]! * beta + frames[b + 8]! * alpha;
    out[o + 9] = frames[a + 9]! * beta + frames[b + 9]! * alpha;
  }
}

/**
 * Advances layer `li` by `speed[li] × dt` under its loop flag and writes `time[li]`: a looping
 * layer wraps into [0, D), a clamped one stops at 0 or D, a clip of duration 0 stays at 0.
 * Every event crossed is pushed to `queue` for entity `eid` and clip id `clipId`, placed in
 * the frame at `queue.frameStart + dt × (fraction of the advance travelled)`.
 *
 * Helpers receive the layer arrays and `dt` rather than computed times, for the reason given
 * at {@link sampleClipInto}.
 */
export function advanceLayer(
  layers: LayersComponent, li: number, clip: Clip, dt: number, queue: EventQueue, eid: number, clipId: number,
): void {
  const from = layers.time[li]!;
  const delta = layers.speed[li]! * dt;
  const duration = clip.duration;
  const looping = (layers.flags[li]! & LAYER_LOOP) !== 0;
  if (delta !== 0 && clip.eventTimes.length > 0 && duration > 0) {
    if (looping) pushLoopingEvents(queue, eid, clipId, clip, layers, li, dt);
    else pushClampedEvents(queue, eid, clipId, clip, layers, li, dt);
  }
  let to = from + delta;
  if (!(duration > 0)) {
    to = 0;
  } else if (looping) {
    to -= Math.floor(to / duration) * duration;
    if (to >= duration || !(to >= 0)) to = 0; // float rounding at the seam; NaN guard
  } else if (to > duration) {
    to = duration;
  } else if (to < 0) {
    to = 0;
  }
  layers.time[li] = to;
}

/** Events crossed by a looping layer this frame (before its time is written). */
function pushLoopingEvents(
  queue: EventQueue, eid: number, clipId: number, clip: Clip, layers: LayersComponent, li: number, dt: number,
): void {
  const duration = clip.duration;
  const times = clip.eventTimes;
  const from = layers.time[li]!;
  const delta = layers.speed[li]! * dt;
  const to = from + delta;
  const frameStart = queue.frameStart;
  // Cycle c covers unwrapped times [c·D, (c+1)·D). Each crossed cycle fires its events at
  // least once, so beyond `capacity` cycles older records would be overwritten anyway: skip
  // them (counting them as dropped) rather than loop a billion times.
  const firstCycle = delta > 0 ? 0 : Math.floor(to / duration);
  const lastCycle = delta > 0 ? Math.floor(to / duration) : 0;
  const span = lastCycle - firstCycle + 1;
  const skip = span > queue.capacity ? span - queue.capacity : 0;
  if (delta > 0) {
    for (let c = firstCycle + skip; c <= lastCycle; c++) {
      const base = c * duration;
      const lo = from > base ? from - base : 0; // fires [lo, hi) in clip time
      const hi = to < base + duration ? to - base : duration;
      for (let e = 0; e < times.length; e++) {
        const tau = times[e]!;
        if (tau >= lo && tau < hi) pushEvent(queue, eid, clipId, e, frameStart + dt * ((base + tau - from) / delta));
      }
    }
  } else {
    for (let c = lastCycle - skip; c >= firstCycle; c--) {
      const base = c * duration;
      const hi = from < base + duration ? from - base : duration; // fires (lo, hi] in clip time,
      const passesStart = to < base; // and [0, hi] when playback leaves the cycle at its start
      const lo = passesStart ? 0 : to - base;
      for (let e = times.length - 1; e >= 0; e--) {
        const tau = times[e]!;
        if ((tau > lo || (passesStart && tau === 0)) && tau <= hi) {
          pushEvent(queue, eid, clipId, e, frameStart + dt * ((base + tau - from) / delta));
        }
      }
    }
  }
  if (skip > 0) queue.dropped += skip * times.length;
}

/** Events crossed by a clamped (play-once) layer this frame (before its time is written). */
function pushClampedEvents(
  queue: EventQueue, eid: number, clipId: number, clip: Clip, layers: LayersComponent, li: number, dt: number,
): void {
  const duration = clip.duration;
  const times = clip.eventTimes;
  const from = layers.time[li]!;
  const delta = layers.speed[li]! * dt;
  const to = Math.min(Math.max(from + delta, 0), duration);
  const frameStart = queue.frameStart;
  if (to === from) return;
  if (delta > 0) {
    const atEnd = to === duration; // the end instant D fires when playback reaches it
    for (let e = 0; e < times.length; e++) {
      const tau = times[e]!;
      if (tau >= from && (tau < to || (atEnd && tau === duration))) {
        pushEvent(queue, eid, clipId, e, frameStart + dt * ((tau - from) / delta));
      }
    }
  } else {
    const atStart = to === 0;
    for (let e = times.length - 1; e >= 0; e--) {
      const tau = times[e]!;
      if (tau <= from && (tau > to || (atStart && tau === 0))) {
        pushEvent(queue, eid, clipId, e, frameStart + dt * ((tau - from) / delta));
      }
    }
  }
}
