/**
 * A reduced (LOD) clip as a {@link Clip}: the source clip's identity (skeleton, timing, loop,
 * events, name) with its motion replaced by the reducer's curves.
 */
import { shownString } from './limits.js';
import { POSE_STRIDE } from '../math/layout.js';
import { IssueList } from './AnimationError.js';
import { createClip, isClip, type Clip, type ReducedClipStats } from './Clip.js';
import { curveFrames } from './sampleCurves.js';
import type { ReducedTracks } from './ReducedTracks.js';
import { sampleReducedInto } from './sampleReduced.js';
import { POSE_CHANNELS } from './validatePose.js';

/** Accepted |tracks.duration − source.duration|, relative to max(1, duration). */
const DURATION_TOLERANCE = 1e-9;

/** Input figures of {@link createReducedClip}: the reducer's; the byte counts are computed here. */
export type ReducedStatsInput = Omit<ReducedClipStats, 'bytes' | 'sourceBytes'>;

/**
 * Builds the reduced clip of `source` from the curves `tracks` (see `createReducedTracks`) and
 * the reducer's `stats`.
 *
 * The result has the source's skeleton, frame rate, frame count, duration, loop flag, events,
 * `importError`, `difference` flag and name (a reduced clip stands in for its source: games that key on names keep working;
 * tell LOD levels apart by `stats`). It holds the curves and **no dense frames**: its `frames`
 * is an empty Float32Array, samplers evaluate the curves, and readers of poses at frame times
 * (root-motion tracks, difference clips, tools) take them from the curves on demand —
 * {@link expandFrames} evaluates them at the frame times f / frameRate with the reduced
 * sampler itself, so they agree with playback there bit for bit. A looping source's seam
 * frame is the curves at the duration, as fitted (not copied from frame 0).
 *
 * `stats` gains `bytes` (everything the clip holds: `tracks.byteLength`, its frames being
 * empty) and `sourceBytes` (the source's dense frames, `frameCount × jointCount × 10 × 4`).
 * Allocates one pose of scratch to check the curves at every frame time; keeps `tracks` as given.
 * The float curves (`clip.curves`) are `curves` when given (the reducer's keyed ones, see
 * `reduceClip`'s `curveTolerance`), else the source's.
 *
 * @throws AnimationError when `source` is not a clip, the tracks' joint count or duration
 * differ from the source's, the stats are not finite numbers ≥ 0, the curves at a frame
 * time are not finite (a rotation curve through zero), or a float curve given is malformed
 * (a repeated name, keys not increasing from frame 0 to the last frame, values not finite).
 * @example
 * const reduced = createReducedClip(clip, createReducedTracks(jointCount, clip.duration, channels), {
 *   keysBefore: clip.frameCount * jointCount * 10, keysAfter: 1234, maxError: 0.004, meanError: 0.001,
 * });
 * console.log(reduced.stats.sourceBytes / reduced.stats.bytes); // how many times smaller
 */
export function createReducedClip(source: Clip, tracks: ReducedTracks, stats: ReducedStatsInput, curves?: Clip['curves']): Clip {
  const issues = new IssueList('createReducedClip');
  if (!isClip(source)) {
    issues.add('source', 'must be a Clip');
    issues.throwIfAny();
  }
  if (typeof tracks !== 'object' || tracks === null || !(tracks.records instanceof Float32Array)) {
    issues.add('tracks', 'must be ReducedTracks from createReducedTracks');
    issues.throwIfAny();
  }
  const { skeleton, frameRate, frameCount, duration } = source;
  const jointCount = skeleton.jointCount;
  if (tracks.jointCount !== jointCount) {
    issues.add('tracks.jointCount', `is ${tracks.jointCount}: the source's skeleton has ${jointCount} joints`);
  }
  if (!(Math.abs(tracks.duration - duration) <= DURATION_TOLERANCE * Math.max(1, duration))) {
    issues.add('tracks.duration', `is ${tracks.duration}: the source lasts ${duration} s`);
  }
  if (typeof stats !== 'object' || stats === null) {
    issues.add('stats', 'must be { keysBefore, keysAfter, maxError, meanError }');
  } else {
    for (const field of ['keysBefore', 'keysAfter', 'maxError', 'meanError'] as const) {
      const v = stats[field];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) issues.add(`stats.${field}`, `is ${shownString(v)}: must be a finite number ≥ 0`);
    }
  }
  if (curves !== undefined) checkCurves(issues, curves, source.frameCount);
  issues.throwIfAny();

  const frames = new Float32Array(0);
  const clip: Clip = Object.freeze({
    name: source.name,
    skeleton,
    frameRate,
    frameCount,
    duration,
    loop: source.loop,
    frames,
    events: source.events,
    eventTimes: source.eventTimes,
    contacts: source.contacts ?? null,
    importError: source.importError,
    curves: curves ?? source.curves,
    // A reduced difference clip is still one: it plays additively, against the identity.
    ...(source.difference === true ? { difference: true } : {}),
    reduced: tracks,
    stats: Object.freeze({
      ...stats,
      bytes: tracks.byteLength + frames.byteLength,
      sourceBytes: frameCount * jointCount * POSE_STRIDE * Float32Array.BYTES_PER_ELEMENT,
    }),
  });
  // The curves at every frame time must be finite: what expandFrames and the samplers give.
  const poseSize = jointCount * POSE_STRIDE;
  const pose = new Float32Array(poseSize);
  for (let f = 0; f < frameCount && !issues.full; f++) {
    sampleFrameInto(pose, 0, clip, f);
    for (let i = 0; i < poseSize && !issues.full; i++) {
      if (!Number.isFinite(pose[i])) {
        const joint = Math.floor(i / POSE_STRIDE);
        issues.add(`frames[${f}] joint "${skeleton.names[joint]}" (${joint}).${POSE_CHANNELS[i % POSE_STRIDE]}`, 'is not finite: the reduced curves reach a zero rotation or overflow here');
      }
    }
  }
  issues.throwIfAny();
  return clip;
}

