/**
 * Acceptance tests of spring inertialization (`mode: 'spring'`) through the public API:
 * velocity continuity at the switch and across an interruption, the offset against Holden's
 * closed-form decay spring (`springDecay`, the reference), and convergence to the target.
 *
 * Measuring the velocity: as for the quintic (see inertialize.test.ts), the one-frame
 * difference across the switch is v_A + a0·dt/2 + O(dt²), here with the critically damped
 * spring's initial acceleration a0 = −2y v0 − y² x0, y = 2 ln2 / halfLife. With the default
 * half-life (duration / 6 = 1/12 s, y ≈ 16.6 /s) and these offsets, a0 ≈ 100–115 units/s²:
 * 2.5–5.7 % of the velocity at 1 ms steps — the spring starts with a much stronger pull than
 * the quintic. The continuity check therefore uses 0.25 ms steps (measured 0.6–1.4 %); the
 * 1 ms figure is checked against v_A + a0·dt/2 and printed.
 */
import { describe, expect, it } from 'vitest';
import { transition, type TransitionOptions } from '../../src/index.js';
import { springDecay } from '../../src/kernels.js';
import { CHANNELS, expectPoseClose, FINE_DT, FRAME_DT, motionClip, report, type Channel, type Motion } from './helpers.js';
import { A, B_MOVING, B_STILL, C, SWITCH, switchScene, T1, type Scene } from './scene.js';

const SPRING: TransitionOptions = { duration: T1, mode: 'spring' };
/** The default half-life: a sixth of the duration. */
const HALF_LIFE = T1 / 6;
/** Small step for the spring's continuity checks. */
const SPRING_DT = 1 / 4000;
const TARGETS = [
  { label: 'still B', motion: B_STILL },
  { label: 'moving B', motion: B_MOVING },
] as const;

/** The spring offset after `t` seconds from (x0, v0): Holden's exact solution. */
function springAt(x0: number, v0: number, t: number): number {
  const out = new Float64Array(2);
  springDecay(out, x0, v0, HALF_LIFE, t);
  return out[0]!;
}

/** Initial acceleration of the decay spring: −2y v0 − y² x0. */
function springA0(x0: number, v0: number): number {
  const y = (2 * Math.LN2) / HALF_LIFE;
  return -2 * y * v0 - y * y * x0;
}

/** The scene after the switch: 80 fine steps, then 60 Hz frames to 1.2 s (over 14 half-lives). */
function afterSwitch(b: Motion, fineDt: number, fineSteps = 80): Scene {
  const scene = switchScene(SPRING, b, fineDt);
  scene.rec.run(fineSteps, fineDt).run(Math.ceil((1.2 - fineSteps * fineDt) / FRAME_DT), FRAME_DT);
  return scene;
}

describe.each(CHANNELS)('spring inertialization, $name channel', (channel: Channel) => {
  const x0 = (b: Motion) => channel.at(A, SWITCH) - channel.at(b, 0);
  const v0 = (b: Motion) => channel.velocity(A) - channel.velocity(b);

  it.each(TARGETS)('keeps the output velocity across the switch to a $label (< 5 % with 0.25 ms steps)', ({ label, motion }) => {
    const fine = afterSwitch(motion, SPRING_DT);
    const v = fine.rec.velocityAround(channel, fine.k);
    report(`spring, ${label}, dt = 0.25 ms`, channel, v);
    expect(v.before).toBeCloseTo(channel.velocity(A), 2);
    expect(v.jump).toBeLessThan(0.05);

    const coarse = afterSwitch(motion, FINE_DT, 20);
    const w = coarse.rec.velocityAround(channel, coarse.k);
    report(`spring, ${label}, dt = 1 ms`, channel, w);
    expect(w.after - w.before).toBeCloseTo((springA0(x0(motion), v0(motion)) * FINE_DT) / 2, 2);
  });

  it.each(TARGETS)('follows B + springDecay(x0, v0, halfLife, t) and is within 1e-4 of B after 12 half-lives ($label)', ({ motion }) => {
    const scene = afterSwitch(motion, FINE_DT, 20);
    const f = scene.rec.frames;
    let converged = 0;
    for (let i = scene.k + 1; i < f.length; i++) {
      const t = f[i]!.time - scene.switchTime;
      const pose = f[i]!.poses[0]!;
      const expected = channel.at(motion, t) + springAt(x0(motion), v0(motion), t);
      expect(Math.abs(channel.diff(expected, channel.read(pose))), `t = ${t}`).toBeLessThan(1e-4);
      if (t >= 12 * HALF_LIFE) {
        expect(Math.abs(channel.diff(channel.read(f[i]!.poses[1]!), channel.read(pose))), `t = ${t}`).toBeLessThan(1e-4);
        expectPoseClose(pose, f[i]!.poses[1]!, 1e-4, `t = ${t}`);
        converged++;
      }
    }
    expect(converged).toBeGreaterThan(5);
  });

  it('composes when interrupted: velocity kept (< 5 %), then follows and converges to C', () => {
    const scene = switchScene(SPRING, B_MOVING, SPRING_DT);
    // To t1/2 (3 half-lives) after the switch, ending with small steps.
    scene.rec.run(80, SPRING_DT).run(12, FRAME_DT).run(120, SPRING_DT);
    const k = scene.rec.last;
    const interruptTime = scene.world.time;
    expect(interruptTime - scene.switchTime).toBeCloseTo(T1 / 2, 9);
    const c = motionClip(scene.skeleton, C, 'C');
    transition(scene.world, scene.eid, c, SPRING);
    transition(scene.world, scene.ref2, c, { duration: 0 });
    scene.rec.run(80, SPRING_DT).run(Math.ceil(1.2 / FRAME_DT), FRAME_DT);

    const v = scene.rec.velocityAround(channel, k);
    report('spring interrupted at t1/2 by another spring, dt = 0.25 ms', channel, v);
    expect(v.jump).toBeLessThan(0.05);

    // The new spring starts from the output as it was: the old offset is part of x0.
    const f = scene.rec.frames;
    const p1 = channel.read(f[k]!.poses[0]!);
    const x0c = channel.diff(channel.at(C, 0), p1);
    const v0c = channel.diff(channel.read(f[k - 1]!.poses[0]!), p1) / SPRING_DT - channel.velocity(C);
    let converged = 0;
    for (let i = k + 1; i < f.length; i++) {
      const t = f[i]!.time - interruptTime;
      const expected = channel.at(C, t) + springAt(x0c, v0c, t);
      expect(Math.abs(channel.diff(expected, channel.read(f[i]!.poses[0]!))), `t = ${t}`).toBeLessThan(2e-4);
      if (t >= 12 * HALF_LIFE) {
        expectPoseClose(f[i]!.poses[0]!, f[i]!.poses[2]!, 1e-4, `t = ${t} after the interruption`);
        converged++;
      }
    }
    expect(converged).toBeGreaterThan(5);
  });
});
