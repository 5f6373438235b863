/**
 * The acceptance scene of issue 21: a locomotion machine (idle, a walk/run 1-D blend space by
 * `speed`, jump on a trigger, land at exit time 0.9, an any-state `hit` interrupting) on
 * synthetic clips, the scripted parameters that drive it, and a hand-written controller that
 * makes the same switches with `transition`, `setBlendSpace` and `stop`.
 */
import {
  createBlendSpace, createStateMachine, getLocalPose, play, setBlendSpace, spawnCharacter, step, stop, transition, type AnimationWorld, type Clip,
  type StateMachineDesc,
} from '../../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const LAYER_CLEAR_AFTER_FADE = 4; // components/Layers.ts

export const skeleton = syntheticSkeleton(8, 5);
export const clips = {
  idle: syntheticClip(skeleton, { seed: 11, frameCount: 37, name: 'idle' }),
  walk: syntheticClip(skeleton, { seed: 12, frameCount: 25, name: 'walk' }),
  run: syntheticClip(skeleton, { seed: 13, frameCount: 19, name: 'run' }),
  jump: syntheticClip(skeleton, { seed: 14, frameCount: 22, amplitude: 0.9, loop: false, name: 'jump' }),
  land: syntheticClip(skeleton, { seed: 15, frameCount: 13, loop: false, name: 'land' }),
  hit: syntheticClip(skeleton, { seed: 16, frameCount: 10, amplitude: 1.1, loop: false, name: 'hit' }),
};
export const locomotion = createBlendSpace({ type: '1d', samples: [{ clip: clips.walk, x: 1 }, { clip: clips.run, x: 3 }] });

/** The machine, as JSON would give it (clips and the blend space by name). */
export const DESC: StateMachineDesc = {
  name: 'locomotion',
  parameters: [
    { name: 'speed', type: 'float', default: 0 },
    { name: 'jump', type: 'trigger' },
    { name: 'hit', type: 'trigger' },
  ],
  states: [
    { name: 'idle', clip: 'idle', enter: 'idle-in' },
    { name: 'move', blendSpace: 'locomotion', x: 'speed' },
    { name: 'jump', clip: 'jump', enter: 'takeoff', exit: 'airborne-end' },
    { name: 'land', clip: 'land', enter: 'touchdown' },
    { name: 'hit', clip: 'hit', enter: 'ouch' },
  ],
  transitions: [
    { from: '*', to: 'hit', when: [['hit']], duration: 0.05 },
    { from: 'idle', to: 'jump', when: [['jump']], duration: 0.1 },
    { from: 'move', to: 'jump', when: [['jump']], duration: 0.1 },
    { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.2 },
    { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.25, mode: 'spring' },
    { from: 'jump', to: 'land', exitTime: 0.9, duration: 0.1 },
    { from: 'land', to: 'move', exitTime: 0.8, when: [['speed', '>', 0.1]], duration: 0.15 },
    { from: 'land', to: 'idle', exitTime: 0.8, when: [['speed', '<=', 0.1]], duration: 0.15, mode: 'crossfade', curve: 'minjerk' },
    { from: 'hit', to: 'idle', exitTime: 1, duration: 0.2, mode: 'crossfade' },
  ],
  initial: 'idle',
};

export const machine = createStateMachine(DESC, { clips: Object.values(clips), blendSpaces: { locomotion } });

/** The script: at `time` (the first frame starting at or after it) set `speed`, or fire a trigger. */
export const SCRIPT: readonly { time: number; speed?: number; trigger?: 'jump' | 'hit' }[] = [
  { time: 0.513, speed: 2 },
  { time: 1.207, speed: 3 },
  { time: 1.617, trigger: 'jump' },
  { time: 3.009, speed: 1.5 },
  { time: 3.53, trigger: 'hit' },
  { time: 4.41, speed: 0 },
  { time: 5.203, trigger: 'jump' },
  { time: 5.38, trigger: 'hit' },
];
export const SECONDS = 6.5;

/** Per state of the hand controller: its clip, or null for the blend space. */
const STATE_CLIPS: Record<string, Clip | null> = { idle: clips.idle, move: null, jump: clips.jump, land: clips.land, hit: clips.hit };

/**
 * The same switches by hand: a controller that reads the script and the character's layers
 * (the state's phase) and calls `transition` / `setBlendSpace` / `stop`, as a game would
 * without a machine. Its rules are the machine's description, written out.
 */
export class HandController {
  state = 'idle';
  speed = 0;
  jump = false;
  hit = false;
  constructor(readonly world: AnimationWorld, readonly eid: number) {
    play(world, eid, clips.idle);
  }

  static spawn(world: AnimationWorld): HandController {
    return new HandController(world, spawnCharacter(world, skeleton));
  }

