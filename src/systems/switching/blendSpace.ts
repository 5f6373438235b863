/**
 * A blend space's point on a character's layers (the non-throwing core of `setBlendSpace`,
 * shared with `stateMachineSystem`): weights from the space, clips kept in their slots or
 * entering at the group's phase, one sync group, axis restriction and stride scales, and the
 * remembered target speed re-applied. Allocates nothing once the space's clips are registered.
 *
 * Sources: Jason Gregory, Game Engine Architecture, 2nd ed. ("Complex LERP Blends"); Tokage It
 * Lab's normalization of walk cycles with root motion (axis restriction, playback rates in
 * blends, appendix 3).
 */
import { blendSpaceWeightsAt, type BlendSpace } from '../../assets/BlendSpace.js';
import type { Clip } from '../../assets/Clip.js';
import { getRootTrack } from '../../assets/rootTrack.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { clearLayer, MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_FREE, ROOT_AXIS_LATERAL, SYNC_BY_MARKERS, SYNC_BY_PHASE, type LayersComponent } from '../../components/Layers.js';
import { BLEND_OVERRIDE, blendMode, clearsAfterFade, layersOver, measureSyncGroup, SYNC_PHASE } from '../../components/layerRules.js';
import { applyFadeCurve } from '../../math/fadeCurves.js';
import { solveStrideScales, STRIDE_INPUT_STRIDE, STRIDE_OWN_SPEED, STRIDE_TRAVEL, STRIDE_WEIGHT } from '../../math/strideScales.js';
import type { AnimationWorld } from '../../world.js';
import { applyTargetSpeed } from './targetSpeed.js';
import { bakedRatio, playedClip, writeLayer, type ResolvedPlay } from './writeLayer.js';

/** The point {@link applyBlendSpace} plays, `[x, y]` (y 0 for a '1d' space): through an array, as doubles passed to a call would be boxed. */
export const BLEND_POINT = new Float64Array(2);

/** `Layers.mask` of a layer without a mask. */
export const NO_MASK_ID = -1;

/** Layers a space of this type uses, the most non-zero weights one query can give (`blendSpaceLayers` without its check). */
export function spaceLayers(space: BlendSpace): number {
  return space.type === '1d' ? 2 : space.type === 'bilinear' ? 4 : 3;
}

/**
 * `setBlendSpace`'s work without its checks (shared with `stateMachineSystem`): plays `space`
 * at `BLEND_POINT` on the layers from `settings.layer`, each with mask id `maskId` (a registered
 * mask, or −1 for none). The space's clips must have been checked against `skeleton`
 * (`checkBlendSpaceFor`). Allocates nothing once its clips are registered.
 */
