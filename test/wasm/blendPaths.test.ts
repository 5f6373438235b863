/**
 * The WebAssembly kernels for masked override layers (`blendOverrideMasked`) and additive
 * layers (`applyAdditive`, assembly/kernels.ts) against the JavaScript kernels they stand for
 * (`blendOverrideLayers`, `applyAdditiveLayer`): directly on random poses (every element within
 * float32 rounding of the doubles the JS kernels compute), and on RobotExpressive.glb crowds
 * played alike on a wasm world and a JS world (a walk, a masked upper-body override layer, an
 * additive masked layer of a difference clip; a re-rooted and re-axed variant of the skeleton):
 * the local poses within the documented bound relative to the pool's magnitude (docs/wasm.md),
 * and likewise sampling through proportions-only bindings (`sampleBound` against
 * `sampleClipInto` with the binding: 0.8× copies, renamed joints, a joint the clip lacks, every
 * translation mode; a crowd retargeted onto a 0.8× copy),
 * with the kernels really taken (the masks' and references' copies in the kernel area, not the
 * JavaScript path's bits). What has no copy (more masks than the tables cover) stays on
 * JavaScript, its bits.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { setKernelAreaFixed } from '../../src/wasm/loader.js';
import {
  bindSkeletons,
  createAnimationWorld,
  createClip,
  createDifferenceClip,
  createMask,
  createSkeleton,
  loadGltf,
  play,
  releaseMask,
  spawnCharacter,
  step,
  stop,
  type AnimationWorld,
  type Clip,
  type KernelChoice,
  type Mask,
  type Skeleton,
} from '../../src/index.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import type { Binding } from '../../src/assets/bindingTypes.js';
import { applyAdditiveLayer, blendLayeredLayers, blendLayerOverBase, blendOverrideLayers, BLEND_STEP_AVERAGE, BLEND_STEP_JOIN, BLEND_STEP_KIND_SHIFT, BLEND_STEP_LAYER } from '../../src/math/blendPose.js';
import { POSE_TABLE_IDS, sampleLayerWasm, syncKernelArea } from '../../src/wasm/kernels.js';
import { createRandom, syntheticSkeleton } from '../fixtures/synthetic.js';
import { ASSETS_URL } from '../support/assets.js';

const DT = 1 / 60;
/** Local pose elements: |Δ| ≤ this × max(1, largest |element| of the pool) (docs/wasm.md). */
const POSE_TOLERANCE = 1e-6;

/** Largest |a − b| over two arrays, and whether they hold the same bits. */
function compare(a: Float32Array, b: Float32Array): { max: number; identical: boolean } {
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    max = Math.max(max, d === d ? d : Number.isNaN(a[i]!) && Number.isNaN(b[i]!) ? 0 : Infinity);
  }
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let identical = a.length === b.length;
  for (let i = 0; identical && i < ua.length; i++) identical = ua[i] === ub[i];
  return { max, identical };
}

/** Largest |element| of a pool (the scale its float32 rounding is relative to). */
function magnitude(a: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

/** Each element within float32 rounding of `expected` (doubles rounded once): |Δ| ≤ 1e-6 · max(1, |expected|). */
function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!)));
  expect(worst).toBeLessThanOrEqual(1e-6);
  return worst;
}

/** Random layer poses into `pose` (`count` poses of `joints` joints): T in ±2, unit Q of either sign, S in [0.5, 1.5]. */
function randomPoses(pose: Float32Array, count: number, joints: number, random: () => number): void {
  for (let i = 0; i < count * joints * 10; i += 10) {
    for (let c = 0; c < 3; c++) pose[i + c] = (random() - 0.5) * 4;
    const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
    const n = Math.hypot(...q);
    for (let c = 0; c < 4; c++) pose[i + 3 + c] = q[c]! / n;
    for (let c = 7; c < 10; c++) pose[i + c] = 0.5 + random();
  }
}


/** The rest of this test creates wasm worlds on a plain memory with the fixed kernel area (as on a page that cannot share memory). */
function fixedArea(): void {
  setKernelAreaFixed(true);
  onTestFinished(() => setKernelAreaFixed(false));
}

