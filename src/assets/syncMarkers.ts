/**
 * Sync markers: the instants of a clip where a foot goes down or comes up, as the table that
 * marker sync reads (`play(…, { syncGroup, syncBy: 'markers' })`), and the warp that puts a
 * follower's time at the leader's place between two markers.
 *
 * Which events are markers: those named `footDown:<name>` or `footUp:<name>` — what
 * `detectFootContacts` writes (one pair per foot, named after the foot joint), or what an
 * author writes by hand with `createClip({ events })`. Other events (sounds, hit frames) are
 * not markers. Markers match across clips by their whole name, so two clips sync by markers
 * when they name their feet alike (the same skeleton, or feet renamed to agree).
 *
 * The warp (Unreal Engine's sync markers, as its animation sync groups describe them): the
 * leader at time t_L sits between its markers k (at m_k ≤ t_L) and k + 1, a fraction
 * f = (t_L − m_k) / (m_{k+1} − m_k) of the way; the follower is put the same fraction of the
 * way between its marker of k's name and the next marker after it of k + 1's name. Times are
 * cyclic (a loop's markers after its last one continue with its first, one duration later),
 * so a follower that starts its cycle on the other foot maps by name, not by index, and step
 * lengths that differ from step to step map piece by piece (piecewise-linear in time).
 */
import { fail } from './AnimationError.js';
import { isClip, type Clip } from './Clip.js';

/** The event-name prefixes that make an event a sync marker. */
export const SYNC_MARKER_PREFIXES: readonly string[] = Object.freeze(['footDown:', 'footUp:']);

/** A clip's sync markers (see the module comment), computed once per clip by {@link getSyncMarkers}. */
export interface SyncMarkers {
  /** Marker times in [0, duration] ascending (ties in event order); [0, duration) for a looping clip. */
  readonly times: Float64Array;
  /** Each marker's name as an id (`syncMarkerId`, one per distinct name), aligned with `times`: equal ids, equal names. */
  readonly names: Int32Array;
  /** The clip's duration D, seconds: the period of its markers. */
  readonly duration: number;
}

/** Whether an event named `name` is a sync marker (`footDown:…` or `footUp:…`). */
export function isSyncMarker(name: string): boolean {
  for (let i = 0; i < SYNC_MARKER_PREFIXES.length; i++) {
    const prefix = SYNC_MARKER_PREFIXES[i];
    if (name.length > prefix.length && name.startsWith(prefix)) return true;
  }
  return false;
}

/** Ids of marker names, one per distinct name in this thread (the main thread builds every table; workers receive them). */
const markerIds = new Map<string, number>();

/** The id of marker name `name`: the same number for the same name, in every table this thread builds. */
export function syncMarkerId(name: string): number {
  let id = markerIds.get(name);
  if (id === undefined) markerIds.set(name, (id = markerIds.size));
  return id;
}

const cache = new WeakMap<Clip, SyncMarkers>();

/**
 * The {@link SyncMarkers} of `clip` (its events that are markers, in time order), computed on
 * first use; empty tables when it has none.
 * @throws AnimationError when `clip` is not a Clip from `createClip`.
 */
export function getSyncMarkers(clip: Clip): SyncMarkers {
  let table = cache.get(clip);
  if (table === undefined) {
    if (!isClip(clip)) fail('getSyncMarkers', 'clip', 'must be a Clip from createClip');
    const markers = clip.events.filter((e) => isSyncMarker(e.name)); // events are sorted by time
    table = Object.freeze({
      times: Float64Array.from(markers, (e) => e.time),
      names: Int32Array.from(markers, (e) => syncMarkerId(e.name)),
      duration: clip.duration,
    });
    cache.set(clip, table);
  }
  return table;
}

