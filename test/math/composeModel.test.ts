import { describe, expect, it } from 'vitest';
import * as affine from '../../src/math/affine.js';
import { composeModel, composeSkin } from '../../src/math/composeModel.js';
import { computeSkinPalette } from '../../src/systems/skinSystem.js';
import * as quat from '../../src/math/quat.js';
import type { NumArray } from '../../src/math/types.js';
import { axisAngle, createRandom, treeParents } from '../fixtures/synthetic.js';
import { expectClose, expectQuatClose } from './helpers.js';

const S = Math.SQRT1_2;

/**
 * Hand-derived chain: root at (1, 2, 3) turned 90° about +Z; child 1 along the root's +X,
 * scaled ×2; grandchild 0.5 along the child's +Y, turned 90° about +X.
 */
const parents = new Int16Array([-1, 0, 1]);
const local = new Float32Array([
  1, 2, 3, 0, 0, S, S, 1, 1, 1,
  1, 0, 0, 0, 0, 0, 1, 2, 2, 2,
  0, 0.5, 0, S, 0, 0, S, 1, 1, 1,
]);

/** A random skeleton (parents first) and a random pose with unit quaternions and scales near 1. */
function randomPose(jointCount: number, seed: number): { parents: Int16Array; pose: Float32Array } {
  const random = createRandom(seed);
  const pose = new Float32Array(jointCount * 10);
  for (let j = 0; j < jointCount; j++) {
    const q = axisAngle(random() - 0.5, random() - 0.5, random() - 0.5, 3 * random());
    pose.set([random() - 0.5, random() - 0.5, random() - 0.5, ...q, 0.8 + 0.4 * random(), 0.8 + 0.4 * random(), 0.8 + 0.4 * random()], j * 10);
  }
  return { parents: Int16Array.from(treeParents(jointCount, seed)), pose };
}

/**
 * The independent per-joint reference: affine.fromSQT into a Float64 temporary, then
 * affine.multiply by the parent's matrix; each result rounded with `round` (Math.fround for a
 * Float32 palette) before a child reads it. Records of `stride` floats.
 */
function reference(pose: NumArray, parents: Int16Array, stride: number, round: (x: number) => number): Float64Array {
  const n = parents.length;
  const out = new Float64Array(n * stride);
  const l = new Float64Array(12), c = new Float64Array(12);
  for (let j = 0; j < n; j++) {
    affine.fromSQT(l, 0, pose, j * 10);
    if (parents[j]! < 0) c.set(l);
    else affine.multiply(c, 0, out, parents[j]! * stride, l, 0);
    for (let k = 0; k < 12; k++) out[j * stride + k] = round(c[k]!);
  }
  return out;
}

/** Bit-for-bit equality of two float arrays (NaN equals NaN, +0 differs from −0). */
function expectSameBits(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!Object.is(actual[i], expected[i])) expect(actual[i], `element ${i}`).toBe(expected[i]);
  }
}

