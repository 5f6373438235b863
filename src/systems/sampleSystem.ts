/**
 * sampleSystem — the clock of every layer: advances each layer's playback time, its weight fade
 * and its root motion, and reports the clip events it crossed. It samples no pose: blendSystem
 * samples each layer where it blends it, from the times written here.
 *
 * Reads:  Layers.clip/speed/weight/flags/fade*, syncGroup/syncRate/phaseOffset/syncBy,
 *         RootMotion.enabled/extractYaw, the update list (`world.updates`: who, by how many
 *         seconds), Lod.slot/dt, the clip, root-track and sync-marker registries.
 * Writes: Layers.time, Layers.rootDelta (characters with root motion only: rootMotionSystem
 *         reads it for them alone), Layers.rootYaw (characters with yaw extraction only),
 *         Layers.weight/fade* (cross-fades),
 *         Layers.speed of sync-group members (see {@link syncPhases}),
 *         the world event queue; `world.time` (the clock: {@link advanceClock}, once per frame
 *         after every chunk, src/frame.ts; or by sampleSystem run alone).
 * Order:  after lodSystem, before blendSystem. Entities without the animation components
 *         are not visited. Layers with weight 0 advance (and fire events) like any other.
 *
 * Time rules: a looping layer wraps into [0, D); a clamped one stops at 0 or D. A clip of
 * duration 0 (one frame) stays at 0. Events fire once per crossing: moving forward from `a`
 * to `b`, those with a ≤ τ < b (and τ = D when a clamped clip reaches its end); moving
 * backward, those with b < τ ≤ a (and τ = 0 when it reaches the start). A frame that spans
 * several loops fires each event once per loop, in order; when that is more than the event
 * queue holds, the records that would be overwritten at once are counted as dropped without
 * being made, so a step's work is bounded whatever `speed × dt` ({@link advanceLayer}).
 *
 * LOD (lodSystem): a character not in the update list is skipped; on its update frame it advances
 * by all the seconds since its last update, so its times, root deltas (across any number of
 * wraps), events and fade clocks advance as in the full-rate run (weights, speeds and clips
 * the game changed in between act from its last update); its events are stamped with the
 * world times they were crossed at. Times, root motion and events come from the played clip
 * (blendSystem samples the clip of the character's LOD level).
 *
 * Sync groups: before a character's layers advance, the members of each of its sync groups
 * are put at the group's phase, or between the markers matching the leader's, and given this
 * frame's speed ({@link syncPhases}).
 */
import { commitRemovals } from 'bitecs';
import type { Clip } from '../assets/Clip.js';
import type { RootTrack } from '../assets/rootTrack.js';
import { pushEvent, type EventQueue } from '../components/EventQueue.js';
import { updateRange } from '../components/UpdateList.js';
import { clearLayer, SYNC_BY_MARKERS, type LayersComponent } from '../components/Layers.js';
import { warpToMarkers, WARP_FOLLOWER_TIME, WARP_LEADER_TIME, WARP_RATIO, WARP_TIME, type SyncMarkers } from '../assets/syncMarkers.js';
import { clearsAfterFade, loops, measureSyncGroup, playingSyncGroups, SYNC_DURATION, SYNC_PHASE } from '../components/layerRules.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
import type { AnimationWorld } from '../world.js';

/**
 * Advances the layers of the characters in the update list (all of them unless lodSystem
 * wrote it) by `dt` seconds and moves the world clock; see the file header. Run alone it is
 * a frame of the clock, so it ends the way a frame does, with {@link advanceClock}.
 */
export function sampleSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  sampleEntities(world, dt, 0, world.characters.dense.length);
  advanceClock(world, dt);
}

/**
 * Moves the world clock by `dt` seconds: the one place it moves, once per frame after every
 * chunk (src/frame.ts `endFrame`), or at the end of {@link sampleSystem} run alone. Events
 * of the next frame are stamped from there.
 */
export function advanceClock(world: AnimationWorld, dt: number): void {
  world.time += dt;
}

/**
 * The work of {@link sampleSystem} for the chunk `world.characters.dense[first .. end)`: its
 * characters in the update list (components/UpdateList.ts), without committing removals or
 * moving the clock: `step` runs the frame on one cache-sized chunk of characters at a time,
 * which gives the same result.
 */
