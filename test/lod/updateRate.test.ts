import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  drainEvents,
  getFollowPosition,
  getLocalPose,
  getSkinPalette,
  play,
  setFollower,
  setFollowTarget,
  spawnCharacter,
  step,
  transition,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { blendSystem, followSystem, inertializeSystem, DEFAULT_MAX_LAYERS, rootMotionSystem, sampleSystem, skinSystem } from '../../src/kernels.js';
import { INERTIA_NONE } from '../../src/components/Inertialization.js';
import { registerLodLevels, setLod, setLodCamera } from '../../src/api/lod.js';
import { lodSystem } from '../../src/systems/lodSystem.js';
import { createRandom } from '../fixtures/synthetic.js';
import { biped } from '../rootMotion/locomotion.js';
import { steppedClip, walkClip } from './lodHelpers.js';

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const HIP = 0.9;
/** Levels by distance: 0 within 30 m, 1 within 80 m, 2 beyond; updated every 1st, 2nd, 4th frame. */
const LOD = { levels: 3, distances: [30, 80], updateEvery: [1, 2, 4] };

interface Assets {
  readonly skeleton: Skeleton;
  readonly forward: Clip;
  readonly side: Clip;
  readonly turn: Clip;
}

function createAssets(): Assets {
  const skeleton = biped(HIP);
  return {
    skeleton,
    forward: walkClip(skeleton, {
      distance: 1.4, duration: 1, surge: 0.03, name: 'forward',
      events: [{ time: 0, name: 'start' }, { time: 0.25, name: 'left' }, { time: 0.75, name: 'right' }],
    }),
    side: walkClip(skeleton, { distance: 0.6, duration: 0.8, dirX: 1, dirZ: 0.2, surge: 0.02, name: 'side', events: [{ time: 0.4, name: 'side' }] }),
    turn: walkClip(skeleton, { distance: 1.2, duration: 1.2, turn: 0.8, surge: 0.03, name: 'turn', events: [{ time: 0.6, name: 'turn' }] }),
  };
}

/**
 * A crowd of `count` walkers on rings at 5, 50 and 120 m from the origin (LOD levels 0, 1, 2
 * for a camera there), in three kinds: two blended walks (forward and sideways) at their own
 * speeds; the same in a sync group, backwards; a turning walk with root yaw. With `lod`, every
 * third character of each kind has none, the rest `LOD`.
 */
function createCrowd(assets: Assets, count: number, lod: boolean, seed = 5): { world: AnimationWorld; eids: number[]; withLod: boolean[] } {
  const { skeleton, forward, side, turn } = assets;
  const world = createAnimationWorld({ maxEntities: count, maxJoints: 2, maxEvents: 8192 });
  if (lod) registerLodLevels(world, forward, [forward, steppedClip(forward, 3), steppedClip(forward, 6)]);
  const random = createRandom(seed);
  const eids: number[] = [];
  const withLod: boolean[] = [];
  for (let n = 0; n < count; n++) {
    const kind = n % 3;
    const radius = [5, 50, 120][Math.floor(n / 3) % 3]!;
    const angle = 2 * Math.PI * random();
    const eid = spawnCharacter(world, skeleton, {
      x: radius * Math.cos(angle), z: radius * Math.sin(angle), yaw: 2 * Math.PI * random(), rootMotion: true, rootYaw: kind === 2,
    });
    if (kind === 2) {
      play(world, eid, turn, { speed: 0.7 + 0.6 * random(), time: random() * turn.duration });
    } else {
      const sync = kind === 1 ? { syncGroup: 0 } : {};
      const sign = kind === 1 ? -1 : 1;
      play(world, eid, forward, { layer: 0, weight: 0.7, speed: sign * (0.8 + 0.5 * random()), time: random() * forward.duration, ...sync });
      play(world, eid, side, { layer: 1, weight: 0.3, speed: sign * (0.8 + 0.5 * random()), time: random() * side.duration, ...sync });
    }
    const has = lod && Math.floor(n / 9) % 3 !== 0;
    if (has) setLod(world, eid, LOD);
    eids.push(eid);
    withLod.push(has);
  }
  return { world, eids, withLod };
}

