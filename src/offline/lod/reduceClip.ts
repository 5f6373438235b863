/**
 * `reduceClip`: a clip's channels reduced to keys by ATKINS (Namco's Motion LOD) under a
 * bound on the model-space error, and `bakeLod`: one such clip per LOD level.
 *
 * The bound is on what shows: the distance every joint, and every point `distance` from a joint
 * along its axes, moves in model space — not on each channel alone, since channel errors add up
 * down the hierarchy — in continuous time: at every frame and at 4 instants inside every frame
 * interval (u = 0.2 … 0.8; `subdivisions`), the source played as the uniform sampler plays it
 * (lerp, nlerp between frames), the result as its own curves. Frames alone are not enough: a
 * cubic that meets every frame can swing between them (measured with the bound at frames only,
 * at 1 mm: the CMU walk 3.4 mm off between frames, RobotExpressive's Jump 49 mm, the CMU jumps
 * 173 mm).
 *
 * The shell (`distance`, default {@link defaultErrorDistance}: a tenth of the hip height) is what
 * bounds end joints: turning a hand or a toe moves no other joint, so with joint positions
 * alone their rotations are free (85° at a wrist, 179° at a thumb at 5 mm). On the shell a turn
 * of θ moves a point by ≈ 2·distance·sin(θ/2) (at least √(2/3) of that on one of the three axes).
 *
 * The search:
 * 1. Quaternions are made hemisphere-continuous frame to frame (q and −q are one rotation;
 *    fitting across a sign flip would swing through the other side).
 * 2. Each channel gets a tolerance from the model-space one: translation `μ·tol/depth`, where
 *    depth is the number of joints on the longest chain (errors of every joint above a point
 *    add up); rotation components `μ·tol/(depth·4·reach)` (a component error e turns the
 *    joint by at most ~4e radians, moving points `reach` away — the farthest descendant, plus
 *    `distance` — by 4e·reach); scale `μ·tol/(depth·reach)`.
 * 3. `reduceChannel` picks the fewest ATKINS keys meeting each channel tolerance, at the frames
 *    and at the same instants between them (against the straight line between frames).
 * 4. The reduction is packed (`createReducedTracks`), evaluated as the runtime samples it, and
 *    measured in model space (`createErrorMeter`, the source's poses computed once). μ, the share of the budget channels get,
 *    starts at 1 and is searched — doubled while the bound holds (the budgets above are
 *    worst cases: errors rarely line up), halved while it fails, then bisected — and the
 *    passing result with the fewest keys is returned.
 */
import { shownString } from '../../assets/limits.js';
import { AnimationError, IssueList } from '../../assets/AnimationError.js';
import type { Clip } from '../../assets/Clip.js';
import { createReducedClip, denseClip } from '../../assets/reducedClip.js';
import { reduceCurveValues } from '../../assets/sampleCurves.js';
import { createReducedTracks, type ReducedChannel } from '../../assets/ReducedTracks.js';
import { POSE_Q, POSE_S, POSE_STRIDE } from '../../math/layout.js';
import { createErrorMeter, defaultErrorDistance, jointReach, SUBDIVISIONS } from './modelError.js';
import { compressClip } from './compressClip.js';
import { reduceChannel, uniformDecimation } from './reduceChannel.js';
import type { SplineFit } from './spline.js';

/** Options of {@link reduceClip}. */
export interface ReduceClipOptions {
  /** Largest model-space position error allowed, in the clip's units (metres for well-made assets); > 0. */
  tolerance: number;
  /**
   * Measure error also at points this far from each joint along its axes, clip units ≥ 0, so
   * rotation error counts as it would on skin that far out and end joints cannot turn freely.
   * Default: {@link defaultErrorDistance} — a tenth of the hip height above the lowest joint
   * (about 9 cm on a person), or a tenth of the rest pose's extent without hips. ozz-animation
   * measures at 10 cm whatever the character; 0 measures joint positions only.
   */
  distance?: number;
  /**
   * Instants measured inside every frame interval besides the frames (default 4: u = 0.2, 0.4,
   * 0.6, 0.8), where the source plays as the uniform sampler interpolates it and the result
   * plays its curves; 0 holds the bound at the frames only. Integer ≥ 0.
   */
  subdivisions?: number;
  /** ATKINS's minimum key interval δ in frames (default: reduceChannel's). */
  minInterval?: number;
  /**
   * `'atkins'` (default) or `'uniform'`: keys every k frames per channel, k as large as the
   * channel tolerance allows — the baseline ATKINS is compared with.
   */
  method?: 'atkins' | 'uniform';
  /** The curve fit, as `reduceChannel`'s `fit`: `'segment'` (default) or `'continuous'` (each key's continuity). */
  fit?: SplineFit;
  /**
   * Store tracks in 16 bits where the rounding costs a channel at most a quarter of its share
   * of the tolerance (see `ReducedTracks`): about 0.6× the bytes of 32-bit curves on capture
   * (the CMU walk at 5 mm 5.7× smaller than its frames, against 3.3×), sampled as fast per
   * joint (docs/motion-lod.md); the bound is measured on the result as always. Default true;
   * false stores every track in 32 bits.
   */
  quantize?: boolean;
  /**
   * Largest error allowed on each float curve (`clip.curves`), in the curve's own units
   * (a morph weight: 1 is the whole target), finite and ≥ 0; default 1e-3. Curves are not
   * measured in model space: each is reduced on its own to the fewest keys (greedily) whose
   * straight lines stay within this of every frame value — and so of the source between
   * frames too, both being linear between frames and every key a frame. 0 keeps every frame
   * whose value is off the line through its neighbours.
   */
  curveTolerance?: number;
  /** Called as channels are reduced: `(done, total)` over all passes of the search. */
  onProgress?: (done: number, total: number) => void;
}

