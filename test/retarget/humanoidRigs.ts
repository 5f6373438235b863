/**
 * Synthetic humanoids for the joint-map tests: one rest figure (a T-pose, facing +Z, its left
 * at +X, metres), named after each convention a game meets, with the variants that must not
 * change the map (siblings re-ordered, bones re-axed, the figure turned or re-rooted, helper
 * joints added). Every rig keeps the figure's ids, so a test knows which joint is which
 * humanoid joint without asking the code under test.
 */
import { createSkeleton, type Skeleton } from '../../src/index.js';
import * as quat from '../../src/math/quat.js';
import { createRandom } from '../fixtures/synthetic.js';

export type Vec = readonly [number, number, number];

/** A joint of a rig: its figure id (a humanoid joint's name, `spine<i>`, `neck<i>`, or an extra's), name, parent id, model position. */
export interface RigJoint {
  readonly id: string;
  readonly name: string;
  readonly parent: string | null;
  readonly at: Vec;
}

export interface FigureOptions {
  /** Joints between the hips and the neck (default 3). */
  spines?: number;
  /** Joints between the arms' branch and the head (default 1). */
  necks?: number;
  /** Clavicles between the spine and the upper arms (default true). */
  shoulders?: boolean;
  /** Toe joints below the feet (default true). */
  toes?: boolean;
}

/** The figure: ids and positions, parents first (hips at 1 m, head at 1.65 m, arms out along ±X). */
export function figure(options: FigureOptions = {}): { id: string; parent: string | null; at: Vec }[] {
  const { spines = 3, necks = 1, shoulders = true, toes = true } = options;
  const out: { id: string; parent: string | null; at: Vec }[] = [{ id: 'hips', parent: null, at: [0, 1, 0] }];
  let top = 'hips';
  for (let i = 0; i < spines; i++) {
    out.push({ id: `spine${i}`, parent: top, at: [0, 1.1 + (0.3 * i) / Math.max(1, spines - 1), -0.01] });
    top = `spine${i}`;
  }
  const chest = top;
  for (let i = 0; i < necks; i++) {
    out.push({ id: `neck${i}`, parent: top, at: [0, 1.48 + 0.06 * i, 0] });
    top = `neck${i}`;
  }
  out.push({ id: 'head', parent: top, at: [0, 1.62, 0.02] });
  for (const [side, s] of [['left', 1], ['right', -1]] as const) {
    let arm = chest;
    if (shoulders) {
      out.push({ id: `${side}Shoulder`, parent: chest, at: [s * 0.04, 1.42, 0] });
      arm = `${side}Shoulder`;
    }
    out.push({ id: `${side}UpperArm`, parent: arm, at: [s * 0.17, 1.42, 0] });
    out.push({ id: `${side}LowerArm`, parent: `${side}UpperArm`, at: [s * 0.45, 1.42, -0.01] });
    out.push({ id: `${side}Hand`, parent: `${side}LowerArm`, at: [s * 0.71, 1.42, 0] });
    out.push({ id: `${side}UpperLeg`, parent: 'hips', at: [s * 0.1, 0.95, 0] });
    out.push({ id: `${side}LowerLeg`, parent: `${side}UpperLeg`, at: [s * 0.1, 0.52, 0.01] });
    out.push({ id: `${side}Foot`, parent: `${side}LowerLeg`, at: [s * 0.1, 0.08, 0] });
    if (toes) out.push({ id: `${side}Toes`, parent: `${side}Foot`, at: [s * 0.1, 0.02, 0.13] });
  }
  return out;
}

/** An extra joint: a child of `under` (at its position plus `offset`), or inserted above `above` (at its parent's position). */
export type Extra = { id: string; name: string; under: string; offset?: Vec } | { id: string; name: string; above: string };

/** A naming convention: the name of each figure id, the figure it names, and its extra joints. */
export interface Convention {
  readonly label: string;
  readonly figure: FigureOptions;
  readonly name: (id: string) => string;
  readonly extras?: readonly Extra[];
}

