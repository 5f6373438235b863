/**
 * Foot locking beyond the CMU walk: the second CMU take (forward jumps: take-offs and landings),
 * the Fox's in-place Walk on four legs moved at 1.25× its own pace, the CMU walk retargeted onto
 * RobotExpressive, and a teleport. Skate is measured in world space over the contacts the clips
 * show (detectFootContacts), as in capture.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bindSkeletons, createAnimationWorld, createSkeleton, detectFootContacts, getModelMatrices, humanoidMap, loadGltf, parseBvh, play, rootMotionFromFeet,
  setFootLock, setRootTransform, spawnCharacter, step, type Clip, type Skeleton,
} from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';
import { readAsset, readAssetText } from '../support/assets.js';
import { inPlace, playedTravel, runWalk } from './helpers.js';

const SCALE = 0.056444;
const mm = (v: number): string => (v * 1000).toFixed(2);

/** A looping clip's contact intervals repeated over `cycles` cycles from time 0 (a seam-crossing one split at nothing: it runs on into the next cycle). */
function overCycles(intervals: [number, number][], duration: number, cycles: number): [number, number][] {
  const out: [number, number][] = [];
  for (let c = 0; c < cycles; c++) {
    for (const [s, e] of intervals) out.push([s + c * duration, (e < s ? e + duration : e) + c * duration]);
  }
  return out.filter(([, e]) => e <= cycles * duration + 1e-9).map(([s, e]) => [Number(s.toFixed(9)), Number(e.toFixed(9))]);
}

describe('CMU 01_01 forward jumps in place, moved at 1.2× their travel', () => {
  const { skeleton, clip } = parseBvh(readAssetText('cmu_01_01_forward_jumps.bvh'), { scale: SCALE, name: 'jumps' });
  const map = humanoidMap(skeleton).joints;
  // Its ankles are LeftFoot and RightFoot (the humanoid map's feet).
  const contacts = detectFootContacts(clip, { feet: [map.leftFoot!, map.rightFoot!] });
  const still = inPlace(contacts.clip);
  const joint = (n: string | undefined) => skeleton.names.indexOf(n!);
  const legs = (['left', 'right'] as const).map((side, k) => ({
    upper: joint(map[`${side}UpperLeg`]), lower: joint(map[`${side}LowerLeg`]), foot: joint(map[`${side}Foot`]), intervals: contacts.contacts[k]!.intervals,
  }));
  const run = (lock: boolean) => runWalk({
    skeleton, clip: still.clip, frames: still.clip.frameCount, legs, lock: lock ? {} : null,
    at: (f) => [1.2 * still.travel[f * 2]!, 1.2 * still.travel[f * 2 + 1]!],
  });

  it('skate per contact ≤ 0.5 % of the hip height and ≥ 80 % below the run without locking; knees within 30°', () => {
    const locked = run(true), free = run(false);
    const hips = getRootTrack(clip).hipHeight;
    console.log(`CMU jumps 1.2×: skate mean ${mm(locked.skate.mean)} mm, max ${mm(locked.skate.max)} mm over ${locked.skate.contacts} contacts; without locking mean ${mm(free.skate.mean)} mm, max ${mm(free.skate.max)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°; hips ${hips.toFixed(3)} m`);
    expect(locked.finite).toBe(true);
    expect(locked.skate.contacts).toBeGreaterThanOrEqual(4);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.005 * hips);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.2 * free.skate.mean);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});