/** Share of a channel's tolerance its 16-bit rounding may take (`quantize`). */
const QUANTIZATION_SHARE = 0.25;
/** Default {@link ReduceClipOptions.curveTolerance}: a thousandth of a morph target. */
const DEFAULT_CURVE_TOLERANCE = 1e-3;
/** Passes of the μ search after the first that passes. */
const REFINE_PASSES = 3;
/** Halvings of μ before giving up on the bound. */
const MAX_HALVINGS = 10;
/** Doublings of μ while the bound still holds. */
const MAX_DOUBLINGS = 6;

/**
 * Reduces `clip` to keys so that no joint, nor any point `distance` from one, moves more than
 * `tolerance` in model space at any frame or between frames (see the module comment for how).
 * The result plays through the same API as any clip (it samples its cubic curves) and carries
 * `stats = { keysBefore, keysAfter, maxError, meanError, maxRotationError, tolerance, p99Error, shareWithin }`: keys are counted
 * per channel (`frameCount × jointCount × 10` before); `maxError` and `meanError` are the
 * model-space distances measured on the packed result at the frames and between them;
 * `maxRotationError` is the largest angle, degrees, between a joint's model-space rotation in
 * the source and in the result (any joint, end joints included, at the same instants).
 *
 * Offline work: allocates freely (the source's model poses at every measured instant, 16
 * doubles per joint); a 43-joint, 241-frame clip takes about 0.3 s, the 2,752-frame CMU
 * jumps 3–6 s.
 * @throws AnimationError for a clip that is not one, a clip of one frame (nothing to reduce),
 * a tolerance that is not a finite number > 0, a negative or non-finite distance, subdivisions
 * that are not an integer ≥ 0, an unknown method, a `curveTolerance` that is not a finite number ≥ 0.
 * @example
 * const lod1 = reduceClip(walk, { tolerance: 0.005 });
 * console.log(lod1.stats); // { keysBefore: 19200, keysAfter: 2113, maxError: 0.0049, maxRotationError: 1.6, … }
 */