/** Scratch time of {@link sampleFrameInto} (offline helper; one fixed-size temporary). */
const FRAME_TIME = new Float64Array(1);

/**
 * Writes frame `frame` of `clip` — `jointCount × 10` floats, the clip skeleton's order — to
 * `out` at `outOff`: an ordinary clip's stored frame, or a reduced clip's curves at the frame
 * time `frame / frameRate` (the reduced sampler, as {@link expandFrames}). For readers that
 * walk a clip frame by frame without expanding it whole. Precondition: 0 ≤ frame < frameCount.
 */
export function sampleFrameInto(out: Float32Array, outOff: number, clip: Clip, frame: number): void {
  const poseSize = clip.skeleton.jointCount * POSE_STRIDE;
  if (clip.reduced === null) {
    out.set(clip.frames.subarray(frame * poseSize, (frame + 1) * poseSize), outOff);
    return;
  }
  FRAME_TIME[0] = frame / clip.frameRate;
  sampleReducedInto(out, outOff, clip, FRAME_TIME, 0);
}

/**
 * A clip's poses at its frame times as dense frames, `frameCount × jointCount × 10` floats,
 * frame-major (the layout of `Clip.frames`).
 *
 * - An ordinary clip: its own `frames`, not a copy (do not write to it).
 * - A reduced clip, which stores no frames: a new array of its curves evaluated at the frame
 *   times f / frameRate by the reduced sampler — what playback gives at those instants (the
 *   last frame at the duration). Costs the memory the reduction saved; offline use.
 *
 * @throws AnimationError when `clip` is not a clip.
 * @example
 * const frames = expandFrames(reduceClip(walk, { tolerance: 0.005 })); // walk.frames.length floats
 */
export function expandFrames(clip: Clip): Float32Array {
  if (!isClip(clip)) {
    const issues = new IssueList('expandFrames');
    issues.add('clip', 'must be a Clip');
    issues.throwIfAny();
  }
  if (clip.reduced === null) return clip.frames;
  const poseSize = clip.skeleton.jointCount * POSE_STRIDE;
  const frames = new Float32Array(clip.frameCount * poseSize);
  for (let f = 0; f < clip.frameCount; f++) sampleFrameInto(frames, f * poseSize, clip, f);
  return frames;
}

/**
 * `clip` as an ordinary clip: itself, or — a reduced clip — a new clip of its
 * {@link expandFrames} with its name, timing, loop, events and import error. For offline code
 * that works on frames (reducing a reduced clip again).
 */
export function denseClip(clip: Clip): Clip {
  if (clip.reduced === null) return clip;
  return createClip({
    skeleton: clip.skeleton, frameRate: clip.frameRate, frames: expandFrames(clip), loop: clip.loop,
    events: clip.events, name: clip.name, importError: clip.importError,
    curves: clip.curves.map((c) => ({ name: c.name, values: curveFrames(c, clip.frameCount) })),
  });
}

/** Float curves given to {@link createReducedClip}, checked against a clip of `frameCount` frames. */
function checkCurves(issues: IssueList, curves: Clip['curves'], frameCount: number): void {
  if (!Array.isArray(curves)) {
    issues.add('curves', 'must be an array of { name, values, keys }');
    return;
  }
  const names = new Set<string>();
  curves.forEach((c, i) => {
    const path = `curves[${i}]`;
    if (typeof c?.name !== 'string' || c.name.length === 0 || names.has(c.name)) issues.add(`${path}.name`, 'must be a non-empty string, unique among the curves');
    else names.add(c.name);
    if (!(c?.values instanceof Float32Array) || !c.values.every(Number.isFinite)) {
      issues.add(`${path}.values`, 'must be a Float32Array of finite values');
      return;
    }
    if (c.keys === null) {
      if (c.values.length !== frameCount) issues.add(`${path}.values`, `has ${c.values.length} values: one per frame (${frameCount}) without keys`);
      return;
    }
    const keys = c.keys;
    const ordered = keys instanceof Uint32Array && keys.length === c.values.length && keys.length > 0 && keys[0] === 0
      && keys[keys.length - 1] === frameCount - 1 && keys.every((k, j) => j === 0 || k > keys[j - 1]);
    if (!ordered) issues.add(`${path}.keys`, `must be a Uint32Array, one per value, increasing from 0 to the last frame (${frameCount - 1})`);
  });
}