describe('the Fox Walk in place, four legs, moved at 1.25× its pace', () => {
  const FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
  /** Each paw's two-bone chain: the hind legs thigh → shin (→ metatarsus, riding along) → paw; the front legs upper arm → forearm → hand. */
  const CHAINS: [string, string, string][] = [
    ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot02_018'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot02_022'],
    ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'], ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
  ];
  let skeleton: Skeleton, walk: Clip, pace: number, intervals: [number, number][][];
  beforeAll(async () => {
    const { skeletons, clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
    skeleton = skeletons[0]!;
    const source = clips.find((c) => c.name === 'Walk')!;
    // Its pace: the travel its planted paws give it (rootMotionFromFeet), per second, along +Z.
    const cycle = getRootTrack(rootMotionFromFeet(source, { feet: FEET })).cycle;
    pace = Math.hypot(cycle[0]!, cycle[2]!) / source.duration;
    const detected = detectFootContacts(source, { feet: FEET });
    walk = detected.clip;
    intervals = detected.contacts.map((c) => c.intervals);
  });

  it('skate per contact ≤ 0.5 % of the hip height and ≥ 80 % below the run without locking', () => {
    const cycles = 4;
    const frames = cycles * (walk.frameCount - 1) + 1;
    const index = (n: string) => skeleton.names.indexOf(n);
    const legs = CHAINS.map(([u, l, f], k) => ({ upper: index(u), lower: index(l), foot: index(f), intervals: overCycles(intervals[k]!, walk.duration, cycles) }));
    const lock = { legs: CHAINS.map(([upper, lower, foot]) => ({ upper, lower, foot })) };
    const run = (locking: boolean) => runWalk({
      skeleton, clip: walk, frames, legs, lock: locking ? lock : null, at: (f) => [0, 1.25 * pace * (f / walk.frameRate)],
    });
    const locked = run(true), free = run(false);
    const hips = skeleton.hipHeight;
    console.log(`Fox Walk 1.25× (${pace.toFixed(3)} m/s): skate mean ${mm(locked.skate.mean)} mm, max ${mm(locked.skate.max)} mm over ${locked.skate.contacts} contacts; without locking mean ${mm(free.skate.mean)} mm, max ${mm(free.skate.max)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°; hips ${hips.toFixed(3)} m`);
    expect(locked.finite).toBe(true);
    expect(locked.skate.contacts).toBeGreaterThanOrEqual(4 * (cycles - 1));
    expect(locked.skate.mean).toBeLessThanOrEqual(0.005 * hips);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.2 * free.skate.mean);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});

describe('the CMU walk retargeted onto RobotExpressive, locked', () => {
  let robot: Skeleton, walk: ReturnType<typeof inPlace>, contacts: ReturnType<typeof detectFootContacts>;
  let binding: ReturnType<typeof bindSkeletons>, travel: Float64Array;
  beforeAll(async () => {
    const bvh = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: SCALE, name: 'walk' });
    contacts = detectFootContacts(bvh.clip, { feet: ['LeftAnkle', 'RightAnkle'] });
    walk = inPlace(contacts.clip);
    robot = (await loadGltf(readAsset('RobotExpressive.glb'))).skeletons[0]!;
    binding = bindSkeletons(bvh.skeleton, robot);
    // The capture's travel as the robot plays it (its hips, through the binding: scaled by the hip
    // ratio and turned into the robot's heading), from the travelling clip.
    travel = playedTravel(robot, contacts.clip, robot.names.indexOf(humanoidMap(robot).joints.hips!), binding);
  });

  // Between 2.2 s and 4.2 s the capture turns by ~100° and crouches; on the robot (shins 2.3× the
  // capture's, hips 1.6×, IK feet the binding places) the animated feet then sweep 0.9–1.3 m over
  // each of the two contacts there, beyond the unlock radius (0.3 leg lengths): those two locks
  // are released by design, and their contacts skate. Every other contact is held.
  it('skate ≤ 0.5 % of the robot\'s hip height on every contact but the two of the turn, whose locks are released (legs from its humanoid map, its markers renamed to the robot\'s feet)', () => {
    const map = humanoidMap(robot).joints;
    const index = (n: string | undefined) => robot.names.indexOf(n!);
    const sides = ['left', 'right'] as const;
    // The clip played through the binding is baked onto the robot with its foot markers renamed
    // to the joints the capture's ankles drive (binding.pairs): the default legs (the humanoid
    // map's) find them under the robot's own foot names.
    const source = (side: (typeof sides)[number]) => binding.pairs.find((p) => p.target === map[`${side}Foot`])!.source;
    expect([source('left'), source('right')]).toEqual(['LeftAnkle', 'RightAnkle']);
    const legs = sides.map((side, k) => ({
      upper: index(map[`${side}UpperLeg`]), lower: index(map[`${side}LowerLeg`]), foot: index(map[`${side}Foot`]), intervals: contacts.contacts[k]!.intervals,
    }));
    const ratio = binding.hipRatio;
    const run = (lock: boolean) => runWalk({
      skeleton: robot, clip: walk.clip, binding, frames: walk.clip.frameCount, legs, lock: lock ? {} : null,
      at: (f) => [1.2 * travel[f * 2]!, 1.2 * travel[f * 2 + 1]!],
    });
    const locked = run(true), free = run(false);
    const hips = robot.hipHeight;
    console.log(`CMU walk on RobotExpressive 1.2× (hip ratio ${ratio.toFixed(3)}): skate mean ${mm(locked.skate.mean)} mm, max ${mm(locked.skate.max)} mm over ${locked.skate.contacts} contacts; without locking mean ${mm(free.skate.mean)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°; hips ${hips.toFixed(3)} m`);
    console.log(`  per contact, locked: ${locked.skate.feet.map((f) => f.distances.map(mm).join(' ')).join(' | ')}; free: ${free.skate.feet.map((f) => f.distances.map(mm).join(' ')).join(' | ')}`);
    expect(locked.finite).toBe(true);
    // A contact not held lies in the turn, where the animated foot sweeps beyond the unlock radius (0.3 × the 1.54 m leg).
    let released = 0;
    locked.skate.feet.forEach((foot, k) => foot.distances.forEach((d, n) => {
      if (d <= 0.005 * hips) return;
      released++;
      const [s, e] = contacts.contacts[k]!.intervals[n]!;
      expect(e > 2.2 && s < 4.2, `contact ${k}:${n} (${s.toFixed(2)}–${e.toFixed(2)} s) lies in the turn`).toBe(true);
      expect(free.skate.feet[k]!.distances[n]!, `contact ${k}:${n}: the animated foot sweeps beyond the unlock radius`).toBeGreaterThan(0.3 * 1.5);
    }));
    expect(released).toBeLessThanOrEqual(2);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});

describe('the CMU walk retargeted onto a 1.3× copy of its own skeleton, locked', () => {
  // The other body of the retargeting case: the capture's skeleton with every bone 1.3× as long
  // (rest translations scaled), bound by names (hips scaled by the hip ratio, bones their own).
  it('skate ≤ 0.5 % of the copy\'s hip height per contact and ≥ 80 % below the run without locking', () => {
    const bvh = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: SCALE, name: 'walk' });
    const cmu = bvh.skeleton;
    const rest = Float32Array.from(cmu.rest);
    for (let j = 0; j < cmu.jointCount; j++) for (let c = 0; c < 3; c++) rest[j * 10 + c]! *= 1.3;
    const tall = createSkeleton({ names: cmu.names, parents: cmu.parents, rest });
    const contacts = detectFootContacts(bvh.clip, { feet: ['LeftAnkle', 'RightAnkle'] });
    const walk = inPlace(contacts.clip);
    const binding = bindSkeletons(cmu, tall);
    expect(binding.hipRatio).toBeCloseTo(1.3, 3);
    const index = (n: string) => tall.names.indexOf(n);
    const travel = playedTravel(tall, contacts.clip, tall.hipJoint, binding);
    const legs = [['LeftHip', 'LeftKnee', 'LeftAnkle'], ['RightHip', 'RightKnee', 'RightAnkle']].map(([u, l, f], k) => ({
      upper: index(u!), lower: index(l!), foot: index(f!), intervals: contacts.contacts[k]!.intervals,
    }));
    const run = (lock: boolean) => runWalk({
      skeleton: tall, clip: walk.clip, binding, frames: walk.clip.frameCount, legs, lock: lock ? {} : null,
      at: (f) => [1.2 * travel[f * 2]!, 1.2 * travel[f * 2 + 1]!],
    });
    const locked = run(true), free = run(false);
    const hips = 1.3 * getRootTrack(bvh.clip).hipHeight;
    console.log(`CMU walk on its 1.3× copy 1.2×: skate mean ${mm(locked.skate.mean)} mm, max ${mm(locked.skate.max)} mm over ${locked.skate.contacts} contacts; without locking mean ${mm(free.skate.mean)} mm; knee ≤ ${locked.kneeDegrees.toFixed(1)}°; hips ${hips.toFixed(3)} m`);
    expect(locked.finite).toBe(true);
    expect(locked.skate.contacts).toBeGreaterThanOrEqual(10);
    // Skate in metres per contact (measureFootSkate's mean), as the CMU walk on its own skeleton.
    expect(locked.skate.mean).toBeLessThanOrEqual(0.005 * hips);
    expect(locked.skate.mean).toBeLessThanOrEqual(0.2 * free.skate.mean);
    expect(locked.kneeDegrees).toBeLessThanOrEqual(30);
  });
});

