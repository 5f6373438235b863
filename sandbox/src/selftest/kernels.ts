/**
 * `?selftest=kernels`: the WebAssembly kernels against the JavaScript ones in this browser (the
 * e2e test runs it in Chromium; test/wasm/kernels.test.ts is the full check in Node). Three
 * worlds get the threads selftest's crowd (sandbox/src/selftest/threads.ts: the bench rig, two
 * clips with events, two layers, on some a masked override layer and an additive masked layer,
 * transitions in three modes (their offsets on the kernels), a reduced clip, followers, look-at, LOD,
 * removals and spawns): `kernels: 'js'` stepped by `step`, `kernels: 'wasm'` stepped by `step`,
 * and `kernels: 'wasm'` on two threads stepped by `stepParallel` (its worker instantiates the
 * module on the shared memory). Every `CHECK_EVERY` frames the wasm worlds' skinning palettes
 * must be within 1e-5 (relative beyond 1) of the js world's — the WebAssembly kernels compute
 * in float32 SIMD (docs/wasm.md) — and the events drained the same; the threaded wasm world
 * must equal the wasm `step` world in every pool bit for bit (SHA-256, as the threads selftest),
 * and a fourth, palette-only (`modelPose: false`) wasm world on two threads must give the wasm
 * `step` world's palettes bit for bit. The page must have called `loadKernels()`
 * (sandbox/src/main.ts). The result lands in `window.__sandbox.selftest`.
 */
import { disposeAnimationWorld, step, stepParallel, type AnimationWorld } from 'bitanim';
import { CHECK_EVERY, checkpoint, COUNT, difference, DT, FRAMES, makeRun, selftestClips, type Checkpoint } from './threads.js';

/** What the page reports. */
export interface KernelsSelftest {
  /** `world.kernels` of the three worlds: step on 'js', step on 'wasm', stepParallel on 'wasm' (2 threads). */
  kernels: { js: string; wasm: string; threaded: string };
  characters: number;
  frames: number;
  /** Checkpoints compared; those where the wasm world's events equalled the js one's; those where the threaded wasm world equalled the wasm `step` world (every pool and the events). */
  checkpoints: number;
  equal: number;
  equalThreaded: number;
  /** Checkpoints where the palette-only threaded wasm world's `SkinPalette.data` equalled the wasm `step` world's bit for bit, and its `ModelPose.data` length (0). */
  equalPaletteOnly: number;
  paletteOnlyModelPose: number;
  /** Checkpoints where both wasm worlds' `SkinPalette.data` were within 1e-5 of the js world's, and the palette elements compared at each. */
  paletteEqual: number;
  /** The largest palette difference seen (relative beyond 1), wasm worlds against the js world. */
  paletteDifference: number;
  paletteElements: number;
  /** The first difference: `frame N: wasm Component.field` (or `threaded …`), else null. */
  firstDifference: string | null;
  /** Calls of the skinning kernel's chunk loop, per thread (`world.wasm.area.chunks`): the step world's thread, the threaded world's page and worker. */
  wasmChunks: { step: number; page: number; worker: number };
  events: number;
  ms: number;
}

/** Runs the test; never throws (an error becomes `firstDifference`). */
export async function runKernelsSelftest(): Promise<KernelsSelftest> {
  const started = performance.now();
  const [a, b] = selftestClips();
  const runs: ReturnType<typeof makeRun>[] = [];
  const result: KernelsSelftest = {
    kernels: { js: '', wasm: '', threaded: '' }, characters: COUNT, frames: 0, checkpoints: 0, equal: 0, equalThreaded: 0,
    equalPaletteOnly: 0, paletteOnlyModelPose: -1, paletteEqual: 0, paletteDifference: 0, paletteElements: 0, firstDifference: null, wasmChunks: { step: 0, page: 0, worker: 0 }, events: 0, ms: 0,
  };
  try {
    // 'wasm' is refused (an AnimationError) where the kernels did not load: that fails the test.
    const js = makeRun(1, a, b, 'js');
    runs.push(js);
    const wasm = makeRun(1, a, b, 'wasm');
    runs.push(wasm);
    const threaded = makeRun(2, a, b, 'wasm');
    runs.push(threaded);
    const paletteOnly = makeRun(2, a, b, 'wasm', false, false, false);
    runs.push(paletteOnly);
    result.paletteOnlyModelPose = paletteOnly.world.components.ModelPose.data.length;
    result.kernels = { js: js.world.kernels, wasm: wasm.world.kernels, threaded: threaded.world.kernels };
    for (let f = 1; f <= FRAMES; f++) {
      for (const run of runs) run.before(f);
      step(js.world, DT);
      step(wasm.world, DT);
      await stepParallel(threaded.world, DT);
      await stepParallel(paletteOnly.world, DT);
      result.frames = f;
      if (f % CHECK_EVERY === 0) {
        const x = await checkpoint(js.world), y = await checkpoint(wasm.world), z = await checkpoint(threaded.world);
        result.checkpoints++;
        result.events += x.eventCount;
        const palette = x.fields.get('SkinPalette.data')!;
        result.paletteElements = palette.length / 4;
        const worst = Math.max(paletteDifference(x, y), paletteDifference(x, z));
        result.paletteDifference = Math.max(result.paletteDifference, worst);
        if (worst <= 1e-5) result.paletteEqual++;
        if (x.events === y.events) result.equal++;
        else result.firstDifference ??= `frame ${f}: wasm events differ from js`;
        if (y.hash === z.hash && y.events === z.events) result.equalThreaded++;
        else result.firstDifference ??= `frame ${f}: threaded ${difference(y, z)}`;
        if (samePalette(wasm.world, paletteOnly.world)) result.equalPaletteOnly++;
        else result.firstDifference ??= `frame ${f}: the palette-only world's palette differs`;
      }
    }
    result.wasmChunks = { step: chunksOf(wasm.world, 0), page: chunksOf(threaded.world, 0), worker: chunksOf(threaded.world, 1) };
  } catch (error) {
    result.firstDifference = `error: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    for (const run of runs) disposeAnimationWorld(run.world);
  }
  result.ms = performance.now() - started;
  return result;
}

/** The largest |p − q| / max(1, |p|) over two checkpoints' palettes (Infinity when they cannot be compared). */
function paletteDifference(x: Checkpoint, y: Checkpoint): number {
  const p = x.fields.get('SkinPalette.data'), q = y.fields.get('SkinPalette.data');
  if (!p || !q || p.length !== q.length || p.length === 0) return Infinity;
  const a = new Float32Array(p.buffer, p.byteOffset, p.byteLength / 4), b = new Float32Array(q.buffer, q.byteOffset, q.byteLength / 4);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(a[i]!));
    if (!(d <= worst)) worst = d; // NaN too
  }
  return worst;
}

/** Whether two worlds' skinning palettes are equal bit for bit. */
function samePalette(x: AnimationWorld, y: AnimationWorld): boolean {
  const p = x.components.SkinPalette.data, q = y.components.SkinPalette.data;
  if (p.length !== q.length) return false;
  const a = new Uint32Array(p.buffer, p.byteOffset, p.length), b = new Uint32Array(q.buffer, q.byteOffset, q.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Thread `thread`'s count of skinning-kernel chunk calls in `world` (−1: the world runs JavaScript). */
function chunksOf(world: AnimationWorld, thread: number): number {
  return world.wasm?.area.chunks[thread] ?? -1;
}
