/**
 * The `Curves` component at the API: `getCurves`' live view and its errors, `maxCurves`
 * (validated, counted in `worldBytes`, 0 allocating nothing), reuse of a removed character's id,
 * and reduced clips (played directly and as LOD levels) within their `curveTolerance`.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, getCurves, play, registerLodLevels, removeCharacter, setLod, setLodCamera, spawnCharacter, step, worldBytes,
} from '../../src/index.js';
import { sampleCurvesInto } from '../../src/kernels.js';
import { reduceClip } from '../../src/lod.js';
import { curveClip, curveSkeleton, DEFAULTS } from './fixtures.js';
import { syntheticSkeleton } from '../fixtures/synthetic.js';

describe('getCurves', () => {
  it('is a live view: the same array shows each update\'s values', () => {
    const skeleton = curveSkeleton();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    const view = getCurves(world, eid);
    expect(view).toBeInstanceOf(Float32Array);
    expect(view.length).toBe(3);
    play(world, eid, curveClip(skeleton, 'A', { a: (t) => t }), { speed: 1 });
    step(world, 0.25);
    expect(view[0]).toBeCloseTo(0.25, 6);
    step(world, 0.25);
    expect(view[0]).toBeCloseTo(0.5, 6);
    expect(view[2]).toBe(DEFAULTS.c);
  });

  it('throws AnimationError for a removed character or a non-character; a character without curves gets an empty view', () => {
    const skeleton = curveSkeleton();
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    const plain = spawnCharacter(world, syntheticSkeleton(2));
    expect(getCurves(world, plain).length).toBe(0);
    removeCharacter(world, eid);
    expect(() => getCurves(world, eid)).toThrow(AnimationError);
    expect(() => getCurves(world, eid)).toThrow(/getCurves/);
    expect(() => getCurves(world, 999)).toThrow(AnimationError);
  });

  it('a reused id starts at its new skeleton\'s defaults', () => {
    const skeleton = curveSkeleton();
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, curveClip(skeleton, 'A', { a: () => 7, c: () => 9 }));
    step(world, 0.1);
    expect(getCurves(world, eid)[2]).toBe(9);
    removeCharacter(world, eid);
    const again = spawnCharacter(world, skeleton);
    expect(Array.from(getCurves(world, again))).toEqual([DEFAULTS.a, DEFAULTS.b, DEFAULTS.c]);
  });
});

describe('maxCurves', () => {
  it('is validated: an integer in [0, 1024]; a skeleton with more curves is refused at spawn', () => {
    for (const bad of [-1, 1.5, 1025, '8' as unknown as number, Number.NaN]) {
      expect(() => createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxCurves: bad }), String(bad)).toThrow(/maxCurves/);
    }
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxCurves: 2 });
    expect(() => spawnCharacter(world, curveSkeleton())).toThrow(/3 float curves, more than the world's maxCurves \(2\)/);
    expect(world.characters.dense.length).toBe(0);
  });

  it('costs 4 bytes per curve per character and 12 per curve per transition slot; 0 allocates nothing and skips curves', () => {
    expect(worldBytes({ maxEntities: 1000, maxJoints: 64, maxEvents: 4096, kernels: 'js', maxTransitions: 128, maxLayers: 4, maxCurves: 8 }) - worldBytes({ maxEntities: 1000, maxJoints: 64, maxEvents: 4096, kernels: 'js', maxTransitions: 128, maxLayers: 4, maxCurves: 0 })).toBe(1001 * (8 * 4 + 2) + 128 * 8 * 12);
    const world = createAnimationWorld({ maxEntities: 100, maxJoints: 8, maxCurves: 0, kernels: 'js' });
    const c = world.components.Curves;
    expect(c.values.length + c.count.length + c.slots.length).toBe(0);
    const skeleton = curveSkeleton();
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, curveClip(skeleton, 'A', { a: (t) => t }));
    step(world, 0.1);
    expect(getCurves(world, eid).length).toBe(0);
    const eight = createAnimationWorld({ maxEntities: 100, maxJoints: 8, kernels: 'js' });
    expect(eight.components.Curves.maxCurves).toBe(8);
    // The buffers differ by what worldBytes counts for the curves (up to the pools' alignment).
    const counted = worldBytes({ maxEntities: 100, maxJoints: 8 }) - worldBytes({ maxEntities: 100, maxJoints: 8, maxEvents: 4096, kernels: 'js', maxCurves: 0 });
    expect(counted).toBe(101 * (8 * 4 + 2) + 100 * 8 * 12);
    expect(Math.abs(eight.poolBuffer.byteLength - world.poolBuffer.byteLength - counted)).toBeLessThan(64);
  });
});

describe('reduced clips', () => {
  const wavy = (t: number): number => Math.sin(7 * t) * Math.cos(3 * t);
  const tolerance = 2e-3;

  it('played directly: its curves within its curveTolerance of the dense clip\'s', () => {
    const skeleton = curveSkeleton();
    const dense = curveClip(skeleton, 'W', { a: wavy, b: (t) => t }, { frames: 61, frameRate: 30 });
    const reduced = reduceClip(dense, { tolerance: 0.01, curveTolerance: tolerance });
    expect(reduced.curves[0]!.keys!.length).toBeLessThan(61);
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    const at = new Float32Array(2);
    let worst = 0;
    for (let k = 0; k <= 100; k++) {
      const time = (2 * k) / 100;
      play(world, eid, reduced, { time, speed: 0 });
      step(world, 0);
      sampleCurvesInto(at, 0, dense, Float64Array.of(time), 0);
      worst = Math.max(worst, Math.abs(getCurves(world, eid)[0]! - at[0]!), Math.abs(getCurves(world, eid)[1]! - at[1]!));
    }
    console.log(`[curves] reduced clip: max |Δ| ${worst.toExponential(2)} (curveTolerance ${tolerance})`);
    expect(worst).toBeLessThanOrEqual(tolerance + 1e-6);
    expect(worst).toBeGreaterThan(0); // really the keyed curves
  });

  it('as a motion-LOD level: a far character samples the level\'s curves, within the tolerance', () => {
    const skeleton = curveSkeleton();
    const dense = curveClip(skeleton, 'W', { a: wavy }, { frames: 61, frameRate: 30, loop: true });
    const reduced = reduceClip(dense, { tolerance: 0.01, curveTolerance: tolerance });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const near = spawnCharacter(world, skeleton);
    const far = spawnCharacter(world, skeleton, { x: 100 });
    play(world, near, dense);
    play(world, far, dense);
    registerLodLevels(world, dense, [dense, reduced]); // after play: resolved for the skeleton playing it
    setLodCamera(world, 0, 0, 0);
    setLod(world, far, { levels: 2, distances: [10] });
    let worst = 0, differs = false;
    for (let k = 0; k < 90; k++) {
      step(world, 1 / 45);
      const a = getCurves(world, near)[0]!, b = getCurves(world, far)[0]!;
      worst = Math.max(worst, Math.abs(a - b));
      if (a !== b) differs = true;
    }
    expect(world.components.Lod.level[far]).toBe(1);
    expect(differs).toBe(true);
    expect(worst).toBeLessThanOrEqual(tolerance + 1e-6);
  });
});
