/**
 * The canonical reference: two rigs modelled in different poses (the Robot's rest, and a copy
 * whose upper arms are lowered 40° — an A-pose against the Robot's own) play each other's
 * clips with the limbs pointing where the source's point. Through the rest poses the same clip
 * would carry the 40° over.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bindSkeletons, createAnimationWorld, humanoidMap, type ReferenceOption, createSkeleton, getModelMatrices, loadGltf, play, spawnCharacter, step, type Clip, type GltfResult, type Skeleton } from '../../src/index.js';
import { canonicalPose } from '../../src/assets/retarget/canonical.js';
import type { HumanoidJoint } from '../../src/assets/humanoid/types.js';
import { readAsset } from '../support/assets.js';

/** RobotExpressive's humanoid joints, by hand (its upper legs hang from Body, so Body is the hips). */
const ROBOT: Partial<Record<HumanoidJoint, string>> = {
  hips: 'Body', spine: 'Hips', chest: 'Abdomen', upperChest: 'Torso', neck: 'Neck', head: 'Head',
  leftShoulder: 'Shoulder.L', leftUpperArm: 'UpperArm.L', leftLowerArm: 'LowerArm.L', leftHand: 'Palm2.L',
  rightShoulder: 'Shoulder.R', rightUpperArm: 'UpperArm.R', rightLowerArm: 'LowerArm.R', rightHand: 'Palm2.R',
  leftUpperLeg: 'UpperLeg.L', leftLowerLeg: 'LowerLeg.L', leftFoot: 'Foot.L',
  rightUpperLeg: 'UpperLeg.R', rightLowerLeg: 'LowerLeg.R', rightFoot: 'Foot.R',
};

type Quat = number[];
const mul = (a: Quat, b: Quat): Quat => [
  a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!, a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!,
  a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!, a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!];
const inv = (q: Quat): Quat => [-q[0]!, -q[1]!, -q[2]!, q[3]!];

/** Model rotations of a rest pose, parents first. */
function modelRotations(skeleton: Skeleton): Quat[] {
  const out: Quat[] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const q = Array.from(skeleton.rest.subarray(j * 10 + 3, j * 10 + 7));
    out.push(skeleton.parents[j]! < 0 ? q : mul(out[skeleton.parents[j]!]!, q));
  }
  return out;
}

/** The Robot with each upper arm turned 40° down in model space about the character's forward axis. */
function lowerArms(robot: Skeleton, degrees: number): Skeleton {
  const rest = Float32Array.from(robot.rest);
  const model = modelRotations(robot);
  for (const [name, sign] of [['UpperArm.L', -1], ['UpperArm.R', 1]] as const) {
    const j = robot.names.indexOf(name), p = robot.parents[j]!;
    const half = (sign * degrees * Math.PI) / 360;
    const turn = [0, 0, Math.sin(half), Math.cos(half)]; // about +Z: the Robot faces +Z
    rest.set(mul(inv(model[p]!), mul(turn, model[j]!)), j * 10 + 3);
  }
  return createSkeleton({ names: robot.names, parents: robot.parents, rest, hipJoint: robot.hipJoint });
}

/** Model positions of `clip` on `skeleton` at `time`, through `play` (with a binding through `reference` when given). */
function positions(skeleton: Skeleton, clip: Clip, time: number, reference?: ReferenceOption): Float32Array {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
  const eid = spawnCharacter(world, skeleton);
  play(world, eid, clip, reference === undefined ? { time, speed: 0 } : { time, speed: 0, binding: bindSkeletons(clip.skeleton, skeleton, { reference }) });
  step(world, 0);
  const m = getModelMatrices(world, eid);
  return Float32Array.from({ length: skeleton.jointCount * 3 }, (_, i) => m[Math.floor(i / 3) * 12 + 9 + (i % 3)]!);
}

/** Degrees between the directions a→b in two position arrays. */
function angle(p: Float32Array, q: Float32Array, a: number, b: number): number {
  const u = [0, 1, 2].map((c) => p[b * 3 + c]! - p[a * 3 + c]!), v = [0, 1, 2].map((c) => q[b * 3 + c]! - q[a * 3 + c]!);
  const cos = (u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!) / (Math.hypot(...u) * Math.hypot(...v));
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}

