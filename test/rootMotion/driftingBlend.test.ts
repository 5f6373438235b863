/**
 * The drift bound of `setTargetSpeed` (travel per cycle under 5 % of the hip height:
 * test/rootMotion/driftingInPlace.test.ts) where a remembered target speed is re-derived: a blend
 * space's point (`setBlendSpace`) and a state machine's blend-space states. Variants made here
 * from Fox.glb: its in-place Walk with 2 mm of drift per cycle added to its root; its Walk and
 * Run given their feet's travel (`rootMotionFromFeet`); a clip held exactly still.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createBlendSpace, createClip, createStateMachine, loadGltf, play, rootMotionFromFeet, setBlendSpace, setStateMachine,
  setTargetSpeed, spawnCharacter, step, type Clip,
} from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { readAsset } from '../support/assets.js';

const FOX_FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
const fox = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
const named = (name: string): Clip => fox.clips.find((c) => c.name === name)!;
const skeleton = fox.skeletons[0]!;

/** `clip` with its root (joint 0) moved `drift` m along +Z over the cycle, linearly. */
function withDrift(clip: Clip, drift: number, name = `${clip.name} drifting`): Clip {
  const size = clip.skeleton.jointCount * POSE_STRIDE;
  const frames = Float32Array.from(clip.frames);
  for (let f = 0; f < clip.frameCount; f++) frames[f * size + 2] += (drift * f) / (clip.frameCount - 1);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, name });
}

/** `clip`'s first frame held for its whole duration: a cycle exactly in place. */
function still(clip: Clip): Clip {
  const size = clip.skeleton.jointCount * POSE_STRIDE;
  const frames = new Float32Array(clip.frames.length);
  for (let f = 0; f < clip.frameCount; f++) frames.set(clip.frames.subarray(0, size), f * size);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, name: `${clip.name} still` });
}

const drifting = withDrift(named('Walk'), 0.002);
const walk = rootMotionFromFeet(named('Walk'), { feet: FOX_FEET });
const run = rootMotionFromFeet(named('Run'), { feet: FOX_FEET });
const horizontal = (clip: Clip): number => Math.hypot(getRootTrack(clip).cycle[0]!, getRootTrack(clip).cycle[2]!);

function character() {
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: skeleton.jointCount });
  return { world, eid: spawnCharacter(world, skeleton, { rootMotion: true }) };
}

