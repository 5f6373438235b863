import { POSE_STRIDE } from '../math/layout.js';
import { IssueList } from './AnimationError.js';
import { buildFootContactTable, type FootContactTable } from './footContactTable.js';
import type { ReducedTracks } from './ReducedTracks.js';
import { isNumberList, isSkeleton, readQuaternionTolerance, type Skeleton } from './Skeleton.js';
import { copyValidatedPose, type NumberList } from './validatePose.js';
import { describeValue, MAX_FRAME_RATE, rangeIssue, shownString } from './limits.js';

/** A named instant of a clip (a metachannel key): footstep, sound cue, hit frame. */
export interface ClipEvent {
  /** Clip-local time in seconds. */
  readonly time: number;
  /** What the game sees in `drainEvents`. */
  readonly name: string;
}

/**
 * An immutable animation clip: uniformly sampled joint poses for one skeleton.
 *
 * **Frames.** `frames` is frame-major: frame `f` holds every joint's pose, `jointCount × 10`
 * floats `tx ty tz qx qy qz qw sx sy sz`, so sampling one instant reads two contiguous blocks.
 * Frame `f` is the pose at `f / frameRate` seconds; `duration = (frameCount − 1) / frameRate`.
 *
 * **Looping and the seam frame.** A looping clip of duration D stores its first pose again as
 * its last frame, at time D: the seam is explicit, so the interval just before the wrap
 * interpolates toward the first pose instead of popping. Playback time wraps into [0, D).
 * Data without the repeated frame (N distinct frames of a cycle) is built with
 * `appendSeam: true`, which copies frame 0 to the end (D = N / frameRate). A non-looping
 * clip clamps at 0 and D and holds its last frame.
 *
 * **Reduced clips.** A clip made by `createReducedClip` carries `reduced` (per-channel cubic
 * curves, see `ReducedTracks`) and `stats` instead of frames: its `frames` is empty, samplers
 * evaluate the curves, and `expandFrames(clip)` gives the curves at the frame times as
 * frames for offline readers. Test for a clip with `isClip`, not `frames.length`.
 */
export interface Clip {
  /** Display name (the glTF animation name, file name, …). */
  readonly name: string;
  /** The skeleton whose joints the frames animate, in its joint order. */
  readonly skeleton: Skeleton;
  /** Frames per second, > 0. */
  readonly frameRate: number;
  /** Number of stored frames, ≥ 1 (including the seam frame of a looping clip). */
  readonly frameCount: number;
  /** `(frameCount − 1) / frameRate` seconds; 0 for a single-frame pose. */
  readonly duration: number;
  /** Whether playback wraps (true) or clamps (false) by default. */
  readonly loop: boolean;
  /**
   * `frameCount × jointCount × 10` floats, frame-major; **empty (length 0) for a reduced clip**,
   * which holds its curves only (`reduced`): read its poses with `sampleClipInto` or, as dense
   * frames, `expandFrames(clip)` (which also returns an ordinary clip's `frames`).
   */
  readonly frames: Float32Array;
  /** Events sorted by time (ties keep input order). */
  readonly events: readonly ClipEvent[];
  /** Event times, same order as `events`, for the sampler's hot path. */
  readonly eventTimes: Float64Array;
  /**
   * The contacts its `footDown:<joint>` / `footUp:<joint>` events mark, as per-frame flags per
   * marked joint (`footLockSystem` reads them; see assets/footContactTable.ts), built when the
   * clip is; null when no event marks a contact.
   */
  readonly contacts: FootContactTable | null;
  /**
   * The curves of a reduced (LOD) clip, which samplers read instead of interpolating `frames`
   * (`frames` is then empty: `expandFrames` evaluates the curves at the frame times); null for
   * an ordinary clip. See `createReducedClip`.
   */
  readonly reduced: ReducedTracks | null;
  /** What the reduction kept and cost (a reduced clip), or null. */
  readonly stats: ReducedClipStats | null;
  /**
   * True for a difference clip D = S·R⁻¹ (`createDifferenceClip`): its frames are differences,
   * not poses, so it plays only as an additive layer, against the identity. Absent otherwise.
   */
  readonly difference?: boolean;
  /**
   * Metres: how far the frames, interpolated as the runtime does (lerp, nlerp), put any joint
   * in model space from where the source's own keys put it (`loadGltf` resampling glTF keys,
   * measured between frames too). 0 for a clip given its frames directly.
   */
  readonly importError: number;
  /**
   * Float curves (metachannels: a blink, a material parameter, glTF morph-target weights),
   * names unique, sampled like joints (lerp between frames, clamped or wrapped the same way)
   * by `sampleCurvesInto`; empty when the clip has none. Find one with `curveIndex(clip, name)`.
   * `keys` null: `values[f]` is the value at frame f (`frameCount` values). Otherwise (a
   * reduced clip) `values[k]` is the value at frame `keys[k]` — increasing, from 0 to
   * `frameCount − 1` — and the curve is linear between keys.
   */
  readonly curves: readonly {
    /** The curve's name (glTF morph weights: `<mesh>.<target>`). */
    readonly name: string;
    /** One value per frame, or per key when `keys` is set. */
    readonly values: Float32Array;
    /** Frame index of each value, or null: every frame. */
    readonly keys: Uint32Array | null;
  }[];
}

