import { addEntity, createWorld } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  worldBytes,
  createClip,
  createMask,
  createSkeleton,
  drainEvents,
  getLocalPose,
  getModelMatrices,
  getSkinPalette,
  play,
  removeCharacter,
  setLayerWeight,
  spawnCharacter,
  step,
  stop,
  type AnimationWorld,
} from '../src/index.js';
import { DEFAULT_MAX_LAYERS, POSE_STRIDE } from '../src/kernels.js';
import { expectQuat, jointPose, twoJointSkeleton, wiggleClip, Z90 } from './systems/helpers.js';

const skeleton = twoJointSkeleton();
const clip = wiggleClip(skeleton);

/** Everything a failed call must leave as it was. */
function snapshot(world: AnimationWorld) {
  const { Character, Layers, LocalPose, ModelPose, SkinPalette } = world.components;
  return {
    characters: Array.from(world.characters.dense).sort(),
    arrays: [Character.skeleton, Character.jointCount, Layers.clip, Layers.time, Layers.speed, Layers.weight, Layers.flags,
      Layers.mask, Layers.reference, LocalPose.data, ModelPose.data, SkinPalette.data].map((a) => Array.from(a as ArrayLike<number>)),
    assets: [world.assets.skeletons.length, world.assets.clips.length, world.assets.masks.length, world.assets.references.length],
    events: [world.events.count, world.events.head, world.time],
  };
}

function expectRefusedUnchanged(world: AnimationWorld, field: RegExp, call: () => unknown): void {
  const before = snapshot(world);
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AnimationError);
  expect((error as AnimationError).message).toMatch(field);
  expect(snapshot(world)).toEqual(before);
}

describe('createAnimationWorld', () => {
  it('refuses sizes that are not positive integers', () => {
    expect(() => createAnimationWorld({ maxEntities: 0, maxJoints: 64 })).toThrow(/maxEntities is 0/);
    expect(() => createAnimationWorld({ maxEntities: 10, maxJoints: 1.5 })).toThrow(AnimationError);
    expect(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, blendThreshold: 0 })).toThrow(/blendThreshold/);
    expect(() => createAnimationWorld({ maxEntities: 10, maxJoints: 4, world: {} as never })).toThrow(/world must be a bitecs world/);
  });

  it('refuses an option it does not know (a misspelt size would silently take its default), and worldBytes takes the same options', () => {
    const options = { maxEntities: 10, maxJoints: 4, maxLayer: 8 } as never;
    expect(() => createAnimationWorld(options)).toThrow(/createAnimationWorld: maxLayer is not an option \(options: maxEntities, maxJoints, .*maxLayers/);
    expect(() => worldBytes(options)).toThrow(/worldBytes: maxLayer is not an option/);
    // The same object sizes both: what a world allocates is what worldBytes counts for it.
    const sizes = { maxEntities: 10, maxJoints: 4, maxLayers: 8, maxCurves: 2, kernels: 'js' } as const;
    expect(worldBytes(sizes)).toBe(worldBytes({ ...sizes, maxEvents: 4096, maxMachines: 2 }));
    expect(worldBytes(sizes)).toBeGreaterThan(worldBytes({ ...sizes, maxLayers: 4 }));
  });

  it("lives in the game's own bitecs world beside the game's entities", () => {
    const game = createWorld();
    const bullet = addEntity(game);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 4, world: game });
    const eid = spawnCharacter(world, skeleton);
    expect(eid).not.toBe(bullet);
    expect(world.ecs).toBe(game);
    expect(Array.from(world.characters.dense)).toEqual([eid]); // the bullet is not a character
  });

  it('refused asset input leaves an existing world unchanged', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip);
    step(world, 0.1);
    expectRefusedUnchanged(world, /createClip: frameRate/, () => createClip({ skeleton, frameRate: 0, frames: clip.frames }));
    expectRefusedUnchanged(world, /createSkeleton: names/, () => createSkeleton({ names: [], parents: [], rest: [] }));
    expectRefusedUnchanged(world, /createMask/, () => createMask(skeleton, { nope: 1 }));
  });
});

