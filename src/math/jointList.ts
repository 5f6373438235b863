/**
 * Lists of joints to compose: the joints on the paths from the roots to a few chosen joints,
 * ascending (each parent before its children, as `composeModel`'s joint lists need) — what aim
 * and foot locking compose instead of a whole skeleton. No allocation, no throwing.
 */

/**
 * Appends `joint` and its ancestors not yet marked in `slot` to `list[count ..]`, ascending,
 * marking them; returns the new count. (Ancestors of a marked joint are marked, so the walk
 * stops at the first one.) The appended run is ascending, so sorting the whole list after
 * several walks only merges ascending runs ({@link sortAscending}).
 */
export function markPath(list: Int32Array, slot: Int32Array, parents: Int16Array, joint: number, count: number): number {
  const first = count;
  let j = joint;
  while (j >= 0 && slot[j] === 0) {
    slot[j] = 1;
    list[count++] = j;
    j = parents[j];
  }
  for (let a = first, b = count - 1; a < b; a++, b--) {
    const t = list[a];
    list[a] = list[b];
    list[b] = t;
  }
  return count;
}

/** Insertion sort of `list[0 .. count)`, ascending (a few joints, in ascending runs). */
export function sortAscending(list: Int32Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const v = list[i];
    let k = i - 1;
    while (k >= 0 && list[k] > v) {
      list[k + 1] = list[k];
      k--;
    }
    list[k + 1] = v;
  }
}
