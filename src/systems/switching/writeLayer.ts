/**
 * Writing a play into a layer slot (the non-throwing core of `play`, shared by `transition`,
 * `setBlendSpace` and `stateMachineSystem`): the checked record, then the slot's fields, its
 * registered clip, binding, mask and reference, and its sync group. Allocates nothing once the
 * clip, binding and reference are registered.
 */
import { bindClip, type Binding, type TranslationOption } from '../../assets/Binding.js';
import type { Clip } from '../../assets/Clip.js';
import type { Mask } from '../../assets/Mask.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { bakeRetargeted, playsBaked } from '../../assets/retarget/bake.js';
import { getRootTrack } from '../../assets/rootTrack.js';
import { getSyncMarkers } from '../../assets/syncMarkers.js';
import { clearLayer, ROOT_AXIS_FORWARD, ROOT_AXIS_FREE, ROOT_AXIS_LATERAL, SYNC_BY_MARKERS, SYNC_BY_PHASE } from '../../components/Layers.js';
import { BLEND_ADDITIVE, BLEND_OVERRIDE, blendMode, layerFlags, layersOver, measureSyncGroup, SYNC_PHASE } from '../../components/layerRules.js';
import type { AnimationWorld } from '../../world.js';
import { resolveCurveMap } from './curveMapRows.js';
import { registerAsset, registerMask, registerReference, wrapClipTimeAt } from './registry.js';

/** `play`'s options (`PlayOptions`) checked, with defaults filled in. */
export interface ResolvedPlay {
  readonly layer: number;
  readonly weight: number;
  readonly speed: number;
  readonly time: number;
  readonly loop: boolean;
  readonly additive: boolean;
  /**
   * An override layer's blend mode (components/layerRules.ts): `'layer'`, `'average'`, or
   * `'keep'` — the mode of the layer the slot holds (`'layer'` when it is empty or additive),
   * as `transition` and a machine's clip states replace a layer.
   */
  readonly blend: 'layer' | 'average' | 'keep';
  readonly mask: Mask | undefined;
  readonly reference: Clip;
  readonly referenceTime: number;
  readonly rootAxis: 'free' | 'forward' | 'lateral';
  readonly hipScaling: boolean;
  /** Sync group, or −1. */
  readonly syncGroup: number;
  /** In [0, 1). */
  readonly phaseOffset: number;
  /** How the sync group aligns its members: `SYNC_BY_PHASE` or `SYNC_BY_MARKERS` (components/Layers.ts). */
  readonly syncBy: number;
  /** Whether `time` was given (a clip joining a sync group then keeps it). */
  readonly timeGiven: boolean;
  /** Retargeting translation modes (undefined: the default rule). */
  readonly translation?: TranslationOption;
  /** The binding to play through (undefined: the one `bindClip` gives). */
  readonly binding?: Binding;
}

/** A {@link ResolvedPlay} whose fields {@link resolvePlayInto} fills. */
export type MutableResolvedPlay = { -readonly [K in keyof ResolvedPlay]: ResolvedPlay[K] };

/** A blank {@link MutableResolvedPlay} (every field present, so all records share one shape). */
export function newResolvedPlay(): MutableResolvedPlay {
  return {
    layer: 0, weight: 0, speed: 1, time: 0, loop: true, additive: false, blend: 'layer', mask: undefined, reference: undefined as unknown as Clip,
    referenceTime: 0, rootAxis: 'free', hipScaling: true, syncGroup: -1, phaseOffset: 0, syncBy: SYNC_BY_PHASE, timeGiven: false, translation: undefined, binding: undefined,
  };
}

