/**
 * Starting a transition on a character's layers (the non-throwing core of `transition`, shared
 * with `stateMachineSystem`): a cross-fade's outgoing copy and weight fades, and an
 * inertialization's transition slot, source capture and pending offsets. Each returns false,
 * changing nothing, where `transition` would throw. Allocates nothing once the clip is registered.
 * See inertializeSystem.ts and DESIGN §1 for the models.
 */
import { hasComponent } from 'bitecs';
import type { Clip } from '../../assets/Clip.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { INERTIA_DEAD, INERTIA_QUINTIC, INERTIA_SPRING, NO_SLOT, takeTransitionSlot } from '../../components/Inertialization.js';
import { clearLayer, type LayersComponent } from '../../components/Layers.js';
import { clearsAfterFade, fadingOutFlags, standsInFor } from '../../components/layerRules.js';
import type { AnimationWorld } from '../../world.js';
import { captureSourceMotion } from '../inertializeCapture.js';
import { CAPTURE_LEAD } from '../captureOffsets.js';
import { writeLayer, type MutableResolvedPlay } from './writeLayer.js';

/**
 * The seconds of the transition {@link startCrossfade} and {@link armInertialization} start,
 * the spring's half-life (NaN: duration / 6), and the switch's lead: the seconds into the coming
 * step at which it happens (0: at the step's start, as `transition` always does; a machine's
 * exit time crossed inside a step gives more). Through an array, as doubles passed to a call
 * would be boxed. `transition` and `stateMachineSystem` fill it before each call; the lead is
 * 0 between calls (the machine sets it and puts it back).
 */
export const TRANSITION_ARGS = new Float64Array(3);
/** {@link TRANSITION_ARGS}' slots. */
export const ARG_DURATION = 0, ARG_HALF_LIFE = 1, ARG_LEAD = 2;

/**
 * `transition`'s cross-fade without its checks (shared with `stateMachineSystem`): moves what
 * `play.layer` plays into a free slot that fades out, then writes `clip` there fading in to
 * `play.weight` over `TRANSITION_ARGS[ARG_DURATION]` seconds with fade-curve kind `curve`.
 * Returns false, changing nothing, when no slot is free for the outgoing clip. Allocates nothing
 * once `clip` is registered and bound (`writeLayer`). `play.weight` is set to 0.
 */
export function startCrossfade(world: AnimationWorld, eid: number, skeleton: Skeleton, clip: Clip, play: MutableResolvedPlay, curve: number, frozen: boolean): boolean {
  return startCrossfadeOf(world, eid, skeleton, clip, play, curve, frozen, 1 << play.layer);
}

/**
 * {@link startCrossfade} whose outgoing side is every playing slot whose bit (1 << n, n the
 * slot's index on the character) is set in `outgoing` — all the members of a synced blend,
 * say, so none keeps its weight — not only `play.layer`'s (see {@link fadeOutSlots}).
 */
export function startCrossfadeOf(
  world: AnimationWorld, eid: number, skeleton: Skeleton, clip: Clip, play: MutableResolvedPlay, curve: number, frozen: boolean, outgoing: number,
): boolean {
  const li = eid * world.components.Layers.maxLayers + play.layer;
  if (!fadeOutSlots(world, eid, outgoing, li, li + 1, curve, frozen)) return false;
  FADE[FADE_FROM] = 0;
  FADE[FADE_TO] = play.weight;
  play.weight = 0;
  writeLayer(world, eid, skeleton, clip, play);
  startFade(world, li, curve);
  return true;
}

/**
 * The outgoing side of a cross-fade over several slots (shared by `transition` and
 * `stateMachineSystem`, whose states may be blend spaces): every slot of `eid` whose bit
 * (1 << n, n = li − eid × maxLayers) is set in `outgoing` and plays fades from its weight now
 * to 0 over `TRANSITION_ARGS[ARG_DURATION]` seconds by curve kind `curve` (held still when
 * `frozen`) and is emptied at the end; one that is already a cross-fade's outgoing copy goes on
 * fading by its own clock. Those in `[keepFrom, keepEnd)` — the slots the incoming clip or
 * blend will take — move first to free slots of the character outside that range (every
 * field, so a synced member stays in its group, at its phase). With `restart`, an outgoing copy
 * among them fades from its weight now on the new clock too (an interrupted cross-fade: the
 * weights of every slot in `outgoing` and the incoming side then still sum to what they summed
 * to). Returns false, changing
 * nothing, when there are not enough free slots. With the incoming side faded in by
 * {@link fadeInSlots} over the same seconds and curve, the weights sum to what they summed to
 * at the switch, at every instant.
 */
