/** The exports the hardening tests do not call with garbage (shapes.test.ts, argumentTypes.test.ts). */
/**
 * Exports whose inputs are not checked, by design: the systems and the kernels they call (the
 * per-frame path validates nothing, STYLE "Assets and errors"), math on caller-owned buffers,
 * the numeric building blocks of the offline reducer, and four asset-level helpers in files
 * the motion-LOD work owns (listed in docs/hardening.md). Every other function export must
 * refuse garbage with an AnimationError; a new export has to be placed in one group or the other.
 */
export const UNCHECKED: ReadonlySet<string> = new Set([
  // systems and their chunked forms
  'sampleSystem', 'sampleEntities', 'blendSystem', 'blendEntities', 'inertializeSystem', 'inertializeEntities',
  'rootMotionSystem', 'rootMotionEntities', 'followSystem', 'followEntities', 'aimSystem', 'aimEntities',
  'lodSystem', 'lodEntities', 'skinSystem', 'skinEntities', 'stateMachineSystem', 'stateMachineEntities', 'enterMachineState',
  'footLockSystem', 'footLockEntities',
  // the frame's per-frame parts (src/frame.ts; `step` is the checked way to run a frame)
  'runFrame', 'beginFrame', 'endFrame', 'updateRange', 'advanceClock', 'runCallerSystems', 'chunkSystems',
  // per-frame kernels
  'advanceLayer', 'extractRootDelta', 'extractRootYawDelta', 'sampleClipInto', 'sampleReducedInto', 'sampleCurvesInto', 'retargetPose', 'blendOverrideLayers', 'blendLayeredLayers',
  'applyAdditiveLayer', 'applyQuinticOffsets', 'applySpringOffsets', 'applyDeadBlend', 'captureOffsets', 'removeTwist', 'computeModelPose',
  'computeSkinPalette', 'advanceFollower', 'selectLodLevel', 'blendSpaceWeights', 'skinVertices', 'springDecay', 'warpToMarkers', 'contactKey',
  // scalar math, numbers in and out (src/math imports nothing, so it has no AnimationError to throw; a
  // non-number gives NaN, a Symbol or BigInt the engine's TypeError), and a blend-space per-frame helper
  'minJerk', 'minJerkQuintic', 'inertializeCurve', 'inertializeVelocity', 'inertializeAcceleration', 'clampInertializeTime',
  'halfLifeToDamping', 'fadeCurve', 'pickHemisphere', 'defaultMaxTransitions',
  // math on caller-owned buffers
  'solveStrideScales', 'solveTwoBoneIk', 'solveLookAt', 'splitRotation', 'fromUnitVectors', 'minJerkStepMatrix', 'minJerkEulerMatrix',
  // numeric building blocks of reduceClip
  'reduceChannel', 'mergeKeys', 'uniformDecimation', 'uniformKeys', 'selectKeys', 'selectKeysWithOrders', 'differenceQuotient', 'fitSpline',
  'evaluateSpline', 'measureSplineError', 'keyTimes',
  // reading a reduced clip's packed tracks (the glTF writer's and tools' kernel)
  'readTrack',
  // asset helpers in files issue 14 reworks (follow-up)
  'getRootTrack', 'getRootFrame', 'measureModelError', 'jointReach',
]);
