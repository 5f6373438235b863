/**
 * Layer rules in one place: what a layer slot's stored fields (`Layers`, see Layers.ts) mean
 * to the systems and commands that read them. Every test of `Layers.flags` and every sync-group
 * computation in `src/` goes through this file, so "which layers are override, additive or
 * carry root motion" and "what is a sync group's cycle" have one answer.
 *
 * Blend mode: a layer is `BLEND_OVERRIDE` (its pose blends with the other override layers by
 * normalized weight) or `BLEND_ADDITIVE` (its difference D = S·R⁻¹ from a reference pose is
 * applied on top of that blend with weight β). The mode is a value derived from the stored
 * `LAYER_ADDITIVE` bit by {@link blendMode}; the pools keep their layout (and the frame's
 * bit-for-bit record, test/frameHash.test.ts, its bytes).
 *
 * | predicate | true for slot `li` when | read by |
 * | --- | --- | --- |
 * | {@link blendsAs} | a clip, weight > 0: `BLEND_OVERRIDE`; `BLEND_ADDITIVE` with a reference pose | the layer plan (systems/layerPlan.ts), at any instant's weight |
 * | {@link isOverride} | `blendsAs` at the stored weight is `BLEND_OVERRIDE` | rootMotionSystem, footLockSystem, the commands |
 * | {@link isAdditive} | `blendsAs` at the stored weight is `BLEND_ADDITIVE` | the commands |
 * | {@link movesRoot} | = `isOverride`: additive layers hold differences, not travel | rootMotionSystem, setTargetSpeed, setBlendSpace |
 * | {@link loops} | `LAYER_LOOP`: wraps at the clip's end (else clamps) | sampleSystem, inertializeCapture |
 * | {@link clearsAfterFade} | `LAYER_CLEAR_AFTER_FADE`: a cross-fade's outgoing copy, emptied when its fade ends | sampleSystem, setBlendSpace |
 *
 * Sync groups: {@link measureSyncGroup} gives a group's leader, cycle duration and phase
 * (the rule `Layers.syncGroup` documents); sampleSystem, `play`, `setBlendSpace` and
 * `setTargetSpeed` all use it.
 *
 * The predicates are small enough for V8 to inline into the systems' per-layer loops (which
 * read the same fields they did). They take integers only and allocate nothing.
 */
import { LAYER_ADDITIVE, LAYER_CLEAR_AFTER_FADE, LAYER_LOOP, type LayersComponent } from './Layers.js';

/** Blend mode: blended with the other override layers by normalized weight (the default). */
export const BLEND_OVERRIDE = 0;
/** Blend mode: the difference from a reference pose, applied on top of the override blend with weight β. */
export const BLEND_ADDITIVE = 1;
/** A layer's blend mode, {@link BLEND_OVERRIDE} or {@link BLEND_ADDITIVE}. */
export type BlendMode = typeof BLEND_OVERRIDE | typeof BLEND_ADDITIVE;

/** The blend mode of slot `li` (`li = eid × layers.maxLayers + layer`), from its stored flags. */
export function blendMode(layers: LayersComponent, li: number): BlendMode {
  return (layers.flags[li] & LAYER_ADDITIVE) === 0 ? BLEND_OVERRIDE : BLEND_ADDITIVE;
}

/** The `Layers.flags` of a layer that plays (looping or clamped) in blend mode `mode`: the one place flags are composed. */
export function layerFlags(loop: boolean, mode: BlendMode): number {
  return (loop ? LAYER_LOOP : 0) | (mode === BLEND_ADDITIVE ? LAYER_ADDITIVE : 0);
}

/** `flags` of a layer, marked to be emptied when its weight fade ends (a cross-fade's outgoing copy). */
export function fadingOutFlags(flags: number): number {
  return flags | LAYER_CLEAR_AFTER_FADE;
}

/** Whether slot `li` wraps at its clip's end (else it clamps). */
export function loops(layers: LayersComponent, li: number): boolean {
  return (layers.flags[li] & LAYER_LOOP) !== 0;
}

/** Whether slot `li` is emptied when its weight fade ends. */
export function clearsAfterFade(layers: LayersComponent, li: number): boolean {
  return (layers.flags[li] & LAYER_CLEAR_AFTER_FADE) !== 0;
}

/** {@link blendsAs} of a slot that takes no part in the blend: no clip, no weight, or an additive layer without a reference pose. */
export const BLEND_NONE = -1;

