/**
 * The world's asset registries: clips, masks, reference poses and bindings get the integer ids
 * the components store; released ids are taken again before a list grows.
 */
import { referenceCurves } from './curveMaps.js';
import { bindClip, type TranslationOption } from '../../assets/Binding.js';
import { createClip, type Clip } from '../../assets/Clip.js';
import type { Mask } from '../../assets/Mask.js';
import type { Skeleton } from '../../assets/Skeleton.js';
import { sampleClipInto } from '../../assets/sampleClip.js';
import { POSE_STRIDE } from '../../math/layout.js';
import type { AnimationWorld } from '../../world.js';

/**
 * Ids released from each registry list (`releaseClip` and co., src/api/release.ts), taken again
 * before the list grows. Kept beside the lists, by list, so the registry's shape stays plain
 * arrays and maps.
 */
const freeIds = new WeakMap<readonly unknown[], number[]>();

/** An id for a new entry of `list`: a released one if there is one, else the next index. */
export function takeId(list: readonly unknown[]): number {
  const free = freeIds.get(list);
  return free !== undefined && free.length > 0 ? free.pop()! : list.length;
}

/**
 * Releases entry `id` of `list`: the slot holds `undefined` (so the asset can be collected)
 * until {@link takeId} gives the id out again; released slots at the end are cut off, so a
 * list whose last entries are released returns to its earlier length.
 */
export function freeId(list: unknown[], id: number): void {
  list[id] = undefined;
  let free = freeIds.get(list);
  if (free === undefined) freeIds.set(list, (free = []));
  free.push(id);
  let length = list.length;
  while (length > 0 && list[length - 1] === undefined) length--;
  if (length < list.length) {
    list.length = length;
    let kept = 0;
    for (let i = 0; i < free.length; i++) if (free[i] < length) free[kept++] = free[i];
    free.length = kept;
  }
}

export function registerAsset<T>(list: T[], ids: Map<T, number>, asset: T): number {
  let id = ids.get(asset);
  if (id === undefined) {
    id = takeId(list);
    list[id] = asset;
    ids.set(asset, id);
  }
  return id;
}

export function registerMask(world: AnimationWorld, mask: Mask): number {
  const { masks, maskIds } = world.assets;
  let id = maskIds.get(mask);
  if (id === undefined) {
    id = takeId(masks);
    masks[id] = mask.weights;
    maskIds.set(mask, id);
  }
  return id;
}

/** The reference pose of `clip` at `time` on `skeleton`, retargeted as the layer's clip is (`translation`). */
export function registerReference(world: AnimationWorld, clip: Clip, time: number, skeleton: Skeleton, translation?: TranslationOption): number {
  const { references, referenceIds, clips, clipIds, skeletons, skeletonIds } = world.assets;
  const clipId = registerAsset(clips, clipIds, clip);
  const skeletonId = registerAsset(skeletons, skeletonIds, skeleton);
  const binding = bindClip(clip, skeleton, translation);
  const key = `${clipId}@${time}→${skeletonId}${binding === null ? '' : `#${registerAsset(world.assets.bindings, world.assets.bindingIds, binding)}`}`;
  let id = referenceIds.get(key);
  if (id === undefined) {
    // The pose, then the skeleton's curves' reference values (read by the blend's curves pass).
    const pose = new Float32Array(skeleton.jointCount * POSE_STRIDE + skeleton.curves.length);
    const at = clip.loop ? wrapTime(time, clip.duration) : Math.min(Math.max(time, 0), clip.duration);
    sampleClipInto(pose, 0, clip, Float64Array.of(at), 0, binding);
    referenceCurves(pose, skeleton.jointCount * POSE_STRIDE, skeleton, clip, at, identityClips.get(clip.skeleton) === clip);
    id = takeId(references);
    references[id] = pose;
    referenceIds.set(key, id);
  }
  return id;
}

/** The clip, skeleton and binding ids (−1: none) a `referenceIds` key of {@link registerReference} names. */
export function referenceKeyIds(key: string): { clip: number; skeleton: number; binding: number } {
  const arrow = key.lastIndexOf('→');
  const hash = key.indexOf('#', arrow);
  return {
    clip: Number.parseInt(key, 10),
    skeleton: Number.parseInt(key.slice(arrow + 1), 10),
    binding: hash < 0 ? -1 : Number.parseInt(key.slice(hash + 1), 10),
  };
}

const identityClips = new WeakMap<Skeleton, Clip>();

/** The identity clip of `skeleton` if {@link identityReference} made one, without making it. */
export function identityClipOf(skeleton: Skeleton): Clip | undefined {
  return identityClips.get(skeleton);
}

/**
 * The additive reference of a difference clip on `skeleton` (its clip's skeleton): a one-frame
 * clip of identity joints (T = 0, Q = (0, 0, 0, 1), S = 1), so `applyAdditiveLayer` applies
 * the clip's D exactly (D·I⁻¹ = D, float for float). Registered through `registerReference`
 * like any reference, it is sampled through the same binding as the layer: on another
 * skeleton, joints the clip lacks take the rest pose in both and cancel. Cached per skeleton.
 */
export function identityReference(skeleton: Skeleton): Clip {
  let clip = identityClips.get(skeleton);
  if (clip === undefined) {
    const frames = new Float32Array(skeleton.jointCount * POSE_STRIDE);
    for (let o = 0; o < frames.length; o += POSE_STRIDE) frames.set(IDENTITY_JOINT, o);
    clip = createClip({ skeleton, frameRate: 1, frames, loop: false, name: 'identity' });
    identityClips.set(skeleton, clip);
  }
  return clip;
}

const IDENTITY_JOINT = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];

export function wrapTime(time: number, duration: number): number {
  if (!(duration > 0)) return 0;
  const t = time - Math.floor(time / duration) * duration;
  return t >= duration ? 0 : t;
}

/**
 * {@link wrapTime} of `values[o]` by `clip`'s duration, in place. For callers on a switch or a
 * frame: a double passed to, or returned from, a call V8 does not inline is boxed (a heap number
 * per call); through the array and the clip nothing is.
 */
export function wrapClipTimeAt(values: Float64Array, o: number, clip: Clip): void {
  const duration = clip.duration;
  if (!(duration > 0)) {
    values[o] = 0;
    return;
  }
  const time = values[o];
  const t = time - Math.floor(time / duration) * duration;
  values[o] = t >= duration ? 0 : t;
}
