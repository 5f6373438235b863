/**
 * State machines (animation graphs as data): `createStateMachine` checks a
 * description — parameters, states (a clip or a blend space), transitions with conditions,
 * exit times and any-state sources, the initial state, per-state enter/exit events — and
 * compiles it into flat typed arrays, so `stateMachineSystem` evaluates ten thousand machines
 * a frame without allocating: a transition is a row of the transition table, its conditions a
 * run `conditionStart[t] … conditionStart[t + 1] − 1` of the condition table.
 *
 * A machine is immutable and world-independent; `setStateMachine` binds it to a character
 * (api/stateMachines.ts). See docs/stateMachines.md for the description format.
 */
import { IssueList } from './AnimationError.js';
import { sameJointOrder } from './Binding.js';
import type { BlendSpace } from './BlendSpace.js';
import { createClip, isClip, type Clip } from './Clip.js';
import type { Skeleton } from './Skeleton.js';
import { describeValue, shownString } from './limits.js';
import { FADE_CURVE_KINDS, type FadeCurveName } from '../math/fadeCurves.js';

/** `StateMachine.parameterTypes`: a float parameter. */
export const PARAM_FLOAT = 0;
/** `StateMachine.parameterTypes`: a bool parameter (stored as 0 or 1). */
export const PARAM_BOOL = 1;
/** `StateMachine.parameterTypes`: a trigger (pending until a transition consumes it). */
export const PARAM_TRIGGER = 2;

/** `StateMachine.stateKind`: the state plays a clip. */
export const STATE_CLIP = 0;
/** `StateMachine.stateKind`: the state plays a blend space. */
export const STATE_BLEND_SPACE = 1;

/** `StateMachine.conditionOp` values: `>`. */
export const OP_GT = 0;
/** `<`. */
export const OP_LT = 1;
/** `>=`. */
export const OP_GE = 2;
/** `<=`. */
export const OP_LE = 3;
/** `==`. */
export const OP_EQ = 4;
/** `!=`. */
export const OP_NE = 5;
/** A trigger condition `[trigger]`: true while the trigger is pending; consumed when its transition starts. */
export const OP_TRIGGER = 6;

/** `StateMachine.transitionMode`: inertialization by the quintic (`transition`'s default). */
export const MODE_INERTIALIZE = 0;
/** `StateMachine.transitionMode`: inertialization by a critically damped spring. */
export const MODE_SPRING = 1;
/** `StateMachine.transitionMode`: a cross-fade. */
export const MODE_CROSSFADE = 2;
/** `StateMachine.transitionMode`: dead blending (the extrapolated old pose cross-faded to the new). */
export const MODE_DEADBLEND = 3;

/** `StateMachine.transitionFrom` of an any-state transition (`from: '*'`). */
export const ANY_STATE = -1;
/** `StateMachine.stateX` / `stateY` / `stateSpeedParam` / `stateMetersParam` / event index: none. */
export const MACHINE_NONE = -1;
/** The most parameters a machine may declare (triggers are bits of one word; the StateMachine component keeps 16 values per machine). */
export const MAX_PARAMETERS = 16;
/** The most states a machine may declare. */
export const MAX_STATES = 1024;

const OPS: Readonly<Record<string, number>> = Object.freeze({ '>': OP_GT, '<': OP_LT, '>=': OP_GE, '<=': OP_LE, '==': OP_EQ, '!=': OP_NE });
const MODES: Readonly<Record<string, number>> = Object.freeze({ inertialize: MODE_INERTIALIZE, spring: MODE_SPRING, crossfade: MODE_CROSSFADE, deadblend: MODE_DEADBLEND });

/**
 * A state machine's description (JSON-compatible when clips and blend spaces are given by
 * name). Its sub-types are nested here: `StateMachineDesc['states'][number]` is a state.
 * @example
 * const desc: StateMachineDesc = {
 *   parameters: [{ name: 'speed', type: 'float' }, { name: 'jump', type: 'trigger' }],
 *   states: [{ name: 'idle', clip: 'idle' }, { name: 'move', blendSpace: 'locomotion', x: 'speed' }],
 *   transitions: [
 *     { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.2 },
 *     { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.2 },
 *   ],
 *   initial: 'idle',
 * };
 */
