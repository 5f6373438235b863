/**
 * A transition's capture kernels on the WebAssembly side (assembly/capture.ts, through
 * src/wasm/offsetsWasm.ts) against the JavaScript kernels they stand for
 * (src/systems/captureOffsets.ts `captureOffsets`, `writeSourcePast`), on random poses in a wasm
 * world's memory: the offsets at a switch (quintic and spring; targets near and far, sources
 * still and moving, quintic starts heading toward zero) and a request's P2 (with no running
 * offset, a running quintic mid-curve or ended, a running spring). Both compute the same
 * operations in doubles; where they call `Math.atan2`, `Math.sin` or `Math.cos` the kernels take
 * AssemblyScript's (musl's) versions, so the bits may differ there in a last place: counted,
 * and bounded by float32 rounding. The WebAssembly kernels are really taken (calls counted); a
 * job whose blocks are not in the memory runs the JavaScript kernel.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, play, spawnCharacter, step, transition, type AnimationWorld } from '../../src/index.js';
import { INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING } from '../../src/components/Inertialization.js';
import { captureOffsets, createCaptureJob, writeSourcePast, type CaptureJob } from '../../src/systems/captureOffsets.js';
import { captureOffsetsOn, writeSourcePastOn } from '../../src/wasm/offsetsWasm.js';
import { compareBits, fillRandomPoses } from '../fixtures/kernelData.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const JOINTS = 24, POSE = 10, OFFSETS = 18;
const POSE_FLOATS = JOINTS * POSE, OFFSET_FLOATS = JOINTS * OFFSETS;

/** A wasm world whose LocalPose pool holds the test's blocks (character rows 1–5), with the capture kernels' calls counted. */
function kernelWorld(): { world: AnimationWorld; calls: Record<string, number> } {
  const world = createAnimationWorld({ maxEntities: 6, maxJoints: JOINTS, kernels: 'wasm' });
  expect(world.kernels).toBe('wasm');
  const calls: Record<string, number> = { captureOffsets: 0, writeSourcePast: 0 };
  const kernels = world.wasm as unknown as Record<string, (...args: number[]) => void>;
  for (const name of Object.keys(calls)) {
    const kernel = kernels[name]!;
    kernels[name] = (...args: number[]) => {
      calls[name]!++;
      kernel(...args);
    };
  }
  return { world, calls };
}

/** `JOINTS` random joint poses (test/fixtures/kernelData.ts). */
const fillPoses = (pose: Float32Array, at: number, random: () => number): void => fillRandomPoses(pose, at, JOINTS, random);

/** `to ← from` moved a little: each translation and scale by up to ±`step`, each rotation by up to `step` rad about a random axis (some joints left still). */
function nudge(pose: Float32Array, to: number, from: number, step: number, random: () => number): void {
  for (let j = 0; j < JOINTS; j++) {
    const p = from + j * POSE, q = to + j * POSE;
    const still = j % 6 === 5;
    for (const c of [0, 1, 2, 7, 8, 9]) pose[q + c] = still ? pose[p + c]! : pose[p + c]! + (random() - 0.5) * 2 * step;
    const half = still ? 0 : random() * step * 0.5;
    const axis = [random() - 0.5, random() - 0.5, random() - 0.5];
    const n = Math.hypot(...axis);
    const dx = (axis[0]! / n) * Math.sin(half), dy = (axis[1]! / n) * Math.sin(half), dz = (axis[2]! / n) * Math.sin(half), dw = Math.cos(half);
    const x = pose[p + 3]!, y = pose[p + 4]!, z = pose[p + 5]!, w = pose[p + 6]!;
    pose[q + 3] = dw * x + dx * w + dy * z - dz * y;
    pose[q + 4] = dw * y - dx * z + dy * w + dz * x;
    pose[q + 5] = dw * z + dx * y - dy * x + dz * w;
    pose[q + 6] = dw * w - dx * x - dy * y - dz * z;
  }
}

