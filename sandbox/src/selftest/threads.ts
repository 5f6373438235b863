/**
 * `?selftest=threads`: `stepParallel` against `step` in this browser (the e2e test runs it in
 * Chromium; test/parallel/bitIdentical.test.ts is the full check in Node). Two worlds get the
 * same crowd — the bench rig (64 joints), its two clips with events, two layers per character
 * (on some a masked override layer and an additive masked layer of a difference clip too),
 * transitions in all four modes, a reduced clip, followers, look-at, update-rate LOD, removals and spawns
 * between frames — and step `FRAMES` frames, one with `step`, one with `stepParallel` on two
 * threads. Every `CHECK_EVERY` frames the SHA-256 of every typed array of `world.components`
 * (the per-thread `Follower.scratch` aside) and of the events drained since the last check must
 * be equal. Both worlds run the kernels `'auto'` picks (the page called `loadKernels()`: the
 * WebAssembly ones, whose module the worker instantiates on the shared memory). The result
 * lands in `window.__sandbox.selftest`. sandbox/src/selftest/kernels.ts reuses the crowd, and
 * sandbox/src/selftest/transactional.ts (run last) a frame undone by `transactionalFrames`.
 */
import {
  createAnimationWorld, createClip, createDifferenceClip, createMask, disposeAnimationWorld, drainEvents, play, removeCharacter, setFollower, setFollowTarget, setLod, setLodCamera,
  setLookAt, spawnCharacter, step, stepParallel, transition, type AnimationWorld, type Clip, type KernelChoice,
} from 'bitanim';
import { reduceClip } from 'bitanim/lod';
import { benchRig, createRandom } from '../benchRig.js';
import { runTransactionalSelftest, type TransactionalSelftest } from './transactional.js';

export const COUNT = 600;
export const FRAMES = 120;
export const CHECK_EVERY = 20;
export const DT = 1 / 60;
const THREADS = 2;

/** What the page reports. */
export interface ThreadsSelftest {
  threads: number;
  /** `world.kernels` of the two worlds (step's, stepParallel's). */
  kernels: string[];
  characters: number;
  frames: number;
  /** Checkpoints compared, and those that were equal. */
  checkpoints: number;
  equal: number;
  /** The first difference: `frame N: Component.field` or `frame N: events`, else null. */
  firstDifference: string | null;
  /** Chunks run by a worker (chunkLog's thread ≠ 0), over the run; events drained. */
  workerChunks: number;
  /** With WebAssembly kernels: the worker's count of skinning-kernel chunk calls (`world.wasm.area.chunks[1]`), else −1. */
  workerWasmChunks: number;
  events: number;
  /** Hash of the last checkpoint of each run (equal when the runs are). */
  stepHash: string;
  parallelHash: string;
  ms: number;
  /** `transactionalFrames` in this browser (sandbox/src/selftest/transactional.ts). */
  transactional: TransactionalSelftest | null;
}

export interface Checkpoint {
  hash: string;
  /** Per field, its bytes (copied), to name the first difference. */
  fields: Map<string, Uint8Array>;
  events: string;
  eventCount: number;
}