/**
 * Figures of a reduced clip (DESIGN §5, `clip.stats`), as its reducer measured them.
 * Provisional: the reducer defines the error measure (model-space joint position error, metres).
 */
export interface ReducedClipStats {
  /** Keys of the source: every channel at every frame (`frameCount × jointCount × 10`). */
  readonly keysBefore: number;
  /** Keys kept, summed over channels. */
  readonly keysAfter: number;
  /** Largest error of the reduction against the source, metres. */
  readonly maxError: number;
  /** Mean error, metres. */
  readonly meanError: number;
  /**
   * Largest rotation error, degrees: the angle between a joint's model-space rotation in the
   * source and in the reduction, over every joint (end joints included) and measured instant.
   * Set by `reduceClip`; absent on clips built from curves given directly.
   */
  readonly maxRotationError?: number;
  /** The tolerance the reducer held, metres (clip units). Set by `reduceClip`. */
  readonly tolerance?: number;
  /**
   * 99th percentile of the per-sample error, metres, a sample being one joint at one measured
   * instant and its error the largest over its measured points (ACL reports the same; nearest
   * rank). Set by `reduceClip`.
   */
  readonly p99Error?: number;
  /** Share of those samples within `tolerance`, in [0, 1] (1 when the bound holds everywhere). Set by `reduceClip`. */
  readonly shareWithin?: number;
  /** `sourceBytes / bytes`: how many times smaller than the dense float32 frames. Set by `compressClip`. */
  readonly ratio?: number;
  /** Radius of the virtual-vertex shell the error was measured on, metres. Set by `compressClip`. */
  readonly shell?: number;
  /**
   * Bytes the reduced clip holds: the `byteLength` of every typed array of its
   * `ReducedTracks` (records, lookup table, per-joint and per-track tables, constants) and of
   * its `frames` (empty). Events are shared with the source and not counted.
   */
  readonly bytes: number;
  /** Bytes of the source's frames: `frameCount × jointCount × 10` 32-bit floats (× 4). */
  readonly sourceBytes: number;
}

/**
 * Whether `v` is a {@link Clip}: an object with a skeleton, a frame rate and a Float32Array
 * `frames` holding `frameCount × jointCount × 10` floats, or — a reduced clip — an empty
 * `frames` beside its `reduced` curves. Boundary check of the APIs that take clips.
 */
export function isClip(v: unknown): v is Clip {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Clip;
  if (!(c.frames instanceof Float32Array) || typeof c.frameRate !== 'number' || typeof c.skeleton !== 'object' || c.skeleton === null) return false;
  if (c.reduced !== null && typeof c.reduced === 'object') return c.frames.length === 0 && c.reduced.records instanceof Float32Array;
  return c.frames.length === c.frameCount * c.skeleton.jointCount * POSE_STRIDE;
}

