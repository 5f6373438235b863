/**
 * Blend spaces on a character: `setBlendSpace` turns a point of a space into clips on layers —
 * weights from the space, one sync group so the clips step together, stride scales so the
 * blend moves the way it is pointed, and the remembered target speed re-applied.
 *
 * Sources: Jason Gregory, Game Engine Architecture, 2nd ed. ("Complex LERP Blends"); Tokage It
 * Lab's normalization of walk cycles with root motion (axis restriction, playback rates in
 * blends, appendix 3).
 */
import { fail, IssueList } from '../assets/AnimationError.js';
import type { BlendSpace } from '../assets/BlendSpace.js';
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { applyBlendSpace, BLEND_POINT, DEFAULTS, NO_MASK_ID, type Settings } from '../systems/switching/blendSpace.js';
import { checkBindable, describeValue, layerRangeIssue, requireCharacter } from './validation.js';
import { refuseDriftingPoint } from './rootMotion.js';
import { FLOAT32_MAX, rangeIssue, shownString } from '../assets/limits.js';
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
 *    blend travel exactly that way — Tokage It Lab's appendix 3 — at the weighted harmonic mean of
 *    the clips' own speeds (times the travelling share of the weight). A point at the origin
 *    and `'1d'` spaces keep the clips' own blended direction.
 * 4. **Speed**: when `setTargetSpeed` was called for the character, the rate that gives that
 *    speed is derived again for the new blend (an idle blend keeps its rate); otherwise the
 *    group keeps the rate it had (1 for a new blend). A weighted clip whose root only drifts
 *    (under `MIN_CYCLE_TRAVEL_SHARE` of the hip height per cycle, as `setTargetSpeed` judges
 *    it) is refused then: the speed would be derived from the drift.
 *
 * Root motion must be enabled at spawn (`rootMotion: true`) for the stride scales and speed
 * to move the character; the weights and sync apply either way.
 *
 * @throws AnimationError for an unknown entity, a `space` that is not from
 * `createBlendSpace`, a non-finite x (or y in 2D, or a y given to a 1D space), layers past
 * `world.maxLayers − 1`, a bad option, a clip sharing no joint with the character, (when synced)
 * a clip that does not loop, or, for a character with a target speed, a weighted clip that
 * only drifts (naming `rootMotionFromFeet`). Nothing changes then.
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
  refuseDriftingPoint(world, eid, skeleton, space, BLEND_POINT, settings.hipScaling);
  applyBlendSpace(world, eid, skeleton, space, settings, NO_MASK_ID);
}

const NO_OPTIONS: SetBlendSpaceOptions = {};
/**
 * Checks, as `setBlendSpace` does once per space and skeleton, that `space`'s clips bind to
 * `skeleton` and loop (a synced blend); throws AnimationError at `where` otherwise.
 */
export function checkBlendSpaceFor(space: BlendSpace, skeleton: Skeleton): void {
  if (checked.get(space)?.get(skeleton) !== true) checkSpaceClips(space, skeleton, true);
}
/** Spaces already checked against a skeleton (clips bindable, looping when synced). */
const checked = new WeakMap<BlendSpace, WeakMap<Skeleton, boolean>>();

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
      if (typeof settings[key] !== 'boolean') issues.add(key, `is ${shownString(options[key])}: must be true or false`);
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

