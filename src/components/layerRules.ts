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
 * | {@link layersOver} | `LAYER_LAYERED`: an override layer in blend mode `'layer'` (else `'average'`) | the layer plan, the curves, root motion, setBlendSpace |
 * | {@link standsInFor} | a `'layer'` layer's cross-fade copy: the slot whose place it keeps | {@link planOverrideSteps} |
 * | {@link isOverride} | `blendsAs` at the stored weight is `BLEND_OVERRIDE` | rootMotionSystem, footLockSystem, the commands |
 * | {@link isAdditive} | `blendsAs` at the stored weight is `BLEND_ADDITIVE` | the commands |
 * | {@link movesRoot} | = `isOverride`: additive layers hold differences, not travel | rootMotionSystem, setTargetSpeed, setBlendSpace |
 * | {@link loops} | `LAYER_LOOP`: wraps at the clip's end (else clamps) | sampleSystem, inertializeCapture |
 * | {@link clearsAfterFade} | `LAYER_CLEAR_AFTER_FADE`: a cross-fade's outgoing copy, emptied when its fade ends | sampleSystem, setBlendSpace |
 *
 * Override rule (`play`'s `blend`): an override layer is `'layer'` ({@link layersOver}, the
 * `LAYER_LAYERED` bit; `play`'s default) or `'average'` (the bit clear). Per joint j, the override
 * layers are taken in slot order with a running weighted sum `acc` and total `W`, a = weight × mask[j]:
 * - an `'average'` layer joins the blend below it: acc += a·L, W += a (ozz-animation's normalized
 *   average: with every layer `'average'`, the rule before the modes existed);
 * - a `'layer'` layer (Game Engine Architecture's partial-skeleton LERP with β_j = a, Unity's
 *   override layers, Unreal's layered blend per bone): if W > 0 the result so far is normalized
 *   (acc /= W, W = 1) and lerped toward the layer's pose, acc = (1 − a)·acc + a·L (quaternions
 *   hemisphere-aligned to acc); if nothing is below (W = 0) it starts the blend as an average
 *   layer does (acc = a·L, W = a), so a lone layer at weight 0.5 still plays its clip fully;
 *   a ≥ 1 replaces what is below (1 − a is taken as 0: a weight above 1 gives the normalized
 *   average of the layer's group, below);
 * - at the end acc / W (the rest pose joining with θ − W below the blend threshold θ), the
 *   quaternion normalized; additive layers then apply on top in slot order.
 *
 * A cross-fade's outgoing copy of a `'layer'` layer keeps the place of the slot it left
 * ({@link standsInFor}): it and that slot's incoming clip are one layer of the stack, their
 * weights summed (a = Σ aᵢ, L = Σ aᵢLᵢ / a), wherever the free slot the copy took lies — so a
 * cross-fade on the base under an upper-body layer stays under it. {@link planOverrideSteps} turns
 * the rule into a plan's per-layer steps ({@link STEP_AVERAGE}, {@link STEP_LAYER},
 * {@link STEP_JOIN}); the blend kernels (math/blendPose.ts `blendLayeredLayers`, the WebAssembly
 * `blendOverrideLayered`), the curves and root motion follow them.
 *
 * Sync groups: {@link measureSyncGroup} gives a group's leader, cycle duration and phase
 * (the rule `Layers.syncGroup` documents); sampleSystem, `play`, `setBlendSpace` and
 * `setTargetSpeed` all use it.
 *
 * The predicates are small enough for V8 to inline into the systems' per-layer loops (which
 * read the same fields they did). They take integers only and allocate nothing.
 */
import { LAYER_ADDITIVE, LAYER_CLEAR_AFTER_FADE, LAYER_LAYERED, LAYER_LOOP, LAYER_STANDS_IN_SHIFT, MAX_LAYERS, type LayersComponent } from './Layers.js';

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

/**
 * The `Layers.flags` of a layer that plays (looping or clamped) in blend mode `mode`, an override
 * layer `layered` (`'layer'`) or not (`'average'`; an additive layer ignores it): the one place
 * flags are composed.
 */
export function layerFlags(loop: boolean, mode: BlendMode, layered: boolean): number {
  return (loop ? LAYER_LOOP : 0) | (mode === BLEND_ADDITIVE ? LAYER_ADDITIVE : layered ? LAYER_LAYERED : 0);
}

/**
 * `flags` of slot `slot` (0 … MAX_LAYERS − 1 of its character) for its cross-fade's outgoing
 * copy: marked to be emptied when its weight fade ends and, for a `'layer'` layer, standing in
 * for `slot` ({@link standsInFor}). An `'average'` layer's copy blends where it lies, as before
 * the modes (averaging does not depend on order), so its flags keep their old bits.
 */
