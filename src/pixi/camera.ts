/**
 * The crowd renderer's camera: it looks at a target from the direction `yaw` about +Y, `pitch`
 * radians above the horizon, orthographic (`halfHeight` metres between the view's centre and
 * top edge) or perspective (`fovY` radians, eye `distance` metres from the target). It makes the
 * column-major view-projection matrix the shaders take (clip depth −1 … 1, WebGL's convention)
 * and maps world points to canvas pixels. Adapted from the sandbox's orthographic camera.
 */

/** `'orthographic'` (sizes do not change with distance) or `'perspective'`. */
export type CameraProjection = 'orthographic' | 'perspective';

/** A camera orbiting a target; change fields, then call {@link CrowdCamera.update}. */
export class CrowdCamera {
  /** Orthographic or perspective. */
  projection: CameraProjection = 'orthographic';
  /** The point looked at, metres. */
  targetX = 0;
  /** The point looked at, metres. */
  targetY = 0;
  /** The point looked at, metres. */
  targetZ = 0;
  /** Direction the camera looks from, radians about +Y (0: from +Z). */
  yaw = Math.PI / 4;
  /** Angle above the horizon, radians (must stay inside (−π/2, π/2)). */
  pitch = (35 * Math.PI) / 180;
  /** Orthographic: metres from the view's centre to its top edge. */
  halfHeight = 10;
  /** Perspective: vertical field of view, radians. */
  fovY = Math.PI / 4;
  /** Eye distance from the target, metres (perspective: the view; orthographic: the depth range's centre). */
  distance = 500;
  /** Near and far planes, metres from the eye. */
  near = 1;
  /** Near and far planes, metres from the eye. */
  far = 1000;
  /** Canvas size, pixels. */
  width = 800;
  /** Canvas size, pixels. */
  height = 600;
  /** View-projection, column-major (m[col × 4 + row]). */
  readonly viewProj = new Float32Array(16);
  /** right (3), up (3), back (3), eye (3). */
  private readonly axes = new Float64Array(12);

  /** Recomputes {@link CrowdCamera.viewProj}; call after changing any field. */
  update(): void {
    const a = this.axes;
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    const bx = Math.sin(this.yaw) * cp, by = sp, bz = Math.cos(this.yaw) * cp;
    let rx = bz, rz = -bx;
    const rn = Math.hypot(rx, rz) || 1;
    rx /= rn;
    rz /= rn;
    const ux = by * rz, uy = bz * rx - bx * rz, uz = -by * rx;
    const ex = this.targetX + bx * this.distance, ey = this.targetY + by * this.distance, ez = this.targetZ + bz * this.distance;
    a[0] = rx; a[1] = 0; a[2] = rz;
    a[3] = ux; a[4] = uy; a[5] = uz;
    a[6] = bx; a[7] = by; a[8] = bz;
    a[9] = ex; a[10] = ey; a[11] = ez;
    // View rows: right·(p − eye), up·(p − eye), back·(p − eye) (negative in front of the eye).
    const tx = -(rx * ex + rz * ez), ty = -(ux * ex + uy * ey + uz * ez), tz = -(bx * ex + by * ey + bz * ez);
    const aspect = this.width / Math.max(1, this.height);
    const near = this.near, far = this.far;
    const m = this.viewProj;
    if (this.projection === 'orthographic') {
      const sx = 1 / (this.halfHeight * aspect), sy = 1 / this.halfHeight, k = -2 / (far - near), kz = -(far + near) / (far - near);
      // x' = right·(p−eye)/halfW, y' = up·(p−eye)/halfH, z' = −2/(f−n)·(−back·(p−eye))… in clip: k·view.z + kz.
      m[0] = rx * sx; m[4] = 0; m[8] = rz * sx; m[12] = tx * sx;
      m[1] = ux * sy; m[5] = uy * sy; m[9] = uz * sy; m[13] = ty * sy;
      m[2] = bx * k; m[6] = by * k; m[10] = bz * k; m[14] = tz * k + kz;
      m[3] = 0; m[7] = 0; m[11] = 0; m[15] = 1;
    } else {
      const f = 1 / Math.tan(this.fovY / 2), sx = f / aspect, sy = f;
      const k = (far + near) / (near - far), kz = (2 * far * near) / (near - far);
      // Standard OpenGL perspective on the view: clip.w = −view.z.
      m[0] = rx * sx; m[4] = 0; m[8] = rz * sx; m[12] = tx * sx;
      m[1] = ux * sy; m[5] = uy * sy; m[9] = uz * sy; m[13] = ty * sy;
      m[2] = bx * k; m[6] = by * k; m[10] = bz * k; m[14] = tz * k + kz;
      m[3] = -bx; m[7] = -by; m[11] = -bz; m[15] = -tz;
    }
  }

  /**
   * The canvas pixel of a world point into `out` ([x, y], y down), and whether it is in front
   * of the camera (between the near and far planes).
   */
  project(x: number, y: number, z: number, out: Float64Array | number[]): boolean {
    const m = this.viewProj;
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
    const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    out[0] = ((cx / cw + 1) / 2) * this.width;
    out[1] = ((1 - cy / cw) / 2) * this.height;
    return cw > 0 && cz >= -cw && cz <= cw;
  }

  /** The eye position into `out` ([x, y, z]). */
  eye(out: Float64Array | number[]): void {
    out[0] = this.axes[9];
    out[1] = this.axes[10];
    out[2] = this.axes[11];
  }

  /** The unit direction from the target towards the eye into `out` ([x, y, z]). */
  back(out: Float64Array | number[]): void {
    out[0] = this.axes[6];
    out[1] = this.axes[7];
    out[2] = this.axes[8];
  }
}