/** The rig of a convention: figure joints named, extras added, parents first. */
export function rig(convention: Convention): RigJoint[] {
  let joints: RigJoint[] = figure(convention.figure).map((j) => ({ ...j, name: convention.name(j.id) }));
  for (const extra of convention.extras ?? []) {
    if ('under' in extra) {
      const at = joints.find((j) => j.id === extra.under)!.at;
      const o = extra.offset ?? [0, 0, 0];
      joints.push({ id: extra.id, name: extra.name, parent: extra.under, at: [at[0] + o[0], at[1] + o[1], at[2] + o[2]] });
    } else {
      const child = joints.find((j) => j.id === extra.above)!;
      const at: Vec = child.parent === null ? [0, 0, 0] : joints.find((j) => j.id === child.parent)!.at; // a new root stands on the ground
      joints = joints.map((j) => (j.id === extra.above ? { ...j, parent: extra.id } : j));
      joints.push({ id: extra.id, name: extra.name, parent: child.parent, at });
    }
  }
  return parentsFirst(joints, null);
}

/** `joints` in a parents-first order; with `random`, each joint's children in a shuffled order. */
export function parentsFirst(joints: readonly RigJoint[], random: (() => number) | null): RigJoint[] {
  const out: RigJoint[] = [];
  const visit = (parent: string | null): void => {
    const children = joints.filter((j) => j.parent === parent);
    if (random !== null) {
      for (let i = children.length - 1; i > 0; i--) {
        const k = Math.floor(random() * (i + 1));
        [children[i], children[k]] = [children[k]!, children[i]!];
      }
    }
    for (const c of children) {
      out.push(c);
      visit(c.id);
    }
  };
  visit(null);
  return out;
}

/** `joints` turned about +Y by `angle` radians (a figure facing +Z turned by π faces −Z). */
export function turned(joints: readonly RigJoint[], angle: number): RigJoint[] {
  const c = Math.cos(angle), s = Math.sin(angle);
  return joints.map((j) => ({ ...j, at: [c * j.at[0] + s * j.at[2], j.at[1], -s * j.at[0] + c * j.at[2]] as Vec }));
}

/** `joints` rotated about +X by `angle` (π/2 lays a standing figure on its back). */
export function tilted(joints: readonly RigJoint[], angle: number): RigJoint[] {
  const c = Math.cos(angle), s = Math.sin(angle);
  return joints.map((j) => ({ ...j, at: [j.at[0], c * j.at[1] - s * j.at[2], s * j.at[1] + c * j.at[2]] as Vec }));
}

/**
 * The skeleton of a rig. With `reaxeSeed`, every joint gets a random model orientation (its
 * bones' axes point anywhere), with local rest rotations and translations that keep the model
 * positions: the map must not depend on how bones are axed.
 */
export function buildSkeleton(joints: readonly RigJoint[], reaxeSeed?: number): Skeleton {
  const index = new Map(joints.map((j, i) => [j.id, i]));
  const parents = joints.map((j) => (j.parent === null ? -1 : index.get(j.parent)!));
  const random = reaxeSeed === undefined ? null : createRandom(reaxeSeed);
  const orient = joints.map(() => {
    if (random === null) return new Float64Array([0, 0, 0, 1]);
    const q = new Float64Array([random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5]);
    quat.normalize(q, 0, q, 0);
    return q;
  });
  const rest: number[] = [];
  joints.forEach((j, i) => {
    const p = parents[i]!;
    const inverse = new Float64Array([0, 0, 0, 1]);
    const local = new Float64Array([0, 0, 0, 1]);
    const offset = new Float64Array(j.at);
    if (p >= 0) {
      quat.conjugate(inverse, 0, orient[p]!, 0);
      const d = new Float64Array([j.at[0] - joints[p]!.at[0], j.at[1] - joints[p]!.at[1], j.at[2] - joints[p]!.at[2]]);
      quat.rotateVec3(offset, 0, inverse, 0, d, 0);
      quat.multiply(local, 0, inverse, 0, orient[i]!, 0);
    } else {
      quat.copy(local, 0, orient[i]!, 0);
    }
    rest.push(offset[0]!, offset[1]!, offset[2]!, local[0]!, local[1]!, local[2]!, local[3]!, 1, 1, 1);
  });
  return createSkeleton({ names: joints.map((j) => j.name), parents, rest });
}

