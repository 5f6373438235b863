/**
 * What a binding is (the data `bindSkeletons` in Binding.ts computes and the samplers read):
 * its types and translation-mode codes, apart from the binding code so the samplers can name
 * them without importing it.
 */
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
}

/** {@link Binding.translationMode} code of 'skeleton': the target's rest translation. */
export const TRANSLATION_SKELETON = 0;
/** {@link Binding.translationMode} code of 'animation': the clip's translation. */
export const TRANSLATION_ANIMATION = 1;
/** {@link Binding.translationMode} code of 'scaled': the clip's translation × the hip ratio. */
export const TRANSLATION_SCALED = 2;

/**
 * How a clip made for one skeleton (`source`) plays on another (`target`): name binding and
 * retargeting by proportions (GEA "animation retargeting"; the root-motion seed's hip ratio).
 *
 * The rule:
 * 1. Joints are matched by exact name; order, count and hierarchy may differ.
 * 2. A target joint the source lacks keeps the target's rest pose.
 * 3. Source joints the target lacks are ignored.
 * 4. A matched joint takes the clip's rotation and scale; its translation follows its
 *    {@link TranslationMode}: by default the hips carry the clip's motion at the target's
 *    size ('scaled'), and every other bone keeps the target's length ('skeleton'), so a
 *    character with shorter legs has its hips lower and its feet still on the ground.
 *
 * Sampling reads `translationMode` and `translationScale` per joint: no allocation, a copy or
 * three multiplies per joint.
 */
export interface Binding {
  readonly source: Skeleton;
  readonly target: Skeleton;
  /** For each target joint, the source joint it reads, or −1 (keep the target's rest pose). */
  readonly sourceJoint: Int16Array;
  /** Number of target joints bound to a source joint. */
  readonly matched: number;
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
}
