/**
 * `createAnimationWorld({ interpolation: 'slerp' })`: override layers blend rotations by slerp.
 * - Against three.js's AnimationMixer (the oracle: it mixes each action into the ones before it
 *   by slerp at w / Σw), two and three `'average'` layers at unequal weights across ~1–2.5 rad
 *   give three's rotations to float32 rounding (measured 2e-8); the nlerp world differs by 2–3e-2.
 * - `'layer'` layers, masked and not: rotations about one axis interpolate their angles
 *   linearly (a hand derivation: slerp's defining property), which nlerp does not.
 * - The same bits on the WebAssembly kernels and with `stepParallel`; no allocation per frame;
 *   an unknown value refused.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createClip, createMask, createSkeleton, disposeAnimationWorld, getLocalPose, play, spawnCharacter, step, stepParallel,
  type Clip, type Skeleton,
} from '../../src/index.js';
import { PARALLEL_MIN_CHARACTERS } from '../../src/api/threads.js';
import { smallestAllocation } from '../support/allocation.js';

const NAMES = ['root', 'spine', 'arm'];

/** A rotation of `angle` about the unit axis (x, y, z), as x y z w. */
function axisAngle(x: number, y: number, z: number, angle: number): number[] {
  const s = Math.sin(angle / 2);
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
}

/** A pose of the three joints with these rotations (translations 0.3 m apart in y, unit scale). */
function pose(rotations: number[][]): number[] {
  return rotations.flatMap((q, j) => [0, j === 0 ? 1 : 0.3, 0, ...q, 1, 1, 1]);
}

const skeleton: Skeleton = createSkeleton({ names: NAMES, parents: [-1, 0, 1], rest: pose([[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1]]) });

/** A still clip (two equal keys) of one pose, so key interpolation plays no part. */
function still(name: string, rotations: number[][]): Clip {
  const p = pose(rotations);
  return createClip({ skeleton, name, frameRate: 30, frames: [...p, ...p], loop: true });
}

const A = still('A', [axisAngle(0, 1, 0, 0.2), axisAngle(1, 0, 0, 1.1), axisAngle(0, 0, 1, -0.4)]);
const B = still('B', [axisAngle(0, 1, 0, 1.5), axisAngle(0, 0.6, 0.8, -1.3), axisAngle(0.8, 0, 0.6, 2.4)]);
const C = still('C', [axisAngle(1, 0, 0, -0.9), axisAngle(0, 1, 0, 0.7), axisAngle(0, 0, 1, 1.9)]);

/** three.js's rotations of the three joints with `clips` mixed at `weights` (actions played in this order). */
function threeRotations(clips: readonly Clip[], weights: readonly number[]): number[][] {
  const root = new THREE.Object3D();
  const bones: THREE.Object3D[] = [];
  NAMES.forEach((name, j) => {
    const bone = new THREE.Bone();
    bone.name = name;
    (j === 0 ? root : bones[j - 1]!).add(bone);
    bones.push(bone);
  });
  const mixer = new THREE.AnimationMixer(root);
  clips.forEach((clip, n) => {
    const tracks = NAMES.map((name, j) => {
      const q = Array.from(clip.frames.subarray(j * 10 + 3, j * 10 + 7));
      return new THREE.QuaternionKeyframeTrack(`${name}.quaternion`, [0, 1 / 30], [...q, ...q]);
    });
    const action = mixer.clipAction(new THREE.AnimationClip(clip.name, 1 / 30, tracks));
    action.setEffectiveWeight(weights[n]!);
    action.play();
  });
  mixer.update(0);
  return bones.map((b) => [b.quaternion.x, b.quaternion.y, b.quaternion.z, b.quaternion.w]);
}

/** The local rotations of a one-character world after one step with `clips` on layers 0.. at `weights`. */
function bitanimRotations(interpolation: 'nlerp' | 'slerp', clips: readonly Clip[], weights: readonly number[], kernels: 'js' | 'wasm' = 'js'): number[][] {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: 3, interpolation, kernels });
  const eid = spawnCharacter(world, skeleton);
  clips.forEach((clip, layer) => play(world, eid, clip, { layer, weight: weights[layer]!, blend: 'average' }));
  step(world, 0);
  const local = getLocalPose(world, eid);
  return NAMES.map((_, j) => Array.from(local.subarray(j * 10 + 3, j * 10 + 7)));
}

/** The largest component difference between two rotation lists, up to sign. */
function largest(a: number[][], b: number[][]): number {
  let d = 0;
  for (let j = 0; j < a.length; j++) {
    const sign = a[j]!.reduce((s, v, c) => s + v * b[j]![c]!, 0) < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a[j]![c]! - sign * b[j]![c]!));
  }
  return d;
}