describe('blendOverrideMasked and applyAdditive on random poses', () => {
  it('blendOverrideMasked is blendOverrideLayers within float32 rounding: masks with 0, fractional and full weights, 1 to 4 layers, totals below the threshold, opposite hemispheres', () => {
    const joints = 20;
    const skeleton = syntheticSkeleton(joints, 5);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: joints, kernels: 'wasm', blendThreshold: 0.3 });
    const kernels = world.wasm!;
    const { weight } = world.components.Layers;
    const pose = world.scratch.layerSamples;
    const local = world.components.LocalPose.data;
    const random = createRandom(41);
    // Masks: every fourth joint 0, the others a fraction, or all 1.
    const maskValues = [
      Float32Array.from({ length: joints }, (_, j) => (j % 4 === 0 ? 0 : random())),
      Float32Array.from({ length: joints }, () => 1),
      Float32Array.from({ length: joints }, (_, j) => (j < 10 ? 0 : 0.25)),
    ];
    const registries = kernels.registries.masks as Float32Array[];
    registries.push(...maskValues);
    syncKernelArea(kernels, [skeleton], []);
    const maskAt = maskValues.map((_, id) => kernels.area.maskTable[id]!);
    expect(maskAt.every((at) => at !== 0)).toBe(true);
    randomPoses(pose, 4, joints, random);
    const layerSize = joints * 10;
    kernels.area.params[0] = 0.3;
    const threshold = Float64Array.of(0.3);
    const expected = new Float32Array(layerSize);
    const layerOff = new Int32Array(4), layerWeight = new Float32Array(4);
    const layerMask: (Float32Array | null)[] = [null, null, null, null];
    // [weight, mask id or −1] per layer slot
    const cases: [number, number][][] = [
      [[1, -1], [0.7, 0]], [[0.6, 0], [0.4, 2]], [[0.2, 0]], [[0.1, 2], [0.05, 0]], [[0.5, -1], [0.5, 1], [0.3, 0], [0.9, 2]],
      [[0, 0], [0.8, 2]], [[0.25, 0], [0.25, 0], [0.25, 2], [0.25, 1]], [[1e-30, 0], [3, 2]],
    ];
    let worst = 0;
    for (const slots of cases) {
      let layers = 0, count = 0;
      for (let n = 0; n < 4; n++) {
        const [w, m] = slots[n] ?? [0, -1];
        weight[4 + n] = w;
        kernels.area.layerMasks[n] = m < 0 ? 0 : maskAt[m]!;
        if (n >= slots.length) continue;
        layers |= 1 << n;
        layerOff[count] = n * layerSize;
        layerWeight[count] = w;
        layerMask[count] = m < 0 ? null : maskValues[m]!;
        count++;
      }
      local.fill(9);
      kernels.blendOverrideMasked(local.byteOffset + layerSize * 4, pose.byteOffset, layerSize * 4, weight.byteOffset + 16, kernels.area.layerMasks.byteOffset, layers, joints, kernels.area.restTable[0]!, kernels.area.params.byteOffset);
      blendOverrideLayers(expected, 0, skeleton.rest, pose, layerOff, layerWeight, layerMask, count, joints, threshold);
      worst = Math.max(worst, expectClose(local.subarray(layerSize, 2 * layerSize), expected));
      expect(local[layerSize - 1]).toBe(9);
      expect(local[2 * layerSize]).toBe(9);
    }
    expect(worst).toBeGreaterThan(0); // float32, not the doubles' bits
  });

  it('blendOverrideLayered is blendLayeredLayers within float32 rounding: averages, layer groups with joins, steps out of slot order, masks, weights above 1, totals below the threshold', () => {
    const joints = 20;
    const skeleton = syntheticSkeleton(joints, 5);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: joints, kernels: 'wasm', blendThreshold: 0.3 });
    const kernels = world.wasm!;
    const { weight } = world.components.Layers;
    const pose = world.scratch.layerSamples;
    const local = world.components.LocalPose.data;
    const steps = world.scratch.layerPlan.steps; // in the kernels' memory
    const random = createRandom(43);
    const maskValues = [
      Float32Array.from({ length: joints }, (_, j) => (j % 4 === 0 ? 0 : random())),
      Float32Array.from({ length: joints }, () => 1),
      Float32Array.from({ length: joints }, (_, j) => (j < 10 ? 0 : 0.25)),
    ];
    (kernels.registries.masks as Float32Array[]).push(...maskValues);
    syncKernelArea(kernels, [skeleton], []);
    const maskAt = maskValues.map((_, id) => kernels.area.maskTable[id]!);
    randomPoses(pose, 4, joints, random);
    const layerSize = joints * 10;
    kernels.area.params[0] = 0.3;
    const threshold = Float64Array.of(0.3);
    const expected = new Float32Array(layerSize);
    const A = BLEND_STEP_AVERAGE, L = BLEND_STEP_LAYER, J = BLEND_STEP_JOIN;
    // Per case: the slots' [weight, mask id or −1], then the steps as [slot, kind] in blend order.
    const cases: [[number, number][], [number, number][]][] = [
      [[[1, -1], [1, 1]], [[0, A], [1, L]]],
      [[[1, -1], [0.8, 0]], [[0, A], [1, L]]],
      [[[0.6, 0], [0.3, 2], [0.9, 1]], [[0, A], [1, A], [2, L]]],
      [[[1, -1], [0.4, 0], [0.5, 2], [0.7, -1]], [[0, A], [3, L], [1, J], [2, A]]],
      [[[0.2, 2], [2.5, 0], [0.5, -1]], [[0, A], [1, L], [2, J]]],
      [[[0.05, 0], [0.1, 2]], [[0, A], [1, L]]],
      [[[0, -1], [0.7, 0], [0.6, -1]], [[0, A], [1, L], [2, L]]],
      [[[1, 1], [1, 1]], [[0, A], [1, L]]],
      [[[0.9, 0], [0.02, 2]], [[0, A], [1, L]]],
      // Unmasked one layer over a base (the kernel's joint-invariant form): two-layer blend,
      // the layer alone at weight 1, both under the threshold.
      [[[0.6, -1], [0.4, -1]], [[0, A], [1, L]]],
      [[[0.7, -1], [1, -1]], [[0, A], [1, L]]],
      [[[0.03, -1], [0.04, -1]], [[0, A], [1, L]]],
    ];
    let worst = 0;
    for (const [slots, order] of cases) {
      const layerOff = new Int32Array(4), layerWeight = new Float32Array(4);
      const layerMask: (Float32Array | null)[] = [null, null, null, null];
      for (let n = 0; n < 4; n++) {
        const [w, m] = slots[n] ?? [0, -1];
        weight[4 + n] = w;
        kernels.area.layerMasks[n] = m < 0 ? 0 : maskAt[m]!;
      }
      order.forEach(([n, kind], k) => {
        steps[k] = n | (kind << BLEND_STEP_KIND_SHIFT);
        layerOff[k] = n * layerSize;
        layerWeight[k] = slots[n]![0];
        layerMask[k] = slots[n]![1] < 0 ? null : maskValues[slots[n]![1]]!;
      });
      local.fill(9);
      kernels.blendOverrideLayered(local.byteOffset + layerSize * 4, pose.byteOffset, layerSize * 4, weight.byteOffset + 16, kernels.area.layerMasks.byteOffset, steps.byteOffset, order.length, joints, kernels.area.restTable[0]!, kernels.area.params.byteOffset);
      // One layer over a base takes the written-out kernel on both sides (blendLayerOverBase; it
      // agrees with blendLayeredLayers up to the sign of Q where the layer replaces the base).
      if (order.length === 2 && order[0]![1] === A && order[1]![1] === L) blendLayerOverBase(expected, 0, skeleton.rest, pose, layerOff[0]!, layerOff[1]!, layerWeight, layerMask[0]!, layerMask[1]!, joints, threshold);
      else blendLayeredLayers(expected, 0, skeleton.rest, pose, layerOff, layerWeight, layerMask, steps, order.length, joints, threshold);
      worst = Math.max(worst, expectClose(local.subarray(layerSize, 2 * layerSize), expected));
      expect(local[layerSize - 1]).toBe(9);
      expect(local[2 * layerSize]).toBe(9);
    }
    expect(worst).toBeGreaterThan(0); // float32, not the doubles' bits
  });

  it('applyAdditive is applyAdditiveLayer within float32 rounding: masked and unmasked, weights 0 to 1, reference scales of 0, opposite hemispheres', () => {
    const joints = 24;
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: joints, kernels: 'wasm' });
    const kernels = world.wasm!;
    const { weight } = world.components.Layers;
    const pose = world.scratch.layerSamples; // slot 0: the layer pose S, slot 1: the reference R, slot 2: the target T
    const local = world.components.LocalPose.data;
    const random = createRandom(8);
    const size = joints * 10;
    randomPoses(pose, 3, joints, random);
    // Reference scales of 0 on some lanes (the ratio is 1 there), and R = S on joint 3 (D = identity).
    pose[size + 5 * 10 + 7] = 0;
    pose[size + 9 * 10 + 8] = 0;
    pose.copyWithin(size + 30, 30, 40);
    const reference = pose.slice(size, 2 * size);
    const mask = Float32Array.from({ length: joints }, (_, j) => (j % 3 === 0 ? 0 : j % 3 === 1 ? 1 : random()));
    (kernels.registries.references as Float32Array[]).push(reference);
    (kernels.registries.masks as Float32Array[]).push(mask);
    syncKernelArea(kernels, [], []);
    const referenceAt = kernels.area.referenceTable[0]!, maskAt = kernels.area.maskTable[0]!;
    expect(referenceAt).not.toBe(0);
    const target = pose.slice(2 * size, 3 * size);
    let worst = 0;
    for (const w of [0, 1e-4, 0.3, 0.75, 1]) {
      for (const m of [null, mask]) {
        weight[0] = w;
        local.set(target, size); // character 1's row
        local[2 * size] = 9;
        kernels.applyAdditive(local.byteOffset + size * 4, pose.byteOffset, referenceAt, weight.byteOffset, m === null ? 0 : maskAt, joints);
        const expected = target.slice();
        applyAdditiveLayer(expected, 0, pose, 0, reference, weight, 0, m, joints);
        worst = Math.max(worst, expectClose(local.subarray(size, 2 * size), expected));
        expect(local[2 * size]).toBe(9);
        // β = 0 leaves a joint's bits (weight 0, or the mask's zeros).
        for (let j = 0; j < joints; j++) {
          if (w > 0 && (m === null || m[j]! > 0)) continue;
          expect(Array.from(local.subarray(size + j * 10, size + j * 10 + 10))).toEqual(Array.from(target.subarray(j * 10, j * 10 + 10)));
        }
      }
    }
    expect(worst).toBeGreaterThan(0);
    // R = S on joint 3 at β = 1: D is the identity, so the target comes back (within rounding).
    weight[0] = 1;
    local.set(target, size);
    kernels.applyAdditive(local.byteOffset + size * 4, pose.byteOffset, referenceAt, weight.byteOffset, 0, joints);
    const back = local.subarray(size + 30, size + 40), t3 = target.subarray(30, 40);
    for (let c = 0; c < 10; c++) expect(Math.abs(back[c]! - t3[c]!)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(t3[c]!)));
  });
});

