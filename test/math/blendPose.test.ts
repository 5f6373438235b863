import { describe, expect, it } from 'vitest';
import { BLEND_STEP_AVERAGE, BLEND_STEP_JOIN, BLEND_STEP_KIND_SHIFT, BLEND_STEP_LAYER, blendLayeredLayers, blendLayerOverBase, blendOverrideLayers, blendTwoLayers } from '../../src/math/blendPose.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { createRandom } from '../fixtures/synthetic.js';

/** The float32 bit patterns of `values` (so −0 and +0, and NaNs, are told apart). */
const bits = (values: Float32Array): number[] => Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));

describe('blendTwoLayers: the two-layer override blend written out', () => {
  it('gives the bits of blendOverrideLayers for two unmasked layers, including signed zeros and opposite hemispheres', () => {
    const random = createRandom(18);
    const jointCount = 40;
    const poseSize = jointCount * POSE_STRIDE;
    const poses = new Float32Array(3 * poseSize); // layer poses at poseSize and 2 × poseSize (offset 0 unused)
    const rest = new Float32Array(poseSize);
    for (let i = 0; i < poses.length; i++) {
      const r = random();
      // A fifth of the channels are signed zeros, so −0 products meet the sums' +0 start.
      poses[i] = r < 0.1 ? -0 : r < 0.2 ? 0 : random() * 4 - 2;
    }
    // Half the joints: layer B's quaternion in the other hemisphere of layer A's.
    for (let j = 0; j < jointCount; j += 2) for (let c = 3; c < 7; c++) poses[2 * poseSize + j * POSE_STRIDE + c] = -poses[poseSize + j * POSE_STRIDE + c];
    const threshold = Float64Array.of(0.1);
    const layerOff = Int32Array.of(poseSize, 2 * poseSize, 0, 0);
    const masks = [null, null, null, null];
    for (const [wa, wb] of [[0.6, 0.4], [1, 1], [0.05, 0.05], [3e-3, 7], [0.25, 1e-7]] as const) {
      const layerWeight = Float32Array.of(wa, wb, 0, 0);
      const expected = new Float32Array(poseSize + 8);
      const actual = new Float32Array(poseSize + 8);
      blendOverrideLayers(expected, 4, rest, poses, layerOff, layerWeight, masks, 2, jointCount, threshold);
      blendTwoLayers(actual, 4, poses, layerOff[0]!, layerOff[1]!, layerWeight, jointCount);
      expect(bits(actual), `weights ${wa} / ${wb}`).toEqual(bits(expected));
      expect(actual.slice(poseSize + 4)).toEqual(new Float32Array(4)); // nothing written past the pose
    }
  });
});

