/**
 * Acceptance tests of dead blending (`mode: 'deadblend'`) through the public API, on the
 * two-joint rig of scene.ts (clip A: root 1 m/s along X, arm 2 rad/s about Z; switch at A's
 * clip time 1 s, duration T1 = 0.5 s).
 *
 * Hand derivation (the oracle): each joint has one moving channel, so its half-life is that
 * channel's fit. With the source at A(1) (x = 0.5 m, θ = 0.5 rad), velocity v and the target
 * B(0), τ = (B(0) − A(1))·v / v² and the half-life h = clamp(ln 2·τ, H/10, H) (H/10 when τ ≤ 0),
 * H = T1/2 by default. The extrapolated source is A(1) + v·(1 − e^(−r t))/r, r = ln 2/h, and
 * the output is B(t) + (1 − w)·(ext − B(t)) with w = smoothstep(t/T1) — for the rotation an
 * nlerp of the two quaternions about Z. t counts from the last output before the switch.
 *
 * Velocity at the switch: the output's derivative is continuous there (ext′(0) = v, w′(0) = 0);
 * a one-step difference adds the acceleration a0·dt/2, a0 ≈ −r·v — heading away r = ln 2/(H/10)
 * ≈ 27.7 /s: 1.4 % of v at 1 ms steps (measured 1.7 % rotation, 2.0 % translation), so the
 * ≤ 2 % check uses 0.25 ms steps.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createStateMachine, fireTrigger, getLocalPose, getState, play, setStateMachine, spawnCharacter, step, transition,
  type TransitionOptions,
} from '../../src/index.js';
import { CHANNELS, expectPoseClose, ROTATION, TRANSLATION, FINE_DT, FRAME_DT, motionClip, report, rig, type Channel, type Motion } from './helpers.js';
import { A, B_BEHIND, B_MOVING, B_STILL, C, SWITCH, switchScene, T1, type Scene } from './scene.js';

const DEAD: TransitionOptions = { duration: T1, mode: 'deadblend' };
/** Small step for the continuity check: the one-step difference is v + a0·dt/2, and heading away the decay's a0 = −r·v is strong. */
const QUARTER_MS = 1 / 4000;
const TARGETS = [
  { label: 'still B (heading toward it)', motion: B_STILL },
  { label: 'moving B', motion: B_MOVING },
  { label: 'B behind (heading away)', motion: B_BEHIND },
] as const;

function smoothstep(s: number): number {
  if (s <= 0) return 0;
  if (s >= 1) return 1;
  return s * s * (3 - 2 * s);
}

/** The fitted half-life of a channel moving at `v` toward `d` away (the file header). */
function halfLifeOf(d: number, v: number, longest = T1 / 2): number {
  const tau = (d * v) / (v * v);
  const h = Math.LN2 * tau;
  if (!(h > longest / 10)) return longest / 10;
  return Math.min(h, longest);
}

/** The oracle's output of `channel` at `t` seconds after the last output before the switch. */
function expected(channel: Channel, b: Motion, t: number, longest = T1 / 2): number {
  const source = channel.at(A, SWITCH);
  const v = channel.velocity(A);
  const d = channel.diff(source, channel.at(b, 0));
  const r = Math.LN2 / halfLifeOf(d, v, longest);
  const ext = source + (v * (1 - Math.exp(-r * t))) / r;
  const target = channel.at(b, t);
  const keep = 1 - smoothstep(t / T1);
  if (channel.name === 'translation') return target + keep * (ext - target);
  // nlerp of rotations about Z, on the target's hemisphere.
  let ez = Math.sin(ext / 2), ew = Math.cos(ext / 2);
  const tz = Math.sin(target / 2), tw = Math.cos(target / 2);
  if (ez * tz + ew * tw < 0) { ez = -ez; ew = -ew; }
  return 2 * Math.atan2(tz + keep * (ez - tz), tw + keep * (ew - tw));
}

/** Seconds from the last output before the switch to frame `i`. */
function since(scene: Scene, i: number): number {
  return scene.rec.frames[i]!.time - scene.rec.frames[scene.k]!.time;
}

function afterSwitch(options: TransitionOptions, b: Motion, fineDt = FINE_DT): Scene {
  const scene = switchScene(options, b, fineDt);
  scene.rec.run(20, fineDt).run(Math.ceil(0.8 / FRAME_DT), FRAME_DT);
  return scene;
}

