/**
 * The pure math layer: functions over typed arrays with element offsets, output first,
 * no allocation. Imports nothing outside `src/math`.
 *
 * - `vec3`: 3 floats `x y z`.
 * - `quat`: 4 floats `x y z w`, Hamilton product, `multiply(a, b)` applies b then a.
 * - `affine`: 12 floats, column-major 3×4 `m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz`.
 * - `composeModel`: local poses → model matrices (and rotations) over a joint range, the one
 *   local → model kernel.
 * - `minJerk`: scalar minimum-jerk curves and the follower's 3×3 step matrices (row-major).
 * - `twoBoneIk`, `lookAt`: the reach and look-at kernels over Float64 params blocks;
 *   `rotationArc`: shortest-arc and angle-split helpers they share.
 */
export * as vec3 from './vec3.js';
export * as quat from './quat.js';
export * as affine from './affine.js';
export { composeModel } from './composeModel.js';
export {
  minJerk,
  minJerkQuintic,
  minJerkStepMatrix,
  minJerkEulerMatrix,
  MIN_JERK_REAL_ROOT,
  MIN_JERK_DAMPING,
  MIN_JERK_FREQUENCY,
  MIN_JERK_EULER_LIMIT,
} from './minJerk.js';
export * as twoBoneIk from './twoBoneIk.js';
export * as lookAt from './lookAt.js';
export * as rotationArc from './rotationArc.js';
export type { NumArray } from './types.js';
