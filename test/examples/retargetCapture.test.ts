/**
 * examples/retargetCapture.ts (docs/retargeting.md): the CMU 131_01 walk on RobotExpressive.
 * What must hold, derived apart from the binding: the pairs are the humanoid joints both
 * skeletons have; the Robot's hips (`Body`, carried 'scaled') stand at its root's rest height
 * plus the capture's hips height (read off the BVH frames) × the hip ratio, the ratio of the
 * two legs (hips above the ankles, legs straight); its IK feet, children of its root, stay at
 * the end of its own lower legs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HUMANOID_JOINTS, createAnimationWorld, getModelMatrices, humanoidMap, spawnCharacter, step } from '../../src/index.js';
import { playThroughRests, walkTheRobot } from '../../examples/retargetCapture.js';
import { REPO_ROOT } from '../support/assets.js';

describe('examples/retargetCapture.ts (docs/retargeting.md)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('pairs 20 humanoid joints through canonical references; the hips ride at the capture\'s × the legs\' ratio; the IK feet follow the lower legs', async () => {
    expect(process.cwd()).toBe(REPO_ROOT);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { capture, walk, robot, binding, world, eid } = await walkTheRobot();
    const printed = log.mock.calls.map((call) => String(call[0]));
    expect([binding.joints, binding.reference]).toEqual(['humanoid', 'canonical']);
    // The pairs: every humanoid joint both maps name, and nothing else.
    const from = humanoidMap(capture).joints, to = humanoidMap(robot).joints;
    const expected = HUMANOID_JOINTS.filter((j) => from[j] !== undefined && to[j] !== undefined).map((j) => `${to[j]} ← ${from[j]}`).sort();
    expect(expected).toHaveLength(20); // the Robot has no toes
    expect(binding.pairs.map((p) => `${p.target} ← ${p.source}`).sort()).toEqual(expected);
    expect(printed[0]).toMatch(/^humanoid, canonical: .*Body ← Hips, Hips ← lowerback/);

    // The hip ratio: the legs' — the hips' drop to the upper leg, then thigh and shin, at rest.
    const J = capture.jointCount;
    const leg = (skeleton: typeof robot, joints: typeof from) => {
      const w = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
      const e = spawnCharacter(w, skeleton);
      step(w, 0);
      const m = getModelMatrices(w, e);
      const at = (name: string | undefined) => { const j = skeleton.names.indexOf(name!); return [m[j * 12 + 9]!, m[j * 12 + 10]!, m[j * 12 + 11]!]; };
      const bone = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
      return at(joints.hips)[1]! - at(joints.leftUpperLeg)[1]! + bone(at(joints.leftUpperLeg), at(joints.leftLowerLeg)) + bone(at(joints.leftLowerLeg), at(joints.leftFoot));
    };
    const ratio = binding.hipRatio;
    expect(Math.abs(ratio / (leg(robot, to) / leg(capture, from)) - 1)).toBeLessThan(0.03);
    // Printed once a second: t s → frame 120 t of the 120 fps capture (no vertical root motion: the height stays in the pose).
    expect(printed).toHaveLength(9);
    printed.slice(1).forEach((line, k) => {
      const t = k + 1, height = Number(/hips (-?[\d.]+) m$/.exec(line)![1]);
      const captured = walk.frames[Math.round(t * walk.frameRate) * J * 10 + 1]!;
      expect(line.startsWith(`${t} s: `)).toBe(true);
      expect(Math.abs(height - (robot.rest[1]! + ratio * captured))).toBeLessThan(0.001);
    });
    // The capture ducks to 0.57 m at 3 s; the Robot's hips follow, well below their 1.37 m rest.
    expect(Number(/hips ([\d.]+)/.exec(printed[3]!)![1])).toBeLessThan(1);

    // Foot.L and Foot.R hang from the root, yet stay at the end of the lower legs (their rest
    // distance from the knee), away from their rest positions.
    const still = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount });
    const standing = spawnCharacter(still, robot);
    step(still, 0);
    const m = getModelMatrices(world, eid), rest = getModelMatrices(still, standing);
    const distance = (a: Float32Array, i: number, b: Float32Array, j: number) => Math.hypot(...[9, 10, 11].map((c) => a[i * 12 + c]! - b[j * 12 + c]!));
    for (const [foot, knee] of [['Foot.L', 'LowerLeg.L'], ['Foot.R', 'LowerLeg.R']] as const) {
      const f = robot.names.indexOf(foot), k = robot.names.indexOf(knee);
      expect(robot.parents[f]).toBe(0);
      expect(Math.abs(distance(m, f, m, k) - distance(rest, f, rest, k))).toBeLessThan(0.001);
      expect(distance(m, f, rest, f)).toBeGreaterThan(0.05);
    }
  });

  it('a binding chosen by hand plays through play({ binding }): humanoid pairs through the rests, not the default', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const { capture, walk, robot, binding: byDefault, world, eid } = await walkTheRobot();
    const binding = playThroughRests(world, eid, walk, capture, robot);
    expect([binding.joints, binding.reference, binding.matched]).toEqual(['humanoid', 'rest', 20]);
    expect(binding).not.toBe(byDefault);
    const before = Float32Array.from(getModelMatrices(world, eid));
    step(world, 1 / 60);
    // The layer restarted at 0 s through the rests: the pose is not the one 8 s into the walk.
    expect(Array.from(getModelMatrices(world, eid))).not.toEqual(Array.from(before));
  });
});
