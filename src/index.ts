/**
 * bitanim — a character-animation runtime for bitecs games: what a game calls.
 *
 * World and frame, assets, import, playback, transitions, root motion, blend spaces, state machines,
 * followers and aiming, LOD control, events and errors. Three more entry points hold the rest:
 * `bitanim/kernels` (systems, math kernels, pool layouts and limits, for system-level tests
 * and tools), `bitanim/lod` (offline clip reduction and authoring) and `bitanim/pixi` (drawing
 * with pixi.js). Every name is exported from exactly one entry.
 * @packageDocumentation
 */
export { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
export { createSkeleton, findJoint, type Skeleton, type SkeletonDesc } from './assets/Skeleton.js';
export { createClip, type Clip, type ClipDesc, type ClipEvent } from './assets/Clip.js';
export { createMask, type Mask } from './assets/Mask.js';
export { bindSkeletons, type Binding, type BindOptions, type ReferenceOption, type TranslationMode, type TranslationOption } from './assets/Binding.js';
export { humanoidMap, HUMANOID_JOINTS, type HumanoidJoint, type HumanoidMap } from './assets/humanoid/humanoidMap.js';
export type { JointPair, JointsOption } from './assets/humanoid/jointMap.js';
export { createBlendSpace, type BlendSpace, type BlendSpaceDesc, type BlendSpaceSample, type BlendSpaceType } from './assets/BlendSpace.js';
export { createDifferenceClip, type DifferenceClipOptions } from './offline/differenceClip.js';
export { rootMotionFromFeet, type FootRootMotionOptions } from './offline/rootMotionFromFeet.js';
export { detectFootContacts, type FootContactOptions, type FootContacts } from './offline/footContacts.js';
export { measureFootSkate, type FootSkate, type FootPaths } from './offline/footSkate.js';
export { releaseClip, releaseSkeleton, releaseMask } from './api/release.js';
export { type AnimationWorld, type AnimationWorldOptions, type AnimationComponents } from './world.js';
export { createAnimationWorld, worldBytes } from './api/world.js';
export { kernelAreaReport, type KernelAreaReport } from './api/kernelArea.js';
export { loadKernels, type KernelChoice } from './wasm/loader.js';
export { createFrame, insertSystem, defaultFrame, type Frame, type FrameSystem } from './frame.js';
export { spawnCharacter, removeCharacter, getLocalPose, getModelMatrices, getSkinPalette, type SpawnOptions } from './api/characters.js';
export { getJointWorldMatrix } from './api/sockets.js';
export { curveIndex } from './assets/sampleCurves.js';
export { getCurves } from './api/curves.js';
export { play, stop, setLayerWeight, type PlayOptions } from './api/playback.js';
export { step } from './api/step.js';
export { disposeAnimationWorld, stepParallel } from './api/threads.js';
export { drainEachEvent, drainEvents, type AnimationEvent, type EventRecord } from './api/events.js';
export { transition, type TransitionOptions, type TransitionMode } from './api/transitions.js';
export type { FadeCurveName } from './math/fadeCurves.js';
export {
  getRootTransform,
  setRootTransform,
  setTargetSpeed,
  clearTargetSpeed,
  type RootTransform,
  type RootTransformUpdate,
  type TargetSpeedOptions,
} from './api/rootMotion.js';
export { setBlendSpace, type SetBlendSpaceOptions } from './api/blendSpaces.js';
export { createStateMachine, type StateMachine, type StateMachineDesc } from './assets/StateMachine.js';
export { setStateMachine, setParameter, fireTrigger, getState, type SetStateMachineOptions } from './api/stateMachines.js';
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
export { setLookAt, setReach, clearLookAt, clearReach, type LookAtOptions, type ReachOptions, type JointRef, type Vec3Like } from './api/aim.js';
export { setFootLock, clearFootLock, type FootLockOptions, type FootLockLeg } from './api/footLock.js';
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
export { loadGltf, type GltfMaterial, type GltfOptions, type GltfResult, type SkinnedMeshData } from './import/gltf.js';
export { loadGltfFile } from './import/gltfFile.js';
export { loadGltfUrl, type GltfUrlOptions, type GltfFetch, type GltfFetchResponse } from './import/gltfUrl.js';
export { parseBvh, type BvhOptions, type BvhResult } from './import/bvh.js';
