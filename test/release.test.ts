import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  createBlendSpace,
  createClip,
  createDifferenceClip,
  createMask,
  createSkeleton,
  createStateMachine,
  fireTrigger,
  drainEvents,
  getLocalPose,
  play,
  registerLodLevels,
  releaseClip,
  releaseMask,
  releaseSkeleton,
  removeCharacter,
  setBlendSpace,
  setStateMachine,
  spawnCharacter,
  step,
  stop,
  transition,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../src/index.js';
import { DEFAULT_MAX_LAYERS } from '../src/kernels.js';
import { lodClipId } from '../src/components/Lod.js';
import { createRandom, syntheticClip, syntheticSkeleton } from './fixtures/synthetic.js';

// A handle on V8's collector without restarting node with --expose-gc (as test/allocation.test.ts).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Sizes of every registry of the world (arrays and their id maps) and the LOD level table. */
function registrySizes(world: AnimationWorld): Record<string, number> {
  const a = world.assets;
  return {
    skeletons: a.skeletons.length, skeletonIds: a.skeletonIds.size, clips: a.clips.length, clipIds: a.clipIds.size,
    masks: a.masks.length, maskIds: a.maskIds.size, references: a.references.length, referenceIds: a.referenceIds.size,
    rootTracks: a.rootTracks.length, rootFrames: a.rootFrames.length, bindings: a.bindings.length, bindingIds: a.bindingIds.size,
    clipLevels: world.lod.clipLevels.length,
  };
}

/** Everything a refused call must leave as it was: components, registries (entries and ids), LOD table, events. */
function snapshot(world: AnimationWorld): unknown {
  const { Character, Layers, LocalPose } = world.components;
  const a = world.assets;
  return {
    characters: Array.from(world.characters.dense).sort(),
    arrays: [Character.skeleton, Layers.clip, Layers.time, Layers.weight, Layers.flags, Layers.mask, Layers.reference, Layers.binding, LocalPose.data]
      .map((x) => Array.from(x as ArrayLike<number>)),
    entries: [a.skeletons, a.clips, a.masks, a.references, a.rootTracks, a.rootFrames, a.bindings].map((list) => [...list]),
    ids: [a.skeletonIds, a.clipIds, a.maskIds, a.referenceIds, a.bindingIds].map((map) => [...map.entries()]),
    clipLevels: Array.from(world.lod.clipLevels),
    events: [world.events.count, world.events.head, Array.from(world.events.clip)],
  };
}

/** Runs `call`, expecting an AnimationError whose message matches every pattern, with the world unchanged. */
function expectRefused(world: AnimationWorld, call: () => unknown, ...patterns: RegExp[]): AnimationError {
  const before = snapshot(world);
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AnimationError);
  for (const pattern of patterns) expect((error as AnimationError).message).toMatch(pattern);
  expect(snapshot(world)).toEqual(before);
  return error as AnimationError;
}

/** A small clip (2 frames) on `skeleton`, its motion given by `seed`, with one event at 5 ms. */
function smallClip(skeleton: Skeleton, seed: number, name = `clip${seed}`): Clip {
  const source = syntheticClip(skeleton, { seed, frameCount: 2, frameRate: 10, name });
  return createClip({ skeleton, frameRate: 10, frames: source.frames, loop: true, name, events: [{ time: 0.005, name: 'step' }] });
}

/** Every id a live layer or character holds names a registered asset. */
function expectIdsRegistered(world: AnimationWorld): void {
  const { Character, Layers } = world.components;
  const a = world.assets;
  for (const eid of world.characters.dense) {
    expect(a.skeletons[Character.skeleton[eid]!]).toBeDefined();
    for (let li = eid * DEFAULT_MAX_LAYERS; li < (eid + 1) * DEFAULT_MAX_LAYERS; li++) {
      if (Layers.clip[li]! >= 0) expect(a.clips[Layers.clip[li]!]).toBeDefined();
      if (Layers.clip[li]! >= 0) expect(a.rootTracks[Layers.clip[li]!]).toBeDefined();
      if (Layers.mask[li]! >= 0) expect(a.masks[Layers.mask[li]!]).toBeDefined();
      if (Layers.reference[li]! >= 0) expect(a.references[Layers.reference[li]!]).toBeDefined();
      if (Layers.binding[li]! >= 0) expect(a.bindings[Layers.binding[li]!]).toBeDefined();
    }
  }
  for (const [clip, id] of a.clipIds) expect(a.clips[id]).toBe(clip);
  for (const [skeleton, id] of a.skeletonIds) expect(a.skeletons[id]).toBe(skeleton);
  for (const [mask, id] of a.maskIds) expect(a.masks[id]).toBe(mask.weights);
  for (const [binding, id] of a.bindingIds) expect(a.bindings[id]).toBe(binding);
  for (const id of a.referenceIds.values()) expect(a.references[id]).toBeDefined();
}

