/**
 * blendSystem — the pose stage: samples each character's active layers (in cache, into a
 * per-thread scratch) and combines them into its `LocalPose`.
 *
 * Reads:  Character.skeleton/jointCount, Layers.clip/time/binding/weight/flags/mask/reference,
 *         Lod.enabled/level and `world.lod.clipLevels`, the clip, binding, skeleton, mask,
 *         reference-pose and curve-map registries, `world.blendThreshold`, Curves.count.
 * Writes: LocalPose, Curves.values (and this thread's `world.scratch.layerSamples`).
 * Order:  after sampleSystem (which moves the layers' times and weights), before
 *         inertializeSystem and skinSystem. Visits the update list (`world.updates`):
 *         characters `lodSystem` is not updating this frame keep their `LocalPose`.
 *
 * Sampling: each layer the blend reads (override or additive, below) is sampled from its clip
 * at its time (`sampleClipInto`: the clip at the character's LOD level, `world.lod.clipLevels`;
 * reduced clips from their curves; a bound clip through its binding) into its slot of
 * `layerSamples` (`world.maxLayers × maxJoints × 10` floats per thread, no pool per character).
 * A single unmasked override layer at or above the threshold is the blend: it is sampled
 * straight into `LocalPose`, which gives the same bits as sampling then copying. Two unmasked
 * override layers of dense unbound clips, between keys, are sampled and blended in one pass
 * per joint (`sampleBlendTwoLayers`): the same arithmetic with the two layer poses kept in
 * registers as doubles instead of stored as float32 in `layerSamples` and read back.
 *
 * Per joint j (GEA "LERP blending", "partial-skeleton blending", "additive blending"):
 * Which layers are override and which additive: `isOverride` / `isAdditive`
 * (components/layerRules.ts).
 * 1. Override layers (not additive, weight > 0) blend by normalized weights
 *    w_k = weight_k × mask_k[j]: T and S by weighted mean, Q by the normalized weighted sum
 *    with each quaternion flipped into the first one's hemisphere (nlerp, as ozz). When the
 *    total W is below the threshold θ the rest pose joins with weight θ − W, so at W = 0 the
 *    joint is exactly at rest and fades there smoothly.
 * 2. Additive layers then apply in layer order: with S the layer's pose and R its reference,
 *    the difference D = S·R⁻¹ (Q_D = Q_S·Q_R⁻¹, T_D = T_S − T_R, S_D = S_S / S_R) is applied to
 *    the current pose T as A = D·T (Q_A = Q_D·Q_T, T_A = T_D + T_T, S_A = S_D·S_T), then
 *    blended as lerp(T, A, β) with β = weight × mask[j] (Q by nlerp).
 *
 * Float curves (`Curves`): after the chunk's poses, `blendCurvesEntities`
 * (blendCurves.ts) blends the clips' curves of its characters that have curves with the same
 * layer weights (no masks; additive layers add β·(s − r)), on both kernel paths.
 *
 * With WebAssembly kernels (`world.kernels === 'wasm'`) the chunk goes to `blendEntitiesWasm`
 * (src/wasm/blendWasm.ts): a layer of a dense clip, unbound or through a proportions-only
 * binding, is sampled by the SIMD kernels `sampleClip` / `sampleBound`, the override blend runs
 * on `blendOverride` (unmasked) or `blendOverrideMasked`, additive layers on `applyAdditive`
 * (assembly/kernels.ts), within float32 rounding of this path (docs/wasm.md); the rest as here.
 */
