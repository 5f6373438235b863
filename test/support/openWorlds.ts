/**
 * Threaded worlds a test file creates, disposed after each test (their workers would keep the
 * test process running): `const open = disposedAfterEach();` then `open.push(world)`.
 */
import { afterEach } from 'vitest';
import { disposeAnimationWorld, type AnimationWorld } from '../../src/index.js';

/** A list whose worlds are disposed after each test of the file (those the test disposed already are skipped). */
export function disposedAfterEach(): AnimationWorld[] {
  const open: AnimationWorld[] = [];
  afterEach(() => {
    for (const world of open.splice(0)) {
      try {
        disposeAnimationWorld(world);
      } catch {
        // disposed by the test already
      }
    }
  });
  return open;
}
