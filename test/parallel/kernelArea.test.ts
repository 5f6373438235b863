/**
 * The kernel area's copies are the world's, not a thread's (src/wasm/kernels.ts
 * `syncKernelArea`, docs/wasm.md): a world with more skeletons and clip frames than its kernel
 * area holds (40 skeletons of 64 joints, 32 fit; 40 clips of 61 frames, 2,048 frames fit) runs
 * some characters on the WebAssembly kernels, which round in float32, and the others on the
 * JavaScript kernels. Which ones must not depend on the thread count: `stepParallel` at 1, 2
 * and 4 threads gives the same pools, bit for bit, and `step`'s.
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

interface Run {
  readonly hashes: string[];
  readonly kernels: string;
  readonly workerChunks: number;
}

/** The crowd stepped FRAMES frames: by `step` (threads null) or `stepParallel` on `threads`. */
async function run(threads: number | null, kernels: KernelChoice = 'auto'): Promise<Run> {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: JOINTS, threads: threads ?? 1, kernels, verifyThreads: true });
  const random = createRandom(5);
  for (let n = 0; n < COUNT; n++) {
    const s = (n * 7) % SKELETONS; // neighbours of different skeletons: every chunk mixes them
    const eid = spawnCharacter(world, skeletons[s]!, { x: n % 30, z: Math.floor(n / 30) });
    play(world, eid, clips[s]!, { time: random(), weight: 0.6 });
    if (n % 2 === 0) play(world, eid, overlays[s]!, { layer: 1, time: random(), weight: 0.4 }); // a two-layer override blend (the rest pose's copy)
  }
  const hashes: string[] = [];
  let workerChunks = 0;
  try {
    for (let f = 1; f <= FRAMES; f++) {
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
  return { hashes, kernels: world.kernels, workerChunks };
}

describe('a world whose assets overflow the kernel area', () => {
  it('gives the same pools at 1, 2 and 4 threads as step, on the WebAssembly kernels (not the JavaScript kernels\' bits)', async () => {
    const reference = await run(null);
    expect(reference.kernels).toBe('wasm');
    const js = await run(null, 'js');
    expect(js.hashes[0]).not.toBe(reference.hashes[0]); // the float32 kernels ran for some characters
    for (const threads of [1, 2, 4]) {
      const result = await run(threads);
      expect(result.hashes, `threads: ${threads}`).toEqual(reference.hashes);
      // The comparison means something only if the workers did part of the frames.
      if (threads > 1) expect(result.workerChunks).toBeGreaterThan(FRAMES);
    }
  }, 300_000);
});
