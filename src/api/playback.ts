/**
 * Playback: play clips on a character's layers, stop them, set their weights. Every function
 * validates its input and throws an `AnimationError` before changing anything; the per-frame
 * work happens in the systems.
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import { checkTranslation, isBinding, type Binding, type TranslationOption } from '../assets/Binding.js';
import type { Clip } from '../assets/Clip.js';
import type { Mask } from '../assets/Mask.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { clearLayer, SYNC_BY_MARKERS, SYNC_BY_PHASE } from '../components/Layers.js';
import { getSyncMarkers } from '../assets/syncMarkers.js';
import type { AnimationWorld } from '../world.js';
import { identityReference, wrapTime } from '../systems/switching/registry.js';
import { applyTargetSpeed } from '../systems/switching/targetSpeed.js';
import { newResolvedPlay, writeLayer, type MutableResolvedPlay, type ResolvedPlay } from '../systems/switching/writeLayer.js';
import { checkBindable, checkSkeleton, describeValue, isClip, isFiniteNumber, layerRangeIssue, requireCharacter, requireLayer, requireOptions } from './validation.js';
import { inRange, MAX_PLAYBACK_RATE, MAX_TIME, MAX_WEIGHT, rangeIssue, shownString } from '../assets/limits.js';

/** Options of {@link play}. */
export interface PlayOptions {
  /** Layer slot, 0 … world.maxLayers − 1 (`createAnimationWorld`'s `maxLayers`, default 4; default 0). Override layers blend by weight; see blendSystem. */
  layer?: number;
  /** Blend weight in [0, MAX_WEIGHT = 1000] (default 1); for an additive layer, its β. */
  weight?: number;
  /** Playback rate in [−MAX_PLAYBACK_RATE, MAX_PLAYBACK_RATE] = ±1000 (default 1; negative plays backwards). */
  speed?: number;
  /** Wrap at the end; default: the clip's own `loop`. */
  loop?: boolean;
  /** Start time in seconds, |time| ≤ MAX_TIME = 1e9 (default 0); wrapped into [0, D) when looping, clamped otherwise. */
  time?: number;
  /** Add this clip on top of the override blend instead of blending with it (default false). */
  additive?: boolean;
  /** Per-joint weights for partial-skeleton blending: the layer's a = weight × mask[j] at joint j. */
  mask?: Mask;
  /**
   * How an override layer blends with the layers below it (slot order), per joint, with
   * a = weight × mask[j]:
   *
   * - `'layer'` (default): it replaces what is below by a — the result below is normalized and
   *   lerped toward this layer's pose, (1 − a)·below + a·pose (Game Engine Architecture's
   *   partial-skeleton LERP, Unity's override layers, Unreal's layered blend per bone): an
   *   upper-body layer at weight 1 plays its clip on the joints its mask selects and leaves the
   *   rest to the layers below. With nothing below it starts the blend (a lone layer at weight
   *   0.5 still plays its clip fully).
   * - `'average'`: it joins the blend below as one more term of the normalized weighted average
   *   Σ aᵢ·poseᵢ / Σ aᵢ (ozz-animation's rule; the modes' one rule before they existed): a layer
   *   at weight 1 over another at weight 1 gives half of each.
   *
   * Additive layers ignore it. `transition` keeps the mode of the layer it replaces unless given.
   * See docs/how-it-works.md ("Layers").
   */
  blend?: 'layer' | 'average';
  /**
   * Additive reference R of D = S·R⁻¹: this clip at `referenceTime` (default: the played clip;
   * for a difference clip from `createDifferenceClip`, the identity — it takes no reference).
   */
  reference?: Clip;
  /** Time of the reference pose in `reference` (default 0, its first frame). */
  referenceTime?: number;
  /**
   * Root-motion axis restriction: 'forward' keeps only the clip's travel along Z (forward and
   * backward clips), 'lateral' only along X (sideways clips), 'free' (default) all of it.
   */
  rootAxis?: 'free' | 'forward' | 'lateral';
  /**
   * Scale the clip's root travel by character hips ÷ animation hips (default true): smaller
   * characters take shorter steps (and `setTargetSpeed` plays them faster). The character's
   * hip height is its skeleton's rest `hipHeight`; the animation's, the clip skeleton's (or,
   * without one, the clip's mean hip height — see `RootTrack`). A character without a rest
   * hip height (0, as BVH skeletons) uses ratio 1.
   */
  hipScaling?: boolean;
  /**
   * Phase sync group, an integer 0 … world.maxLayers − 1 (default: none). The looping clips of one
   * group on a character play at one normalized phase, cycling once per weight-averaged
   * duration Σ wᵢDᵢ / Σ wᵢ (a walk of 0.8 s and a run of 1.2 s at weights 0.25 / 0.75 both
   * cycle in 1.1 s). Joining a group where another weighted member plays, the clip starts at
   * the group's current phase (unless `time` is given) and takes the group's rate; otherwise
   * its `speed` becomes the group's rate. The clip must loop. See `Layers.syncGroup`.
   */
  syncGroup?: number;
  /** Phase offset within the sync group, in cycles (default 0); finite, wrapped into [0, 1). */
  phaseOffset?: number;
  /**
   * How the sync group keeps its clips in step (only with `syncGroup`; default `'phase'`):
   *
   * - `'phase'`: one normalized phase (above).
   * - `'markers'`: the leader (the group's highest-weight clip) plays at the group's rate as by
   *   phase; every other clip is warped so it passes its sync markers when the leader passes the
   *   markers of the same name — between two markers, the same fraction of the way (Unreal
   *   Engine's sync markers). Markers are the clip's `footDown:<foot>` / `footUp:<foot>`
   *   events, which `detectFootContacts` writes: so the same foot is down in every clip even
   *   when one cycle starts on the other foot, holds more steps, or has uneven steps.
   *   `phaseOffset` is not used then. The group syncs by markers when its leader was played
   *   by markers; a clip played by phase in it, or one sharing no marker name with the leader
   *   (feet named otherwise), keeps the phase rule.
   *
   * With `'markers'` the clip must have sync markers (refused otherwise).
   */
  syncBy?: 'phase' | 'markers';
  /**
   * Retargeting of a clip made for another skeleton (`bindSkeletons`): where its joints take
   * their translation — 'skeleton' (the character's rest: its bone lengths), 'animation' (the
   * clip's), 'scaled' (the clip's × character hips ÷ clip hips, the ratio root travel uses), or
   * a map of joint names to those. Default: the character's root, hip joint and the joints
   * between 'scaled', every other joint 'skeleton'. The clip's own skeleton, or one with the
   * same joints and rest translations, plays the clip as authored unless this is given.
   */
  translation?: TranslationOption;
  /**
   * The binding to play the clip through, from `bindSkeletons(clip.skeleton, character's
   * skeleton, options)`: how its joints pair and which reference poses rotations transfer
   * through (default: the binding `play` makes, as `bindSkeletons` with `translation`).
   * Not together with `translation` (a binding has its own).
   */
  binding?: Binding;
}

