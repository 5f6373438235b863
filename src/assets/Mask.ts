import { fail, IssueList } from './AnimationError.js';
import { describeValue, shownString } from './limits.js';
import { isNumberList, isSkeleton, type Skeleton } from './Skeleton.js';
import type { NumberList } from './validatePose.js';

/**
 * Per-joint blend weights in [0, 1] for partial-skeleton blending (GEA "partial-skeleton
 * blending"): a layer's weight on joint j is `layerWeight × weights[j]`, so 0 masks a joint out.
 */
export interface Mask {
  /** The skeleton whose joints the weights follow. */
  readonly skeleton: Skeleton;
  /** One weight per joint, in the skeleton's joint order. */
  readonly weights: Float32Array;
}

/**
 * Builds a {@link Mask}, either from one weight per joint or from a map of joint names to
 * weights. With a map, joints not named get 0 and, unless `descendants` is false, each named
 * joint's weight also covers its descendants (the nearest named ancestor wins) — so
 * `{ Spine: 1 }` selects the upper body.
 *
 * @throws AnimationError for unknown joint names, wrong length, or weights outside [0, 1].
 * @example
 * const upperBody = createMask(skeleton, { Spine: 1, Neck: 0.5 });
 */
export function createMask(
  skeleton: Skeleton,
  weights: NumberList | Readonly<Record<string, number>>,
  options: { descendants?: boolean } = {},
): Mask {
  const issues = new IssueList('createMask');
  if (!isSkeleton(skeleton)) fail('createMask', 'skeleton', `is ${describeValue(skeleton)}: must be a Skeleton from createSkeleton`);
  if (!isNumberList(weights) && (typeof weights !== 'object' || weights === null)) fail('createMask', 'weights', `is ${describeValue(weights)}: must be one weight per joint or a map of joint names to weights`);
  if (typeof options !== 'object' || options === null) fail('createMask', 'options', `is ${describeValue(options)}: must be an object (or omitted)`);
  const jointCount = skeleton.jointCount;
  const out = new Float32Array(jointCount);
  if (isNumberList(weights)) {
    if (weights.length !== jointCount) issues.add('weights', `must have one entry per joint (${jointCount}), has ${weights.length}`);
    for (let joint = 0; joint < Math.min(jointCount, weights.length); joint++) {
      const weight: unknown = weights[joint];
      checkWeight(issues, `weights[${joint}] (joint "${skeleton.names[joint]}")`, weight as number);
      out[joint] = typeof weight === 'number' ? weight : 0; // a Symbol or BigInt (refused) cannot be stored
    }
  } else {
    const named = new Int8Array(jointCount);
    for (const [name, weight] of Object.entries(weights)) {
      const joint = skeleton.names.indexOf(name);
      if (joint < 0) issues.add(`weights["${name}"]`, 'is not a joint of the skeleton');
      else if (checkWeight(issues, `weights["${name}"]`, weight)) {
        out[joint] = weight;
        named[joint] = 1;
      }
    }
    if (options.descendants !== false) {
      // Parents come first, so one pass hands each unnamed joint its parent's weight.
      for (let joint = 0; joint < jointCount; joint++) {
        const parent = skeleton.parents[joint];
        if (!named[joint] && parent >= 0) out[joint] = out[parent];
      }
    }
  }
  issues.throwIfAny();
  return Object.freeze({ skeleton, weights: out });
}

function checkWeight(issues: IssueList, path: string, weight: number): boolean {
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > 1) {
    issues.add(path, `is ${shownString(weight)}: must be a number in [0, 1]`);
    return false;
  }
  return true;
}