export function fadeOutSlots(
  world: AnimationWorld, eid: number, outgoing: number, keepFrom: number, keepEnd: number, curve: number, frozen: boolean, restart = false,
): boolean {
  const { Layers } = world.components;
  const first = eid * Layers.maxLayers, end = first + Layers.maxLayers;
  let needed = 0, free = 0;
  for (let li = first; li < end; li++) {
    const kept = li >= keepFrom && li < keepEnd;
    if (Layers.clip[li] < 0) {
      if (!kept) free++;
    } else if (kept && (outgoing & (1 << (li - first))) !== 0) needed++;
  }
  if (free < needed) return false;
  FADE[FADE_DURATION] = TRANSITION_ARGS[ARG_DURATION];
  for (let li = first; li < end; li++) {
    if ((outgoing & (1 << (li - first))) === 0 || Layers.clip[li] < 0) continue;
    let at = li;
    // Its place in the stack: its own slot's (or, already a copy, the slot it was copied from).
    const place = standsInFor(Layers, li, li - first);
    if (li >= keepFrom && li < keepEnd) {
      at = first;
      while (Layers.clip[at] >= 0 || (at >= keepFrom && at < keepEnd)) at++;
      moveLayer(Layers, li, at);
    }
    if (clearsAfterFade(Layers, at) && !restart) continue; // already fading out, by its own clock
    if (frozen) Layers.speed[at] = 0;
    Layers.flags[at] = fadingOutFlags(Layers.flags[at], place);
    FADE[FADE_FROM] = Layers.weight[at];
    FADE[FADE_TO] = 0;
    startFade(world, at, curve);
  }
  return true;
}

/**
 * The incoming side of a cross-fade over slots `[from, end)`: each that plays (not an outgoing
 * copy) fades in from 0 to the weight it has now, over `TRANSITION_ARGS[ARG_DURATION]` seconds
 * by curve kind `curve`. See {@link fadeOutSlots}.
 */
export function fadeInSlots(world: AnimationWorld, from: number, end: number, curve: number): void {
  const { Layers } = world.components;
  FADE[FADE_DURATION] = TRANSITION_ARGS[ARG_DURATION];
  for (let li = from; li < end; li++) {
    if (Layers.clip[li] < 0 || clearsAfterFade(Layers, li)) continue;
    FADE[FADE_FROM] = 0;
    FADE[FADE_TO] = Layers.weight[li];
    startFade(world, li, curve);
  }
}

/**
 * Moves what slot `from` plays to the empty slot `to` (its clip, clock, weight and fade, mask,
 * binding, root-motion settings, sync group), and empties `from`. The last frame's root delta
 * stays behind: sampleSystem writes the next before anything reads it.
 */
function moveLayer(layers: LayersComponent, from: number, to: number): void {
  layers.clip[to] = layers.clip[from];
  layers.time[to] = layers.time[from];
  layers.speed[to] = layers.speed[from];
  layers.weight[to] = layers.weight[from];
  layers.flags[to] = layers.flags[from];
  layers.mask[to] = layers.mask[from];
  layers.reference[to] = layers.reference[from];
  layers.binding[to] = layers.binding[from];
  layers.fadeCurve[to] = layers.fadeCurve[from];
  layers.fadeFrom[to] = layers.fadeFrom[from];
  layers.fadeTo[to] = layers.fadeTo[from];
  layers.fadeElapsed[to] = layers.fadeElapsed[from];
  layers.fadeDuration[to] = layers.fadeDuration[from];
  layers.rootScale[to] = layers.rootScale[from];
  layers.rootAxis[to] = layers.rootAxis[from];
  layers.syncGroup[to] = layers.syncGroup[from];
  layers.syncRate[to] = layers.syncRate[from];
  layers.phaseOffset[to] = layers.phaseOffset[from];
  layers.syncBy[to] = layers.syncBy[from];
  clearLayer(layers, from);
}

/**
 * `transition`'s inertialization start without its checks (shared with `stateMachineSystem`):
 * takes a transition slot for `eid` (or keeps the one it holds) and captures the outgoing
 * output and its velocity while the layers still hold them. Returns false, changing nothing,
 * when no slot is free. The caller then writes the new layers and calls
 * {@link armInertialization}. With a lead (`TRANSITION_ARGS[ARG_LEAD]` > 0) the source is taken
 * that many seconds ahead, at the switch's instant inside the coming step. Allocates nothing.
 */
