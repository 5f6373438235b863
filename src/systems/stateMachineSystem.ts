/**
 * stateMachineSystem: evaluates each character's state machines and starts at most
 * one transition per machine per frame, through the same path as `transition` and
 * `setBlendSpace` (their non-throwing core in systems/switching/: transition.ts
 * `beginInertialization` / `armInertialization` / `startCrossfade`, blendSpace.ts
 * `applyBlendSpace`, writeLayer.ts: inertialization capture included).
 *
 * **Reads**: `StateMachine`, `Layers` (the playing state's phase), `Character.skeleton`,
 * `Inertialization.slot`, `world.assets` (machines, clips, skeletons), `world.time`.
 * **Writes**: `StateMachine` (state, next, time, elapsed, phase, applied point and rate,
 * triggers), `Layers` of the machines' own layer slots (and free slots of the character for
 * a cross-fade's outgoing clips), `Inertialization` (slot, pending transition, captured source),
 * `world.events` (enter / exit events, stamped `world.time`).
 * **Order**: a caller system (`FrameSystem.caller`): once per frame over the whole crowd on
 * the calling thread, before the chunks (it takes world-wide transition slots); in the frame
 * table after `lod` (it reads nothing lod writes) and before `sample`, which plays what it wrote.
 *
 * Per machine slot, each frame (dt: the frame's seconds; update-rate LOD does not delay it):
 * 1. A running transition whose duration has passed ends: `state` = `next`.
 * 2. Unless a non-interruptible transition runs, the transitions are tried in order: those from
 *    the playing state (`next` while a transition runs, else `state`) and any-state ones to
 *    another state. One starts when its exit time is reached (the playing state's normalized
 *    phase, read from its layers as the last frame left them and extrapolated through this
 *    step at its rate: ≥ exitTime for a clamped clip; for a looping one, crossed since the
 *    last evaluation or inside this step) and all its conditions hold. Its triggers are
 *    consumed; the exit event of the playing state and the enter event of the target are
 *    recorded; the layers switch (duration 0: at once; 'crossfade': fade; else
 *    inertialization). An exit time reached inside the step switches at that instant, `lead`
 *    seconds into it (`TRANSITION_ARGS[ARG_LEAD]`): the new layers' clocks, the fades, the
 *    inertialization's anchor and the events start there, so the result does not depend on
 *    the frame rate. At most one per frame, so zero-duration cycles do not loop.
 * 3. The playing state's parameters reach its layers when they changed: a blend space's point
 *    (`applyBlendSpace`), a parameter-driven rate.
 * 4. `time` and `elapsed` advance by dt (from −lead after a switch inside the step).
 *
 * When the world cannot give what a transition needs (no free transition slot, no free layer
 * for a cross-fade's outgoing clip) the layers switch at once instead: a system never throws.
 * Allocates nothing (clips, bindings and references were registered by `setStateMachine`).
 */
import {
  ANY_STATE, MODE_CROSSFADE, MODE_DEADBLEND, MODE_SPRING, MACHINE_NONE, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_NE, OP_TRIGGER, STATE_BLEND_SPACE,
  type BoundStateMachine,
} from '../assets/StateMachine.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { pushEvent } from '../components/EventQueue.js';
import { clearLayer } from '../components/Layers.js';
import { BLEND_ADDITIVE, clearsAfterFade, layerFlags, loops, measureSyncGroup, SYNC_DURATION, SYNC_PHASE } from '../components/layerRules.js';
import { MACHINE_PARAMETERS, NO_MACHINE } from '../components/StateMachine.js';
import type { AnimationWorld } from '../world.js';
import { applyBlendSpace, BLEND_POINT, defaultBlendSettings } from './switching/blendSpace.js';
import { applySpeedIn, applyTargetSpeed, SPEED } from './switching/targetSpeed.js';
import { newResolvedPlay, writeLayer } from './switching/writeLayer.js';
import { ARG_DURATION, ARG_HALF_LIFE, ARG_LEAD, armDeadBlend, armInertialization, beginInertialization, fadeInSlots, fadeOutSlots, TRANSITION_ARGS } from './switching/transition.js';

