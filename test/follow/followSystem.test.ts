/**
 * followSystem in isolation: sampling at exact instants (split frames, several instants in
 * one frame), the Euler option against the seed's own update, and the system conventions
 * (other characters' data untouched, characters without a follower ignored, dt = 0, ranges).
 */
import { describe, expect, it } from 'vitest';
import { FOLLOW_SLOTS, FOLLOW_STATE_STRIDE } from '../../src/components/Follower.js';
import { setFollower, setFollowTarget } from '../../src/api/followers.js';
import { followEntities, followSystem } from '../../src/systems/followSystem.js';
import type { AnimationWorld } from '../../src/index.js';
import { expectAllNaN } from '../systems/helpers.js';
import { followRow, followState, followTriple, followWorld } from './helpers.js';
import { rk4 } from './reference.js';

const T = 0.4;
const GOAL = [1, -2, 0.5] as const;

/** The state the seed's ODE reaches from rest at 0 after `seconds` towards GOAL (RK4, per axis). */
function fromRest(seconds: number, duration = T): number[][] {
  return GOAL.map((g) => rk4([0, 0, 0], g, duration, seconds, Math.max(1, Math.ceil(seconds / 1e-5))));
}

function expectState(world: AnimationWorld, eid: number, expected: number[][], tolerance = 1e-10): void {
  const s = followState(world, eid);
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(s.x[k]! - expected[k]![0]!), `x[${k}]`).toBeLessThan(tolerance);
    expect(Math.abs(s.v[k]! - expected[k]![1]!) * T, `v[${k}]`).toBeLessThan(tolerance);
    expect(Math.abs(s.a[k]! - expected[k]![2]!) * T * T, `a[${k}]`).toBeLessThan(tolerance);
  }
}

function fresh(options: Parameters<typeof setFollower>[2] = {}): { world: AnimationWorld; eid: number } {
  const { world, eids } = followWorld(1);
  const eid = eids[0]!;
  setFollower(world, eid, { x: 0, y: 0, z: 0, ...options });
  setFollowTarget(world, eid, ...GOAL);
  return { world, eid };
}

describe('followSystem: sampling at exact multiples of the interval', () => {
  it('holds still before the first instant: the new target is not seen yet', () => {
    const { world, eid } = fresh();
    for (let f = 0; f < 19; f++) followSystem(world, 0.01); // 0.19 s
    const s = followState(world, eid);
    expect([...s.x, ...s.v, ...s.a]).toEqual(new Array(9).fill(0));
    expect(followTriple(world.components.Follower.sampled, eid)).toEqual([0, 0, 0]);
  });

  it('a frame ending exactly on an instant samples at its end', () => {
    const { world, eid } = fresh();
    followSystem(world, 0.2);
    expect(followTriple(world.components.Follower.sampled, eid)).toEqual([...GOAL]);
    expect(followState(world, eid).x).toEqual([0, 0, 0]);
    expect(world.components.Follower.timer[followRow(eid)]).toBe(0);
  });

  it('a frame spanning an instant is split there: 0.2 s at rest, then 0.05 s towards the target', () => {
    const { world, eid } = fresh();
    followSystem(world, 0.25);
    expectState(world, eid, fromRest(0.05));
    expect(world.components.Follower.timer[followRow(eid)]).toBeCloseTo(0.05, 15);
    // Early on a minimum-jerk move from rest is x ≈ 10 (t/T)³ of the way (jerk 60/T³ at 0).
    const share = followState(world, eid).x[0]! / GOAL[0];
    expect(share / (10 * (0.05 / T) ** 3)).toBeCloseTo(1, 0);
  });

  it('a long frame spanning several instants samples at the first and keeps the phase', () => {
    const { world, eid } = fresh({ interval: 0.1 });
    followSystem(world, 0.35); // instants at 0.1, 0.2, 0.3
    expectState(world, eid, fromRest(0.25));
    expect(world.components.Follower.timer[followRow(eid)]).toBeCloseTo(0.05, 14);
    // The next instant is at 0.4: a target set now is seen after 0.05 s more, not before.
    setFollowTarget(world, eid, 0, 0, 0);
    followSystem(world, 0.049);
    expect(followTriple(world.components.Follower.sampled, eid)).toEqual([...GOAL]);
    followSystem(world, 0.002);
    expect(followTriple(world.components.Follower.sampled, eid)).toEqual([0, 0, 0]);
  });

  it('a target set between instants waits for the next one', () => {
    const { world, eid } = fresh();
    followSystem(world, 0.1);
    setFollowTarget(world, eid, 5, 5, 5); // replaces GOAL before anything sampled it
    followSystem(world, 0.09);
    expect(followState(world, eid).x).toEqual([0, 0, 0]);
    followSystem(world, 0.02); // spans 0.2
    const x = followState(world, eid).x;
    expect(x.every((c) => c > 0)).toBe(true); // heading for (5, 5, 5), not GOAL (whose y < 0)
  });

  it('dt = 0 changes nothing', () => {
    const { world, eid } = fresh();
    followSystem(world, 0.3);
    const F = world.components.Follower;
    const before = [Array.from(F.state), Array.from(F.sampled), Array.from(F.timer)];
    followSystem(world, 0);
    expect([Array.from(F.state), Array.from(F.sampled), Array.from(F.timer)]).toEqual(before);
    expect(F.timer[followRow(eid)]).toBeCloseTo(0.1, 15);
  });
});

