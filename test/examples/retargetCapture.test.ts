/**
 * examples/retargetCapture.ts (docs/retargeting.md): the CMU 131_01 walk on RobotExpressive.
 * What must hold, derived apart from the binding: the pairs are the humanoid joints both
 * skeletons have; the Robot's hips (`Body`, carried 'scaled') stand at its root's rest height
 * plus the capture's hips height × the hip ratio, Robot hip height ÷ the capture's mean hip
 * height (read off the BVH frames); its IK feet, children of its root, keep their rest.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HUMANOID_JOINTS, createAnimationWorld, getModelMatrices, humanoidMap, spawnCharacter, step } from '../../src/index.js';
import { playThroughRests, walkTheRobot } from '../../examples/retargetCapture.js';
import { REPO_ROOT } from '../support/assets.js';

describe('examples/retargetCapture.ts (docs/retargeting.md)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('pairs 20 humanoid joints through canonical references; the hips ride at the capture\'s × the hip ratio; the IK feet stay at rest', async () => {
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

    // The hip ratio: the Robot's rest hip height over the capture's hips' mean height (the BVH root's Y channel).
    const J = capture.jointCount;
    let sum = 0;
    for (let f = 0; f < walk.frameCount; f++) sum += walk.frames[f * J * 10 + 1]!;
    const ratio = robot.hipHeight / (sum / walk.frameCount);
    expect(ratio).toBeCloseTo(1.2759 / 0.88197, 3);
    // Printed once a second: t s → frame 120 t of the 120 fps capture (no vertical root motion: the height stays in the pose).
    expect(printed).toHaveLength(9);
    printed.slice(1).forEach((line, k) => {
      const t = k + 1, height = Number(/hips (-?[\d.]+) m$/.exec(line)![1]);
      const captured = walk.frames[Math.round(t * walk.frameRate) * J * 10 + 1]!;
      expect(line.startsWith(`${t} s: `)).toBe(true);
      expect(Math.abs(height - (robot.rest[1]! + ratio * captured))).toBeLessThan(0.001);
    });
    // The capture ducks to 0.57 m at 3 s; the Robot's hips follow, well below their 1.37 m rest.
    expect(Number(/hips ([\d.]+)/.exec(printed[3]!)![1])).toBeLessThan(0.9);

    // Foot.L and Foot.R hang from the root: they take the ankles' rotation, never a position.
    const still = createAnimationWorld({ maxEntities: 1, maxJoints: robot.jointCount });
    const standing = spawnCharacter(still, robot);
    step(still, 0);
    const m = getModelMatrices(world, eid), rest = getModelMatrices(still, standing);
    for (const name of ['Foot.L', 'Foot.R']) {
      const j = robot.names.indexOf(name);
      expect(robot.parents[j]).toBe(0);
      [9, 10, 11].forEach((c) => expect(m[j * 12 + c]!).toBeCloseTo(rest[j * 12 + c]!, 5));
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
