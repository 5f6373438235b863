/**
 * Motion LOD API (after Namco's motion LOD): per character, a level chosen every frame
 * by distance from a camera point, size on screen or relative motion, with hysteresis; the
 * level picks which reduced clip (`registerLodLevels`, e.g. the output of `bakeLod`) is
 * sampled; and update-rate LOD, where a character at a coarse level is animated only every
 * k-th frame, over the summed seconds, so its clip times, root travel and events stay those
 * of the full-rate run. See systems/lodSystem.ts for the per-frame model.
 */
import { resolveLodCurveMaps } from '../systems/switching/curveMapRows.js';
import { addComponent, removeComponent } from 'bitecs';
import { fail, IssueList } from '../assets/AnimationError.js';
import { sameJointOrder } from '../assets/Binding.js';
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import {
  LOD_BOUNDARIES, LOD_CAMERA_FOV, LOD_CAMERA_SCALE, LOD_CAMERA_VIEWPORT, LOD_CAMERA_VX, LOD_CAMERA_X, LOD_DISTANCE,
  LOD_FLUSH, LOD_LEVEL_UNSET, LOD_MAX_INTERVAL, LOD_MAX_LEVELS, LOD_MOTION, LOD_OFF, LOD_ON, LOD_RESET, LOD_SCREEN_SIZE,
  LOD_TICK_PERIOD, resetLod,
} from '../components/Lod.js';
import { composeModel } from '../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T } from '../math/layout.js';
import { registerAsset } from '../systems/switching/registry.js';
import { isClip, isFiniteNumber, requireCharacter, requireWorld } from './validation.js';
import { FLOAT32_MAX, FLOAT32_MIN_NORMAL, rangeIssue, shownString } from '../assets/limits.js';
import type { AnimationWorld } from '../world.js';

/** What picks a character's level: distance (m), projected height on screen (px) or relative speed (m/s). */
export type LodMode = 'distance' | 'screenSize' | 'motion';

/** Options of {@link setLod}. */
export interface LodOptions {
  /** Number of levels, 1 … 8 (`LOD_MAX_LEVELS`); level 0 is the finest. */
  levels: number;
  /**
   * The measure (default: the one whose thresholds are given; 'distance' when `levels` is 1):
   * - 'distance': metres from the camera point (`setLodCamera`) to the character's position;
   * - 'screenSize': the character's projected height, pixels: `height` / (2·d·tan(fov/2)) ×
   *   viewportHeight at distance d, with the camera's vertical field of view and viewport;
   * - 'motion': the character's speed relative to the camera's velocity, m/s (its root-motion
   *   travel over its last update; see lodSystem.ts).
   */
  mode?: LodMode;
  /** 'distance': `levels − 1` distances, metres, > 0, ascending: from `distances[b]` on, level b + 1. */
  distances?: readonly number[];
  /** 'screenSize': `levels − 1` heights, pixels, > 0, descending: below `screenSizes[b]`, level b + 1. */
  screenSizes?: readonly number[];
  /** 'motion': `levels − 1` speeds, m/s, > 0, ascending: from `speeds[b]` on, level b + 1. */
  speeds?: readonly number[];
  /**
   * Fraction h in [0, 1) (default 0.1): the level crosses a threshold t only once the measure
   * is past t·(1 + h) going up or t·(1 − h) going down, so it does not flicker around t.
   */
  hysteresis?: number;
  /**
   * Update-rate LOD: `levels` integers in 1 … 16 (default all 1): at level l the character is
   * animated every `updateEvery[l]`-th frame (its pose, matrices and root transform held in
   * between), over the seconds summed since its last update.
   */
  updateEvery?: readonly number[];
  /**
   * Height used for 'screenSize', metres > 0 (default: the skeleton's rest pose from the model
   * origin or its lowest joint, whichever is lower, to its highest joint; pass the mesh's height
   * when the head's top lies well above the highest joint).
   */
  height?: number;
  /**
   * Integer ≥ 0 (default: the entity id): which frames of its interval the character updates
   * on. Characters with different phases spread over the frames, so a crowd's cost per frame
   * stays even.
   */
  phase?: number;
}

