/**
 * Playback rate from a remembered target speed (the non-throwing core of `setTargetSpeed`,
 * which `setBlendSpace` and `stateMachineSystem` re-apply whenever they change a blend): the
 * blend's travel per second at rate 1, and the rate written to its layers. Allocates nothing.
 * Source: Tokage It Lab's normalization of walk cycles with root motion, appendix 2.
 */
import { getRootTrack } from '../../assets/rootTrack.js';
import { ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from '../../components/Layers.js';
import { measureSyncGroup, movesRoot, SYNC_DURATION } from '../../components/layerRules.js';
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
 * Re-derives the rate of `eid` from its remembered target speed (see {@link setTargetSpeed});
 * does nothing when none is set or when the blend does not travel (an idle blend keeps its
 * rate); a rate above MAX_PLAYBACK_RATE is held at it. Never throws; for API functions that
 * change the blend.
 */
export function applyTargetSpeed(world: AnimationWorld, eid: number): void {
  const { RootMotion } = world.components;
  const speed = RootMotion.targetSpeed[eid];
  if (!(speed >= 0)) return;
  const measure = RootMotion.cycleMeasure[eid];
  blendedTravel(world, eid, measure);
  if (!travels(measure)) return;
  RATE[0] = Math.min(speed / TRAVEL[0], MAX_PLAYBACK_RATE);
  setBlendRate(world, eid);
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

/** {@link blendedTravel}'s results: m/s at rate 1, metres per cycle. */
export const TRAVEL = new Float64Array(2);
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

