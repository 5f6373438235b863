import type { RowLifecycle } from './lifecycle.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';

/**
 * Machine slots per character unless `createAnimationWorld({ maxMachines })` says otherwise: 2
 * (locomotion below, an action or upper-body machine above). Each slot costs every character of
 * the world 115 bytes (against the ~11 KB a character's rows take at 64 joints,
 * test/memory/perCharacter.test.ts), so the default is kept small.
 */
export const DEFAULT_MAX_MACHINES = 2;
/**
 * The machine slots of a world with the default `maxMachines` (before the `maxMachines`
 * option, every world's). Kept so code written against it (the sandbox's machine panel) keeps
 * building; read a world's own stride from `world.components.StateMachine.slots`.
 * @deprecated use `StateMachine.slots`.
 */
export const MACHINE_SLOTS = DEFAULT_MAX_MACHINES;
/** Parameter values kept per machine slot (a machine declares at most this many; `MAX_PARAMETERS`). */
export const MACHINE_PARAMETERS = 16;
/** `StateMachine.machine` of an empty slot; `next` when no transition runs. */
export const NO_MACHINE = -1;

/**
 * `StateMachine`: the state machines a character runs (`setStateMachine`, api/stateMachines.ts;
 * evaluated by `stateMachineSystem`), up to `slots` per character — the world's `maxMachines`
 * (default {@link DEFAULT_MAX_MACHINES} = 2, at most its `maxLayers`: a machine owns at least
 * one layer and machines never share one). Each machine slot costs every character of the
 * world 115 bytes.
 *
 * Machine slot `(eid, k)` lives at `ms = eid × slots + k` of every scalar array:
 * - `enabled[eid]`: how many machine slots of the character are in use (the entity has the
 *   `StateMachine` bitecs component exactly when > 0).
 * - `machine[ms]`: machine id (`world.assets.machines`) or `NO_MACHINE`.
 * - `layer[ms]`: the machine's first layer slot; it owns `machine.width` layers from there.
 * - `mask[ms]`: mask id every layer it writes gets, or −1.
 * - `additive[ms]`: 1 when its layers are additive (clip states only).
 * - `state[ms]`: the current state; `next[ms]`: the state a running transition goes to, or
 *   `NO_MACHINE`. The layers play `next` while it is set (the switch happens when the
 *   transition starts; `state` becomes `next` when its duration has passed).
 * - `time[ms]`: seconds since `state` was entered (Float64).
 * - `elapsed[ms]`, `duration[ms]`: seconds of the running transition so far, and in all (Float32)
 *   (progress = elapsed / duration); `interruptible[ms]`: whether it may be interrupted.
 * - `phase[ms]`: the playing state's normalized phase at its last evaluation, [0, 1] (exit times
 *   of looping states fire on its crossing).
 * - `appliedX[ms]`, `appliedY[ms]`, `appliedSpeed[ms]`: the blend-space point and rate last
 *   written to the layers (NaN: write at the next evaluation).
 * - `params[ms × MACHINE_PARAMETERS + p]`: parameter p's value (bools 0 / 1).
 * - `triggers[ms]`: pending triggers, bit p for parameter p.
 */
export interface StateMachineComponent {
  /** Machine slots per character (the world's `maxMachines`): the stride of every per-slot array. */
  readonly slots: number;
  readonly enabled: Uint8Array;
  readonly machine: Int32Array;
  readonly layer: Uint8Array;
  readonly mask: Int32Array;
  readonly additive: Uint8Array;
  readonly state: Int16Array;
  readonly next: Int16Array;
  readonly time: Float64Array;
  readonly elapsed: Float32Array;
  readonly duration: Float32Array;
  readonly interruptible: Uint8Array;
  readonly phase: Float32Array;
  readonly appliedX: Float32Array;
  readonly appliedY: Float32Array;
  readonly appliedSpeed: Float32Array;
  readonly params: Float32Array;
  readonly triggers: Uint32Array;
}

/** Creates the `StateMachine` component for `rows` entity ids with `perCharacter` machine slots each (the world's `maxMachines`; no machines). */
export function createStateMachineComponent(rows: number, alloc: PoolAllocator = heapAllocator, perCharacter = DEFAULT_MAX_MACHINES): StateMachineComponent {
  const slots = rows * perCharacter;
  return {
    slots: perCharacter,
    enabled: alloc.array(Uint8Array, rows),
    machine: alloc.array(Int32Array, slots).fill(NO_MACHINE),
    layer: alloc.array(Uint8Array, slots),
    mask: alloc.array(Int32Array, slots).fill(-1),
    additive: alloc.array(Uint8Array, slots),
    state: alloc.array(Int16Array, slots),
    next: alloc.array(Int16Array, slots).fill(NO_MACHINE),
    time: alloc.array(Float64Array, slots),
    elapsed: alloc.array(Float32Array, slots),
    duration: alloc.array(Float32Array, slots),
    interruptible: alloc.array(Uint8Array, slots),
    phase: alloc.array(Float32Array, slots),
    appliedX: alloc.array(Float32Array, slots),
    appliedY: alloc.array(Float32Array, slots),
    appliedSpeed: alloc.array(Float32Array, slots),
    params: alloc.array(Float32Array, slots * MACHINE_PARAMETERS),
    triggers: alloc.array(Uint32Array, slots),
  };
}

/** Empties machine slot `ms`. */
export function clearMachineSlot(c: StateMachineComponent, ms: number): void {
  c.machine[ms] = NO_MACHINE;
  c.layer[ms] = 0;
  c.mask[ms] = -1;
  c.additive[ms] = 0;
  c.state[ms] = 0;
  c.next[ms] = NO_MACHINE;
  c.time[ms] = 0;
  c.elapsed[ms] = 0;
  c.duration[ms] = 0;
  c.interruptible[ms] = 0;
  c.phase[ms] = 0;
  c.appliedX[ms] = 0;
  c.appliedY[ms] = 0;
  c.appliedSpeed[ms] = 0;
  c.params.fill(0, ms * MACHINE_PARAMETERS, (ms + 1) * MACHINE_PARAMETERS);
  c.triggers[ms] = 0;
}

/** `StateMachine`'s row lifecycle: every machine slot of the entity emptied. */
export const stateMachineRows: RowLifecycle<StateMachineComponent> = {
  reset(c: StateMachineComponent, eid: number): void {
    c.enabled[eid] = 0;
    for (let ms = eid * c.slots; ms < (eid + 1) * c.slots; ms++) clearMachineSlot(c, ms);
  },
  kept: {},
};
