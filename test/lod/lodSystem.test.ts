import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  getLocalPose,
  play,
  removeCharacter,
  spawnCharacter,
  step,
  type AnimationWorld,
} from '../../src/index.js';
import { sampleClipInto } from '../../src/kernels.js';
import {
  LOD_ARG_HYSTERESIS, LOD_ARG_MEASURE, LOD_BOUNDARIES, LOD_LEVEL_UNSET, LOD_MAX_LEVELS, LOD_OFF,
} from '../../src/components/Lod.js';
import { getLod, registerLodLevels, removeLod, setLod, setLodCamera } from '../../src/api/lod.js';
import { lodSystem, selectLodLevel } from '../../src/systems/lodSystem.js';
import { biped } from '../rootMotion/locomotion.js';
import { steppedClip, walkClip } from './lodHelpers.js';

const HIP = 0.9;

function lodWorld(count: number, options: { rootMotion?: boolean } = {}): { world: AnimationWorld; eids: number[] } {
  const skeleton = biped(HIP);
  const world = createAnimationWorld({ maxEntities: count + 2, maxJoints: 2 });
  const eids = Array.from({ length: count }, () => spawnCharacter(world, skeleton, { rootMotion: options.rootMotion ?? false }));
  return { world, eids };
}

/** Every array of the Lod component and the shared state, copied. */
function snapshot(world: AnimationWorld): unknown[] {
  const arrays = Object.values(world.components.Lod).map((a: ArrayLike<number>) => Array.from(a));
  return [...arrays, Array.from(world.lod.camera), Array.from(world.lod.clipLevels), world.assets.clips.length];
}