/** Options of {@link setLodCamera}; an omitted one keeps its current value. */
export interface LodCameraOptions {
  /** Vertical field of view, radians in (0, π) (initially π/3). */
  fov?: number;
  /** Viewport height, pixels > 0 (initially 1080). */
  viewportHeight?: number;
  /** The camera's (or reference object's) velocity, m/s, for 'motion' (initially 0). */
  velocity?: { readonly x: number; readonly y: number; readonly z: number };
}

/** A character's LOD state, as {@link getLod} reports it. */
export interface LodState {
  /** Current level, 0 = finest. */
  readonly level: number;
  /** The last measure: metres, pixels or m/s by mode. */
  readonly measure: number;
  /** Whether the systems animated the character on the last frame. */
  readonly updated: boolean;
  /** Seconds accumulated since its last update, not yet applied. */
  readonly pending: number;
}

const MODES: Readonly<Record<LodMode, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<LodMode, number>, { distance: LOD_DISTANCE, screenSize: LOD_SCREEN_SIZE, motion: LOD_MOTION }),
);
const THRESHOLD_FIELD = { distance: 'distances', screenSize: 'screenSizes', motion: 'speeds' } as const;

/**
 * Gives character `eid` motion LOD, or changes its settings (see {@link LodOptions}). From the
 * next frame, `lodSystem` picks its level and whether it is animated. A character already
 * accumulating time keeps it; the level is picked afresh (without hysteresis) on that frame.
 * The character gets the `Lod` bitecs component (`query(world.ecs, [world.components.Lod])`).
 *
 * @example
 * // Three levels by distance; the far one animated every 4th frame.
 * registerLodLevels(world, walk, bakeLod(walk, [0.001, 0.005, 0.02]));
 * setLod(world, eid, { levels: 3, distances: [15, 40], updateEvery: [1, 2, 4] });
 * setLodCamera(world, camera.x, camera.y, camera.z);
 * @throws AnimationError when `eid` is not a character, `levels` is not an integer in 1 … 8,
 * the thresholds are missing, of the wrong count, not > 0 or not strictly ordered, several
 * kinds of threshold or a mode they do not match are given, or `hysteresis`, `updateEvery`,
 * `height` or `phase` is out of range. Nothing changes then.
 */