export interface StateMachineDesc {
  /** Display name (default "stateMachine"); also the name of the machine's event clip. */
  name?: string;
  /**
   * Up to `MAX_PARAMETERS` (16) parameters with unique names: `'float'` (default 0), `'bool'`
   * (default false) or `'trigger'` (no default: a trigger is pending from `fireTrigger` until a
   * transition that tests it starts).
   */
  parameters?: readonly {
    name: string;
    type: 'float' | 'bool' | 'trigger';
    default?: number | boolean;
  }[];
  /**
   * States with unique names, each playing either a clip or a blend space (one of `clip`,
   * `blendSpace`), by object or by the name it has in `createStateMachine`'s second argument.
   */
  states: readonly {
    name: string;
    clip?: Clip | string;
    blendSpace?: BlendSpace | string;
    /** Blend-space states: the float parameter giving the point's x (required). */
    x?: string;
    /** 2-D blend-space states: the float parameter giving y (required for them, refused for '1d'). */
    y?: string;
    /** Playback rate: a number in [−1000, 1000] (default 1) or the name of a float parameter, read every frame. */
    speed?: number | string;
    /**
     * The name of a float parameter in metres per second: the state's playback rate follows
     * it through root-motion normalization, as `setTargetSpeed` derives a rate (the clip's or
     * the blend's travel per second at rate 1 on the character, the rate v / S). Read whenever
     * it changes. A state whose clip or blend does not travel (an idle; every clip under 5 % of
     * the hips per cycle) ignores it and plays at `speed`. Negative values play backwards.
     * Decides over a target speed set with `setTargetSpeed`.
     */
    metersPerSecond?: string;
    /** Clip states: wrap at the end (default: the clip's own `loop`). Blend-space clips always loop (synced). */
    loop?: boolean;
    /** Event name recorded when the machine enters the state (a transition to it starts, or the machine is set). */
    enter?: string;
    /** Event name recorded when the machine leaves the state (a transition from it starts). */
    exit?: string;
  }[];
  /**
   * Transitions, in priority order (the first whose conditions hold starts). `from` is a state
   * or `'*'` (any state, except `to` itself).
   */
  transitions?: readonly {
    from: string;
    to: string;
    /**
     * Conditions, all of which must hold: `[param, op, value]` with op one of
     * `> < >= <= == !=` on a float or bool parameter (a bool compares as 0 / 1: value a number or
     * boolean), or `[trigger]` (pending; consumed when this transition starts).
     */
    when?: readonly (readonly [string, string, number | boolean] | readonly [string])[];
    /**
     * Normalized phase in [0, 1] of the source state's cycle from which the transition may
     * start: a clamped state once its phase is ≥ exitTime; a looping one in the frame after its
     * phase crossed exitTime (every cycle).
     */
    exitTime?: number;
    /** Seconds: 0 (switch at once) or in [1e-6, 1e6], as `transition`'s `duration`. */
    duration: number;
    /**
     * 'inertialize' (default), 'spring', 'crossfade' or 'deadblend', as `transition`'s `mode`
     * (dead blending with its default half-life, duration / 2). A cross-fade
     * into or out of a blend-space state fades all of its clips: the outgoing ones from their
     * weights to 0, the incoming ones from 0 to the space's weights (which follow the point
     * through the fade), so the weights sum to 1 throughout; the space's clips stay in their
     * sync group. It needs free layer slots for the outgoing clips outside the new state's
     * (else the switch is instant).
     */
    mode?: 'inertialize' | 'spring' | 'crossfade' | 'deadblend';
    /** Cross-fade (and dead-blend) curve, as `transition`'s `curve` (default 'linear'; 'smoothstep' for 'deadblend'). */
    curve?: FadeCurveName;
    /** Whether another transition may start before this one's duration has passed (default true). */
    interruptible?: boolean;
  }[];
  /** The state the machine starts in. */
  initial: string;
}

/** Where `createStateMachine` looks up clips and blend spaces given by name. */
export interface StateMachineAssets {
  /**
   * Clips by name: an array (matched by `clip.name`; a name two different clips of the array
   * bear is refused where a state looks it up) or a record.
   */
  clips?: readonly Clip[] | Readonly<Record<string, Clip>>;
  /** Blend spaces by name. */
  blendSpaces?: Readonly<Record<string, BlendSpace>>;
}

/**
 * A compiled state machine (from {@link createStateMachine}): immutable, shared by every
 * character that runs it. Tables by state `s`, transition `t` and condition `c`.
 */