export function applyBlendSpace(world: AnimationWorld, eid: number, skeleton: Skeleton, space: BlendSpace, settings: Settings, maskId: number): void {
  const x = BLEND_POINT[0], y = BLEND_POINT[1];
  const { Layers } = world.components;
  const first = eid * Layers.maxLayers + settings.layer;
  const slots = spaceLayers(space);
  const group = settings.sync ? settings.syncGroup : -1;
  const syncBy = space.syncBy === 'markers' ? SYNC_BY_MARKERS : SYNC_BY_PHASE;

  const weights = scratchWeights(space);
  blendSpaceWeightsAt(space, BLEND_POINT, weights);
  currentPhase(world, first, slots, group);
  const phase = PHASE[0], rate = PHASE[1];

  // Which sample each slot plays after this call (−1: none); clips that stay keep their slot.
  const slotSample = SLOT_SAMPLE;
  slotSample.fill(-1);
  const clipIds = world.assets.clipIds;
  const n = space.clips.length;
  for (let i = 0; i < n; i++) {
    if (!(weights[i] > 0)) continue;
    const clipId = clipIds.get(playedClip(space.clips[i], skeleton));
    if (clipId === undefined) continue;
    for (let s = 0; s < slots; s++) {
      const li = first + s;
      if (slotSample[s] < 0 && Layers.clip[li] === clipId && keepsSlot(world, li, group, space, i, syncBy, maskId)) { slotSample[s] = i; break; }
    }
  }
  const fading = findFadeIn(Layers, first, slots, slotSample);
  for (let s = 0; s < slots; s++) {
    const li = first + s;
    if (slotSample[s] < 0) clearLayer(Layers, li);
    else if (fading >= 0 && Layers.fadeCurve[li] !== 0) {
      // Fading in (a cross-fade into the space): the new weight is the fade's goal.
      Layers.fadeTo[li] = weights[slotSample[s]];
      fadedWeight(Layers, li);
    } else {
      Layers.weight[li] = weights[slotSample[s]];
      Layers.fadeCurve[li] = 0;
    }
  }
  for (let i = 0; i < n; i++) {
    if (!(weights[i] > 0) || slotSample.includes(i)) continue;
    const s = slotSample.indexOf(-1);
    slotSample[s] = i;
    const clip = space.clips[i];
    // Its start: the group's phase plus the sample's offset, mod 1 (with offset 0, exactly φ·D).
    const offset = space.phaseOffsets[i];
    let u = phase + offset;
    u -= Math.floor(u);
    // The entering play, written into the shared record in place (doubles passed to a helper
    // would be boxed).
    const play = ENTERING;
    play.layer = settings.layer + s;
    play.weight = weights[i];
    play.speed = rate;
    play.time = u * clip.duration;
    play.loop = group >= 0 || clip.loop;
    play.reference = clip;
    play.hipScaling = settings.hipScaling;
    play.syncGroup = group;
    play.phaseOffset = offset;
    play.syncBy = syncBy;
    play.timeGiven = group >= 0;
    writeLayer(world, eid, skeleton, clip, play);
    Layers.mask[first + s] = maskId;
    if (fading >= 0) joinFadeIn(Layers, first + s, fading);
  }

  // Axis restriction, then stride scales from the restricted, hip-scaled cycles.
  const planar = space.type !== '1d';
  const input = STRIDE_IN;
  // The sync group's cycle for these weights, Σ wᵢDᵢ / Σ wᵢ (as syncPhases computes it).
  let sumW = 0, sumWD = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i], duration = space.clips[i].duration;
    if (w > 0 && duration > 0) { sumW += w; sumWD += w * duration; }
  }
  const groupCycle = group >= 0 && sumW > 0 ? sumWD / sumW : 0;
  for (let s = 0; s < slots; s++) {
    const o = s * STRIDE_INPUT_STRIDE;
    input[o] = 0;
    const i = slotSample[s];
    if (i < 0) continue;
    const li = first + s;
    const clip = playedClip(space.clips[i], skeleton); // its travel as the layer plays it (baked clips carry the ratio)
    const axis = planar && settings.restrictAxes ? axisOf(space.xs[i], space.ys[i]) : ROOT_AXIS_FREE;
    Layers.rootAxis[li] = axis;
    const track = getRootTrack(clip);
    // Hip-height ratio, as `play` computes it (a baked clip's travel has it: without hip scaling it comes back out).
    const hip = clip !== space.clips[i] ? (settings.hipScaling ? 1 : 1 / bakedRatio(space.clips[i], skeleton))
      : settings.hipScaling && skeleton.hipHeight > 0 && track.hipHeight > 0 ? skeleton.hipHeight / track.hipHeight : 1;
    const cycle = track.cycle;
    const cx = axis === ROOT_AXIS_FORWARD ? 0 : cycle[0] * hip;
    const cz = axis === ROOT_AXIS_LATERAL ? 0 : cycle[2] * hip;
    const duration = clip.duration;
    const cycleTime = group >= 0 ? groupCycle : duration;
    input[o + STRIDE_WEIGHT] = weights[i];
    input[o + STRIDE_TRAVEL] = cycleTime > 0 ? cx / cycleTime : 0;
    input[o + STRIDE_TRAVEL + 1] = cycleTime > 0 ? cz / cycleTime : 0;
    input[o + STRIDE_OWN_SPEED] = duration > 0 ? Math.sqrt(cx * cx + cz * cz) / duration : 0;
    Layers.rootScale[li] = hip;
  }
  if (settings.strideScaling) {
    const direction = DIRECTION;
    direction[0] = planar ? x : 0;
    direction[1] = planar ? y : 0;
    solveStrideScales(STRIDE_OUT, input, slots, direction);
    for (let s = 0; s < slots; s++) if (slotSample[s] >= 0) Layers.rootScale[first + s] = Layers.rootScale[first + s] * STRIDE_OUT[s];
  }
  applyTargetSpeed(world, eid);
}

