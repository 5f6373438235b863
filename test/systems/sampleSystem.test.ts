import { describe, expect, it } from 'vitest';
import { addEntity } from 'bitecs';
import { createClip, removeCharacter } from '../../src/index.js';
import { blendSystem, LAYER_LOOP, DEFAULT_MAX_LAYERS, POSE_STRIDE, sampleClipInto, sampleSystem } from '../../src/kernels.js';
import { expectAllNaN, expectQuat, registerClip, twoJointSkeleton, wiggleClip, worldWith, Z90 } from './helpers.js';

const skeleton = twoJointSkeleton();
const clip = wiggleClip(skeleton);
const sin22 = Math.sin(Math.PI / 8), cos22 = Math.cos(Math.PI / 8);

describe('sampleClipInto', () => {
  it('interpolates between the two frames around the time', () => {
    const out = new Float32Array(25).fill(Number.NaN);
    // t = 0.0625 s is frame 0.5: halfway between frame 0 and frame 1
    sampleClipInto(out, 3, clip, Float64Array.of(0.0625), 0);
    expect(out[3]).toBeCloseTo(0.5, 6); // root tx: lerp(0, 1, 0.5)
    const arm = 3 + POSE_STRIDE;
    expect(out[arm]).toBeCloseTo(1, 6);
    expectQuat(out, arm + 3, [0, 0, sin22, cos22]); // nlerp(identity, 90° Z, ½) = 45° about Z
    expect(out[arm + 7]).toBeCloseTo(1.5, 6); // scale lerp(1, 2, ½)
    expect(Number.isNaN(out[2]!)).toBe(true); // before the block
    expect(Number.isNaN(out[23]!)).toBe(true); // after it
  });

  it('takes the short way round when neighbouring frames are in opposite hemispheres', () => {
    const flipped = clip.frames.slice();
    for (let c = 3; c < 7; c++) flipped[20 + 10 + c] = -flipped[20 + 10 + c]!; // frame 1, arm: −q
    const out = new Float32Array(20);
    const flippedClip = createClip({ skeleton, frameRate: 8, frames: flipped });
    sampleClipInto(out, 0, flippedClip, Float64Array.of(0.0625), 0);
    expectQuat(out, 13, [0, 0, sin22, cos22]);
  });

  it('clamps times outside the clip to its first and last frames', () => {
    const out = new Float32Array(20);
    const times = Float64Array.of(10, -1);
    sampleClipInto(out, 0, clip, times, 0);
    expect(Array.from(out)).toEqual(Array.from(clip.frames.subarray(40, 60)));
    sampleClipInto(out, 0, clip, times, 1);
    expect(Array.from(out)).toEqual(Array.from(clip.frames.subarray(0, 20)));
  });
});