let robot: Skeleton;
let walk: Clip, wave: Clip, idle: Clip, punch: Clip;

beforeAll(async () => {
  const gltf = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS_URL))));
  const named = (name: string): Clip => gltf.clips.find((c) => c.name === name)!;
  robot = gltf.skeletons[0]!;
  walk = named('Walking');
  wave = named('Wave');
  idle = named('Idle');
  punch = named('Punch');
}, 60_000);

/**
 * A variant of the Robot's skeleton and clips: the joints renamed (`prefix`), and the root's
 * rest and keys (rotation and translation) turned by one rotation on the left (a re-axed root),
 * so the poses differ from the file's while every clip stays a clip of the variant.
 */
function variant(prefix: string): { skeleton: Skeleton; clips: Clip[] } {
  const names = robot.names.map((n) => `${prefix}${n}`);
  const turn = [Math.sin(0.4) * 0.6, Math.sin(0.4) * 0.8, 0, Math.cos(0.4)];
  const turnPose = (values: Float32Array, joints: number, poses: number): Float32Array => {
    const out = Float32Array.from(values);
    for (let p = 0; p < poses; p++) {
      for (let j = 0; j < joints; j++) {
        if (robot.parents[j]! >= 0) continue;
        const o = (p * joints + j) * 10;
        const [bx, by, bz, bw] = turn as [number, number, number, number];
        const x = out[o + 3]!, y = out[o + 4]!, z = out[o + 5]!, w = out[o + 6]!;
        out.set([bw * x + bx * w + by * z - bz * y, bw * y - bx * z + by * w + bz * x, bw * z + bx * y - by * x + bz * w, bw * w - bx * x - by * y - bz * z], o + 3);
        const tx = out[o]!, ty = out[o + 1]!, tz = out[o + 2]!;
        // T rotated by the turn: t + 2w(v×t) + 2 v×(v×t)
        const cx = by * tz - bz * ty, cy = bz * tx - bx * tz, cz = bx * ty - by * tx;
        out.set([tx + 2 * (bw * cx + by * cz - bz * cy), ty + 2 * (bw * cy + bz * cx - bx * cz), tz + 2 * (bw * cz + bx * cy - by * cx)], o);
      }
    }
    return out;
  };
  const skeleton = createSkeleton({ names, parents: robot.parents, rest: turnPose(robot.rest, robot.jointCount, 1) });
  const clips = [walk, wave, idle, punch].map((c) => createClip({ skeleton, frameRate: c.frameRate, frames: turnPose(c.frames, robot.jointCount, c.frameCount), loop: c.loop, name: c.name }));
  return { skeleton, clips };
}

