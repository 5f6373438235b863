/**
 * Cross-fades into and out of blend-space states (before: refused at createStateMachine,
 * "cross-fade between clip states"), in machines and with `transition`: every clip of the
 * outgoing side fades from its weight to 0, every clip of the incoming blend from 0 to the
 * space's weight (which follows the point through the fade), the space's clips stay in one sync
 * group. Measured on the Robot's real clips: the weights sum to 1 at every frame of the fade
 * (Layers.weight), and the pose is continuous at the switch — no per-frame change of a local
 * quaternion above the clips' own largest per-frame change.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createBlendSpace, createStateMachine, getLocalPose, getState, setBlendSpace, setParameter, setStateMachine, spawnCharacter, step,
  transition, type AnimationWorld, type Clip, type StateMachine,
} from '../../src/index.js';
import { robotLocomotion, type RobotLocomotion } from '../rootMotion/robot.js';

const DT = 1 / 60;
const LAYER_CLEAR_AFTER_FADE = 4; // components/Layers.ts

/** Idle ↔ a walk/run 1-D space, cross-faded both ways (curve `curve`, 0.4 s), the rate in m/s. */
function machineOf(clips: RobotLocomotion, curve: 'linear' | 'minjerk', space = createBlendSpace({ type: '1d', samples: [{ clip: clips.walk, x: 1.4 }, { clip: clips.run, x: 3.5 }] })): StateMachine {
  return createStateMachine({
    parameters: [{ name: 'speed', type: 'float' }],
    states: [{ name: 'idle', clip: clips.idle }, { name: 'move', blendSpace: space, x: 'speed', metersPerSecond: 'speed' }],
    transitions: [
      { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.4, mode: 'crossfade', curve },
      { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.4, mode: 'crossfade', curve },
    ],
    initial: 'idle',
  });
}

/** Sum of the override weights of `eid` now, and how many slots play. */
function weights(world: AnimationWorld, eid: number): { sum: number; playing: number; outgoing: number } {
  const { Layers } = world.components;
  let sum = 0, playing = 0, outgoing = 0;
  for (let li = eid * world.maxLayers; li < (eid + 1) * world.maxLayers; li++) {
    if (Layers.clip[li]! < 0) continue;
    playing++;
    sum += Layers.weight[li]!;
    if ((Layers.flags[li]! & LAYER_CLEAR_AFTER_FADE) !== 0) outgoing++;
  }
  return { sum, playing, outgoing };
}

/** Largest change of a local quaternion component between two poses, the quaternions compared up to sign. */
function maxQuaternionStep(a: Float32Array, b: Float32Array): number {
  let most = 0;
  for (let o = 0; o < a.length; o += 10) {
    const dot = a[o + 3]! * b[o + 3]! + a[o + 4]! * b[o + 4]! + a[o + 5]! * b[o + 5]! + a[o + 6]! * b[o + 6]!;
    const sign = dot < 0 ? -1 : 1;
    for (let k = 3; k < 7; k++) most = Math.max(most, Math.abs(a[o + k]! - sign * b[o + k]!));
  }
  return most;
}

/** Steps `frames` frames, returning the largest per-frame quaternion change and checking the weights after each frame. */
function runChecked(world: AnimationWorld, eid: number, frames: number, onFrame?: (f: number) => void): { maxStep: number; maxSumError: number; fadingFrames: number } {
  let before = Float32Array.from(getLocalPose(world, eid));
  let maxStep = 0, maxSumError = 0, fadingFrames = 0;
  for (let f = 0; f < frames; f++) {
    onFrame?.(f);
    step(world, DT);
    const now = getLocalPose(world, eid);
    maxStep = Math.max(maxStep, maxQuaternionStep(before, now));
    before = Float32Array.from(now);
    const w = weights(world, eid);
    maxSumError = Math.max(maxSumError, Math.abs(w.sum - 1));
    if (w.outgoing > 0) fadingFrames++;
  }
  return { maxStep, maxSumError, fadingFrames };
}

/** The clips' own largest per-frame change: each played alone, as the machine plays it, for two of its cycles. */
function ownMaxStep(clips: RobotLocomotion, machine: StateMachine, speeds: readonly number[]): number {
  let most = 0;
  for (const speed of speeds) {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: clips.skeleton.jointCount });
    const eid = spawnCharacter(world, clips.skeleton, { rootMotion: true });
    setStateMachine(world, eid, createStateMachine({
      parameters: [{ name: 'speed', type: 'float', default: speed }],
      states: [speed > 0.1 ? { name: 'only', blendSpace: machine.stateSpaces[1]!, x: 'speed', metersPerSecond: 'speed' } : { name: 'only', clip: clips.idle }],
      initial: 'only',
    }));
    step(world, DT);
    most = Math.max(most, runChecked(world, eid, Math.round(4 / DT)).maxStep);
  }
  return most;
}

