/**
 * resolveJointMap: the joint map a binding is built on, under each `joints` rule — names,
 * humanoid, auto (and where 'auto' switches), a record — and the maps it refuses.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimationError, humanoidMap, loadGltf, parseBvh, type Skeleton } from '../../src/index.js';
import { resolveJointMap, type JointsOption } from '../../src/assets/humanoid/jointMap.js';
import { CMU_SCALE } from '../fixtures/realClips.js';
import { ASSETS_URL } from '../support/assets.js';
import { buildSkeleton, mixamo, rig, VRM } from './humanoidRigs.js';
import { refused } from '../fixtures/errors.js';

const gltfSkeleton = async (file: string): Promise<Skeleton> => (await loadGltf(new Uint8Array(readFileSync(new URL(file, ASSETS_URL))))).skeletons[0]!;
const cmu = parseBvh(readFileSync(new URL('cmu_131_01_start_walk_stop.bvh', ASSETS_URL), 'utf8'), { scale: CMU_SCALE }).skeleton;


/** Whether `a` is a proper ancestor of `b`. */
function above(skeleton: Skeleton, a: number, b: number): boolean {
  for (let j = skeleton.parents[b]!; j >= 0; j = skeleton.parents[j]!) if (j === a) return true;
  return false;
}

/** The checks every map must pass: sourceJoint and pairs agree, pairs in target order, no pair above another reads below it. */
function checkMap(source: Skeleton, target: Skeleton, map: ReturnType<typeof resolveJointMap>): void {
  expect(map.sourceJoint).toHaveLength(target.jointCount);
  const paired = map.pairs.map((p) => target.names.indexOf(p.target));
  expect(paired).toEqual([...paired].sort((a, b) => a - b));
  for (let t = 0; t < target.jointCount; t++) {
    const pair = map.pairs.find((p) => p.target === target.names[t]);
    expect(map.sourceJoint[t]).toBe(pair === undefined ? -1 : source.names.indexOf(pair.source));
  }
  for (const a of map.pairs) {
    for (const b of map.pairs) {
      const ta = target.names.indexOf(a.target), tb = target.names.indexOf(b.target);
      const sa = source.names.indexOf(a.source), sb = source.names.indexOf(b.source);
      if (above(target, ta, tb)) expect(above(source, sb, sa), `${a.target} above ${b.target}, ${a.source} below ${b.source}`).toBe(false);
    }
  }
}

describe("joints: 'names'", () => {
  it('pairs joints of the same name (the default), in target order; the others read nothing', () => {
    const full = buildSkeleton(rig(mixamo('mixamorig:')));
    const bare = buildSkeleton(rig({ ...mixamo('mixamorig:'), extras: [] })); // no fingers, no end sites
    const map = resolveJointMap(full, bare);
    expect(map.rule).toBe('names');
    expect(map.pairs.map((p) => p.target)).toEqual(bare.names);
    expect(map.pairs.every((p) => p.source === p.target && p.humanoid === undefined)).toBe(true);
    checkMap(full, bare, map);
    const back = resolveJointMap(bare, full, 'names');
    expect(back.pairs).toHaveLength(bare.jointCount);
    expect(full.names.filter((_, j) => back.sourceJoint[j] === -1)).toEqual(full.names.filter((n) => !bare.names.includes(n)));
  });
});

