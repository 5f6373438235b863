/**
 * One entity lifecycle (issue 16 item 4): each component declares how its row is reset
 * (`RowLifecycle`, components/lifecycle.ts; the table `COMPONENT_ROWS` in world.ts) and
 * `spawnCharacter` resets every row through it. A character spawned on a reused id holds, in
 * every pool, the same row as one spawned on a never-used id; the arrays a component declares
 * `kept` may hold leftovers, and running both characters the same way shows nothing of them
 * reaches any other pool.
 */
import { removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createClip,
  createMask,
  play,
  removeCharacter,
  setFollower,
  setFollowTarget,
  setLayerWeight,
  setLod,
  setLodCamera,
  setLookAt,
  setReach,
  setTargetSpeed,
  spawnCharacter,
  step,
  transition,
  type AnimationComponents,
  type AnimationWorld,
} from '../src/index.js';
import { FOLLOW_SLOTS, DEFAULT_MAX_LAYERS } from '../src/kernels.js';
import type { Clip } from '../src/assets/Clip.js';
import type { Skeleton } from '../src/assets/Skeleton.js';
import { COMPONENT_ROWS, resetRows } from '../src/worldPools.js';
import { humanoid } from './aim/helpers.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';

type Name = keyof AnimationComponents;
const NAMES = Object.keys(COMPONENT_ROWS) as Name[];
const MAX_ENTITIES = 3;
const ROWS = MAX_ENTITIES + 1;

/** The typed arrays of a component, by field name. */
function arraysOf(world: AnimationWorld, name: Name): [string, ArrayLike<number> & { length: number; subarray(a: number, b: number): ArrayLike<number> }][] {
  const component = world.components[name] as unknown as Record<string, unknown>;
  return Object.entries(component).filter(([, v]) => ArrayBuffer.isView(v)) as never;
}

/** `eid`'s row of every array a component does not keep, by `Component.field`. */
function rows(world: AnimationWorld, eid: number): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const name of NAMES) {
    const kept = COMPONENT_ROWS[name].kept as Record<string, string>;
    for (const [field, array] of arraysOf(world, name)) {
      if (field in kept) continue;
      const per = array.length / ROWS;
      out[`${name}.${field}`] = Array.from(array.subarray(eid * per, (eid + 1) * per));
    }
  }
  return out;
}

/** Gives character `eid` everything a character can have, and runs it for a while. */
function useEverything(world: AnimationWorld, eid: number, skeleton: Skeleton): void {
  const walk = travelling(syntheticClip(skeleton, { seed: 2, name: 'walk' }));
  const run = travelling(syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'run' }));
  const jump = syntheticClip(skeleton, { seed: 4, loop: false, name: 'jump' });
  play(world, eid, walk, { layer: 0, weight: 0.6, syncGroup: 1, phaseOffset: 0.2, rootAxis: 'forward' });
  play(world, eid, run, { layer: 1, weight: 0.4, syncGroup: 1 });
  play(world, eid, jump, { layer: 2, weight: 0.5, additive: true, mask: createMask(skeleton, { chest: 1 }) });
  setTargetSpeed(world, eid, 1.3, { cycle: 'max' });
  for (let slot = 0; slot < FOLLOW_SLOTS; slot++) setFollower(world, eid, { slot, x: slot, y: 1, z: 2, duration: 0.3, interval: 0.1, predict: true, integrator: 'euler' });
  setFollowTarget(world, eid, 3, 1, 4, 1);
  setLookAt(world, eid, { joint: 'head', neck: 'neck', follower: 1, weight: 0.7 });
  setReach(world, eid, { upper: 'upperArm', lower: 'foreArm', end: 'hand', follower: 2, weight: 0.8 });
  setLod(world, eid, { levels: 3, distances: [1, 2], updateEvery: [1, 2, 3], hysteresis: 0.3, phase: 5 });
  setLodCamera(world, 10, 0, 0);
  for (let f = 0; f < 20; f++) {
    if (f === 5) transition(world, eid, jump, { duration: 0.3, mode: 'crossfade', layer: 1 });
    if (f === 9) transition(world, eid, walk, { duration: 0.4, mode: 'spring', layer: 0 });
    if (f === 13) transition(world, eid, run, { duration: 0.2 });
    step(world, 1 / 30);
  }
}

/** `clip` with its root joint also walking forward 2 cm per frame. */
function travelling(clip: Clip): Clip {
  const frames = Float32Array.from(clip.frames);
  const stride = clip.skeleton.jointCount * 10;
  for (let f = 0; f < clip.frameCount; f++) frames[f * stride + 2] = frames[f * stride + 2]! + 0.02 * f;
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, name: clip.name });
}

