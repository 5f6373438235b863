import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * The most layer slots a character can have: the upper bound of `createAnimationWorld`'s
 * `maxLayers` option (each world has `world.maxLayers` slots per character, layer 0 the base,
 * higher layers blending over it in order). Not a world's stride: index a world's `Layers`
 * with `eid × world.maxLayers + layer` (= `Layers.maxLayers`).
 */
export const MAX_LAYERS = 16;

/** Layer slots per character when `createAnimationWorld` is given no `maxLayers`. */
export const DEFAULT_MAX_LAYERS = 4;

/** `Layers.flags` bit: the layer's clip wraps at its end (else it clamps). */
export const LAYER_LOOP = 1;
/** `Layers.flags` bit: the layer is additive (applied on top of the override blend). */
export const LAYER_ADDITIVE = 2;

/** `Layers.flags` bit: empty the slot when its weight fade ends (a cross-fade's source). */
export const LAYER_CLEAR_AFTER_FADE = 4;

/**
 * `Layers.flags` bit: an override layer in blend mode `'layer'` (`play`'s default): it lerps the
 * blend of the layers below it toward its pose by weight × mask (see components/layerRules.ts).
 * Clear: `'average'`, the normalized weighted average with the layers below (ozz-animation's rule),
 * so a world whose layers all average keeps the flags it had before the mode existed.
 */
export const LAYER_LAYERED = 8;

/**
 * `Layers.flags` bits 4–7: on a cross-fade's outgoing copy of a `'layer'` layer
 * (`LAYER_CLEAR_AFTER_FADE | LAYER_LAYERED`), the slot (0 … 15, `MAX_LAYERS` = 16) whose place in
 * the stack it keeps: it blends as one layer with that slot's new clip wherever a free slot held it.
 */
export const LAYER_STANDS_IN_SHIFT = 4;

/** `Layers.rootAxis`: the clip's root travel is used as it is. */
export const ROOT_AXIS_FREE = 0;
/** `Layers.rootAxis`: a forward (or backward) clip: only travel along Z is kept. */
export const ROOT_AXIS_FORWARD = 1;
/** `Layers.rootAxis`: a sideways clip: only travel along X is kept. */
export const ROOT_AXIS_LATERAL = 2;

/** `Layers.syncBy`: the group's members play at one normalized phase (the default). */
export const SYNC_BY_PHASE = 0;
/** `Layers.syncBy`: the group's members are warped between matching sync markers (src/assets/syncMarkers.ts). */
export const SYNC_BY_MARKERS = 1;

/** `Layers.clip` value of an empty slot. */
export const NO_CLIP = -1;

