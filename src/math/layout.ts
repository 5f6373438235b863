/**
 * Sizes of the packed records every part of bitanim shares (DESIGN §3).
 *
 * A joint pose is 10 floats, `tx ty tz qx qy qz qw sx sy sz`; a pose is `jointCount` of them
 * back to back. An affine matrix is 12 floats, column-major 3×4:
 * `m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz`.
 */

/** Floats per joint pose (translation 3, rotation quaternion 4, scale 3). */
export const POSE_STRIDE = 10;
/** Offset of the rotation quaternion `qx qy qz qw` inside a joint pose. */
export const POSE_Q = 3;
/** Offset of the scale `sx sy sz` inside a joint pose. */
export const POSE_S = 7;
/** Floats per 3×4 column-major affine matrix. */
export const MATRIX_STRIDE = 12;
/** Parent index of a root joint. */
export const NO_PARENT = -1;