export function setLod(world: AnimationWorld, eid: number, options: LodOptions): void {
  const where = 'setLod';
  const skeleton = requireCharacter(world, eid, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
  const issues = new IssueList(where);
  const { levels } = options;
  const levelsOk = Number.isInteger(levels) && levels >= 1 && levels <= LOD_MAX_LEVELS;
  if (!levelsOk) issues.add('levels', `is ${shownString(levels)}: must be an integer in [1, ${LOD_MAX_LEVELS}]`);
  const given = (Object.keys(THRESHOLD_FIELD) as LodMode[]).filter((m) => options[THRESHOLD_FIELD[m]] !== undefined);
  let mode: LodMode = options.mode ?? given[0] ?? 'distance';
  if (options.mode !== undefined && !(typeof options.mode === 'string' && options.mode in MODES)) {
    issues.add('mode', `is ${shownString(options.mode)}: must be 'distance', 'screenSize' or 'motion'`);
    mode = 'distance';
  }
  if (given.length > 1) issues.add(THRESHOLD_FIELD[given[1]], `is given with ${THRESHOLD_FIELD[given[0]]}: give the thresholds of one mode`);
  else if (given.length === 1 && given[0] !== mode) issues.add(THRESHOLD_FIELD[given[0]], `does not fit mode '${mode}' (it takes ${THRESHOLD_FIELD[mode]})`);
  const field = THRESHOLD_FIELD[mode];
  const thresholds = options[field];
  if (levelsOk) {
    checkThresholds(issues, field, thresholds, levels - 1, mode === 'screenSize');
    checkIntervals(issues, options.updateEvery, levels);
  }
  const hysteresis = options.hysteresis ?? 0.1;
  if (!(isFiniteNumber(hysteresis) && hysteresis >= 0 && hysteresis < 1)) issues.add('hysteresis', `is ${shownString(hysteresis)}: must be a number in [0, 1)`);
  const height = options.height ?? restHeight(skeleton);
  const heightIssue = rangeIssue(height, FLOAT32_MIN_NORMAL, FLOAT32_MAX, 'metres, stored in Float32');
  if (heightIssue !== null) issues.add('height', heightIssue);
  const phase = options.phase ?? eid;
  if (!(Number.isInteger(phase) && phase >= 0)) issues.add('phase', `is ${shownString(phase)}: must be an integer ≥ 0`);
  issues.throwIfAny();

  const lod = world.components.Lod;
  const state = lod.enabled[eid];
  if (state === LOD_OFF || state === LOD_RESET) {
    resetLod(lod, eid);
    lod.tick[eid] = phase % LOD_TICK_PERIOD;
  }
  lod.enabled[eid] = LOD_ON; // a pending removal (LOD_FLUSH) is cancelled, its time kept
  lod.mode[eid] = MODES[mode];
  lod.levelCount[eid] = levels;
  lod.level[eid] = LOD_LEVEL_UNSET;
  lod.thresholds.fill(0, eid * LOD_BOUNDARIES, (eid + 1) * LOD_BOUNDARIES);
  if (thresholds) lod.thresholds.set(thresholds.slice(0, levels - 1), eid * LOD_BOUNDARIES);
  lod.updateEvery.fill(1, eid * LOD_MAX_LEVELS, (eid + 1) * LOD_MAX_LEVELS);
  if (options.updateEvery) lod.updateEvery.set(options.updateEvery, eid * LOD_MAX_LEVELS);
  lod.hysteresis[eid] = hysteresis;
  lod.height[eid] = height;
  addComponent(world.ecs, eid, lod);
}

/**
 * Removes character `eid`'s LOD. Time it has accumulated is not lost: the next frame animates
 * it once more over those seconds (at its current level), and from the frame after it is a
 * character without LOD (every frame, clips as they are). The `Lod` bitecs component is
 * removed at once. Nothing happens for a character without LOD.
 * @throws AnimationError when `eid` is not a character.
 */
export function removeLod(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'removeLod');
  const lod = world.components.Lod;
  if (lod.enabled[eid] === LOD_ON) lod.enabled[eid] = LOD_FLUSH;
  // The bitecs component goes now; the flush is lodSystem's (systems add and remove nothing).
  removeComponent(world.ecs, eid, lod);
}

/**
 * Character `eid`'s LOD state after the last frame (see {@link LodState}).
 * @throws AnimationError when `eid` is not a character or has no LOD.
 */
export function getLod(world: AnimationWorld, eid: number): LodState {
  const where = 'getLod';
  requireCharacter(world, eid, where);
  const lod = world.components.Lod;
  const state = lod.enabled[eid];
  if (state !== LOD_ON && state !== LOD_FLUSH) fail(where, 'eid', `${eid} has no LOD: call setLod first`);
  const level = lod.level[eid];
  return {
    level: level === LOD_LEVEL_UNSET ? 0 : level,
    measure: lod.measure[eid],
    updated: lod.update[eid] === 1,
    pending: lod.elapsed[eid],
  };
}

/**
 * Sets the point LOD measures from (metres, world space) and, optionally, its projection
 * and velocity (see {@link LodCameraOptions}; omitted options keep their values). Call it
 * whenever the camera moves; it takes effect at the next frame.
 *
 * Projection (pinhole, used by 'screenSize'): a character of height H at distance d covers
 * H / (2·d·tan(fov/2)) of the viewport's height, so H / (2·d·tan(fov/2)) × viewportHeight
 * pixels.
 * @example
 * setLodCamera(world, camera.position.x, camera.position.y, camera.position.z, { fov: camera.fov, viewportHeight: 1080 });
 * @throws AnimationError when a coordinate or velocity is not finite, `fov` is not in (0, π)
 * or `viewportHeight` is not > 0. Nothing changes then.
 */