const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
/** 'left' | 'right' and the rest of a sided figure id (`leftUpperArm` → ['left', 'UpperArm']). */
export function splitSide(id: string): [('left' | 'right') | null, string] {
  const m = /^(left|right)(.*)$/.exec(id);
  return m ? [m[1] as 'left' | 'right', m[2]!] : [null, id];
}

const MIXAMO: Record<string, string> = {
  hips: 'Hips', spine0: 'Spine', spine1: 'Spine1', spine2: 'Spine2', neck0: 'Neck', head: 'Head',
  Shoulder: 'Shoulder', UpperArm: 'Arm', LowerArm: 'ForeArm', Hand: 'Hand', UpperLeg: 'UpLeg', LowerLeg: 'Leg', Foot: 'Foot', Toes: 'ToeBase',
};

/** Mixamo, with its namespace (`mixamorig:`, `mixamorig1:` or none), end sites and fingers. */
export function mixamo(prefix: string): Convention {
  const name = (id: string): string => {
    const [side, rest] = splitSide(id);
    return prefix + (side ? cap(side) : '') + MIXAMO[rest]!;
  };
  const extras: Extra[] = [{ id: 'headTop', name: `${prefix}HeadTop_End`, under: 'head', offset: [0, 0.18, 0] }];
  for (const side of ['Left', 'Right']) {
    const s = side === 'Left' ? 1 : -1;
    extras.push({ id: `${side}ToeEnd`, name: `${prefix}${side}Toe_End`, under: `${side.toLowerCase()}Toes`, offset: [0, 0, 0.06] });
    for (const finger of ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']) {
      extras.push({ id: `${side}${finger}1`, name: `${prefix}${side}Hand${finger}1`, under: `${side.toLowerCase()}Hand`, offset: [s * 0.05, 0, 0.02] });
    }
  }
  return { label: `Mixamo (${prefix || 'no prefix'})`, figure: { spines: 3 }, name, extras };
}

/** CMU's BVH names: LeftHip is the upper leg, LeftShoulder the upper arm, LHipJoint a joint at the hips. */
export const CMU: Convention = {
  label: 'CMU',
  figure: { spines: 3, necks: 2 },
  name: (id) => {
    const table: Record<string, string> = { hips: 'Hips', spine0: 'lowerback', spine1: 'Chest', spine2: 'Chest2', neck0: 'lowerneck', neck1: 'Neck', head: 'Head' };
    const [side, rest] = splitSide(id);
    if (side === null) return table[id]!;
    const limb: Record<string, string> = { Shoulder: 'Collar', UpperArm: 'Shoulder', LowerArm: 'Elbow', Hand: 'Wrist', UpperLeg: 'Hip', LowerLeg: 'Knee', Foot: 'Ankle', Toes: 'Toe' };
    return cap(side) + limb[rest]!;
  },
  extras: [
    { id: 'lHipJoint', name: 'LHipJoint', above: 'leftUpperLeg' }, { id: 'rHipJoint', name: 'RHipJoint', above: 'rightUpperLeg' },
    { id: 'lhand', name: 'lhand', under: 'leftHand' }, { id: 'LThumb', name: 'LThumb', under: 'leftHand', offset: [0.02, 0, 0.03] },
    { id: 'rhand', name: 'rhand', under: 'rightHand' }, { id: 'RThumb', name: 'RThumb', under: 'rightHand', offset: [-0.02, 0, 0.03] },
  ],
};

/** A studio capture's names: `UpperLeg_L`. */
export const STUDIO: Convention = {
  label: 'studio (UpperLeg_L)',
  figure: { spines: 2 },
  name: (id) => {
    const [side, rest] = splitSide(id);
    if (side === null) return ({ hips: 'Hips', spine0: 'Spine', spine1: 'Chest', neck0: 'Neck', head: 'Head' } as Record<string, string>)[id]!;
    return `${rest}_${side === 'left' ? 'L' : 'R'}`;
  },
};

