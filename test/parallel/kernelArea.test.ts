/**
 * The kernel area's copies are the world's, not a thread's (src/wasm/kernels.ts
 * `syncKernelArea`, docs/wasm.md), and it grows between frames (src/wasm/areaLayout.ts): a world
 * whose first 400 characters play 20 skeletons of 64 joints and 20 clips of 61 frames, and which
 * is given 20 more skeletons and clips at frame 11 — after its workers started — grows its
 * memory and moves its tables then (the area starts at 64 KiB with tables of 16 skeleton ids).
 * The workers see the grown area: `stepParallel` at 1, 2 and 4 threads gives the same pools, bit
 * for bit, as `step`, and not the JavaScript kernels' bits.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  disposeAnimationWorld,
  play,
  spawnCharacter,
  step,
  stepParallel,
  type AnimationWorld,
  type Clip,
  type KernelChoice,
  type Skeleton,
} from '../../src/index.js';
import { CHUNK_LOG_STRIDE } from '../../src/components/ThreadControl.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const SKELETONS = 40;
const JOINTS = 64;
const COUNT = 800;
const FRAMES = 30;
const DT = 1 / 60;

const skeletons: Skeleton[] = Array.from({ length: SKELETONS }, (_, s) => syntheticSkeleton(JOINTS, s + 1));
const clips: Clip[] = skeletons.map((skeleton, s) => syntheticClip(skeleton, { seed: s + 3, frameCount: 61 }));
const overlays: Clip[] = skeletons.map((skeleton, s) => syntheticClip(skeleton, { seed: s + 100, frameCount: 2, amplitude: 0.2 }));

/** SHA-256 of every typed array of every component but the per-thread `Follower.scratch`. */
function poolHash(world: AnimationWorld): string {
  const hash = createHash('sha256');
  const components = world.components as unknown as Record<string, Record<string, unknown>>;
  for (const name of Object.keys(components).sort()) {
    for (const field of Object.keys(components[name]!).sort()) {
      const value = components[name]![field];
      if (name === 'Follower' && field === 'scratch') continue;
      if (ArrayBuffer.isView(value)) hash.update(`${name}.${field}`).update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    }
  }
  return hash.digest('hex');
}

let grownAt = 0;

interface Run {
  readonly hashes: string[];
  readonly kernels: string;
  readonly workerChunks: number;
  readonly memoryBytes: number;
}

/** The crowd stepped FRAMES frames: by `step` (threads null) or `stepParallel` on `threads`. */
async function run(threads: number | null, kernels: KernelChoice = 'auto'): Promise<Run> {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: JOINTS, threads: threads ?? 1, kernels, verifyThreads: true });
  const random = createRandom(5);
  const spawn = (from: number, to: number, skeletonBase: number): void => {
    for (let n = from; n < to; n++) {
      const s = skeletonBase + ((n * 7) % (SKELETONS / 2)); // neighbours of different skeletons: every chunk mixes them
      const eid = spawnCharacter(world, skeletons[s]!, { x: n % 30, z: Math.floor(n / 30) });
      play(world, eid, clips[s]!, { time: random(), weight: 0.6 });
      if (n % 2 === 0) play(world, eid, overlays[s]!, { layer: 1, time: random(), weight: 0.4 }); // a two-layer override blend (the rest pose's copy)
    }
  };
  spawn(0, COUNT / 2, 0);
  const hashes: string[] = [];
  let workerChunks = 0;
  try {
    for (let f = 1; f <= FRAMES; f++) {
      if (f === 11) {
        if (world.wasm !== null) grownAt = world.wasm.memory.buffer.byteLength; // the memory before frame 11
        spawn(COUNT / 2, COUNT, SKELETONS / 2); // new skeletons and clips: the area grows before this frame
      }
      if (threads === null) step(world, DT);
      else await stepParallel(world, DT);
      if (world.parallel !== null) {
        const chunks = Math.ceil(world.characters.dense.length / 128);
        for (let c = 0; c < chunks; c++) if (world.parallel.chunkLog[c * CHUNK_LOG_STRIDE] !== 0) workerChunks++;
      }
      if (f % 10 === 0) hashes.push(poolHash(world));
    }
  } finally {
    disposeAnimationWorld(world);
  }
  return { hashes, kernels: world.kernels, workerChunks, memoryBytes: world.wasm === null ? 0 : world.wasm.memory.buffer.byteLength };
}

describe('a world whose kernel area grows while its workers run', () => {
  it('gives the same pools at 1, 2 and 4 threads as step, on the WebAssembly kernels (not the JavaScript kernels\' bits)', async () => {
    const reference = await run(null);
    expect(reference.kernels).toBe('wasm');
    expect(reference.memoryBytes).toBeGreaterThan(grownAt); // it grew at frame 11
    const beforeJs = grownAt;
    const js = await run(null, 'js');
    grownAt = beforeJs;
    expect(js.hashes[0]).not.toBe(reference.hashes[0]); // the float32 kernels ran for some characters
    for (const threads of [1, 2, 4]) {
      const result = await run(threads);
      expect(result.hashes, `threads: ${threads}`).toEqual(reference.hashes);
      expect(result.memoryBytes).toBeGreaterThan(grownAt);
      // The comparison means something only if the workers did part of the frames.
      if (threads > 1) expect(result.workerChunks).toBeGreaterThan(FRAMES);
    }
  }, 300_000);
});
