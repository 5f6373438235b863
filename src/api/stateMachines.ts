/**
 * State machines on characters (docs/stateMachines.md): `setStateMachine` binds a
 * machine from `createStateMachine` to a character's layers; `setParameter` and `fireTrigger`
 * drive it; `getState` reads it. `stateMachineSystem` evaluates the machines every frame.
 */
import { resolveCurveMap } from '../systems/switching/curveMapRows.js';
import { addComponent } from 'bitecs';
import { fail, IssueList } from '../assets/AnimationError.js';
import { bindClip } from '../assets/Binding.js';
import type { Clip } from '../assets/Clip.js';
import type { Mask } from '../assets/Mask.js';
import { getRootTrack } from '../assets/rootTrack.js';
import type { Skeleton } from '../assets/Skeleton.js';
import {
  isStateMachine, PARAM_BOOL, PARAM_FLOAT, PARAM_TRIGGER, STATE_BLEND_SPACE, type BoundStateMachine, type StateMachine,
} from '../assets/StateMachine.js';
import { describeValue, FLOAT32_MAX } from '../assets/limits.js';
import { MAX_LAYERS } from '../components/Layers.js';
import { clearMachineSlot, MACHINE_PARAMETERS, NO_MACHINE } from '../components/StateMachine.js';
import { enterMachineState, SWITCH_NOW } from '../systems/stateMachineSystem.js';
import type { AnimationWorld } from '../world.js';
import { checkBlendSpaceFor } from './blendSpaces.js';
import { registerAsset, registerMask, registerReference, takeId } from '../systems/switching/registry.js';
import { playedClip } from '../systems/switching/writeLayer.js';
import { checkBindable, checkSkeleton, requireCharacter } from './validation.js';

/** Options of {@link setStateMachine}. */
export interface SetStateMachineOptions {
  /**
   * First layer slot the machine plays on (default 0). It owns `machine.width` slots from
   * there (1 for clip states only; 2, 4 or 3 with a '1d', 'bilinear' or 'freeform' blend
   * space): whatever they played is replaced. A machine set on the first layer of another one
   * replaces it; ranges of two machines must not overlap.
   */
  layer?: number;
  /** Per-joint weights applied to every layer the machine writes (an upper-body machine above the base). */
  mask?: Mask;
  /**
   * Play the machine's clips as additive layers (each against its own first frame, as `play`
   * does by default; weight 1). Clip states only (default false).
   */
  additive?: boolean;
}

/**
 * Runs `machine` on character `eid`, from its initial state (entered at once, its enter event
 * recorded), with every parameter at its default and no trigger pending. From the next `step`,
 * `stateMachineSystem` evaluates it each frame and switches the layers through the same path
 * as `transition` and `setBlendSpace`.
 *
 * A character runs machines on disjoint layer ranges — e.g. locomotion on layers 0–1 and an
 * upper-body action machine on layer 2 through a mask — up to the world's `maxMachines`
 * (`createAnimationWorld({ maxMachines })`: default 2, at most `maxLayers`; 115 bytes a
 * character each). The machine owns its
 * layers: a `play`, `transition` or `setBlendSpace` on them lasts until the machine's next
 * transition (or, for a blend-space state, its next parameter change), and the exit times
 * read what they play.
 *
 * @throws AnimationError for an unknown entity, a `machine` not from `createStateMachine`, a
 * layer range past the world's `maxLayers − 1` or overlapping another machine's, a machine more than the world's
 * `maxMachines` (the message says how to raise it), a mask for another
 * skeleton, `additive` with blend-space states or not a boolean, or clips (of states or of
 * blend spaces) that the character's skeleton cannot bind (no joint names in common) or, in
 * blend spaces, that do not loop. Nothing changes then.
 * @example
 * setStateMachine(world, eid, locomotion);                                  // layers 0–1
 * setStateMachine(world, eid, wave, { layer: 2, mask: upperBody });         // above, masked
 */