export interface StateMachine {
  /** The description's name. */
  readonly name: string;
  /** The skeleton every state's clips are made for (the first state's). */
  readonly skeleton: Skeleton;
  /** Parameter names, by parameter index. */
  readonly parameterNames: readonly string[];
  /** Parameter index by name (what `setParameter` looks up every frame). */
  readonly parameterIndex: ReadonlyMap<string, number>;
  /** `PARAM_FLOAT | PARAM_BOOL | PARAM_TRIGGER` by parameter. */
  readonly parameterTypes: Uint8Array;
  /** Default values (bools 0 / 1, triggers 0). */
  readonly parameterDefaults: Float32Array;
  /** State names, by state index. */
  readonly stateNames: readonly string[];
  /** `STATE_CLIP | STATE_BLEND_SPACE` by state. */
  readonly stateKind: Uint8Array;
  /** The clip of a clip state, else null. */
  readonly stateClips: readonly (Clip | null)[];
  /** The blend space of a blend-space state, else null. */
  readonly stateSpaces: readonly (BlendSpace | null)[];
  /** Parameter index of a blend-space state's x, or MACHINE_NONE. */
  readonly stateX: Int16Array;
  /** Parameter index of a 2-D blend-space state's y, or MACHINE_NONE. */
  readonly stateY: Int16Array;
  /** Constant playback rate, used when `stateSpeedParam` is MACHINE_NONE. */
  readonly stateSpeed: Float32Array;
  /** Parameter index of the state's rate, or MACHINE_NONE. */
  readonly stateSpeedParam: Int16Array;
  /** Parameter index of the state's speed in m/s (`metersPerSecond`), or MACHINE_NONE. */
  readonly stateMetersParam: Int16Array;
  /** Clip states: 1 when the clip wraps. */
  readonly stateLoop: Uint8Array;
  /** Index in `eventClip.events` of the state's enter event, or MACHINE_NONE. */
  readonly stateEnterEvent: Int16Array;
  /** Index in `eventClip.events` of the state's exit event, or MACHINE_NONE. */
  readonly stateExitEvent: Int16Array;
  /** Layer slots the machine uses from its first layer: the most any state uses (1 for a clip, 2/4/3 for a 1d/bilinear/freeform space). */
  readonly width: number;
  /** Index of the initial state. */
  readonly initial: number;
  /** Transitions' source state, or ANY_STATE. */
  readonly transitionFrom: Int16Array;
  /** Transitions' target state. */
  readonly transitionTo: Int16Array;
  /** Exit time in [0, 1], or −1 for none. */
  readonly transitionExitTime: Float32Array;
  /** Seconds (0: the switch is instant). */
  readonly transitionDuration: Float64Array;
  /** `MODE_INERTIALIZE | MODE_SPRING | MODE_CROSSFADE | MODE_DEADBLEND`. */
  readonly transitionMode: Uint8Array;
  /** A fade-curve kind (math/fadeCurves.ts). */
  readonly transitionCurve: Uint8Array;
  /** 1 when another transition may start while it runs. */
  readonly transitionInterruptible: Uint8Array;
  /** Transition t's conditions are `conditionStart[t] … conditionStart[t + 1] − 1`. */
  readonly conditionStart: Uint16Array;
  /** The parameter a condition tests. */
  readonly conditionParam: Int16Array;
  /** `OP_GT … OP_TRIGGER`. */
  readonly conditionOp: Uint8Array;
  /** The value it compares with (bools 0 / 1; unused by triggers). */
  readonly conditionValue: Float32Array;
  /**
   * Carries the enter/exit events: a one-frame clip (rest pose) of `skeleton`, named after the
   * machine, whose `events` are the events' names (time 0). A machine event drained with
   * `drainEvents` has this clip as its `clip`; null when no state has an event.
   */
  readonly eventClip: Clip | null;
}

type StateDesc = StateMachineDesc['states'][number];
type TransitionDesc = NonNullable<StateMachineDesc['transitions']>[number];

/**
 * Checks and compiles a state machine description. Clips and blend spaces given by name are
 * looked up in `assets` (so a description can come from JSON).
 *
 * @throws AnimationError listing every fault, each naming the state, transition (`transitions[i]
 * (from → to)`) and field: a field the format does not have, at any level (the description,
 * `assets`, a parameter, a state, a transition: `states[2] "move".metersPerSecnd is an unknown
 * field: did you mean "metersPerSecond"?`), unknown state or parameter names, duplicate names, a state with
 * neither or both of clip and blendSpace, a name not found in `assets` or borne by two clips of
 * its array, a blend-space state whose x (y) is missing or not a float parameter, a
 * `speed` or `metersPerSecond` naming no float parameter, a condition
 * with an operator on a trigger
 * (or without one on a float/bool), an unknown operator, an exit time outside [0, 1], a duration
 * that is neither 0 nor in [1e-6, 1e6], an unknown mode or curve, clips of different skeletons.
 * @example
 * const machine = createStateMachine(JSON.parse(text), { clips: gltf.clips, blendSpaces: { locomotion } });
 */
