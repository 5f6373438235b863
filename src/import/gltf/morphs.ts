/**
 * glTF morph-target `weights` channels → clip curves (the **Morph targets** paragraph of
 * `../gltf.ts`): a channel's keys read (checked: one value per target per key, three for
 * CUBICSPLINE, finite; normalized integers divided out) and evaluated per the glTF 2.0
 * specification (STEP, LINEAR — a plain lerp for weights —, CUBICSPLINE Hermite), then sampled
 * at a clip's frame instants into one curve per target, named `<mesh>.<target>`.
 */
import type { AnimationSampler } from '@gltf-transform/core';
import type { IssueList } from '../../assets/AnimationError.js';
import type { ClipDesc } from '../../assets/Clip.js';

type ClipCurveDesc = NonNullable<ClipDesc['curves']>[number];
import { CUBICSPLINE, LINEAR, STEP, type Interpolation } from './sampler.js';
import type { NodeMorphs } from './meshes.js';

/** One weights channel: its key times, `targets` values per key (× 3 for CUBICSPLINE: in-tangent, value, out-tangent). */
export interface WeightsTrack {
  readonly times: Float64Array;
  readonly values: Float64Array;
  readonly targets: number;
  readonly interpolation: Interpolation;
  /** The curves it drives, one per target. */
  readonly morphs: NodeMorphs;
}

/** Reads a weights sampler's output with `times` as its input, for a mesh of `morphs.names.length` targets. Null after recording a fault. */
export function readWeightsTrack(
  sampler: AnimationSampler, times: Float64Array, morphs: NodeMorphs, issues: IssueList, path: string,
): WeightsTrack | null {
  const name = sampler.getInterpolation();
  const interpolation: Interpolation = name === 'STEP' ? STEP : name === 'CUBICSPLINE' ? CUBICSPLINE : LINEAR;
  const targets = morphs.names.length;
  const output = sampler.getOutput();
  const expected = times.length * targets * (interpolation === CUBICSPLINE ? 3 : 1);
  const count = output?.getCount() ?? 0;
  if (!output || output.getElementSize() !== 1 || count !== expected) {
    issues.add(`${path}.output`, `has ${count} elements: ${name} with ${times.length} keys for ${targets} morph targets needs ${expected} SCALAR`);
    return null;
  }
  const values = new Float64Array(expected);
  const element: number[] = [];
  for (let e = 0; e < expected; e++) {
    output.getElement(e, element);
    const v = element[0];
    if (!Number.isFinite(v)) {
      issues.add(`${path}.output[${e}]`, `is ${v}, not a finite number`);
      return null;
    }
    values[e] = v;
  }
  return { times, values, targets, interpolation, morphs };
}

/** Writes the track's weights at time `t` to `out[o..o+targets-1]`. */
export function sampleWeights(track: WeightsTrack, t: number, out: Float64Array, o: number): void {
  const { times, values, targets: n, interpolation } = track;
  const last = times.length - 1;
  const valueAt = interpolation === CUBICSPLINE ? (k: number) => (k * 3 + 1) * n : (k: number) => k * n;
  const copy = (k: number): void => {
    for (let i = 0; i < n; i++) out[o + i] = values[valueAt(k) + i];
  };
  if (t <= times[0] || last === 0) return copy(0);
  if (t >= times[last]) return copy(last);
  let lo = 0, hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  const dt = times[lo + 1] - times[lo];
  const s = dt > 0 ? (t - times[lo]) / dt : 1;
  if (interpolation === STEP) return copy(lo);
  if (interpolation === LINEAR) {
    const a = valueAt(lo), b = valueAt(lo + 1);
    for (let i = 0; i < n; i++) out[o + i] = values[a + i] + s * (values[b + i] - values[a + i]);
    return;
  }
  const s2 = s * s, s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  const v0 = (lo * 3 + 1) * n, b0 = (lo * 3 + 2) * n, a1 = (lo * 3 + 3) * n, v1 = (lo * 3 + 4) * n;
  for (let i = 0; i < n; i++) out[o + i] = h00 * values[v0 + i] + h10 * dt * values[b0 + i] + h01 * values[v1 + i] + h11 * dt * values[a1 + i];
}

/**
 * The curves of `tracks` at `frameCount` frames of a clip at `rate` fps lasting `duration`
 * (frame f at f / rate, the last at the duration, as the joints were sampled): one curve per
 * target, in track then target order; a curve driven by two channels keeps the first.
 */
export function sampleWeightCurves(tracks: readonly WeightsTrack[], frameCount: number, rate: number, duration: number): ClipCurveDesc[] {
  const curves: ClipCurveDesc[] = [];
  const seen = new Set<string>();
  for (const track of tracks) {
    const values = track.morphs.names.map(() => new Float32Array(frameCount));
    const at = new Float64Array(track.targets);
    for (let f = 0; f < frameCount; f++) {
      const t = frameCount === 1 ? 0 : f === frameCount - 1 ? duration : f / rate;
      sampleWeights(track, t, at, 0);
      for (let k = 0; k < track.targets; k++) values[k][f] = at[k];
    }
    track.morphs.names.forEach((name, k) => {
      if (seen.has(name)) return;
      seen.add(name);
      curves.push({ name, values: values[k] });
    });
  }
  return curves;
}