export function setStateMachine(world: AnimationWorld, eid: number, machine: StateMachine, options: SetStateMachineOptions = {}): void {
  const where = 'setStateMachine';
  const skeleton = requireCharacter(world, eid, where);
  if (!isStateMachine(machine)) fail(where, 'machine', `is ${describeValue(machine)}: must be a StateMachine from createStateMachine`);
  if (typeof options !== 'object' || options === null) fail(where, 'options', `is ${describeValue(options)}: must be an object { layer?, mask?, additive? }`);
  const issues = new IssueList(where);
  const layer = options.layer ?? 0;
  const additive = options.additive ?? false;
  const c = world.components.StateMachine;
  const maxLayers = world.components.Layers.maxLayers;
  if (!Number.isInteger(layer) || layer < 0 || layer >= maxLayers) issues.add('layer', `is ${describeValue(layer)}: must be an integer in [0, ${maxLayers - 1}] (maxLayers ${maxLayers})`);
  else if (layer + machine.width > maxLayers) {
    const wider = maxLayers < MAX_LAYERS ? `; createAnimationWorld({ maxLayers }) allows up to ${MAX_LAYERS}` : '';
    issues.add('layer', `is ${layer}: machine "${machine.name}" needs ${machine.width} layers (its largest blend space), ${layer} to ${layer + machine.width - 1}, and the last layer is ${maxLayers - 1}${wider}`);
  } else {
    for (let ms = eid * c.slots; ms < (eid + 1) * c.slots; ms++) {
      const id = c.machine[ms];
      if (id === NO_MACHINE || c.layer[ms] === layer) continue;
      const other = world.assets.machines[id];
      const from = c.layer[ms], end = from + other.machine.width;
      if (from < layer + machine.width && layer < end) {
        const wider = maxLayers < MAX_LAYERS ? `, or create the world with more layers (createAnimationWorld({ maxLayers }), now ${maxLayers}, up to ${MAX_LAYERS})` : '';
        issues.add('layer', `is ${layer}: machine "${machine.name}" would use layers ${layer} to ${layer + machine.width - 1}, and "${other.machine.name}" runs on ${from} to ${end - 1}: `
          + `machines run on layers of their own, so give it free layers${wider}`);
      }
    }
  }
  let used = 0, replaced = false;
  for (let ms = eid * c.slots; ms < (eid + 1) * c.slots; ms++) {
    if (c.machine[ms] === NO_MACHINE) continue;
    used++;
    if (c.layer[ms] === layer) replaced = true;
  }
  // (With maxMachines = maxLayers the slots never fill first: the machines' layers would, and
  // the layer checks above say so.)
  if (!replaced && used === c.slots) {
    issues.add('machine', `cannot be added: the character runs ${used} machines already (${machineNames(world, eid)}), the world's maxMachines (${c.slots}): `
      + `replace one (setStateMachine on its first layer), or create the world with a larger maxMachines (createAnimationWorld({ maxMachines }), up to its maxLayers ${maxLayers})`);
  }
  if (typeof additive !== 'boolean') issues.add('additive', `is ${describeValue(additive)}: must be true or false`);
  else if (additive && machine.stateKind.includes(STATE_BLEND_SPACE)) {
    issues.add('additive', `is true, but machine "${machine.name}" has blend-space states: additive machines play clip states only`);
  }
  if (options.mask !== undefined) {
    if (!(options.mask?.weights instanceof Float32Array)) issues.add('mask', 'must be a Mask from createMask');
    else checkSkeleton(issues, 'mask', options.mask.skeleton, skeleton);
  }
  // The machine's clips must play on this character.
  machine.stateClips.forEach((clip, s) => {
    if (clip !== null) checkBindable(issues, `machine.states[${s}] "${machine.stateNames[s]}".clip`, clip.skeleton, skeleton);
  });
  issues.throwIfAny();
  machine.stateSpaces.forEach((space, s) => {
    if (space === null) return;
    try {
      checkBlendSpaceFor(space, skeleton);
    } catch (error) {
      fail(where, `machine.states[${s}] "${machine.stateNames[s]}".blendSpace`, (error as Error).message);
    }
  });

  // Register everything a switch needs now, so the frame allocates nothing later.
  const bound = bindMachine(world, machine, skeleton, additive);
  const maskId = options.mask === undefined ? -1 : registerMask(world, options.mask);
  let ms = -1;
  for (let k = eid * c.slots; k < (eid + 1) * c.slots && ms < 0; k++) if (c.machine[k] !== NO_MACHINE && c.layer[k] === layer) ms = k;
  for (let k = eid * c.slots; k < (eid + 1) * c.slots && ms < 0; k++) if (c.machine[k] === NO_MACHINE) ms = k;
  clearMachineSlot(c, ms);
  c.machine[ms] = world.assets.machines.indexOf(bound);
  c.layer[ms] = layer;
  c.mask[ms] = maskId;
  c.additive[ms] = additive ? 1 : 0;
  c.params.set(machine.parameterDefaults, ms * MACHINE_PARAMETERS);
  let count = 0;
  for (let k = eid * c.slots; k < (eid + 1) * c.slots; k++) if (c.machine[k] !== NO_MACHINE) count++;
  c.enabled[eid] = count;
  addComponent(world.ecs, eid, c);
  enterMachineState(world, eid, ms, bound, machine.initial, SWITCH_NOW, 0);
  c.state[ms] = machine.initial;
}