/** How {@link enterMachineState} switches the layers: at once. */
export const SWITCH_NOW = 0;
/** … by inertialization (quintic): the caller's `TRANSITION_ARGS` hold the duration. */
export const SWITCH_INERTIALIZE = 1;
/** … by a spring inertialization. */
export const SWITCH_SPRING = 2;
/** … by a cross-fade with curve kind `curve`: every clip the machine's layers play fades out, the new state's (a clip or a blend space's) fade in. */
export const SWITCH_CROSSFADE = 3;
/** … by dead blending with fade-curve kind `curve` (the caller's `TRANSITION_ARGS` hold the duration and half-life). */
export const SWITCH_DEADBLEND = 4;

/** Runs the state machines of every character (see the file header). Allocates nothing. */
export function stateMachineSystem(world: AnimationWorld, dt: number): void {
  stateMachineEntities(world, dt, 0, world.characters.dense.length);
}

/** {@link stateMachineSystem} over `world.characters.dense[first .. end)` (not the update list: see the header). */
export function stateMachineEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const c = world.components.StateMachine;
  const { enabled, machine: machineIds, slots } = c;
  const dense = world.characters.dense;
  const machines = world.assets.machines;
  for (let i = first; i < end; i++) {
    const eid = dense[i];
    if (enabled[eid] === 0) continue;
    for (let ms = eid * slots, last = ms + slots; ms < last; ms++) {
      const id = machineIds[ms];
      if (id === NO_MACHINE) continue;
      evaluateMachine(world, eid, ms, machines[id], dt);
    }
  }
}

/** One machine slot's frame (steps 1–4 of the header). */
function evaluateMachine(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, dt: number): void {
  const c = world.components.StateMachine;
  const m = bound.machine;
  // 1. A transition whose time has passed ends.
  if (c.next[ms] !== NO_MACHINE && c.elapsed[ms] >= c.duration[ms]) {
    c.state[ms] = c.next[ms];
    c.time[ms] = c.elapsed[ms];
    c.next[ms] = NO_MACHINE;
  }
  const active = c.next[ms] !== NO_MACHINE ? c.next[ms] : c.state[ms];
  // 2. The first transition that may start, starts.
  if (c.next[ms] === NO_MACHINE || c.interruptible[ms] !== 0) {
    statePhase(world, eid, ms, bound, active);
    // The phase now, and how far it moves in this step (its rate × dt: the instant of an exit
    // time crossed inside the step, see exitLead).
    STEP[STEP_NOW] = OUT[OUT_PHASE];
    STEP[STEP_MOVE] = OUT[OUT_ADVANCE] * dt;
    STEP[STEP_DT] = dt;
    STEP[STEP_BEFORE] = c.phase[ms];
    endPhase(c, ms);
    const looping = loopingState(world, eid, ms, bound, active);
    const count = m.transitionTo.length;
    const base = ms * MACHINE_PARAMETERS;
    const { params, triggers } = c;
    for (let t = 0; t < count; t++) {
      const from = m.transitionFrom[t];
      const to = m.transitionTo[t];
      if (from !== active && (from !== ANY_STATE || to === active)) continue;
      STEP[STEP_LEAD] = 0;
      if (m.transitionExitTime[t] >= 0 && !exitLead(m.transitionExitTime, t, looping)) continue;
      let holds = true;
      let consumed = 0;
      for (let k = m.conditionStart[t], stop = m.conditionStart[t + 1]; k < stop && holds; k++) {
        const p = m.conditionParam[k];
        const op = m.conditionOp[k];
        if (op === OP_TRIGGER) {
          const bit = 1 << p;
          holds = (triggers[ms] & bit) !== 0;
          consumed |= bit;
          continue;
        }
        const v = params[base + p];
        const w = m.conditionValue[k];
        holds = op === OP_GT ? v > w : op === OP_LT ? v < w : op === OP_GE ? v >= w : op === OP_LE ? v <= w : op === OP_EQ ? v === w : op === OP_NE ? v !== w : false;
      }
      if (!holds) continue;
      triggers[ms] &= ~consumed;
      startMachineTransition(world, eid, ms, bound, active, t);
      break;
    }
  }
  // 3. The playing state's parameters.
  applyStateParameters(world, eid, ms, bound, c.next[ms] !== NO_MACHINE ? c.next[ms] : c.state[ms]);
  // 4. Clocks.
  c.time[ms] += dt;
  if (c.next[ms] !== NO_MACHINE) c.elapsed[ms] += dt;
}

