// @ts-nocheck
import { it } from 'vitest';
import { appendFileSync } from 'node:fs';
import { crowd, planRows } from '../../bench/gameCrowd.js';
import { beginFrame, endFrame, runCallerSystems } from '../../src/frame.js';

it('game profile', async () => {
  const rows = await planRows();
  for (const index of (process.env.ROWS ?? '1,3').split(',').map(Number)) {
    const row = rows[index];
    for (const kernels of ['js', 'wasm']) {
      const { world } = crowd(4000, row, kernels);
      const systems = world.frame.systems;
      const times = systems.map(() => []);
      for (let f = 0; f < 90; f++) {
        row.input?.(world, f);
        const n = beginFrame(world);
        for (let s = 0; s < systems.length; s++) {
          const t0 = performance.now();
          if (systems[s].caller === true) systems[s].entities(world, 1 / 60, 0, n);
          else for (let first = 0; first < n; first += 128) systems[s].entities(world, 1 / 60, first, Math.min(n, first + 128));
          if (f >= 30) times[s].push(performance.now() - t0);
        }
        endFrame(world, 1 / 60);
      }
      const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
      appendFileSync('/tmp/game.txt', `${row.name} ${kernels}: ${systems.map((s, i) => `${s.name} ${med(times[i]).toFixed(2)}`).join(' | ')}\n`);
    }
  }
}, 900_000);