/**
 * The fade-curve kind of the first of the space's `slots` slots from `first` that stays in the
 * blend (`slotSample` ≥ 0) and is fading in (a cross-fade into the space, `fadeInSlots`: weight
 * fade running, not an outgoing copy), its clock into {@link FADE_CLOCK}; −1 when none is (a
 * clip fading in that the new point replaces takes its fade with it, as before). While one is, a new
 * point keeps the fade: each clip's weight is its fade's goal, a clip entering fades in on the
 * same clock, so the weights are the space's × the fade curve and still sum to it.
 */
function findFadeIn(layers: LayersComponent, first: number, slots: number, slotSample: Int32Array): number {
  for (let s = 0; s < slots; s++) {
    const li = first + s;
    if (slotSample[s] < 0 || layers.fadeCurve[li] === 0 || clearsAfterFade(layers, li)) continue;
    FADE_CLOCK[0] = layers.fadeElapsed[li];
    FADE_CLOCK[1] = layers.fadeDuration[li];
    return layers.fadeCurve[li];
  }
  return -1;
}

/** The fade-in clock {@link findFadeIn} found: seconds elapsed, seconds in all (read before its slot may be emptied). */
const FADE_CLOCK = new Float64Array(2);

/** Slot `li`, just written at its goal weight, joins the fade-in {@link findFadeIn} found (curve kind `curve`): from 0 to that weight, on the same clock. */
function joinFadeIn(layers: LayersComponent, li: number, curve: number): void {
  layers.fadeFrom[li] = 0;
  layers.fadeTo[li] = layers.weight[li];
  layers.fadeElapsed[li] = FADE_CLOCK[0];
  layers.fadeDuration[li] = FADE_CLOCK[1];
  layers.fadeCurve[li] = curve;
  fadedWeight(layers, li);
}

/** Slot `li`'s weight where its fade stands: from + (to − from) · curve(elapsed / duration) (as sampleSystem's `advanceFade`). */
function fadedWeight(layers: LayersComponent, li: number): void {
  const duration = layers.fadeDuration[li];
  CURVE[0] = duration > 0 ? layers.fadeElapsed[li] / duration : 1;
  if (CURVE[0] < 0) CURVE[0] = 0; // a fade starting later in the step (a machine's switch inside it)
  applyFadeCurve(CURVE, 0, layers.fadeCurve[li]);
  layers.weight[li] = layers.fadeFrom[li] + (layers.fadeTo[li] - layers.fadeFrom[li]) * CURVE[0];
}

/** {@link fadedWeight}'s curve argument and value (a double passed to a call would be boxed). */
const CURVE = new Float64Array(1);

/** Checked `setBlendSpace` options. */
export interface Settings {
  readonly layer: number;
  readonly sync: boolean;
  readonly syncGroup: number;
  readonly strideScaling: boolean;
  readonly restrictAxes: boolean;
  readonly hipScaling: boolean;
}

// Sized for the most slots any world has (MAX_LAYERS), so one buffer serves every world.
const SLOT_SAMPLE = new Int32Array(MAX_LAYERS);
const STRIDE_IN = new Float64Array(MAX_LAYERS * STRIDE_INPUT_STRIDE);
const STRIDE_OUT = new Float64Array(MAX_LAYERS);
const DIRECTION = new Float64Array(2);
const weightScratch = new WeakMap<BlendSpace, Float64Array>();
/** `setBlendSpace`'s default settings. */
export const DEFAULTS: Settings = { layer: 0, sync: true, syncGroup: 0, strideScaling: true, restrictAxes: true, hipScaling: true };
/** `setBlendSpace`'s default settings with `layer` (and sync group) = the index, made once. */
const LAYER_DEFAULTS: readonly Settings[] = Array.from({ length: MAX_LAYERS }, (_, layer) => (layer === 0 ? DEFAULTS : { ...DEFAULTS, layer, syncGroup: layer }));

