/**
 * Issue 18 item 3, first kernel: the WebAssembly SIMD skinning kernel (assembly/kernels.ts)
 * against the JavaScript path. Each crowd runs on `kernels: 'wasm'` and on `kernels: 'js'`,
 * with the same calls; every palette and model matrix element must agree within 1e-5 and every
 * local pose element within 1e-6 (skinning and the two-layer override blend compute in float32,
 * f32x4, where the JS path
 * computes in doubles: docs/wasm.md) — and where a kernel falls back to JavaScript, bit for bit.
 * Threads on the same kernels give the same bits. Also: the switch (`world.kernels`, fallback, refusal),
 * the pools in the kernels' memory, a threaded world's workers on the same shared memory, and
 * more skeletons than the kernel area holds.
 */
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  AnimationError,
  bindSkeletons,
  createAnimationWorld,
  createBlendSpace,
  createClip,
  createMask,
  createSkeleton,
  disposeAnimationWorld,
  play,
  registerLodLevels,
  play as playClip,
  removeCharacter,
  setBlendSpace,
  setFollower,
  setFollowTarget,
  setLod,
  setLodCamera,
  setLookAt,
  setReach,
  spawnCharacter,
  step,
  stepParallel,
  transition,
  worldBytes,
  type AnimationWorld,
  type Clip,
  type KernelChoice,
} from '../../src/index.js';
import { kernelAreaReport } from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { CHUNK_LOG_STRIDE, CHUNK_THREAD } from '../../src/components/ThreadControl.js';
import {
  CLIP_TABLE_IDS, heapPlan, KERNEL_AREA_CLIP_FRAMES, KERNEL_AREA_CLIP_JOINTS, KERNEL_AREA_CONTACT_BYTES, KERNEL_AREA_SKELETONS, KERNEL_AREA_START_BYTES, KERNEL_POOL_START,
  kernelAreaSkeletons, POSE_TABLE_IDS, SKIN_TABLE_IDS,
} from '../../src/wasm/kernels.js';
import { reloadKernels, setKernelAreaFixed, setKernelsUnavailable } from '../../src/wasm/loader.js';
import { clipCopyAt, sampleExactWasm, sampleLayerWasm, skeletonCopyAt, syncKernelArea } from '../../src/wasm/kernels.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import { blendOverrideLayers } from '../../src/math/blendPose.js';
import { deg, humanoid } from '../aim/helpers.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 1 / 60;

interface Features { transitions?: boolean; rootMotion?: boolean; followAim?: boolean; lod?: boolean }

/** A crowd of 200 humanoids with the features asked for, `frames` frames; returns the world. */
function crowd(kernels: KernelChoice, features: Features, frames = 120, threads = 1): AnimationWorld {
  const skeleton = humanoid();
  const walk = createClip({ ...syntheticClip(skeleton, { seed: 2, amplitude: 0.2, name: 'walk' }) });
  const run = syntheticClip(skeleton, { seed: 3, frameCount: 41, amplitude: 0.25, name: 'run' });
  const jump = syntheticClip(skeleton, { seed: 4, loop: false, name: 'jump' });
  const wave = syntheticClip(skeleton, { seed: 6, name: 'wave' });
  const upper = createMask(skeleton, { chest: 1 });
  const space = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 0 }, { clip: run, x: 1, phaseOffset: 0.1 }] });
  const clips = [walk, run, jump];
  const modes = ['inertialize', 'spring', 'crossfade', 'deadblend'] as const;
  const world = createAnimationWorld({ maxEntities: 220, maxJoints: skeleton.jointCount, kernels, threads });
  const random = createRandom(18);
  const alive: number[] = [];
  for (let n = 0; n < 200; n++) {
    const x = (n % 16) * 3, z = Math.floor(n / 16) * 3;
    const eid = spawnCharacter(world, skeleton, { x, z, yaw: random() * 6, rootMotion: features.rootMotion === true && n % 3 !== 2, rootYaw: features.rootMotion === true && n % 6 === 0 });
    if (n % 5 === 4) setBlendSpace(world, eid, space, random());
    else play(world, eid, clips[n % 2]!, { time: random(), weight: 0.5 + random() * 0.5 });
    if (n % 4 === 1) play(world, eid, wave, { layer: 2, weight: random(), mask: upper, additive: true });
    if (features.followAim === true) {
      if (n % 3 === 0) setFollower(world, eid, { x: x + 1, y: 1.5, z: z + 1 });
      if (n % 6 === 0) setLookAt(world, eid, { joint: 'head', neck: 'neck', yawLimit: 80 * deg });
      if (n % 9 === 0) setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand' });
    }
    if (features.lod === true && n % 2 === 0) setLod(world, eid, { levels: 3, distances: [12, 30], updateEvery: [1, 2, 4] });
    alive.push(eid);
  }
  if (features.lod === true) setLodCamera(world, 0, 1.5, 0);
  return runFrames(world, alive, clips, modes, features, frames, random);
}

