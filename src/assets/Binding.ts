import { fail, IssueList } from './AnimationError.js';
import { describeValue } from './limits.js';
import type { Clip } from './Clip.js';
import { getRootTrack } from './rootTrack.js';
import { isSkeleton, type Skeleton } from './Skeleton.js';
import { TRANSLATION_ANIMATION, TRANSLATION_SCALED, TRANSLATION_SKELETON, type BindOptions, type Binding, type TranslationMode, type TranslationOption } from './bindingTypes.js';

export {
  TRANSLATION_ANIMATION, TRANSLATION_SCALED, TRANSLATION_SKELETON,
  type BindOptions, type Binding, type TranslationMode, type TranslationOption,
} from './bindingTypes.js';

/** The codes a translation mode's name stands for (`Binding.translationMode`). */
const MODE_CODES: Readonly<Record<TranslationMode, number>> = { skeleton: TRANSLATION_SKELETON, animation: TRANSLATION_ANIMATION, scaled: TRANSLATION_SCALED };

/** Per source, per target: bindings by a key of their resolved modes and ratio. */
const cache = new WeakMap<Skeleton, WeakMap<Skeleton, Map<string, Binding>>>();

/**
 * The {@link Binding} of `source` onto `target` under `options`, computed once per pair and
 * options and cached (the cache holds the skeletons weakly): calls that resolve to the same
 * per-joint modes and ratio return the same object, so `bindSkeletons(a, b)` is always the
 * default binding.
 *
 * @throws AnimationError for a translation that is not 'skeleton', 'animation', 'scaled' or a
 * map of the target's joint names to those, or a hip ratio that is not finite and > 0.
 * @example
 * const binding = bindSkeletons(clip.skeleton, character);                       // default
 * const legs = bindSkeletons(clip.skeleton, character, { translation: { 'Foot.L': 'animation' } });
 */
export function bindSkeletons(source: Skeleton, target: Skeleton, options: BindOptions = NO_OPTIONS): Binding {
  const issues = new IssueList('bindSkeletons');
  if (!isSkeleton(source)) fail('bindSkeletons', 'source', `is ${describeValue(source)}: must be a Skeleton from createSkeleton`);
  if (!isSkeleton(target)) fail('bindSkeletons', 'target', `is ${describeValue(target)}: must be a Skeleton from createSkeleton`);
  if (typeof options !== 'object' || options === null) fail('bindSkeletons', 'options', `is ${describeValue(options)}: must be an object (or omitted)`);
  checkTranslation(issues, 'translation', target, options.translation);
  const hipRatio = options.hipRatio ?? defaultHipRatio(source, target);
  if (!(typeof hipRatio === 'number' && Number.isFinite(hipRatio) && hipRatio > 0)) {
    issues.add('hipRatio', `is ${String(hipRatio)}: it must be a finite number > 0`);
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
  const modes = resolveModes(target, options.translation);
  const key = `${ratio}:${modes.join('')}`;
  let binding = byKey.get(key);
  if (binding === undefined) {
    const index = new Map(source.names.map((name, joint) => [name, joint]));
    const sourceJoint = new Int16Array(target.jointCount);
    const translationScale = new Float32Array(target.jointCount);
    let matched = 0;
    target.names.forEach((name, joint) => {
      const found = index.get(name) ?? -1;
      sourceJoint[joint] = found;
      if (found < 0) {
        modes[joint] = TRANSLATION_SKELETON;
        return;
      }
      matched++;
      const mode = modes[joint];
      translationScale[joint] = mode === TRANSLATION_SCALED ? ratio : mode === TRANSLATION_ANIMATION ? 1 : 0;
    });
    binding = Object.freeze({ source, target, sourceJoint, matched, translationMode: modes, translationScale, hipRatio: ratio });
    byKey.set(key, binding);
  }
  return binding;
}

const NO_OPTIONS: BindOptions = {};

/** Hip ratio of the default binding: target.hipHeight ÷ source.hipHeight, or 1 when either is 0. */
export function defaultHipRatio(source: Skeleton, target: Skeleton): number {
  return source.hipHeight > 0 && target.hipHeight > 0 ? target.hipHeight / source.hipHeight : 1;
}

/**
 * The default mode per target joint: 'scaled' for its roots, its hip joint and the joints
 * between them, 'skeleton' elsewhere; then the modes `translation` gives.
 */
function resolveModes(target: Skeleton, translation: TranslationOption | undefined): Uint8Array {
  const modes = new Uint8Array(target.jointCount); // TRANSLATION_SKELETON
  if (typeof translation === 'string') return modes.fill(MODE_CODES[translation]);
  for (let joint = 0; joint < target.jointCount; joint++) if (target.parents[joint] < 0) modes[joint] = TRANSLATION_SCALED;
  for (let joint = target.hipJoint; joint >= 0; joint = target.parents[joint]) modes[joint] = TRANSLATION_SCALED;
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
 * True when `a` and `b` have the same joints in the same order with the same rest translations
 * and hip height: a clip of one plays on the other as authored, nothing to retarget.
 */
export function sameProportions(a: Skeleton, b: Skeleton): boolean {
  if (a === b) return true;
  if (!sameJointOrder(a, b) || a.hipHeight !== b.hipHeight) return false;
  for (let o = 0; o < a.rest.length; o += 10) {
    if (a.rest[o] !== b.rest[o] || a.rest[o + 1] !== b.rest[o + 1] || a.rest[o + 2] !== b.rest[o + 2]) return false;
  }
  return true;
}

/**
 * The binding `clip` plays through on a character of skeleton `target`, or null when its poses
 * already fit: no `translation` given, and the same joints in the same order with the same
 * proportions (see {@link sameProportions}; the clip's own skeleton), so such clips play
 * exactly as authored. A given `translation` applies on every skeleton, the clip's own too.
 *
 * The hip ratio is the one root travel uses: target.hipHeight ÷ the clip's hip height
 * (`RootTrack.hipHeight`: its skeleton's rest hip height, or its mean over the clip when the
 * rest has none), 1 when either is 0 — so the scaled hips and the world travel agree. A
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
  const hipRatio = target.hipHeight > 0 && clipHips > 0 ? target.hipHeight / clipHips : 1;
  return bindSkeletons(source, target, translation === undefined ? { hipRatio } : { translation, hipRatio });
}