/** Starts transition `t` of the machine in slot `ms` from the playing state `active`. */
function startMachineTransition(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, active: number, t: number): void {
  const c = world.components.StateMachine;
  const m = bound.machine;
  const to = m.transitionTo[t];
  const duration = m.transitionDuration[t];
  // The switch happens `lead` seconds into this step (an exit time crossed inside it; else 0):
  // every clock it starts begins there (TRANSITION_ARGS' note), put back to 0 below.
  TRANSITION_ARGS[ARG_LEAD] = STEP[STEP_LEAD];
  recordMachineEvent(world, eid, bound, m.stateExitEvent[active]);
  const mode = m.transitionMode[t];
  TRANSITION_ARGS[ARG_DURATION] = duration;
  TRANSITION_ARGS[ARG_HALF_LIFE] = NaN;
  const how = duration === 0 ? SWITCH_NOW : mode === MODE_CROSSFADE ? SWITCH_CROSSFADE
    : mode === MODE_SPRING ? SWITCH_SPRING : mode === MODE_DEADBLEND ? SWITCH_DEADBLEND : SWITCH_INERTIALIZE;
  enterMachineState(world, eid, ms, bound, to, how, m.transitionCurve[t]);
  if (duration === 0) {
    c.state[ms] = to;
    c.next[ms] = NO_MACHINE;
    c.time[ms] = 0 - TRANSITION_ARGS[ARG_LEAD]; // 0 - x: +0 without a lead
  } else {
    c.state[ms] = active;
    c.next[ms] = to;
    c.elapsed[ms] = 0 - TRANSITION_ARGS[ARG_LEAD];
    c.duration[ms] = duration;
    c.interruptible[ms] = m.transitionInterruptible[t];
  }
  TRANSITION_ARGS[ARG_LEAD] = 0;
}

/**
 * Step 2's clock of the playing state: its phase now, the phase it moves through in this step
 * (signed), the step's seconds, the phase the last evaluation looked up to, and the lead
 * {@link exitLead} finds.
 */
const STEP = new Float64Array(5);
const STEP_NOW = 0, STEP_MOVE = 1, STEP_DT = 2, STEP_BEFORE = 3, STEP_LEAD = 4;

/**
 * Records in `phase[ms]` the phase the playing state reaches at the end of this step, wrapped
 * into [0, 1): the next evaluation looks for a looping state's exit times from there (a clamped
 * state's exits read the phase now, not this). Lowered by 1e-7 — more than half a float32 step
 * anywhere in [0, 1) — so the float32 the component stores is never past the step's end and no
 * instant falls between two evaluations (past it, an exit time just after the end of one step
 * would be before the next one's start: never crossed).
 */
function endPhase(c: AnimationWorld['components']['StateMachine'], ms: number): void {
  let end = STEP[STEP_NOW] + STEP[STEP_MOVE];
  end -= Math.floor(end);
  c.phase[ms] = end - 1e-7;
}

/**
 * Whether exit time `exitTimes[t]` of the playing state is reached in this step, and when
 * (`STEP[STEP_LEAD]`, seconds into the step; 0 when it was already reached at the start). A
 * clamped state: once its phase is ≥ the exit time — at the start, or at the instant the phase
 * moving at its rate reaches it before the step's end. A looping state: each time its phase
 * crosses it — since the last evaluation (then at once), or inside this step (at that instant).
 */