function runFrames(
  world: AnimationWorld, alive: number[], clips: ReturnType<typeof syntheticClip>[], modes: readonly ('inertialize' | 'spring' | 'crossfade' | 'deadblend')[],
  features: Features, frames: number, random: () => number,
): AnimationWorld {
  for (let f = 1; f <= frames; f++) {
    if (features.transitions === true && f % 20 === 0) {
      for (let k = 0; k < alive.length; k += 2) transition(world, alive[(k + f) % alive.length]!, clips[(k + f) % 3]!, { duration: 0.1 + 0.3 * random(), mode: modes[(k + f / 20) % 4]! });
    }
    if (features.followAim === true && f % 30 === 0) for (let k = 0; k < alive.length; k += 3) setFollowTarget(world, alive[k]!, random() * 48, 1, random() * 40);
    if (features.lod === true && f % 10 === 0) setLodCamera(world, random() * 48, 1.5, random() * 40);
    step(world, DT);
  }
  return world;
}

/** Largest |a − b| of palette and model matrix elements between the wasm and JS paths. */
const MATRIX_TOLERANCE = 1e-5;
/** Largest |a − b| of local pose elements (sampling and blending in float32). */
const POSE_TOLERANCE = 1e-6;

/** Largest |a − b| over two pools (NaN on one side only: Infinity), and whether they are the same bits. */
function compare(a: Float32Array, b: Float32Array): { max: number; identical: boolean } {
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    max = Math.max(max, d === d ? d : Number.isNaN(a[i]!) && Number.isNaN(b[i]!) ? 0 : Infinity);
  }
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let identical = a.length === b.length;
  for (let i = 0; identical && i < ua.length; i++) identical = ua[i] === ub[i];
  return { max, identical };
}

/** Per skeleton id the world's kernels met: its copy's pointer in the kernel area (0: none, the JavaScript kernels run it). */
const skeletonCopies = (world: AnimationWorld): number[] => world.wasm!.copied.map((_, id) => skeletonCopyAt(world.wasm!.area, id));

/** Per clip id the world's kernels met: its record's pointer in the kernel area (0: none). */
const clipCopies = (world: AnimationWorld): number[] => world.wasm!.clipCopied.map((_, id) => clipCopyAt(world.wasm!.area, id));

/**
 * Per character of a wasm world and a JS world built alike (same eids; every clip played at a
 * frame, so the local poses are the same bits): the palette rows of characters whose skeleton
 * the kernel area could not hold (skinned on the JS kernels) are the JS world's bits, the rest
 * within 1e-5. Returns how many characters each way.
 */
