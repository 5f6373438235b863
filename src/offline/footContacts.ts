/**
 * detectFootContacts — when each foot of a clip is planted, as intervals and as events.
 *
 * The model, in the clip's model space (`composeModel` of each frame: the clip's own motion,
 * root travel included), per foot k and frame f, Δt = 1 / frameRate:
 *
 * 1. **Low.** y_k(f) − min_f y_k ≤ `heightThreshold`: the foot is within the threshold of the
 *    lowest point it reaches over the clip.
 * 2. **Slow.** The foot's velocity over interval i (frames i → i + 1) is
 *    v_ik = (p_k(i+1) − p_k(i)) / Δt (x, y and z). Speed is measured against the ground, as
 *    in `rootMotionFromFeet` (which pools all feet; here each foot has its own): the ground's
 *    velocity g_k is the per-axis median of the horizontal v_ik over the intervals where foot
 *    k is low at both ends — ≈ 0 for a clip with travel, whose planted feet stand still; the backward slide of the
 *    ground under an in-place clip. A frame's speed is the smaller of |v − g_k| over the two
 *    intervals beside it (one only at the ends of a clamped clip), so a foot's
 *    first and last frames at rest count as slow. Slow: speed ≤ `speedThreshold`.
 * 3. **Planted** = low and slow. Then, per foot, runs of frames that are not planted shorter
 *    than `minFrames` are filled (a frame of noise inside a stance; not at either end of a
 *    clamped clip, where no contact follows), and then runs of planted frames shorter than
 *    `minFrames` are dropped (a frame of noise inside a swing), in that order.
 * 4. **Intervals**: each run of planted frames s … e gives [s / frameRate, e / frameRate]
 *    seconds. A looping clip is cyclic (its seam frame is its frame 0): a run over the seam is
 *    **one interval whose start is greater than its end** (from start to the clip's end, then
 *    from 0 to end), and a foot planted on every frame gives [0, duration].
 *
 * Defaults, from the clip (H = `getRootTrack(clip).hipHeight`, the hips' rest height or mean
 * height; 1 when the clip has none):
 *
 * | option | default | why |
 * | --- | --- | --- |
 * | `heightThreshold` | 0.1 H (8.8 cm on the CMU walk's 0.88 m hips, 4.3 cm on the Fox's 0.43 m) | a capture's floor is not level to a few cm: the CMU walk stops with both ankles standing 5–7 cm above where they started |
 * | `speedThreshold` | per foot, 0.25 × the 90th percentile of its speed \|v − g\| over the clip, at least 0.05 H/s | a quarter of the foot's swing speed, whatever the clip's size and pace; the floor keeps a clip that barely moves from calling its noise a swing |
 * | `minFrames` | the frames of 0.1 s, at least 3 (5 at 48 fps, 12 at 120 fps) | a walking swing lasts ≈ 0.4 s and a gallop's ≈ 0.2 s: a lift or a contact shorter than 0.1 s is noise or a slip |
 *
 * The ground's velocity is taken per foot because artists' in-place cycles do not always
 * slide all feet alike (the Fox's run moves its planted front paws at 0.1–0.7 m/s in model
 * space, its planted hind paws at 1.5–2.9 m/s).
 */
import { shownString } from '../assets/limits.js';
import { fail } from '../assets/AnimationError.js';
import { createClip, isClip, type Clip, type ClipEvent } from '../assets/Clip.js';
import { getRootTrack } from '../assets/rootTrack.js';
import { curveFrames } from '../assets/sampleCurves.js';
import { footPositions, lowestHeights, median, readThreshold, resolveFeet } from './footPaths.js';

/** Options of {@link detectFootContacts}. */
export interface FootContactOptions {
  /**
   * The joints that touch the ground, by name or index in the clip's skeleton: a biped's
   * ankles or toes, all four paws of a quadruped. Not a root joint (one without a parent).
   */
  feet: readonly (string | number)[];
  /**
   * How far above its lowest point over the clip a foot still counts as low, in the clip's
   * units (default 0.1 × the hip height).
   */
  heightThreshold?: number;
  /**
   * The fastest a low foot may move against the ground and count as planted, in the clip's
   * units per second (default per foot: 0.25 × the 90th percentile of its speed over the clip,
   * at least 0.05 hip heights per second).
   */
  speedThreshold?: number;
  /**
   * The shortest contact kept and the shortest lift kept, in frames: planted runs shorter than
   * this are dropped, gaps shorter than this inside a contact are filled (an integer ≥ 1;
   * default the frames of 0.1 s, at least 3). 1 keeps every frame's verdict.
   */
  minFrames?: number;
}