describe('composeModel', () => {
  it('matches the hand derivation (Float32 and Float64 records)', () => {
    // C0 = T(1,2,3)·Rz(90°): columns +Y, −X, +Z. C1 = C0·T(1,0,0)·2I: columns 2·(+Y, −X, +Z),
    // origin (1,2,3) + Rz·(1,0,0) = (1,3,3). C2 = C1·T(0,0.5,0)·Rx(90°): origin (1,3,3) +
    // C1·(0,0.5,0) = (1,3,3) + (−1,0,0) = (0,3,3); columns C1·Rx: +X → 2·(+Y), +Y → C1·(+Z) = 2·(+Z),
    // +Z → C1·(−Y) = 2·(+X).
    const expected = [
      [0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 2, 3],
      [0, 2, 0, -2, 0, 0, 0, 0, 2, 1, 3, 3],
      [0, 2, 0, 0, 0, 2, 2, 0, 0, 0, 3, 3],
    ];
    for (const out of [new Float32Array(36), new Float64Array(36)]) {
      if (out instanceof Float32Array) composeModel(out, 0, 12, local, 0, parents, 0, 3);
      else composeModel(out, 0, 12, local, 0, parents, 0, 3);
      for (let j = 0; j < 3; j++) expectClose(out, j * 12, expected[j]!, 6);
    }
  });

  it('writes model rotations Q = Q_parent · q at rotationOff when asked (Float64 records)', () => {
    const out = new Float64Array(3 * 16).fill(Number.NaN);
    composeModel(out, 0, 16, local, 0, parents, 0, 3, 12);
    expectQuatClose(out, 12, [0, 0, S, S], 6);
    expectQuatClose(out, 28, [0, 0, S, S], 6); // the child does not rotate
    // Rz(90°)·Rx(90°) = (½, ½, ½, ½): 120° about (1, 1, 1)
    expectQuatClose(out, 44, [0.5, 0.5, 0.5, 0.5], 6);
    // the same from a Float64 pose (the path by math-layer calls)
    const out64 = new Float64Array(3 * 16).fill(Number.NaN);
    composeModel(out64, 0, 16, Float64Array.from(local), 0, parents, 0, 3, 12);
    expectSameBits(out64, out);
  });

  it('equals the per-joint reference bit for bit: Float32 palette, Float64 records from a Float32 or a Float64 pose', () => {
    for (const seed of [1, 2, 3]) {
      const { parents: p, pose } = randomPose(64, seed);
      const out32 = new Float32Array(64 * 12);
      composeModel(out32, 0, 12, pose, 0, p, 0, 64);
      expectSameBits(out32, reference(pose, p, 12, Math.fround));

      const expected64 = reference(pose, p, 16, (x) => x);
      const from32 = new Float64Array(64 * 16), from64 = new Float64Array(64 * 16);
      composeModel(from32, 0, 16, pose, 0, p, 0, 64);
      composeModel(from64, 0, 16, Float64Array.from(pose), 0, p, 0, 64);
      for (let j = 0; j < 64; j++) for (let k = 12; k < 16; k++) expected64[j * 16 + k] = 0; // rotations not asked for
      expectSameBits(from32, expected64);
      expectSameBits(from64, expected64);
    }
  });

  it('rotations equal quat.multiply down the hierarchy, bit for bit, on both Float64 paths', () => {
    const { parents: p, pose } = randomPose(40, 7);
    const expected = new Float64Array(40 * 4);
    for (let j = 0; j < 40; j++) {
      if (p[j]! < 0) quat.copy(expected, j * 4, pose, j * 10 + 3);
      else quat.multiply(expected, j * 4, expected, p[j]! * 4, pose, j * 10 + 3);
    }
    for (const source of [pose, Float64Array.from(pose)]) {
      const out = new Float64Array(40 * 16);
      composeModel(out, 0, 16, source, 0, p, 0, 40, 12);
      for (let j = 0; j < 40; j++) for (let k = 0; k < 4; k++) expect(Object.is(out[j * 16 + 12 + k], expected[j * 4 + k])).toBe(true);
    }
  });

  it('partial ranges: [0, k) then [k, n) equals [0, n); a range writes only its own records, reads only their parents', () => {
    const { parents: p, pose } = randomPose(64, 11);
    const whole = new Float32Array(64 * 12);
    composeModel(whole, 0, 12, pose, 0, p, 0, 64);
    for (const k of [1, 17, 40, 63]) {
      const split = new Float32Array(64 * 12);
      composeModel(split, 0, 12, pose, 0, p, 0, k);
      composeModel(split, 0, 12, pose, 0, p, k, 64);
      expectSameBits(split, whole);
    }
    // Range [20, 30) at an offset, in 16-float records: joints 20..29 written (floats 0..11 of
    // each record), everything else kept; joints below 20 hold the whole pose's matrices as the
    // parents, joints from 30 on NaN (never read).
    const from = 20, to = 30, off = 5;
    for (const out of [new Float32Array(off + 64 * 16), new Float64Array(off + 64 * 16)]) {
      out.fill(Number.NaN);
      for (let j = 0; j < from; j++) for (let c = 0; c < 12; c++) out[off + j * 16 + c] = whole[j * 12 + c]!;
      const before = out.slice();
      if (out instanceof Float32Array) composeModel(out, off, 16, pose, 0, p, from, to);
      else composeModel(out, off, 16, pose, 0, p, from, to);
      for (let i = 0; i < out.length; i++) {
        const j = Math.floor((i - off) / 16), c = (i - off) % 16;
        const inRange = i >= off && j >= from && j < to && c < 12;
        if (!inRange) expect(Object.is(out[i], before[i]), `float ${i} was overwritten`).toBe(true);
        else if (out instanceof Float32Array) expect(out[i], `joint ${j} float ${c}`).toBe(whole[j * 12 + c]);
        else expect(out[i], `joint ${j} float ${c}`).toBeCloseTo(whole[j * 12 + c]!, 5);
      }
    }
  });

  it('a joint list: only the listed joints (a path to the root), the same bits as the whole range', () => {
    const { parents: p, pose } = randomPose(64, 13);
    const whole = new Float64Array(64 * 16);
    composeModel(whole, 0, 16, pose, 0, p, 0, 64, 12);
    const path: number[] = [];
    for (let j = 63; j >= 0; j = p[j]!) path.unshift(j);
    const joints = Int32Array.from([-7, ...path]); // positions from 1 on
    for (const source of [pose, Float64Array.from(pose)]) {
      const out = new Float64Array(64 * 16).fill(Number.NaN);
      composeModel(out, 0, 16, source, 0, p, 1, 1 + path.length - 1, 12, joints); // all but the last
      composeModel(out, 0, 16, source, 0, p, path.length, path.length + 1, 12, joints); // then the last
      for (let j = 0; j < 64; j++) {
        for (let c = 0; c < 16; c++) {
          if (path.includes(j)) expect(Object.is(out[j * 16 + c], whole[j * 16 + c]), `joint ${j} float ${c}`).toBe(true);
          else expect(out[j * 16 + c], `joint ${j} float ${c}`).toBeNaN();
        }
      }
    }
  });

  it('reads the local pose at localOff and leaves it untouched', () => {
    const { parents: p, pose } = randomPose(10, 5);
    const shifted = new Float32Array(7 + pose.length);
    shifted.set(pose, 7);
    const copy = shifted.slice();
    const a = new Float32Array(120), b = new Float32Array(120);
    composeModel(a, 0, 12, pose, 0, p, 0, 10);
    composeModel(b, 0, 12, shifted, 7, p, 0, 10);
    expectSameBits(b, a);
    expectSameBits(shifted, copy);
  });
});

