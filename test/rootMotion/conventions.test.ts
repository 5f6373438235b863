/**
 * Where a capture keeps its travel (the root-motion guide's "Where the travel lives"): variants
 * of the CMU 131_01 walk (start, walk, stop; parsed at the CMU scale 0.056444) that carry the
 * same physical motion in different joints. Each variant is checked to be the same motion
 * (every joint's model position equals the original's on every frame), then played with root
 * motion through the API: the hips stay within 5 cm of the root transform horizontally for the
 * whole clip, the root transform travels what the original capture's hips travel (within
 * 1 mm), and the body is drawn in the world where the original is (not moved twice).
 *
 * Variants:
 * - a new root joint above the hips carries the horizontal travel; the hips' translation
 *   becomes local (their height only): the BVH text edited, MotionBuilder's `joint_Root`;
 * - the travel split between that root joint (60 % of it) and the hips (the rest);
 * - a Z-up root joint (rest rotation −90° about X) above the hips carries the travel;
 * - a root joint carries the travel and the heading (its rotation about +Y), played with
 *   `rootYaw` against the original with `rootYaw`, alone or under a static Z-up armature
 *   scaled 0.01 (an FBX → glTF export's bones in centimetres);
 * - the legs hang from a root joint carrying 60 % of the travel and the heading, the hips (the
 *   trunk) the rest (RobotExpressive hangs its legs from `Body`, above its `Hips`): the body
 *   must keep its shape, so the travel comes out as one rigid move of the whole chain;
 * - the hips' rest OFFSET 4 m from the origin horizontally, the position channels replacing it
 *   (the motion unchanged) or added to it (the whole capture 4 m away).
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createClip,
  createSkeleton,
  getModelMatrices,
  getRootTransform,
  parseBvh,
  play,
  spawnCharacter,
  step,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { computeModelPose, getRootTrack } from '../../src/kernels.js';
import { axisAngle } from '../fixtures/synthetic.js';
import { smallestAllocation } from '../support/allocation.js';
import { readAssetText } from '../support/assets.js';
import { qmul, type Quat } from '../fixtures/quaternions.js';

const SCALE = 0.056444;
const TEXT = readAssetText('cmu_131_01_start_walk_stop.bvh');
const ORIGINAL = parseBvh(TEXT, { scale: SCALE, name: 'original' });
const J = ORIGINAL.skeleton.jointCount;
const DT = 1 / 60;



/** v rotated by the unit quaternion q. */
function rotate(q: Quat, v: readonly number[]): number[] {
  const p = qmul(qmul(q, [v[0]!, v[1]!, v[2]!, 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [p[0], p[1], p[2]];
}

/**
 * The BVH text with a ROOT `joint_Root` (3 position channels) wrapped around the Hips, which
 * keep their 6 channels: on every data line the root gets `share` of the hips' X and Z
 * position and the hips keep the rest (their Y unchanged). Numbers as the file prints them.
 */
function withRootJoint(share: number): string {
  const [header, motion] = TEXT.split('MOTION');
  const hierarchy = header!.replace('ROOT Hips', 'ROOT joint_Root\n{\n\tOFFSET 0 0 0\n\tCHANNELS 3 Xposition Yposition Zposition\nJOINT Hips') + '}\n';
  const lines = motion!.split(/\r?\n/);
  const data = lines.map((line, i) => {
    if (i < 3 || line.trim() === '') return line; // "", "Frames:", "Frame Time:"
    const v = line.trim().split(/\s+/).map(Number);
    const [x, y, z] = [v[0]!, v[1]!, v[2]!];
    const rx = share * x, rz = share * z;
    return [rx, 0, rz, x - rx, y, z - rz, ...v.slice(3)].join(' ');
  });
  return hierarchy + 'MOTION' + data.join('\n');
}

/** The BVH text with the Hips' OFFSET at (x, 0, z), in file units. */
function withHipOffset(x: number, z: number): string {
  const edited = TEXT.replace(/(ROOT Hips\s*\{\s*)OFFSET 0\.00000 0\.00000 0\.00000/, `$1OFFSET ${x} 0 ${z}`);
  if (edited === TEXT) throw new Error('no Hips OFFSET to edit');
  return edited;
}

/** Model rotations and positions of every joint of `skeleton` in the pose at `pose[o ..]`, composed parents first. */
function modelTransforms(skeleton: Skeleton, pose: Float32Array, o: number): { q: Quat[]; p: number[][] } {
  const q: Quat[] = [], p: number[][] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const b = o + j * 10, up = skeleton.parents[j]!;
    const lq: Quat = [pose[b + 3]!, pose[b + 4]!, pose[b + 5]!, pose[b + 6]!], lt = [pose[b]!, pose[b + 1]!, pose[b + 2]!];
    if (up < 0) { q.push(lq); p.push(lt); continue; }
    const r = rotate(q[up]!, lt); // BVH joints have unit scale
    q.push(qmul(q[up]!, lq));
    p.push([p[up]![0]! + r[0]!, p[up]![1]! + r[1]!, p[up]![2]! + r[2]!]);
  }
  return { q, p };
}

/**
 * The original capture under a new root joint `joint_Root` (index 0, the original joints
 * shifted by one) whose pose on frame f is translation `t(f)`, rotation `q(f)` (at rest: the
 * origin and `restRotation`), the joints named in `hang` re-parented from the hips to it (as
 * RobotExpressive hangs its legs from `Body`). Every local pose is rebuilt from the original's
 * model transforms, local = parent⁻¹·model, so every joint moves as in the original.
 */
function underRoot(t: (f: number) => number[], q: (f: number) => Quat, restRotation: Quat, hang: readonly string[] = []): { skeleton: Skeleton; clip: Clip } {
  const { skeleton, clip } = ORIGINAL;
  const parents = [-1, ...Array.from(skeleton.parents, (p, j) => (hang.includes(skeleton.names[j]!) ? 0 : p + 1))];
  const localOf = (root: { t: number[]; q: Quat }, model: { q: Quat[]; p: number[][] }, out: number[]): void => {
    out.push(...root.t, ...root.q, 1, 1, 1);
    for (let j = 0; j < J; j++) {
      const up = parents[j + 1]!;
      const pq = up === 0 ? root.q : model.q[up - 1]!, pp = up === 0 ? root.t : model.p[up - 1]!;
      const inv: Quat = [-pq[0], -pq[1], -pq[2], pq[3]];
      const d = model.p[j]!;
      out.push(...rotate(inv, [d[0]! - pp[0]!, d[1]! - pp[1]!, d[2]! - pp[2]!]), ...qmul(inv, model.q[j]!), 1, 1, 1);
    }
  };
  const rest: number[] = [];
  localOf({ t: [0, 0, 0], q: restRotation }, modelTransforms(skeleton, skeleton.rest, 0), rest);
  const moved = createSkeleton({ names: ['joint_Root', ...skeleton.names], parents, rest });
  const frames: number[] = [];
  for (let f = 0; f < clip.frameCount; f++) localOf({ t: t(f), q: q(f) }, modelTransforms(skeleton, clip.frames, f * J * 10), frames);
  return { skeleton: moved, clip: createClip({ skeleton: moved, frameRate: clip.frameRate, frames, name: 'under root' }) };
}

/**
 * `variant` under a static `Armature` joint (index 0, the others shifted by one) with rest and
 * pose rotation `qa` and uniform scale `scale`, as FBX → glTF exports keep a Z-up armature
 * scaled 0.01 over bones in centimetres: every local translation is divided by `scale`, the
 * old root's pose is turned by qa⁻¹, so every joint's model position is the variant's.
 */
function inArmature(variant: { skeleton: Skeleton; clip: Clip }, qa: Quat, scale: number): { skeleton: Skeleton; clip: Clip } {
  const n = variant.skeleton.jointCount;
  const inv: Quat = [-qa[0], -qa[1], -qa[2], qa[3]];
  const convert = (pose: Float32Array, o: number, out: number[]): void => {
    out.push(0, 0, 0, ...qa, scale, scale, scale);
    for (let j = 0; j < n; j++) {
      const b = o + j * 10;
      const t = [pose[b]! / scale, pose[b + 1]! / scale, pose[b + 2]! / scale];
      const q: Quat = [pose[b + 3]!, pose[b + 4]!, pose[b + 5]!, pose[b + 6]!];
      const root = variant.skeleton.parents[j]! < 0;
      out.push(...(root ? rotate(inv, t) : t), ...(root ? qmul(inv, q) : q), pose[b + 7]!, pose[b + 8]!, pose[b + 9]!);
    }
  };
  const rest: number[] = [];
  convert(variant.skeleton.rest, 0, rest);
  const parents = [-1, ...Array.from(variant.skeleton.parents, (p) => p + 1)];
  const skeleton = createSkeleton({ names: ['Armature', ...variant.skeleton.names], parents, rest });
  const frames: number[] = [];
  for (let f = 0; f < variant.clip.frameCount; f++) convert(variant.clip.frames, f * n * 10, frames);
  return { skeleton, clip: createClip({ skeleton, frameRate: variant.clip.frameRate, frames, name: 'in armature' }) };
}

/** Model positions of every joint on every frame: `frameCount × jointCount × 3`. */
function modelPositions(skeleton: Skeleton, clip: Clip): Float64Array {
  const n = skeleton.jointCount;
  const out = new Float64Array(clip.frameCount * n * 3);
  const model = new Float32Array(n * 12);
  for (let f = 0; f < clip.frameCount; f++) {
    computeModelPose(model, 0, clip.frames, f * n * 10, skeleton.parents, n);
    for (let j = 0; j < n; j++) out.set(model.subarray(j * 12 + 9, j * 12 + 12), (f * n + j) * 3);
  }
  return out;
}

/** The largest distance between the original's joints and the variant's (joint j at j + `shift`), over all frames. */
function modelDifference(variant: { skeleton: Skeleton; clip: Clip }, shift: number, offset: readonly number[] = [0, 0, 0]): number {
  const a = modelPositions(ORIGINAL.skeleton, ORIGINAL.clip);
  const b = modelPositions(variant.skeleton, variant.clip);
  const n = variant.skeleton.jointCount;
  let worst = 0;
  for (let f = 0; f < ORIGINAL.clip.frameCount; f++) {
    for (let j = 0; j < J; j++) {
      const ia = (f * J + j) * 3, ib = (f * n + j + shift) * 3;
      worst = Math.max(worst, Math.hypot(b[ib]! - a[ia]! - offset[0]!, b[ib + 1]! - a[ia + 1]! - offset[1]!, b[ib + 2]! - a[ia + 2]! - offset[2]!));
    }
  }
  return worst;
}

interface Run {
  /** The root transform at spawn and at the end. */
  start: { x: number; y: number; z: number; yaw: number };
  end: { x: number; y: number; z: number; yaw: number };
  /** Largest horizontal distance of the hips from the root transform, metres, over the clip. */
  hipsOff: number;
  /** World positions of the original's joints (the variant's j + `shift`) after every step: steps × J × 3. */
  world: number[];
}

/** Plays `clip` once with root motion on a character spawned at `spawn`, stepping 1/60 s to its end. */
function run(skeleton: Skeleton, clip: Clip, shift: number, options: { rootYaw?: boolean; verticalRootMotion?: boolean; x?: number; z?: number; yaw?: number } = {}): Run {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount });
  const { rootYaw = false, verticalRootMotion = false, ...place } = options;
  const eid = spawnCharacter(world, skeleton, { rootMotion: true, rootYaw, verticalRootMotion, ...place });
  const start = getRootTransform(world, eid);
  play(world, eid, clip, { loop: false });
  const hips = skeleton.hipJoint;
  let hipsOff = 0;
  const positions: number[] = [];
  const steps = Math.ceil(clip.duration / DT);
  for (let s = 0; s < steps; s++) {
    step(world, DT);
    const model = getModelMatrices(world, eid);
    const root = getRootTransform(world, eid);
    const c = Math.cos(root.yaw), sn = Math.sin(root.yaw);
    hipsOff = Math.max(hipsOff, Math.hypot(model[hips * 12 + 9]!, model[hips * 12 + 11]!));
    for (let j = 0; j < J; j++) {
      const o = (j + shift) * 12 + 9;
      const mx = model[o]!, my = model[o + 1]!, mz = model[o + 2]!;
      positions.push(root.x + c * mx + sn * mz, root.y + my, root.z + c * mz - sn * mx);
    }
  }
  return { start, end: getRootTransform(world, eid), hipsOff, world: positions };
}

/** The largest distance between two runs' world joint positions, `b` less `offset`. */
function worldDifference(a: Run, b: Run, offset: readonly number[] = [0, 0, 0]): number {
  let worst = 0;
  for (let i = 0; i < a.world.length; i += 3) {
    worst = Math.max(worst, Math.hypot(b.world[i]! - a.world[i]! - offset[0]!, b.world[i + 1]! - a.world[i + 1]! - offset[1]!, b.world[i + 2]! - a.world[i + 2]! - offset[2]!));
  }
  return worst;
}

/** The original capture's horizontal hip travel, last frame less first, read off its frames (the hips are its root). */
function capturedTravel(): [number, number] {
  const frames = ORIGINAL.clip.frames, last = (ORIGINAL.clip.frameCount - 1) * J * 10;
  return [frames[last]! - frames[0]!, frames[last + 2]! - frames[2]!];
}

/**
 * How far the root transform travelled horizontally from `run.start`, less the capture's
 * travel turned by the heading at spawn (x' = x cos + z sin, z' = −x sin + z cos), metres.
 * Without `rootYaw` the heading stays the spawn's.
 */
function travelError(r: Run): number {
  const [tx, tz] = capturedTravel();
  const c = Math.cos(r.start.yaw), s = Math.sin(r.start.yaw);
  return Math.hypot(r.end.x - r.start.x - (c * tx + s * tz), r.end.z - r.start.z - (c * tz - s * tx));
}

const log = (label: string, r: Run, extra = ''): void => {
  const [tx, tz] = capturedTravel();
  console.log(`[root conventions] ${label}: hips ≤ ${(r.hipsOff * 100).toFixed(3)} cm from the root transform, travel ${Math.hypot(r.end.x - r.start.x, r.end.z - r.start.z).toFixed(4)} m (capture ${Math.hypot(tx, tz).toFixed(4)} m)${extra}`);
};

describe('root motion finds where the travel lives', () => {
  const original = run(ORIGINAL.skeleton, ORIGINAL.clip, 0);

  it('the original capture: the hips carry the travel', () => {
    log('original', original, `, travel off by ${(travelError(original) * 1000).toExponential(2)} mm`);
    expect(Math.hypot(...capturedTravel())).toBeGreaterThan(1.5); // the take walks ~2 m
    expect(original.hipsOff).toBeLessThan(1e-6);
    expect(travelError(original)).toBeLessThan(1e-3);
  });

  it.each([
    { label: 'a root joint above the hips carries the travel', share: 1 },
    { label: 'the travel split between a root joint (60 %) and the hips (40 %)', share: 0.6 },
  ])('$label (BVH text edited)', ({ label, share }) => {
    const variant = parseBvh(withRootJoint(share), { scale: SCALE, name: 'joint_Root' });
    expect(variant.skeleton.names.slice(0, 2)).toEqual(['joint_Root', 'Hips']);
    expect(variant.skeleton.hipJoint).toBe(1);
    // The same motion: every joint where the original has it, on every frame.
    expect(modelDifference(variant, 1)).toBeLessThan(1e-5);
    // And the root joint moves: it holds `share` of the hips' travel.
    const rootTravel = (variant.clip.frames[(variant.clip.frameCount - 1) * (J + 1) * 10 + 2]! - variant.clip.frames[2]!) / capturedTravel()[1];
    expect(rootTravel).toBeCloseTo(share, 4);
    const r = run(variant.skeleton, variant.clip, 1);
    const drawn = worldDifference(original, r);
    log(label, r, `, travel off by ${(travelError(r) * 1000).toExponential(2)} mm, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's in the world`);
    expect(r.hipsOff).toBeLessThan(0.05);
    expect(travelError(r)).toBeLessThan(1e-3);
    expect(drawn).toBeLessThan(1e-4);
  });

  it('with verticalRootMotion: the split travel (root joint 60 %, hips 40 %) moves the root transform up and down as the original does', () => {
    const variant = parseBvh(withRootJoint(0.6), { scale: SCALE, name: 'split' });
    const a = run(ORIGINAL.skeleton, ORIGINAL.clip, 0, { verticalRootMotion: true });
    const b = run(variant.skeleton, variant.clip, 1, { verticalRootMotion: true });
    const drawn = worldDifference(a, b);
    log('split travel, verticalRootMotion', b, `, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's, root height ${b.end.y.toFixed(4)} m (original ${a.end.y.toFixed(4)} m)`);
    expect(Math.abs(a.end.y - a.start.y)).toBeGreaterThan(0.01); // the take's hips end lower or higher
    expect(b.hipsOff).toBeLessThan(0.05);
    expect(Math.abs(b.end.y - a.end.y)).toBeLessThan(1e-6);
    expect(drawn).toBeLessThan(1e-4);
  });

  it('a Z-up root joint (rest rotated −90° about X) above the hips carries the travel', () => {
    const zUp = axisAngle(1, 0, 0, -Math.PI / 2);
    const frames = ORIGINAL.clip.frames, stride = J * 10;
    const variant = underRoot((f) => [frames[f * stride]!, 0, frames[f * stride + 2]!], () => zUp, zUp);
    expect(modelDifference(variant, 1)).toBeLessThan(1e-5);
    const r = run(variant.skeleton, variant.clip, 1);
    const drawn = worldDifference(original, r);
    log('Z-up root joint', r, `, travel off by ${(travelError(r) * 1000).toExponential(2)} mm, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's`);
    expect(r.hipsOff).toBeLessThan(0.05);
    expect(travelError(r)).toBeLessThan(1e-3);
    expect(drawn).toBeLessThan(1e-4);
  });

  it.each([false, true])('a static Z-up armature scaled 0.01 over a root joint in centimetres that carries the travel and the heading (rootYaw %s)', (rootYaw) => {
    const frames = ORIGINAL.clip.frames, stride = J * 10;
    const heading = getRootTrack(ORIGINAL.clip).yaw;
    const zUp = axisAngle(1, 0, 0, -Math.PI / 2);
    const variant = inArmature(underRoot((f) => [frames[f * stride]!, 0, frames[f * stride + 2]!], (f) => axisAngle(0, 1, 0, heading[f]!), [0, 0, 0, 1]), zUp, 0.01);
    expect(variant.skeleton.names.slice(0, 3)).toEqual(['Armature', 'joint_Root', 'Hips']);
    expect(modelDifference(variant, 2)).toBeLessThan(1e-5);
    const spawn = { x: 0.5, z: 3, yaw: -1 };
    const a = run(ORIGINAL.skeleton, ORIGINAL.clip, 0, { rootYaw, ...spawn });
    const b = run(variant.skeleton, variant.clip, 2, { rootYaw, ...spawn });
    const drawn = worldDifference(a, b);
    log(`armature 0.01 over joint_Root, rootYaw ${rootYaw}`, b, `, ends ${(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z) * 1000).toExponential(2)} mm from the original's root transform, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's`);
    expect(b.hipsOff).toBeLessThan(0.05);
    expect(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z)).toBeLessThan(1e-3);
    expect(Math.abs(b.end.yaw - a.end.yaw)).toBeLessThan(1e-5);
    expect(drawn).toBeLessThan(1e-4);
  });

  it('with rootYaw: a root joint carries the travel and the heading, drawn and turned as the original', () => {
    const frames = ORIGINAL.clip.frames, stride = J * 10;
    const heading = getRootTrack(ORIGINAL.clip).yaw; // the hips' own heading, now the root joint's
    const variant = underRoot((f) => [frames[f * stride]!, 0, frames[f * stride + 2]!], (f) => axisAngle(0, 1, 0, heading[f]!), [0, 0, 0, 1]);
    expect(modelDifference(variant, 1)).toBeLessThan(1e-5);
    const spawn = { x: 1, z: -2, yaw: 0.7 };
    const a = run(ORIGINAL.skeleton, ORIGINAL.clip, 0, { rootYaw: true, ...spawn });
    const b = run(variant.skeleton, variant.clip, 1, { rootYaw: true, ...spawn });
    const drawn = worldDifference(a, b);
    log('root joint with heading, rootYaw', b, `, ends ${(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z) * 1000).toExponential(2)} mm from the original's root transform, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's, yaw ${Math.abs(b.end.yaw - a.end.yaw).toExponential(2)} rad apart`);
    expect(Math.abs(a.end.yaw - a.start.yaw)).toBeGreaterThan(0.05); // the take turns
    expect(b.hipsOff).toBeLessThan(0.05);
    expect(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z)).toBeLessThan(1e-3);
    expect(Math.abs(b.end.yaw - a.end.yaw)).toBeLessThan(1e-5);
    expect(drawn).toBeLessThan(1e-4);
  });

  it('holding a chain above the hips allocates nothing per frame (with and without rootYaw)', () => {
    const variant = parseBvh(withRootJoint(0.6), { scale: SCALE, name: 'split' });
    const world = createAnimationWorld({ maxEntities: 40, maxJoints: 32 });
    for (let n = 0; n < 40; n++) {
      const eid = spawnCharacter(world, variant.skeleton, { rootMotion: true, rootYaw: n % 2 === 0 });
      play(world, eid, variant.clip, { loop: true, time: (n / 40) * variant.clip.duration });
    }
    // A frame of 40 characters whose root joint moves: a per-character allocation would be ≥ 640 bytes.
    const perFrame = smallestAllocation(() => step(world, DT), { calls: 2_000, bound: 2_000 * 8, warmUp: 200 }) / 2_000;
    console.log(`[root conventions] 40 characters, travel split between joint_Root and the hips: ${perFrame.toFixed(2)} bytes a frame`);
    expect(perFrame).toBeLessThan(8);
  });

  it.each([false, true])('the legs hang from a root joint with 60 %% of the travel and the heading (rootYaw %s): the body keeps its shape', (rootYaw) => {
    // The hips keep 40 % of the travel relative to the root joint the legs hang from: holding
    // each joint of the chain in place separately would pull the legs and the trunk apart.
    const frames = ORIGINAL.clip.frames, stride = J * 10;
    const heading = getRootTrack(ORIGINAL.clip).yaw;
    const variant = underRoot((f) => [0.6 * frames[f * stride]!, 0, 0.6 * frames[f * stride + 2]!], (f) => axisAngle(0, 1, 0, heading[f]!), [0, 0, 0, 1], ['LHipJoint', 'RHipJoint']);
    expect(variant.skeleton.parents[variant.skeleton.names.indexOf('LHipJoint')]).toBe(0);
    expect(modelDifference(variant, 1)).toBeLessThan(1e-5);
    const spawn = { x: -2, z: 0.5, yaw: 2 };
    const a = run(ORIGINAL.skeleton, ORIGINAL.clip, 0, { rootYaw, ...spawn });
    const b = run(variant.skeleton, variant.clip, 1, { rootYaw, ...spawn });
    const drawn = worldDifference(a, b);
    log(`legs under a root joint with 60 % of the travel, rootYaw ${rootYaw}`, b, `, ends ${(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z) * 1000).toExponential(2)} mm from the original's root transform, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's`);
    expect(b.hipsOff).toBeLessThan(0.05);
    if (!rootYaw) expect(travelError(b)).toBeLessThan(1e-3);
    expect(Math.hypot(b.end.x - a.end.x, b.end.z - a.end.z)).toBeLessThan(1e-3);
    expect(drawn).toBeLessThan(1e-4);
  });

  // 42.5200 and 56.6933 file units × 0.056444 ≈ (2.4, 3.2) m: 4 m from the origin.
  const OFFSET = [42.52, 56.6933] as const;
  const metres = [OFFSET[0] * SCALE, 0, OFFSET[1] * SCALE] as const;

  it.each([
    { label: "the hips' rest OFFSET 4 m away, the position channels replacing it", positionChannels: 'replace' as const, shifted: false },
    { label: "the hips' rest OFFSET 4 m away, the position channels added to it", positionChannels: 'add' as const, shifted: true },
  ])('$label', ({ label, positionChannels, shifted }) => {
    expect(Math.hypot(metres[0], metres[2])).toBeCloseTo(4, 3);
    const variant = parseBvh(withHipOffset(...OFFSET), { scale: SCALE, positionChannels, name: 'offset' });
    expect(variant.skeleton.rest[0]).toBeCloseTo(metres[0], 5);
    expect(modelDifference(variant, 0, shifted ? metres : [0, 0, 0])).toBeLessThan(1e-5);
    const spawn = { x: 3, z: 1, yaw: -0.5 };
    const r = run(variant.skeleton, variant.clip, 0, spawn);
    // The rest offset is taken out of the pose: the root transform starts at the spawn, and the
    // body is drawn there, where the original capture (hips at rest on the origin) is drawn.
    expect([r.start.x, r.start.z, r.start.yaw]).toEqual([spawn.x, spawn.z, spawn.yaw]);
    const reference = run(ORIGINAL.skeleton, ORIGINAL.clip, 0, spawn);
    const drawn = worldDifference(reference, r);
    log(label, r, `, travel off by ${(travelError(r) * 1000).toExponential(2)} mm, joints ≤ ${(drawn * 1000).toExponential(2)} mm from the original's`);
    expect(r.hipsOff).toBeLessThan(0.05);
    expect(travelError(r)).toBeLessThan(1e-3);
    expect(drawn).toBeLessThan(1e-4);
  });
});
