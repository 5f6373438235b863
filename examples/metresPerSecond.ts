/**
 * examples/metresPerSecond.ts (docs/stateMachines.md): a locomotion machine in metres per
 * second — one `speed` parameter picks the walk/run blend and, through `metersPerSecond`, the
 * playback rate that makes the character travel that speed. test/stateMachine/metersPerSecond.test.ts
 * runs it on the Robot's clips.
 */
// #region imports
import { createBlendSpace, createStateMachine, setParameter, setStateMachine } from 'bitanim';
import type { AnimationWorld, Clip, StateMachine, StateMachineDesc } from 'bitanim';

// #endregion

// #region desc
/** Idle ↔ a walk/run blend space whose point and speed are both `speed`, in m/s. */
export const LOCOMOTION_MPS: StateMachineDesc = {
  name: 'locomotion',
  parameters: [{ name: 'speed', type: 'float' }],
  states: [
    { name: 'idle', clip: 'Idle' },
    { name: 'move', blendSpace: 'walkRun', x: 'speed', metersPerSecond: 'speed' },
  ],
  transitions: [
    { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.3 },
    { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.3 },
  ],
  initial: 'idle',
};
// #endregion

/** The machine over an idle and two gaits that travel (the walk placed at 1.4 m/s, the run at 3.5). */
export function locomotionMachine(idle: Clip, walk: Clip, run: Clip, desc: StateMachineDesc = LOCOMOTION_MPS): StateMachine {
  // #region create
  const walkRun = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 1.4 }, { clip: run, x: 3.5 }] });
  const machine = createStateMachine(desc, { clips: { Idle: idle }, blendSpaces: { walkRun } });
  // #endregion
  return machine;
}

/** One frame's input: the speed the game wants, m/s — the only call the machine needs. */
export function drive(world: AnimationWorld, eid: number, metresPerSecond: number): void {
  // #region frame
  setParameter(world, eid, 'speed', metresPerSecond); // picks walk/run and the rate that travels it
  // #endregion
}

/** Runs the machine on a character. */
export function start(world: AnimationWorld, eid: number, machine: StateMachine): void {
  setStateMachine(world, eid, machine);
}
