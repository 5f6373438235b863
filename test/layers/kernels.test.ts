/**
 * Issue 21 item 3 on the other paths: at `maxLayers: 8` the WebAssembly kernels (sampling into
 * the thread's layer scratch, the override blend over the layers' bits, which reach bit 7 here)
 * agree with the JavaScript kernels within 1e-5, and `stepParallel` on 2 threads gives `step`'s
 * pools bit for bit (the workers get the Layers pools and their stride, and a layer scratch of
 * 8 slots each).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createMask, disposeAnimationWorld, play, spawnCharacter, step, stepParallel, transition,
  type AnimationWorld, type Clip, type KernelChoice,
} from '../../src/index.js';
import { CHUNK_LOG_STRIDE } from '../../src/components/ThreadControl.js';
import { createRandom, syntheticClip } from '../fixtures/synthetic.js';
import { humanoid } from '../aim/helpers.js';

const DT = 1 / 60;
const skeleton = humanoid();
const clips: Clip[] = Array.from({ length: 6 }, (_, k) => syntheticClip(skeleton, { seed: 10 + k, amplitude: 0.25, name: `c${k}` }));
const wave = syntheticClip(skeleton, { seed: 30, amplitude: 0.2, name: 'wave' });
const upper = createMask(skeleton, { chest: 1 });

/**
 * A crowd of `count` characters on 8 layer slots: layers 0–4 override (random weights), on half
 * of them layer 5 a masked override layer, layer 6 additive; layer 7 (and 5 on the other half)
 * free for the outgoing clips of cross-fades, which start on layers 0–4 every 20 frames.
 */
function crowd(kernels: KernelChoice, threads: number, count: number): { world: AnimationWorld; frame: (f: number) => void } {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: skeleton.jointCount, maxLayers: 8, kernels, threads, maxEvents: 256 });
  const random = createRandom(8);
  const eids: number[] = [];
  for (let n = 0; n < count; n++) {
    const eid = spawnCharacter(world, skeleton, { x: n % 20, z: Math.floor(n / 20) });
    eids.push(eid);
    for (let layer = 0; layer < 5; layer++) play(world, eid, clips[(n + layer) % clips.length]!, { layer, weight: 0.2 + random(), time: random() });
    if (n % 2 === 0) play(world, eid, clips[n % clips.length]!, { layer: 5, weight: 0.7, mask: upper, time: random() });
    play(world, eid, wave, { layer: 6, additive: true, weight: 0.5, time: random() });
  }
  const frame = (f: number): void => {
    for (let n = 0; n < eids.length; n++) {
      if ((f + n) % 20 !== 0) continue;
      transition(world, eids[n]!, clips[Math.floor(random() * clips.length)]!, { duration: 0.3, mode: 'crossfade', layer: Math.floor(random() * 5) });
    }
  };
  return { world, frame };
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

/** SHA-256 of every typed array of every component. */
function poolHash(world: AnimationWorld): string {
  const hash = createHash('sha256');
  const components = world.components as unknown as Record<string, Record<string, unknown>>;
  for (const name of Object.keys(components).sort()) {
    for (const field of Object.keys(components[name]!).sort()) {
      const value = components[name]![field];
      if (ArrayBuffer.isView(value)) hash.update(name + field).update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    }
  }
  return hash.digest('hex');
}

describe('maxLayers 8 on the WebAssembly kernels and on threads', () => {
  it('the WebAssembly kernels agree with the JavaScript kernels within 1e-5 (local poses and palettes)', () => {
    const wasm = crowd('wasm', 1, 200), js = crowd('js', 1, 200);
    expect(wasm.world.kernels).toBe('wasm');
    expect(js.world.kernels).toBe('js');
    let slotsUsed = 0;
    for (let f = 0; f < 120; f++) {
      wasm.frame(f);
      js.frame(f);
      step(wasm.world, DT);
      step(js.world, DT);
      if (f % 30 === 29) {
        expect(maxDifference(wasm.world.components.LocalPose.data, js.world.components.LocalPose.data), `frame ${f}`).toBeLessThanOrEqual(1e-5);
        expect(maxDifference(wasm.world.components.SkinPalette.data, js.world.components.SkinPalette.data), `frame ${f}`).toBeLessThanOrEqual(1e-5);
      }
      const { clip } = js.world.components.Layers;
      for (let li = 8; li < clip.length; li += 8) if (clip[li + 7]! >= 0) slotsUsed++;
    }
    // The layers were live: the poses move, cross-fades used slot 7, and the kernels copied the clips.
    expect(slotsUsed).toBeGreaterThan(100);
    expect(wasm.world.wasm!.clipCopied.filter((c) => c !== null).length).toBeGreaterThanOrEqual(6);
    expect(wasm.world.wasm!.area.restTable[0]).not.toBe(0);
    expect(maxDifference(js.world.components.LocalPose.data, new Float32Array(js.world.components.LocalPose.data.length))).toBeGreaterThan(0.1);
  });

  for (const kernels of ['js', 'wasm'] as const) {
    it(`stepParallel on 2 threads equals step bit for bit (kernels: ${kernels})`, async () => {
      const single = crowd(kernels, 1, 400), threaded = crowd(kernels, 2, 400);
      expect(threaded.world.kernels).toBe(kernels);
      expect(threaded.world.threads).toBe(2);
      let workerChunks = 0;
      try {
        for (let f = 0; f < 90; f++) {
          single.frame(f);
          threaded.frame(f);
          step(single.world, DT);
          await stepParallel(threaded.world, DT);
          const log = threaded.world.parallel!.chunkLog;
          for (let c = 0; c < Math.ceil(400 / 128); c++) if (log[c * CHUNK_LOG_STRIDE] !== 0) workerChunks++;
          if (f % 30 === 29) expect(poolHash(threaded.world), `frame ${f}`).toBe(poolHash(single.world));
        }
      } finally {
        disposeAnimationWorld(threaded.world);
      }
      // The worker did part of the frames.
      expect(workerChunks).toBeGreaterThan(20);
    }, 120_000);
  }
});
