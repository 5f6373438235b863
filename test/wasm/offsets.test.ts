/**
 * The transition offsets on the WebAssembly kernels (assembly/offsets.ts, through
 * src/wasm/offsetsWasm.ts) against the JavaScript kernels they stand for
 * (src/systems/inertializeOffsets.ts, src/systems/deadBlendOffsets.ts), on random offsets and
 * poses in a wasm world's memory: the JavaScript kernels' bits where both compute the same
 * operations in doubles (quintic offsets, a dead blend below a half angle of ½ radian, spring
 * translations and scales, quintic and spring curves), and within float32 rounding where the
 * kernels call their own `Math.sin`, `Math.cos` or `Math.exp` (spring rotations, dead-blend
 * rotations past that angle, dead-blend curves). The WebAssembly kernels are really taken (their
 * calls counted); a world whose blocks are not in the memory runs the JavaScript kernels.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, type AnimationWorld } from '../../src/index.js';
import { addSpringOffsets, applyQuinticCurveOffsets, applyQuinticOffsets, applySpringCurveOffsets, applySpringOffsets } from '../../src/systems/inertializeOffsets.js';
import { applyDeadBlend, applyDeadBlendCurves, DEAD_CLOCK, DEAD_WEIGHT } from '../../src/systems/deadBlendOffsets.js';
import { addSpringOffsetsOn, deadBlendOn, deadCurvesOn, quinticCurvesOn, quinticOffsetsOn, springCurvesOn, springOffsetsOn } from '../../src/wasm/offsetsWasm.js';
import { compareBits, fillRandomPoses } from '../fixtures/kernelData.js';
import { createRandom } from '../fixtures/synthetic.js';

const JOINTS = 25, CURVES = 8; // odd: the dead blend's last joint runs alone, the rest two at a time
const POSE = 10, SLOT = 20;

/** A wasm world whose pools hold the test's blocks, with each offsets kernel's calls counted. */
function kernelWorld(): { world: AnimationWorld; calls: Record<string, number> } {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: JOINTS, maxCurves: CURVES, kernels: 'wasm' });
  expect(world.kernels).toBe('wasm');
  const calls: Record<string, number> = {};
  const kernels = world.wasm as unknown as Record<string, (...args: number[]) => number>;
  for (const name of ['applyQuinticOffsets', 'applySpringOffsets', 'addSpringOffsets', 'applyDeadBlend', 'applyQuinticCurveOffsets', 'applySpringCurveOffsets', 'applyDeadBlendCurves']) {
    const kernel = kernels[name]!;
    calls[name] = 0;
    kernels[name] = (...args: number[]) => {
      calls[name]!++;
      return kernel(...args);
    };
  }
  return { world, calls };
}

/** `JOINTS` random joint poses (test/fixtures/kernelData.ts). */
const fillPoses = (pose: Float32Array, at: number, random: () => number): void => fillRandomPoses(pose, at, JOINTS, random);

/** A random unit vector into `out[at ..]`. */
function unit(out: Float32Array, at: number, random: () => number): void {
  const v = [random() - 0.5, random() - 0.5, random() - 0.5];
  const n = Math.hypot(...v);
  for (let c = 0; c < 3; c++) out[at + c] = v[c]! / n;
}

/** Largest |a − b| and the count of elements whose bits differ (test/fixtures/kernelData.ts). */
const compare = compareBits;

