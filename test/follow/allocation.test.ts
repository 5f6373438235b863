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
    let time = 0;
    // The game's side: each target on a circle (position, velocity, acceleration), doubles
    // that are not small integers, so a boxed argument would show. Two loops: V8 inlines at
    // most ~920 bytes of bytecode into one optimized function, about two of these setters
    // (each ~370 with what it inlines), and a setter it does not inline gets its doubles boxed.
    const setPositions = (): void => {
      for (let n = 0; n < count; n++) {
        const angle = time + phases[n]!;
        const c = Math.cos(angle), s = Math.sin(angle);
        setFollowTarget(world, eids[n]!, n + c, 1.5 + s, 0.25 * c);
        setFollowTargetVelocity(world, eids[n]!, -s, c, -0.25 * s);
      }
    };
    const setAccelerations = (): void => {
      for (let n = 0; n < count; n++) {
        const angle = time + phases[n]!;
        const c = Math.cos(angle);
        setFollowTargetAcceleration(world, eids[n]!, -c, -Math.sin(angle), -0.25 * c);
      }
    };
    const frame = (dt: number): void => {
      setPositions();
      setAccelerations();
      followSystem(world, dt);
      time += dt;
    };
    for (let f = 0; f < 200; f++) frame(1 / 60 + (f % 3) / 600); // warm-up: JIT
    gc();
    const perFrame: number[] = [];
    let collections = 0;
    for (let f = 0; f < 300; f++) {
      const dt = 1 / 60 + (f % 3) / 600;
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      frame(dt);
      const after = process.memoryUsage().heapUsed;
      const stats = profiler.stop()?.statistics ?? [];
      collections += stats.length;
      perFrame.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
    }
    const median = perFrame.sort((a, b) => a - b)[perFrame.length >> 1]!;
    console.log(`300 frames × 1,000 followers × 3 target calls + followSystem: median ${median} bytes per frame (${collections} GCs)`);
    // 9,000 doubles are passed per frame: one setter not inlined would box 3,000 (48,000 bytes).
    expect(median).toBeLessThan(1024);
    expect(world.components.Follower.state.every(Number.isFinite)).toBe(true);
  });
});
