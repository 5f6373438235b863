/**
 * Foot locking on the WebAssembly kernels (assembly/footLock.ts, src/wasm/footLockWasm.ts)
 * against the JavaScript system (src/systems/footLockSystem.ts, the reference):
 * - on the same inputs (the pools copied from one world into the other before each footLockSystem
 *   pass), the kernel writes what the JavaScript system writes, to rounding: the two compute the
 *   same statements in doubles, and differ only where the yaw's cos and sin do in a last bit;
 * - whole worlds (every system on its own kernels) stay within a bound relative to the pools'
 *   magnitude over hundreds of frames, with the same legs locked: the CMU walk (root motion,
 *   yaw, teleports), the CMU walk retargeted onto RobotExpressive (its detached IK feet), the Fox
 *   on four legs;
 * - the kernel's constants are footLockSystem's.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindSkeletons, createAnimationWorld, createClip, createSkeleton, detectFootContacts, loadGltf, parseBvh, play, setFootLock, setRootTransform, spawnCharacter, step,
  type AnimationWorld, type Binding, type Clip, type Skeleton,
} from '../../src/index.js';
import { createFrame, defaultFrame, insertSystem, type FrameSystem } from '../../src/frame.js';
import * as footLock from '../../src/systems/footLockSystem.js';
import { footLockEntriesWasm } from '../../src/wasm/footLockWasm.js';
import { readAsset, readAssetText } from '../support/assets.js';
import { inPlace, runWalk } from '../footLock/helpers.js';

const SCALE = 0.056444;
const DT = 1 / 60;
const cmu = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: SCALE, name: 'walk' });
const cmuWalk = detectFootContacts(cmu.clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip;
const cmuInPlace = inPlace(cmuWalk).clip;

/** The largest |element| of a pool (at least 1). */
function magnitude(a: ArrayLike<number>): number {
  let m = 1;
  for (let i = 0; i < a.length; i++) if (Number.isFinite(a[i]!)) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

/** The largest |a − b| over two pools, Infinity where one is finite and the other not. */
function largestDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!, y = b[i]!;
    if (Number.isNaN(x) && Number.isNaN(y)) continue;
    d = Math.max(d, x === y ? 0 : Math.abs(x - y));
  }
  return d;
}

/** A crowd on one kernel path: `spawn` places and plays character n, `move(world, f)` steers before frame f. */
interface Scenario {
  readonly skeleton: Skeleton;
  readonly count: number;
  spawn(world: AnimationWorld, n: number): void;
  move?(world: AnimationWorld, f: number): void;
}

function build(scenario: Scenario, kernels: 'js' | 'wasm', frame = defaultFrame): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: scenario.count, maxJoints: scenario.skeleton.jointCount, kernels, frame });
  for (let n = 0; n < scenario.count; n++) scenario.spawn(world, n);
  return world;
}

/** The CMU walk with root motion, staggered, some characters turning, a few teleported at frame 120. */
const cmuCrowd: Scenario = {
  skeleton: cmu.skeleton,
  count: 60,
  spawn(world, n) {
    const eid = spawnCharacter(world, cmu.skeleton, { x: (n % 10) * 3, z: Math.floor(n / 10) * 3, rootMotion: n % 4 !== 3 });
    play(world, eid, n % 4 === 3 ? cmuInPlace : cmuWalk, { loop: true, time: ((n * 7919) % 1000) / 1000 * cmuWalk.duration });
    setFootLock(world, eid, n % 5 === 2 ? { weight: 0.6, easeIn: 0.1 } : {});
  },
  move(world, f) {
    for (let n = 0; n < 60; n++) {
      const eid = n + 1;
      if (n % 4 === 3) setRootTransform(world, eid, { z: Math.floor(n / 10) * 3 + 1.4 * f * DT, yaw: n % 3 === 0 ? 0.004 * f : 0 });
      if (f === 120 && n % 7 === 0) setRootTransform(world, eid, { x: 40 + n, yaw: 2 });
    }
  },
};

