/**
 * glTF keys → uniform clip frames at a rate that keeps the keys (the **Clips** paragraph of
 * `../gltf.ts`): find the keys' grid, sample the source at each frame, and measure how far the
 * frames — interpolated as the runtime does, lerp and nlerp between frames — put any joint in
 * model space from where the file's own interpolation (LINEAR with slerp, STEP, CUBICSPLINE)
 * puts it. The rate search picks the lowest rate within a tolerance (default {@link IMPORT_TOLERANCE}).
 */
import { createClip, type Clip } from '../../assets/Clip.js';
import { sampleClipInto } from '../../assets/sampleClip.js';
import { composeModel } from '../../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_Q, POSE_STRIDE } from '../../math/layout.js';
import * as quat from '../../math/quat.js';
import { sampleTrack, type Track } from './sampler.js';
import type { Rig } from './skeletons.js';
import { composeInto } from './transform.js';

/** Largest model-space joint position error the rate search accepts by default: 0.1 mm, metres. */
export const IMPORT_TOLERANCE = 1e-4;

/** Highest key grid looked for, and highest rate the search tries, Hz. */
export const MAX_IMPORT_RATE = 1000;

/**
 * The search raises the rate only while the clip stays under this many floats (16 MB): a long
 * clip that is off at its first rate keeps that rate, with a warning, rather than growing huge.
 */
const SEARCH_FLOATS = 1 << 22;

/** Rate used when a clip has no key grid and the search starts blind, Hz (the former default). */
const BLIND_START_RATE = 30;

/** A higher rate that leaves more than this share of the error stops the search (STEP keys). */
const STALL_RATIO = 0.9;

/**
 * A key lies on a grid when within 2⁻²¹·max(t, 1/64) seconds of it: 8 to 16 half-ulps of a
 * float32 time (glTF key times are float32), so k/24 computed in any precision passes, while a
 * time off the grid rarely does (a looser bound would fit any single time to some r ≤ 1000).
 */
const GRID_TOLERANCE = 2 ** -21;

/** Points measured inside each interval between consecutive frame or key instants. */
const INTERIOR_POINTS = [0.25, 0.5, 0.75];

/** One animated channel bound to a joint. */
export interface BoundTrack {
  readonly joint: number;
  /** 0 translation, 3 rotation, 7 scale. */
  readonly offset: number;
  readonly track: Track;
}

/** What one animation gives to sample: its rig, channels, length and key instants. */
export interface ClipSource {
  readonly rig: Rig;
  readonly bound: readonly BoundTrack[];
  /** D, the last key time of every channel, seconds. */
  readonly duration: number;
  /** Sorted distinct key times of the bound channels, seconds. */
  readonly keyTimes: Float64Array;
  /** Metres per file unit. */
  readonly scale: number;
  /** Largest error accepted, metres. */
  readonly tolerance: number;
}

/** Frames at one rate, with the joints whose shear was dropped. */
export interface Sampled {
  /** Frames per second of the clip. */
  readonly rate: number;
  /** `frameCount × jointCount × 10` (a value beyond the float32 range is ±Infinity: the caller checks). */
  readonly frames: Float32Array;
  readonly frameCount: number;
  readonly sheared: ReadonlySet<number>;
}

/**
 * Key times written as rounded decimals (0.0417 for 1/24, or 0.0416666 with six or seven
 * digits) sit within 5·10⁻⁵ s of their grid: half a unit of a fourth decimal. The near-grid
 * test accepts that much, and never more than 1 % of a frame period (so a key is never taken
 * for its neighbour at high rates).
 */
const DECIMAL_TOLERANCE = 5e-5;
const NEAR_GRID_SHARE = 0.01;

/**
 * The near-grid test asks for this many keys past the first: with each key in a window of at
 * most 2 % of a period, a chance fit of 4 keys to some rate ≤ 1000 is ≲ 10⁻³, while a
 * 3-key time list off any grid (0, 0.3137, 1) would often fit one.
 */
const NEAR_GRID_KEYS = 4;

