import { fail, IssueList } from './AnimationError.js';
import { describeValue, shownString } from './limits.js';
import type { Clip } from './Clip.js';
import { getRootTrack } from './rootTrack.js';
import { computeRestModel, isSkeleton, type Skeleton } from './Skeleton.js';
import { TRANSLATION_ANIMATION, TRANSLATION_SCALED, TRANSLATION_SKELETON, type BindOptions, type Binding, type ReferenceOption, type TranslationMode, type TranslationOption } from './bindingTypes.js';
import { humanoidMap } from './humanoid/humanoidMap.js';
import { resolveJointMap } from './humanoid/jointMap.js';
import { canonicalPose, facingAngle, standingHipHeight } from './retarget/canonical.js';
import { planRetarget } from './retarget/plan.js';
import { bindPose, modelReference } from './retarget/reference.js';
import { AnimationError } from './AnimationError.js';
import { copyValidatedPose, QUATERNION_TOLERANCE } from './validatePose.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_STRIDE } from '../math/layout.js';

export {
  TRANSLATION_ANIMATION, TRANSLATION_SCALED, TRANSLATION_SKELETON,
  type BindOptions, type Binding, type ReferenceOption, type TranslationMode, type TranslationOption,
} from './bindingTypes.js';

/** The options bindSkeletons knows (any other is refused). */
const BIND_OPTIONS = new Set(['translation', 'hipRatio', 'reference', 'joints']);

/** The codes a translation mode's name stands for (`Binding.translationMode`). */
const MODE_CODES: Readonly<Record<TranslationMode, number>> = { skeleton: TRANSLATION_SKELETON, animation: TRANSLATION_ANIMATION, scaled: TRANSLATION_SCALED };

/** Per source, per target: bindings by a key of their resolved modes and ratio. */
const cache = new WeakMap<Skeleton, WeakMap<Skeleton, Map<string, Binding>>>();
/** Every binding bindSkeletons made (what {@link isBinding} checks). */
const made = new WeakSet<object>();

/** True when `value` is a Binding from {@link bindSkeletons}. */
export function isBinding(value: unknown): value is Binding {
  return typeof value === 'object' && value !== null && made.has(value);
}

/**
 * The {@link Binding} of `source` onto `target` under `options`: joints paired by `joints`
 * (default 'auto': names, else as humanoids), rotations transferred through `reference`
 * (default 'canonical' for two humanoids, else 'rest'), translations by `translation`. Computed
 * once per pair and options and cached (the cache holds the skeletons weakly): calls that
 * resolve to the same rule, reference kind, per-joint modes and ratio return the same object,
 * so `bindSkeletons(a, b)` is always the default binding (given poses and joint records make a
 * binding each call).
 *
 * @throws AnimationError for an unknown option; a translation that is not 'skeleton',
 * 'animation', 'scaled' or a map of the target's joint names to those; a hip ratio that is not
 * finite and > 0; joints the skeletons cannot pair by (which skeleton is not a humanoid, and
 * why; a record's unknown names or a pair that breaks the hierarchy); a reference that is none
 * of the above, or poses of the wrong length or with bad values (naming the joint).
 * @example
 * const binding = bindSkeletons(clip.skeleton, character);                       // default
 * const legs = bindSkeletons(clip.skeleton, character, { translation: { 'Foot.L': 'animation' } });
 * const capture = bindSkeletons(cmuWalk.skeleton, robot, { joints: 'humanoid', reference: 'canonical' });
 * play(world, eid, cmuWalk, { binding: capture });
 */
