/**
 * measureFootSkate — how far planted feet slide: the horizontal path each foot covers in model
 * space during each of its contacts.
 *
 * Per contact [s, e] of foot k (frame times; a looping clip's contact over the seam runs from
 * s to the end and on from 0 to e), the skate is Σ_i |(x_k(i+1) − x_k(i), z_k(i+1) − z_k(i))|
 * over the intervals i from frame s to frame e: the length of the foot's horizontal path, in
 * the clip's units (metres for a well-made asset). Model space is `composeModel` of each frame,
 * so a clip's root travel counts: a clip with travel whose planted feet stand still measures
 * ≈ 0, an in-place clip measures the ground's slide under the body (give it its travel with
 * `rootMotionFromFeet` first). Height is left out: a heel rolling up is not a skate.
 */
import { shownString } from '../assets/limits.js';
import { fail } from '../assets/AnimationError.js';
import { isClip, type Clip } from '../assets/Clip.js';
import { checkClip, type FootContacts } from './footContacts.js';
import { footPositions } from './footPaths.js';

/** What `measureFootSkate` returns: distances in the clip's units (metres). */
export interface FootSkate {
  /** Mean horizontal path per contact, over every contact of every foot (0 with none). */
  readonly mean: number;
  /** The largest horizontal path of one contact (0 with none). */
  readonly max: number;
  /** How many contacts were measured. */
  readonly contacts: number;
  /** The same figures per foot, in the order of `contacts`. */
  readonly feet: readonly {
    /** The foot's joint index in the clip's skeleton. */
    readonly joint: number;
    /** Mean skate per contact of this foot (0 with no contact), clip units. */
    readonly mean: number;
    /** Largest skate of one of its contacts (0 with no contact), clip units. */
    readonly max: number;
    /** Its contacts. */
    readonly contacts: number;
    /** The skate of each of its contacts, in the order of its intervals. */
    readonly distances: readonly number[];
  }[];
}

/**
 * Foot positions sampled once per frame, for the world-space form of `measureFootSkate`:
 * what a game or a test records from `getJointWorldMatrix` while characters play.
 */
export interface FootPaths {
  /** Samples per second, > 0: sample n is at n / frameRate seconds. */
  readonly frameRate: number;
  /**
   * Per foot, in the order of the contacts, its positions `x y z` per sample (3 × samples
   * numbers, world space, metres); at least two samples.
   */
  readonly positions: readonly ArrayLike<number>[];
}

const WHERE = 'measureFootSkate';
/** Numbers per sample of a `FootPaths` position list: x y z. */
const SAMPLE = 3;
/** How far (in frames) an interval's edge may lie from a frame time. */
const FRAME_SLACK = 1e-3;

/**
 * Measures the foot skate of `clip` over `contacts` (see the module comment): per contact, the
 * horizontal distance the foot travels in model space, and their mean, max and count.
 * `contacts` is what {@link detectFootContacts} returns (the whole result or its `contacts`),
 * or intervals made by hand in the same form, on the same clip or one with the same skeleton
 * and timing (the clip after `rootMotionFromFeet`, say).
 *
 * @example
 * const feet = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
 * const walk = rootMotionFromFeet(foxWalk, { feet });
 * const skate = measureFootSkate(walk, detectFootContacts(walk, { feet }));
 * // skate.mean: metres a paw slides per contact
 * @throws AnimationError when `clip` is not a clip, is a difference or reduced clip or has
 * fewer than two frames; when `contacts` is not an array of `{ joint, intervals }` (or an object
 * holding one as `contacts`); when a joint is not an index of the clip's skeleton; when an
 * interval is not a pair of frame times within [0, duration] (start ≤ end unless the clip loops).
 */
export function measureFootSkate(clip: Clip, contacts: FootContacts | FootContacts['contacts']): FootSkate;
/**
 * The world-space form: the skate of feet whose positions were sampled per frame (`paths`, see
 * {@link FootPaths}) — a character played, moved and foot-locked at runtime — over `contacts`
 * (foot k of `contacts` is `paths.positions[k]`; its `joint` is only reported back). Per
 * contact [s, e] (seconds at sample times, s ≤ e), Σ |(Δx, Δz)| over the samples s … e.
 *
 * @example
 * const skate = measureFootSkate({ frameRate: 60, positions: [left, right] }, contacts);
 * @throws AnimationError when `frameRate` is not a finite number > 0, `positions` is not one
 * list of at least two finite samples (3 numbers each) per contact entry, or an interval is not
 * a pair of sample times within the samples with start ≤ end.
 */