function exitLead(exitTimes: Float32Array, t: number, looping: boolean): boolean {
  const exit = exitTimes[t];
  const now = STEP[STEP_NOW], move = STEP[STEP_MOVE];
  if (!looping) {
    if (now >= exit) return true;
    if (!(move > 0) || now + move < exit) return false;
    STEP[STEP_LEAD] = (exit - now) / move * STEP[STEP_DT];
    return true;
  }
  // Crossed since the last evaluation, before this step (a wrap crosses everything above `before` and up to `now`).
  const before = STEP[STEP_BEFORE];
  if (now >= before ? before < exit && exit <= now : before < exit || exit <= now) return true;
  // Crossed inside it: `ahead`, the phase still to go (forward or back), within the step's move.
  let ahead = move >= 0 ? exit - now : now - exit;
  ahead -= Math.floor(ahead);
  const span = move >= 0 ? move : -move;
  if (!(ahead > 0) || ahead > span) return false;
  STEP[STEP_LEAD] = ahead / span * STEP[STEP_DT];
  return true;
}

/** The play record of a clip state (one per module: refilled for each switch, read at once). */
const PLAY = newResolvedPlay();

/**
 * Puts state `s` of the machine in slot `ms` on its layers, switching by `how` (`SWITCH_*`;
 * for inertialization and cross-fades `TRANSITION_ARGS` hold the seconds, `curve` the
 * cross-fade's curve kind), records its enter event, and sets the slot's applied point, rate
 * and phase. Falls back to an instant switch when the world has no transition slot (or no free
 * layer for a cross-fade). Used by the system and by `setStateMachine` (initial state).
 */
export function enterMachineState(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, s: number, how: number, curve: number): void {
  const c = world.components.StateMachine;
  const { Layers } = world.components;
  const m = bound.machine;
  const layer = c.layer[ms];
  const first = eid * world.components.Layers.maxLayers + layer;
  const skeleton = world.assets.skeletons[world.components.Character.skeleton[eid]] as Skeleton;
  const inertialize = (how === SWITCH_INERTIALIZE || how === SWITCH_SPRING || how === SWITCH_DEADBLEND) && beginInertialization(world, eid);
  stateRate(c, ms, bound, s);
  const speed = OUT[OUT_RATE];
  const slots = stateSlots(m, s);
  // A cross-fade: whatever the machine's layers play fades out (moved off the new state's
  // slots), whether a clip or a blend space's clips; the new state's layers fade in below.
  const fading = how === SWITCH_CROSSFADE && fadeOutSlots(world, eid, machineSlotBits(world, eid, ms, first, m.width), first, first + slots, curve, false, true);
  if (m.stateKind[s] === STATE_BLEND_SPACE) {
    const space = m.stateSpaces[s];
    if (space !== null) {
      // The layers past the space's own: emptied (not a cross-fade's outgoing copy, which ends by itself).
      clearMachineLayers(world, first + slots, first + m.width);
      const x = m.stateX[s], y = m.stateY[s];
      const base = ms * MACHINE_PARAMETERS;
      BLEND_POINT[0] = x === MACHINE_NONE ? 0 : c.params[base + x];
      BLEND_POINT[1] = y === MACHINE_NONE ? 0 : c.params[base + y];
      c.appliedX[ms] = BLEND_POINT[0];
      c.appliedY[ms] = BLEND_POINT[1];
      applyBlendSpace(world, eid, skeleton, space, defaultBlendSettings(layer), c.mask[ms]);
      if (speed !== 1) setSpaceRate(world, first, slots);
    }
  } else {
    const clip = m.stateClips[s];
    if (clip !== null) {
      const play = PLAY;
      play.layer = layer;
      play.weight = 1;
      play.speed = speed;
      play.time = 0;
      play.loop = m.stateLoop[s] !== 0;
      play.reference = clip;
      clearMachineLayers(world, first + 1, first + m.width);
      writeLayer(world, eid, skeleton, clip, play);
      Layers.mask[first] = c.mask[ms];
      if (bound.additive) {
        Layers.flags[first] = layerFlags(play.loop, BLEND_ADDITIVE, false);
        Layers.reference[first] = bound.references[s];
      }
    }
  }
  if (fading) fadeInSlots(world, first, first + slots, curve);
  applyStateSpeed(world, eid, ms, bound, s, first, slots);
  if (inertialize && how === SWITCH_DEADBLEND) armDeadBlend(world, eid, layer, curve);
  else if (inertialize) armInertialization(world, eid, layer, how === SWITCH_SPRING);
  statePhase(world, eid, ms, bound, s);
  c.phase[ms] = OUT[OUT_PHASE];
  if (TRANSITION_ARGS[ARG_LEAD] > 0) leadLayers(world, first, slots, layer);
  recordMachineEvent(world, eid, bound, m.stateEnterEvent[s]);
}

