import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * `Character`: which skeleton an entity animates.
 *
 * Capacity: `rows = maxEntities + 1` (bitecs entity ids start at 1). Indexed by eid.
 * - `skeleton[eid]`: the skeleton's id in the world's asset registry.
 * - `jointCount[eid]`: that skeleton's joint count, cached so systems need not look it up.
 */
export interface CharacterComponent {
  readonly skeleton: Int32Array;
  readonly jointCount: Int32Array;
}

/** Creates the `Character` component for `rows` entity ids. */
export function createCharacterComponent(rows: number, alloc: PoolAllocator = heapAllocator): CharacterComponent {
  return { skeleton: alloc.array(Int32Array, rows).fill(-1), jointCount: alloc.array(Int32Array, rows) };
}

/** `Character`'s row lifecycle: no skeleton, no joints (spawn then writes the skeleton's). */
export const characterRows: RowLifecycle<CharacterComponent> = {
  reset(character: CharacterComponent, eid: number): void {
    character.skeleton[eid] = -1;
    character.jointCount[eid] = 0;
  },
  kept: {},
};
