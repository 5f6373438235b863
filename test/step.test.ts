import { describe, expect, it } from 'vitest';
import {
  transition,
  createAnimationWorld,
  createClip,
  createMask,
  drainEvents,
  play,
  removeCharacter,
  spawnCharacter,
  step,
  type AnimationWorld,
} from '../src/index.js';
import { blendSystem, inertializeSystem, sampleSystem, skinSystem } from '../src/kernels.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';

const skeleton = syntheticSkeleton(20);
const walk = syntheticClip(skeleton, { seed: 2 });
const run = createClip({ ...syntheticClip(skeleton, { seed: 3, frameCount: 41 }), events: [{ time: 0.5, name: 'footstep' }], name: 'run' });
const wave = syntheticClip(skeleton, { seed: 4, loop: false });
const upper = createMask(skeleton, { joint3: 1 });

/** 300 characters (more than two of step's 128-character chunks) with varied layers; a few removed. */
function populate(): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: 300, maxJoints: 24, maxTransitions: 300 }); // every character transitions at once
  const random = createRandom(5);
  const eids: number[] = [];
  for (let n = 0; n < 300; n++) {
    const eid = spawnCharacter(world, skeleton);
    eids.push(eid);
    play(world, eid, walk, { weight: random(), time: random() });
    if (n % 2) play(world, eid, run, { layer: 1, weight: random(), speed: 0.5 + random(), time: random() });
    if (n % 3 === 0) play(world, eid, wave, { layer: 2, weight: random(), mask: upper, additive: true });
  }
  for (let n = 0; n < 300; n += 37) removeCharacter(world, eids[n]!);
  return world;
}

/** Every character still alive switches layer 0 to `run`, cycling through the three modes. */
function startTransitions(world: AnimationWorld): void {
  const modes = ['inertialize', 'spring', 'crossfade'] as const;
  Array.from(world.characters.dense).forEach((eid, n) => transition(world, eid, run, { duration: 0.3, mode: modes[n % 3]! }));
}

describe('step', () => {
  it('equals sampleSystem → blendSystem → inertializeSystem → skinSystem over the whole world, to the bit', () => {
    const chunked = populate();
    const sequential = populate();
    for (let f = 0; f < 40; f++) {
      step(chunked, 1 / 30);
      sampleSystem(sequential, 1 / 30);
      blendSystem(sequential, 1 / 30);
      inertializeSystem(sequential, 1 / 30);
      skinSystem(sequential, 1 / 30);
      if (f === 10) for (const world of [chunked, sequential]) startTransitions(world);
    }
    const a = chunked.components, b = sequential.components;
    expect(a.LocalPose.data).toEqual(b.LocalPose.data);
    expect(a.ModelPose.data).toEqual(b.ModelPose.data);
    expect(a.SkinPalette.data).toEqual(b.SkinPalette.data);
    expect(a.Layers.time).toEqual(b.Layers.time);
    expect(chunked.time).toBe(sequential.time);
    const events = drainEvents(chunked);
    expect(events.length).toBeGreaterThan(100);
    expect(events).toEqual(drainEvents(sequential));
  });
});
