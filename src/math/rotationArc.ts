/**
 * Rotations built from directions, shared by the IK kernels (`twoBoneIk.ts`, `lookAt.ts`):
 * the shortest arc between two unit vectors, a fraction of a rotation, and a perpendicular.
 *
 * Same conventions as `quat.ts`: quaternions are 4 floats `x y z w`, vectors 3 floats
 * `x y z`, each at an element offset; output first; every function reads all inputs into
 * locals before its first write, so `out` may overlap any input. No allocation, no throwing.
 * Scalars that a per-frame caller would pass (the fraction of {@link splitRotation}) come
 * through an array and an offset, so a non-inlined call does not box a double.
 */
import type { NumArray } from './types.js';

/**
 * Below this `1 + a·b` (unit inputs at ~4.5e-8 rad from opposite) {@link fromUnitVectors}
 * treats them as opposite and turns half a turn about a perpendicular axis; the direction
 * it produces is then off by at most that angle.
 */
const OPPOSITE_EPSILON = 1e-15;
/** Below this sine of the angle between the fallback axis and `a`, the axis counts as parallel. */
const PARALLEL_SINE = 1e-9;

/**
 * Writes a unit vector perpendicular to `a[ao..ao+2]` to `out[o..o+2]`: `a` crossed with the
 * coordinate axis along which `a` has its smallest |component| (so the cross product is never
 * short), normalized; any non-zero length works, however small. A zero `a` gives `(1, 0, 0)`. Deterministic, not continuous in `a`.
 * `out` may alias `a`.
 */
export function perpendicular(out: NumArray, o: number, a: NumArray, ao: number): void {
  let x = a[ao], y = a[ao + 1], z = a[ao + 2];
  const absX = Math.abs(x), absY = Math.abs(y), absZ = Math.abs(z);
  // Scale to a largest |component| of 1 first, so a tiny `a` does not underflow when squared.
  const max = Math.max(absX, absY, absZ);
  if (max > 0 && max < Infinity) { x /= max; y /= max; z /= max; }
  let px: number, py: number, pz: number;
  if (absX <= absY && absX <= absZ) {
    px = 0; py = z; pz = -y; // a × X
  } else if (absY <= absZ) {
    px = -z; py = 0; pz = x; // a × Y
  } else {
    px = y; py = -x; pz = 0; // a × Z
  }
  const len = Math.sqrt(px * px + py * py + pz * pz);
  if (len > 0) {
    out[o] = px / len;
    out[o + 1] = py / len;
    out[o + 2] = pz / len;
  } else {
    out[o] = 1;
    out[o + 1] = 0;
    out[o + 2] = 0;
  }
}

/**
 * Writes the shortest-arc rotation that turns the unit vector `a[ao..ao+2]` onto the unit
 * vector `b[bo..bo+2]` to `out[o..o+3]` (three.js `Quaternion.setFromUnitVectors`).
 *
 * Method: S. Melax, "The Shortest Arc Quaternion", Game Programming Gems 1 (2000): with
 * c = a × b and d = a·b, the half-angle quaternion is `normalize(c, 1 + d)` (since
 * |c| = sin θ, 1 + d = 2cos²(θ/2), the pair is 2cos(θ/2)·(sin(θ/2)·axis, cos(θ/2))).
 *
 * When a and b are opposite (1 + d < 1e-15) the arc has no unique axis: the result is half a
 * turn `(k, 0)` about `k` = the part of `fallback[fo..fo+2]` perpendicular to `a`, normalized,
 * or about `perpendicular`(a) when the fallback is (nearly) parallel to `a` or zero.
 * Inputs are assumed unit; `out` may alias any input.
 */
export function fromUnitVectors(
  out: NumArray, o: number, a: NumArray, ao: number, b: NumArray, bo: number,
  fallback: NumArray, fo: number,
): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2];
  const w = 1 + (ax * bx + ay * by + az * bz);
  if (w > OPPOSITE_EPSILON) {
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const inv = 1 / Math.sqrt(cx * cx + cy * cy + cz * cz + w * w);
    out[o] = cx * inv;
    out[o + 1] = cy * inv;
    out[o + 2] = cz * inv;
    out[o + 3] = w * inv;
    return;
  }
  // k⊥ = k − a (a·k): the fallback axis with its component along a removed.
  const kx = fallback[fo], ky = fallback[fo + 1], kz = fallback[fo + 2];
  const along = ax * kx + ay * ky + az * kz;
  const px = kx - ax * along, py = ky - ay * along, pz = kz - az * along;
  const pLen = Math.sqrt(px * px + py * py + pz * pz);
  const kLen = Math.sqrt(kx * kx + ky * ky + kz * kz);
  if (pLen > PARALLEL_SINE * kLen) {
    out[o] = px / pLen;
    out[o + 1] = py / pLen;
    out[o + 2] = pz / pLen;
  } else {
    // Stage `a` (already in locals) in `out`, so an aliased `out` cannot clobber it.
    out[o] = ax;
    out[o + 1] = ay;
    out[o + 2] = az;
    perpendicular(out, o, out, o);
  }
  out[o + 3] = 0;
}

/**
 * Writes the same rotation as `q[qo..qo+3]` with its angle multiplied by `fraction[fo]` to
 * `out[o..o+3]`: the slerp from the identity to `q` at t = fraction, along the shortest arc
 * (`q` and `−q` are the same rotation; when w < 0 it uses `−q`).
 *
 * With `q = (sin(θ/2)·axis, cos(θ/2))`, θ = 2·atan2(|xyz|, w) ∈ [0, π], the result is
 * `(sin(fθ/2)·axis, cos(fθ/2))`. `fraction = 0` gives the identity, 1 gives `q` (up to sign),
 * ½ the half-way rotation; other values extrapolate. The angle comes from atan2, so it is
 * accurate for small and large rotations, and a near-identity `q` scales smoothly (the axis
 * is never divided out on its own; below |xyz| ≈ 1e-154, where |xyz|² underflows, `q` counts
 * as the identity). A zero `q` gives the identity. `q` need not be unit; the
 * result is unit. The fraction is read from an array so a per-frame caller passes no boxed
 * double. `out` may alias `q` or `fraction`.
 *
 * Used to weight an IK correction (fraction = weight) and to share one look-at rotation along
 * a chain (see `solveLookAt`).
 */
export function splitRotation(
  out: NumArray, o: number, q: NumArray, qo: number, fraction: NumArray, fo: number,
): void {
  let x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const f = fraction[fo];
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s > 0) {
    const half = f * Math.atan2(s, w);
    // sin(fθ/2)/|xyz|: the unit axis times the new half-angle sine, in one factor.
    const k = Math.sin(half) / s;
    out[o] = x * k;
    out[o + 1] = y * k;
    out[o + 2] = z * k;
    out[o + 3] = Math.cos(half);
  } else {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
  }
}
