import { describe, expect, it } from 'vitest';
import { createClip, createMask, createSkeleton, removeCharacter, type AnimationWorld, type Skeleton } from '../../src/index.js';
import { LAYER_ADDITIVE, DEFAULT_MAX_LAYERS, POSE_STRIDE, blendSystem, sampleClipInto } from '../../src/kernels.js';
import { expectAllNaN, expectQuat, IDENTITY, jointPose, registerClip, S, twoJointSkeleton, wiggleClip, worldWith, X90, Z90 } from './helpers.js';

const skeleton = twoJointSkeleton();

/**
 * Writes a layer straight into the component arrays: its clip, weight and flags. Its clip is one
 * frame holding `pose` (the character's skeleton, or `of`), so blendSystem samples exactly `pose`.
 */
function setLayer(world: AnimationWorld, eid: number, layer: number, weight: number, pose: number[], flags = 0, of: Skeleton = skeleton): void {
  const { Layers } = world.components;
  const li = eid * DEFAULT_MAX_LAYERS + layer;
  Layers.clip[li] = registerClip(world, createClip({ skeleton: of, frameRate: 30, frames: pose }));
  Layers.time[li] = 0;
  Layers.weight[li] = weight;
  Layers.flags[li] = flags;
}

const localOf = (world: AnimationWorld, eid: number) =>
  world.components.LocalPose.data.subarray(eid * world.maxJoints * POSE_STRIDE, (eid * world.maxJoints + 2) * POSE_STRIDE);

describe('blendSystem: override layers', () => {
  it('blends by normalized weights: T and S weighted means, Q normalized weighted sum', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    // weights 1 and 3 → normalized 0.25 / 0.75
    setLayer(world, eid, 0, 1, [...jointPose([4, 0, 0]), ...jointPose([1, 0, 0], IDENTITY, [1, 1, 1])]);
    setLayer(world, eid, 1, 3, [...jointPose([0, 8, 0]), ...jointPose([1, 0, 0], Z90, [2, 2, 2])]);
    blendSystem(world, 0);
    const local = localOf(world, eid);
    expect(Array.from(local.subarray(0, 3))).toEqual([1, 6, 0]); // 0.25·(4,0,0) + 0.75·(0,8,0)
    // Q: 0.25·(0,0,0,1) + 0.75·(0,0,S,S) = (0, 0, 0.75S, 0.25 + 0.75S), normalized
    const qz = 0.75 * S, qw = 0.25 + 0.75 * S, n = Math.hypot(qz, qw);
    expectQuat(local, 13, [0, 0, qz / n, qw / n]);
    expect(local[17]).toBeCloseTo(1.75, 6); // 0.25·1 + 0.75·2
  });

  it('flips quaternions into one hemisphere before summing', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    const negZ90 = Z90.map((v) => -v);
    setLayer(world, eid, 0, 1, [...jointPose([0, 0, 0], Z90), ...jointPose([1, 0, 0])]);
    setLayer(world, eid, 1, 1, [...jointPose([0, 0, 0], negZ90), ...jointPose([1, 0, 0])]);
    blendSystem(world, 0);
    expectQuat(localOf(world, eid), 3, Z90); // without the fix the sum would be zero
  });

  it('applies per-joint masks (partial-skeleton blending)', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    const armOnly = createMask(skeleton, { arm: 1 });
    setLayer(world, eid, 0, 1, [...jointPose([2, 0, 0]), ...jointPose([1, 0, 0])]);
    setLayer(world, eid, 1, 1, [...jointPose([0, 2, 0]), ...jointPose([3, 0, 0])]);
    world.assets.masks.push(armOnly.weights);
    world.components.Layers.mask[eid * DEFAULT_MAX_LAYERS + 1] = 0;
    blendSystem(world, 0);
    const local = localOf(world, eid);
    expect(Array.from(local.subarray(0, 3))).toEqual([2, 0, 0]); // root: layer 1 masked out
    expect(local[10]).toBe(2); // arm: (1 + 3) / 2
  });

  it('gives the rest pose at total weight 0 and fades toward it below the threshold', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    setLayer(world, eid, 0, 0, [...jointPose([2, 0, 0], Z90), ...jointPose([5, 0, 0])]);
    blendSystem(world, 0);
    const local = localOf(world, eid);
    expect(Array.from(local)).toEqual(Array.from(skeleton.rest)); // exactly the rest pose
    world.components.Layers.weight[eid * DEFAULT_MAX_LAYERS] = 0.05; // half the default threshold 0.1
    blendSystem(world, 0);
    expect(local[0]).toBeCloseTo(1, 6); // 0.05·2 + 0.05·0 over 0.1
    expect(local[10]).toBeCloseTo(3, 6); // (0.05·5 + 0.05·1) / 0.1
  });

  it("writes only the blended entities' local poses", () => {
    const { world, eids } = worldWith(skeleton, 3, 3);
    const [a, b, c] = eids as [number, number, number];
    removeCharacter(world, b);
    const local = world.components.LocalPose.data;
    local.fill(Number.NaN);
    for (const eid of [a, b, c]) setLayer(world, eid, 0, 1, [...jointPose([1, 2, 3]), ...jointPose([1, 0, 0])]);
    blendSystem(world, 0);
    const block = world.maxJoints * POSE_STRIDE;
    expectAllNaN(local, b * block, block);
    expectAllNaN(local, 0, block);
    for (const eid of [a, c]) {
      expect(local[eid * block + 1]).toBe(2);
      expectAllNaN(local, eid * block + 2 * POSE_STRIDE, POSE_STRIDE); // third joint slot: unused
    }
  });
});

