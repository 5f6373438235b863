import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createClip,
  createSkeleton,
  drainEvents,
  getRootTransform,
  play,
  setTargetSpeed,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { refused } from '../fixtures/errors.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** hips (root) → leg, hips 1 m above the ground. */
function biped(): Skeleton {
  return createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/**
 * A looping gait cycle of `duration` s at 30 fps whose hips travel `distance` along +Z (with a
 * within-cycle surge), with a foot contact at a quarter of the cycle.
 */
function gait(skeleton: Skeleton, name: string, duration: number, distance: number, loop = true, contact = true): Clip {
  const frames: number[] = [];
  const count = Math.round(duration * 30);
  for (let f = 0; f <= count; f++) {
    const u = f / count;
    const z = distance * (u + 0.03 * Math.sin(2 * Math.PI * u * 2));
    frames.push(0, 1 + 0.03 * Math.cos(4 * Math.PI * u), z, 0, 0, 0, 1, 1, 1, 1);
    const a = 0.3 * Math.sin(2 * Math.PI * u);
    frames.push(0, -0.5, 0, Math.sin(a / 2), 0, 0, Math.cos(a / 2), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: 30, frames, loop, name, events: contact ? [{ time: duration / 4, name: `${name}-contact` }] : [] });
}

interface Fired { clip: string; at: number }

/** The events queued since the last drain with their world times, then drained. */
function collect(world: AnimationWorld, out: Fired[]): void {
  const q = world.events;
  const ats: number[] = [];
  for (let n = 0; n < q.count; n++) ats.push(q.at[(q.head + n) % q.capacity]!);
  ats.sort((a, b) => a - b);
  const events = drainEvents(world);
  events.forEach((e, n) => out.push({ clip: e.clip.name, at: ats[n]! }));
}

/** Circular distance of two phases (cycles). */
function phaseGap(a: number, b: number): number {
  const d = Math.abs(a - b) % 1;
  return Math.min(d, 1 - d);
}

function setup(w0: number, w1: number, offset1 = 0) {
  const skeleton = biped();
  const walk = gait(skeleton, 'walk', 0.8, 1.0);
  const run = gait(skeleton, 'run', 1.2, 2.4);
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, maxEvents: 64 });
  const eid = spawnCharacter(world, skeleton, { rootMotion: true });
  play(world, eid, walk, { layer: 0, weight: w0, syncGroup: 0 });
  play(world, eid, run, { layer: 1, weight: w1, syncGroup: 0, phaseOffset: offset1 });
  return { world, eid, walk, run, skeleton };
}

