/**
 * Frustum culling: the six planes of a view-projection matrix (Gribb–Hartmann, WebGL clip
 * space −w ≤ x, y, z ≤ w), normalized, and whether a sphere reaches inside all of them.
 */

/** The planes of column-major `m` into `out` (6 × [a, b, c, d], unit normals pointing in). */
export function frustumPlanes(out: Float64Array, m: Float32Array): void {
  for (let p = 0; p < 6; p++) {
    const row = p >> 1, sign = p & 1 ? -1 : 1;
    const a = m[3] + sign * m[row], b = m[7] + sign * m[4 + row], c = m[11] + sign * m[8 + row], d = m[15] + sign * m[12 + row];
    const n = Math.hypot(a, b, c) || 1;
    out[p * 4] = a / n;
    out[p * 4 + 1] = b / n;
    out[p * 4 + 2] = c / n;
    out[p * 4 + 3] = d / n;
  }
}

/** Whether the sphere (x, y, z, radius) is at least partly inside the planes. */
export function sphereVisible(planes: Float64Array, x: number, y: number, z: number, radius: number): boolean {
  for (let o = 0; o < 24; o += 4) {
    if (planes[o] * x + planes[o + 1] * y + planes[o + 2] * z + planes[o + 3] < -radius) return false;
  }
  return true;
}