/** VRM's humanoid bone names, as VRoid exports them for the joints (`leftUpperLeg`). */
export const VRM: Convention = {
  label: 'VRM',
  figure: { spines: 3 },
  name: (id) => ({ spine0: 'spine', spine1: 'chest', spine2: 'upperChest', neck0: 'neck' } as Record<string, string>)[id] ?? id,
};

/** VRoid's own joint names (`J_Bip_L_UpperLeg`, `J_Bip_C_Hips`), with its `J_Sec_` hair and eye joints. */
export const VROID: Convention = {
  label: 'VRoid (J_Bip_L_UpperLeg)',
  figure: { spines: 3 },
  name: (id) => {
    const [side, rest] = splitSide(id);
    if (side === null) return `J_Bip_C_${({ hips: 'Hips', spine0: 'Spine', spine1: 'Chest', spine2: 'UpperChest', neck0: 'Neck', head: 'Head' } as Record<string, string>)[id]}`;
    return `J_Bip_${side === 'left' ? 'L' : 'R'}_${({ Toes: 'ToeBase' } as Record<string, string>)[rest] ?? rest}`;
  },
  extras: [
    { id: 'eyeL', name: 'J_Adj_L_FaceEye', under: 'head', offset: [0.03, 0.05, 0.08] },
    { id: 'hair', name: 'J_Sec_Hair1_01', under: 'head', offset: [0, 0.1, -0.05] },
  ],
};