export function bindSkeletons(source: Skeleton, target: Skeleton, options: BindOptions = NO_OPTIONS): Binding {
  const issues = new IssueList('bindSkeletons');
  if (!isSkeleton(source)) fail('bindSkeletons', 'source', `is ${describeValue(source)}: must be a Skeleton from createSkeleton`);
  if (!isSkeleton(target)) fail('bindSkeletons', 'target', `is ${describeValue(target)}: must be a Skeleton from createSkeleton`);
  if (typeof options !== 'object' || options === null) fail('bindSkeletons', 'options', `is ${describeValue(options)}: must be an object (or omitted)`);
  for (const key of Object.keys(options)) if (!BIND_OPTIONS.has(key)) issues.add(key, `is not an option of bindSkeletons (${[...BIND_OPTIONS].join(', ')})`);
  checkTranslation(issues, 'translation', target, options.translation);
  issues.throwIfAny();
  const joints = options.joints ?? 'auto';
  const map = resolveJointMap(source, target, joints, 'bindSkeletons');
  const references = readReference(issues, source, target, options.reference);
  const hipRatio = options.hipRatio ?? defaultHipRatio(source, target);
  if (!(typeof hipRatio === 'number' && Number.isFinite(hipRatio) && hipRatio > 0)) {
    issues.add('hipRatio', `is ${shownString(hipRatio)}: it must be a finite number > 0`);
  } else if (options.hipRatio !== undefined && (hipRatio < 1e-6 || hipRatio > 1e6)) {
    issues.add('hipRatio', `is ${hipRatio}: it must lie in [1e-6, 1e6] (it scales translations stored as 32-bit floats)`);
  }
  issues.throwIfAny();
  let byTarget = cache.get(source);
  if (byTarget === undefined) {
    byTarget = new WeakMap();
    cache.set(source, byTarget);
  }
  let byKey = byTarget.get(target);
  if (byKey === undefined) {
    byKey = new Map();
    byTarget.set(target, byKey);
  }
  const ratio = Math.fround(hipRatio);
  // Under a humanoid map the hips are the humanoid hips (RobotExpressive's `Body`, not its `Hips`).
  const hips = map.rule === 'humanoid' ? target.names.indexOf(humanoidMap(target).joints.hips!) : target.hipJoint;
  const modes = resolveModes(target, options.translation, hips);
  // Given poses and joint records make bindings of their own (not cached: compared by content nowhere).
  const key = references.kind === 'pose' || map.rule === 'map' ? null : `${ratio}:${references.kind}:${map.rule}:${modes.join('')}`;
  let binding = key === null ? undefined : byKey.get(key);
  if (binding === undefined) {
    const sourceJoint = map.sourceJoint;
    const translationScale = new Float32Array(target.jointCount);
    let matched = 0;
    target.names.forEach((_, joint) => {
      const found = sourceJoint[joint];
      if (found < 0) {
        modes[joint] = TRANSLATION_SKELETON;
        return;
      }
      matched++;
      const mode = modes[joint];
      translationScale[joint] = mode === TRANSLATION_SCALED ? ratio : mode === TRANSLATION_ANIMATION ? 1 : 0;
    });
    const poses = references.poses();
    const sourceLocal = poses.source ?? source.rest, targetLocal = poses.target ?? target.rest;
    const retarget = planRetarget({
      source, target, sourceJoint, translationMode: modes, translationScale, hipRatio: ratio,
      sourceReference: modelReference(source.parents, sourceLocal), targetReference: modelReference(target.parents, targetLocal), targetLocal,
      ...(poses.facing === undefined ? {} : { facing: poses.facing }),
    });
    binding = Object.freeze({
      source, target, sourceJoint, matched, pairs: map.pairs, joints: map.rule, translationMode: modes, translationScale, hipRatio: ratio,
      reference: references.kind, retarget,
    });
    made.add(binding);
    if (key !== null) byKey.set(key, binding);
  }
  return binding;
}

/** Local reference poses of both skeletons (`jointCount × 10`; null: the rest pose), and the turn between their facings (canonical only). */
type ReferencePoses = { source: ArrayLike<number> | null; target: ArrayLike<number> | null; facing?: Float64Array };

/** The canonical references of two humanoids, with the turn from the source's facing to the target's when they differ. */
function canonicalPoses(source: Skeleton, sourceMap: HumanoidJoints, target: Skeleton, targetMap: HumanoidJoints): ReferencePoses {
  let turn = facingAngle(target, targetMap) - facingAngle(source, sourceMap);
  turn -= 2 * Math.PI * Math.round(turn / (2 * Math.PI));
  const poses: ReferencePoses = { source: canonicalPose(source, sourceMap), target: canonicalPose(target, targetMap) };
  // Facings within a millionth of a radian are the same (an exact identity keeps the plain path).
  if (Math.abs(turn) > 1e-6) poses.facing = Float64Array.of(0, Math.sin(turn / 2), 0, Math.cos(turn / 2));
  return poses;
}

