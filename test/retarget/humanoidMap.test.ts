/**
 * humanoidMap: the humanoid joints of the real files (CMU 131_01 and 01_01, RobotExpressive),
 * the Fox refused, and a synthetic figure named after each convention (Mixamo with and without
 * its namespace, CMU, a studio's `UpperLeg_L`, VRM, Unreal's mannequin, 3ds Max Biped, Blender's
 * side marks) — re-ordered, re-axed, turned, re-rooted, with helper joints — whose expected
 * map comes from the figure's ids, not from the code under test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimationError, createSkeleton, HUMANOID_JOINTS, humanoidMap, loadGltf, parseBvh, type HumanoidJoint, type Skeleton } from '../../src/index.js';
import { REQUIRED_HUMANOID_JOINTS } from '../../src/assets/humanoid/types.js';
import { computeRestModel } from '../../src/assets/Skeleton.js';
import { CMU_SCALE } from '../fixtures/realClips.js';
import { createRandom } from '../fixtures/synthetic.js';
import { ASSETS_URL } from '../support/assets.js';
import { printHumanoidMaps } from '../../examples/jointMaps.js';
import { refused } from '../fixtures/errors.js';
import {
  BIPED, BLENDER_SIDES, blender, buildSkeleton, CMU, expectedIds, mixamo, parentsFirst, rig, STUDIO, tilted, turned, UNREAL, VRM, VROID,
  type Convention, type Extra, type RigJoint,
} from './humanoidRigs.js';

const gltfSkeleton = async (file: string): Promise<Skeleton> => (await loadGltf(new Uint8Array(readFileSync(new URL(file, ASSETS_URL))))).skeletons[0]!;
const bvhSkeleton = (file: string): Skeleton => parseBvh(readFileSync(new URL(file, ASSETS_URL), 'utf8'), { scale: CMU_SCALE }).skeleton;

/** The names a rig should map to: each humanoid joint's figure id, named. */
function expectedMap(joints: readonly RigJoint[], convention: Convention): Record<string, string> {
  const ids = expectedIds(convention.figure);
  return Object.fromEntries(Object.entries(ids).map(([joint, id]) => [joint, joints.find((j) => j.id === id)!.name]));
}


