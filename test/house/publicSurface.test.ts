/**
 * The public surface (issue 19 item 2): the main entry `bitanim` holds what a game calls —
 * at most 140 exported names, types included (120 at the split; the humanoid map's four joined
 * since: humanoidMap, HUMANOID_JOINTS, HumanoidJoint, HumanoidMap; the binding's options'
 * three: ReferenceOption, JointsOption, JointPair; and the offline foot tools' five, beside
 * rootMotionFromFeet: detectFootContacts, FootContactOptions, FootContacts, measureFootSkate,
 * FootSkate; and foot locking's five: setFootLock, clearFootLock, FootLockOptions, FootLockLeg,
 * FootPaths; and the kernel area's report, two: kernelAreaReport, KernelAreaReport; and clearTargetSpeed) — and the rest moved to `bitanim/kernels`
 * (systems, kernels, layouts, limits) and `bitanim/lod` (offline reduction). Nothing is lost:
 * each of the 316 names the main entry exported before the split (recorded below) is exported
 * from exactly one entry. The subpaths resolve as a user meets them:
 * in Node through package.json `exports` (self-reference from a file inside the package, over
 * a build in a temporary folder: no race with tests that run `npm run build`), in TypeScript
 * through the `types` condition, and in vite through the sandbox's aliases.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportNames, typeErrors } from '../../scripts/exportNames.mjs';

const root = new URL('../../', import.meta.url).pathname;
const ENTRIES = ['index', 'kernels', 'lod'] as const;
const MAX_MAIN_NAMES = 140; // 139, and clearTargetSpeed (a target speed survives switches until cleared)

/** Every name `src/index.ts` exported before the split (`node scripts/exportNames.mjs dist/index.d.ts` at 7814e4c). */
const BEFORE = `
  AnimationComponents AnimationError AnimationEvent AnimationIssue AnimationWorld AnimationWorldOptions
  AssetRegistry BindOptions Binding BlendSpace BlendSpaceDesc BlendSpaceSample BlendSpaceType BvhChannel
  BvhEndSite BvhOptions BvhResult CaptureJob ChannelReduction CharacterComponent Clip ClipDesc ClipEvent
  DifferenceClipOptions EventRecord FADE_CURVE_KINDS FADE_EASE_IN FADE_EASE_OUT FADE_LINEAR FADE_MINJERK
  FADE_SMOOTHSTEP FLOAT32_MAX FLOAT32_MIN_NORMAL FOLLOW_DEFAULT_DURATION FOLLOW_DEFAULT_INTERVAL FOLLOW_EULER
  FOLLOW_EXACT FOLLOW_SLOTS FOLLOW_STATE_STRIDE FRAME_CHUNK FadeCurveName FitSplineOptions FollowIntegrator
  FollowPosition FollowerComponent FollowerOptions FootRootMotionOptions Frame FrameSystem GltfOptions
  GltfResult IK_D1 IK_D2 IK_END IK_MID IK_PARAMS IK_POLE IK_ROOT IK_TARGET IK_WEIGHT INERTIA_NONE
  INERTIA_QUINTIC INERTIA_SPRING InertializationComponent InsertAt JointIndexArray JointRef KernelChoice
  KeySelection LAYER_ADDITIVE LAYER_LOOP LOD_MAX_LEVELS LOOK_AXIS LOOK_FOLLOWER_DISTANCE LOOK_FORWARD
  LOOK_PARAMS LOOK_PITCH_LIMIT LOOK_POSITION LOOK_ROTATION LOOK_TARGET LOOK_UP LOOK_WEIGHT LOOK_YAW_LIMIT
  LayersComponent LodCameraOptions LodComponent LodMode LodOptions LodState LookAtComponent LookAtOptions
  MATRIX_STRIDE MATRIX_T MATRIX_X MATRIX_Y MATRIX_Z MAX_DT MAX_DURATION MAX_EVENTS MAX_FRAME_RATE
  MAX_JOINTS MAX_LAYERS MAX_PLAYBACK_RATE MAX_TIME MAX_WEIGHT MAX_WORLD_BYTES MIN_DURATION MIN_JERK_DAMPING
  MIN_JERK_EULER_LIMIT MIN_JERK_FREQUENCY MIN_JERK_REAL_ROOT Mask ModelError ModelErrorOptions NO_CLIP
  NO_PARENT OFFSET_STRIDE PACKED_STRIDE_3 PACKED_STRIDE_4 PARALLEL_MIN_CHARACTERS POSE_Q POSE_S POSE_STRIDE
  POSE_T PlayOptions PoolComponent RECORD_STRIDE_1 RECORD_STRIDE_3 RECORD_STRIDE_4 ROOT_AXIS_FORWARD
  ROOT_AXIS_FREE ROOT_AXIS_LATERAL ReachComponent ReachOptions ReduceChannelOptions ReduceClipOptions
  ReducedChannel ReducedClipStats ReducedTracks RootFrame RootMotionComponent RootTrack RootTransform
  RootTransformUpdate SPLINE_STRIDE STRIDE_INPUT_STRIDE STRIDE_OWN_SPEED STRIDE_TRAVEL STRIDE_WEIGHT Scratch
  ScratchDeclaration ScratchOf SelectKeysOptions SetBlendSpaceOptions Skeleton SkeletonDesc SkinnedMeshData
  SpawnOptions SplineDegree SplineFit TRACK_Q TRACK_Q16 TRACK_S TRACK_S1 TRACK_S16 TRACK_T TRACK_T16
  TargetSpeedOptions TrackCubics TransitionMode TransitionOptions TranslationMode TranslationOption UNITS
  UniformReduction UnitName UpdateList Vec3Like advanceClock advanceFollower advanceLayer affine aimEntities
  aimSystem applyAdditiveLayer applyQuinticOffsets applySpringOffsets bakeLod beginFrame bindSkeletons
  blendEntities blendOverrideLayers blendSpaceLayers blendSpaceWeights blendSystem captureOffsets
  clampInertializeTime clearLookAt clearReach computeModelPose computeSkinPalette createAnimationWorld
  createBlendSpace createClip createDifferenceClip createFrame createMask createReducedClip createReducedTracks
  createSkeleton defaultErrorDistance defaultFrame differenceQuotient disposeAnimationWorld drainEachEvent
  drainEvents endFrame evaluateSpline expandFrames extractRootDelta extractRootYawDelta fadeCurve
  fadeCurveName findJoint fitSpline followEntities followSystem fromUnitVectors getFollowPosition
  getLocalPose getLod getModelMatrices getRootFrame getRootTrack getRootTransform getSkinPalette
  halfLifeToDamping inertializeAcceleration inertializeCurve inertializeEntities inertializeSystem
  inertializeVelocity insertSystem jointReach keyTimes loadGltf loadKernels lodEntities lodSystem
  lookAt measureModelError measureSplineError mergeKeys minJerk minJerkEulerMatrix minJerkQuintic
  minJerkStepMatrix parseBvh parseScale pickHemisphere play quat readTrack reduceChannel reduceClip
  registerLodLevels releaseClip releaseMask releaseSkeleton removeCharacter removeFollower removeLod
  removeTwist rootMotionEntities rootMotionFromFeet rootMotionSystem rotationArc runFrame sampleClipInto
  sampleEntities sampleReducedInto sampleSystem selectKeys selectKeysWithOrders selectLodLevel setBlendSpace
  setFollowTarget setFollowTargetAcceleration setFollowTargetVelocity setFollower setLayerWeight setLod
  setLodCamera setLookAt setReach setRootTransform setTargetSpeed skinEntities skinSystem skinVertices
  solveLookAt solveStrideScales solveTwoBoneIk spawnCharacter splitRotation springDecay step stepParallel
  stop transition twoBoneIk uniformDecimation uniformKeys updateRange vec3 worldBytes
`.split(/\s+/).filter(Boolean);