/** The world's entry for `machine` on characters of `skeleton` (made once: its clips, bindings, root tracks, references and event clip registered). */
function bindMachine(world: AnimationWorld, machine: StateMachine, skeleton: Skeleton, additive: boolean): BoundStateMachine {
  const machines = world.assets.machines;
  // (Entries of machines whose clips were released are gone: `releaseClip` frees their ids.)
  for (const bound of machines) if (bound !== undefined && bound.machine === machine && bound.skeleton === skeleton && bound.additive === additive) return bound;
  const clips: Clip[] = [];
  machine.stateClips.forEach((clip) => clip !== null && clips.push(clip));
  machine.stateSpaces.forEach((space) => space !== null && clips.push(...space.clips));
  for (const clip of clips) registerClip(world, clip, skeleton);
  const references = new Int32Array(machine.stateNames.length).fill(-1);
  if (additive) machine.stateClips.forEach((clip, s) => { if (clip !== null) references[s] = registerReference(world, clip, 0, skeleton); });
  const eventClip = machine.eventClip === null ? -1 : registerAsset(world.assets.clips, world.assets.clipIds, machine.eventClip);
  const bound: BoundStateMachine = Object.freeze({ machine, skeleton, additive, references, eventClip });
  machines[takeId(machines)] = bound;
  return bound;
}

/** What `writeLayer` registers for `clip` on `skeleton` (its id, root track and binding), done ahead. */
function registerClip(world: AnimationWorld, given: Clip, skeleton: Skeleton): void {
  const assets = world.assets;
  const clip = playedClip(given, skeleton); // a clip retargeted through reference poses plays baked
  const id = registerAsset(assets.clips, assets.clipIds, clip);
  assets.rootTracks[id] = getRootTrack(clip);
  resolveCurveMap(world, skeleton, id);
  const binding = clip === given ? bindClip(clip, skeleton) : null;
  if (binding !== null) registerAsset(assets.bindings, assets.bindingIds, binding);
}

/** The machine slots of `eid` whose machine declares parameter `name`: bits (1 << k), each with the parameter's index in {@link FOUND}. */
function findParameter(world: AnimationWorld, eid: number, name: string): number {
  const c = world.components.StateMachine;
  let bits = 0;
  for (let k = 0; k < c.slots; k++) {
    const id = c.machine[eid * c.slots + k];
    FOUND[k] = -1;
    if (id === NO_MACHINE) continue;
    const p = world.assets.machines[id].machine.parameterIndex.get(name);
    if (p === undefined) continue;
    FOUND[k] = p;
    bits |= 1 << k;
  }
  return bits;
}

/** Per machine slot of the character, the index of the parameter {@link findParameter} looked for, or −1. */
const FOUND = new Int32Array(MAX_LAYERS); // the most machine slots a world has (maxMachines ≤ maxLayers ≤ MAX_LAYERS)

/** Names of the machines of `eid`, for messages. */
function machineNames(world: AnimationWorld, eid: number): string {
  const c = world.components.StateMachine;
  const names: string[] = [];
  for (let ms = eid * c.slots; ms < (eid + 1) * c.slots; ms++) if (c.machine[ms] !== NO_MACHINE) names.push(`"${world.assets.machines[c.machine[ms]].machine.name}"`);
  return names.length === 0 ? 'no machine (setStateMachine first)' : names.join(', ');
}

/**
 * Sets parameter `name` of every machine character `eid` runs that declares it: a number for a
 * float parameter, a boolean for a bool. The machines read it at the next frame (conditions,
 * a blend space's point, a state's rate). Allocates nothing: call it every frame.
 * @throws AnimationError for an unknown entity, a name no machine of the character declares, a
 * trigger (use `fireTrigger`), a value of the wrong type, or a number that is not finite in
 * the Float32 range. Nothing changes then.
 * @example
 * setParameter(world, eid, 'speed', velocity);
 * setParameter(world, eid, 'grounded', true);
 */
