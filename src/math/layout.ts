/**
 * The packed records every part of bitanim shares (DESIGN §3), and where each part sits in them.
 *
 * A joint pose is 10 floats, `tx ty tz qx qy qz qw sx sy sz`; a pose is `jointCount` of them
 * back to back. An affine matrix is 12 floats, column-major 3×4:
 * `m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz` (the x, y and z axis columns, then the
 * translation).
 *
 * Outside this file src/ names these offsets instead of writing them as numbers
 * (test/house/poseOffsets.test.ts): `pose[o + POSE_Q + 3]` is the joint's qw, `m[mo + MATRIX_T + 1]`
 * the matrix's ty. The number after a name is a component inside the small record it names — a
 * vector's `x y z` (0 … 2), a quaternion's `x y z w` (0 … 3) — which is that record's own order.
 * The kernels that define a small record (quat.ts, vec3.ts, affine.ts, rotationArc.ts, minJerk.ts)
 * index it with literals, as gl-matrix does: there the literal is the formula.
 *
 * Speed: V8 folds a module's own constants into optimized code but loads an imported binding from
 * its module cell (with a check that it is initialized) at every use. On a pose loop (normalize
 * the rotation, copy the scale) that cost 14% (node 20). Per-frame code therefore binds the names
 * as its own constants, `import * as layout from '…/layout.js'; const { POSE_Q, … } = layout;`,
 * which runs as fast as the literals did.
 */

/** Floats per joint pose (translation 3, rotation quaternion 4, scale 3). */
export const POSE_STRIDE = 10;
/** Offset of the translation `tx ty tz` inside a joint pose. */
export const POSE_T = 0;
/** Offset of the rotation quaternion `qx qy qz qw` inside a joint pose. */
export const POSE_Q = 3;
/** Offset of the scale `sx sy sz` inside a joint pose. */
export const POSE_S = 7;
/** Floats per 3×4 column-major affine matrix. */
export const MATRIX_STRIDE = 12;
/** Offset of the x axis column `m00 m10 m20` inside a matrix (the image of +x: rotation × scale). */
export const MATRIX_X = 0;
/** Offset of the y axis column `m01 m11 m21` inside a matrix. */
export const MATRIX_Y = 3;
/** Offset of the z axis column `m02 m12 m22` inside a matrix. */
export const MATRIX_Z = 6;
/** Offset of the translation column `tx ty tz` inside a matrix. */
export const MATRIX_T = 9;
/** Parent index of a root joint. */
export const NO_PARENT = -1;