describe('composeSkin: local → model and the palette in one pass', () => {
  it('writes the bits of composeModel then computeSkinPalette, at offsets, and nothing else', () => {
    for (const seed of [3, 18, 77]) {
      const jointCount = 48;
      const { parents, pose } = randomPose(jointCount, seed);
      const random = createRandom(seed + 1);
      const inverseBind = Float32Array.from({ length: jointCount * 12 }, () => random() * 2 - 1);
      const local = new Float32Array(7 + pose.length);
      local.set(pose, 7);
      const size = jointCount * 12;
      const modelExpected = new Float32Array(size + 24), paletteExpected = new Float32Array(size + 24);
      composeModel(modelExpected, 12, 12, local, 7, parents, 0, jointCount);
      computeSkinPalette(paletteExpected, 5, modelExpected, 12, inverseBind, jointCount);
      const model = new Float32Array(size + 24), palette = new Float32Array(size + 24);
      composeSkin(model, 12, palette, 5, local, 7, parents, inverseBind, jointCount);
      const bits = (a: Float32Array): number[] => Array.from(new Uint32Array(a.buffer));
      expect(bits(model), `model, seed ${seed}`).toEqual(bits(modelExpected));
      expect(bits(palette), `palette, seed ${seed}`).toEqual(bits(paletteExpected));
    }
  });
});
