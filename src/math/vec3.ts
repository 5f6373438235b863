/**
 * 3-component vectors stored as 3 consecutive floats `x y z` at an element offset.
 *
 * gl-matrix style: output first (`out`, `o`), then each input array with its offset. Every
 * function reads all inputs into locals before its first write, so `out` may overlap any
 * input (same array, any offsets). No allocation, no throwing.
 */
import type { NumArray } from './types.js';

/** Writes `(x, y, z)` to `out[o..o+2]`. */
export function set(out: NumArray, o: number, x: number, y: number, z: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Copies the vector at `a[ao..ao+2]` to `out[o..o+2]`. `out` may alias `a`. */
export function copy(out: NumArray, o: number, a: NumArray, ao: number): void {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Writes `a + b` to `out[o..o+2]`. `out` may alias `a` or `b`. */
export function add(out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number): void {
  const x = a[ao] + b[bo], y = a[ao + 1] + b[bo + 1], z = a[ao + 2] + b[bo + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Writes `a − b` to `out[o..o+2]`. `out` may alias `a` or `b`. */
export function sub(out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number): void {
  const x = a[ao] - b[bo], y = a[ao + 1] - b[bo + 1], z = a[ao + 2] - b[bo + 2];
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Writes `a · s` (scalar `s`) to `out[o..o+2]`. `out` may alias `a`. */
export function scale(out: NumArray, o: number, a: NumArray, ao: number, s: number): void {
  const x = a[ao] * s, y = a[ao + 1] * s, z = a[ao + 2] * s;
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/**
 * Writes the linear interpolation `a + t·(b − a)` to `out[o..o+2]`; `t = 0` gives `a`,
 * `t = 1` gives `b`, other `t` extrapolate. `out` may alias `a` or `b`.
 */
export function lerp(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number, t: number,
): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2];
  const x = ax + t * (b[bo] - ax), y = ay + t * (b[bo + 1] - ay), z = az + t * (b[bo + 2] - az);
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}

/** Returns the dot product `a · b`. */
export function dot(a: NumArray, ao: number, b: NumArray, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2];
}

/**
 * Writes the cross product `a × b` (right-handed: x × y = z) to `out[o..o+2]`.
 * `out` may alias `a` or `b`.
 */
export function cross(out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2];
  out[o] = ay * bz - az * by;
  out[o + 1] = az * bx - ax * bz;
  out[o + 2] = ax * by - ay * bx;
}

/** Returns the Euclidean length `|a|`. */
export function length(a: NumArray, ao: number): number {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2];
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * Writes `a / |a|` to `out[o..o+2]` and returns the original length `|a|`.
 * A zero vector stays zero (returns 0). `out` may alias `a`.
 */
export function normalize(out: NumArray, o: number, a: NumArray, ao: number): number {
  const x = a[ao], y = a[ao + 1], z = a[ao + 2];
  const len = Math.sqrt(x * x + y * y + z * z);
  const inv = len > 0 ? 1 / len : 0;
  out[o] = x * inv;
  out[o + 1] = y * inv;
  out[o + 2] = z * inv;
  return len;
}

/** Returns the Euclidean distance `|a − b|`. */
export function distance(a: NumArray, ao: number, b: NumArray, bo: number): number {
  const x = a[ao] - b[bo], y = a[ao + 1] - b[bo + 1], z = a[ao + 2] - b[bo + 2];
  return Math.sqrt(x * x + y * y + z * z);
}