describe('spawnCharacter / removeCharacter', () => {
  it('spawns in the rest pose with model and palette computed', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    expect(Array.from(getLocalPose(world, eid))).toEqual(Array.from(skeleton.rest));
    expect(getModelMatrices(world, eid)[21]).toBe(1); // arm tx
    expect(Array.from(getSkinPalette(world, eid).subarray(12, 24))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
  });

  it('refuses to spawn past capacity, leaving the world unchanged', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    spawnCharacter(world, skeleton);
    spawnCharacter(world, skeleton);
    expectRefusedUnchanged(world, /maxEntities is 2 and all are in use/, () => spawnCharacter(world, skeleton));
  });

  it('refuses a skeleton larger than maxJoints', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 1 });
    expectRefusedUnchanged(world, /has 2 joints, more than the world's maxJoints \(1\)/, () => spawnCharacter(world, skeleton));
  });

  it("reuses a removed character's id and blocks cleanly", () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const a = spawnCharacter(world, skeleton);
    play(world, a, clip, { layer: 2, weight: 0.5, speed: 3, time: 0.1 });
    step(world, 0.05);
    removeCharacter(world, a);
    expect(() => getLocalPose(world, a)).toThrow(/is not a character/);
    const b = spawnCharacter(world, skeleton);
    expect(b).toBe(a); // bitecs recycles the id
    const { Layers } = world.components;
    for (let layer = 0; layer < DEFAULT_MAX_LAYERS; layer++) {
      const li = b * DEFAULT_MAX_LAYERS + layer;
      expect([Layers.clip[li], Layers.weight[li], Layers.time[li], Layers.flags[li]]).toEqual([-1, 0, 0, 0]);
    }
    expect(Array.from(getLocalPose(world, b))).toEqual(Array.from(skeleton.rest));
    step(world, 0.1);
    expect(Array.from(getLocalPose(world, b))).toEqual(Array.from(skeleton.rest)); // no clip plays
  });

  it('refuses to remove what is not a character', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    expectRefusedUnchanged(world, /eid 7 is not a character/, () => removeCharacter(world, 7));
  });
});

