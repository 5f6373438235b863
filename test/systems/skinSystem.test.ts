import { describe, expect, it } from 'vitest';
import { createSkeleton, removeCharacter } from '../../src/index.js';
import { MATRIX_STRIDE, POSE_STRIDE, computeModelPose, skinSystem } from '../../src/kernels.js';
import { expectAllNaN, jointPose, worldWith, Y90 } from './helpers.js';

// root at (0, 1, 0) turned 90° about Y; child 1 m along the root's local +Z, scaled ×2;
// grandchild 0.5 m along the child's local +X.
const skeleton = createSkeleton({
  names: ['root', 'child', 'tip'],
  parents: [-1, 0, 1],
  rest: [...jointPose([0, 1, 0], Y90), ...jointPose([0, 0, 1], [0, 0, 0, 1], [2, 2, 2]), ...jointPose([0.5, 0, 0])],
});

/** Column-major 3×4 → the image of point p. */
function apply(m: ArrayLike<number>, o: number, p: number[]): number[] {
  return [0, 1, 2].map((r) => m[o + r]! * p[0]! + m[o + 3 + r]! * p[1]! + m[o + 6 + r]! * p[2]! + m[o + 9 + r]!);
}

describe('computeModelPose', () => {
  it('chains local transforms parent first', () => {
    const model = new Float32Array(3 * MATRIX_STRIDE);
    computeModelPose(model, 0, skeleton.rest, 0, skeleton.parents, 3);
    // Y90 maps +Z to +X and +X to −Z.
    // child origin: (0,1,0) + Y90·(0,0,1) = (1, 1, 0)
    apply(model, 12, [0, 0, 0]).forEach((v, i) => expect(v).toBeCloseTo([1, 1, 0][i]!, 6));
    // tip origin: child origin + Y90·(2·(0.5, 0, 0)) = (1,1,0) + (0,0,−1) = (1, 1, −1)
    apply(model, 24, [0, 0, 0]).forEach((v, i) => expect(v).toBeCloseTo([1, 1, -1][i]!, 6));
    // the tip inherits the child's scale: its local unit +Y is 2 m long, pointing +Y
    apply(model, 24, [0, 1, 0]).forEach((v, i) => expect(v).toBeCloseTo([1, 3, -1][i]!, 6));
  });
});

describe('skinSystem', () => {
  it('writes model matrices and the palette model × inverseBind', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    const local = world.components.LocalPose.data;
    const base = eid * world.maxJoints;
    // rest pose: every palette matrix is the identity
    skinSystem(world, 0);
    const palette = world.components.SkinPalette.data;
    for (let j = 0; j < 3; j++) {
      [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0].forEach((v, i) => expect(palette[(base + j) * MATRIX_STRIDE + i]).toBeCloseTo(v, 6));
    }
    // turn the root a further 90° about Z (now R = Y90·Z90): a vertex bound at the tip's bind
    // position (1, 1, −1) moves with the tip.
    // Y90·Z90 by hand: w = ½, v = S(0,0,S)+S(0,S,0)+(0,S,0)×(0,0,S) = (½, ½, ½)
    local.set([0.5, 0.5, 0.5, 0.5], base * POSE_STRIDE + 3);
    skinSystem(world, 0);
    // new tip origin: (0,1,0) + R·((0,0,1) + 2·(0.5,0,0)) = (0,1,0) + R·(1, 0, 1);
    // R = 120° about (1,1,1)/√3 cycles axes x→y→z→x, so R·(1,0,1) = (1, 1, 0) → (1, 2, 0)
    const model = world.components.ModelPose.data;
    apply(model, (base + 2) * MATRIX_STRIDE, [0, 0, 0]).forEach((v, i) => expect(v).toBeCloseTo([1, 2, 0][i]!, 5));
    apply(palette, (base + 2) * MATRIX_STRIDE, [1, 1, -1]).forEach((v, i) => expect(v).toBeCloseTo([1, 2, 0][i]!, 5));
  });

  it("touches no other entity's matrices", () => {
    const { world, eids } = worldWith(skeleton, 3);
    const [a, b, c] = eids as [number, number, number];
    removeCharacter(world, b);
    const { ModelPose, SkinPalette } = world.components;
    ModelPose.data.fill(Number.NaN);
    SkinPalette.data.fill(Number.NaN);
    skinSystem(world, 0);
    const block = world.maxJoints * MATRIX_STRIDE;
    // At rest: the root's model m00 is cos 90° = 0, every palette matrix is the identity (m00 = 1).
    for (const [pool, m00] of [[ModelPose.data, 0], [SkinPalette.data, 1]] as const) {
      expectAllNaN(pool, 0, block);
      expectAllNaN(pool, b * block, block);
      for (const eid of [a, c]) {
        expect(pool[eid * block]).toBeCloseTo(m00, 6);
        expectAllNaN(pool, eid * block + 3 * MATRIX_STRIDE, block - 3 * MATRIX_STRIDE); // joint slot 4: unused
      }
    }
  });
});