/** {@link leadLayers}' sync-group rate: phase per second. */
const LEAD_RATE = new Float64Array(1);

/**
 * A switch `TRANSITION_ARGS[ARG_LEAD]` seconds into the coming step: the new state's layers
 * (`slots` from `first`, not a cross-fade's outgoing copies) start then, so their clocks go back
 * by their rate × lead and the step's advance leaves them at rate × (dt − lead). A clamped or
 * looping clip keeps the time before its start (negative: sampleSystem's advance, root deltas
 * and events read it as the clip starting inside the step); a sync group's members move back by
 * the group's phase rate, wrapped (the group re-derives them from its leader's phase).
 */
function leadLayers(world: AnimationWorld, first: number, slots: number, layer: number): void {
  const { Layers } = world.components;
  const clips = world.assets.clips;
  const lead = TRANSITION_ARGS[ARG_LEAD];
  const leader = measureSyncGroup(SYNC, Layers, clips, first, first + slots, layer);
  LEAD_RATE[0] = leader < 0 || !(SYNC[SYNC_DURATION] > 0) ? 0 : Layers.syncRate[leader] / SYNC[SYNC_DURATION];
  for (let li = first; li < first + slots; li++) {
    const id = Layers.clip[li];
    if (id < 0 || clearsAfterFade(Layers, li)) continue;
    const duration = clips[id].duration;
    if (!(duration > 0)) continue;
    if (Layers.syncGroup[li] === layer && leader >= 0) {
      let u = Layers.time[li] / duration - LEAD_RATE[0] * lead;
      u -= Math.floor(u);
      Layers.time[li] = u < 1 ? u * duration : 0;
    } else {
      Layers.time[li] -= Layers.speed[li] * lead;
    }
  }
}

/**
 * The slots a cross-fade of machine slot `ms` fades out, as bits (1 << n, n the slot's index on
 * the character): those of its `width` layers from `first` that play, and the outgoing copies
 * of its earlier cross-fades still fading elsewhere — copies with the machine's mask outside
 * every other machine's layers — so an interrupted fade restarts them all on one clock and the
 * weights keep summing to 1.
 */
function machineSlotBits(world: AnimationWorld, eid: number, ms: number, first: number, width: number): number {
  const { Layers } = world.components;
  const c = world.components.StateMachine;
  const start = eid * Layers.maxLayers;
  let bits = 0;
  for (let n = 0; n < Layers.maxLayers; n++) {
    const li = start + n;
    if (Layers.clip[li] < 0) continue;
    if (li >= first && li < first + width) { bits |= 1 << n; continue; }
    if (!clearsAfterFade(Layers, li) || Layers.mask[li] !== c.mask[ms] || inOtherMachine(world, eid, ms, n)) continue;
    bits |= 1 << n;
  }
  return bits;
}

/** Whether layer `n` of `eid` lies in the range of a machine of the character other than slot `ms`. */
function inOtherMachine(world: AnimationWorld, eid: number, ms: number, n: number): boolean {
  const c = world.components.StateMachine;
  for (let k = eid * c.slots; k < (eid + 1) * c.slots; k++) {
    const id = c.machine[k];
    if (k === ms || id === NO_MACHINE) continue;
    if (n >= c.layer[k] && n < c.layer[k] + world.assets.machines[id].machine.width) return true;
  }
  return false;
}

/** Empties the layer slots `[from, end)` except cross-fades' outgoing copies. */
function clearMachineLayers(world: AnimationWorld, from: number, end: number): void {
  const { Layers } = world.components;
  for (let li = from; li < end; li++) if (Layers.clip[li] >= 0 && !clearsAfterFade(Layers, li)) clearLayer(Layers, li);
}

/** A blend space's rate `OUT[OUT_RATE]` on its `slots` layers from `first`: the sync group's rate (the leader's `syncRate`, read by sampleSystem). */
function setSpaceRate(world: AnimationWorld, first: number, slots: number): void {
  const { Layers } = world.components;
  const rate = OUT[OUT_RATE];
  for (let li = first; li < first + slots; li++) {
    if (Layers.clip[li] < 0) continue;
    Layers.syncRate[li] = rate;
    Layers.speed[li] = rate;
  }
}