describe("joints: 'humanoid'", () => {
  it('CMU 131_01 → RobotExpressive: the 20 humanoid joints both have, in the Robot\'s joint order', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    const map = resolveJointMap(cmu, robot, 'humanoid');
    expect(map.rule).toBe('humanoid');
    // The printed map (target ← source, humanoid joint), in the Robot's joint order. The Robot
    // has no toes, so CMU's LeftToe/RightToe read nothing; its Bone, the fingers and the pole
    // targets keep their rest pose.
    //   Foot.L      ← LeftAnkle      leftFoot
    //   Body        ← Hips           hips
    //   Hips        ← lowerback      spine
    //   Abdomen     ← Chest          chest
    //   Torso       ← Chest2         upperChest
    //   Neck        ← lowerneck      neck
    //   Head        ← Head           head
    //   Shoulder.L  ← LeftCollar     leftShoulder
    //   UpperArm.L  ← LeftShoulder   leftUpperArm
    //   LowerArm.L  ← LeftElbow      leftLowerArm
    //   Palm2.L     ← LeftWrist      leftHand
    //   Shoulder.R  ← RightCollar    rightShoulder
    //   UpperArm.R  ← RightShoulder  rightUpperArm
    //   LowerArm.R  ← RightElbow     rightLowerArm
    //   Palm2.R     ← RightWrist     rightHand
    //   UpperLeg.L  ← LeftHip        leftUpperLeg
    //   LowerLeg.L  ← LeftKnee       leftLowerLeg
    //   UpperLeg.R  ← RightHip       rightUpperLeg
    //   LowerLeg.R  ← RightKnee      rightLowerLeg
    //   Foot.R      ← RightAnkle     rightFoot
    const printed = map.pairs.map((p) => `${p.target.padEnd(11)} ← ${p.source.padEnd(14)} ${p.humanoid}`);
    expect(printed).toEqual([
      'Foot.L      ← LeftAnkle      leftFoot',
      'Body        ← Hips           hips',
      'Hips        ← lowerback      spine',
      'Abdomen     ← Chest          chest',
      'Torso       ← Chest2         upperChest',
      'Neck        ← lowerneck      neck',
      'Head        ← Head           head',
      'Shoulder.L  ← LeftCollar     leftShoulder',
      'UpperArm.L  ← LeftShoulder   leftUpperArm',
      'LowerArm.L  ← LeftElbow      leftLowerArm',
      'Palm2.L     ← LeftWrist      leftHand',
      'Shoulder.R  ← RightCollar    rightShoulder',
      'UpperArm.R  ← RightShoulder  rightUpperArm',
      'LowerArm.R  ← RightElbow     rightLowerArm',
      'Palm2.R     ← RightWrist     rightHand',
      'UpperLeg.L  ← LeftHip        leftUpperLeg',
      'LowerLeg.L  ← LeftKnee       leftLowerLeg',
      'UpperLeg.R  ← RightHip       rightUpperLeg',
      'LowerLeg.R  ← RightKnee      rightLowerLeg',
      'Foot.R      ← RightAnkle     rightFoot',
    ]);
    // Every pair is the same humanoid joint in both maps.
    const from = humanoidMap(cmu), to = humanoidMap(robot);
    for (const pair of map.pairs) {
      expect(from.joints[pair.humanoid!], pair.target).toBe(pair.source);
      expect(to.joints[pair.humanoid!], pair.target).toBe(pair.target);
    }
    expect(map.pairs).toHaveLength(22 - to.missing.length - from.missing.length);
    checkMap(cmu, robot, map);
  });

  it('Mixamo rigs whose namespaces differ (mixamorig: and mixamorig1:) pair all 22 joints', () => {
    const a = buildSkeleton(rig(mixamo('mixamorig:'))), b = buildSkeleton(rig(mixamo('mixamorig1:')));
    const map = resolveJointMap(a, b, 'humanoid');
    expect(map.pairs).toHaveLength(22);
    expect(map.pairs.every((p) => p.target === p.source.replace('mixamorig:', 'mixamorig1:'))).toBe(true);
    checkMap(a, b, map);
  });

  it('refuses a skeleton that is not a humanoid, saying which', async () => {
    const fox = await gltfSkeleton('Fox.glb');
    const error = refused(() => resolveJointMap(fox, cmu, 'humanoid'));
    expect(error.where).toBe('bindSkeletons');
    expect(error.message).toContain("bindSkeletons: joints ('humanoid') the source skeleton (root \"_rootJoint\", 24 joints) is not a humanoid: its spine does not stand");
    expect(refused(() => resolveJointMap(cmu, fox, 'humanoid', 'play')).message).toMatch(/^play: joints \('humanoid'\) the target skeleton/);
  });
});

