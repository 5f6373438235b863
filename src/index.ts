/**
 * bitanim — a character-animation runtime for bitecs games. Public exports only.
 * @packageDocumentation
 */
export { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
export { createSkeleton, findJoint, type Skeleton, type SkeletonDesc } from './assets/Skeleton.js';
export { createClip, type Clip, type ClipDesc, type ClipEvent, type ReducedClipStats } from './assets/Clip.js';
export { createMask, type Mask } from './assets/Mask.js';
export { bindSkeletons, type Binding, type BindOptions, type TranslationMode, type TranslationOption } from './assets/Binding.js';
export {
  createBlendSpace,
  blendSpaceWeights,
  pickHemisphere,
  type BlendSpace,
  type BlendSpaceDesc,
  type BlendSpaceSample,
  type BlendSpaceType,
} from './assets/BlendSpace.js';
export {
  FLOAT32_MAX,
  FLOAT32_MIN_NORMAL,
  MAX_DT,
  MAX_PLAYBACK_RATE,
  MAX_WEIGHT,
  MAX_DURATION,
  MIN_DURATION,
  MAX_TIME,
  MAX_FRAME_RATE,
  MAX_JOINTS,
  MAX_EVENTS,
  MAX_WORLD_BYTES,
} from './assets/limits.js';
export {
  type AnimationWorld,
  type AnimationWorldOptions,
  type AnimationComponents,
  type AssetRegistry,
  type Scratch,
} from './world.js';
export { createAnimationWorld, worldBytes } from './api/world.js';
export { loadKernels, type KernelChoice } from './wasm/loader.js';
export {
  createFrame,
  insertSystem,
  defaultFrame,
  runFrame,
  beginFrame,
  endFrame,
  FRAME_CHUNK,
  type Frame,
  type FrameSystem,
  type InsertAt,
  type ScratchDeclaration,
  type ScratchOf,
} from './frame.js';
export { updateRange, type UpdateList } from './components/UpdateList.js';
// The per-character components' types (each is also a bitecs component: `world.components.X`).
export type { CharacterComponent } from './components/Character.js';
export type { LayersComponent } from './components/Layers.js';
export type { PoolComponent } from './components/Pose.js';
export type { InertializationComponent } from './components/Inertialization.js';
export type { RootMotionComponent } from './components/RootMotion.js';
export type { FollowerComponent } from './components/Follower.js';
export type { LookAtComponent } from './components/LookAt.js';
export type { ReachComponent } from './components/Reach.js';
export type { LodComponent } from './components/Lod.js';
export { spawnCharacter, removeCharacter, getLocalPose, getModelMatrices, getSkinPalette, type SpawnOptions } from './api/characters.js';
export { play, stop, setLayerWeight, type PlayOptions } from './api/playback.js';
export { step } from './api/step.js';
export { disposeAnimationWorld, PARALLEL_MIN_CHARACTERS, stepParallel } from './api/threads.js';
export { drainEvents, type AnimationEvent } from './api/events.js';
export { releaseClip, releaseSkeleton, releaseMask } from './api/release.js';
export {
  getRootTransform,
  setRootTransform,
  setTargetSpeed,
  type RootTransform,
  type RootTransformUpdate,
  type TargetSpeedOptions,
} from './api/rootMotion.js';
export { rootMotionFromFeet, type FootRootMotionOptions } from './offline/rootMotionFromFeet.js';
export { setBlendSpace, blendSpaceLayers, type SetBlendSpaceOptions } from './api/blendSpaces.js';
export { solveStrideScales, STRIDE_INPUT_STRIDE, STRIDE_WEIGHT, STRIDE_TRAVEL, STRIDE_OWN_SPEED } from './math/strideScales.js';
export {
  setFollower,
  setFollowTarget,
  setFollowTargetVelocity,
  setFollowTargetAcceleration,
  getFollowPosition,
  removeFollower,
  type FollowerOptions,
  type FollowPosition,
  type FollowIntegrator,
} from './api/followers.js';
export { followSystem, followEntities, advanceFollower } from './systems/followSystem.js';
export { FOLLOW_EXACT, FOLLOW_EULER, FOLLOW_SLOTS, FOLLOW_STATE_STRIDE, FOLLOW_DEFAULT_DURATION, FOLLOW_DEFAULT_INTERVAL } from './components/Follower.js';
export {
  setLookAt,
  setReach,
  clearLookAt,
  clearReach,
  LOOK_FOLLOWER_DISTANCE,
  type LookAtOptions,
  type ReachOptions,
  type JointRef,
  type Vec3Like,
} from './api/aim.js';
export { aimSystem, aimEntities } from './systems/aimSystem.js';
export {
  setLod,
  removeLod,
  getLod,
  setLodCamera,
  registerLodLevels,
  type LodMode,
  type LodOptions,
  type LodCameraOptions,
  type LodState,
} from './api/lod.js';
export { lodSystem, lodEntities, selectLodLevel } from './systems/lodSystem.js';
export { LOD_MAX_LEVELS } from './components/Lod.js';
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
export { createReducedClip, expandFrames } from './assets/reducedClip.js';
export { createDifferenceClip, type DifferenceClipOptions } from './offline/differenceClip.js';
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
export { sampleReducedInto } from './assets/sampleReduced.js';
export {
  minJerk,
  minJerkQuintic,
  minJerkStepMatrix,
  minJerkEulerMatrix,
  MIN_JERK_REAL_ROOT,
  MIN_JERK_DAMPING,
  MIN_JERK_FREQUENCY,
  MIN_JERK_EULER_LIMIT,
} from './math/minJerk.js';
export { transition, type TransitionOptions, type TransitionMode } from './api/transitions.js';
export { MAX_LAYERS, LAYER_LOOP, LAYER_ADDITIVE, NO_CLIP } from './components/Layers.js';
export { sampleSystem, sampleEntities, advanceClock, advanceLayer, extractRootDelta, extractRootYawDelta } from './systems/sampleSystem.js';
export { sampleClipInto } from './assets/sampleClip.js';
export { blendSystem, blendEntities, blendOverrideLayers, applyAdditiveLayer } from './systems/blendSystem.js';
export { inertializeSystem, inertializeEntities, applyQuinticOffsets, applySpringOffsets } from './systems/inertializeSystem.js';
export { captureOffsets, type CaptureJob } from './systems/inertializeCapture.js';
export { defaultMaxTransitions, INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING, NO_SLOT, OFFSET_STRIDE, SLOT_STRIDE } from './components/Inertialization.js';
export { rootMotionSystem, rootMotionEntities, removeTwist } from './systems/rootMotionSystem.js';
export { getRootTrack, getRootFrame, type RootTrack, type RootFrame } from './assets/rootTrack.js';
export { ROOT_AXIS_FREE, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from './components/Layers.js';
export { skinSystem, skinEntities, computeModelPose, computeSkinPalette } from './systems/skinSystem.js';
export {
  POSE_STRIDE, POSE_T, POSE_Q, POSE_S, MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T, NO_PARENT,
} from './math/layout.js';
export { loadGltf, type GltfOptions, type GltfResult, type SkinnedMeshData } from './import/gltf.js';
export { parseScale, UNITS, type UnitName } from './import/units.js';
export { parseBvh, type BvhOptions, type BvhResult, type BvhEndSite, type BvhChannel } from './import/bvh.js';
export { vec3, quat, affine, twoBoneIk, lookAt, rotationArc } from './math/index.js';
export { solveTwoBoneIk, IK_ROOT, IK_MID, IK_END, IK_TARGET, IK_POLE, IK_WEIGHT, IK_PARAMS, IK_D1, IK_D2 } from './math/twoBoneIk.js';
export {
  solveLookAt,
  LOOK_ROTATION,
  LOOK_POSITION,
  LOOK_AXIS,
  LOOK_TARGET,
  LOOK_FORWARD,
  LOOK_UP,
  LOOK_YAW_LIMIT,
  LOOK_PITCH_LIMIT,
  LOOK_WEIGHT,
  LOOK_PARAMS,
} from './math/lookAt.js';
export { splitRotation, fromUnitVectors } from './math/rotationArc.js';
export {
  inertializeCurve,
  inertializeVelocity,
  inertializeAcceleration,
  clampInertializeTime,
  springDecay,
  halfLifeToDamping,
} from './math/inertialize.js';
export { fadeCurve, fadeCurveName, FADE_LINEAR, FADE_SMOOTHSTEP, FADE_MINJERK, FADE_EASE_IN, FADE_EASE_OUT, FADE_CURVE_KINDS, type FadeCurveName } from './math/fadeCurves.js';
export { skinVertices, type JointIndexArray } from './math/skinVertices.js';