describe('a teleport', () => {
  it('lets the old locks go (the legs cannot reach them), leaves every pose value finite, and the feet lock again at the new place', () => {
    const { skeleton, clip } = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: SCALE, name: 'walk' });
    const still = inPlace(detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] }).clip);
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, still.clip, { loop: false });
    setFootLock(world, eid);
    const { locked } = world.components.FootLock;
    const rate = still.clip.frameRate;
    for (let f = 0; f < 300; f++) {
      setRootTransform(world, eid, { x: 1.2 * still.travel[f * 2]!, z: 1.2 * still.travel[f * 2 + 1]! });
      step(world, f === 0 ? 0 : 1 / rate);
    }
    const before = [locked[eid * 4]!, locked[eid * 4 + 1]!];
    expect(before.some((l) => l === 1)).toBe(true);
    setRootTransform(world, eid, { x: 100, z: -50, yaw: 1 });
    step(world, 1 / rate);
    // The old locks are let go: a foot still planted locks anew where it now stands, near the new
    // place (the capture stands ~2 m from its model origin), never back at the old one (112 m away).
    const { lock } = world.components.FootLock;
    for (let leg = 0; leg < 2; leg++) {
      const r = eid * 4 + leg;
      if (locked[r] === 1) expect(Math.hypot(lock[r * 3]! - 100, lock[r * 3 + 2]! + 50), `leg ${leg}`).toBeLessThan(5);
    }
    expect(getModelMatrices(world, eid).every(Number.isFinite)).toBe(true);
    let relocked = false;
    for (let f = 301; f < 700; f++) {
      step(world, 1 / rate);
      expect(getModelMatrices(world, eid).every(Number.isFinite)).toBe(true);
      if (locked[eid * 4] === 1 || locked[eid * 4 + 1] === 1) relocked = true;
    }
    expect(relocked).toBe(true);
  });
});