describe('the kernel on the JavaScript system\'s inputs', () => {
  it('writes its LocalPose rows and leg state, to rounding (CMU walk crowd, 300 frames)', () => {
    // Both worlds run the frame without footLock; before each footLock pass the wasm world's
    // pools are copied into the JavaScript world, so the two passes see the same inputs.
    // (footLock's entry kept, doing nothing, for its scratch.)
    const frame = createFrame(defaultFrame.systems.map((s) => (s.name === 'footLock' ? { ...s, entities: () => undefined } : s)));
    const wasm = build(cmuCrowd, 'wasm', frame), js = build(cmuCrowd, 'js', frame);
    expect(wasm.kernels).toBe('wasm');
    const fields = ['LocalPose', 'RootMotion', 'FootLock', 'Layers'] as const;
    let pose = 0, offsets = 0, lockedDiffer = 0, lockedLegs = 0, moved = 0, unturned = 0, unturnedDiffer = 0;
    for (let f = 0; f < 300; f++) {
      cmuCrowd.move!(wasm, f);
      step(wasm, f === 0 ? 0 : DT);
      for (const name of fields) {
        const from = wasm.components[name] as unknown as Record<string, unknown>, to = js.components[name] as unknown as Record<string, unknown>;
        for (const key of Object.keys(from)) {
          const a = from[key], b = to[key];
          if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) (b as unknown as Float32Array).set(a as unknown as Float32Array);
        }
      }
      const before = Float32Array.from(wasm.components.LocalPose.data);
      footLock.footLockSystem(wasm, DT);
      footLock.footLockSystem(js, DT);
      const a = wasm.components, b = js.components;
      pose = Math.max(pose, largestDifference(a.LocalPose.data, b.LocalPose.data));
      // A character facing +Z (yaw 0: cos and sin are exact on both) gets the JavaScript system's bits.
      const size = wasm.maxJoints * 10;
      for (let eid = 1; eid <= cmuCrowd.count; eid++) {
        if (a.RootMotion.yaw[eid] !== 0) continue;
        unturned++;
        if (largestDifference(a.LocalPose.data.subarray(eid * size, (eid + 1) * size), b.LocalPose.data.subarray(eid * size, (eid + 1) * size)) !== 0) unturnedDiffer++;
      }
      offsets = Math.max(offsets, largestDifference(a.FootLock.offset, b.FootLock.offset), largestDifference(a.FootLock.lock, b.FootLock.lock));
      for (let i = 0; i < a.FootLock.locked.length; i++) if (a.FootLock.locked[i] !== b.FootLock.locked[i]) lockedDiffer++;
      lockedLegs += a.FootLock.locked.reduce((s, v) => s + v, 0);
      if (largestDifference(before, a.LocalPose.data) > 1e-3) moved++;
    }
    console.log(`kernel vs JavaScript on the same inputs: LocalPose ≤ ${pose.toExponential(2)}, lock/offset ≤ ${offsets.toExponential(2)}; ${lockedLegs} leg-frames locked; ${unturnedDiffer} of ${unturned} character-frames at yaw 0 differ`);
    expect(moved).toBeGreaterThan(250); // the locks corrected poses on (nearly) every frame
    expect(lockedLegs).toBeGreaterThan(300 * 40);
    expect(lockedDiffer).toBe(0);
    expect(unturned).toBeGreaterThan(300 * 20);
    expect(unturnedDiffer).toBe(0);
    // The same doubles but for the yaw's cos and sin (a last bit): a float32 rounding step at most.
    expect(pose).toBeLessThanOrEqual(1e-6 * magnitude(js.components.LocalPose.data));
    expect(offsets).toBeLessThanOrEqual(1e-6 * magnitude(js.components.FootLock.lock));
  });
});

/**
 * A system before footLock that moves every local pose value of the characters it updates by
 * about a float32 rounding (relative 3e-8 · (−2 … 2), a fixed pattern): what the WebAssembly
 * blend's float32 rounding does to footLock's input. The JavaScript world it runs in shows how far
 * foot locking itself carries such a difference (a nearly straight knee's hinge axis is the
 * direction of a nearly vanishing cross product, so it turns by far more than its input).
 */