/**
 * `Layers`: `maxLayers` clip slots per character (the world's `maxLayers`, default
 * `DEFAULT_MAX_LAYERS` = 4, at most `MAX_LAYERS` = 16) — the blend weights and playback state.
 *
 * Slot `(eid, layer)` lives at index `li = eid × maxLayers + layer` of every scalar array.
 * - `maxLayers`: the slots per character (a number, not a pool): systems read it once per call.
 * - `clip[li]`: clip id in the world's registry, or `NO_CLIP`.
 * - `time[li]`: playback time in seconds, in [0, duration) when looping, [0, duration] clamped.
 *   Float64 so long-running loops do not drift.
 * - `speed[li]`: playback rate (1 = authored speed; negative plays backwards). Rewritten every
 *   frame for a member of a sync group (see `syncGroup`).
 * - `weight[li]`: blend weight ≥ 0 (an override layer's a = weight × mask[j] in its blend mode's
 *   rule, components/layerRules.ts; an additive layer's weight is its β).
 * - `flags[li]`: `LAYER_LOOP | LAYER_ADDITIVE | LAYER_CLEAR_AFTER_FADE | LAYER_LAYERED`, and on
 *   a `'layer'` layer's cross-fade copy the slot it stands in for (bits 4–7,
 *   `LAYER_STANDS_IN_SHIFT`); composed and read only through components/layerRules.ts
 *   (`layerFlags`, `blendMode`, `layersOver`, `loops`, …).
 * - `mask[li]`: mask id (per-joint weights) or −1 for all joints.
 * - `reference[li]`: reference-pose id of an additive layer, or −1.
 * - `binding[li]`: binding id when the clip was made for another skeleton (joints matched by
 *   name), or −1 when its joints are already in the character's order.
 * - `fadeCurve[li]`: 0, or the curve (a `FADE_*` kind of math/fadeCurves.ts) of a
 *   weight fade in progress: the weight goes from `fadeFrom[li]` to `fadeTo[li]` over
 *   `fadeDuration[li]` seconds, `fadeElapsed[li]` so far (cross-fades are two such fades).
 * - `rootDelta[li × 3 ..]`: this frame's displacement of the clip's root-motion joint (x, y, z;
 *   whole loop cycles added across wraps), written by `sampleSystem`. In model space; for a
 *   character with yaw extraction (`RootMotion.extractYaw`) its horizontal part is instead
 *   in the joint's heading frame at the frame's start time (x, z turned by −ψ there), so it
 *   can be applied after the turn the layer made before it.
 * - `rootYaw[li]`: this frame's turn of that joint about +Y, radians (whole cycles' yaw
 *   added across wraps), written by `sampleSystem` only for characters with yaw extraction
 *   (else it stays 0).
 * - `rootScale[li]`: factor on that displacement (the hip-height ratio, later stride scales).
 * - `rootAxis[li]`: `ROOT_AXIS_FREE | ROOT_AXIS_FORWARD | ROOT_AXIS_LATERAL` (axis restriction).
 * - `syncGroup[li]`: phase sync group 0 … maxLayers − 1 of the character, or −1 (none).
 *   The looping clips of one group play at one normalized phase (`measureSyncGroup` in
 *   components/layerRules.ts computes the rule below): each frame `sampleSystem` snaps every member to the phase of the group's leader (its highest-weight member, ties:
 *   lowest layer) plus the member's `phaseOffset`, and sets the member's `speed` so it covers
 *   one cycle per group cycle duration D_g = Σ wᵢDᵢ / Σ wᵢ (the weight average; the plain mean
 *   when no member is weighted).
 * - `syncRate[li]`: the group's playback rate as the user set it (1 = one cycle per D_g
 *   seconds); the leader's value applies. Default 1.
 * - `phaseOffset[li]`: the member's start-phase offset in cycles, [0, 1): its time is
 *   ((φ + offset) mod 1) × its duration for group phase φ.
 * - `syncBy[li]`: `SYNC_BY_PHASE` (0) or `SYNC_BY_MARKERS` (1). A group whose leader is
 *   `SYNC_BY_MARKERS` syncs by markers: each other member that is `SYNC_BY_MARKERS` too and
 *   shares a marker name with the leader takes, instead of the phase rule, the time the
 *   leader's place between its markers maps to and the leader's speed × its segment ratio
 *   (`warpToMarkers`, src/assets/syncMarkers.ts); its `phaseOffset` is then not used. Other
 *   members (by phase, or sharing no marker name) keep the phase rule.
 *
 * No pose is stored per layer: blendSystem samples each layer it blends into a per-thread
 * scratch, so a character's layers cost bytes per slot, not per joint.
 */
export interface LayersComponent {
  readonly maxLayers: number;
  readonly clip: Int32Array;
  readonly time: Float64Array;
  readonly speed: Float32Array;
  readonly weight: Float32Array;
  readonly flags: Uint8Array;
  readonly mask: Int32Array;
  readonly reference: Int32Array;
  readonly binding: Int32Array;
  readonly fadeCurve: Uint8Array;
  readonly fadeFrom: Float32Array;
  readonly fadeTo: Float32Array;
  readonly fadeElapsed: Float32Array;
  readonly fadeDuration: Float32Array;
  readonly rootDelta: Float32Array;
  readonly rootYaw: Float32Array;
  readonly rootScale: Float32Array;
  readonly rootAxis: Uint8Array;
  readonly syncGroup: Int8Array;
  readonly syncRate: Float32Array;
  readonly phaseOffset: Float32Array;
  readonly syncBy: Uint8Array;
}

