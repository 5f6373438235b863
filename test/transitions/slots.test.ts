/**
 * The pool of transition slots (components/Inertialization.ts, `maxTransitions`): what a slot
 * costs, when one is taken and given back, what happens when none is free, and that the last
 * output a request rebuilds into a slot is the output the frame wrote, bit for bit (what keeps
 * test/frameHash.test.ts unchanged now that no character keeps a copy of its output).
 */
import { removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createFrame,
  createMask,
  defaultFrame,
  disposeAnimationWorld,
  play,
  registerLodLevels,
  removeCharacter,
  setLod,
  setLodCamera,
  spawnCharacter,
  step,
  stepParallel,
  transition,
  worldBytes,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { defaultMaxTransitions, INERTIA_NONE, NO_SLOT } from '../../src/kernels.js';
import { bakeLod } from '../../src/lod.js';
import {
  createInertializationComponent,
  SLOT_STRIDE,
  transitionSlotsInUse,
} from '../../src/components/Inertialization.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { createRandom, syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const DT = 1 / 60;

/** Slots held by live characters, as the slot search judges them. */
function inUse(world: AnimationWorld): number {
  const { Character, Inertialization } = world.components;
  const live = new Set(Array.from(world.characters.dense));
  return transitionSlotsInUse(Inertialization, (eid) => live.has(eid) && Character.jointCount[eid]! > 0);
}

/** Every slot held by exactly one live character, and every character's slot held by it. */
function expectConsistent(world: AnimationWorld): void {
  const { slot, slotOwner } = world.components.Inertialization;
  const held = new Map<number, number>();
  for (const eid of world.characters.dense) {
    const s = slot[eid]!;
    if (s === NO_SLOT) continue;
    expect(held.has(s), `slot ${s} held by ${held.get(s)} and ${eid}`).toBe(false);
    held.set(s, eid);
    expect(slotOwner[s], `owner of slot ${s}`).toBe(eid);
  }
  expect(inUse(world)).toBe(held.size);
}

function scene(maxEntities: number, options: { maxTransitions?: number; kernels?: 'js' | 'wasm' } = {}): { world: AnimationWorld; skeleton: Skeleton; clips: Clip[] } {
  const skeleton = syntheticSkeleton(12, 5);
  const clips = [
    syntheticClip(skeleton, { seed: 2, name: 'a' }),
    syntheticClip(skeleton, { seed: 3, frameCount: 41, name: 'b' }),
    syntheticClip(skeleton, { seed: 4, loop: false, name: 'c' }),
  ];
  const world = createAnimationWorld({ maxEntities, maxJoints: 12, ...options });
  return { world, skeleton, clips };
}

describe('transition slots: memory', () => {
  it('the Inertialization pools stay within their share of 12 KB per character at 64 joints with the default options', () => {
    // The share: ~10.4 KB per character of a 64-joint crowd is everything else once the layer
    // poses are per-chunk scratch (issue 18), so inertialization keeps ≤ 1 KB of the 12.
    const SHARE = 1024;
    const bytes = (c: object): number => Object.values(c).reduce((sum: number, a) => sum + (a as ArrayBufferView).byteLength, 0);
    // What createAnimationWorld allocates (its own default) at 1,000 characters…
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 64 });
    expect(world.components.Inertialization.slotOwner.length).toBe(128);
    expect(bytes(world.components.Inertialization) / 1000).toBeLessThanOrEqual(SHARE);
    // … and the same component at the bench's larger sizes.
    for (const n of [5000, 10_000]) {
      const c = createInertializationComponent(n + 1, 64, undefined, defaultMaxTransitions(n));
      expect(bytes(c) / n, `${n} characters`).toBeLessThanOrEqual(SHARE);
    }
    // The slots are all of its per-joint memory: a world without slots holds 30 bytes per character (the lead of a switch inside a step among them).
    const none = createInertializationComponent(1001, 64, undefined, 0);
    expect((bytes(none) - 4) / 1001).toBe(30);
    // worldBytes counts the slots: maxJoints × 80 + 4 bytes each, and the curve part of each
    // (Curves.slots: 12 bytes per curve, 8 curves by default).
    expect(worldBytes({ maxEntities: 1000, maxJoints: 64 }) - worldBytes({ maxEntities: 1000, maxJoints: 64, maxEvents: 4096, kernels: 'js', maxTransitions: 0 })).toBe(128 * (64 * SLOT_STRIDE * 4 + 4 + 8 * 12));
  });

  it('the default is a slot per character up to 128 characters, then one per 8', () => {
    expect([1, 4, 128, 129, 1024, 1025, 10_000].map(defaultMaxTransitions)).toEqual([1, 4, 128, 128, 128, 129, 1250]);
  });

  it('maxTransitions is validated like the other sizes', () => {
    for (const bad of [-1, 1.5, Number.NaN, '3', 5]) {
      expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 2, maxTransitions: bad as number }), String(bad)).toThrow(
        /createAnimationWorld: maxTransitions is .*: must be an integer ≥ 0 and ≤ maxEntities \(4/,
      );
    }
    expect(createAnimationWorld({ maxEntities: 4, maxJoints: 2, maxTransitions: 0 }).components.Inertialization.slotOwner.length).toBe(0);
    expect(createAnimationWorld({ maxEntities: 4, maxJoints: 2, maxTransitions: 4 }).components.Inertialization.slotOwner.length).toBe(4);
  });
});

