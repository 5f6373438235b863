import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `Lod`: motion level of detail per character (Namco's motion LOD: the resolution of
 * an object is chosen by "its distance from the viewpoint", "its size on screen" or "the
 * relative motion between objects") and update-rate LOD (a far character is animated only
 * every k-th frame, over the frames' summed time, so nothing of its motion is lost).
 *
 * Indexed by eid (`rows = maxEntities + 1`). Settings, written by `setLod`:
 * - `enabled[eid]`: `LOD_OFF` (0, default: every system processes the character every frame
 *   with the frame's dt and it plays its clips as they are), `LOD_ON`, `LOD_FLUSH` (`removeLod`
 *   asked: the next frame updates it with its pending time, then `LOD_RESET`, after which it
 *   is off again). The entity has the `Lod` bitecs component exactly when `LOD_ON`
 *   (`removeLod` takes it at once; the flush that follows is `lodSystem`'s).
 * - `mode[eid]`: the measure that picks the level: `LOD_DISTANCE` (metres from the camera
 *   point), `LOD_SCREEN_SIZE` (projected height, pixels), `LOD_MOTION` (speed relative to the
 *   camera, m/s).
 * - `levelCount[eid]`: 1 … `LOD_MAX_LEVELS`.
 * - `thresholds[eid × LOD_BOUNDARIES + b]`, b < levelCount − 1: the boundary between levels b
 *   and b + 1 — a distance or speed from which level b + 1 is used (ascending in b), or a
 *   screen size below which it is used (descending).
 * - `hysteresis[eid]`: h in [0, 1): the level moves across boundary t only when the measure
 *   passes t·(1 + h) on the way up and t·(1 − h) on the way down (default 0.1).
 * - `updateEvery[eid × LOD_MAX_LEVELS + level]`: k, 1 … `LOD_MAX_INTERVAL`: at that level the
 *   character is updated on every k-th frame (default 1: every frame).
 * - `height[eid]`: the character's height for the screen size, metres.
 *
 * State, written by `lodSystem` every frame:
 * - `level[eid]`: current level, 0 = finest; `LOD_LEVEL_UNSET` until the first frame picks it.
 * - `measure[eid]`: the last measure (metres, pixels or m/s, by mode), for inspection.
 * - `tick[eid]`: frame counter mod `LOD_TICK_PERIOD`, started at the character's phase (its
 *   eid by default), so characters sharing k update on different frames: the crowd's cost is
 *   spread evenly. The character updates when `tick mod k = 0`.
 * - `frames[eid]`, `elapsed[eid]`: frames and seconds accumulated since its last update.
 * - `update[eid]`: 1 when the systems process the character this frame (default 1).
 * - `slot[eid]`: where those systems find the seconds to advance it by: 0 → the frame's dt
 *   (also every update covering one frame); g ≥ 2 → `LodShared.dts[g]`, the g frames summed.
 * - `dt[eid]`: the seconds its last update covered (this frame's when `update` is 1).
 *
 * 75 bytes per character.
 */
export interface LodComponent {
  readonly enabled: Uint8Array;
  readonly mode: Uint8Array;
  readonly levelCount: Uint8Array;
  readonly thresholds: Float32Array;
  readonly hysteresis: Float32Array;
  readonly updateEvery: Uint8Array;
  readonly height: Float32Array;
  readonly level: Uint8Array;
  readonly measure: Float32Array;
  readonly tick: Uint32Array;
  readonly frames: Uint8Array;
  readonly elapsed: Float64Array;
  readonly update: Uint8Array;
  readonly slot: Uint8Array;
  readonly dt: Float64Array;
}

/** `Lod.enabled`: no LOD (the default). */
export const LOD_OFF = 0;
/** `Lod.enabled`: level selection and update-rate LOD run. */
export const LOD_ON = 1;
/** `Lod.enabled`: being removed: one more update with the pending time, then `LOD_RESET`. */
export const LOD_FLUSH = 2;
/** `Lod.enabled`: flushed; the next frame clears the row back to `LOD_OFF`. */
export const LOD_RESET = 3;

/** `Lod.mode`: level by distance from the camera point, metres (thresholds ascending). */
export const LOD_DISTANCE = 0;
/** `Lod.mode`: level by projected height on screen, pixels (thresholds descending). */
export const LOD_SCREEN_SIZE = 1;
/** `Lod.mode`: level by speed relative to the camera, m/s (thresholds ascending). */
export const LOD_MOTION = 2;

/** Most LOD levels per character (and per clip in the level registry). */
export const LOD_MAX_LEVELS = 8;
/** Thresholds per character: one between each two levels. */
export const LOD_BOUNDARIES = LOD_MAX_LEVELS - 1;
/** Largest update interval k. */
export const LOD_MAX_INTERVAL = 16;
/**
 * Length of `LodShared.dts`. One update covers at most LOD_MAX_GAP − 1 frames: k_old − 1
 * pending when the interval changes, then up to k_new more (`lodSystem` forces an update there).
 */
export const LOD_MAX_GAP = 2 * LOD_MAX_INTERVAL;
/** `Lod.tick` wraps here: lcm(1 … 16), so `tick mod k` stays periodic for every k. */
export const LOD_TICK_PERIOD = 720720;
/** `Lod.level` before the first `lodSystem` frame: the level is then picked without hysteresis. */
export const LOD_LEVEL_UNSET = 255;

/** `LodShared.camera` layout: position x y z (m), velocity x y z (m/s), then the projection. */
export const LOD_CAMERA_X = 0;
export const LOD_CAMERA_VX = 3;
/** viewportHeight / (2·tan(fov / 2)): a height H at distance d projects to H / d times this, pixels. */
export const LOD_CAMERA_SCALE = 6;
/** Vertical field of view, radians, and viewport height, pixels (what `LOD_CAMERA_SCALE` is made of). */
export const LOD_CAMERA_FOV = 7;
export const LOD_CAMERA_VIEWPORT = 8;
export const LOD_CAMERA_SIZE = 9;
/** Default vertical field of view of the LOD camera, radians (60°). */
export const LOD_DEFAULT_FOV = Math.PI / 3;
/** Default viewport height of the LOD camera, pixels. */
export const LOD_DEFAULT_VIEWPORT_HEIGHT = 1080;

/** `LodShared.args` indices: the inputs of `selectLodLevel` (floats travel in arrays, never as arguments). */
export const LOD_ARG_MEASURE = 0;
export const LOD_ARG_HYSTERESIS = 1;

/**
 * The world-level LOD state (`world.lod`), sized at world creation:
 * - `camera`: `LOD_CAMERA_SIZE` floats (see `LOD_CAMERA_*`), set by `setLodCamera`.
 * - `dts`: `LOD_MAX_GAP` seconds, boxed: `dts[g]` is what an update covering g ≥ 2 frames
 *   advances by this frame. Characters with the same g this frame summed the same frames'
 *   dt in the same order from 0, so they share one value bit for bit, and `lodSystem` stores
 *   it only when it changed: at a constant dt, never. The array holds tagged numbers (its
 *   elements kind is generic, see `createLodShared`), so systems pass `dts[g]` on to their
 *   helpers as it is — a double read from a typed array would be boxed, 16 bytes per call,
 *   wherever V8 does not inline the helper.
 * - `clipLevels`: the level registry, `LOD_MAX_LEVELS` clip ids per clip id:
 *   `clipLevels[clip × LOD_MAX_LEVELS + level]` is the clip sampled at that level for a layer
 *   playing `clip` (`registerLodLevels`). Clip ids past its end play themselves at every
 *   level. Replaced (grown) at registration, never per frame.
 * - `args`: `selectLodLevel`'s float inputs.
 */
export interface LodShared {
  readonly camera: Float64Array;
  readonly dts: number[];
  clipLevels: Int32Array;
  readonly args: Float64Array;
}

/** Creates the `Lod` component for `rows` entity ids (no character has LOD yet). */
export function createLodComponent(rows: number, alloc: PoolAllocator = heapAllocator): LodComponent {
  return {
    enabled: alloc.array(Uint8Array, rows),
    mode: alloc.array(Uint8Array, rows),
    levelCount: alloc.array(Uint8Array, rows).fill(1),
    thresholds: alloc.array(Float32Array, rows * LOD_BOUNDARIES),
    hysteresis: alloc.array(Float32Array, rows),
    updateEvery: alloc.array(Uint8Array, rows * LOD_MAX_LEVELS).fill(1),
    height: alloc.array(Float32Array, rows),
    level: alloc.array(Uint8Array, rows),
    measure: alloc.array(Float32Array, rows),
    tick: alloc.array(Uint32Array, rows),
    frames: alloc.array(Uint8Array, rows),
    elapsed: alloc.array(Float64Array, rows),
    update: alloc.array(Uint8Array, rows).fill(1),
    slot: alloc.array(Uint8Array, rows),
    dt: alloc.array(Float64Array, rows),
  };
}

/** Creates the world-level LOD state: camera at the origin, at rest, 60° and 1080 px. */
export function createLodShared(alloc: PoolAllocator = heapAllocator): LodShared {
  const camera = alloc.array(Float64Array, LOD_CAMERA_SIZE);
  camera[LOD_CAMERA_FOV] = LOD_DEFAULT_FOV;
  camera[LOD_CAMERA_VIEWPORT] = LOD_DEFAULT_VIEWPORT_HEIGHT;
  camera[LOD_CAMERA_SCALE] = LOD_DEFAULT_VIEWPORT_HEIGHT / (2 * Math.tan(LOD_DEFAULT_FOV / 2));
  // Filled with null first, so the array's elements kind is the generic one and stays so: a
  // number stored later is kept as a tagged heap number that reads pass on without boxing.
  const dts = Array.from({ length: LOD_MAX_GAP }, (): unknown => null) as number[];
  for (let g = 0; g < LOD_MAX_GAP; g++) dts[g] = 0;
  return { camera, dts, clipLevels: new Int32Array(0), args: new Float64Array(2) };
}

/** Clears `eid`'s row back to a new world's (no LOD, updated every frame). */
export function resetLod(lod: LodComponent, eid: number): void {
  lod.enabled[eid] = LOD_OFF;
  lod.mode[eid] = LOD_DISTANCE;
  lod.levelCount[eid] = 1;
  lod.thresholds.fill(0, eid * LOD_BOUNDARIES, (eid + 1) * LOD_BOUNDARIES);
  lod.hysteresis[eid] = 0;
  lod.updateEvery.fill(1, eid * LOD_MAX_LEVELS, (eid + 1) * LOD_MAX_LEVELS);
  lod.height[eid] = 0;
  lod.level[eid] = 0;
  lod.measure[eid] = 0;
  lod.tick[eid] = 0;
  lod.frames[eid] = 0;
  lod.elapsed[eid] = 0;
  lod.update[eid] = 1;
  lod.slot[eid] = 0;
  lod.dt[eid] = 0;
}

/**
 * The clip id sampled for a layer playing `clipId` at LOD `level` (−1: the character has no
 * LOD): `clipLevels[clipId × LOD_MAX_LEVELS + level]`, or `clipId` itself when the clip has
 * no registered levels. Integers only; allocates nothing.
 */
export function lodClipId(clipLevels: Int32Array, clipId: number, level: number): number {
  if (level < 0) return clipId;
  const k = clipId * LOD_MAX_LEVELS + level;
  return k < clipLevels.length ? clipLevels[k] : clipId;
}

/** `Lod`'s row lifecycle: {@link resetLod} (no LOD, updated every frame). */
export const lodRows: RowLifecycle<LodComponent> = { reset: resetLod, kept: {} };