describe('setBlendSpace with a remembered target speed', () => {
  const space = createBlendSpace({ type: '1d', samples: [{ clip: drifting, x: 0 }, { clip: run, x: 3 }] });

  it('the variants are what they say: 2 mm of drift, under 5 % of the Fox\'s hips; the run far above', () => {
    expect(Math.abs(horizontal(drifting) - 0.002)).toBeLessThan(1e-4);
    expect(0.002).toBeLessThan(0.05 * skeleton.hipHeight);
    expect(horizontal(run)).toBeGreaterThan(0.1 * skeleton.hipHeight);
    expect(horizontal(still(named('Walk')))).toBe(0);
  });

  it('refuses a point where only the drifting walk weighs, naming it and rootMotionFromFeet; nothing changes', () => {
    const { world, eid } = character();
    setBlendSpace(world, eid, space, 3);
    setTargetSpeed(world, eid, 1.4);
    const { Layers } = world.components;
    const before = [Array.from(Layers.clip), Array.from(Layers.weight), Array.from(Layers.speed)];
    expect(() => setBlendSpace(world, eid, space, 0)).toThrow(
      /^setBlendSpace: clip "Walk drifting" at the point \(0, 0\) of the space, travels 2 mm per cycle on this character, under 5 % of its hip height \(21\.5 mm of 0\.429\d* m\): it is an in-place clip whose root drifts, and the character's target speed \(1\.4 m\/s, set by setTargetSpeed\) would play it far too fast/);
    expect(() => setBlendSpace(world, eid, space, 0)).toThrow(/rootMotionFromFeet\(clip, \{ feet \}\)/);
    expect([Array.from(Layers.clip), Array.from(Layers.weight), Array.from(Layers.speed)]).toEqual(before);
    // Where the run weighs in too, also refused: the stride scales fit the run's travel to the
    // drift's (without the check, measured: rate 248× at 1.5, 166× at 2).
    expect(() => setBlendSpace(world, eid, space, 1.5)).toThrow(/^setBlendSpace: clip "Walk drifting" at the point \(1\.5, 0\)/);
    expect([Array.from(Layers.clip), Array.from(Layers.weight), Array.from(Layers.speed)]).toEqual(before);
    // Where only the run weighs, accepted.
    setBlendSpace(world, eid, space, 3);
  });

  it('setTargetSpeed itself refuses the half-blended point: the stride scales bring the run under the bound too', () => {
    // No target speed while blending, then setTargetSpeed's own refusal of the drifting blend.
    const { world, eid } = character();
    setBlendSpace(world, eid, space, 1.5);
    expect(() => setTargetSpeed(world, eid, 1.4)).toThrow(/^setTargetSpeed: clip|^setTargetSpeed: clips/);
  });

  it('without a target speed the same point plays; a space with the walk\'s feet\'s travel is accepted at every point', () => {
    const { world, eid } = character();
    setBlendSpace(world, eid, space, 0);
    const good = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 0 }, { clip: run, x: 3 }] });
    const other = character();
    setBlendSpace(other.world, other.eid, good, 3);
    setTargetSpeed(other.world, other.eid, 1.4);
    for (const x of [0, 0.5, 1.5, 3]) setBlendSpace(other.world, other.eid, good, x);
  });

  it('a clip exactly in place is no drift (its rate is kept, as for an idle blend): accepted', () => {
    const idle = createBlendSpace({ type: '1d', samples: [{ clip: still(named('Walk')), x: 0 }, { clip: run, x: 3 }] });
    const { world, eid } = character();
    setBlendSpace(world, eid, idle, 3);
    setTargetSpeed(world, eid, 1.4);
    setBlendSpace(world, eid, idle, 0);
  });

  it('on a figure with 3 cm hips, 2 mm is a stride: accepted there', async () => {
    const small = await loadGltf(readAsset('Fox.glb'), { scale: 0.0007 });
    const s = small.skeletons[0]!;
    expect(0.05 * s.hipHeight).toBeLessThan(0.002);
    const smallRun = rootMotionFromFeet(small.clips.find((c) => c.name === 'Run')!, { feet: FOX_FEET });
    const smallSpace = createBlendSpace({ type: '1d', samples: [{ clip: withDrift(small.clips.find((c) => c.name === 'Walk')!, 0.002), x: 0 }, { clip: smallRun, x: 3 }] });
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: s.jointCount });
    const eid = spawnCharacter(world, s, { rootMotion: true });
    setBlendSpace(world, eid, smallSpace, 3);
    setTargetSpeed(world, eid, 0.01);
    setBlendSpace(world, eid, smallSpace, 0);
  });
});

describe('setTargetSpeed on a character whose state machine blends a drifting clip', () => {
  const machine = (first: Clip) => createStateMachine({
    name: 'fox',
    parameters: [{ name: 'speed', type: 'float', default: 3 }],
    states: [{ name: 'move', blendSpace: 'loco', x: 'speed' }],
    initial: 'move',
  }, { blendSpaces: { loco: createBlendSpace({ type: '1d', samples: [{ clip: first, x: 0 }, { clip: run, x: 3 }] }) } });

  it('is refused, naming the machine, the state and the clip, though the blend playing now (the run) travels', () => {
    const { world, eid } = character();
    setStateMachine(world, eid, machine(drifting));
    step(world, 0);
    expect(() => setTargetSpeed(world, eid, 1.4)).toThrow(
      /^setTargetSpeed: clip "Walk drifting" in state "move" of state machine "fox", blended where it alone weighs, travels 2 mm per cycle on this character, under 5 % of its hip height .*rootMotionFromFeet/);
    expect(world.components.RootMotion.targetSpeed[eid]).toBe(-1); // nothing changed
  });

  it('with the walk\'s feet\'s travel, accepted', () => {
    const { world, eid } = character();
    setStateMachine(world, eid, machine(walk));
    step(world, 0);
    setTargetSpeed(world, eid, 1.4);
    expect(world.components.RootMotion.targetSpeed[eid]).toBeCloseTo(1.4, 6);
  });
});