describe('transition offsets on the WebAssembly kernels', () => {
  it('quintic offsets: the JavaScript kernel\'s bits (joints and curves), mid-decay, at its end and past it', () => {
    const { world, calls } = kernelWorld();
    const { LocalPose, Inertialization, Curves } = world.components;
    const random = createRandom(31);
    const local = LocalPose.data, slots = Inertialization.slots, elapsed = Inertialization.elapsed;
    const poseOff = JOINTS * POSE; // character 1's row
    for (let round = 0; round < 20; round++) {
      fillPoses(local, poseOff, random);
      for (let j = 0; j < JOINTS; j++) {
        for (let channel = 0; channel < 3; channel++) {
          const c = j * 18 + channel * 6;
          unit(slots, c, random);
          // x0 (a rotation's up to ±π), k = v0·t1 ≤ 0 of the same sign convention, 1/t1; one channel in five at rest.
          slots[c + 3] = random() < 0.2 ? 0 : (random() - 0.5) * (channel === 1 ? 2 * Math.PI : 2);
          slots[c + 4] = -random() * Math.abs(slots[c + 3]!) * 3;
          slots[c + 5] = 1 / (0.05 + random() * 0.5);
        }
      }
      elapsed[1] = round === 19 ? 10 : random() * 0.6;
      const expected = local.slice(poseOff, poseOff + JOINTS * POSE);
      applyQuinticOffsets(expected, 0, slots.slice(), 0, JOINTS, elapsed.slice(), 1);
      quinticOffsetsOn(world, local, poseOff, slots, 0, JOINTS, elapsed, 1);
      expect(compare(local.subarray(poseOff, poseOff + JOINTS * POSE), expected).differing).toBe(0);

      for (let c = 0; c < CURVES; c++) {
        Curves.values[CURVES + c] = random() * 2 - 1;
        Curves.slots[c * 3] = random() < 0.2 ? 0 : random() - 0.5;
        Curves.slots[c * 3 + 1] = -random();
        Curves.slots[c * 3 + 2] = 1 / (0.05 + random() * 0.5);
      }
      const values = Curves.values.slice(CURVES, 2 * CURVES);
      applyQuinticCurveOffsets(values, 0, Curves.slots.slice(), 0, CURVES, elapsed.slice(), 1);
      quinticCurvesOn(world, Curves.values, CURVES, Curves.slots, 0, CURVES, elapsed, 1);
      expect(compare(Curves.values.subarray(CURVES, 2 * CURVES), values).differing).toBe(0);
    }
    expect(calls['applyQuinticOffsets']).toBe(20);
    expect(calls['applyQuinticCurveOffsets']).toBe(20);
  });

  it('spring offsets: translations, scales, the offsets advanced and the rest flag bit for bit; rotations within float32 rounding; curves bit for bit', () => {
    const { world, calls } = kernelWorld();
    const { LocalPose, Inertialization, Curves } = world.components;
    const random = createRandom(32);
    const local = LocalPose.data, slots = Inertialization.slots, halfLife = Inertialization.halfLife;
    const poseOff = JOINTS * POSE, size = JOINTS * POSE;
    let rotationDiffering = 0, rotationMax = 0;
    for (let round = 0; round < 20; round++) {
      fillPoses(local, poseOff, random);
      // Offsets (a rotation vector up to π rad) and velocities; the last round nearly at rest.
      const scale = round === 19 ? 1e-7 : 1;
      for (let i = 0; i < JOINTS * 18; i++) slots[i] = (random() - 0.5) * scale * (i % 18 >= 6 && i % 18 < 9 ? 3.6 : 1);
      halfLife[1] = 0.05 + random() * 0.3;
      const dt = round % 3 === 0 ? 1 / 30 : random() * 0.05;
      const expectedPose = local.slice(poseOff, poseOff + size), expectedSlots = slots.slice(0, JOINTS * 18);
      const activeJs = applySpringOffsets(expectedPose, 0, expectedSlots, 0, JOINTS, halfLife.slice(), 1, dt);
      const active = springOffsetsOn(world, local, poseOff, slots, 0, JOINTS, halfLife, 1, dt);
      expect(active).toBe(activeJs);
      expect(active).toBe(round !== 19);
      expect(compare(slots.subarray(0, JOINTS * 18), expectedSlots).differing).toBe(0);
      const got = local.subarray(poseOff, poseOff + size);
      for (let j = 0; j < JOINTS; j++) {
        for (const c of [0, 1, 2, 7, 8, 9]) expect(Object.is(got[j * POSE + c], expectedPose[j * POSE + c]), `joint ${j} element ${c}`).toBe(true);
      }
      const all = compare(got, expectedPose);
      rotationDiffering += all.differing;
      rotationMax = Math.max(rotationMax, all.max);

      // addSpringOffsets: the offsets as they stand, on a fresh pose.
      fillPoses(local, poseOff, random);
      const added = local.slice(poseOff, poseOff + size);
      addSpringOffsets(added, 0, slots.slice(0, JOINTS * 18), 0, JOINTS);
      addSpringOffsetsOn(world, local, poseOff, slots, 0, JOINTS);
      const second = compare(local.subarray(poseOff, poseOff + size), added);
      rotationDiffering += second.differing;
      rotationMax = Math.max(rotationMax, second.max);

      for (let c = 0; c < CURVES; c++) {
        Curves.values[CURVES + c] = random() * 2 - 1;
        Curves.slots[c * 3] = (random() - 0.5) * scale;
        Curves.slots[c * 3 + 1] = (random() - 0.5) * scale;
      }
      const values = Curves.values.slice(CURVES, 2 * CURVES), curveSlots = Curves.slots.slice(0, CURVES * 3);
      const curvesJs = applySpringCurveOffsets(values, 0, curveSlots, 0, CURVES, halfLife.slice(), 1, dt);
      expect(springCurvesOn(world, Curves.values, CURVES, Curves.slots, 0, CURVES, halfLife, 1, dt)).toBe(curvesJs);
      expect(compare(Curves.values.subarray(CURVES, 2 * CURVES), values).differing).toBe(0);
      expect(compare(Curves.slots.subarray(0, CURVES * 3), curveSlots).differing).toBe(0);
    }
    console.log(`spring rotations: ${rotationDiffering} of ${40 * JOINTS * 4} components differ from the JavaScript kernel's bits, by at most ${rotationMax.toExponential(2)}`);
    expect(rotationMax).toBeLessThanOrEqual(2 ** -23);
    expect(calls['applySpringOffsets']).toBe(20);
    expect(calls['addSpringOffsets']).toBe(20);
    expect(calls['applySpringCurveOffsets']).toBe(20);
  });

  it('dead blending: the JavaScript kernel\'s bits below a half angle of ½ radian, within float32 rounding above it; curves within float32 rounding', () => {
    const { world, calls } = kernelWorld();
    const { LocalPose, Inertialization, Curves } = world.components;
    const random = createRandom(33);
    const local = LocalPose.data, slots = Inertialization.slots, clock = world.scratch.deadClock;
    const poseOff = JOINTS * POSE, size = JOINTS * POSE;
    let largeDiffering = 0, largeMax = 0, curveMax = 0;
    for (let round = 0; round < 30; round++) {
      fillPoses(local, poseOff, random);
      // Half the rounds with slow joints (every half angle < ½), half up to the 8π rad/s clamp.
      const fast = round % 2 === 1;
      for (let j = 0; j < JOINTS; j++) {
        const o = j * SLOT;
        for (let c = 0; c < 3; c++) slots[o + c] = (random() - 0.5) * 4; // the source: T, unit Q, S (a pose's layout)
        const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
        const n = Math.hypot(...q);
        for (let c = 0; c < 4; c++) slots[o + 3 + c] = q[c]! / n;
        for (let c = 7; c < 10; c++) slots[o + c] = 0.5 + random();
        for (let c = 10; c < 19; c++) slots[o + c] = (random() - 0.5) * (c >= 13 && c < 16 ? (fast ? 16 * Math.PI : 1) : 2);
        slots[o + 19] = Math.LN2 / (0.02 + random() * 0.3); // decay rate
      }
      clock[DEAD_CLOCK] = round === 28 ? 0 : random() * 0.5;
      clock[DEAD_WEIGHT] = random() * 0.99;
      const expected = local.slice(poseOff, poseOff + size);
      applyDeadBlend(expected, 0, slots.slice(0, JOINTS * SLOT), 0, JOINTS, clock.slice());
      deadBlendOn(world, local, poseOff, slots, 0, JOINTS, clock);
      const result = compare(local.subarray(poseOff, poseOff + size), expected);
      if (fast) {
        largeDiffering += result.differing;
        largeMax = Math.max(largeMax, result.max);
      } else expect(result.differing, `round ${round}`).toBe(0);

      for (let c = 0; c < CURVES; c++) {
        Curves.values[CURVES + c] = random() * 2 - 1;
        Curves.slots[c * 3] = random() - 0.5;
        Curves.slots[c * 3 + 1] = (random() - 0.5) * 4;
        Curves.slots[c * 3 + 2] = Math.LN2 / (0.02 + random() * 0.3);
      }
      const values = Curves.values.slice(CURVES, 2 * CURVES);
      applyDeadBlendCurves(values, 0, Curves.slots.slice(), 0, CURVES, clock.slice());
      deadCurvesOn(world, Curves.values, CURVES, Curves.slots, 0, CURVES, clock);
      curveMax = Math.max(curveMax, compare(Curves.values.subarray(CURVES, 2 * CURVES), values).max);
    }
    console.log(`dead blend, fast joints: ${largeDiffering} of ${15 * size} elements differ from the JavaScript kernel's bits, by at most ${largeMax.toExponential(2)}; curves by at most ${curveMax.toExponential(2)}`);
    expect(largeMax).toBeLessThanOrEqual(2 ** -22);
    expect(curveMax).toBeLessThanOrEqual(2 ** -22);
    expect(calls['applyDeadBlend']).toBe(30);
    expect(calls['applyDeadBlendCurves']).toBe(30);
  });

  it('blocks outside the kernels\' memory (and a JavaScript world) run the JavaScript kernels, their bits', () => {
    const { world, calls } = kernelWorld();
    const random = createRandom(34);
    const pose = new Float32Array(JOINTS * POSE), slots = new Float32Array(JOINTS * 18);
    fillPoses(pose, 0, random);
    for (let i = 0; i < slots.length; i++) slots[i] = random() - 0.5;
    const elapsed = Float32Array.of(0.1), halfLife = Float32Array.of(0.2);
    const expected = pose.slice(), expectedSlots = slots.slice();
    applyQuinticOffsets(expected, 0, expectedSlots, 0, JOINTS, elapsed, 0);
    quinticOffsetsOn(world, pose, 0, slots, 0, JOINTS, elapsed, 0);
    applySpringOffsets(expected, 0, expectedSlots, 0, JOINTS, halfLife, 0, 1 / 60);
    springOffsetsOn(world, pose, 0, slots, 0, JOINTS, halfLife, 0, 1 / 60);
    expect(compare(pose, expected).differing).toBe(0);
    expect(calls['applyQuinticOffsets']).toBe(0);
    expect(calls['applySpringOffsets']).toBe(0);
    const js = createAnimationWorld({ maxEntities: 2, maxJoints: JOINTS, kernels: 'js' });
    const local = js.components.LocalPose.data;
    fillPoses(local, 0, random);
    const before = local.slice(0, JOINTS * POSE);
    applyQuinticOffsets(before, 0, slots, 0, JOINTS, elapsed, 0);
    quinticOffsetsOn(js, local, 0, slots, 0, JOINTS, elapsed, 0);
    expect(compare(local.subarray(0, JOINTS * POSE), before).differing).toBe(0);
  });
});
