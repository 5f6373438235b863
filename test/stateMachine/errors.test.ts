/**
 * Validation (issue 21): every fault of a description is an AnimationError naming the state,
 * transition and field; `setStateMachine`, `setParameter` and `fireTrigger` refuse bad input
 * and leave the machine and the world unchanged.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError, createAnimationWorld, createMask, createSkeleton, createStateMachine, fireTrigger, getLocalPose, getState, setParameter, setStateMachine,
  drainEvents, spawnCharacter, step, worldBytes, type StateMachineDesc,
} from '../../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { clips, DESC, locomotion, machine, skeleton } from './scene.js';

const assets = { clips: Object.values(clips), blendSpaces: { locomotion } };

/** DESC with `change` applied to a deep copy. */
function variant(change: (d: { -readonly [K in keyof StateMachineDesc]: any }) => void): StateMachineDesc {
  const d = JSON.parse(JSON.stringify(DESC));
  change(d);
  return d;
}

function errorOf(call: () => unknown): AnimationError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AnimationError);
    return error as AnimationError;
  }
  throw new Error('did not throw');
}

describe('createStateMachine refuses, naming state, transition and field', () => {
  const cases: [string, (d: any) => void, RegExp][] = [
    ['an unknown state in a transition', (d) => (d.transitions[3].to = 'walk'), /transitions\[3\] \(idle → walk\)\.to is "walk": must name a state/],
    ['an unknown source state', (d) => (d.transitions[5].from = 'fall'), /transitions\[5\] \(fall → land\)\.from is "fall"/],
    ['an unknown initial state', (d) => (d.initial = 'sleep'), /initial is "sleep": must name a state/],
    ['an unknown parameter in a condition', (d) => (d.transitions[3].when = [['velocity', '>', 0.1]]), /transitions\[3\] \(idle → move\)\.when\[0\] names "velocity", which is not a parameter/],
    ['an operator on a trigger', (d) => (d.transitions[1].when = [['jump', '==', 1]]), /transitions\[1\] \(idle → jump\)\.when\[0\] applies the operator "==" to the trigger "jump"/],
    ['a float without an operator', (d) => (d.transitions[3].when = [['speed']]), /transitions\[3\] \(idle → move\)\.when\[0\] tests "speed", a float parameter, without an operator/],
    ['an unknown operator', (d) => (d.transitions[3].when = [['speed', '=>', 0.1]]), /transitions\[3\] \(idle → move\)\.when\[0\]\[1\] is "=>": must be one of/],
    ['an exit time above 1', (d) => (d.transitions[5].exitTime = 1.2), /transitions\[5\] \(jump → land\)\.exitTime is 1\.2: must be a normalized phase in \[0, 1\]/],
    ['an exit time below 0', (d) => (d.transitions[5].exitTime = -0.1), /transitions\[5\] \(jump → land\)\.exitTime is -0\.1/],
    ['a blend-space state bound to a missing parameter', (d) => (d.states[1].x = 'velocity'), /states\[1\] "move"\.x names "velocity", which is not a parameter/],
    ['a blend-space state bound to a trigger', (d) => (d.states[1].x = 'jump'), /states\[1\] "move"\.x names "jump", a trigger parameter: must be a float parameter/],
    ['a blend-space state without x', (d) => delete d.states[1].x, /states\[1\] "move"\.x is undefined: must be the name of a float parameter/],
    ['a clip name not given', (d) => (d.states[0].clip = 'sit'), /states\[0\] "idle"\.clip names "sit", which is not among the clips/],
    ['a blend-space name not given', (d) => (d.states[1].blendSpace = 'strafe'), /states\[1\] "move"\.blendSpace names "strafe"/],
    ['a duplicate state', (d) => (d.states[4].name = 'idle'), /states\[4\] "idle"\.name is declared twice/],
    ['a bad duration', (d) => (d.transitions[0].duration = -1), /transitions\[0\] \(\* → hit\)\.duration is -1/],
    ['an unknown mode', (d) => (d.transitions[0].mode = 'blend'), /transitions\[0\] \(\* → hit\)\.mode is "blend"/],
    ['an unknown curve', (d) => (d.transitions[7].curve = 'cubic'), /transitions\[7\] \(land → idle\)\.curve is "cubic"/],
    ['a bool default on a float', (d) => (d.parameters[0].default = true), /parameters\[0\] "speed"\.default is true: must be a finite number/],
  ];
  for (const [what, change, message] of cases) {
    it(what, () => {
      const error = errorOf(() => createStateMachine(variant(change), assets));
      expect(error.message).toMatch(/^createStateMachine: /);
      expect(error.message).toMatch(message);
    });
  }

  it('states whose clips belong to different skeletons', () => {
    const other = syntheticSkeleton(5, 9);
    const foreign = syntheticClip(other, { seed: 3, name: 'foreign' });
    const error = errorOf(() => createStateMachine(variant((d) => (d.states[3].clip = 'foreign')), { ...assets, clips: [...assets.clips, foreign] }));
    expect(error.message).toMatch(/states\[3\] "land"\.clip "foreign" is made for another skeleton than states\[0\] "idle"\.clip's/);
  });

  it('lists every fault at once', () => {
    const error = errorOf(() => createStateMachine(variant((d) => {
      d.transitions[5].exitTime = 2;
      d.states[1].x = 'nope';
    }), assets));
    expect(error.issues.map((i) => i.path)).toEqual(['states[1] "move".x', 'transitions[5] (jump → land).exitTime']);
  });

  it('takes JSON: the description round-trips through JSON.stringify with clips by name', () => {
    const fromJson = createStateMachine(JSON.parse(JSON.stringify(DESC)), assets);
    expect(fromJson.stateNames).toEqual(['idle', 'move', 'jump', 'land', 'hit']);
    expect(Array.from(fromJson.transitionTo)).toEqual(Array.from(machine.transitionTo));
    expect(Array.from(fromJson.conditionOp)).toEqual(Array.from(machine.conditionOp));
  });
});

describe('createStateMachine refuses fields the format does not have, naming their path', () => {
  // A misspelt field was silently ignored before: the machine ran at the clip's own rate, or
  // with the default mode, and nothing said why.
  const cases: [string, (d: any) => void, string, RegExp][] = [
    ['the description', (d) => (d.transitons = d.transitions), 'transitons', /is an unknown field: did you mean "transitions"\? \(a machine description has name, parameters, states, transitions, initial\)/],
    ['a parameter', (d) => (d.parameters[0].defualt = 1), 'parameters[0] "speed".defualt', /is an unknown field: did you mean "default"\?/],
    ['a state', (d) => (d.states[2].metersPerSecnd = 'speed'), 'states[2] "jump".metersPerSecnd', /is an unknown field/],
    ['a blend-space state', (d) => (d.states[1].X = 'speed'), 'states[1] "move".X', /is an unknown field: did you mean "x"\?/],
    ['a transition', (d) => (d.transitions[4].exitTme = 0.5), 'transitions[4] (move → idle).exitTme', /is an unknown field: did you mean "exitTime"\? \(a transition has from, to, when, exitTime, duration, mode, curve, interruptible\)/],
    ['a transition, far from any field', (d) => (d.transitions[0].priority = 2), 'transitions[0] (* → hit).priority', /^is an unknown field \(a transition has/],
  ];
  for (const [what, change, path, message] of cases) {
    it(`in ${what}`, () => {
      const error = errorOf(() => createStateMachine(variant(change), assets));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.path).toBe(path);
      expect(error.issues[0]!.message).toMatch(message);
      expect(error.message).toContain(`createStateMachine: ${path} is an unknown field`);
    });
  }

  it('in the assets, and in conditions (a condition is [param, op, value] or [trigger], nothing more)', () => {
    expect(errorOf(() => createStateMachine(DESC, { ...assets, blendspaces: {} } as never)).issues.map((i) => i.path)).toEqual(['assets.blendspaces']);
    const extra = errorOf(() => createStateMachine(variant((d) => (d.transitions[3].when = [['speed', '>', 0.1, 'or']])), assets));
    expect(extra.issues.map((i) => i.path)).toEqual(['transitions[3] (idle → move).when[0]']);
  });

  it('lists each unknown field with the others, and the same description spelt right passes', () => {
    const error = errorOf(() => createStateMachine(variant((d) => {
      d.states[0].Loop = true;
      d.transitions[1].curev = 'linear';
      d.transitions[5].exitTime = 2;
    }), assets));
    expect(error.issues.map((i) => i.path)).toEqual(['states[0] "idle".Loop', 'transitions[1] (idle → jump).curev', 'transitions[5] (jump → land).exitTime']);
    expect(() => createStateMachine(variant((d) => {
      d.states[0].loop = true;
      d.transitions[1].curve = 'linear';
    }), assets)).not.toThrow();
  });
});

describe('setStateMachine, setParameter and fireTrigger refuse bad input and change nothing', () => {
  function setup() {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 8 });
    const eid = spawnCharacter(world, skeleton);
    setStateMachine(world, eid, machine);
    setParameter(world, eid, 'speed', 2);
    step(world, 1 / 60);
    return { world, eid };
  }
  /** Everything the machine and the layers hold, to compare before and after a refused call. */
  function snapshot(world: ReturnType<typeof setup>['world'], eid: number): unknown {
    const { StateMachine, Layers } = world.components;
    return {
      state: getState(world, eid),
      params: Array.from(StateMachine.params.subarray(eid * StateMachine.slots * 16, (eid + 1) * StateMachine.slots * 16)),
      triggers: Array.from(StateMachine.triggers.subarray(eid * StateMachine.slots, (eid + 1) * StateMachine.slots)),
      machine: Array.from(StateMachine.machine.subarray(eid * StateMachine.slots, (eid + 1) * StateMachine.slots)),
      clips: Array.from(Layers.clip.subarray(eid * 4, eid * 4 + 4)),
      weights: Array.from(Layers.weight.subarray(eid * 4, eid * 4 + 4)),
      pose: Array.from(getLocalPose(world, eid)),
    };
  }

  it('setParameter: an unknown name, a wrong type, a trigger, a non-finite number', () => {
    const { world, eid } = setup();
    const before = snapshot(world, eid);
    expect(() => setParameter(world, eid, 'velocity', 1)).toThrow(/setParameter: name is "velocity": not a parameter of the character's machines \("locomotion"\)/);
    expect(() => setParameter(world, eid, 'speed', true)).toThrow(/setParameter: value is true: "speed" is a float parameter/);
    expect(() => setParameter(world, eid, 'speed', NaN)).toThrow(/setParameter: value is NaN/);
    expect(() => setParameter(world, eid, 'jump', 1)).toThrow(/setParameter: name "jump" is a trigger: fire it with fireTrigger/);
    expect(() => fireTrigger(world, eid, 'speed')).toThrow(/fireTrigger: name "speed" is a float parameter: set it with setParameter/);
    expect(() => fireTrigger(world, eid, 'dive')).toThrow(/fireTrigger: name is "dive": not a trigger/);
    expect(snapshot(world, eid)).toEqual(before);
  });

  it('a bool parameter takes booleans only', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 8 });
    const eid = spawnCharacter(world, skeleton);
    const m = createStateMachine({
      parameters: [{ name: 'grounded', type: 'bool', default: true }],
      states: [{ name: 'a', clip: clips.idle }, { name: 'b', clip: clips.walk }],
      transitions: [{ from: 'a', to: 'b', when: [['grounded', '==', false]], duration: 0 }],
      initial: 'a',
    });
    setStateMachine(world, eid, m);
    expect(() => setParameter(world, eid, 'grounded', 0)).toThrow(/value is 0: "grounded" is a bool parameter, so true or false/);
    step(world, 1 / 60);
    expect(getState(world, eid).state).toBe('a');
    setParameter(world, eid, 'grounded', false);
    step(world, 1 / 60);
    expect(getState(world, eid)).toEqual({ state: 'b', time: 1 / 60, next: null });
  });

  it('setStateMachine: a skeleton that cannot bind the clips, layers out of range or taken, a mask of another skeleton, additive blend spaces', () => {
    const { world, eid } = setup();
    // A skeleton sharing no joint name with the machine's.
    const s = syntheticSkeleton(4, 7);
    const stranger = spawnCharacter(world, createSkeleton({ names: ['a', 'b', 'c', 'd'], parents: Array.from(s.parents), rest: s.rest }));
    const before = snapshot(world, eid);
    expect(() => setStateMachine(world, stranger, machine)).toThrow(/setStateMachine: machine\.states\[0\] "idle"\.clip\.skeleton shares no joint names/);
    expect(() => setStateMachine(world, eid, machine, { layer: 3 })).toThrow(/setStateMachine: layer is 3: machine "locomotion" needs 2 layers/);
    const upper = createStateMachine({ states: [{ name: 'wave', clip: clips.hit }], initial: 'wave', name: 'upper' });
    expect(() => setStateMachine(world, eid, upper, { layer: 1 })).toThrow(
      /layer is 1: machine "upper" would use layers 1 to 1, and "locomotion" runs on 0 to 1: machines run on layers of their own, so give it free layers, or create the world with more layers \(createAnimationWorld\(\{ maxLayers \}\), now 4, up to 16\)/,
    );
    const otherMask = createMask(syntheticSkeleton(3, 2), new Float32Array(3).fill(1));
    expect(() => setStateMachine(world, eid, upper, { layer: 2, mask: otherMask })).toThrow(/setStateMachine: mask\.skeleton has other joints/);
    expect(() => setStateMachine(world, eid, machine, { additive: true })).toThrow(/additive is true, but machine "locomotion" has blend-space states/);
    expect(() => setStateMachine(world, eid, {} as never)).toThrow(/setStateMachine: machine is .*must be a StateMachine/);
    expect(snapshot(world, eid)).toEqual(before);
  });

  it('setStateMachine: up to the world\'s maxMachines (default 2, at most maxLayers), each running; one more is refused naming the limit and how to raise it; a machine on the same first layer replaces the one there', () => {
    const one = (name: string) => createStateMachine({
      name, parameters: [{ name: 'go', type: 'trigger' }],
      states: [{ name: 'a', clip: clips.idle }, { name: 'b', clip: clips.walk, enter: `${name}-b` }],
      transitions: [{ from: 'a', to: 'b', when: [['go']], duration: 0 }],
      initial: 'a',
    });
    for (const [options, slots, message] of [
      [{}, 2, /the world's maxMachines \(2\): replace one \(setStateMachine on its first layer\), or create the world with a larger maxMachines \(createAnimationWorld\(\{ maxMachines \}\), up to its maxLayers 4\)/],
      [{ maxLayers: 6, maxMachines: 5 }, 5, /maxMachines \(5\): replace one .*, or create the world with a larger maxMachines \(createAnimationWorld\(\{ maxMachines \}\), up to its maxLayers 6\)/],
      [{ maxLayers: 3, maxMachines: 3 }, 3, null],
    ] as const) {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 8, ...options });
      const eid = spawnCharacter(world, skeleton);
      expect(world.components.StateMachine.slots).toBe(slots);
      for (let layer = 0; layer < slots; layer++) setStateMachine(world, eid, one(`m${layer}`), { layer });
      expect(world.components.StateMachine.enabled[eid]).toBe(slots);
      // Every machine runs: a trigger all of them declare switches each on its own layer.
      fireTrigger(world, eid, 'go');
      step(world, 1 / 60);
      for (let layer = 0; layer < slots; layer++) expect(getState(world, eid, layer).state).toBe('b');
      expect(drainEvents(world).map((e) => e.name).sort()).toEqual(Array.from({ length: slots }, (_, layer) => `m${layer}-b`).sort());
      if (slots < world.maxLayers) {
        const names = Array.from({ length: slots }, (_, layer) => `"m${layer}"`).join(', ');
        expect(() => setStateMachine(world, eid, one('more'), { layer: slots })).toThrow(`setStateMachine: machine cannot be added: the character runs ${slots} machines already (${names})`);
        expect(() => setStateMachine(world, eid, one('more'), { layer: slots })).toThrow(message);
      } else {
        // Every layer has its machine: the layer range says so first, naming maxLayers.
        expect(() => setStateMachine(world, eid, one('more'), { layer: slots })).toThrow(`setStateMachine: layer is ${slots}: must be an integer in [0, ${slots - 1}] (maxLayers ${slots})`);
      }
      setStateMachine(world, eid, one('again'), { layer: 1 });
      expect(world.components.StateMachine.enabled[eid]).toBe(slots);
      expect(getState(world, eid, 1)).toEqual({ state: 'a', time: 0, next: null });
    }
  });

  it('createAnimationWorld: maxMachines is an integer in [1, maxLayers], and worldBytes counts 115 bytes a machine slot', () => {
    expect(() => createAnimationWorld({ maxEntities: 2, maxJoints: 8, maxMachines: 5 })).toThrow(/createAnimationWorld: maxMachines is 5: must be an integer ≥ 1 and ≤ 4 \(maxLayers: a machine owns at least one layer; default 2\)/);
    expect(() => createAnimationWorld({ maxEntities: 2, maxJoints: 8, maxMachines: 0 })).toThrow(/maxMachines is 0/);
    expect(() => createAnimationWorld({ maxEntities: 2, maxJoints: 8, maxMachines: 1.5 })).toThrow(/maxMachines is 1\.5/);
    expect(() => worldBytes({ maxEntities: 10, maxJoints: 8, maxEvents: 4096, kernels: 'js', maxTransitions: 1, maxLayers: 4, maxCurves: 8, maxMachines: 5 })).toThrow(/worldBytes: maxMachines is 5: must be an integer ≥ 1 and ≤ 4 \(maxLayers: a machine owns at least one layer; default 2\)/);
    // 115 bytes a slot: machine, mask, state ids and clocks, 16 parameters (4 bytes each), triggers.
    expect(worldBytes({ maxEntities: 1000, maxJoints: 8, maxEvents: 4096, kernels: 'js', maxTransitions: 0, maxLayers: 4, maxCurves: 8, maxMachines: 4 }) - worldBytes({ maxEntities: 1000, maxJoints: 8, maxEvents: 4096, kernels: 'js', maxTransitions: 0, maxLayers: 4, maxCurves: 8, maxMachines: 2 })).toBe(1001 * 2 * 115);
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 8, maxTransitions: 0, maxMachines: 3 });
    expect(world.poolBuffer.byteLength).toBeGreaterThanOrEqual(worldBytes({ maxEntities: 1000, maxJoints: 8, maxEvents: 4096, kernels: 'js', maxTransitions: 0, maxLayers: 4, maxCurves: 8, maxMachines: 3 }));
  });
});
