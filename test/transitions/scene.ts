/**
 * The switch scene shared by the transition acceptance tests: clip A moves at constant
 * velocity (root 1 m/s along X, arm 2 rad/s about Z); at A's clip time 1.0 s the character
 * is switched to a clip B; a second character starts playing B alone at the same instant, so
 * it shows what "equals B" means frame by frame.
 *
 * Geometry (A at the switch: x = 0.5 m, θ = 0.5 rad): every B below lies AHEAD of A's motion
 * (B's pose minus A's is positive while A's velocity minus B's is positive), so the source
 * motion heads toward the target. The quintic keeps such a starting velocity; one heading
 * away it clamps to 0 (seeds/inertialization.txt, rule 4 of src/math/inertialize.ts) — that
 * case has a test of its own (`B_BEHIND`).
 */
import {
  createAnimationWorld,
  play,
  spawnCharacter,
  transition,
  type AnimationWorld,
  type Clip,
  type Skeleton,
  type TransitionOptions,
} from '../../src/index.js';
import { FINE_DT, FRAME_DT, motionClip, Recorder, rig, type Motion } from './helpers.js';

/** The source clip: x = −0.5 + t, θ = −1.5 + 2t. */
export const A: Motion = { x: -0.5, vx: 1, angle: -1.5, w: 2 };
/** A's clip time at the switch. */
export const SWITCH = 1;
/** Requested transition duration t1. */
export const T1 = 0.5;
/** Still target ahead of A: x0 = −0.5 m, −0.6 rad; v0 = +1 m/s, +2 rad/s. */
export const B_STILL: Motion = { x: 1, vx: 0, angle: 1.1, w: 0 };
/** Moving target ahead of A: x0 = −0.5 m, −0.6 rad; v0 = 0.75 m/s, 1.5 rad/s. */
export const B_MOVING: Motion = { x: 1, vx: 0.25, angle: 1.1, w: 0.5 };
/** Still target behind A: x0 = +0.5 m, +0.6 rad with v0 = +1 m/s, +2 rad/s (heading away). */
export const B_BEHIND: Motion = { x: 0, vx: 0, angle: -0.1, w: 0 };
/**
 * The interrupting clip, ahead of the output at B_MOVING's t1/2: there the output is about
 * x = 0.980 m moving at 1.36 m/s and θ = 1.136 rad turning at 1.72 rad/s, so x0 ≈ −0.82 m,
 * −0.86 rad with v0 ≈ 1.86 m/s, 2.72 rad/s (blend-time clamps 2.2 s and 1.6 s, beyond t1).
 */
export const C: Motion = { x: 1.8, vx: -0.5, angle: 2, w: -1 };

export interface Scene {
  readonly world: AnimationWorld;
  readonly skeleton: Skeleton;
  /** The transitioning character (recorder index 0). */
  readonly eid: number;
  /** Plays the target alone from the switch on (recorder index 1). */
  readonly ref: number;
  /** Spare character for a third clip (recorder index 2), in its rest pose until used. */
  readonly ref2: number;
  readonly a: Clip;
  readonly b: Clip;
  readonly rec: Recorder;
  /** Index of the last frame before the switch. */
  readonly k: number;
  /** World clock at the switch (the target's clip time is `frame.time − switchTime`). */
  readonly switchTime: number;
}

/**
 * Plays A for 0.95 s of 60 Hz frames and 0.05 s of `fineDt` steps (so the two poses before the
 * switch are a small step apart), then switches to `b` with `options` and starts `ref` on it.
 * With `fineDt = FRAME_DT` every frame is a 60 Hz frame.
 */
export function switchScene(options: TransitionOptions, b: Motion, fineDt = FINE_DT): Scene {
  const skeleton = rig();
  const a = motionClip(skeleton, A, 'A');
  const bClip = motionClip(skeleton, b, 'B');
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
  const eid = spawnCharacter(world, skeleton);
  const ref = spawnCharacter(world, skeleton);
  const ref2 = spawnCharacter(world, skeleton);
  play(world, eid, a);
  const rec = new Recorder(world, [eid, ref, ref2]);
  rec.run(57, FRAME_DT).run(Math.round((SWITCH - 57 * FRAME_DT) / fineDt), fineDt);
  const k = rec.last;
  const switchTime = world.time;
  transition(world, eid, bClip, options);
  play(world, ref, bClip);
  return { world, skeleton, eid, ref, ref2, a, b: bClip, rec, k, switchTime };
}
