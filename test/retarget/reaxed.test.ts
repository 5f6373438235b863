/**
 * Two exports of one rig that differ in their bones' frames or their root's node scale, made
 * from RobotExpressive with @gltf-transform, physically the same character with physically
 * the same animation: the original's clips played on each copy must give the original's
 * model-space joint positions (to 1 mm), and the copy's own converted clips must too (which
 * checks the conversion itself).
 *
 * The copies (re-axed: every joint's frame turned; rescaled: the root's node scale × k, the
 * translations below ÷ k) come from robotVariants.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bindSkeletons, createAnimationWorld, getModelMatrices, loadGltf, play, spawnCharacter, step, type Clip, type GltfResult, type Skeleton } from '../../src/index.js';
import { readAsset } from '../support/assets.js';
import { reaxe, rescaleRoot, robotVariant } from './robotVariants.js';

/** Model positions by joint name of `clip` on `skeleton` at `time`, through play and step. */
function positionsAt(skeleton: Skeleton, clip: Clip, time: number, kernels: 'js' | 'wasm' = 'js'): Map<string, number[]> {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels });
  const eid = spawnCharacter(world, skeleton);
  play(world, eid, clip, { time, speed: 0 });
  step(world, 0);
  const m = getModelMatrices(world, eid);
  return new Map(skeleton.names.map((name, j) => [name, [m[j * 12 + 9]!, m[j * 12 + 10]!, m[j * 12 + 11]!]]));
}

/** The largest distance between the same joints of two position maps. */
function largestDistance(a: Map<string, number[]>, b: Map<string, number[]>): number {
  let worst = 0;
  for (const [name, p] of a) {
    const q = b.get(name)!;
    worst = Math.max(worst, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!));
  }
  return worst;
}

describe('RobotExpressive exported twice: other bone axes, another root scale', () => {
  let original: GltfResult, reaxed: GltfResult, rescaled: GltfResult;
  beforeAll(async () => {
    original = await loadGltf(readAsset('RobotExpressive.glb'));
    [reaxed, rescaled] = await Promise.all([robotVariant(reaxe), robotVariant(rescaleRoot)]);
  });

  for (const variant of ['reaxed', 'rescaled'] as const) {
    it(`${variant}: the original's clips and the copy's own give the original's joint positions within 1 mm, 10 times per clip`, () => {
      const copy = variant === 'reaxed' ? reaxed : rescaled;
      const source = original.skeletons[0]!, target = copy.skeletons[0]!;
      expect(target.names).toEqual(source.names);
      // The copy's rest differs: the binding has work to do.
      expect(Array.from(target.rest)).not.toEqual(Array.from(source.rest));
      expect(bindSkeletons(source, target).retarget).not.toBeNull();
      let worstOwn = 0, worstPlayed = 0;
      original.clips.forEach((clip, c) => {
        const own = copy.clips[c]!;
        expect(own.name).toBe(clip.name);
        for (let k = 0; k < 10; k++) {
          const time = (clip.duration * k) / 9;
          const expected = positionsAt(source, clip, time);
          worstOwn = Math.max(worstOwn, largestDistance(positionsAt(target, own, time), expected));
          worstPlayed = Math.max(worstPlayed, largestDistance(positionsAt(target, clip, time), expected));
          // The WebAssembly kernels sample bound clips through the same JavaScript path.
          if (k === 4) worstPlayed = Math.max(worstPlayed, largestDistance(positionsAt(target, clip, time, 'wasm'), expected));
        }
      });
      expect(original.clips.length).toBeGreaterThan(10);
      expect(worstOwn).toBeLessThan(0.001);
      expect(worstPlayed).toBeLessThan(0.001);
    });
  }
});
