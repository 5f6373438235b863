/**
 * Float curves blended with the layers (issue 22 item 1): one layer, two weighted layers (and
 * the rest default below the blend threshold), additive layers (β·(S − R)), a cross-fade's
 * weights over time, and defaults for curves a clip lacks — against values computed here by
 * hand from the clips' curve functions.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createDifferenceClip, curveIndex, getCurves, play, spawnCharacter, step, transition } from '../../src/index.js';
import { curveClip, curveSkeleton, DEFAULTS, f32 } from './fixtures.js';

/** Clip curves (frame values f32 of these; at frame times they are exact, in between linear). */
const aA = (t: number): number => 0.1 + 0.5 * t, aB = (t: number): number => 2 - t;
const bA = (): number => 1;

function scene() {
  const skeleton = curveSkeleton();
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
  const eid = spawnCharacter(world, skeleton);
  const A = curveClip(skeleton, 'A', { a: aA, b: bA });
  const B = curveClip(skeleton, 'B', { a: aB, other: () => 9 }); // `other` is not the skeleton's: ignored
  return { skeleton, world, eid, A, B };
}

describe('curves blended with the layer weights', () => {
  it('no clip: every curve holds its default; the order is curveIndex(skeleton)', () => {
    const { skeleton, world, eid } = scene();
    expect([curveIndex(skeleton, 'a'), curveIndex(skeleton, 'b'), curveIndex(skeleton, 'c')]).toEqual([0, 1, 2]);
    expect(Array.from(getCurves(world, eid))).toEqual([DEFAULTS.a, DEFAULTS.b, DEFAULTS.c]);
    step(world, 1 / 60);
    expect(Array.from(getCurves(world, eid))).toEqual([DEFAULTS.a, DEFAULTS.b, DEFAULTS.c]);
  });

  it('one layer: its clip\'s values at frame times and lerped between; a curve it lacks keeps the default', () => {
    const { world, eid, A } = scene();
    for (const time of [0, 0.3, 0.35, 0.77, 1]) {
      play(world, eid, A, { time, speed: 0 });
      step(world, 0);
      const f = time * 10, f0 = Math.min(Math.floor(f), 9), u = f - f0;
      const expected = f32(aA(f0 / 10)) + (f32(aA((f0 + 1) / 10)) - f32(aA(f0 / 10))) * u;
      const v = getCurves(world, eid);
      expect(v[0]).toBeCloseTo(expected, 6);
      expect(v[1]).toBe(1);
      expect(v[2]).toBe(DEFAULTS.c);
    }
  });

  it('two weighted layers: (w_A·s_A + w_B·s_B) / (w_A + w_B), a clip without the curve giving its default', () => {
    const { world, eid, A, B } = scene();
    play(world, eid, A, { time: 0.4, speed: 0, weight: 0.3 });
    play(world, eid, B, { time: 0.6, speed: 0, weight: 0.5, layer: 1, blend: 'average' });
    step(world, 0);
    const v = getCurves(world, eid);
    expect(v[0]).toBeCloseTo((0.3 * f32(aA(0.4)) + 0.5 * f32(aB(0.6))) / 0.8, 6);
    expect(v[1]).toBeCloseTo((0.3 * 1 + 0.5 * DEFAULTS.b) / 0.8, 6);
    expect(v[2]).toBeCloseTo(DEFAULTS.c, 6);
  });

  it("two layers, the upper one 'layer' (the default): the value below normalized, then lerped toward the layer's by its weight, as the pose", () => {
    const { world, eid, A, B } = scene();
    play(world, eid, A, { time: 0.4, speed: 0, weight: 0.3 });
    play(world, eid, B, { time: 0.6, speed: 0, weight: 0.25, layer: 1 });
    step(world, 0);
    const v = getCurves(world, eid);
    // Below: A alone (0.3·s_A / 0.3); then (1 − 0.25)·that + 0.25·s_B.
    expect(v[0]).toBeCloseTo(0.75 * f32(aA(0.4)) + 0.25 * f32(aB(0.6)), 6);
    expect(v[1]).toBeCloseTo(0.75 * 1 + 0.25 * DEFAULTS.b, 6);
    expect(v[2]).toBeCloseTo(DEFAULTS.c, 6);
    // At weight 1 the layer's value replaces A's.
    play(world, eid, B, { time: 0.6, speed: 0, weight: 1, layer: 1 });
    step(world, 0);
    expect(v[0]).toBeCloseTo(f32(aB(0.6)), 6);
    expect(v[1]).toBeCloseTo(DEFAULTS.b, 6);
  });

  it('weights summing under the blend threshold θ = 0.1: the defaults join with θ − W, as the rest pose does', () => {
    const { world, eid, A, B } = scene();
    play(world, eid, A, { time: 0.4, speed: 0, weight: 0.02 });
    play(world, eid, B, { time: 0.6, speed: 0, weight: 0.03, layer: 1, blend: 'average' });
    step(world, 0);
    const v = getCurves(world, eid);
    expect(v[0]).toBeCloseTo((0.02 * f32(aA(0.4)) + 0.03 * f32(aB(0.6)) + 0.05 * DEFAULTS.a) / 0.1, 6);
    expect(v[1]).toBeCloseTo((0.02 * 1 + 0.03 * DEFAULTS.b + 0.05 * DEFAULTS.b) / 0.1, 6);
    // A 'layer' layer normalizes what is below it (A, W = 0.02 > 0) before its lerp: W = 1, no default.
    play(world, eid, B, { time: 0.6, speed: 0, weight: 0.03, layer: 1 });
    step(world, 0);
    expect(v[0]).toBeCloseTo(0.97 * f32(aA(0.4)) + 0.03 * f32(aB(0.6)), 6);
    // Alone (A stopped), the layer starts the blend: 0.03 < θ, so the defaults join with θ − 0.03.
    play(world, eid, A, { time: 0.4, speed: 0, weight: 0 });
    step(world, 0);
    expect(v[0]).toBeCloseTo((0.03 * f32(aB(0.6)) + 0.07 * DEFAULTS.a) / 0.1, 6);
  });

  it('additive layer: value + β·(S − R), R its reference clip\'s curve at the reference time; curves its clip lacks untouched', () => {
    const { skeleton, world, eid, A } = scene();
    const E = curveClip(skeleton, 'E', { a: (t) => 3 * t * t, c: (t) => 1 - t });
    play(world, eid, A, { time: 0.2, speed: 0 });
    play(world, eid, E, { time: 0.7, speed: 0, layer: 1, additive: true, weight: 0.4, referenceTime: 0.1 });
    step(world, 0);
    const v = getCurves(world, eid);
    expect(v[0]).toBeCloseTo(f32(aA(0.2)) + 0.4 * (f32(3 * 0.49) - f32(3 * 0.01)), 6);
    expect(v[1]).toBe(1);
    expect(v[2]).toBeCloseTo(DEFAULTS.c + 0.4 * (f32(1 - 0.7) - f32(1 - 0.1)), 6);
  });

  it('a difference clip (curves hold S − R already) adds β × its own values', () => {
    const { skeleton, world, eid, A } = scene();
    const S = curveClip(skeleton, 'S', { a: (t) => 2 * t });
    const R = curveClip(skeleton, 'R', { a: () => 0.5 });
    const D = createDifferenceClip(S, R, { referenceTime: 0 });
    play(world, eid, A, { time: 0.5, speed: 0 });
    play(world, eid, D, { time: 0.3, speed: 0, layer: 1, additive: true, weight: 0.5 });
    step(world, 0);
    const v = getCurves(world, eid);
    expect(v[0]).toBeCloseTo(f32(aA(0.5)) + 0.5 * (f32(0.6) - 0.5), 6);
    expect(v[2]).toBe(DEFAULTS.c);
  });

  it('a cross-fade fades the curves with the layer weights: w_B = u, w_A = 1 − u over the fade', () => {
    const { world, eid, A, B } = scene();
    play(world, eid, A, { time: 0.4, speed: 0 });
    step(world, 1 / 10);
    transition(world, eid, B, { duration: 0.5, mode: 'crossfade', time: 0.6, speed: 0 } as Parameters<typeof transition>[3]);
    const { Layers } = world.components;
    for (let k = 1; k <= 6; k++) {
      step(world, 0.1);
      const u = Math.min(1, (0.1 * k) / 0.5);
      // The weights the layers hold (the fade's), and the curves blended with them.
      const weights = Array.from(Layers.weight.subarray(eid * Layers.maxLayers, (eid + 1) * Layers.maxLayers)).filter((w) => w > 0).sort();
      if (u < 1) expect(weights.reduce((s, w) => s + w, 0)).toBeCloseTo(1, 6);
      const v = getCurves(world, eid);
      expect(v[0], `k=${k}`).toBeCloseTo((1 - u) * f32(aA(0.4)) + u * f32(aB(0.6)), 5);
      expect(v[1], `k=${k}`).toBeCloseTo((1 - u) * 1 + u * DEFAULTS.b, 5);
    }
  });
});
