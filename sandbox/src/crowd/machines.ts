/**
 * The crowd's state machines: what drives every wandering character's layers.
 *
 * - **Locomotion** (layers 0–1), every character with idle, walk and run clips: `idle` (the
 *   idle clip) ↔ `move` (a 1-D blend space of walk and run over the `speed` parameter, played
 *   at the `rate` parameter), switching at `speed` ≷ {@link START_FRACTION} × walking speed by
 *   quintic or spring inertialization (the "transitions" control). The Fox adds the docs'
 *   `sniff` state (examples/stateMachine.ts): Survey at twice its rate, on a trigger, back to
 *   `idle` at exit time 0.9 with a cross-fade.
 * - **Wave** (layer 2, additive, through an upper-body mask), on every
 *   {@link WAVE_EVERY}-th Robot: `rest` (the Wave clip held at its first frame: against that
 *   frame, no change) → `wave` (the clip played once) on the `wave` trigger, back to `rest` at
 *   exit time 0.85. Additive against its own first frame, the wave adds the raised, waving arm
 *   to whatever the legs do. The Fox has no clip to wave with (its "arms" are front legs).
 *
 * The game sets `speed` (m/s) and `rate` every frame (`setParameter`) and fires the triggers
 * now and then (`fireTrigger`); the machines decide when the layers switch.
 */
import {
  createAnimationWorld, createBlendSpace, createMask, createStateMachine, setBlendSpace, setTargetSpeed, spawnCharacter, type BlendSpace, type Mask, type StateMachine, type StateMachineDesc, type TransitionMode,
} from 'bitanim';
import type { CharacterAsset, Locomotion } from '../assets';

/** `idle` → `move` once `speed` exceeds this share of the walking speed; back below it. */
export const START_FRACTION = 0.3;
/** Every how many-th character of a kind with a wave clip runs the upper-body wave machine. */
export const WAVE_EVERY = 10;
/** The first layer of the upper-body machine (the locomotion machine owns 0–1). */
export const UPPER_LAYER = 2;

/** The machines of one crowd (one asset, one transition mode). */
export interface CrowdMachines {
  readonly locomotion: StateMachine;
  /** The trigger of the locomotion machine the game fires now and then, or null. */
  readonly locomotionTrigger: string | null;
  /** The upper-body machine, its mask and its trigger; null when the character has no clip for it. */
  readonly upper: { readonly machine: StateMachine; readonly mask: Mask; readonly trigger: string } | null;
  /** The rate at which `move` travels `speed` m/s (the blend at the point `speed`, phase-synced). */
  rateFor(speed: number): number;
}

type StateDesc = StateMachineDesc['states'][number];
type TransitionDesc = NonNullable<StateMachineDesc['transitions']>[number];
type ParameterDesc = NonNullable<StateMachineDesc['parameters']>[number];

/** The locomotion machine's description (clips and the blend space by name, as JSON could hold them). */
export function locomotionDesc(kind: CharacterAsset['kind'], loco: Locomotion, mode: Exclude<TransitionMode, 'crossfade'>): StateMachineDesc {
  const threshold = Number((START_FRACTION * loco.walkSpeed).toFixed(3));
  const parameters: ParameterDesc[] = [{ name: 'speed', type: 'float', default: 0 }, { name: 'rate', type: 'float', default: 1 }];
  const states: StateDesc[] = [{ name: 'idle', clip: 'idle' }, { name: 'move', blendSpace: 'walkRun', x: 'speed', speed: 'rate' }];
  const transitions: TransitionDesc[] = [
    { from: 'idle', to: 'move', when: [['speed', '>', threshold]], duration: 0.3, mode },
    { from: 'move', to: 'idle', when: [['speed', '<=', threshold]], duration: 0.4, mode },
  ];
  if (kind === 'fox') {
    // The docs' sniff (examples/stateMachine.ts): Survey at twice its rate, once.
    parameters.push({ name: 'sniff', type: 'trigger' });
    states.push({ name: 'sniff', clip: 'idle', loop: false, speed: 2 });
    transitions.unshift({ from: 'idle', to: 'sniff', when: [['sniff']], duration: 0.2 });
    transitions.push(
      { from: 'sniff', to: 'move', when: [['speed', '>', threshold]], duration: 0.3, mode },
      { from: 'sniff', to: 'idle', exitTime: 0.9, duration: 0.3, mode: 'crossfade', curve: 'minjerk' },
    );
  }
  return { name: `${kind} locomotion`, parameters, states, transitions, initial: 'idle' };
}

