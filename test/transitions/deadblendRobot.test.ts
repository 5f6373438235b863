/**
 * Dead blending on real clips (the Robot, RobotExpressive.glb): re-triggered every 3 frames for
 * 10 s it stays within the clips' own joint angular velocities, and one switch measured in the
 * four modes (cross-fade, quintic, spring, dead blend) gives the quality columns of the table
 * in docs/transitions.md: the largest joint angular acceleration and the time to 95 %
 * convergence to the new clip.
 *
 * Angular velocity of a joint between two frames: the angle of q_b · q_a⁻¹ over dt (local
 * rotations). Angular acceleration: the change of the angular velocity vector between two
 * consecutive frame pairs over dt. Convergence: the largest joint angle between the output and
 * the new clip played alone (a reference character), relative to its value at the switch; the
 * time to 95 % is when it last exceeds 5 % of that.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnimationWorld, getLocalPose, loadGltf, play, spawnCharacter, step, transition, type Clip, type Skeleton, type TransitionOptions } from '../../src/index.js';
import { POSE_STRIDE } from '../../src/kernels.js';
import { ASSETS_URL } from '../support/assets.js';
import { CHANNELS } from './helpers.js';
import { B_BEHIND, B_STILL, switchScene, T1 } from './scene.js';

let skeleton: Skeleton;
let clips: Clip[];

beforeAll(async () => {
  const loaded = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS_URL))));
  skeleton = loaded.skeletons[0]!;
  const named = (name: string) => loaded.clips.find((c) => c.name === name)!;
  clips = [named('Walking'), named('Running'), named('Idle'), named('Dance')];
});

/** Rotation vector of q_b · q_a⁻¹ for joint j of two poses, into out[0..2]. */
function deltaRotation(a: ArrayLike<number>, b: ArrayLike<number>, j: number, out: Float64Array): void {
  const o = j * POSE_STRIDE + 3;
  const ax = -a[o]!, ay = -a[o + 1]!, az = -a[o + 2]!, aw = a[o + 3]!;
  const bx = b[o]!, by = b[o + 1]!, bz = b[o + 2]!, bw = b[o + 3]!;
  let x = bw * ax + bx * aw + by * az - bz * ay;
  let y = bw * ay - bx * az + by * aw + bz * ax;
  let z = bw * az + bx * ay - by * ax + bz * aw;
  let w = bw * aw - bx * ax - by * ay - bz * az;
  if (w < 0) { x = -x; y = -y; z = -z; w = -w; }
  const s = Math.hypot(x, y, z);
  const k = s < 1e-12 ? 2 : (2 * Math.atan2(s, w)) / s;
  out[0] = x * k; out[1] = y * k; out[2] = z * k;
}

/** Largest angle (rad) between joint rotations of two poses. */
function poseDistance(a: ArrayLike<number>, b: ArrayLike<number>, joints: number): number {
  const d = new Float64Array(3);
  let max = 0;
  for (let j = 0; j < joints; j++) {
    deltaRotation(a, b, j, d);
    max = Math.max(max, Math.hypot(d[0]!, d[1]!, d[2]!));
  }
  return max;
}

/** Largest angular velocity (rad/s) and acceleration (rad/s²) of any joint over consecutive poses `dt` apart. */
function motionPeaks(poses: readonly Float32Array[], joints: number, dt: number): { velocity: number; acceleration: number } {
  const d = new Float64Array(3), e = new Float64Array(3);
  let velocity = 0, acceleration = 0;
  for (let f = 1; f < poses.length; f++) {
    for (let j = 0; j < joints; j++) {
      deltaRotation(poses[f - 1]!, poses[f]!, j, d);
      velocity = Math.max(velocity, Math.hypot(d[0]!, d[1]!, d[2]!) / dt);
      if (f >= 2) {
        deltaRotation(poses[f - 2]!, poses[f - 1]!, j, e);
        acceleration = Math.max(acceleration, Math.hypot(d[0]! - e[0]!, d[1]! - e[1]!, d[2]! - e[2]!) / (dt * dt));
      }
    }
  }
  return { velocity, acceleration };
}

/** The clips' own peaks, each played alone from 0 for its length (looping ones twice over). */
function clipPeaks(list: readonly Clip[], dt: number): { velocity: number; acceleration: number } {
  let velocity = 0, acceleration = 0;
  for (const clip of list) {
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip);
    const poses: Float32Array[] = [];
    for (let f = 0; f < Math.ceil((2 * clip.duration) / dt); f++) {
      step(world, dt);
      poses.push(getLocalPose(world, eid).slice());
    }
    const peaks = motionPeaks(poses, skeleton.jointCount, dt);
    velocity = Math.max(velocity, peaks.velocity);
    acceleration = Math.max(acceleration, peaks.acceleration);
  }
  return { velocity, acceleration };
}