describe.each(CHANNELS)('dead blending, $name channel', (channel: Channel) => {
  it.each(TARGETS)('is continuous at the switch: velocity jump ≤ 2 % at 0.25 ms steps, first frame on the extrapolated source ($label)', ({ label, motion }) => {
    const scene = afterSwitch(DEAD, motion);
    const v = scene.rec.velocityAround(channel, scene.k);
    report(`dead blend, ${label}, dt = 1 ms`, channel, v);
    expect(v.before).toBeCloseTo(channel.velocity(A), 3);
    expect(v.jump).toBeLessThan(0.025); // the one-step difference carries the decay's a0·dt/2
    const fine = afterSwitch(DEAD, motion, QUARTER_MS);
    const vf = fine.rec.velocityAround(channel, fine.k);
    report(`dead blend, ${label}, dt = 0.25 ms`, channel, vf);
    expect(vf.jump).toBeLessThan(0.02);
    // The first frame after the switch sits on the source extrapolated by one step, within the
    // clips' own motion over that step.
    const first = channel.read(scene.rec.frames[scene.k + 1]!.poses[0]!);
    const extrapolated = channel.at(A, SWITCH) + channel.velocity(A) * FINE_DT;
    expect(Math.abs(channel.diff(extrapolated, first))).toBeLessThan(Math.abs(channel.velocity(A)) * FINE_DT * 0.05);
  });

  it.each(TARGETS)('follows the hand derivation and equals B exactly from the duration on ($label)', ({ motion }) => {
    const scene = afterSwitch(DEAD, motion);
    let checkedAfter = 0;
    for (let i = scene.k + 1; i < scene.rec.frames.length; i++) {
      const t = since(scene, i);
      const pose = scene.rec.frames[i]!.poses[0]!;
      expect(Math.abs(channel.diff(expected(channel, motion, t), channel.read(pose))), `t = ${t}`).toBeLessThan(5e-5);
      if (t >= T1) {
        // Weight 1: the layers' pose itself, bit for bit (the reference plays B alone).
        expect(Array.from(pose), `t = ${t}`).toEqual(Array.from(scene.rec.frames[i]!.poses[1]!));
        checkedAfter++;
      }
    }
    expect(checkedAfter).toBeGreaterThan(10);
  });

  it('a given halfLife bounds the fit (the still target with halfLife 0.1 s)', () => {
    const scene = afterSwitch({ ...DEAD, halfLife: 0.1 }, B_STILL);
    for (let i = scene.k + 1; i < scene.rec.frames.length; i++) {
      const t = since(scene, i);
      const pose = scene.rec.frames[i]!.poses[0]!;
      expect(Math.abs(channel.diff(expected(channel, B_STILL, t, 0.1), channel.read(pose))), `t = ${t}`).toBeLessThan(5e-5);
    }
  });

  it('an interruption at t1/2 into C keeps the velocity (< 2 %) and equals C from interrupt + t1 on', () => {
    const scene = switchScene(DEAD, B_MOVING);
    scene.rec.run(20, FINE_DT).run(12, FRAME_DT).run(30, FINE_DT);
    const k = scene.rec.last;
    const c = motionClip(scene.skeleton, C, 'C');
    transition(scene.world, scene.eid, c, DEAD);
    transition(scene.world, scene.ref2, c, { duration: 0 });
    scene.rec.run(20, FINE_DT).run(Math.ceil(0.8 / FRAME_DT), FRAME_DT);
    const v = scene.rec.velocityAround(channel, k);
    report('dead blend interrupted at t1/2 by another dead blend, dt = 1 ms', channel, v);
    expect(v.jump).toBeLessThan(0.02);
    let checked = 0;
    for (let i = k + 1; i < scene.rec.frames.length; i++) {
      if (scene.rec.frames[i]!.time - scene.rec.frames[k]!.time < T1) continue;
      expectPoseClose(scene.rec.frames[i]!.poses[0]!, scene.rec.frames[i]!.poses[2]!, 1e-6);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('dead blending options', () => {
  it('refuses a bad halfLife, naming it, and changes nothing', () => {
    const skeleton = rig();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    const clip = motionClip(skeleton, A, 'A');
    for (const halfLife of [0, -1, NaN, 2e6]) {
      expect(() => transition(world, eid, clip, { ...DEAD, halfLife })).toThrow(AnimationError);
      expect(() => transition(world, eid, clip, { ...DEAD, halfLife })).toThrow(/halfLife/);
    }
    expect(world.components.Inertialization.pending[eid]).toBe(0);
    expect(() => transition(world, eid, clip, { ...DEAD, curve: 'cubic' as never })).toThrow(/curve/);
    expect(() => transition(world, eid, clip, { duration: T1, mode: 'dead' as never })).toThrow(/'deadblend'/);
  });
});

describe('dead blending in machines and on the WebAssembly kernels', () => {
  it('a machine transition with mode \'deadblend\' is the same dead blend as `transition` (bit for bit) and ends on the new state', () => {
    const skeleton = rig();
    const a = motionClip(skeleton, A, 'A'), b = motionClip(skeleton, B_STILL, 'B');
    const machine = createStateMachine({
      name: 'dead',
      parameters: [{ name: 'go', type: 'trigger' }],
      states: [{ name: 'a', clip: 'A', loop: false }, { name: 'b', clip: 'B', loop: false }],
      transitions: [{ from: 'a', to: 'b', when: [['go']], duration: T1, mode: 'deadblend' }],
      initial: 'a',
    }, { clips: [a, b] });
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 2 });
    const byMachine = spawnCharacter(world, skeleton), byCall = spawnCharacter(world, skeleton), ref = spawnCharacter(world, skeleton);
    setStateMachine(world, byMachine, machine);
    play(world, byCall, a);
    for (let f = 0; f < 60; f++) step(world, FRAME_DT);
    expect(Array.from(getLocalPose(world, byMachine))).toEqual(Array.from(getLocalPose(world, byCall)));
    const before = channelsOf(getLocalPose(world, byMachine));
    fireTrigger(world, byMachine, 'go');
    transition(world, byCall, b, DEAD);
    play(world, ref, b);
    step(world, FRAME_DT);
    expect(getState(world, byMachine).next).toBe('b');
    expect(Array.from(getLocalPose(world, byMachine))).toEqual(Array.from(getLocalPose(world, byCall)));
    // Continuous: one frame of A's motion (1 m/s, 2 rad/s) from where it was, not the jump to B.
    const after = channelsOf(getLocalPose(world, byMachine));
    expect(Math.abs(after[0] - before[0] - FRAME_DT)).toBeLessThan(0.1 * FRAME_DT);
    expect(Math.abs(after[1] - before[1] - 2 * FRAME_DT)).toBeLessThan(0.1 * 2 * FRAME_DT);
    for (let f = 0; f < 40; f++) {
      step(world, FRAME_DT);
      expect(Array.from(getLocalPose(world, byMachine))).toEqual(Array.from(getLocalPose(world, byCall)));
    }
    expect(Array.from(getLocalPose(world, byMachine))).toEqual(Array.from(getLocalPose(world, ref)));
  });

  it('the wasm kernels world gives the JS world\'s dead blend (the blend in float32 kernels, the dead blend in the wasm kernels), within 1e-6', () => {
    const skeleton = rig();
    const a = motionClip(skeleton, A, 'A'), b = motionClip(skeleton, B_MOVING, 'B'), c = motionClip(skeleton, C, 'C');
    const poses = (['js', 'wasm'] as const).map((kernels) => {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: 2, kernels });
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, a);
      const out: number[][] = [];
      for (let f = 0; f < 90; f++) {
        if (f === 60) transition(world, eid, b, DEAD);
        if (f === 75) transition(world, eid, c, { ...DEAD, curve: 'minjerk', halfLife: 0.1 });
        step(world, FRAME_DT);
        out.push(Array.from(getLocalPose(world, eid)));
      }
      return out;
    });
    let worst = 0;
    poses[0]!.forEach((pose, f) => pose.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - poses[1]![f]![i]!)); }));
    expect(worst).toBeLessThan(1e-6);
  });
});

/** The rig's root x and arm angle about Z in a pose. */
function channelsOf(pose: ArrayLike<number>): [number, number] {
  return [TRANSLATION.read(pose), ROTATION.read(pose)];
}
