/**
 * Clips baked onto another skeleton: a dense clip played through a binding that retargets
 * through reference poses is turned, once per clip and binding, into a clip of the binding's
 * target skeleton — each key retargeted by `retargetPose` — which then plays as the
 * character's own clip (the plain sampler, the fused two-layer blend, the WebAssembly
 * kernels). Between keys the baked clip interpolates the retargeted keys, which is the
 * retargeted interpolation exactly where a joint's source chain is one joint (a rotation on
 * both sides of an nlerp commutes with it) and to second order in the key spacing elsewhere.
 */
import { createClip, type Clip } from '../Clip.js';
import { SYNC_MARKER_PREFIXES } from '../syncMarkers.js';
import type { Binding } from '../bindingTypes.js';
import { POSE_STRIDE } from '../../math/layout.js';
import { retargetPose } from '../../math/retargetPose.js';

/** Per source clip, per binding: its baked clip. */
const baked = new WeakMap<Clip, WeakMap<Binding, Clip>>();

/**
 * The clip `clip` becomes on `binding.target` (see the module header), made on the first call
 * and cached (weakly, per clip and binding). Preconditions (the caller checks): `clip` is dense
 * (`reduced === null`), not a difference clip, of `binding.source`, and `binding.retarget` is set.
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
    const retarget = binding.retarget!;
    const sourceSize = clip.skeleton.jointCount * POSE_STRIDE, targetSize = binding.target.jointCount * POSE_STRIDE;
    const frames = new Float32Array(clip.frameCount * targetSize);
    retarget.alpha[0] = 0;
    for (let f = 0; f < clip.frameCount; f++) retargetPose(frames, f * targetSize, clip.frames, f * sourceSize, f * sourceSize, retarget);
    out = createClip({
      skeleton: binding.target, frameRate: clip.frameRate, frames, loop: clip.loop, name: clip.name, events: renamedMarkers(clip.events, binding),
      importError: clip.importError, curves: clip.curves.map((curve) => ({ name: curve.name, values: curve.values })),
    });
    byBinding.set(binding, out);
  }
  return out;
}

/** True when `clip` on `binding` plays as a baked clip (see {@link bakeRetargeted}). */
export function playsBaked(clip: Clip, binding: Binding | null): binding is Binding {
  return binding !== null && binding.retarget !== null && clip.reduced === null && clip.difference !== true;
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