/** `io` index of {@link warpToMarkers}, read: the leader's time, seconds, in [0, its duration). */
export const WARP_LEADER_TIME = 0;
/** `io` index of {@link warpToMarkers}, read: the follower's current time, seconds (where it has got to by itself). */
export const WARP_FOLLOWER_TIME = 1;
/** `io` index of {@link warpToMarkers}, written: the follower's time, seconds, in [0, its duration). */
export const WARP_TIME = 2;
/**
 * `io` index of {@link warpToMarkers}, written: the follower's segment length over the leader's — how
 * many seconds of the follower's clip pass per second of the leader's while both stay in
 * their segments (its playback speed is the leader's times this).
 */
export const WARP_RATIO = 3;

/**
 * The marker warp (see the module comment) of a follower to a leader at time
 * `io[WARP_LEADER_TIME]` (in [0, leader.duration)). Only the leader's markers whose names the follower also has take
 * part, so a follower missing some markers maps on those it has. When the follower has a name
 * more than once (a cycle of 4 steps following one of 2), the occurrence used is the one whose
 * warped time is nearest (cyclically) to `io[WARP_FOLLOWER_TIME]`, the follower's current time:
 * where it has got to by itself, so it keeps going through its own cycle and never jumps back a step.
 *
 * Writes the follower's time to `io[WARP_TIME]` and the segment ratio to `io[WARP_RATIO]`
 * and returns true; returns false (`io` untouched) when the two share no marker name or a
 * duration is not > 0. A leader with one shared marker warps over whole cycles (marker to the
 * same marker one cycle on). The times travel in `io` (4 doubles) because V8 boxes a double
 * passed to a function it does not inline; allocates nothing.
 */
export function warpToMarkers(io: Float64Array, leader: SyncMarkers, follower: SyncMarkers): boolean {
  const leaderTime = io[WARP_LEADER_TIME], followerTime = io[WARP_FOLLOWER_TIME];
  const lt = leader.times, ln = leader.names, ft = follower.times, fn = follower.names;
  const dl = leader.duration, df = follower.duration;
  if (!(dl > 0) || !(df > 0)) return false;
  // The leader's shared markers around leaderTime: the last at or before it, the first after it.
  let before = -1, after = -1, first = -1, last = -1;
  for (let i = 0; i < lt.length; i++) {
    if (!hasName(fn, ln[i])) continue;
    if (first < 0) first = i;
    last = i;
    if (lt[i] <= leaderTime) before = i;
    else if (after < 0) after = i;
  }
  if (first < 0) return false;
  const prev = before >= 0 ? lt[before] : lt[last] - dl;
  const next = after >= 0 ? lt[after] : lt[first] + dl;
  const from = before >= 0 ? before : last;
  const to = after >= 0 ? after : first;
  const fraction = next > prev ? (leaderTime - prev) / (next - prev) : 0;
  const nameA = ln[from], nameB = ln[to];
  // Each follower marker named A, to the next one named B after it (cyclically).
  let bestTime = 0, bestRatio = 0, bestDistance = Infinity;
  const n = ft.length;
  for (let j = 0; j < n; j++) {
    if (fn[j] !== nameA) continue;
    const a = ft[j];
    let b = a + df; // B = A one cycle on, when A's is the only marker named B
    for (let step = 1; step <= n; step++) {
      const k = j + step < n ? j + step : j + step - n;
      if (fn[k] === nameB) { b = ft[k] + (j + step < n ? 0 : df); break; }
    }
    let t = a + fraction * (b - a);
    t -= Math.floor(t / df) * df;
    if (!(t < df)) t = 0; // rounding at the seam
    let d = Math.abs(t - followerTime);
    d -= Math.floor(d / df) * df;
    if (df - d < d) d = df - d;
    if (d < bestDistance) {
      bestDistance = d;
      bestTime = t;
      bestRatio = next > prev ? (b - a) / (next - prev) : 0;
    }
  }
  io[WARP_TIME] = bestTime;
  io[WARP_RATIO] = bestRatio;
  return true;
}

/** Whether `names` holds `id`. */
function hasName(names: Int32Array, id: number): boolean {
  for (let i = 0; i < names.length; i++) if (names[i] === id) return true;
  return false;
}
