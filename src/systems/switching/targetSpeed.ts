/**
 * Playback rate from a remembered target speed (the non-throwing core of `setTargetSpeed`,
 * which `setBlendSpace` and `stateMachineSystem` re-apply whenever they change a blend): the
 * blend's travel per second at rate 1, and the rate written to its layers. Allocates nothing.
 * Source: Tokage It Lab's normalization of walk cycles with root motion, appendix 2.
 */
import { getRootTrack } from '../../assets/rootTrack.js';
import { computeRestModel, type Skeleton } from '../../assets/Skeleton.js';
import { MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL, type LayersComponent } from '../../components/Layers.js';
import { BLEND_OVERRIDE, blendMode, clearsAfterFade, measureSyncGroup, movesRoot, SYNC_DURATION } from '../../components/layerRules.js';
import { MATRIX_STRIDE, MATRIX_T } from '../../math/layout.js';
import { MAX_PLAYBACK_RATE } from '../../assets/limits.js';
import type { AnimationWorld } from '../../world.js';

/** Below this a clip's normalized travel (m/s at rate 1) cannot drive a speed. */
export const NO_TRAVEL = 1e-6;
/**
 * `'max'`: the least travel per cycle, metres on the character, that can drive a speed — and
 * the least net displacement per cycle that gives a clip a direction to travel in.
 */
export const MIN_CYCLE_TRAVEL = 1e-3;

/** `RootMotion.cycleMeasure`: a cycle measured by its net displacement ('net') … */
export const CYCLE_NET = 0;
/** … or by the farthest the root gets from its start ('max'). */
export const CYCLE_MAX = 1;

/**
 * Least travel per cycle, as a share of the character's hip height, of a clip that drives a
 * speed: 5 %. A walk covers about 1.5 hip heights per cycle (two steps) and the slowest shuffle
 * still about half of one, so every gait is 10× or more above it; an in-place cycle whose root
 * drifts (2.3 mm per cycle under 0.9 m hips: 0.26 %) is 20× below, where a target speed would
 * play it hundreds of times too fast with the feet skating.
 */
export const MIN_CYCLE_TRAVEL_SHARE = 0.05;

/**
 * Re-derives the rate of `eid` from its remembered target speed (`setTargetSpeed`), for the
 * blend its layers are heading to: each override layer at the weight it is fading to (a
 * cross-fade's incoming clip counts at its goal weight from the first frame, an outgoing copy
 * not at all, and keeps its rate). Does nothing when no target is set or when that blend does
 * not travel (no net travel, or every clip under {@link MIN_CYCLE_TRAVEL_SHARE} of the hips per
 * cycle: an idle, which keeps its own rate); a rate above MAX_PLAYBACK_RATE is held at it.
 * Never throws; `play`, `transition`, `setBlendSpace` and `stateMachineSystem` call it after
 * every switch, so a target survives them until `clearTargetSpeed`.
 */
export function applyTargetSpeed(world: AnimationWorld, eid: number): void {
  const { RootMotion, Layers } = world.components;
  const speed = RootMotion.targetSpeed[eid];
  if (!(speed >= 0)) return;
  SPEED[0] = speed;
  applySpeedIn(world, eid, eid * Layers.maxLayers, (eid + 1) * Layers.maxLayers, RootMotion.cycleMeasure[eid]);
}

/** The speed, m/s, {@link applySpeedIn} gives the layers (a double passed to a call would be boxed). */
export const SPEED = new Float64Array(1);

/**
 * Gives the override layers among slots `[from, end)` of `eid`, at the weights they are fading
 * to, the playback rate at which their blend travels `SPEED[0]` m/s (negative: backwards),
 * through the normalization of `setTargetSpeed` (`measure`: {@link CYCLE_NET} or
 * {@link CYCLE_MAX}), held within ±MAX_PLAYBACK_RATE. Returns false, changing nothing, when
 * that blend does not travel (see {@link applyTargetSpeed}). Allocates nothing.
 */