export function sampleEntities(world: AnimationWorld, frameDt: number, first: number, end: number): void {
  const { Layers, RootMotion } = world.components;
  const { clip: clipIds, fadeCurve: fading, maxLayers } = Layers;
  const { enabled: movesByRoot, extractYaw } = RootMotion;
  const { clips, rootTracks, syncMarkers } = world.assets;
  const queue = world.events;
  const { slot: lodSlot, dt: lodDt } = world.components.Lod;
  const frameStart = world.time;
  queue.frameStart = frameStart;
  const updates = world.updates;
  const { eids: updated, dt: updatedDt } = updates;
  const last = updateRange(updates, world.characters.dense, frameDt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const dt = updatedDt[entry]; // seconds since its last update (lodSystem)
    queue.frameStart = lodSlot[eid] === 0 ? frameStart : frameStart + frameDt - lodDt[eid]; // when its seconds began
    const groups = playingSyncGroups(Layers, eid * maxLayers);
    if (groups !== 0) syncPhases(Layers, clips, syncMarkers, eid * maxLayers, groups);
    const moves = movesByRoot[eid] !== 0, turning = extractYaw[eid] !== 0;
    for (let li = eid * maxLayers, last = li + maxLayers; li < last; li++) {
      const clipId = clipIds[li];
      if (clipId < 0) continue;
      if (fading[li] !== 0 && advanceFade(Layers, li, dt)) continue; // a faded-out source: emptied
      const clip = clips[clipId];
      if (turning) extractRootYawDelta(Layers, li, clip, rootTracks[clipId], dt);
      else if (moves) extractRootDelta(Layers, li, clip, rootTracks[clipId], dt);
      advanceLayer(Layers, li, clip, dt, queue, eid, clipId);
    }
  }
}

/**
 * Sync of the layers `first .. first + layers.maxLayers − 1` (one character) for every group
 * whose bit is set in `groups`. Per group g, with its cycle duration D_g, leader L and phase φ
 * from {@link measureSyncGroup} (components/layerRules.ts):
 *
 * 1. **Phase** (every group): every member (a clip of duration Dᵢ > 0) gets
 *    time = ((φ + offsetᵢ) mod 1) × Dᵢ and speed = syncRate_L × Dᵢ / D_g.
 * 2. **Markers** (a group whose leader has `syncBy` = `SYNC_BY_MARKERS`): every other member
 *    played by markers too that shares a marker name with the leader (`markers`: the world's
 *    tables by clip id)
 *    instead gets the time {@link warpToMarkers} maps the leader's time to — chosen near the
 *    member's own time before this call — and speed = speed_L × the segment ratio, so it
 *    reaches its next marker when the leader reaches its own. The leader keeps rule 1 (its
 *    time is its own; the group's rate is its speed, as by phase). Members sharing no name keep rule 1.
 *
 * So each member then advances Dᵢ·Δφ with Δφ = syncRate_L·dt / D_g (by phase), and
 * `advanceLayer`, `extractRootDelta` and events need no knowledge of groups. Times are
 * re-derived from the leader every frame, so no drift accumulates. Members are looping
 * (`play` refuses clamped clips in a group). Takes only integers (see `sampleClipInto`);
 * allocates nothing.
 */
export function syncPhases(layers: LayersComponent, clips: readonly Clip[], markers: readonly SyncMarkers[], first: number, groups: number): void {
  const { clip: clipIds, syncGroup, time, speed, phaseOffset, syncRate, syncBy, maxLayers } = layers;
  const end = first + maxLayers;
  for (let g = 0; g < maxLayers; g++) {
    if ((groups & (1 << g)) === 0) continue;
    const leader = measureSyncGroup(SYNC, layers, clips, first, end, g);
    if (leader < 0) continue;
    if (syncBy[leader] === SYNC_BY_MARKERS && markers[clipIds[leader]] !== undefined) {
      syncByMarkers(layers, clips, markers, first, g, leader);
      continue;
    }
    const groupDuration = SYNC[SYNC_DURATION];
    const phase = SYNC[SYNC_PHASE];
    const rate = syncRate[leader];
    for (let li = first; li < end; li++) {
      const clipId = clipIds[li];
      if (syncGroup[li] !== g || clipId < 0) continue;
      const duration = clips[clipId].duration;
      if (!(duration > 0)) continue;
      let u = phase + phaseOffset[li];
      u -= Math.floor(u);
      const t = u * duration;
      time[li] = t < duration ? t : 0; // float rounding at the seam
      speed[li] = (rate * duration) / groupDuration;
    }
  }
}