describe('humanoidMap on the real files', () => {
  it('CMU 131_01: LeftHip is the upper leg, LeftShoulder the upper arm, LeftCollar the shoulder, lowerneck the neck', () => {
    // The hierarchy (BVH file order): Hips → LHipJoint → LeftHip → LeftKnee → LeftAnkle → LeftToe;
    // Hips → lowerback → Chest → Chest2 → lowerneck → Neck → Head; Chest2 → LeftCollar →
    // LeftShoulder → LeftElbow → LeftWrist → lhand → LFingers. Hands and feet by name (LeftWrist
    // is above lhand, so it is taken), the limbs above them by topology, the spine cut at Chest2
    // where the collars branch (3 joints: spine, chest, upperChest), the neck its next joint.
    const map = humanoidMap(bvhSkeleton('cmu_131_01_start_walk_stop.bvh'));
    expect(map.joints).toEqual({
      hips: 'Hips', spine: 'lowerback', chest: 'Chest', upperChest: 'Chest2', neck: 'lowerneck', head: 'Head',
      leftShoulder: 'LeftCollar', leftUpperArm: 'LeftShoulder', leftLowerArm: 'LeftElbow', leftHand: 'LeftWrist',
      rightShoulder: 'RightCollar', rightUpperArm: 'RightShoulder', rightLowerArm: 'RightElbow', rightHand: 'RightWrist',
      leftUpperLeg: 'LeftHip', leftLowerLeg: 'LeftKnee', leftFoot: 'LeftAnkle', leftToes: 'LeftToe',
      rightUpperLeg: 'RightHip', rightLowerLeg: 'RightKnee', rightFoot: 'RightAnkle', rightToes: 'RightToe',
    });
    expect(map.missing).toEqual([]);
  });

  it('CMU 01_01 (Mixamo-like names, no namespace): LeftShoulder is the shoulder here, LeftArm the upper arm', () => {
    const map = humanoidMap(bvhSkeleton('cmu_01_01_forward_jumps.bvh'));
    expect(map.joints).toMatchObject({
      hips: 'Hips', spine: 'LowerBack', chest: 'Spine', upperChest: 'Spine1', neck: 'Neck', head: 'Head',
      leftShoulder: 'LeftShoulder', leftUpperArm: 'LeftArm', leftLowerArm: 'LeftForeArm', leftHand: 'LeftHand',
      leftUpperLeg: 'LeftUpLeg', leftLowerLeg: 'LeftLeg', leftFoot: 'LeftFoot', leftToes: 'LeftToeBase',
      rightUpperArm: 'RightArm', rightFoot: 'RightFoot',
    });
  });

  it('RobotExpressive: Body is the hips (topology over the name), Hips the spine, the IK feet Foot.L/R its feet, Palm2 its hands', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    const map = humanoidMap(robot);
    // UpperLeg.L/R are children of Body, beside Hips (which holds Abdomen → Torso → Neck → Head):
    // the joint holding both legs and the head is Body. Foot.L/R hang from the root Bone (IK
    // joints), 0.93 m below LowerLeg.L/R, 19° off vertical. Palm1..3.L hang side by side from
    // LowerArm.L; Palm2 holds the middle finger.
    expect(map.joints).toEqual({
      hips: 'Body', spine: 'Hips', chest: 'Abdomen', upperChest: 'Torso', neck: 'Neck', head: 'Head',
      leftShoulder: 'Shoulder.L', leftUpperArm: 'UpperArm.L', leftLowerArm: 'LowerArm.L', leftHand: 'Palm2.L',
      rightShoulder: 'Shoulder.R', rightUpperArm: 'UpperArm.R', rightLowerArm: 'LowerArm.R', rightHand: 'Palm2.R',
      leftUpperLeg: 'UpperLeg.L', leftLowerLeg: 'LowerLeg.L', leftFoot: 'Foot.L',
      rightUpperLeg: 'UpperLeg.R', rightLowerLeg: 'LowerLeg.R', rightFoot: 'Foot.R',
    });
    expect(map.missing).toEqual(['leftToes', 'rightToes']);
    const parent = (name: string): string => robot.names[robot.parents[robot.names.indexOf(name)]!]!;
    expect(parent('UpperLeg.L')).toBe('Body');
    expect(parent('Foot.L')).toBe('Bone');
  });

  it('examples/jointMaps.ts prints CMU 131_01 beside RobotExpressive (the table of docs/retargeting.md)', async () => {
    const robot = await gltfSkeleton('RobotExpressive.glb');
    expect(printHumanoidMaps(bvhSkeleton('cmu_131_01_start_walk_stop.bvh'), robot)).toEqual([
      'hips           Body        ← Hips',
      'spine          Hips        ← lowerback',
      'chest          Abdomen     ← Chest',
      'upperChest     Torso       ← Chest2',
      'neck           Neck        ← lowerneck',
      'head           Head        ← Head',
      'leftShoulder   Shoulder.L  ← LeftCollar',
      'leftUpperArm   UpperArm.L  ← LeftShoulder',
      'leftLowerArm   LowerArm.L  ← LeftElbow',
      'leftHand       Palm2.L     ← LeftWrist',
      'rightShoulder  Shoulder.R  ← RightCollar',
      'rightUpperArm  UpperArm.R  ← RightShoulder',
      'rightLowerArm  LowerArm.R  ← RightElbow',
      'rightHand      Palm2.R     ← RightWrist',
      'leftUpperLeg   UpperLeg.L  ← LeftHip',
      'leftLowerLeg   LowerLeg.L  ← LeftKnee',
      'leftFoot       Foot.L      ← LeftAnkle',
      'leftToes       —           ← LeftToe',
      'rightUpperLeg  UpperLeg.R  ← RightHip',
      'rightLowerLeg  LowerLeg.R  ← RightKnee',
      'rightFoot      Foot.R      ← RightAnkle',
      'rightToes      —           ← RightToe',
    ]);
  });

  it('refuses the Fox (a quadruped): its hips → head lies 74° from +Y, though names find hands and feet', async () => {
    const fox = await gltfSkeleton('Fox.glb');
    const error = refused(() => humanoidMap(fox));
    expect(error.where).toBe('humanoidMap');
    expect(error.message).toContain('is not a humanoid');
    expect(error.message).toContain('its spine does not stand');
    expect(error.message).toContain('"b_Hip_01"');
    expect(error.message).toContain('"b_Head_05"');
    // By hand: b_Hip_01 (0, 42.94, −26.75) cm, b_Head_05 (0, 60.73, 36.15): atan(62.9 / 17.79) = 74.2°.
    expect(error.message).toContain('74°');
    // Asked again: the same refusal (the result is cached per skeleton).
    expect(refused(() => humanoidMap(fox)).message).toBe(error.message);
  });
});

