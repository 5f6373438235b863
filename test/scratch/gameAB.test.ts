// @ts-nocheck
import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import * as after from '../../bench/gameCrowd.js';
import * as afterApi from '../../src/index.js';
import * as before from '../../../wt/base/bench/gameCrowd.js';
import * as beforeApi from '../../../wt/base/src/index.js';

it('game A/B', async () => {
  const rowsA = await before.planRows(), rowsB = await after.planRows();
  const out = [];
  for (const index of (process.env.ROWS ?? '0,1,2').split(',').map(Number)) {
    for (const kernels of ['js', 'wasm']) {
      const sides = [
        { row: rowsA[index], world: before.crowd(4000, rowsA[index], kernels).world, api: beforeApi },
        { row: rowsB[index], world: after.crowd(4000, rowsB[index], kernels).world, api: afterApi },
      ];
      const times = [[], []];
      for (let f = 0; f < 150; f++) {
        for (let i = 0; i < 2; i++) {
          const k = (f + i) % 2, side = sides[k];
          side.row.input?.(side.world, f);
          const t0 = performance.now();
          side.api.step(side.world, 1 / 60);
          if (f >= 30) times[k].push(performance.now() - t0);
        }
      }
      const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
      out.push(`${rowsB[index].name} ${kernels}: before ${med(times[0]).toFixed(2)} after ${med(times[1]).toFixed(2)} ratio ${(med(times[1]) / med(times[0])).toFixed(3)}`);
    }
  }
  appendFileSync('/tmp/gameab.txt', out.join('\n') + '\n');
}, 900_000);