/**
 * Rule 2 of {@link syncPhases} for group `group` of the layers from `first`, whose leader is
 * `leader` and whose {@link measureSyncGroup} results are in `SYNC`. Out of line, with integer
 * arguments only, so `syncPhases` stays small enough for V8 to inline into the per-character
 * loop (a double passed to a function V8 does not inline is boxed).
 */
function syncByMarkers(layers: LayersComponent, clips: readonly Clip[], markers: readonly SyncMarkers[], first: number, group: number, leader: number): void {
  const { clip: clipIds, syncGroup, time, speed, phaseOffset, syncRate, syncBy, maxLayers } = layers;
  const groupDuration = SYNC[SYNC_DURATION];
  const phase = SYNC[SYNC_PHASE];
  const rate = syncRate[leader];
  const leaderMarkers = markers[clipIds[leader]];
  const leaderSpeed = (rate * clips[clipIds[leader]].duration) / groupDuration;
  WARP[WARP_LEADER_TIME] = time[leader];
  for (let li = first, end = first + maxLayers; li < end; li++) {
    const clipId = clipIds[li];
    if (syncGroup[li] !== group || clipId < 0) continue;
    const duration = clips[clipId].duration;
    if (!(duration > 0)) continue;
    const own = li !== leader && syncBy[li] === SYNC_BY_MARKERS ? markers[clipId] : undefined;
    WARP[WARP_FOLLOWER_TIME] = time[li];
    if (own !== undefined && warpToMarkers(WARP, leaderMarkers, own)) {
      time[li] = WARP[WARP_TIME];
      speed[li] = leaderSpeed * WARP[WARP_RATIO];
      continue;
    }
    let u = phase + phaseOffset[li];
    u -= Math.floor(u);
    const t = u * duration;
    time[li] = t < duration ? t : 0; // float rounding at the seam
    speed[li] = (rate * duration) / groupDuration;
  }
}

/** {@link measureSyncGroup}'s results (a fixed-size math temporary). */
const SYNC = new Float64Array(2);
/** {@link warpToMarkers}' results (a fixed-size math temporary). */
const WARP = new Float64Array(4);

/**
 * Writes `rootDelta[li × 3 ..]`: how far the clip's root-motion joint moves (model space) while
 * layer `li` advances by `speed × dt` from its current time — the difference of its track at
 * the two times, plus one whole cycle's displacement per loop wrap (minus one per backward
 * wrap), so fast playback and long frames lose no distance. Clamped layers stop at the ends.
 * Reads the layer before `advanceLayer` moves it.
 */
export function extractRootDelta(layers: LayersComponent, li: number, clip: Clip, track: RootTrack, dt: number): void {
  const out = layers.rootDelta;
  const o = li * 3;
  if (!rootDeltaSpan(layers, li, clip, dt)) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
    return;
  }
  // Linear interpolation of the track at a and b.
  const ia = SPAN[SPAN_IA], wa = SPAN[SPAN_WA], ib = SPAN[SPAN_IB], wb = SPAN[SPAN_WB], cycles = SPAN[SPAN_CYCLES];
  const p = track.positions;
  const cycle = track.cycle;
  for (let a = 0; a < 3; a++) {
    const pa = p[ia * 3 + a] + (p[(ia + 1) * 3 + a] - p[ia * 3 + a]) * wa;
    const pb = p[ib * 3 + a] + (p[(ib + 1) * 3 + a] - p[ib * 3 + a]) * wb;
    out[o + a] = pb - pa + cycles * cycle[a];
  }
}

/**
 * Where a root delta of layer `li` advancing by `speed × dt` from its time a to b reads the
 * clip's track: into {@link SPAN}, the frame before a and the weight past it, the same for b,
 * and the loop wraps c between them (b wrapped into the clip when looping, else clamped to
 * its ends; frames clamped so each has a next one). False when the layer does not move (its
 * delta is 0). Floats travel through `SPAN`, so nothing is boxed.
 */
function rootDeltaSpan(layers: LayersComponent, li: number, clip: Clip, dt: number): boolean {
  const duration = clip.duration;
  const from = layers.time[li];
  const delta = layers.speed[li] * dt;
  if (delta === 0 || !(duration > 0)) return false;
  let to = from + delta;
  let cycles = 0;
  if (loops(layers, li)) {
    cycles = Math.floor(to / duration);
    to -= cycles * duration;
  } else if (to > duration) {
    to = duration;
  } else if (to < 0) {
    to = 0;
  }
  const last = clip.frameCount - 1;
  let fa = from * clip.frameRate, fb = to * clip.frameRate;
  let ia = Math.floor(fa), ib = Math.floor(fb);
  if (ia >= last) { ia = last - 1; fa = last; }
  if (ib >= last) { ib = last - 1; fb = last; }
  if (ia < 0) { ia = 0; fa = 0; }
  if (ib < 0) { ib = 0; fb = 0; }
  SPAN[SPAN_IA] = ia; SPAN[SPAN_WA] = fa - ia;
  SPAN[SPAN_IB] = ib; SPAN[SPAN_WB] = fb - ib;
  SPAN[SPAN_CYCLES] = cycles;
  return true;
}