const MODES: readonly { label: string; options: TransitionOptions }[] = [
  { label: 'cross-fade (linear)', options: { duration: 0.3, mode: 'crossfade' } },
  { label: 'cross-fade (smoothstep)', options: { duration: 0.3, mode: 'crossfade', curve: 'smoothstep' } },
  { label: 'quintic (inertialize)', options: { duration: 0.3, mode: 'inertialize' } },
  { label: 'spring', options: { duration: 0.3, mode: 'spring' } },
  { label: 'dead blend', options: { duration: 0.3, mode: 'deadblend' } },
];

describe('dead blending on the Robot', () => {
  it('re-triggered every 3 frames for 10 s: no joint turns faster than 1.1× the clips\' own fastest', () => {
    const dt = 1 / 60;
    const own = clipPeaks(clips, dt);
    const rows: string[] = [];
    let dead = Infinity;
    for (const { label, options } of MODES) {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, maxLayers: 16 });
      const eid = spawnCharacter(world, skeleton);
      play(world, eid, clips[0]!);
      for (let f = 0; f < 30; f++) step(world, dt);
      const poses: Float32Array[] = [];
      for (let f = 0; f < 600; f++) {
        if (f % 3 === 0) transition(world, eid, clips[(f / 3 + 1) % clips.length]!, options);
        step(world, dt);
        poses.push(getLocalPose(world, eid).slice());
      }
      const peaks = motionPeaks(poses, skeleton.jointCount, dt);
      rows.push(`| ${label} | ${peaks.velocity.toFixed(2)} | ${(peaks.velocity / own.velocity).toFixed(2)}× |`);
      if (options.mode === 'deadblend') dead = peaks.velocity;
    }
    console.log(`[deadblend] clips' own fastest joint: ${own.velocity.toFixed(2)} rad/s (60 Hz)\n| mode, re-triggered every 3 frames | fastest joint, rad/s | × clips' own |\n| --- | --- | --- |\n${rows.join('\n')}`);
    expect(dead).toBeLessThanOrEqual(1.1 * own.velocity);
  });

  it('one switch in each mode on the two-joint rig (clips without acceleration of their own, 240 Hz): peak acceleration and time to 95 % convergence', () => {
    const dt = 1 / 240;
    const rows: string[] = [];
    const measured: Record<string, { acceleration: number; converged: number }> = {};
    for (const { label, options } of MODES) {
      const cells: string[] = [];
      let worst = 0, slowest = 0;
      for (const motion of [B_STILL, B_BEHIND]) {
        for (const channel of CHANNELS) {
          const scene = switchScene({ ...options, duration: T1 }, motion, dt);
          scene.rec.run(Math.round(0.8 / dt), dt);
          const f = scene.rec.frames;
          const value = (i: number, who = 0) => channel.read(f[i]!.poses[who]!);
          let acceleration = 0;
          for (let i = scene.k - 1; i + 2 < f.length; i++) {
            const a = (channel.diff(value(i + 1), value(i + 2)) - channel.diff(value(i), value(i + 1))) / (dt * dt);
            acceleration = Math.max(acceleration, Math.abs(a));
          }
          const start = Math.abs(channel.diff(value(scene.k), channel.at(motion, 0)));
          let converged = 0;
          for (let i = scene.k + 1; i < f.length; i++) {
            if (Math.abs(channel.diff(value(i, 1), value(i))) > 0.05 * start) converged = f[i]!.time - f[scene.k]!.time;
          }
          cells.push(`${acceleration.toFixed(1)} / ${(converged * 1000).toFixed(0)} ms`);
          worst = Math.max(worst, acceleration);
          slowest = Math.max(slowest, converged);
        }
      }
      measured[label] = { acceleration: worst, converged: slowest };
      rows.push(`| ${label} | ${cells.join(' | ')} |`);
    }
    console.log(`[deadblend] A → B at 1 s over ${T1} s, 240 Hz: peak acceleration (rad/s², m/s²) / time to 95 % convergence\n| mode | toward, rotation | toward, translation | away, rotation | away, translation |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}`);
    // Every mode but the spring ends on the new clip within its duration.
    expect(measured['dead blend']!.converged).toBeLessThan(T1);
    expect(measured['quintic (inertialize)']!.converged).toBeLessThan(T1);
    // Dead blending starts without a velocity jump: far less acceleration than a linear cross-fade.
    expect(measured['dead blend']!.acceleration).toBeLessThan(measured['cross-fade (linear)']!.acceleration / 5);
  });
});