describe('phase sync groups', () => {
  it('keeps two clips of 0.8 s and 1.2 s at one phase: their contacts fire together', () => {
    const { world, eid, walk, run } = setup(0.5, 0.5);
    const { time } = world.components.Layers;
    const fired: Fired[] = [];
    let worst = 0;
    for (let f = 0; f < 300; f++) {
      step(world, 1 / 60);
      collect(world, fired);
      worst = Math.max(worst, phaseGap(time[eid * 4]! / walk.duration, time[eid * 4 + 1]! / run.duration));
    }
    expect(worst).toBeLessThan(1e-6);
    // D_g = 0.5·0.8 + 0.5·1.2 = 1 s: contacts at 0.25, 1.25, … 4.25 s, one of each clip.
    expect(fired.filter((e) => e.clip === 'walk')).toHaveLength(5);
    expect(fired.filter((e) => e.clip === 'run')).toHaveLength(5);
    for (let k = 0; k < 5; k++) {
      const pair = fired.slice(2 * k, 2 * k + 2);
      expect(pair.map((e) => e.clip).sort()).toEqual(['run', 'walk']);
      expect(Math.abs(pair[0]!.at - pair[1]!.at)).toBeLessThan(1e-6);
      expect(pair[0]!.at).toBeCloseTo(0.25 + k, 6);
    }
  });

  it('cycles once per weight-averaged duration: 0.25·0.8 + 0.75·1.2 = 1.1 s', () => {
    const { world } = setup(0.25, 0.75);
    const fired: Fired[] = [];
    for (let f = 0; f < 660; f++) { step(world, 1 / 60); collect(world, fired); }
    const walks = fired.filter((e) => e.clip === 'walk');
    const runs = fired.filter((e) => e.clip === 'run');
    expect(walks).toHaveLength(10);
    expect(runs).toHaveLength(10);
    walks.forEach((e, k) => {
      expect(e.at).toBeCloseTo(0.275 + 1.1 * k, 6);
      expect(Math.abs(e.at - runs[k]!.at)).toBeLessThan(1e-6);
    });
  });

  it('a phase offset of 0.5 shifts one clip\'s contacts by half a cycle', () => {
    const { world, eid, walk, run } = setup(0.5, 0.5, 0.5);
    const { time } = world.components.Layers;
    const fired: Fired[] = [];
    for (let f = 0; f < 300; f++) {
      step(world, 1 / 60);
      collect(world, fired);
      expect(phaseGap(time[eid * 4]! / walk.duration + 0.5, time[eid * 4 + 1]! / run.duration)).toBeLessThan(1e-6);
    }
    const walks = fired.filter((e) => e.clip === 'walk').map((e) => e.at);
    const runs = fired.filter((e) => e.clip === 'run').map((e) => e.at);
    expect(walks).toHaveLength(5);
    expect(runs).toHaveLength(5); // φ + 0.5 = 0.25 at φ = 0.75: 0.75, 1.75, … 4.75 s
    runs.forEach((at, k) => expect(at - walks[k]!).toBeCloseTo(0.5, 6));
  });

  it('a clip joining a playing group takes its phase and rate', () => {
    const skeleton = biped();
    const walk = gait(skeleton, 'walk', 0.8, 1.0);
    const run = gait(skeleton, 'run', 1.2, 2.4);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, walk, { layer: 0, syncGroup: 2, speed: 1.5 });
    for (let f = 0; f < 17; f++) step(world, 1 / 60);
    play(world, eid, run, { layer: 1, weight: 0.5, syncGroup: 2, speed: 3 });
    const { time, syncRate } = world.components.Layers;
    expect(syncRate[eid * 4 + 1]).toBe(1.5);
    expect(phaseGap(time[eid * 4]! / 0.8, time[eid * 4 + 1]! / 1.2)).toBeLessThan(1e-6);
    step(world, 1 / 60);
    expect(phaseGap(time[eid * 4]! / 0.8, time[eid * 4 + 1]! / 1.2)).toBeLessThan(1e-6);
  });

  it('setTargetSpeed moves a synced blend at the commanded speed over whole cycles', () => {
    for (const [w0, w1] of [[0.5, 0.5], [0.25, 0.75], [0.9, 0.1]] as const) {
      const { world, eid } = setup(w0, w1);
      const target = 1.7;
      setTargetSpeed(world, eid, target);
      const { syncRate } = world.components.Layers;
      // Rate 1 travels (w0·1.0 + w1·2.4) m per D_g = w0·0.8 + w1·1.2 s.
      const groupDuration = w0 * 0.8 + w1 * 1.2;
      const expectedRate = target / ((w0 * 1.0 + w1 * 2.4) / groupDuration);
      expect(syncRate[eid * 4]).toBeCloseTo(expectedRate, 5);
      expect(syncRate[eid * 4 + 1]).toBe(syncRate[eid * 4]);
      const cycles = 6;
      const frames = 600;
      const seconds = (cycles * groupDuration) / syncRate[eid * 4]!;
      for (let f = 0; f < frames; f++) step(world, seconds / frames);
      const z = getRootTransform(world, eid).z;
      expect(Math.abs(z / seconds - target) / target).toBeLessThan(1e-3);
    }
  });

  it('refuses a bad syncGroup, a non-finite phaseOffset and a non-looping clip, changing nothing', () => {
    const skeleton = biped();
    const walk = gait(skeleton, 'walk', 0.8, 1.0);
    const once = gait(skeleton, 'once', 1.2, 2.4, false);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, walk, { layer: 0, syncGroup: 0, weight: 0.5 });
    step(world, 0.1);
    const L = world.components.Layers;
    const snapshot = () => [L.clip, L.time, L.speed, L.weight, L.flags, L.syncGroup, L.syncRate, L.phaseOffset].map((a) => Array.from(a));
    const before = snapshot();
    expect(refused(() => play(world, eid, walk, { layer: 1, syncGroup: 9 })).message).toMatch(/syncGroup/);
    expect(refused(() => play(world, eid, walk, { layer: 1, syncGroup: 1.5 })).message).toMatch(/syncGroup/);
    expect(refused(() => play(world, eid, walk, { layer: 1, syncGroup: 0, phaseOffset: NaN })).message).toMatch(/phaseOffset/);
    expect(refused(() => play(world, eid, once, { layer: 1, syncGroup: 0 })).message).toMatch(/syncGroup.*loop/);
    expect(refused(() => play(world, eid, walk, { layer: 1, syncGroup: 0, loop: false }))).toBeInstanceOf(AnimationError);
    expect(snapshot()).toEqual(before);
    // Without a group, the clamped clip plays; a wrapped offset is stored in [0, 1).
    play(world, eid, once, { layer: 1 });
    play(world, eid, walk, { layer: 2, syncGroup: 1, phaseOffset: -0.25 });
    expect(L.phaseOffset[eid * 4 + 2]).toBe(0.75);
    play(world, eid, walk, { layer: 2 });
    expect(L.syncGroup[eid * 4 + 2]).toBe(-1); // replaced: the slot leaves the group
  });

  it('step allocates nothing for 500 characters with synced blends', () => {
    const skeleton = biped();
    const walk = gait(skeleton, 'walk', 0.8, 1.0, true, false);
    const run = gait(skeleton, 'run', 1.2, 2.4, true, false);
    const world = createAnimationWorld({ maxEntities: 500, maxJoints: 2, maxEvents: 256 });
    for (let n = 0; n < 500; n++) {
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      play(world, eid, walk, { layer: 0, weight: 0.3 + (n % 5) * 0.1, syncGroup: 0 });
      play(world, eid, run, { layer: 1, weight: 0.5, syncGroup: 0, phaseOffset: (n % 7) / 7 });
      play(world, eid, walk, { layer: 2, weight: 0.2, syncGroup: 1, speed: 1.2 });
    }
    for (let f = 0; f < 200; f++) { step(world, 1 / 60); world.events.count = 0; }
    gc();
    // Median bytes per step, not a total: under load the JIT's own sporadic allocations (a few
    // hundred KB now and then) would make a total flaky; a per-character allocation shows in
    // every step.
    const perStep: number[] = [];
    let collections = 0;
    for (let f = 0; f < 300; f++) {
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      step(world, 1 / 60);
      const after = process.memoryUsage().heapUsed;
      const stats = profiler.stop()?.statistics ?? [];
      collections += stats.length;
      perStep.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
      world.events.count = 0;
    }
    const median = perStep.sort((a, b) => a - b)[perStep.length >> 1]!;
    console.log(`300 frames × 500 synced characters: median ${median} bytes per step (${collections} GCs)`);
    // Clips without events. The measuring itself costs a few hundred bytes; one boxed double
    // per synced layer would be 24,000 per step.
    expect(median).toBeLessThan(1024);
  });
});
