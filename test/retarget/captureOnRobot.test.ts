/**
 * A motion capture on a character no one made for it: CMU 131_01 (a BVH skeleton, a studio's
 * T-pose, its own joint names) played on RobotExpressive (a glTF robot, its own rest, IK feet)
 * through the humanoid maps and canonical references, with `play`'s defaults. Measured against
 * the capture itself: each mapped bone's model-space direction (after one yaw that aligns the
 * two bodies), the hips at the hip-ratio height, the feet on the ground.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindSkeletons, createAnimationWorld, getModelMatrices, humanoidMap, loadGltf, parseBvh, play, spawnCharacter, step,
  type Binding, type Clip, type HumanoidJoint, type Skeleton,
} from '../../src/index.js';
import { readAsset, readAssetText } from '../support/assets.js';

/** The bones measured: each humanoid joint to the next one of its chain. */
const BONES: readonly [HumanoidJoint, HumanoidJoint][] = [
  ['hips', 'head'], ['spine', 'neck'], ['neck', 'head'],
  ['leftUpperArm', 'leftLowerArm'], ['leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm'], ['rightLowerArm', 'rightHand'],
  ['leftUpperLeg', 'leftLowerLeg'], ['leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg'], ['rightLowerLeg', 'rightFoot'],
];

/** Model positions (3 per joint) of `clip` on `skeleton` at each time, through play and step. */
function track(skeleton: Skeleton, clip: Clip, times: readonly number[]): Float32Array[] {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
  const eid = spawnCharacter(world, skeleton);
  return times.map((time) => {
    play(world, eid, clip, { time, speed: 0 });
    step(world, 0);
    const m = getModelMatrices(world, eid);
    return Float32Array.from({ length: skeleton.jointCount * 3 }, (_, i) => m[Math.floor(i / 3) * 12 + 9 + (i % 3)]!);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

describe('CMU 131_01 on RobotExpressive', () => {
  let cmu: Skeleton, walk: Clip, robot: Skeleton, binding: Binding;
  const times: number[] = [];
  let source: Float32Array[], target: Float32Array[];
  beforeAll(async () => {
    const bvh = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
    cmu = bvh.skeleton;
    walk = bvh.clip;
    robot = (await loadGltf(readAsset('RobotExpressive.glb'))).skeletons[0]!;
    binding = bindSkeletons(cmu, robot);
    for (let f = 0; f < walk.frameCount; f += 4) times.push(f / walk.frameRate);
    source = track(cmu, walk, times);
    target = track(robot, walk, times);
  });

  it('pairs every leg, arm, spine and head joint as humanoids, through canonical references (the map printed)', () => {
    expect([binding.joints, binding.reference]).toEqual(['humanoid', 'canonical']);
    console.log(binding.pairs.map((p) => `${p.humanoid!.padEnd(14)} ${p.target.padEnd(11)} ← ${p.source}`).join('\n'));
    const paired = new Set(binding.pairs.map((p) => p.humanoid));
    for (const joint of ['hips', 'spine', 'neck', 'head', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand',
      'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot'] as const) {
      expect(paired.has(joint), joint).toBe(true);
    }
    // Each pair is the same humanoid joint of both skeletons.
    const a = humanoidMap(cmu).joints, b = humanoidMap(robot).joints;
    for (const p of binding.pairs) expect([p.source, p.target]).toEqual([a[p.humanoid!], b[p.humanoid!]]);
  });

  it('each mapped bone points where the capture\'s does: ≤ 5° median, ≤ 12° at the 95th percentile (one yaw aligning the bodies)', () => {
    const s = humanoidMap(cmu).joints, t = humanoidMap(robot).joints;
    const index = (skeleton: Skeleton, name: string | undefined) => skeleton.names.indexOf(name!);
    const direction = (p: Float32Array, a: number, b: number) => {
      const d = [0, 1, 2].map((c) => p[b * 3 + c]! - p[a * 3 + c]!);
      const l = Math.hypot(...d);
      return d.map((v) => v / l);
    };
    // One yaw for the clip: the mean difference of the two bodies' headings (the angle of the
    // left–right axis between the upper legs in x–z), θ = h_target − h_source; R_y(θ) turns the
    // target's directions onto the source's (x' = x cos θ + z sin θ, z' = −x sin θ + z cos θ).
    const heading = (p: Float32Array, l: number, r: number) => Math.atan2(p[l * 3 + 2]! - p[r * 3 + 2]!, p[l * 3]! - p[r * 3]!);
    let sin = 0, cos = 0;
    times.forEach((_, k) => {
      const d = heading(target[k]!, index(robot, t.leftUpperLeg), index(robot, t.rightUpperLeg)) - heading(source[k]!, index(cmu, s.leftUpperLeg), index(cmu, s.rightUpperLeg));
      sin += Math.sin(d); cos += Math.cos(d);
    });
    const yaw = Math.atan2(sin, cos);
    const turn = (v: number[]) => [v[0]! * Math.cos(yaw) + v[2]! * Math.sin(yaw), v[1]!, -v[0]! * Math.sin(yaw) + v[2]! * Math.cos(yaw)];
    const report: string[] = [];
    const all: number[] = [];
    for (const [from, to] of BONES) {
      const angles = times.map((_, k) => {
        const u = direction(source[k]!, index(cmu, s[from]), index(cmu, s[to]));
        const v = turn(direction(target[k]!, index(robot, t[from]), index(robot, t[to])));
        return (Math.acos(Math.min(1, u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!)) * 180) / Math.PI;
      });
      all.push(...angles);
      report.push(`${from}→${to}: median ${percentile(angles, 0.5).toFixed(1)}°, p95 ${percentile(angles, 0.95).toFixed(1)}°`);
    }
    console.log(`yaw ${(yaw * 180 / Math.PI).toFixed(1)}°\n${report.join('\n')}`);
    expect(percentile(all, 0.5)).toBeLessThanOrEqual(5);
    expect(percentile(all, 0.95)).toBeLessThanOrEqual(12);
  });

  it('the hips ride at the hip-ratio height (within 1 cm), the ratio of the two legs (the feet reported)', () => {
    const s = humanoidMap(cmu).joints, t = humanoidMap(robot).joints;
    const index = (skeleton: Skeleton, name: string | undefined) => skeleton.names.indexOf(name!);
    const hipsS = index(cmu, s.hips), hipsT = index(robot, t.hips);
    // The ratio: of the hips' height above the ankles with the legs straight down (the hips'
    // drop to the upper leg at rest, then the thigh and shin lengths), which the binding's
    // standing hip heights must agree with within 3 %.
    const length = (skeleton: Skeleton, joints: typeof s, side: 'left' | 'right') => {
      const p = restPositions(skeleton);
      const at = (name: HumanoidJoint) => index(skeleton, joints[name]);
      const bone = (a: number, b: number) => Math.hypot(p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!);
      const drop = p[at('hips') * 3 + 1]! - p[at(`${side}UpperLeg`) * 3 + 1]!;
      return drop + bone(at(`${side}UpperLeg`), at(`${side}LowerLeg`)) + bone(at(`${side}LowerLeg`), at(`${side}Foot`));
    };
    const legs = (length(robot, t, 'left') + length(robot, t, 'right')) / (length(cmu, s, 'left') + length(cmu, s, 'right'));
    const ratio = binding.hipRatio;
    expect(Math.abs(ratio / legs - 1)).toBeLessThan(0.03);
    let worstHips = 0;
    times.forEach((_, k) => { worstHips = Math.max(worstHips, Math.abs(target[k]![hipsT * 3 + 1]! - ratio * source[k]![hipsS * 3 + 1]!)); });
    // The feet, reported (planting them is foot IK's work: docs/retargeting.md, limits;
    // setFootLock's `ground` brings every contact within 2 cm, test/footLock/ground.test.ts): each
    // foot joint's height against the capture's ankle at the ratio, d = y_t − ratio · y_s,
    // its median and spread; and its lowest point above its rest height.
    const rest = restPositions(robot);
    const report: string[] = [];
    for (const side of ['left', 'right'] as const) {
      const f = index(robot, t[`${side}Foot`]), a = index(cmu, s[`${side}Foot`]);
      const d = times.map((_, k) => target[k]![f * 3 + 1]! - ratio * source[k]![a * 3 + 1]!);
      const c = percentile(d, 0.5);
      const spread = d.map((v) => Math.abs(v - c));
      const lowest = Math.min(...times.map((_, k) => target[k]![f * 3 + 1]! - rest[f * 3 + 1]!));
      report.push(`${side} foot: ratio × capture ankle + ${(c * 1000).toFixed(0)} mm (p95 spread ${(percentile(spread, 0.95) * 1000).toFixed(0)} mm); lowest ${(lowest * 1000).toFixed(0)} mm above its rest height`);
    }
    console.log(`hip ratio ${ratio.toFixed(4)} (legs ${legs.toFixed(4)}): hips within ${(worstHips * 1000).toFixed(1)} mm of that height\n${report.join('\n')}`);
    expect(worstHips).toBeLessThan(0.01);
  });
});

/** Model positions (3 per joint) of a skeleton's rest pose. */
function restPositions(skeleton: Skeleton): Float32Array {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton);
  step(world, 0);
  const m = getModelMatrices(world, eid);
  return Float32Array.from({ length: skeleton.jointCount * 3 }, (_, i) => m[Math.floor(i / 3) * 12 + 9 + (i % 3)]!);
}
