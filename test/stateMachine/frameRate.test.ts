/**
 * State machines at any frame rate: the Robot (RobotExpressive.glb) driven by a machine — idle,
 * a Walking/Running blend space by `speed`, jump and wave on triggers, exit times on a clamped
 * clip (Jump) and a looping one (Wave), and transitions in all four modes — stepped at 30, 60,
 * 120 and 240 Hz agrees with the same run at 480 Hz at every common instant (every 1/30 s):
 * within 1e-3 in every local quaternion component (up to sign) and 0.5 mm in the root joint's
 * local position.
 *
 * Why it holds: a parameter or trigger set between steps starts its switch at the step's start,
 * the same instant at every rate here (the script's times are whole 30 Hz frames); an exit time
 * is crossed inside a step, and the machine starts the switch at the instant of the crossing
 * (the playing state's phase extrapolated through the step by its rate), its new layers, fades
 * and inertialization anchored there and advanced by the rest of the step. Without that, the
 * switch waited for the next step's start: up to a frame late, at 30 Hz a 33 ms shift of
 * everything after it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createBlendSpace, drainEachEvent, createStateMachine, fireTrigger, getLocalPose, getState, loadGltf, setParameter, setStateMachine, spawnCharacter, step,
  type Clip, type Skeleton, type StateMachine, type StateMachineDesc,
} from '../../src/index.js';
import { POSE_STRIDE } from '../../src/kernels.js';
import { ASSETS_URL } from '../support/assets.js';

const RATES = [30, 60, 120, 240] as const;
const REFERENCE = 480;
const SECONDS = 7;

const DESC: StateMachineDesc = {
  name: 'robot',
  parameters: [
    { name: 'speed', type: 'float', default: 0 },
    { name: 'jump', type: 'trigger' },
    { name: 'wave', type: 'trigger' },
  ],
  states: [
    { name: 'idle', clip: 'Idle', enter: 'idle' },
    { name: 'move', blendSpace: 'walkRun', x: 'speed', enter: 'move' },
    { name: 'jump', clip: 'Jump', loop: false, enter: 'jump' },
    { name: 'wave', clip: 'Wave', loop: true, enter: 'wave' },
  ],
  transitions: [
    { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.3, mode: 'crossfade' },
    { from: 'move', to: 'jump', when: [['jump']], duration: 0.2 },
    { from: 'jump', to: 'move', exitTime: 0.8, when: [['speed', '>', 0.1]], duration: 0.3, mode: 'spring' },
    { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.4, mode: 'deadblend' },
    { from: 'idle', to: 'wave', when: [['wave']], duration: 0.25, mode: 'crossfade', curve: 'smoothstep' },
    { from: 'wave', to: 'jump', exitTime: 0.55, duration: 0.2, mode: 'deadblend' },
    { from: 'jump', to: 'idle', exitTime: 0.9, when: [['speed', '<=', 0.1]], duration: 0.3, mode: 'crossfade' },
  ],
  initial: 'idle',
};

/** World time (a whole number of 30 Hz frames) → what the game sets then. */
const SCRIPT: readonly { at: number; speed?: number; trigger?: 'jump' | 'wave' }[] = [
  { at: 0.3, speed: 2 },
  { at: 1.2, speed: 3 },
  { at: 1.6, trigger: 'jump' },
  { at: 3.5, speed: 0 },
  { at: 4.3, trigger: 'wave' },
];

let skeleton: Skeleton;
let machine: StateMachine;

beforeAll(async () => {
  const { skeletons, clips } = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS_URL))));
  skeleton = skeletons[0]!;
  const named = (name: string): Clip => clips.find((c) => c.name === name)!;
  const walkRun = createBlendSpace({ type: '1d', samples: [{ clip: named('Walking'), x: 1 }, { clip: named('Running'), x: 3 }] });
  machine = createStateMachine(DESC, { clips: ['Idle', 'Jump', 'Wave'].map(named), blendSpaces: { walkRun } });
});