type HumanoidJoints = ReturnType<typeof humanoidMap>['joints'];
const REST_POSES: ReferencePoses = { source: null, target: null };

/**
 * The kind of `options.reference`, checked, and its poses, computed only when called (a cached
 * binding needs none).
 */
function readReference(
  issues: IssueList, source: Skeleton, target: Skeleton, reference: unknown,
): { kind: Binding['reference']; poses: () => ReferencePoses } {
  const rest = { kind: 'rest' as const, poses: () => REST_POSES };
  if (reference === undefined) {
    // Humanoids transfer through their canonical poses (rigs modelled in other poses agree
    // there); other skeletons through their rests.
    const sourceMap = humanoidOrNull(source), targetMap = humanoidOrNull(target);
    if (sourceMap === null || targetMap === null) return rest;
    return { kind: 'canonical', poses: () => canonicalPoses(source, sourceMap, target, targetMap) };
  }
  if (reference === 'rest') return rest;
  if (reference === 'bind') return { kind: 'bind', poses: () => ({ source: bindPose(source), target: bindPose(target) }) };
  if (reference === 'canonical') {
    // humanoidMap says why a skeleton is not a humanoid.
    const sourceMap = humanoidMap(source).joints, targetMap = humanoidMap(target).joints;
    return { kind: 'canonical', poses: () => canonicalPoses(source, sourceMap, target, targetMap) };
  }
  if (typeof reference !== 'object' || reference === null || Array.isArray(reference) || ArrayBuffer.isView(reference)) {
    issues.add('reference', `is ${describeValue(reference)}: it must be 'canonical', 'rest', 'bind' or { source?, target? } (local poses, 10 floats per joint)`);
    return rest;
  }
  for (const key of Object.keys(reference)) if (key !== 'source' && key !== 'target') issues.add(`reference.${key}`, 'is not a field of reference (source, target)');
  const read = (field: 'source' | 'target', skeleton: Skeleton): Float32Array | null => {
    const pose = (reference as Record<string, unknown>)[field];
    if (pose === undefined) return null;
    const length = skeleton.jointCount * POSE_STRIDE;
    if (!(ArrayBuffer.isView(pose) || Array.isArray(pose)) || (pose as ArrayLike<number>).length !== length) {
      issues.add(`reference.${field}`, `is ${describeValue(pose)}: it must be a pose of the ${field} skeleton, ${length} numbers (10 per joint)`);
      return null;
    }
    const copy = new Float32Array(length);
    copyValidatedPose(issues, `reference.${field}`, skeleton.names, pose as ArrayLike<number>, 0, copy, 0, skeleton.jointCount, QUATERNION_TOLERANCE);
    return copy;
  };
  const poses = { source: read('source', source), target: read('target', target) };
  return { kind: 'pose', poses: () => poses };
}

const NO_OPTIONS: BindOptions = {};

/** The humanoid joints of `skeleton`, or null when it is not a humanoid. */
function humanoidOrNull(skeleton: Skeleton): ReturnType<typeof humanoidMap>['joints'] | null {
  try {
    return humanoidMap(skeleton).joints;
  } catch (error) {
    if (error instanceof AnimationError) return null;
    throw error;
  }
}

/**
 * Hip ratio of the default binding: for two humanoids paired as such {@link humanoidHipRatio},
 * else target.hipHeight ÷ source.hipHeight, or when either is 0 (a capture's rest floats at
 * y = 0) the ratio of their hips above their lowest joint in the rest pose (1 when either has none).
 */
export function defaultHipRatio(source: Skeleton, target: Skeleton): number {
  return humanoidHipRatio(source, target) ?? (source.hipHeight > 0 && target.hipHeight > 0 ? target.hipHeight / source.hipHeight : standingRatio(source, target));
}

/**
 * The ratio of the two skeletons' hips above their lowest joint in the rest pose, for those
 * whose rest has no hip height (a motion capture's rest floats around its hips at y = 0), 1
 * when either has none.
 */
