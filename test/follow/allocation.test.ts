import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FOLLOW_SLOTS } from '../../src/components/Follower.js';
import { setFollower, setFollowTarget } from '../../src/follow.js';
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
});
