/**
 * A world's gate (`AnimationWorld.gate`): whether it takes API calls. Only `stepParallel` and
 * `disposeAnimationWorld` change it; every command reads it (src/api/validation.ts `requireWorld`).
 */
import type { AnimationWorld } from './world.js';

/** `AnimationWorld.gate`: the world takes calls. */
export const WORLD_OPEN = 0;
/** `AnimationWorld.gate`: a `stepParallel` frame is in flight; calls are refused until its promise settles. */
export const WORLD_STEPPING = 1;
/** `AnimationWorld.gate`: `disposeAnimationWorld` ended the world; every call is refused. */
export const WORLD_DISPOSED = 2;

/** Sets `world`'s `AnimationWorld.gate` (stepParallel, disposeAnimationWorld). */
export function setWorldGate(world: AnimationWorld, gate: number): void {
  (world as { gate: number }).gate = gate;
}