/**
 * Results of the helpers below, through an array (a double returned or passed to a call that
 * is not inlined would be boxed): a state's phase and rate.
 */
const OUT = new Float64Array(3);
const OUT_PHASE = 0, OUT_RATE = 1, OUT_ADVANCE = 2;

/** State `s`'s playback rate now, into `OUT[OUT_RATE]`: its parameter's value, or its constant. */
function stateRate(c: AnimationWorld['components']['StateMachine'], ms: number, bound: BoundStateMachine, s: number): void {
  const p = bound.machine.stateSpeedParam[s];
  OUT[OUT_RATE] = p === MACHINE_NONE ? bound.machine.stateSpeed[s] : c.params[ms * MACHINE_PARAMETERS + p];
}

/**
 * Step 3 of the header: the playing state's point and rate reach its layers when they changed
 * (`appliedX`, `appliedY`; `appliedSpeed` holds the state's rate, or for a state with
 * `metersPerSecond` that parameter's value, NaN after `clearTargetSpeed`).
 */
function applyStateParameters(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, s: number): void {
  // No double lives in a local across a call here (each would be boxed, a heap number per
  // machine per frame): values go through OUT and the component arrays.
  const c = world.components.StateMachine;
  const m = bound.machine;
  const layer = c.layer[ms];
  const first = eid * world.components.Layers.maxLayers + layer;
  const metres = m.stateMetersParam[s];
  let changed = rateChanged(c, ms, bound, s);
  const slots = stateSlots(m, s);
  if (m.stateKind[s] === STATE_BLEND_SPACE) {
    const space = m.stateSpaces[s];
    if (space === null) return;
    if (pointChanged(c, ms, m.stateX[s], m.stateY[s])) {
      const skeleton = world.assets.skeletons[world.components.Character.skeleton[eid]] as Skeleton;
      applyBlendSpace(world, eid, skeleton, space, defaultBlendSettings(layer), c.mask[ms]);
      // A new blend: its rate again (the space's own rate is 1 unless the state says otherwise).
      stateRate(c, ms, bound, s);
      if (OUT[OUT_RATE] !== 1 || metres !== MACHINE_NONE) changed = true;
    }
    if (!changed) return;
    stateRate(c, ms, bound, s);
    setSpaceRate(world, first, slots);
  } else {
    if (!changed) return;
    stateRate(c, ms, bound, s);
    if (world.components.Layers.clip[first] >= 0) world.components.Layers.speed[first] = OUT[OUT_RATE];
  }
  applyStateSpeed(world, eid, ms, bound, s, first, slots);
}

/** Whether what state `s` of slot `ms` was last given (`appliedSpeed`: its rate, or its `metersPerSecond` parameter's value) differs from its value now. */
function rateChanged(c: AnimationWorld['components']['StateMachine'], ms: number, bound: BoundStateMachine, s: number): boolean {
  const metres = bound.machine.stateMetersParam[s];
  if (metres !== MACHINE_NONE) return c.params[ms * MACHINE_PARAMETERS + metres] !== c.appliedSpeed[ms];
  stateRate(c, ms, bound, s);
  return OUT[OUT_RATE] !== c.appliedSpeed[ms];
}

/**
 * Whether the blend point of slot `ms` (parameters `x`, `y`; MACHINE_NONE: 0) differs from the
 * one applied; if so, it becomes the applied one and `BLEND_POINT`.
 */
function pointChanged(c: AnimationWorld['components']['StateMachine'], ms: number, x: number, y: number): boolean {
  const base = ms * MACHINE_PARAMETERS;
  const px = x === MACHINE_NONE ? 0 : c.params[base + x];
  const py = y === MACHINE_NONE ? 0 : c.params[base + y];
  if (px === c.appliedX[ms] && py === c.appliedY[ms]) return false;
  BLEND_POINT[0] = px;
  BLEND_POINT[1] = py;
  c.appliedX[ms] = px;
  c.appliedY[ms] = py;
  return true;
}