/** Writes a resolved play into its layer slot (replacing what it held). */
export function writeLayer(world: AnimationWorld, eid: number, skeleton: Skeleton, given: Clip, play: ResolvedPlay): void {
  const { Layers } = world.components;
  const assets = world.assets;
  const li = eid * Layers.maxLayers + play.layer;
  const layered = play.blend === 'layer' || (play.blend === 'keep' && (Layers.clip[li] < 0 || blendMode(Layers, li) === BLEND_ADDITIVE || layersOver(Layers, li)));
  clearLayer(Layers, li);
  // A binding that retargets through reference poses plays a copy of the clip baked onto the
  // character's skeleton (once per clip and binding): then the layer plays the character's own clip.
  const bound = play.binding ?? bindClip(given, skeleton, play.translation);
  const clip = playsBaked(given, bound) ? bakeRetargeted(given, bound) : given;
  const binding = clip === given ? bound : null;
  const clipId = registerAsset(assets.clips, assets.clipIds, clip);
  Layers.clip[li] = clipId;
  if (skeleton.curves.length > 0) resolveCurveMap(world, skeleton, clipId); // a skeleton without curves has no map (and no call per switch)
  const track = getRootTrack(clip);
  assets.rootTracks[clipId] = track;
  Layers.rootAxis[li] = play.rootAxis === 'forward' ? ROOT_AXIS_FORWARD : play.rootAxis === 'lateral' ? ROOT_AXIS_LATERAL : ROOT_AXIS_FREE;
  // Hip-height ratio (root-motion normalization): a character with shorter legs takes shorter
  // steps; a bound clip's travel takes its binding's ratio, as its hips do. A baked clip's
  // travel carries the ratio already: without hip scaling it is taken back out.
  Layers.rootScale[li] = !play.hipScaling ? (clip === given ? 1 : 1 / bound!.hipRatio)
    : binding !== null ? binding.hipRatio
      : skeleton.hipHeight > 0 && track.hipHeight > 0 ? skeleton.hipHeight / track.hipHeight : 1;
  if (binding !== null) Layers.binding[li] = registerAsset(assets.bindings, assets.bindingIds, binding);
  Layers.time[li] = play.time;
  if (play.loop) wrapClipTimeAt(Layers.time, li, clip);
  else Layers.time[li] = Math.min(Math.max(play.time, 0), clip.duration);
  Layers.speed[li] = play.speed;
  Layers.weight[li] = play.weight;
  Layers.flags[li] = layerFlags(play.loop, play.additive ? BLEND_ADDITIVE : BLEND_OVERRIDE, layered);
  if (play.mask) Layers.mask[li] = registerMask(world, play.mask);
  if (play.additive) Layers.reference[li] = registerReference(world, play.reference, play.referenceTime, skeleton, play.translation);
  if (play.syncGroup >= 0) joinSyncGroup(world, eid, li, clip, play);
}

/**
 * The clip a layer plays for `clip` on a character of `skeleton` with the default binding:
 * `clip` itself, or its copy baked onto `skeleton` (see `bakeRetargeted`). Allocates nothing
 * once both are made (blend spaces ask every update which slot plays which sample).
 */
export function playedClip(clip: Clip, skeleton: Skeleton): Clip {
  const binding = bindClip(clip, skeleton);
  return playsBaked(clip, binding) ? bakeRetargeted(clip, binding) : clip;
}

/** The hip ratio a baked clip carries (its default binding's), for {@link playedClip}'s baked clips. */
export function bakedRatio(clip: Clip, skeleton: Skeleton): number {
  return bindClip(clip, skeleton)?.hipRatio ?? 1;
}

/**
 * Puts layer slot `li` (just written, not yet in a group) into its sync group: when another
 * weighted member of the group plays (the group's leader, `measureSyncGroup`, has weight > 0),
 * the layer takes the group's rate and, unless `play.timeGiven`, its phase:
 * time = ((φ + offset) mod 1)·D (synced by markers, the next frame's warp then moves it to
 * the leader's place between markers). Otherwise the layer's speed becomes the group's rate.
 */
function joinSyncGroup(world: AnimationWorld, eid: number, li: number, clip: Clip, play: ResolvedPlay): void {
  const { Layers } = world.components;
  const leader = measureSyncGroup(SYNC, Layers, world.assets.clips, eid * Layers.maxLayers, (eid + 1) * Layers.maxLayers, play.syncGroup);
  Layers.syncGroup[li] = play.syncGroup;
  Layers.phaseOffset[li] = play.phaseOffset;
  Layers.syncBy[li] = play.syncBy;
  if (play.syncBy === SYNC_BY_MARKERS) registerSyncMarkers(world, li, clip);
  if (leader < 0 || !(Layers.weight[leader] > 0)) {
    Layers.syncRate[li] = play.speed;
    return;
  }
  const rate = Layers.syncRate[leader];
  Layers.syncRate[li] = rate;
  Layers.speed[li] = rate;
  if (!play.timeGiven && clip.duration > 0) {
    // wrapTime(·, 1) twice, written out (no double crosses a call): the leader's phase, then it plus the offset.
    let phase = SYNC[SYNC_PHASE];
    phase -= Math.floor(phase);
    if (phase >= 1) phase = 0;
    phase += play.phaseOffset;
    phase -= Math.floor(phase);
    if (phase >= 1) phase = 0;
    Layers.time[li] = phase * clip.duration;
    if (Layers.time[li] >= clip.duration) Layers.time[li] = 0;
  }
}

/** {@link measureSyncGroup}'s results. */
const SYNC = new Float64Array(2);

/**
 * Registers the sync markers of `clip`, played on slot `li`, for marker sync (a clip joining a
 * group by phase needs none: it keeps the phase rule). Out of line so the callers stay small
 * enough for V8 to inline the helpers they pass doubles to.
 */
function registerSyncMarkers(world: AnimationWorld, li: number, clip: Clip): void {
  world.assets.syncMarkers[world.components.Layers.clip[li]] = getSyncMarkers(clip);
}

