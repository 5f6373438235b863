/**
 * Float curves through inertialized switches (issue 22 item 1): a curve is offset at the switch
 * and decays as the pose's translation channels do (dead blending: extrapolated and cross-faded
 * as they are). The clips here move the root's x
 * translation exactly as their curve `a`, so the curve must follow the pose's own x through the
 * whole transition (its continuity bound is the pose's) — quintic and spring — and reach the
 * target clip's value when the offset ends. A hand check of the quintic: x0 = P1 − T(τ),
 * v0 = v_A − v_B, x(t) = inertializeCurve(x0, v0, t1, t).
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, getCurves, getLocalPose, play, spawnCharacter, step, transition, type TransitionOptions } from '../../src/index.js';
import { inertializeCurve } from '../../src/kernels.js';
import { curveClip, curveSkeleton } from './fixtures.js';

const DT = 1 / 60;
const slopeA = 1, slopeB = -0.5;
const fA = (t: number): number => 0.2 + slopeA * t;
const fB = (t: number): number => 2 + slopeB * t;

function run(options: TransitionOptions, interrupt?: TransitionOptions) {
  const skeleton = curveSkeleton();
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
  const eid = spawnCharacter(world, skeleton);
  const opts = { frames: 121, frameRate: 60, loop: false };
  const A = curveClip(skeleton, 'A', { a: fA }, { ...opts, tx: fA });
  const B = curveClip(skeleton, 'B', { a: fB }, { ...opts, tx: fB });
  play(world, eid, A);
  const curve: number[] = [], pose: number[] = [];
  const record = (): void => {
    curve.push(getCurves(world, eid)[0]!);
    pose.push(getLocalPose(world, eid)[0]!);
  };
  for (let i = 0; i < 30; i++) {
    step(world, DT);
    record();
  }
  transition(world, eid, B, options);
  for (let i = 0; i < 60; i++) {
    if (i === 10 && interrupt) transition(world, eid, A, { ...interrupt, time: 0.2 } as TransitionOptions);
    step(world, DT);
    record();
  }
  return { curve, pose, switchAt: 30 };
}

describe('an inertialized switch offsets the curves as it does the pose', () => {
  for (const [label, options] of [
    ['quintic', { duration: 0.3 }],
    ['spring', { duration: 0.3, mode: 'spring', halfLife: 0.05 }],
    ['deadblend', { duration: 0.3, mode: 'deadblend' }],
  ] as const) {
    it(`${label}: the curve equals the pose's x through the transition, is continuous at the switch and reaches the target`, () => {
      const { curve, pose, switchAt } = run(options as TransitionOptions);
      let worst = 0;
      for (let i = 0; i < curve.length; i++) worst = Math.max(worst, Math.abs(curve[i]! - pose[i]!));
      console.log(`[curves] ${label}: |curve − pose x| ≤ ${worst.toExponential(2)} over the transition`);
      expect(worst).toBeLessThan(1e-5);
      // Continuous: the step across the switch is a frame's motion (the velocity's change is the
      // offset's acceleration × dt, as the pose's: see test/transitions/inertialize.test.ts),
      // not the jump of 1.3 between the clips.
      const before = curve[switchAt - 1]! - curve[switchAt - 2]!;
      const across = curve[switchAt]! - curve[switchAt - 1]!;
      expect(Math.abs(fB(DT) - fA(31 * DT))).toBeGreaterThan(1);
      expect(Math.abs(across - before)).toBeLessThan(0.1);
      // The target at the end (the quintic exactly from t1 on; the spring at rest).
      const last = curve[curve.length - 1]!;
      expect(Math.abs(last - fB(60 * DT))).toBeLessThan(label === 'spring' ? 1e-4 : 1e-6);
    });
  }

  for (const [label, options] of [
    ['quintic', { duration: 0.3 }],
    ['spring', { duration: 0.3, mode: 'spring', halfLife: 0.05 }],
    ['deadblend', { duration: 0.3, mode: 'deadblend' }],
  ] as const) {
    it(`${label} interrupted by another (the running offset's value and velocity carried over): the curve still equals the pose's x`, () => {
      const { curve, pose } = run(options as TransitionOptions, options as TransitionOptions);
      let worst = 0;
      for (let i = 0; i < curve.length; i++) worst = Math.max(worst, Math.abs(curve[i]! - pose[i]!));
      expect(worst).toBeLessThan(1e-5);
      expect(Math.abs(curve[curve.length - 1]! - fA(0.2 + 50 * DT))).toBeLessThan(1e-4);
    });
  }

  it('quintic by hand: value = T(t) + inertializeCurve(P1 − T(τ), v_A − v_B, t1, t)', () => {
    const { curve, switchAt } = run({ duration: 0.3 });
    const p1 = curve[switchAt - 1]!;
    const x0 = p1 - fB(0); // T(τ): the target one frame before the switch frame, B at 0
    const v0 = slopeA - slopeB; // the offset's velocity, source minus target
    expect(x0).toBeLessThan(0);
    // Along the offset's direction (−1): magnitude −x0, velocity −v0 toward zero.
    for (let k = 0; k < 30; k++) {
      const t = (k + 1) * DT;
      expect(curve[switchAt + k], `t=${t}`).toBeCloseTo(fB(t) - inertializeCurve(-x0, -v0, 0.3, t), 5);
    }
  });
});