/** Random running offsets of `mode` (quintic: unit direction, x0, k, 1/t1, one channel in five at rest; spring: vectors and velocities). */
function fillOffsets(offsets: Float32Array, at: number, mode: number, random: () => number): void {
  for (let j = 0; j < JOINTS; j++) {
    for (let channel = 0; channel < 3; channel++) {
      const c = at + j * OFFSETS + channel * 6;
      if (mode === INERTIA_SPRING) {
        for (let a = 0; a < 6; a++) offsets[c + a] = (random() - 0.5) * (channel === 1 && a < 3 ? 2 : 1);
        continue;
      }
      const v = [random() - 0.5, random() - 0.5, random() - 0.5];
      const n = Math.hypot(...v);
      for (let a = 0; a < 3; a++) offsets[c + a] = v[a]! / n;
      offsets[c + 3] = random() < 0.2 ? 0 : random() * (channel === 1 ? Math.PI : 1);
      offsets[c + 4] = -random() * offsets[c + 3]! * 3;
      offsets[c + 5] = 1 / (0.05 + random() * 0.5);
    }
  }
}

/** Largest |a − b| and the count of elements whose bits differ (test/fixtures/kernelData.ts). */
const compare = compareBits;

/** The job over LocalPose rows: T(τ) at row 1, T(τ − σh) row 2, P1 row 3, P2 row 4, offsets in Inertialization.slots. */
function jobOn(world: AnimationWorld): CaptureJob {
  const local = world.components.LocalPose.data;
  const job = createCaptureJob();
  job.blend = local; job.blendOff = POSE_FLOATS;
  job.blendOther = local; job.blendOtherOff = 2 * POSE_FLOATS;
  job.p1 = local; job.p1Off = 3 * POSE_FLOATS;
  job.p2 = local; job.p2Off = 4 * POSE_FLOATS;
  job.offsets = world.components.Inertialization.slots; job.offsetsOff = 0;
  job.jointCount = JOINTS;
  return job;
}

/** The same job on copies outside the memory (the JavaScript kernels' run). */
function copyJob(job: CaptureJob): CaptureJob {
  const copy = createCaptureJob();
  Object.assign(copy, job, { tmp: copy.tmp });
  copy.blend = job.blend.slice(); copy.blendOther = job.blendOther.slice();
  copy.p1 = job.p1.slice(); copy.p2 = job.p2.slice(); copy.offsets = job.offsets.slice();
  return copy;
}