describe('streaming: create clip → play → stop → release', () => {
  const CYCLES = 20_000;

  /** `cycles` clips streamed through one character; returns the heap growth after GC (bytes). */
  function stream(world: AnimationWorld, skeleton: Skeleton, eid: number, cycles: number, release: boolean): number {
    // Counted, checked after the loop (expect() in the loop keeps state of its own per call).
    let events = 0, released = 0;
    const cycle = (n: number): void => {
      const clip = smallClip(skeleton, n);
      play(world, eid, clip);
      step(world, 1 / 60); // samples it and crosses its event
      events += drainEvents(world).length;
      stop(world, eid, 0);
      if (release && releaseClip(world, clip)) released++;
    };
    for (let n = 0; n < 200; n++) cycle(n); // warm-up: JIT, lazily made structures
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < cycles; n++) cycle(n);
    gc();
    gc();
    expect(events).toBe(cycles + 200);
    expect(released).toBe(release ? cycles + 200 : 0);
    return process.memoryUsage().heapUsed - before;
  }

  it(`${CYCLES.toLocaleString('en')} cycles keep the heap within 1 MB and the registries at their start size`, () => {
    const skeleton = syntheticSkeleton(4);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const start = registrySizes(world);
    const grown = stream(world, skeleton, eid, CYCLES, true);
    console.log(`streaming ${CYCLES} clips with releaseClip: heap ${grown} bytes after GC`);
    expect(grown).toBeLessThan(1024 * 1024);
    expect(registrySizes(world)).toEqual(start);
    expectIdsRegistered(world);
  });

  it('without releaseClip the same loop keeps every clip (the measurement can fail)', () => {
    const skeleton = syntheticSkeleton(4);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const grown = stream(world, skeleton, eid, CYCLES, false);
    console.log(`streaming ${CYCLES} clips without release: heap +${grown} bytes after GC`);
    expect(world.assets.clips.length).toBeGreaterThanOrEqual(CYCLES);
    expect(grown).toBeGreaterThan(1024 * 1024);
  });

  it('skeletons, masks, references and bindings stream too: 2,000 characters of fresh skeletons, each a retargeted clip, an additive layer and a mask', () => {
    const base = syntheticSkeleton(6);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 6 });
    const keeper = spawnCharacter(world, base); // a character that stays, with its own clip
    play(world, keeper, smallClip(base, 1));
    const start = registrySizes(world);
    let released = 0;
    const cycle = (n: number): void => {
      // Same joint names, other proportions: the clips of `base` play on it through a binding.
      const rest = Float32Array.from(base.rest);
      for (let j = 1; j < base.jointCount; j++) rest[j * 10 + 1]! *= 1 + 0.1 * ((n % 7) + 1);
      const skeleton = createSkeleton({ names: [...base.names], parents: Array.from(base.parents), rest });
      const clip = smallClip(base, n + 2);
      const reference = smallClip(base, n + 3);
      const mask = createMask(skeleton, { hips: 1 });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      play(world, eid, clip, { layer: 0 });
      play(world, eid, clip, { layer: 1, additive: true, reference, weight: 0.5, mask });
      const difference = createDifferenceClip(clip, reference);
      play(world, eid, difference, { layer: 2, additive: true }); // against the identity reference of `base`
      step(world, 1 / 60);
      drainEvents(world);
      removeCharacter(world, eid);
      released += [releaseClip(world, clip), releaseClip(world, reference), releaseClip(world, difference), releaseMask(world, mask), releaseSkeleton(world, skeleton)]
        .filter((done) => done).length;
    };
    // Warm-up: JIT, inline caches, lazily made structures (200 cycles left 0.4–0.5 MB of them
    // in the measurement even with nothing played, beside what the plays keep).
    for (let n = 0; n < 1000; n++) cycle(n);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 2000; n++) cycle(n);
    gc();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    console.log(`streaming 2,000 skeletons with clips, references, masks, bindings: heap ${grown} bytes after GC`);
    expect(released).toBe(3000 * 5);
    expect(grown).toBeLessThan(1024 * 1024);
    expectIdsRegistered(world);
    // Bindings, reference poses and the difference clips' identity reference went with them.
    expect(registrySizes(world)).toEqual(start);
  });
});

