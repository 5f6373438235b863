/**
 * Reduction of one channel to a tolerance: the ATKINS threshold ε chosen per channel, and the
 * uniform-decimation baseline it is compared with.
 *
 * Namco's Motion LOD (§3) names the pain of threshold methods: one ε for
 * many motions, and when the result is not what was wanted, change it and re-check everything.
 * Here the artist gives a tolerance in the channel's own units instead, and ε is searched for
 * each channel: the fewest ATKINS keys whose reconstruction (`fitSpline`) stays within the
 * tolerance at every original frame.
 */
import { shownString } from '../../assets/limits.js';
import { fail } from '../../assets/AnimationError.js';
import {
  DEFAULT_DEGREE, DEFAULT_MIN_INTERVAL, checkDegree, prepareQuotients, selectKeysFrom, type SplineDegree,
} from './atkins.js';
import { mergeContinuousKeys } from './continuousFit.js';
import { fitSpline, measureSplineError, type SplineFit } from './spline.js';

/** Options of {@link reduceChannel}. */
export interface ReduceChannelOptions {
  /** δ, frames (integer ≥ 1, default 2), as in `selectKeys`. */
  readonly minInterval?: number;
  /** m: ATKINS order and spline degree (1, 2 or 3, default 3). */
  readonly degree?: SplineDegree;
  /** Bisection steps on log ε after the grid scan (default 20). */
  readonly iterations?: number;
  /**
   * After the ATKINS keys are chosen, drop every key whose two neighbours' cubic still fits
   * within the tolerance (a greedy left-to-right merge; default true). See {@link mergeKeys}.
   */
  readonly merge?: boolean;
  /**
   * The reconstruction the keys are chosen for and fitted with: `'segment'` (default), each
   * segment alone, or `'continuous'`, one spline joined at each key with its ATKINS order's
   * continuity (see `fitSpline`). The key search and the merge pass measure the same fit.
   */
  readonly fit?: SplineFit;
  /**
   * Also hold the tolerance at this many instants inside every frame interval, against the
   * straight line between the two frames (the channel as the uniform sampler plays it; default
   * 0: at the frames only). See `measureSplineError`.
   */
  readonly subdivisions?: number;
}

/** A reduced channel. */
export interface ChannelReduction {
  /** Key frame indices, strictly ascending, first and last frame included. */
  readonly keys: Uint32Array;
  /** `fitSpline(values, frameRate, keys)`: 4 floats per segment, a b c d, u in seconds. */
  readonly coefficients: Float64Array;
  /** Largest |reconstruction − value| over every original frame, channel units; ≤ tolerance. */
  readonly maxError: number;
  /**
   * The ATKINS ε that chose the keys (dimensionless, see `selectKeys`); 0 when every frame
   * was kept because no ε met the tolerance.
   */
  readonly epsilon: number;
  /**
   * Each key's ATKINS order (as `selectKeysWithOrders`: m for a C^{m−1} key, …, 1 for C⁰, 0 at
   * the ends; 0 for every key of the every-frame fallback, read as C⁰): the continuity the
   * `'continuous'` fit gives it.
   */
  readonly orders: Uint8Array;
}

/** The uniform baseline: keys every `step` frames plus the last. */
export interface UniformReduction {
  /** Key frame indices: 0, step, 2·step, …, and the last frame. */
  readonly keys: Uint32Array;
  /** `fitSpline(values, frameRate, keys)`: 4 floats per segment, a b c d, u in seconds. */
  readonly coefficients: Float64Array;
  /** Largest |reconstruction − value| over every original frame, channel units. */
  readonly maxError: number;
  /** Key spacing, frames (≥ 1). */
  readonly step: number;
}

/** Log-ε grid points per decade of the scan before bisection. */
const GRID_PER_DECADE = 2;
/** The scan covers this many decades below the ε at which only the end keys remain. */
const GRID_DECADES = 12;

