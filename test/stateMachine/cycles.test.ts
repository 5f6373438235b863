/**
 * Issue 21: zero-duration transition cycles do not loop within a frame. A → B and B → A on the
 * same condition, both with duration 0: each frame starts at most one transition per machine,
 * so with the condition holding the machine switches exactly once a frame (a, b, a, b, …) and
 * `step` returns; each switch records the exit and enter events once.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createStateMachine, drainEvents, getState, setParameter, setStateMachine, spawnCharacter, step } from '../../src/index.js';
import { clips, skeleton } from './scene.js';

describe('zero-duration cycles', () => {
  it('A → B → A on the same condition switches once per frame, never loops within one', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 8 });
    const eid = spawnCharacter(world, skeleton);
    const machine = createStateMachine({
      name: 'pingpong',
      parameters: [{ name: 'go', type: 'bool' }],
      states: [{ name: 'a', clip: clips.idle, enter: 'enter-a' }, { name: 'b', clip: clips.walk, enter: 'enter-b' }],
      transitions: [
        { from: 'a', to: 'b', when: [['go', '==', true]], duration: 0 },
        { from: 'b', to: 'a', when: [['go', '==', true]], duration: 0 },
      ],
      initial: 'a',
    });
    setStateMachine(world, eid, machine);
    drainEvents(world); // the initial enter
    step(world, 1 / 60);
    expect(getState(world, eid).state).toBe('a'); // go is false: nothing fires
    setParameter(world, eid, 'go', true);
    const seen: string[] = [];
    const events: string[][] = [];
    for (let f = 0; f < 6; f++) {
      step(world, 1 / 60);
      seen.push(getState(world, eid).state);
      events.push(drainEvents(world).filter((e) => e.clip === machine.eventClip).map((e) => e.name));
    }
    expect(seen).toEqual(['b', 'a', 'b', 'a', 'b', 'a']);
    expect(events).toEqual([['enter-b'], ['enter-a'], ['enter-b'], ['enter-a'], ['enter-b'], ['enter-a']]);
    setParameter(world, eid, 'go', false);
    step(world, 1 / 60);
    step(world, 1 / 60);
    expect(getState(world, eid).state).toBe('a'); // the condition no longer holds: it stays where it was
  });
});