const roundingJitter: FrameSystem = {
  name: 'roundingJitter',
  reads: ['LocalPose'],
  writes: ['LocalPose'],
  entities(world, dt, first, end) {
    const pose = world.components.LocalPose.data;
    const size = world.maxJoints * 10;
    for (let i = first; i < end; i++) {
      const base = world.characters.dense[i]! * size;
      for (let k = 0; k < size; k++) pose[base + k] = pose[base + k]! * (1 + (((k * 7 + i) % 5) - 2) * 3e-8);
    }
  },
};

/** |a − b| for pose element i of a pose pool, quaternions compared up to sign. */
function poseDifference(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let o = 0; o < a.length; o += 10) {
    const dot = a[o + 3]! * b[o + 3]! + a[o + 4]! * b[o + 4]! + a[o + 5]! * b[o + 5]! + a[o + 6]! * b[o + 6]!;
    for (let c = 0; c < 10; c++) {
      const x = a[o + c]!, y = c >= 3 && c < 7 && dot < 0 ? -b[o + c]! : b[o + c]!;
      if (x !== y) d = Math.max(d, Math.abs(x - y));
    }
  }
  return d;
}

/** Largest differences of one world from another, LocalPose and ModelPose relative to the reference pools' magnitude. */
interface Differences { pose: number; model: number; offset: number; lockedDiffer: number }

/**
 * Steps `scenario` on the JavaScript kernels, on the WebAssembly kernels, and on the JavaScript
 * kernels with {@link roundingJitter} for `frames` frames; returns the largest differences of the
 * wasm world and of the jittered world from the JavaScript one (LocalPose with quaternions up to
 * sign, ModelPose, FootLock offsets in metres, legs whose locked flag differs, summed over the
 * frames) and the leg-frames locked.
 */
function compareWorlds(scenario: Scenario, frames: number): { wasm: Differences; jitter: Differences; lockedLegs: number } {
  const js = build(scenario, 'js'), wasm = build(scenario, 'wasm');
  const jittered = build(scenario, 'js', insertSystem(defaultFrame, roundingJitter, { before: 'footLock' }));
  expect(wasm.kernels).toBe('wasm');
  const d = { wasm: { pose: 0, model: 0, offset: 0, lockedDiffer: 0 }, jitter: { pose: 0, model: 0, offset: 0, lockedDiffer: 0 } };
  let lockedLegs = 0;
  for (let f = 0; f < frames; f++) {
    for (const world of [js, wasm, jittered]) {
      scenario.move?.(world, f);
      step(world, f === 0 ? 0 : DT);
    }
    const b = js.components;
    for (const [key, world] of [['wasm', wasm], ['jitter', jittered]] as const) {
      const a = world.components, r = d[key];
      r.pose = Math.max(r.pose, poseDifference(a.LocalPose.data, b.LocalPose.data) / magnitude(b.LocalPose.data));
      r.model = Math.max(r.model, largestDifference(a.ModelPose.data, b.ModelPose.data) / magnitude(b.ModelPose.data));
      r.offset = Math.max(r.offset, largestDifference(a.FootLock.offset, b.FootLock.offset));
      for (let i = 0; i < a.FootLock.locked.length; i++) if (a.FootLock.locked[i] !== b.FootLock.locked[i]) r.lockedDiffer++;
    }
    lockedLegs += b.FootLock.locked.reduce((s, v) => s + v, 0);
  }
  return { ...d, lockedLegs };
}

/**
 * Whole-world bounds: within {@link FLOOR} of the pools' magnitude (LocalPose, ModelPose) or, where
 * foot locking itself carries a float32 rounding of its input farther (a nearly straight knee),
 * within {@link CARRIED} × what it carries in the jittered JavaScript world; offsets likewise.
 */
const FLOOR = 1e-5, OFFSET_FLOOR = 1e-5, CARRIED = 4;