export function applySpeedIn(world: AnimationWorld, eid: number, from: number, end: number, measure: number): boolean {
  goalTravel(world, eid, from, end, measure);
  const skeleton = world.assets.skeletons[world.components.Character.skeleton[eid]] as Skeleton;
  if (!travels(measure) || !(TRAVEL[2] >= MIN_CYCLE_TRAVEL_SHARE * standingHeight(skeleton)[0])) return false;
  // Through RATE, not a local: a local merging the quotient with the imported limit would be
  // boxed (a heap number per call).
  RATE[0] = SPEED[0] / TRAVEL[0];
  if (RATE[0] > MAX_PLAYBACK_RATE) RATE[0] = MAX_PLAYBACK_RATE;
  else if (RATE[0] < -MAX_PLAYBACK_RATE) RATE[0] = -MAX_PLAYBACK_RATE;
  setGoalRate(world, eid, from, end);
  return true;
}

/**
 * Whether override slot `li` is part of the blend its layers are heading to: a clip in the
 * override blend that is not a cross-fade's outgoing copy and whose goal weight — its fade's
 * goal while it fades, else its weight — is above 0. (A boolean: a double returned from a call
 * V8 does not inline is boxed; the callers read the goal weight inline, marked `GOAL_WEIGHT`.)
 */
export function headsInto(layers: LayersComponent, li: number): boolean {
  if (layers.clip[li] < 0 || blendMode(layers, li) !== BLEND_OVERRIDE || clearsAfterFade(layers, li)) return false;
  return (layers.fadeCurve[li] !== 0 ? layers.fadeTo[li] : layers.weight[li]) > 0;
}

/**
 * {@link blendedTravel} over slots `[from, end)` of `eid` that {@link headsInto} the blend, at
 * their goal weights, into
 * `TRAVEL[0]` (m/s at rate 1) and `TRAVEL[1]` (m per cycle), with `TRAVEL[2]` the most any one
 * of those layers travels per cycle (m, on the character, as `measure` sees it).
 */
function goalTravel(world: AnimationWorld, eid: number, from: number, end: number, measure: number): void {
  const { Layers } = world.components;
  const { clips, rootTracks } = world.assets;
  const first = eid * Layers.maxLayers, last = first + Layers.maxLayers;
  // Each sync group's cycle once its fades end, Σ gᵢDᵢ / Σ gᵢ over the character's members at
  // their goal weights gᵢ (what measureSyncGroup will give then). No call inside the loops with
  // a double live across it (V8 would box it: a heap number per call per frame).
  const groups = GROUP_SUMS;
  groups.fill(0);
  for (let li = first; li < last; li++) {
    const g = Layers.syncGroup[li];
    if (g < 0 || !headsInto(Layers, li)) continue;
    const duration = clips[Layers.clip[li]].duration;
    if (!(duration > 0)) continue;
    const w = Layers.fadeCurve[li] !== 0 ? Layers.fadeTo[li] : Layers.weight[li]; // GOAL_WEIGHT
    groups[2 * g] += w;
    groups[2 * g + 1] += w * duration;
  }
  let total = 0, sumX = 0, sumZ = 0, cycleX = 0, cycleZ = 0, farthest = 0;
  for (let li = from; li < end; li++) {
    if (!headsInto(Layers, li)) continue;
    const w = Layers.fadeCurve[li] !== 0 ? Layers.fadeTo[li] : Layers.weight[li]; // GOAL_WEIGHT
    total += w;
    const clipId = Layers.clip[li];
    const duration = clips[clipId].duration;
    const track = rootTracks[clipId]; // registered with the clip (writeLayer, setStateMachine)
    const cycle = track.cycle;
    const axis = Layers.rootAxis[li];
    let dx = axis === ROOT_AXIS_FORWARD ? 0 : cycle[0];
    let dz = axis === ROOT_AXIS_LATERAL ? 0 : cycle[2];
    const scale = Layers.rootScale[li];
    const size = scale < 0 ? -scale : scale;
    const whole = Math.sqrt(cycle[0] * cycle[0] + cycle[2] * cycle[2]);
    const perCycle = (measure === CYCLE_MAX ? track.maxDistance : whole) * size;
    if (perCycle > farthest) farthest = perCycle;
    if (measure === CYCLE_MAX) {
      const net = Math.sqrt(dx * dx + dz * dz);
      const k = net > 0 && whole * size >= MIN_CYCLE_TRAVEL ? track.maxDistance / whole : 0;
      dx *= k; dz *= k;
    }
    cycleX += w * scale * dx;
    cycleZ += w * scale * dz;
    const g = Layers.syncGroup[li];
    const cycleTime = g >= 0 && duration > 0 && groups[2 * g] > 0 ? groups[2 * g + 1] / groups[2 * g] : duration;
    if (!(cycleTime > 0)) continue;
    const k = (w * scale) / cycleTime;
    sumX += k * dx;
    sumZ += k * dz;
  }
  TRAVEL[0] = total > 0 ? Math.sqrt(sumX * sumX + sumZ * sumZ) / total : 0;
  TRAVEL[1] = total > 0 ? Math.sqrt(cycleX * cycleX + cycleZ * cycleZ) / total : 0;
  TRAVEL[2] = farthest;
}