export function measureFootSkate(paths: FootPaths, contacts: FootContacts | FootContacts['contacts']): FootSkate;
export function measureFootSkate(source: Clip | FootPaths, contacts: FootContacts | FootContacts['contacts']): FootSkate {
  if (!isClip(source) && typeof source === 'object' && source !== null && 'positions' in source) return measurePaths(source, contacts);
  const clip = source as Clip;
  checkClip(WHERE, clip);
  const list: unknown = Array.isArray(contacts) ? contacts : (contacts as FootContacts | null)?.contacts;
  if (!Array.isArray(list)) fail(WHERE, 'contacts', `is ${shownString(contacts)}: must be detectFootContacts' result or its contacts, [{ joint, intervals: [[start, end], …] }, …]`);
  const rate = clip.frameRate, N = clip.frameCount, F = clip.loop ? N - 1 : N;
  const J = clip.skeleton.jointCount;
  const feet: number[] = [];
  const frames: [number, number][][] = [];
  list.forEach((entry: unknown, k) => {
    const contact = entry as FootContacts['contacts'][number] | null;
    if (typeof contact !== 'object' || contact === null) fail(WHERE, `contacts[${k}]`, `is ${shownString(entry)}: must be { joint, intervals }`);
    const joint = contact.joint;
    if (typeof joint !== 'number' || !Number.isInteger(joint) || joint < 0 || joint >= J) {
      fail(WHERE, `contacts[${k}].joint`, `is ${shownString(joint)}: must be a joint index below ${J} of the skeleton of "${clip.name}"`);
    }
    if (!Array.isArray(contact.intervals)) fail(WHERE, `contacts[${k}].intervals`, `is ${shownString(contact.intervals)}: must be an array of [start, end] seconds`);
    const own: [number, number][] = [];
    contact.intervals.forEach((interval: unknown, n) => {
      const path = `contacts[${k}].intervals[${n}]`;
      if (!Array.isArray(interval) || interval.length !== 2) fail(WHERE, path, `is ${shownString(interval)}: must be [start, end] seconds`);
      const s = frameAt(path, interval[0], rate, clip), e = frameAt(path, interval[1], rate, clip);
      if (s > e && !clip.loop) fail(WHERE, path, `starts at ${interval[0]} s after it ends (${interval[1]} s): only a looping clip's contact may run over its end`);
      own.push([s, e]);
    });
    feet.push(joint);
    frames.push(own);
  });

  const K = feet.length;
  const path = footPositions(clip, feet);
  const horizontal = (i: number, k: number): number => {
    const a = (i * K + k) * 3, b = a + K * 3;
    return Math.hypot(path[b] - path[a], path[b + 2] - path[a + 2]);
  };
  const perFoot: FootSkate['feet'][number][] = [];
  for (let k = 0; k < K; k++) {
    const distances: number[] = [];
    for (const [start, end] of frames[k]) {
      // Intervals s … e − 1, on over the seam (interval F − 1 ends on the seam frame ≡ frame 0);
      // [0, duration] of a loop is the whole cycle.
      const s = start % F, e = end % F;
      const steps = !clip.loop ? e - s : start === 0 && end === N - 1 ? F : e >= s ? e - s : F - s + e;
      let d = 0;
      for (let n = 0; n < steps; n++) d += horizontal((s + n) % F, k);
      distances.push(d);
    }
    perFoot.push(footSkate(feet[k], distances));
  }
  return totalSkate(perFoot);
}

/** The frame at time `t` (a frame time within [0, duration]), or an `AnimationError` at `path`. */
function frameAt(path: string, t: unknown, rate: number, clip: Clip): number {
  return nearestSample(path, t, rate, clip.frameCount, 'frame', clip.duration);
}

/**
 * The sample nearest `t` seconds at `rate` samples per second, among `samples`; an
 * `AnimationError` at `path` unless `t` is a `kind` time (a multiple of 1/rate s) within [0, `last`].
 */