describe('selectLodLevel (the kernel)', () => {
  const pick = (thresholds: number[], current: number, measure: number, h: number, descending = false): number => {
    const t = new Float32Array(LOD_BOUNDARIES + 2);
    t.set(thresholds, 2);
    return selectLodLevel(t, 2, thresholds.length, current, descending, Float64Array.of(measure, h));
  };

  it('picks afresh, without hysteresis, the number of boundaries passed', () => {
    expect([0, 9.99, 10, 19.99, 20, 1e9].map((m) => pick([10, 20], LOD_LEVEL_UNSET, m, 0.1))).toEqual([0, 0, 1, 1, 2, 2]);
    // Screen size: descending, smaller is coarser.
    expect([1000, 300, 299.9, 100, 99.9, 0].map((m) => pick([300, 100], LOD_LEVEL_UNSET, m, 0.1, true))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('moves across a boundary only outside the band t·(1 ± h)', () => {
    // Up from 0 at 10·1.1 = 11, down from 1 below 10·0.9 = 9.
    expect(pick([10, 20], 0, 10.99, 0.1)).toBe(0);
    expect(pick([10, 20], 0, 11, 0.1)).toBe(1);
    expect(pick([10, 20], 1, 9.01, 0.1)).toBe(1);
    expect(pick([10, 20], 1, 8.99, 0.1)).toBe(0);
    // Several boundaries at once, both ways.
    expect(pick([10, 20], 0, 22, 0.1)).toBe(2);
    expect(pick([10, 20], 0, 21.9, 0.1)).toBe(1);
    expect(pick([10, 20], 2, 8, 0.1)).toBe(0);
    // Descending: coarser below t·0.9, finer from t·1.1.
    expect(pick([300, 100], 0, 271, 0.1, true)).toBe(0);
    expect(pick([300, 100], 0, 269, 0.1, true)).toBe(1);
    expect(pick([300, 100], 1, 329, 0.1, true)).toBe(1);
    expect(pick([300, 100], 1, 330, 0.1, true)).toBe(0);
  });

  it('keeps the level for NaN, and level 0 with one level', () => {
    expect(pick([10, 20], 1, Number.NaN, 0.1)).toBe(1);
    expect(pick([], 0, 1e9, 0.1)).toBe(0);
    expect(pick([], LOD_LEVEL_UNSET, 1e9, 0.1)).toBe(0);
    expect(LOD_ARG_MEASURE).not.toBe(LOD_ARG_HYSTERESIS);
  });
});

describe('lodSystem: level by distance', () => {
  it('follows the camera with hysteresis: a distance wobbling around a threshold does not flicker', () => {
    const { world, eids } = lodWorld(1);
    const eid = eids[0]!;
    setLod(world, eid, { levels: 3, distances: [10, 20] }); // hysteresis 0.1 by default
    const levelAt = (d: number): number => {
      setLodCamera(world, d, 0, 0); // the character stands at the origin
      lodSystem(world, 1 / 60);
      return getLod(world, eid).level;
    };
    expect(levelAt(10.5)).toBe(1); // the first pick has no hysteresis
    expect(getLod(world, eid).measure).toBeCloseTo(10.5, 6);
    // 200 frames wobbling ±0.8 m around 10 m: it stays where it is.
    const seen = new Set<number>();
    for (let f = 0; f < 200; f++) seen.add(levelAt(10 + 0.8 * Math.sin(f)));
    expect([...seen]).toEqual([1]);
    expect(levelAt(9.1)).toBe(1);
    expect(levelAt(8.9)).toBe(0);
    for (let f = 0; f < 200; f++) seen.add(levelAt(10 + 0.8 * Math.sin(f)));
    expect([...seen].sort()).toEqual([0, 1]); // 0 from 8.9 on, never back to 1
    expect(levelAt(10.9)).toBe(0);
    expect(levelAt(11.1)).toBe(1);
    expect(levelAt(22.1)).toBe(2);
    expect(levelAt(18.1)).toBe(2);
    expect(levelAt(17.9)).toBe(1);
    expect(levelAt(1000)).toBe(2);
    expect(levelAt(0)).toBe(0);
  });

  it('measures from the character\'s world position in 3D', () => {
    const { world, eids } = lodWorld(2);
    world.components.RootMotion.x[eids[1]!] = 3;
    world.components.RootMotion.y[eids[1]!] = 4;
    world.components.RootMotion.z[eids[1]!] = 12;
    for (const eid of eids) setLod(world, eid, { levels: 2, distances: [5] });
    setLodCamera(world, 0, 0, 0);
    lodSystem(world, 0);
    expect(getLod(world, eids[0]!)).toMatchObject({ level: 0, measure: 0 });
    expect(getLod(world, eids[1]!).measure).toBeCloseTo(13, 6);
    expect(getLod(world, eids[1]!).level).toBe(1);
  });

  it('leaves characters without LOD alone (updated every frame, slot 0)', () => {
    const { world, eids } = lodWorld(3);
    setLod(world, eids[1]!, { levels: 2, distances: [1], updateEvery: [1, 4] });
    setLodCamera(world, 100, 0, 0);
    const { update, slot, level, measure } = world.components.Lod;
    for (let f = 0; f < 8; f++) {
      lodSystem(world, 1 / 30);
      for (const eid of [eids[0]!, eids[2]!]) {
        expect([update[eid], slot[eid], level[eid], measure[eid]]).toEqual([1, 0, 0, 0]);
      }
    }
    expect(level[eids[1]!]).toBe(1);
  });
});

describe('lodSystem: level by screen size', () => {
  it('projects H / (2·d·tan(fov/2)) × viewportHeight and picks descending thresholds', () => {
    const { world, eids } = lodWorld(2);
    const [a, b] = eids as [number, number];
    // fov 90°: 2·tan(45°) = 2; 1000 px: a 1.8 m character at d metres covers 900 / d pixels.
    setLodCamera(world, 0, 0, 0, { fov: Math.PI / 2, viewportHeight: 1000 });
    setLod(world, a, { levels: 3, screenSizes: [300, 100], height: 1.8 });
    setLod(world, b, { levels: 3, mode: 'screenSize', screenSizes: [300, 100] }); // height: the skeleton's
    const at = (d: number): [number, number] => {
      world.components.RootMotion.z[a] = d;
      world.components.RootMotion.z[b] = d;
      lodSystem(world, 0);
      return [getLod(world, a).level, getLod(world, b).level];
    };
    expect(at(4.5)[0]).toBe(1);
    expect(getLod(world, a).measure).toBeCloseTo(200, 3);
    // The biped's rest pose spans 0 … 0.9 m (hips at 0.9, the leg joint below them).
    expect(getLod(world, b).measure).toBeCloseTo(100, 3);
    expect(at(2.9)[0]).toBe(1); // 310 px: not above 300·1.1
    expect(at(2.7)[0]).toBe(0); // 333 px
    expect(at(9.5)[0]).toBe(1); // 94.7 px: not below 100·0.9
    expect(at(10.1)[0]).toBe(2); // 89.1 px
    expect(at(0)[0]).toBe(0); // at the camera: infinitely large
    // A narrower field of view magnifies: 20° at 30 m makes 1.8 / (60·tan 10°) × 1000 = 170 px.
    setLodCamera(world, 0, 0, 0, { fov: (20 * Math.PI) / 180 });
    world.components.RootMotion.z[a] = 30;
    lodSystem(world, 0);
    expect(getLod(world, a).measure).toBeCloseTo(1800 / (60 * Math.tan(Math.PI / 18)), 2);
    expect(getLod(world, a).level).toBe(1);
  });
});

describe('lodSystem: level by relative motion', () => {
  it('measures |v − v_camera| from the root motion of the last update', () => {
    const skeleton = biped(HIP);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
    const walker = spawnCharacter(world, skeleton, { rootMotion: true });
    const still = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, walker, walkClip(skeleton, { distance: 1.4, duration: 1 })); // 1.4 m/s along +Z
    for (const eid of [walker, still]) setLod(world, eid, { levels: 2, speeds: [0.7] });
    step(world, 1 / 60);
    step(world, 1 / 60);
    expect(getLod(world, walker).measure).toBeCloseTo(1.4, 4);
    expect(getLod(world, walker).level).toBe(1);
    expect(getLod(world, still)).toMatchObject({ level: 0, measure: 0 });
    // Relative to a camera tracking the walker it is still; the standing one now moves.
    setLodCamera(world, 0, 0, 0, { velocity: { x: 0, y: 0, z: 1.4 } });
    step(world, 1 / 60);
    expect(getLod(world, walker).measure).toBeLessThan(1e-4);
    expect(getLod(world, walker).level).toBe(0);
    expect(getLod(world, still).measure).toBeCloseTo(1.4, 6);
    expect(getLod(world, still).level).toBe(1);
  });

  it('uses the seconds of the last update, so update-rate LOD does not inflate the speed', () => {
    const skeleton = biped(HIP);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const eid = spawnCharacter(world, skeleton, { rootMotion: true });
    play(world, eid, walkClip(skeleton, { distance: 1.4, duration: 1 }));
    setLod(world, eid, { levels: 2, speeds: [100], updateEvery: [4, 4] });
    for (let f = 0; f < 12; f++) {
      step(world, 1 / 60);
      if (f > 4) expect(getLod(world, eid).measure).toBeCloseTo(1.4, 4);
    }
  });
});

describe('level clips (registerLodLevels)', () => {
  it('samples the clip registered for the character\'s level; time, root motion and events stay the played clip\'s', () => {
    const skeleton = biped(HIP);
    const walk = walkClip(skeleton, { distance: 1.4, duration: 1, surge: 0.03, events: [{ time: 0.5, name: 'step' }] });
    const other = walkClip(skeleton, { distance: 1, duration: 0.8, name: 'other' });
    const levels = [walk, steppedClip(walk, 3), steppedClip(walk, 10)];
    // The JavaScript kernels' bits (the float32 wasm kernel samples within rounding between frames: test/wasm's LOD crowd).
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 2, kernels: 'js' });
    registerLodLevels(world, walk, levels);
    const eids = [0, 1, 2, 3].map(() => spawnCharacter(world, skeleton));
    for (const eid of eids) play(world, eid, walk, { time: 0.1 });
    play(world, eids[3]!, other, { layer: 0, time: 0.1 }); // no levels registered: plays itself
    eids.forEach((eid, n) => world.components.RootMotion.x[eid] = [1, 15, 40, 40][n]!);
    for (const eid of [eids[1]!, eids[2]!, eids[3]!]) setLod(world, eid, { levels: 3, distances: [10, 30] });
    setLodCamera(world, 0, 0, 0);
    step(world, 0.25); // t ≈ 0.35 (frame 10.5): between kept frames of both coarse levels
    const t = (): number => world.components.Layers.time[eids[0]! * 4]!;
    const expected = (clip: typeof walk, at: number): number[] => {
      const out = new Float32Array(20);
      sampleClipInto(out, 0, clip, Float64Array.of(at), 0);
      return Array.from(out);
    };
    expect(Array.from(getLocalPose(world, eids[0]!))).toEqual(expected(walk, t())); // no LOD
    expect(getLod(world, eids[1]!).level).toBe(1);
    expect(Array.from(getLocalPose(world, eids[1]!))).toEqual(expected(levels[1]!, t()));
    expect(Array.from(getLocalPose(world, eids[2]!))).toEqual(expected(levels[2]!, t()));
    expect(Array.from(getLocalPose(world, eids[3]!))).toEqual(expected(other, t()));
    expect(expected(levels[1]!, t())).not.toEqual(expected(walk, t()));
    expect(expected(levels[2]!, t())).not.toEqual(expected(levels[1]!, t()));
    // Deeper levels than registered use the coarsest; re-registering replaces.
    registerLodLevels(world, walk, [walk, levels[1]!]);
    step(world, 0.1);
    expect(Array.from(getLocalPose(world, eids[2]!))).toEqual(expected(levels[1]!, t()));
    const id = world.assets.clipIds.get(walk)!;
    expect(Array.from(world.lod.clipLevels.subarray(id * LOD_MAX_LEVELS, (id + 1) * LOD_MAX_LEVELS)))
      .toEqual([id, ...Array.from({ length: LOD_MAX_LEVELS - 1 }, () => world.assets.clipIds.get(levels[1]!)!)]);
    // Every layer advanced identically, whatever its level.
    const times = eids.slice(0, 3).map((eid) => world.components.Layers.time[eid * 4]);
    expect(new Set(times).size).toBe(1);
  });

  it('refuses levels of another skeleton or duration, and changes nothing', () => {
    const skeleton = biped(HIP);
    const walk = walkClip(skeleton, { distance: 1.4, duration: 1 });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const before = snapshot(world);
    const shorter = walkClip(skeleton, { distance: 1.4, duration: 0.9 });
    const foreign = walkClip(biped(1), { distance: 1, duration: 1 });
    const renamed = { ...foreign, skeleton: { ...foreign.skeleton, names: ['pelvis', 'leg'] } } as typeof foreign;
    const error = (() => { try { registerLodLevels(world, walk, [walk, shorter, renamed]); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).issues.map((i) => i.path)).toEqual(['levels[1].duration', 'levels[2].skeleton']);
    expect(() => registerLodLevels(world, walk, [])).toThrow(/levels/);
    expect(() => registerLodLevels(world, walk, Array.from({ length: 9 }, () => walk))).toThrow(/levels/);
    expect(() => registerLodLevels(world, {} as typeof walk, [walk])).toThrow(/clip/);
    expect(snapshot(world)).toEqual(before);
    registerLodLevels(world, walk, [walk, foreign]); // same joint names and order: accepted
  });
});

describe('setLod, removeLod, setLodCamera: the API', () => {
  it('refuses bad options with an AnimationError naming each, and changes nothing', () => {
    const { world, eids } = lodWorld(1);
    const eid = eids[0]!;
    setLod(world, eid, { levels: 2, distances: [5], updateEvery: [1, 2] });
    const before = snapshot(world);
    const paths = (options: object): string[] => {
      try {
        setLod(world, eid, options as never);
      } catch (e) {
        expect(e).toBeInstanceOf(AnimationError);
        return (e as AnimationError).issues.map((i) => i.path);
      }
      return [];
    };
    expect(paths({ levels: 0 })).toEqual(['levels']);
    expect(paths({ levels: 9 })).toEqual(['levels']);
    expect(paths({ levels: 3, distances: [10] })).toEqual(['distances']);
    expect(paths({ levels: 3 })).toEqual(['distances']);
    expect(paths({ levels: 3, distances: [20, 10] })).toEqual(['distances[1]']);
    expect(paths({ levels: 3, distances: [0, Number.NaN] })).toEqual(['distances[0]', 'distances[1]']);
    expect(paths({ levels: 3, screenSizes: [100, 300] })).toEqual(['screenSizes[1]']);
    expect(paths({ levels: 2, speeds: [1], distances: [1] })).toEqual(['speeds']);
    expect(paths({ levels: 2, mode: 'motion', distances: [1] })).toEqual(['distances', 'speeds']);
    expect(paths({ levels: 2, mode: 'speed', distances: [1] })).toEqual(['mode']);
    expect(paths({ levels: 2, distances: [1], hysteresis: 1 })).toEqual(['hysteresis']);
    expect(paths({ levels: 2, distances: [1], updateEvery: [1] })).toEqual(['updateEvery']);
    expect(paths({ levels: 2, distances: [1], updateEvery: [0, 17] })).toEqual(['updateEvery[0]', 'updateEvery[1]']);
    expect(paths({ levels: 2, distances: [1], updateEvery: [1, 2.5] })).toEqual(['updateEvery[1]']);
    expect(paths({ levels: 2, distances: [1], height: -1, phase: -1 })).toEqual(['height', 'phase']);
    expect(() => setLod(world, 99, { levels: 1 })).toThrow(AnimationError);
    expect(() => setLod(world, eid, null as never)).toThrow(/options/);
    expect(() => setLodCamera(world, Number.NaN, 0, 0)).toThrow(/x/);
    expect(() => setLodCamera(world, 0, 0, 0, { fov: Math.PI })).toThrow(/fov/);
    expect(() => setLodCamera(world, 0, 0, 0, { viewportHeight: 0 })).toThrow(/viewportHeight/);
    expect(() => setLodCamera(world, 0, 0, 0, { velocity: { x: 0, y: Infinity, z: 0 } })).toThrow(/velocity\.y/);
    expect(snapshot(world)).toEqual(before);
    expect(() => getLod(world, eid)).not.toThrow();
    const { world: other, eids: [plain] } = lodWorld(1);
    expect(() => getLod(other, plain!)).toThrow(/no LOD/);
  });

  it('setLodCamera keeps the options not given', () => {
    const { world, eids } = lodWorld(1);
    setLod(world, eids[0]!, { levels: 2, screenSizes: [100], height: 2 });
    world.components.RootMotion.z[eids[0]!] = 10;
    setLodCamera(world, 0, 0, 0, { fov: Math.PI / 2, viewportHeight: 500 });
    setLodCamera(world, 0, 0, 5);
    lodSystem(world, 0);
    expect(getLod(world, eids[0]!).measure).toBeCloseTo((2 / (5 * 2)) * 500, 4);
  });

  it('removeLod applies the pending seconds on the next frame, then the character is without LOD', () => {
    const { world, eids } = lodWorld(2);
    const skeleton = biped(HIP);
    const walk = walkClip(skeleton, { distance: 1, duration: 1 });
    for (const eid of eids) play(world, eid, walk);
    setLod(world, eids[0]!, { levels: 1, updateEvery: [4], phase: 1 }); // updates on frames 3, 7, …
    for (let f = 0; f < 4; f++) step(world, 0.01); // frame 3 updated; 4 is pending
    expect(getLod(world, eids[0]!)).toMatchObject({ updated: false, pending: 0.01 });
    removeLod(world, eids[0]!);
    expect(getLod(world, eids[0]!).updated).toBe(false); // still has LOD until the next frame
    step(world, 0.01); // applies frames 4 and 5
    const { time } = world.components.Layers;
    expect(time[eids[0]! * 4]).toBeCloseTo(time[eids[1]! * 4]!, 12);
    expect(() => getLod(world, eids[0]!)).toThrow(/no LOD/);
    step(world, 0.01);
    expect(world.components.Lod.enabled[eids[0]!]).toBe(LOD_OFF);
    expect(snapshotRow(world, eids[0]!)).toEqual(snapshotRow(world, eids[1]!));
    removeLod(world, eids[1]!); // no LOD: nothing happens
  });

  it('a removed character\'s LOD does not pass to the next character spawned with its entity id', () => {
    const { world, eids } = lodWorld(2);
    setLod(world, eids[1]!, { levels: 2, distances: [1], updateEvery: [2, 4] });
    setLodCamera(world, 50, 0, 0);
    for (let f = 0; f < 3; f++) step(world, 1 / 60);
    removeCharacter(world, eids[1]!);
    const eid = spawnCharacter(world, biped(HIP));
    expect(eid).toBe(eids[1]);
    expect(snapshotRow(world, eid)).toEqual(snapshotRow(world, eids[0]!));
  });
});

/** One character's row of every per-entity Lod array. */
function snapshotRow(world: AnimationWorld, eid: number): number[][] {
  const lod = world.components.Lod;
  const rows = lod.enabled.length;
  return Object.values(lod).map((a: Float64Array) => {
    const stride = a.length / rows;
    return Array.from(a.subarray(eid * stride, (eid + 1) * stride));
  });
}