let pkg = '';
let names: Record<(typeof ENTRIES)[number], string[]>;

beforeAll(() => {
  // A copy of the package as it installs: package.json, dist/ (tsc of tsconfig.build.json),
  // and node_modules for its dependencies.
  pkg = mkdtempSync(join(tmpdir(), 'bitanim-surface-'));
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')], { cwd: root, stdio: 'pipe' });
  const read = exportNames(ENTRIES.map((entry) => join(pkg, 'dist', `${entry}.d.ts`)));
  names = Object.fromEntries(ENTRIES.map((entry) => [entry, read.get(join(pkg, 'dist', `${entry}.d.ts`))!])) as typeof names;
}, 60_000);

afterAll(() => {
  if (pkg) rmSync(pkg, { recursive: true, force: true });
});

describe('the entries\' .d.ts', () => {
  it(`the main entry exports at most ${MAX_MAIN_NAMES} names, types included`, () => {
    expect(names.index.length).toBeGreaterThan(50); // read, not an empty file
    expect(names.index.length).toBeLessThanOrEqual(MAX_MAIN_NAMES);
  });

  it('nothing is lost: every name exported before is exported from one entry (new names may join)', () => {
    expect(BEFORE).toHaveLength(316);
    const all = [...names.index, ...names.kernels, ...names.lod];
    expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]); // disjoint
    expect(BEFORE.filter((name) => !all.includes(name))).toEqual([]);
  });

  it('what a game calls is in the main entry; systems, layouts and the reducer are not', () => {
    for (const name of ['createAnimationWorld', 'step', 'stepParallel', 'play', 'transition', 'loadGltf', 'parseBvh', 'setBlendSpace', 'setFollowTarget', 'setLookAt', 'setLod', 'drainEvents', 'AnimationError', 'getSkinPalette', 'humanoidMap', 'HUMANOID_JOINTS', 'HumanoidJoint', 'HumanoidMap']) {
      expect(names.index, name).toContain(name);
    }
    for (const name of ['sampleSystem', 'skinEntities', 'POSE_STRIDE', 'IK_PARAMS', 'beginFrame', 'quat']) expect(names.kernels, name).toContain(name);
    for (const name of ['reduceClip', 'bakeLod', 'fitSpline', 'selectKeys', 'measureModelError']) expect(names.lod, name).toContain(name);
  });
});

