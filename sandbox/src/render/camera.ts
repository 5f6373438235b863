/**
 * What the sandbox's controls need beyond bitanim/pixi's `CrowdCamera`: the ground point under
 * a canvas pixel (panning, pointing), and a view carried over to a new crowd's camera (a new
 * world means a new crowd renderer).
 */
import type { CrowdCamera } from 'bitanim/pixi';

const back = new Float64Array(3), eye = new Float64Array(3);

/**
 * The point at height `groundY` under canvas pixel (`px`, `py`) into `out` ([x, z]): the ray
 * through the pixel (orthographic: along the view axis from the pixel's place on the view
 * plane; perspective: from the eye) meets the plane y = `groundY`. Call after `camera.update()`.
 */
export function unproject(camera: CrowdCamera, px: number, py: number, out: Float64Array | number[], groundY = 0): void {
  camera.back(back);
  camera.eye(eye);
  const bx = back[0]!, by = back[1]!, bz = back[2]!;
  // The camera's right (horizontal) and up axes, as CrowdCamera builds them.
  const rn = Math.hypot(bz, bx) || 1;
  const rx = bz / rn, rz = -bx / rn;
  const ux = by * rz, uy = bz * rx - bx * rz, uz = -by * rx;
  const aspect = camera.width / Math.max(1, camera.height);
  const nx = (px / camera.width) * 2 - 1, ny = 1 - (py / camera.height) * 2;
  let ox = eye[0]!, oy = eye[1]!, oz = eye[2]!, dx = -bx, dy = -by, dz = -bz;
  if (camera.projection === 'orthographic') {
    const h = camera.halfHeight, w = h * aspect;
    ox += nx * w * rx + ny * h * ux;
    oy += ny * h * uy;
    oz += nx * w * rz + ny * h * uz;
  } else {
    const h = Math.tan(camera.fovY / 2), w = h * aspect;
    dx += nx * w * rx + ny * h * ux;
    dy += ny * h * uy;
    dz += nx * w * rz + ny * h * uz;
  }
  const t = Math.abs(dy) > 1e-9 ? (groundY - oy) / dy : 0;
  out[0] = ox + t * dx;
  out[1] = oz + t * dz;
}

/** Copies the view of `from` (projection, target, angles, zoom, planes, size) to `to`, and updates it. */
export function copyView(to: CrowdCamera, from: CrowdCamera): void {
  to.projection = from.projection;
  to.targetX = from.targetX;
  to.targetY = from.targetY;
  to.targetZ = from.targetZ;
  to.yaw = from.yaw;
  to.pitch = from.pitch;
  to.halfHeight = from.halfHeight;
  to.fovY = from.fovY;
  to.distance = from.distance;
  to.near = from.near;
  to.far = from.far;
  to.width = from.width;
  to.height = from.height;
  to.update();
}