/**
 * The smallest whole rate r ≤ {@link MAX_IMPORT_RATE} (Hz) with every key time on a multiple of
 * 1/r (within {@link GRID_TOLERANCE}), or 0 when there is none. 24 for keys at k/24. Failing
 * that, when there are at least {@link NEAR_GRID_KEYS} + 1 keys, the smallest rate with every
 * key within min(5·10⁻⁵ s, 1 % of 1/r) of a multiple of 1/r: exporters that write key times as
 * rounded decimals (0.0417, 0.0833, …) or start a clip at its first frame's time give their own
 * rate, not the blind search's.
 */
export function findKeyGrid(keyTimes: Float64Array): number {
  const exact = gridWithin(keyTimes, 0);
  if (exact > 0 || keyTimes.length < NEAR_GRID_KEYS + 1) return exact;
  return gridWithin(keyTimes, DECIMAL_TOLERANCE);
}

/**
 * `source` with every key time moved onto the grid of `rate` (round(t·r)/r; by at most
 * 5·10⁻⁵ s when the grid was found near, see {@link findKeyGrid}): the instants the exporter
 * meant before it rounded them. The tracks are copied (the file's decoded tracks are shared
 * between animations); the frames and the import error are then those of the keys on the grid.
 */
export function snapSourceToGrid(source: ClipSource, rate: number): ClipSource {
  const snap = (t: number): number => Math.round(t * rate) / rate;
  const copies = new Map<Track, Track>();
  const bound = source.bound.map((b) => {
    let track = copies.get(b.track);
    if (!track) {
      track = { ...b.track, times: b.track.times.map(snap) };
      copies.set(b.track, track);
    }
    return { ...b, track };
  });
  const keyTimes = Float64Array.from(new Set(source.keyTimes.map(snap)));
  return { ...source, bound, keyTimes, duration: snap(source.duration) };
}

/** The smallest r ≤ {@link MAX_IMPORT_RATE} with every key within max(float32 bound, min(`decimal`, 1 %/r)) of k/r, or 0. */
function gridWithin(keyTimes: Float64Array, decimal: number): number {
  search: for (let r = 1; r <= MAX_IMPORT_RATE; r++) {
    const near = Math.min(decimal, NEAR_GRID_SHARE / r);
    for (let k = 0; k < keyTimes.length; k++) {
      const t = keyTimes[k];
      if (Math.abs(t - Math.round(t * r) / r) > Math.max(GRID_TOLERANCE * Math.max(t, 1 / 64), near)) continue search;
    }
    return r;
  }
  return 0;
}

/**
 * The source's local pose at `t` into `pose` (J×10, float64): rest where nothing animates, the
 * channels sampled by the file's interpolation, non-joint ancestors composed in, translations
 * in metres. Adds to `sheared` the joints whose shear was dropped.
 */
export function sampleSource(source: ClipSource, t: number, pose: Float64Array, scratch: Float64Array, sheared: Set<number>): void {
  const { rig, bound, scale } = source;
  pose.set(rig.nodePose);
  for (const b of bound) sampleTrack(b.track, t, pose, b.joint * POSE_STRIDE + b.offset);
  for (let j = 0; j < rig.skeleton.jointCount; j++) {
    const o = j * POSE_STRIDE;
    const prefix = rig.prefix[j];
    if (prefix) {
      quat.normalize(pose, o + POSE_Q, pose, o + POSE_Q);
      if (!composeInto(pose, o, prefix, pose, o, scratch)) sheared.add(j);
    }
    // File units → metres (a composed translation too: prefix and node both scale by s).
    for (let i = 0; i < 3; i++) pose[o + i] *= scale;
  }
}

/**
 * Samples the source at `intervals + 1` frames over [0, D]: frame f at f/`gridRate` when the
 * rate is a key grid (the last frame at D), else at f·D/intervals (rate intervals/D, D kept).
 */