export function setLodCamera(world: AnimationWorld, x: number, y: number, z: number, options: LodCameraOptions = {}): void {
  const where = 'setLodCamera';
  requireWorld(world, where);
  if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
  const issues = new IssueList(where);
  for (const [axis, v] of [['x', x], ['y', y], ['z', z]] as const) {
    const issue = rangeIssue(v, -FLOAT32_MAX, FLOAT32_MAX, 'metres, the Float32 range');
    if (issue !== null) issues.add(axis, issue);
  }
  const { fov, viewportHeight, velocity } = options;
  if (fov !== undefined && !(isFiniteNumber(fov) && fov > 0 && fov < Math.PI)) issues.add('fov', `is ${shownString(fov)}: must be a number in (0, π) (radians)`);
  if (viewportHeight !== undefined && !(isFiniteNumber(viewportHeight) && viewportHeight > 0)) {
    issues.add('viewportHeight', `is ${shownString(viewportHeight)}: must be a finite number > 0 (pixels)`);
  }
  if (velocity !== undefined) {
    if (typeof velocity !== 'object' || velocity === null) issues.add('velocity', 'must be an object { x, y, z } (m/s)');
    else for (const axis of ['x', 'y', 'z'] as const) {
      const issue = rangeIssue(velocity[axis], -FLOAT32_MAX, FLOAT32_MAX, 'm/s, the Float32 range');
      if (issue !== null) issues.add(`velocity.${axis}`, issue);
    }
  }
  issues.throwIfAny();
  const camera = world.lod.camera;
  camera[LOD_CAMERA_X] = x;
  camera[LOD_CAMERA_X + 1] = y;
  camera[LOD_CAMERA_X + 2] = z;
  if (velocity !== undefined) {
    camera[LOD_CAMERA_VX] = velocity.x;
    camera[LOD_CAMERA_VX + 1] = velocity.y;
    camera[LOD_CAMERA_VX + 2] = velocity.z;
  }
  if (fov !== undefined) camera[LOD_CAMERA_FOV] = fov;
  if (viewportHeight !== undefined) camera[LOD_CAMERA_VIEWPORT] = viewportHeight;
  camera[LOD_CAMERA_SCALE] = camera[LOD_CAMERA_VIEWPORT] / (2 * Math.tan(camera[LOD_CAMERA_FOV] / 2));
}

/**
 * Registers the clips sampled for `clip` at each LOD level: a character with LOD at level l
 * that plays `clip` on a layer samples `levels[l]` there (`levels[levels.length − 1]` at
 * deeper levels) — e.g. `registerLodLevels(world, walk, bakeLod(walk, tolerances))`, finest
 * first. Level 0 is `levels[0]`: pass `clip` itself first to keep the original at level 0.
 * Only the sampled pose comes from a level clip: the layer's time, root motion and events
 * stay those of `clip`, so a level change never moves a character or skips an event.
 * Characters without LOD, and clips without registered levels, play as they are. Registering
 * again for the same clip replaces its levels.
 *
 * @throws AnimationError when `clip` or a level is not a Clip, `levels` is empty or longer
 * than 8, or a level's skeleton has other joints (names, order) than the clip's or its
 * duration differs from the clip's by more than 1e-6·max(1, D). Nothing changes then.
 */