const CONVENTIONS: Convention[] = [
  mixamo('mixamorig:'), mixamo('mixamorig1:'), mixamo(''), CMU, STUDIO, VRM, VROID, UNREAL, BIPED,
  ...BLENDER_SIDES.map((s) => ({ ...blender(s.mark), label: `Blender ${s.label}` })),
];

describe('humanoidMap on a figure named after each convention', () => {
  it.each(CONVENTIONS.map((c) => [c.label, c] as const))('%s', (_, convention) => {
    const joints = rig(convention);
    const map = humanoidMap(buildSkeleton(joints));
    expect(map.joints).toEqual(expectedMap(joints, convention));
    const expectedMissing = HUMANOID_JOINTS.filter((j) => !(j in expectedIds(convention.figure)));
    expect(map.missing).toEqual(expectedMissing);
  });

  it.each(CONVENTIONS.map((c) => [c.label, c] as const))('%s: the same map re-ordered, re-axed, facing −Z, re-rooted', (_, convention) => {
    const joints = rig(convention);
    const expected = expectedMap(joints, convention);
    for (let seed = 1; seed <= 3; seed++) {
      const shuffled = parentsFirst(joints, createRandom(seed));
      expect(shuffled.map((j) => j.name)).not.toEqual(joints.map((j) => j.name)); // really re-ordered
      expect(humanoidMap(buildSkeleton(shuffled)).joints, `siblings shuffled, seed ${seed}`).toEqual(expected);
      const reaxed = buildSkeleton(joints, seed);
      const model = computeRestModel(reaxed.parents, reaxed.rest);
      joints.forEach((j, i) => expect(Math.hypot(model[i * 12 + 9]! - j.at[0], model[i * 12 + 10]! - j.at[1], model[i * 12 + 11]! - j.at[2])).toBeLessThan(1e-6));
      expect(Math.abs(reaxed.rest[6]!)).toBeLessThan(0.999); // the root's rest rotation is not the identity
      expect(humanoidMap(reaxed).joints, `re-axed, seed ${seed}`).toEqual(expected);
    }
    expect(humanoidMap(buildSkeleton(turned(joints, Math.PI))).joints, 'facing −Z').toEqual(expected);
    expect(humanoidMap(buildSkeleton(turned(joints, 1))).joints, 'turned 57°').toEqual(expected);
    const rooted: RigJoint[] = [{ id: 'armature', name: 'Armature', parent: null, at: [0, 0, 0] }, ...joints.map((j) => (j.parent === null ? { ...j, parent: 'armature' } : j))];
    expect(humanoidMap(buildSkeleton(rooted)).joints, 'under an Armature root').toEqual(expected);
  });
});

