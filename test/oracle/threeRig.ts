/**
 * The three.js side of the oracle tests: a `THREE.Skeleton` of `Bone`s and `AnimationClip`s
 * built from the same raw data bitanim is given (joint names, parents, rest TRS, clip frames),
 * and a comparison of bitanim's 3×4 skin palette with three's 4×4 `Skeleton.boneMatrices`.
 *
 * Nothing here reads bitanim's derived data (inverse bind matrices, model matrices, poses):
 * three computes its own bind matrices (`Skeleton.calculateInverses` in the rest pose), its own
 * sampling (`VectorKeyframeTrack` lerp, `QuaternionKeyframeTrack` slerp), its own blending
 * (`AnimationMixer`/`PropertyMixer`) and its own hierarchy (`updateMatrixWorld`).
 */
import { MATRIX_STRIDE } from '../../src/kernels.js';
import type { ThreeRig } from '../fixtures/threeRig.js';

export { buildThreeClip, buildThreeRig, type RawClip, type RawSkeleton, type ThreeRig } from '../fixtures/threeRig.js';

/** Propagates the bone transforms and returns three's palette (`jointCount × 16`, 4×4 column-major). */
export function evaluateThree(rig: ThreeRig): Float32Array {
  rig.container.updateMatrixWorld(true);
  rig.skeleton.update();
  return rig.skeleton.boneMatrices!;
}

/** Labels of the 12 palette elements (3×4 column-major). */
export const PALETTE_ELEMENTS = ['m00', 'm10', 'm20', 'm01', 'm11', 'm21', 'm02', 'm12', 'm22', 'tx', 'ty', 'tz'] as const;

/** Index in a 4×4 column-major matrix of palette element `e` (0…11 of the 3×4 layout). */
export function mat4Index(e: number): number {
  return e < 9 ? Math.floor(e / 3) * 4 + (e % 3) : 12 + (e - 9);
}

/** The worst element of a palette comparison. */
export interface PaletteDiff {
  /** Largest |bitanim − three| over every element of every joint (and the 4×4 bottom rows). */
  readonly max: number;
  readonly joint: number;
  /** A {@link PALETTE_ELEMENTS} label, or `row3[i]` for the bottom row of three's 4×4. */
  readonly element: string;
  readonly ours: number;
  readonly theirs: number;
}

/**
 * Compares bitanim's palette (`jointCount × 12`, 3×4 column-major) with three's
 * `boneMatrices` (`jointCount × 16`, 4×4 column-major), element by element; three's bottom
 * rows must be `0 0 0 1`.
 */
export function comparePalette(palette: ArrayLike<number>, boneMatrices: ArrayLike<number>, jointCount: number): PaletteDiff {
  let worst: PaletteDiff = { max: -1, joint: -1, element: '', ours: Number.NaN, theirs: Number.NaN };
  for (let j = 0; j < jointCount; j++) {
    for (let e = 0; e < MATRIX_STRIDE; e++) {
      const ours = palette[j * MATRIX_STRIDE + e]!;
      const theirs = boneMatrices[j * 16 + mat4Index(e)]!;
      const d = Math.abs(ours - theirs);
      // NaN anywhere must count as the worst difference, not vanish in a comparison.
      if (!(d <= worst.max)) worst = { max: Number.isNaN(d) ? Infinity : d, joint: j, element: PALETTE_ELEMENTS[e]!, ours, theirs };
    }
    for (let c = 0; c < 4; c++) {
      const theirs = boneMatrices[j * 16 + c * 4 + 3]!;
      const ours = c === 3 ? 1 : 0;
      const d = Math.abs(ours - theirs);
      if (!(d <= worst.max)) worst = { max: Number.isNaN(d) ? Infinity : d, joint: j, element: `row3[${c}]`, ours, theirs };
    }
  }
  return worst;
}

/** Largest |palette − identity| over all joints: shows the pose being compared is not the rest pose. */
export function distanceFromIdentity(palette: ArrayLike<number>, jointCount: number): number {
  let max = 0;
  for (let j = 0; j < jointCount; j++) {
    for (let e = 0; e < MATRIX_STRIDE; e++) {
      const identity = e === 0 || e === 4 || e === 8 ? 1 : 0;
      max = Math.max(max, Math.abs(palette[j * MATRIX_STRIDE + e]! - identity));
    }
  }
  return max;
}

/**
 * The dt sequence a game loop would produce to go from `from` to `to` seconds: ticks of
 * `tick` and a final partial tick, so both runtimes get identical increments.
 */
export function ticksBetween(from: number, to: number, tick = 1 / 60): number[] {
  const out: number[] = [];
  let t = from;
  while (to - t > tick) {
    out.push(tick);
    t += tick;
  }
  if (to - t > 0) out.push(to - t);
  return out;
}

/** A one-line description of a diff for logs and assertion messages. */
export function describeDiff(diff: PaletteDiff, names: readonly string[]): string {
  return `max |Δ| = ${diff.max.toExponential(2)} at joint ${diff.joint} "${names[diff.joint]}" ${diff.element} ` +
    `(bitanim ${diff.ours}, three ${diff.theirs})`;
}
