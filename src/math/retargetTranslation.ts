/**
 * The translation modes of a binding (assets/Binding.ts) applied to one sampled joint: the
 * kernel both samplers (sampleClip.ts, sampleReduced.ts) call per bound joint.
 */
import { POSE_STRIDE } from './layout.js';

/**
 * Applies the translation mode of bound target joint `joint` to the translation just sampled at
 * `out[o..o+2]` (see `Binding.translationMode`): 'skeleton' (0) puts the target's rest
 * translation there, 'scaled' (2) multiplies it by `scales[joint]`, 'animation' (1) keeps it.
 * Takes no float scalar (see `sampleClipInto`); `sampleClipInto` and `sampleReducedInto` call it.
 */
export function retargetTranslation(
  out: Float32Array, o: number, modes: Uint8Array, scales: Float32Array, rest: Float32Array, joint: number,
): void {
  const mode = modes[joint];
  if (mode === 0) {
    const r = joint * POSE_STRIDE;
    out[o] = rest[r];
    out[o + 1] = rest[r + 1];
    out[o + 2] = rest[r + 2];
  } else if (mode === 2) {
    const s = scales[joint];
    out[o] = out[o] * s;
    out[o + 1] = out[o + 1] * s;
    out[o + 2] = out[o + 2] * s;
  }
}
