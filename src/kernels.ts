/**
 * `bitanim/kernels` — the layer under the game API, for system-level tests, tools and custom
 * systems: the systems and their chunked `*Entities` forms, the frame's building blocks
 * (`beginFrame`, `runFrame`, `endFrame`), the pure math kernels (`vec3`, `quat`, `affine`,
 * IK and look-at solvers, inertialization and fade curves, minimum-jerk), pool layouts and
 * offsets (`POSE_*`, `MATRIX_*`, `IK_*`, `LOOK_*`, …), validation limits and the samplers.
 * A game needs none of it: see the main entry `bitanim`. Guides: docs/how-it-works.md, docs/ecs-components.md.
 * @packageDocumentation
 */
export { blendSpaceWeights, pickHemisphere } from './assets/BlendSpace.js';
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
export type { AssetRegistry, Scratch, PoseViews } from './world.js';
// Types the world's and the kernels' signatures use (world.events, world.lodShared, the
// allocator a scratch declaration receives, array parameters).
export type { EventQueue } from './components/EventQueue.js';
// The per-character components' types (each is also a bitecs component: `world.components.X`;
// the main entry's `AnimationComponents` names them all).
export type { CharacterComponent } from './components/Character.js';
export type { LayersComponent } from './components/Layers.js';
export type { PoolComponent } from './components/Pose.js';
export type { InertializationComponent } from './components/Inertialization.js';
export type { RootMotionComponent } from './components/RootMotion.js';
export type { FollowerComponent } from './components/Follower.js';
export type { LookAtComponent } from './components/LookAt.js';
export type { ReachComponent } from './components/Reach.js';
export { FOOT_LEGS, FOOT_NO_JOINT, FOOT_BLEND_TIME, type FootLockComponent } from './components/FootLock.js';
// A clip's contact table (`clip.contacts`), which footLockSystem reads.
export { contactKey, FOOT_DOWN, FOOT_UP, type FootContactTable } from './assets/footContactTable.js';
export type { LodComponent } from './components/Lod.js';
export type { LodShared } from './components/Lod.js';
export type { PoolAllocator, PoolArrayConstructor } from './memory/poolAllocator.js';
export type { NumArray } from './math/types.js';
export type { NumberList } from './assets/validatePose.js';
export { runFrame, beginFrame, endFrame, FRAME_CHUNK, type ScratchDeclaration, type ScratchOf, type InsertAt } from './frame.js';
export { updateRange, type UpdateList } from './components/UpdateList.js';
export { PARALLEL_MIN_CHARACTERS } from './api/threads.js';
export { solveStrideScales, STRIDE_INPUT_STRIDE, STRIDE_WEIGHT, STRIDE_TRAVEL, STRIDE_OWN_SPEED } from './math/strideScales.js';
export { followSystem, followEntities, advanceFollower } from './systems/followSystem.js';
export { FOLLOW_EXACT, FOLLOW_EULER, FOLLOW_SLOTS, FOLLOW_STATE_STRIDE, FOLLOW_DEFAULT_DURATION, FOLLOW_DEFAULT_INTERVAL } from './components/Follower.js';
export { LOOK_FOLLOWER_DISTANCE } from './api/aim.js';
export { aimSystem, aimEntities } from './systems/aimSystem.js';
export {
  footLockSystem, footLockEntities, FOOT_UNLOCK_RADIUS, FOOT_REPLANT_RADIUS, FOOT_MAX_EXTENSION, FOOT_MAX_LIFT, FOOT_JOINT_STRIDE,
  type FootLockScratch,
} from './systems/footLockSystem.js';
export { lodSystem, lodEntities, selectLodLevel } from './systems/lodSystem.js';
export { LOD_MAX_LEVELS } from './components/Lod.js';
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
export { MAX_LAYERS, DEFAULT_MAX_LAYERS, LAYER_LOOP, LAYER_ADDITIVE, LAYER_LAYERED, NO_CLIP } from './components/Layers.js';
export { sampleSystem, sampleEntities, advanceClock, advanceLayer, extractRootDelta, extractRootYawDelta } from './systems/sampleSystem.js';
export { sampleClipInto } from './assets/sampleClip.js';
export { retargetPose, type RetargetTables } from './math/retargetPose.js';
export type { Retarget } from './assets/retarget/plan.js';
export {
  blendSystem, blendEntities, blendOverrideLayers, blendLayeredLayers, applyAdditiveLayer, BLEND_STEP_AVERAGE, BLEND_STEP_LAYER, BLEND_STEP_JOIN, BLEND_STEP_KIND_SHIFT,
} from './systems/blendSystem.js';
export { inertializeSystem, inertializeEntities, applyQuinticOffsets, applySpringOffsets } from './systems/inertializeSystem.js';
export { captureOffsets, type CaptureJob } from './systems/captureOffsets.js';
export { defaultMaxTransitions, INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING, INERTIA_DEAD, NO_SLOT, OFFSET_STRIDE, SLOT_STRIDE } from './components/Inertialization.js';
export { applyDeadBlend, DEAD_MAX_ANGULAR_VELOCITY, DEAD_MAX_SCALE_RATE, DEAD_MAX_SPEED, DEAD_MIN_HALF_LIFE_RATIO } from './systems/deadBlendOffsets.js';
export { rootMotionSystem, rootMotionEntities, removeTwist } from './systems/rootMotionSystem.js';
export { getRootTrack, getRootFrame, type RootTrack, type RootFrame } from './assets/rootTrack.js';
export { getSyncMarkers, warpToMarkers, SYNC_MARKER_PREFIXES, WARP_FOLLOWER_TIME, WARP_LEADER_TIME, WARP_RATIO, WARP_TIME, type SyncMarkers } from './assets/syncMarkers.js';
export { ROOT_AXIS_FREE, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL, SYNC_BY_PHASE, SYNC_BY_MARKERS } from './components/Layers.js';
export { skinSystem, skinEntities, computeModelPose, computeSkinPalette } from './systems/skinSystem.js';
export {
  POSE_STRIDE, POSE_T, POSE_Q, POSE_S, MATRIX_STRIDE, MATRIX_X, MATRIX_Y, MATRIX_Z, MATRIX_T, NO_PARENT,
} from './math/layout.js';
export { parseScale, UNITS, type UnitName } from './import/units.js';
export type { BvhEndSite, BvhChannel } from './import/bvh.js';
export { CHANNEL_NAMES } from './import/bvh/header.js';
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
export { fadeCurve, fadeCurveName, FADE_LINEAR, FADE_SMOOTHSTEP, FADE_MINJERK, FADE_EASE_IN, FADE_EASE_OUT, FADE_CURVE_KINDS } from './math/fadeCurves.js';
export { skinVertices, type JointIndexArray, type MorphDeltas } from './math/skinVertices.js';
export { sampleCurvesInto } from './assets/sampleCurves.js';
export type { StateMachineComponent } from './components/StateMachine.js';
export { blendSpaceLayers } from './api/blendSpaces.js';
export { DEFAULT_MAX_MACHINES, MACHINE_SLOTS, MACHINE_PARAMETERS, NO_MACHINE } from './components/StateMachine.js';
export { stateMachineSystem, stateMachineEntities, enterMachineState, SWITCH_NOW, SWITCH_INERTIALIZE, SWITCH_SPRING, SWITCH_CROSSFADE, SWITCH_DEADBLEND } from './systems/stateMachineSystem.js';
export {
  isStateMachine, type BoundStateMachine, type StateMachineAssets, PARAM_FLOAT, PARAM_BOOL, PARAM_TRIGGER, STATE_CLIP, STATE_BLEND_SPACE,
  OP_GT, OP_LT, OP_GE, OP_LE, OP_EQ, OP_NE, OP_TRIGGER, MODE_INERTIALIZE, MODE_SPRING, MODE_CROSSFADE, MODE_DEADBLEND, ANY_STATE, MACHINE_NONE, MAX_PARAMETERS, MAX_STATES,
} from './assets/StateMachine.js';
export { runCallerSystems, chunkSystems } from './frame.js';
export { DEFAULT_MAX_CURVES, MAX_CURVES, type CurvesComponent } from './components/Curves.js';
export type { CurveMapRow } from './world.js';
// The kernel area report's parts (kernelAreaReport is in the main entry).
export type { KernelAreaPart, KernelFallback, KernelFallbackReason } from './api/kernelArea.js';
