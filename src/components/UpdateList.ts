import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * The update list: the characters a frame updates, and by how many seconds each — written by
 * `lodSystem` for every chunk of characters, read by every system after it (DESIGN §4,
 * docs/design.md). Update-rate LOD is this list: a character `lodSystem` does not update this
 * frame is not in it, so no system tests a flag per character.
 *
 * Layout: a chunk is the characters at `world.characters.dense[first .. end)`; the list for it
 * is at `eids[first .. last)` and `dt[first .. last)`, `last − first ≤ end − first`, dense
 * positions kept in order. A whole-world run is the chunk `[0, count)`, so the list of a frame
 * run chunk by chunk holds, position for position, what one whole-world `lodSystem` writes.
 *
 * A system's chunked form `xxxEntities(world, dt, first, end)` calls {@link updateRange} for
 * its chunk and visits `eids[first .. last)`. When `lodSystem` wrote that very chunk (same
 * `first` and `end`, since the frame began) it gets that list; otherwise (a system run alone,
 * a frame without `lodSystem`, a test calling a chunked form directly) the list is rebuilt as
 * every character of the chunk with the frame's `dt`.
 *
 * Sizes: `rows = maxEntities + 1` entries (Int32 ids and tagged numbers: 12 bytes a row).
 */
export interface UpdateList {
  /** `eids[k]`: the k-th character updated (list positions, see the file header). */
  readonly eids: Int32Array;
  /**
   * `dt[k]`: the seconds `eids[k]` advances by this frame — the frame's dt, or all the seconds
   * since its last update under update-rate LOD. A plain array holding tagged numbers (its
   * elements kind is the generic one, see `createUpdateList`), so a system passes `dt[k]` on
   * to its helpers without boxing a double.
   */
  readonly dt: number[];
  /** The chunk `lodSystem` last wrote: `dense[first .. end)`, its list ending at `last`; −1 when none (new frame). */
  first: number;
  /** End (exclusive) of that chunk in `dense`. */
  end: number;
  /** Length of the list for that chunk (`eids[0 .. last)`); −1 when none (new frame). */
  last: number;
}

/** Creates the update list of a world of `rows` entity ids (no chunk written). */
export function createUpdateList(rows: number, alloc: PoolAllocator = heapAllocator): UpdateList {
  // Filled with null first, so the array's elements kind is the generic one and stays so: the
  // numbers stored later are kept as tagged values that reads pass on without boxing.
  const dt = Array.from({ length: rows }, (): unknown => null) as number[];
  for (let k = 0; k < rows; k++) dt[k] = 0;
  return { eids: alloc.array(Int32Array, rows), dt, first: -1, end: -1, last: -1 };
}

/**
 * The end of the list for the chunk `dense[first .. end)` (the list starts at `first`): the
 * list `lodSystem` wrote for that chunk this frame, or else every character of the chunk with
 * `dt` (written here). Integers and tagged numbers only; allocates nothing.
 */
export function updateRange(list: UpdateList, dense: ArrayLike<number>, dt: number, first: number, end: number): number {
  if (list.first === first && list.end === end) return list.last;
  const { eids, dt: dts } = list;
  for (let i = first; i < end; i++) {
    eids[i] = dense[i];
    dts[i] = dt;
  }
  return end;
}

/**
 * Ends a frame for the update list: the chunks written belong to the frame that ran, so the
 * next frame's systems do not take them for theirs before `lodSystem` writes anew.
 */
export function clearUpdateList(list: UpdateList): void {
  list.first = -1;
  list.end = -1;
  list.last = -1;
}
