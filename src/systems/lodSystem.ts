/**
 * lodSystem — picks each character's LOD level and whether it is updated this frame
 * (Namco's motion LOD: an object's resolution chosen by "distance from the
 * viewpoint", "size on screen" or "relative motion between objects").
 *
 * Reads:  Lod (settings, level, tick, frames, elapsed, dt), RootMotion (x y z: world position;
 *         delta: last displacement), `world.lod.camera`.
 * Writes: the update list (`world.updates`: the characters updated this frame and each one's
 *         dt), Lod (level, measure, tick, frames, elapsed, update, slot, dt), `world.lod.dts`.
 * Order:  first in the frame (src/frame.ts), before sampleSystem. For each chunk
 *         `dense[first .. end)` it writes the chunk's update list (components/UpdateList.ts),
 *         which every later system iterates. Characters without LOD (`Lod.enabled` 0) are in
 *         the list with the frame's dt and their Lod row is not touched (`update` stays 1,
 *         `slot` 0): every system processes them every frame, exactly as without this system.
 *
 * Per character with LOD, each frame:
 * 1. The measure m, from its world position p and the camera c (`setLodCamera`), d = |p − c|:
 *    - distance: m = d, metres;
 *    - screen size: m = H / (2·d·tan(fov/2)) × viewportHeight, pixels: the character's height
 *      H (`Lod.height`) seen through a pinhole camera of vertical field of view fov, at distance
 *      d along the view axis. d is the distance to the camera point, not the depth along the
 *      camera's axis, so no camera orientation is needed and the size does not change as the
 *      camera turns; off the axis the true projection is larger by 1/cos of the angle off-axis
 *      (≤ 15 % at the edge of a 60° view);
 *    - motion: m = |v − v_c|, m/s: the speed of the character relative to the camera's velocity
 *      v_c (`setLodCamera`'s `velocity`; pass a reference object's velocity to measure motion
 *      relative to it). v is the character's root-motion displacement over its last update
 *      divided by that update's seconds (`RootMotion.delta / Lod.dt`); a character that root
 *      motion does not move has v = 0.
 * 2. The level, with hysteresis ({@link selectLodLevel}).
 * 3. The schedule: k = `updateEvery[level]`; the character is updated when its tick (frame
 *    count plus phase) is a multiple of k. Otherwise it is left out of the update list (and
 *    `update` = 0, for `getLod`): every system after this one skips it, its pose, matrices and root transform stay as they are, and the frame's dt is
 *    added to `elapsed`. On an update frame the systems advance it by all the pending seconds
 *    (`slot`, `dt`): clip times, root motion across loop wraps, events, fades, inertialization
 *    and followers are all exact for any step, so its motion is the full-rate motion sampled
 *    every k-th frame (see the systems' headers for what is exact and what is per-step).
 *
 * Invariants: allocates nothing at a constant dt (one 16-byte number per distinct pending
 * length per frame when dt varies: the boxed `world.lod.dts`); never throws.
 */
import { commitRemovals } from 'bitecs';
import {
  LOD_ARG_HYSTERESIS, LOD_ARG_MEASURE, LOD_BOUNDARIES, LOD_CAMERA_SCALE, LOD_CAMERA_VX, LOD_CAMERA_X, LOD_FLUSH,
  LOD_MAX_GAP, LOD_MAX_LEVELS, LOD_MOTION, LOD_OFF, LOD_RESET, LOD_SCREEN_SIZE, LOD_TICK_PERIOD, resetLod,
} from '../components/Lod.js';
import type { AnimationWorld } from '../world.js';

/**
 * Picks every character's LOD level and update for a frame of `dt` seconds and writes the
 * whole world's update list, which the systems run alone after it iterate; see the file header.
 */
export function lodSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  lodEntities(world, dt, 0, world.characters.dense.length);
}

/**
 * The work of {@link lodSystem} for the characters at `world.characters.dense[first .. end)`:
 * writes their update list at `world.updates.eids[first ..]` (see components/UpdateList.ts).
 */
