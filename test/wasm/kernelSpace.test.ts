/**
 * The kernel area's space is reused: a released asset's copy makes room for the next
 * (src/wasm/areaSpace.ts, `syncKernelArea`), and what does not fit is said, not hidden
 * (`world.warnings`, `kernelAreaReport`).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { setKernelAreaFixed } from '../../src/wasm/loader.js';
import { createAnimationWorld, kernelAreaReport, play, releaseClip, spawnCharacter, step, stop, type Clip } from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { createAreaPart, giveRange, takeRange } from '../../src/wasm/areaSpace.js';
import { KIND_CLIPS } from '../../src/wasm/areaLayout.js';
import { clipCopyAt, KERNEL_AREA_CLIP_FRAMES } from '../../src/wasm/kernels.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';


/** The rest of this test creates wasm worlds on a plain memory with the fixed kernel area (as on a page that cannot share memory). */
function fixedArea(): void {
  setKernelAreaFixed(true);
  onTestFinished(() => setKernelAreaFixed(false));
}

describe('takeRange / giveRange', () => {
  it('hand out disjoint ranges, reuse what is given back first-fit, and merge neighbours (against a byte map)', () => {
    const capacity = 4096;
    const part = createAreaPart(capacity);
    const owner = new Int32Array(capacity / 16).fill(-1); // per 16-byte block: the range holding it
    const held: { start: number; size: number; id: number }[] = [];
    const random = createRandom(3);
    let refused = 0;
    for (let step = 0; step < 5000; step++) {
      if (held.length > 0 && random() < 0.45) {
        const [range] = held.splice(Math.floor(random() * held.length), 1);
        giveRange(part, range!.start, range!.size);
        for (let b = range!.start / 16; b < (range!.start + range!.size) / 16; b++) owner[b] = -1;
      } else {
        const size = 16 * (1 + Math.floor(random() * 40));
        const start = takeRange(part, size);
        if (start < 0) {
          // Refused only when no run of free blocks that long exists.
          let run = 0, longest = 0;
          for (const o of owner) { run = o < 0 ? run + 1 : 0; longest = Math.max(longest, run); }
          expect(longest * 16).toBeLessThan(size);
          refused++;
          continue;
        }
        expect(start % 16).toBe(0);
        expect(start + size).toBeLessThanOrEqual(capacity);
        for (let b = start / 16; b < (start + size) / 16; b++) {
          expect(owner[b]).toBe(-1); // never overlaps a range in use
          owner[b] = step;
        }
        held.push({ start, size, id: step });
      }
      expect(part.used).toBe(held.reduce((sum, r) => sum + r.size, 0));
      // Free ranges are sorted, apart and below the top; the top is the end of the highest range in use.
      for (let i = 0; i + 2 < part.free.length; i += 2) expect(part.free[i]! + part.free[i + 1]!).toBeLessThan(part.free[i + 2]!);
      expect(part.top).toBe(held.reduce((top, r) => Math.max(top, r.start + r.size), 0));
    }
    expect(refused).toBeGreaterThan(0); // the map filled up at times
    for (const range of held) giveRange(part, range.start, range.size);
    expect([part.top, part.used, part.free.length]).toEqual([0, 0, 0]);
  });
});

describe('a wasm world reuses a released clip\'s space', () => {
  const skeleton = syntheticSkeleton(64, 2);
  // A quarter of the clip area each: four fit at once.
  const frames = KERNEL_AREA_CLIP_FRAMES / 4 - 1;

  it('2,000 register / play / release cycles of clips of a quarter of the area each all run on the WebAssembly kernels; the area stays as full as before', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 64, kernels: 'wasm' });
    expect(world.kernels).toBe('wasm');
    const eid = spawnCharacter(world, skeleton);
    const base = syntheticClip(skeleton, { seed: 5, frameCount: frames });
    const offWasm: number[] = [];
    let used = -1;
    let previous: Clip | null = null;
    for (let cycle = 0; cycle < 2000; cycle++) {
      // A new clip object each cycle (same frames): a new asset to copy.
      const clip: Clip = { ...base, name: `cycle${cycle}` };
      play(world, eid, clip);
      step(world, 1 / 60);
      const id = world.assets.clipIds.get(clip)!;
      if (world.wasm!.area.clipTable[id] === 0) offWasm.push(cycle);
      if (previous !== null) releaseClip(world, previous);
      previous = clip;
      const now = world.wasm!.space.used[KIND_CLIPS];
      if (cycle === 10) used = now;
      if (cycle > 10) expect(now).toBe(used);
    }
    expect(offWasm).toEqual([]);
    expect(world.warnings).toEqual([]);
    expect(kernelAreaReport(world)!.onJavaScript).toEqual([]);
    stop(world, eid, 0);
  });
});

describe('what does not fit is said', () => {
  it('world.warnings says once that clips did not fit; kernelAreaReport lists them (a reduced clip among them); a JavaScript world reports null', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    const skeleton = syntheticSkeleton(64, 4);
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 64, kernels: 'wasm' });
    const clips = Array.from({ length: 6 }, (_, i) => syntheticClip(skeleton, { seed: 20 + i, frameCount: KERNEL_AREA_CLIP_FRAMES / 4 - 1, name: `big${i}` }));
    const reduced = reduceClip(syntheticClip(skeleton, { seed: 40, frameCount: 31, name: 'small' }), { tolerance: 0.001 });
    for (const clip of [...clips, reduced]) play(world, spawnCharacter(world, skeleton), clip);
    expect(world.warnings).toEqual([]); // nothing synced yet
    step(world, 1 / 60);
    step(world, 1 / 60);
    expect(world.warnings.length).toBe(1);
    expect(world.warnings[0]).toMatch(/clip "big4" \(511 frames of 64 joints\) does not fit; it runs on the JavaScript kernels \(the kernel area is full/);
    const report = kernelAreaReport(world)!;
    // The reduced clip, registered last, is copied like the others: it did not fit either.
    expect(clipCopyAt(world.wasm!.area, world.assets.clipIds.get(reduced)!)).toBe(0);
    expect(report.onJavaScript).toEqual([
      { kind: 'clip', id: world.assets.clipIds.get(clips[4]!), name: 'big4', reason: 'area full' },
      { kind: 'clip', id: world.assets.clipIds.get(clips[5]!), name: 'big5', reason: 'area full' },
      { kind: 'clip', id: world.assets.clipIds.get(reduced), name: reduced.name, reason: 'area full' },
    ]);
    expect(report.clips.used).toBeLessThanOrEqual(report.clips.bytes);
    expect(report.clips.used).toBeGreaterThan(0.99 * report.clips.bytes);
    expect(report.skeletons.used).toBeGreaterThan(0);
    const js = createAnimationWorld({ maxEntities: 1, maxJoints: 64, kernels: 'js' });
    expect(kernelAreaReport(js)).toBeNull();
    expect(js.warnings).toEqual([]);
  });
});