/**
 * The fewest ATKINS keys of one channel whose reconstruction stays within `tolerance`.
 *
 * - `values`: the channel, one finite value per frame; `frameRate` frames per second (> 0).
 * - `tolerance`: largest allowed |reconstruction − value| at any original frame (and, with
 *   `options.subdivisions`, at that many instants between frames against the line between
 *   them), in the channel's units (≥ 0).
 *
 * Search: ε from the ceiling at which only the two end keys remain down 12 decades, two grid
 * points per decade, then `iterations` bisection steps on log ε between the largest ε that met
 * the tolerance and the grid point above it. Neither the key count nor the error is exactly
 * monotone in ε (the selection is sequential), so the result is the fewest keys among every ε
 * tried that met the tolerance (ties: smaller error). If none did, every frame is a key
 * (error 0 up to rounding) and `epsilon` is 0. About 45 ATKINS runs and fits, each O(n).
 * Throws an `AnimationError` for non-finite values or bad arguments.
 *
 * @example
 * const { keys, coefficients, maxError } = reduceChannel(rotationChannel, 60, 0.002);
 */
export function reduceChannel(
  values: Float64Array, frameRate: number, tolerance: number, options: ReduceChannelOptions = {},
): ChannelReduction {
  const where = 'reduceChannel';
  const degree = options.degree ?? DEFAULT_DEGREE;
  const minInterval = options.minInterval ?? DEFAULT_MIN_INTERVAL;
  const iterations = options.iterations ?? 20;
  const fit = options.fit ?? 'segment';
  const subdivisions = options.subdivisions ?? 0;
  checkArguments(where, frameRate, tolerance, degree);
  checkSubdivisions(where, subdivisions);
  if (fit !== 'segment' && fit !== 'continuous') fail(where, 'fit', `is ${shownString(fit)}, must be 'segment' or 'continuous'`);
  if (!(Number.isInteger(iterations) && iterations >= 0)) fail(where, 'iterations', `is ${iterations}, must be an integer ≥ 0`);
  const prepared = prepareQuotients(values, degree, undefined, where);
  const n = values.length;
  if (n <= 2) return everyFrame(values, frameRate, degree, subdivisions);

  let best: ChannelReduction | undefined;
  const tryEpsilon = (epsilon: number): boolean => {
    const { keys, orders } = selectKeysFrom(prepared, epsilon, minInterval, where);
    const coefficients = fitSpline(values, frameRate, keys, { degree, fit, orders });
    const maxError = measureSplineError(values, frameRate, keys, coefficients, subdivisions, tolerance);
    if (!(maxError <= tolerance)) return false;
    if (best === undefined || keys.length < best.keys.length
      || (keys.length === best.keys.length && maxError < best.maxError)) {
      best = { keys, coefficients, maxError, epsilon, orders };
    }
    return true;
  };

  // A constant channel: the ceiling is 0 and the two end keys reproduce it.
  const ceiling = prepared.epsilonCeiling;
  if (tryEpsilon(ceiling)) return best!;
  // Grid from the ceiling down; remember the largest ε that met the tolerance.
  const top = Math.log10(ceiling);
  let feasible = Number.NaN, above = top;
  for (let g = 1; g <= GRID_DECADES * GRID_PER_DECADE; g++) {
    const exponent = top - g / GRID_PER_DECADE;
    if (tryEpsilon(10 ** exponent)) {
      feasible = exponent;
      break;
    }
    above = exponent;
  }
  if (Number.isNaN(feasible)) return merged(best ?? everyFrame(values, frameRate, degree, subdivisions));
  // Bisection on log ε between the feasible grid point and the infeasible one above it.
  let lo = feasible, hi = above;
  for (let it = 0; it < iterations; it++) {
    const mid = (lo + hi) / 2;
    if (tryEpsilon(10 ** mid)) lo = mid;
    else hi = mid;
  }
  return merged(best!);

  function merged(reduction: ChannelReduction): ChannelReduction {
    if (options.merge === false) return reduction;
    if (fit === 'continuous' && degree !== 1) {
      // The continuous merge checks its segments at the frames; between them the whole result
      // is measured here, and the unmerged keys kept when it does not hold.
      const merged = mergeContinuous(values, frameRate, reduction, tolerance, degree);
      if (merged === reduction || subdivisions === 0) return merged;
      const error = measureSplineError(values, frameRate, merged.keys, merged.coefficients, subdivisions);
      return error <= tolerance ? { ...merged, maxError: error } : reduction;
    }
    const keys = mergeKeys(values, frameRate, reduction.keys, tolerance, degree, subdivisions);
    if (keys.length === reduction.keys.length) return reduction;
    const coefficients = fitSpline(values, frameRate, keys, { degree });
    return {
      keys, coefficients, maxError: measureSplineError(values, frameRate, keys, coefficients, subdivisions), epsilon: reduction.epsilon,
      orders: keepOrders(reduction, keys),
    };
  }
}