function comparePalettesBySkeleton(wasm: AnimationWorld, js: AnimationWorld, eids: readonly number[]): { fallback: number; kernel: number } {
  expect(compare(wasm.components.LocalPose.data, js.components.LocalPose.data).identical).toBe(true);
  const row = wasm.maxJoints * 12;
  let fallback = 0, kernel = 0;
  for (const eid of eids) {
    const id = wasm.components.Character.skeleton[eid]!;
    const n = wasm.components.Character.jointCount[eid]! * 12;
    const a = wasm.components.SkinPalette.data.subarray(eid * row, eid * row + n), b = js.components.SkinPalette.data.subarray(eid * row, eid * row + n);
    const result = compare(a, b);
    if (skeletonCopyAt(wasm.wasm!.area, id) === 0) {
      expect(result.identical).toBe(true);
      fallback++;
    } else {
      expect(result.max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
      kernel++;
    }
  }
  return { fallback, kernel };
}

afterEach(() => {
  setKernelsUnavailable(false);
  vi.restoreAllMocks();
});


/** The rest of this test creates wasm worlds on a plain memory with the fixed kernel area (as on a page that cannot share memory). */
function fixedArea(): void {
  setKernelAreaFixed(true);
  onTestFinished(() => setKernelAreaFixed(false));
}

describe('WebAssembly skinning kernel agrees with the JavaScript path', () => {
  const cases: [string, Features][] = [
    ['core crowd (clips, blend spaces, additive masked layer)', {}],
    ['transition crowd (all three modes)', { transitions: true }],
    ['root motion', { rootMotion: true }],
    ['follow and aim (look-at, reach)', { followAim: true }],
    ['LOD with update-rate levels', { lod: true }],
  ];
  it.each(cases)('%s: every palette and model element within 1e-5, every local pose element within 1e-6', (_name, features) => {
    const wasm = crowd('wasm', features);
    const js = crowd('js', features);
    expect(wasm.kernels).toBe('wasm');
    expect(js.kernels).toBe('js');
    const palette = compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data);
    const model = compare(wasm.components.ModelPose.data, js.components.ModelPose.data);
    // The crowd was skinned: nearly every palette element of the 200 characters is set.
    let nonzero = 0;
    for (const v of js.components.SkinPalette.data) if (v !== 0) nonzero++;
    expect(nonzero).toBeGreaterThan(200 * js.maxJoints * 8);
    expect(palette.max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
    expect(model.max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
    // The float32 kernels ran: not the JS path's bits.
    expect(palette.identical).toBe(false);
    // Sampling and override blending ran on the kernels too (clips and a skeleton's rest pose
    // copied), within float32 rounding of the JS path in every local pose.
    expect(clipCopies(wasm).filter((at) => at !== 0).length).toBeGreaterThanOrEqual(3);
    expect(skeletonCopies(wasm).filter((at) => at !== 0).length).toBe(1);
    expect(wasm.wasm!.area.restTable[0]).not.toBe(0);
    const local = compare(wasm.components.LocalPose.data, js.components.LocalPose.data);
    expect(local.identical).toBe(false);
    expect(local.max).toBeLessThanOrEqual(POSE_TOLERANCE);
  });

  it('a threaded world (2 threads) runs the kernel on every thread over one shared memory, bit for bit with one wasm thread, within 1e-5 of JS', async () => {
    const skeleton = humanoid();
    const clip = syntheticClip(skeleton, { seed: 5, amplitude: 0.3 });
    const make = (kernels: KernelChoice, threads: number): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 600, maxJoints: skeleton.jointCount, kernels, threads });
      const random = createRandom(3);
      for (let n = 0; n < 600; n++) play(world, spawnCharacter(world, skeleton, { x: n % 20, z: Math.floor(n / 20) }), clip, { time: random() });
      return world;
    };
    const threaded = make('wasm', 2), single = make('wasm', 1), js = make('js', 1);
    expect(threaded.kernels).toBe('wasm');
    expect(threaded.poolBuffer).toBeInstanceOf(SharedArrayBuffer);
    const chunksRun = [0, 0];
    try {
      for (let f = 0; f < 30; f++) {
        await stepParallel(threaded, DT);
        step(single, DT);
        step(js, DT);
        // Which thread ran each of the frame's five chunks (600 characters / 128), from the chunk log.
        const log = threaded.parallel!.chunkLog;
        for (let c = 0; c < Math.ceil(600 / 128); c++) chunksRun[log[c * CHUNK_LOG_STRIDE + CHUNK_THREAD]!]!++;
      }
      // The worker ran WebAssembly: its kernel instance (on the shared memory) counted a call of
      // the skinning kernels for every chunk the chunk log says it ran, and so did this thread.
      const counted = Array.from(threaded.wasm!.area.chunks.subarray(0, 2));
      expect(chunksRun[1]).toBeGreaterThan(0);
      expect(counted).toEqual(chunksRun);
      expect(chunksRun[0]! + chunksRun[1]!).toBe(30 * 5);
      // The bits are step's on one thread; the JS path's within 1e-5.
      expect(compare(threaded.components.SkinPalette.data, single.components.SkinPalette.data).identical).toBe(true);
      expect(compare(threaded.components.ModelPose.data, single.components.ModelPose.data).identical).toBe(true);
      expect(compare(threaded.components.SkinPalette.data, js.components.SkinPalette.data).max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
    } finally {
      disposeAnimationWorld(threaded);
    }
  });

  it('more skeletons than the kernel area holds: the rest are skinned by the JS kernels, their bits', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    const count = KERNEL_AREA_SKELETONS + 4;
    const eids: number[] = [];
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: count, maxJoints: 16, kernels });
      eids.length = 0;
      for (let s = 0; s < count; s++) {
        const skeleton = syntheticSkeleton(16, s + 1);
        const eid = spawnCharacter(world, skeleton);
        eids.push(eid);
        play(world, eid, syntheticClip(skeleton, { seed: s + 2 }), { time: 0, speed: 0 }); // at frame 0: sampled exactly
      }
      for (let f = 0; f < 10; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    expect(skeletonCopies(wasm).filter((p) => p === 0).length).toBeGreaterThan(0);
    expect(skeletonCopies(wasm).filter((p) => p !== 0).length).toBe(KERNEL_AREA_SKELETONS);
    expect(comparePalettesBySkeleton(wasm, js, eids)).toEqual({ fallback: 4, kernel: KERNEL_AREA_SKELETONS });
    expect(compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data).identical).toBe(false);
  });

  it('the chunk kernel leaves characters of skeletons it has no copy of to the JS side mid-chunk and resumes after them, their bits', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    const skeletonCount = KERNEL_AREA_SKELETONS + 3;
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 3 * skeletonCount, maxJoints: 9, kernels });
      const play = (w: AnimationWorld, eid: number, clip: ReturnType<typeof syntheticClip>): void => void playClip(w, eid, clip, { time: 0, speed: 0 }); // at frame 0: sampled exactly
      const skeletons = Array.from({ length: skeletonCount }, (_, s) => syntheticSkeleton(9, s + 11));
      // Every skeleton once (the first 32 get copies), then characters alternating between a
      // copied skeleton and one the area could not hold, so the kernel stops every other entry.
      for (let s = 0; s < skeletonCount; s++) play(world, spawnCharacter(world, skeletons[s]!), syntheticClip(skeletons[s]!, { seed: s + 3 }));
      for (let i = 0; i < 2 * skeletonCount; i++) {
        const skeleton = skeletons[i % 2 === 0 ? i % KERNEL_AREA_SKELETONS : KERNEL_AREA_SKELETONS + (i % 3)]!;
        play(world, spawnCharacter(world, skeleton), syntheticClip(skeleton, { seed: i + 50 }));
      }
      for (let f = 0; f < 5; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    expect(skeletonCopies(wasm).filter((p) => p === 0).length).toBe(3);
    const eids = Array.from({ length: 3 * skeletonCount }, (_, eid) => eid).filter((eid) => wasm.components.Character.jointCount[eid]! > 0);
    const { fallback, kernel } = comparePalettesBySkeleton(wasm, js, eids);
    expect(fallback).toBeGreaterThan(skeletonCount / 2);
    expect(kernel).toBeGreaterThan(skeletonCount);
  });

  it('the kernel area holds 32 skeletons of maxJoints joints, fewer beyond 8,192 joints, at least one', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    expect([3, 16, 64, 256, 1000, 32767].map(kernelAreaSkeletons)).toEqual([32, 32, 32, 32, 8, 1]);
    // 32 skeletons of 3 joints fit, the 33rd does not (the odd joint count's padding included).
    const skeletons = Array.from({ length: 33 }, (_, s) => syntheticSkeleton(3, s + 1));
    const world = createAnimationWorld({ maxEntities: 33, maxJoints: 3, kernels: 'wasm' });
    for (const skeleton of skeletons) play(world, spawnCharacter(world, skeleton), syntheticClip(skeleton, { seed: 2 }));
    step(world, DT);
    expect(skeletonCopies(world).map((p) => p !== 0)).toEqual([...Array(32).fill(true), false]);
  });

  it('a skeleton id released and reused by another skeleton is copied anew', () => {
    const a = syntheticSkeleton(12, 1), b = syntheticSkeleton(12, 7);
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 4, maxJoints: 12, kernels });
      const first = spawnCharacter(world, a);
      play(world, first, syntheticClip(a, { seed: 2 }));
      step(world, DT);
      removeCharacter(world, first);
      const second = spawnCharacter(world, b);
      play(world, second, syntheticClip(b, { seed: 3 }));
      step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    // A stale copy (the first skeleton's parents and inverse binds) would be far off.
    expect(compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data).max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
  });
});