/** The settings of `setBlendSpace(…, { layer })` with every other option at its default (no allocation). */
export function defaultBlendSettings(layer: number): Settings {
  return LAYER_DEFAULTS[layer];
}

function scratchWeights(space: BlendSpace): Float64Array {
  let weights = weightScratch.get(space);
  if (weights === undefined) weightScratch.set(space, (weights = new Float64Array(space.clips.length)));
  return weights;
}

/**
 * The phase and rate of the blend now, into `PHASE`: synced, the space's slots' sync group's
 * phase and rate (`measureSyncGroup` over the space's slots); unsynced, rate of the
 * highest-weight playing slot (ties the lowest); phase 0 and rate 1 when nothing plays.
 * (Through an array: a returned double would be boxed.)
 */
function currentPhase(world: AnimationWorld, first: number, slots: number, group: number): void {
  const { Layers } = world.components;
  const clips = world.assets.clips;
  PHASE[0] = 0;
  PHASE[1] = 1;
  if (group >= 0) {
    const leader = measureSyncGroup(SYNC, Layers, clips, first, first + slots, group);
    if (leader < 0) return;
    PHASE[0] = SYNC[SYNC_PHASE];
    PHASE[1] = Layers.syncRate[leader];
    return;
  }
  let leader = -1;
  for (let li = first; li < first + slots; li++) {
    const clipId = Layers.clip[li];
    if (clipId < 0 || !(clips[clipId].duration > 0)) continue;
    if (leader < 0 || Layers.weight[li] > Layers.weight[leader]) leader = li;
  }
  if (leader >= 0) PHASE[1] = Layers.speed[leader];
}

/** `[phase, rate]` of {@link currentPhase}. */
const PHASE = new Float64Array(2);
/** {@link measureSyncGroup}'s results. */
const SYNC = new Float64Array(2);

/**
 * A slot whose clip is still wanted can stay only if it plays the way the space would play it
 * (in a synced blend, also at the sample's phase offset and by the space's `syncBy`; else it
 * re-enters at that offset).
 */
function keepsSlot(world: AnimationWorld, li: number, group: number, space: BlendSpace, sample: number, syncBy: number, maskId: number): boolean {
  const { Layers } = world.components;
  const phaseOffset = space.phaseOffsets[sample]; // read here: a double argument may be boxed
  return blendMode(Layers, li) === BLEND_OVERRIDE && !layersOver(Layers, li) && !clearsAfterFade(Layers, li) && Layers.mask[li] === maskId && Layers.syncGroup[li] === group &&
    (group < 0 || (Layers.phaseOffset[li] === phaseOffset && Layers.syncBy[li] === syncBy));
}

/**
 * The play of a clip entering the blend (looping, at the group's phase plus its offset, and
 * rate): one record, refilled per entering clip (writeLayer reads it at once), so no garbage.
 */
const ENTERING: { -readonly [K in keyof ResolvedPlay]: ResolvedPlay[K] } = {
  layer: 0, weight: 0, speed: 1, time: 0, loop: true, additive: false, blend: 'average', mask: undefined, reference: undefined as unknown as Clip,
  referenceTime: 0, rootAxis: 'free', hipScaling: true, syncGroup: -1, phaseOffset: 0, syncBy: SYNC_BY_PHASE, timeGiven: false, translation: undefined, binding: undefined,
};

/** Axis restriction of a sample by its position (x: model X, y: model Z). */
function axisOf(x: number, y: number): number {
  if (x === 0 && y !== 0) return ROOT_AXIS_FORWARD;
  if (y === 0 && x !== 0) return ROOT_AXIS_LATERAL;
  return ROOT_AXIS_FREE;
}
