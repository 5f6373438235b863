import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_SLOTS } from '../../src/components/Follower.js';
import { setFollower, setFollowTarget, setFollowTargetAcceleration, setFollowTargetVelocity } from '../../src/api/followers.js';
import { followSystem } from '../../src/systems/followSystem.js';
import { createRandom } from '../fixtures/synthetic.js';
import { followWorld } from './helpers.js';

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('followSystem allocates nothing', () => {
  it('1,000 characters, 1,750 followers in slots 0, 1 and 3 (both integrators, mixed T and intervals, moving targets, varying dt)', () => {
    const count = 1000;
    const { world, eids } = followWorld(count);
    const durations = [0.3, 0.4, 0.55], intervals = [0.1, 0.2, 0.25];
    eids.forEach((eid, n) => setFollower(world, eid, {
      x: n, y: 0, z: 0, duration: durations[n % 3]!, interval: intervals[(n >> 1) % 3]!, integrator: n % 4 === 0 ? 'euler' : 'exact',
    }));
    // Three characters in four have a second follower: in slot 1 (odd n) or the last slot (n % 4 = 2).
    eids.forEach((eid, n) => {
      if (n % 2 === 0 && n % 4 !== 2) return;
      setFollower(world, eid, { slot: n % 2 === 1 ? 1 : FOLLOW_SLOTS - 1, x: 0, y: n, z: 0, duration: durations[(n + 1) % 3]!, integrator: n % 3 === 0 ? 'euler' : 'exact' });
    });
    const random = createRandom(17);
    // The API (setFollowTarget) may allocate; only the system is measured below. dt varies per
    // frame, so the step matrices are recomputed (cache misses) and frames are split at instants.
    const frame = (): number => {
      for (let k = 0; k < 100; k++) {
        const n = Math.floor(random() * count);
        const slot = n % 2 === 1 && k % 2 === 1 ? 1 : 0;
        setFollowTarget(world, eids[n]!, random() * 10, random(), random(), slot);
      }
      return 1 / 90 + random() * (1 / 30 - 1 / 90);
    };
    for (let f = 0; f < 100; f++) followSystem(world, frame()); // warm-up: JIT, lazily made structures
    gc();
    const perStep: number[] = [];
    let collections = 0;
    for (let f = 0; f < 300; f++) {
      const dt = frame();
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      followSystem(world, dt);
      const after = process.memoryUsage().heapUsed;
      const stats = profiler.stop()?.statistics ?? [];
      collections += stats.length;
      perStep.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
    }
    const median = perStep.sort((a, b) => a - b)[perStep.length >> 1]!;
    console.log(`300 frames × 1,750 followers (1,000 characters, slots 0, 1 and 3): median ${median} bytes per followSystem call (${collections} GCs)`);
    // The measuring itself costs a few hundred bytes; one boxed double per follower would be 28,000.
    expect(median).toBeLessThan(1024);
    // The followers stayed finite (the Euler ones run at h ≤ 0.11, inside their limit).
    expect(world.components.Follower.state.every(Number.isFinite)).toBe(true);
    expect(world.components.Follower.enabled.reduce((sum, e) => sum + e, 0)).toBe(1750);
  });

  it('moving targets: setFollowTarget, setFollowTargetVelocity and setFollowTargetAcceleration on every follower each frame, then followSystem (1,000 characters, half predicting)', () => {
    const count = 1000;
    const { world, eids } = followWorld(count);
    eids.forEach((eid, n) => setFollower(world, eid, { x: n, y: 0, z: 0, predict: n % 2 === 0, integrator: n % 4 === 1 ? 'euler' : 'exact' }));
    const random = createRandom(23);
    const phases = Float64Array.from(eids, () => random() * 6);
    // The game's side: each target on a circle (position, velocity, acceleration), numbers that
    // are not small integers, precomputed for a cycle of FRAMES frames into a generic array
    // (its elements are heap numbers already). So the game's own boxing is outside the measure —
    // a double computed in a loop and passed to a call V8 does not inline is boxed by the
    // caller, whichever library it calls — and what is measured is what the setters and the
    // system allocate, whatever V8 inlines.
    const FRAMES = 12, PER = 9;
    const given: unknown[] = new Array(FRAMES * count * PER).fill(null);
    const dts: unknown[] = new Array(FRAMES).fill(null);
    let time = 0;
    for (let f = 0; f < FRAMES; f++) {
      dts[f] = 1 / 60 + (f % 3) / 600;
      for (let n = 0; n < count; n++) {
        const angle = time + phases[n]!, c = Math.cos(angle), s = Math.sin(angle), b = (f * count + n) * PER;
        given[b] = n + c; given[b + 1] = 1.5 + s; given[b + 2] = 0.25 * c;
        given[b + 3] = -s; given[b + 4] = c; given[b + 5] = -0.25 * s;
        given[b + 6] = -c; given[b + 7] = -s; given[b + 8] = -0.25 * c;
      }
      time += dts[f] as number;
    }
    const frame = (f: number): void => {
      const k = f % FRAMES;
      for (let n = 0; n < count; n++) {
        const b = (k * count + n) * PER;
        setFollowTarget(world, eids[n]!, given[b] as number, given[b + 1] as number, given[b + 2] as number);
        setFollowTargetVelocity(world, eids[n]!, given[b + 3] as number, given[b + 4] as number, given[b + 5] as number);
        setFollowTargetAcceleration(world, eids[n]!, given[b + 6] as number, given[b + 7] as number, given[b + 8] as number);
      }
      followSystem(world, dts[k] as number);
    };
    for (let f = 0; f < 200; f++) frame(f); // warm-up: JIT
    gc();
    const perFrame: number[] = [];
    let collections = 0;
    for (let f = 0; f < 300; f++) {
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      frame(f);
      const after = process.memoryUsage().heapUsed;
      const stats = profiler.stop()?.statistics ?? [];
      collections += stats.length;
      perFrame.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
    }
    const median = perFrame.sort((a, b) => a - b)[perFrame.length >> 1]!;
    console.log(`300 frames × 1,000 followers × 3 target calls + followSystem: median ${median} bytes per frame (${collections} GCs)`);
    // 9,000 numbers are passed per frame: a setter that boxed or copied them would allocate 48,000 bytes or more.
    expect(median).toBeLessThan(1024);
    expect(world.components.Follower.state.every(Number.isFinite)).toBe(true);
  });
});
