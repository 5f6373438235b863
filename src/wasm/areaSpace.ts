/**
 * The space of the kernel area's parts (skeletons, clips, poses): which byte ranges hold a
 * copy and which are free, so an asset's copy goes where a released one was. Used by
 * `syncKernelArea` only, on the world's own thread between frames (workers read the tables,
 * never this), so which range an asset gets depends only on the order assets were registered
 * and released in — never on the thread count.
 *
 * Each part is a range [0, capacity) of bytes handed out first-fit from its free ranges (kept
 * sorted, neighbours merged), then from its top; giving back the range just below the top
 * lowers the top. Ranges are multiples of 16 bytes (the copies' alignment).
 */

/** One part's bookkeeping: its top (bytes handed out from the bottom up) and its free ranges below it. */
export interface AreaPart {
  /** Bytes of the part (raised when the kernel area's memory grows). */
  capacity: number;
  /** The end of the highest range in use. */
  top: number;
  /** Free ranges below `top` as [start, size] pairs, by start, none touching another. */
  readonly free: number[];
  /** Bytes in copies now. */
  used: number;
}

/** A part of `capacity` bytes, all free. */
export function createAreaPart(capacity: number): AreaPart {
  return { capacity, top: 0, free: [], used: 0 };
}

/**
 * Takes `size` bytes from `part`: the first free range that holds them (its start), else from
 * the top; −1 when neither has room (the asset then runs on the JavaScript kernels).
 */
export function takeRange(part: AreaPart, size: number): number {
  const free = part.free;
  for (let i = 0; i < free.length; i += 2) {
    const start = free[i], room = free[i + 1];
    if (room < size) continue;
    if (room === size) free.splice(i, 2);
    else {
      free[i] = start + size;
      free[i + 1] = room - size;
    }
    part.used += size;
    return start;
  }
  if (part.top + size > part.capacity) return -1;
  const start = part.top;
  part.top += size;
  part.used += size;
  return start;
}

/** Gives the range [start, start + size) of `part` back (a released asset's copy). */
export function giveRange(part: AreaPart, start: number, size: number): void {
  part.used -= size;
  const free = part.free;
  let i = 0;
  while (i < free.length && free[i] < start) i += 2;
  free.splice(i, 0, start, size);
  // Merge with the range after, then with the one before.
  const next = i + 2;
  if (next < free.length && free[i] + free[i + 1] === free[next]) {
    free[i + 1] = free[i + 1] + free[next + 1];
    free.splice(next, 2);
  }
  if (i >= 2 && free[i - 2] + free[i - 1] === free[i]) {
    free[i - 1] = free[i - 1] + free[i + 1];
    free.splice(i, 2);
    i -= 2;
  }
  // A free range reaching the top lowers it.
  const last = free.length - 2;
  if (last >= 0 && free[last] + free[last + 1] === part.top) {
    part.top = free[last];
    free.splice(last, 2);
  }
}