/** {@link rootDeltaSpan}'s answer: frame and weight at a, at b, and the wraps (a fixed-size temporary per thread). */
const SPAN = new Float64Array(5);
const SPAN_IA = 0, SPAN_WA = 1, SPAN_IB = 2, SPAN_WB = 3, SPAN_CYCLES = 4;

/**
 * Below this |sin(Ψ/2)| (Ψ within 2e-9 rad of a whole number of turns) the cycle series S_c of
 * {@link extractRootYawDelta} is taken as its limit c·I; its error there is ~c²·1e-9.
 */
const SERIES_EPSILON = 1e-9;

/**
 * With yaw extraction: writes `rootYaw[li]`, the turn Δψ of the clip's root-motion joint about
 * +Y while layer `li` advances by `speed × dt` from time a to b, and `rootDelta[li × 3 ..]`,
 * its displacement in the joint's heading frame at a (vertical part as {@link extractRootDelta}).
 * Reads the layer before `advanceLayer` moves it; a and b, the wrap count c and the clamping
 * are those of {@link extractRootDelta}.
 *
 * Model (Tokage It Lab's root-motion normalization for what travel is normalized):
 * the joint's horizontal frame at clip time t is the 2D rigid motion F(t) = T(p(t) − p(0))·R(ψ(t)),
 * p its track position, ψ its yaw ({@link RootTrack.yaw}). A loop continues rigidly: one
 * cycle is K = F(D)·F(0)⁻¹ = T(cycle_h)·R(Ψ), so F(t + cD) = Kᶜ·F(t) for any whole c. The
 * layer's motion is the frame at b seen from the frame at a:
 *
 *     F(a)⁻¹·Kᶜ·F(b)  →  Δψ = ψ(b) − ψ(a) + c·Ψ,
 *                        d = R(−ψ(a))·(R(cΨ)·p'(b) + S_c·cycle_h − p'(a)),  p' = p − p(0),
 *
 * with Kᶜ = T(S_c·cycle_h)·R(cΨ), S_c = Σ_{j<c} R(jΨ) = k·R((c − 1)Ψ/2), k = sin(cΨ/2)/sin(Ψ/2)
 * (the geometric series of e^{iΨ}, any sign of c; S_c → c·I as sin(Ψ/2) → 0). For c = 0 this
 * is R(−ψ(a))·(p(b) − p(a)); for c = 1, the rest of this cycle then the start of the next,
 * turned by Ψ.
 *
 * The frame is the joint's own heading ψ(a) — not ψ(a) − ψ(0) — because root motion takes the
 * whole twist ψ out of the pose: the character then walks the way its pose faces even for a
 * clip that starts turned. Like the other helpers it receives the layer arrays and the
 * frame's `dt`, never a computed time (see {@link advanceLayer}), and allocates nothing.
 */
