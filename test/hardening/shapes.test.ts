/**
 * Issue 15, failures 4 and 5 of the Why: arguments of the wrong shape get an AnimationError,
 * never a TypeError or RangeError, and `quaternionTolerance` is validated like every option.
 * The named calls of the issue run under the watchdog; the table below calls every function
 * the package exports with garbage in every argument position.
 */
import { describe, expect, it } from 'vitest';
import * as bitanim from './allEntries.js';
import { PRELUDE } from './prelude.js';
import { UNCHECKED } from './unchecked.js';
import { guarded } from './watchdog.js';

const REFUSED = 'AnimationError: ';

describe('failure 4: AnimationError, not TypeError, for arguments of the wrong shape (watchdog)', () => {
  it('step({}, dt), createAnimationWorld(), createSkeleton(null), drainEvents({})', async () => {
    // Before: TypeErrors — "Cannot read properties of undefined (reading 'Symbol(bitecs_…')",
    // "Cannot destructure property 'maxEntities' of 'options' as it is undefined", …
    const result = await guarded(`${PRELUDE}
      return [
        refusal(() => B.step({}, 1 / 60)),
        refusal(() => B.createAnimationWorld()),
        refusal(() => B.createSkeleton(null)),
        refusal(() => B.drainEvents({})),
        refusal(() => B.createClip(42)),
        refusal(() => B.spawnCharacter(world, skeleton, null)),
        refusal(() => B.play(world, eid, walk(30), null)),
      ];`);
    expect(result).toEqual({
      outcome: 'returned',
      value: [
        `${REFUSED}step: world is an object of another shape: must be an AnimationWorld from createAnimationWorld`,
        `${REFUSED}createAnimationWorld: options is undefined: must be an object { maxEntities, maxJoints, … }`,
        `${REFUSED}createSkeleton: desc is null: must be an object { names, parents, rest, inverseBind?, hipJoint? }`,
        `${REFUSED}drainEvents: world is an object of another shape: must be an AnimationWorld from createAnimationWorld`,
        `${REFUSED}createClip: desc is 42: must be an object { skeleton, frameRate, frames, loop?, events?, name? }`,
        `${REFUSED}spawnCharacter: options is null: must be an object (or omitted)`,
        `${REFUSED}play: options is null: must be an object (or omitted)`,
      ],
    });
  });
});

