/**
 * `transition`: switch a layer to another clip over a duration, by inertialization (quintic or
 * spring), by cross-fade or by dead blending. It validates and throws; the switch itself is
 * systems/switching/transition.ts, which stateMachineSystem calls too. See inertializeSystem.ts
 * and DESIGN §1 for the models.
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import type { Clip } from '../assets/Clip.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { BLEND_ADDITIVE, blendMode, clearsAfterFade, layersOver } from '../components/layerRules.js';
import { FADE_CURVE_KINDS, type FadeCurveName } from '../math/fadeCurves.js';
import { ARG_DURATION, ARG_HALF_LIFE, armDeadBlend, armInertialization, beginInertialization, startCrossfadeOf, TRANSITION_ARGS } from '../systems/switching/transition.js';
import { applyTargetSpeed } from '../systems/switching/targetSpeed.js';
import { newResolvedPlay, writeLayer } from '../systems/switching/writeLayer.js';
import { resolvePlayInto, type PlayOptions } from './playback.js';
import { requireCharacter, requireObject } from './validation.js';
import { inRange, MAX_DURATION, MIN_DURATION, rangeIssue, shownString } from '../assets/limits.js';
import type { AnimationWorld } from '../world.js';

/** How {@link transition} moves from the old clip to the new one. */
export type TransitionMode = 'inertialize' | 'spring' | 'crossfade' | 'deadblend';

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
   * - `'crossfade'`: both clips play and their weights cross (`curve`, `frozen`). From a
   *   member of a sync group (a blend space's clip: `setBlendSpace`, a machine's blend-space
   *   state) the whole group fades out, each member from its weight, staying in step.
   * - `'deadblend'`: dead blending (orangeduck, 2023): the old output is extrapolated from
   *   its pose and velocity at the switch, each joint's velocity decaying with a half-life
   *   fitted to whether it moves toward the new pose (`halfLife`), and cross-faded to the new
   *   clip by `curve` (default `'smoothstep'`). Samples one clip per character, like
   *   inertialization, and ends exactly on the new clip at `duration`.
   */
  mode?: TransitionMode;
  /**
   * Cross-fade weight curve of the incoming clip (the outgoing one fades by its complement):
   * 'linear' (default, the classic cross-fade), 'smoothstep' (3t² − 2t³) or 'minjerk'
   * (6t⁵ − 15t⁴ + 10t³), whose zero end slopes avoid the velocity jump of a linear fade, or the
   * one-sided 'ease-in' ((3t² − t³) / 2: starts smoothly, ends at slope 3/2) and 'ease-out'
   * ((3t − t³) / 2: starts at slope 3/2, settles smoothly). See `fadeCurve`. Dead blending
   * fades with it too, by default 'smoothstep' (a linear fade starts with a velocity jump).
   */
  curve?: FadeCurveName;
  /** Cross-fade: hold the old clip's pose instead of letting it play on (default false). */
  frozen?: boolean;
  /**
   * Spring: seconds for the offset to halve, in [1e-6, 1e6] (default duration / 6).
   * Dead blending: the longest half-life of the extrapolated velocities, in [1e-6, 1e6]
   * (default duration / 2): a joint heading toward the new pose gets ln 2 × the time its
   * straight path takes to pass closest to it, within [halfLife / 10, halfLife]; one heading
   * away gets halfLife / 10.
   */
  halfLife?: number;
}

/**
 * Switches `layer` (default 0) of character `eid` to `clip` over `duration` seconds.
 *
 * The layer keeps its weight (the weight it was fading toward, 1 if it was empty) and its blend
 * mode (`'layer'` if it was empty) unless `weight` or `blend` is given; a cross-fade's outgoing
 * clip blends in the mode it had, at the place in the stack of the slot it left, and a
 * cross-fade from a member of a sync group (a blend space's clip) fades the whole group out and
 * takes the group's weight (the sum of its members'). A target speed (`setTargetSpeed`)
 * survives the transition: a new clip that travels plays at the rate that gives the target, one
 * that does not (an idle) at its own `speed`, until `clearTargetSpeed`. A transition that
 * interrupts another starts from the current output: inertialization captures the pose as it
 * is, with its decaying offset; a cross-fade lets the interrupted fade's clips fade out from
 * their current weights.
 *
 * Inertialization (`'inertialize'`, `'spring'`) and dead blending (`'deadblend'`) hold one of the world's `maxTransitions`
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
 * transition(world, eid, run, { duration: 0.3, mode: 'deadblend' });     // dead blending
 */
