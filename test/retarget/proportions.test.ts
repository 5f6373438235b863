/**
 * Retargeting by proportions (issue 13 item 1): the root-motion seed's appendix 2 (model hips
 * 0.7 m, clip hips 1.25 m) with a real clip — the CMU walk on copies of its skeleton scaled to
 * 0.7 / 1.25 = 0.56 and to 1.4 of its size.
 *
 * The source: the CMU skeleton standing as in its frame 0 (a BVH rest has its hips at the
 * origin, so no hip height; frame 0 is a natural standing pose, README of the assets): its hips'
 * rest translation is their frame-0 height h₀ = 0.954 m, every other offset as in the file.
 * The model: that skeleton with every rest translation × k. The clip: the BVH clip's frames
 * on the standing source.
 *
 * The ground: on the source, each foot's lowest point over the clip is the lowest model-space
 * height any of its joints (ankle, toe) reaches; the source's ground is the lower of the two
 * feet's. The joints sit above the floor by a height that scales with the body, so the model's
 * ground is k × the source's, and each of the model's feet should reach k × that foot's lowest
 * point on the source.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createClip,
  createSkeleton,
  findJoint,
  getModelMatrices,
  getRootTransform,
  parseBvh,
  play,
  setTargetSpeed,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type Skeleton,
  type TranslationOption,
} from '../../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { CMU_SCALE } from '../fixtures/realClips.js';
import { assetPath } from '../support/assets.js';

const bvh = parseBvh(readFileSync(assetPath('cmu_131_01_start_walk_stop.bvh'), 'utf8'), { scale: CMU_SCALE });
const h0 = bvh.clip.frames[1]!; // the hips' height in frame 0

/** `skeleton` with its hips' rest translation at (0, hipY, 0) and every translation × k. */
function resized(skeleton: Skeleton, k: number, hipY: number): Skeleton {
  const rest = Float32Array.from(skeleton.rest);
  rest[0] = 0; rest[1] = hipY; rest[2] = 0;
  for (let o = 0; o < rest.length; o += 10) for (let c = 0; c < 3; c++) rest[o + c]! *= k;
  return createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest });
}

const source = resized(bvh.skeleton, 1, h0);
const walk = createClip({ skeleton: source, frameRate: bvh.clip.frameRate, frames: bvh.clip.frames, loop: false, name: 'cmu walk' });
const FEET = [['LeftAnkle', 'LeftToe'], ['RightAnkle', 'RightToe']] as const;

/** Heights over the clip, one entry per step: hips and each foot's lowest joint (model space, plus the world y). */
interface Trace { hips: number[]; feet: [number[], number[]]; speed: number; rate: number }

/**
 * Plays `walk` on `model` with root motion at 1.6667 m/s (setTargetSpeed) and, beside it, on
 * the source at the same rate, so both are at the same clip time each step; steps one clip
 * frame at a time over the whole clip. Heights include the character's world y.
 */
function run(model: Skeleton, vertical: boolean, translation?: TranslationOption): { model: Trace; source: Trace } {
  const world = createAnimationWorld({ maxEntities: 3, maxJoints: 32 });
  const eid = spawnCharacter(world, model, { rootMotion: true, verticalRootMotion: vertical });
  const reference = spawnCharacter(world, source, { rootMotion: true, verticalRootMotion: vertical });
  play(world, eid, walk, translation === undefined ? {} : { translation });
  setTargetSpeed(world, eid, 1.6667);
  const rate = world.components.Layers.speed[eid * DEFAULT_MAX_LAYERS]!;
  play(world, reference, walk, { speed: rate });
  const traces = [trace(), trace()] as const;
  const dt = 1 / (walk.frameRate * rate);
  const steps = walk.frameCount - 1;
  for (let f = 0; f <= steps; f++) {
    step(world, f === 0 ? 0 : dt);
    record(world, eid, model, traces[0]);
    record(world, reference, source, traces[1]);
  }
  const root = getRootTransform(world, eid);
  traces[0].speed = Math.hypot(root.x, root.z) / (steps * dt);
  traces[0].rate = rate;
  return { model: traces[0], source: traces[1] };
}

function trace(): Trace {
  return { hips: [], feet: [[], []], speed: 0, rate: 0 };
}

function record(world: AnimationWorld, eid: number, skeleton: Skeleton, out: Trace): void {
  const m = getModelMatrices(world, eid);
  const y = getRootTransform(world, eid).y;
  const height = (name: string) => y + m[findJoint(skeleton, name) * 12 + 10]!;
  out.hips.push(height('Hips'));
  FEET.forEach((joints, side) => out.feet[side].push(Math.min(...joints.map(height))));
}

const maxGap = (a: number[], b: number[], k: number) => Math.max(...a.map((v, i) => Math.abs(v - k * b[i]!)));

