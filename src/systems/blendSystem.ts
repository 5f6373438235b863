/**
 * blendSystem — the pose stage: samples each character's active layers (in cache, into a
 * per-thread scratch) and combines them into its `LocalPose`.
 *
 * Reads:  Character.skeleton/jointCount, Layers.clip/time/binding/weight/flags/mask/reference,
 *         Lod.enabled/level and `world.lod.clipLevels`, the clip, binding, skeleton, mask,
 *         reference-pose and curve-map registries, `world.blendThreshold`, `world.interpolation`
 *         (a slerp blend's rotations, math/blendSlerp.ts), Curves.count.
 * Writes: LocalPose, Curves.values (and this thread's `world.scratch.layerSamples`).
 * Order:  after sampleSystem (which moves the layers' times and weights), before
 *         inertializeSystem and skinSystem. Visits the update list (`world.updates`):
 *         characters `lodSystem` is not updating this frame keep their `LocalPose`.
 *
 * The layers a character blends, their clips, times and weights come from its layer plan
 * (`planLayersNow`, systems/layerPlan.ts), blended by `blendPlan` here and `blendPlanWasm` on the
 * WebAssembly kernels — the same plan and kernels a transition's capture uses.
 *
 * Sampling: each layer the blend reads (override or additive, below) is sampled from its clip
 * at its time (`sampleClipInto`: the clip at the character's LOD level, `world.lod.clipLevels`;
 * reduced clips from their curves; a bound clip through its binding) into its slot of
 * `layerSamples` (`world.maxLayers × maxJoints × 10` floats per thread, no pool per character).
 * A single unmasked override layer at or above the threshold is the blend: it is sampled
 * straight into `LocalPose`, which gives the same bits as sampling then copying. Two unmasked
 * override layers of dense unbound clips, between keys, are sampled and blended in one pass
 * per joint (`sampleBlendTwoSlots`): the same arithmetic with the two layer poses kept in
 * registers as doubles instead of stored as float32 in `layerSamples` and read back.
 *
 * Per joint j (GEA "LERP blending", "partial-skeleton blending", "additive blending"):
 * Which layers are override and which additive: `blendsAs` (components/layerRules.ts).
 * 1. Override layers (not additive, weight > 0), a = weight_k × mask_k[j], in slot order by
 *    their blend mode (components/layerRules.ts): an `'average'` layer joins the blend below as a
 *    term of the normalized weighted average (T and S by weighted mean, Q by the normalized
 *    weighted sum with each quaternion flipped into the first one's hemisphere: nlerp, as ozz);
 *    a `'layer'` layer over others normalizes the blend below (acc /= W, W = 1) and lerps it toward
 *    its pose, acc = (1 − a)·acc + a·L (`blendLayeredLayers`; with nothing below it starts the
 *    blend as an average layer). When the total W is below the threshold θ the rest pose joins
 *    with weight θ − W, so at W = 0 the joint is exactly at rest and fades there smoothly.
 * 2. Additive layers then apply in layer order: with S the layer's pose and R its reference,
 *    the difference D = S·R⁻¹ (Q_D = Q_S·Q_R⁻¹, T_D = T_S − T_R, S_D = S_S / S_R) is applied to
 *    the current pose T as A = D·T (Q_A = Q_D·Q_T, T_A = T_D + T_T, S_A = S_D·S_T), then
 *    blended as lerp(T, A, β) with β = weight × mask[j] (Q by nlerp).
 *
 * Float curves (`Curves`): after each pose of a character that has curves, `blendCurvesOf`
 * (blendCurves.ts) blends its clips' curves by the same plan — layer weights and blend modes
 * (no masks; additive layers add β·(s − r)) — on both kernel paths.
 *
 * With WebAssembly kernels (`world.kernels === 'wasm'`) each character's plan goes to `blendPlanWasm`
 * (src/wasm/blendWasm.ts): a layer of a dense clip, unbound or through a proportions-only
 * binding, is sampled by the SIMD kernels `sampleClip` / `sampleBound`, the override blend runs
 * on `blendOverride` (unmasked), `blendOverrideMasked` or `blendOverrideLayered` (a `'layer'`
 * layer over others), additive layers on `applyAdditive`
 * (assembly/kernels.ts), within float32 rounding of this path (docs/wasm.md); the rest as here.
 */
import { commitRemovals } from 'bitecs';
import { updateRange } from '../components/UpdateList.js';
import { applyAdditiveLayer, BLEND_STEP_AVERAGE, BLEND_STEP_JOIN, BLEND_STEP_KIND_SHIFT, BLEND_STEP_LAYER, blendLayeredLayers, blendOverrideLayers } from '../math/blendPose.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { PoolAllocator } from '../memory/poolAllocator.js';
import { blendPlanWasm } from '../wasm/blendWasm.js';
import { blendCurvesOf } from './blendCurves.js';
import { blendPlan, layerPlanScratch, planLayersNow } from './layerPlan.js';
import { syncKernelArea } from '../wasm/kernels.js';
import type { AnimationWorld, ScratchOf } from '../world.js';

/**
 * blendSystem's scratch (FrameSystem.scratch, built once per world and per thread): the layers
 * of the character being blended — their sampled poses (`layerSamples`, slot n at
 * `n × maxJoints × 10`, in the pool buffer so the WebAssembly kernels reach it) — and its layer
 * plan (`layerPlan`, systems/layerPlan.ts).
 */
export const blendScratch = {
  layerSamples: (maxJoints: number, alloc: PoolAllocator, maxLayers: number): Float32Array => alloc.array(Float32Array, maxLayers * maxJoints * POSE_STRIDE),
  ...layerPlanScratch,
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

/** The work of {@link blendSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function blendEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const kernels = world.wasm;
  const local = world.components.LocalPose.data;
  const { enabled: lodOn, level: lodLevel } = world.components.Lod;
  const { layerSamples: samples, layerPlan: plan } = world.scratch;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const { count: curveCount, values: curveValues, maxCurves } = world.components.Curves;
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);
  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    planLayersNow(world, eid, lodOn[eid] === 0 ? -1 : lodLevel[eid], plan);
    if (kernels !== null) blendPlanWasm(world, kernels, plan, local, eid * poseSize);
    else blendPlan(world, plan, samples, local, eid * poseSize, true);
    if (maxCurves !== 0 && curveCount[eid] !== 0) blendCurvesOf(world, plan, curveValues, eid * maxCurves); // on JavaScript, on both kernel paths
  }
}

export { applyAdditiveLayer, blendLayeredLayers, blendOverrideLayers, BLEND_STEP_AVERAGE, BLEND_STEP_JOIN, BLEND_STEP_KIND_SHIFT, BLEND_STEP_LAYER }; // the kernels, exported with their system for tests