describe('several joints named as one hand', () => {
  it('three palms side by side at the wrist (RobotExpressive\'s Palm1..3): the one holding the middle finger, in any sibling order', () => {
    // The figure's hands named Palm2_L/R, with Palm1 (index finger) and Palm3 (ring finger)
    // beside them under the lower arm, at the wrist: 0.26 m out from the lower arm.
    const palms: Convention = {
      ...STUDIO,
      name: (id) => (id.endsWith('Hand') ? `Palm2_${id.startsWith('left') ? 'L' : 'R'}` : STUDIO.name(id)),
      extras: (['left', 'right'] as const).flatMap((side): Extra[] => {
        const s = side === 'left' ? 'L' : 'R', x = side === 'left' ? 0.26 : -0.26;
        return [
          { id: `palm1${s}`, name: `Palm1_${s}`, under: `${side}LowerArm`, offset: [x, 0, 0.01] },
          { id: `palm3${s}`, name: `Palm3_${s}`, under: `${side}LowerArm`, offset: [x, 0, 0.01] },
          { id: `index${s}`, name: `Index1_${s}`, under: `palm1${s}`, offset: [x / 4, 0, 0.02] },
          { id: `middle${s}`, name: `Middle1_${s}`, under: `${side}Hand`, offset: [x / 4, 0, 0] },
          { id: `ring${s}`, name: `Ring1_${s}`, under: `palm3${s}`, offset: [x / 4, 0, -0.02] },
        ];
      }),
    };
    const joints = rig(palms);
    const orders = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) {
      const shuffled = parentsFirst(joints, createRandom(seed));
      orders.add(shuffled.filter((j) => j.name.startsWith('Palm') && j.name.endsWith('L')).map((j) => j.name).join());
      const map = humanoidMap(buildSkeleton(shuffled));
      expect([map.joints.leftHand, map.joints.rightHand], `seed ${seed}`).toEqual(['Palm2_L', 'Palm2_R']);
    }
    expect(orders.size).toBeGreaterThan(2); // Palm2 was not always the first of them
  });

  it('a wrist above a hand (CMU\'s LeftWrist → lhand): the one nearer the root', () => {
    const joints = rig(CMU);
    expect(joints.find((j) => j.name === 'lhand')!.parent).toBe('leftHand');
    expect(humanoidMap(buildSkeleton(joints)).joints.leftHand).toBe('LeftWrist');
  });
});

describe('the spine, 1 to 5 joints between the hips and the arms\' branch', () => {
  // n = 1 → spine; 2 → spine, chest; n ≥ 3 → spine = the first, chest = the middle (the
  // lower of two), upperChest = the last (where the arms branch).
  const cases: [number, Partial<Record<HumanoidJoint, string>>][] = [
    [1, { spine: 'Spine' }],
    [2, { spine: 'Spine', chest: 'Spine1' }],
    [3, { spine: 'Spine', chest: 'Spine1', upperChest: 'Spine2' }],
    [4, { spine: 'Spine', chest: 'Spine1', upperChest: 'Spine3' }],
    [5, { spine: 'Spine', chest: 'Spine2', upperChest: 'Spine4' }],
  ];
  it.each(cases)('%i spine joint(s)', (spines, expected) => {
    const convention: Convention = { label: 'numbered', figure: { spines }, name: (id) => (id.startsWith('spine') ? `Spine${id === 'spine0' ? '' : id.slice(5)}` : mixamo('').name(id)) };
    const map = humanoidMap(buildSkeleton(rig(convention)));
    const spine = { spine: map.joints.spine, chest: map.joints.chest, upperChest: map.joints.upperChest };
    expect(Object.fromEntries(Object.entries(spine).filter(([, v]) => v !== undefined))).toEqual(expected);
    expect(map.missing.filter((j) => j === 'chest' || j === 'upperChest')).toEqual(['chest', 'upperChest'].filter((j) => !(j in expected)));
  });

  it('without neck, shoulders or toes: those are missing, the rest found', () => {
    const convention: Convention = { ...VRM, figure: { spines: 2, necks: 0, shoulders: false, toes: false } };
    const joints = rig(convention);
    const map = humanoidMap(buildSkeleton(joints));
    expect(map.joints).toEqual(expectedMap(joints, convention));
    expect(map.missing).toEqual(['upperChest', 'neck', 'leftShoulder', 'rightShoulder', 'leftToes', 'rightToes']);
    for (const joint of REQUIRED_HUMANOID_JOINTS) expect(map.joints[joint], joint).toBeDefined();
  });
});

