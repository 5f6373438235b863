/**
 * inertializeSystem run alone (with the sampleSystem and blendSystem that feed it) on a world
 * built here: three characters, the middle one removed, transitions pending on the other two.
 * Checks the captured offsets and outputs against hand derivations, and that nothing outside
 * the live characters' blocks is written: the removed entity's blocks and state, a bare
 * entity without animation components, eid 0, unused ids and the spare joint rows of each
 * block (maxJoints 3 for a 2-joint skeleton) keep their sentinels.
 */
import { addEntity } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, play, removeCharacter, spawnCharacter, transition, type AnimationWorld } from '../../src/index.js';
import {
  INERTIA_QUINTIC,
  INERTIA_SPRING,
  DEFAULT_MAX_LAYERS,
  POSE_STRIDE,
  SLOT_STRIDE,
  blendSystem,
  clampInertializeTime,
  inertializeCurve,
  inertializeSystem,
  sampleSystem,
  springDecay,
} from '../../src/kernels.js';
import { FRAME_DT, motionClip, rig, ROTATION, TRANSLATION } from './helpers.js';
import { A, B_MOVING, T1 } from './scene.js';

const MAX_JOINTS = 3;
const JOINTS = 2;
const WARM_UP = 10;

function runSystems(world: AnimationWorld, dt: number): void {
  sampleSystem(world, dt);
  blendSystem(world, dt);
  inertializeSystem(world, dt);
}

/** Every typed array of the Layers, LocalPose and Inertialization components, by name. */
function arrays(world: AnimationWorld): Record<string, Float32Array | Float64Array | Uint8Array | Int32Array> {
  const { Layers, LocalPose, Inertialization } = world.components;
  const out: Record<string, Float32Array | Float64Array | Uint8Array | Int32Array> = { 'LocalPose.data': LocalPose.data };
  for (const [name, array] of Object.entries(Layers)) if (ArrayBuffer.isView(array)) out[`Layers.${name}`] = array as Float32Array; // not maxLayers (a number)
  for (const [name, array] of Object.entries(Inertialization)) out[`Inertialization.${name}`] = array;
  return out;
}

/**
 * Index ranges [from, to) of `name` that live characters `eids` may write this frame (their
 * transition slots `slots[eid]`: the source poses the request wrote there, then the offsets).
 */
function liveRanges(name: string, eids: readonly number[], slots: Int32Array): [number, number][] {
  const poseSize = MAX_JOINTS * POSE_STRIDE;
  const ranges: [number, number][] = [];
  for (const eid of eids) {
    if (name === 'LocalPose.data') ranges.push([eid * poseSize, eid * poseSize + JOINTS * POSE_STRIDE]);
    else if (name === 'Inertialization.slots') {
      const off = slots[eid]! * MAX_JOINTS * SLOT_STRIDE;
      ranges.push([off, off + MAX_JOINTS * SLOT_STRIDE]);
    } else if (name === 'Inertialization.slotOwner') ranges.push([slots[eid]!, slots[eid]! + 1]);
    else if (name === 'Layers.pose') {
      const li = eid * DEFAULT_MAX_LAYERS; // only layer 0 plays
      ranges.push([li * poseSize, li * poseSize + JOINTS * POSE_STRIDE]);
    } else if (name === 'Layers.rootDelta') ranges.push([eid * DEFAULT_MAX_LAYERS * 3, (eid + 1) * DEFAULT_MAX_LAYERS * 3]);
    else if (name.startsWith('Layers.')) ranges.push([eid * DEFAULT_MAX_LAYERS, (eid + 1) * DEFAULT_MAX_LAYERS]);
    else ranges.push([eid, eid + 1]);
  }
  return ranges;
}

