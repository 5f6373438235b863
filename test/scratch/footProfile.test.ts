// @ts-nocheck
import { it } from 'vitest';
import { createAnimationWorld, detectFootContacts, parseBvh, play, setFootLock, spawnCharacter, step } from '../../src/index.js';
import { beginFrame, endFrame, runCallerSystems } from '../../src/frame.js';
import { readAssetText } from '../support/assets.js';

it('profile', async () => {
  const { skeleton, clip } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
  const walk = detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip;
  for (const kernels of ['js', 'wasm'] as const) {
    for (const lock of [false, true]) {
      const count = 10000;
      const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, kernels });
      for (let i = 0; i < count; i++) {
        const eid = spawnCharacter(world, skeleton, { x: (i % 100) * 3, z: Math.floor(i / 100) * 3, rootMotion: true });
        play(world, eid, walk, { loop: true, time: ((i * 7919) % 1000) / 1000 * walk.duration });
        if (lock) setFootLock(world, eid);
      }
      for (let f = 0; f < 30; f++) step(world, 1 / 60);
      const systems = world.frame.systems.filter((s) => s.caller !== true);
      const times = systems.map(() => [] as number[]);
      for (let f = 0; f < 60; f++) {
        const n = beginFrame(world);
        runCallerSystems(world, 1 / 60, n);
        for (let s = 0; s < systems.length; s++) {
          const t0 = performance.now();
          for (let first = 0; first < n; first += 128) systems[s]!.entities(world, 1 / 60, first, Math.min(n, first + 128));
          times[s]!.push(performance.now() - t0);
        }
        endFrame(world, 1 / 60);
      }
      const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
      const locked = Array.from(world.components.FootLock.locked).filter((v) => v === 1).length;
      (await import('node:fs')).appendFileSync('/tmp/prof.txt', [kernels, lock, 'locked', locked, systems.map((s, i) => `${s.name} ${med(times[i]!).toFixed(2)}`).join(' | ')].join(' ') + '\n');
    }
  }
}, 600_000);
