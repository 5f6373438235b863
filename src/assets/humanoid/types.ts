/**
 * The humanoid joints bitanim maps between skeletons (VRM's humanoid bones, without fingers and
 * eyes): what `humanoidMap` finds on a skeleton and what `bindSkeletons(…, { joints:
 * 'humanoid' })` pairs.
 */

/** The humanoid joints, parents before children (the order maps and bindings list them in). */
export const HUMANOID_JOINTS = [
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
] as const;

/** One humanoid joint: `'hips'`, `'leftUpperArm'`, … (VRM's names). */
export type HumanoidJoint = (typeof HUMANOID_JOINTS)[number];

/**
 * The joints every humanoid has: without them a skeleton is not taken for a humanoid. The
 * others (spine joints beyond one, upperChest, neck, shoulders, toes) may be missing.
 */
export const REQUIRED_HUMANOID_JOINTS: readonly HumanoidJoint[] = [
  'hips', 'spine', 'head',
  'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
];

/** What `humanoidMap` found on a skeleton it takes for a humanoid. */
export interface HumanoidMap {
  /** The skeleton's joint name for each humanoid joint it has. */
  readonly joints: Readonly<Partial<Record<HumanoidJoint, string>>>;
  /** The optional humanoid joints it has not (in {@link HUMANOID_JOINTS} order). */
  readonly missing: readonly HumanoidJoint[];
}