export function extractRootYawDelta(layers: LayersComponent, li: number, clip: Clip, track: RootTrack, dt: number): void {
  const out = layers.rootDelta;
  const o = li * 3;
  if (!rootDeltaSpan(layers, li, clip, dt)) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
    layers.rootYaw[li] = 0;
    return;
  }
  const ia = SPAN[SPAN_IA], wa = SPAN[SPAN_WA], ib = SPAN[SPAN_IB], wb = SPAN[SPAN_WB], cycles = SPAN[SPAN_CYCLES];
  const p = track.positions, yaw = track.yaw, cycle = track.cycle;
  const ka = ia * 3, kb = ib * 3, na = ka + 3, nb = kb + 3; // frames ia, ib and the ones after them
  const ax = p[ka] + (p[na] - p[ka]) * wa - p[0], az = p[ka + 2] + (p[na + 2] - p[ka + 2]) * wa - p[2];
  const bx = p[kb] + (p[nb] - p[kb]) * wb - p[0], bz = p[kb + 2] + (p[nb + 2] - p[kb + 2]) * wb - p[2];
  const ay = p[ka + 1] + (p[na + 1] - p[ka + 1]) * wa, by = p[kb + 1] + (p[nb + 1] - p[kb + 1]) * wb;
  const psiA = yaw[ia] + (yaw[ia + 1] - yaw[ia]) * wa;
  const psiB = yaw[ib] + (yaw[ib + 1] - yaw[ib]) * wb;
  // v = R(cΨ)·p'(b) + S_c·cycle_h − p'(a); R(θ)·(x, z) = (x cos θ + z sin θ, −x sin θ + z cos θ).
  let vx = bx - ax, vz = bz - az;
  let turn = psiB - psiA;
  if (cycles !== 0) {
    const cycleYaw = track.cycleYaw;
    const whole = cycles * cycleYaw;
    const cw = Math.cos(whole), sw = Math.sin(whole);
    const half = Math.sin(0.5 * cycleYaw);
    let k = cycles, cs = 1, ss = 0; // S_c = k·R(φ)
    if (Math.abs(half) > SERIES_EPSILON) {
      k = Math.sin(0.5 * whole) / half;
      const phi = 0.5 * (cycles - 1) * cycleYaw;
      cs = Math.cos(phi); ss = Math.sin(phi);
    }
    const cx = cycle[0], cz = cycle[2];
    vx = cw * bx + sw * bz + k * (cs * cx + ss * cz) - ax;
    vz = cw * bz - sw * bx + k * (cs * cz - ss * cx) - az;
    turn += whole;
  }
  const ca = Math.cos(psiA), sa = Math.sin(psiA); // R(−ψ(a))
  out[o] = ca * vx - sa * vz;
  out[o + 1] = by - ay + cycles * cycle[1];
  out[o + 2] = sa * vx + ca * vz;
  layers.rootYaw[li] = turn;
}

/** {@link advanceFade}'s normalised time, then the fade curve's weight at it. */
const FADE = new Float64Array(1);

/**
 * Advances the weight fade of layer `li` by `dt`: weight = from + (to − from)·curve(u),
 * u = elapsed / duration. At the end the fade stops; a layer marked
 * `LAYER_CLEAR_AFTER_FADE` is then emptied and this returns true.
 */
export function advanceFade(layers: LayersComponent, li: number, dt: number): boolean {
  const elapsed = layers.fadeElapsed[li] + dt;
  const duration = layers.fadeDuration[li];
  const u = duration > 0 ? elapsed / duration : 1;
  if (u >= 1) {
    layers.weight[li] = layers.fadeTo[li];
    layers.fadeCurve[li] = 0;
    if (clearsAfterFade(layers, li)) {
      clearLayer(layers, li);
      return true;
    }
    return false;
  }
  layers.fadeElapsed[li] = elapsed;
  const from = layers.fadeFrom[li];
  FADE[0] = u; // through the array: `applyFadeCurve`'s note
  applyFadeCurve(FADE, 0, layers.fadeCurve[li]);
  layers.weight[li] = from + (layers.fadeTo[li] - from) * FADE[0];
  return false;
}

/**
 * Advances layer `li` by `speed[li] × dt` under its loop flag and writes `time[li]`: a looping
 * layer wraps into [0, D), a clamped one stops at 0 or D, a clip of duration 0 stays at 0.
 * Every event crossed is pushed to `queue` for entity `eid` and clip id `clipId`, placed in
 * the frame at `queue.frameStart + dt × (fraction of the advance travelled)`.
 *
 * Helpers receive the layer arrays and `dt` rather than computed times, for the reason given
 * at `sampleClipInto` (src/assets/sampleClip.ts).
 */
export function advanceLayer(
  layers: LayersComponent, li: number, clip: Clip, dt: number, queue: EventQueue, eid: number, clipId: number,
): void {
  const from = layers.time[li];
  const delta = layers.speed[li] * dt;
  const duration = clip.duration;
  const looping = loops(layers, li);
  if (delta !== 0 && clip.eventTimes.length > 0 && duration > 0) {
    if (looping) pushLoopingEvents(queue, eid, clipId, clip, layers, li, dt);
    else pushClampedEvents(queue, eid, clipId, clip, layers, li, dt);
  }
  let to = from + delta;
  if (!(duration > 0)) {
    to = 0;
  } else if (looping) {
    to -= Math.floor(to / duration) * duration;
    if (to >= duration || !(to >= 0)) to = 0; // float rounding at the seam; NaN guard
  } else if (to > duration) {
    to = duration;
  } else if (to < 0) {
    to = 0;
  }
  layers.time[li] = to;
}