/**
 * How slot `li` takes part in a blend where its weight is `weight` (its stored weight now; a
 * transition's capture passes its weight at another instant): {@link BLEND_OVERRIDE} with a
 * clip and weight > 0 in blend mode override; {@link BLEND_ADDITIVE} likewise in blend mode
 * additive with a reference pose; else {@link BLEND_NONE}. The one rule the layer plan
 * (systems/layerPlan.ts), {@link isOverride} and {@link isAdditive} apply.
 */
export function blendsAs(layers: LayersComponent, li: number, weight: number): BlendMode | typeof BLEND_NONE {
  if (!(layers.clip[li] >= 0 && weight > 0)) return BLEND_NONE;
  if ((layers.flags[li] & LAYER_ADDITIVE) === 0) return BLEND_OVERRIDE;
  return layers.reference[li] >= 0 ? BLEND_ADDITIVE : BLEND_NONE;
}

/** Whether slot `li` counts in the override blend now: a clip, weight > 0, blend mode override. */
export function isOverride(layers: LayersComponent, li: number): boolean {
  return blendsAs(layers, li, layers.weight[li]) === BLEND_OVERRIDE;
}

/** Whether slot `li` applies as an additive layer now: a clip, weight > 0, blend mode additive, a reference pose. */
export function isAdditive(layers: LayersComponent, li: number): boolean {
  return blendsAs(layers, li, layers.weight[li]) === BLEND_ADDITIVE;
}

/**
 * Whether slot `li` carries root motion: exactly the layers of the override blend (an additive
 * layer holds a difference from its reference, not travel; a weightless one moves nothing).
 * Root motion blends their deltas by the same normalized weights as their poses.
 */
export function movesRoot(layers: LayersComponent, li: number): boolean {
  return isOverride(layers, li);
}

/** The sync groups that have a member playing among the slots `first .. first + layers.maxLayers − 1`, as bits (1 << group). */
export function playingSyncGroups(layers: LayersComponent, first: number): number {
  const { clip, syncGroup, maxLayers } = layers;
  let groups = 0;
  for (let li = first, last = first + maxLayers; li < last; li++) {
    const g = syncGroup[li];
    if (g >= 0 && clip[li] >= 0) groups |= 1 << g;
  }
  return groups;
}

/** `out` index of {@link measureSyncGroup}: the group's cycle duration D_g, seconds. */
export const SYNC_DURATION = 0;
/** `out` index of {@link measureSyncGroup}: the group's phase φ in cycles, from its leader. */
export const SYNC_PHASE = 1;

/**
 * Sync group `group` among the slots `first .. end − 1` (a character's, or part of them): over
 * its members (slots with a clip of duration > 0 in the group),
 *
 * 1. D_g = Σ wᵢDᵢ / Σ wᵢ over members with weight > 0 (the plain mean of Dᵢ when none is);
 * 2. leader L = the member of highest weight (ties: lowest slot);
 * 3. φ = time_L / D_L − offset_L, less its whole cycles (in [0, 1], 1 only by rounding).
 *
 * Writes D_g to `out[SYNC_DURATION]` and φ to `out[SYNC_PHASE]` (through an array: a returned
 * double would be boxed) and returns L, or −1 when the group has no member (`out` untouched).
 * The group's rate is the leader's `syncRate`. `clips` is the world's clip registry.
 */
export function measureSyncGroup(
  out: Float64Array, layers: LayersComponent, clips: readonly { readonly duration: number }[], first: number, end: number, group: number,
): number {
  const { clip: clipIds, syncGroup, weight } = layers;
  let sumW = 0, sumWD = 0, sumD = 0, count = 0, leader = -1, leaderW = -1;
  for (let li = first; li < end; li++) {
    const clipId = clipIds[li];
    if (syncGroup[li] !== group || clipId < 0) continue;
    const duration = clips[clipId].duration;
    if (!(duration > 0)) continue;
    const w = weight[li];
    count++;
    sumD += duration;
    if (w > 0) { sumW += w; sumWD += w * duration; }
    if (w > leaderW) { leader = li; leaderW = w; }
  }
  if (leader < 0) return -1;
  out[SYNC_DURATION] = sumW > 0 ? sumWD / sumW : sumD / count;
  const phase = layers.time[leader] / clips[clipIds[leader]].duration - layers.phaseOffset[leader];
  out[SYNC_PHASE] = phase - Math.floor(phase);
  return leader;
}