  /**
   * Steps the hand world by `dt` after {@link frame}: a switch it deferred (an exit time crossed
   * inside the step) is made at that instant, between two steps — as the machine makes it
   * inside its one step.
   */
  step(dt: number): void {
    const deferred = this.deferred;
    if (deferred === null) {
      step(this.world, dt);
      return;
    }
    this.deferred = null;
    step(this.world, this.lead);
    deferred();
    step(this.world, dt - this.lead);
  }

  private deferred: (() => void) | null = null;
  private lead = 0;

  /**
   * Applies the script's entries due at `time`, then the rules for the step of `dt` seconds
   * starting then; returns the state entered or null. An exit time the playing clip reaches
   * inside the step (its phase moving at its rate) defers the switch to that instant ({@link step}).
   */
  frame(_time: number, due: (typeof SCRIPT)[number][], dt = 0): string | null {
    for (const e of due) {
      if (e.speed !== undefined) this.speed = e.speed;
      if (e.trigger === 'jump') this.jump = true;
      if (e.trigger === 'hit') this.hit = true;
    }
    const { Layers } = this.world.components;
    const li = this.eid * 4;
    const length = Layers.clip[li]! >= 0 ? this.world.assets.clips[Layers.clip[li]!]!.duration : 0;
    const phase = length > 0 ? Math.min(1, Layers.time[li]! / length) : 0;
    // The phase at the step's end, and the seconds into the step at which `exit` is reached.
    const end = length > 0 ? phase + Layers.speed[li]! * dt / length : phase;
    this.lead = 0;
    const reached = (exit: number): boolean => phase >= exit || end >= exit;
    const leadTo = (exit: number): number => (phase >= exit ? 0 : (exit - phase) / (end - phase) * dt);
    const s = this.state;
    let to: string | null = null, duration = 0, mode: 'inertialize' | 'spring' | 'crossfade' = 'inertialize', curve: 'linear' | 'minjerk' = 'linear';
    if (this.hit && s !== 'hit') { to = 'hit'; duration = 0.05; this.hit = false; }
    else if (this.jump && (s === 'idle' || s === 'move')) { to = 'jump'; duration = 0.1; this.jump = false; }
    else if (s === 'idle' && this.speed > 0.1) { to = 'move'; duration = 0.2; }
    else if (s === 'move' && this.speed <= 0.1) { to = 'idle'; duration = 0.25; mode = 'spring'; }
    else if (s === 'jump' && reached(0.9)) { to = 'land'; duration = 0.1; this.lead = leadTo(0.9); }
    else if (s === 'land' && reached(0.8) && this.speed > 0.1) { to = 'move'; duration = 0.15; this.lead = leadTo(0.8); }
    else if (s === 'land' && reached(0.8)) { to = 'idle'; duration = 0.15; mode = 'crossfade'; curve = 'minjerk'; this.lead = leadTo(0.8); }
    else if (s === 'hit' && reached(1)) { to = 'idle'; duration = 0.2; mode = 'crossfade'; this.lead = leadTo(1); }
    if (to !== null && this.lead > 0) {
      const target = to, seconds = duration, how = mode, shape = curve;
      this.deferred = () => this.switchTo(target, seconds, how, shape);
      this.state = to;
      return to;
    }
    this.lead = 0;
    if (to !== null) this.switchTo(to, duration, mode, curve);
    else if (s === 'move' && this.appliedSpeed !== this.speed) {
      setBlendSpace(this.world, this.eid, locomotion, this.speed);
    }
    if (this.state === 'move') this.appliedSpeed = this.speed;
    return to;
  }

  /** The switch into `to`, by hand. */
  private switchTo(to: string, duration: number, mode: 'inertialize' | 'spring' | 'crossfade', curve: 'linear' | 'minjerk'): void {
    const { Layers } = this.world.components;
    const li = this.eid * 4;
    const clip = STATE_CLIPS[to];
    if (clip) {
      transition(this.world, this.eid, clip, { duration, mode, curve, weight: 1 });
      // The blend space's second layer, if it played (not a cross-fade's outgoing copy, which ends by itself).
      if (mode !== 'crossfade' && Layers.clip[li + 1]! >= 0 && (Layers.flags[li + 1]! & LAYER_CLEAR_AFTER_FADE) === 0) stop(this.world, this.eid, 1);
    } else {
      // Into the blend space: a transition captures the outgoing motion, then the space replaces the layers.
      transition(this.world, this.eid, locomotion.clips[0]!, { duration, mode, weight: 1 });
      setBlendSpace(this.world, this.eid, locomotion, this.speed);
    }
    this.state = to;
    if (to === 'move') this.appliedSpeed = this.speed;
  }

  appliedSpeed = NaN;

  pose(): Float32Array {
    return getLocalPose(this.world, this.eid);
  }
}
