/**
 * bitanim — a character-animation runtime for bitecs games. Public exports only.
 * @packageDocumentation
 */
export { AnimationError, type AnimationIssue } from './assets/AnimationError.js';
export { createSkeleton, findJoint, type Skeleton, type SkeletonDesc } from './assets/Skeleton.js';
export { createClip, type Clip, type ClipDesc, type ClipEvent } from './assets/Clip.js';
export { createMask, type Mask } from './assets/Mask.js';
export { bindSkeletons, type Binding } from './assets/Binding.js';
export {
  createAnimationWorld,
  type AnimationWorld,
  type AnimationWorldOptions,
  type AnimationComponents,
  type AssetRegistry,
} from './world.js';
export {
  spawnCharacter,
  removeCharacter,
  play,
  stop,
  setLayerWeight,
  step,
  getLocalPose,
  getModelMatrices,
  getSkinPalette,
  drainEvents,
  type PlayOptions,
  type AnimationEvent,
} from './api.js';
export { MAX_LAYERS, LAYER_LOOP, LAYER_ADDITIVE, NO_CLIP } from './components/Layers.js';
export { sampleSystem, sampleEntities, sampleClipInto, advanceLayer } from './systems/sampleSystem.js';
export { blendSystem, blendEntities, blendOverrideLayers, applyAdditiveLayer } from './systems/blendSystem.js';
export { skinSystem, skinEntities, computeModelPose, computeSkinPalette } from './systems/skinSystem.js';
export { POSE_STRIDE, MATRIX_STRIDE, NO_PARENT } from './math/layout.js';
export { loadGltf, type GltfOptions, type GltfResult, type SkinnedMeshData } from './import/gltf.js';
export { parseBvh, type BvhOptions, type BvhResult, type BvhEndSite, type BvhChannel } from './import/bvh.js';
export { vec3, quat, affine } from './math/index.js';
export { skinVertices, type JointIndexArray } from './math/skinVertices.js';
