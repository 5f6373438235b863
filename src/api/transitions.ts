/**
 * `transition`: switch a layer to another clip over a duration, by inertialization (quintic or
 * spring) or by cross-fade. See inertializeSystem.ts and DESIGN §1 for the models.
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import type { Clip } from '../assets/Clip.js';
import { hasComponent } from 'bitecs';
import { INERTIA_QUINTIC, INERTIA_SPRING, NO_SLOT, takeTransitionSlot } from '../components/Inertialization.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { fadingOutFlags } from '../components/layerRules.js';
import { FADE_CURVE_KINDS, type FadeCurveName } from '../math/fadeCurves.js';
import { captureSourceMotion } from '../systems/inertializeCapture.js';
import { newResolvedPlay, resolvePlayInto, writeLayer, type MutableResolvedPlay, type PlayOptions } from './playback.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { requireCharacter } from './validation.js';
import { inRange, MAX_DURATION, MIN_DURATION, rangeIssue } from '../assets/limits.js';
import { requireObject } from './validation.js';
import type { AnimationWorld } from '../world.js';

/** How {@link transition} moves from the old clip to the new one. */
export type TransitionMode = 'inertialize' | 'spring' | 'crossfade';

/** Options of {@link transition}: those of `play` (layer, speed, time, loop, …) and these. */
export interface TransitionOptions extends PlayOptions {
  /**
   * Seconds the transition takes: 0 (switches at once, like `play`) or in [MIN_DURATION,
   * MAX_DURATION] = [1e-6, 1e6].
   * Quintic inertialization ends exactly then (earlier for joints whose offset would
   * otherwise overshoot); a cross-fade's weights meet then; the spring's half-life defaults
   * to a sixth of it (the offset is then under 0.3% of where it started).
   */
  duration: number;
  /**
   * - `'inertialize'` (default): the new clip plays at once; the difference from the old motion
   *   decays by the Gears of War quintic. Samples one clip per character.
   * - `'spring'`: the same, decaying as a critically damped spring (`halfLife`).
   * - `'crossfade'`: both clips play and their weights cross (`curve`, `frozen`).
   */
  mode?: TransitionMode;
  /**
   * Cross-fade weight curve of the incoming clip (the outgoing one fades by its complement):
   * 'linear' (default, the classic cross-fade), 'smoothstep' (3t² − 2t³) or 'minjerk'
   * (6t⁵ − 15t⁴ + 10t³), whose zero end slopes avoid the velocity jump of a linear fade, or the
   * one-sided 'ease-in' ((3t² − t³) / 2: starts smoothly, ends at slope 3/2) and 'ease-out'
   * ((3t − t³) / 2: starts at slope 3/2, settles smoothly). See `fadeCurve`.
   */
  curve?: FadeCurveName;
  /** Cross-fade: hold the old clip's pose instead of letting it play on (default false). */
  frozen?: boolean;
  /** Spring: seconds for the offset to halve, in [1e-6, 1e6] (default duration / 6). */
  halfLife?: number;
}

/**
 * Switches `layer` (default 0) of character `eid` to `clip` over `duration` seconds.
 *
 * The layer keeps its weight (the weight it was fading toward, 1 if it was empty) unless
 * `weight` is given. A transition that
 * interrupts another starts from the current output: inertialization captures the pose as it
 * is, with its decaying offset; a cross-fade lets the interrupted fade's clips fade out from
 * their current weights.
 *
 * Inertialization (`'inertialize'`, `'spring'`) holds one of the world's `maxTransitions`
 * transition slots from this call until the character's offsets have ended (its first update
 * after that, or its removal); an interrupting transition keeps the slot it has.
 *
 * @throws AnimationError for what `play` refuses, a duration that is neither 0 nor a number in
 * [1e-6, 1e6] seconds (a half-life: in [1e-6, 1e6]; see docs/hardening.md), an unknown mode or
 * curve, for a cross-fade no free layer slot to hold the outgoing clip, or for inertialization
 * no free transition slot (all `maxTransitions` in use: a capacity of the world, like
 * `maxEntities`; the world is left unchanged, so the game may fall back to a cross-fade or an
 * instant switch).
 * @example
 * transition(world, eid, run, { duration: 0.3 });                         // inertialization
 * transition(world, eid, run, { duration: 0.3, mode: 'crossfade', curve: 'minjerk' });
 */
