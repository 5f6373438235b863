/**
 * Transitions independent of the frame rate (issue 15, item 5): the same switch on the Robot
 * (RobotExpressive.glb, Walking → Running) stepped at 30, 60, 120 and 240 Hz gives the same
 * local pose at the common times (every 1/30 s) over the transition, within 1e-3 in every
 * quaternion component — for quintic and spring inertialization and for cross-fades, from a
 * single clip and from a blend of layers (masked, additive, a cross-fade in progress, an
 * earlier inertialization still decaying).
 *
 * Why it holds: the switch is anchored at the last output before it (the same instant at every
 * rate here), the offset there is that output minus the target, and both velocities — the
 * outgoing output's and the target's — are the clips' own derivatives measured over a fixed
 * interval (`SOURCE_INTERVAL`), not the difference of the last two frames, whose spacing is
 * the frame. Everything after the switch is a closed form of the time since it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createMask,
  getLocalPose,
  loadGltf,
  play,
  spawnCharacter,
  step,
  transition,
  type AnimationWorld,
  type Clip,
  type Skeleton,
  type TransitionOptions,
} from '../../src/index.js';
import { ASSETS_URL } from '../support/assets.js';
import { POSE_STRIDE } from '../../src/kernels.js';

const ASSETS = ASSETS_URL;
const RATES = [30, 60, 120, 240] as const;
/** World time of the switch: a whole number of frames at every rate. */
const SWITCH = 1;
/** Seconds recorded after the switch. */
const AFTER = 0.7;

let skeleton: Skeleton;
let walking: Clip, running: Clip, idle: Clip, wave: Clip;

beforeAll(async () => {
  const { skeletons, clips } = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS))));
  skeleton = skeletons[0]!;
  const named = (name: string) => clips.find((c) => c.name === name)!;
  walking = named('Walking');
  running = named('Running');
  idle = named('Idle');
  wave = named('Wave');
});

/** A scene: what plays before the switch, and the switches at given world times. */
interface Scene {
  readonly label: string;
  setup(world: AnimationWorld, eid: number): void;
  /** World time → what to do then (times are multiples of 1/30 s). */
  readonly events: readonly { at: number; run: (world: AnimationWorld, eid: number) => void }[];
}

/** Local poses every 1/30 s from the switch to SWITCH + AFTER, stepping at `hz`. */
function record(scene: Scene, hz: number): Float32Array[] {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton);
  scene.setup(world, eid);
  const out: Float32Array[] = [];
  const frames = Math.round((SWITCH + AFTER) * hz);
  const every = hz / 30;
  for (let n = 1; n <= frames; n++) {
    step(world, 1 / hz);
    for (const event of scene.events) if (Math.round(event.at * hz) === n) event.run(world, eid);
    if (n >= SWITCH * hz && n % every === 0) out.push(getLocalPose(world, eid).slice());
  }
  return out;
}

/** Largest difference of any quaternion component between two recordings (up to sign). */
function worstQuaternion(a: Float32Array[], b: Float32Array[]): number {
  let worst = 0;
  for (let f = 0; f < a.length; f++) {
    const p = a[f]!, q = b[f]!;
    for (let j = 0; j < p.length; j += POSE_STRIDE) {
      let dot = 0;
      for (let c = 3; c < 7; c++) dot += p[j + c]! * q[j + c]!;
      const sign = dot < 0 ? -1 : 1;
      for (let c = 3; c < 7; c++) worst = Math.max(worst, Math.abs(p[j + c]! - sign * q[j + c]!));
    }
  }
  return worst;
}

const MODES: { label: string; options: TransitionOptions }[] = [
  { label: 'quintic inertialization', options: { duration: 0.4 } },
  { label: 'spring inertialization', options: { duration: 0.4, mode: 'spring' } },
  { label: 'linear cross-fade', options: { duration: 0.4, mode: 'crossfade' } },
];

const single = (options: TransitionOptions): Scene => ({
  label: 'Walking → Running',
  setup: (world, eid) => play(world, eid, walking, { time: 0.3 }),
  events: [{ at: SWITCH, run: (world, eid) => transition(world, eid, running, options) }],
});

/**
 * Walking under a masked Wave layer and an additive Idle, with a cross-fade from Walking to
 * Idle in progress on layer 0 and then an earlier inertialization (Idle → Walking) still
 * decaying when layer 0 switches to Running.
 */
const layered = (options: TransitionOptions): Scene => ({
  label: 'a masked layer, an additive layer, a cross-fade in progress and an earlier inertialization',
  setup: (world, eid) => {
    play(world, eid, walking, { time: 0.3 });
    play(world, eid, wave, { layer: 1, weight: 0.6, mask: createMask(skeleton, { 'UpperArm.R': 1, 'LowerArm.R': 1 }) });
    play(world, eid, idle, { layer: 2, weight: 0.5, additive: true });
  },
  events: [
    { at: 0.5, run: (world, eid) => transition(world, eid, idle, { duration: 0.3, mode: 'crossfade', curve: 'minjerk' }) },
    { at: 0.8, run: (world, eid) => transition(world, eid, walking, { duration: 0.5 }) },
    { at: SWITCH, run: (world, eid) => transition(world, eid, running, options) },
  ],
});

describe.each(MODES)('$label on the Robot at 30, 60, 120 and 240 Hz', ({ label, options }) => {
  it.each([single, layered])('the same pose at every common time (< 1e-3 per quaternion component): %#', (make) => {
    const scene = make(options);
    const recordings = RATES.map((hz) => record(scene, hz));
    let worst = 0;
    for (let i = 0; i < recordings.length; i++) for (let k = i + 1; k < recordings.length; k++) worst = Math.max(worst, worstQuaternion(recordings[i]!, recordings[k]!));
    console.log(`[frame rate] ${label}, ${scene.label}: ${worst.toExponential(2)} largest quaternion-component difference between 30, 60, 120, 240 Hz`);
    expect(worst).toBeLessThan(1e-3);
  });
});
