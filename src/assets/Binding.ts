import type { Skeleton } from './Skeleton.js';

/**
 * How a clip made for one skeleton (`source`) plays on another (`target`): name binding,
 * retargeting in the simplest sense (GEA "animation retargeting").
 *
 * The rule:
 * 1. Joints are matched by exact name; order, count and hierarchy may differ.
 * 2. A target joint the source lacks keeps the target's rest pose.
 * 3. Source joints the target lacks are ignored.
 * 4. A matched joint takes the clip's whole local transform (translation, rotation, scale):
 *    proportions follow the clip, as they would on the skeleton it was made for.
 */
export interface Binding {
  readonly source: Skeleton;
  readonly target: Skeleton;
  /** For each target joint, the source joint it reads, or −1 (keep the target's rest pose). */
  readonly sourceJoint: Int16Array;
  /** Number of target joints bound to a source joint. */
  readonly matched: number;
}

const cache = new WeakMap<Skeleton, WeakMap<Skeleton, Binding>>();

/**
 * The {@link Binding} of `source` onto `target`, computed once per pair and cached (the cache
 * holds the skeletons weakly). Returns the same object for the same pair.
 */
export function bindSkeletons(source: Skeleton, target: Skeleton): Binding {
  let byTarget = cache.get(source);
  if (byTarget === undefined) {
    byTarget = new WeakMap();
    cache.set(source, byTarget);
  }
  let binding = byTarget.get(target);
  if (binding === undefined) {
    const index = new Map(source.names.map((name, joint) => [name, joint]));
    const sourceJoint = new Int16Array(target.jointCount);
    let matched = 0;
    target.names.forEach((name, joint) => {
      const found = index.get(name) ?? -1;
      sourceJoint[joint] = found;
      if (found >= 0) matched++;
    });
    binding = Object.freeze({ source, target, sourceJoint, matched });
    byTarget.set(target, binding);
  }
  return binding;
}

/** True when `source` poses are already in `target`'s joint order (no binding needed). */
export function sameJointOrder(source: Skeleton, target: Skeleton): boolean {
  return source === target || (source.jointCount === target.jointCount && source.names.every((n, j) => n === target.names[j]));
}
