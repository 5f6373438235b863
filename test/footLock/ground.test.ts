/**
 * Feet on the ground (`setFootLock(…, { ground })`): the CMU walk retargeted onto RobotExpressive
 * stands the robot's hips at the hip ratio's height, where its feet — on a pelvis four times as
 * wide, legs splayed — come down only to 4–50 cm above the ground (docs/retargeting.md). With
 * `ground` each planted foot is held at its rest height above the root transform and the pelvis
 * lowered where a leg cannot reach it. Measured per contact (the capture's, detectFootContacts):
 * the foot joint's lowest height above its rest height, world space; the pelvis's drop; skate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindSkeletons, createAnimationWorld, detectFootContacts, getJointWorldMatrix, humanoidMap, loadGltf, parseBvh, play, setFootLock,
  setRootTransform, spawnCharacter, step, type Binding, type Clip, type FootLockOptions, type Skeleton,
} from '../../src/index.js';
import { readAsset, readAssetText } from '../support/assets.js';
import { inPlace, playedTravel, runWalk } from './helpers.js';

interface GroundRun {
  /** Per frame, per leg: the foot joint's world y. */
  readonly feet: Float64Array[];
  /** Per frame: the hips joint's world y. */
  readonly hips: Float64Array;
  /** Per frame, per leg: the foot joint's world x z. */
  readonly paths: Float64Array[];
  readonly finite: boolean;
}

/** The clip on a robot moved along `travel` (1×), with `lock` (null: none), the feet and hips recorded each frame. */
function run(robot: Skeleton, clip: Clip, binding: Binding, travel: Float64Array, feet: number[], hips: number, lock: FootLockOptions | null, kernels: 'js' | 'wasm' = 'js'): GroundRun {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount, kernels });
  const eid = spawnCharacter(world, robot);
  play(world, eid, clip, { loop: false, binding });
  if (lock !== null) setFootLock(world, eid, lock);
  const m = new Float64Array(12);
  const out: GroundRun = { feet: [], hips: new Float64Array(clip.frameCount), paths: feet.map(() => new Float64Array(clip.frameCount * 2)), finite: true };
  for (let f = 0; f < clip.frameCount; f++) {
    setRootTransform(world, eid, { x: travel[f * 2]!, z: travel[f * 2 + 1]! });
    step(world, f === 0 ? 0 : 1 / clip.frameRate);
    const row = new Float64Array(feet.length);
    feet.forEach((foot, k) => {
      getJointWorldMatrix(world, eid, foot, m);
      row[k] = m[10]!;
      out.paths[k]![f * 2] = m[9]!;
      out.paths[k]![f * 2 + 1] = m[11]!;
      if (!m.every(Number.isFinite)) (out as { finite: boolean }).finite = false;
    });
    out.feet.push(row);
    getJointWorldMatrix(world, eid, hips, m);
    out.hips[f] = m[10]!;
  }
  return out;
}