describe('failure 5: quaternionTolerance is validated (watchdog)', () => {
  it('NaN is refused by createSkeleton and createClip, and the unit check stays on', async () => {
    // Before: NaN was taken as the tolerance; every comparison with it is false, so a rest or
    // frame quaternion of length 2 was accepted (and normalized silently).
    const result = await guarded(`${PRELUDE}
      const doubled = [0, 1, 0, 0, 0, 0, 2, 1, 1, 1];
      return [
        refusal(() => B.createSkeleton({ names: ['hips'], parents: [-1], rest: doubled, quaternionTolerance: NaN })),
        refusal(() => B.createClip({ skeleton, frameRate: 30, frames: [...doubled, ...pose(0, -0.5, 0)], quaternionTolerance: NaN })),
        refusal(() => B.createClip({ skeleton, frameRate: 30, frames: [...pose(0, 1, 0), ...pose(0, -0.5, 0)], quaternionTolerance: 1 })),
        refusal(() => B.createClip({ skeleton, frameRate: 30, frames: [...pose(0, 1, 0), ...pose(0, -0.5, 0)], quaternionTolerance: 0 })),
      ];`);
    expect(result.outcome).toBe('returned');
    const [skeleton, clip, one, zero] = (result as { value: string[] }).value;
    const tolerance = (value: string): string => `quaternionTolerance is ${value}: must be a number in [0, 1) (accepted |q| − 1; default 0.01)`;
    expect(skeleton).toMatch(new RegExp(`^${REFUSED}createSkeleton: ${escape(tolerance('NaN'))}; rest\\b.*"hips"`));
    expect(clip).toMatch(new RegExp(`^${REFUSED}createClip: ${escape(tolerance('NaN'))}; frames\\[0\\].*"hips"`));
    expect(one).toBe(`${REFUSED}createClip: ${tolerance('1')}`);
    expect(zero).toBe('accepted'); // exact unit quaternions pass a tolerance of 0
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('every exported function refuses garbage with an AnimationError', () => {
  const skeleton = bitanim.createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1],
  });
  const frames = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1];
  const clip = bitanim.createClip({ skeleton, frameRate: 30, frames, events: [{ time: 0, name: 'left' }] });
  const space = bitanim.createBlendSpace({ type: '1d', samples: [{ clip, x: 0 }, { clip, x: 1 }] });
  const GARBAGE: unknown[] = [undefined, null, {}, 42, 'x', [], NaN, 1e39, -1, () => 0];
  const functions = Object.entries(bitanim).filter(([, v]) => typeof v === 'function' && !/^[A-Z]/.test(v.name)) as [string, (...args: unknown[]) => unknown][];

  it('the unchecked list names exports that exist', () => {
    const names = new Set(functions.map(([name]) => name));
    expect([...UNCHECKED].filter((name) => !names.has(name))).toEqual([]);
  });

  it('garbage in every position of every checked function, beside valid arguments', async () => {
    // Before: 16 functions threw TypeErrors (createSkeleton, createClip, findJoint, createMask,
    // bindSkeletons, createAnimationWorld, spawnCharacter, play, step, drainEvents,
    // blendSpaceLayers, …). Each call gets three arguments from a pool of valid values (a world,
    // its character, a skeleton, a clip, a blend space) and the garbage (undefined,
    // null, {}, 42, 'x', and NaN); it may return (a documented
    // result: findJoint gives −1 for a name that is not a string) or throw an AnimationError.
    const faults: string[] = [];
    for (const [name, fn] of functions) {
      if (UNCHECKED.has(name)) continue;
      const world = bitanim.createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
      const eid = bitanim.spawnCharacter(world, skeleton);
      const pool: unknown[] = [world, eid, skeleton, clip, space, undefined, null, {}, 42, 'x', NaN];
      for (const a of pool) for (const b of pool) for (const c of pool) {
        try {
          const value = fn(a, b, c, c);
          if (value instanceof Promise) await value;
        } catch (error) {
          if (!(error instanceof bitanim.AnimationError)) {
            faults.push(`${name}(${[a, b, c].map(show).join(', ')}): ${String(error)}`);
            break;
          }
        }
      }
    }
    expect(faults).toEqual([]);
  });

  it('garbage inside descriptors and options', () => {
    const world = bitanim.createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const eid = bitanim.spawnCharacter(world, skeleton);
    const calls: (() => unknown)[] = [];
    for (const g of GARBAGE) {
      calls.push(
        () => bitanim.createSkeleton({ names: g as string[], parents: [-1], rest: frames.slice(0, 10) }),
        () => bitanim.createSkeleton({ names: ['a'], parents: g as number[], rest: frames.slice(0, 10) }),
        () => bitanim.createSkeleton({ names: ['a'], parents: [-1], rest: g as number[] }),
        () => bitanim.createSkeleton({ names: ['a'], parents: [-1], rest: frames.slice(0, 10), hipJoint: g as number }),
        () => bitanim.createClip({ skeleton, frameRate: g as number, frames }),
        () => bitanim.createClip({ skeleton, frameRate: 30, frames: g as number[] }),
        () => bitanim.createClip({ skeleton, frameRate: 30, frames, events: g as [] }),
        () => bitanim.createClip({ skeleton, frameRate: 30, frames, events: [g as never] }),
        () => bitanim.createAnimationWorld({ maxEntities: g as number, maxJoints: 4 }),
        () => bitanim.createAnimationWorld({ maxEntities: 4, maxJoints: 4, maxEvents: g as number, blendThreshold: g as number }),
        () => bitanim.createBlendSpace({ type: '1d', samples: g as [] }),
        () => bitanim.createBlendSpace({ type: '1d', samples: [g as never, { clip, x: 1 }] }),
        () => bitanim.createMask(skeleton, { hips: g as number }),
        () => bitanim.play(world, eid, clip, { weight: g as number, speed: g as number, time: g as number, layer: g as number }),
        () => bitanim.play(world, eid, clip, { mask: g as never, syncGroup: g as number, translation: g as never }),
        () => bitanim.transition(world, eid, clip, { duration: g as number }),
        () => bitanim.transition(world, eid, clip, { duration: 0.2, mode: 'spring', halfLife: g as number }),
        () => bitanim.setTargetSpeed(world, eid, 1, { cycle: g as 'net' }),
        () => bitanim.setBlendSpace(world, eid, space, g as number),
        () => bitanim.setFollower(world, eid, { duration: g as number, interval: g as number, x: g as number }),
        () => bitanim.setLod(world, eid, { levels: 2, distances: [g as number] }),
        () => bitanim.setLod(world, eid, { levels: 1, height: g as number, hysteresis: g as number }),
        () => bitanim.setLodCamera(world, 0, 0, 0, { velocity: g as never, fov: g as number }),
        () => bitanim.setLookAt(world, eid, { joint: g as number }),
        () => bitanim.setReach(world, eid, { upper: 0, lower: 1, end: g as number }),
        () => bitanim.setRootTransform(world, eid, { x: g as number }),
        () => bitanim.spawnCharacter(world, skeleton, { x: g as number }),
        () => bitanim.reduceClip(clip, { tolerance: g as number }),
        () => bitanim.bindSkeletons(skeleton, skeleton, { translation: g as never, hipRatio: g as number }),
      );
    }
    const faults: string[] = [];
    calls.forEach((call, i) => {
      try {
        call();
      } catch (error) {
        if (!(error instanceof bitanim.AnimationError)) faults.push(`call ${i} (garbage ${show(GARBAGE[Math.floor(i / (calls.length / GARBAGE.length))])}): ${String(error)}`);
      }
    });
    expect(faults).toEqual([]);
  });
});

function show(v: unknown): string {
  if (typeof v === 'function') return 'function';
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? '[]' : (v.constructor?.name ?? 'object');
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