/** {@link goalTravel}'s per sync group Σ gᵢ and Σ gᵢDᵢ (a group is < MAX_LAYERS). */
const GROUP_SUMS = new Float64Array(2 * MAX_LAYERS);

/**
 * Gives the override layers among `[from, end)` with a goal weight playback rate `RATE[0]`,
 * and every member of their sync groups on the character the group rate (`syncRate`, so the
 * group plays at it whichever member leads). Layers fading out keep theirs.
 */
function setGoalRate(world: AnimationWorld, eid: number, from: number, end: number): void {
  const { Layers } = world.components;
  const rate = RATE[0];
  let groups = 0;
  for (let li = from; li < end; li++) {
    if (!headsInto(Layers, li)) continue;
    if (Layers.syncGroup[li] >= 0) groups |= 1 << Layers.syncGroup[li];
    else Layers.speed[li] = rate;
  }
  if (groups === 0) return;
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    const group = Layers.syncGroup[li];
    if (Layers.clip[li] < 0 || group < 0 || (groups & (1 << group)) === 0) continue;
    Layers.syncRate[li] = rate;
    Layers.speed[li] = rate; // sampleSystem rescales it to rate × Dᵢ / D_g each frame
  }
}

/**
 * Hands the rates a target speed set back to the clips (`clearTargetSpeed`): every override
 * layer of `eid` whose clip travels (at least {@link MIN_CYCLE_TRAVEL_SHARE} of the hips per
 * cycle) plays at rate 1 again, its sync group too. Layers that do not travel kept their own
 * rate all along.
 */
export function resetTravelRates(world: AnimationWorld, eid: number): void {
  const { Layers } = world.components;
  const clips = world.assets.clips;
  const skeleton = world.assets.skeletons[world.components.Character.skeleton[eid]] as Skeleton;
  const bound = MIN_CYCLE_TRAVEL_SHARE * standingHeight(skeleton)[0];
  let groups = 0;
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (Layers.clip[li] < 0 || blendMode(Layers, li) !== BLEND_OVERRIDE) continue;
    const track = getRootTrack(clips[Layers.clip[li]]);
    const perCycle = Math.sqrt(track.cycle[0] * track.cycle[0] + track.cycle[2] * track.cycle[2]) * Math.abs(Layers.rootScale[li]);
    if (!(perCycle > 0 && perCycle >= bound)) continue;
    if (Layers.syncGroup[li] >= 0) groups |= 1 << Layers.syncGroup[li];
    else Layers.speed[li] = 1;
  }
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    const group = Layers.syncGroup[li];
    if (Layers.clip[li] < 0 || group < 0 || (groups & (1 << group)) === 0) continue;
    Layers.syncRate[li] = 1;
    Layers.speed[li] = 1;
  }
}

/** {@link standingHeight} per skeleton, computed once (setTargetSpeed may run every frame). */
const STANDING = new WeakMap<Skeleton, Float64Array>();

/**
 * The hip height a travel per cycle is judged against, metres, in a one-float array: the hip
 * joint's rest height, or when that is 0 (a motion capture's rest floats around its hips at
 * y = 0) its height above the lowest joint of the rest pose; 0 without a hip joint.
 */
export function standingHeight(skeleton: Skeleton): Float64Array {
  let height = STANDING.get(skeleton);
  if (height === undefined) {
    height = new Float64Array(1);
    if (skeleton.hipHeight > 0) height[0] = skeleton.hipHeight;
    else if (skeleton.hipJoint >= 0) {
      const model = computeRestModel(skeleton.parents, skeleton.rest);
      let lowest = Infinity;
      for (let j = 0; j < skeleton.jointCount; j++) lowest = Math.min(lowest, model[j * MATRIX_STRIDE + MATRIX_T + 1]);
      height[0] = model[skeleton.hipJoint * MATRIX_STRIDE + MATRIX_T + 1] - lowest;
    }
    STANDING.set(skeleton, height);
  }
  return height;
}

