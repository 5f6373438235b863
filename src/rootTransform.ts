/**
 * Placing and steering characters: the game writes where a character stands and which way it
 * faces, with or without root motion (`getRootTransform` in rootMotion.ts reads it back).
 */
import { fail } from './assets/AnimationError.js';
import { isFiniteNumber, requireCharacter } from './registry.js';
import type { AnimationWorld } from './world.js';

/** Fields of {@link setRootTransform}; each one given replaces the character's, the others stay. */
export interface RootTransformUpdate {
  /** World position, metres. */
  x?: number;
  y?: number;
  z?: number;
  /** Heading about +Y, radians (0 faces +Z; +π/2 faces +X). */
  yaw?: number;
}

/** The largest finite Float32: positions and headings reach the Float32 pose and matrix pools. */
const FLOAT32_MAX = 3.4028234663852886e38;
const WHERE = 'setRootTransform';

/**
 * Places or steers character `eid`: sets its world position and heading (`RootMotion.x/y/z/yaw`,
 * what `spawnCharacter` set first and `getRootTransform` reports). Omitted fields keep their
 * values, so `{ yaw }` steers a walking character without touching where root motion has
 * taken it, and `{ x, z }` teleports one without turning it.
 *
 * With root motion the character goes on from the new transform: the next frames' root deltas
 * are turned by the new heading and added to the new position (with `rootYaw` the clips' turns
 * keep adding to the heading set here). Without root motion the character simply stands there.
 * The jump is not motion: `RootMotion.delta` (the last frame's root-motion displacement) is
 * left as it is, and nothing of the pose changes. Allocation-free, so a game can steer every
 * character every frame.
 *
 * Under update-rate LOD a character that skips frames moves on its next update by the seconds
 * it gathered: that travel is turned by the heading it has then, so a `yaw` set between
 * updates also turns the travel of the skipped frames (at most `updateEvery − 1` frames of it).
 *
 * @example
 * // Steer a walker toward a point.
 * const { x, z } = getRootTransform(world, eid);
 * setRootTransform(world, eid, { yaw: Math.atan2(goalX - x, goalZ - z) });
 * @throws AnimationError naming the field when one is given but is not a finite number within
 * the Float32 range (|v| ≤ 3.4e38), or when `eid` is not a character of this world. Nothing
 * changes then.
 */
export function setRootTransform(world: AnimationWorld, eid: number, transform: RootTransformUpdate): void {
  requireCharacter(world, eid, WHERE);
  if (typeof transform !== 'object' || transform === null) fail(WHERE, 'transform', `is ${String(transform)}: must be an object { x?, y?, z?, yaw? }`);
  const { x, y, z, yaw } = transform;
  check(x, 'x');
  check(y, 'y');
  check(z, 'z');
  check(yaw, 'yaw');
  const root = world.components.RootMotion;
  if (x !== undefined) root.x[eid] = x;
  if (y !== undefined) root.y[eid] = y;
  if (z !== undefined) root.z[eid] = z;
  if (yaw !== undefined) root.yaw[eid] = yaw;
}

function check(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!isFiniteNumber(value)) fail(WHERE, field, `is ${typeof value === 'number' ? String(value) : JSON.stringify(value) ?? String(value)}: must be a finite number`);
  if (Math.abs(value) > FLOAT32_MAX) fail(WHERE, field, `is ${value}: must lie within the Float32 range, |${field}| ≤ 3.4e38`);
}
