import { describe, expect, it } from 'vitest';
import {
  bindSkeletons,
  createAnimationWorld,
  createSkeleton,
  getLocalPose,
  getModelMatrices,
  play,
  spawnCharacter,
  step,
  type Skeleton,
} from '../src/index.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';
import { refused } from './fixtures/errors.js';
import { sampleClipInto } from '../src/assets/sampleClip.js';
import { reduceClip } from '../src/lod.js';

const source = syntheticSkeleton(20, 3);
const clip = syntheticClip(source, { seed: 5 });

/**
 * The source's joints in another parents-first order (a random topological order), plus
 * `extra` joints of its own hung under random joints.
 */
function shuffledWithExtras(extra: number): Skeleton {
  const random = createRandom(11);
  const order: number[] = [];
  const placed = new Set<number>();
  while (order.length < source.jointCount) {
    const ready = source.names.map((_, j) => j).filter((j) => !placed.has(j) && (source.parents[j]! < 0 || placed.has(source.parents[j]!)));
    const pick = ready[Math.floor(random() * ready.length)]!;
    order.push(pick);
    placed.add(pick);
  }
  const names = order.map((j) => source.names[j]!);
  const parents = order.map((j) => (source.parents[j]! < 0 ? -1 : order.indexOf(source.parents[j]!)));
  const rest = order.flatMap((j) => Array.from(source.rest.subarray(j * 10, j * 10 + 10)));
  for (let e = 0; e < extra; e++) {
    names.push(`extra${e}`);
    parents.push(Math.floor(random() * names.length - 1));
    rest.push(0.1 * e, 0.2, 0, 0, Math.sin(0.1 * e), 0, Math.cos(0.1 * e), 1, 1, 1);
  }
  return createSkeleton({ names, parents, rest });
}

function modelPositionsByName(skeleton: Skeleton, matrices: Float32Array): Map<string, number[]> {
  return new Map(skeleton.names.map((name, j) => [name, [matrices[j * 12 + 9]!, matrices[j * 12 + 10]!, matrices[j * 12 + 11]!]]));
}