export function sampleFrames(source: ClipSource, intervals: number, gridRate: number): Sampled {
  const jointCount = source.rig.skeleton.jointCount;
  const frameCount = intervals + 1;
  const size = jointCount * POSE_STRIDE;
  const frames = new Float32Array(frameCount * size);
  const pose = new Float64Array(size);
  const scratch = new Float64Array(MATRIX_STRIDE);
  const sheared = new Set<number>();
  const D = source.duration;
  for (let f = 0; f < frameCount; f++) {
    const t = intervals === 0 ? 0 : f === intervals ? D : gridRate > 0 ? f / gridRate : (f * D) / intervals;
    sampleSource(source, t, pose, scratch, sheared);
    frames.set(pose, f * size);
  }
  const rate = gridRate > 0 ? gridRate : intervals > 0 ? intervals / D : BLIND_START_RATE;
  return { rate, frames, frameCount, sheared };
}

/**
 * Largest distance, metres, between a joint's model-space position on `clip` (sampled as the
 * runtime samples it, `sampleClipInto`) and on the source, over every key instant and
 * {@link INTERIOR_POINTS} of each interval between consecutive frame or key instants. (At a
 * frame instant the two differ only by the float32 rounding of the frame.)
 */
export function measureImportError(source: ClipSource, clip: Clip): number {
  const jointCount = clip.skeleton.jointCount;
  const parents = clip.skeleton.parents;
  const instants: number[] = [];
  for (let f = 0; f < clip.frameCount; f++) instants.push(f / clip.frameRate);
  for (const t of source.keyTimes) if (t <= clip.duration) instants.push(t);
  instants.sort((a, b) => a - b);
  const times: number[] = [...source.keyTimes];
  for (let i = 0; i < instants.length; i++) {
    const a = instants[i];
    const b = instants[i + 1];
    if (b === undefined || b - a < 1e-9) continue;
    for (const s of INTERIOR_POINTS) times.push(a + s * (b - a));
  }

  const size = jointCount * POSE_STRIDE;
  const sourcePose = new Float64Array(size), clipPose32 = new Float32Array(size), clipPose = new Float64Array(size);
  const sourceModel = new Float64Array(jointCount * MATRIX_STRIDE), clipModel = new Float64Array(jointCount * MATRIX_STRIDE);
  const scratch = new Float64Array(MATRIX_STRIDE);
  const time = new Float64Array(1);
  const ignored = new Set<number>();
  let worst = 0;
  for (const t of times) {
    sampleSource(source, t, sourcePose, scratch, ignored);
    time[0] = t;
    sampleClipInto(clipPose32, 0, clip, time, 0);
    clipPose.set(clipPose32);
    composeModel(sourceModel, 0, MATRIX_STRIDE, sourcePose, 0, parents, 0, jointCount);
    composeModel(clipModel, 0, MATRIX_STRIDE, clipPose, 0, parents, 0, jointCount);
    for (let j = 0; j < jointCount; j++) {
      const m = j * MATRIX_STRIDE + MATRIX_T;
      const dx = clipModel[m] - sourceModel[m], dy = clipModel[m + 1] - sourceModel[m + 1], dz = clipModel[m + 2] - sourceModel[m + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > worst) worst = d2;
    }
  }
  return Math.sqrt(worst);
}

/** A clip chosen for one animation: frames, the rate, the error measured. */
export interface Resampled extends Sampled {
  readonly clip: Clip;
  /** Metres, see {@link measureImportError}. */
  readonly importError: number;
  /** The key grid found (Hz), or 0. */
  readonly grid: number;
  /** Rates tried, in order, with their errors (metres). */
  readonly tried: readonly { rate: number; error: number }[];
  /**
   * Why the search stopped above the tolerance: `'cap'` (next rate above
   * {@link MAX_IMPORT_RATE}), `'stall'` (a higher rate was not better: STEP keys), `'size'`
   * (the next rate's clip would pass {@link SEARCH_FLOATS}); null within the bound or forced.
   */
  readonly stop: 'cap' | 'stall' | 'size' | null;
}