describe("joints: 'auto'", () => {
  it('names when more than half of the smaller skeleton\'s joints match, else humanoid', () => {
    const target = buildSkeleton(rig(mixamo('mixamorig:')));
    const n = target.jointCount;
    const keeping = (kept: number): Skeleton => {
      const joints = rig(mixamo('mixamorig1:'));
      const names = target.names; // same figure, same order: rename the first `kept` back
      return buildSkeleton(joints.map((j, i) => (i < kept ? { ...j, name: names[i]! } : j)));
    };
    const half = Math.floor(n / 2);
    expect(resolveJointMap(keeping(half + 1), target, 'auto').rule).toBe('names');
    expect(resolveJointMap(keeping(half + 1), target, 'auto').pairs).toHaveLength(half + 1);
    expect(resolveJointMap(keeping(half), target, 'auto').rule).toBe('humanoid');
    expect(resolveJointMap(keeping(half), target, 'auto').pairs).toHaveLength(22);
    expect(resolveJointMap(target, target, 'auto').rule).toBe('names');
  });

  it('CMU → RobotExpressive shares 3 names (Hips, Neck, Head) of 31: humanoid, where the Robot\'s Hips reads lowerback (its spine), not CMU\'s Hips', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    expect(resolveJointMap(cmu, robot, 'names').pairs.map((p) => p.target)).toEqual(['Hips', 'Neck', 'Head']);
    const map = resolveJointMap(cmu, robot, 'auto');
    expect(map.rule).toBe('humanoid');
    expect(map.pairs.find((p) => p.target === 'Hips')!.source).toBe('lowerback'); // the Robot's Hips is its spine
    expect(map.pairs).toEqual(resolveJointMap(cmu, robot, 'humanoid').pairs);
  });

  it('CMU 01_01 → CMU 131_01: 11 shared names of 31 (LeftShoulder among them, a clavicle in one, an upper arm in the other): humanoid', () => {
    const jumps = parseBvh(readFileSync(new URL('cmu_01_01_forward_jumps.bvh', ASSETS_URL), 'utf8'), { scale: CMU_SCALE }).skeleton;
    expect(resolveJointMap(jumps, cmu, 'names').pairs.map((p) => p.target)).toEqual([
      'Hips', 'LHipJoint', 'RHipJoint', 'Neck', 'Head', 'LeftShoulder', 'LFingers', 'LThumb', 'RightShoulder', 'RFingers', 'RThumb',
    ]);
    const map = resolveJointMap(jumps, cmu, 'auto');
    expect(map.rule).toBe('humanoid');
    const reads = (target: string): string | undefined => map.pairs.find((p) => p.target === target)?.source;
    expect(reads('LeftShoulder')).toBe('LeftArm'); // upper arm ← upper arm
    expect(reads('LeftCollar')).toBe('LeftShoulder'); // clavicle ← clavicle
    expect(reads('lowerneck')).toBe('Neck'); // both necks' base
    expect(reads('Neck')).toBeUndefined(); // CMU 131's upper neck joint stays unmapped
    expect(map.pairs).toHaveLength(22);
    checkMap(jumps, cmu, map);
  });

  it('a clear error when too few names match and a skeleton is not a humanoid', async () => {
    const fox = await gltfSkeleton('Fox.glb');
    const robot = await gltfSkeleton('RobotExpressive.glb');
    const error = refused(() => resolveJointMap(fox, robot, 'auto'));
    expect(error.message).toContain("bindSkeletons: joints ('auto') cannot pair the skeletons: they share no joint names, and the source skeleton (root \"_rootJoint\", 24 joints) is not a humanoid: its spine does not stand");
    const some = buildSkeleton(rig(VRM).map((j) => (j.id === 'head' || j.id === 'hips' ? j : { ...j, name: `rig:${j.name}` })));
    const headless = buildSkeleton(rig(VRM).map((j) => (j.id === 'head' ? { ...j, name: 'skull' } : j)));
    const both = refused(() => resolveJointMap(headless, some, 'auto'));
    expect(both.message).toContain("they share 1 joint name(s), not more than half of the smaller skeleton's 22, and the source skeleton (root \"hips\", 22 joints) is not a humanoid: no joint is named as the head");
    expect(both.issues).toHaveLength(1); // the target (VRM names behind a prefix) is a humanoid
  });
});