export function createStateMachine(desc: StateMachineDesc, assets: StateMachineAssets = {}): StateMachine {
  const issues = new IssueList('createStateMachine');
  if (typeof desc !== 'object' || desc === null || Array.isArray(desc)) {
    issues.add('desc', `is ${describeValue(desc)}: must be an object { parameters?, states, transitions?, initial }`);
    issues.throwIfAny();
  }
  if (typeof assets !== 'object' || assets === null) {
    issues.add('assets', `is ${describeValue(assets)}: must be an object { clips?, blendSpaces? }`);
    issues.throwIfAny();
  }
  refuseUnknownFields(issues, '', desc, DESC_FIELDS, 'a machine description');
  refuseUnknownFields(issues, 'assets', assets, ASSET_FIELDS, 'createStateMachine\'s assets');
  const name = desc.name ?? 'stateMachine';
  if (typeof name !== 'string') issues.add('name', `is ${describeValue(name)}: must be a string`);

  // Parameters.
  const parameters = desc.parameters ?? [];
  const paramIndex = new Map<string, number>();
  const parameterNames: string[] = [];
  if (!Array.isArray(parameters)) issues.add('parameters', `is ${describeValue(parameters)}: must be an array`);
  else if (parameters.length > MAX_PARAMETERS) issues.add('parameters', `has ${parameters.length} entries: at most ${MAX_PARAMETERS}`);
  const paramList = Array.isArray(parameters) ? parameters.slice(0, MAX_PARAMETERS) : [];
  const parameterTypes = new Uint8Array(paramList.length);
  const parameterDefaults = new Float32Array(paramList.length);
  paramList.forEach((p, i) => {
    const at = `parameters[${i}]`;
    if (typeof p !== 'object' || p === null) { issues.add(at, `is ${describeValue(p)}: must be { name, type, default? }`); parameterNames.push(''); return; }
    const label = `${at} "${shownString(p.name)}"`;
    refuseUnknownFields(issues, label, p, PARAMETER_FIELDS, 'a parameter');
    if (typeof p.name !== 'string' || p.name === '') issues.add(`${at}.name`, `is ${describeValue(p.name)}: must be a non-empty string`);
    else if (paramIndex.has(p.name)) issues.add(`${label}.name`, 'is declared twice');
    else paramIndex.set(p.name, i);
    parameterNames.push(typeof p.name === 'string' ? p.name : '');
    const type = p.type === 'float' ? PARAM_FLOAT : p.type === 'bool' ? PARAM_BOOL : p.type === 'trigger' ? PARAM_TRIGGER : -1;
    if (type < 0) { issues.add(`${label}.type`, `is ${describeValue(p.type)}: must be 'float', 'bool' or 'trigger'`); return; }
    parameterTypes[i] = type;
    const value = p.default;
    if (value === undefined) return;
    if (type === PARAM_FLOAT) {
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 3.4e38) issues.add(`${label}.default`, `is ${describeValue(value)}: must be a finite number (a float parameter)`);
      else parameterDefaults[i] = value;
    } else if (type === PARAM_BOOL) {
      if (typeof value !== 'boolean') issues.add(`${label}.default`, `is ${describeValue(value)}: must be true or false (a bool parameter)`);
      else parameterDefaults[i] = value ? 1 : 0;
    } else {
      issues.add(`${label}.default`, 'must be left out: a trigger has no default (it is pending only after fireTrigger)');
    }
  });

  // States.
  const states = desc.states;
  const stateIndex = new Map<string, number>();
  if (!Array.isArray(states) || states.length === 0) {
    issues.add('states', `is ${describeValue(states)}: must be a non-empty array of { name, clip | blendSpace, … }`);
    issues.throwIfAny();
  }
  if (states.length > MAX_STATES) { issues.add('states', `has ${states.length} entries: at most ${MAX_STATES}`); issues.throwIfAny(); }
  const n = states.length;
  const stateNames: string[] = [];
  const stateKind = new Uint8Array(n);
  const stateClips: (Clip | null)[] = [];
  const stateSpaces: (BlendSpace | null)[] = [];
  const stateX = new Int16Array(n).fill(MACHINE_NONE);
  const stateY = new Int16Array(n).fill(MACHINE_NONE);
  const stateSpeed = new Float32Array(n).fill(1);
  const stateSpeedParam = new Int16Array(n).fill(MACHINE_NONE);
  const stateMetersParam = new Int16Array(n).fill(MACHINE_NONE);
  const stateLoop = new Uint8Array(n);
  const stateEnterEvent = new Int16Array(n).fill(MACHINE_NONE);
  const stateExitEvent = new Int16Array(n).fill(MACHINE_NONE);
  const events: { time: number; name: string }[] = [];
  let skeleton: Skeleton | null = null;
  let skeletonFrom = '';
  let width = 1;
  const floatParam = (label: string, field: string, value: unknown): number => {
    if (typeof value !== 'string') { issues.add(`${label}.${field}`, `is ${describeValue(value)}: must be the name of a float parameter`); return MACHINE_NONE; }
    const p = paramIndex.get(value);
    if (p === undefined) { issues.add(`${label}.${field}`, `names "${value}", which is not a parameter`); return MACHINE_NONE; }
    if (parameterTypes[p] !== PARAM_FLOAT) { issues.add(`${label}.${field}`, `names "${value}", a ${parameterTypes[p] === PARAM_BOOL ? 'bool' : 'trigger'} parameter: must be a float parameter`); return MACHINE_NONE; }
    return p;
  };
  const checkSkeleton = (label: string, clip: Clip): void => {
    if (skeleton === null) { skeleton = clip.skeleton; skeletonFrom = label; return; }
    if (!sameJointOrder(clip.skeleton, skeleton)) {
      issues.add(label, `"${clip.name}" is made for another skeleton than ${skeletonFrom}'s: a machine's clips share one skeleton (joints and order)`);
    }
  };
  states.forEach((s: StateDesc, i) => {
    const at = `states[${i}]`;
    if (typeof s !== 'object' || s === null) { issues.add(at, `is ${describeValue(s)}: must be { name, clip | blendSpace, … }`); stateNames.push(''); stateClips.push(null); stateSpaces.push(null); return; }
    const label = `${at} "${shownString(s.name)}"`;
    refuseUnknownFields(issues, label, s, STATE_FIELDS, 'a state');
    if (typeof s.name !== 'string' || s.name === '' || s.name === '*') issues.add(`${at}.name`, `is ${describeValue(s.name)}: must be a non-empty string other than '*'`);
    else if (stateIndex.has(s.name)) issues.add(`${label}.name`, 'is declared twice');
    else stateIndex.set(s.name, i);
    stateNames.push(typeof s.name === 'string' ? s.name : '');
    let clip: Clip | null = null;
    let space: BlendSpace | null = null;
    if ((s.clip === undefined) === (s.blendSpace === undefined)) {
      issues.add(label, 'must have exactly one of clip and blendSpace');
    } else if (s.clip !== undefined) {
      clip = lookUpClip(issues, `${label}.clip`, s.clip, assets.clips);
      if (clip !== null) checkSkeleton(`${label}.clip`, clip);
      stateLoop[i] = (s.loop ?? clip?.loop ?? true) ? 1 : 0;
      if (s.loop !== undefined && typeof s.loop !== 'boolean') issues.add(`${label}.loop`, `is ${describeValue(s.loop)}: must be true or false`);
      if (s.x !== undefined || s.y !== undefined) issues.add(`${label}.${s.x !== undefined ? 'x' : 'y'}`, 'applies to blend-space states only');
    } else {
      stateKind[i] = STATE_BLEND_SPACE;
      space = lookUpSpace(issues, `${label}.blendSpace`, s.blendSpace, assets.blendSpaces);
      if (s.loop !== undefined) issues.add(`${label}.loop`, 'applies to clip states only: a blend space\'s clips loop in one sync group');
      if (space !== null) {
        space.clips.forEach((c, k) => {
          checkSkeleton(`${label}.blendSpace.clips[${k}]`, c);
          if (!c.loop) issues.add(`${label}.blendSpace.clips[${k}]`, `"${c.name}" does not loop: a blend-space state plays its clips in one sync group`);
        });
        width = Math.max(width, space.type === '1d' ? 2 : space.type === 'bilinear' ? 4 : 3);
      }
      stateX[i] = floatParam(label, 'x', s.x);
      if (space !== null && space.type !== '1d') stateY[i] = floatParam(label, 'y', s.y);
      else if (s.y !== undefined) issues.add(`${label}.y`, 'must be left out for a \'1d\' blend space');
    }
    stateClips.push(clip);
    stateSpaces.push(space);
    const speed = s.speed ?? 1;
    if (typeof speed === 'string') stateSpeedParam[i] = floatParam(label, 'speed', speed);
    else if (typeof speed !== 'number' || !(Math.abs(speed) <= 1000)) issues.add(`${label}.speed`, `is ${describeValue(speed)}: must be a number in [-1000, 1000] or the name of a float parameter`);
    else stateSpeed[i] = speed;
    if (s.metersPerSecond !== undefined) stateMetersParam[i] = floatParam(label, 'metersPerSecond', s.metersPerSecond);
    for (const key of ['enter', 'exit'] as const) {
      const event = s[key];
      if (event === undefined) continue;
      if (typeof event !== 'string' || event === '') { issues.add(`${label}.${key}`, `is ${describeValue(event)}: must be a non-empty event name`); continue; }
      (key === 'enter' ? stateEnterEvent : stateExitEvent)[i] = events.length;
      events.push({ time: 0, name: event });
    }
  });
  const initial = typeof desc.initial === 'string' ? stateIndex.get(desc.initial) : undefined;
  if (initial === undefined) issues.add('initial', `is ${describeValue(desc.initial)}: must name a state`);

  // Transitions.
  const transitions = desc.transitions ?? [];
  if (!Array.isArray(transitions)) issues.add('transitions', `is ${describeValue(transitions)}: must be an array`);
  const list: readonly TransitionDesc[] = Array.isArray(transitions) ? transitions : [];
  const m = list.length;
  const transitionFrom = new Int16Array(m);
  const transitionTo = new Int16Array(m);
  const transitionExitTime = new Float32Array(m).fill(-1);
  const transitionDuration = new Float64Array(m);
  const transitionMode = new Uint8Array(m);
  const transitionCurve = new Uint8Array(m);
  const transitionInterruptible = new Uint8Array(m);
  const conditionStart = new Uint16Array(m + 1);
  const conditionParam: number[] = [];
  const conditionOp: number[] = [];
  const conditionValue: number[] = [];
  list.forEach((t, i) => {
    conditionStart[i] = conditionParam.length;
    if (typeof t !== 'object' || t === null) { issues.add(`transitions[${i}]`, `is ${describeValue(t)}: must be { from, to, when?, exitTime?, duration, … }`); return; }
    const label = `transitions[${i}] (${shownString(t.from)} → ${shownString(t.to)})`;
    refuseUnknownFields(issues, label, t, TRANSITION_FIELDS, 'a transition');
    const from = t.from === '*' ? ANY_STATE : typeof t.from === 'string' ? stateIndex.get(t.from) : undefined;
    if (from === undefined) issues.add(`${label}.from`, `is ${describeValue(t.from)}: must name a state, or be '*' (any state)`);
    const to = typeof t.to === 'string' ? stateIndex.get(t.to) : undefined;
    if (to === undefined) issues.add(`${label}.to`, `is ${describeValue(t.to)}: must name a state`);
    transitionFrom[i] = from ?? 0;
    transitionTo[i] = to ?? 0;
    const when = t.when ?? [];
    if (!Array.isArray(when)) issues.add(`${label}.when`, `is ${describeValue(when)}: must be an array of [param, op, value] or [trigger]`);
    else when.forEach((c: readonly unknown[], k) => {
      const at = `${label}.when[${k}]`;
      if (!Array.isArray(c) || (c.length !== 1 && c.length !== 3) || typeof c[0] !== 'string') {
        issues.add(at, `is ${describeValue(c)}: must be [param, op, value] or [trigger]`);
        return;
      }
      const p = paramIndex.get(c[0]);
      if (p === undefined) { issues.add(at, `names "${c[0]}", which is not a parameter`); return; }
      const type = parameterTypes[p];
      if (c.length === 1) {
        if (type !== PARAM_TRIGGER) { issues.add(at, `tests "${c[0]}", a ${type === PARAM_BOOL ? 'bool' : 'float'} parameter, without an operator: [param, op, value]`); return; }
        conditionParam.push(p); conditionOp.push(OP_TRIGGER); conditionValue.push(0);
        return;
      }
      if (type === PARAM_TRIGGER) { issues.add(at, `applies the operator ${describeValue(c[1])} to the trigger "${c[0]}": a trigger condition is [trigger], without operator or value`); return; }
      const op = typeof c[1] === 'string' && c[1] in OPS ? OPS[c[1]] : undefined;
      if (op === undefined) { issues.add(`${at}[1]`, `is ${describeValue(c[1])}: must be one of > < >= <= == !=`); return; }
      const value = c[2];
      let v: number;
      if (type === PARAM_BOOL && typeof value === 'boolean') v = value ? 1 : 0;
      else if (typeof value === 'number' && Number.isFinite(value)) v = value;
      else { issues.add(`${at}[2]`, `is ${describeValue(value)}: must be a finite number${type === PARAM_BOOL ? ' or a boolean' : ''}`); return; }
      conditionParam.push(p); conditionOp.push(op); conditionValue.push(v);
    });
    if (t.exitTime !== undefined) {
      if (typeof t.exitTime !== 'number' || !(t.exitTime >= 0 && t.exitTime <= 1)) issues.add(`${label}.exitTime`, `is ${describeValue(t.exitTime)}: must be a normalized phase in [0, 1]`);
      else transitionExitTime[i] = t.exitTime;
      if (from === ANY_STATE) issues.add(`${label}.exitTime`, 'needs a source state: an any-state transition (\'*\') has no phase to wait for');
    }
    const duration = t.duration;
    if (!(duration === 0 || (typeof duration === 'number' && duration >= 1e-6 && duration <= 1e6))) {
      issues.add(`${label}.duration`, `is ${describeValue(duration)}: must be 0 or seconds in [1e-6, 1e6]`);
    } else transitionDuration[i] = duration;
    const mode = t.mode ?? 'inertialize';
    const modeKind = typeof mode === 'string' && mode in MODES ? MODES[mode] : undefined;
    if (modeKind === undefined) issues.add(`${label}.mode`, `is ${describeValue(mode)}: must be 'inertialize', 'spring', 'crossfade' or 'deadblend'`);
    else transitionMode[i] = modeKind;
    const curve = t.curve ?? (mode === 'deadblend' ? 'smoothstep' : 'linear');
    if (!(typeof curve === 'string' && curve in FADE_CURVE_KINDS)) issues.add(`${label}.curve`, `is ${describeValue(curve)}: must be 'linear', 'smoothstep', 'minjerk', 'ease-in' or 'ease-out'`);
    else transitionCurve[i] = FADE_CURVE_KINDS[curve];
    const interruptible = t.interruptible ?? true;
    if (typeof interruptible !== 'boolean') issues.add(`${label}.interruptible`, `is ${describeValue(interruptible)}: must be true or false`);
    transitionInterruptible[i] = interruptible === false ? 0 : 1;
  });
  conditionStart[m] = conditionParam.length;
  if (skeleton === null) issues.add('states', 'have no clip to play');
  issues.throwIfAny();
  const machineSkeleton = skeleton as unknown as Skeleton;
  const eventClip = events.length === 0 ? null : createClip({
    skeleton: machineSkeleton, frameRate: 1, frames: machineSkeleton.rest, loop: false, events, name,
  });
  return Object.freeze({
    name, skeleton: machineSkeleton,
    parameterNames: Object.freeze(parameterNames), parameterIndex: paramIndex, parameterTypes, parameterDefaults,
    stateNames: Object.freeze(stateNames), stateKind, stateClips: Object.freeze(stateClips), stateSpaces: Object.freeze(stateSpaces),
    stateX, stateY, stateSpeed, stateSpeedParam, stateMetersParam, stateLoop, stateEnterEvent, stateExitEvent, width, initial: initial as number,
    transitionFrom, transitionTo, transitionExitTime, transitionDuration, transitionMode, transitionCurve, transitionInterruptible,
    conditionStart, conditionParam: Int16Array.from(conditionParam), conditionOp: Uint8Array.from(conditionOp), conditionValue: Float32Array.from(conditionValue),
    eventClip,
  });
}

