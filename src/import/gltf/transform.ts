/**
 * Matrix helpers the glTF importer needs beyond `src/math`: glTF's 4×4 matrices to our 3×4,
 * and the decomposition of a composed 3×4 back into a joint pose (T, R, S; `math/decompose.ts`).
 *
 * Offline code (runs once per import), so it favours Float64Array and clarity over speed.
 */
import { MATRIX_T, MATRIX_X, MATRIX_Y, MATRIX_Z } from '../../math/layout.js';
import * as affine from '../../math/affine.js';
import type { NumArray } from '../../math/types.js';
import { decompose } from '../../math/decompose.js';

export { decompose };

/**
 * Writes glTF's column-major 4×4 `m[mo..mo+15]` as our column-major 3×4 `out[o..o+11]`:
 * the bottom row (0 0 0 1 for an affine matrix) is dropped.
 */
export function mat4ToAffine(out: NumArray, o: number, m: ArrayLike<number>, mo: number): void {
  for (let col = 0; col < 4; col++) {
    out[o + col * 3] = m[mo + col * 4];
    out[o + col * 3 + 1] = m[mo + col * 4 + 1];
    out[o + col * 3 + 2] = m[mo + col * 4 + 2];
  }
}

/** True when every element is exactly the identity's (no rounding: an untouched node). */
export function isIdentity(m: NumArray, mo: number): boolean {
  return m[mo + MATRIX_X] === 1 && m[mo + MATRIX_X + 1] === 0 && m[mo + MATRIX_X + 2] === 0
    && m[mo + MATRIX_Y] === 0 && m[mo + MATRIX_Y + 1] === 1 && m[mo + MATRIX_Y + 2] === 0
    && m[mo + MATRIX_Z] === 0 && m[mo + MATRIX_Z + 1] === 0 && m[mo + MATRIX_Z + 2] === 1
    && m[mo + MATRIX_T] === 0 && m[mo + MATRIX_T + 1] === 0 && m[mo + MATRIX_T + 2] === 0;
}

/**
 * Writes `prefix · TRS(pose)` decomposed back into a pose at `out[o..o+9]` (see
 * {@link decompose}); returns false on shear. `scratch` holds 12 floats. `out` may alias `pose`.
 */
export function composeInto(
  out: NumArray, o: number, prefix: NumArray, pose: NumArray, po: number, scratch: Float64Array,
): boolean {
  affine.fromSQT(scratch, 0, pose, po);
  affine.multiply(scratch, 0, prefix, 0, scratch, 0);
  return decompose(out, o, scratch, 0);
}