/** Layer slots state `s` plays on: 1 for a clip, its blend space's (2, 4 or 3). */
function stateSlots(m: BoundStateMachine['machine'], s: number): number {
  const space = m.stateSpaces[s];
  return space === null ? 1 : space.type === '1d' ? 2 : space.type === 'bilinear' ? 4 : 3;
}

/**
 * After state `s` of slot `ms` wrote its own rate to its `slots` layers from `first`: a state
 * with `metersPerSecond` plays at the rate that makes its clip or blend travel the parameter's
 * m/s (root-motion normalization, as `setTargetSpeed`; nothing when it does not travel, so its
 * own rate stays); any other state takes the character's target speed, if one is set (it
 * survives the switch). Records what was applied in `appliedSpeed`.
 */
function applyStateSpeed(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, s: number, first: number, slots: number): void {
  const c = world.components.StateMachine;
  const metres = bound.machine.stateMetersParam[s];
  if (metres === MACHINE_NONE) {
    stateRate(c, ms, bound, s);
    c.appliedSpeed[ms] = OUT[OUT_RATE];
    applyTargetSpeed(world, eid);
    return;
  }
  const value = c.params[ms * MACHINE_PARAMETERS + metres];
  c.appliedSpeed[ms] = value;
  SPEED[0] = value;
  applySpeedIn(world, eid, first, first + slots, world.components.RootMotion.cycleMeasure[eid]);
}

/** Whether the playing state `s` wraps (its first layer's clip loops; a blend space always). */
function loopingState(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, s: number): boolean {
  if (bound.machine.stateKind[s] === STATE_BLEND_SPACE) return true;
  return loops(world.components.Layers, eid * world.components.Layers.maxLayers + world.components.StateMachine.layer[ms]);
}

/** `measureSyncGroup`'s results. */
const SYNC = new Float64Array(2);

/**
 * State `s`'s normalized phase as its layers stand, in [0, 1], into `OUT[OUT_PHASE]`: a clip
 * state's time ÷ duration on its first layer (1 for a zero-length clip), a blend space's
 * sync-group phase (0 when nothing plays); and how fast it moves, phase per second, into
 * `OUT[OUT_ADVANCE]` (the clip's rate ÷ its duration, the group's rate ÷ its cycle; 0 for none).
 */
function statePhase(world: AnimationWorld, eid: number, ms: number, bound: BoundStateMachine, s: number): void {
  const { Layers } = world.components;
  const layer = world.components.StateMachine.layer[ms];
  const first = eid * world.components.Layers.maxLayers + layer;
  const clips = world.assets.clips;
  OUT[OUT_ADVANCE] = 0;
  if (bound.machine.stateKind[s] === STATE_BLEND_SPACE) {
    const leader = measureSyncGroup(SYNC, Layers, clips, first, first + bound.machine.width, layer);
    OUT[OUT_PHASE] = leader < 0 ? 0 : SYNC[SYNC_PHASE];
    if (leader >= 0 && SYNC[SYNC_DURATION] > 0) OUT[OUT_ADVANCE] = Layers.syncRate[leader] / SYNC[SYNC_DURATION];
    return;
  }
  const clipId = Layers.clip[first];
  const duration = clipId < 0 ? 0 : clips[clipId].duration;
  if (clipId < 0) OUT[OUT_PHASE] = 0;
  else if (!(duration > 0)) OUT[OUT_PHASE] = 1;
  else {
    const phase = Layers.time[first] / duration;
    OUT[OUT_PHASE] = phase > 1 ? 1 : phase < 0 ? 0 : phase;
    OUT[OUT_ADVANCE] = Layers.speed[first] / duration;
  }
}

/** Records event `event` (an index into the machine's event clip; MACHINE_NONE: nothing) for `eid`, at the switch's instant (the frame's start plus its lead). */
function recordMachineEvent(world: AnimationWorld, eid: number, bound: BoundStateMachine, event: number): void {
  if (event === MACHINE_NONE || bound.eventClip < 0) return;
  const queue = world.events;
  queue.stamp[0] = world.time + TRANSITION_ARGS[ARG_LEAD]; // the switch's instant
  pushEvent(queue, eid, bound.eventClip, event);
}
