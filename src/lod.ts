/**
 * `bitanim/lod` — offline clip authoring: motion-LOD reduction (`reduceClip`, `bakeLod` and
 * the channel, key-selection, spline and error-measure steps under them), the reduced-track
 * format they write (`createReducedClip`, `createReducedTracks`, the `TRACK_*` layouts).
 * Runs at build or load time, never per frame; the runtime side (`setLod`,
 * `registerLodLevels`) is in the main entry, the reduced-clip sampler in `bitanim/kernels`.
 * Guide: docs/motion-lod.md.
 * @packageDocumentation
 */
export type { ReducedClipStats } from './assets/Clip.js';
export { reduceClip, bakeLod, type ReduceClipOptions } from './offline/lod/reduceClip.js';
export {
  reduceChannel,
  mergeKeys,
  uniformDecimation,
  uniformKeys,
  type ReduceChannelOptions,
  type ChannelReduction,
  type UniformReduction,
} from './offline/lod/reduceChannel.js';
export { selectKeys, selectKeysWithOrders, differenceQuotient, type SelectKeysOptions, type KeySelection, type SplineDegree } from './offline/lod/atkins.js';
export { fitSpline, evaluateSpline, measureSplineError, keyTimes, SPLINE_STRIDE, type FitSplineOptions, type SplineFit } from './offline/lod/spline.js';
export { measureModelError, jointReach, defaultErrorDistance, type ModelError, type ModelErrorOptions } from './offline/lod/modelError.js';
export { createReducedClip, expandFrames, type ReducedStatsInput } from './assets/reducedClip.js';
export {
  createReducedTracks,
  TRACK_T,
  TRACK_Q,
  TRACK_S,
  TRACK_S1,
  RECORD_STRIDE_1,
  RECORD_STRIDE_3,
  RECORD_STRIDE_4,
  TRACK_T16,
  TRACK_Q16,
  TRACK_S16,
  PACKED_STRIDE_3,
  PACKED_STRIDE_4,
  readTrack,
  type TrackCubics,
  type ReducedTracks,
  type ReducedChannel,
} from './assets/ReducedTracks.js';
export { compressClip, DEFAULT_SHELL, type CompressClipOptions } from './offline/lod/compressClip.js';
export {
  SEGMENT_LENGTH,
  SEGMENT_SHIFT,
  MAX_BITS,
  ANIMATED_T,
  ANIMATED_Q,
  ANIMATED_S,
  DEFAULT_T,
  DEFAULT_Q,
  DEFAULT_S,
  DROP_SHIFT,
  BIT_SCALE,
  INV255,
  type CompressedTracks,
} from './assets/compressedTracks.js';
