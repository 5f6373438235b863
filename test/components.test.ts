/**
 * Every per-character component is a bitecs component of `world.ecs`, on exactly the entities
 * that have its state (issue 13 item 7): `query(world.ecs, [world.components.Follower])` lists
 * the characters with a follower, and so on for each component, before and after each call that
 * gives or takes the state, across remove and respawn, and in a game's own bitecs world.
 */
import { addComponent, addEntity, commitRemovals, createWorld, hasComponent, observe, onAdd, onRemove, query, registerQuery, removeEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import {
  clearLookAt,
  clearReach,
  createAnimationWorld,
  getLod,
  play,
  removeCharacter,
  removeFollower,
  removeLod,
  setFollower,
  setFollowTarget,
  setLod,
  setLookAt,
  setReach,
  spawnCharacter,
  step,
  type AnimationComponents,
  type AnimationWorld,
} from '../src/index.js';
import { FOLLOW_SLOTS } from '../src/kernels.js';
import { LOD_OFF, LOD_ON } from '../src/components/Lod.js';
import { humanoid } from './aim/helpers.js';
import { createRandom, syntheticClip } from './fixtures/synthetic.js';

type Name = keyof AnimationComponents;
const SPAWNED: Name[] = ['Character', 'Layers', 'LocalPose', 'ModelPose', 'SkinPalette', 'Inertialization'];
const ALL: Name[] = [...SPAWNED, 'RootMotion', 'Follower', 'LookAt', 'Reach', 'Lod'];

/** The entities `query` returns for one component, sorted. */
function holders(world: AnimationWorld, name: Name): number[] {
  return Array.from(query(world.ecs, [world.components[name]])).sort((a, b) => a - b);
}

const sorted = (ids: Iterable<number>): number[] => Array.from(ids).sort((a, b) => a - b);

/** Whether the component's own flags say `eid` has its state (what the systems read). */
function flagged(world: AnimationWorld, name: Name, eid: number): boolean {
  const c = world.components;
  switch (name) {
    case 'RootMotion': return c.RootMotion.enabled[eid] === 1;
    case 'Follower': {
      for (let slot = 0; slot < FOLLOW_SLOTS; slot++) if (c.Follower.enabled[eid * FOLLOW_SLOTS + slot] === 1) return true;
      return false;
    }
    case 'LookAt': return c.LookAt.enabled[eid] === 1;
    case 'Reach': return c.Reach.enabled[eid] === 1;
    case 'Lod': return c.Lod.enabled[eid] === LOD_ON;
    default: return c.Character.skeleton[eid]! >= 0;
  }
}

const ARM = { upper: 'upperArm', lower: 'foreArm', end: 'hand' } as const;

describe('per-character components are bitecs components', () => {
  it('a spawn adds the six every character has, and RootMotion only with rootMotion', () => {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 16 });
    const skeleton = humanoid();
    for (const name of ALL) expect(holders(world, name), name).toEqual([]);
    const still = spawnCharacter(world, skeleton);
    const walker = spawnCharacter(world, skeleton, { rootMotion: true });
    for (const name of SPAWNED) expect(holders(world, name), name).toEqual([still, walker]);
    expect(holders(world, 'RootMotion')).toEqual([walker]);
    for (const name of ['Follower', 'LookAt', 'Reach', 'Lod'] as const) expect(holders(world, name), name).toEqual([]);
    // The systems' query is the characters, root motion or not.
    expect(sorted(world.characters.dense)).toEqual([still, walker]);
  });

  it('Follower: on while any slot has a follower, from whichever call gave it one', () => {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 16 });
    const skeleton = humanoid();
    const [a, b, c, d, e] = Array.from({ length: 5 }, () => spawnCharacter(world, skeleton));
    setFollower(world, a!, { x: 1, y: 1, z: 1 });
    setFollowTarget(world, b!, 0, 1, 2, 2); // an empty slot 2 gets a follower
    setLookAt(world, c!, { joint: 'head', follower: 1 }); // places a follower in slot 1
    setReach(world, d!, { ...ARM, follower: 3 }); // and in slot 3
    expect(holders(world, 'Follower')).toEqual([a, b, c, d]);
    expect(hasComponent(world.ecs, e!, world.components.Follower)).toBe(false);

    // Two slots on a: removing one keeps the component, removing the other takes it.
    setFollowTarget(world, a!, 0, 0, 5, 1);
    removeFollower(world, a!, 0);
    expect(holders(world, 'Follower')).toEqual([a, b, c, d]);
    removeFollower(world, a!, 1);
    expect(holders(world, 'Follower')).toEqual([b, c, d]);
    // Removing an empty slot of a character that has another keeps it.
    removeFollower(world, b!, 0);
    expect(holders(world, 'Follower')).toEqual([b, c, d]);
    // Without a slot: all of them.
    removeFollower(world, b!);
    removeFollower(world, c!);
    expect(holders(world, 'Follower')).toEqual([d]);
    // The look-at stays (paused) without its follower; its component does too.
    expect(holders(world, 'LookAt')).toEqual([c]);
    // Moving a running follower's target every frame does not touch membership.
    for (let f = 0; f < 3; f++) { setFollowTarget(world, d!, f, 1, 1, 3); step(world, 1 / 60); }
    expect(holders(world, 'Follower')).toEqual([d]);
    // And back.
    setFollower(world, a!, { slot: 3 });
    expect(holders(world, 'Follower')).toEqual([a, d]);
  });

  it('LookAt and Reach: set adds, clear removes, the followers stay', () => {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 16 });
    const skeleton = humanoid();
    const [a, b, c] = Array.from({ length: 3 }, () => spawnCharacter(world, skeleton));
    setLookAt(world, a!, { joint: 'head' });
    setLookAt(world, b!, { joint: 'head', neck: 'neck' });
    setReach(world, b!, ARM);
    setReach(world, c!, ARM);
    expect(holders(world, 'LookAt')).toEqual([a, b]);
    expect(holders(world, 'Reach')).toEqual([b, c]);
    setLookAt(world, a!, { joint: 'head', weight: 0.5 }); // reconfiguring keeps it once
    expect(holders(world, 'LookAt')).toEqual([a, b]);
    clearLookAt(world, b!);
    clearReach(world, c!);
    expect(holders(world, 'LookAt')).toEqual([a]);
    expect(holders(world, 'Reach')).toEqual([b]);
    expect(holders(world, 'Follower')).toEqual([a, b, c]);
    clearLookAt(world, c!); // c never looked: nothing to remove
    expect(holders(world, 'LookAt')).toEqual([a]);
    setReach(world, c!, ARM);
    expect(holders(world, 'Reach')).toEqual([b, c]);
  });

  it('Lod: setLod adds, removeLod removes at once while its pending time still flushes', () => {
    const world = createAnimationWorld({ maxEntities: 8, maxJoints: 16 });
    const skeleton = humanoid();
    const clip = syntheticClip(skeleton, { seed: 3 });
    const [near, far] = Array.from({ length: 2 }, () => spawnCharacter(world, skeleton));
    for (const eid of [near, far]) play(world, eid!, clip);
    // far updates every 4th frame: at 100 m it is past the 10 m boundary, with phase 1.
    setLod(world, far!, { levels: 2, distances: [10], updateEvery: [1, 4], phase: 1 });
    setLod(world, near!, { levels: 2, distances: [10], updateEvery: [1, 4] });
    expect(holders(world, 'Lod')).toEqual([near, far]);
    world.components.RootMotion.z[far!] = 100;
    step(world, 0.1);
    step(world, 0.1);
    const pending = getLod(world, far!).pending;
    expect(pending).toBeGreaterThan(0);
    removeLod(world, far!);
    expect(holders(world, 'Lod')).toEqual([near]);
    step(world, 0.1); // the flush: far is animated over its pending seconds and this frame's
    expect(world.components.Lod.dt[far!]).toBeCloseTo(pending + 0.1, 12);
    step(world, 0.1);
    expect(world.components.Lod.enabled[far!]).toBe(LOD_OFF);
    expect(holders(world, 'Lod')).toEqual([near]);
    removeLod(world, far!); // no LOD: nothing happens
    expect(holders(world, 'Lod')).toEqual([near]);
    setLod(world, far!, { levels: 1 });
    expect(holders(world, 'Lod')).toEqual([near, far]);
    // A removal cancelled before its flush frame: the component is back.
    removeLod(world, near!);
    expect(holders(world, 'Lod')).toEqual([far]);
    setLod(world, near!, { levels: 1 });
    expect(holders(world, 'Lod')).toEqual([near, far]);
  });

  it('removeCharacter removes every component; a respawn on the same id starts with none of its state', () => {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 16 });
    const skeleton = humanoid();
    const keep = spawnCharacter(world, skeleton, { rootMotion: true });
    const gone = spawnCharacter(world, skeleton, { rootMotion: true });
    for (const eid of [keep, gone]) {
      setLookAt(world, eid, { joint: 'head' });
      setReach(world, eid, { ...ARM, follower: 2 });
      setLod(world, eid, { levels: 1 });
    }
    for (const name of ALL) expect(holders(world, name), name).toEqual([keep, gone]);
    removeCharacter(world, gone);
    for (const name of ALL) expect(holders(world, name), name).toEqual([keep]);
    const again = spawnCharacter(world, skeleton);
    expect(again).toBe(gone); // bitecs recycles the id
    for (const name of SPAWNED) expect(holders(world, name), name).toEqual([keep, again]);
    for (const name of ['RootMotion', 'Follower', 'LookAt', 'Reach', 'Lod'] as const) expect(holders(world, name), name).toEqual([keep]);
  });

  it('in a game-supplied bitecs world: beside the game components, and only on characters', () => {
    const game = createWorld();
    const Health = { value: new Float32Array(64) };
    const Enemy = {};
    // Game entities before the animation world exists, and between characters.
    const props = [addEntity(game), addEntity(game)];
    for (const eid of props) addComponent(game, eid, Health);
    const world = createAnimationWorld({ maxEntities: 63, maxJoints: 16, world: game });
    expect(world.ecs).toBe(game);
    const skeleton = humanoid();
    const heroes: number[] = [];
    for (let n = 0; n < 6; n++) {
      const eid = spawnCharacter(world, skeleton, { rootMotion: n % 2 === 0 });
      heroes.push(eid);
      addComponent(game, eid, Health);
      if (n % 3 === 0) addComponent(game, eid, Enemy);
      props.push(addEntity(game));
    }
    setFollowTarget(world, heroes[0]!, 0, 1, 1);
    setFollowTarget(world, heroes[3]!, 0, 1, 1);
    setFollowTarget(world, heroes[4]!, 0, 1, 1);
    expect(sorted(query(game, [world.components.Follower]))).toEqual([heroes[0], heroes[3], heroes[4]]);
    // Combined with the game's own components, as any bitecs query.
    expect(sorted(query(game, [Enemy, world.components.Follower]))).toEqual([heroes[0], heroes[3]]);
    expect(sorted(query(game, [Health, world.components.RootMotion]))).toEqual([heroes[0], heroes[2], heroes[4]]);
    expect(sorted(query(game, [world.components.Character]))).toEqual(heroes);
    for (const eid of props) for (const name of ALL) expect(hasComponent(game, eid, world.components[name])).toBe(false);
    // The game removes an entity itself: its animation components go with it.
    removeEntity(game, heroes[3]!);
    expect(sorted(query(game, [Enemy, world.components.Follower]))).toEqual([heroes[0]]);
    removeCharacter(world, heroes[0]!);
    expect(sorted(query(game, [world.components.Follower]))).toEqual([heroes[4]]);
    expect(sorted(query(game, [Health]))).toEqual(sorted([...props.slice(0, 2), heroes[1]!, heroes[2]!, heroes[4]!, heroes[5]!]));
  });

  it('observers and registered queries see each add and remove once', () => {
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 16 });
    const skeleton = humanoid();
    const log: string[] = [];
    observe(world.ecs, onAdd(world.components.Follower), (eid: number) => { log.push(`+${eid}`); });
    observe(world.ecs, onRemove(world.components.Follower), (eid: number) => { log.push(`-${eid}`); });
    const following = registerQuery(world.ecs, [world.components.Follower]);
    const eid = spawnCharacter(world, skeleton);
    setFollowTarget(world, eid, 0, 1, 1);
    setFollowTarget(world, eid, 0, 2, 1); // running: no add
    setFollower(world, eid, { slot: 1 }); // a second slot: already has it
    expect(Array.from(following.dense)).toEqual([eid]);
    removeFollower(world, eid, 0);
    removeFollower(world, eid, 1);
    commitRemovals(world.ecs); // a registered query's removals are deferred to this, as bitecs does
    expect(Array.from(following.dense)).toEqual([]);
    expect(log).toEqual([`+${eid}`, `-${eid}`]);
  });

  it('a seeded random run of calls: each query equals the set a model of the calls predicts, and the flags agree', () => {
    const world = createAnimationWorld({ maxEntities: 12, maxJoints: 16 });
    const skeleton = humanoid();
    const clip = syntheticClip(skeleton, { seed: 5 });
    const random = createRandom(13);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    // The model: what each call should leave, kept apart from the components.
    const live = new Set<number>();
    const rootMotion = new Set<number>();
    const slots = new Map<number, Set<number>>();
    const looking = new Set<number>();
    const reaching = new Set<number>();
    const lod = new Set<number>();
    const expected = (name: Name): number[] => {
      switch (name) {
        case 'RootMotion': return sorted(rootMotion);
        case 'Follower': return sorted([...slots].filter(([, s]) => s.size > 0).map(([eid]) => eid));
        case 'LookAt': return sorted(looking);
        case 'Reach': return sorted(reaching);
        case 'Lod': return sorted(lod);
        default: return sorted(live);
      }
    };
    const counts = new Map<string, number>();
    for (let n = 0; n < 600; n++) {
      const r = random();
      const eid = live.size > 0 ? pick(sorted(live)) : 0;
      const slot = Math.floor(random() * FOLLOW_SLOTS);
      let op: string;
      if (live.size === 0 || (r < 0.12 && live.size < 12)) {
        op = 'spawn';
        const moves = random() < 0.5;
        const id = spawnCharacter(world, skeleton, { rootMotion: moves, z: 3 + 10 * random() });
        play(world, id, clip, { time: random() });
        live.add(id);
        if (moves) rootMotion.add(id);
        slots.set(id, new Set());
      } else if (r < 0.2) {
        op = 'remove';
        removeCharacter(world, eid);
        for (const set of [live, rootMotion, looking, reaching, lod]) set.delete(eid);
        slots.delete(eid);
      } else if (r < 0.32) {
        op = 'target';
        setFollowTarget(world, eid, random(), 1 + random(), 2, slot);
        slots.get(eid)!.add(slot);
      } else if (r < 0.4) {
        op = 'follower';
        setFollower(world, eid, { slot, duration: 0.2 + random() });
        slots.get(eid)!.add(slot);
      } else if (r < 0.5) {
        op = 'removeFollower';
        const all = random() < 0.3;
        removeFollower(world, eid, all ? undefined : slot);
        if (all) slots.get(eid)!.clear(); else slots.get(eid)!.delete(slot);
      } else if (r < 0.57) {
        op = 'lookAt';
        setLookAt(world, eid, { joint: 'head', follower: slot });
        looking.add(eid);
        slots.get(eid)!.add(slot);
      } else if (r < 0.62) {
        op = 'clearLookAt';
        clearLookAt(world, eid);
        looking.delete(eid);
      } else if (r < 0.69) {
        op = 'reach';
        setReach(world, eid, { ...ARM, follower: slot });
        reaching.add(eid);
        slots.get(eid)!.add(slot);
      } else if (r < 0.74) {
        op = 'clearReach';
        clearReach(world, eid);
        reaching.delete(eid);
      } else if (r < 0.81) {
        op = 'lod';
        setLod(world, eid, { levels: 2, distances: [8], updateEvery: [1, 3] });
        lod.add(eid);
      } else if (r < 0.86) {
        op = 'removeLod';
        removeLod(world, eid);
        lod.delete(eid);
      } else {
        op = 'step';
        step(world, 1 / 30);
      }
      counts.set(op, (counts.get(op) ?? 0) + 1);
      for (const name of ALL) {
        expect(holders(world, name), `${name} after call ${n} (${op})`).toEqual(expected(name));
        for (const id of live) expect(hasComponent(world.ecs, id, world.components[name]), `${name} of ${id}`).toBe(flagged(world, name, id));
      }
    }
    // Every kind of call was made often enough to matter.
    for (const op of ['spawn', 'remove', 'target', 'follower', 'removeFollower', 'lookAt', 'clearLookAt', 'reach', 'clearReach', 'lod', 'removeLod', 'step']) {
      expect(counts.get(op) ?? 0, op).toBeGreaterThanOrEqual(10);
    }
  });
});