describe('the CMU walk on RobotExpressive with its feet on the ground', () => {
  let robot: Skeleton, walk: Clip, binding: Binding, travel: Float64Array, intervals: [number, number][][];
  let feet: number[], hips: number, rest: number[];
  beforeAll(async () => {
    const bvh = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
    const contacts = detectFootContacts(bvh.clip, { feet: ['LeftAnkle', 'RightAnkle'] });
    intervals = contacts.contacts.map((c) => c.intervals);
    walk = inPlace(contacts.clip).clip;
    robot = (await loadGltf(readAsset('RobotExpressive.glb'))).skeletons[0]!;
    binding = bindSkeletons(bvh.skeleton, robot);
    const map = humanoidMap(robot).joints;
    hips = robot.names.indexOf(map.hips!);
    feet = [robot.names.indexOf(map.leftFoot!), robot.names.indexOf(map.rightFoot!)];
    travel = playedTravel(robot, contacts.clip, hips, binding);
    // The feet's rest heights (glTF: the robot stands on its origin).
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount });
    const eid = spawnCharacter(world, robot);
    step(world, 0);
    const m = new Float64Array(12);
    rest = feet.map((foot) => { getJointWorldMatrix(world, eid, foot, m); return m[10]!; });
  });

  /** Per leg, per contact: the foot's lowest height above its rest height over the contact (metres). */
  const lowest = (r: GroundRun) => intervals.map((list, k) => list.map(([s, e]) => {
    let low = Infinity;
    for (let f = Math.round(s * walk.frameRate); f <= Math.round(e * walk.frameRate); f++) low = Math.min(low, r.feet[f]![k]! - rest[k]!);
    return low;
  }));

  it('every contact brings its foot within 2 cm of the ground (without: 4–22 cm above), the pelvis lowered at most 0.25 leg lengths', () => {
    const free = run(robot, walk, binding, travel, feet, hips, null);
    const ground = run(robot, walk, binding, travel, feet, hips, { ground: true });
    const before = lowest(free), after = lowest(ground);
    let drop = 0;
    const drops: number[] = [];
    for (let f = 0; f < walk.frameCount; f++) { drop = Math.max(drop, free.hips[f]! - ground.hips[f]!); drops.push(free.hips[f]! - ground.hips[f]!); }
    drops.sort((a, b) => a - b);
    const cm = (v: number) => (v * 100).toFixed(1);
    console.log(`lowest foot height above rest per contact, cm — without: ${before.map((l) => l.map(cm).join(' ')).join(' | ')}\nwith ground: ${after.map((l) => l.map(cm).join(' ')).join(' | ')}\npelvis drop: median ${cm(drops[drops.length >> 1]!)} cm, max ${cm(drop)} cm`);
    expect(ground.finite).toBe(true);
    expect(Math.min(...before.flat())).toBeLessThan(0.05); // the measure can fail: one contact comes near the ground alone
    expect(Math.max(...before.flat())).toBeGreaterThan(0.1);
    for (const low of after.flat()) expect(Math.abs(low)).toBeLessThanOrEqual(0.02);
    // The leg's length (thigh + shin, rest): 1.54 m; the drop stays under its 0.25 share.
    expect(drop).toBeLessThanOrEqual(0.25 * 1.54 + 1e-3);
    expect(drops[0]!).toBeGreaterThanOrEqual(-1e-4); // lowered, never raised
  });

  it('the pelvis goes down and back without a pop: its height changes per frame no faster than the animation\'s own hips do, 1.5× at most', () => {
    const free = run(robot, walk, binding, travel, feet, hips, null);
    const ground = run(robot, walk, binding, travel, feet, hips, { ground: true });
    let own = 0, lowered = 0;
    for (let f = 1; f < walk.frameCount; f++) {
      own = Math.max(own, Math.abs(free.hips[f]! - free.hips[f - 1]!));
      lowered = Math.max(lowered, Math.abs(ground.hips[f]! - ground.hips[f - 1]!));
    }
    console.log(`hips height per frame (120 Hz): animated ≤ ${(own * 1000).toFixed(1)} mm, on the ground ≤ ${(lowered * 1000).toFixed(1)} mm`);
    expect(lowered).toBeLessThanOrEqual(1.5 * own);
  });

  it('holds the feet as the lock without ground does (the same contacts under 0.5 % of the hip height at 1.2× pace), knees within 30° of their animated bend', () => {
    const map = humanoidMap(robot).joints;
    const index = (n: string | undefined) => robot.names.indexOf(n!);
    const legs = (['left', 'right'] as const).map((side, k) => ({
      upper: index(map[`${side}UpperLeg`]), lower: index(map[`${side}LowerLeg`]), foot: index(map[`${side}Foot`]), intervals: intervals[k]!,
    }));
    const at = (f: number): [number, number] => [1.2 * travel[f * 2]!, 1.2 * travel[f * 2 + 1]!];
    const plain = runWalk({ skeleton: robot, clip: walk, binding, frames: walk.frameCount, legs, lock: {}, at });
    const ground = runWalk({ skeleton: robot, clip: walk, binding, frames: walk.frameCount, legs, lock: { ground: true }, at });
    const held = (r: typeof plain) => r.skate.feet.flatMap((foot) => foot.distances).filter((d) => d <= 0.005 * robot.hipHeight).length;
    console.log(`skate at 1.2×: lock ${(plain.skate.mean * 1000).toFixed(2)} mm (${held(plain)} of ${plain.skate.contacts} contacts held), on the ground ${(ground.skate.mean * 1000).toFixed(2)} mm (${held(ground)} held); knees ≤ ${ground.kneeDegrees.toFixed(1)}°`);
    expect(ground.finite).toBe(true);
    expect(held(ground)).toBeGreaterThanOrEqual(held(plain));
    expect(ground.kneeDegrees).toBeLessThanOrEqual(30);
  });

  it('refuses a ground that is not true, false or a height in metres, and changes nothing', () => {
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount });
    const eid = spawnCharacter(world, robot);
    setFootLock(world, eid, { ground: 0.03 });
    const before = Array.from(world.components.FootLock.plant.subarray(eid * 4, eid * 4 + 4));
    for (const ground of ['yes', Number.NaN, 1000, null, { height: 1 }]) {
      expect(() => setFootLock(world, eid, { ground } as never)).toThrow(/setFootLock: ground is .*must be true, false or a foot height in metres/);
    }
    expect(Array.from(world.components.FootLock.plant.subarray(eid * 4, eid * 4 + 4))).toEqual(before);
    expect(before.slice(0, 2)).toEqual([Math.fround(0.03), Math.fround(0.03)]);
    // Omitted, it keeps its setting; false turns it off.
    setFootLock(world, eid, { weight: 0.5 });
    expect(world.components.FootLock.enabled[eid]).toBe(2);
    setFootLock(world, eid, { ground: false });
    expect(world.components.FootLock.enabled[eid]).toBe(1);
  });

  it('runs the same on the WebAssembly kernels (the system on its JavaScript path; the pose sampled in float32 SIMD): within 0.1 mm', () => {
    const js = run(robot, walk, binding, travel, feet, hips, { ground: true }, 'js');
    const wasm = run(robot, walk, binding, travel, feet, hips, { ground: true }, 'wasm');
    let worst = 0;
    for (let f = 0; f < walk.frameCount; f++) {
      worst = Math.max(worst, Math.abs(wasm.hips[f]! - js.hips[f]!));
      for (let k = 0; k < feet.length; k++) worst = Math.max(worst, Math.abs(wasm.feet[f]![k]! - js.feet[f]![k]!));
    }
    expect(worst).toBeLessThanOrEqual(1e-4);
  });
});