function nearestSample(path: string, t: unknown, rate: number, samples: number, kind: string, last: number): number {
  const f = typeof t === 'number' ? t * rate : NaN;
  const nearest = Math.round(f);
  if (!Number.isFinite(f) || nearest < 0 || nearest > samples - 1 || Math.abs(f - nearest) > FRAME_SLACK) {
    fail(WHERE, path, `has ${shownString(t)}: must be a ${kind} time (a multiple of 1/${rate} s) within [0, ${last}]`);
  }
  return nearest;
}

/** A foot's entry of {@link FootSkate.feet} from its distance per contact. */
function footSkate(joint: FootSkate['feet'][number]['joint'], distances: number[]): FootSkate['feet'][number] {
  const sum = distances.reduce((a, b) => a + b, 0);
  const max = distances.reduce((a, b) => Math.max(a, b), 0);
  return { joint, mean: distances.length > 0 ? sum / distances.length : 0, max, contacts: distances.length, distances };
}

/** The whole skate over the feet: per contact, their mean and max, and the contacts counted. */
function totalSkate(feet: FootSkate['feet']): FootSkate {
  let total = 0, max = 0, count = 0;
  for (const foot of feet) {
    total += foot.distances.reduce((a, b) => a + b, 0);
    max = Math.max(max, foot.max);
    count += foot.contacts;
  }
  return { mean: count > 0 ? total / count : 0, max, contacts: count, feet };
}

/** The world-space form of `measureFootSkate`. */
function measurePaths(paths: FootPaths, contacts: FootContacts | FootContacts['contacts']): FootSkate {
  const rate = paths.frameRate;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) fail(WHERE, 'paths.frameRate', `is ${shownString(rate)}: must be a finite number > 0 (samples per second)`);
  const list: unknown = Array.isArray(contacts) ? contacts : (contacts as FootContacts | null)?.contacts;
  if (!Array.isArray(list)) fail(WHERE, 'contacts', `is ${shownString(contacts)}: must be [{ joint, intervals: [[start, end], …] }, …]`);
  const positions = paths.positions;
  if (!Array.isArray(positions) || positions.length !== list.length) {
    fail(WHERE, 'paths.positions', `must be an array of one position list per contact entry (${list.length})`);
  }
  const perFoot: FootSkate['feet'][number][] = [];
  list.forEach((entry: unknown, k) => {
    const contact = entry as FootContacts['contacts'][number] | null;
    if (typeof contact !== 'object' || contact === null || !Array.isArray(contact.intervals)) {
      fail(WHERE, `contacts[${k}]`, `is ${shownString(entry)}: must be { joint, intervals: [[start, end], …] }`);
    }
    const p = positions[k];
    const samples = p !== null && typeof p === 'object' && typeof p.length === 'number' ? Math.floor(p.length / 3) : 0;
    if (samples < 2 || p.length !== samples * 3) fail(WHERE, `paths.positions[${k}]`, 'must hold x y z per sample, at least two samples');
    for (let i = 0; i < p.length; i++) {
      if (typeof p[i] !== 'number' || !Number.isFinite(p[i])) fail(WHERE, `paths.positions[${k}][${i}]`, `is ${shownString(p[i])}: must be a finite number`);
    }
    const distances: number[] = [];
    contact.intervals.forEach((interval: unknown, n) => {
      const path = `contacts[${k}].intervals[${n}]`;
      if (!Array.isArray(interval) || interval.length !== 2) fail(WHERE, path, `is ${shownString(interval)}: must be [start, end] seconds`);
      const s = sampleAt(path, interval[0], rate, samples), e = sampleAt(path, interval[1], rate, samples);
      if (s > e) fail(WHERE, path, `starts at ${shownString(interval[0])} s after it ends (${shownString(interval[1])} s)`);
      let d = 0;
      for (let a = s * SAMPLE, end = e * SAMPLE; a < end; a += SAMPLE) {
        const b = a + SAMPLE;
        d += Math.hypot(p[b] - p[a], p[b + 2] - p[a + 2]);
      }
      distances.push(d);
    });
    perFoot.push(footSkate(contact.joint, distances));
  });
  return totalSkate(perFoot);
}

/** The sample at time `t` (a sample time within the `samples`), or an `AnimationError` at `path`. */
function sampleAt(path: string, t: unknown, rate: number, samples: number): number {
  return nearestSample(path, t, rate, samples, 'sample', (samples - 1) / rate);
}
