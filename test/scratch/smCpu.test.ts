// @ts-nocheck
import { it } from 'vitest';
import { Session } from 'node:inspector/promises';
import { appendFileSync } from 'node:fs';
import { crowd, planRows } from '../../bench/gameCrowd.js';
import { step } from '../../src/index.js';

it('cpu', async () => {
  const rows = await planRows();
  const row = rows[1];
  const { world } = crowd(4000, row, process.env.K ?? 'wasm');
  for (let f = 0; f < 60; f++) { row.input?.(world, f); step(world, 1 / 60); }
  const session = new Session(); session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let f = 60; f < 200; f++) { row.input?.(world, f); step(world, 1 / 60); }
  const { profile } = await session.post('Profiler.stop');
  const self = new Map(); const dtById = new Map();
  for (let i = 0; i < profile.samples.length; i++) dtById.set(profile.samples[i], (dtById.get(profile.samples[i]) ?? 0) + profile.timeDeltas[i]);
  for (const node of profile.nodes) {
    const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dtById.get(node.id) ?? 0));
  }
  const rowsOut = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${(v / 1000 / 140).toFixed(3)} ms/frame ${k}`);
  appendFileSync('/tmp/smcpu.txt', rowsOut.join('\n') + '\n');
}, 600_000);
