/**
 * Shared builders of the transition acceptance tests: a two-joint rig whose clips move at
 * constant velocity (so every velocity and offset below is known by hand), a recorder of
 * output poses, and the velocity-jump measurement.
 */
import { expect } from 'vitest';
import { createClip, createSkeleton, getLocalPose, step, type AnimationWorld, type Clip, type Skeleton } from '../../src/index.js';
import { POSE_STRIDE } from '../../src/kernels.js';

/** Clip sampling rate (frames per second) and length (seconds) of every motion clip. */
export const CLIP_FPS = 120;
export const CLIP_SECONDS = 4;
/** The "small step" around a switch: 1 ms. */
export const FINE_DT = 1 / 1000;
/** A game frame. */
export const FRAME_DT = 1 / 60;

/**
 * root → arm. The root translates along X (the translation channel); the arm sits 1 m along
 * X and turns about Z (the rotation channel). Nothing else moves.
 */
export function rig(): Skeleton {
  return createSkeleton({
    names: ['root', 'arm'],
    parents: [-1, 0],
    rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/** A clip's motion: root x(t) = x + vx·t (m, m/s), arm angle about Z θ(t) = angle + w·t (rad, rad/s). */
export interface Motion {
  readonly x: number;
  readonly vx: number;
  readonly angle: number;
  readonly w: number;
}

/** A clamped (non-looping) clip of `motion`, `CLIP_SECONDS` long at `CLIP_FPS`. */
export function motionClip(skeleton: Skeleton, motion: Motion, name: string): Clip {
  const frameCount = CLIP_SECONDS * CLIP_FPS + 1;
  const frames: number[] = [];
  for (let f = 0; f < frameCount; f++) {
    const t = f / CLIP_FPS;
    const half = (motion.angle + motion.w * t) / 2;
    frames.push(motion.x + motion.vx * t, 0, 0, 0, 0, 0, 1, 1, 1, 1);
    frames.push(1, 0, 0, 0, 0, Math.sin(half), Math.cos(half), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: CLIP_FPS, frames, loop: false, name });
}

/** `a` wrapped into (−π, π]. */
export function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/** One scalar channel of the rig's pose, read from a pose and predicted from a motion. */
export interface Channel {
  readonly name: 'rotation' | 'translation';
  readonly unit: string;
  /** The channel's value in a `jointCount × 10` pose. */
  read(pose: ArrayLike<number>): number;
  /** The channel's value in `motion` at clip time `t`. */
  at(motion: Motion, t: number): number;
  /** The channel's velocity in `motion`. */
  velocity(motion: Motion): number;
  /** b − a (for angles, the short way round). */
  diff(a: number, b: number): number;
}

export const ROTATION: Channel = {
  name: 'rotation',
  unit: 'rad/s',
  // The arm's rotation is about Z only: q = (0, 0, sin θ/2, cos θ/2).
  read: (pose) => 2 * Math.atan2(pose[POSE_STRIDE + 5]!, pose[POSE_STRIDE + 6]!),
  at: (m, t) => m.angle + m.w * t,
  velocity: (m) => m.w,
  diff: (a, b) => wrapAngle(b - a),
};

export const TRANSLATION: Channel = {
  name: 'translation',
  unit: 'm/s',
  read: (pose) => pose[0]!,
  at: (m, t) => m.x + m.vx * t,
  velocity: (m) => m.vx,
  diff: (a, b) => b - a,
};

export const CHANNELS = [ROTATION, TRANSLATION] as const;

/** One recorded frame: the clock after the step, its dt, and a copy of each watched pose. */
export interface Frame {
  readonly time: number;
  readonly dt: number;
  readonly poses: Float32Array[];
}

/** Steps a world and records the local poses of the watched characters after every step. */
export class Recorder {
  readonly frames: Frame[] = [];
  constructor(
    readonly world: AnimationWorld,
    readonly eids: readonly number[],
  ) {}

  /** Runs `count` steps of `dt` seconds. */
  run(count: number, dt: number): this {
    for (let n = 0; n < count; n++) {
      step(this.world, dt);
      this.frames.push({ time: this.world.time, dt, poses: this.eids.map((eid) => getLocalPose(this.world, eid).slice()) });
    }
    return this;
  }

  /** Index of the newest frame (the one an event is about to follow). */
  get last(): number {
    return this.frames.length - 1;
  }

  /**
   * The output velocity of `channel` of watched character `who` just before and just after
   * an event that happened after frame `k`: one-frame differences over frames k−1 → k and
   * k → k+1 (both must be small steps).
   */
  velocityAround(channel: Channel, k: number, who = 0): VelocityJump {
    const f = this.frames;
    const before = channel.diff(channel.read(f[k - 1]!.poses[who]!), channel.read(f[k]!.poses[who]!)) / f[k]!.dt;
    const after = channel.diff(channel.read(f[k]!.poses[who]!), channel.read(f[k + 1]!.poses[who]!)) / f[k + 1]!.dt;
    return { before, after, jump: Math.abs(after - before) / Math.abs(before) };
  }
}

/** Output velocity just before and just after an event, and |after − before| / |before|. */
export interface VelocityJump {
  readonly before: number;
  readonly after: number;
  readonly jump: number;
}

/** Prints a measured velocity jump so it can be quoted. */
export function report(label: string, channel: Channel, v: VelocityJump): void {
  console.log(
    `[transitions] ${label} (${channel.name}): before ${v.before.toFixed(5)} ${channel.unit}, ` +
      `after ${v.after.toFixed(5)} ${channel.unit}, jump ${(100 * v.jump).toFixed(3)} %`,
  );
}

/** Expects two `jointCount × 10` poses equal within `tolerance` per float (quaternions up to sign). */
export function expectPoseClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, label = ''): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let j = 0; j < actual.length; j += POSE_STRIDE) {
    let dot = 0;
    for (let c = 3; c < 7; c++) dot += actual[j + c]! * expected[j + c]!;
    for (let c = 0; c < POSE_STRIDE; c++) {
      const sign = c >= 3 && c < 7 && dot < 0 ? -1 : 1;
      worst = Math.max(worst, Math.abs(sign * actual[j + c]! - expected[j + c]!));
    }
  }
  expect(worst, `largest difference ${label}`).toBeLessThan(tolerance);
}

/** Every element finite? */
export function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}