/**
 * `count` Robots on `kernels`: a walk (layer 0), a masked upper-body override layer (layer 1:
 * Wave, masked to the torso and its descendants at a fraction of the weight on the neck), and
 * an additive masked layer (layer 2: Punch − Idle, a difference clip, on the upper body); every
 * third character without the override layer, every fifth without the additive one.
 */
function robotCrowd(kernels: KernelChoice, skeleton: Skeleton, clips: Clip[], prefix: string, count: number, frames: number, blend: 'layer' | 'average' = 'layer'): AnimationWorld {
  const [w, wv, id, pu] = clips as [Clip, Clip, Clip, Clip];
  const upper: Mask = createMask(skeleton, { [`${prefix}Torso`]: 1, [`${prefix}Neck`]: 0.4 });
  const difference = createDifferenceClip(pu, id);
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, kernels });
  const random = createRandom(23);
  for (let n = 0; n < count; n++) {
    const eid = spawnCharacter(world, skeleton, { x: (n % 8) * 3, z: Math.floor(n / 8) * 3 });
    play(world, eid, w, { time: random() * w.duration });
    if (n % 3 !== 2) play(world, eid, wv, { layer: 1, time: random() * wv.duration, weight: 0.3 + 0.7 * random(), mask: upper, blend });
    if (n % 5 !== 4) play(world, eid, difference, { layer: 2, time: random() * difference.duration, weight: random(), mask: upper, additive: true });
  }
  for (let f = 0; f < frames; f++) step(world, DT);
  return world;
}