/** Whether the blend measured into `TRAVEL` by {@link blendedTravel} can drive a speed. */
export function travels(measure: number): boolean {
  return TRAVEL[0] > NO_TRAVEL && (measure !== CYCLE_MAX || TRAVEL[1] >= MIN_CYCLE_TRAVEL);
}

/**
 * Horizontal travel per second at rate 1 of the blend of `eid`, m/s (see {@link setTargetSpeed}),
 * written to `TRAVEL[0]`, and per cycle, metres, to `TRAVEL[1]` (|Σ wᵢ·rootScaleᵢ·eᵢ| / Σ wᵢ
 * with eᵢ a layer's cycle displacement as `measure` sees it): returning a double from a
 * function V8 does not inline boxes it, and `setBlendSpace` runs this per character per frame.
 */
export function blendedTravel(world: AnimationWorld, eid: number, measure: number): void {
  const { Layers } = world.components;
  const clips = world.assets.clips;
  const first = eid * Layers.maxLayers, end = first + Layers.maxLayers;
  let total = 0, sumX = 0, sumZ = 0, cycleX = 0, cycleZ = 0;
  for (let li = first; li < end; li++) {
    if (!movesRoot(Layers, li)) continue;
    const w = Layers.weight[li];
    total += w;
    const clip = clips[Layers.clip[li]];
    const track = getRootTrack(clip);
    const axis = Layers.rootAxis[li];
    let dx = axis === ROOT_AXIS_FORWARD ? 0 : track.cycle[0];
    let dz = axis === ROOT_AXIS_LATERAL ? 0 : track.cycle[2];
    if (measure === CYCLE_MAX) {
      // Same direction, measured by the farthest the root gets within the cycle. A cycle that
      // ends under 1 mm (on the character) from where it started has no direction: 0.
      const net = Math.sqrt(dx * dx + dz * dz);
      const whole = Math.sqrt(track.cycle[0] * track.cycle[0] + track.cycle[2] * track.cycle[2]);
      const k = net > 0 && whole * Math.abs(Layers.rootScale[li]) >= MIN_CYCLE_TRAVEL ? track.maxDistance / whole : 0;
      dx *= k; dz *= k;
    }
    cycleX += w * Layers.rootScale[li] * dx;
    cycleZ += w * Layers.rootScale[li] * dz;
    // A sync-group member cycles in its group's duration (as sampleSystem plays it).
    const g = Layers.syncGroup[li];
    let cycleTime = clip.duration;
    if (g >= 0 && clip.duration > 0 && measureSyncGroup(SYNC, Layers, clips, first, end, g) >= 0) cycleTime = SYNC[SYNC_DURATION];
    if (!(cycleTime > 0)) continue;
    const k = (w * Layers.rootScale[li]) / cycleTime;
    sumX += k * dx;
    sumZ += k * dz;
  }
  TRAVEL[0] = total > 0 ? Math.sqrt(sumX * sumX + sumZ * sumZ) / total : 0;
  TRAVEL[1] = total > 0 ? Math.sqrt(cycleX * cycleX + cycleZ * cycleZ) / total : 0;
}

/** {@link blendedTravel}'s results: m/s at rate 1, metres per cycle (and, from the goal-weight measure, the most one layer travels per cycle). */
export const TRAVEL = new Float64Array(3);
/** {@link measureSyncGroup}'s results. */
const SYNC = new Float64Array(2);

/** {@link setBlendRate}'s rate (a double passed to a call V8 does not inline is boxed). */
export const RATE = new Float64Array(1);

/** Gives the weighted override layers of `eid` (and their whole sync groups) playback rate `RATE[0]`. */
export function setBlendRate(world: AnimationWorld, eid: number): void {
  const { Layers } = world.components;
  const rate = RATE[0];
  let groups = 0; // sync groups with a weighted override member
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (movesRoot(Layers, li) && Layers.syncGroup[li] >= 0) groups |= 1 << Layers.syncGroup[li];
  }
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (Layers.clip[li] < 0) continue;
    const group = Layers.syncGroup[li];
    if (group >= 0 && (groups & (1 << group)) !== 0) {
      Layers.syncRate[li] = rate;
      Layers.speed[li] = rate; // sampleSystem rescales it to rate × Dᵢ / D_g each frame
    } else if (movesRoot(Layers, li)) {
      Layers.speed[li] = rate;
    }
  }
}

