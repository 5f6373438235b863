/**
 * Foot contact tables: a clip's `footDown:<joint>` / `footUp:<joint>` events (what
 * `detectFootContacts` writes, or an artist's markers) turned, once when the clip is built, into
 * one row of per-frame contact flags per marked joint, so `footLockSystem` reads whether a foot
 * is planted at a layer's time with one array read.
 *
 * A row is keyed by the marked joint's name through {@link contactKey} (a 30-bit hash), not by
 * a joint index: a clip retargeted onto another skeleton (`bindSkeletons`, `play(…, { binding })`)
 * keeps its events, which name the source's joints, and a foot lock names the marker it follows
 * (`setFootLock`'s `legs[i].contact`, default the foot's own name).
 *
 * Flags, per row k and distinct frame f (a looping clip's seam frame is its frame 0, so a
 * looping clip has `frameCount − 1` distinct frames): 1 when frame f lies in a contact. A
 * contact runs from a `footDown` at frame s to the next `footUp` at frame e, both inclusive
 * (the intervals of `detectFootContacts`: first and last planted frames). Event times are
 * rounded to the nearest frame. In a looping clip a contact whose `footUp` comes after the
 * seam runs over it; in a clamped clip a `footUp` with no `footDown` before it closes a
 * contact open from frame 0, and a `footDown` with no `footUp` after it stays open to the end.
 * A joint with no marker (a foot `detectFootContacts` found planted throughout has none) has
 * no row: it counts as not in contact.
 */

/** Event name prefixes that mark contacts. */
export const FOOT_DOWN = 'footDown:';
/** See {@link FOOT_DOWN}. */
export const FOOT_UP = 'footUp:';

/**
 * One clip's contacts (see the module comment). Immutable; shared by every layer playing the
 * clip and sent to the workers of a threaded world with the clip.
 */
export interface FootContactTable {
  /** The marked joints' names, one per row, in order of their first event. */
  readonly names: readonly string[];
  /** `contactKey(names[k])` per row. */
  readonly keys: Int32Array;
  /** Distinct frames per row: `frameCount − 1` for a looping clip (at least 1), else `frameCount`. */
  readonly frames: number;
  /** The clip's frame rate (frames per second). */
  readonly frameRate: number;
  /** `keys.length × frames` flags, row-major: row k's frame f at `k × frames + f`; 1 in contact. */
  readonly flags: Uint8Array;
}

/**
 * The key of a marked joint's name: FNV-1a (32-bit) over its UTF-16 code units, kept to its low
 * 30 bits, an integer in [0, 2³⁰) — a small integer to V8 (a Smi), so passing or storing it never
 * boxes a number. Two names of one clip with the same key (about one chance in 10⁹ per pair)
 * would share the first one's row.
 */
export function contactKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h & 0x3fffffff;
}

/**
 * Builds the contact table of a clip's `events` (sorted by time) for `frameCount` frames at
 * `frameRate`, looping or clamped; null when no event marks a contact. Called by `createClip`.
 */
export function buildFootContactTable(
  events: readonly { readonly time: number; readonly name: string }[], frameCount: number, frameRate: number, loop: boolean,
): FootContactTable | null {
  const names: string[] = [];
  const marks: { row: number; frame: number; down: boolean }[] = [];
  const F = loop ? Math.max(1, frameCount - 1) : Math.max(1, frameCount);
  for (const event of events) {
    const down = event.name.startsWith(FOOT_DOWN);
    if (!down && !event.name.startsWith(FOOT_UP)) continue;
    const joint = event.name.slice(down ? FOOT_DOWN.length : FOOT_UP.length);
    let row = names.indexOf(joint);
    if (row < 0) {
      row = names.length;
      names.push(joint);
    }
    let frame = Math.round(event.time * frameRate);
    frame = loop ? ((frame % F) + F) % F : Math.min(Math.max(frame, 0), F - 1);
    marks.push({ row, frame, down });
  }
  if (names.length === 0) return null;
  const flags = new Uint8Array(names.length * F);
  for (let row = 0; row < names.length; row++) {
    const downAt = new Uint8Array(F), upAt = new Uint8Array(F);
    let first: boolean | null = null;
    for (const mark of marks) {
      if (mark.row !== row) continue;
      if (mark.down) downAt[mark.frame] = 1;
      else upAt[mark.frame] = 1;
      first ??= mark.down;
    }
    // The state before frame 0: a loop's state at the end of its cycle (one pass to find it);
    // a clamped clip's is open when its first marker is a footUp.
    const state = loop ? walk(downAt, upAt, 0, null) : first === false ? 1 : 0;
    walk(downAt, upAt, state, flags.subarray(row * F, (row + 1) * F));
  }
  return Object.freeze({ names: Object.freeze(names), keys: Int32Array.from(names, contactKey), frames: F, frameRate, flags });
}

/**
 * One pass over the frames from `state`: a footDown opens a contact at its frame, a footUp
 * closes it after its frame (a frame with both is a one-frame contact). Writes the flags into
 * `out` when given; returns the state after the last frame.
 */
function walk(downAt: Uint8Array, upAt: Uint8Array, state: number, out: Uint8Array | null): number {
  for (let f = 0; f < downAt.length; f++) {
    if (downAt[f] === 1) state = 1;
    if (out !== null) out[f] = state === 1 || upAt[f] === 1 ? 1 : 0;
    if (upAt[f] === 1) state = 0;
  }
  return state;
}