/** What {@link detectFootContacts} returns. */
export interface FootContacts {
  /**
   * A copy of the clip (same skeleton, frames, loop flag, name and curves) whose events are its
   * own and `footDown:<joint name>` / `footUp:<joint name>` at each interval's start and end,
   * sorted by time (a foot planted throughout has neither).
   */
  readonly clip: Clip;
  /** One entry per foot, in the order of `feet`. */
  readonly contacts: {
    /** The foot's joint index in the clip's skeleton. */
    readonly joint: number;
    /**
     * [start, end] in seconds, at frame times, in time order: the foot's first and last
     * planted frames. In a looping clip the one interval that runs over the seam has start > end.
     */
    readonly intervals: [number, number][];
  }[];
}

const WHERE = 'detectFootContacts';
const OPTIONS = new Set(['feet', 'heightThreshold', 'speedThreshold', 'minFrames']);
const DEFAULT_HEIGHT = 0.1;
const DEFAULT_SPEED_FRACTION = 0.25;
const DEFAULT_SPEED_PERCENTILE = 0.9;
const DEFAULT_SPEED_FLOOR = 0.05;
const DEFAULT_MIN_FRAMES = 3;
const DEFAULT_MIN_SECONDS = 0.1;

/**
 * Finds when each foot of `clip` is planted — low and slow in model space, robust to a frame of
 * noise, cyclic for a looping clip (see the module comment for the model and the defaults) —
 * and returns the intervals and a copy of the clip carrying them as events.
 *
 * @example
 * const { clips } = await loadGltf(bytes, { scale: 'cm' });
 * const { clip: walk, contacts } = detectFootContacts(clips.find((c) => c.name === 'Walk')!, {
 *   feet: ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'],
 * });
 * // contacts[0].intervals: [[0.5, 0.1042]] (5/48 s, over the seam); walk.events hold
 * // footDown:b_LeftFoot02_018 at 0.5 s and footUp:b_LeftFoot02_018 at 0.104 s, which drainEvents reports
 * @throws AnimationError when `clip` is not a clip, is a difference or reduced (LOD) clip or has
 * fewer than two frames; when options is not an object or has a field other than `feet`,
 * `heightThreshold`, `speedThreshold`, `minFrames`; when `feet` is missing or empty, names a
 * joint the skeleton does not have, an index out of range, a joint twice or a root joint; when
 * a threshold is not a finite number > 0, or `minFrames` not an integer ≥ 1.
 */
export function detectFootContacts(clip: Clip, options: FootContactOptions): FootContacts {
  checkClip(WHERE, clip);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail(WHERE, 'options', `is ${shownString(options)}: must be an object { feet, heightThreshold?, speedThreshold?, minFrames? }`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.has(key)) fail(WHERE, key, `is not an option of detectFootContacts (${[...OPTIONS].join(', ')})`);
  }
  const skeleton = clip.skeleton;
  const feet = resolveFeet(WHERE, clip, options.feet, (joint) =>
    skeleton.parents[joint] < 0 ? `"${skeleton.names[joint]}" is a root joint (it has no parent): it carries the whole body, a foot is a joint of a leg` : null,
  );
  const hipHeight = getRootTrack(clip).hipHeight;
  const size = hipHeight > 0 ? hipHeight : 1;
  const heightThreshold = readThreshold(WHERE, options.heightThreshold, 'heightThreshold', DEFAULT_HEIGHT * size, false);
  const speedOption = options.speedThreshold === undefined ? undefined : readThreshold(WHERE, options.speedThreshold, 'speedThreshold', 0, false);
  const minFrames = options.minFrames ?? Math.max(DEFAULT_MIN_FRAMES, Math.round(clip.frameRate * DEFAULT_MIN_SECONDS));
  if (typeof minFrames !== 'number' || !Number.isInteger(minFrames) || minFrames < 1) {
    fail(WHERE, 'minFrames', `is ${shownString(minFrames)}: must be an integer ≥ 1`);
  }

  const N = clip.frameCount, K = feet.length, rate = clip.frameRate;
  const loop = clip.loop;
  // Distinct frames F (a loop's seam frame is its frame 0) and intervals I (frame i → i + 1).
  const F = loop ? N - 1 : N, I = N - 1;
  const path = footPositions(clip, feet);
  const lowest = lowestHeights(path, N, K);
  const low = (f: number, k: number): boolean => path[(f * K + k) * 3 + 1] - lowest[k] <= heightThreshold;
  const contacts: FootContacts['contacts'] = [];
  const events: ClipEvent[] = [];
  const speed = new Float64Array(I);
  const planted = new Uint8Array(F);
  const downX: number[] = [], downZ: number[] = [];
  for (let k = 0; k < K; k++) {
    // The ground's velocity under this foot: the median of its horizontal velocity while low.
    downX.length = 0;
    downZ.length = 0;
    for (let i = 0; i < I; i++) {
      if (!low(i, k) || !low(i + 1, k)) continue;
      const a = (i * K + k) * 3, b = a + K * 3;
      downX.push((path[b] - path[a]) * rate);
      downZ.push((path[b + 2] - path[a + 2]) * rate);
    }
    const gx = median(downX), gz = median(downZ);
    for (let i = 0; i < I; i++) {
      const a = (i * K + k) * 3, b = a + K * 3;
      speed[i] = Math.hypot((path[b] - path[a]) * rate - gx, (path[b + 1] - path[a + 1]) * rate, (path[b + 2] - path[a + 2]) * rate - gz);
    }
    const threshold = speedOption ?? Math.max(DEFAULT_SPEED_FRACTION * percentile(speed, DEFAULT_SPEED_PERCENTILE), DEFAULT_SPEED_FLOOR * size);
    for (let f = 0; f < F; f++) {
      const before = f > 0 ? speed[f - 1] : loop ? speed[I - 1] : Infinity;
      const after = f < I ? speed[f] : Infinity;
      planted[f] = low(f, k) && Math.min(before, after) <= threshold ? 1 : 0;
    }
    fillRuns(planted, 0, minFrames, loop); // short lifts inside a contact
    fillRuns(planted, 1, minFrames, loop); // short contacts inside a swing
    const intervals = plantedIntervals(planted, loop, rate, clip.duration);
    const name = skeleton.names[feet[k]];
    for (const [start, end] of intervals) {
      if (loop && start === 0 && end === clip.duration) continue; // planted throughout
      events.push({ time: start, name: `footDown:${name}` }, { time: end, name: `footUp:${name}` });
    }
    contacts.push({ joint: feet[k], intervals });
  }
  events.sort((a, b) => a.time - b.time);
  const out = createClip({
    skeleton,
    frameRate: rate,
    frames: clip.frames,
    loop,
    events: [...clip.events, ...events],
    name: clip.name,
    importError: clip.importError,
    curves: clip.curves.map((c) => ({ name: c.name, values: curveFrames(c, clip.frameCount) })),
  });
  return { clip: out, contacts };
}