describe('blendLayeredLayers and blendLayerOverBase: the blend modes\' rule', () => {
  /** Random poses: T in ±2, unit Q of either sign, S in [0.5, 1.5]. */
  function poses(count: number, joints: number, random: () => number): Float32Array {
    const out = new Float32Array(count * joints * POSE_STRIDE);
    for (let i = 0; i < out.length; i += POSE_STRIDE) {
      for (let c = 0; c < 3; c++) out[i + c] = (random() - 0.5) * 4;
      const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
      const n = Math.hypot(...q);
      for (let c = 0; c < 4; c++) out[i + 3 + c] = q[c]! / n;
      for (let c = 7; c < 10; c++) out[i + c] = 0.5 + random();
    }
    return out;
  }
  const joints = 16;
  const random = createRandom(5);
  const samples = poses(3, joints, random);
  const rest = poses(1, joints, random);
  const threshold = Float64Array.of(0.1);
  const size = joints * POSE_STRIDE;
  const masks = [null, Float32Array.from({ length: joints }, (_, j) => (j % 3 === 0 ? 0 : j % 3 === 1 ? 1 : 0.25)), Float32Array.from({ length: joints }, (_, j) => (j < 8 ? 0 : 0.6))];
  const steps = (...kinds: number[]): Int32Array => Int32Array.from(kinds, (kind, n) => n | (kind << BLEND_STEP_KIND_SHIFT));

  it('one layer over a base, by hand: (1 − a)·base + a·layer where both contribute, each alone elsewhere; blendLayerOverBase gives the same within 1e-6', () => {
    for (const [wa, wb, ma, mb] of [[1, 1, 0, 1], [0.8, 0.5, 2, 1], [0.05, 0.03, 0, 0], [1, 2.5, 0, 2], [0.3, 0.7, 1, 0]] as const) {
      const weights = Float32Array.of(wa, wb);
      const layered = new Float32Array(size), written = new Float32Array(size);
      blendLayeredLayers(layered, 0, rest, samples, Int32Array.of(0, size), weights, [masks[ma], masks[mb]], steps(BLEND_STEP_AVERAGE, BLEND_STEP_LAYER), 2, joints, threshold);
      blendLayerOverBase(written, 0, rest, samples, 0, size, weights, masks[ma], masks[mb], joints, threshold);
      for (let j = 0; j < joints; j++) {
        const a = wa * (masks[ma]?.[j] ?? 1), b = wb * (masks[mb]?.[j] ?? 1);
        // Expected by hand: the base's and the layer's effective weights, then the normalized nlerp.
        const ea = a > 0 && b > 0 ? Math.max(0, 1 - b) : Math.max(a, 0), eb = Math.max(b, 0);
        const er = ea + eb < 0.1 ? 0.1 - ea - eb : 0;
        const o = j * POSE_STRIDE;
        const qa = samples.subarray(o + 3, o + 7), qb = samples.subarray(size + o + 3, size + o + 7), qr = rest.subarray(o + 3, o + 7);
        const ref = ea > 0 ? qa : eb > 0 ? qb : qr;
        const sgn = (q: Float32Array): number => (q[0]! * ref[0]! + q[1]! * ref[1]! + q[2]! * ref[2]! + q[3]! * ref[3]! < 0 ? -1 : 1);
        const total = ea + eb + er;
        for (const c of [0, 1, 2, 7, 8, 9]) {
          const expected = (ea * samples[o + c]! + eb * samples[size + o + c]! + er * rest[o + c]!) / total;
          expect(Math.abs(layered[o + c]! - expected)).toBeLessThanOrEqual(1e-6);
          expect(Math.abs(written[o + c]! - expected)).toBeLessThanOrEqual(1e-6);
        }
        const q = [0, 1, 2, 3].map((c) => ea * qa[c]! + eb * sgn(qb) * qb[c]! + er * sgn(qr) * qr[c]!);
        const n = Math.hypot(...q);
        // Up to sign: with a_B ≥ 1 the result is B alone, whichever hemisphere it was summed in.
        for (const got of [layered, written]) {
          const s = got[o + 3]! * q[0]! + got[o + 4]! * q[1]! + got[o + 5]! * q[2]! + got[o + 6]! * q[3]! < 0 ? -1 : 1;
          for (let c = 0; c < 4; c++) expect(Math.abs(got[o + 3 + c]! - (s * q[c]!) / n)).toBeLessThanOrEqual(1e-6);
        }
      }
    }
  });

  it('a group of a layer and its join is one layer of the summed a (their poses averaged); all averages are blendOverrideLayers\' bits', () => {
    const weights = Float32Array.of(1, 0.3, 0.5);
    const offs = Int32Array.of(0, size, 2 * size);
    const grouped = new Float32Array(size);
    blendLayeredLayers(grouped, 0, rest, samples, offs, weights, [null, masks[1], masks[1]], steps(BLEND_STEP_AVERAGE, BLEND_STEP_LAYER, BLEND_STEP_JOIN), 3, joints, threshold);
    for (let j = 0; j < joints; j++) {
      const m = masks[1]![j]!, o = j * POSE_STRIDE;
      const a1 = 0.3 * m, a2 = 0.5 * m, keep = Math.max(0, 1 - a1 - a2);
      for (const c of [0, 1, 2]) {
        const expected = (keep * samples[o + c]! + a1 * samples[size + o + c]! + a2 * samples[2 * size + o + c]!) / (keep + a1 + a2);
        expect(Math.abs(grouped[o + c]! - expected)).toBeLessThanOrEqual(1e-6);
      }
    }
    const averaged = new Float32Array(size), reference = new Float32Array(size);
    blendLayeredLayers(averaged, 0, rest, samples, offs, weights, [null, masks[1], masks[2]], steps(BLEND_STEP_AVERAGE, BLEND_STEP_AVERAGE, BLEND_STEP_AVERAGE), 3, joints, threshold);
    blendOverrideLayers(reference, 0, rest, samples, offs, weights, [null, masks[1], masks[2]], 3, joints, threshold);
    expect(Array.from(averaged)).toEqual(Array.from(reference));
  });
});