describe('name binding', () => {
  it('plays a clip on a skeleton with the same joints shuffled and extra joints', () => {
    const target = shuffledWithExtras(3);
    expect(target.names).not.toEqual(source.names.concat(['extra0', 'extra1', 'extra2']));
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 32 });
    const original = spawnCharacter(world, source);
    const shuffled = spawnCharacter(world, target);
    for (const eid of [original, shuffled]) play(world, eid, clip, { time: 0.37 });
    step(world, 0.2);

    const expected = modelPositionsByName(source, getModelMatrices(world, original));
    const actual = modelPositionsByName(target, getModelMatrices(world, shuffled));
    for (const [name, position] of expected) {
      position.forEach((v, c) => expect(actual.get(name)![c]).toBeCloseTo(v, 5));
    }
    // extra joints keep the target's rest pose (local; the clip baked onto the target holds it
    // at every key, and interpolating equal float32 keys on the SIMD kernels rounds within an ulp)
    const local = getLocalPose(world, shuffled);
    for (let j = source.jointCount; j < target.jointCount; j++) {
      local.subarray(j * 10, j * 10 + 10).forEach((v, c) => expect(v).toBeCloseTo(target.rest[j * 10 + c]!, 6));
    }
  });

  it('joints the clip lacks keep the rest pose; channels the skeleton lacks are ignored, their rotation passed on to the joints below', () => {
    // A skeleton with only the first 6 joints of the source, one renamed.
    const names = source.names.slice(0, 6).map((n, j) => (j === 4 ? 'not-in-clip' : n));
    const small = createSkeleton({ names, parents: Array.from(source.parents.subarray(0, 6)), rest: Array.from(source.rest.subarray(0, 60)) });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 32 });
    const big = spawnCharacter(world, source);
    const eid = spawnCharacter(world, small);
    play(world, big, clip, { time: 0.5, speed: 0 });
    play(world, eid, clip, { time: 0.5, speed: 0 });
    step(world, 0);
    const bigLocal = getLocalPose(world, big);
    const local = getLocalPose(world, eid);
    const below = Array.from(small.parents).map((p) => p === 4);
    expect(below.some(Boolean)).toBe(true);
    for (let j = 0; j < 6; j++) {
      if (below[j]) continue;
      const expected = j === 4 ? small.rest.subarray(40, 50) : bigLocal.subarray(j * 10, j * 10 + 10);
      expect(Array.from(local.subarray(j * 10, j * 10 + 10))).toEqual(Array.from(expected));
    }
    // A joint under the renamed one takes the clip's rotation of both (the renamed joint holds
    // its rest): q = rest₄⁻¹ · (q₄ · q_j) with the clip's q₄, q_j, so its model rotation is the clip's.
    const mul = (a: number[], b: number[]) => [
      a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!, a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!,
      a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!, a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!];
    const q = (pose: Float32Array, j: number) => Array.from(pose.subarray(j * 10 + 3, j * 10 + 7));
    const rest4 = q(small.rest, 4);
    for (let j = 0; j < 6; j++) {
      if (!below[j]) continue;
      const expected = mul([-rest4[0]!, -rest4[1]!, -rest4[2]!, rest4[3]!], mul(q(bigLocal, 4), q(bigLocal, j)));
      const sign = Math.sign(expected[3]! * local[j * 10 + 6]!) || 1;
      expected.forEach((v, c) => expect(local[j * 10 + 3 + c]! * sign).toBeCloseTo(v, 6));
      expect(Array.from(local.subarray(j * 10, j * 10 + 3))).toEqual(Array.from(small.rest.subarray(j * 10, j * 10 + 3)));
    }
  });

  it('is computed once per pair of skeletons', () => {
    const target = shuffledWithExtras(1);
    const binding = bindSkeletons(source, target);
    expect(bindSkeletons(source, target)).toBe(binding);
    expect(binding.matched).toBe(source.jointCount);
    expect(binding.sourceJoint[target.jointCount - 1]).toBe(-1);
  });

  it('is cached per pair and options: calls resolving to the same modes and ratio share one binding', () => {
    const target = shuffledWithExtras(1);
    const binding = bindSkeletons(source, target);
    expect(bindSkeletons(source, target, {})).toBe(binding);
    expect(bindSkeletons(source, target, { translation: { hips: 'scaled', joint5: 'skeleton' } })).toBe(binding); // the default's modes
    const skeletonOnly = bindSkeletons(source, target, { translation: 'skeleton' });
    expect(skeletonOnly).not.toBe(binding);
    expect(bindSkeletons(source, target, { translation: 'skeleton' })).toBe(skeletonOnly);
    expect(bindSkeletons(source, target, { hipRatio: 0.5 })).not.toBe(binding);
    // The default: the target's root and hip chain 'scaled' (2), the rest 'skeleton' (0); unbound joints 0.
    const hips = target.names.indexOf('hips'), root = target.names.indexOf('root');
    target.names.forEach((name, j) => {
      const onChain = j === hips || j === root;
      expect(binding.translationMode[j]).toBe(onChain ? 2 : 0);
      expect(binding.translationScale[j]).toBe(onChain ? binding.hipRatio : 0);
    });
    expect(binding.hipRatio).toBe(Math.fround(target.hipHeight / source.hipHeight));
    expect(bindSkeletons(source, target, { translation: 'animation' }).translationScale[hips]).toBe(1);
  });

  it('refuses unknown modes, joint names and ratios, naming them', () => {
    const target = shuffledWithExtras(0);
    expect(refused(() => bindSkeletons(source, target, { translation: 'stretch' as never })).message).toMatch(/translation is 'stretch': it must be 'skeleton', 'animation', 'scaled'/);
    const e = refused(() => bindSkeletons(source, target, { translation: { nope: 'skeleton', hips: 'bent' as never } }));
    expect(e.issues.map((i) => i.path)).toEqual(['translation["nope"]', 'translation["hips"]']);
    expect(e.message).toMatch(/names no joint of the character's skeleton/);
    expect(refused(() => bindSkeletons(source, target, { hipRatio: 0 })).message).toMatch(/hipRatio is 0: it must be a finite number > 0/);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 32 });
    const eid = spawnCharacter(world, target);
    expect(refused(() => play(world, eid, clip, { translation: { knee: 'skeleton' } })).message).toMatch(/^play: translation\["knee"\] names no joint/);
    expect(world.components.Layers.clip[eid * 4]).toBe(-1); // the layer is untouched
  });

  it('a reduced clip applies the modes as the full one does', () => {
    const target = shuffledWithExtras(2);
    const reduced = reduceClip(clip, { tolerance: 1e-5 });
    const unbound = new Float32Array(source.jointCount * 10), pose = new Float32Array(target.jointCount * 10);
    for (const translation of [undefined, 'skeleton', 'animation', 'scaled'] as const) {
      const binding = bindSkeletons(source, target, { translation, hipRatio: 0.8 });
      for (const at of [0, 0.37, 0.9]) {
        sampleClipInto(unbound, 0, reduced, Float64Array.of(at), 0);
        sampleClipInto(pose, 0, reduced, Float64Array.of(at), 0, binding);
        for (let j = 0; j < target.jointCount; j++) {
          const from = binding.sourceJoint[j]!;
          const mode = binding.translationMode[j]!;
          for (let c = 0; c < 10; c++) {
            const expected = from < 0 || (c < 3 && mode === 0) ? target.rest[j * 10 + c]! : unbound[from * 10 + c]! * (c < 3 && mode === 2 ? Math.fround(0.8) : 1);
            expect(pose[j * 10 + c]).toBeCloseTo(expected, 6);
          }
        }
      }
    }
  });

  it('binds the additive reference pose too', () => {
    const target = shuffledWithExtras(2);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 32 });
    const eid = spawnCharacter(world, target);
    // The clip added onto its own first frame, at its first frame: a zero difference, so the
    // result is the base layer (the rest pose) on every joint.
    play(world, eid, clip, { layer: 1, additive: true, speed: 0 });
    step(world, 0);
    const local = getLocalPose(world, eid);
    for (let i = 0; i < target.jointCount * 10; i++) expect(local[i]).toBeCloseTo(target.rest[i]!, 5);
  });
});
