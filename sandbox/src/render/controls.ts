/** Mouse controls of an orthographic camera: drag pans over the ground, the wheel zooms. */
import type { OrthoCamera } from './camera';

export function attachCameraControls(canvas: HTMLCanvasElement, camera: OrthoCamera, options: { pan?: boolean; orbit?: boolean } = {}): void {
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
    if (options.orbit) {
      camera.yaw -= (e.offsetX - lastX) * 0.01;
      camera.pitch = Math.min(1.45, Math.max(0.05, camera.pitch + (e.offsetY - lastY) * 0.01));
    } else if (options.pan !== false) {
      camera.unproject(lastX, lastY, a);
      camera.unproject(e.offsetX, e.offsetY, b);
      camera.targetX -= b[0]! - a[0]!;
      camera.targetZ -= b[1]! - a[1]!;
    }
    lastX = e.offsetX;
    lastY = e.offsetY;
    camera.update();
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      camera.halfHeight = Math.min(400, Math.max(0.3, camera.halfHeight * Math.exp(e.deltaY * 0.001)));
      camera.update();
    },
    { passive: false },
  );
}