export function fadingOutFlags(flags: number, slot: number): number {
  const standIn = (flags & (LAYER_LAYERED | LAYER_ADDITIVE)) === LAYER_LAYERED ? slot << LAYER_STANDS_IN_SHIFT : 0;
  return (flags & ~(15 << LAYER_STANDS_IN_SHIFT)) | LAYER_CLEAR_AFTER_FADE | standIn;
}

/** Whether slot `li` is an override layer in blend mode `'layer'` (else `'average'`; see the file header). */
export function layersOver(layers: LayersComponent, li: number): boolean {
  return (layers.flags[li] & (LAYER_LAYERED | LAYER_ADDITIVE)) === LAYER_LAYERED;
}

/**
 * The slot (of its character: 0 … maxLayers − 1) whose place in the stack slot `li` takes:
 * `own` (li's own slot number) unless `li` is a `'layer'` layer's cross-fade copy, which keeps
 * the place of the slot it was copied from.
 */
export function standsInFor(layers: LayersComponent, li: number, own: number): number {
  const flags = layers.flags[li];
  return (flags & (LAYER_CLEAR_AFTER_FADE | LAYER_LAYERED | LAYER_ADDITIVE)) === (LAYER_CLEAR_AFTER_FADE | LAYER_LAYERED) ? (flags >>> LAYER_STANDS_IN_SHIFT) & 15 : own;
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
 * How slot `li` takes part in a blend where its weight is positive or not (`weighted`: its
 * stored weight now, `weight > 0`; a transition's capture passes it at another instant):
 * {@link BLEND_OVERRIDE} with a clip and a weight in blend mode override; {@link BLEND_ADDITIVE}
 * likewise in blend mode additive with a reference pose; else {@link BLEND_NONE}. The one rule
 * the layer plan (systems/layerPlan.ts), {@link isOverride} and {@link isAdditive} apply. It
 * takes the comparison, not the weight: a double passed to a call V8 does not inline is boxed
 * (a heap number per call), a boolean is not.
 */
export function blendsAs(layers: LayersComponent, li: number, weighted: boolean): BlendMode | typeof BLEND_NONE {
  if (!(layers.clip[li] >= 0 && weighted)) return BLEND_NONE;
  if ((layers.flags[li] & LAYER_ADDITIVE) === 0) return BLEND_OVERRIDE;
  return layers.reference[li] >= 0 ? BLEND_ADDITIVE : BLEND_NONE;
}

/** Whether slot `li` counts in the override blend now: a clip, weight > 0, blend mode override. */
export function isOverride(layers: LayersComponent, li: number): boolean {
  return blendsAs(layers, li, layers.weight[li] > 0) === BLEND_OVERRIDE;
}

/** Whether slot `li` applies as an additive layer now: a clip, weight > 0, blend mode additive, a reference pose. */
export function isAdditive(layers: LayersComponent, li: number): boolean {
  return blendsAs(layers, li, layers.weight[li] > 0) === BLEND_ADDITIVE;
}

/**
 * Whether slot `li` carries root motion: exactly the layers of the override blend (an additive
 * layer holds a difference from its reference, not travel; a weightless one moves nothing).
 * Root motion blends their deltas by the same normalized weights as their poses.
 */
export function movesRoot(layers: LayersComponent, li: number): boolean {
  return isOverride(layers, li);
}

/** {@link planOverrideSteps} step: the layer joins the blend below it (acc += a·L, W += a). */
export const STEP_AVERAGE = 0;
/** {@link planOverrideSteps} step: the layer starts a `'layer'` group: the blend below normalized, then lerped toward the group by its summed a. */
export const STEP_LAYER = 1;
/** {@link planOverrideSteps} step: the layer joins the group the step before it started (a cross-fade's copy with its slot's new clip). */
export const STEP_JOIN = 2;
/** A step's slot is `step & STEP_SLOT`; its kind `step >>> STEP_KIND_SHIFT`. */
export const STEP_SLOT = 0xff;
/** See {@link STEP_SLOT}. */
export const STEP_KIND_SHIFT = 8;
/** Bit of {@link planOverrideSteps}'s answer: some step is not {@link STEP_AVERAGE}; the count is `answer & STEP_SLOT`. */
export const STEPS_LAYERED = 0x100;

/** Per step: the slot whose place it takes (a fixed-size temporary of {@link planOverrideSteps}). */
const PLACE = new Int32Array(MAX_LAYERS);

/**
 * The override layers of the character whose first slot is `first` — the slots n whose bit
 * `1 << n` is set in `overrides` ({@link blendsAs} says `BLEND_OVERRIDE` at the weights blended:
 * the caller has them, and passing a weight here would box a double per call) — as blend steps
 * into `steps` (`n | kind << STEP_KIND_SHIFT`): the
 * rule of the file header. Returns the step count, with {@link STEPS_LAYERED} set when some step
 * is not an average. Without such a step the steps are the override slots in slot order, all
 * {@link STEP_AVERAGE} (so their blend is the average's, bit for bit). Otherwise they are ordered
 * by the place each slot takes ({@link standsInFor}; within a place the slot itself, then its
 * copies in slot order), a place's first slot a {@link STEP_LAYER} when it is `'layer'` and the others {@link STEP_JOIN}; the group that
 * comes first becomes averages (nothing lies below it, where both rules agree). Allocates nothing.
 */
export function planOverrideSteps(layers: LayersComponent, first: number, overrides: number, steps: Int32Array): number {
  const maxLayers = layers.maxLayers;
  let count = 0, layered = false, copies = false;
  for (let n = 0; n < maxLayers; n++) {
    const li = first + n;
    if (((overrides >>> n) & 1) === 0) continue;
    const copy = standsInFor(layers, li, n) !== n; // a 'layer' layer's cross-fade copy
    if (copy) copies = true;
    if (layersOver(layers, li) && (count > 0 || copy)) layered = true;
    steps[count++] = n;
  }
  if (!layered) return count;
  if (!copies) {
    // No cross-fade copy: each slot is its own place, already in order, so what follows comes
    // to this: the first step an average, each later one a 'layer' step when it layers.
    for (let k = 1; k < count; k++) if (layersOver(layers, first + steps[k])) steps[k] = steps[k] | (STEP_LAYER << STEP_KIND_SHIFT);
    return count | STEPS_LAYERED;
  }
  // Order by place: within one, the slot itself first, then the copies in slot order (an
  // insertion sort of at most MAX_LAYERS steps on 2·place + (1 for a copy)).
  for (let k = 0; k < count; k++) {
    const n = steps[k], own = standsInFor(layers, first + n, n);
    const place = 2 * own + (own === n ? 0 : 1);
    let i = k;
    while (i > 0 && PLACE[i - 1] > place) {
      steps[i] = steps[i - 1];
      PLACE[i] = PLACE[i - 1];
      i--;
    }
    steps[i] = n;
    PLACE[i] = place;
  }
  let any = false;
  for (let k = 0; k < count; k++) {
    const n = steps[k];
    let kind: number;
    if (k > 0 && PLACE[k] >>> 1 === PLACE[k - 1] >>> 1) kind = (steps[k - 1] >>> STEP_KIND_SHIFT) === STEP_AVERAGE ? STEP_AVERAGE : STEP_JOIN;
    else kind = layersOver(layers, first + n) ? STEP_LAYER : STEP_AVERAGE;
    // The first place's group has nothing below it: its steps are averages.
    if (kind !== STEP_AVERAGE && PLACE[k] >>> 1 === PLACE[0] >>> 1) kind = STEP_AVERAGE;
    if (kind !== STEP_AVERAGE) any = true;
    steps[k] = n | (kind << STEP_KIND_SHIFT);
  }
  if (any) return count | STEPS_LAYERED;
  // Every step averages: slot order, for the average's bits.
  count = 0;
  for (let n = 0; n < maxLayers; n++) if (((overrides >>> n) & 1) !== 0) steps[count++] = n;
  return count;
}

/**
 * The rule of the file header for values without joints (float curves, root motion): the blend
 * of `count` steps (`steps`, {@link planOverrideSteps}) as a weighted average, each slot n's
 * effective weight into `out[n]` from its a = `a[n]` (≤ 0: none). An average step keeps a; when a
 * group of A = Σ aᵢ > 0 ends over a total W > 0, the weights before it are scaled by
 * max(0, 1 − A) / W and the total becomes max(0, 1 − A) + A (over W = 0 the group starts the
 * blend). So Σ out[n]·vₙ / Σ out[n] is the pose rule's result for one value; with every step an
 * average, out[n] = a[n]. Allocates nothing.
 */
export function layeredWeights(steps: Int32Array, count: number, a: Float64Array, out: Float64Array): void {
  let total = 0, group = 0, groupStart = -1;
  for (let k = 0; k <= count; k++) {
    const kind = k < count ? steps[k] >>> STEP_KIND_SHIFT : STEP_AVERAGE;
    if (groupStart >= 0 && kind !== STEP_JOIN) {
      if (group > 0) {
        if (total > 0) {
          const keep = group < 1 ? 1 - group : 0;
          const f = keep / total;
          for (let i = 0; i < groupStart; i++) out[steps[i] & STEP_SLOT] *= f;
          total = keep + group;
        } else {
          total = group;
        }
      }
      groupStart = -1;
    }
    if (k === count) break;
    const n = steps[k] & STEP_SLOT;
    const w = a[n] > 0 ? a[n] : 0;
    out[n] = w;
    if (kind === STEP_LAYER) {
      groupStart = k;
      group = 0;
    }
    if (groupStart >= 0) group += w;
    else total += w;
  }
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