/** The checks every offline foot tool makes of its clip (see the tools' throws). */
export function checkClip(where: string, clip: Clip): void {
  if (!isClip(clip)) fail(where, 'clip', 'must be a Clip from createClip or an importer');
  if (clip.difference === true) {
    fail(where, 'clip', `"${clip.name}" is a difference clip (createDifferenceClip): its frames are differences, not poses with feet on the ground; use its source clip`);
  }
  if (clip.reduced !== null) fail(where, 'clip', `"${clip.name}" is a reduced (LOD) clip: use its source clip`);
  if (clip.frameCount < 2) fail(where, 'clip', `"${clip.name}" has ${clip.frameCount} frame: a foot's speed needs at least two`);
}

/** The value at fraction `q` of the sorted `values` (nearest rank). */
function percentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Sets to 1 − `value` every run of `value` shorter than `minFrames` (cyclic when `loop`). A run
 * that is the whole array is kept, and so is a lift (`value` 0) touching either end of a
 * clamped clip: it lies between a contact and the clip's edge, not inside a contact.
 */
function fillRuns(flags: Uint8Array, value: number, minFrames: number, loop: boolean): void {
  const F = flags.length;
  for (const [start, length] of runs(flags, value, loop)) {
    if (length >= minFrames || length === F) continue;
    if (!loop && value === 0 && (start === 0 || start + length === F)) continue;
    for (let d = 0; d < length; d++) flags[(start + d) % F] = 1 - value;
  }
}

/** The runs of `value` in `flags` as [first index, length]; cyclic when `loop` (a run may wrap). */
function runs(flags: Uint8Array, value: number, loop: boolean): [number, number][] {
  const F = flags.length;
  const out: [number, number][] = [];
  // Start the walk at a change of value, so a run over a loop's seam is met once, whole.
  let origin = 0;
  if (loop) {
    origin = -1;
    for (let f = 0; f < F; f++) if (flags[f] !== flags[(f + F - 1) % F]) { origin = f; break; }
    if (origin < 0) return flags[0] === value ? [[0, F]] : [];
  }
  let start = -1;
  for (let n = 0; n <= F; n++) {
    const on = n < F && flags[(origin + n) % F] === value;
    if (on && start < 0) start = n;
    if (!on && start >= 0) { out.push([(origin + start) % F, n - start]); start = -1; }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The planted runs as [start, end] seconds (see the module comment, step 4). */
function plantedIntervals(planted: Uint8Array, loop: boolean, rate: number, duration: number): [number, number][] {
  const F = planted.length;
  return runs(planted, 1, loop).map(([start, length]): [number, number] => {
    if (length === F) return [0, duration];
    return [start / rate, ((start + length - 1) % F) / rate];
  });
}