export function registerLodLevels(world: AnimationWorld, clip: Clip, levels: readonly Clip[]): void {
  const where = 'registerLodLevels';
  requireWorld(world, where);
  if (!isClip(clip)) fail(where, 'clip', 'must be a Clip from createClip');
  if (!Array.isArray(levels) || levels.length < 1 || levels.length > LOD_MAX_LEVELS) {
    fail(where, 'levels', `must be an array of 1 … ${LOD_MAX_LEVELS} clips (finest first)`);
  }
  const issues = new IssueList(where);
  const tolerance = 1e-6 * Math.max(1, clip.duration);
  levels.forEach((level, l) => {
    if (!isClip(level)) {
      issues.add(`levels[${l}]`, 'must be a Clip from createClip');
      return;
    }
    if (!sameJointOrder(level.skeleton, clip.skeleton)) {
      issues.add(`levels[${l}].skeleton`, `has other joints than "${clip.name}"'s skeleton (${level.skeleton.jointCount} vs ${clip.skeleton.jointCount}, or other names or order)`);
    }
    if (!(Math.abs(level.duration - clip.duration) <= tolerance)) {
      issues.add(`levels[${l}].duration`, `is ${level.duration} s: must be "${clip.name}"'s ${clip.duration} s (a level replaces the pose, not the timing)`);
    }
  });
  issues.throwIfAny();

  const { clips, clipIds } = world.assets;
  const base = registerAsset(clips, clipIds, clip);
  const ids = levels.map((level) => registerAsset(clips, clipIds, level));
  const old = world.lod.clipLevels;
  let table = old;
  if ((base + 1) * LOD_MAX_LEVELS > old.length) {
    // Grown here, never per frame: rows of clips without levels map every level to the clip.
    table = new Int32Array((base + 1) * LOD_MAX_LEVELS);
    table.set(old);
    for (let c = old.length / LOD_MAX_LEVELS; c <= base; c++) table.fill(c, c * LOD_MAX_LEVELS, (c + 1) * LOD_MAX_LEVELS);
  }
  for (let l = 0; l < LOD_MAX_LEVELS; l++) table[base * LOD_MAX_LEVELS + l] = ids[Math.min(l, ids.length - 1)];
  world.lod.clipLevels = table;
  resolveLodCurveMaps(world, base);
}

/** `levels − 1` positive numbers, strictly ascending (or descending), in `options[field]`. */
function checkThresholds(issues: IssueList, field: string, values: readonly number[] | undefined, count: number, descending: boolean): void {
  if (count === 0) {
    if (values !== undefined && (!Array.isArray(values) || values.length !== 0)) issues.add(field, 'must be empty (or omitted) for one level');
    return;
  }
  if (!Array.isArray(values)) {
    issues.add(field, `is ${values === undefined ? 'missing' : 'not an array'}: ${count} threshold${count > 1 ? 's' : ''} for ${count + 1} levels are needed`);
    return;
  }
  if (values.length !== count) issues.add(field, `has ${values.length} values: ${count + 1} levels need ${count}`);
  values.forEach((v, b) => {
    const issue = rangeIssue(v, FLOAT32_MIN_NORMAL, FLOAT32_MAX, 'thresholds are stored in Float32');
    if (issue !== null) issues.add(`${field}[${b}]`, issue);
    else if (b > 0 && isFiniteNumber(values[b - 1]) && (descending ? !(v < values[b - 1]) : !(v > values[b - 1]))) {
      issues.add(`${field}[${b}]`, `is ${v}: must be ${descending ? 'below' : 'above'} ${field}[${b - 1}] (${values[b - 1]})`);
    }
  });
}

/** `levels` integers in [1, LOD_MAX_INTERVAL], or undefined. */
function checkIntervals(issues: IssueList, values: readonly number[] | undefined, levels: number): void {
  if (values === undefined) return;
  if (!Array.isArray(values) || values.length !== levels) {
    issues.add('updateEvery', `must be an array of ${levels} intervals, one per level`);
    return;
  }
  values.forEach((k, l) => {
    if (!(Number.isInteger(k) && k >= 1 && k <= LOD_MAX_INTERVAL)) issues.add(`updateEvery[${l}]`, `is ${shownString(k)}: must be an integer in [1, ${LOD_MAX_INTERVAL}]`);
  });
}

/** Vertical extent of the skeleton's rest pose and the model origin (model space), metres; 1 if flat. */
function restHeight(skeleton: Skeleton): number {
  const model = new Float32Array(skeleton.jointCount * MATRIX_STRIDE);
  composeModel(model, 0, MATRIX_STRIDE, skeleton.rest, 0, skeleton.parents, 0, skeleton.jointCount);
  let lo = 0, hi = 0;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const y = model[j * MATRIX_STRIDE + MATRIX_T + 1];
    if (y < lo) lo = y;
    if (y > hi) hi = y;
  }
  return hi - lo > 1e-3 ? hi - lo : 1;
}
