/**
 * What a binding is (the data `bindSkeletons` in Binding.ts computes and the samplers read):
 * its types and translation-mode codes, apart from the binding code so the samplers can name
 * them without importing it.
 */
import type { JointPair, JointsOption } from './humanoid/jointMap.js';
import type { Retarget } from './retarget/plan.js';
import type { Skeleton } from './Skeleton.js';

/**
 * Where a bound joint's translation comes from (docs/retargeting.md):
 *
 * | mode | translation of the target joint | keeps |
 * | --- | --- | --- |
 * | `'skeleton'` | the target's rest translation | the target's bone lengths |
 * | `'animation'` | the clip's | the clip's proportions (name binding before retargeting) |
 * | `'scaled'` | the clip's × the hip ratio target ÷ source hip height | the clip's motion, at the target's size |
 *
 * Rotation and scale always come from the clip.
 */
export type TranslationMode = 'skeleton' | 'animation' | 'scaled';

/**
 * One {@link TranslationMode} for every bound joint, or a map from target joint names to modes:
 * joints the map leaves out follow the default rule ('scaled' from the root to the hip joint,
 * 'skeleton' elsewhere).
 */
export type TranslationOption = TranslationMode | Readonly<Record<string, TranslationMode>>;

/**
 * The pose of each skeleton that rotations are transferred relative to (see {@link Binding}):
 *
 * | reference | each skeleton's reference pose |
 * | --- | --- |
 * | `'canonical'` (default for two humanoids) | its rest with the humanoid chains turned to one shape: spine up, legs down, arms out, feet forward (see `humanoidMap`) |
 * | `'rest'` (default otherwise) | its rest pose (`skeleton.rest`) |
 * | `'bind'` | its bind pose, from the inverse bind matrices (the pose a glTF mesh was modelled in) |
 * | `{ source?, target? }` | the given local poses (`jointCount × 10` floats each; the rest pose where one is left out) |
 *
 * The two references must show the same physical pose: a source joint that turns away from
 * its reference turns the target joint away from its reference by the same model-space
 * rotation.
 */
export type ReferenceOption = 'canonical' | 'rest' | 'bind' | { readonly source?: ArrayLike<number>; readonly target?: ArrayLike<number> };

/** Options of {@link bindSkeletons}. */
export interface BindOptions {
  /**
   * Where bound joints take their translation (default: the target's root joints, its hip
   * joint and the joints between them 'scaled', every other joint 'skeleton').
   */
  translation?: TranslationOption;
  /**
   * The hip ratio of 'scaled' joints, finite and > 0. Default: target.hipHeight ÷
   * source.hipHeight, or 1 when either is 0 (as for BVH skeletons, whose rest has no height).
   * `play` passes the ratio root travel uses (the clip's hip height, see `RootTrack.hipHeight`).
   */
  hipRatio?: number;
  /** The reference poses rotations are transferred relative to (default 'canonical' for two humanoids, else 'rest'; see {@link ReferenceOption}). */
  reference?: ReferenceOption;
  /**
   * How joints pair (default `'auto'`): `'names'` (same name), `'humanoid'` (the same humanoid
   * joint, `humanoidMap`), `'auto'` (names when more than half of the smaller skeleton's joints
   * match by name, else humanoid), or a record of target joint names to source joint names.
   */
  joints?: JointsOption;
}

/** {@link Binding.translationMode} code of 'skeleton': the target's rest translation. */
export const TRANSLATION_SKELETON = 0;
/** {@link Binding.translationMode} code of 'animation': the clip's translation. */
export const TRANSLATION_ANIMATION = 1;
/** {@link Binding.translationMode} code of 'scaled': the clip's translation × the hip ratio. */
export const TRANSLATION_SCALED = 2;

/**
 * How a clip made for one skeleton (`source`) plays on another (`target`): name binding and
 * retargeting by proportions (Game Engine Architecture's "animation retargeting"; the hip-height ratio of root-motion normalization),
 * through reference poses where the skeletons differ in more than proportions.
 *
 * The rule:
 * 1. Joints pair by {@link BindOptions.joints}: by exact name, or as the same humanoid joint of
 *    both skeletons (`humanoidMap`: CMU's `LeftHip` reads as Mixamo's `LeftUpLeg`), or by a
 *    given map; order, count and hierarchy may differ.
 * 2. A target joint the source lacks keeps the target's reference pose (its rest by default).
 * 3. Source joints the target lacks are ignored as joints, but their motion is not lost: a
 *    bound joint takes the source's rotation accumulated since its nearest bound ancestor.
 * 4. A matched joint takes the clip's model-space rotation relative to the source's reference,
 *    applied to the target's reference (`M_t = M_s · C_s⁻¹ · C_t`, C a joint's model rotation in
 *    its skeleton's reference pose): rigs whose bones point along other axes, or whose root
 *    folds in another node rotation, move their limbs the same way. When both references agree
 *    joint for joint this is the clip's local rotation, copied.
 * 5. Its scale is the clip's relative to the source's rest scale, times the target's: a root
 *    that folds in a different node scale (centimetres against metres) keeps its own.
 * 6. Its translation follows its {@link TranslationMode}: by default the hips carry the clip's
 *    motion at the target's size ('scaled'), and every other bone keeps the target's length
 *    ('skeleton'), so a character with shorter legs has its hips lower and its feet still on
 *    the ground.
 *
 * Sampling reads `translationMode` and `translationScale` per joint: no allocation, a copy or
 * three multiplies per joint; a binding with `retarget` samples the clip into its scratch and
 * runs `retargetPose` (two quaternion products per joint, more on longer chains).
 */
export interface Binding {
  readonly source: Skeleton;
  readonly target: Skeleton;
  /** For each target joint, the source joint it reads, or −1 (keep the target's reference pose). */
  readonly sourceJoint: Int16Array;
  /** Number of target joints bound to a source joint. */
  readonly matched: number;
  /** The bound joints, target joint order: each target joint name, the source joint it reads, and under a humanoid map the humanoid joint both are. */
  readonly pairs: readonly JointPair[];
  /** The rule that paired the joints: 'names', 'humanoid' (through both humanoid maps) or 'map' (given). */
  readonly joints: 'names' | 'humanoid' | 'map';
  /**
   * For each target joint, where its translation comes from: `TRANSLATION_SKELETON` (0),
   * `TRANSLATION_ANIMATION` (1) or `TRANSLATION_SCALED` (2). Unbound joints hold 0.
   */
  readonly translationMode: Uint8Array;
  /**
   * For each target joint, the factor on the clip's translation: 1 for 'animation', the hip
   * ratio for 'scaled', 0 for 'skeleton' (unused: the rest translation is copied).
   */
  readonly translationScale: Float32Array;
  /** The hip ratio of 'scaled' joints (see {@link BindOptions.hipRatio}), as a 32-bit float. */
  readonly hipRatio: number;
  /** Which reference poses the binding transfers rotations relative to: 'canonical', 'rest', 'bind' or 'pose' (given). */
  readonly reference: 'canonical' | 'rest' | 'bind' | 'pose';
  /** The retargeting tables (math/retargetPose.ts), or null when local rotations copy as they are (rule 4). */
  readonly retarget: Retarget | null;
}