describe('masked and additive layers on a Robot crowd: the wasm world within the bound of the JS world', () => {
  const cases: [string, string, 'layer' | 'average'][] = [
    ['the file\'s skeleton', '', 'layer'], ['renamed, root re-axed', 'v_', 'layer'], ['the file\'s skeleton', '', 'average'], ['renamed, root re-axed', 'v_', 'average'],
  ];
  it.each(cases)('%s (prefix "%s"), the override layer blends by %s', (_name, prefix, blend) => {
    const { skeleton, clips } = prefix === '' ? { skeleton: robot, clips: [walk, wave, idle, punch] } : variant(prefix);
    const wasm = robotCrowd('wasm', skeleton, clips, prefix, 48, 50, blend);
    const js = robotCrowd('js', skeleton, clips, prefix, 48, 50, blend);
    const area = wasm.wasm!.area;
    // The mask and the difference clip's identity reference have copies: the kernels ran.
    expect(area.maskTable[0]).not.toBe(0);
    expect(area.referenceTable[0]).not.toBe(0);
    const a = wasm.components.LocalPose.data, b = js.components.LocalPose.data;
    const result = compare(a, b);
    expect(result.identical).toBe(false);
    expect(result.max).toBeLessThanOrEqual(POSE_TOLERANCE * Math.max(1, magnitude(b)));
    // Per character: the upper body moved off the walk (the layers are seen), identically on both.
    const row = wasm.maxJoints * 10;
    let moved = 0;
    for (let eid = 0; eid < 48; eid++) {
      const p = compare(a.subarray(eid * row, (eid + 1) * row), b.subarray(eid * row, (eid + 1) * row));
      expect(p.max).toBeLessThanOrEqual(POSE_TOLERANCE * Math.max(1, magnitude(b)));
      if (!p.identical) moved++;
    }
    expect(moved).toBeGreaterThan(40);
    const palette = compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data);
    expect(palette.max).toBeLessThanOrEqual(1e-5 * Math.max(1, magnitude(js.components.SkinPalette.data)));
  });

  it('a mask id released and taken by another mask is copied anew (the table never serves the old weights)', () => {
    const lower = createMask(robot, { Torso: 0, Hips: 1 }), upper = createMask(robot, { Torso: 1 });
    const eids = [0, 0];
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 4, maxJoints: robot.jointCount, kernels });
      eids[0] = spawnCharacter(world, robot);
      play(world, eids[0], walk, { time: 0.3 });
      play(world, eids[0], wave, { layer: 1, time: 0.4, weight: 0.9, mask: lower });
      for (let f = 0; f < 3; f++) step(world, DT);
      stop(world, eids[0], 1);
      expect(releaseMask(world, lower)).toBe(true);
      play(world, eids[0], wave, { layer: 1, time: 0.4, weight: 0.9, mask: upper }); // takes the released id
      for (let f = 0; f < 3; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    expect(wasm.components.Layers.mask[eids[0]! * wasm.maxLayers + 1]).toBe(0); // the same id, 0
    expect(wasm.wasm!.maskCopied[0]).toBe(upper.weights);
    const a = wasm.components.LocalPose.data, b = js.components.LocalPose.data;
    const result = compare(a, b);
    expect(result.identical).toBe(false);
    expect(result.max).toBeLessThanOrEqual(POSE_TOLERANCE * Math.max(1, magnitude(b)));
  });

  it.each(['average', 'layer'] as const)(`masks and references beyond the tables' ${POSE_TABLE_IDS} ids blend on JavaScript, its bits (blend: '%s')`, (blend) => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    let eid = -1;
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 4, maxJoints: robot.jointCount, kernels });
      // Fill the mask ids below the table's end with masks no character uses.
      const masks = world.assets.masks;
      for (let id = 0; id < POSE_TABLE_IDS; id++) masks.push(new Float32Array(robot.jointCount));
      const upper = createMask(robot, { Torso: 1 });
      eid = spawnCharacter(world, robot);
      play(world, eid, walk, { time: 0.31 });
      play(world, eid, wave, { layer: 1, time: 0.52, weight: 0.8, mask: upper, blend });
      for (let f = 0; f < 10; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    expect(wasm.assets.masks.length).toBe(POSE_TABLE_IDS + 1);
    const row = wasm.maxJoints * 10;
    // The walk and the wave are sampled on the kernel (float32), the masked blend on JavaScript:
    // compared against the JS world, the result is within rounding; its blend is JavaScript's,
    // so feeding the same samples to blendOverrideLayers gives its bits.
    const a = wasm.components.LocalPose.data.subarray(eid * row, (eid + 1) * row), b = js.components.LocalPose.data.subarray(eid * row, (eid + 1) * row);
    const pose = compare(a, b);
    expect(pose.identical).toBe(false); // sampled between keys on the kernel
    expect(pose.max).toBeLessThanOrEqual(POSE_TOLERANCE * Math.max(1, magnitude(b)));
    const samples = wasm.scratch.layerSamples;
    const expected = new Float32Array(robot.jointCount * 10);
    const { weight, maxLayers } = wasm.components.Layers;
    const offs = Int32Array.of(0, row), weights = Float32Array.of(weight[eid * maxLayers]!, weight[eid * maxLayers + 1]!), masks = [null, wasm.assets.masks[POSE_TABLE_IDS]!];
    if (blend === 'average') blendOverrideLayers(expected, 0, robot.rest, samples, offs, weights, masks, 2, robot.jointCount, Float64Array.of(wasm.blendThreshold));
    else blendLayeredLayers(expected, 0, robot.rest, samples, offs, weights, masks, Int32Array.of(0, 1 | (BLEND_STEP_LAYER << BLEND_STEP_KIND_SHIFT)), 2, robot.jointCount, Float64Array.of(wasm.blendThreshold));
    expect(compare(a.subarray(0, robot.jointCount * 10), expected).identical).toBe(true);
  });
});

