/**
 * measureFootSkate's world-space form (foot positions sampled per frame): hand-made paths with
 * known horizontal lengths, heights left out, refusals; and footLockSystem on degenerate legs.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createClip, createSkeleton, getModelMatrices, measureFootSkate, play, setFootLock, setRootTransform, spawnCharacter, step,
} from '../../src/index.js';
import { refused } from '../fixtures/errors.js';

describe('measureFootSkate over world-space paths', () => {
  // Foot 0 moves 3-4-5 steps (5 per sample, then still); foot 1 rises only (no skate).
  const rate = 10;
  const foot0 = [0, 0, 0, 3, 1, 4, 6, 2, 8, 6, 2, 8, 6, 2, 8];
  const foot1 = [1, 0, 1, 1, 0.5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];

  it('sums the horizontal path over each contact\'s samples; mean, max, per foot', () => {
    const skate = measureFootSkate({ frameRate: rate, positions: [foot0, foot1] }, [
      { joint: 7, intervals: [[0, 0.2], [0.2, 0.4]] },
      { joint: 9, intervals: [[0, 0.4]] },
    ]);
    // Foot 0: samples 0 → 2 cover 5 + 5 = 10; samples 2 → 4 cover 0. Foot 1: heights only, 0.
    expect(skate.feet[0]!.distances).toEqual([10, 0]);
    expect(skate.feet[1]!.distances).toEqual([0]);
    expect([skate.mean, skate.max, skate.contacts]).toEqual([10 / 3, 10, 3]);
    expect(skate.feet.map((f) => f.joint)).toEqual([7, 9]);
  });

  it('refuses what is not paths of samples or not sample times, naming the field', () => {
    const contacts = [{ joint: 0, intervals: [[0, 0.2]] as [number, number][] }];
    expect(refused(() => measureFootSkate({ frameRate: 0, positions: [foot0] }, contacts)).message).toMatch(/paths\.frameRate/);
    expect(refused(() => measureFootSkate({ frameRate: rate, positions: [] }, contacts)).message).toMatch(/paths\.positions.*one position list per contact entry/);
    expect(refused(() => measureFootSkate({ frameRate: rate, positions: [[0, 0]] }, contacts)).message).toMatch(/paths\.positions\[0\].*at least two samples/);
    expect(refused(() => measureFootSkate({ frameRate: rate, positions: [[0, 0, 0, NaN, 0, 0]] }, contacts)).message).toMatch(/paths\.positions\[0\]\[3\]/);
    expect(refused(() => measureFootSkate({ frameRate: rate, positions: [foot0] }, [{ joint: 0, intervals: [[0, 0.45]] }])).message).toMatch(/intervals\[0\].*sample time/);
    expect(refused(() => measureFootSkate({ frameRate: rate, positions: [foot0] }, [{ joint: 0, intervals: [[0.3, 0.1]] }])).message).toMatch(/intervals\[0\].*after it ends/);
  });
});

describe('footLockSystem on degenerate legs', () => {
  it.each(['js', 'wasm'] as const)('bones of zero length (every joint at the hip) and a straight leg stay finite, locked and moved (%s kernels)', (kernels) => {
    const id = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
    const at = (y: number) => [0, y, 0, 0, 0, 0, 1, 1, 1, 1];
    for (const [name, rest] of [['zero-length', [...at(1), ...id, ...id, ...id]], ['straight', [...at(1), ...at(-0.5), ...at(-0.5), ...at(0)]]] as const) {
      const skeleton = createSkeleton({ names: ['hips', 'thigh', 'shin', 'foot'], parents: [-1, 0, 1, 2], rest: [...rest] });
      const frames = Array.from({ length: 10 }, () => [...rest]).flat();
      const clip = createClip({ skeleton, frameRate: 10, frames, loop: false, events: [{ time: 0, name: 'footDown:foot' }, { time: 0.9, name: 'footUp:foot' }] });
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: 4, kernels });
      expect(world.kernels).toBe(kernels);
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, clip, { loop: false });
      setFootLock(world, eid, { legs: [{ upper: 'thigh', lower: 'shin', foot: 'foot' }] });
      for (let f = 0; f < 10; f++) {
        setRootTransform(world, eid, { z: 0.05 * f });
        step(world, f === 0 ? 0 : 0.1);
        expect(getModelMatrices(world, eid).every(Number.isFinite), `${name} frame ${f}`).toBe(true);
      }
    }
  });
});