describe("retargeting by proportions: the seed's appendix 2 with the CMU walk", () => {
  for (const k of [0.7 / 1.25, 1.4]) {
    for (const vertical of [false, true]) {
      it(`on the CMU skeleton × ${k.toFixed(2)}${vertical ? ', with verticalRootMotion' : ''}: hips at the model's height, feet on its ground, 1.6667 m/s`, () => {
        const model = resized(bvh.skeleton, k, h0);
        expect(model.hipHeight / source.hipHeight).toBeCloseTo(k, 6);
        const { model: m, source: s } = run(model, vertical);
        // Hips: the model's own hip height, moving as the clip's hips scaled by k.
        expect(maxGap(m.hips, s.hips, k)).toBeLessThan(0.01);
        expect(Math.abs(m.hips[0]! - model.hipHeight)).toBeLessThan(0.01); // frame 0 stands as the rest
        // Feet: each foot's lowest point over the clip at k × its lowest on the source.
        for (const side of [0, 1]) {
          expect(Math.abs(Math.min(...m.feet[side]) - k * Math.min(...s.feet[side]))).toBeLessThan(0.01);
          expect(maxGap(m.feet[side], s.feet[side], k)).toBeLessThan(0.01); // and every frame
        }
        // Speed: (k · 2.589 m) per 8.275 s at rate 1; setTargetSpeed plays it at 1.6667 / that.
        const travel = Math.hypot(-0.169061, 2.588578); // the clip's horizontal net travel, m
        expect(m.rate).toBeCloseTo(1.6667 / ((k * travel) / walk.duration), 2);
        expect(Number(m.speed.toPrecision(5))).toBe(1.6667);
      });
    }
  }

  it("as before ('animation'), the model takes the clip's bone lengths: its hips 0.42 m above its own", () => {
    const k = 0.7 / 1.25;
    const model = resized(bvh.skeleton, k, h0);
    const { model: m, source: s } = run(model, false, 'animation');
    // The clip's translations on every joint: the pose is the source's, at the source's size,
    // so the hips stand at h₀ = 0.954 m rather than the model's 0.534 m (its bones stretched by 1/k).
    expect(maxGap(m.hips, s.hips, 1)).toBeLessThan(1e-5);
    for (const side of [0, 1]) expect(maxGap(m.feet[side], s.feet[side], 1)).toBeLessThan(1e-5);
    expect(m.hips[0]! - model.hipHeight).toBeCloseTo((1 - k) * h0, 4);
  });

  it("a raw BVH clip (no rest hip height) scales its hips by the clip's mean hip height, as root travel does", () => {
    // The BVH skeleton has hipHeight 0: the clip's hips are its mean over the clip
    // (RootTrack.hipHeight). A model standing with its hips at k × that mean gets ratio k.
    const k = 0.7 / 1.25;
    let mean = 0;
    for (let f = 0; f < bvh.clip.frameCount; f++) mean += bvh.clip.frames[f * bvh.skeleton.jointCount * 10 + 1]!;
    mean /= bvh.clip.frameCount;
    const model = resized(bvh.skeleton, k, mean);
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 32 });
    const eid = spawnCharacter(world, model);
    const reference = spawnCharacter(world, bvh.skeleton);
    for (const e of [eid, reference]) play(world, e, bvh.clip, { time: 4, speed: 0 });
    step(world, 0);
    const a = getModelMatrices(world, eid), b = getModelMatrices(world, reference);
    for (let j = 0; j < model.jointCount; j++) {
      for (let c = 9; c < 12; c++) expect(a[j * 12 + c]).toBeCloseTo(k * b[j * 12 + c]!, 4);
    }
    // Root travel takes the same ratio: over 1 s of the walk the model's root goes k × the capture's.
    const moving = createAnimationWorld({ maxEntities: 3, maxJoints: 32 });
    const m = spawnCharacter(moving, model, { rootMotion: true }), r = spawnCharacter(moving, bvh.skeleton, { rootMotion: true });
    for (const e of [m, r]) play(moving, e, bvh.clip, { time: 4 });
    for (let f = 0; f <= 30; f++) step(moving, f === 0 ? 0 : 1 / 30);
    const [tm, tr] = [getRootTransform(moving, m), getRootTransform(moving, r)];
    expect(Math.hypot(tm.x, tm.z) / Math.hypot(tr.x, tr.z)).toBeCloseTo(k, 5);
  });
});