describe('inertializeSystem alone', () => {
  it('captures and applies the pending transitions of live characters and touches no other block', () => {
    const skeleton = rig();
    const a = motionClip(skeleton, A, 'A');
    const b = motionClip(skeleton, B_MOVING, 'B');
    const world = createAnimationWorld({ maxEntities: 6, maxJoints: MAX_JOINTS });
    const [e1, e2, e3] = [spawnCharacter(world, skeleton), spawnCharacter(world, skeleton), spawnCharacter(world, skeleton)] as [number, number, number];
    for (const eid of [e1, e2, e3]) play(world, eid, a);
    for (let n = 0; n < WARM_UP; n++) runSystems(world, FRAME_DT);
    removeCharacter(world, e2);
    const bare = addEntity(world.ecs); // an entity of the game without animation components
    expect(Array.from(world.characters.dense).sort()).toEqual([e1, e3]);

    transition(world, e1, b, { duration: T1 });
    transition(world, e3, b, { duration: T1, mode: 'spring' });

    // Sentinels: NaN in every float outside the live runs; the removed entity keeps a stale
    // "spring in progress" with a clip on its layer 0, so a visit would show (blend writes its
    // pose, the spring decays the offsets in its stale slot, sample moves its time).
    const { Layers, Inertialization: I } = world.components;
    expect(I.slot[e1]).not.toBe(I.slot[e3]);
    for (const [name, array] of Object.entries(arrays(world))) {
      if (!(array instanceof Float32Array || array instanceof Float64Array)) continue;
      const live = liveRanges(name, [e1, e3], I.slot);
      for (let i = 0; i < array.length; i++) if (!live.some(([from, to]) => i >= from && i < to)) array[i] = Number.NaN;
    }
    const stale = e2 * DEFAULT_MAX_LAYERS;
    Layers.clip[stale] = world.assets.clipIds.get(a)!;
    Layers.weight[stale] = 1;
    Layers.speed[stale] = 1;
    Layers.time[stale] = 0.3;
    I.mode[e2] = INERTIA_SPRING;
    I.pending[e2] = 1;
    I.pendingMode[e2] = INERTIA_QUINTIC;
    I.halfLife[e2] = 0.1;
    I.lastDt[e2] = FRAME_DT;
    const staleSlot = 5;
    expect(I.slotOwner[staleSlot]).toBe(0);
    I.slot[e2] = staleSlot;
    I.slotOwner[staleSlot] = e2;
    I.slots.fill(0.25, staleSlot * MAX_JOINTS * SLOT_STRIDE, (staleSlot + 1) * MAX_JOINTS * SLOT_STRIDE);
    const before = Object.fromEntries(Object.entries(arrays(world)).map(([name, array]) => [name, array.slice()]));

    runSystems(world, FRAME_DT);

    // Nothing outside the live runs changed (NaN sentinels compared with Object.is).
    for (const [name, array] of Object.entries(arrays(world))) {
      const live = liveRanges(name, [e1, e3], I.slot);
      const old = before[name]!;
      const changed: number[] = [];
      for (let i = 0; i < array.length; i++) {
        if (!live.some(([from, to]) => i >= from && i < to) && !Object.is(array[i], old[i])) changed.push(i);
      }
      expect(changed, `${name} written outside the live characters' blocks (bare entity ${bare})`).toEqual([]);
    }

    // The live characters: offsets captured one frame back, then applied.
    expect(I.pending[e1]).toBe(0);
    expect(I.pending[e3]).toBe(0);
    expect(I.mode[e1]).toBe(INERTIA_QUINTIC);
    expect(I.mode[e3]).toBe(INERTIA_SPRING);
    expect(I.elapsed[e1]).toBeCloseTo(FRAME_DT, 7);
    const poseSize = MAX_JOINTS * POSE_STRIDE;
    const local = world.components.LocalPose.data;
    const tA = WARM_UP * FRAME_DT;
    for (const channel of [TRANSLATION, ROTATION]) {
      const x0 = channel.at(A, tA) - channel.at(B_MOVING, 0);
      const v0 = channel.velocity(A) - channel.velocity(B_MOVING);
      const quintic = channel.at(B_MOVING, FRAME_DT) + inertializeCurve(x0, v0, T1, FRAME_DT);
      const spring = new Float64Array(2);
      springDecay(spring, x0, v0, T1 / 6, FRAME_DT);
      const e1Pose = local.subarray(e1 * poseSize, e1 * poseSize + JOINTS * POSE_STRIDE);
      const e3Pose = local.subarray(e3 * poseSize, e3 * poseSize + JOINTS * POSE_STRIDE);
      expect(Math.abs(channel.diff(quintic, channel.read(e1Pose))), `${channel.name} quintic`).toBeLessThan(2e-5);
      expect(Math.abs(channel.diff(channel.at(B_MOVING, FRAME_DT) + spring[0]!, channel.read(e3Pose))), `${channel.name} spring`).toBeLessThan(2e-5);
    }
    // Quintic offsets of e1 (18 floats per joint at the start of its slot): the direction, then
    // the clamped curve parameters x0, v0·t1, 1/t1. Root translation along −X, x0 = 4/3 m,
    // v0 = −0.75 m/s on −X; the arm's rotation about −Z by 2.2667 rad.
    const o = I.slot[e1]! * MAX_JOINTS * SLOT_STRIDE;
    const rootX0 = TRANSLATION.at(B_MOVING, 0) - TRANSLATION.at(A, tA);
    const rootV0 = -(TRANSLATION.velocity(A) - TRANSLATION.velocity(B_MOVING));
    const rootT1 = clampInertializeTime(rootX0, rootV0, T1);
    const rootExpected = [-1, 0, 0, rootX0, rootV0 * rootT1, 1 / rootT1];
    for (let c = 0; c < 6; c++) expect(I.slots[o + c], `root offset float ${c}`).toBeCloseTo(rootExpected[c]!, 4);
    const arm = o + 18 + 6;
    const armX0 = ROTATION.at(B_MOVING, 0) - ROTATION.at(A, tA);
    const armV0 = -(ROTATION.velocity(A) - ROTATION.velocity(B_MOVING));
    const armT1 = clampInertializeTime(armX0, armV0, T1);
    expect(I.slots[arm + 2]).toBeCloseTo(-1, 6);
    expect(I.slots[arm + 3]).toBeCloseTo(armX0, 5);
    expect(I.slots[arm + 4]).toBeCloseTo(armV0 * armT1, 3);
    expect(I.slots[arm + 5]).toBeCloseTo(1 / armT1, 4);
  });
});
