/**
 * What the offline foot tools share (`rootMotionFromFeet`, `detectFootContacts`,
 * `measureFootSkate`): the `feet` option read into joint indices, the feet's model-space
 * positions per frame, thresholds read and checked, and the median the ground's velocity is
 * taken from. Internal: not exported from an entry.
 */
import { shownString } from '../assets/limits.js';
import { fail } from '../assets/AnimationError.js';
import type { Clip } from '../assets/Clip.js';
import { composeModel } from '../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_STRIDE } from '../math/layout.js';

/**
 * The `feet` option as joint indices of `clip.skeleton`, validated: an array of joint names or
 * indices, none twice, each accepted by `refuse` (which returns why a joint cannot be a foot,
 * or null). Throws an `AnimationError` from `where` naming the entry at fault.
 */
export function resolveFeet(where: string, clip: Clip, feet: unknown, refuse: (joint: number) => string | null): number[] {
  const skeleton = clip.skeleton;
  if (!Array.isArray(feet) || feet.length === 0) {
    fail(where, 'feet', `is ${Array.isArray(feet) ? 'empty' : String(feet)}: give the joints that touch the ground, by name or index, e.g. { feet: ['LeftFoot', 'RightFoot'] }`);
  }
  const out: number[] = [];
  feet.forEach((foot: unknown, k) => {
    let joint = -1;
    if (typeof foot === 'string') {
      joint = skeleton.names.indexOf(foot);
      if (joint < 0) fail(where, `feet[${k}]`, `"${foot}" is not a joint of the skeleton of "${clip.name}" (its joints: ${listNames(skeleton.names)})`);
    } else if (typeof foot === 'number' && Number.isInteger(foot) && foot >= 0 && foot < skeleton.jointCount) {
      joint = foot;
    } else {
      fail(where, `feet[${k}]`, `is ${shownString(foot)}: must be a joint name or an index below ${skeleton.jointCount}`);
    }
    if (out.includes(joint)) fail(where, `feet[${k}]`, `"${skeleton.names[joint]}" is given twice`);
    const why = refuse(joint);
    if (why !== null) fail(where, `feet[${k}]`, why);
    out.push(joint);
  });
  return out;
}

/** Up to 12 joint names, for a message. */
export function listNames(names: readonly string[]): string {
  return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')}, … (${names.length} in all)`;
}

/**
 * The model-space positions of joints `feet` at every frame of `clip`: `frameCount × K × 3`
 * floats, frame-major (`[(f × K + k) × 3 + axis]`), the clip's units. `visit(model, f, path)`,
 * when given, sees each frame's model matrices (`jointCount × MATRIX_STRIDE`, reused) before
 * the next frame overwrites them, and may adjust frame f's entries of `path`.
 */
export function footPositions(clip: Clip, feet: readonly number[], visit?: (model: Float64Array, f: number, path: Float64Array) => void): Float64Array {
  const skeleton = clip.skeleton;
  const J = skeleton.jointCount, N = clip.frameCount, K = feet.length;
  const path = new Float64Array(N * K * 3);
  const model = new Float64Array(J * MATRIX_STRIDE);
  for (let f = 0; f < N; f++) {
    composeModel(model, 0, MATRIX_STRIDE, clip.frames, f * J * POSE_STRIDE, skeleton.parents, 0, J);
    for (let k = 0; k < K; k++) {
      const m = feet[k] * MATRIX_STRIDE + MATRIX_T, o = (f * K + k) * 3;
      path[o] = model[m];
      path[o + 1] = model[m + 1];
      path[o + 2] = model[m + 2];
    }
    if (visit !== undefined) visit(model, f, path);
  }
  return path;
}

/** Each foot's lowest model height over the frames of `path` (see {@link footPositions}). */
export function lowestHeights(path: Float64Array, frameCount: number, K: number): Float64Array {
  const lowest = new Float64Array(K).fill(Infinity);
  for (let f = 0; f < frameCount; f++) for (let k = 0; k < K; k++) lowest[k] = Math.min(lowest[k], path[(f * K + k) * 3 + 1]);
  return lowest;
}

/**
 * `value` validated (finite and > 0, or ≥ 0 when `zero`), or `fallback` when undefined; an
 * `AnimationError` from `where` naming option `name` otherwise.
 */
export function readThreshold(where: string, value: unknown, name: string, fallback: number, zero: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || (zero ? value < 0 : value <= 0)) {
    fail(where, name, `is ${shownString(value)}: must be a finite number ${zero ? '≥' : '>'} 0`);
  }
  return value;
}

/** True when `joint` is `ancestor` or lies below it. */
export function isBelow(parents: Int16Array, joint: number, ancestor: number): boolean {
  for (let j = joint; j >= 0; j = parents[j]) if (j === ancestor) return true;
  return false;
}

/** Median of `values` (0 for none). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