describe("interpolation: 'slerp' against three.js's AnimationMixer", () => {
  for (const [clips, weights] of [[[A, B], [0.7, 0.3]], [[A, B], [0.15, 0.85]], [[A, B, C], [0.5, 0.3, 0.2]]] as const) {
    it(`${clips.map((c) => c.name).join(' + ')} at ${weights.join(' / ')}: three's rotations within 1e-7; nlerp's differ by > 1e-2`, () => {
      const oracle = threeRotations(clips, weights);
      const slerped = bitanimRotations('slerp', clips, weights);
      const nlerped = bitanimRotations('nlerp', clips, weights);
      expect(largest(slerped, oracle)).toBeLessThanOrEqual(1e-7); // float32 rounding (measured: 2e-8)
      expect(largest(nlerped, oracle)).toBeGreaterThan(1e-2);
    });
  }

  it('at equal weights slerp and nlerp agree (the midpoint of two rotations is the same arc point)', () => {
    expect(largest(bitanimRotations('slerp', [A, B], [0.5, 0.5]), bitanimRotations('nlerp', [A, B], [0.5, 0.5]))).toBeLessThanOrEqual(1e-6);
  });
});

describe("'layer' layers with slerp: angles interpolate linearly (rotations about one axis)", () => {
  const base = still('base', [axisAngle(0, 1, 0, 0.3), axisAngle(1, 0, 0, -0.5), axisAngle(0, 0, 1, 0.1)]);
  const wave = still('wave', [axisAngle(0, 1, 0, 2.1), axisAngle(1, 0, 0, 1.9), axisAngle(0, 0, 1, 2.7)]);
  const angles = [[0.3, 2.1], [-0.5, 1.9], [0.1, 2.7]] as const;

  /** The angle of joint j's local rotation about its axis (y, x, z for the three joints). */
  function angleOf(q: Float32Array, j: number): number {
    const axis = [1, 0, 2][j]!; // y, x, z components
    return 2 * Math.atan2(q[j * 10 + 3 + axis]!, q[j * 10 + 6]!);
  }

  for (const interpolation of ['slerp', 'nlerp'] as const) {
    it(`${interpolation}: a layer at 0.4 over a base, the arm masked at 0.25`, () => {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: 3, interpolation, kernels: 'js' });
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, base, { layer: 0 });
      play(world, eid, wave, { layer: 1, weight: 0.4, mask: createMask(skeleton, { root: 1, spine: 1, arm: 0.25 }) });
      step(world, 0);
      const local = getLocalPose(world, eid);
      const shares = [0.4, 0.4, 0.1];
      const errors = angles.map(([a, b], j) => Math.abs(angleOf(local, j) - (a + shares[j]! * (b - a))));
      if (interpolation === 'slerp') for (const e of errors) expect(e).toBeLessThanOrEqual(2e-6);
      else expect(Math.max(...errors)).toBeGreaterThan(1e-2); // nlerp bends the angle toward the chord's middle
    });
  }
});

describe('the slerp blend on every path', () => {
  const COUNT = 256; // past PARALLEL_MIN_CHARACTERS: stepParallel runs the threaded frame
  /** A crowd on three layers (an average pair, a masked 'layer' layer over them). */
  function crowd(options: { kernels: 'js' | 'wasm'; threads?: number }) {
    const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 3, interpolation: 'slerp', ...options });
    const arm = createMask(skeleton, { arm: 0.6, spine: 0.2 });
    for (let n = 0; n < COUNT; n++) {
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, A, { layer: 0, weight: 0.3 + (n % 5) * 0.1, blend: 'average' });
      play(world, eid, B, { layer: 1, weight: 0.2 + (n % 3) * 0.2, blend: 'average' });
      play(world, eid, C, { layer: 2, weight: 0.1 + (n % 4) * 0.2, mask: arm });
    }
    return world;
  }

  it('the WebAssembly kernels and stepParallel give the JavaScript bits', async () => {
    const js = crowd({ kernels: 'js' }), wasm = crowd({ kernels: 'wasm' }), threaded = crowd({ kernels: 'wasm', threads: 2 });
    expect(wasm.kernels).toBe('wasm');
    expect(PARALLEL_MIN_CHARACTERS).toBeLessThanOrEqual(COUNT);
    for (let f = 0; f < 5; f++) {
      step(js, 1 / 60);
      step(wasm, 1 / 60);
      await stepParallel(threaded, 1 / 60);
    }
    expect(Array.from(wasm.components.LocalPose.data)).toEqual(Array.from(js.components.LocalPose.data));
    expect(Array.from(threaded.components.LocalPose.data)).toEqual(Array.from(js.components.LocalPose.data));
    disposeAnimationWorld(threaded);
  });

  it('allocates nothing per frame', () => {
    const world = crowd({ kernels: 'js' });
    const allocated = smallestAllocation(() => step(world, 1 / 60), { calls: 200, bound: 200 * 256, warmUp: 50 });
    expect(allocated).toBeLessThan(200 * 256);
  });

  it("refuses another value with an AnimationError naming the option", () => {
    expect(() => createAnimationWorld({ maxEntities: 1, maxJoints: 3, interpolation: 'cubic' as 'slerp' })).toThrow(AnimationError);
    expect(() => createAnimationWorld({ maxEntities: 1, maxJoints: 3, interpolation: 'cubic' as 'slerp' })).toThrow(/interpolation.*'nlerp' \(default\) or 'slerp'/);
  });
});