describe('the kernels switch', () => {
  it("default 'auto' runs wasm here, with the pools in the kernels' memory", () => {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 8 });
    expect(world.kernels).toBe('wasm');
    expect(world.wasm).not.toBeNull();
    expect(world.poolBuffer).toBe(world.wasm!.memory.buffer);
    expect(world.components.SkinPalette.data.buffer).toBe(world.poolBuffer);
    expect(createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'js' }).wasm).toBeNull();
  });

  it("forced unavailable: 'auto' falls back to JS, 'wasm' is refused with an AnimationError", () => {
    setKernelsUnavailable(true);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'auto' });
    expect(world.kernels).toBe('js');
    expect(world.wasm).toBeNull();
    expect(world.poolBuffer).toBeInstanceOf(ArrayBuffer);
    expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'wasm' })).toThrow(AnimationError);
    expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'wasm' })).toThrow(/kernels.*turned off/s);
  });

  it('a build without the wasm file falls back to JS (and names the missing file for kernels: wasm)', () => {
    const saved = process.env['BITANIM_WASM_URL'];
    try {
      process.env['BITANIM_WASM_URL'] = new URL('./no-such-dir/kernels.wasm', import.meta.url).href;
      reloadKernels();
      expect(createAnimationWorld({ maxEntities: 4, maxJoints: 8 }).kernels).toBe('js');
      expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'wasm' })).toThrow(/not built.*no-such-dir/s);
    } finally {
      process.env['BITANIM_WASM_URL'] = saved;
      reloadKernels();
    }
    expect(createAnimationWorld({ maxEntities: 4, maxJoints: 8 }).kernels).toBe('wasm');
  });

  it('a runtime without SIMD (the module does not validate) falls back to JS', () => {
    vi.spyOn((globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly, 'validate').mockReturnValue(false);
    reloadKernels();
    try {
      expect(createAnimationWorld({ maxEntities: 4, maxJoints: 8 }).kernels).toBe('js');
      expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'wasm' })).toThrow(/no WebAssembly SIMD/);
    } finally {
      vi.restoreAllMocks();
      reloadKernels();
    }
  });

  it.each([false, true])("worldBytes({ …, kernels: 'wasm' }) counts the kernel area as it starts: the heap ends at the memory's end, in whole pages (fixed area: %s)", (fixed) => {
    if (fixed) fixedArea();
    for (const [maxEntities, maxJoints, maxEvents] of [[1, 1, 1], [3, 7, 10], [50, 64, 4096], [5, 300, 16]] as const) {
      const world = createAnimationWorld({ maxEntities, maxJoints, maxEvents, kernels: 'wasm' });
      const area = world.wasm!.area;
      expect(world.poolBuffer instanceof SharedArrayBuffer).toBe(!fixed);
      // What 'wasm' adds: the area's header as allocated, its heap as it starts, the bytes before the first pool.
      const added = worldBytes({ maxEntities, maxJoints, maxEvents, kernels: 'wasm' }) - worldBytes({ maxEntities, maxJoints, maxEvents, kernels: 'js' });
      const header = area.layout.byteLength + area.chunks.byteLength + area.params.byteLength + area.layerMasks.byteLength;
      // The header's arrays, each 16-byte aligned.
      expect(added).toBe(KERNEL_POOL_START + [area.layout, area.chunks, area.params, area.layerMasks].reduce((sum, a) => sum + Math.ceil(a.byteLength / 16) * 16, 0) + heapPlan(maxJoints, !fixed).bytes);
      expect(header).toBeGreaterThan(0);
      const report = kernelAreaReport(world)!;
      expect(report.grows).toBe(!fixed);
      if (fixed) {
        // Room for the skeletons' copies the area was sized for (parents, inverse binds, rest poses), the clips' frames, 64 masks
        // and reference poses of maxJoints joints (fewer beyond 16,384 joints), the contact tables.
        expect(report.skeletons.bytes).toBeGreaterThanOrEqual(kernelAreaSkeletons(maxJoints) * maxJoints * (4 + 12 * 4 + 10 * 4));
        expect(report.clips.bytes).toBe(Math.min(KERNEL_AREA_CLIP_FRAMES * maxJoints, KERNEL_AREA_CLIP_JOINTS) * 40);
        expect(report.poses.bytes).toBeGreaterThanOrEqual(Math.max(1, Math.min(64, Math.floor(16384 / maxJoints))) * maxJoints * (10 * 4 + 4));
        expect(report.contacts.bytes).toBe(KERNEL_AREA_CONTACT_BYTES);
        expect([area.skinTable.length, area.clipTable.length, area.maskTable.length]).toEqual([2 * SKIN_TABLE_IDS, CLIP_TABLE_IDS, POSE_TABLE_IDS]);
      } else {
        expect(report.bytes).toBeLessThan(KERNEL_AREA_START_BYTES + 65536);
      }
      // The heap is the last part, to the end of the memory's whole pages.
      const heapStart = world.poolBuffer.byteLength - report.bytes;
      expect(heapStart).toBeGreaterThanOrEqual(area.layerMasks.byteOffset + area.layerMasks.byteLength);
      expect(heapStart + heapPlan(maxJoints, !fixed).bytes).toBeLessThanOrEqual(world.poolBuffer.byteLength);
      expect(world.poolBuffer.byteLength - heapStart - heapPlan(maxJoints, !fixed).bytes).toBeLessThan(65536);
      expect(worldBytes({ maxEntities, maxJoints, maxEvents })).toBe(worldBytes({ maxEntities, maxJoints, maxEvents, kernels: 'js' }));
    }
    expect(() => worldBytes({ maxEntities: 1, maxJoints: 1, maxEvents: 1, kernels: 'x' as 'js' })).toThrow(/kernels.*'auto', 'wasm' or 'js'/s);
  });

  it('a kernels value other than auto, wasm or js is refused', () => {
    expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, kernels: 'simd' as KernelChoice })).toThrow(/kernels.*'auto', 'wasm' or 'js'/s);
  });
});

