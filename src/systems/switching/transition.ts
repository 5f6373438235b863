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
import { INERTIA_QUINTIC, INERTIA_SPRING, NO_SLOT, takeTransitionSlot } from '../../components/Inertialization.js';
import { fadingOutFlags } from '../../components/layerRules.js';
import type { AnimationWorld } from '../../world.js';
import { captureSourceMotion } from '../inertializeCapture.js';
import { writeLayer, type MutableResolvedPlay } from './writeLayer.js';

/**
 * The seconds of the transition {@link startCrossfade} and {@link armInertialization} start,
 * and the spring's half-life (NaN: duration / 6): through an array, as doubles passed to a
 * call would be boxed. `transition` and `stateMachineSystem` fill it before each call.
 */
export const TRANSITION_ARGS = new Float64Array(2);
/** {@link TRANSITION_ARGS}' slots. */
export const ARG_DURATION = 0, ARG_HALF_LIFE = 1;

/**
 * `transition`'s cross-fade without its checks (shared with `stateMachineSystem`): moves what
 * `play.layer` plays into a free slot that fades out, then writes `clip` there fading in to
 * `play.weight` over `TRANSITION_ARGS[ARG_DURATION]` seconds with fade-curve kind `curve`.
 * Returns false, changing nothing, when no slot is free for the outgoing clip. Allocates nothing
 * once `clip` is registered and bound (`writeLayer`). `play.weight` is set to 0.
 */
export function startCrossfade(world: AnimationWorld, eid: number, skeleton: Skeleton, clip: Clip, play: MutableResolvedPlay, curve: number, frozen: boolean): boolean {
  const li = eid * world.components.Layers.maxLayers + play.layer;
  FADE[FADE_DURATION] = TRANSITION_ARGS[ARG_DURATION];
  if (!crossfade(world, eid, li, curve, frozen)) return false;
  FADE[FADE_FROM] = 0;
  FADE[FADE_TO] = play.weight;
  play.weight = 0;
  writeLayer(world, eid, skeleton, clip, play);
  startFade(world, li, curve);
  return true;
}

/**
 * `transition`'s inertialization start without its checks (shared with `stateMachineSystem`):
 * takes a transition slot for `eid` (or keeps the one it holds) and captures the outgoing
 * output and its velocity while the layers still hold them. Returns false, changing nothing,
 * when no slot is free. The caller then writes the new layers and calls
 * {@link armInertialization}. Allocates nothing.
 */
export function beginInertialization(world: AnimationWorld, eid: number): boolean {
  const { Inertialization } = world.components;
  const running = Inertialization.slot[eid] !== NO_SLOT;
  liveIn = world;
  const taken = running || takeTransitionSlot(Inertialization, eid, isLive) !== NO_SLOT;
  liveIn = null;
  if (!taken) return false;
  captureSourceMotion(world, eid, running);
  return true;
}

/**
 * Marks `eid`'s inertialization pending on `layer` (after {@link beginInertialization} and the
 * new layers): quintic, or `spring`, over `TRANSITION_ARGS[ARG_DURATION]` seconds (half-life
 * `TRANSITION_ARGS[ARG_HALF_LIFE]`, NaN: a sixth of the duration). inertializeSystem captures
 * the offsets at the character's next update.
 */
export function armInertialization(world: AnimationWorld, eid: number, layer: number, spring: boolean): void {
  const { Inertialization } = world.components;
  const duration = TRANSITION_ARGS[ARG_DURATION];
  const halfLife = TRANSITION_ARGS[ARG_HALF_LIFE];
  Inertialization.pending[eid] = layer + 1;
  Inertialization.pendingMode[eid] = spring ? INERTIA_SPRING : INERTIA_QUINTIC;
  Inertialization.duration[eid] = duration;
  if (halfLife === halfLife) Inertialization.halfLife[eid] = halfLife;
  else Inertialization.halfLife[eid] = duration / 6;
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

/**
 * Moves what layer slot `li` plays into a free slot that fades out (and is emptied at the end);
 * returns false, changing nothing, when no slot is free. An empty `li` needs no outgoing slot. The fade lasts `FADE[FADE_DURATION]`.
 */
function crossfade(world: AnimationWorld, eid: number, li: number, curve: number, frozen: boolean): boolean {
  const { Layers } = world.components;
  if (Layers.clip[li] < 0) return true;
  let free = -1;
  const maxLayers = Layers.maxLayers;
  for (let s = eid * maxLayers; s < (eid + 1) * maxLayers && free < 0; s++) if (s !== li && Layers.clip[s] < 0) free = s;
  if (free < 0) return false;
  Layers.clip[free] = Layers.clip[li];
  Layers.time[free] = Layers.time[li];
  Layers.speed[free] = frozen ? 0 : Layers.speed[li];
  Layers.weight[free] = Layers.weight[li];
  Layers.flags[free] = fadingOutFlags(Layers.flags[li], li - eid * maxLayers);
  Layers.mask[free] = Layers.mask[li];
  Layers.reference[free] = Layers.reference[li];
  Layers.binding[free] = Layers.binding[li];
  // The outgoing clip stays in its sync group (and keeps its root-motion settings) while it fades.
  Layers.syncGroup[free] = Layers.syncGroup[li];
  Layers.syncRate[free] = Layers.syncRate[li];
  Layers.phaseOffset[free] = Layers.phaseOffset[li];
  Layers.syncBy[free] = Layers.syncBy[li];
  Layers.rootScale[free] = Layers.rootScale[li];
  Layers.rootAxis[free] = Layers.rootAxis[li];
  FADE[FADE_FROM] = Layers.weight[li];
  FADE[FADE_TO] = 0;
  startFade(world, free, curve);
  return true;
}

/** Starts a weight fade of layer slot `li` from `FADE[FADE_FROM]` to `FADE[FADE_TO]` over `FADE[FADE_DURATION]` seconds. */
function startFade(world: AnimationWorld, li: number, curve: number): void {
  const { Layers } = world.components;
  Layers.weight[li] = FADE[FADE_FROM];
  Layers.fadeFrom[li] = FADE[FADE_FROM];
  Layers.fadeTo[li] = FADE[FADE_TO];
  Layers.fadeElapsed[li] = 0;
  Layers.fadeDuration[li] = FADE[FADE_DURATION];
  Layers.fadeCurve[li] = curve;
}
