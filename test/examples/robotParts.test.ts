/**
 * examples/robotParts.ts (docs/importing.md "Rigid meshes, morph targets, attachments",
 * and "Sockets"), run on the real RobotExpressive: the parts it lists, the posed vertices
 * (against the joint each rigid part rides on), the hand and fingertip sockets.
 */
import { describe, expect, it } from 'vitest';
import { getModelMatrices } from '../../src/index.js';
import { robotAt } from '../../examples/robotParts.js';

describe('examples/robotParts.ts', () => {
  it('lists 15 rigid parts and 4 skinned ones, the Head with its three expressions', async () => {
    const { parts } = await robotAt(0.5);
    expect(parts).toHaveLength(19);
    expect(parts.filter((p) => p.includes(' rigid on '))).toHaveLength(15);
    expect(parts).toContain('Head#0 rigid on Head Head.Angry,Head.Surprised,Head.Sad');
    expect(parts).toContain('Hand.R#0 skinned ');
  });

  it('poses every vertex; a rigid part keeps its shape (distances between its vertices) as its joint moves', async () => {
    const at0 = await robotAt(0);
    const at1 = await robotAt(1.2);
    const arm = at0.meshes.findIndex((m) => m.name === 'Arm.R#0');
    const [a, b] = [at0.posed[arm]!, at1.posed[arm]!];
    const distance = (p: Float32Array, i: number, j: number) => Math.hypot(p[3 * i]! - p[3 * j]!, p[3 * i + 1]! - p[3 * j + 1]!, p[3 * i + 2]! - p[3 * j + 2]!);
    let moved = 0;
    for (let v = 1; v < a.length / 3; v++) {
      expect(distance(b, 0, v)).toBeCloseTo(distance(a, 0, v), 5);
      moved = Math.max(moved, Math.hypot(a[3 * v]! - b[3 * v]!, a[3 * v + 1]! - b[3 * v + 1]!, a[3 * v + 2]! - b[3 * v + 2]!));
    }
    expect(moved).toBeGreaterThan(0.05); // Wave moves the right arm
    for (const p of at1.posed) expect(p.every(Number.isFinite)).toBe(true);
  });

  it('the sockets are in world space: the character at x = 2 turned by +90°, the fingertip beyond its finger joint', async () => {
    const { skeleton, hand, fingertip, world, eid } = await robotAt(0.5);
    const model = getModelMatrices(world, eid);
    const j = skeleton.names.indexOf('LowerArm.R');
    // yaw +90°: model (x, y, z) → world (z + 2, y, −x).
    expect(hand[9]).toBeCloseTo(model[j * 12 + 11]! + 2, 5);
    expect(hand[10]).toBeCloseTo(model[j * 12 + 10]!, 5);
    expect(hand[11]).toBeCloseTo(-model[j * 12 + 9]!, 5);
    const finger = skeleton.names.indexOf('Middle2.R');
    const f = model.subarray(finger * 12);
    const fingerWorld = [f[11]! + 2, f[10]!, -f[9]!];
    const gap = Math.hypot(fingertip[9]! - fingerWorld[0]!, fingertip[10]! - fingerWorld[1]!, fingertip[11]! - fingerWorld[2]!);
    expect(gap).toBeGreaterThan(0.01); // the _end node sits a finger segment beyond its joint
    expect(gap).toBeLessThan(0.5);
  });
});