describe('canonical reference poses', () => {
  let robot: GltfResult;
  beforeAll(async () => {
    robot = await loadGltf(readAsset('RobotExpressive.glb'));
  });

  it('canonicalPose turns the chains and nothing else: arms out, legs down, spine up, other joints at rest', () => {
    const skeleton = robot.skeletons[0]!;
    const pose = canonicalPose(skeleton, ROBOT);
    const chain = new Set(['Hips', 'Abdomen', 'Torso', 'Neck', 'Shoulder.L', 'UpperArm.L', 'LowerArm.L', 'Shoulder.R', 'UpperArm.R', 'LowerArm.R', 'UpperLeg.L', 'LowerLeg.L', 'UpperLeg.R', 'LowerLeg.R']);
    skeleton.names.forEach((name, j) => {
      if (chain.has(name)) return;
      expect(Array.from(pose.subarray(j * 10, j * 10 + 10)).map(Math.fround), name).toEqual(Array.from(skeleton.rest.subarray(j * 10, j * 10 + 10)));
    });
    const canonical = createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest: pose });
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
    const p = (() => { const e = spawnCharacter(world, canonical); step(world, 0); return getModelMatrices(world, e); })();
    const at = (name: string) => { const j = skeleton.names.indexOf(name); return [p[j * 12 + 9]!, p[j * 12 + 10]!, p[j * 12 + 11]!]; };
    const direction = (a: string, b: string) => { const u = at(b).map((v, c) => v - at(a)[c]!); const l = Math.hypot(...u); return u.map((v) => v / l); };
    const close = (u: number[], v: number[]) => u.forEach((x, c) => expect(x).toBeCloseTo(v[c]!, 5));
    close(direction('Hips', 'Abdomen'), [0, 1, 0]);
    close(direction('Neck', 'Head'), [0, 1, 0]);
    close(direction('UpperArm.L', 'LowerArm.L'), [1, 0, 0]);
    close(direction('LowerArm.R', 'Palm2.R'), [-1, 0, 0]);
    close(direction('UpperLeg.L', 'LowerLeg.L'), [0, -1, 0]);
  });

  it('humanoidMap finds the joints of the hand-made map', () => {
    expect(humanoidMap(robot.skeletons[0]!).joints).toEqual(ROBOT);
  });

  it('a T-pose ↔ A-pose pair (upper arms 40° lower in the copy): arm directions follow the source within 3° by default (canonical references); through the rests they are 40° off', () => {
    const source = robot.skeletons[0]!;
    const target = lowerArms(source, 40);
    expect(bindSkeletons(source, target).reference).toBe('canonical');
    // Given as poses (stored as 32-bit floats), the same references make the same pose.
    const reference = { source: canonicalPose(source, ROBOT), target: canonicalPose(target, ROBOT) };
    const clip0 = robot.clips[0]!;
    const given = positions(target, clip0, 0.3, reference), byDefault = positions(target, clip0, 0.3);
    given.forEach((v, i) => expect(v).toBeCloseTo(byDefault[i]!, 5));
    const arms = [['UpperArm.L', 'LowerArm.L'], ['LowerArm.L', 'Palm2.L'], ['UpperArm.R', 'LowerArm.R'], ['LowerArm.R', 'Palm2.R']]
      .map(([a, b]) => [source.names.indexOf(a!), source.names.indexOf(b!)] as const);
    let worst = 0, worstRest = 0, bestRest = Infinity;
    for (const clip of robot.clips) {
      for (let k = 0; k < 5; k++) {
        const time = (clip.duration * k) / 4;
        const expected = positions(source, clip, time);
        const canonical = positions(target, clip, time);
        const rest = positions(target, clip, time, 'rest');
        for (const [a, b] of arms) {
          worst = Math.max(worst, angle(expected, canonical, a, b));
          if (a === arms[0]![0]) { worstRest = Math.max(worstRest, angle(expected, rest, a, b)); bestRest = Math.min(bestRest, angle(expected, rest, a, b)); }
        }
      }
    }
    console.log(`A-pose copy, ${robot.clips.length} clips × 5 times: arms within ${worst.toFixed(3)}° of the source (canonical); upper arms ${bestRest.toFixed(1)}–${worstRest.toFixed(1)}° off through the rests`);
    expect(worst).toBeLessThan(3);
    expect(bestRest).toBeGreaterThan(30); // the rest reference carries the copy's 40° over
    expect(worstRest).toBeLessThan(50);
  });

  it('a copy facing −Z (its root turned 180° about +Y): the clips play turned with it, every joint at R_y(180°) · the original\'s within 1 mm', () => {
    const source = robot.skeletons[0]!;
    const rest = Float32Array.from(source.rest);
    const turn = [0, 1, 0, 0]; // 180° about +Y
    for (let j = 0; j < source.jointCount; j++) {
      if (source.parents[j]! >= 0) continue;
      rest.set(mul(turn, Array.from(rest.subarray(j * 10 + 3, j * 10 + 7))), j * 10 + 3);
      rest[j * 10] = -rest[j * 10]!;
      rest[j * 10 + 2] = -rest[j * 10 + 2]!;
    }
    const target = createSkeleton({ names: source.names, parents: source.parents, rest, hipJoint: source.hipJoint });
    expect(bindSkeletons(source, target).reference).toBe('canonical');
    let worst = 0, worstUnturned = 0;
    for (const clip of robot.clips) {
      for (let k = 0; k < 4; k++) {
        const time = (clip.duration * k) / 3;
        const expected = positions(source, clip, time), actual = positions(target, clip, time);
        for (let j = 0; j < source.jointCount; j++) {
          const [x, y, z] = [expected[j * 3]!, expected[j * 3 + 1]!, expected[j * 3 + 2]!];
          worst = Math.max(worst, Math.hypot(actual[j * 3]! + x, actual[j * 3 + 1]! - y, actual[j * 3 + 2]! + z));
          worstUnturned = Math.max(worstUnturned, Math.hypot(actual[j * 3]! - x, actual[j * 3 + 1]! - y, actual[j * 3 + 2]! - z));
        }
      }
    }
    console.log(`a copy facing −Z: every joint within ${(worst * 1000).toFixed(3)} mm of the original turned 180°`);
    expect(worst).toBeLessThan(0.001);
    expect(worstUnturned).toBeGreaterThan(0.1); // it does face the other way
  });
});