import { commitRemovals } from 'bitecs';
import type { Clip } from '../assets/Clip.js';
import type { Binding } from '../assets/bindingTypes.js';
import { sampleBlendTwoInto, sampleClipInto } from '../assets/sampleClip.js';
import type { LayersComponent } from '../components/Layers.js';
import { isAdditive, isOverride } from '../components/layerRules.js';
import { lodClipId } from '../components/Lod.js';
import { updateRange } from '../components/UpdateList.js';
import { applyAdditiveLayer, blendOverrideLayers, blendTwoLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import { blendEntitiesWasm } from '../wasm/blendWasm.js';
import { blendCurvesEntities } from './blendCurves.js';
import { syncKernelArea } from '../wasm/kernels.js';
import type { AnimationWorld, ScratchOf } from '../world.js';

/**
 * blendSystem's scratch (FrameSystem.scratch, built once per world and per thread): the layers
 * of the character being blended — their sampled poses (`layerSamples`, slot n at
 * `n × maxJoints × 10`, in the pool buffer so the WebAssembly kernels reach it), and the
 * override layers' pose offsets, weights and masks (`world.maxLayers` each).
 */
export const blendScratch = {
  layerSamples: (maxJoints: number, alloc: PoolAllocator, maxLayers: number): Float32Array => alloc.array(Float32Array, maxLayers * maxJoints * POSE_STRIDE),
  layerOff: (_maxJoints: number, _alloc: PoolAllocator, maxLayers: number): Int32Array => new Int32Array(maxLayers),
  layerWeight: (_maxJoints: number, _alloc: PoolAllocator, maxLayers: number): Float32Array => new Float32Array(maxLayers),
  layerMask: (_maxJoints: number, _alloc: PoolAllocator, maxLayers: number): (Float32Array | null)[] => new Array<Float32Array | null>(maxLayers).fill(null),
};

declare module '../world.js' {
  // Its type, merged into world.scratch's (world.ts imports no system).
  interface Scratch extends ScratchOf<typeof blendScratch> {}
}

/** Samples and blends every character's layers into its local pose; see the file header. */
export function blendSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  if (world.wasm !== null) syncKernelArea(world.wasm, world.assets.skeletons, world.assets.clips);
  blendEntities(world, dt, 0, world.characters.dense.length);
}

/**
 * Samples layer slot `li` (a clip, `li = eid × layers.maxLayers + layer`) at its time into `out` at
 * `outOff`: its clip at LOD level `level` (−1: the clip itself; `clipLevels` is
 * `world.lod.clipLevels`), through its binding if it has one. What sampleSystem sampled into
 * the layer's pose in a component before; takes only integers and arrays (see {@link sampleClipInto}).
 */
export function sampleLayer(
  out: Float32Array, outOff: number, layers: LayersComponent, li: number, level: number,
  clips: readonly Clip[], clipLevels: Int32Array, bindings: readonly Binding[],
): void {
  const clipId = layers.clip[li];
  const bindingId = layers.binding[li];
  sampleClipInto(out, outOff, clips[level < 0 ? clipId : lodClipId(clipLevels, clipId, level)], layers.time, li, bindingId < 0 ? null : bindings[bindingId]);
}

/**
 * Two unmasked override layers (slots `liA` and `liB`, weights `layerWeight[0]` and
 * `layerWeight[1]`, summing to at least the blend threshold) sampled at their times and blended
 * into `out` at `outOff` in one pass ({@link sampleBlendTwoInto}), when both clips at LOD level
 * `level` (as {@link sampleLayer} picks them) are dense, unbound and of `jointCount` joints and
 * neither time falls on a key. Returns false, having written nothing, otherwise: the caller
 * samples both layers and blends them with `blendTwoLayers`. The result differs from those two
 * steps by float32 rounding only (the layer poses are not rounded on the way): within one float32
 * ulp per LocalPose element on test/frameHash.test.ts's crowd. Inertialization's captures
 * (`blendLayersNow`) keep the two steps, whose velocities over 1 ms would magnify that ulp.
 */