/** Runs the test; never throws (an error becomes `firstDifference`). */
export async function runThreadsSelftest(): Promise<ThreadsSelftest> {
  const started = performance.now();
  const [a, b] = selftestClips();
  const reference = makeRun(1, a, b, 'auto', false, true);
  const threaded = makeRun(THREADS, a, b, 'auto', false, true);
  const result: ThreadsSelftest = {
    threads: THREADS, kernels: [reference.world.kernels, threaded.world.kernels], characters: COUNT, frames: 0, checkpoints: 0, equal: 0, firstDifference: null,
    workerChunks: 0, workerWasmChunks: -1, events: 0, stepHash: '', parallelHash: '', ms: 0, transactional: null,
  };
  try {
    for (let f = 1; f <= FRAMES; f++) {
      reference.before(f);
      threaded.before(f);
      step(reference.world, DT);
      await stepParallel(threaded.world, DT);
      const log = threaded.world.parallel!.chunkLog;
      const chunks = Math.ceil(COUNT / 128);
      for (let c = 0; c < chunks; c++) if (log[c * 3] !== 0) result.workerChunks++;
      result.frames = f;
      if (f % CHECK_EVERY === 0) {
        const x = await checkpoint(reference.world), y = await checkpoint(threaded.world);
        result.checkpoints++;
        result.events += x.eventCount;
        result.stepHash = x.hash;
        result.parallelHash = y.hash;
        if (x.hash === y.hash && x.events === y.events) result.equal++;
        else if (result.firstDifference === null) result.firstDifference = `frame ${f}: ${difference(x, y)}`;
      }
    }
    result.workerWasmChunks = threaded.world.wasm?.area.chunks[1] ?? -1;
  } catch (error) {
    result.firstDifference = `error: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    disposeAnimationWorld(reference.world);
    disposeAnimationWorld(threaded.world);
  }
  result.transactional = await runTransactionalSelftest(a, b);
  result.ms = performance.now() - started;
  return result;
}

/** The bench rig's two clips with events (two on the first, one on the second). */
export function selftestClips(): [Clip, Clip] {
  const { skeleton, clips } = benchRig();
  const withEvents = (clip: Clip, times: number[]): Clip =>
    createClip({ skeleton, frameRate: clip.frameRate, frames: clip.frames, loop: true, name: clip.name, events: times.map((t, i) => ({ time: t * clip.duration, name: `${clip.name}${i}` })) });
  return [withEvents(clips[0]!, [0.2, 0.7]), withEvents(clips[1]!, [0.5])];
}

const reduced = new Map<Clip, Clip>();
/** `clip` reduced to 5 mm (16-bit tracks), once per clip. */
function reducedCopy(clip: Clip): Clip {
  let copy = reduced.get(clip);
  if (copy === undefined) reduced.set(clip, (copy = reduceClip(clip, { tolerance: 0.005 })));
  return copy;
}

/** A world with the test's crowd, and what it does before frame `f` (the same in every run: same seed). */
export function makeRun(
  threads: number, a: Clip, b: Clip, kernels: KernelChoice = 'auto', transactionalFrames = false, deadBlend = false, modelPose = true,
): { world: AnimationWorld; before(f: number): void } {
  const { skeleton } = benchRig();
  // Every character may be mid-transition (they switch every few frames): a slot each.
  // Six layers: the two clips, a masked one, an additive one, and room for a cross-fade's outgoing clip.
  const world = createAnimationWorld({ maxEntities: COUNT + 16, maxJoints: skeleton.jointCount, maxLayers: 6, maxEvents: 256, maxTransitions: COUNT + 16, threads, kernels, transactionalFrames, modelPose });
  const upper = createMask(skeleton, { joint20: 1 });
  const difference = createDifferenceClip(b, a);
  const reducedA = reducedCopy(a);
  const random = createRandom(23);
  const alive: number[] = [];
  // With `deadBlend`, dead blending too (kept out of the js / wasm comparison: its source velocity
  // from two blends 1 ms apart carries the float32 kernels' rounding a thousandfold).
  const modes = deadBlend ? (['inertialize', 'spring', 'crossfade', 'deadblend'] as const) : (['inertialize', 'spring', 'crossfade'] as const);
  let spawned = 0;
  const spawn = (): void => {
    const n = spawned++;
    const x = (n % 25) * 2, z = Math.floor(n / 25) * 2;
    const eid = spawnCharacter(world, skeleton, { x, z, yaw: random() * 6 });
    play(world, eid, n % 2 === 0 ? a : b, { layer: 0, time: random(), speed: 0.8 + 0.4 * random(), loop: true });
    // Every fourth plays a reduced (LOD) copy of its second clip there: sampled from its curves.
    play(world, eid, n % 2 === 0 ? b : n % 4 === 3 ? reducedA : a, { layer: 1, weight: 0.3 + 0.4 * random(), time: random(), loop: true });
    if (n % 4 === 1) play(world, eid, b, { layer: 2, weight: 0.6, mask: upper, time: random(), loop: true });
    if (n % 3 === 2) play(world, eid, difference, { layer: 3, weight: 0.7, mask: upper, additive: true, time: random(), loop: true });
    if (n % 3 === 0) setFollower(world, eid, { x, y: 1.5, z: z + 1 });
    if (n % 5 === 0) setLookAt(world, eid, { joint: 'joint20', yawLimit: 1.2 });
    if (n % 2 === 1) setLod(world, eid, { levels: 3, distances: [15, 35], updateEvery: [1, 2, 4] });
    alive.push(eid);
  };
  for (let n = 0; n < COUNT; n++) spawn();
  setLodCamera(world, 10, 1.5, 10);
  const before = (f: number): void => {
    if (f % 15 === 0) {
      for (let k = f % 4; k < alive.length; k += 4) {
        transition(world, alive[k]!, (k + f) % 2 === 0 ? a : b, { duration: 0.1 + 0.3 * random(), mode: modes[(k + f / 15) % modes.length]!, loop: true });
      }
    }
    if (f % 20 === 0) {
      const p = [random() * 50, 0.5 + random(), random() * 50] as const;
      for (let k = 0; k < alive.length; k += 3) setFollowTarget(world, alive[k]!, p[0], p[1], p[2]);
    }
    if (f % 10 === 0) setLodCamera(world, random() * 50, 1.5, random() * 50);
    if (f % 30 === 0) {
      for (let r = 0; r < 5; r++) removeCharacter(world, alive.splice(Math.floor(random() * alive.length), 1)[0]!);
      for (let r = 0; r < 5; r++) spawn();
    }
  };
  return { world, before };
}

/** SHA-256 of every typed array of every component (the per-thread `Follower.scratch` aside), and the events drained. */
export async function checkpoint(world: AnimationWorld): Promise<Checkpoint> {
  const components = world.components as unknown as Record<string, Record<string, unknown>>;
  const fields = new Map<string, Uint8Array>();
  let size = 0;
  for (const name of Object.keys(components).sort()) {
    for (const field of Object.keys(components[name]!).sort()) {
      if (name === 'Follower' && field === 'scratch') continue; // a per-thread temporary, not state
      const value = components[name]![field];
      if (!ArrayBuffer.isView(value)) continue;
      // A copy: SubtleCrypto does not read shared memory, and the copy names a difference.
      const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
      fields.set(`${name}.${field}`, bytes);
      size += bytes.length;
    }
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const bytes of fields.values()) {
    all.set(bytes, offset);
    offset += bytes.length;
  }
  let events = `time ${world.time};`, eventCount = 0;
  for (const e of drainEvents(world)) events += `${e.eid} ${e.clip.name} ${e.name} ${e.time};`, eventCount++;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(events)));
  const pools = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  const hex = (d: Uint8Array): string => Array.from(d, (x) => x.toString(16).padStart(2, '0')).join('');
  return { hash: `${hex(pools)} events ${hex(digest)}`, fields, events, eventCount };
}

/** The first field (or the events) where two checkpoints differ. */
export function difference(x: Checkpoint, y: Checkpoint): string {
  for (const [name, bytes] of x.fields) {
    const other = y.fields.get(name);
    if (!other || other.length !== bytes.length) return `${name} (size)`;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== other[i]) return `${name} (byte ${i})`;
  }
  return x.events === y.events ? 'the hash only' : 'events';
}