function expectWithin(r: ReturnType<typeof compareWorlds>, label: string): void {
  console.log(`${label}, wasm vs js: LocalPose ${r.wasm.pose.toExponential(2)}, ModelPose ${r.wasm.model.toExponential(2)} (× the pools' magnitude), offsets ${r.wasm.offset.toExponential(2)} m, ${r.wasm.lockedDiffer} locked flags differ; js with float32-rounding jitter vs js: ${r.jitter.pose.toExponential(2)}, ${r.jitter.model.toExponential(2)}, ${r.jitter.offset.toExponential(2)} m, ${r.jitter.lockedDiffer}; ${r.lockedLegs} leg-frames locked`);
  expect(r.wasm.lockedDiffer).toBe(0);
  expect(r.wasm.pose).toBeLessThanOrEqual(Math.max(FLOOR, CARRIED * r.jitter.pose));
  expect(r.wasm.model).toBeLessThanOrEqual(Math.max(FLOOR, CARRIED * r.jitter.model));
  expect(r.wasm.offset).toBeLessThanOrEqual(Math.max(OFFSET_FLOOR, CARRIED * r.jitter.offset));
}

describe('a wasm world equals a JavaScript world within bounds', () => {
  it('the CMU walk crowd: root motion, turns, teleports, half-weight and eased-in locks (300 frames)', () => {
    const r = compareWorlds(cmuCrowd, 300);
    expect(r.lockedLegs).toBeGreaterThan(300 * 40);
    expectWithin(r, 'CMU crowd');
  });

  describe('RobotExpressive playing the CMU walk (detached IK feet) and the Fox on four legs', () => {
    let robot: Skeleton, binding: Binding, fox: Skeleton, foxWalk: Clip;
    beforeAll(async () => {
      robot = (await loadGltf(readAsset('RobotExpressive.glb'))).skeletons[0]!;
      binding = bindSkeletons(cmu.skeleton, robot);
      const loaded = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
      fox = loaded.skeletons[0]!;
      const FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
      foxWalk = detectFootContacts(loaded.clips.find((c) => c.name === 'Walk')!, { feet: FEET }).clip;
    });

    it('RobotExpressive: the detached feet move, within bounds, same locks (300 frames)', () => {
      const robots: Scenario = {
        skeleton: robot,
        count: 24,
        spawn(world, n) {
          const eid = spawnCharacter(world, robot, { x: (n % 6) * 4, z: Math.floor(n / 6) * 4 });
          play(world, eid, cmuInPlace, { loop: true, binding, time: (n / 24) * cmuInPlace.duration });
          setFootLock(world, eid); // its humanoid map's legs; the baked clip's markers name its feet
        },
        move(world, f) {
          for (let n = 0; n < 24; n++) setRootTransform(world, n + 1, { z: Math.floor(n / 6) * 4 + 1.6 * f * DT, yaw: n % 2 === 0 ? 0.003 * f : 0 });
        },
      };
      const world = build(robots, 'wasm');
      expect(Array.from(world.components.FootLock.detached.subarray(4, 6))).toEqual([1, 1]); // character 1's legs
      const r = compareWorlds(robots, 300);
      expect(r.lockedLegs).toBeGreaterThan(300 * 10);
      expectWithin(r, 'RobotExpressive');
    });

    it('the Fox: four legs, within bounds, same locks (300 frames)', () => {
      const CHAINS: [string, string, string][] = [
        ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot02_018'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot02_022'],
        ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'], ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
      ];
      const foxes: Scenario = {
        skeleton: fox,
        count: 24,
        spawn(world, n) {
          const eid = spawnCharacter(world, fox, { x: (n % 6) * 3, z: Math.floor(n / 6) * 3 });
          play(world, eid, foxWalk, { loop: true, time: (n / 24) * foxWalk.duration });
          setFootLock(world, eid, { legs: CHAINS.map(([upper, lower, foot]) => ({ upper, lower, foot })) });
        },
        move(world, f) {
          for (let n = 0; n < 24; n++) setRootTransform(world, n + 1, { z: Math.floor(n / 6) * 3 + 1.1 * f * DT, yaw: n % 3 === 0 ? -0.002 * f : 0 });
        },
      };
      const r = compareWorlds(foxes, 300);
      expect(r.lockedLegs).toBeGreaterThan(300 * 24);
      expectWithin(r, 'Fox');
    });
  });
});