/**
 * Events crossed by a looping layer this frame (before its time is written), in O(capacity +
 * events) work whatever `speed × dt`: an advance of k cycles crosses each event about
 * k times, but the queue keeps only its last `capacity` records, so only the last
 * ⌈capacity / n⌉ + 1 cycles crossed (n events each) are pushed; the records of the cycles
 * before them are counted into `queue.dropped` without being visited, exactly as if they had
 * been pushed and overwritten. The loop runs on a small integer `j`, so it ends even when the
 * cycle numbers exceed 2⁵³ (where `c + 1 === c`).
 */
function pushLoopingEvents(
  queue: EventQueue, eid: number, clipId: number, clip: Clip, layers: LayersComponent, li: number, dt: number,
): void {
  const duration = clip.duration;
  const times = clip.eventTimes;
  const n = times.length;
  const from = layers.time[li];
  const delta = layers.speed[li] * dt;
  const to = from + delta;
  const frameStart = queue.frameStart;
  // Cycle c covers unwrapped times [c·D, (c+1)·D); forward playback crosses cycles 0 … last,
  // backward 0 … first (≤ 0).
  const firstCycle = delta > 0 ? 0 : Math.floor(to / duration);
  const lastCycle = delta > 0 ? Math.floor(to / duration) : 0;
  const span = lastCycle - firstCycle + 1;
  const keep = Math.ceil(queue.capacity / n) + 1; // cycles whose records can outlive this layer's pushes
  const kept = span > keep ? keep : span;
  if (span > kept) {
    // Skipped: cycle 0 (partial: from `from` on, forward; up to `from`, backward) and
    // span − kept − 1 whole cycles after it.
    let partial = 0;
    for (let e = 0; e < n; e++) if (delta > 0 ? times[e] >= from : times[e] <= from) partial++;
    queue.dropped += partial + (span - kept - 1) * n;
  }
  if (delta > 0) {
    for (let j = 0; j < kept; j++) {
      const c = lastCycle - (kept - 1) + j;
      const base = c * duration;
      const lo = from > base ? from - base : 0; // fires [lo, hi) in clip time
      const hi = to < base + duration ? to - base : duration;
      for (let e = 0; e < n; e++) {
        const tau = times[e];
        if (tau >= lo && tau < hi) {
          queue.stamp[0] = frameStart + dt * ((base + tau - from) / delta);
          pushEvent(queue, eid, clipId, e);
        }
      }
    }
  } else {
    for (let j = 0; j < kept; j++) {
      const c = firstCycle + (kept - 1) - j;
      const base = c * duration;
      const hi = from < base + duration ? from - base : duration; // fires (lo, hi] in clip time,
      const passesStart = to < base; // and [0, hi] when playback leaves the cycle at its start
      const lo = passesStart ? 0 : to - base;
      for (let e = n - 1; e >= 0; e--) {
        const tau = times[e];
        if ((tau > lo || (passesStart && tau === 0)) && tau <= hi) {
          queue.stamp[0] = frameStart + dt * ((base + tau - from) / delta);
          pushEvent(queue, eid, clipId, e);
        }
      }
    }
  }
}

/** Events crossed by a clamped (play-once) layer this frame (before its time is written). */
function pushClampedEvents(
  queue: EventQueue, eid: number, clipId: number, clip: Clip, layers: LayersComponent, li: number, dt: number,
): void {
  const duration = clip.duration;
  const times = clip.eventTimes;
  const from = layers.time[li];
  const delta = layers.speed[li] * dt;
  const to = Math.min(Math.max(from + delta, 0), duration);
  const frameStart = queue.frameStart;
  if (to === from) return;
  if (delta > 0) {
    const atEnd = to === duration; // the end instant D fires when playback reaches it
    for (let e = 0; e < times.length; e++) {
      const tau = times[e];
      if (tau >= from && (tau < to || (atEnd && tau === duration))) {
        queue.stamp[0] = frameStart + dt * ((tau - from) / delta);
        pushEvent(queue, eid, clipId, e);
      }
    }
  } else {
    const atStart = to === 0;
    for (let e = times.length - 1; e >= 0; e--) {
      const tau = times[e];
      if (tau <= from && (tau > to || (atStart && tau === 0))) {
        queue.stamp[0] = frameStart + dt * ((tau - from) / delta);
        pushEvent(queue, eid, clipId, e);
      }
    }
  }
}