export function transition(world: AnimationWorld, eid: number, clip: Clip, options: TransitionOptions): void {
  const where = 'transition';
  const skeleton = requireCharacter(world, eid, where);
  requireObject(options, where, 'options', 'an object with at least `duration`');
  const issues = ISSUES.reset();
  const { Layers, Inertialization } = world.components;
  const layer = options?.layer ?? 0;
  const maxLayers = Layers.maxLayers;
  const li = typeof layer === 'number' ? eid * maxLayers + layer : -1; // a Symbol or BigInt layer (refused below) cannot be added
  // The weight the layer has, or is fading toward (an interrupted cross-fade keeps its goal).
  const busy = Number.isInteger(layer) && layer >= 0 && layer < maxLayers && Layers.clip[li] >= 0;
  const play = PLAY;
  play.weight = !busy ? 1 : Layers.fadeCurve[li] !== 0 ? Layers.fadeTo[li] : Layers.weight[li];
  // A cross-fade out of a synced blend takes the blend's weight: the goal weights of its members.
  if (busy && options.mode === 'crossfade' && Layers.syncGroup[li] >= 0) groupWeight(world, eid, Layers.syncGroup[li], play);
  resolvePlayInto(play, issues, skeleton, clip, options ?? NO_OPTIONS, maxLayers);
  // Without `blend`, the new clip keeps the blend mode of the layer it replaces (read now: a
  // cross-fade moves the outgoing clip out of the slot before the new one is written).
  if (options?.blend === undefined) play.blend = !busy || blendMode(Layers, li) === BLEND_ADDITIVE || layersOver(Layers, li) ? 'layer' : 'average';
  checkTransitionOptions(issues, options);
  issues.throwIfAny();
  const duration = options.duration;
  const mode = options.mode ?? 'inertialize';
  const curve = options.curve ?? (mode === 'deadblend' ? 'smoothstep' : 'linear');
  const halfLife = options.halfLife;

  if (duration === 0) {
    writeLayer(world, eid, skeleton, clip, play);
    applyTargetSpeed(world, eid);
    return;
  }
  TRANSITION_ARGS[ARG_DURATION] = duration;
  if (mode === 'crossfade') {
    if (!startCrossfadeOf(world, eid, skeleton, clip, play, FADE_CURVE_KINDS[curve], options.frozen === true, outgoingSlots(world, eid, layer))) {
      const wider = maxLayers < MAX_LAYERS ? `, or create the world with a larger maxLayers (createAnimationWorld({ maxLayers }), up to ${MAX_LAYERS})` : '';
      fail('transition', 'mode', `'crossfade' needs a free layer slot for the outgoing clip and all ${maxLayers} (maxLayers) are in use: stop a layer or use inertialization${wider}`);
    }
    applyTargetSpeed(world, eid); // the incoming clip at its goal weight; the outgoing copy keeps its rate
    return;
  }
  // A transition slot (Inertialization.ts): the one the character holds (a running or pending
  // transition), else a free one — or, with none free, an error before anything changed.
  if (!beginInertialization(world, eid)) {
    fail(where, 'mode', `'${mode}' needs a transition slot and all ${Inertialization.slotOwner.length} (maxTransitions) are in use: `
      + 'create the world with a larger maxTransitions (up to maxEntities), or use a cross-fade or duration 0');
  }
  writeLayer(world, eid, skeleton, clip, play);
  applyTargetSpeed(world, eid);
  // Stored in each branch: `halfLife ?? duration / 6` would box the quotient.
  if (halfLife !== undefined) TRANSITION_ARGS[ARG_HALF_LIFE] = halfLife;
  else TRANSITION_ARGS[ARG_HALF_LIFE] = NaN;
  if (mode === 'deadblend') armDeadBlend(world, eid, layer, FADE_CURVE_KINDS[curve]);
  else armInertialization(world, eid, layer, mode === 'spring');
}

/**
 * The slots a cross-fade on `layer` of `eid` fades out, as bits (1 << slot): the layer, and
 * when it plays a member of a sync group (a blend space's clip, a hand-made synced blend)
 * every member of that group — a blend fades out whole, so no member keeps its weight.
 */
function outgoingSlots(world: AnimationWorld, eid: number, layer: number): number {
  const { Layers } = world.components;
  const first = eid * Layers.maxLayers;
  const group = Layers.clip[first + layer] >= 0 ? Layers.syncGroup[first + layer] : -1;
  let bits = 1 << layer;
  if (group < 0) return bits;
  for (let n = 0; n < Layers.maxLayers; n++) if (Layers.clip[first + n] >= 0 && Layers.syncGroup[first + n] === group) bits |= 1 << n;
  return bits;
}

/** Into `play.weight` (a double returned would be boxed): Σ of the goal weights (a fade's goal while it fades) of the members of sync group `group` of `eid`, outgoing copies left out. */
function groupWeight(world: AnimationWorld, eid: number, group: number, play: { weight: number }): void {
  const { Layers } = world.components;
  const first = eid * Layers.maxLayers;
  let sum = 0;
  for (let li = first; li < first + Layers.maxLayers; li++) {
    if (Layers.clip[li] < 0 || Layers.syncGroup[li] !== group || clearsAfterFade(Layers, li)) continue;
    sum += Layers.fadeCurve[li] !== 0 ? Layers.fadeTo[li] : Layers.weight[li];
  }
  play.weight = sum;
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
  // Compared here rather than by `inRange`: a double read from the options and passed to a call
  // V8 does not inline is boxed (a heap number per transition).
  if (!(duration === 0 || (typeof duration === 'number' && duration >= MIN_DURATION && duration <= MAX_DURATION))) {
    issues.add('duration', rangeIssue(duration, MIN_DURATION, MAX_DURATION, 'seconds, or 0 to switch at once') ?? '');
  }
  if (mode !== 'inertialize' && mode !== 'spring' && mode !== 'crossfade' && mode !== 'deadblend') {
    issues.add('mode', `is ${shownString(mode)}: must be 'inertialize', 'spring', 'crossfade' or 'deadblend'`);
  }
  if (!(typeof curve === 'string' && curve in FADE_CURVE_KINDS)) issues.add('curve', `is ${shownString(curve)}: must be 'linear', 'smoothstep', 'minjerk', 'ease-in' or 'ease-out'`);
  // The default half-life (duration / 6 of a valid duration) lies within Float32's normal range.
  if ((mode === 'spring' || mode === 'deadblend') && duration !== 0 && halfLife !== undefined && !inRange(halfLife, MIN_DURATION, MAX_DURATION)) {
    issues.add('halfLife', rangeIssue(halfLife, MIN_DURATION, MAX_DURATION, 'seconds') ?? '');
  }
}

/** `transition`'s reused records (a call per frame makes no garbage): the issues, the play. */
const ISSUES = new IssueList('transition');
const PLAY = newResolvedPlay();
const NO_OPTIONS: TransitionOptions = { duration: 0 };