describe('a transition\'s capture on the WebAssembly kernels', () => {
  it('captureOffsets: quintic and spring offsets within float32 rounding of the JavaScript kernel\'s, nearly all its bits', () => {
    const { world, calls } = kernelWorld();
    const random = createRandom(41);
    const job = jobOn(world);
    const local = world.components.LocalPose.data;
    let differing = 0, max = 0, compared = 0;
    for (let round = 0; round < 40; round++) {
      fillPoses(local, job.blendOff, random);
      nudge(local, job.blendOtherOff, job.blendOff, 2e-3, random); // the target 1 ms back
      if (round % 4 === 0) local.copyWithin(job.p1Off, job.blendOff, job.blendOff + POSE_FLOATS); // P1 on the target (offsets 0)
      else if (round % 4 === 1) nudge(local, job.p1Off, job.blendOff, 0.05, random); // near the target
      else fillPoses(local, job.p1Off, random); // anywhere
      nudge(local, job.p2Off, job.p1Off, round % 5 === 0 ? 0 : 3e-3, random); // a still or moving source
      job.mode = round % 2 === 0 ? INERTIA_QUINTIC : INERTIA_SPRING;
      job.interval = round % 3 === 0 ? -1e-3 : 1e-3;
      job.prevDt = round % 7 === 0 ? 1 / 60 : 1e-3;
      job.duration = 0.1 + random() * 0.4;
      const expected = copyJob(job);
      captureOffsets(expected);
      captureOffsetsOn(world, job);
      const got = compare(job.offsets.subarray(0, OFFSET_FLOATS), expected.offsets.subarray(0, OFFSET_FLOATS));
      differing += got.differing;
      max = Math.max(max, got.max);
      compared += OFFSET_FLOATS;
      // Its inputs are read only.
      expect(compare(local.subarray(job.p2Off, job.p2Off + POSE_FLOATS), expected.p2.subarray(job.p2Off, job.p2Off + POSE_FLOATS)).differing).toBe(0);
    }
    console.log(`[capture kernel] captureOffsets: ${differing} of ${compared} floats differ from the JavaScript kernel's bits, by ≤ ${max.toExponential(2)}`);
    expect(calls['captureOffsets']).toBe(40);
    expect(differing).toBeLessThan(compared / 100);
    expect(max).toBeLessThan(1e-5); // an atan2 ulp through x0, k = v0·t1 (≤ 5·x0·…) and 1/t1, in float32
  });

  it('writeSourcePast: P2 within float32 rounding of the JavaScript kernel\'s, without a running offset, with a running quintic (mid-curve and ended) and a running spring', () => {
    const { world, calls } = kernelWorld();
    const random = createRandom(42);
    const job = jobOn(world);
    const local = world.components.LocalPose.data, slots = world.components.Inertialization.slots;
    let differing = 0, max = 0, compared = 0;
    for (let round = 0; round < 40; round++) {
      fillPoses(local, job.blendOff, random);
      nudge(local, job.blendOtherOff, job.blendOff, round % 5 === 0 ? 0 : 2e-3, random);
      fillPoses(local, job.p1Off, random);
      job.mode = [INERTIA_NONE, INERTIA_QUINTIC, INERTIA_SPRING][round % 3]!;
      fillOffsets(slots, 0, job.mode, random);
      job.interval = round % 4 === 0 ? -1e-3 : 1e-3;
      job.clock = round % 8 === 1 ? 5 : random() * 0.4;
      const expected = copyJob(job);
      writeSourcePast(expected);
      writeSourcePastOn(world, job);
      const got = compare(local.subarray(job.p2Off, job.p2Off + POSE_FLOATS), expected.p2.subarray(job.p2Off, job.p2Off + POSE_FLOATS));
      differing += got.differing;
      max = Math.max(max, got.max);
      compared += POSE_FLOATS;
      expect(compare(slots.subarray(0, OFFSET_FLOATS), expected.offsets.subarray(0, OFFSET_FLOATS)).differing).toBe(0); // read only
    }
    console.log(`[capture kernel] writeSourcePast: ${differing} of ${compared} floats differ from the JavaScript kernel's bits, by ≤ ${max.toExponential(2)}`);
    expect(calls['writeSourcePast']).toBe(40);
    expect(differing).toBeLessThan(compared / 100);
    expect(max).toBeLessThan(1e-6);
  });

  it('a job with a block outside the memory runs the JavaScript kernel', () => {
    const { world, calls } = kernelWorld();
    const random = createRandom(43);
    const job = jobOn(world);
    fillPoses(job.blend, job.blendOff, random);
    fillPoses(job.blendOther, job.blendOtherOff, random);
    fillPoses(job.p1, job.p1Off, random);
    fillPoses(job.p2, job.p2Off, random);
    job.offsets = new Float32Array(OFFSET_FLOATS); // not in the memory
    job.mode = INERTIA_QUINTIC; job.interval = 1e-3; job.prevDt = 1e-3; job.duration = 0.3; job.clock = 0;
    const expected = copyJob(job);
    captureOffsets(expected);
    captureOffsetsOn(world, job);
    writeSourcePastOn(world, job);
    expect(calls['captureOffsets']).toBe(0);
    expect(calls['writeSourcePast']).toBe(0);
    expect(compare(job.offsets, expected.offsets).differing).toBe(0);
  });
});

describe('a transition\'s blends in a wasm world', () => {
  it('sample their layers on sampleClipExact (the JavaScript sampler\'s bits), at the request and at the switch', () => {
    const skeleton = syntheticSkeleton(JOINTS);
    const walk = syntheticClip(skeleton, { seed: 2 }), run = syntheticClip(skeleton, { seed: 3 });
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: JOINTS, kernels: 'wasm' });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, walk, { time: 0.3 });
    play(world, eid, run, { layer: 1, weight: 0.4, time: 0.1 });
    step(world, 1 / 60);
    const kernels = world.wasm as unknown as Record<string, (...args: number[]) => void>;
    let exact = 0;
    const kernel = kernels['sampleClipExact']!;
    kernels['sampleClipExact'] = (...args: number[]) => {
      exact++;
      kernel(...args);
    };
    transition(world, eid, run, { duration: 0.2 });
    const atRequest = exact;
    step(world, 1 / 60);
    expect(atRequest).toBeGreaterThanOrEqual(2); // the source's blends at τ and τ − h: two layers each
    expect(exact).toBeGreaterThan(atRequest); // the target's at the switch
  });
});