/** The fields each object of a description may have (anything else is refused, naming its path). */
const DESC_FIELDS: readonly string[] = ['name', 'parameters', 'states', 'transitions', 'initial'];
const ASSET_FIELDS: readonly string[] = ['clips', 'blendSpaces'];
const PARAMETER_FIELDS: readonly string[] = ['name', 'type', 'default'];
const STATE_FIELDS: readonly string[] = ['name', 'clip', 'blendSpace', 'x', 'y', 'speed', 'metersPerSecond', 'loop', 'enter', 'exit'];
const TRANSITION_FIELDS: readonly string[] = ['from', 'to', 'when', 'exitTime', 'duration', 'mode', 'curve', 'interruptible'];

/**
 * Records an issue at `prefix.key` for every own enumerable field of `value` not in `known`
 * (a misspelt field would otherwise be ignored silently), suggesting the known field it is
 * closest to (at most two edits away, case ignored).
 */
function refuseUnknownFields(issues: IssueList, prefix: string, value: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2);
    const hint = near === undefined ? '' : `: did you mean "${near}"?`;
    issues.add(prefix === '' ? key : `${prefix}.${key}`, `is an unknown field${hint} (${what} has ${known.join(', ')})`);
  }
}

/** Levenshtein distance between `a` and `b` (short field names: a row at a time). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The clip `value` names (or is), recording an issue at `path` when there is none. */
function lookUpClip(issues: IssueList, path: string, value: unknown, clips: StateMachineAssets['clips']): Clip | null {
  if (isClip(value)) return value;
  if (typeof value !== 'string') { issues.add(path, `is ${describeValue(value)}: must be a Clip or the name of one in the second argument's clips`); return null; }
  let found: Clip | undefined;
  if (Array.isArray(clips)) {
    // Two different clips of one name (BVH captures all named "bvh" by default) would make the
    // lookup pick one silently: refuse, naming where they are.
    const list = clips as readonly Clip[];
    const named: number[] = [];
    list.forEach((c, k) => { if (isClip(c) && c.name === value && !named.some((i) => list[i] === c)) named.push(k); });
    if (named.length > 1) {
      issues.add(path, `names "${value}", the name of ${named.length} different clips given to createStateMachine (clips[${named.join('], clips[')}]): give them distinct names (createClip's name, parseBvh's name: the file's name) or pass the Clip itself`);
      return null;
    }
    found = named.length === 1 ? list[named[0]] : undefined;
  }
  else if (typeof clips === 'object' && clips !== null && Object.hasOwn(clips, value)) found = (clips as Readonly<Record<string, Clip>>)[value];
  if (found === undefined || !isClip(found)) { issues.add(path, `names "${value}", which is not among the clips given to createStateMachine`); return null; }
  return found;
}