describe('sides', () => {
  /** VRM's names with the sides taken out: left limbs end in 1, right in 2. */
  const unsided = (toes: boolean, keepFeetSides = false): Convention => ({
    label: 'unsided',
    figure: { spines: 2, toes },
    name: (id) => {
      const m = /^(left|right)(.*)$/.exec(id);
      if (m === null) return VRM.name(id);
      if (keepFeetSides && m[2] === 'Foot') return id;
      return `${m[2]}${m[1] === 'left' ? 1 : 2}`;
    },
  });

  it('names decide: a figure facing −Z keeps its named left at −X', () => {
    const joints = turned(rig(VRM), Math.PI);
    const skeleton = buildSkeleton(joints);
    const map = humanoidMap(skeleton);
    expect(map.joints.leftHand).toBe('leftHand');
    const hand = joints.find((j) => j.name === 'leftHand')!;
    expect(hand.at[0]).toBeLessThan(0); // the named left hand lies at −X
  });

  it('names that give no side: the side the toes make left (up × forward), facing +Z or −Z', () => {
    for (const angle of [0, Math.PI, 0.5]) {
      const map = humanoidMap(buildSkeleton(turned(rig(unsided(true)), angle)));
      expect(map.joints.leftHand, `turned ${angle}`).toBe('Hand1');
      expect(map.joints.leftFoot, `turned ${angle}`).toBe('Foot1');
      expect(map.joints.rightUpperArm, `turned ${angle}`).toBe('UpperArm2');
    }
  });

  it('unsided hands take their side from the named feet, whatever the facing', () => {
    for (const angle of [0, Math.PI]) {
      const map = humanoidMap(buildSkeleton(turned(rig(unsided(false, true)), angle)));
      expect(map.joints.leftHand, `turned ${angle}`).toBe('Hand1');
      expect(map.joints.leftFoot).toBe('leftFoot');
    }
  });

  it('a joint named as a hand without a side does not compete with named hands (a prop "Hand" under the hips)', () => {
    const [hips, ...rest] = rig(VRM);
    const joints: RigJoint[] = [hips!, { id: 'prop', name: 'Hand', parent: 'hips', at: [0.5, 1, 0] }, ...rest];
    const map = humanoidMap(buildSkeleton(joints));
    expect([map.joints.leftHand, map.joints.rightHand]).toEqual(['leftHand', 'rightHand']);
  });

  it('with no side in any name and no toes, left is +X (a figure facing +Z, glTF\'s convention)', () => {
    expect(humanoidMap(buildSkeleton(rig(unsided(false)))).joints.leftHand).toBe('Hand1');
    // The same figure facing −Z: its left hand (Hand1) lies at −X and is taken for the right.
    expect(humanoidMap(buildSkeleton(turned(rig(unsided(false)), Math.PI))).joints.leftHand).toBe('Hand2');
  });

  it('refuses crossed sides: hands named left on the right feet\'s side', () => {
    const joints = rig(VRM).map((j) => (j.id === 'leftHand' ? { ...j, name: 'rightHand' } : j.id === 'rightHand' ? { ...j, name: 'leftHand' } : j));
    const error = refused(() => humanoidMap(buildSkeleton(joints)));
    expect(error.message).toContain('its sides disagree: the left hand "leftHand" lies on the side of the right foot "rightFoot"');
  });
});