export function reduceClip(clip: Clip, options: ReduceClipOptions): Clip {
  const where = 'reduceClip';
  const issues = new IssueList(where);
  if (typeof clip !== 'object' || clip === null || !(clip.frames instanceof Float32Array)) {
    issues.add('clip', 'must be a Clip from createClip');
    issues.throwIfAny();
  }
  const tolerance = options?.tolerance;
  const distance = options?.distance ?? defaultErrorDistance(clip.skeleton);
  const method = options?.method ?? 'atkins';
  const subdivisions = options?.subdivisions ?? SUBDIVISIONS;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance <= 0) issues.add('tolerance', `is ${shownString(tolerance)}: must be a finite number > 0 (metres)`);
  if (typeof distance !== 'number' || !Number.isFinite(distance) || distance < 0) issues.add('distance', `is ${shownString(distance)}: must be a finite number ≥ 0 (metres)`);
  if (!Number.isInteger(subdivisions) || subdivisions < 0) issues.add('subdivisions', `is ${shownString(subdivisions)}: must be an integer ≥ 0`);
  if (method !== 'atkins' && method !== 'uniform') issues.add('method', `is ${shownString(method)}: must be 'atkins' or 'uniform'`);
  if (options?.fit !== undefined && options.fit !== 'segment' && options.fit !== 'continuous') issues.add('fit', `is ${shownString(options.fit)}: must be 'segment' or 'continuous'`);
  const curveTolerance = options?.curveTolerance ?? DEFAULT_CURVE_TOLERANCE;
  if (typeof curveTolerance !== 'number' || !Number.isFinite(curveTolerance) || curveTolerance < 0) issues.add('curveTolerance', `is ${shownString(curveTolerance)}: must be a finite number ≥ 0 (curve units)`);
  if (clip.frameCount < 2) issues.add('clip', `"${clip.name}" has one frame: there is nothing to reduce`);
  issues.throwIfAny();
  clip = denseClip(clip); // a reduced clip stores no frames: reduce its curves at the frame times

  const channels = continuousChannels(clip);
  const budgets = channelBudgets(clip, distance);
  const keysBefore = clip.frameCount * clip.skeleton.jointCount * POSE_STRIDE;
  const total = channels.length;
  let done = 0;
  const progress = options.onProgress;

  const meter = createErrorMeter(clip, { distance, subdivisions });
  const attempt = (share: number): { clip: Clip; keys: number; maxError: number; meanError: number; maxRotationError: number } => {
    const reduced: ReducedChannel[] = [];
    let keys = 0;
    for (let c = 0; c < total; c++) {
      const channelTolerance = share * tolerance * budgets[c];
      const result = method === 'uniform'
        ? uniformDecimation(channels[c], clip.frameRate, channelTolerance, { subdivisions })
        : reduceChannel(channels[c], clip.frameRate, channelTolerance, {
          subdivisions,
          ...(options.minInterval === undefined ? {} : { minInterval: options.minInterval }),
          ...(options.fit === undefined ? {} : { fit: options.fit }),
        });
      keys += result.keys.length;
      const quantization = options.quantize === false ? 0 : QUANTIZATION_SHARE * channelTolerance;
      reduced.push({ keyTimes: Float64Array.from(result.keys, (f) => f / clip.frameRate), coefficients: result.coefficients, quantization });
      progress?.(++done, total);
    }
    const tracks = createReducedTracks(clip.skeleton.jointCount, clip.duration, reduced);
    const candidate = createReducedClip(clip, tracks, { keysBefore, keysAfter: keys, maxError: 0, meanError: 0 });
    const error = meter.measure(candidate);
    return { clip: candidate, keys, maxError: error.maxError, meanError: error.meanError, maxRotationError: error.maxRotationError };
  };

  // Bracket the largest passing share: from 1, halve while the bound fails, or double while
  // it holds (each doubling that holds with no more keys is the new best); then bisect.
  let share = 1;
  let best = attempt(share);
  let low: number, high: number;
  if (best.maxError <= tolerance) {
    low = share;
    high = share * 2;
    for (let step = 0; step < MAX_DOUBLINGS; step++, high *= 2) {
      const trial = attempt(high);
      if (trial.maxError > tolerance) break;
      low = high;
      if (trial.keys <= best.keys) best = trial;
    }
  } else {
    let halvings = 0;
    while (best.maxError > tolerance && halvings < MAX_HALVINGS) {
      share /= 2;
      halvings++;
      best = attempt(share);
    }
    if (best.maxError > tolerance) {
      throw new AnimationError(where, [{ path: 'tolerance', message: `${tolerance} could not be met on "${clip.name}" (best ${best.maxError.toExponential(2)})` }]);
    }
    low = share;
    high = share * 2;
  }
  for (let pass = 0; pass < REFINE_PASSES; pass++) {
    const middle = Math.sqrt(low * high);
    const trial = attempt(middle);
    if (trial.maxError <= tolerance) {
      low = middle;
      if (trial.keys <= best.keys) best = trial;
    } else high = middle;
  }
  const curves = clip.curves.map((c) => {
    const reduced = reduceCurveValues(c.values, curveTolerance);
    return Object.freeze({ name: c.name, values: reduced.values, keys: reduced.keys });
  });
  // The distribution of the kept reduction's error, as ACL reports it: p99, share within the tolerance.
  const spread = meter.measure(best.clip, tolerance);
  return createReducedClip(clip, best.clip.reduced!, {
    keysBefore, keysAfter: best.keys, maxError: best.maxError, meanError: best.meanError, maxRotationError: best.maxRotationError,
    tolerance, p99Error: spread.p99Error!, shareWithin: spread.shareWithin!,
  }, Object.freeze(curves));
}