describe('the subpaths resolve', () => {
  it('in Node: bitanim, bitanim/kernels and bitanim/lod by self-reference through package.json exports', () => {
    writeFileSync(join(pkg, 'probe.mjs'), [
      "const entries = { index: await import('bitanim'), kernels: await import('bitanim/kernels'), lod: await import('bitanim/lod') };",
      'console.log(JSON.stringify(Object.fromEntries(Object.entries(entries).map(([k, m]) => [k, Object.keys(m).sort()]))));',
    ].join('\n'));
    const runtime = JSON.parse(execFileSync(process.execPath, [join(pkg, 'probe.mjs')], { cwd: pkg, encoding: 'utf8' })) as Record<string, string[]>;
    for (const entry of ENTRIES) {
      // The values of each entry, as its .d.ts declares them (types have no runtime name).
      expect(runtime[entry]!.length, entry).toBeGreaterThan(0);
      expect(runtime[entry]!.filter((name) => !names[entry].includes(name)), entry).toEqual([]);
    }
    expect(runtime.index).toContain('createAnimationWorld');
    expect(runtime.kernels).toContain('sampleClipInto');
    expect(runtime.lod).toContain('reduceClip');
  });

  it('in TypeScript: the types condition of each subpath (NodeNext resolution from a consumer)', () => {
    const consumer = join(pkg, 'consumer.mts');
    writeFileSync(consumer, [
      "import { createAnimationWorld, type AnimationWorld } from 'bitanim';",
      "import { POSE_STRIDE, sampleClipInto } from 'bitanim/kernels';",
      "import { reduceClip, type ReduceClipOptions } from 'bitanim/lod';",
      'const world: AnimationWorld = createAnimationWorld({ maxEntities: 1, maxJoints: 1 });',
      'const options: ReduceClipOptions = { tolerance: 0.001 };',
      'export const used = [world, options, POSE_STRIDE, sampleClipInto, reduceClip];',
    ].join('\n'));
    const errors = typeErrors([consumer]);
    expect(errors).toEqual([]);
  }, 30_000);

  it('in vite: the sandbox config maps each subpath to its source entry (and `bitanim` not as a prefix)', async () => {
    const { resolveConfig } = await import('vite');
    const config = await resolveConfig({ configFile: join(root, 'sandbox/vite.config.ts'), logLevel: 'silent' }, 'build');
    const resolve = config.createResolver();
    const importer = join(root, 'sandbox/src/main.ts');
    expect(await resolve('bitanim', importer)).toBe(join(root, 'src/index.ts'));
    expect(await resolve('bitanim/kernels', importer)).toBe(join(root, 'src/kernels.ts'));
    expect(await resolve('bitanim/lod', importer)).toBe(join(root, 'src/lod.ts'));
  }, 30_000);
});