describe('cross-fades into and out of blend-space states', () => {
  for (const curve of ['linear', 'minjerk'] as const) {
    it(`in a machine (${curve}): weights sum to 1 through each fade, also while the point moves; the pose moves no more per frame than the clips do`, async () => {
      const clips = await robotLocomotion(1.8);
      const machine = machineOf(clips, curve);
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: clips.skeleton.jointCount });
      const eid = spawnCharacter(world, clips.skeleton, { rootMotion: true });
      setStateMachine(world, eid, machine);
      runChecked(world, eid, 60);
      const own = ownMaxStep(clips, machine, [0, 1.4, 2.5]);
      const figures: string[] = [];

      // idle → move at 2.5 m/s (both clips of the space weighted); the point moves mid-fade.
      setParameter(world, eid, 'speed', 2.5);
      const into = runChecked(world, eid, 60, (f) => { if (f === 12) setParameter(world, eid, 'speed', 2.0); });
      expect(getState(world, eid)).toMatchObject({ state: 'move', next: null });
      expect(into.fadingFrames).toBeGreaterThanOrEqual(Math.floor(0.4 / DT) - 1); // the fade ran its 0.4 s
      expect(into.maxSumError).toBeLessThan(1e-6);
      expect(into.maxStep).toBeLessThanOrEqual(own);
      expect(weights(world, eid)).toEqual({ sum: expect.closeTo(1, 6), playing: 2, outgoing: 0 }); // the idle is gone

      // move → idle: both clips of the blend fade out, in step.
      setParameter(world, eid, 'speed', 0);
      const { Layers } = world.components;
      step(world, DT);
      const out: number[] = [];
      for (let li = eid * world.maxLayers; li < (eid + 1) * world.maxLayers; li++) if ((Layers.flags[li]! & LAYER_CLEAR_AFTER_FADE) !== 0) out.push(li);
      expect(out).toHaveLength(2);
      const phase = (li: number) => (Layers.time[li]! / world.assets.clips[Layers.clip[li]!]!.duration - Layers.phaseOffset[li]! + 1) % 1;
      expect(Layers.syncGroup[out[0]!]).toBe(Layers.syncGroup[out[1]!]);
      expect(Math.abs(phase(out[0]!) - phase(out[1]!))).toBeLessThan(1e-6);
      const back = runChecked(world, eid, 40);
      expect(back.maxSumError).toBeLessThan(1e-6);
      expect(back.maxStep).toBeLessThanOrEqual(own);
      expect(weights(world, eid)).toEqual({ sum: expect.closeTo(1, 6), playing: 1, outgoing: 0 });
      figures.push(`into: max step ${into.maxStep.toFixed(4)}, out: ${back.maxStep.toFixed(4)}, the clips' own ${own.toFixed(4)}, weight sum error ≤ ${Math.max(into.maxSumError, back.maxSumError).toExponential(1)}`);
      console.log(`cross-fade (${curve}) into and out of the walk/run space: ${figures.join('; ')}`);
    });
  }

  it('an interrupted cross-fade restarts every outgoing clip on the new clock: idle → move → idle → move 10 frames apart, weights sum to 1 throughout', async () => {
    const clips = await robotLocomotion(1.8);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: clips.skeleton.jointCount, maxLayers: 6 });
    const eid = spawnCharacter(world, clips.skeleton, { rootMotion: true });
    setStateMachine(world, eid, machineOf(clips, 'linear'));
    runChecked(world, eid, 30);
    let most = 0; // fading copies at once
    const run = runChecked(world, eid, 90, (f) => {
      if (f === 0) setParameter(world, eid, 'speed', 2.5);
      if (f === 10) setParameter(world, eid, 'speed', 0);
      if (f === 20) setParameter(world, eid, 'speed', 2);
      most = Math.max(most, weights(world, eid).outgoing);
    });
    expect(most).toBeGreaterThanOrEqual(3); // three fades overlapped
    // Before the copies were restarted, the sum fell to 0.69 here.
    expect(run.maxSumError).toBeLessThan(1e-6);
    expect(weights(world, eid)).toEqual({ sum: expect.closeTo(1, 6), playing: 2, outgoing: 0 });
  });

  it('a switch at once (duration 0) is the jump the fades avoid: it exceeds the clips\' own per-frame change', async () => {
    const clips = await robotLocomotion(1.8);
    const machine = createStateMachine({
      parameters: [{ name: 'speed', type: 'float' }],
      states: [{ name: 'idle', clip: clips.idle }, { name: 'move', blendSpace: machineOf(clips, 'linear').stateSpaces[1]!, x: 'speed', metersPerSecond: 'speed' }],
      transitions: [{ from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0 }],
      initial: 'idle',
    });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: clips.skeleton.jointCount });
    const eid = spawnCharacter(world, clips.skeleton, { rootMotion: true });
    setStateMachine(world, eid, machine);
    runChecked(world, eid, 60);
    setParameter(world, eid, 'speed', 2.5);
    expect(runChecked(world, eid, 3).maxStep).toBeGreaterThan(ownMaxStep(clips, machineOf(clips, 'linear'), [0, 2.5]));
  });

  it('with transition: a cross-fade from a blend space\'s clip fades the whole blend out (before, its other clip kept its weight for good)', async () => {
    const clips = await robotLocomotion(1.8);
    const space = createBlendSpace({ type: '1d', samples: [{ clip: clips.walk, x: 0 }, { clip: clips.run, x: 1 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: clips.skeleton.jointCount });
    const eid = spawnCharacter(world, clips.skeleton);
    setBlendSpace(world, eid, space, 0.3);
    runChecked(world, eid, 30);
    transition(world, eid, clips.idle, { duration: 0.3, mode: 'crossfade' });
    const fade = runChecked(world, eid, 30);
    expect(fade.maxSumError).toBeLessThan(1e-6);
    expect(fade.fadingFrames).toBeGreaterThan(10);
    const { Layers } = world.components;
    const playing: Clip[] = [];
    for (let li = eid * world.maxLayers; li < (eid + 1) * world.maxLayers; li++) if (Layers.clip[li]! >= 0) playing.push(world.assets.clips[Layers.clip[li]!]!);
    expect(playing.map((c) => c.name)).toEqual([clips.idle.name]);
    expect(weights(world, eid).sum).toBeCloseTo(1, 6);
  });
});
