/**
 * A SHA-256 of a world's components for the tests that compare two worlds or a world before and
 * after a call: every typed array of every component, in name order, but the per-thread
 * `Follower.scratch` (each thread's own temporaries).
 */
import { createHash, type Hash } from 'node:crypto';
import type { AnimationWorld } from '../../src/index.js';

/** A hash fed every component array of `world` (see the file header); add more, then `digest`. */
export function hashComponents(world: AnimationWorld): Hash {
  const h = createHash('sha256');
  const components = world.components as unknown as Record<string, Record<string, unknown>>;
  for (const name of Object.keys(components).sort()) {
    for (const field of Object.keys(components[name]!).sort()) {
      const value = components[name]![field];
      if (ArrayBuffer.isView(value) && !(name === 'Follower' && field === 'scratch')) h.update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    }
  }
  return h;
}
