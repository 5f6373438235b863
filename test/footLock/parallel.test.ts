/**
 * Foot locking on every core: stepParallel at 2 and 3 threads gives step's pools bit for bit
 * (every component, FootLock's state included; some characters' feet on the ground), with clips registered after the workers
 * started, on the JavaScript and the WebAssembly kernels; and footLockSystem allocates nothing per
 * frame on either.
 */
import { describe, expect, it } from 'vitest';
import {
  clearFootLock, createAnimationWorld, detectFootContacts, disposeAnimationWorld, parseBvh, play, setFootLock, setRootTransform, spawnCharacter, step,
  stepParallel, type AnimationWorld, type Clip,
} from '../../src/index.js';
import { footLockSystem } from '../../src/systems/footLockSystem.js';
import { refused } from '../fixtures/errors.js';
import { smallestAllocation } from '../support/allocation.js';
import { readAssetText } from '../support/assets.js';
import { legClip, legRig } from './rig.js';
import { inPlace } from './helpers.js';
import { hashComponents } from '../support/poolHash.js';

const DT = 1 / 60;
const rig = legRig();
const cmu = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' });
const cmuWalk = inPlace(detectFootContacts(cmu.clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip).clip;
const LEGS = { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }, { upper: 'thighR', lower: 'shinR', foot: 'footR' }] };

function hash(world: AnimationWorld): string {
  const h = hashComponents(world);
  return h.update(String(world.time)).digest('hex');
}

/** A crowd of `count` characters: rig walkers (locked, half-weight, eased in, not locked) and CMU walkers (default legs). */
function crowd(threads: number, count: number, kernels: 'js' | 'wasm' = 'js'): { world: AnimationWorld; move: (f: number) => void; late: () => void } {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: cmu.skeleton.jointCount, threads, kernels });
  const rigClip = legClip(rig);
  const speeds: number[] = [];
  for (let n = 0; n < count; n++) {
    const human = n % 5 === 4;
    const eid = spawnCharacter(world, human ? cmu.skeleton : rig, { x: (n % 20) * 3, z: Math.floor(n / 20) * 3 });
    play(world, eid, human ? cmuWalk : rigClip, { time: (n % 7) * 0.05, loop: true });
    // Some feet on the ground (footLockSystem's JavaScript path on either kernels, the pelvis lowered).
    if (human) setFootLock(world, eid, n % 10 === 9 ? { ground: 0.08 } : {});
    else if (n % 5 !== 3) setFootLock(world, eid, { ...LEGS, weight: n % 5 === 1 ? 0.5 : 1, easeIn: n % 5 === 2 ? 0.1 : 0, ground: n % 5 === 0 && n % 2 === 0 });
    speeds.push(0.3 + (n % 9) * 0.1);
  }
  const move = (f: number): void => {
    for (let n = 0; n < count; n++) {
      const eid = n + 1;
      setRootTransform(world, eid, { z: Math.floor(n / 20) * 3 + speeds[n]! * f * DT, yaw: f > 60 && n % 3 === 0 ? 0.01 * f : 0 });
      // A teleport now and then: the locks let go.
      if (f === 90 && n % 11 === 0) setRootTransform(world, eid, { x: 500 + n });
    }
  };
  // A clip first played after the workers started (its contact table travels with it).
  const late = (): void => {
    const other: Clip = legClip(rig, 0.35);
    for (let n = 0; n < count; n += 7) if (n % 5 !== 4) play(world, n + 1, other, { loop: true, layer: 1, weight: 0.7 });
  };
  return { world, move, late };
}

describe('stepParallel equals step with foot locks', () => {
  for (const [threads, kernels] of [[2, 'js'], [3, 'js'], [2, 'wasm'], [3, 'wasm']] as const) {
    it(`${threads} threads, ${kernels} kernels, 300 characters, 150 frames, hashed every 30`, async () => {
      const serial = crowd(1, 300, kernels), parallel = crowd(threads, 300, kernels);
      expect([serial.world.kernels, parallel.world.kernels]).toEqual([kernels, kernels]);
      try {
        for (let f = 0; f < 150; f++) {
          if (f === 40) { serial.late(); parallel.late(); }
          serial.move(f);
          parallel.move(f);
          step(serial.world, DT);
          await stepParallel(parallel.world, DT);
          if (f % 30 === 29) expect(hash(parallel.world), `frame ${f}`).toBe(hash(serial.world));
        }
        // The locks did something: some feet locked, some let go.
        const locked = Array.from(serial.world.components.FootLock.locked).filter((v) => v === 1).length;
        expect(locked).toBeGreaterThan(50);
        // Some pelvises were lowered (feet on the ground).
        expect(Array.from(serial.world.components.FootLock.drop).filter((v) => v > 0).length).toBeGreaterThan(0);
      } finally {
        disposeAnimationWorld(parallel.world);
      }
    });
  }
});

describe('while a parallel frame runs', () => {
  it('setFootLock and clearFootLock are refused ("a parallel step is running") and change nothing', async () => {
    const { world } = crowd(2, 300); // more than one chunk, so the frame goes to the workers
    try {
      const before = Object.values(world.components.FootLock).map((a) => Array.from(a as ArrayLike<number>));
      const frame = stepParallel(world, DT); // the first frame waits for the workers: in flight when it returns
      expect(refused(() => setFootLock(world, 1, LEGS)).message).toMatch(/setFootLock.*a parallel step is running/);
      expect(refused(() => clearFootLock(world, 1)).message).toMatch(/clearFootLock.*a parallel step is running/);
      expect(Object.values(world.components.FootLock).map((a) => Array.from(a as ArrayLike<number>))).toEqual(before);
      await frame;
      clearFootLock(world, 1);
    } finally {
      disposeAnimationWorld(world);
    }
  });
});

describe('footLockSystem allocates nothing', () => {
  it.each(['js', 'wasm'] as const)('1,000 locked characters (2 legs each), moved every frame, some out of reach (%s kernels)', (kernels) => {
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: rig.jointCount, kernels });
    expect(world.kernels).toBe(kernels);
    const clip = legClip(rig);
    for (let n = 0; n < 1000; n++) {
      const eid = spawnCharacter(world, rig, { x: n });
      play(world, eid, clip, { time: (n % 30) / 30, loop: true });
      setFootLock(world, eid, { ...LEGS, easeIn: n % 2 === 0 ? 0.1 : 0 });
    }
    step(world, DT);
    let f = 0;
    const bytes = smallestAllocation(() => {
      f++;
      for (let eid = 1; eid <= 1000; eid += 50) world.components.RootMotion.z[eid] = ((f * 0.02) % 3) * (eid % 3); // the pace varies
      footLockSystem(world, DT);
    }, { calls: 300, bound: 64 * 1024, warmUp: 300 });
    console.log(`footLockSystem (${kernels}), 1,000 characters: ${bytes} bytes over 300 calls`);
    // One boxed double per character per call would be 300 × 1,000 × 16 B = 4.8 MB; what remains is the JIT's.
    expect(bytes).toBeLessThan(64 * 1024);
  });
});

