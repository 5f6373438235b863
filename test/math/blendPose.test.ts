import { describe, expect, it } from 'vitest';
import { blendOverrideLayers, blendTwoLayers } from '../../src/math/blendPose.js';
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