/**
 * Plays `clip` on a layer of character `eid`, replacing what that layer played. The pose
 * changes at the next `step` (or `sampleSystem`). While a target speed is set
 * (`setTargetSpeed`, until `clearTargetSpeed`) a clip that travels plays at the rate that
 * gives it, whatever `speed` says; one that does not, at `speed`.
 *
 * The clip may be made for another skeleton: it plays through `bindSkeletons(clip.skeleton,
 * character's skeleton)` — joints paired by name, or as humanoids when few names match;
 * rotations transferred through canonical reference poses for two humanoids, else the rests;
 * the hips fitted to the character's size — made once per pair of skeletons and options
 * (`translation` chooses per joint; `binding` gives a binding made with other options).
 *
 * @throws AnimationError for an unknown entity, a clip whose skeleton cannot be paired with the
 * character's (too few shared joint names, and not both humanoids), a mask made for another
 * skeleton, a layer out of range, a `blend` that is not 'layer' or 'average', a `syncBy` that is not 'phase' or 'markers' (or without a
 * `syncGroup`), `syncBy: 'markers'` for a clip without sync markers, or numbers outside their ranges (weight in [0, 1000],
 * |speed| ≤ 1000, |time| ≤ 1e9 s; see docs/hardening.md). The layer is untouched then.
 * @example
 * play(world, eid, walk, { layer: 0, weight: 0.7 });
 * play(world, eid, run, { layer: 1, weight: 0.3, time: walkPhase * run.duration });
 * // or let the runtime keep them in phase:
 * play(world, eid, walk, { layer: 0, weight: 0.7, syncGroup: 0 });
 * play(world, eid, run, { layer: 1, weight: 0.3, syncGroup: 0 });
 */