/**
 * Frames for `source`: at `frameRate` when given (round(D × frameRate) intervals, rate
 * intervals/D); otherwise the lowest rate within `source.tolerance` among the key grid
 * g (or, without one, {@link BLIND_START_RATE}) and its multiples 2g, 3g, 4g, 6g, 8g, 12g, …
 * (so every key stays a frame) up to {@link MAX_IMPORT_RATE}, skipping the rates that the
 * error's rate of decrease so far says are not enough. The search stops early, keeping
 * the cheaper rate, when a higher rate no longer shrinks the error (STEP keys: a jump between
 * two frames stays a jump at any rate), and before a clip of more than {@link SEARCH_FLOATS}.
 * `build` turns frames into a clip (it may throw); `fits` says whether `frameCount` frames are
 * within the clip size limit. Null when even the first rate does not fit.
 */
export function resample(
  source: ClipSource, frameRate: number | null, build: (sampled: Sampled) => Clip, fits: (frameCount: number) => boolean,
): Resampled | null {
  let D = source.duration;
  const at = (intervals: number, grid: number): Resampled | null => {
    if (!fits(intervals + 1)) return null;
    const sampled = sampleFrames(source, intervals, grid);
    const clip = build(sampled);
    const importError = measureImportError(source, clip);
    // The measured clip with its figure: the frames already validated, not copied again.
    const measured: Clip = Object.freeze({ ...clip, importError });
    return { ...sampled, clip: measured, importError, grid, tried: [{ rate: sampled.rate, error: importError }], stop: null };
  };
  if (D <= 0) return at(0, 0); // one key time: a constant pose
  if (frameRate !== null) return at(Math.max(1, Math.round(D * frameRate)), 0);
  const grid = findKeyGrid(source.keyTimes);
  if (grid > 0 && gridWithin(source.keyTimes, 0) !== grid) {
    source = snapSourceToGrid(source, grid);
    D = source.duration;
  }
  const base = grid || BLIND_START_RATE;
  // Multiples 1, 2, 3, 4, 6, 8, 12, 16, … of the base.
  const rateAt = (i: number): number => base * (i === 0 ? 1 : i % 2 === 1 ? 2 ** ((i + 1) / 2) : 3 * 2 ** (i / 2 - 1));
  const tried: { rate: number; error: number }[] = [];
  let best: Resampled | null = null;
  let stop: Resampled['stop'] = null;
  for (let i = 0; ;) {
    const rate = rateAt(i);
    const intervals = Math.max(1, Math.round(D * rate));
    if (best && rate > Math.max(MAX_IMPORT_RATE, base)) stop = 'cap';
    else if (best && (intervals + 1) * source.rig.skeleton.jointCount * POSE_STRIDE > SEARCH_FLOATS) stop = 'size';
    if (stop) break;
    const candidate = at(intervals, grid ? rate : 0);
    if (!candidate) break; // only the first: later rates stop at SEARCH_FLOATS
    tried.push({ rate, error: candidate.importError });
    if (best && candidate.importError > STALL_RATIO * best.importError) {
      stop = 'stall';
      break;
    }
    const previous = best;
    best = candidate;
    if (candidate.importError <= source.tolerance) break;
    // Next: the lowest rate of the ladder that the error's order so far (e ∝ rate^−p, p from
    // the last two rates: 3 for nlerp against slerp, 1 at a kink off the grid) puts within the
    // tolerance; without two rates yet, the next one.
    let next = i + 1;
    if (previous) {
      const p = Math.min(4, Math.max(1, Math.log(previous.importError / candidate.importError) / Math.log(rate / tried.at(-2)!.rate)));
      while (rateAt(next) <= MAX_IMPORT_RATE && candidate.importError * (rate / rateAt(next)) ** p > source.tolerance) next++;
      // The model is a guess: before giving up, measure the highest rate of the ladder within
      // the cap, so "no rate up to 1000 fps gets within it" is a measured claim.
      if (rateAt(next) > MAX_IMPORT_RATE && next - 1 > i) next--;
    }
    i = next;
  }
  return best && { ...best, grid, tried, stop };
}
