/**
 * The frame table (src/frame.ts): checked at creation, the world's scratch built from it (so
 * src/world.ts imports no system), the update list as systems run alone see it, and one clock.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createFrame,
  defaultFrame,
  insertSystem,
  play,
  setLod,
  setLodCamera,
  spawnCharacter,
  step,
  worldBytes,
  type FrameSystem,
} from '../../src/index.js';
import { lodSystem, DEFAULT_MAX_LAYERS, sampleSystem, skinSystem } from '../../src/kernels.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const noop: FrameSystem = { name: 'noop', entities: () => undefined, reads: [], writes: [] };

describe('the frame table', () => {
  it('src/world.ts imports nothing from src/systems/ or src/frame.ts (the old scratch cycle)', () => {
    const imports = [...readFileSync('src/world.ts', 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(5);
    expect(imports.filter((path) => path.includes('systems/') || path.includes('frame.js'))).toEqual([]);
  });

  it('builds the scratch its systems declare, and only that', () => {
    const full = createAnimationWorld({ maxEntities: 2, maxJoints: 5 });
    const scratch = full.scratch as unknown as Record<string, unknown>;
    for (const s of defaultFrame.systems) for (const name of Object.keys(s.scratch ?? {})) expect(scratch[name], name).toBeDefined();
    expect(full.scratch.pose.length).toBe(5 * 10);
    expect(full.scratch.aim.model.length).toBe(5 * 16);
    const bare = createAnimationWorld({ maxEntities: 2, maxJoints: 5, frame: createFrame(defaultFrame.systems.filter((s) => s.name !== 'aim')) });
    expect((bare.scratch as unknown as Record<string, unknown>)['aim']).toBeUndefined();
    expect(bare.scratch.layerPlan.layerOff).toBeInstanceOf(Int32Array); // still declared by blend and inertialize
  });

  it('refuses malformed tables, unknown frames and unknown insertion points', () => {
    expect(() => createFrame([noop, noop])).toThrow(/systems\[1\]\.name "noop" is already in the frame/);
    expect(() => createFrame([{ ...noop, entities: 1 } as unknown as FrameSystem])).toThrow(AnimationError);
    expect(() => createFrame([{ ...noop, reads: [1] } as unknown as FrameSystem])).toThrow(/reads/);
    expect(() => createFrame([{ ...noop, scratch: { x: 3 } } as unknown as FrameSystem])).toThrow(/scratch\.x/);
    expect(() => insertSystem(defaultFrame, noop, { after: 'nope' })).toThrow(/insertSystem: at is .*\(lod, stateMachine, sample, blend/);
    expect(() => insertSystem({ systems: [] }, noop, { after: 'lod' })).toThrow(/insertSystem: frame is .*createFrame/);
    expect(() => createAnimationWorld({ maxEntities: 1, maxJoints: 1, frame: { systems: [] } })).toThrow(/frame/);
    expect(insertSystem(defaultFrame, noop, { before: 'lod' }).systems.map((s) => s.name)[0]).toBe('noop');
    expect(defaultFrame.systems.map((s) => s.name)).toEqual(['lod', 'stateMachine', 'sample', 'blend', 'inertialize', 'rootMotion', 'follow', 'aim', 'footLock', 'skin']);
  });

  it('worldBytes counts the update list: 12 bytes a character more than the pools and views', () => {
    const world = createAnimationWorld({ maxEntities: 3, maxJoints: 4 });
    expect(world.updates.eids.length).toBe(4);
    expect(world.updates.dt.length).toBe(4);
    expect(worldBytes({ maxEntities: 4, maxJoints: 4 }) - worldBytes({ maxEntities: 3, maxJoints: 4 })).toBe(worldBytes({ maxEntities: 1, maxJoints: 4 }) - worldBytes({ maxEntities: 0, maxJoints: 4 }));
  });
});

describe('systems run alone, and the clock', () => {
  function lodWorld(): { world: ReturnType<typeof createAnimationWorld>; eids: number[] } {
    const skeleton = syntheticSkeleton(3);
    const clip = syntheticClip(skeleton, { seed: 5 });
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 3 });
    const eids = [0, 1, 2, 3].map(() => spawnCharacter(world, skeleton));
    for (const eid of eids) play(world, eid, clip);
    setLod(world, eids[1]!, { levels: 1, updateEvery: [4], phase: 1 });
    setLodCamera(world, 0, 0, 0);
    return { world, eids };
  }

  it('after lodSystem run alone, a system run alone visits its list; without it, every character', () => {
    const { world, eids } = lodWorld();
    const time = world.components.Layers.time;
    const layer = (eid: number): number => eid * DEFAULT_MAX_LAYERS;
    // Phase 1, k = 4: its tick is 2 on the first frame, 3 on the second: held on both.
    lodSystem(world, 0.25);
    expect(Array.from(world.updates.eids.subarray(0, world.updates.last))).toEqual([eids[0], eids[2], eids[3]]);
    expect(world.updates.dt.slice(0, 3)).toEqual([0.25, 0.25, 0.25]);
    sampleSystem(world, 0.25);
    expect(time[layer(eids[1]!)]).toBe(0); // held: not advanced
    expect(time[layer(eids[0]!)]).toBe(0.25);
    // A frame ends (step: held again) and the list is retired: sampleSystem alone visits every character.
    step(world, 0.25);
    expect(time[layer(eids[1]!)]).toBe(0);
    sampleSystem(world, 0.25);
    expect(time[layer(eids[1]!)]).toBe(0.25);
    expect(time[layer(eids[0]!)]).toBe(0.75);
  });

  it('the clock moves once per frame: step, or sampleSystem run alone; no other system moves it', () => {
    const { world } = lodWorld();
    step(world, 0.25);
    expect(world.time).toBe(0.25);
    lodSystem(world, 0.5);
    skinSystem(world, 0.5);
    expect(world.time).toBe(0.25);
    sampleSystem(world, 0.5);
    expect(world.time).toBe(0.75);
  });
});