export function beginInertialization(world: AnimationWorld, eid: number): boolean {
  const { Inertialization } = world.components;
  const running = Inertialization.slot[eid] !== NO_SLOT;
  liveIn = world;
  const taken = running || takeTransitionSlot(Inertialization, eid, isLive) !== NO_SLOT;
  liveIn = null;
  if (!taken) return false;
  world.scratch.params[CAPTURE_LEAD] = TRANSITION_ARGS[ARG_LEAD];
  captureSourceMotion(world, eid, running);
  return true;
}

/**
 * Marks `eid`'s inertialization pending on `layer` (after {@link beginInertialization} and the
 * new layers): quintic, or `spring`, over `TRANSITION_ARGS[ARG_DURATION]` seconds (half-life
 * `TRANSITION_ARGS[ARG_HALF_LIFE]`, NaN: a sixth of the duration). inertializeSystem captures
 * the offsets at the character's next update (anchored `TRANSITION_ARGS[ARG_LEAD]` seconds into it).
 */
export function armInertialization(world: AnimationWorld, eid: number, layer: number, spring: boolean): void {
  const { Inertialization } = world.components;
  const duration = TRANSITION_ARGS[ARG_DURATION];
  const halfLife = TRANSITION_ARGS[ARG_HALF_LIFE];
  Inertialization.pending[eid] = layer + 1;
  Inertialization.pendingMode[eid] = spring ? INERTIA_SPRING : INERTIA_QUINTIC;
  Inertialization.lead[eid] = TRANSITION_ARGS[ARG_LEAD];
  Inertialization.duration[eid] = duration;
  if (halfLife === halfLife) Inertialization.halfLife[eid] = halfLife;
  else Inertialization.halfLife[eid] = duration / 6;
}

/**
 * Marks `eid`'s dead blend pending on `layer` (after {@link beginInertialization} and the new
 * layers, like {@link armInertialization}): a cross-fade over `TRANSITION_ARGS[ARG_DURATION]`
 * seconds by fade-curve kind `curve` from the source extrapolated with per-joint half-lives of
 * at most `TRANSITION_ARGS[ARG_HALF_LIFE]` (NaN: half the duration). inertializeSystem records
 * the source at the character's next update.
 */
export function armDeadBlend(world: AnimationWorld, eid: number, layer: number, curve: number): void {
  const { Inertialization } = world.components;
  const duration = TRANSITION_ARGS[ARG_DURATION];
  const halfLife = TRANSITION_ARGS[ARG_HALF_LIFE];
  Inertialization.pending[eid] = layer + 1;
  Inertialization.pendingMode[eid] = INERTIA_DEAD;
  Inertialization.lead[eid] = TRANSITION_ARGS[ARG_LEAD];
  Inertialization.duration[eid] = duration;
  Inertialization.fadeCurve[eid] = curve;
  if (halfLife === halfLife) Inertialization.halfLife[eid] = halfLife;
  else Inertialization.halfLife[eid] = duration / 2;
}

/** A fade's start and goal weights and its seconds. */
const FADE = new Float64Array(3);
/** {@link FADE}'s slots: a fade's start and goal weights and its seconds (doubles passed as arguments would be boxed). */
const FADE_FROM = 0, FADE_TO = 1, FADE_DURATION = 2;

/** The world whose characters {@link isLive} asks about, during a slot search. */
let liveIn: AnimationWorld | null = null;

/** Whether `owner` still holds inertialization state in {@link liveIn} (a module function: a closure would be garbage per call). */
function isLive(owner: number): boolean {
  return liveIn !== null && hasComponent(liveIn.ecs, owner, liveIn.components.Inertialization);
}

/** Starts a weight fade of layer slot `li` from `FADE[FADE_FROM]` to `FADE[FADE_TO]` over `FADE[FADE_DURATION]` seconds. */
function startFade(world: AnimationWorld, li: number, curve: number): void {
  const { Layers } = world.components;
  Layers.weight[li] = FADE[FADE_FROM];
  Layers.fadeFrom[li] = FADE[FADE_FROM];
  Layers.fadeTo[li] = FADE[FADE_TO];
  // A switch `lead` seconds into the coming step: the fade's clock starts then (negative until
  // the step adds its seconds).
  Layers.fadeElapsed[li] = 0 - TRANSITION_ARGS[ARG_LEAD]; // 0 - x: +0 without a lead
  Layers.fadeDuration[li] = FADE[FADE_DURATION];
  Layers.fadeCurve[li] = curve;
}