/**
 * The Robot's skeleton at `scale` × its bone lengths, every fifth joint renamed by `prefix`
 * (the rest keep their names, so `play` still finds the clips bindable), with one joint more
 * (`extra`, under the root, not in the clips) when `extra`.
 */
function resized(scale: number, prefix: string, extra: boolean): Skeleton {
  const rest = Array.from(robot.rest);
  for (let j = 0; j < robot.jointCount; j++) for (let c = 0; c < 3; c++) rest[j * 10 + c]! *= scale;
  const names = robot.names.map((n, j) => (j % 5 === 2 ? `${prefix}${n}` : n));
  const parents = Array.from(robot.parents);
  if (extra) {
    names.push('extra');
    parents.push(0);
    rest.push(0.1, 0.2, 0, 0, 0, 0, 1, 1, 1, 1);
  }
  return createSkeleton({ names, parents, rest });
}

describe('sampleBound: dense clips through proportions-only bindings', () => {
  it('gives sampleClipInto\'s bits at frames and its numbers within float32 rounding between them, for every translation mode, renamed joints and a joint the clip lacks', () => {
    const plain = resized(0.8, '', false);
    const renamed = resized(1.3, 'r_', true);
    const map = Object.fromEntries(robot.names.map((n, j) => [renamed.names[j]!, n]));
    const modes = Object.fromEntries(robot.names.map((n, j) => [n, (['skeleton', 'animation', 'scaled'] as const)[j % 3]!]));
    const bindings: Binding[] = [
      bindSkeletons(robot, plain),
      bindSkeletons(robot, plain, { translation: 'animation' }),
      bindSkeletons(robot, plain, { translation: modes, hipRatio: 0.7 }),
      bindSkeletons(robot, renamed, { joints: map, translation: 'scaled', hipRatio: 1.3 }),
    ];
    for (const binding of bindings) expect(binding.retarget).toBeNull();
    expect(new Set(bindings[2]!.translationMode)).toEqual(new Set([0, 1, 2]));
    expect(bindings[3]!.sourceJoint[robot.jointCount]).toBe(-1);
    const joints = renamed.jointCount;
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: joints, kernels: 'wasm' });
    const kernels = world.wasm!;
    (kernels.registries.bindings as Binding[]).push(...bindings);
    syncKernelArea(kernels, [], [walk]);
    for (let id = 0; id < bindings.length; id++) expect(kernels.area.bindingTable[id]).not.toBe(0);
    const { time } = world.components.Layers;
    const pose = world.scratch.layerSamples;
    const times = [0, 1 / walk.frameRate, 0.4, 0.4123, walk.duration, walk.duration + 1, -0.3, NaN];
    for (let n = 0; n < 30; n++) times.push((n / 29) * walk.duration);
    let between = 0;
    for (let id = 0; id < bindings.length; id++) {
      const binding = bindings[id]!;
      const size = binding.sourceJoint.length * 10;
      const expected = new Float32Array(size);
      for (const t of times) {
        time[1] = t;
        pose.fill(7);
        expect(sampleLayerWasm(kernels, 0, pose.byteOffset, time.byteOffset + 8, id)).toBe(true);
        sampleClipInto(expected, 0, walk, time, 1, binding);
        const position = t * walk.frameRate, frame = Math.floor(position);
        const atFrame = !(frame >= 0) || frame >= walk.frameCount - 1 || position - frame === 0;
        const actual = pose.subarray(0, size);
        if (atFrame) expect(compare(actual, expected).identical).toBe(true);
        else {
          expectClose(actual, expected);
          between++;
        }
        expect(pose[size]).toBe(7);
      }
    }
    expect(between).toBeGreaterThan(60);
  });

  it('a Robot crowd retargeted onto a 0.8× copy (and a renamed 1.3× copy with a joint more), masked and additive layers on it: the wasm world within the bound of the JS world, sampled on the kernels (baked clips, a bound difference clip)', () => {
    for (const target of [resized(0.8, '', false), resized(1.3, 'r_', true)]) {
      const renamed = target.jointCount > robot.jointCount;
      const upper = createMask(target, { [target.names[robot.names.indexOf('Torso')]!]: 1 });
      const difference = createDifferenceClip(punch, idle);
      const bind = renamed ? { binding: bindSkeletons(robot, target, { joints: Object.fromEntries(robot.names.map((name, j) => [target.names[j]!, name])) }) } : {};
      const make = (kernels: KernelChoice): AnimationWorld => {
        const world = createAnimationWorld({ maxEntities: 40, maxJoints: target.jointCount, kernels });
        const random = createRandom(4);
        for (let n = 0; n < 40; n++) {
          const eid = spawnCharacter(world, target, { x: n % 8, z: Math.floor(n / 8) });
          play(world, eid, walk, { time: random() * walk.duration, weight: 0.6, ...bind });
          if (n % 2 === 0) play(world, eid, wave, { layer: 1, time: random(), weight: 0.5, mask: upper, ...bind });
          // (The renamed copy plays no additive layer: `play` binds the difference clip's reference by names.)
          if (n % 3 === 0 && !renamed) play(world, eid, difference, { layer: 2, time: random(), weight: 0.8, mask: upper, additive: true });
        }
        for (let f = 0; f < 30; f++) step(world, DT);
        return world;
      };
      const wasm = make('wasm'), js = make('js');
      // Dense override clips play baked onto the target (its own clips, on sampleClip); only the
      // additive difference clip plays through its binding (sampleBound).
      const bound = wasm.assets.bindings.filter((b) => b !== undefined);
      expect(bound.length).toBe(renamed ? 0 : 1);
      const played = wasm.assets.clips.filter((c) => c !== undefined && (c.name === walk.name || c.name === wave.name));
      expect(played.length).toBe(2);
      for (const clip of played) expect(clip!.skeleton).toBe(target);
      for (let id = 0; id < wasm.assets.bindings.length; id++) {
        if (wasm.assets.bindings[id] !== undefined) expect(wasm.wasm!.area.bindingTable[id]).not.toBe(0);
      }
      const a = wasm.components.LocalPose.data, b = js.components.LocalPose.data;
      const result = compare(a, b);
      expect(result.identical).toBe(false);
      expect(result.max).toBeLessThanOrEqual(POSE_TOLERANCE * Math.max(1, magnitude(b)));
      expect(compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data).max).toBeLessThanOrEqual(1e-5 * Math.max(1, magnitude(js.components.SkinPalette.data)));
    }
  });
});
