/**
 * An orthographic 3/4 camera: it looks down at `pitch` radians from the horizon, from the
 * direction `yaw` about +Y, at a target on the ground; `halfHeight` metres of the world fit
 * between the centre and the top of the view. Produces the column-major view-projection
 * matrix the shaders take, and maps between world points and canvas pixels.
 */
export class OrthoCamera {
  targetX = 0;
  targetY = 0;
  targetZ = 0;
  yaw = Math.PI / 4;
  pitch = (35 * Math.PI) / 180;
  halfHeight = 10;
  width = 800;
  height = 600;
  /** Distance of the eye from the target along the view axis, metres (depth range around it). */
  readonly distance = 500;
  readonly viewProj = new Float32Array(16);
  /** Camera axes: right, up, back (unit), and the eye. */
  private readonly axes = new Float64Array(12);

  /** Recomputes the matrix; call after changing any field. */
  update(): void {
    const a = this.axes;
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    // back: from the target towards the eye.
    const bx = Math.sin(this.yaw) * cp, by = sp, bz = Math.cos(this.yaw) * cp;
    // right = up × back, normalized (up = +Y).
    let rx = bz, rz = -bx;
    const rn = Math.hypot(rx, rz) || 1;
    rx /= rn; rz /= rn;
    // camera up = back × right.
    const ux = by * rz, uy = bz * rx - bx * rz, uz = -by * rx;
    const ex = this.targetX + bx * this.distance, ey = this.targetY + by * this.distance, ez = this.targetZ + bz * this.distance;
    a.set([rx, 0, rz, ux, uy, uz, bx, by, bz, ex, ey, ez]);
    const halfW = this.halfHeight * (this.width / Math.max(1, this.height));
    const near = 1, far = this.distance * 2;
    const m = this.viewProj;
    // Row 0: right·(p − eye) / halfW
    m[0] = rx / halfW; m[4] = 0; m[8] = rz / halfW; m[12] = -(rx * ex + rz * ez) / halfW;
    // Row 1: up·(p − eye) / halfH
    m[1] = ux / this.halfHeight; m[5] = uy / this.halfHeight; m[9] = uz / this.halfHeight;
    m[13] = -(ux * ex + uy * ey + uz * ez) / this.halfHeight;
    // Row 2: depth = −back·(p − eye) in [near, far] → [−1, 1]
    const k = 2 / (far - near);
    m[2] = -bx * k; m[6] = -by * k; m[10] = -bz * k;
    m[14] = (bx * ex + by * ey + bz * ez) * k - near * k - 1;
    // Row 3
    m[3] = 0; m[7] = 0; m[11] = 0; m[15] = 1;
  }

  /** Canvas pixel of a world point, into `out` ([x, y]). */
  project(x: number, y: number, z: number, out: Float64Array | number[]): void {
    const m = this.viewProj;
    const nx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    const ny = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    out[0] = ((nx + 1) / 2) * this.width;
    out[1] = ((1 - ny) / 2) * this.height;
  }

  /** The ground point (y = `groundY`) under a canvas pixel, into `out` ([x, z]). */
  unproject(px: number, py: number, out: Float64Array | number[], groundY = 0): void {
    const a = this.axes;
    const halfW = this.halfHeight * (this.width / Math.max(1, this.height));
    const nx = (px / this.width) * 2 - 1, ny = 1 - (py / this.height) * 2;
    const ox = a[9]! + nx * halfW * a[0]! + ny * this.halfHeight * a[3]!;
    const oy = a[10]! + nx * halfW * a[1]! + ny * this.halfHeight * a[4]!;
    const oz = a[11]! + nx * halfW * a[2]! + ny * this.halfHeight * a[5]!;
    // Ray o − t·back reaches y = groundY at t = (o.y − groundY) / back.y.
    const t = (oy - groundY) / a[7]!;
    out[0] = ox - t * a[6]!;
    out[1] = oz - t * a[8]!;
  }

  /** The unit direction from the target towards the eye, into `out`. */
  back(out: Float64Array | number[]): void {
    out[0] = this.axes[6]!;
    out[1] = this.axes[7]!;
    out[2] = this.axes[8]!;
  }

  /** The eye position (for LOD distances: a point on the view axis above the target). */
  eye(out: Float64Array | number[]): void {
    out[0] = this.axes[9]!;
    out[1] = this.axes[10]!;
    out[2] = this.axes[11]!;
  }
}
