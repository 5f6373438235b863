/**
 * `transition` refuses bad options with one AnimationError naming the field, before changing
 * anything; `duration: 0` is a plain switch, like `play`.
 */
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  getLocalPose,
  play,
  spawnCharacter,
  step,
  transition,
  type AnimationWorld,
  type TransitionOptions,
} from '../../src/index.js';
import { INERTIA_NONE, DEFAULT_MAX_LAYERS } from '../../src/kernels.js';
import { FRAME_DT, motionClip, rig } from './helpers.js';
import { A, B_MOVING } from './scene.js';

const skeleton = rig();
const a = motionClip(skeleton, A, 'A');
const b = motionClip(skeleton, B_MOVING, 'B');

/** A world with one character playing A for a few frames (so it has history and a busy layer 0). */
function playing(): { world: AnimationWorld; eid: number; other: number } {
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2 });
  const eid = spawnCharacter(world, skeleton);
  const other = spawnCharacter(world, skeleton);
  play(world, eid, a);
  play(world, other, a);
  for (let n = 0; n < 5; n++) step(world, FRAME_DT);
  return { world, eid, other };
}

/** Copies of every component array and registry size. */
function snapshot(world: AnimationWorld): unknown {
  const arrays: number[][] = [];
  for (const component of Object.values(world.components)) {
    for (const array of Object.values(component)) arrays.push(Array.from(array as ArrayLike<number>));
  }
  return { arrays, clips: world.assets.clips.length, time: world.time };
}

describe('transition refuses bad options', () => {
  it.each([
    { field: 'duration', options: { duration: -0.1 } },
    { field: 'duration', options: { duration: Number.NaN } },
    { field: 'duration', options: { duration: Number.POSITIVE_INFINITY } },
    { field: 'duration', options: { duration: '0.3' as unknown as number } },
    { field: 'duration', options: {} as TransitionOptions },
    { field: 'mode', options: { duration: 0.3, mode: 'blend' as never } },
    { field: 'curve', options: { duration: 0.3, mode: 'crossfade', curve: 'cubic' as never } },
    { field: 'curve', options: { duration: 0.3, curve: 'toString' as never } },
    { field: 'halfLife', options: { duration: 0.3, mode: 'spring', halfLife: 0 } },
    { field: 'halfLife', options: { duration: 0.3, mode: 'spring', halfLife: -0.05 } },
    { field: 'halfLife', options: { duration: 0.3, mode: 'spring', halfLife: Number.NaN } },
  ] satisfies { field: string; options: TransitionOptions }[])('$field in $options → AnimationError naming it, nothing changed', ({ field, options }) => {
    const { world, eid } = playing();
    const before = snapshot(world);
    let error: unknown;
    try {
      transition(world, eid, b, options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AnimationError);
    const err = error as AnimationError;
    expect(err.where).toBe('transition');
    expect(err.issues.map((i) => i.path)).toEqual([field]);
    expect(err.message).toContain(`transition: ${field} is `);
    expect(snapshot(world)).toEqual(before);
  });

  it('lists every bad field in one error', () => {
    const { world, eid } = playing();
    const options = { duration: -1, mode: 'spring', curve: 'cubic', halfLife: -1 } as unknown as TransitionOptions;
    let error: unknown;
    try {
      transition(world, eid, b, options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).issues.map((i) => i.path)).toEqual(['duration', 'curve', 'halfLife']);
  });

  it('refuses what play refuses (unknown entity, bad layer) with the same error', () => {
    const { world, eid } = playing();
    expect(() => transition(world, 99, b, { duration: 0.3 })).toThrow(/transition: eid 99 is not a character/);
    expect(() => transition(world, eid, b, { duration: 0.3, layer: DEFAULT_MAX_LAYERS })).toThrow(/transition: layer is 4/);
  });
});

describe('duration 0', () => {
  it.each(['inertialize', 'spring', 'crossfade'] as const)('switches at once like play (%s)', (mode) => {
    const { world, eid, other } = playing();
    transition(world, eid, b, { duration: 0, mode });
    play(world, other, b);
    const { Layers, Inertialization } = world.components;
    for (let layer = 1; layer < DEFAULT_MAX_LAYERS; layer++) expect(Layers.clip[eid * DEFAULT_MAX_LAYERS + layer]).toBe(-1);
    for (let n = 0; n < 3; n++) {
      step(world, FRAME_DT);
      expect(Array.from(getLocalPose(world, eid))).toEqual(Array.from(getLocalPose(world, other)));
    }
    expect(Inertialization.mode[eid]).toBe(INERTIA_NONE);
    expect(Inertialization.pending[eid]).toBe(0);
    expect(Layers.weight[eid * DEFAULT_MAX_LAYERS]).toBe(1);
    expect(Layers.fadeCurve[eid * DEFAULT_MAX_LAYERS]).toBe(0);
  });
});
