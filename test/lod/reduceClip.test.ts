import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  getModelMatrices,
  MATRIX_STRIDE,
  play,
  spawnCharacter,
  step,
  type Clip,
} from '../../src/index.js';
import { measureModelError } from '../../src/lod/modelError.js';
import { bakeLod, reduceClip } from '../../src/lod/reduceClip.js';
import { expandFrames } from '../../src/assets/reducedClip.js';
import { refused } from '../fixtures/errors.js';
import { loadRealClips, type RealClip } from '../fixtures/realClips.js';

const ASSETS = new URL('../../../shared/assets/', import.meta.url);

let loaded: Promise<RealClip[]> | undefined;
/** Every real clip of ../shared/assets with the factor from metres to its units (loaded once). */
function realClips(): Promise<RealClip[]> {
  return (loaded ??= loadRealClips(ASSETS));
}

describe('reduceClip on the real assets', () => {
  it('holds 1 mm, 5 mm and 1 cm of model-space joint error on every clip, with fewer keys for looser tolerances', async () => {
    const clips = await realClips();
    expect(clips.length).toBeGreaterThanOrEqual(19);
    for (const { clip, unitsPerMetre, file: source } of clips) {
      let previousKeys = Number.POSITIVE_INFINITY;
      for (const metres of [0.001, 0.005, 0.01]) {
        const tolerance = metres * unitsPerMetre;
        const reduced = reduceClip(clip, { tolerance });
        // Measured again here on the frames the runtime samples.
        const error = measureModelError(clip, expandFrames(reduced));
        expect(error.maxError, `${source} "${clip.name}" at ${metres} m`).toBeLessThanOrEqual(tolerance);
        expect(reduced.stats!.maxError).toBeCloseTo(error.maxError, 9);
        expect(reduced.stats!.keysBefore).toBe(clip.frameCount * clip.skeleton.jointCount * 10);
        expect(reduced.stats!.keysAfter).toBeLessThanOrEqual(reduced.stats!.keysBefore);
        expect(reduced.stats!.keysAfter).toBeLessThanOrEqual(previousKeys * 1.02); // looser: not (meaningfully) more keys
        previousKeys = reduced.stats!.keysAfter;
      }
    }
  }, 120_000);

  it('keeps fewer keys than uniform decimation at the same tolerance (Fox Survey, CMU walk at 5 mm)', async () => {
    const clips = await realClips();
    for (const name of ['Survey', 'cmu_131_01_start_walk_stop.bvh']) {
      const { clip, unitsPerMetre } = clips.find((c) => c.clip.name === name)!;
      const tolerance = 0.005 * unitsPerMetre;
      const atkins = reduceClip(clip, { tolerance });
      const uniform = reduceClip(clip, { tolerance, method: 'uniform' });
      expect(uniform.stats!.maxError).toBeLessThanOrEqual(tolerance);
      expect(atkins.stats!.keysAfter, name).toBeLessThan(uniform.stats!.keysAfter);
    }
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
    const levels = bakeLod(fox, [1, 0.1, 0.5]);
    expect(levels.map((l) => l.stats!.maxError <= [0.1, 0.5, 1][levels.indexOf(l)]!)).toEqual([true, true, true]);
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