describe('feet outside the leg\'s chain (IK feet, as RobotExpressive\'s)', () => {
  /** The studio figure without toes, its feet moved under the root (keeping their rest positions); a root at the ground. */
  function detached(footAt?: (at: readonly number[]) => [number, number, number]): RigJoint[] {
    const base = rig({ ...STUDIO, figure: { spines: 2, toes: false }, extras: [{ id: 'root', name: 'Root', above: 'hips' }] });
    return parentsFirst(base.map((j) => (j.id.endsWith('Foot') ? { ...j, parent: 'root', at: footAt ? footAt(j.at) : j.at } : j)), null);
  }

  it('a foot named so, below its side\'s lower leg, is the foot; the lower leg is named, its parent the upper leg', () => {
    const map = humanoidMap(buildSkeleton(detached()));
    expect(map.joints).toMatchObject({ leftFoot: 'Foot_L', leftLowerLeg: 'LowerLeg_L', leftUpperLeg: 'UpperLeg_L', rightFoot: 'Foot_R', hips: 'Hips' });
  });

  it('refuses a foot that is not at the end of a lower leg, naming it and what was tried', () => {
    // 1 m out to the side: 60° from straight down below LowerLeg_L (0.1, 0.52) → (1.1, −0.06).
    const joints = detached((at) => [at[0] > 0 ? at[0] + 1 : at[0], at[1] - 0.14, at[2]]);
    const error = refused(() => humanoidMap(buildSkeleton(joints)));
    expect(error.message).toContain('the left foot "Foot_L" is not in a leg\'s chain (it hangs from "Root")');
    expect(error.message).toContain('"LowerLeg_L" (1.16 away, 60° from down');
    expect(error.message).not.toContain('right foot');
  });
});

describe('refusals', () => {
  it('a skeleton whose names say nothing: no head', () => {
    const joints = rig(VRM).map((j, i) => ({ ...j, name: `j${i}` }));
    const error = refused(() => humanoidMap(buildSkeleton(joints)));
    expect(error.message).toMatch(/^humanoidMap: skeleton \(root "j0", \d+ joints\) is not a humanoid: no joint is named as the head/);
  });

  it('no right hand, no left foot: each named', () => {
    const joints = rig(VRM).map((j) => (j.id === 'rightHand' ? { ...j, name: 'paw_r' } : j.id === 'leftFoot' ? { ...j, name: 'hoof_l' } : j));
    const error = refused(() => humanoidMap(buildSkeleton(joints)));
    expect(error.issues.map((i) => i.message)).toEqual([
      expect.stringContaining('no joint is named as the right hand'),
      expect.stringContaining('no joint is named as the left foot'),
    ]);
  });

  it('a figure lying on its back (rest pose rotated 90° about X)', () => {
    const error = refused(() => humanoidMap(buildSkeleton(tilted(rig(VRM), Math.PI / 2))));
    // hips (0, 1, 0) → head (0, 1.62, 0.02) becomes (0, 0, 0.62) → (0, −0.02, 0.62) relative:
    // acos(−0.02 / 0.6203) = 91.8°. The feet no longer lie below the upper legs either.
    expect(error.message).toContain('its spine does not stand: from the hips "hips" to the head "head" the rest pose leans 92° from +Y');
    expect(error.message).toContain('the left foot "leftFoot" is not below its upper leg "leftUpperLeg"');
  });

  it('an arm of one joint', () => {
    const joints = rig({ ...VRM, figure: { shoulders: false } }).filter((j) => j.id !== 'leftLowerArm').map((j) => (j.id === 'leftHand' ? { ...j, parent: 'leftUpperArm' } : j));
    const error = refused(() => humanoidMap(buildSkeleton(joints)));
    expect(error.message).toContain('the left hand "leftHand" hangs from "upperChest" through 1 joint(s)');
  });

  it('not a skeleton', () => {
    expect(refused(() => humanoidMap({} as Skeleton)).message).toContain('humanoidMap: skeleton is an object');
    expect(() => humanoidMap(createSkeleton({ names: ['a'], parents: [-1], rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1] }))).toThrow(/no joint is named as the head/);
  });
});
