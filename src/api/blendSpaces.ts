/**
 * Blend spaces on a character: `setBlendSpace` turns a point of a space into clips on layers —
 * weights from the space, one sync group so the clips step together, stride scales so the
 * blend moves the way it is pointed, and the remembered target speed re-applied.
 *
 * Sources: seeds/blending-and-skinning.txt ("Complex LERP Blends"), seeds/root-motion-
 * normalization.txt (axis restriction, playback rates in blends, appendix 3).
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import { blendSpaceWeightsAt, type BlendSpace } from '../assets/BlendSpace.js';
import type { Clip } from '../assets/Clip.js';
import { getRootTrack } from '../assets/rootTrack.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { clearLayer, MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_FREE, ROOT_AXIS_LATERAL } from '../components/Layers.js';
import { BLEND_OVERRIDE, blendMode, clearsAfterFade, measureSyncGroup, SYNC_PHASE } from '../components/layerRules.js';
import { solveStrideScales, STRIDE_INPUT_STRIDE, STRIDE_OWN_SPEED, STRIDE_TRAVEL, STRIDE_WEIGHT } from '../math/strideScales.js';
import { writeLayer, type ResolvedPlay } from './playback.js';
import { checkBindable, describeValue, layerRangeIssue, requireCharacter } from './validation.js';
import { FLOAT32_MAX, rangeIssue } from '../assets/limits.js';
import { applyTargetSpeed } from './rootMotion.js';
import type { AnimationWorld } from '../world.js';

/** Options of {@link setBlendSpace}. */
export interface SetBlendSpaceOptions {
  /**
   * First layer the space plays on (default 0). It takes `blendSpaceLayers(space)` (bitanim/kernels) layers from
   * there — 2 for `'1d'`, 4 for `'bilinear'`, 3 for `'freeform'`, the most weights its query
   * makes non-zero — and owns them: whatever else they played is replaced.
   */
  layer?: number;
  /**
   * Play the clips in one phase sync group (default true; the clips must loop). Without it,
   * clips that enter the blend start at their sample's `phaseOffset` × their duration (time 0
   * by default) and each cycles at its own duration.
   */
  sync?: boolean;
  /** The sync group, 0 … world.maxLayers − 1 (default: the value of `layer`). */
  syncGroup?: number;
  /**
   * Scale each clip's root travel so the blend moves in the commanded direction, every clip
   * covering the same ground at the blend's one rate (default true; see `solveStrideScales`).
   */
  strideScaling?: boolean;
  /**
   * Axis restriction by position (default true): a sample on the y axis (x = 0) keeps only
   * its clip's forward travel (model Z), one on the x axis (y = 0) only its sideways travel
   * (model X); others keep all of it. Ignored by `'1d'` spaces.
   */
  restrictAxes?: boolean;
  /** Scale root travel by the hip-height ratio (default true), as `play`'s `hipScaling`. */
  hipScaling?: boolean;
}

/**
 * Layers a space of this type uses: the most non-zero weights one query can give.
 * @throws AnimationError when `space` is not a BlendSpace.
 */
export function blendSpaceLayers(space: BlendSpace): number {
  if (typeof space !== 'object' || space === null || (space.type !== '1d' && space.type !== 'bilinear' && space.type !== 'freeform')) {
    fail('blendSpaceLayers', 'space', `is ${describeValue(space)}: must be a BlendSpace from createBlendSpace`);
  }
  return space.type === '1d' ? 2 : space.type === 'bilinear' ? 4 : 3;
}

