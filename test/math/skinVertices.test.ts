import { describe, expect, it } from 'vitest';
import { skinVertices } from '../../src/kernels.js';

// Joint 0: translate by (1, 0, 0). Joint 1: 90° about Z (x → y, y → −x), then up by (0, 2, 0).
const palette = Float32Array.of(
  1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0,
  0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 2, 0,
);

describe('skinVertices', () => {
  it('blends each vertex over its weighted influences', () => {
    const positions = Float32Array.of(1, 0, 0, 0, 1, 3, 2, 2, 2);
    const joints = Uint16Array.of(0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 7, 7);
    const weights = Float32Array.of(1, 0, 0, 0, 0.25, 0.75, 0, 0, 0.5, 0.5, 0, 0);
    const out = new Float32Array(9);
    skinVertices(palette, positions, joints, weights, out);
    // v0: joint 0 only → (2, 0, 0)
    expect(Array.from(out.subarray(0, 3))).toEqual([2, 0, 0]);
    // v1 (0,1,3): joint 1 → (−1, 2, 3); joint 0 → (1, 1, 3); 0.25·(−1,2,3) + 0.75·(1,1,3) = (0.5, 1.25, 3)
    expect(Array.from(out.subarray(3, 6))).toEqual([0.5, 1.25, 3]);
    // v2 (2,2,2): joint 0 → (3, 2, 2); joint 1 → (−2, 4, 2); halves → (0.5, 3, 2). Index 7 has weight 0: skipped.
    expect(Array.from(out.subarray(6, 9))).toEqual([0.5, 3, 2]);
  });

  it('may skin in place', () => {
    const positions = Float32Array.of(0, 1, 3);
    skinVertices(palette, positions, Uint8Array.of(1, 0, 0, 0), Float32Array.of(1, 0, 0, 0), positions);
    expect(Array.from(positions)).toEqual([-1, 2, 3]);
  });
});