export function setParameter(world: AnimationWorld, eid: number, name: string, value: number | boolean): void {
  const where = 'setParameter';
  requireCharacter(world, eid, where);
  const bits = findParameter(world, eid, name);
  if (bits === 0) fail(where, 'name', `is ${describeValue(name)}: not a parameter of the character's machines (${machineNames(world, eid)})`);
  const c = world.components.StateMachine;
  for (let k = 0; k < c.slots; k++) {
    if (FOUND[k] < 0) continue;
    const type = world.assets.machines[c.machine[eid * c.slots + k]].machine.parameterTypes[FOUND[k]];
    if (type === PARAM_TRIGGER) fail(where, 'name', `"${name}" is a trigger: fire it with fireTrigger`);
    if (type === PARAM_FLOAT && !(typeof value === 'number' && value <= FLOAT32_MAX && value >= -FLOAT32_MAX)) {
      fail(where, 'value', `is ${describeValue(value)}: "${name}" is a float parameter, so a finite number in the Float32 range`);
    }
    if (type === PARAM_BOOL && typeof value !== 'boolean') fail(where, 'value', `is ${describeValue(value)}: "${name}" is a bool parameter, so true or false`);
  }
  const v = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  for (let k = 0; k < c.slots; k++) if (FOUND[k] >= 0) c.params[(eid * c.slots + k) * MACHINE_PARAMETERS + FOUND[k]] = v;
}

/**
 * Fires trigger `name` of every machine character `eid` runs that declares it: it stays
 * pending until a transition that tests it starts (which consumes it); firing it again
 * meanwhile changes nothing.
 * @throws AnimationError for an unknown entity, a name no machine of the character declares, or
 * a float or bool parameter (use `setParameter`). Nothing changes then.
 * @example
 * if (input.jumpPressed) fireTrigger(world, eid, 'jump');
 */
export function fireTrigger(world: AnimationWorld, eid: number, name: string): void {
  const where = 'fireTrigger';
  requireCharacter(world, eid, where);
  const bits = findParameter(world, eid, name);
  if (bits === 0) fail(where, 'name', `is ${describeValue(name)}: not a trigger of the character's machines (${machineNames(world, eid)})`);
  const c = world.components.StateMachine;
  for (let k = 0; k < c.slots; k++) {
    if (FOUND[k] < 0) continue;
    const type = world.assets.machines[c.machine[eid * c.slots + k]].machine.parameterTypes[FOUND[k]];
    if (type !== PARAM_TRIGGER) fail(where, 'name', `"${name}" is a ${type === PARAM_BOOL ? 'bool' : 'float'} parameter: set it with setParameter`);
  }
  for (let k = 0; k < c.slots; k++) if (FOUND[k] >= 0) c.triggers[eid * c.slots + k] |= 1 << FOUND[k];
}

/**
 * The state of the machine character `eid` runs on `layer` (any layer of its range; default:
 * the machine on the lowest layer).
 * @throws AnimationError for an unknown entity, a layer out of range, or no machine there.
 * @example
 * const { state, time, next } = getState(world, eid);
 */
export function getState(world: AnimationWorld, eid: number, layer?: number): {
  /** The current state (the source while a transition runs). */
  readonly state: string;
  /** Seconds since `state` was entered. */
  readonly time: number;
  /** The state a running transition goes to (its layers already play it), or null. */
  readonly next: string | null;
} {
  const where = 'getState';
  requireCharacter(world, eid, where);
  const maxLayers = world.components.Layers.maxLayers;
  if (layer !== undefined && (!Number.isInteger(layer) || layer < 0 || layer >= maxLayers)) fail(where, 'layer', `is ${describeValue(layer)}: must be an integer in [0, ${maxLayers - 1}] (maxLayers ${maxLayers})`);
  const c = world.components.StateMachine;
  let found = -1;
  for (let ms = eid * c.slots; ms < (eid + 1) * c.slots; ms++) {
    const id = c.machine[ms];
    if (id === NO_MACHINE) continue;
    const from = c.layer[ms];
    if (layer === undefined ? found < 0 || from < c.layer[found] : from <= layer && layer < from + world.assets.machines[id].machine.width) found = ms;
  }
  if (found < 0) fail(where, 'layer', layer === undefined ? 'has no machine: the character runs none (setStateMachine)' : `is ${layer}: no machine of the character plays there`);
  const m = world.assets.machines[c.machine[found]].machine;
  const next = c.next[found];
  return { state: m.stateNames[c.state[found]], time: c.time[found], next: next === NO_MACHINE ? null : m.stateNames[next] };
}
