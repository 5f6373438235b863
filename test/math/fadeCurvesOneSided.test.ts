import { describe, expect, it } from 'vitest';
import { createAnimationWorld, play, spawnCharacter, step, transition } from '../../src/index.js';
import { FADE_CURVE_KINDS, FADE_EASE_IN, FADE_EASE_OUT, FADE_SMOOTHSTEP, fadeCurve, fadeCurveName, DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { refused } from '../fixtures/errors.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

/**
 * ∫₀¹ f″² by the midpoint rule over n cells, f″ by a central second difference of step 1e-4
 * (inside [0, 1] at every midpoint, so the clamping never enters).
 */
function bendingEnergy(f: (t: number) => number, n = 400): number {
  const h = 1 / n, d = 1e-4;
  const second = (t: number) => (f(t + d) - 2 * f(t) + f(t - d)) / (d * d);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += second((i + 0.5) * h) ** 2 * h;
  return sum;
}

describe('one-sided fade curves', () => {
  const easeIn = (t: number) => fadeCurve(FADE_EASE_IN, t);
  const easeOut = (t: number) => fadeCurve(FADE_EASE_OUT, t);

  it("are kinds 4 and 5, named 'ease-in' and 'ease-out'", () => {
    expect([FADE_EASE_IN, FADE_EASE_OUT]).toEqual([4, 5]);
    expect(FADE_CURVE_KINDS['ease-in']).toBe(FADE_EASE_IN);
    expect(FADE_CURVE_KINDS['ease-out']).toBe(FADE_EASE_OUT);
    expect(fadeCurveName(FADE_EASE_IN)).toBe('ease-in');
    expect(fadeCurveName(FADE_EASE_OUT)).toBe('ease-out');
  });

  it('hit 0 and 1 at the ends and clamp outside [0, 1]', () => {
    for (const f of [easeIn, easeOut]) {
      expect(f(0)).toBe(0);
      expect(f(1)).toBe(1);
      expect(f(-2)).toBe(0);
      expect(f(5)).toBe(1);
      expect(f(Number.NEGATIVE_INFINITY)).toBe(0);
      expect(f(Number.POSITIVE_INFINITY)).toBe(1);
      expect(f(Number.NaN)).toBeNaN();
    }
  });

  it('match hand values: (3t² − t³)/2 and (3t − t³)/2 at t = ¼, ½, ¾', () => {
    // ease-in: ¼ → (3/16 − 1/64)/2 = 11/128; ½ → (3/4 − 1/8)/2 = 5/16; ¾ → (27/16 − 27/64)/2 = 81/128.
    expect(easeIn(0.25)).toBe(11 / 128);
    expect(easeIn(0.5)).toBe(5 / 16);
    expect(easeIn(0.75)).toBe(81 / 128);
    // ease-out: ¼ → (3/4 − 1/64)/2 = 47/128; ½ → (3/2 − 1/8)/2 = 11/16; ¾ → (9/4 − 27/64)/2 = 117/128.
    expect(easeOut(0.25)).toBe(47 / 128);
    expect(easeOut(0.5)).toBe(11 / 16);
    expect(easeOut(0.75)).toBe(117 / 128);
  });

  it('mirror each other: easeOut(t) = 1 − easeIn(1 − t), and are monotone', () => {
    let prevIn = 0, prevOut = 0;
    for (let i = 0; i <= 1000; i++) {
      const t = i / 1000;
      expect(easeOut(t) + easeIn(1 - t), `t = ${t}`).toBeCloseTo(1, 14);
      expect(easeIn(t)).toBeGreaterThanOrEqual(prevIn);
      expect(easeOut(t)).toBeGreaterThanOrEqual(prevOut);
      // Ease-in stays under the diagonal, ease-out over it.
      expect(easeIn(t)).toBeLessThanOrEqual(t);
      expect(easeOut(t)).toBeGreaterThanOrEqual(t);
      prevIn = easeIn(t);
      prevOut = easeOut(t);
    }
  });

  it('have zero slope at one end only: ease-in f′(0) = 0, f′(1) = 3/2; ease-out the reverse', () => {
    // One-sided first differences with h = 1e-6: error ≈ |f″|·h/2 ≤ 1.5e-6.
    const h = 1e-6;
    const slope = (f: (t: number) => number, t: number, s: 1 | -1) => (f(t + s * h) - f(t)) / (s * h);
    expect(Math.abs(slope(easeIn, 0, 1))).toBeLessThan(1e-5);
    expect(slope(easeIn, 1, -1)).toBeCloseTo(1.5, 5);
    expect(slope(easeOut, 0, 1)).toBeCloseTo(1.5, 5);
    expect(Math.abs(slope(easeOut, 1, -1))).toBeLessThan(1e-5);
    // Central difference inside: f′(t) = 3t(2 − t)/2 and 3(1 − t²)/2 at t = 0.4.
    const d = (f: (t: number) => number, t: number) => (f(t + h) - f(t - h)) / (2 * h);
    expect(d(easeIn, 0.4)).toBeCloseTo((3 * 0.4 * 1.6) / 2, 8);
    expect(d(easeOut, 0.4)).toBeCloseTo((3 * (1 - 0.16)) / 2, 8);
  });

  it('ease-in bends least among curves from rest with a free end: ∫f″² = 3, under t²\'s 4', () => {
    // The natural-cubic claim: any other f with f(0) = 0, f′(0) = 0, f(1) = 1 bends more. Add
    // perturbations p that keep those conditions (p(0) = p′(0) = p(1) = 0): ε·t²(1 − t)·(1 + k t).
    expect(bendingEnergy(easeIn)).toBeCloseTo(3, 3);
    expect(bendingEnergy((t) => t * t)).toBeCloseTo(4, 3);
    for (const eps of [-0.3, -0.05, 0.05, 0.3]) {
      for (const k of [0, 1, -0.5]) {
        const perturbed = (t: number) => easeIn(t) + eps * t * t * (1 - t) * (1 + k * t);
        expect(bendingEnergy(perturbed), `ε ${eps}, k ${k}`).toBeGreaterThan(3);
      }
    }
    // Smoothstep, pinned to zero slope at both ends, bends more: ∫(6 − 12t)² = 12.
    expect(bendingEnergy((t) => fadeCurve(FADE_SMOOTHSTEP, t))).toBeCloseTo(12, 3);
  });
});

describe("transition's cross-fade with curve 'ease-in' and 'ease-out'", () => {
  const skeleton = syntheticSkeleton(3);
  const from = syntheticClip(skeleton, { seed: 1, frameCount: 9, name: 'from' });
  const to = syntheticClip(skeleton, { seed: 2, frameCount: 9, name: 'to' });

  it.each([
    ['ease-in', [11 / 128, 5 / 16, 81 / 128]],
    ['ease-out', [47 / 128, 11 / 16, 117 / 128]],
  ] as const)('%s: the incoming weight at ¼, ½, ¾ of a 0.4 s fade is the hand value, the outgoing its complement', (curve, expected) => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 3 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, from);
    step(world, 0.05);
    transition(world, eid, to, { duration: 0.4, mode: 'crossfade', curve });
    const { Layers } = world.components;
    const incoming = eid * DEFAULT_MAX_LAYERS;
    const outgoing = incoming + 1; // the first free slot takes the outgoing clip
    expect(Layers.clip[outgoing]).toBe(world.assets.clipIds.get(from));
    for (const w of expected) {
      step(world, 0.1);
      expect(Layers.weight[incoming]).toBeCloseTo(w, 6);
      expect(Layers.weight[outgoing]).toBeCloseTo(1 - w, 6);
    }
    step(world, 0.1);
    expect(Layers.weight[incoming]).toBe(1);
    expect(Layers.clip[outgoing]).toBe(-1);
  });

  it('refuses an unknown curve with the list of names', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 3 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, from);
    expect(refused(() => transition(world, eid, to, { duration: 0.4, mode: 'crossfade', curve: 'easeIn' as never })).message).toBe(
      "transition: curve is easeIn: must be 'linear', 'smoothstep', 'minjerk', 'ease-in' or 'ease-out'",
    );
  });
});
