// @ts-nocheck
import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import * as after from '../../bench/bitanimCrowd.js';
import * as afterPlan from '../../bench/plan.js';
import * as afterK from '../../src/kernels.js';
// @ts-ignore
import * as before from '../../../wt/base/bench/bitanimCrowd.js';
// @ts-ignore
import * as beforePlan from '../../../wt/base/bench/plan.js';
// @ts-ignore
import * as beforeK from '../../../wt/base/src/kernels.js';

it('blend A/B', () => {
  const rows: string[] = [];
  for (const kernels of ['js', 'wasm'] as const) {
    const sides = [
      { name: 'before', crowd: before.createBitanimCrowd(beforePlan.planCrowd(beforePlan.createCrowdAssets(), 10000, [0.7, 0.3]), 'systems', kernels), k: beforeK },
      { name: 'after', crowd: after.createBitanimCrowd(afterPlan.planCrowd(afterPlan.createCrowdAssets(), 10000, [0.7, 0.3]), 'systems', kernels), k: afterK },
    ];
    const times: number[][] = [[], []];
    for (let f = 0; f < 120; f++) {
      for (let i = 0; i < 2; i++) {
        const side = sides[(f + i) % 2]!;
        const world = side.crowd.world;
        const n = side.k.beginFrame(world);
        for (const s of world.frame.systems) {
          if (s.caller === true) continue;
          const t0 = performance.now();
          for (let first = 0; first < n; first += 128) s.entities(world, 1 / 60, first, Math.min(n, first + 128));
          if (s.name === 'blend' && f >= 20) times[(f + i) % 2]!.push(performance.now() - t0);
        }
        side.k.endFrame(world, 1 / 60);
      }
    }
    const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
    rows.push(`${kernels} blend before ${med(times[0]!).toFixed(2)} after ${med(times[1]!).toFixed(2)} ratio ${(med(times[1]!) / med(times[0]!)).toFixed(3)}`);
  }
  appendFileSync('/tmp/blendab.txt', rows.join('\n') + '\n');
}, 900_000);
