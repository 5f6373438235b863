import { describe, expect, it } from 'vitest';
import { AnimationError, createAnimationWorld, getModelMatrices, play, spawnCharacter, step, type Clip } from '../../../src/index.js';
import { MATRIX_STRIDE } from '../../../src/kernels.js';
import { bakeLod, reduceClip } from '../../../src/offline/lod/reduceClip.js';
import { refused } from '../../fixtures/errors.js';
import { loadRealClips, type RealClip } from '../../fixtures/realClips.js';
import { ASSETS_URL } from '../../support/assets.js';
import { continuousError } from './handMeasure.js';

const ASSETS = ASSETS_URL;

let loaded: Promise<RealClip[]> | undefined;
/** Every real clip of assets/ with the factor from metres to its units (loaded once). */
function realClips(): Promise<RealClip[]> {
  return (loaded ??= loadRealClips(ASSETS));
}

describe('reduceClip on the real assets', () => {
  it('the default shell bounds end joints: at distance 0 the CMU walk\'s end joints turn freely', async () => {
    const { clip } = (await realClips()).find((c) => c.clip.name === 'cmu_131_01_start_walk_stop.bvh')!;
    const free = reduceClip(clip, { tolerance: 0.005, distance: 0 });
    const bounded = reduceClip(clip, { tolerance: 0.005 });
    expect(continuousError(clip, free, 0).endRotation).toBeGreaterThan(20);
    expect(free.stats!.maxRotationError!).toBeGreaterThan(20);
    expect(bounded.stats!.maxRotationError!).toBeLessThanOrEqual(5);
    expect(free.stats!.keysAfter).toBeLessThan(bounded.stats!.keysAfter); // the bound costs keys
  }, 120_000);

  it('subdivisions: 0 holds the bound at the frames only (the measure before issue 14), which lets curves swing between them', async () => {
    const { clip } = (await realClips()).find((c) => c.clip.name === 'cmu_131_01_start_walk_stop.bvh')!;
    const framesOnly = reduceClip(clip, { tolerance: 0.001, distance: 0, subdivisions: 0 });
    expect(framesOnly.stats!.maxError).toBeLessThanOrEqual(0.001);
    expect(continuousError(clip, framesOnly, 0).position).toBeGreaterThan(0.001);
  }, 120_000);

  it('a reduced clip plays through the API: model matrices within the tolerance of the original', async () => {
    const fox = (await realClips()).find((c) => c.clip.name === 'Survey')!.clip;
    const tolerance = 0.5; // 5 mm in Fox units
    const reduced = reduceClip(fox, { tolerance });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: fox.skeleton.jointCount });
    const a = spawnCharacter(world, fox.skeleton);
    const b = spawnCharacter(world, fox.skeleton);
    play(world, a, fox);
    play(world, b, reduced);
    for (let f = 0; f < 60; f++) {
      step(world, 1 / fox.frameRate); // lands on the clip's frames
      const ma = getModelMatrices(world, a), mb = getModelMatrices(world, b);
      for (let j = 0; j < fox.skeleton.jointCount; j++) {
        const o = j * MATRIX_STRIDE;
        const d = Math.hypot(ma[o + 9]! - mb[o + 9]!, ma[o + 10]! - mb[o + 10]!, ma[o + 11]! - mb[o + 11]!);
        expect(d).toBeLessThanOrEqual(tolerance * 1.001 + 1e-4); // float32 model poses
      }
    }
  });
});

describe('bakeLod and errors', () => {
  it('bakeLod: one clip per tolerance, finest first, fewer keys each level', async () => {
    const fox = (await realClips()).find((c) => c.clip.name === 'Survey')!.clip;
    const levels = bakeLod(fox, [0.01, 0.001, 0.005]); // metres
    expect(levels.map((l) => l.stats!.maxError <= [0.001, 0.005, 0.01][levels.indexOf(l)]!)).toEqual([true, true, true]);
    expect(levels[0]!.stats!.keysAfter).toBeGreaterThan(levels[1]!.stats!.keysAfter);
    expect(levels[1]!.stats!.keysAfter).toBeGreaterThan(levels[2]!.stats!.keysAfter);
  });

  it('refuses bad input', async () => {
    const fox = (await realClips()).find((c) => c.clip.name === 'Survey')!.clip;
    for (const [call, path] of [
      [() => reduceClip(fox, { tolerance: 0 }), 'tolerance'],
      [() => reduceClip(fox, { tolerance: Number.NaN }), 'tolerance'],
      [() => reduceClip(fox, { tolerance: 1, distance: -1 }), 'distance'],
      [() => reduceClip(fox, { tolerance: 1, method: 'best' as 'atkins' }), 'method'],
      [() => reduceClip(fox, { tolerance: 1, subdivisions: 1.5 }), 'subdivisions'],
      [() => reduceClip({} as Clip, { tolerance: 1 }), 'clip'],
      [() => bakeLod(fox, []), 'tolerances'],
      [() => bakeLod(fox, [0.1, -1]), 'tolerances[1]'],
    ] as const) {
      const error = refused(call);
      expect(error).toBeInstanceOf(AnimationError);
      expect(error.issues[0]!.path).toBe(path);
    }
  });
});