describe('what the kernel takes and what it leaves to JavaScript', () => {
  it('takes every character whose skeleton, clips\' contact tables and masks have copies; leaves one whose clip\'s table has none, untouched, to the JavaScript path', () => {
    const wasm = build(cmuCrowd, 'wasm');
    for (let f = 0; f < 30; f++) step(wasm, f === 0 ? 0 : DT);
    const kernels = wasm.wasm!;
    const clipId = wasm.assets.clips.indexOf(cmuWalk);
    expect(kernels.area.contactTable[clipId]).not.toBe(0); // the walk's contact table has a copy
    expect(kernels.area.contactTable[wasm.assets.clips.indexOf(cmuInPlace)]).not.toBe(0);
    const count = wasm.characters.dense.length;
    expect(footLockEntriesWasm(wasm, kernels, 0, count)).toBe(count); // all done on the kernel
    // Without the walk's copy, the first character playing it comes back, its leg state untouched.
    kernels.area.contactTable[clipId] = 0;
    const state = Array.from(wasm.components.FootLock.offset);
    const first = footLockEntriesWasm(wasm, kernels, 0, count);
    expect(wasm.components.Layers.clip[wasm.characters.dense[first]! * wasm.components.Layers.maxLayers]).toBe(clipId);
    expect(first).toBe(0);
    expect(Array.from(wasm.components.FootLock.offset)).toEqual(state);
    // footLockSystem then runs those characters on JavaScript: a JavaScript world on the same inputs gives the same bits.
    const js = build(cmuCrowd, 'js');
    for (const name of ['LocalPose', 'RootMotion', 'FootLock', 'Layers'] as const) {
      const from = wasm.components[name] as unknown as Record<string, unknown>, to = js.components[name] as unknown as Record<string, unknown>;
      for (const key of Object.keys(from)) if (ArrayBuffer.isView(from[key])) (to[key] as Float32Array).set(from[key] as Float32Array);
    }
    footLock.footLockSystem(wasm, DT);
    footLock.footLockSystem(js, DT);
    const walkers = Array.from({ length: count }, (_, n) => n).filter((n) => n % 4 !== 3);
    for (const n of walkers) {
      const eid = n + 1, size = wasm.maxJoints * 10;
      expect(Array.from(wasm.components.LocalPose.data.subarray(eid * size, (eid + 1) * size)), `character ${eid}`).toEqual(Array.from(js.components.LocalPose.data.subarray(eid * size, (eid + 1) * size)));
    }
  });
});

