/** Mouse controls of the view's camera (a crowd renderer's `CrowdCamera`): drag pans over the ground (or orbits), the wheel zooms. */
import type { CrowdCamera } from 'bitanim/pixi';
import { unproject } from './camera';

/** `camera` returns the camera in use (it changes when the view makes a new crowd renderer). */
export function attachCameraControls(canvas: HTMLCanvasElement, camera: () => CrowdCamera, options: { pan?: boolean; orbit?: boolean } = {}): void {
  let dragging = false;
  let lastX = 0, lastY = 0;
  const a = [0, 0], b = [0, 0];
  canvas.addEventListener('pointerdown', (e) => {
    dragging = true;
    lastX = e.offsetX;
    lastY = e.offsetY;
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointerup', (e) => {
    dragging = false;
    canvas.releasePointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const view = camera();
    if (options.orbit) {
      view.yaw -= (e.offsetX - lastX) * 0.01;
      view.pitch = Math.min(1.45, Math.max(0.05, view.pitch + (e.offsetY - lastY) * 0.01));
    } else if (options.pan !== false) {
      unproject(view, lastX, lastY, a);
      unproject(view, e.offsetX, e.offsetY, b);
      view.targetX -= b[0]! - a[0]!;
      view.targetZ -= b[1]! - a[1]!;
    }
    lastX = e.offsetX;
    lastY = e.offsetY;
    view.update();
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const view = camera();
      view.halfHeight = Math.min(400, Math.max(0.3, view.halfHeight * Math.exp(e.deltaY * 0.001)));
      view.update();
    },
    { passive: false },
  );
}
