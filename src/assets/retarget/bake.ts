/**
 * Clips baked onto another skeleton: a dense clip played through a binding is turned, once per
 * clip and binding, into a clip of the binding's target skeleton — each key retargeted — which
 * then plays as the character's own clip (the plain sampler, the fused two-layer blend, the
 * WebAssembly kernels) at its cost. A binding through reference poses retargets each key by
 * `retargetPose`; between keys the baked clip interpolates the retargeted keys, which is the
 * retargeted interpolation exactly where a joint's source chain is one joint (a rotation on
 * both sides of an nlerp commutes with it) and to second order in the key spacing elsewhere. A
 * binding by proportions (local rotations copied, translations by mode) maps each key as
 * `sampleClipInto` does; its interpolation commutes with that map (a copy, a constant, or a
 * linear scale), so the baked clip plays the bound clip to float32 rounding.
 */
import { createClip, type Clip } from '../Clip.js';
import { SYNC_MARKER_PREFIXES } from '../syncMarkers.js';
import type { Binding } from '../bindingTypes.js';
import { POSE_STRIDE } from '../../math/layout.js';
import { retargetPose } from '../../math/retargetPose.js';
import { retargetTranslation } from '../../math/retargetTranslation.js';

/** Per source clip, per binding: its baked clip. */
const baked = new WeakMap<Clip, WeakMap<Binding, Clip>>();
/** Per baked clip: the clip it was baked from. */
const bakedSources = new WeakMap<Clip, Clip>();

/** The clip `clip` was baked from by {@link bakeRetargeted}, or undefined when it is no baked copy. */
export function bakedFrom(clip: Clip): Clip | undefined {
  return bakedSources.get(clip);
}

/**
 * The clip `clip` becomes on `binding.target` (see the module header), made on the first call
 * and cached (weakly, per clip and binding). Preconditions (the caller checks): `clip` is dense
 * (`reduced === null`), not a difference clip, of `binding.source`.
 * The baked clip keeps the clip's name, rate, loop flag, events, curves and import error; its
 * foot markers (`footDown:<joint>` / `footUp:<joint>`) name the target joint each source joint
 * drives (`binding.pairs`), so foot locking and marker sync find them under the character's own
 * joint names. It costs `frameCount × target joints × 40` bytes.
 */
export function bakeRetargeted(clip: Clip, binding: Binding): Clip {
  let byBinding = baked.get(clip);
  if (byBinding === undefined) baked.set(clip, (byBinding = new WeakMap()));
  let out = byBinding.get(binding);
  if (out === undefined) {
    const retarget = binding.retarget;
    const sourceSize = clip.skeleton.jointCount * POSE_STRIDE, targetSize = binding.target.jointCount * POSE_STRIDE;
    const frames = new Float32Array(clip.frameCount * targetSize);
    if (retarget !== null) {
      retarget.alpha[0] = 0;
      for (let f = 0; f < clip.frameCount; f++) retargetPose(frames, f * targetSize, clip.frames, f * sourceSize, f * sourceSize, retarget);
    } else {
      for (let f = 0; f < clip.frameCount; f++) sampleKeyInto(frames, f * targetSize, clip, f, binding);
    }
    out = createClip({
      skeleton: binding.target, frameRate: clip.frameRate, frames, loop: clip.loop, name: clip.name, events: renamedMarkers(clip.events, binding),
      importError: clip.importError, curves: clip.curves.map((curve) => ({ name: curve.name, values: curve.values })),
    });
    byBinding.set(binding, out);
    bakedSources.set(out, clip);
  }
  return out;
}

/** True when `clip` on `binding` plays as a baked clip (see {@link bakeRetargeted}): any binding, a dense clip that is not a difference clip. */
export function playsBaked(clip: Clip, binding: Binding | null): binding is Binding {
  return binding !== null && clip.reduced === null && clip.difference !== true;
}

/**
 * Key `f` of dense `clip` through a binding by proportions into `out[o ..]` (the target's joint
 * order): each target joint its source joint's key (or the target's rest where it has none),
 * its translation by the binding's mode — `sampleClipInto`'s map at a key.
 */
function sampleKeyInto(out: Float32Array, o: number, clip: Clip, f: number, binding: Binding): void {
  const poseSize = clip.skeleton.jointCount * POSE_STRIDE;
  const { sourceJoint, translationMode, translationScale } = binding;
  const rest = binding.target.rest;
  for (let j = 0; j < sourceJoint.length; j++) {
    const source = sourceJoint[j], at = o + j * POSE_STRIDE;
    if (source < 0) {
      for (let c = 0; c < POSE_STRIDE; c++) out[at + c] = rest[j * POSE_STRIDE + c];
      continue;
    }
    for (let c = 0; c < POSE_STRIDE; c++) out[at + c] = clip.frames[f * poseSize + source * POSE_STRIDE + c];
    retargetTranslation(out, at, translationMode, translationScale, rest, j);
  }
}

/** Foot markers' joint names carried from the source to the target through the binding's pairs; other events as they are. */
function renamedMarkers(events: Clip['events'], binding: Binding): Clip['events'] {
  const target = new Map<string, string>();
  for (const pair of binding.pairs) target.set(pair.source, pair.target);
  return events.map((event) => {
    for (const prefix of SYNC_MARKER_PREFIXES) {
      if (!event.name.startsWith(prefix)) continue;
      const joint = target.get(event.name.slice(prefix.length));
      return joint === undefined ? event : { ...event, name: prefix + joint };
    }
    return event;
  });
}
