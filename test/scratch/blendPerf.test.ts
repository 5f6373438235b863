// @ts-nocheck
import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { createBitanimCrowd } from '../../bench/bitanimCrowd.js';
import { createCrowdAssets, planCrowd } from '../../bench/plan.js';
import { beginFrame, endFrame } from '../../src/kernels.js';

it('blend perf', () => {
  const assets = createCrowdAssets();
  const plan = planCrowd(assets, 10000, [0.7, 0.3]);
  for (const kernels of ['js', 'wasm'] as const) {
    const crowd = createBitanimCrowd(plan, 'systems', kernels);
    const world = crowd.world;
    const blend = world.frame.systems.find((s) => s.name === 'blend')!;
    const others = world.frame.systems.filter((s) => s.caller !== true);
    const times: number[] = [];
    for (let f = 0; f < 80; f++) {
      const n = beginFrame(world);
      for (const s of others) {
        const t0 = performance.now();
        for (let first = 0; first < n; first += 128) s.entities(world, 1 / 60, first, Math.min(n, first + 128));
        if (s === blend && f >= 20) times.push(performance.now() - t0);
      }
      endFrame(world, 1 / 60);
    }
    times.sort((a, b) => a - b);
    appendFileSync('/tmp/blendperf.txt', `${process.env.TAG} ${kernels} blend median ${times[times.length >> 1]!.toFixed(2)} ms p25 ${times[times.length >> 2]!.toFixed(2)}\n`);
  }
}, 600_000);