/** The blend space `value` names (or is), recording an issue at `path` when there is none. */
function lookUpSpace(issues: IssueList, path: string, value: unknown, spaces: StateMachineAssets['blendSpaces']): BlendSpace | null {
  const isSpace = (v: unknown): v is BlendSpace => typeof v === 'object' && v !== null && (v as BlendSpace).xs instanceof Float64Array && Array.isArray((v as BlendSpace).clips);
  if (isSpace(value)) return value;
  if (typeof value !== 'string') { issues.add(path, `is ${describeValue(value)}: must be a BlendSpace or the name of one in the second argument's blendSpaces`); return null; }
  const found = typeof spaces === 'object' && spaces !== null && Object.hasOwn(spaces, value) ? spaces[value] : undefined;
  if (!isSpace(found)) { issues.add(path, `names "${value}", which is not among the blend spaces given to createStateMachine`); return null; }
  return found;
}

/** Whether `v` is a machine from `createStateMachine`. */
export function isStateMachine(v: unknown): v is StateMachine {
  return typeof v === 'object' && v !== null && (v as StateMachine).conditionStart instanceof Uint16Array && Array.isArray((v as StateMachine).stateNames);
}

/**
 * A machine as a world runs it on characters of one skeleton (setStateMachine registers it in
 * `world.assets.machines`; `StateMachine.machine` holds its index): the machine, the character
 * skeleton its clips were checked against, and the world's ids it needs per frame.
 */
export interface BoundStateMachine {
  /** The machine. */
  readonly machine: StateMachine;
  /** The characters' skeleton. */
  readonly skeleton: Skeleton;
  /** Whether its layers are additive. */
  readonly additive: boolean;
  /** Additive machines: each clip state's reference-pose id (the clip at time 0), else −1. */
  readonly references: Int32Array;
  /** Clip id of `machine.eventClip` in the world, or −1. */
  readonly eventClip: number;
}