/** The same plain use of a fresh character: a clip, a transition, a few frames. */
function useSimply(world: AnimationWorld, eids: number[], skeleton: Skeleton): void {
  const clip = syntheticClip(skeleton, { seed: 9, name: 'idle' });
  const other = syntheticClip(skeleton, { seed: 10, name: 'wave' });
  for (const eid of eids) play(world, eid, clip, { weight: 0.8 });
  for (let f = 0; f < 12; f++) {
    if (f === 3) for (const eid of eids) transition(world, eid, other, { duration: 0.2 });
    if (f === 6) for (const eid of eids) transition(world, eid, clip, { duration: 0.2, mode: 'crossfade' });
    if (f === 8) for (const eid of eids) setLayerWeight(world, eid, 0, 0.5);
    step(world, 1 / 30);
  }
}

describe('one entity lifecycle', () => {
  it('every component declares a reset, and every array is either reset per row or declared kept', () => {
    const world = createAnimationWorld({ maxEntities: MAX_ENTITIES, maxJoints: 16 });
    expect(NAMES.sort()).toEqual(Object.keys(world.components).sort());
    for (const name of NAMES) {
      const fields = arraysOf(world, name).map(([field]) => field);
      for (const field of Object.keys(COMPONENT_ROWS[name].kept)) expect(fields, `${name}.${field}`).toContain(field);
      for (const [field, array] of arraysOf(world, name)) {
        if (field in COMPONENT_ROWS[name].kept) continue;
        expect(array.length % ROWS, `${name}.${field} has a row per entity id`).toBe(0);
      }
    }
  });

  it('a reset writes every array it does not keep: a row of noise resets to the row of a reset never-used id', () => {
    const noisy = createAnimationWorld({ maxEntities: MAX_ENTITIES, maxJoints: 16 });
    const clean = createAnimationWorld({ maxEntities: MAX_ENTITIES, maxJoints: 16 });
    const random = createRandom(21);
    for (const name of NAMES) {
      for (const [, array] of arraysOf(noisy, name)) {
        const a = array as unknown as { [i: number]: number; length: number };
        for (let i = 0; i < a.length; i++) a[i] = Math.floor(random() * 100) - 50 + random();
      }
    }
    resetRows(noisy, 2);
    resetRows(clean, 2);
    const reset = rows(noisy, 2);
    expect(reset).toEqual(rows(clean, 2));
    // And only that row: the neighbours keep their noise.
    expect(rows(noisy, 1)).not.toEqual(rows(clean, 1));
    expect(reset['Layers.clip']).toEqual([-1, -1, -1, -1]);
    expect(reset['Layers.speed']).toEqual([1, 1, 1, 1]); // an empty slot's, not a new world's 0
    expect(reset['RootMotion.targetSpeed']).toEqual([-1]);
  });

  for (const how of ['removeCharacter', "the game's removeEntity"] as const) {
    it(`a reused id (removed by ${how}) starts with the rows of a never-used id, and runs as one`, () => {
      const world = createAnimationWorld({ maxEntities: MAX_ENTITIES, maxJoints: 16 });
      const big = humanoid(); // 13 joints
      const small = syntheticSkeleton(7, 3);
      const old = spawnCharacter(world, big, { x: 5, y: 1, z: -2, yaw: 1, rootMotion: true, rootYaw: true, verticalRootMotion: true });
      useEverything(world, old, big);
      if (how === 'removeCharacter') removeCharacter(world, old);
      else removeEntity(world.ecs, old);
      const reused = spawnCharacter(world, small, { x: 1, z: 2 });
      expect(reused).toBe(old); // bitecs recycles the id
      const fresh = spawnCharacter(world, small, { x: 1, z: 2 });
      expect(fresh).not.toBe(old);
      // Every row, beyond the new skeleton's joints too (the old one had more).
      expect(rows(world, reused)).toEqual(rows(world, fresh));
      // Leftovers in the kept arrays: the test would prove nothing without them.
      const fades = world.components.Layers.fadeDuration; // kept: the cross-fades of useEverything left theirs
      const stale = Array.from(fades.subarray(reused * DEFAULT_MAX_LAYERS, (reused + 1) * DEFAULT_MAX_LAYERS)).some((v) => v !== 0);
      expect(stale).toBe(true);
      useSimply(world, [reused, fresh], small);
      expect(rows(world, reused)).toEqual(rows(world, fresh));
    });
  }
});