/** Input of {@link createClip}. Arrays are copied. */
export interface ClipDesc {
  /** The skeleton the frames are posed for: one pose per frame, in its joint order. */
  skeleton: Skeleton;
  /** Frames per second, > 0 and ≤ MAX_FRAME_RATE (10⁵). */
  frameRate: number;
  /** Frame-major poses, `frameCount × skeleton.jointCount × 10` floats. */
  frames: NumberList;
  /** Wrap at the end (default true). */
  loop?: boolean;
  /** Copy frame 0 to the end so N distinct cycle frames form a seamless loop (default false). */
  appendSeam?: boolean;
  /**
   * Events. Times lie in [0, duration] for a clamped clip and in [0, duration) for a looping
   * one (D and 0 are the same instant of a loop: put such an event at 0).
   */
  events?: readonly ClipEvent[];
  /** Display name (default "clip"). */
  name?: string;
  /** Accepted |q| − 1 before a quaternion is refused: a number in [0, 1) (default 0.01). */
  quaternionTolerance?: number;
  /** {@link Clip.importError}: metres, finite and ≥ 0 (default 0). */
  importError?: number;
  /** Float curves; default none. */
  curves?: readonly {
    /** A non-empty name, unique among the clip's curves. */
    name: string;
    /**
     * One finite value per frame given (`frames.length / (jointCount × 10)`; with `appendSeam`
     * the first value is repeated at the end, as the first pose is).
     */
    values: NumberList;
  }[];
}

/**
 * Builds and validates a {@link Clip}. Rotations are normalized, and translation and rotation
 * components below 1e-15 in magnitude are stored as 0 (`FLUSH_TO_ZERO_BELOW`: exporters' noise
 * that would make the float32 kernels' arithmetic subnormal, and slow).
 *
 * @throws AnimationError naming every fault with its field, frame and joint: a desc that is
 * not an object, a frame rate not in (0, 10⁵], a `quaternionTolerance` not in [0, 1), no frames, a length that is not a whole number of frames, non-finite values,
 * zero or non-unit quaternions, events outside the clip or unnamed, curves unnamed, named twice,
 * with another number of values than frames, or with values that are not finite 32-bit floats.
 * @example
 * const clip = createClip({ skeleton, frameRate: 30, frames, loop: true, events: [{ time: 0.4, name: 'footstep' }] });
 */
export function createClip(desc: ClipDesc): Clip {
  const issues = new IssueList('createClip');
  if (typeof desc !== 'object' || desc === null || Array.isArray(desc)) {
    issues.add('desc', `is ${describeValue(desc)}: must be an object { skeleton, frameRate, frames, loop?, events?, name? }`);
    issues.throwIfAny();
  }
  const { skeleton, frameRate, frames } = desc;
  const loop = desc.loop ?? true;
  const name = desc.name ?? 'clip';
  const tolerance = readQuaternionTolerance(issues, desc.quaternionTolerance);

  if (!isSkeleton(skeleton)) {
    issues.add('skeleton', 'must be a Skeleton from createSkeleton');
    issues.throwIfAny();
  }
  const frameRateIssue = rangeIssue(frameRate, 0, MAX_FRAME_RATE, 'frames per second; MAX_FRAME_RATE', true);
  if (frameRateIssue !== null) issues.add('frameRate', frameRateIssue);
  const poseSize = skeleton.jointCount * POSE_STRIDE;
  let sourceFrames = 0;
  if (!isNumberList(frames)) {
    issues.add('frames', 'must be an array or typed array of numbers');
  } else if (frames.length === 0) {
    issues.add('frames', 'is empty: a clip needs at least one frame');
  } else if (frames.length % poseSize !== 0) {
    issues.add('frames', `has ${frames.length} floats, not a whole number of frames of jointCount × 10 = ${poseSize}`);
  } else {
    sourceFrames = frames.length / poseSize;
  }

  const appendSeam = desc.appendSeam === true && sourceFrames > 0;
  const frameCount = sourceFrames + (appendSeam ? 1 : 0);
  const packed = new Float32Array(frameCount * poseSize);
  for (let frame = 0; frame < sourceFrames && !issues.full; frame++) {
    const off = frame * poseSize;
    copyValidatedPose(issues, `frames[${frame}]`, skeleton.names, frames, off, packed, off, skeleton.jointCount, tolerance);
  }
  if (appendSeam) packed.copyWithin(sourceFrames * poseSize, 0, poseSize);

  const importError = desc.importError ?? 0;
  if (typeof importError !== 'number' || !Number.isFinite(importError) || importError < 0) {
    issues.add('importError', `is ${shownString(importError)}: must be a finite number ≥ 0 (metres)`);
  }
  const duration = frameCount > 0 && typeof frameRate === 'number' && frameRate > 0 ? (frameCount - 1) / frameRate : 0; // typeof: a Symbol or BigInt (refused above) cannot be compared
  const events = validateEvents(issues, desc.events ?? [], duration, loop);
  const curves = validateCurves(issues, desc.curves ?? [], sourceFrames, appendSeam);
  issues.throwIfAny();

  return Object.freeze({
    name,
    skeleton,
    frameRate,
    frameCount,
    duration,
    loop,
    frames: packed,
    events,
    eventTimes: Float64Array.from(events, (e) => e.time),
    contacts: buildFootContactTable(events, frameCount, frameRate, loop),
    reduced: null,
    stats: null,
    importError,
    curves,
  });
}