function standingRatio(source: Skeleton, target: Skeleton): number {
  const a = restStanding(source), b = restStanding(target);
  return a > 0 && b > 0 && Number.isFinite(b / a) ? b / a : 1;
}

/** {@link restStanding} per skeleton (bindClip runs on transition's per-frame path: computed once). */
const standing = new WeakMap<Skeleton, number>();

/** How high a skeleton's hip joint stands above its lowest joint in its rest pose (0 without a hip joint). */
function restStanding(skeleton: Skeleton): number {
  let height = standing.get(skeleton);
  if (height === undefined) {
    height = 0;
    if (skeleton.hipJoint >= 0) {
      const model = computeRestModel(skeleton.parents, skeleton.rest);
      let lowest = Infinity;
      for (let j = 0; j < skeleton.jointCount; j++) lowest = Math.min(lowest, model[j * MATRIX_STRIDE + MATRIX_T + 1]);
      height = model[skeleton.hipJoint * MATRIX_STRIDE + MATRIX_T + 1] - lowest;
    }
    standing.set(skeleton, height);
  }
  return height;
}

/**
 * The default mode per target joint: 'scaled' for its roots, its hips (`hips`: the hip joint,
 * or the humanoid hips under a humanoid map) and the joints between them, 'skeleton'
 * elsewhere; then the modes `translation` gives.
 */
function resolveModes(target: Skeleton, translation: TranslationOption | undefined, hips: number): Uint8Array {
  const modes = new Uint8Array(target.jointCount); // TRANSLATION_SKELETON
  if (typeof translation === 'string') return modes.fill(MODE_CODES[translation]);
  for (let joint = 0; joint < target.jointCount; joint++) if (target.parents[joint] < 0) modes[joint] = TRANSLATION_SCALED;
  for (let joint = hips; joint >= 0; joint = target.parents[joint]) modes[joint] = TRANSLATION_SCALED;
  if (translation !== undefined) {
    for (const [name, mode] of Object.entries(translation)) modes[target.names.indexOf(name)] = MODE_CODES[mode];
  }
  return modes;
}

/**
 * Checks a `translation` option for bindings onto `target`, recording faults in `issues` under
 * `field`; `undefined` (the default) is accepted.
 */
export function checkTranslation(issues: IssueList, field: string, target: Skeleton, translation: unknown): void {
  if (translation === undefined) return;
  if (typeof translation === 'string') {
    if (!isMode(translation)) issues.add(field, `is '${translation}': it must be 'skeleton', 'animation', 'scaled' or a map of joint names to those`);
    return;
  }
  if (typeof translation !== 'object' || translation === null || Array.isArray(translation)) {
    issues.add(field, `is ${Array.isArray(translation) ? 'an array' : String(translation)}: it must be 'skeleton', 'animation', 'scaled' or a map of joint names to those`);
    return;
  }
  for (const [name, mode] of Object.entries(translation)) {
    if (!target.names.includes(name)) issues.add(`${field}["${name}"]`, `names no joint of the character's skeleton`);
    else if (!isMode(mode)) issues.add(`${field}["${name}"]`, `is ${typeof mode === 'string' ? `'${mode}'` : String(mode)}: it must be 'skeleton', 'animation' or 'scaled'`);
  }
}

function isMode(v: unknown): v is TranslationMode {
  return v === 'skeleton' || v === 'animation' || v === 'scaled';
}

/** True when `source` poses are already in `target`'s joint order (no binding needed). */
export function sameJointOrder(source: Skeleton, target: Skeleton): boolean {
  return source === target || (source.jointCount === target.jointCount && source.names.every((n, j) => n === target.names[j]));
}

/**
 * True when `a` and `b` have the same joints in the same order and hierarchy with the same
 * rest pose and hip height: a clip of one plays on the other as authored, nothing to retarget.
 */
export function sameProportions(a: Skeleton, b: Skeleton): boolean {
  if (a === b) return true;
  if (!sameJointOrder(a, b) || a.hipHeight !== b.hipHeight || !sameParents(a, b)) return false;
  for (let o = 0; o < a.rest.length; o++) if (a.rest[o] !== b.rest[o]) return false;
  return true;
}

