/** A synthetic humanoid, the frame pipeline with aimSystem, and measurements on the skinned model matrices. */
import { createSkeleton, type AnimationWorld, type Skeleton } from '../../src/index.js';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../../src/components/Follower.js';
import { MATRIX_STRIDE } from '../../src/math/layout.js';
import { aimSystem } from '../../src/systems/aimSystem.js';
import { blendSystem } from '../../src/systems/blendSystem.js';
import { followSystem } from '../../src/systems/followSystem.js';
import { rootMotionSystem } from '../../src/systems/rootMotionSystem.js';
import { sampleSystem } from '../../src/systems/sampleSystem.js';
import { skinSystem } from '../../src/systems/skinSystem.js';
import { axisAngle } from '../fixtures/synthetic.js';

export type V3 = readonly [number, number, number];

export const deg = Math.PI / 180;
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const len = (a: V3): number => Math.sqrt(dot(a, a));
export const unit = (a: V3): V3 => scale(a, 1 / len(a));
/** The angle between two directions, atan2(|a × b|, a·b): accurate near 0 and π. */
export const angle = (a: V3, b: V3): number => Math.atan2(len(cross(a, b)), dot(a, b));

/** Joints of {@link humanoid}. */
export const J = {
  hips: 0, spine: 1, chest: 2, neck: 3, head: 4,
  shoulder: 5, upperArm: 6, foreArm: 7, hand: 8,
  leftShoulder: 9, leftUpperArm: 10, leftForeArm: 11, leftHand: 12,
} as const;

/**
 * hips → spine → chest → neck → head; chest → shoulder → upperArm → foreArm → hand (right arm,
 * along −X: the character faces +Z, its left is +X), and the same mirrored on the left.
 * Several joints have rest rotations, so local frames differ from the model frame: the head's
 * rest rotation is 90° about Y (its local forward is not +Z), the upper arm's 30° about Z with
 * the child offsets turned back so the arm still hangs out straight at rest.
 * Upper arm 0.3 m, forearm 0.25 m: the hand reaches 0.55 m from the upper-arm joint.
 */
export function humanoid(): Skeleton {
  const pose = (t: V3, q: readonly number[] = [0, 0, 0, 1]): number[] => [...t, ...q, 1, 1, 1];
  const headRest = axisAngle(0, 1, 0, Math.PI / 2);
  const spineRest = axisAngle(1, 0, 0, 8 * deg);
  const armRest = axisAngle(0, 0, 1, 30 * deg);
  // Child offsets of the turned upper arm: −X in model space is (−cos30, +sin30, 0)·l in its frame.
  const along = (l: number): V3 => [-l * Math.cos(30 * deg), l * Math.sin(30 * deg), 0];
  return createSkeleton({
    names: ['hips', 'spine', 'chest', 'neck', 'head', 'shoulder', 'upperArm', 'foreArm', 'hand', 'leftShoulder', 'leftUpperArm', 'leftForeArm', 'leftHand'],
    parents: [-1, 0, 1, 2, 3, 2, 5, 6, 7, 2, 9, 10, 11],
    rest: [
      ...pose([0, 1, 0]),
      ...pose([0, 0.12, 0], spineRest),
      ...pose([0, 0.25, 0], axisAngle(1, 0, 0, -8 * deg)),
      ...pose([0, 0.2, 0]),
      ...pose([0, 0.12, 0.02], headRest),
      ...pose([-0.05, 0.15, 0]),
      ...pose([-0.12, 0, 0], armRest),
      ...pose(along(0.3)),
      ...pose(along(0.25)),
      ...pose([0.05, 0.15, 0]),
      ...pose([0.12, 0, 0]),
      ...pose([0.3, 0, 0]),
      ...pose([0.25, 0, 0]),
    ],
  });
}

/** One frame of the pipeline DESIGN §4 gives, with aimSystem after followSystem. */
export function frame(world: AnimationWorld, dt: number): void {
  sampleSystem(world, dt);
  blendSystem(world, dt);
  rootMotionSystem(world, dt);
  followSystem(world, dt);
  aimSystem(world, dt);
  skinSystem(world, dt);
}

/** The same frame without aimSystem (what the animated pose alone gives). */
export function frameWithoutAim(world: AnimationWorld, dt: number): void {
  sampleSystem(world, dt);
  blendSystem(world, dt);
  rootMotionSystem(world, dt);
  followSystem(world, dt);
  skinSystem(world, dt);
}

/** A joint's model matrix (12 floats) after skinning. */
export function modelMatrix(world: AnimationWorld, eid: number, joint: number): Float32Array {
  const o = (eid * world.maxJoints + joint) * MATRIX_STRIDE;
  return world.components.ModelPose.data.subarray(o, o + MATRIX_STRIDE);
}

/** A joint's model-space position after skinning. */
export function jointPosition(world: AnimationWorld, eid: number, joint: number): V3 {
  const m = modelMatrix(world, eid, joint);
  return [m[9]!, m[10]!, m[11]!];
}

/** The model matrix's linear part times `v`, normalized: a joint-space direction in model space. */
export function jointDirection(world: AnimationWorld, eid: number, joint: number, v: V3): V3 {
  const m = modelMatrix(world, eid, joint);
  return unit([
    m[0]! * v[0] + m[3]! * v[1] + m[6]! * v[2],
    m[1]! * v[0] + m[4]! * v[1] + m[7]! * v[2],
    m[2]! * v[0] + m[5]! * v[1] + m[8]! * v[2],
  ]);
}

/** Where `eid`'s follower `slot` (default 0) is, world space, read straight from the component. */
export function followerPosition(world: AnimationWorld, eid: number, slot = 0): V3 {
  const o = (eid * FOLLOW_SLOTS + slot) * FOLLOW_STATE_STRIDE;
  const s = world.components.Follower.state;
  return [s[o]!, s[o + 1]!, s[o + 2]!];
}

/** World → model space of `eid` (the inverse of p_w = R(yaw)·p_m + pos). */
export function toModel(world: AnimationWorld, eid: number, p: V3): V3 {
  const R = world.components.RootMotion;
  const dx = p[0] - R.x[eid]!, dy = p[1] - R.y[eid]!, dz = p[2] - R.z[eid]!;
  const c = Math.cos(R.yaw[eid]!), s = Math.sin(R.yaw[eid]!);
  return [dx * c - dz * s, dy, dx * s + dz * c];
}

/** Model → world space of `eid`: p_w = R(yaw)·p_m + pos, x' = x cos + z sin, z' = −x sin + z cos. */
export function toWorld(world: AnimationWorld, eid: number, p: V3): V3 {
  const R = world.components.RootMotion;
  const c = Math.cos(R.yaw[eid]!), s = Math.sin(R.yaw[eid]!);
  return [p[0] * c + p[2] * s + R.x[eid]!, p[1] + R.y[eid]!, -p[0] * s + p[2] * c + R.z[eid]!];
}

/** Yaw (about +Y from +Z, positive toward +X) and pitch (above the horizontal plane) of a model-space direction. */
export function yawPitch(v: V3): [number, number] {
  return [Math.atan2(v[0], v[2]), Math.atan2(v[1], Math.hypot(v[0], v[2]))];
}