describe('translation modes, by hand', () => {
  // Source: root (origin) → hips 1 m up → knee 0.5 m below → foot 0.5 m below; a prop on the root.
  // Target: the same names, hips 0.7 m up, knee 0.4 m and foot 0.3 m below. Hip ratio 0.7.
  const I = [0, 0, 0, 1, 1, 1, 1];
  const names = ['root', 'hips', 'knee', 'foot', 'prop'];
  const parents = [-1, 0, 1, 2, 0];
  const from = createSkeleton({ names, parents, rest: [0, 0, 0, ...I, 0, 1, 0, ...I, 0, -0.5, 0, ...I, 0, -0.5, 0, ...I, 0.3, 0, 0, ...I] });
  const to = createSkeleton({ names, parents, rest: [0, 0, 0, ...I, 0, 0.7, 0, ...I, 0, -0.4, 0, ...I, 0, -0.3, 0, ...I, 0.2, 0, 0, ...I] });
  const q = [0, Math.sin(0.2), 0, Math.cos(0.2)]; // a turn of 0.4 rad about +Y, on every joint
  // One frame: root (0.1, 0, 0.2), hips (0.2, 1.1, 0.3), knee (0, −0.55, 0.1), foot (0, −0.5, 0), prop (0.3, 0.05, 0).
  const clipT = [[0.1, 0, 0.2], [0.2, 1.1, 0.3], [0, -0.55, 0.1], [0, -0.5, 0], [0.3, 0.05, 0]];
  const frames = clipT.flatMap((t) => [...t, ...q, 1, 1, 1]);
  const clip: Clip = createClip({ skeleton: from, frameRate: 30, frames: [...frames, ...frames], name: 'one pose' });
  const restT = [[0, 0, 0], [0, 0.7, 0], [0, -0.4, 0], [0, -0.3, 0], [0.2, 0, 0]];
  const scaled = (t: number[]) => t.map((v) => v * 0.7);

  function local(translation?: TranslationOption, target = to): Float32Array {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 8 });
    const eid = spawnCharacter(world, target);
    play(world, eid, clip, translation === undefined ? { speed: 0 } : { speed: 0, translation });
    step(world, 0);
    return Float32Array.from(world.components.LocalPose.data.subarray(eid * 8 * 10, eid * 8 * 10 + target.jointCount * 10));
  }
  function expectTranslations(pose: Float32Array, expected: number[][]): void {
    expected.forEach((t, j) => t.forEach((v, c) => expect(pose[j * 10 + c]).toBeCloseTo(v, 6)));
    for (let j = 0; j < expected.length; j++) q.forEach((v, c) => expect(pose[j * 10 + 3 + c]).toBeCloseTo(v, 6)); // rotations: the clip's
  }

  it("default: root and hips 'scaled' by 0.7, the other bones the target's", () => {
    expectTranslations(local(), [scaled(clipT[0]!), scaled(clipT[1]!), restT[2]!, restT[3]!, restT[4]!]);
  });
  it("'animation': the clip's translations", () => {
    expectTranslations(local('animation'), clipT);
  });
  it("'skeleton': the target's rest translations", () => {
    expectTranslations(local('skeleton'), restT);
  });
  it("'scaled': every translation × 0.7", () => {
    expectTranslations(local('scaled'), clipT.map(scaled));
  });
  it('a per-joint map changes the named joints and leaves the others to the default', () => {
    expectTranslations(local({ knee: 'animation', prop: 'scaled', root: 'skeleton' }), [restT[0]!, scaled(clipT[1]!), clipT[2]!, restT[3]!, scaled(clipT[4]!)]);
  });
  it('joints between the root and the hip are scaled too; a hip deeper in the tree takes its chain', () => {
    // Hip joint 'knee' at 0.7 − 0.4 = 0.3 m: ratio 0.3 / 1 on the chain root → hips → knee.
    const deep = createSkeleton({ names, parents, rest: to.rest, hipJoint: 'knee' });
    const ratio = (t: number[]) => t.map((v) => v * 0.3);
    expectTranslations(local(undefined, deep), [ratio(clipT[0]!), ratio(clipT[1]!), ratio(clipT[2]!), restT[3]!, restT[4]!]);
  });

  it('the clip on its own skeleton, or on a copy with the same rest, plays as authored, to the bit', () => {
    const copy = createSkeleton({ names, parents, rest: from.rest });
    const own = local(undefined, from);
    expect(Array.from(local(undefined, copy))).toEqual(Array.from(own));
    expectTranslations(own, clipT);
    // Asked for, the modes apply to the copy too, and to the clip's own skeleton (as
    // PlayOptions.translation and docs/retargeting.md say): the same rest, the same result.
    const fromRest = [[0, 0, 0], [0, 1, 0], [0, -0.5, 0], [0, -0.5, 0], [0.3, 0, 0]];
    expectTranslations(local('skeleton', copy), fromRest);
    expectTranslations(local('skeleton', from), fromRest);
    expectTranslations(local({ knee: 'skeleton' }, from), [clipT[0]!, clipT[1]!, fromRest[2]!, fromRest[3]!, fromRest[4]!]);
  });

  it('an additive layer of the clip over its own pose adds nothing on another skeleton', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 8 });
    const eid = spawnCharacter(world, to);
    play(world, eid, clip, { layer: 1, additive: true, speed: 0 });
    step(world, 0);
    const pose = world.components.LocalPose.data.subarray(eid * 80, eid * 80 + 50);
    for (let i = 0; i < 50; i++) expect(pose[i]).toBeCloseTo(to.rest[i]!, 6);
  });
});
