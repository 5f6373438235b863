/**
 * `stepParallel` equals `step` bit for bit with marker sync: a crowd of Fox characters blending
 * the Walk with its half-cycle copy (`syncBy: 'markers'`, by play) and of CMU walkers on a
 * blend space of a 2-step and a 4-step cut (`syncBy: 'markers'`), with some clips first played
 * after the workers started (their marker tables reach the workers with the other assets).
 * Every 30 frames: SHA-256 of every pool and of the events drained.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  detectFootContacts,
  disposeAnimationWorld,
  drainEvents,
  loadGltf,
  parseBvh,
  play,
  setBlendSpace,
  spawnCharacter,
  step,
  stepParallel,
  type AnimationWorld,
  type BlendSpace,
  type Clip,
} from '../../src/index.js';
import { readAsset, readAssetText } from '../support/assets.js';
import { hashComponents } from '../support/poolHash.js';

const DT = 1 / 60;
const COUNT = 768; // six chunks of FRAME_CHUNK = 128, so the workers claim some
const FRAMES = 120;
const open: AnimationWorld[] = [];
afterAll(() => open.forEach(disposeAnimationWorld));

let foxA: Clip, foxB: Clip, foxLate: Clip, space: BlendSpace;

function cycleFrom(clip: Clip, first: number, count: number, name: string): Clip {
  const size = clip.skeleton.jointCount * 10;
  const n = clip.frameCount - (clip.loop ? 1 : 0);
  const frames = new Float32Array(count * size);
  for (let f = 0; f < count; f++) frames.set(clip.frames.subarray(((first + f) % n) * size, ((first + f) % n + 1) * size), f * size);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, appendSeam: true, name });
}

beforeAll(async () => {
  const { clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
  const walk = clips.find((c) => c.name === 'Walk')!;
  const feet = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
  foxA = detectFootContacts(walk, { feet }).clip;
  foxB = detectFootContacts(cycleFrom(walk, 17, 34, 'Walk, half on'), { feet }).clip;
  foxLate = detectFootContacts(cycleFrom(walk, 9, 34, 'Walk, a quarter on'), { feet }).clip;
  const { clip: take } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'));
  const cmuFeet = ['LeftAnkle', 'RightAnkle'];
  const two = detectFootContacts(cycleFrom(take, 498, 131, 'walk 2'), { feet: cmuFeet }).clip;
  const four = detectFootContacts(cycleFrom(take, 361, 344, 'walk 4'), { feet: cmuFeet }).clip;
  space = createBlendSpace({ type: '1d', samples: [{ clip: two, x: 0 }, { clip: four, x: 1 }], syncBy: 'markers' });
});

function poolHash(world: AnimationWorld): string {
  const h = hashComponents(world);
  return h.update(String(world.time)).digest('hex');
}

async function run(threads: number | null): Promise<string[]> {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: 31, threads: threads ?? 1, verifyThreads: true });
  open.push(world);
  const fox: number[] = [], walkers: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    if (i % 2 === 0) {
      const eid = spawnCharacter(world, foxA.skeleton);
      play(world, eid, foxA, { weight: 0.3 + (i % 7) / 10, syncGroup: 0, syncBy: 'markers', time: (i % 5) / 10 });
      play(world, eid, foxB, { layer: 1, weight: 0.5, syncGroup: 0, syncBy: 'markers', time: (i % 3) / 10 });
      fox.push(eid);
    } else {
      walkers.push(spawnCharacter(world, space.clips[0]!.skeleton, { rootMotion: true }));
    }
  }
  const out: string[] = [];
  let events = createHash('sha256');
  for (let f = 1; f <= FRAMES; f++) {
    walkers.forEach((eid, k) => setBlendSpace(world, eid, space, (Math.sin(f / 40 + k) + 1) / 2));
    if (f === 40) fox.slice(0, 10).forEach((eid) => play(world, eid, foxLate, { layer: 2, weight: 0.8, syncGroup: 0, syncBy: 'markers' }));
    if (threads === null) step(world, DT);
    else await stepParallel(world, DT);
    for (const e of drainEvents(world)) events.update(`${e.eid} ${e.clip.name} ${e.name} ${e.time};`);
    if (f % 30 === 0) {
      out.push(`${poolHash(world)} ${events.digest('hex')}`);
      events = createHash('sha256');
    }
  }
  return out;
}

describe('stepParallel equals step bit for bit with marker sync', () => {
  let reference: string[];
  beforeAll(async () => {
    reference = await run(null);
  });
  for (const threads of [2, 3]) {
    it(`threads: ${threads}`, async () => {
      expect(await run(threads)).toEqual(reference);
    });
  }
});
