/**
 * The kernel area grows with what is registered (src/wasm/areaLayout.ts, docs/wasm.md "What the
 * area holds"): on a shared memory it starts small, grows between frames, holds every
 * registered skeleton and clip whatever its id, gives released copies' space back, and the
 * pools' views made before it grew stay the world's pools.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createMask, kernelAreaReport, play, spawnCharacter, step, worldBytes, type AnimationWorld, type Clip, type KernelChoice,
} from '../../src/index.js';
import { copiedClipFrames, KERNEL_AREA_START_BYTES, KERNEL_POOL_START, skeletonCopyAt } from '../../src/wasm/kernels.js';
import { releaseCycles } from '../fixtures/areaCycles.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 1 / 60;

describe('a growable kernel area', () => {
  it('2,000 clips of 60 frames at 64 joints (about 14 minutes at 30 fps) registered all run on WebAssembly', () => {
    const skeleton = syntheticSkeleton(64, 3);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 64, kernels: 'wasm' });
    const startBytes = world.wasm!.memory.buffer.byteLength;
    const local = world.components.LocalPose.data; // a view made before the memory grows
    const eid = spawnCharacter(world, skeleton);
    // Each a clip object of its own (so a copy of its own) over frames of its own seed every 100.
    const bases = Array.from({ length: 20 }, (_, i) => syntheticClip(skeleton, { seed: 10 + i, frameCount: 60 }));
    const clips: Clip[] = Array.from({ length: 2000 }, (_, i) => ({ ...bases[i % 20]!, name: `clip${i}` }));
    for (const clip of clips) play(world, eid, clip, { time: 0, speed: 0 });
    step(world, DT);
    const report = kernelAreaReport(world)!;
    expect(report.onJavaScript).toEqual([]);
    expect(world.warnings).toEqual([]);
    expect(report.grows).toBe(true);
    // Every clip's frames are in the area: 2,000 × (16 + 60 × 64 × 40) bytes.
    expect(report.clips.used).toBe(2000 * (16 + 60 * 64 * 40));
    expect(world.wasm!.memory.buffer.byteLength).toBeGreaterThan(startBytes + report.clips.used);
    for (const i of [0, 777, 1999]) expect(copiedClipFrames(world.wasm!, clips[i]!)).toEqual(clips[i]!.frames);
    // The last clip played, at its first frame: the kernel copies the frame (its bits) into the
    // LocalPose pool, read through the view made before the memory grew.
    expect(local.buffer).toBe(world.poolBuffer);
    expect(Array.from(local.subarray(eid * 64 * 10, eid * 64 * 10 + 640))).toEqual(Array.from(clips[1999]!.frames.subarray(0, 640)));
  });

  it('2,000 register / play / release cycles keep the memory and the heap flat (20,000: test/long/wasm/areaCycles.test.ts)', () => {
    const result = releaseCycles(2_000);
    console.log(`kernel area, 2,000 cycles: memory +${result.memoryGrowth} bytes, heap +${result.heapGrowth} bytes`);
    expect(result.offWasm).toEqual([]);
    expect(result.memoryGrowth).toBe(0);
    expect(result.heapGrowth).toBeLessThan(1 << 20);
    expect(result.warnings).toEqual([]);
  });

  it('skeleton ids past 64, clip ids past 1,024 and mask ids past 256 run on WebAssembly (float32 rounding, not the JavaScript bits)', () => {
    const skeletons = Array.from({ length: 70 }, (_, s) => syntheticSkeleton(8, s + 1));
    const make = (kernels: KernelChoice): { world: AnimationWorld; eid: number } => {
      const world = createAnimationWorld({ maxEntities: 72, maxJoints: 8, kernels });
      for (const skeleton of skeletons.slice(0, 69)) spawnCharacter(world, skeleton);
      const last = skeletons[69]!;
      const clips = Array.from({ length: 1100 }, (_, i) => syntheticClip(last, { seed: 1 + (i % 7), frameCount: 4, name: `c${i}` }));
      const eid = spawnCharacter(world, last);
      for (const clip of clips) play(world, eid, clip);
      for (let m = 0; m < 260; m++) world.assets.masks.push(new Float32Array(8)); // mask ids no character uses
      play(world, eid, syntheticClip(last, { seed: 50, frameCount: 9 }), { layer: 1, weight: 0.7, time: 0.05, mask: createMask(last, { [last.names[2]!]: 1 }) });
      for (let f = 0; f < 5; f++) step(world, DT);
      return { world, eid };
    };
    const wasm = make('wasm'), js = make('js');
    const w = wasm.world;
    expect(w.assets.skeletonIds.get(skeletons[69]!)).toBe(69);
    expect(w.assets.clips.length).toBeGreaterThan(1100);
    expect(w.assets.masks.length).toBeGreaterThan(260);
    expect(kernelAreaReport(w)!.onJavaScript).toEqual([]);
    expect(skeletonCopyAt(w.wasm!.area, 69)).toBeGreaterThan(0);
    expect(w.wasm!.area.maskTable[w.assets.masks.length - 1]).toBeGreaterThan(0);
    // The character of skeleton 69 playing clip 1,099 and a masked layer: on the kernels, so within float32 rounding of the JS world, not its bits.
    const row = 8 * 10, mrow = 8 * 12;
    const pose = w.components.LocalPose.data.subarray(wasm.eid * row, (wasm.eid + 1) * row);
    const jsPose = js.world.components.LocalPose.data.subarray(js.eid * row, (js.eid + 1) * row);
    const palette = w.components.SkinPalette.data.subarray(wasm.eid * mrow, (wasm.eid + 1) * mrow);
    const jsPalette = js.world.components.SkinPalette.data.subarray(js.eid * mrow, (js.eid + 1) * mrow);
    const most = (a: Float32Array, b: Float32Array): number => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
    expect(Array.from(pose)).not.toEqual(Array.from(jsPose));
    expect(most(pose, jsPose)).toBeLessThan(1e-5);
    expect(Array.from(palette)).not.toEqual(Array.from(jsPalette));
    expect(most(palette, jsPalette)).toBeLessThan(1e-5);
  });

  it('a world\'s fixed part (kernel area, event queue, scratch: the bytes of a world of no characters) is at most 1 MB on either kernel path', () => {
    for (const maxJoints of [24, 64, 128, 256]) {
      const js = worldBytes({ maxEntities: 0, maxJoints });
      const wasm = worldBytes({ maxEntities: 0, maxJoints, kernels: 'wasm' });
      expect(js).toBeLessThanOrEqual(1_000_000);
      expect(wasm).toBeLessThanOrEqual(1_000_000);
      expect(wasm - js).toBeLessThan(KERNEL_POOL_START + KERNEL_AREA_START_BYTES + 8192); // the module's data before the pools, the heap as it starts and the area's header
      // The memory as created: those bytes in whole pages.
      const world = createAnimationWorld({ maxEntities: 1, maxJoints, kernels: 'wasm' });
      expect(world.wasm!.memory.buffer.byteLength).toBeLessThan(worldBytes({ maxEntities: 1, maxJoints, kernels: 'wasm' }) + 65536);
    }
  });
});