/**
 * One reduced clip per tolerance, finest first (tolerances are sorted ascending), for LOD
 * levels: level 0 is the finest. By default (`format: 'keys'`) each level is
 * {@link reduceClip}'s ATKINS keys, with its options besides `tolerance`; with
 * `format: 'compressed'` each level is `compressClip`'s (every frame in few bits, the bound on
 * a `shell`, default 3 cm) — on captures the smaller and the cheaper to decode (docs/motion-lod.md).
 * @throws AnimationError for an empty or non-numeric tolerance list, an unknown format, with
 * `'compressed'` any option but `shell`, and as {@link reduceClip} or `compressClip`.
 * @example
 * const [near, middle, far] = bakeLod(walk, [0.001, 0.005, 0.01]);
 * const small = bakeLod(walk, [0.001, 0.005], { format: 'compressed' });
 */
export function bakeLod(
  clip: Clip,
  tolerances: readonly number[],
  options: (Omit<ReduceClipOptions, 'tolerance'> & { readonly format?: 'keys' }) | { readonly format: 'compressed'; readonly shell?: number } = {},
): Clip[] {
  if (!Array.isArray(tolerances) || tolerances.length === 0) {
    throw new AnimationError('bakeLod', [{ path: 'tolerances', message: 'must be a non-empty array of numbers > 0 (metres), one per level' }]);
  }
  const issues = new IssueList('bakeLod');
  tolerances.forEach((t, i) => {
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) issues.add(`tolerances[${i}]`, `is ${shownString(t)}: must be a finite number > 0 (metres)`);
  });
  const format = (options as { format?: unknown } | null)?.format ?? 'keys';
  if (format !== 'keys' && format !== 'compressed') issues.add('options.format', `is ${shownString(format)}: must be 'keys' or 'compressed'`);
  if (format === 'compressed') {
    for (const key of Object.keys(options)) if (key !== 'format' && key !== 'shell') issues.add(`options.${key}`, "is not an option of format 'compressed': known are format, shell");
  }
  issues.throwIfAny();
  const sorted = [...tolerances].sort((a, b) => a - b);
  if (format === 'compressed') {
    const shell = (options as { shell?: number }).shell;
    return sorted.map((tolerance) => compressClip(clip, shell === undefined ? { tolerance } : { tolerance, shell }));
  }
  const { format: _format, ...reduce } = options as Omit<ReduceClipOptions, 'tolerance'> & { format?: 'keys' };
  return sorted.map((tolerance) => reduceClip(clip, { ...reduce, tolerance }));
}

/**
 * The clip's channels as Float64 series (channel j·10 + c), quaternions flipped where needed
 * so consecutive frames lie in one hemisphere.
 */
function continuousChannels(clip: Clip): Float64Array[] {
  const { frames, frameCount } = clip;
  const jointCount = clip.skeleton.jointCount;
  const poseSize = jointCount * POSE_STRIDE;
  const channels: Float64Array[] = [];
  for (let c = 0; c < poseSize; c++) channels.push(new Float64Array(frameCount));
  for (let j = 0; j < jointCount; j++) {
    let sign = 1;
    for (let f = 0; f < frameCount; f++) {
      const o = f * poseSize + j * POSE_STRIDE;
      if (f > 0) {
        const p = o - poseSize;
        const dot = frames[o + POSE_Q] * frames[p + POSE_Q] + frames[o + POSE_Q + 1] * frames[p + POSE_Q + 1] + frames[o + POSE_Q + 2] * frames[p + POSE_Q + 2] + frames[o + POSE_Q + 3] * frames[p + POSE_Q + 3];
        if (dot < 0) sign = -sign;
      }
      for (let c = 0; c < POSE_STRIDE; c++) {
        const quaternion = c >= POSE_Q && c < POSE_Q + 4;
        channels[j * POSE_STRIDE + c][f] = quaternion ? sign * frames[o + c] : frames[o + c];
      }
    }
  }
  return channels;
}

/** Each channel's share of the model-space tolerance at μ = 1 (see the module comment). */
function channelBudgets(clip: Clip, distance: number): Float64Array {
  const skeleton = clip.skeleton;
  const reach = jointReach(skeleton, distance);
  let depth = 1;
  for (let j = 0; j < skeleton.jointCount; j++) {
    let d = 1;
    for (let a = skeleton.parents[j]; a >= 0; a = skeleton.parents[a]) d++;
    if (d > depth) depth = d;
  }
  const budgets = new Float64Array(skeleton.jointCount * POSE_STRIDE);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const lever = Math.max(reach[j], 1e-6);
    for (let c = 0; c < POSE_STRIDE; c++) {
      const share = c < POSE_Q ? 1 : c < POSE_S ? 1 / (4 * lever) : 1 / lever; // translation, rotation, scale
      budgets[j * POSE_STRIDE + c] = share / depth;
    }
  }
  return budgets;
}
