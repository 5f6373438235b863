// @ts-nocheck
import { it } from 'vitest';
import { Session } from 'node:inspector/promises';
import { appendFileSync } from 'node:fs';
import { createAnimationWorld, detectFootContacts, parseBvh, play, setFootLock, spawnCharacter, step } from '../../src/index.js';
import { readAssetText } from '../support/assets.js';

it('cpu', async () => {
  const { skeleton, clip } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
  const walk = detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip;
  const count = 10000;
  const kernels = (process.env.K ?? 'wasm') as 'js' | 'wasm';
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, kernels });
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, skeleton, { x: (i % 100) * 3, z: Math.floor(i / 100) * 3, rootMotion: true });
    play(world, eid, walk, { loop: true, time: ((i * 7919) % 1000) / 1000 * walk.duration });
    setFootLock(world, eid);
  }
  for (let f = 0; f < 60; f++) step(world, 1 / 60);
  const session = new Session(); session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let f = 0; f < 100; f++) step(world, 1 / 60);
  const { profile } = await session.post('Profiler.stop');
  const self = new Map<string, number>();
  const dtById = new Map<number, number>();
  for (let i = 0; i < profile.samples!.length; i++) dtById.set(profile.samples![i]!, (dtById.get(profile.samples![i]!) ?? 0) + profile.timeDeltas![i]!);
  for (const node of profile.nodes) {
    const key = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dtById.get(node.id) ?? 0));
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000 / 100).toFixed(3)} ms/frame ${k}`);
  appendFileSync('/tmp/cpu.txt', `${kernels}\n${rows.join('\n')}\n`);
}, 600_000);