function sameParents(a: Skeleton, b: Skeleton): boolean {
  for (let j = 0; j < a.jointCount; j++) if (a.parents[j] !== b.parents[j]) return false;
  return true;
}

/**
 * The binding `clip` plays through on a character of skeleton `target`, or null when its poses
 * already fit: no `translation` given, and the same joints in the same order with the same
 * proportions (see {@link sameProportions}; the clip's own skeleton), so such clips play
 * exactly as authored. A given `translation` applies on every skeleton, the clip's own too.
 *
 * The hip ratio is the one root travel uses: for two humanoids paired as such, their standing
 * hip heights' ({@link humanoidHipRatio}); else target.hipHeight ÷ the clip's hip height
 * (`RootTrack.hipHeight`: its skeleton's rest hip height, or its mean over the clip when the
 * rest has none) — so the scaled hips and the world travel agree; when either is 0 (a
 * capture's rest floats at y = 0), the ratio of the hips above the lowest joint in the two rests. A
 * difference clip (`createDifferenceClip`) takes its skeleton's rest hip height instead.
 * Validate `translation` with {@link checkTranslation} first.
 */
export function bindClip(clip: Clip, target: Skeleton, translation?: TranslationOption): Binding | null {
  const source = clip.skeleton;
  // Without `translation`, the clip's own skeleton (or a copy) plays it as authored; with it,
  // the modes apply there too, as on any other skeleton.
  if (translation === undefined && sameProportions(source, target)) return null;
  // A difference clip's hip translation is a difference (centimetres), not a height: its mean
  // is no hip height, so only its skeleton's rest hip height can give the ratio (else 1).
  const clipHips = clip.difference === true ? source.hipHeight : getRootTrack(clip).hipHeight;
  const hipRatio = humanoidHipRatio(source, target) ?? (target.hipHeight > 0 && clipHips > 0 ? target.hipHeight / clipHips : standingRatio(source, target));
  if (translation !== undefined) return bindSkeletons(source, target, { translation, hipRatio });
  // The default binding by ratio, looked up without allocating (transition calls this every frame).
  let byTarget = defaults.get(source);
  if (byTarget === undefined) defaults.set(source, (byTarget = new WeakMap()));
  let byRatio = byTarget.get(target);
  if (byRatio === undefined) byTarget.set(target, (byRatio = new Map()));
  let binding = byRatio.get(hipRatio);
  if (binding === undefined) byRatio.set(hipRatio, (binding = bindSkeletons(source, target, { hipRatio })));
  return binding;
}

/** Per source, per target: the humanoid hip ratio of {@link humanoidHipRatio} (null: none). */
const humanoidRatios = new WeakMap<Skeleton, WeakMap<Skeleton, number | null>>();

/**
 * The hip ratio of two skeletons that pair as humanoids (joints 'auto' resolves to 'humanoid'):
 * the target's standing hip height over the source's, both in the canonical pose (legs straight
 * down, above the lowest joint), so a capture whose rest stands at the origin or a rig modelled
 * in a half-step gets the ratio of their legs; null for other pairs (which keep the clip's hip
 * height, `RootTrack.hipHeight`). Computed once per pair.
 */
export function humanoidHipRatio(source: Skeleton, target: Skeleton): number | null {
  let byTarget = humanoidRatios.get(source);
  if (byTarget === undefined) humanoidRatios.set(source, (byTarget = new WeakMap()));
  let ratio = byTarget.get(target);
  if (ratio === undefined) {
    ratio = null;
    const from = humanoidOrNull(source), to = humanoidOrNull(target);
    if (from !== null && to !== null && resolveJointMap(source, target, 'auto').rule === 'humanoid') {
      const a = standingHipHeight(source, from), b = standingHipHeight(target, to);
      if (a > 0 && b > 0 && Number.isFinite(b / a)) ratio = b / a;
    }
    byTarget.set(target, ratio);
  }
  return ratio;
}

/** bindClip's default bindings: per source, per target, by hip ratio. */
const defaults = new WeakMap<Skeleton, WeakMap<Skeleton, Map<number, Binding>>>();
