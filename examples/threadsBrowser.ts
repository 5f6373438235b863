/**
 * examples/threadsBrowser.ts (docs/threads.md): a browser frame loop on every core when the
 * page is cross-origin isolated, on one thread when it is not.
 * test/examples/guides.test.ts runs it with a stand-in requestAnimationFrame.
 */
import { createAnimationWorld, stepParallel, type AnimationWorld } from 'bitanim';

// The browser's globals (this repository type-checks examples against Node's).
declare global {
  function requestAnimationFrame(callback: () => void): number;
  var crossOriginIsolated: boolean | undefined;
}

/** Starts the loop; returns its world. */
export function startFrameLoop(): AnimationWorld {
  // #region browser
  const threads = globalThis.crossOriginIsolated ? 'auto' : 1;
  const world = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, threads });

  function frame(): void {
    stepParallel(world, 1 / 60).then(() => {
      // upload palettes, make API calls, render …
      requestAnimationFrame(frame);
    });
  }
  requestAnimationFrame(frame);
  // #endregion
  return world;
}
