/**
 * `?selftest=kernels`: the WebAssembly kernels against the JavaScript ones in this browser (the
 * e2e test runs it in Chromium; test/wasm/kernels.test.ts is the full check in Node). Three
 * worlds get the threads selftest's crowd (sandbox/src/selftest/threads.ts: the bench rig, two
 * clips with events, two layers, transitions in all three modes, followers, look-at, LOD,
 * removals and spawns): `kernels: 'js'` stepped by `step`, `kernels: 'wasm'` stepped by `step`,
 * and `kernels: 'wasm'` on two threads stepped by `stepParallel` (its worker instantiates the
 * module on the shared memory). Every `CHECK_EVERY` frames the skinning palettes must be the
 * same bits, and so must every other pool and the events drained (SHA-256, as the threads
 * selftest). The page must have called `loadKernels()` (sandbox/src/main.ts). The result lands
 * in `window.__sandbox.selftest`.
 */
import { disposeAnimationWorld, step, stepParallel, type AnimationWorld } from 'bitanim';
import { CHECK_EVERY, checkpoint, COUNT, difference, DT, FRAMES, makeRun, selftestClips, type Checkpoint } from './threads';

/** What the page reports. */
export interface KernelsSelftest {
  /** `world.kernels` of the three worlds: step on 'js', step on 'wasm', stepParallel on 'wasm' (2 threads). */
  kernels: { js: string; wasm: string; threaded: string };
  characters: number;
  frames: number;
  /** Checkpoints compared; those where the wasm world equalled the js one (every pool and the events), the threaded wasm world too. */
  checkpoints: number;
  equal: number;
  equalThreaded: number;
  /** Checkpoints where both wasm worlds' `SkinPalette.data` were the js world's bits, and the palette elements compared at each. */
  paletteEqual: number;
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
    paletteEqual: 0, paletteElements: 0, firstDifference: null, wasmChunks: { step: 0, page: 0, worker: 0 }, events: 0, ms: 0,
  };
  try {
    // 'wasm' is refused (an AnimationError) where the kernels did not load: that fails the test.
    const js = makeRun(1, a, b, 'js');
    runs.push(js);
    const wasm = makeRun(1, a, b, 'wasm');
    runs.push(wasm);
    const threaded = makeRun(2, a, b, 'wasm');
    runs.push(threaded);
    result.kernels = { js: js.world.kernels, wasm: wasm.world.kernels, threaded: threaded.world.kernels };
    for (let f = 1; f <= FRAMES; f++) {
      for (const run of runs) run.before(f);
      step(js.world, DT);
      step(wasm.world, DT);
      await stepParallel(threaded.world, DT);
      result.frames = f;
      if (f % CHECK_EVERY === 0) {
        const x = await checkpoint(js.world), y = await checkpoint(wasm.world), z = await checkpoint(threaded.world);
        result.checkpoints++;
        result.events += x.eventCount;
        const palette = x.fields.get('SkinPalette.data')!;
        result.paletteElements = palette.length / 4;
        if (samePalette(x, y) && samePalette(x, z)) result.paletteEqual++;
        if (x.hash === y.hash && x.events === y.events) result.equal++;
        else result.firstDifference ??= `frame ${f}: wasm ${difference(x, y)}`;
        if (x.hash === z.hash && x.events === z.events) result.equalThreaded++;
        else result.firstDifference ??= `frame ${f}: threaded ${difference(x, z)}`;
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

/** Whether two checkpoints hold the same palette bytes. */
function samePalette(x: Checkpoint, y: Checkpoint): boolean {
  const p = x.fields.get('SkinPalette.data'), q = y.fields.get('SkinPalette.data');
  if (!p || !q || p.length !== q.length || p.length === 0) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return false;
  return true;
}

/** Thread `thread`'s count of skinning-kernel chunk calls in `world` (−1: the world runs JavaScript). */
function chunksOf(world: AnimationWorld, thread: number): number {
  return world.wasm?.area.chunks[thread] ?? -1;
}