describe('blendSystem: additive layers', () => {
  // One joint so the numbers stay readable: R = reference, S = additive source, T = base.
  const one = createSkeleton({ names: ['j'], parents: [-1], rest: jointPose([0, 0, 0]) });

  function additiveWorld(beta: number) {
    const { world, eids } = worldWith(one, 1);
    const eid = eids[0]!;
    const reference = Float32Array.from(jointPose([1, 0, 0], IDENTITY, [2, 2, 2]));
    world.assets.references.push(reference);
    // base T: 90° about X at (0, 1, 0), scale 1.5
    setLayer(world, eid, 0, 1, jointPose([0, 1, 0], X90, [1.5, 1.5, 1.5]), 0, one);
    // additive S: 90° about Z at (1, 0, 2), scale 4 → D: 90° Z, +(0, 0, 2), ×2
    setLayer(world, eid, 1, beta, jointPose([1, 0, 2], Z90, [4, 4, 4]), LAYER_ADDITIVE, one);
    world.components.Layers.reference[eid * DEFAULT_MAX_LAYERS + 1] = 0;
    blendSystem(world, 0);
    return world.components.LocalPose.data.subarray(eid * world.maxJoints * POSE_STRIDE, (eid * world.maxJoints + 1) * POSE_STRIDE);
  }

  it('applies D = S·R⁻¹ as A = D·T at full weight', () => {
    const a = additiveWorld(1);
    expect(Array.from(a.subarray(0, 3))).toEqual([0, 1, 2]);
    // Z90 · X90 = (S·S)(x: 1·0 + 0 + 0 − … ) — by hand: (w1w2 − v1·v2, w1v2 + w2v1 + v1×v2)
    // v1 = (0,0,S), v2 = (S,0,0): w = ½, v = S·(S,0,0) + S·(0,0,S) + (0,0,S)×(S,0,0) = (½, ½, ½)
    expectQuat(a, 3, [0.5, 0.5, 0.5, 0.5]);
    expect(a[7]).toBeCloseTo(3, 6); // 1.5 · 4/2
  });

  it('blends the additive result with β: lerp(T, D·T, β)', () => {
    const a = additiveWorld(0.5);
    expect(Array.from(a.subarray(0, 3))).toEqual([0, 1, 1]);
    // nlerp(X90, (½,½,½,½), ½): sum (S+½, ½, ½, S+½)/2, normalized
    const q = [S + 0.5, 0.5, 0.5, S + 0.5];
    const n = Math.hypot(...q);
    expectQuat(a, 3, q.map((v) => v / n));
    expect(a[7]).toBeCloseTo(2.25, 6); // 1.5 · (1 + ½·(2 − 1))
  });

  it('an additive layer of weight 0 changes nothing', () => {
    const a = additiveWorld(0);
    expect(Array.from(a.subarray(0, 3))).toEqual([0, 1, 0]);
    expectQuat(a, 3, X90);
    expect(a[7]).toBeCloseTo(1.5, 6);
  });
});

describe('blendSystem: sampling each layer at its time', () => {
  const wiggle = wiggleClip(skeleton);

  it('one layer: exactly what sampleClipInto gives at its time', () => {
    // The JavaScript kernels' bits (the float32 wasm kernel samples within rounding between frames: test/wasm).
    const { world, eids } = worldWith(skeleton, 1, 4, 'js');
    const eid = eids[0]!;
    const li = eid * DEFAULT_MAX_LAYERS;
    const { Layers } = world.components;
    Layers.clip[li] = registerClip(world, wiggle);
    Layers.time[li] = 0.1;
    Layers.weight[li] = 1;
    blendSystem(world, 0);
    const expected = new Float32Array(2 * POSE_STRIDE);
    sampleClipInto(expected, 0, wiggle, Float64Array.of(0.1), 0);
    expect(Array.from(localOf(world, eid))).toEqual(Array.from(expected));
  });

  it('two layers at their own times, blended', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    const li = eid * DEFAULT_MAX_LAYERS;
    const { Layers } = world.components;
    const id = registerClip(world, wiggle);
    Layers.clip[li] = id; Layers.time[li] = 0; Layers.weight[li] = 1; // frame 0: root x 0, arm identity, scale 1
    Layers.clip[li + 2] = id; Layers.time[li + 2] = 0.125; Layers.weight[li + 2] = 1; // frame 1: root x 1, arm 90° Z, scale 2
    blendSystem(world, 0);
    const local = localOf(world, eid);
    expect(local[0]).toBeCloseTo(0.5, 6);
    expectQuat(local, POSE_STRIDE + 3, [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)]); // nlerp(identity, 90° Z, ½) = 45° Z
    expect(local[POSE_STRIDE + 7]).toBeCloseTo(1.5, 6);
  });
});
