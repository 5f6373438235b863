/**
 * What `bitanim inspect FILE --map OTHER` adds to the report: the joint map a clip of OTHER
 * would play through on FILE's character — OTHER's first skeleton (the source, the clip's
 * skeleton) onto FILE's first skeleton (the target, the character), as the default binding of
 * `bindSkeletons(source, target)` pairs them (`joints: 'auto'`; docs/retargeting.md, "Joint
 * maps"): the rule used, the reference poses rotations transfer through, each pair, and the
 * joints of either skeleton left unpaired. Pure: no I/O, so tests check it directly.
 *
 * The map depends on joint names, the hierarchy and the directions of the rest pose, never on
 * lengths (the humanoid map's one length test, a foot outside its leg, compares two lengths of
 * the same skeleton), so OTHER is read in its own units: `--scale` is FILE's alone and no
 * second scale flag is needed.
 */
import { AnimationError } from '../assets/AnimationError.js';
import { bindSkeletons, type Binding } from '../assets/Binding.js';
import type { HumanoidJoint } from '../assets/humanoid/types.js';
import type { Skeleton } from '../assets/Skeleton.js';

/** One skeleton of a {@link JointMapReport}: the file it comes from, its index there, its size. */
export interface MappedSkeleton {
  /** The file, as given on the command line. */
  readonly file: string;
  /** The skeleton's index in the file (always 0: the first skeleton). */
  readonly skeleton: number;
  /** Its joint count. */
  readonly joints: number;
}

/** One pair of a {@link JointMapReport}: a target joint and the source joint it reads. */
export interface MappedPair {
  /** The target (FILE's) joint name. */
  readonly target: string;
  /** The source (OTHER's) joint name. */
  readonly source: string;
  /** The humanoid joint both are under the 'humanoid' rule, else null. */
  readonly humanoid: HumanoidJoint | null;
}

/** The joint map `inspect --map` prints (see {@link jointMapReport}). */
export interface JointMapReport {
  /** OTHER's first skeleton: the clip's. */
  readonly source: MappedSkeleton;
  /** FILE's first skeleton: the character's. */
  readonly target: MappedSkeleton;
  /** The rule that paired the joints: `'names'` or `'humanoid'` (what `'auto'` chose, `Binding.joints`). */
  readonly rule: Binding['joints'];
  /** The reference poses the binding transfers rotations through (`Binding.reference`). */
  readonly reference: Binding['reference'];
  /** The pairs, in target joint order (`Binding.pairs`). */
  readonly pairs: readonly MappedPair[];
  /** Target joints that read no source joint (they keep their reference pose), in target order. */
  readonly unpairedTarget: readonly string[];
  /** Source joints no target joint reads, in source order. */
  readonly unpairedSource: readonly string[];
}

/**
 * The joint map of `source` (OTHER's first skeleton) onto `target` (FILE's first skeleton)
 * under the default binding, `bindSkeletons(source, target)`.
 *
 * @throws AnimationError (at `inspect`, path `--map OTHER`) when the skeletons cannot pair —
 * one is not a humanoid and they share too few names — with bindSkeletons's reason, naming
 * FILE: "--map cmu.bvh onto Fox.glb: cannot pair the skeletons: they share no joint names, and
 * the target skeleton (…) is not a humanoid: its spine does not stand: …".
 */
export function jointMapReport(file: string, target: Skeleton, other: string, source: Skeleton): JointMapReport {
  let binding: Binding;
  try {
    binding = bindSkeletons(source, target);
  } catch (error) {
    if (!(error instanceof AnimationError)) throw error;
    // The issues name bindSkeletons's option (`joints ('auto')`); on the command line the flag and the files say where.
    throw new AnimationError('inspect', error.issues.map((issue) => ({ path: `--map ${other}`, message: `onto ${file}: ${issue.message}` })));
  }
  const read = new Uint8Array(source.jointCount);
  for (let joint = 0; joint < target.jointCount; joint++) if (binding.sourceJoint[joint] >= 0) read[binding.sourceJoint[joint]] = 1;
  return {
    source: { file: other, skeleton: 0, joints: source.jointCount },
    target: { file, skeleton: 0, joints: target.jointCount },
    rule: binding.joints,
    reference: binding.reference,
    pairs: binding.pairs.map((pair) => ({ target: pair.target, source: pair.source, humanoid: pair.humanoid ?? null })),
    unpairedTarget: target.names.filter((_, joint) => binding.sourceJoint[joint] < 0),
    unpairedSource: source.names.filter((_, joint) => read[joint] === 0),
  };
}

/**
 * The map as the lines `inspect --map` prints after the file's report: a heading (files, rule,
 * reference, pair count), one line per pair (`"Body" ← "Hips" (hips)`: target ← source, with
 * the humanoid joint under the 'humanoid' rule), then the unpaired joints of each skeleton.
 */
export function describeJointMap(report: JointMapReport): string[] {
  const { source, target } = report;
  const lines = [
    `joint map: ${source.file} skeleton ${source.skeleton} (${source.joints} joints, the clip's) onto ${target.file} skeleton ${target.skeleton} ` +
    `(${target.joints} joints, the character's): rule ${report.rule}, reference ${report.reference}, ${report.pairs.length} pair${report.pairs.length === 1 ? '' : 's'}`,
  ];
  for (const pair of report.pairs) lines.push(`  "${pair.target}" ← "${pair.source}"${pair.humanoid === null ? '' : ` (${pair.humanoid})`}`);
  lines.push(unpairedLine('target', report.unpairedTarget, 'keep their reference pose'));
  lines.push(unpairedLine('source', report.unpairedSource, 'read by no target joint'));
  return lines;
}

function unpairedLine(which: 'target' | 'source', names: readonly string[], what: string): string {
  if (names.length === 0) return `unpaired ${which} joints: none`;
  return `unpaired ${which} joints (${names.length}, ${what}): ${names.map((name) => `"${name}"`).join(', ')}`;
}

/** The map as `inspect --map --json` prints it under `map`: the report's fields, unpaired joints as `unpaired: { target, source }`. */
export function jointMapJson(report: JointMapReport): object {
  return {
    source: report.source, target: report.target, rule: report.rule, reference: report.reference, pairs: report.pairs,
    unpaired: { target: report.unpairedTarget, source: report.unpairedSource },
  };
}