export function play(world: AnimationWorld, eid: number, clip: Clip, options: PlayOptions = {}): void {
  const skeleton = requireCharacter(world, eid, 'play');
  requireOptions(options, 'play');
  const issues = new IssueList('play');
  const resolved = resolvePlay(issues, skeleton, clip, options, 1, world.maxLayers);
  issues.throwIfAny();
  writeLayer(world, eid, skeleton, clip, resolved);
  applyTargetSpeed(world, eid); // a target speed survives (setTargetSpeed)
}

/**
 * Checks play options for `clip` on a character of `skeleton` in a world of `maxLayers` layer
 * slots per character, recording faults in `issues`; `defaultWeight` applies when
 * `options.weight` is absent. Changes nothing.
 */
export function resolvePlay(issues: IssueList, skeleton: Skeleton, clip: Clip, options: PlayOptions, defaultWeight: number, maxLayers: number): ResolvedPlay {
  const out = newResolvedPlay();
  out.weight = defaultWeight;
  return resolvePlayInto(out, issues, skeleton, clip, options, maxLayers);
}

/**
 * {@link resolvePlay} into `out`, whose `weight` holds the default weight on entry (a double
 * passed as an argument would be boxed): a caller that reuses one record, as `transition`
 * does every frame, makes no garbage. Returns `out`.
 */