interface Fired { readonly frame: number; readonly name: string; readonly time: number }

/** Steps `world` through `dts`, moving the LOD camera at given frames; records each character's events with the frame drained. */
function run(world: AnimationWorld, dts: readonly number[], onFrame?: (frame: number) => void): Map<number, Fired[]> {
  const fired = new Map<number, Fired[]>();
  dts.forEach((dt, frame) => {
    if (frame === 60) setLodCamera(world, 60, 0, 0);
    if (frame === 120) setLodCamera(world, -40, 0, 30);
    step(world, dt);
    for (const e of drainEvents(world)) {
      if (!fired.has(e.eid)) fired.set(e.eid, []);
      fired.get(e.eid)!.push({ frame, name: e.name, time: e.time });
    }
    onFrame?.(frame);
  });
  return fired;
}

/** 180 frames of random dt in [1/240, 1/20] s, then 8 frames of dt = 0 that let every character catch up. */
function frameTimes(seed: number): number[] {
  const random = createRandom(seed);
  return [...Array.from({ length: 180 }, () => 1 / 240 + random() * (1 / 20 - 1 / 240)), ...Array.from({ length: 8 }, () => 0)];
}

describe('update-rate LOD: a crowd at k = 1, 2, 4 against the full-rate run', () => {
  const assets = createAssets();
  const count = 90;
  const dts = frameTimes(11);
  const full = createCrowd(assets, count, false);
  const reduced = createCrowd(assets, count, true);
  const fullEvents = run(full.world, dts);
  const { Lod } = reduced.world.components;
  let updates = 0, intervalChanges = 0, skippedChecks = 0;
  const lastInterval = new Map<number, number>();
  // Before each frame, what a character shows; after it, unchanged unless it was updated.
  const shown = (eid: number): number[] => [
    ...getLocalPose(reduced.world, eid), ...getSkinPalette(reduced.world, eid),
    reduced.world.components.RootMotion.x[eid]!, reduced.world.components.RootMotion.z[eid]!, reduced.world.components.RootMotion.yaw[eid]!,
  ];
  let before = reduced.eids.map(shown);
  const reducedEvents = run(reduced.world, dts, (frame) => {
    reduced.eids.forEach((eid, n) => {
      if (!reduced.withLod[n]) return;
      if (Lod.update[eid] === 1) updates++;
      else {
        expect(shown(eid), `character ${eid}, frame ${frame}`).toEqual(before[n]);
        skippedChecks++;
      }
      const k = LOD.updateEvery[Lod.level[eid]!]!;
      if (lastInterval.has(eid) && lastInterval.get(eid) !== k) intervalChanges++;
      lastInterval.set(eid, k);
    });
    before = reduced.eids.map(shown);
  });
  const lodCount = reduced.withLod.filter(Boolean).length;

  it('skips work: characters at coarse levels update on a fraction of the frames, held still in between', () => {
    expect(lodCount).toBe(54);
    expect(updates / (lodCount * 180)).toBeLessThan(0.7);
    expect(skippedChecks).toBeGreaterThan(2000);
    expect(intervalChanges).toBeGreaterThan(10); // the camera moves, levels change mid-run
  });

  it('travels the same root distance and turns the same as the full-rate run, within 1e-5', () => {
    const a = full.world.components.RootMotion, b = reduced.world.components.RootMotion;
    let worst = 0, travelled = 0;
    for (const eid of reduced.eids) {
      worst = Math.max(worst, Math.abs(a.x[eid]! - b.x[eid]!), Math.abs(a.y[eid]! - b.y[eid]!), Math.abs(a.z[eid]! - b.z[eid]!), Math.abs(a.yaw[eid]! - b.yaw[eid]!));
      travelled = Math.max(travelled, Math.abs(a.x[eid]!) + Math.abs(a.z[eid]!));
    }
    console.log(`update-rate LOD (k = 1, 2, 4, random dt): largest root position / yaw difference from the full-rate run ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-5);
    expect(travelled).toBeGreaterThan(5);
  });

  it('ends with the same layer times', () => {
    const a = full.world.components.Layers.time, b = reduced.world.components.Layers.time;
    for (const eid of reduced.eids) {
      for (let li = eid * DEFAULT_MAX_LAYERS; li < (eid + 1) * DEFAULT_MAX_LAYERS; li++) expect(Math.abs(a[li]! - b[li]!)).toBeLessThan(1e-9);
    }
  });

  it('fires the same events, each on the frame it is reached or later (within the update interval)', () => {
    let total = 0, late = 0;
    for (const [n, eid] of reduced.eids.entries()) {
      const expected = fullEvents.get(eid) ?? [];
      const actual = reducedEvents.get(eid) ?? [];
      expect(actual.map((e) => `${e.name}@${e.time}`)).toEqual(expected.map((e) => `${e.name}@${e.time}`));
      actual.forEach((e, i) => {
        const lag = e.frame - expected[i]!.frame;
        expect(lag).toBeGreaterThanOrEqual(0);
        expect(lag).toBeLessThan(reduced.withLod[n] ? 8 : 1);
        if (lag > 0) late++;
      });
      total += actual.length;
    }
    expect(total).toBeGreaterThan(500);
    expect(late).toBeGreaterThan(50);
  });

  it('leaves characters without LOD bit-identical to the run without any', () => {
    reduced.eids.forEach((eid, n) => {
      if (reduced.withLod[n]) return;
      expect(Array.from(getSkinPalette(reduced.world, eid))).toEqual(Array.from(getSkinPalette(full.world, eid)));
      expect(reduced.world.components.RootMotion.x[eid]).toBe(full.world.components.RootMotion.x[eid]);
      expect(reducedEvents.get(eid)).toEqual(fullEvents.get(eid));
    });
  });
});

describe('update-rate LOD: the other systems', () => {
  it('step over chunks equals lodSystem and the systems run one by one over the whole world', () => {
    const assets = createAssets();
    const dts = frameTimes(3).slice(0, 100);
    const a = createCrowd(assets, 300, true, 8); // 300 > 128: step runs three chunks
    const b = createCrowd(assets, 300, true, 8);
    dts.forEach((dt, frame) => {
      if (frame === 50) for (const w of [a.world, b.world]) setLodCamera(w, 70, 0, 0);
      step(a.world, dt);
      lodSystem(b.world, dt);
      sampleSystem(b.world, dt);
      blendSystem(b.world, dt);
      inertializeSystem(b.world, dt);
      rootMotionSystem(b.world, dt);
      followSystem(b.world, dt);
      skinSystem(b.world, dt);
    });
    for (const eid of a.eids) expect(Array.from(getSkinPalette(a.world, eid))).toEqual(Array.from(getSkinPalette(b.world, eid)));
    expect(drainEvents(a.world).map((e) => `${e.eid}:${e.name}`)).toEqual(drainEvents(b.world).map((e) => `${e.eid}:${e.name}`));
  });

  it('transitions and followers end where the full-rate run ends', () => {
    const { skeleton, forward, side, turn } = createAssets();
    const make = (lod: boolean): { world: AnimationWorld; eids: number[] } => {
      const world = createAnimationWorld({ maxEntities: 12, maxJoints: 2 });
      const eids = Array.from({ length: 12 }, (_, n) => {
        const eid = spawnCharacter(world, skeleton, { x: [5, 50, 120][n % 3]! });
        play(world, eid, forward, { time: 0.1 * n });
        setFollower(world, eid, { x: 0, y: 1, z: 0, duration: 0.3, interval: 0.1 });
        setFollowTarget(world, eid, n, 1.5, 2);
        // Phase 0: every character updates on the frames before 40 and 80, so none has time pending there.
        if (lod) setLod(world, eid, { ...LOD, phase: 0 });
        return eid;
      });
      return { world, eids };
    };
    const full = make(false), reduced = make(true);
    const modes = ['inertialize', 'spring', 'crossfade'] as const;
    frameTimes(21).forEach((dt, frame) => {
      for (const { world, eids } of [full, reduced]) {
        if (frame === 40) eids.forEach((eid, n) => transition(world, eid, side, { duration: 0.4, mode: modes[n % 3]! }));
        if (frame === 80) eids.forEach((eid, n) => transition(world, eid, turn, { duration: 0.3, mode: modes[(n + 1) % 3]! }));
        step(world, dt);
      }
    });
    for (const [n, eid] of reduced.eids.entries()) {
      const pose = Array.from(getLocalPose(reduced.world, eid)), expected = Array.from(getLocalPose(full.world, eid));
      expect(Math.max(...pose.map((v, i) => Math.abs(v - expected[i]!))), `character ${n}`).toBeLessThan(2e-5);
      const p = getFollowPosition(reduced.world, eid), q = getFollowPosition(full.world, eid);
      expect(Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z)).toBeLessThan(1e-9);
      expect(reduced.world.components.Inertialization.mode[eid]).toBe(INERTIA_NONE);
    }
  });

  it('a clip played while time is pending gets that time: it starts as if played at the last update', () => {
    const { skeleton, forward, side } = createAssets();
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, forward);
    setLod(world, eid, { levels: 1, updateEvery: [4], phase: 0 }); // updates on frames 4, 8, …
    for (let f = 0; f < 6; f++) step(world, 0.01); // frame 4 updated, 5 and 6 pending
    play(world, eid, side, { time: 0.1 });
    step(world, 0.01);
    step(world, 0.01); // frame 8: 0.04 s applied to the new clip (0.02 of them from before it was played)
    expect(world.components.Layers.time[eid * DEFAULT_MAX_LAYERS]).toBeCloseTo(0.14, 12);
  });
});

describe('update-rate LOD allocates nothing per frame', () => {
  const measureSteps = (world: AnimationWorld, dts: () => number): { median: number; total: number } => {
    for (let f = 0; f < 100; f++) step(world, dts()); // warm-up: JIT, lazily made structures
    gc();
    const perStep: number[] = [];
    for (let f = 0; f < 300; f++) {
      const dt = dts();
      const profiler = new GCProfiler();
      profiler.start();
      const before = process.memoryUsage().heapUsed;
      step(world, dt);
      const after = process.memoryUsage().heapUsed;
      const stats = profiler.stop()?.statistics ?? [];
      perStep.push(after - before + stats.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0));
      drainEvents(world); // the game's side (allocates), outside the measured step
    }
    const sorted = [...perStep].sort((x, y) => x - y);
    return { median: sorted[sorted.length >> 1]!, total: perStep.reduce((s, v) => s + v, 0) };
  };

  it('1,000 characters with distance LOD, level clips and k = 1, 2, 4, at a constant and at a varying dt', () => {
    const assets = createAssets();
    const constant = createCrowd(assets, 1000, true);
    const c = measureSteps(constant.world, () => 1 / 60);
    const random = createRandom(4);
    const varying = createCrowd(assets, 1000, true);
    const v = measureSteps(varying.world, () => 1 / 90 + random() / 30);
    console.log(`1,000 characters with LOD: median ${c.median} bytes per step at a constant dt, ${v.median} at a varying dt`);
    // One boxed double per updated character would be ≥ 16 × 500 = 8,000 bytes per step.
    expect(c.median).toBeLessThan(1024);
    expect(v.median).toBeLessThan(1024);
  });
});
