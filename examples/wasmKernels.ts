/**
 * examples/wasmKernels.ts (docs/wasm.md): a world that runs its hot systems on the WebAssembly
 * SIMD kernels where the platform has them. test/examples/guides.test.ts runs it.
 */
import { createAnimationWorld, type AnimationWorld } from 'bitanim';

/** A world with `kernels: 'auto'` and the kernels it chose. */
export function autoKernels(): { world: AnimationWorld; kernels: 'wasm' | 'js' } {
  // #region auto
  const world = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, kernels: 'auto' });
  world.kernels; // 'wasm' or 'js'
  // #endregion
  return { world, kernels: world.kernels };
}