describe('play and step', () => {
  it('plays a looping clip and wraps at its duration', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip);
    step(world, 0.125); // frame 1
    expectQuat(getLocalPose(world, eid), POSE_STRIDE + 3, Z90);
    step(world, 0.125 + 0.0625); // 0.3125 → 0.0625: halfway between frames 0 and 1
    expect(getLocalPose(world, eid)[0]).toBeCloseTo(0.5, 6);
  });

  it('plays a non-looping clip once and holds its last frame', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const once = createClip({ skeleton, frameRate: 4, frames: [...jointPose([0, 0, 0]), ...jointPose([1, 0, 0]), ...jointPose([3, 0, 0]), ...jointPose([1, 0, 0])], loop: false });
    play(world, eid, once);
    step(world, 0.125);
    expect(getLocalPose(world, eid)[0]).toBeCloseTo(1.5, 6);
    step(world, 10);
    expect(getLocalPose(world, eid)[0]).toBe(3);
    expect(world.components.Layers.time[eid * DEFAULT_MAX_LAYERS]).toBe(0.25);
  });

  it('play: loop and time options override the clip', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip, { loop: false, time: 0.2 });
    step(world, 1);
    expect(world.components.Layers.time[eid * DEFAULT_MAX_LAYERS]).toBe(0.25);
    play(world, eid, clip, { time: 0.3125 }); // wrapped into [0, D)
    expect(world.components.Layers.time[eid * DEFAULT_MAX_LAYERS]).toBe(0.0625);
  });

  it('setLayerWeight and stop drive the blend', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    const still = createClip({ skeleton, frameRate: 1, frames: [...jointPose([4, 0, 0]), ...jointPose([1, 0, 0])] });
    play(world, eid, still, { layer: 1, weight: 1, blend: 'average' });
    play(world, eid, createClip({ skeleton, frameRate: 1, frames: [...jointPose([0, 0, 0]), ...jointPose([1, 0, 0])] }), { layer: 0 });
    setLayerWeight(world, eid, 1, 3);
    step(world, 0);
    expect(getLocalPose(world, eid)[0]).toBe(3); // averaged: (0·1 + 4·3) / 4
    // A 'layer' layer (the default) lerps the layer below toward it: (1 − 0.75)·0 + 0.75·4 = 3;
    // at weight 3 (≥ 1) it replaces it: 4.
    play(world, eid, still, { layer: 1, weight: 0.75 });
    step(world, 0);
    expect(getLocalPose(world, eid)[0]).toBe(3);
    setLayerWeight(world, eid, 1, 3);
    step(world, 0);
    expect(getLocalPose(world, eid)[0]).toBe(4);
    stop(world, eid, 1);
    step(world, 0);
    expect(getLocalPose(world, eid)[0]).toBe(0);
  });

  it('additive play: the reference defaults to the clip’s first frame', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip, { layer: 1, additive: true, time: 0.125 });
    play(world, eid, clip, { layer: 0, speed: 0, time: 0 });
    step(world, 0);
    // base: frame 0; additive: frame 1 relative to frame 0 → frame 1's root offset and arm turn
    const local = getLocalPose(world, eid);
    expect(local[0]).toBeCloseTo(1, 6);
    expectQuat(local, POSE_STRIDE + 3, Z90);
  });

  it('refuses each bad play input, leaving the layer as it was', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip, { weight: 0.5 });
    const other = createSkeleton({ names: ['x', 'y'], parents: [-1, 0], rest: [...jointPose([0, 0, 0]), ...jointPose([1, 0, 0])] });
    const foreign = wiggleClip(other);
    expectRefusedUnchanged(world, /eid 9 is not a character/, () => play(world, 9, clip));
    expectRefusedUnchanged(world, /clip must be a Clip/, () => play(world, eid, {} as never));
    expectRefusedUnchanged(world, /clip\.skeleton shares no joint names/, () => play(world, eid, foreign));
    expectRefusedUnchanged(world, /layer is 4/, () => play(world, eid, clip, { layer: DEFAULT_MAX_LAYERS }));
    expectRefusedUnchanged(world, /weight is -1/, () => play(world, eid, clip, { weight: -1 }));
    expectRefusedUnchanged(world, /weight is NaN/, () => play(world, eid, clip, { weight: Number.NaN }));
    expectRefusedUnchanged(world, /speed is Infinity/, () => play(world, eid, clip, { speed: Infinity }));
    expectRefusedUnchanged(world, /time is NaN/, () => play(world, eid, clip, { time: Number.NaN }));
    expectRefusedUnchanged(world, /mask\.skeleton has other joints/, () => play(world, eid, clip, { mask: createMask(other, { y: 1 }) }));
    expectRefusedUnchanged(world, /reference\.skeleton shares no joint names/, () => play(world, eid, clip, { additive: true, reference: foreign }));
    expectRefusedUnchanged(world, /referenceTime is NaN/, () => play(world, eid, clip, { additive: true, referenceTime: Number.NaN }));
  });

  it('refuses a bad dt without advancing anything', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip);
    for (const dt of [-0.1, Number.NaN, Infinity]) expectRefusedUnchanged(world, /step: dt is/, () => step(world, dt));
    expectRefusedUnchanged(world, /setLayerWeight: weight is -2/, () => setLayerWeight(world, eid, 0, -2));
    expectRefusedUnchanged(world, /stop: layer is 5/, () => stop(world, eid, 5));
  });

  it('drainEvents empties the queue', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, wiggleClip(skeleton, { events: [{ time: 0, name: 'step' }] }));
    step(world, 0.1);
    expect(drainEvents(world)).toHaveLength(1);
    expect(drainEvents(world)).toHaveLength(0);
  });
});