export function lodEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const lod = world.components.Lod;
  const { enabled, mode, levelCount, thresholds, hysteresis, updateEvery, height, level, measure, tick, frames, elapsed, update, slot } = lod;
  const lastDt = lod.dt;
  const { x, y, z, delta } = world.components.RootMotion;
  const { camera, dts, args } = world.lod;
  const cx = camera[LOD_CAMERA_X], cy = camera[LOD_CAMERA_X + 1], cz = camera[LOD_CAMERA_X + 2];
  const cvx = camera[LOD_CAMERA_VX], cvy = camera[LOD_CAMERA_VX + 1], cvz = camera[LOD_CAMERA_VX + 2];
  const scale = camera[LOD_CAMERA_SCALE];
  const dense = world.characters.dense;
  const updates = world.updates;
  const { eids: updated, dt: updatedDt } = updates;
  let last = first; // the end of the chunk's update list

  for (let i = first; i < end; i++) {
    const eid = dense[i];
    const on = enabled[eid];
    if (on === LOD_OFF || on === LOD_RESET) {
      // No LOD: updated every frame by the frame's dt. Flushed last frame: back to that.
      if (on === LOD_RESET) resetLod(lod, eid);
      updated[last] = eid;
      updatedDt[last] = dt;
      last++;
      continue;
    }
    // 1. The measure.
    const dx = x[eid] - cx, dy = y[eid] - cy, dz = z[eid] - cz;
    const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const kind = mode[eid];
    let value = distance;
    if (kind === LOD_SCREEN_SIZE) {
      value = distance > 0 ? (height[eid] * scale) / distance : Infinity;
    } else if (kind === LOD_MOTION) {
      const seconds = lastDt[eid];
      const inv = seconds > 0 ? 1 / seconds : 0;
      const vx = delta[eid * 3] * inv - cvx, vy = delta[eid * 3 + 1] * inv - cvy, vz = delta[eid * 3 + 2] * inv - cvz;
      value = Math.sqrt(vx * vx + vy * vy + vz * vz);
    }
    measure[eid] = value;
    // 2. The level.
    args[LOD_ARG_MEASURE] = value;
    args[LOD_ARG_HYSTERESIS] = hysteresis[eid];
    const picked = selectLodLevel(thresholds, eid * LOD_BOUNDARIES, levelCount[eid] - 1, level[eid], kind === LOD_SCREEN_SIZE, args);
    level[eid] = picked;
    // 3. The schedule.
    const every = updateEvery[eid * LOD_MAX_LEVELS + picked];
    let t = tick[eid] + 1;
    if (t >= LOD_TICK_PERIOD) t = 0;
    tick[eid] = t;
    const n = frames[eid] + 1;
    const seconds = elapsed[eid] + dt;
    if (t % every === 0 || on === LOD_FLUSH || n >= LOD_MAX_GAP - 1) {
      update[eid] = 1;
      lastDt[eid] = seconds;
      elapsed[eid] = 0;
      frames[eid] = 0;
      updated[last] = eid;
      if (n === 1) {
        slot[eid] = 0; // one frame: the frame's own dt (0 + dt = dt exactly)
        updatedDt[last] = dt;
      } else {
        slot[eid] = n;
        if (dts[n] !== seconds) dts[n] = seconds; // stored (boxed) only when it changed
        updatedDt[last] = dts[n];
      }
      last++;
      if (on === LOD_FLUSH) enabled[eid] = LOD_RESET;
    } else {
      update[eid] = 0;
      elapsed[eid] = seconds;
      frames[eid] = n;
    }
  }
  updates.first = first;
  updates.end = end;
  updates.last = last;
}

/**
 * The LOD level for a measure, with hysteresis: starting from `current`, the level moves one
 * boundary at a time while the measure is past it by the hysteresis band, so a measure
 * hovering around a threshold does not make the level flicker.
 *
 * `thresholds[off + b]`, b < `boundaries` (= levels − 1), is the boundary between levels b and
 * b + 1. With m = `args[LOD_ARG_MEASURE]` and h = `args[LOD_ARG_HYSTERESIS]`:
 * - ascending (distance, speed): coarser across b while m ≥ t_b·(1 + h); else finer across b
 *   while m < t_b·(1 − h);
 * - `descending` (screen size): coarser across b while m < t_b·(1 − h); else finer across b
 *   while m ≥ t_b·(1 + h).
 * A move up at boundary b needs m on one side of the band and a move back the other, so a
 * constant measure never alternates. `current` > `boundaries` (`LOD_LEVEL_UNSET`) picks the
 * level afresh with h = 0: the number of boundaries the measure has passed. A NaN measure
 * keeps the current level. Integers and arrays only: allocates nothing.
 */
export function selectLodLevel(
  thresholds: Float32Array, off: number, boundaries: number, current: number, descending: boolean, args: Float64Array,
): number {
  const m = args[LOD_ARG_MEASURE];
  let h = args[LOD_ARG_HYSTERESIS];
  let level = current;
  if (level > boundaries) {
    level = 0;
    h = 0;
  }
  const up = 1 + h, down = 1 - h;
  if (descending) {
    while (level < boundaries && m < thresholds[off + level] * down) level++;
    if (level === current) while (level > 0 && m >= thresholds[off + level - 1] * up) level--;
  } else {
    while (level < boundaries && m >= thresholds[off + level] * up) level++;
    if (level === current) while (level > 0 && m < thresholds[off + level - 1] * down) level--;
  }
  return level;
}