/**
 * Drops keys the tolerance does not need: walking left to right, a key is dropped when one
 * cubic from the last kept key to the key after it (fitted as `fitSpline` fits a segment:
 * through both end values, least squares in between) stays within `tolerance` on every frame
 * of that span (and, with `subdivisions`, between its frames, as `measureSplineError`). Segments
 * are fitted independently, so dropping a key changes no other segment.
 *
 * Why: Namco's rule keys a channel where its third difference quotient changes by more than
 * ε — right for the joins of a piecewise cubic, but one ε for a whole channel over-keys its
 * gentle stretches when the tolerance is set by its steep ones (measured on steady sums of
 * sines: ~1.5× the keys of uniform decimation). ATKINS keeps the continuity breaks; this pass
 * removes the keys between them that the tolerance does not need.
 */
export function mergeKeys(
  values: Float64Array, frameRate: number, keys: Uint32Array, tolerance: number, degree: SplineDegree = DEFAULT_DEGREE, subdivisions = 0,
): Uint32Array {
  if (keys.length <= 2) return keys;
  const kept: number[] = [keys[0]];
  const span = new Uint32Array(2);
  for (let k = 1; k < keys.length - 1; k++) {
    const start = kept[kept.length - 1], end = keys[k + 1];
    const part = values.subarray(start, end + 1);
    span[1] = end - start;
    const coefficients = fitSpline(part, frameRate, span, { degree });
    if (measureSplineError(part, frameRate, span, coefficients, subdivisions, tolerance) <= tolerance) continue; // keys[k] not needed
    kept.push(keys[k]);
  }
  kept.push(keys[keys.length - 1]);
  return Uint32Array.from(kept);
}

/**
 * The merge pass for the `'continuous'` fit (degree 2 or 3): as {@link mergeKeys}, left to
 * right, a key is dropped when the whole channel refitted without it (the other keys keep their
 * orders) stays within `tolerance` — the continuous fit couples segments, so the check is the
 * channel's (`mergeContinuousKeys`: each check solves the keys up to the nearest C⁰ keys or 8
 * keys either side, and the kept keys' global fit is checked at the end).
 */
function mergeContinuous(
  values: Float64Array, frameRate: number, reduction: ChannelReduction, tolerance: number, degree: 2 | 3,
): ChannelReduction {
  const { keys, orders } = mergeContinuousKeys(values, frameRate, reduction.keys, reduction.orders, degree, tolerance);
  if (keys.length === reduction.keys.length) return reduction;
  const coefficients = fitSpline(values, frameRate, keys, { degree, fit: 'continuous', orders });
  const maxError = measureSplineError(values, frameRate, keys, coefficients);
  // The pass bounds every segment's error; rounding aside this holds. Keep the bound regardless.
  if (!(maxError <= tolerance)) return reduction;
  return { keys, coefficients, maxError, epsilon: reduction.epsilon, orders };
}

/** The orders of `reduction`'s keys that are among `keys` (a subset of them). */
function keepOrders(reduction: ChannelReduction, keys: Uint32Array): Uint8Array {
  const orders = new Uint8Array(keys.length);
  for (let k = 0, r = 0; k < keys.length; k++) {
    while (reduction.keys[r] !== keys[k]) r++;
    orders[k] = reduction.orders[r];
  }
  return orders;
}

