/**
 * Float curves of clips (metachannels): sampling them at an instant, finding one by name, and
 * reducing them to keys. The pose's samplers are `sampleClipInto` and `sampleReducedInto`;
 * these are their counterparts for `clip.curves`.
 */
import { fail } from './AnimationError.js';
import type { Clip } from './Clip.js';

type ClipCurve = Clip['curves'][number];
import { isClip } from './Clip.js';
import { describeValue } from './limits.js';
import { isSkeleton, type Skeleton } from './Skeleton.js';

/**
 * Samples every curve of `clip` at time `times[timeIndex]` seconds into
 * `out[outOff .. outOff + clip.curves.length)`, in `clip.curves` order: the two frames around
 * the time lerped, as `sampleClipInto` does joints (times outside [0, duration] clamp to the
 * ends; a looping caller wraps the time first, and the seam frame makes the wrap continuous).
 * A reduced curve (`keys` set) is linear between its keys. The time arrives as an array
 * element for the reason `sampleClipInto` gives (no boxed doubles). Pure kernel: no
 * allocation, no validation.
 * @example
 * const values = new Float32Array(clip.curves.length);
 * sampleCurvesInto(values, 0, clip, Float64Array.of(0.5), 0);
 */
export function sampleCurvesInto(out: Float32Array, outOff: number, clip: Clip, times: Float64Array, timeIndex: number): void {
  const curves = clip.curves;
  const count = curves.length;
  if (count === 0) return;
  curveFramePosition(FRAME, clip, times, timeIndex);
  for (let c = 0; c < count; c++) sampleCurveAt(out, outOff + c, curves[c], FRAME);
}

/** {@link curveFramePosition}'s frame and alpha for {@link sampleCurvesInto}. */
const FRAME = new Float64Array(2);

/**
 * Where time `times[timeIndex]` falls in `clip`'s frames, into `out`: `out[0]` the frame before
 * it, `out[1]` the fraction toward the next (both clamped to the clip: 0 before its start, the
 * last frame with fraction 0 at or past its end). Through an array: no boxed doubles.
 */
export function curveFramePosition(out: Float64Array, clip: Clip, times: Float64Array, timeIndex: number): void {
  const frameCount = clip.frameCount;
  const position = times[timeIndex] * clip.frameRate;
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
    alpha = 0;
  }
  out[0] = frame;
  out[1] = alpha;
}

/**
 * Curve `curve` at frame position `position` (`position[0]` the frame before, `position[1]` the
 * fraction toward the next: {@link curveFramePosition}'s answer) into `out[o]`: a dense curve's
 * two frames lerped, a keyed curve's two keys around it. Position and value travel through
 * arrays: a double passed to, or returned from, a call V8 does not inline is boxed.
 */
export function sampleCurveAt(out: Float32Array | Float64Array, o: number, curve: ClipCurve, position: Float64Array): void {
  const frame = position[0], alpha = position[1];
  const values = curve.values;
  const keys = curve.keys;
  if (keys === null) {
    const a = values[frame];
    out[o] = alpha === 0 ? a : a + (values[frame + 1] - a) * alpha;
    return;
  }
  const f = frame + alpha;
  const last = keys.length - 1;
  if (last === 0 || f <= keys[0]) {
    out[o] = values[0];
    return;
  }
  if (f >= keys[last]) {
    out[o] = values[last];
    return;
  }
  let lo = 0, hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= f) lo = mid;
    else hi = mid;
  }
  const k0 = keys[lo], k1 = keys[lo + 1];
  const a = values[lo];
  out[o] = a + (values[lo + 1] - a) * ((f - k0) / (k1 - k0));
}

/** One value per frame of `curve` (a clip of `frameCount` frames): its own values, or a keyed curve at every frame. */
export function curveFrames(curve: ClipCurve, frameCount: number): Float32Array {
  if (curve.keys === null) return curve.values;
  const out = new Float32Array(frameCount);
  const position = new Float64Array(2);
  for (let f = 0; f < frameCount; f++) {
    position[0] = f;
    sampleCurveAt(out, f, curve, position);
  }
  return out;
}

/**
 * Where the curve `name` is: its index in `skeleton.curves` (the order a character's blended
 * curve values are kept in) or in `clip.curves` (the order `sampleCurvesInto` writes); −1
 * when there is no such curve (also for a `name` that is not a string).
 * @throws AnimationError when the first argument is neither a Skeleton nor a Clip.
 * @example
 * const blink = curveIndex(skeleton, 'Head.Blink');
 */
export function curveIndex(skeletonOrClip: Skeleton | Clip, name: string): number {
  let curves: readonly { readonly name: string }[];
  if (isSkeleton(skeletonOrClip)) curves = skeletonOrClip.curves;
  else if (isClip(skeletonOrClip)) curves = skeletonOrClip.curves;
  else fail('curveIndex', 'skeletonOrClip', `is ${describeValue(skeletonOrClip)}: must be a Skeleton or a Clip`);
  for (let i = 0; i < curves.length; i++) if (curves[i].name === name) return i;
  return -1;
}

/**
 * `values` (one per frame) reduced to the fewest keys found greedily such that the curve
 * linear between keys is within `tolerance` of every value (both are linear between frames,
 * and every key is a frame, so the bound holds between frames too). The first and last frames
 * are always keys. Offline.
 */
export function reduceCurveValues(values: Float32Array, tolerance: number): { keys: Uint32Array; values: Float32Array } {
  const n = values.length;
  const keys: number[] = [0];
  let start = 0;
  while (start < n - 1) {
    let end = start + 1;
    // Extend the segment start..end+1 while every frame between stays within the tolerance.
    while (end + 1 < n && segmentFits(values, start, end + 1, tolerance)) end++;
    keys.push(end);
    start = end;
  }
  const kept = Uint32Array.from(keys);
  const out = new Float32Array(kept.length);
  for (let k = 0; k < kept.length; k++) out[k] = values[kept[k]];
  return { keys: kept, values: out };
}

function segmentFits(values: Float32Array, a: number, b: number, tolerance: number): boolean {
  const va = values[a], vb = values[b];
  for (let f = a + 1; f < b; f++) {
    const line = Math.fround(va + (vb - va) * ((f - a) / (b - a)));
    if (Math.abs(line - values[f]) > tolerance) return false;
  }
  return true;
}