/**
 * Whether `actual` is within float32 rounding of `expected` (the JS kernels' doubles rounded
 * once): |Δ| ≤ 1e-6 · max(1, |expected|) per element.
 */
function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!) / Math.max(1, Math.abs(expected[i]!)));
  expect(worst).toBeLessThanOrEqual(1e-6);
}

/** Bits of a float32 (so −0, +0 and NaN compare as what they are). */
function bits(values: ArrayLike<number>): number[] {
  const f = Float32Array.from(values);
  return Array.from(new Uint32Array(f.buffer));
}

describe('WebAssembly sampling and override blending kernels', () => {
  it('sampleClip gives sampleClipInto\'s bits at frames, past both ends, at NaN and ±Infinity, and its numbers within float32 rounding between frames', () => {
    const skeleton = syntheticSkeleton(24, 3);
    // Every other frame's quaternions negated on odd joints (the same rotations): the
    // hemisphere fix between those frames is taken.
    const base = syntheticClip(skeleton, { seed: 9, frameCount: 23, amplitude: 1.4 });
    const frames = base.frames.slice();
    for (let f = 1; f < base.frameCount; f += 2) for (let j = 1; j < 24; j += 2) for (let c = 3; c < 7; c++) frames[(f * 24 + j) * 10 + c]! *= -1;
    const clip = createClip({ ...base, frames });
    const one = syntheticClip(skeleton, { seed: 4, frameCount: 1 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 24, kernels: 'wasm' });
    const kernels = world.wasm!;
    const { time } = world.components.Layers;
    const pose = world.scratch.layerSamples; // blendSystem's scratch, in the kernels' memory
    const expected = new Float32Array(24 * 10);
    const times = [0, 1 / 30, 0.5, 0.51234, 1e-9, clip.duration, clip.duration - 1e-12, clip.duration + 3, -0.2, -0, NaN, Infinity, -Infinity];
    for (let n = 0; n < 40; n++) times.push((n / 39) * clip.duration * 1.01);
    syncKernelArea(kernels, [], [clip, one]); // the clips' copies, as before a frame
    for (const [id, c] of [[0, clip], [1, one]] as const) {
      for (const t of times) {
        time[1] = t;
        pose.fill(7);
        expect(sampleLayerWasm(kernels, id, pose.byteOffset, time.byteOffset + 8)).toBe(true);
        sampleClipInto(expected, 0, c, time, 1);
        // At a frame (alpha 0, the ends and NaN included) the frame's copy: the JS path's bits;
        // between frames float32 lanes (f32x4), within rounding.
        const position = t * c.frameRate, frame = Math.floor(position);
        const atFrame = !(frame >= 0) || frame >= c.frameCount - 1 || position - frame === 0;
        if (atFrame) expect(bits(pose.subarray(0, 240))).toEqual(bits(expected));
        else expect(compare(pose.subarray(0, 240), expected).max).toBeLessThanOrEqual(POSE_TOLERANCE);
        expect(pose[240]).toBe(7); // nothing past the clip's joints
      }
    }
    // Flips happen in this clip: some joint's consecutive frames are in opposite hemispheres.
    let flips = 0;
    for (let f = 0; f + 1 < clip.frameCount; f++) {
      for (let j = 0; j < 24; j++) {
        const a = (f * 24 + j) * 10 + 3, b = a + 240;
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += clip.frames[a + c]! * clip.frames[b + c]!;
        if (dot < 0) flips++;
      }
    }
    expect(flips).toBeGreaterThan(0);
  });

  it('sampleClipExact gives sampleClipInto\'s bits at every time (frames, between them, across hemisphere flips, past both ends, NaN), dense and reduced', () => {
    const skeleton = syntheticSkeleton(24, 3);
    const base = syntheticClip(skeleton, { seed: 9, frameCount: 23, amplitude: 1.4 });
    const frames = base.frames.slice();
    for (let f = 1; f < base.frameCount; f += 2) for (let j = 1; j < 24; j += 2) for (let c = 3; c < 7; c++) frames[(f * 24 + j) * 10 + c]! *= -1;
    const clip = createClip({ ...base, frames });
    const reduced = reduceClip(syntheticClip(skeleton, { seed: 5, frameCount: 31, amplitude: 0.8 }), { tolerance: 0.001 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 24, kernels: 'wasm' });
    const kernels = world.wasm!;
    const { time } = world.components.Layers;
    const pose = world.scratch.layerSamples;
    const expected = new Float32Array(24 * 10);
    syncKernelArea(kernels, [], [clip, reduced]);
    let between = 0;
    for (const [id, c] of [[0, clip], [1, reduced]] as const) {
      const times = [0, 1 / 30, 0.51234, 1e-9, c.duration, c.duration - 1e-12, c.duration + 3, -0.2, NaN, Infinity];
      for (let n = 0; n < 200; n++) times.push((n / 199) * c.duration * 1.01 + 1e-4 * Math.sin(n));
      for (const t of times) {
        time[1] = t;
        pose.fill(7);
        expect(sampleExactWasm(kernels, id, pose.byteOffset, time.byteOffset + 8)).toBe(true);
        sampleClipInto(expected, 0, c, time, 1);
        expect(bits(pose.subarray(0, 240)), `clip ${id} at ${t}`).toEqual(bits(expected));
        expect(pose[240]).toBe(7);
        if (c.reduced === null && t * c.frameRate - Math.floor(t * c.frameRate) > 0) between++;
      }
    }
    expect(between).toBeGreaterThan(150); // the lerp between frames was compared, not only copies
    expect(sampleExactWasm(kernels, 5, pose.byteOffset, time.byteOffset + 8)).toBe(false); // no copy: the caller samples on JavaScript
  });

  it('blendOverride gives blendOverrideLayers\' bits (0 to 4 layers, weights summing below the threshold), within float32 rounding for two layers above it; opposite hemispheres', () => {
    const skeleton = syntheticSkeleton(20, 5);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 20, kernels: 'wasm', blendThreshold: 0.3 });
    const kernels = world.wasm!;
    const { weight } = world.components.Layers;
    const pose = world.scratch.layerSamples; // blendSystem's scratch, in the kernels' memory
    const local = world.components.LocalPose.data;
    syncKernelArea(kernels, [skeleton], []); // the skeleton's copy, as before a frame
    const random = createRandom(77);
    // Layer poses of character 1 (its slots 4–7, sampled into layerSamples 0–3): random T, S and unit Q of either sign.
    const layerSize = 20 * 10;
    for (let i = 0; i < 4 * layerSize; i += 10) {
      for (let c = 0; c < 3; c++) pose[i + c] = (random() - 0.5) * 4;
      const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
      const n = Math.hypot(...q);
      for (let c = 0; c < 4; c++) pose[i + 3 + c] = q[c]! / n;
      for (let c = 7; c < 10; c++) pose[i + c] = 0.5 + random();
    }
    const params = kernels.area.params;
    params[0] = 0.3;
    const threshold = Float64Array.of(0.3);
    const expected = new Float32Array(layerSize);
    const layerOff = new Int32Array(4), layerWeight = new Float32Array(4);
    const noMasks = [null, null, null, null];
    const cases: number[][] = [[], [0.7], [0.1], [0.6, 0.4], [0.05, 0.1], [0.2, 0, 0.5], [0.25, 0.25, 0.25, 0.25], [0.01, 0.02, 0.03, 0.04], [1e-30, 3]];
    for (const weights of cases) {
      let layers = 0, count = 0, total = 0;
      for (let n = 0; n < 4; n++) {
        weight[4 + n] = weights[n] ?? 0;
        if (!(weight[4 + n]! > 0)) continue;
        layers |= 1 << n;
        layerOff[count] = n * layerSize;
        layerWeight[count] = weight[4 + n]!;
        total += layerWeight[count]!;
        count++;
      }
      local.fill(9);
      kernels.blendOverride(local.byteOffset + layerSize * 4, pose.byteOffset, layerSize * 4, weight.byteOffset + 16, layers, 20, kernels.area.restTable[0]!, params.byteOffset);
      blendOverrideLayers(expected, 0, skeleton.rest, pose, layerOff, layerWeight, noMasks, count, 20, threshold);
      // Two layers reaching the threshold: the float32 path (assembly/kernels.ts); the rest in doubles.
      if (count === 2 && total >= 0.3) expectClose(local.subarray(layerSize, 2 * layerSize), expected);
      else expect(bits(local.subarray(layerSize, 2 * layerSize))).toEqual(bits(expected));
      expect(local[0]).toBe(9);
      expect(local[2 * layerSize]).toBe(9);
    }
  });

  it('sampleClip and blendOverride give a joint the same bits in a four-joint batch as alone (the per-joint loop)', () => {
    // Seven joints: one batch of four, then three in the per-joint loop; each joint again as
    // the only joint of its own clip (the per-joint loop). Hemisphere flips as above.
    const skeleton = syntheticSkeleton(7, 2);
    const base = syntheticClip(skeleton, { seed: 3, frameCount: 19, amplitude: 1.6 });
    const frames = base.frames.slice();
    for (let f = 1; f < base.frameCount; f += 2) for (let j = 0; j < 7; j += 3) for (let c = 3; c < 7; c++) frames[(f * 7 + j) * 10 + c]! *= -1;
    const clip = createClip({ ...base, frames });
    const alone = Array.from({ length: 7 }, (_, j) => {
      const single = createSkeleton({ names: ['j'], parents: [-1], rest: skeleton.rest.slice(j * 10, j * 10 + 10) });
      const own = new Float32Array(clip.frameCount * 10);
      for (let f = 0; f < clip.frameCount; f++) own.set(frames.subarray((f * 7 + j) * 10, (f * 7 + j) * 10 + 10), f * 10);
      return createClip({ skeleton: single, frameRate: clip.frameRate, frames: own });
    });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 7, kernels: 'wasm' });
    const kernels = world.wasm!;
    const { time, weight } = world.components.Layers;
    const pose = world.scratch.layerSamples; // four slots of 7 joints
    const local = world.components.LocalPose.data;
    syncKernelArea(kernels, [skeleton], [clip, ...alone]);
    kernels.area.params[0] = world.scratch.blendThreshold[0]!;
    let lerped = 0;
    for (let n = 0; n < 60; n++) {
      time[1] = (n / 59) * clip.duration + 0.0031;
      time[2] = ((n * 7) % 59 / 59) * clip.duration + 0.0007;
      for (const slot of [0, 1]) expect(sampleLayerWasm(kernels, 0, pose.byteOffset + slot * 280, time.byteOffset + 8 * (slot + 1))).toBe(true);
      weight[4] = 0.3 + 0.01 * n;
      weight[5] = 0.9 - 0.01 * n;
      kernels.blendOverride(local.byteOffset + 280, pose.byteOffset, 280, weight.byteOffset + 16, 3, 7, kernels.area.restTable[0]!, kernels.area.params.byteOffset);
      const batched = [pose.slice(0, 70), pose.slice(70, 140), local.slice(70, 140)];
      for (let j = 0; j < 7; j++) {
        for (const slot of [0, 1]) expect(sampleLayerWasm(kernels, 1 + j, pose.byteOffset + slot * 280, time.byteOffset + 8 * (slot + 1))).toBe(true);
        kernels.blendOverride(local.byteOffset + 280, pose.byteOffset, 280, weight.byteOffset + 16, 3, 1, kernels.area.restTable[0]!, kernels.area.params.byteOffset);
        expect(bits(pose.subarray(0, 10)), `joint ${j} at ${time[1]}`).toEqual(bits(batched[0]!.subarray(j * 10, j * 10 + 10)));
        expect(bits(pose.subarray(70, 80)), `joint ${j} at ${time[2]}`).toEqual(bits(batched[1]!.subarray(j * 10, j * 10 + 10)));
        expect(bits(local.subarray(70, 80)), `joint ${j} blended`).toEqual(bits(batched[2]!.subarray(j * 10, j * 10 + 10)));
      }
      if (time[1]! * clip.frameRate % 1 > 0) lerped++;
    }
    expect(lerped).toBeGreaterThan(50); // between frames: the lerp and the norms, not frame copies
  });

  it('reduced and LOD-reduced clips run the kernels in a wasm world with the JS kernels\' bits; bound clips (proportions only) and masked override layers the kernels, within float32 rounding', () => {
    const skeleton = humanoid();
    const walk = syntheticClip(skeleton, { seed: 2, amplitude: 0.3, frameCount: 41 });
    const run = syntheticClip(skeleton, { seed: 3, amplitude: 0.4, frameCount: 33 });
    const reduced = reduceClip(run, { tolerance: 0.01 });
    const lod1 = reduceClip(walk, { tolerance: 0.005 }), lod2 = reduceClip(walk, { tolerance: 0.02 });
    // A clip made for another skeleton (one more joint), played through a binding.
    const other = createSkeleton({
      names: [...skeleton.names, 'extra'], parents: [...skeleton.parents, 0], rest: [...skeleton.rest, 0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    });
    const foreign = syntheticClip(other, { seed: 8, amplitude: 0.3 });
    expect(bindSkeletons(other, skeleton).matched).toBe(skeleton.jointCount);
    const upper = createMask(skeleton, { chest: 1 });
    const kindOf = new Map<number, number>();
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 64, maxJoints: skeleton.jointCount, kernels });
      registerLodLevels(world, walk, [walk, lod1, lod2]);
      const random = createRandom(5);
      for (let n = 0; n < 60; n++) {
        const eid = spawnCharacter(world, skeleton, { x: (n % 8) * 4, z: Math.floor(n / 8) * 4 });
        kindOf.set(eid, n % 5);
        const kind = n % 5;
        if (kind === 0) play(world, eid, reduced, { time: random() });
        else if (kind === 1) play(world, eid, foreign, { time: random() });
        else if (kind === 2) { play(world, eid, walk, { time: random(), weight: 0.6 }); play(world, eid, run, { layer: 1, time: random(), weight: 0.5, mask: upper }); }
        else if (kind === 3) { play(world, eid, walk, { time: random() }); setLod(world, eid, { levels: 3, distances: [6, 14] }); }
        else { play(world, eid, walk, { time: random(), weight: 0.05 }); play(world, eid, run, { layer: 1, time: random(), weight: 0.03 }); }
      }
      setLodCamera(world, 0, 1.5, 0);
      for (let f = 0; f < 40; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    const copyOf = (clip: Clip): number => clipCopyAt(wasm.wasm!.area, wasm.wasm!.clipCopied.indexOf(clip));
    expect(copyOf(walk)).not.toBe(0);
    expect(copyOf(run)).not.toBe(0); // the masked layer's clip is dense: sampled and blended on the kernels
    for (const clip of [reduced, lod1, lod2]) expect(copyOf(clip)).not.toBe(0); // copied: sampled by assembly/reduced.ts
    // The foreign clip is dense (copied) and played through a proportions-only binding (copied
    // too): the kernel samples it. A reduced clip alone is sampled by the reduced kernel into
    // LocalPose: the JS kernel's bits; the rest within float32 rounding, not the bits.
    expect(copyOf(foreign)).not.toBe(0);
    expect(Array.from(wasm.wasm!.area.bindingTable.subarray(0, wasm.assets.bindings.length)).every((at) => at !== 0)).toBe(true);
    const row = wasm.maxJoints * 10;
    for (const [eid, kind] of kindOf) {
      const pose = compare(wasm.components.LocalPose.data.subarray(eid * row, (eid + 1) * row), js.components.LocalPose.data.subarray(eid * row, (eid + 1) * row));
      if (kind === 0) expect(pose.identical).toBe(true);
      else {
        if (kind === 1 || kind === 2) expect(pose.identical).toBe(false);
        expect(pose.max).toBeLessThanOrEqual(POSE_TOLERANCE);
      }
    }
    expect(compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data).max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
  });

  it('clips beyond the kernel area\'s room are sampled by the JS kernel (its bits); smaller ones still fit (within float32 rounding)', () => {
    fixedArea(); // the fixed area of a plain memory (a page that cannot share memory)
    const skeleton = syntheticSkeleton(16, 2);
    const long = syntheticClip(skeleton, { seed: 3, frameCount: KERNEL_AREA_CLIP_FRAMES + 40 });
    const short = syntheticClip(skeleton, { seed: 4, frameCount: 31 });
    const eids = [0, 0];
    const make = (kernels: KernelChoice): AnimationWorld => {
      const world = createAnimationWorld({ maxEntities: 4, maxJoints: 16, kernels });
      eids[0] = spawnCharacter(world, skeleton);
      play(world, eids[0], long, { time: 12.345 });
      eids[1] = spawnCharacter(world, skeleton);
      play(world, eids[1], short, { time: 0.2123 }); // between frames
      for (let f = 0; f < 20; f++) step(world, DT);
      return world;
    };
    const wasm = make('wasm'), js = make('js');
    const kernels = wasm.wasm!;
    expect(kernelAreaReport(wasm)!.clips.bytes).toBe(KERNEL_AREA_CLIP_FRAMES * 16 * 40);
    expect(clipCopyAt(kernels.area, kernels.clipCopied.indexOf(long))).toBe(0);
    expect(clipCopyAt(kernels.area, kernels.clipCopied.indexOf(short))).toBeGreaterThan(0);
    expect(eids[0]).not.toBe(eids[1]);
    // A lone layer (no blend): the long clip sampled by the JS kernel (its bits), the short one
    // by the float32 kernel between frames (within rounding, not the bits).
    const row = wasm.maxJoints * 10;
    const poseOf = (world: AnimationWorld, eid: number): Float32Array => world.components.LocalPose.data.subarray(eid * row, (eid + 1) * row);
    expect(compare(poseOf(wasm, eids[0]), poseOf(js, eids[0])).identical).toBe(true);
    const shortPose = compare(poseOf(wasm, eids[1]), poseOf(js, eids[1]));
    expect(shortPose.identical).toBe(false);
    expect(shortPose.max).toBeLessThanOrEqual(POSE_TOLERANCE);
    expect(compare(wasm.components.SkinPalette.data, js.components.SkinPalette.data).max).toBeLessThanOrEqual(MATRIX_TOLERANCE);
  });
});
