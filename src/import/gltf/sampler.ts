/**
 * glTF animation samplers: reading keys out of @gltf-transform accessors (checked) and
 * evaluating them at any time, per the glTF 2.0 specification (Appendix C, "Interpolation"):
 *
 * | interpolation | translation, scale | rotation |
 * | --- | --- | --- |
 * | `STEP` | value of the key at or before t | same |
 * | `LINEAR` | lerp | slerp along the shorter arc |
 * | `CUBICSPLINE` | Hermite: `p = h00·v₀ + h10·Δ·b₀ + h01·v₁ + h11·Δ·a₁` | same, then normalized |
 *
 * where Δ is the key interval, `b₀` the out-tangent of the left key, `a₁` the in-tangent of the
 * right key (each CUBICSPLINE key stores `a, v, b`), and with s = (t − t₀)/Δ:
 * `h00 = 2s³ − 3s² + 1`, `h10 = s³ − 2s² + s`, `h01 = −2s³ + 3s²`, `h11 = s³ − s²`.
 * Before the first key the first value holds, after the last the last.
 */
import type { Accessor, AnimationSampler } from '@gltf-transform/core';
import type { IssueList } from '../../assets/AnimationError.js';
import * as quat from '../../math/quat.js';

export const LINEAR = 0;
export const STEP = 1;
export const CUBICSPLINE = 2;
export type Interpolation = typeof LINEAR | typeof STEP | typeof CUBICSPLINE;

/** A channel's keys, ready to evaluate. */
export interface Track {
  /** Key times in seconds, non-decreasing, ≥ 0. */
  readonly times: Float64Array;
  /** `size` floats per key (`3 × size` for CUBICSPLINE: in-tangent, value, out-tangent). */
  readonly values: Float64Array;
  /** 3 (translation, scale) or 4 (rotation quaternion). */
  readonly size: 3 | 4;
  readonly interpolation: Interpolation;
}

/**
 * Reads a sampler's key times, checking they are finite, ≥ 0 and non-decreasing (equal
 * neighbours are tolerated: the later key wins at that instant). Null after recording a fault.
 */
export function readTimes(input: Accessor | null, issues: IssueList, path: string): Float64Array | null {
  const array = input?.getArray();
  if (!input || !array || array.length === 0) {
    issues.add(path, 'has no key times');
    return null;
  }
  const times = Float64Array.from(array);
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    if (!Number.isFinite(t) || t < 0) {
      issues.add(`${path}[${k}]`, `is ${t}: key times must be finite and ≥ 0`);
      return null;
    }
    if (k > 0 && t < times[k - 1]) {
      issues.add(`${path}[${k}]`, `is ${t}, before the previous key (${times[k - 1]}): key times must increase`);
      return null;
    }
  }
  return times;
}

/**
 * Reads the output of a transform sampler with `times` as its input: checks the element count
 * (one per key, three per key for CUBICSPLINE), finite values and non-zero rotation keys.
 * Rotation values (not tangents) are normalized. Null after recording a fault.
 */
export function readTrack(
  sampler: AnimationSampler, times: Float64Array, size: 3 | 4, issues: IssueList, path: string,
): Track | null {
  const name = sampler.getInterpolation();
  const interpolation: Interpolation = name === 'STEP' ? STEP : name === 'CUBICSPLINE' ? CUBICSPLINE : LINEAR;
  const output = sampler.getOutput();
  const perKey = interpolation === CUBICSPLINE ? 3 : 1;
  const expected = times.length * perKey;
  const count = output?.getCount() ?? 0;
  if (!output || output.getElementSize() !== size || count !== expected) {
    issues.add(`${path}.output`, `has ${count} ${output ? `${output.getType()} ` : ''}elements: ${name} with ${times.length} keys needs ${expected} ${size === 4 ? 'VEC4' : 'VEC3'}`);
    return null;
  }
  const values = new Float64Array(expected * size);
  const element: number[] = [];
  for (let e = 0; e < expected; e++) {
    output.getElement(e, element);
    for (let i = 0; i < size; i++) {
      const v = element[i];
      if (!Number.isFinite(v)) {
        issues.add(`${path}.output[${e}][${i}]`, `is ${v}, not a finite number`);
        return null;
      }
      values[e * size + i] = v;
    }
    const isValue = perKey === 1 || e % 3 === 1;
    if (size === 4 && isValue && quat.normalize(values, e * 4, values, e * 4) < 1e-6) {
      issues.add(`${path}.output[${e}]`, 'is a zero quaternion: rotation keys must be unit quaternions');
      return null;
    }
  }
  return { times, values, size, interpolation };
}

/** Index of the last key at or before `t`, for `times[0] ≤ t < times[n − 1]`. */
function findKey(times: Float64Array, t: number): number {
  let lo = 0, hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Writes the track's value at time `t` (seconds) to `out[o..o+size-1]`. */
export function sampleTrack(track: Track, t: number, out: Float64Array, o: number): void {
  const { times, values, size, interpolation } = track;
  const last = times.length - 1;
  const valueOf = interpolation === CUBICSPLINE ? (k: number) => (k * 3 + 1) * size : (k: number) => k * size;
  if (t <= times[0] || last === 0) return copy(out, o, values, valueOf(0), size);
  if (t >= times[last]) return copy(out, o, values, valueOf(last), size);
  const k = findKey(times, t);
  const t0 = times[k], t1 = times[k + 1];
  const dt = t1 - t0;
  const s = dt > 0 ? (t - t0) / dt : 1;
  if (interpolation === STEP) return copy(out, o, values, valueOf(k), size);
  if (interpolation === LINEAR) {
    const a = valueOf(k), b = valueOf(k + 1);
    if (size === 4) quat.slerp(out, o, values, a, values, b, s);
    else for (let i = 0; i < 3; i++) out[o + i] = values[a + i] + s * (values[b + i] - values[a + i]);
    return;
  }
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  const v0 = (k * 3 + 1) * size, b0 = (k * 3 + 2) * size, a1 = (k * 3 + 3) * size, v1 = (k * 3 + 4) * size;
  for (let i = 0; i < size; i++) {
    out[o + i] = h00 * values[v0 + i] + h10 * dt * values[b0 + i] + h01 * values[v1 + i] + h11 * dt * values[a1 + i];
  }
  if (size === 4) quat.normalize(out, o, out, o);
}

function copy(out: Float64Array, o: number, values: Float64Array, v: number, size: number): void {
  for (let i = 0; i < size; i++) out[o + i] = values[v + i];
}
