/**
 * A reduced (LOD) clip as a {@link Clip}: the source clip's identity (skeleton, timing, loop,
 * events, name) with its motion replaced by the reducer's curves.
 */
import { POSE_STRIDE } from '../math/layout.js';
import { IssueList } from './AnimationError.js';
import type { Clip, ReducedClipStats } from './Clip.js';
import type { ReducedTracks } from './ReducedTracks.js';
import { sampleReducedInto } from './sampleReduced.js';
import { POSE_CHANNELS } from './validatePose.js';

/** Accepted |tracks.duration − source.duration|, relative to max(1, duration). */
const DURATION_TOLERANCE = 1e-9;

/**
 * Builds the reduced clip of `source` from the curves `tracks` (see `createReducedTracks`) and
 * the reducer's `stats`.
 *
 * The result has the source's skeleton, frame rate, frame count, duration, loop flag, events
 * and name (a reduced clip stands in for its source: games that key on names keep working;
 * tell LOD levels apart by `stats`). Its `frames` are the curves evaluated by the reduced
 * sampler at the frame times f / frameRate, so everything that reads frames (root-motion
 * tracks, additive references, bindings) agrees with the sampler at frame times; between them
 * samplers evaluate the curves. A looping source's seam frame is the curves at the duration,
 * as fitted (not copied from frame 0).
 *
 * Allocates the frames (`frameCount × jointCount × 10` floats) besides `tracks`.
 *
 * @throws AnimationError when `source` is not a clip, the tracks' joint count or duration
 * differ from the source's, the stats are not finite numbers ≥ 0, or a reconstructed frame is
 * not finite (a rotation curve through zero).
 * @example
 * const reduced = createReducedClip(clip, createReducedTracks(jointCount, clip.duration, channels), {
 *   keysBefore: clip.frameCount * jointCount * 10, keysAfter: 1234, maxError: 0.004, meanError: 0.001,
 * });
 */
export function createReducedClip(source: Clip, tracks: ReducedTracks, stats: ReducedClipStats): Clip {
  const issues = new IssueList('createReducedClip');
  if (typeof source !== 'object' || source === null || !(source.frames instanceof Float32Array) || typeof source.frameRate !== 'number') {
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
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) issues.add(`stats.${field}`, `is ${String(v)}: must be a finite number ≥ 0`);
    }
  }
  issues.throwIfAny();

  // The frames: the reduced sampler itself at each frame time, so the two agree bit for bit.
  // The clip object must carry `reduced` for the sampler; it is built once, frames filled after.
  const frames = new Float32Array(frameCount * jointCount * POSE_STRIDE);
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
    importError: source.importError,
    reduced: tracks,
    stats: Object.freeze({
      keysBefore: stats.keysBefore, keysAfter: stats.keysAfter, maxError: stats.maxError, meanError: stats.meanError,
      ...(stats.maxRotationError === undefined ? {} : { maxRotationError: stats.maxRotationError }),
    }),
  });
  const time = new Float64Array(1);
  const poseSize = jointCount * POSE_STRIDE;
  for (let f = 0; f < frameCount; f++) {
    time[0] = f / frameRate;
    sampleReducedInto(frames, f * poseSize, clip, time, 0);
  }
  for (let i = 0; i < frames.length && !issues.full; i++) {
    if (!Number.isFinite(frames[i]!)) {
      const f = Math.floor(i / poseSize), joint = Math.floor((i % poseSize) / POSE_STRIDE);
      issues.add(`frames[${f}] joint "${skeleton.names[joint]}" (${joint}).${POSE_CHANNELS[i % POSE_STRIDE]}`, 'is not finite: the reduced curves reach a zero rotation or overflow here');
    }
  }
  issues.throwIfAny();
  return clip;
}
