/**
 * examples/stateMachine.ts (docs/stateMachines.md): the Fox's locomotion as a state machine —
 * a description that could come from a JSON file, its clips and blend space looked up by name,
 * driven by a speed parameter and a trigger. test/examples/stateMachine.test.ts runs it.
 */
// #region imports
import { createBlendSpace, createStateMachine, fireTrigger, getState, setParameter, setStateMachine, step } from 'bitanim';
import type { AnimationWorld, Clip, StateMachineDesc } from 'bitanim';

// #endregion

// #region desc
/** The Fox's locomotion: JSON-compatible (clips and the blend space by name). */
export const FOX_LOCOMOTION: StateMachineDesc = {
  name: 'fox',
  parameters: [
    { name: 'speed', type: 'float', default: 0 },
    { name: 'sniff', type: 'trigger' },
  ],
  states: [
    { name: 'idle', clip: 'Survey' },
    { name: 'move', blendSpace: 'walkRun', x: 'speed' },
    { name: 'sniff', clip: 'Survey', loop: false, speed: 2, enter: 'sniff-start', exit: 'sniff-end' },
  ],
  transitions: [
    { from: 'idle', to: 'sniff', when: [['sniff']], duration: 0.2 },
    { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.3 },
    { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.4, mode: 'spring' },
    { from: 'sniff', to: 'idle', exitTime: 0.9, duration: 0.3, mode: 'crossfade', curve: 'minjerk' },
  ],
  initial: 'idle',
};
// #endregion

/** Builds the machine from the Fox's clips (`loadGltf(…).clips`) and runs it on character `eid`. */
export function startFox(world: AnimationWorld, eid: number, clips: readonly Clip[]): void {
  // #region create
  const byName = (name: string): Clip => clips.find((clip) => clip.name === name)!;
  const walkRun = createBlendSpace({ type: '1d', samples: [{ clip: byName('Walk'), x: 1 }, { clip: byName('Run'), x: 4 }] });
  const machine = createStateMachine(FOX_LOCOMOTION, { clips, blendSpaces: { walkRun } });
  setStateMachine(world, eid, machine); // layers 0–1: the blend space's two clips
  // #endregion
}

/** One frame of the game: the fox's speed (m/s, from the game's own movement) and whether it should sniff; returns the state. */
export function foxFrame(world: AnimationWorld, eid: number, speed: number, sniff: boolean, dt: number): string {
  // #region frame
  setParameter(world, eid, 'speed', speed);
  if (sniff) fireTrigger(world, eid, 'sniff');
  step(world, dt);                          // stateMachineSystem runs first, then the frame
  const { state, next } = getState(world, eid);
  // #endregion
  return next ?? state;
}