/**
 * The uniform baseline for {@link reduceChannel}: keys every `step` frames plus the last, the
 * same reconstruction (`fitSpline`), with the largest step whose error at every original frame
 * stays within `tolerance` (steps tried from n − 1 down, so the error need not be monotone in
 * the step); `subdivisions` holds it between frames too, as in {@link reduceChannel}. Step 1
 * keeps every frame. A step is rejected at its first segment over the tolerance (segments are
 * fitted independently), so most steps cost little, but a tight tolerance still takes up to
 * O(n²); a measuring tool, not a reducer.
 */
export function uniformDecimation(
  values: Float64Array, frameRate: number, tolerance: number, options: { readonly degree?: SplineDegree; readonly subdivisions?: number } = {},
): UniformReduction {
  const where = 'uniformDecimation';
  const degree = options.degree ?? DEFAULT_DEGREE;
  const subdivisions = options.subdivisions ?? 0;
  checkArguments(where, frameRate, tolerance, degree);
  checkSubdivisions(where, subdivisions);
  prepareQuotients(values, 1, undefined, where); // validates the values
  const n = values.length;
  if (n <= 2) return { ...everyFrame(values, frameRate, degree, subdivisions), step: 1 };
  const span = new Uint32Array(2);
  for (let step = n - 1; step >= 1; step--) {
    // Segments fit independently: reject a step at its first segment over the tolerance (most
    // steps fail early), fit the whole channel only for the step that passes.
    let fits = true;
    for (let start = 0; start < n - 1 && fits && step > 1; start += step) {
      const end = Math.min(start + step, n - 1);
      const part = values.subarray(start, end + 1);
      span[1] = end - start;
      fits = measureSplineError(part, frameRate, span, fitSpline(part, frameRate, span, { degree }), subdivisions, tolerance) <= tolerance;
    }
    if (!fits) continue;
    const keys = uniformKeys(n, step);
    const coefficients = fitSpline(values, frameRate, keys, { degree });
    const maxError = measureSplineError(values, frameRate, keys, coefficients, subdivisions);
    if (maxError <= tolerance || step === 1) return { keys, coefficients, maxError, step };
  }
  throw new Error('unreachable');
}

/** Frames 0, step, 2·step, … and n − 1. */
export function uniformKeys(n: number, step: number): Uint32Array {
  const count = Math.ceil((n - 1) / step) + 1;
  const keys = new Uint32Array(count);
  for (let k = 0; k < count - 1; k++) keys[k] = k * step;
  keys[count - 1] = n - 1;
  return keys;
}

/** Every frame a key (the fallback that always meets the tolerance). */
function everyFrame(values: Float64Array, frameRate: number, degree: SplineDegree, subdivisions: number): ChannelReduction {
  const n = values.length;
  const keys = new Uint32Array(n);
  for (let f = 0; f < n; f++) keys[f] = f;
  const coefficients = fitSpline(values, frameRate, keys, { degree });
  return { keys, coefficients, maxError: measureSplineError(values, frameRate, keys, coefficients, subdivisions), epsilon: 0, orders: new Uint8Array(n) };
}

function checkSubdivisions(where: string, subdivisions: number): void {
  if (!(Number.isInteger(subdivisions) && subdivisions >= 0)) fail(where, 'subdivisions', `is ${subdivisions}, must be an integer ≥ 0`);
}

function checkArguments(where: string, frameRate: number, tolerance: number, degree: number): void {
  if (!(frameRate > 0 && Number.isFinite(frameRate))) fail(where, 'frameRate', `is ${frameRate}, must be finite and > 0`);
  if (!(tolerance >= 0 && Number.isFinite(tolerance))) fail(where, 'tolerance', `is ${tolerance}, must be finite and ≥ 0`);
  checkDegree(where, degree);
}