export function resolvePlayInto(out: MutableResolvedPlay, issues: IssueList, skeleton: Skeleton, clip: Clip, options: PlayOptions, maxLayers: number): ResolvedPlay {
  const layer = options.layer ?? 0;
  // `out.weight` holds the default. A given weight replaces it only once checked: `a ?? b` of a
  // tagged option and an unboxed double would box the double (garbage per call), and a string
  // stored into the record would make every later double store box.
  const weight = options.weight;
  if (weight !== undefined) {
    if (inRange(weight, 0, MAX_WEIGHT)) out.weight = weight;
    else issues.add('weight', rangeIssue(weight, 0, MAX_WEIGHT, 'the largest layer weight, MAX_WEIGHT') ?? '');
  }
  const speed = options.speed ?? 1;
  const time = options.time ?? 0;
  const referenceTime = options.referenceTime ?? 0;
  const additive = options.additive === true;
  if (!isClip(clip)) issues.add('clip', 'must be a Clip from createClip');
  else checkBindable(issues, 'clip', clip.skeleton, skeleton);
  if (!Number.isInteger(layer) || layer < 0 || layer >= maxLayers) issues.add('layer', layerRangeIssue(layer, maxLayers));
  // inRange first: a double passed to rangeIssue would be boxed (transition runs every frame).
  if (!inRange(speed, -MAX_PLAYBACK_RATE, MAX_PLAYBACK_RATE)) {
    issues.add('speed', rangeIssue(speed, -MAX_PLAYBACK_RATE, MAX_PLAYBACK_RATE, 'the fastest playback rate, MAX_PLAYBACK_RATE') ?? '');
  }
  if (!inRange(time, -MAX_TIME, MAX_TIME)) issues.add('time', rangeIssue(time, -MAX_TIME, MAX_TIME, 'seconds') ?? '');
  const blend = options.blend;
  if (blend !== undefined && blend !== 'layer' && blend !== 'average') issues.add('blend', `is ${describeValue(blend)}: must be 'layer' or 'average'`);
  if (options.mask !== undefined) {
    if (!(options.mask?.weights instanceof Float32Array)) issues.add('mask', 'must be a Mask from createMask');
    else checkSkeleton(issues, 'mask', options.mask.skeleton, skeleton);
  }
  // A difference clip (createDifferenceClip) is already D = S·R⁻¹: it plays against the identity.
  const difference = isClip(clip) && clip.difference === true;
  const reference = options.reference ?? (difference ? identityReference(clip.skeleton) : clip);
  if (difference) {
    if (!additive) issues.add('additive', `must be true to play "${clip.name}": a difference clip holds differences D = S·R⁻¹, not poses, so it plays only as an additive layer`);
    if (options.reference !== undefined || options.referenceTime !== undefined) {
      issues.add('reference', `must be left out for the difference clip "${clip.name}": its reference was subtracted when it was made, and it plays against the identity`);
    }
  }
  if (additive) {
    if (!isClip(reference)) issues.add('reference', 'must be a Clip from createClip');
    else checkBindable(issues, 'reference', reference.skeleton, skeleton);
    const referenceIssue = rangeIssue(referenceTime, -MAX_TIME, MAX_TIME, 'seconds');
    if (referenceIssue !== null) issues.add('referenceTime', referenceIssue);
  }
  checkTranslation(issues, 'translation', skeleton, options.translation);
  const binding = options.binding;
  if (binding !== undefined) {
    if (!isBinding(binding)) issues.add('binding', 'must be a Binding from bindSkeletons');
    else if (isClip(clip) && (binding.source !== clip.skeleton || binding.target !== skeleton)) {
      issues.add('binding', `binds other skeletons: it must be bindSkeletons(clip.skeleton, the character's skeleton, …)`);
    }
    if (options.translation !== undefined) issues.add('translation', 'must be left out with binding (the binding has its translation rule)');
  }
  const loop = options.loop ?? (isClip(clip) ? clip.loop : true);
  const rootAxis = options.rootAxis ?? 'free';
  if (rootAxis !== 'free' && rootAxis !== 'forward' && rootAxis !== 'lateral') issues.add('rootAxis', `is ${shownString(rootAxis)}: must be 'free', 'forward' or 'lateral'`);
  const hipScaling = options.hipScaling ?? true;
  const syncGroup = options.syncGroup ?? -1;
  const phaseOffset = options.phaseOffset ?? 0;
  if (options.syncGroup !== undefined) {
    if (!Number.isInteger(syncGroup) || syncGroup < 0 || syncGroup >= maxLayers) {
      issues.add('syncGroup', layerRangeIssue(syncGroup, maxLayers));
    } else if (!loop) {
      issues.add('syncGroup', `needs a looping clip: "${isClip(clip) ? clip.name : '?'}" does not loop (pass loop: true to loop it)`);
    }
  }
  const syncBy = options.syncBy ?? 'phase';
  if (syncBy !== 'phase' && syncBy !== 'markers') issues.add('syncBy', `is ${describeValue(syncBy)}: must be 'phase' or 'markers'`);
  else if (options.syncBy !== undefined && options.syncGroup === undefined) issues.add('syncBy', 'needs a syncGroup: it says how the members of a sync group keep in step');
  else if (syncBy === 'markers' && isClip(clip) && getSyncMarkers(clip).times.length === 0) {
    issues.add('syncBy', `is 'markers', but "${clip.name}" has no sync markers (footDown:<foot> / footUp:<foot> events; detectFootContacts adds them): give it markers or sync by 'phase'`);
  }
  out.syncBy = syncBy === 'markers' ? SYNC_BY_MARKERS : SYNC_BY_PHASE;
  if (!isFiniteNumber(phaseOffset)) {
    issues.add('phaseOffset', `is ${shownString(phaseOffset)}: must be a finite number (cycles)`);
    out.phaseOffset = 0;
  } else {
    const wrapped = wrapTime(phaseOffset, 1);
    out.phaseOffset = Math.fround(wrapped) >= 1 ? 0 : wrapped; // stored as float32: 1 − ε rounds to 1
  }
  out.layer = layer;
  out.speed = speed;
  out.time = time;
  out.loop = loop;
  out.additive = additive;
  out.blend = blend === 'average' ? 'average' : 'layer';
  out.mask = options.mask;
  out.reference = reference;
  out.referenceTime = referenceTime;
  out.rootAxis = rootAxis;
  out.hipScaling = hipScaling;
  out.syncGroup = syncGroup;
  out.timeGiven = options.time !== undefined;
  out.translation = options.translation;
  out.binding = binding;
  return out;
}

/** Empties a layer of character `eid`. @throws AnimationError for an unknown entity or layer. */
export function stop(world: AnimationWorld, eid: number, layer = 0): void {
  requireCharacter(world, eid, 'stop');
  requireLayer(layer, 'stop', world.maxLayers);
  clearLayer(world.components.Layers, eid * world.maxLayers + layer);
}

/**
 * Sets a layer's blend weight (in [0, MAX_WEIGHT = 1000]) — the way to drive a blend from frame to frame.
 * @throws AnimationError for an unknown entity or layer, or a weight that is not a finite number in [0, 1000].
 */
export function setLayerWeight(world: AnimationWorld, eid: number, layer: number, weight: number): void {
  requireCharacter(world, eid, 'setLayerWeight');
  requireLayer(layer, 'setLayerWeight', world.maxLayers);
  const issue = rangeIssue(weight, 0, MAX_WEIGHT, 'the largest layer weight, MAX_WEIGHT');
  if (issue !== null) fail('setLayerWeight', 'weight', issue);
  world.components.Layers.weight[eid * world.maxLayers + layer] = weight;
}