export function sampleBlendTwoLayers(
  out: Float32Array, outOff: number, layers: LayersComponent, liA: number, liB: number, level: number,
  clips: readonly Clip[], clipLevels: Int32Array, layerWeight: Float32Array, jointCount: number,
): boolean {
  if (layers.binding[liA] >= 0 || layers.binding[liB] >= 0) return false;
  const clipA = clips[lodClipId(clipLevels, layers.clip[liA], level)];
  const clipB = clips[lodClipId(clipLevels, layers.clip[liB], level)];
  if (clipA.reduced !== null || clipB.reduced !== null || clipA.skeleton.jointCount !== jointCount || clipB.skeleton.jointCount !== jointCount) return false;
  return sampleBlendTwoInto(out, outOff, clipA, clipB, layers.time, liA, liB, layerWeight, jointCount);
}

/** The work of {@link blendSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function blendEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  if (world.wasm !== null) {
    blendEntitiesWasm(world, world.wasm, dt, first, end);
    blendCurvesEntities(world, first, updateRange(world.updates, world.characters.dense, dt, first, end)); // curves on JavaScript
    return;
  }
  const { Character, Layers, LocalPose } = world.components;
  const { weight, mask, reference, maxLayers } = Layers;
  const { skeletons, masks, references, clips, bindings } = world.assets;
  const { layerOff, layerWeight, layerMask, layerSamples: samples } = world.scratch;
  const { enabled: lodOn, level: lodLevel } = world.components.Lod;
  const clipLevels = world.lod.clipLevels;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    const jointCount = Character.jointCount[eid];
    const rest = skeletons[Character.skeleton[eid]].rest;
    const outOff = eid * poseSize;
    const level = lodOn[eid] === 0 ? -1 : lodLevel[eid];
    const firstLayer = eid * maxLayers;

    let count = 0;
    let single = -1, second = -1; // the slots of the first two override layers, for the one- and two-layer paths
    for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
      if (!isOverride(Layers, li)) continue;
      if (count === 0) single = li;
      else if (count === 1) second = li;
      layerOff[count] = (li - firstLayer) * poseSize;
      layerWeight[count] = weight[li];
      layerMask[count] = mask[li] >= 0 ? masks[mask[li]] : null;
      count++;
    }
    if (count === 1 && layerMask[0] === null && layerWeight[0] >= threshold[0]) {
      // One unmasked layer above the threshold: its pose is the blend, sampled in place.
      sampleLayer(local, outOff, Layers, single, level, clips, clipLevels, bindings);
    } else if (count === 2 && layerMask[0] === null && layerMask[1] === null && layerWeight[0] + layerWeight[1] >= threshold[0]) {
      // Two unmasked layers, the rest pose out of it: sampled and blended in one pass where
      // both clips are dense and unbound, else sampled, then the written-out kernel (same bits
      // as blendOverrideLayers).
      if (!sampleBlendTwoLayers(local, outOff, Layers, single, second, level, clips, clipLevels, layerWeight, jointCount)) {
        sampleLayer(samples, layerOff[0], Layers, single, level, clips, clipLevels, bindings);
        sampleLayer(samples, layerOff[1], Layers, second, level, clips, clipLevels, bindings);
        blendTwoLayers(local, outOff, samples, layerOff[0], layerOff[1], layerWeight, jointCount);
      }
    } else {
      for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
        if (isOverride(Layers, li)) sampleLayer(samples, (li - firstLayer) * poseSize, Layers, li, level, clips, clipLevels, bindings);
      }
      blendOverrideLayers(local, outOff, rest, samples, layerOff, layerWeight, layerMask, count, jointCount, threshold);
    }

    for (let li = firstLayer, last = li + maxLayers; li < last; li++) {
      if (!isAdditive(Layers, li)) continue;
      const layerOffset = (li - firstLayer) * poseSize;
      sampleLayer(samples, layerOffset, Layers, li, level, clips, clipLevels, bindings);
      const layerMaskWeights = mask[li] >= 0 ? masks[mask[li]] : null;
      applyAdditiveLayer(local, outOff, samples, layerOffset, references[reference[li]], weight, li, layerMaskWeights, jointCount);
    }
  }
  blendCurvesEntities(world, first, last);
}

export { applyAdditiveLayer, blendOverrideLayers }; // the kernels, exported with their system for tests