describe('releaseClip refuses a clip in use, naming the user, with the world unchanged', () => {
  const skeleton = syntheticSkeleton(5);

  function setup(): { world: AnimationWorld; eids: number[] } {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 5 });
    const eids = [spawnCharacter(world, skeleton), spawnCharacter(world, skeleton), spawnCharacter(world, skeleton)];
    return { world, eids };
  }

  it('played on a layer (every user listed), until the layer is stopped or the character removed', () => {
    const { world, eids } = setup();
    const walk = smallClip(skeleton, 1, 'walk');
    play(world, eids[1]!, walk, { layer: 1 });
    play(world, eids[2]!, walk, { layer: 3 });
    step(world, 1 / 60);
    drainEvents(world);
    expectRefused(world, () => releaseClip(world, walk), /^releaseClip: clip "walk" is played by character \d+ on layer 1/,
      new RegExp(`character ${eids[1]} on layer 1: stop it first`), new RegExp(`character ${eids[2]} on layer 3`));
    stop(world, eids[1]!, 1);
    expectRefused(world, () => releaseClip(world, walk), new RegExp(`character ${eids[2]} on layer 3`));
    removeCharacter(world, eids[2]!);
    expect(releaseClip(world, walk)).toBe(true);
    expect(world.assets.clipIds.has(walk)).toBe(false);
    expect(releaseClip(world, walk)).toBe(false); // no longer registered: nothing to do
  });

  it('as the additive reference of a layer', () => {
    const { world, eids } = setup();
    const wave = smallClip(skeleton, 2, 'wave');
    const pose = smallClip(skeleton, 3, 'pose');
    play(world, eids[0]!, wave, { layer: 2, additive: true, reference: pose });
    expectRefused(world, () => releaseClip(world, pose), new RegExp(`clip "pose" is the additive reference of character ${eids[0]}'s layer 2`));
    stop(world, eids[0]!, 2);
    const references = world.assets.referenceIds.size;
    expect(releaseClip(world, pose)).toBe(true);
    expect(world.assets.referenceIds.size).toBe(references - 1); // its reference pose went with it
  });

  it('as a blend space sample on a live layer, and as the source of a cross-fade still fading out', () => {
    const { world, eids } = setup();
    const [a, b, c] = [smallClip(skeleton, 4, 'a'), smallClip(skeleton, 5, 'b'), smallClip(skeleton, 6, 'c')];
    const space = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0 }, { clip: b, x: 1 }] });
    setBlendSpace(world, eids[0]!, space, 0.25);
    expectRefused(world, () => releaseClip(world, b), new RegExp(`clip "b" is played by character ${eids[0]} on layer [01]`));
    play(world, eids[1]!, c);
    transition(world, eids[1]!, a, { duration: 0.5, mode: 'crossfade' });
    step(world, 1 / 60);
    drainEvents(world);
    expectRefused(world, () => releaseClip(world, c), new RegExp(`clip "c" is played by character ${eids[1]} on layer`));
    for (let f = 0; f < 40; f++) step(world, 1 / 60); // the fade ends and empties the source layer
    drainEvents(world);
    expect(releaseClip(world, c)).toBe(true);
  });

  it('as an LOD level of another clip; releasing the base clip frees its levels row', () => {
    const { world } = setup();
    const walk = smallClip(skeleton, 7, 'walk');
    const coarse = smallClip(skeleton, 8, 'walk-coarse');
    registerLodLevels(world, walk, [walk, coarse]);
    expectRefused(world, () => releaseClip(world, coarse), /clip "walk-coarse" is LOD level 1, 2, 3, 4, 5, 6, 7 of clip "walk" \(registerLodLevels\)/);
    const base = world.assets.clipIds.get(walk)!;
    expect(releaseClip(world, walk)).toBe(true);
    expect(lodClipId(world.lod.clipLevels, base, 3)).toBe(base); // the row no longer names coarse
    expect(releaseClip(world, coarse)).toBe(true);
    expect(registrySizes(world)).toMatchObject({ clips: 0, clipIds: 0, rootTracks: 0, clipLevels: 0 });
  });

  it('with its events waiting in world.events, until they are drained', () => {
    const { world, eids } = setup();
    const walk = smallClip(skeleton, 9, 'walk');
    play(world, eids[0]!, walk);
    step(world, 1 / 60);
    stop(world, eids[0]!, 0);
    expectRefused(world, () => releaseClip(world, walk), /clip "walk" has 1 event waiting in world\.events: call drainEvents first/);
    expect(drainEvents(world).map((e) => [e.clip, e.name])).toEqual([[walk, 'step']]);
    expect(releaseClip(world, walk)).toBe(true);
  });

  it('used by a state machine a live character runs (a state not playing, a blend space sample), until its layer gets another machine', () => {
    const { world, eids } = setup();
    const [idle, a, b, act] = [smallClip(skeleton, 10, 'idle'), smallClip(skeleton, 11, 'a'), smallClip(skeleton, 12, 'b'), smallClip(skeleton, 13, 'act')];
    const space = createBlendSpace({ type: '1d', samples: [{ clip: a, x: 0 }, { clip: b, x: 1 }] });
    const desc = (name: string, withAct: boolean) => ({
      name,
      parameters: [{ name: 'go', type: 'trigger' as const }, { name: 'speed', type: 'float' as const }],
      states: [
        { name: 'idle', clip: idle },
        { name: 'move', blendSpace: space, x: 'speed' },
        ...(withAct ? [{ name: 'act', clip: act }] : []),
      ],
      transitions: [{ from: 'idle', to: withAct ? 'act' : 'move', when: [['go'] as ['go']], duration: 0 }],
      initial: 'idle',
    });
    const acting = createStateMachine(desc('acting', true));
    const plain = createStateMachine(desc('plain', false));
    setStateMachine(world, eids[1]!, acting, { layer: 1 });
    step(world, 1 / 60);
    drainEvents(world);
    // Neither clip plays on a layer: only the machine holds them.
    expectRefused(world, () => releaseClip(world, act),
      new RegExp(`^releaseClip: clip "act" is used by state machine "acting" of character ${eids[1]} \\(state "act" plays it, on layer 1\\): give that layer another machine \\(setStateMachine\\)`));
    expectRefused(world, () => releaseClip(world, b), /clip "b" is used by state machine "acting" of character \d+ \(the blend space of state "move" plays it, on layer 1\)/);
    setStateMachine(world, eids[1]!, plain, { layer: 1 }); // replaces "acting" on layer 1
    expect(releaseClip(world, act)).toBe(true);
    expectRefused(world, () => releaseClip(world, b), /state machine "plain"/);
    // The machine runs again on a new character: its clips are registered anew and "act" plays as itself.
    const eid = spawnCharacter(world, skeleton);
    setStateMachine(world, eid, acting);
    fireTrigger(world, eid, 'go');
    step(world, 1 / 60);
    const { Layers } = world.components;
    expect(world.assets.clips[Layers.clip[eid * Layers.maxLayers]!]).toBe(act);
  });

  it('not a clip or not a world: an AnimationError, never a TypeError', () => {
    const { world } = setup();
    for (const bad of [null, undefined, 3, {}, { frames: [] }]) {
      expectRefused(world, () => releaseClip(world, bad as never), /^releaseClip: clip must be a Clip from createClip/);
      expectRefused(world, () => releaseSkeleton(world, bad as never), /^releaseSkeleton: skeleton must be a Skeleton/);
      expectRefused(world, () => releaseMask(world, bad as never), /^releaseMask: mask must be a Mask/);
    }
    for (const bad of [null, undefined, {}, 7]) {
      expect(() => releaseClip(bad as never, smallClip(skeleton, 1))).toThrow(/^releaseClip: world is .*: must be an AnimationWorld/);
      expect(() => releaseSkeleton(bad as never, skeleton)).toThrow(/^releaseSkeleton: world is .*: must be an AnimationWorld/);
      expect(() => releaseMask(bad as never, createMask(skeleton, { hips: 1 }))).toThrow(/^releaseMask: world is .*: must be an AnimationWorld/);
    }
    // Never registered: nothing to release, nothing changes.
    const before = snapshot(world);
    expect(releaseClip(world, smallClip(skeleton, 1))).toBe(false);
    expect(releaseSkeleton(world, syntheticSkeleton(3))).toBe(false);
    expect(releaseMask(world, createMask(skeleton, { hips: 1 }))).toBe(false);
    expect(snapshot(world)).toEqual(before);
  });
});