describe('joints: a record of target joint names to source joint names', () => {
  it('is the whole map: the joints it names read those, the others nothing', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    const map = resolveJointMap(cmu, robot, { Body: 'Hips', 'UpperLeg.L': 'LeftHip', 'LowerLeg.L': 'LeftKnee', Head: 'Head' });
    expect(map.rule).toBe('map');
    expect(map.pairs).toEqual([
      { target: 'Body', source: 'Hips' }, { target: 'Head', source: 'Head' }, { target: 'UpperLeg.L', source: 'LeftHip' }, { target: 'LowerLeg.L', source: 'LeftKnee' },
    ]);
    checkMap(cmu, robot, map);
    expect(resolveJointMap(cmu, robot, {}).pairs).toEqual([]);
  });

  it('refuses unknown target and source names and values that are not names, naming each', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    const error = refused(() => resolveJointMap(cmu, robot, { Body: 'Hips', Tail: 'Hips', 'Foot.L': 'LeftFoot', 'Foot.R': 7 as unknown as string }));
    expect(error.issues).toEqual([
      { path: 'joints["Tail"]', message: 'names no joint of the target skeleton' },
      { path: 'joints["Foot.L"]', message: 'is "LeftFoot", which names no joint of the source skeleton' },
      { path: 'joints["Foot.R"]', message: 'is 7: it must be the name of a source joint' },
    ]);
  });

  it('refuses maps that break the hierarchy: a target joint above another reading a source joint below the other\'s', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    // UpperLeg.L is above LowerLeg.L in the Robot; LeftKnee is below LeftHip in CMU.
    const error = refused(() => resolveJointMap(cmu, robot, { 'UpperLeg.L': 'LeftKnee', 'LowerLeg.L': 'LeftHip', Body: 'Hips' }));
    expect(error.issues).toEqual([{
      path: 'joints["UpperLeg.L"], joints["LowerLeg.L"]',
      message: 'break the hierarchy: target "UpperLeg.L" is above "LowerLeg.L", but its source "LeftKnee" is below "LeftHip"',
    }]);
    // Far apart in both trees: Body (the Robot's root side) reading LeftAnkle, Palm2.L reading Hips.
    const far = refused(() => resolveJointMap(cmu, robot, { Body: 'LeftAnkle', 'Palm2.L': 'Hips' }));
    expect(far.message).toContain('target "Body" is above "Palm2.L", but its source "LeftAnkle" is below "Hips"');
    // Siblings swapped are not a hierarchy fault (left and right legs exchanged, a mirror).
    expect(resolveJointMap(cmu, robot, { 'UpperLeg.L': 'RightHip', 'UpperLeg.R': 'LeftHip' }).pairs).toHaveLength(2);
  });

  it('refuses an option that is no rule and no record', () => {
    for (const bad of ['name', 'Humanoid', null, 3, ['Hips']] as unknown as JointsOption[]) {
      const error = refused(() => resolveJointMap(cmu, cmu, bad));
      expect(error.issues[0]!.path).toBe('joints');
      expect(error.message).toContain("it must be 'auto', 'names', 'humanoid' or a map of target joint names to source joint names");
    }
    expect(refused(() => resolveJointMap(cmu, {} as Skeleton)).message).toContain('target is an object');
  });
});
