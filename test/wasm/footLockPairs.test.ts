/**
 * The WebAssembly foot lock solves and turns a character's legs two at a time (one per lane,
 * assembly/footLockPair.ts), handing a leg whose IK is one of `solveLegIk`'s special cases back
 * to JavaScript. Characters of three and four legs, straight (a special case: the hinge axis is
 * undefined) and bent ones in every position of a pair — the first lane, the second, a leg alone —
 * must come out as on the JavaScript kernels, every leg corrected once.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, createSkeleton, play, setFootLock, setRootTransform, spawnCharacter, step } from '../../src/index.js';

const BENT: readonly number[] = [0, -0.5, 0.08, 0, -0.5, -0.08];
const STRAIGHT: readonly number[] = [0, -0.5, 0, 0, -0.5, 0];

/** A hips joint and one thigh–shin–foot chain per entry of `legs` (bent or straight at rest), hips 1 m up. */
function creature(legs: readonly (readonly number[])[]) {
  const names = ['hips'], parents = [-1], rest = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1];
  legs.forEach((shape, n) => {
    const base = names.length;
    names.push(`thigh${n}`, `shin${n}`, `foot${n}`);
    parents.push(0, base, base + 1);
    rest.push((n - legs.length / 2) * 0.3, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    rest.push(shape[0]!, shape[1]!, shape[2]!, 0, 0, 0, 1, 1, 1, 1);
    rest.push(shape[3]!, shape[4]!, shape[5]!, 0, 0, 0, 1, 1, 1, 1);
  });
  const skeleton = createSkeleton({ names, parents, rest });
  const frames = Array.from({ length: 20 }, () => rest).flat();
  const events = legs.flatMap((_, n) => [{ time: 0, name: `footDown:foot${n}` }, { time: 1.9, name: `footUp:foot${n}` }]);
  const clip = createClip({ skeleton, frameRate: 10, frames, loop: false, events });
  return { skeleton, clip, legs: legs.map((_, n) => ({ upper: `thigh${n}`, lower: `shin${n}`, foot: `foot${n}` })) };
}

describe('the WebAssembly foot lock, two legs at a time', () => {
  const cases: [string, (readonly number[])[]][] = [
    ['straight, bent, bent, straight (a special first lane, then a special second lane)', [STRAIGHT, BENT, BENT, STRAIGHT]],
    ['bent, straight, bent (a special second lane, then a leg alone)', [BENT, STRAIGHT, BENT]],
    ['bent, bent, straight (a pair, then a special leg alone)', [BENT, BENT, STRAIGHT]],
    ['bent ×3 (a pair, then a leg alone)', [BENT, BENT, BENT]],
  ];
  for (const [name, shapes] of cases) {
    it(`${name}: every leg as on JavaScript`, () => {
      const { skeleton, clip, legs } = creature(shapes);
      const worlds = (['js', 'wasm'] as const).map((kernels) => {
        const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels });
        const eid = spawnCharacter(world, skeleton);
        play(world, eid, clip, { loop: false });
        setFootLock(world, eid, { legs });
        return world;
      });
      expect(worlds[1]!.kernels).toBe('wasm');
      const turned = new Set<number>();
      for (let f = 0; f < 15; f++) {
        for (const world of worlds) {
          setRootTransform(world, 1, { z: 0.04 * f, x: 0.01 * f });
          step(world, f === 0 ? 0 : 0.1);
        }
        const [js, wasm] = worlds.map((w) => w.components);
        expect(Array.from(wasm!.FootLock.locked.subarray(4, 4 + legs.length)), `frame ${f}`).toEqual(Array.from(js!.FootLock.locked.subarray(4, 4 + legs.length)));
        const size = skeleton.jointCount * 10;
        const a = js!.LocalPose.data.subarray(size, 2 * size), b = wasm!.LocalPose.data.subarray(size, 2 * size);
        for (let i = 0; i < size; i++) expect(Math.abs(a[i]! - b[i]!), `frame ${f}, element ${i}`).toBeLessThanOrEqual(1e-6);
        // A leg turned this frame: its thigh's rotation left the rest (identity).
        for (let n = 0; n < legs.length; n++) if (Math.abs(a[(1 + 3 * n) * 10 + 6]! - 1) > 1e-4) turned.add(n);
      }
      // Every leg, straight or bent, was corrected at some frame (the body moved 0.6 m away from the locks).
      expect([...turned].sort()).toEqual(legs.map((_, n) => n));
    });
  }
});