describe('releaseSkeleton and releaseMask refuse while used', () => {
  it('a skeleton with a live character is refused, naming it; released after removeCharacter', () => {
    const skeleton = syntheticSkeleton(4);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    expectRefused(world, () => releaseSkeleton(world, skeleton), new RegExp(`^releaseSkeleton: skeleton \\(4 joints\\) is character ${eid}'s: remove it first`));
    removeCharacter(world, eid);
    expect(releaseSkeleton(world, skeleton)).toBe(true);
    expect(registrySizes(world)).toMatchObject({ skeletons: 0, skeletonIds: 0, rootFrames: 0 });
  });

  it('a mask on a live layer is refused, naming character and layer; released after stop', () => {
    const skeleton = syntheticSkeleton(4);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const mask = createMask(skeleton, { hips: 1 });
    play(world, eid, smallClip(skeleton, 1), { layer: 3, mask });
    expectRefused(world, () => releaseMask(world, mask), new RegExp(`^releaseMask: mask masks character ${eid}'s layer 3: stop that layer first`));
    stop(world, eid, 3);
    expect(releaseMask(world, mask)).toBe(true);
    expect(registrySizes(world)).toMatchObject({ masks: 0, maskIds: 0 });
  });
});

describe('a released id is reused by the next asset, which plays as itself', () => {
  it('a new clip given a released id plays the new clip: the pose a fresh world gives it, not the old clip\'s', () => {
    const skeleton = syntheticSkeleton(5);
    const old = smallClip(skeleton, 11, 'old');
    const other = smallClip(skeleton, 12, 'other');
    const fresh = smallClip(skeleton, 13, 'new');
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 5 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, old, { layer: 0 });
    play(world, eid, other, { layer: 1, weight: 0 }); // registered after `old`: its id stays, so old's is a hole
    step(world, 0.05);
    drainEvents(world);
    const oldPose = Array.from(getLocalPose(world, eid));
    const oldId = world.assets.clipIds.get(old)!;
    stop(world, eid, 0);
    expect(releaseClip(world, old)).toBe(true);
    expect(world.assets.clips[oldId]).toBeUndefined();
    play(world, eid, fresh, { layer: 0 });
    expect(world.components.Layers.clip[eid * DEFAULT_MAX_LAYERS]).toBe(oldId);
    expect(world.assets.clips[oldId]).toBe(fresh);
    step(world, 0.05);

    // The same play in a world that never saw `old`.
    const reference = createAnimationWorld({ maxEntities: 4, maxJoints: 5 });
    const e2 = spawnCharacter(reference, skeleton);
    play(reference, e2, fresh, { layer: 0 });
    play(reference, e2, other, { layer: 1, weight: 0 });
    step(reference, 0.05);
    expect(Array.from(getLocalPose(world, eid))).toEqual(Array.from(getLocalPose(reference, e2)));
    expect(Array.from(getLocalPose(world, eid))).not.toEqual(oldPose);
  });

  it('random play / stop / release / spawn / remove sequences never leave a layer or character naming a released id', () => {
    const random = createRandom(15);
    const skeletons = [syntheticSkeleton(4, 1), syntheticSkeleton(4, 2), syntheticSkeleton(3, 3)];
    const world = createAnimationWorld({ maxEntities: 6, maxJoints: 4 });
    const clips = skeletons.flatMap((s, k) => [0, 1, 2].map((n) => smallClip(s, 20 + k * 3 + n, `s${k}c${n}`)));
    const masks = skeletons.map((s) => createMask(s, { hips: 1 }));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let refused = 0, released = 0;
    for (let n = 0; n < 600; n++) {
      const live = Array.from(world.characters.dense);
      const r = random();
      try {
        if (r < 0.1 && live.length < 6) spawnCharacter(world, pick(skeletons));
        else if (r < 0.15 && live.length > 0) removeCharacter(world, pick(live));
        else if (r < 0.45 && live.length > 0) {
          const eid = pick(live);
          const skeleton = world.assets.skeletons[world.components.Character.skeleton[eid]!]!;
          const own = clips.filter((c) => c.skeleton.jointCount === skeleton.jointCount);
          const additive = random() < 0.3;
          play(world, eid, pick(own), {
            layer: Math.floor(random() * DEFAULT_MAX_LAYERS), ...(additive ? { additive, reference: pick(own) } : {}),
            ...(random() < 0.3 ? { mask: masks[skeletons.indexOf(skeleton)]! } : {}),
          });
        } else if (r < 0.6 && live.length > 0) stop(world, pick(live), Math.floor(random() * DEFAULT_MAX_LAYERS));
        else if (r < 0.8) released += releaseClip(world, pick(clips)) ? 1 : 0;
        else if (r < 0.9) released += releaseMask(world, pick(masks)) ? 1 : 0;
        else released += releaseSkeleton(world, pick(skeletons)) ? 1 : 0;
      } catch (error) {
        expect(error).toBeInstanceOf(AnimationError);
        refused++;
      }
      if (n % 5 === 0) {
        step(world, 1 / 30);
        drainEvents(world);
      }
      expectIdsRegistered(world);
    }
    // Both paths were exercised.
    expect(refused).toBeGreaterThan(20);
    expect(released).toBeGreaterThan(20);
  });
});
