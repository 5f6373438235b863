/**
 * The world's gate over every entry, beyond the main one (commandGate.test.ts): the functions
 * of `bitanim/kernels` and `bitanim/lod` that take a world are either the main entry's own
 * (the same function objects, so that test covers them) or the raw per-frame parts documented as
 * unchecked (the systems, runFrame, beginFrame, …: test/hardening/unchecked.ts) — so an API
 * function taking a world added to either entry fails here until it is in the table below —
 * and `bitanim/pixi`'s `createCrowdRenderer`, which takes a world, refuses one with a frame in
 * flight or disposed, with the documented AnimationError and the world unchanged.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as kernels from '../../src/kernels.js';
import * as lod from '../../src/lod.js';
import * as main from '../../src/index.js';
import { AnimationError, createAnimationWorld, disposeAnimationWorld, play, spawnCharacter, stepParallel, type AnimationWorld } from '../../src/index.js';
import { UNCHECKED } from '../hardening/unchecked.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';
import { hashComponents } from '../support/poolHash.js';

type Pixi = typeof import('../../src/pixi/index.js');
let pixi: Pixi;
beforeAll(async () => {
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' }; // pixi reads it as it loads (as test/pixi/draw.test.ts)
  pixi = await import('../../src/pixi/index.js');
});

const DT = 1 / 60;
const skeleton = syntheticSkeleton(16);
const walk = syntheticClip(skeleton, { seed: 2, name: 'walk' });
const open: AnimationWorld[] = [];

afterEach(() => {
  for (const world of open.splice(0)) {
    if (world.gate === 0) disposeAnimationWorld(world);
  }
});

/** Functions of `entry` whose first parameter is `world` (from their source text, as commandGate.test.ts finds the main entry's). */
function takingWorld(entry: Record<string, unknown>): string[] {
  return Object.entries(entry)
    .filter(([, value]) => typeof value === 'function' && /^(?:function\s*[\w$]*\s*)?\(\s*world\b/.test(Function.prototype.toString.call(value)))
    .map(([name]) => name)
    .sort();
}

/** API functions of `bitanim/kernels` and `bitanim/lod` (not the main entry's, not raw per-frame parts) that take a world, with a call each: none today. */
const ENTRY_COMMANDS: Record<string, (world: AnimationWorld) => unknown> = {};

function crowd(threads: number): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: 400, maxJoints: 16, threads });
  open.push(world);
  for (let i = 0; i < 400; i++) play(world, spawnCharacter(world, skeleton, { x: i % 20, z: Math.floor(i / 20) }), walk, { time: i / 400 });
  return world;
}

function hash(world: AnimationWorld): string {
  const h = hashComponents(world);
  return h.update(`${world.time} ${world.events.pushed} ${world.characters.dense.length}`).digest('hex');
}

function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AnimationError);
    return (error as AnimationError).message;
  }
  throw new Error('the call was taken');
}

describe('the gate over bitanim/kernels, bitanim/lod and bitanim/pixi', () => {
  it('every function of kernels and lod taking a world is the main entry\'s, a raw per-frame part, or in the table', () => {
    const kernelNames = takingWorld(kernels as unknown as Record<string, unknown>);
    const lodNames = takingWorld(lod as unknown as Record<string, unknown>);
    expect(kernelNames).toContain('runFrame'); // the enumeration sees them at all
    const mainExports = main as unknown as Record<string, unknown>;
    const entries = [kernels, lod] as unknown as Record<string, unknown>[];
    const others: string[] = [];
    for (const [i, names] of [kernelNames, lodNames].entries()) {
      for (const name of names) {
        if (name in mainExports) expect(entries[i]![name], name).toBe(mainExports[name]); // covered by commandGate.test.ts
        else if (!UNCHECKED.has(name)) others.push(name);
      }
    }
    expect(others).toEqual(Object.keys(ENTRY_COMMANDS).sort());
  });

  it('createCrowdRenderer: "a parallel step is running" while a frame is in flight, "was disposed" after, the world unchanged', async () => {
    expect(takingWorld(pixi as unknown as Record<string, unknown>)).toEqual(['createCrowdRenderer']);
    const world = crowd(2), twin = crowd(1);
    const frame = stepParallel(world, DT); // the first frame waits for the workers: in flight on return
    expect(world.gate).not.toBe(0);
    expect(refusal(() => pixi.createCrowdRenderer(world))).toContain('a parallel step is running');
    for (const [name, call] of Object.entries(ENTRY_COMMANDS)) expect(refusal(() => call(world)), name).toContain('a parallel step is running');
    await frame;
    main.step(twin, DT);
    expect(hash(world)).toBe(hash(twin)); // as the world that never got the calls
    disposeAnimationWorld(world);
    const before = hash(world);
    expect(refusal(() => pixi.createCrowdRenderer(world))).toContain('was disposed');
    for (const [name, call] of Object.entries(ENTRY_COMMANDS)) expect(refusal(() => call(world)), name).toContain('was disposed');
    expect(hash(world)).toBe(before);
  });
});