/** The upper-body wave machine's description (the clip by name). */
export const WAVE_DESC: StateMachineDesc = {
  name: 'wave',
  parameters: [{ name: 'wave', type: 'trigger' }],
  states: [
    { name: 'rest', clip: 'wave', speed: 0, loop: false },
    { name: 'wave', clip: 'wave', loop: false },
  ],
  transitions: [
    // Both states are the clip's first frame at the switch: nothing to blend.
    { from: 'rest', to: 'wave', when: [['wave']], duration: 0 },
    { from: 'wave', to: 'rest', exitTime: 0.85, duration: 0.4, mode: 'crossfade', curve: 'minjerk' },
  ],
  initial: 'rest',
};

/** The Robot's upper body as the wave sees it: the chest half-way, the arms and the neck whole. */
const ROBOT_UPPER_BODY = { Torso: 0.5, 'Shoulder.L': 1, 'Shoulder.R': 1, Neck: 1 } as const;

/**
 * The machines for the crowd of `asset` (it must have locomotion clips), the locomotion
 * transitions in `mode` (a machine cannot cross-fade into or out of a blend-space state).
 */
export function crowdMachines(asset: CharacterAsset, mode: Exclude<TransitionMode, 'crossfade'>): CrowdMachines {
  const loco = asset.locomotion!;
  const walkRun = createBlendSpace({ type: '1d', samples: [{ clip: loco.walk, x: loco.walkSpeed }, { clip: loco.run, x: loco.runSpeed }] });
  const locomotion = createStateMachine(locomotionDesc(asset.kind, loco, mode), { clips: { idle: loco.idle }, blendSpaces: { walkRun } });
  const wave = asset.kind === 'robot' ? asset.clips.get('Wave') : undefined;
  const upper = wave
    ? { machine: createStateMachine(WAVE_DESC, { clips: { wave } }), mask: createMask(asset.skeleton, ROBOT_UPPER_BODY), trigger: 'wave' }
    : null;
  // The rate that makes `move` travel v m/s: measured once per point with setTargetSpeed on a
  // scratch character (the blend's travel at rate 1 is not linear in x: the space scales strides).
  const table = measureRates(asset, walkRun, RATE_POINTS);
  const rateFor = (speed: number): number => {
    const v = Math.max(speed, START_FRACTION * loco.walkSpeed);
    const x = Math.min(Math.max(v, loco.walkSpeed), loco.runSpeed);
    const u = ((x - loco.walkSpeed) / (loco.runSpeed - loco.walkSpeed)) * (RATE_POINTS - 1);
    const k = Math.min(RATE_POINTS - 2, Math.floor(u));
    const perMetre = table[k]! + (table[k + 1]! - table[k]!) * (u - k); // rate per m/s at x
    return v * perMetre;
  };
  return { locomotion, locomotionTrigger: asset.kind === 'fox' ? 'sniff' : null, upper, rateFor };
}

/** Points of the rate table over [walk speed, run speed]. */
const RATE_POINTS = 17;

/** Rate per m/s (`setTargetSpeed`'s rate for speed x, over x) at `points` speeds x evenly over the space's range. */
function measureRates(asset: CharacterAsset, space: BlendSpace, points: number): Float64Array {
  const loco = asset.locomotion!;
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: asset.skeleton.jointCount });
  const eid = spawnCharacter(world, asset.skeleton, { rootMotion: true });
  const { Layers } = world.components;
  const table = new Float64Array(points);
  for (let k = 0; k < points; k++) {
    const x = loco.walkSpeed + ((loco.runSpeed - loco.walkSpeed) * k) / (points - 1);
    setBlendSpace(world, eid, space, x);
    setTargetSpeed(world, eid, x);
    let rate = 1;
    for (let l = 0; l < world.maxLayers; l++) {
      const li = eid * world.maxLayers + l;
      if (Layers.clip[li]! >= 0 && Layers.weight[li]! > 0) rate = Layers.speed[li]!;
    }
    table[k] = rate / x;
  }
  return table;
}