/**
 * Plays blend space `space` at the point (x, y) on character `eid`: the clips with a non-zero
 * weight at that point (see `blendSpaceWeights`) play on layers `layer …` with those weights.
 * Call it whenever the parameters change — every frame if need be: it allocates nothing
 * (test/api/perFrameAllocation.test.ts), about 1 µs for a 4-clip space.
 *
 * 1. **Slots**: a clip that stays in the blend keeps its layer (and so its time); one that
 *    leaves is stopped; one that enters takes a free layer at the group's current phase φ plus
 *    its sample's `phaseOffset` (time = ((φ + offset) mod 1) × its duration; unsynced, φ = 0),
 *    so moving the point around never restarts a step and each clip keeps its foot order.
 * 2. **Sync**: all clips of the space play in one sync group (`PlayOptions.syncGroup`): one
 *    normalized phase, the weight-averaged cycle.
 * 3. **Direction and stride**: for a 2D space the point's direction is the commanded
 *    direction of travel, with the space's x along model X and y along model Z (glTF
 *    characters face +Z, so y is forward and +x is the character's left; place each clip at
 *    its direction of travel). Stride scales (layer `rootScale` = hip ratio × stride) make the
 *    blend travel exactly that way — the seed's appendix 3 — at the weighted harmonic mean of
 *    the clips' own speeds (times the travelling share of the weight). A point at the origin
 *    and `'1d'` spaces keep the clips' own blended direction.
 * 4. **Speed**: when `setTargetSpeed` was called for the character, the rate that gives that
 *    speed is derived again for the new blend (an idle blend keeps its rate); otherwise the
 *    group keeps the rate it had (1 for a new blend).
 *
 * Root motion must be enabled at spawn (`rootMotion: true`) for the stride scales and speed
 * to move the character; the weights and sync apply either way.
 *
 * @throws AnimationError for an unknown entity, a `space` that is not from
 * `createBlendSpace`, a non-finite x (or y in 2D, or a y given to a 1D space), layers past
 * `world.maxLayers − 1`, a bad option, a clip sharing no joint with the character, or (when synced)
 * a clip that does not loop. Nothing changes then.
 * @example
 * const space = createBlendSpace({ type: 'freeform', samples: [
 *   { clip: forward, x: 0, y: 1 }, { clip: left, x: 1, y: 0 },
 *   { clip: backward, x: 0, y: -1 }, { clip: right, x: -1, y: 0 },
 * ] });
 * setTargetSpeed(world, eid, 3); // once
 * setBlendSpace(world, eid, space, Math.sin(heading), Math.cos(heading)); // each frame
 */
export function setBlendSpace(world: AnimationWorld, eid: number, space: BlendSpace, x: number, y?: number, options: SetBlendSpaceOptions = NO_OPTIONS): void {
  const where = 'setBlendSpace';
  const skeleton = requireCharacter(world, eid, where);
  const settings = resolveOptions(skeleton, space, x, y, options, world.components.Layers.maxLayers);
  BLEND_POINT[0] = x;
  BLEND_POINT[1] = y ?? 0;
  applyBlendSpace(world, eid, skeleton, space, settings, NO_MASK_ID);
}

/** The point {@link applyBlendSpace} plays, `[x, y]` (y 0 for a '1d' space): through an array, as doubles passed to a call would be boxed. */
export const BLEND_POINT = new Float64Array(2);