export function transition(world: AnimationWorld, eid: number, clip: Clip, options: TransitionOptions): void {
  const where = 'transition';
  const skeleton = requireCharacter(world, eid, where);
  requireObject(options, where, 'options', 'an object with at least `duration`');
  const issues = ISSUES.reset();
  const { Layers, Inertialization } = world.components;
  const layer = options?.layer ?? 0;
  const maxLayers = Layers.maxLayers;
  const li = eid * maxLayers + layer;
  // The weight the layer has, or is fading toward (an interrupted cross-fade keeps its goal).
  const busy = Number.isInteger(layer) && layer >= 0 && layer < maxLayers && Layers.clip[li] >= 0;
  const play = PLAY;
  play.weight = !busy ? 1 : Layers.fadeCurve[li] !== 0 ? Layers.fadeTo[li] : Layers.weight[li];
  resolvePlayInto(play, issues, skeleton, clip, options ?? NO_OPTIONS, maxLayers);
  checkTransitionOptions(issues, options);
  issues.throwIfAny();
  const duration = options.duration;
  const mode = options.mode ?? 'inertialize';
  const curve = options.curve ?? 'linear';
  const halfLife = options.halfLife;

  if (duration === 0) {
    writeLayer(world, eid, skeleton, clip, play);
    return;
  }
  TRANSITION_ARGS[ARG_DURATION] = duration;
  if (mode === 'crossfade') {
    if (!startCrossfade(world, eid, skeleton, clip, play, FADE_CURVE_KINDS[curve], options.frozen === true)) {
      const wider = maxLayers < MAX_LAYERS ? `, or create the world with a larger maxLayers (createAnimationWorld({ maxLayers }), up to ${MAX_LAYERS})` : '';
      fail('transition', 'mode', `'crossfade' needs a free layer slot for the outgoing clip and all ${maxLayers} (maxLayers) are in use: stop a layer or use inertialization${wider}`);
    }
    return;
  }
  // A transition slot (Inertialization.ts): the one the character holds (a running or pending
  // transition), else a free one — or, with none free, an error before anything changed.
  if (!beginInertialization(world, eid)) {
    fail(where, 'mode', `'${mode}' needs a transition slot and all ${Inertialization.slotOwner.length} (maxTransitions) are in use: `
      + 'create the world with a larger maxTransitions (up to maxEntities), or use a cross-fade or duration 0');
  }
  writeLayer(world, eid, skeleton, clip, play);
  // Stored in each branch: `halfLife ?? duration / 6` would box the quotient.
  if (halfLife !== undefined) TRANSITION_ARGS[ARG_HALF_LIFE] = halfLife;
  else TRANSITION_ARGS[ARG_HALF_LIFE] = NaN;
  armInertialization(world, eid, layer, mode === 'spring');
}

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

/**
 * Records in `issues` what is wrong with `transition`'s own options (duration, mode, curve,
 * half-life). Numbers are compared in place (inRange): a double passed to a call would be boxed,
 * and games call `transition` every frame.
 */
function checkTransitionOptions(issues: IssueList, options: TransitionOptions): void {
  const duration = options.duration;
  const mode = options.mode ?? 'inertialize';
  const curve = options.curve ?? 'linear';
  const halfLife = options.halfLife;
  if (!(duration === 0 || inRange(duration, MIN_DURATION, MAX_DURATION))) {
    issues.add('duration', rangeIssue(duration, MIN_DURATION, MAX_DURATION, 'seconds, or 0 to switch at once') ?? '');
  }
  if (mode !== 'inertialize' && mode !== 'spring' && mode !== 'crossfade') issues.add('mode', `is ${String(mode)}: must be 'inertialize', 'spring' or 'crossfade'`);
  if (!(typeof curve === 'string' && curve in FADE_CURVE_KINDS)) issues.add('curve', `is ${String(curve)}: must be 'linear', 'smoothstep', 'minjerk', 'ease-in' or 'ease-out'`);
  // The default half-life (duration / 6 of a valid duration) lies within Float32's normal range.
  if (mode === 'spring' && duration !== 0 && halfLife !== undefined && !inRange(halfLife, MIN_DURATION, MAX_DURATION)) {
    issues.add('halfLife', rangeIssue(halfLife, MIN_DURATION, MAX_DURATION, 'seconds') ?? '');
  }
}

/** `transition`'s reused records (a call per frame makes no garbage): the issues, the play, a fade's goal weight. */
const ISSUES = new IssueList('transition');
const PLAY = newResolvedPlay();
const FADE = new Float64Array(3);
/** {@link FADE}'s slots: a fade's start and goal weights and its seconds (doubles passed as arguments would be boxed). */
const FADE_FROM = 0, FADE_TO = 1, FADE_DURATION = 2;
const NO_OPTIONS: TransitionOptions = { duration: 0 };

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
  Layers.flags[free] = fadingOutFlags(Layers.flags[li]);
  Layers.mask[free] = Layers.mask[li];
  Layers.reference[free] = Layers.reference[li];
  Layers.binding[free] = Layers.binding[li];
  // The outgoing clip stays in its sync group (and keeps its root-motion settings) while it fades.
  Layers.syncGroup[free] = Layers.syncGroup[li];
  Layers.syncRate[free] = Layers.syncRate[li];
  Layers.phaseOffset[free] = Layers.phaseOffset[li];
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
