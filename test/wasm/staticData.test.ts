/**
 * The WebAssembly module's own data (AssemblyScript's math tables) and the pools kept apart:
 * every instantiation writes the module's data segments into the memory, so they must end
 * before the first pool (`KERNEL_STATIC_BYTES`, `KERNEL_POOL_START`). Checked on the built
 * files, on a world's views (none reaches below the pools' start), and by behaviour: a threaded
 * world's workers instantiating the module on its memory leave a small world's pools as they
 * were. The loader refuses a module whose data would reach further.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, disposeAnimationWorld, play, spawnCharacter, step, stepParallel } from '../../src/index.js';
import { dataSegmentsEnd } from '../../src/wasm/dataSegments.js';
import { KERNEL_POOL_START, KERNEL_STATIC_BYTES } from '../../src/wasm/kernels.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const plainUrl = new URL(process.env['BITANIM_WASM_URL']!);

/** Every typed array reachable from `root` that views `buffer` (a few levels deep). */
function views(root: unknown, buffer: ArrayBufferLike): ArrayBufferView[] {
  const found: ArrayBufferView[] = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 5) return;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      if (value.buffer === buffer) found.push(value);
      return;
    }
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], depth + 1);
  };
  walk(root, 0);
  return found;
}

describe('the kernels\' own data and the pools', () => {
  it('both kernel files keep their data within KERNEL_STATIC_BYTES, from byte 1024 on; the pools start past it', () => {
    for (const file of ['kernels.wasm', 'kernels-shared.wasm']) {
      const end = dataSegmentsEnd(readFileSync(new URL(file, plainUrl)));
      expect(end, file).toBeGreaterThan(1024); // the math tables are there (the parser reads them)
      expect(end, file).toBeLessThanOrEqual(KERNEL_STATIC_BYTES);
    }
    expect(KERNEL_POOL_START).toBeGreaterThanOrEqual(KERNEL_STATIC_BYTES);
  });

  it('no view of a wasm world\'s pools or kernel area reaches below KERNEL_POOL_START', () => {
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 4, kernels: 'wasm' });
    const buffer = world.wasm!.memory.buffer;
    const found = views({ components: world.components, scratch: world.scratch, events: world.events, updates: world.updates }, buffer);
    expect(found.length).toBeGreaterThan(20);
    for (const view of found) expect(view.byteOffset).toBeGreaterThanOrEqual(KERNEL_POOL_START);
  });

  it('workers instantiating the module on a threaded world\'s memory leave its pools as they were', async () => {
    const skeleton = syntheticSkeleton(4);
    const clip = syntheticClip(skeleton, { seed: 5 });
    const run = async (threads: number): Promise<Float32Array> => {
      const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4, kernels: 'wasm', threads });
      for (let n = 0; n < 2; n++) play(world, spawnCharacter(world, skeleton), clip, { time: 0.1 * n });
      step(world, 1 / 60);
      // The frame after the first `stepParallel` (whose workers instantiate the module) against a
      // one-thread world's: a pool overwritten by the module's data would show here.
      for (let f = 0; f < 3; f++) {
        if (threads > 1) await stepParallel(world, 1 / 60);
        else step(world, 1 / 60);
      }
      const palette = world.components.SkinPalette.data.slice();
      disposeAnimationWorld(world);
      return palette;
    };
    const one = await run(1), two = await run(2);
    expect(Array.from(two)).toEqual(Array.from(one));
  });

  it('reads the end of constant-offset data segments, and gives −1 for bytes that are not a module', () => {
    // magic, version; a data section (id 11) with one active segment at i32.const 2000 of 3 bytes.
    const module = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 11, 10, 1, 0, 0x41, 0xd0, 0x0f, 0x0b, 3, 1, 2, 3);
    expect(dataSegmentsEnd(module)).toBe(2003);
    expect(dataSegmentsEnd(Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0))).toBe(0);
    expect(dataSegmentsEnd(Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 11, 9, 1, 0))).toBe(-1);
  });
});