describe("followSystem: the Euler option is the seed's update", () => {
  it('matches MinJerkFollower.Update step for step (between instants)', () => {
    const { world, eid } = fresh({ integrator: 'euler' });
    followSystem(world, 0.2); // samples GOAL at the end of the frame; nothing moved yet
    // The seed's loop, per axis, from rest at 0 towards GOAL, 11 frames of 1/60 s (< one interval).
    const seed = GOAL.map((xf) => {
      let x = 0, v = 0, a = 0;
      const dt = 1 / 60, t = T, tt = T * t, ttt = T * tt;
      for (let f = 0; f < 11; f++) {
        const [x0, v0, a0] = [x, v, a];
        x = x0 + dt * v0;
        v = v0 + dt * a0;
        a = a0 - dt * ((60 / ttt) * (x0 - xf) + (36 / tt) * v0 + (9 / t) * a0);
      }
      return [x, v, a];
    });
    for (let f = 0; f < 11; f++) followSystem(world, 1 / 60);
    expectState(world, eid, seed, 1e-12);
  });
});

describe('followSystem: system conventions', () => {
  /** Three characters: 1 follows (exact), 2 has no follower, 3 follows (Euler, other T); NaN elsewhere. */
  function crowd(): { world: AnimationWorld; eids: number[] } {
    const { world, eids } = followWorld(3);
    const F = world.components.Follower;
    for (const array of [F.target, F.sampled, F.state, F.duration, F.interval, F.timer]) array.fill(Number.NaN);
    setFollower(world, eids[0]!, { x: 0, y: 0, z: 0 });
    setFollowTarget(world, eids[0]!, ...GOAL);
    setFollower(world, eids[2]!, { x: 1, y: 1, z: 1, duration: 0.7, interval: 0.15, integrator: 'euler' });
    setFollowTarget(world, eids[2]!, -1, 0, 2);
    return { world, eids };
  }
  const frames = [0.05, 0.17, 0.01, 0.3, 1 / 60, 0.2];

  it("touches no other character's rows, skips characters without a follower, and no other component", () => {
    const { world, eids } = crowd();
    const { Follower, LocalPose, ModelPose, SkinPalette, RootMotion, Layers } = world.components;
    const others = [LocalPose.data, ModelPose.data, SkinPalette.data, RootMotion.x, RootMotion.z, Layers.weight].map((a) => Array.from(a));
    for (const dt of frames) followSystem(world, dt);
    const b = eids[1]!;
    const used = [followRow(eids[0]!), followRow(eids[2]!)]; // slot 0 of each; slots 1 … 3 stay empty
    for (const [array, stride] of [[Follower.target, 3], [Follower.sampled, 3], [Follower.state, FOLLOW_STATE_STRIDE], [Follower.duration, 1], [Follower.interval, 1], [Follower.timer, 1]] as const) {
      expect(array.length).toBe((world.maxEntities + 1) * FOLLOW_SLOTS * stride);
      for (let row = 0; row < (world.maxEntities + 1) * FOLLOW_SLOTS; row++) {
        if (used.includes(row)) expect(Number.isNaN(array[row * stride]!)).toBe(false);
        else expectAllNaN(array, row * stride, stride);
      }
    }
    expect(Array.from(Follower.enabled.subarray(followRow(b), followRow(b + 1)))).toEqual(new Array(FOLLOW_SLOTS).fill(0));
    expect([LocalPose.data, ModelPose.data, SkinPalette.data, RootMotion.x, RootMotion.z, Layers.weight].map((a) => Array.from(a))).toEqual(others);
  });

  it("gives each character the result it gets alone (the matrix cache is shared, results are not)", () => {
    const { world, eids } = crowd();
    for (const dt of frames) followSystem(world, dt);
    const cases: Array<[number, Parameters<typeof setFollower>[2], readonly [number, number, number]]> = [
      [0, { x: 0, y: 0, z: 0 }, GOAL],
      [2, { x: 1, y: 1, z: 1, duration: 0.7, interval: 0.15, integrator: 'euler' }, [-1, 0, 2]],
    ];
    for (const [index, options, target] of cases) {
      const alone = followWorld(1);
      setFollower(alone.world, alone.eids[0]!, options);
      setFollowTarget(alone.world, alone.eids[0]!, ...target);
      for (const dt of frames) followSystem(alone.world, dt);
      expect(followState(world, eids[index]!)).toEqual(followState(alone.world, alone.eids[0]!));
    }
  });

  it('followEntities advances only the characters in [first, end) of the query', () => {
    const { world, eids } = crowd();
    const third = followState(world, eids[2]!);
    followEntities(world, 0.25, 0, 2); // dense order is spawn order here
    expect(followState(world, eids[2]!)).toEqual(third);
    expect(followState(world, eids[0]!).x[0]).toBeGreaterThan(0);
    followEntities(world, 0.25, 2, 3);
    expect(followState(world, eids[2]!)).not.toEqual(third); // (one Euler step from rest moves only a)
  });
});