describe('sampleSystem', () => {
  it('advances time by speed × dt; blendSystem then samples the layer at that time', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const eid = eids[0]!;
    const { Layers, LocalPose } = world.components;
    const li = eid * DEFAULT_MAX_LAYERS;
    Layers.clip[li] = registerClip(world, clip);
    Layers.speed[li] = 0.5;
    Layers.weight[li] = 1;
    Layers.flags[li] = LAYER_LOOP;
    LocalPose.data.fill(Number.NaN);
    sampleSystem(world, 0.25); // 0.5 × 0.25 = 0.125 s = frame 1
    expect(Layers.time[li]).toBe(0.125);
    expect(world.time).toBe(0.25);
    expectAllNaN(LocalPose.data, 0, LocalPose.data.length); // the clock only: no pose is written
    blendSystem(world, 0);
    const off = eid * world.maxJoints * POSE_STRIDE;
    expect(LocalPose.data[off]).toBeCloseTo(1, 6); // frame 1: root at x = 1
    expectQuat(LocalPose.data, off + POSE_STRIDE + 3, Z90);
  });

  it('wraps a looping layer and clamps a play-once layer', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const { Layers } = world.components;
    const li = eids[0]! * DEFAULT_MAX_LAYERS;
    const id = registerClip(world, clip);
    Layers.clip[li] = id; Layers.speed[li] = 1; Layers.weight[li] = 1; Layers.flags[li] = LAYER_LOOP; Layers.time[li] = 0.1875;
    Layers.clip[li + 1] = id; Layers.speed[li + 1] = 1; Layers.weight[li + 1] = 1; Layers.flags[li + 1] = 0; Layers.time[li + 1] = 0.1875;
    sampleSystem(world, 0.125);
    expect(Layers.time[li]).toBe(0.0625); // 0.3125 − 0.25
    expect(Layers.time[li + 1]).toBe(0.25); // held at the end
    sampleSystem(world, 1.0); // four whole loops later: same phase
    expect(Layers.time[li]).toBe(0.0625);
  });

  it('plays backwards with a negative speed, wrapping below zero', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const { Layers } = world.components;
    const li = eids[0]! * DEFAULT_MAX_LAYERS;
    Layers.clip[li] = registerClip(world, clip); Layers.speed[li] = -1; Layers.weight[li] = 1; Layers.flags[li] = LAYER_LOOP; Layers.time[li] = 0.0625;
    sampleSystem(world, 0.125);
    expect(Layers.time[li]).toBe(0.1875);
  });

  it('dt = 0 changes no time', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const { Layers } = world.components;
    const li = eids[0]! * DEFAULT_MAX_LAYERS;
    Layers.clip[li] = registerClip(world, clip); Layers.speed[li] = 1; Layers.weight[li] = 1; Layers.flags[li] = LAYER_LOOP; Layers.time[li] = 0.1;
    sampleSystem(world, 0);
    expect(Layers.time[li]).toBe(0.1);
  });

  it("touches no other entity's slots and ignores entities without the components", () => {
    const { world, eids } = worldWith(skeleton, 3);
    const [a, b, c] = eids as [number, number, number];
    removeCharacter(world, b); // b's slots must stay as they are
    const stranger = addEntity(world.ecs); // an entity of the game without animation components
    const { Layers, RootMotion } = world.components;
    Layers.rootDelta.fill(Number.NaN);
    const id = registerClip(world, clip);
    for (const eid of [a, b, c, stranger]) {
      const li = eid * DEFAULT_MAX_LAYERS;
      Layers.clip[li] = id; Layers.speed[li] = 1; Layers.weight[li] = 1; Layers.flags[li] = LAYER_LOOP;
      RootMotion.enabled[eid] = 1; // root deltas are written for characters moved by root motion
    }
    sampleSystem(world, 0.0625);
    for (const eid of [b, stranger]) {
      expectAllNaN(Layers.rootDelta, eid * DEFAULT_MAX_LAYERS * 3, DEFAULT_MAX_LAYERS * 3);
      expect(Layers.time[eid * DEFAULT_MAX_LAYERS]).toBe(0);
    }
    for (const eid of [a, c]) {
      const li = eid * DEFAULT_MAX_LAYERS;
      expect(Layers.time[li]).toBe(0.0625);
      expect(Layers.rootDelta[li * 3]).toBeCloseTo(0.5, 6); // the root's x over 0 → 0.0625 s: frame 0 → 0.5, lerp(0, 1, ½)
      // the empty layers 1..3 stay untouched
      expectAllNaN(Layers.rootDelta, (li + 1) * 3, (DEFAULT_MAX_LAYERS - 1) * 3);
    }
    expectAllNaN(Layers.rootDelta, 0, DEFAULT_MAX_LAYERS * 3); // row 0 is never an entity
  });

  it('writes no root delta for a character without root motion (only rootMotionSystem reads them, for those with it)', () => {
    const { world, eids } = worldWith(skeleton, 2);
    const [still, moving] = eids as [number, number];
    const { Layers, RootMotion } = world.components;
    Layers.rootDelta.fill(Number.NaN);
    const id = registerClip(world, clip);
    for (const eid of [still, moving]) {
      const li = eid * DEFAULT_MAX_LAYERS;
      Layers.clip[li] = id; Layers.speed[li] = 1; Layers.weight[li] = 1; Layers.flags[li] = LAYER_LOOP;
    }
    RootMotion.enabled[moving] = 1;
    sampleSystem(world, 0.0625);
    expectAllNaN(Layers.rootDelta, still * DEFAULT_MAX_LAYERS * 3, 3);
    expect(Layers.time[still * DEFAULT_MAX_LAYERS]).toBe(0.0625); // its clock moves all the same
    expect(Layers.rootDelta[moving * DEFAULT_MAX_LAYERS * 3]).toBeCloseTo(0.5, 6);
  });

  it('advances a layer of weight 0, which blendSystem then leaves out (the rest pose)', () => {
    const { world, eids } = worldWith(skeleton, 1);
    const { Layers, LocalPose } = world.components;
    const eid = eids[0]!;
    const li = eid * DEFAULT_MAX_LAYERS;
    Layers.clip[li] = registerClip(world, clip); Layers.speed[li] = 1; Layers.weight[li] = 0; Layers.flags[li] = LAYER_LOOP;
    sampleSystem(world, 0.0625);
    expect(Layers.time[li]).toBe(0.0625);
    blendSystem(world, 0);
    const off = eid * world.maxJoints * POSE_STRIDE;
    expect(Array.from(LocalPose.data.subarray(off, off + 2 * POSE_STRIDE))).toEqual(Array.from(skeleton.rest));
  });
});