/** Unreal's mannequin (UE5: five spine joints, two neck joints), with its twist and IK joints and its ground root. */
export const UNREAL: Convention = {
  label: 'Unreal mannequin',
  figure: { spines: 5, necks: 2 },
  name: (id) => {
    const [side, rest] = splitSide(id);
    if (side === null) {
      if (id.startsWith('spine')) return `spine_0${Number(id.slice(5)) + 1}`;
      if (id.startsWith('neck')) return `neck_0${Number(id.slice(4)) + 1}`;
      return ({ hips: 'pelvis', head: 'head' } as Record<string, string>)[id]!;
    }
    const limb: Record<string, string> = { Shoulder: 'clavicle', UpperArm: 'upperarm', LowerArm: 'lowerarm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'calf', Foot: 'foot', Toes: 'ball' };
    return `${limb[rest]}_${side[0]}`;
  },
  extras: [
    { id: 'root', name: 'root', above: 'hips' },
    ...(['l', 'r'] as const).flatMap((s): Extra[] => {
      const side = s === 'l' ? 'left' : 'right';
      return [
        { id: `ut${s}`, name: `upperarm_twist_01_${s}`, under: `${side}UpperArm`, offset: [0.1 * (s === 'l' ? 1 : -1), 0, 0] },
        { id: `lt${s}`, name: `lowerarm_twist_01_${s}`, under: `${side}LowerArm`, offset: [0.1 * (s === 'l' ? 1 : -1), 0, 0] },
        { id: `tt${s}`, name: `thigh_twist_01_${s}`, under: `${side}UpperLeg`, offset: [0, -0.1, 0] },
        { id: `ct${s}`, name: `calf_twist_01_${s}`, under: `${side}LowerLeg`, offset: [0, -0.1, 0] },
        { id: `mid${s}`, name: `middle_01_${s}`, under: `${side}Hand`, offset: [0.05 * (s === 'l' ? 1 : -1), 0, 0] },
      ];
    }),
    { id: 'ikFootRoot', name: 'ik_foot_root', under: 'root' },
    { id: 'ikFootL', name: 'ik_foot_l', under: 'ikFootRoot', offset: [0.1, 0.08, 0] },
    { id: 'ikFootR', name: 'ik_foot_r', under: 'ikFootRoot', offset: [-0.1, 0.08, 0] },
    { id: 'ikHandRoot', name: 'ik_hand_root', under: 'root' },
    { id: 'ikHandGun', name: 'ik_hand_gun', under: 'ikHandRoot', offset: [-0.71, 1.42, 0] },
    { id: 'ikHandL', name: 'ik_hand_l', under: 'ikHandGun', offset: [1.42, 0, 0] },
    { id: 'ikHandR', name: 'ik_hand_r', under: 'ikHandGun' },
  ],
};

/** 3ds Max Biped: `Bip01 L Thigh`, a `Bip01` root above the pelvis. */
export const BIPED: Convention = {
  label: '3ds Max Biped',
  figure: { spines: 3 },
  name: (id) => {
    const [side, rest] = splitSide(id);
    if (side === null) return `Bip01 ${({ hips: 'Pelvis', spine0: 'Spine', spine1: 'Spine1', spine2: 'Spine2', neck0: 'Neck', head: 'Head' } as Record<string, string>)[id]}`;
    const limb: Record<string, string> = { Shoulder: 'Clavicle', UpperArm: 'UpperArm', LowerArm: 'Forearm', Hand: 'Hand', UpperLeg: 'Thigh', LowerLeg: 'Calf', Foot: 'Foot', Toes: 'Toe0' };
    return `Bip01 ${side === 'left' ? 'L' : 'R'} ${limb[rest]}`;
  },
  extras: [{ id: 'bip', name: 'Bip01', above: 'hips' }],
};

/** The side marks Blender users write, each as a function of the word and the side. */
export const BLENDER_SIDES: readonly { label: string; mark: (word: string, side: 'left' | 'right') => string }[] = [
  { label: '.L', mark: (w, s) => `${w}.${s === 'left' ? 'L' : 'R'}` },
  { label: '_L', mark: (w, s) => `${w}_${s === 'left' ? 'L' : 'R'}` },
  { label: '.l', mark: (w, s) => `${w}.${s[0]}` },
  { label: 'Left…', mark: (w, s) => `${cap(s)}${cap(w)}` },
  { label: 'L_…', mark: (w, s) => `${s === 'left' ? 'L' : 'R'}_${w}` },
  { label: 'l_…', mark: (w, s) => `${s[0]}_${w}` },
  { label: '…Left', mark: (w, s) => `${w}${cap(s)}` },
];

/** Blender's names (`thigh.L`, `shin.L`, `forearm.L`) with the `DEF-` prefix of deform bones and one spine joint. */
export function blender(mark: (word: string, side: 'left' | 'right') => string): Convention {
  return {
    label: 'Blender',
    figure: { spines: 1 },
    name: (id) => {
      const [side, rest] = splitSide(id);
      if (side === null) return `DEF-${({ hips: 'hips', spine0: 'spine', neck0: 'neck', head: 'head' } as Record<string, string>)[id]}`;
      const limb: Record<string, string> = { Shoulder: 'shoulder', UpperArm: 'upper_arm', LowerArm: 'forearm', Hand: 'hand', UpperLeg: 'thigh', LowerLeg: 'shin', Foot: 'foot', Toes: 'toe' };
      return `DEF-${mark(limb[rest]!, side)}`;
    },
  };
}

/** Which figure id each humanoid joint is, by the spine rule (1 → spine; 2 → spine, chest; n ≥ 3 → first, middle (lower of two), last). */
export function expectedIds(options: FigureOptions = {}): Record<string, string> {
  const { spines = 3, necks = 1, shoulders = true, toes = true } = options;
  const out: Record<string, string> = { hips: 'hips', spine: 'spine0', head: 'head' };
  if (spines === 2) out.chest = 'spine1';
  if (spines >= 3) {
    out.chest = `spine${Math.ceil(spines / 2) - 1}`;
    out.upperChest = `spine${spines - 1}`;
  }
  if (necks > 0) out.neck = 'neck0';
  for (const side of ['left', 'right']) {
    for (const part of ['UpperArm', 'LowerArm', 'Hand', 'UpperLeg', 'LowerLeg', 'Foot']) out[side + part] = side + part;
    if (shoulders) out[`${side}Shoulder`] = `${side}Shoulder`;
    if (toes) out[`${side}Toes`] = `${side}Toes`;
  }
  return out;
}