describe('solveLegIk\'s special cases (solveTwoBoneIk in JavaScript, then footLockTurn)', () => {
  it('a straight leg and a leg of zero-length bones: the same poses and leg state as the JavaScript world', () => {
    const id = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1];
    const at = (y: number) => [0, y, 0, 0, 0, 0, 1, 1, 1, 1];
    for (const [name, rest] of [['zero-length', [...at(1), ...id, ...id, ...id]], ['straight', [...at(1), ...at(-0.5), ...at(-0.5), ...at(0)]]] as const) {
      const skeleton = createSkeleton({ names: ['hips', 'thigh', 'shin', 'foot'], parents: [-1, 0, 1, 2], rest: [...rest] });
      const frames = Array.from({ length: 10 }, () => [...rest]).flat();
      const clip = createClip({ skeleton, frameRate: 10, frames, loop: false, events: [{ time: 0, name: 'footDown:foot' }, { time: 0.9, name: 'footUp:foot' }] });
      const worlds = (['js', 'wasm'] as const).map((kernels) => {
        const world = createAnimationWorld({ maxEntities: 1, maxJoints: 4, kernels });
        const eid = spawnCharacter(world, skeleton);
        play(world, eid, clip, { loop: false });
        setFootLock(world, eid, { legs: [{ upper: 'thigh', lower: 'shin', foot: 'foot' }] });
        return world;
      });
      let moved = false;
      for (let f = 0; f < 10; f++) {
        for (const world of worlds) {
          setRootTransform(world, 1, { z: 0.05 * f });
          step(world, f === 0 ? 0 : 0.1);
        }
        const [js, wasm] = worlds.map((w) => w.components);
        // Both sample the clip at its keys (the JavaScript path's bits), so footLock sees the same input.
        expect(largestDifference(wasm!.LocalPose.data, js!.LocalPose.data), `${name} frame ${f}`).toBeLessThanOrEqual(1e-6);
        expect(Array.from(wasm!.FootLock.locked), `${name} frame ${f}`).toEqual(Array.from(js!.FootLock.locked));
        expect(largestDifference(wasm!.FootLock.offset, js!.FootLock.offset), `${name} frame ${f}`).toBeLessThanOrEqual(1e-7);
        if (largestDifference(js!.LocalPose.data.subarray(10, 40), Float32Array.from(rest.slice(10)).map(Math.fround)) > 1e-3) moved = true;
      }
      if (name === 'straight') expect(moved, 'the lock turned the straight leg (through solveTwoBoneIk)').toBe(true);
    }
  });
});

describe('skate on the WebAssembly kernels', () => {
  // test/footLock/capture.test.ts's scenario: the CMU walk in place, moved at 1.2× its travel.
  it('the CMU walk: skate per contact ≤ 0.5 % of the hip height, ≥ 80 % below the run without locking; knees within 30°; finite', () => {
    const contacts = detectFootContacts(cmu.clip, { feet: ['LeftAnkle', 'RightAnkle'] });
    const still = inPlace(contacts.clip);
    const joint = (n: string) => cmu.skeleton.names.indexOf(n);
    const legs = [['LeftHip', 'LeftKnee', 'LeftAnkle'], ['RightHip', 'RightKnee', 'RightAnkle']].map(([u, l, f], k) => ({
      upper: joint(u!), lower: joint(l!), foot: joint(f!), intervals: contacts.contacts[k]!.intervals,
    }));
    const run = (lock: boolean) => runWalk({
      skeleton: cmu.skeleton, clip: still.clip, frames: still.clip.frameCount, legs, lock: lock ? {} : null, kernels: 'wasm',
      at: (f) => [1.2 * still.travel[f * 2]!, 1.2 * still.travel[f * 2 + 1]!],
    });
    const locked = run(true), free = run(false);
    const hips = 0.88;
    console.log(`CMU walk 1.2× on wasm: skate mean ${(locked.skate.mean * 1000).toFixed(2)} mm, max ${(locked.skate.max * 1000).toFixed(2)} mm over ${locked.skate.contacts} contacts; without locking ${(free.skate.mean * 1000).toFixed(1)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°`);
    expect(locked.finite).toBe(true);
    expect(locked.skate.contacts).toBeGreaterThanOrEqual(8);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.005 * hips);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.2 * free.skate.mean);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});

describe('the kernel\'s constants', () => {
  it('are footLockSystem\'s', () => {
    const source = readFileSync(new URL('../../assembly/footLock.ts', import.meta.url), 'utf8');
    const constant = (name: string): number => Number(new RegExp(`const ${name}: f64 = ([0-9.e-]+);`).exec(source)?.[1]);
    expect(constant('FOOT_UNLOCK_RADIUS')).toBe(footLock.FOOT_UNLOCK_RADIUS);
    expect(constant('FOOT_REPLANT_RADIUS')).toBe(footLock.FOOT_REPLANT_RADIUS);
    expect(constant('FOOT_MAX_EXTENSION')).toBe(footLock.FOOT_MAX_EXTENSION);
    expect(constant('FOOT_MAX_LIFT')).toBe(footLock.FOOT_MAX_LIFT);
  });
});
