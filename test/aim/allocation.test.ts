import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { setLookAt, setReach } from '../../src/api/aim.js';
import { setFollowTarget } from '../../src/api/followers.js';
import { createAnimationWorld, play, spawnCharacter } from '../../src/index.js';
import { aimSystem } from '../../src/systems/aimSystem.js';
import { blendSystem } from '../../src/systems/blendSystem.js';
import { followSystem } from '../../src/systems/followSystem.js';
import { rootMotionSystem } from '../../src/systems/rootMotionSystem.js';
import { sampleSystem } from '../../src/systems/sampleSystem.js';
import { skinSystem } from '../../src/systems/skinSystem.js';
import { createRandom, syntheticClip } from '../fixtures/synthetic.js';
import { frame, humanoid } from './helpers.js';

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('aimSystem allocates nothing', () => {
  it('1,000 characters with look-at (head, neck, spine) and reach, on one follower or two slots, moving targets', () => {
    const count = 1000;
    const skeleton = humanoid();
    const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount });
    const clip = syntheticClip(skeleton, { seed: 9, amplitude: 0.2 });
    const random = createRandom(21);
    const eids = Array.from({ length: count }, (_, n) => {
      const eid = spawnCharacter(world, skeleton, { x: (n % 40) * 2, z: Math.floor(n / 40) * 2, yaw: random() * 6 });
      play(world, eid, clip, { time: random() });
      if (n % 4 !== 3) setLookAt(world, eid, { joint: 'head', neck: 'neck', spine: 'chest', weight: n % 5 === 0 ? 0.5 : 1 });
      // Half the reaches aim at their own follower in slot 1, the head keeping slot 0.
      if (n % 4 !== 2) setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', follower: n % 2 });
      return eid;
    });
    // The API (setFollowTarget) may allocate; only aimSystem is measured below. Targets move
    // every frame, near the characters, some out of reach and outside the look-at limits.
    const moveTargets = (): void => {
      for (let k = 0; k < 100; k++) {
        const n = Math.floor(random() * count);
        const slot = n % 2 === 1 && k % 2 === 1 ? 1 : 0;
        setFollowTarget(world, eids[n]!, (n % 40) * 2 + random() * 2 - 1, 0.8 + random(), Math.floor(n / 40) * 2 + random() * 2 - 1, slot);
      }
    };
    for (let f = 0; f < 60; f++) { moveTargets(); frame(world, 1 / 60); } // warm-up: JIT
    gc();
    const perCall: number[] = [];
    let collections = 0;
    for (let f = 0; f < 200; f++) {
      moveTargets();
      sampleSystem(world, 1 / 60);
      blendSystem(world, 1 / 60);
      rootMotionSystem(world, 1 / 60);
      followSystem(world, 1 / 60);
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      aimSystem(world, 1 / 60);
      const after = process.memoryUsage().heapUsed;
      skinSystem(world, 1 / 60);
      const stats = profiler.stop()?.statistics ?? [];
      collections += stats.length;
      perCall.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
    }
    const median = perCall.sort((a, b) => a - b)[perCall.length >> 1]!;
    console.log(`200 frames × 1,000 characters (750 look-at, 750 reach, 500 of them on follower slot 1): median ${median} bytes per aimSystem call (${collections} GCs)`);
    // The measuring itself costs a few hundred bytes; one boxed double per character would be 16,000.
    expect(median).toBeLessThan(1024);
    expect(world.components.LocalPose.data.every(Number.isFinite)).toBe(true);
  });
});