/** Local poses every 1/30 s over the script, stepping at `hz`, the states entered, and the machine's enter events with their stamps. */
function record(hz: number, kernels: 'js' | 'wasm' = 'js'): { poses: Float32Array[]; states: string[]; events: { name: string; time: number }[] } {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount, kernels });
  const eid = spawnCharacter(world, skeleton);
  setStateMachine(world, eid, machine);
  const poses: Float32Array[] = [];
  const states: string[] = [];
  const events: { name: string; time: number }[] = [];
  const every = hz / 30;
  for (let n = 0; n < SECONDS * hz; n++) {
    for (const e of SCRIPT) {
      if (Math.round(e.at * hz) !== n) continue;
      if (e.speed !== undefined) setParameter(world, eid, 'speed', e.speed);
      if (e.trigger !== undefined) fireTrigger(world, eid, e.trigger);
    }
    step(world, 1 / hz);
    const s = getState(world, eid);
    const playing = s.next ?? s.state;
    if (states[states.length - 1] !== playing) states.push(playing);
    drainEachEvent(world, (e) => { events.push({ name: e.name, time: e.at }); });
    if ((n + 1) % every === 0) poses.push(getLocalPose(world, eid).slice());
  }
  return { poses, states, events };
}

/** The largest differences between two recordings: any quaternion component (up to sign), the root joint's position, any joint's position. */
function worst(a: Float32Array[], b: Float32Array[]): { quaternion: number; root: number; translation: number; at: number } {
  let quaternion = 0, root = 0, translation = 0, at = 0;
  for (let f = 0; f < a.length; f++) {
    const p = a[f]!, q = b[f]!;
    for (let j = 0; j < p.length; j += POSE_STRIDE) {
      let dot = 0;
      for (let c = 3; c < 7; c++) dot += p[j + c]! * q[j + c]!;
      const sign = dot < 0 ? -1 : 1;
      for (let c = 3; c < 7; c++) {
        const d = Math.abs(p[j + c]! - sign * q[j + c]!);
        if (d > quaternion) { quaternion = d; at = (f + 1) / 30; }
      }
      translation = Math.max(translation, Math.hypot(p[j]! - q[j]!, p[j + 1]! - q[j + 1]!, p[j + 2]! - q[j + 2]!));
    }
    root = Math.max(root, Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!));
  }
  return { quaternion, root, translation, at };
}

describe('the Robot machine at 30, 60, 120 and 240 Hz against 480 Hz', () => {
  it('goes through the same states and gives the same poses at every common instant', () => {
    const reference = record(REFERENCE);
    expect(reference.states).toEqual(['idle', 'move', 'jump', 'move', 'idle', 'wave', 'jump', 'idle']);
    // The exit times' instants (Jump 0.8 and 0.9 of its 0.708 s, Wave 0.55 of 1.833 s) are whole frames at none of the rates.
    expect(reference.events.map((e) => e.name)).toEqual(['idle', 'move', 'jump', 'move', 'idle', 'wave', 'jump', 'idle']);
    for (const hz of RATES) {
      const run = record(hz);
      expect(run.states, `${hz} Hz`).toEqual(reference.states);
      const w = worst(run.poses, reference.poses);
      // The enter events are stamped at the switches' instants: the same at every rate.
      const stamps = Math.max(...run.events.map((e, i) => Math.abs(e.time - reference.events[i]!.time)));
      console.log(
        `[machine frame rate] ${hz} Hz vs ${REFERENCE} Hz: quaternion ${w.quaternion.toExponential(2)} (at ${w.at.toFixed(3)} s), root joint ${(w.root * 1000).toFixed(4)} mm, `
        + `any joint's position ${(w.translation * 1000).toFixed(4)} mm, enter-event stamps ${stamps.toExponential(2)} s`,
      );
      expect(run.events.map((e) => e.name)).toEqual(reference.events.map((e) => e.name));
      expect(stamps).toBeLessThan(1e-5);
      expect(w.quaternion, `${hz} Hz quaternion`).toBeLessThan(1e-3);
      expect(w.root, `${hz} Hz root`).toBeLessThan(5e-4);
      expect(w.translation, `${hz} Hz joints`).toBeLessThan(5e-4);
    }
  });

  it('on the wasm kernels too (30 and 60 Hz against 480 Hz on JavaScript)', () => {
    const reference = record(REFERENCE);
    for (const hz of [30, 60]) {
      const run = record(hz, 'wasm');
      expect(run.states, `${hz} Hz`).toEqual(reference.states);
      const w = worst(run.poses, reference.poses);
      console.log(`[machine frame rate] wasm ${hz} Hz vs js ${REFERENCE} Hz: quaternion ${w.quaternion.toExponential(2)}, any joint's position ${(w.translation * 1000).toFixed(4)} mm`);
      expect(w.quaternion).toBeLessThan(1e-3);
      expect(w.translation).toBeLessThan(5e-4);
    }
  });
});
