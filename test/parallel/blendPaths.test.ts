/**
 * The masked override blend and the additive layers on the WebAssembly kernels
 * (`blendOverrideMasked`, `applyAdditive`; docs/wasm.md) give the same bits on every thread
 * count, and so does sampling through proportions-only bindings (`sampleBound`): a crowd of 700
 * RobotExpressive.glb characters, every seventh on a 0.8× copy of the Robot's skeleton (its
 * clips through a binding), each with a walk or a run, a masked upper-body
 * override layer, an additive masked layer of a difference clip; transitions between clips,
 * whose captures rebuild the last blend with the frame's kernels) stepped by `step` and by
 * `stepParallel` at 1, 2 and 4 threads: every pool equal, bit for bit, at every checkpoint,
 * and not the JavaScript kernels' bits.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindSkeletons,
  createAnimationWorld,
  createSkeleton,
  createDifferenceClip,
  createMask,
  disposeAnimationWorld,
  loadGltf,
  play,
  spawnCharacter,
  step,
  stepParallel,
  transition,
  type AnimationWorld,
  type Clip,
  type KernelChoice,
  type Mask,
  type Skeleton,
} from '../../src/index.js';
import { CHUNK_LOG_STRIDE } from '../../src/components/ThreadControl.js';
import { createRandom } from '../fixtures/synthetic.js';
import { ASSETS_URL } from '../support/assets.js';

const COUNT = 700;
const FRAMES = 40;
const DT = 1 / 60;

let skeleton: Skeleton, small: Skeleton;
let bases: Clip[], wave: Clip, difference: Clip, upper: Mask, arms: Mask, smallUpper: Mask;

beforeAll(async () => {
  const gltf = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS_URL))));
  const named = (name: string): Clip => gltf.clips.find((c) => c.name === name)!;
  skeleton = gltf.skeletons[0]!;
  bases = [named('Walking'), named('Running'), named('Idle')];
  wave = named('Wave');
  difference = createDifferenceClip(named('Punch'), named('Idle'));
  upper = createMask(skeleton, { Torso: 1, Neck: 0.5 });
  arms = createMask(skeleton, { 'UpperArm.R': 1, 'UpperArm.L': 0.3 });
  const rest = Float32Array.from(skeleton.rest);
  for (let j = 0; j < skeleton.jointCount; j++) for (let c = 0; c < 3; c++) rest[j * 10 + c]! *= 0.8;
  small = createSkeleton({ names: skeleton.names, parents: skeleton.parents, rest });
  smallUpper = createMask(small, { Torso: 1 });
  expect(bindSkeletons(skeleton, small).retarget).toBeNull();
}, 60_000);

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

async function run(threads: number | null, kernels: KernelChoice = 'wasm'): Promise<{ hashes: string[]; workerChunks: number }> {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: skeleton.jointCount, threads: threads ?? 1, kernels, maxTransitions: COUNT, verifyThreads: true });
  const random = createRandom(29);
  const alive: number[] = [];
  for (let n = 0; n < COUNT; n++) {
    const bound = n % 7 === 6;
    const eid = spawnCharacter(world, bound ? small : skeleton, { x: n % 30, z: Math.floor(n / 30) });
    play(world, eid, bases[n % 3]!, { time: random() * 2 });
    if (n % 4 !== 3) play(world, eid, wave, { layer: 1, time: random(), weight: 0.2 + 0.8 * random(), mask: bound ? smallUpper : n % 2 === 0 ? upper : arms });
    if (n % 3 !== 1) play(world, eid, difference, { layer: 2, time: random(), weight: random(), mask: n % 5 === 0 ? undefined : bound ? smallUpper : upper, additive: true });
    alive.push(eid);
  }
  const hashes: string[] = [];
  let workerChunks = 0;
  try {
    for (let f = 1; f <= FRAMES; f++) {
      if (f % 15 === 0) for (let k = f % 4; k < alive.length; k += 4) transition(world, alive[k]!, bases[(k + f) % 3]!, { duration: 0.2, mode: k % 2 === 0 ? 'inertialize' : 'crossfade' });
      if (threads === null) step(world, DT);
      else await stepParallel(world, DT);
      if (world.parallel !== null) {
        const chunks = Math.ceil(world.characters.dense.length / 128);
        for (let c = 0; c < chunks; c++) if (world.parallel.chunkLog[c * CHUNK_LOG_STRIDE] !== 0) workerChunks++;
      }
      if (f % 10 === 0) hashes.push(poolHash(world));
    }
    expect(world.kernels).toBe(kernels === 'wasm' ? 'wasm' : 'js');
    if (world.wasm !== null) {
      // Both masks and the difference clip's reference have copies: the kernels blended them.
      expect(world.wasm.area.maskTable[0]).not.toBe(0);
      expect(world.wasm.area.maskTable[1]).not.toBe(0);
      expect(world.wasm.area.referenceTable[0]).not.toBe(0);
      // The bindings onto the 0.8× copy (proportions only) have copies: sampled on the kernel.
      const bindings = world.assets.bindings;
      expect(bindings.length).toBeGreaterThan(0);
      for (let id = 0; id < bindings.length; id++) expect(world.wasm.area.bindingTable[id]).not.toBe(0);
    }
  } finally {
    disposeAnimationWorld(world);
  }
  return { hashes, workerChunks };
}

describe('masked override and additive layers on the WebAssembly kernels', () => {
  it('stepParallel at 1, 2 and 4 threads gives step\'s pools bit for bit (not the JavaScript kernels\')', async () => {
    const reference = await run(null);
    const js = await run(null, 'js');
    expect(js.hashes[0]).not.toBe(reference.hashes[0]);
    for (const threads of [1, 2, 4]) {
      const result = await run(threads);
      expect(result.hashes, `threads: ${threads}`).toEqual(reference.hashes);
      if (threads > 1) expect(result.workerChunks).toBeGreaterThan(FRAMES);
    }
  }, 300_000);
});