describe('transition slots: taken and given back', () => {
  it('an inertialization takes a slot, a cross-fade or an instant switch none; the slot comes back on the first update after the offsets end', () => {
    const { world, skeleton, clips } = scene(4);
    const [q, s, f] = [spawnCharacter(world, skeleton), spawnCharacter(world, skeleton), spawnCharacter(world, skeleton)] as [number, number, number];
    for (const eid of [q, s, f]) play(world, eid, clips[0]!);
    for (let n = 0; n < 5; n++) step(world, DT);
    const I = world.components.Inertialization;
    transition(world, q, clips[1]!, { duration: 0.1 });
    transition(world, s, clips[1]!, { duration: 0.1, mode: 'spring' });
    transition(world, f, clips[1]!, { duration: 0.1, mode: 'crossfade' });
    transition(world, f, clips[0]!, { duration: 0 });
    expect([I.slot[q], I.slot[s], I.slot[f]].map((x) => x !== NO_SLOT)).toEqual([true, true, false]);
    expect(inUse(world)).toBe(2);
    expectConsistent(world);
    // Quintic: the update where elapsed reaches t1 ends it (mode none), the next one gives the slot back.
    let frames = 0;
    while (I.mode[q] !== INERTIA_NONE || I.pending[q] !== 0) step(world, DT), frames++;
    expect(I.elapsed[q]).toBeGreaterThanOrEqual(I.duration[q]!);
    expect(frames).toBe(Math.ceil(0.1 / DT - 1e-9));
    expect(I.slot[q]).not.toBe(NO_SLOT);
    step(world, DT);
    expect(I.slot[q]).toBe(NO_SLOT);
    // Spring: at rest, then given back the same way.
    while (I.mode[s] !== INERTIA_NONE) step(world, DT);
    expect(I.slot[s]).not.toBe(NO_SLOT);
    step(world, DT);
    expect(I.slot[s]).toBe(NO_SLOT);
    expect(inUse(world)).toBe(0);
    expect(Array.from(I.slotOwner)).toEqual([0, 0, 0, 0]);
  });

  it('an interrupting transition and a second request in one tick keep the slot they hold', () => {
    const { world, skeleton, clips } = scene(2, { maxTransitions: 1 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clips[0]!);
    step(world, DT);
    transition(world, eid, clips[1]!, { duration: 0.5, mode: 'spring' });
    transition(world, eid, clips[0]!, { duration: 0.5 }); // same tick: no second slot
    const held = world.components.Inertialization.slot[eid];
    for (let n = 0; n < 4; n++) step(world, DT);
    transition(world, eid, clips[1]!, { duration: 0.5, mode: 'spring' }); // interrupts the running offsets
    expect(world.components.Inertialization.slot[eid]).toBe(held);
    expectConsistent(world);
  });

  it('with every slot held, transition throws naming maxTransitions and leaves the world as it was', () => {
    const { world, skeleton, clips } = scene(4, { maxTransitions: 2 });
    const eids = [0, 1, 2].map(() => spawnCharacter(world, skeleton));
    for (const eid of eids) play(world, eid, clips[0]!, { time: 0.1 });
    for (let n = 0; n < 3; n++) step(world, DT);
    transition(world, eids[0]!, clips[1]!, { duration: 0.2 });
    transition(world, eids[1]!, clips[1]!, { duration: 0.2, mode: 'spring' });
    const snapshot = (): Map<string, number[]> => {
      const out = new Map<string, number[]>();
      for (const [name, component] of Object.entries(world.components)) {
        for (const [field, array] of Object.entries(component as object)) {
          if (ArrayBuffer.isView(array)) out.set(`${name}.${field}`, Array.from(array as Float32Array));
        }
      }
      return out;
    };
    const before = snapshot();
    for (const mode of ['inertialize', 'spring'] as const) {
      let error: unknown;
      try {
        transition(world, eids[2]!, clips[1]!, { duration: 0.2, mode });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AnimationError);
      expect(String(error)).toContain(`transition: mode '${mode}' needs a transition slot and all 2 (maxTransitions) are in use`);
    }
    const after = snapshot();
    for (const [name, values] of before) expect(after.get(name), name).toEqual(values);
    // A cross-fade or an instant switch still goes through; an inertialization once a slot is back.
    transition(world, eids[2]!, clips[1]!, { duration: 0.2, mode: 'crossfade' });
    for (let n = 0; n < 20; n++) step(world, DT);
    transition(world, eids[2]!, clips[0]!, { duration: 0.2 });
    expectConsistent(world);
  });

  it('a world without slots refuses inertialization and still cross-fades', () => {
    const { world, skeleton, clips } = scene(2, { maxTransitions: 0 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clips[0]!);
    step(world, DT);
    expect(() => transition(world, eid, clips[1]!, { duration: 0.2 })).toThrow('all 0 (maxTransitions) are in use');
    transition(world, eid, clips[1]!, { duration: 0.2, mode: 'crossfade' });
    step(world, DT);
  });

  it('removal gives the slot back: removeCharacter at once, a game\'s own removeEntity or a respawned id at the next search', () => {
    const { world, skeleton, clips } = scene(4, { maxTransitions: 1 });
    const I = world.components.Inertialization;
    const a = spawnCharacter(world, skeleton);
    const b = spawnCharacter(world, skeleton);
    for (const eid of [a, b]) play(world, eid, clips[0]!);
    step(world, DT);
    transition(world, a, clips[1]!, { duration: 1 });
    expect(() => transition(world, b, clips[1]!, { duration: 1 })).toThrow(AnimationError);
    removeCharacter(world, a);
    expect(Array.from(I.slotOwner)).toEqual([0]);
    transition(world, b, clips[1]!, { duration: 1 }); // b takes it
    // The game removes b itself: the slot is still marked b's, and found free by the next search.
    removeEntity(world.ecs, b);
    step(world, DT);
    const c = spawnCharacter(world, skeleton);
    play(world, c, clips[0]!);
    step(world, DT);
    transition(world, c, clips[1]!, { duration: 1 });
    expect(I.slot[c]).toBe(0);
    expectConsistent(world);
    // c removed by the game and its id respawned: the reset gives the slot back.
    removeEntity(world.ecs, c);
    const d = spawnCharacter(world, skeleton);
    expect(I.slot[d]).toBe(NO_SLOT);
    expect(Array.from(I.slotOwner)).toEqual(d === c ? [0] : [c]);
    play(world, d, clips[0]!);
    step(world, DT);
    transition(world, d, clips[1]!, { duration: 1 });
    expectConsistent(world);
  });

  it('many transitions over time never leak a slot (modes, interruptions, LOD, removals, threads)', async () => {
    for (const threads of [1, 2]) {
      const skeleton = syntheticSkeleton(12, 5);
      const clips = [syntheticClip(skeleton, { seed: 2 }), syntheticClip(skeleton, { seed: 3, frameCount: 41 }), syntheticClip(skeleton, { seed: 4, loop: false })];
      const world = createAnimationWorld({ maxEntities: 200, maxJoints: 12, maxTransitions: 24, threads });
      const random = createRandom(11);
      const alive: number[] = [];
      const spawn = (): void => {
        const eid = spawnCharacter(world, skeleton, { x: random() * 40, z: random() * 40 });
        play(world, eid, clips[alive.length % 2]!, { time: random() });
        if (random() < 0.5) setLod(world, eid, { levels: 3, distances: [10, 25], updateEvery: [1, 2, 4] });
        alive.push(eid);
      };
      for (let n = 0; n < 150; n++) spawn();
      const modes = ['inertialize', 'spring', 'crossfade'] as const;
      let refused = 0, taken = 0;
      for (let f = 0; f < 1500; f++) {
        if (f < 1200) {
          for (let k = 0; k < 3; k++) {
            const eid = alive[Math.floor(random() * alive.length)]!;
            const mode = modes[Math.floor(random() * 3)]!;
            try {
              transition(world, eid, clips[Math.floor(random() * 3)]!, { duration: 0.05 + 0.4 * random(), mode });
              if (mode !== 'crossfade') taken++;
            } catch (e) {
              if (!(e instanceof AnimationError)) throw e;
              refused++;
            }
          }
          if (f % 40 === 0) {
            const gone = alive.splice(Math.floor(random() * alive.length), 1)[0]!;
            if (random() < 0.5) removeCharacter(world, gone);
            else removeEntity(world.ecs, gone);
            spawn();
          }
        }
        if (f % 30 === 0) setLodCamera(world, random() * 40, 1.5, random() * 40);
        if (threads > 1) await stepParallel(world, DT);
        else step(world, DT);
        expectConsistent(world);
        expect(inUse(world)).toBeLessThanOrEqual(24);
      }
      // The pool ran full at times, and once every offset has ended every slot is back.
      expect(refused).toBeGreaterThan(0);
      expect(taken).toBeGreaterThan(500);
      expect(inUse(world)).toBe(0);
      for (const eid of world.characters.dense) expect(world.components.Inertialization.slot[eid]).toBe(NO_SLOT);
      disposeAnimationWorld(world);
    }
  });
});

describe('the last output, rebuilt at a request', () => {
  // A frame that ends with inertialize: `LocalPose` after `step` is exactly the output the
  // request rebuilds (the default frame's later systems — root motion, aim — edit LocalPose).
  const upToInertialize = createFrame(defaultFrame.systems.slice(0, defaultFrame.systems.findIndex((s) => s.name === 'inertialize') + 1));

  for (const kernels of ['js', 'wasm'] as const) {
    it(`equals the output of the last update bit for bit (${kernels} kernels: running quintic and spring, ended offsets, LOD levels and skipped frames, dt = 0, before the first frame)`, () => {
      const skeleton = syntheticSkeleton(12, 5);
      const clips = [syntheticClip(skeleton, { seed: 2 }), syntheticClip(skeleton, { seed: 3, frameCount: 41 }), syntheticClip(skeleton, { seed: 4, loop: false })];
      const world = createAnimationWorld({ maxEntities: 64, maxJoints: 12, kernels, frame: upToInertialize });
      for (const clip of clips) registerLodLevels(world, clip, bakeLod(clip, [0.002, 0.02]));
      const mask = createMask(skeleton, { [skeleton.names[2]!]: 1 });
      const random = createRandom(5);
      const eids: number[] = [];
      for (let n = 0; n < 40; n++) {
        const eid = spawnCharacter(world, skeleton, { x: (n % 8) * 4, z: Math.floor(n / 8) * 4 });
        play(world, eid, clips[n % 2]!, { time: random(), weight: 0.4 + random() * 0.6 });
        if (n % 3 === 0) play(world, eid, clips[1]!, { layer: 1, weight: random(), mask: n % 2 === 0 ? mask : undefined }); // unmasked: the two-layer blend
        if (n % 4 === 1) play(world, eid, clips[0]!, { layer: 2, weight: random(), additive: true });
        if (n % 2 === 0) setLod(world, eid, { levels: 3, distances: [6, 14], updateEvery: [1, 2, 3] });
        eids.push(eid);
      }
      setLodCamera(world, 0, 1.5, 0);
      const I = world.components.Inertialization;
      const local = world.components.LocalPose.data;
      const poseSize = 12 * POSE_STRIDE, n = skeleton.jointCount * POSE_STRIDE;
      const cases = new Set<string>();
      const check = (eid: number): void => {
        // The request's P1 in the slot against the pose the character shows now.
        const held = I.slot[eid] !== NO_SLOT, state = held ? (I.mode[eid] !== INERTIA_NONE ? `running ${I.pendingMode[eid]}` : 'ended') : 'none';
        const shown = local.slice(eid * poseSize, eid * poseSize + n);
        transition(world, eid, clips[Math.floor(random() * 3)]!, { duration: 0.1 + 0.3 * random(), mode: random() < 0.5 ? 'spring' : 'inertialize' });
        const s = I.slot[eid]! * 12 * SLOT_STRIDE;
        const rebuilt = I.slots.slice(s, s + n);
        expect(new Uint32Array(rebuilt.buffer), `eid ${eid} (${state})`).toEqual(new Uint32Array(shown.buffer));
        cases.add(state);
      };
      // Before the first frame: the rest pose it was spawned in.
      check(eids[0]!);
      for (let f = 1; f <= 300; f++) {
        const dt = f % 37 === 0 ? 0 : f % 5 === 0 ? 1 / 30 : DT;
        if (f % 13 === 0) setLodCamera(world, random() * 30, 1.5, random() * 20);
        step(world, dt);
        for (let k = 0; k < 4; k++) {
          const eid = eids[Math.floor(random() * eids.length)]!;
          if (I.pending[eid] === 0) check(eid);
        }
        if (f % 7 === 0) for (const eid of eids) if (I.slot[eid] !== NO_SLOT && I.mode[eid] === INERTIA_NONE && I.pending[eid] === 0) check(eid);
      }
      // The cases the rebuild distinguishes all came up.
      expect([...cases].sort()).toEqual(['ended', 'none', 'running 1', 'running 2']);
    });
  }
});