/** Creates the `Layers` component for `rows` entity ids of `maxLayers` slots each (validated by `createAnimationWorld`). */
export function createLayersComponent(rows: number, alloc: PoolAllocator = heapAllocator, maxLayers = DEFAULT_MAX_LAYERS): LayersComponent {
  const slots = rows * maxLayers;
  return {
    maxLayers,
    clip: alloc.array(Int32Array, slots).fill(NO_CLIP),
    time: alloc.array(Float64Array, slots),
    speed: alloc.array(Float32Array, slots),
    weight: alloc.array(Float32Array, slots),
    flags: alloc.array(Uint8Array, slots),
    mask: alloc.array(Int32Array, slots).fill(-1),
    reference: alloc.array(Int32Array, slots).fill(-1),
    binding: alloc.array(Int32Array, slots).fill(-1),
    fadeCurve: alloc.array(Uint8Array, slots),
    fadeFrom: alloc.array(Float32Array, slots),
    fadeTo: alloc.array(Float32Array, slots),
    fadeElapsed: alloc.array(Float32Array, slots),
    fadeDuration: alloc.array(Float32Array, slots),
    rootDelta: alloc.array(Float32Array, slots * 3),
    rootYaw: alloc.array(Float32Array, slots),
    rootScale: alloc.array(Float32Array, slots).fill(1),
    rootAxis: alloc.array(Uint8Array, slots),
    syncGroup: alloc.array(Int8Array, slots).fill(-1),
    syncRate: alloc.array(Float32Array, slots).fill(1),
    phaseOffset: alloc.array(Float32Array, slots),
    syncBy: alloc.array(Uint8Array, slots),
  };
}

/**
 * `Layers`' row lifecycle: every slot of the entity emptied ({@link clearLayer}). The fade
 * parameters are kept: nothing reads them before they are written again.
 */
export const layersRows: RowLifecycle<LayersComponent> = {
  reset(layers: LayersComponent, eid: number): void {
    const first = eid * layers.maxLayers;
    for (let li = first; li < first + layers.maxLayers; li++) clearLayer(layers, li);
  },
  kept: {
    fadeFrom: 'read only while fadeCurve is not 0; a fade start writes it with fadeCurve',
    fadeTo: 'read only while fadeCurve is not 0; a fade start writes it with fadeCurve',
    fadeElapsed: 'read only while fadeCurve is not 0; a fade start writes it with fadeCurve',
    fadeDuration: 'read only while fadeCurve is not 0; a fade start writes it with fadeCurve',
  },
};

/** Empties one layer slot (`li = eid × layers.maxLayers + layer`). */
export function clearLayer(layers: LayersComponent, li: number): void {
  layers.clip[li] = NO_CLIP;
  layers.time[li] = 0;
  layers.speed[li] = 1;
  layers.weight[li] = 0;
  layers.flags[li] = 0;
  layers.mask[li] = -1;
  layers.reference[li] = -1;
  layers.binding[li] = -1;
  layers.fadeCurve[li] = 0;
  layers.rootDelta[li * 3] = 0;
  layers.rootDelta[li * 3 + 1] = 0;
  layers.rootDelta[li * 3 + 2] = 0;
  layers.rootYaw[li] = 0;
  layers.rootScale[li] = 1;
  layers.rootAxis[li] = ROOT_AXIS_FREE;
  layers.syncGroup[li] = -1;
  layers.syncRate[li] = 1;
  layers.phaseOffset[li] = 0;
  layers.syncBy[li] = SYNC_BY_PHASE;
}