function validateCurves(issues: IssueList, curves: NonNullable<ClipDesc['curves']>, sourceFrames: number, appendSeam: boolean): Clip['curves'] {
  if (!Array.isArray(curves)) {
    issues.add('curves', `is ${describeValue(curves)}: must be an array of { name, values }`);
    return Object.freeze([]);
  }
  const out: Clip['curves'][number][] = [];
  const seen = new Map<string, number>();
  curves.forEach((curve, i) => {
    const path = `curves[${i}]`;
    if (typeof curve !== 'object' || curve === null) {
      issues.add(path, `is ${describeValue(curve)}: must be { name, values }`);
      return;
    }
    const { name, values } = curve;
    if (typeof name !== 'string' || name.length === 0) issues.add(`${path}.name`, 'must be a non-empty string');
    else if (seen.has(name)) issues.add(`${path}.name`, `"${name}" repeats curves[${seen.get(name)}]: curve names must be unique`);
    else seen.set(name, i);
    if (!isNumberList(values) || values.length !== sourceFrames) {
      issues.add(`${path}.values`, `must hold one number per frame (${sourceFrames}), has ${isNumberList(values) ? values.length : describeValue(values)}`);
      return;
    }
    const packed = new Float32Array(sourceFrames + (appendSeam ? 1 : 0));
    for (let f = 0; f < sourceFrames; f++) {
      const v = values[f] as number;
      packed[f] = v;
      if (typeof v !== 'number' || !Number.isFinite(packed[f])) {
        if (!issues.add(`${path}.values[${f}]`, `is ${shownString(v)}, not a finite 32-bit float`)) break;
      }
    }
    if (appendSeam) packed[sourceFrames] = packed[0];
    out.push(Object.freeze({ name, values: packed, keys: null }));
  });
  return Object.freeze(out);
}

function validateEvents(issues: IssueList, events: readonly ClipEvent[], duration: number, loop: boolean): readonly ClipEvent[] {
  if (!Array.isArray(events)) {
    issues.add('events', 'must be an array of { time, name }');
    return [];
  }
  const out: ClipEvent[] = [];
  events.forEach((event, i) => {
    const time = event?.time;
    const name = event?.name;
    if (typeof name !== 'string' || name.length === 0) issues.add(`events[${i}].name`, 'must be a non-empty string');
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) {
      issues.add(`events[${i}].time`, `is ${shownString(time)}: must be a finite number ≥ 0`);
    } else if (loop ? time >= duration && duration > 0 : time > duration) {
      issues.add(`events[${i}].time`, `is ${time}: must be ${loop ? '<' : '≤'} the duration ${duration}${loop ? ' for a looping clip (put an event at the seam at 0)' : ''}`);
    }
    out.push(Object.freeze({ time, name }));
  });
  // Stable sort: events at one instant fire in the order they were given.
  return Object.freeze(out.sort((a, b) => a.time - b.time));
}
