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
    // extra joints keep the target's rest pose (local)
    const local = getLocalPose(world, shuffled);
    for (let j = source.jointCount; j < target.jointCount; j++) {
      expect(Array.from(local.subarray(j * 10, j * 10 + 10))).toEqual(Array.from(target.rest.subarray(j * 10, j * 10 + 10)));
    }
  });

  it('joints the clip lacks keep the rest pose; channels the skeleton lacks are ignored', () => {
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
    for (let j = 0; j < 6; j++) {
      const expected = j === 4 ? small.rest.subarray(40, 50) : bigLocal.subarray(j * 10, j * 10 + 10);
      expect(Array.from(local.subarray(j * 10, j * 10 + 10))).toEqual(Array.from(expected));
    }
  });

  it('is computed once per pair of skeletons', () => {
    const target = shuffledWithExtras(1);
    const binding = bindSkeletons(source, target);
    expect(bindSkeletons(source, target)).toBe(binding);
    expect(binding.matched).toBe(source.jointCount);
    expect(binding.sourceJoint[target.jointCount - 1]).toBe(-1);
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