/** `Layers.mask` of a layer without a mask. */
const NO_MASK_ID = -1;

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
  const slots = blendSpaceLayers(space);
  const group = settings.sync ? settings.syncGroup : -1;

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
    const clipId = clipIds.get(space.clips[i]);
    if (clipId === undefined) continue;
    for (let s = 0; s < slots; s++) {
      const li = first + s;
      if (slotSample[s] < 0 && Layers.clip[li] === clipId && keepsSlot(world, li, group, space.phaseOffsets[i], maskId)) { slotSample[s] = i; break; }
    }
  }
  for (let s = 0; s < slots; s++) {
    const li = first + s;
    if (slotSample[s] < 0) clearLayer(Layers, li);
    else {
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
    play.timeGiven = group >= 0;
    writeLayer(world, eid, skeleton, clip, play);
    Layers.mask[first + s] = maskId;
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
    const clip = space.clips[i];
    const axis = planar && settings.restrictAxes ? axisOf(space.xs[i], space.ys[i]) : ROOT_AXIS_FREE;
    Layers.rootAxis[li] = axis;
    const track = getRootTrack(clip);
    // Hip-height ratio, as `play` computes it.
    const hip = settings.hipScaling && skeleton.hipHeight > 0 && track.hipHeight > 0 ? skeleton.hipHeight / track.hipHeight : 1;
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

/** Checked `setBlendSpace` options. */
export interface Settings {
  readonly layer: number;
  readonly sync: boolean;
  readonly syncGroup: number;
  readonly strideScaling: boolean;
  readonly restrictAxes: boolean;
  readonly hipScaling: boolean;
}

const NO_OPTIONS: SetBlendSpaceOptions = {};
// Sized for the most slots any world has (MAX_LAYERS), so one buffer serves every world.
const SLOT_SAMPLE = new Int32Array(MAX_LAYERS);
const STRIDE_IN = new Float64Array(MAX_LAYERS * STRIDE_INPUT_STRIDE);
const STRIDE_OUT = new Float64Array(MAX_LAYERS);
const DIRECTION = new Float64Array(2);
const DEFAULTS: Settings = { layer: 0, sync: true, syncGroup: 0, strideScaling: true, restrictAxes: true, hipScaling: true };
/** `setBlendSpace`'s default settings with `layer` (and sync group) = the index, made once. */
const LAYER_DEFAULTS: readonly Settings[] = Array.from({ length: MAX_LAYERS }, (_, layer) => (layer === 0 ? DEFAULTS : { ...DEFAULTS, layer, syncGroup: layer }));

/** The settings of `setBlendSpace(…, { layer })` with every other option at its default (no allocation). */
export function defaultBlendSettings(layer: number): Settings {
  return LAYER_DEFAULTS[layer];
}

/**
 * Checks, as `setBlendSpace` does once per space and skeleton, that `space`'s clips bind to
 * `skeleton` and loop (a synced blend); throws AnimationError at `where` otherwise.
 */
export function checkBlendSpaceFor(space: BlendSpace, skeleton: Skeleton): void {
  if (checked.get(space)?.get(skeleton) !== true) checkSpaceClips(space, skeleton, true);
}
/** Spaces already checked against a skeleton (clips bindable, looping when synced). */
const checked = new WeakMap<BlendSpace, WeakMap<Skeleton, boolean>>();
const weightScratch = new WeakMap<BlendSpace, Float64Array>();

/** Validates the call; returns the settings (no allocation for the default options). */
function resolveOptions(skeleton: Skeleton, space: BlendSpace, x: number, y: number | undefined, options: SetBlendSpaceOptions, maxLayers: number): Settings {
  const where = 'setBlendSpace';
  if (typeof space !== 'object' || space === null || !(space.xs instanceof Float64Array) || !Array.isArray(space.clips)) {
    fail(where, 'space', 'must be a BlendSpace from createBlendSpace');
  }
  // Comparisons rather than calls: setBlendSpace runs per character per frame. NaN fails them.
  if (!(typeof x === 'number' && x <= FLOAT32_MAX && x >= -FLOAT32_MAX)) fail(where, 'x', rangeIssue(x, -FLOAT32_MAX, FLOAT32_MAX, 'the Float32 range')!);
  if (space.type === '1d') {
    if (y !== undefined && !(typeof y === 'number' && y <= FLOAT32_MAX && y >= -FLOAT32_MAX)) {
      fail(where, 'y', `${rangeIssue(y, -FLOAT32_MAX, FLOAT32_MAX, 'the Float32 range')}, or omitted for a '1d' space`);
    }
  } else if (!(typeof y === 'number' && y <= FLOAT32_MAX && y >= -FLOAT32_MAX)) {
    fail(where, 'y', `${rangeIssue(y, -FLOAT32_MAX, FLOAT32_MAX, 'the Float32 range')} for a '${space.type}' space`);
  }
  let settings = DEFAULTS;
  if (options !== NO_OPTIONS) {
    if (typeof options !== 'object' || options === null) fail(where, 'options', 'must be an object');
    const layer = options.layer ?? 0;
    settings = {
      layer,
      sync: options.sync ?? true,
      syncGroup: options.syncGroup ?? layer,
      strideScaling: options.strideScaling ?? true,
      restrictAxes: options.restrictAxes ?? true,
      hipScaling: options.hipScaling ?? true,
    };
    const issues = new IssueList(where);
    if (!Number.isInteger(layer) || layer < 0 || layer >= maxLayers) issues.add('layer', layerRangeIssue(layer, maxLayers));
    if (!Number.isInteger(settings.syncGroup) || settings.syncGroup < 0 || settings.syncGroup >= maxLayers) {
      issues.add('syncGroup', layerRangeIssue(settings.syncGroup, maxLayers));
    }
    for (const key of ['sync', 'strideScaling', 'restrictAxes', 'hipScaling'] as const) {
      if (typeof settings[key] !== 'boolean') issues.add(key, `is ${String(options[key])}: must be true or false`);
    }
    issues.throwIfAny();
  }
  const slots = blendSpaceLayers(space);
  if (settings.layer + slots > maxLayers) {
    fail(where, 'layer', `is ${settings.layer}: a '${space.type}' space needs ${slots} layers, ${settings.layer} to ${settings.layer + slots - 1}, and the last layer is ${maxLayers - 1}`
      + (maxLayers < MAX_LAYERS ? ` (the world's maxLayers is ${maxLayers}; createAnimationWorld({ maxLayers }) allows up to ${MAX_LAYERS})` : ''));
  }
  const done = checked.get(space)?.get(skeleton); // true: checked for a synced blend, false: unsynced
  if (done !== true && (settings.sync || done === undefined)) checkSpaceClips(space, skeleton, settings.sync);
  return settings;
}

/**
 * Checks once per space and skeleton (and sync) that the space's clips bind to `skeleton` and,
 * when synced, loop. Out of line: a closure in `resolveOptions` would make V8 allocate a
 * context for its captured variables on every call, used or not.
 */
function checkSpaceClips(space: BlendSpace, skeleton: Skeleton, sync: boolean): void {
  const issues = new IssueList('setBlendSpace');
  space.clips.forEach((clip: Clip, i) => {
    checkBindable(issues, `space.clips[${i}]`, clip.skeleton, skeleton);
    if (sync && !clip.loop) issues.add(`space.clips[${i}]`, `"${clip.name}" does not loop, so it cannot be synced: make it loop or pass sync: false`);
  });
  issues.throwIfAny();
  let bySkeleton = checked.get(space);
  if (!bySkeleton) checked.set(space, (bySkeleton = new WeakMap()));
  bySkeleton.set(skeleton, sync); // a synced pass also covers unsynced calls
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
 * (in a synced blend, also at the sample's phase offset; else it re-enters at that offset).
 */
function keepsSlot(world: AnimationWorld, li: number, group: number, phaseOffset: number, maskId: number): boolean {
  const { Layers } = world.components;
  return blendMode(Layers, li) === BLEND_OVERRIDE && !clearsAfterFade(Layers, li) && Layers.mask[li] === maskId && Layers.syncGroup[li] === group &&
    (group < 0 || Layers.phaseOffset[li] === phaseOffset);
}

/**
 * The play of a clip entering the blend (looping, at the group's phase plus its offset, and
 * rate): one record, refilled per entering clip (writeLayer reads it at once), so no garbage.
 */
const ENTERING: { -readonly [K in keyof ResolvedPlay]: ResolvedPlay[K] } = {
  layer: 0, weight: 0, speed: 1, time: 0, loop: true, additive: false, mask: undefined, reference: undefined as unknown as Clip,
  referenceTime: 0, rootAxis: 'free', hipScaling: true, syncGroup: -1, phaseOffset: 0, timeGiven: false, translation: undefined,
};

/** Axis restriction of a sample by its position (x: model X, y: model Z). */
function axisOf(x: number, y: number): number {
  if (x === 0 && y !== 0) return ROOT_AXIS_FORWARD;
  if (y === 0 && x !== 0) return ROOT_AXIS_LATERAL;
  return ROOT_AXIS_FREE;
}
