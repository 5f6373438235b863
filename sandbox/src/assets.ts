/**
 * The sandbox's characters: the real Fox and RobotExpressive of the repository's assets/ (fetched
 * from `assets/`, read by `loadGltf` with its `scale` option: the Fox is in centimetres, the
 * Robot about 4.6 units tall), plus the benchmark's synthetic rig.
 *
 * The Fox's and the Robot's locomotion clips loop in place (their README: no root travel), so
 * root motion cannot drive them as they are: `rootMotionFromFeet` gives a walk or run the
 * travel its planted feet imply, and the speed it travels at rate 1 is its root track's cycle
 * over its duration.
 *
 * Each character's bodies for bitanim/pixi (`bodiesOf`) are built once, on first use: the whole
 * character is every mesh of its skeleton in one body (the Robot's rigid parts and hands).
 */
import { detectFootContacts, humanoidMap, loadGltf, rootMotionFromFeet, type Clip, type FootLockLeg, type Skeleton, type SkinnedMeshData } from 'bitanim';
import { affine, getRootTrack } from 'bitanim/kernels';
import { createCharacterBody, type CharacterBody } from 'bitanim/pixi';
import { benchRig } from './benchRig';

/**
 * Locomotion clips with root motion and the speeds they travel at rate 1. The walk and the run
 * carry their feet's `footDown:` / `footUp:` events (`detectFootContacts`), which foot locking reads.
 */
export interface Locomotion {
  readonly idle: Clip;
  readonly walk: Clip;
  readonly run: Clip;
  /** m/s at rate 1, from the travel `rootMotionFromFeet` derived. */
  readonly walkSpeed: number;
  readonly runSpeed: number;
}

export type CharacterKind = 'fox' | 'robot' | 'bench';

/** A character the sandbox can spawn. */
export interface CharacterAsset {
  readonly kind: CharacterKind;
  readonly label: string;
  readonly skeleton: Skeleton;
  /** Every clip of the file, in place (no root motion added), by name. */
  readonly clips: ReadonlyMap<string, Clip>;
  /** The skinned mesh with its UVs and material (`loadGltf`'s), or null when the file has no single mesh worth drawing (the Robot's only skinned parts are its hands). */
  readonly mesh: SkinnedMeshData | null;
  /** Every primitive bound to the skeleton (`loadGltf`'s meshes of skeleton 0: the Robot's 19, rigid and skinned): the whole character; empty for the bench rig. */
  readonly meshes: readonly SkinnedMeshData[];
  /** Octahedral capsule bodies, one per bone, rigidly skinned to it (a mesh of the same shape, no material). */
  readonly capsules: SkinnedMeshData;
  /** The same for the longer bones only, with fewer triangles (for large crowds). */
  readonly coarseCapsules: SkinnedMeshData;
  /** Present when the character has idle, walk and run clips. */
  readonly locomotion: Locomotion | null;
  /** The head joint (what look-at turns), or −1. */
  readonly headJoint: number;
  /** The neck joint (the head's parent when it is named so: it takes a share of the turn), or −1. */
  readonly neckJoint: number;
  /** Approximate standing height, metres. */
  readonly height: number;
  /** Largest extent (height or length), metres: what a view must frame. */
  readonly size: number;
  /** Licence and attribution line, shown in the page. */
  readonly credit: string;
}

const FOX_CREDIT = '"Fox": low poly fox by PixelMannen (CC0); rigging and animation by @tomkranis (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/); glTF conversion by @AsoboStudio and @scurest.';
const ROBOT_CREDIT = 'RobotExpressive by Tomás Laulhé (Quaternius), modified by Don McCurdy, CC0.';

/** Fetches and prepares a character (`bench`: built in place, no fetch). */
export async function loadCharacter(kind: CharacterKind): Promise<CharacterAsset> {
  if (kind === 'bench') return benchCharacter();
  const file = kind === 'fox' ? 'Fox.glb' : 'RobotExpressive.glb';
  const response = await fetch(new URL(`assets/${file}`, document.baseURI));
  if (!response.ok) throw new Error(`fetching assets/${file}: HTTP ${response.status}`);
  // Fox: centimetres. Robot: about 4.6 units tall; 0.4 makes it about 1.8 m. Clips keep their keys' rate.
  const result = await loadGltf(new Uint8Array(await response.arrayBuffer()), { scale: kind === 'fox' ? 'cm' : 0.4 });
  const skeleton = result.skeletons[0];
  if (!skeleton) throw new Error(`${file} has no skin`);
  const clips = new Map<string, Clip>();
  for (const clip of result.clips) if (clip.skeleton === skeleton) clips.set(clip.name, clip);
  const mesh = (kind === 'fox' ? result.meshes.find((m) => m.skeleton === 0) : undefined) ?? null;
  const names = kind === 'fox' ? ['Survey', 'Walk', 'Run'] : ['Idle', 'Walking', 'Running'];
  const [idle, walk, run] = names.map((name) => clips.get(name));
  let locomotion: Locomotion | null = null;
  if (idle && walk && run) {
    const feet = kind === 'fox' ? FOX_FEET : ROBOT_FEET;
    const moving = [walk, run].map((clip) => detectFootContacts(rootMotionFromFeet(clip, { feet }), { feet }).clip);
    const [walkSpeed, runSpeed] = moving.map(speedOf);
    locomotion = { idle, walk: moving[0]!, run: moving[1]!, walkSpeed: walkSpeed!, runSpeed: runSpeed! };
  }
  const head = skeleton.names.findIndex((name) => /(^|[^a-z])head([^a-z]|$)/i.test(name));
  const headParent = head >= 0 ? skeleton.parents[head]! : -1;
  const neck = headParent >= 0 && /neck/i.test(skeleton.names[headParent]!) ? headParent : -1;
  let height = restHeight(skeleton) * 1.2, length = height;
  const whole = result.meshes.filter((m) => m.skeleton === 0);
  if (!mesh && whole.length > 0) {
    // The whole character in its rest pose (its joints alone miss the Robot's big head).
    const box = restExtent(skeleton, whole);
    height = box[1];
    length = Math.max(box[0], box[2]);
  }
  if (mesh) {
    const extent = (axis: number): number => {
      let lo = Infinity, hi = -Infinity;
      for (let v = axis; v < mesh.positions.length; v += 3) { lo = Math.min(lo, mesh.positions[v]!); hi = Math.max(hi, mesh.positions[v]!); }
      return hi - lo;
    };
    height = extent(1);
    length = Math.max(extent(0), extent(2));
  }
  return {
    kind,
    label: kind === 'fox' ? 'Fox' : 'RobotExpressive',
    skeleton,
    clips,
    mesh,
    meshes: whole,
    capsules: capsuleGeometry(skeleton),
    coarseCapsules: capsuleGeometry(skeleton, COARSE_CAPSULES, 'coarse capsules'),
    locomotion,
    headJoint: head,
    neckJoint: neck,
    height,
    size: Math.max(height, length),
    credit: kind === 'fox' ? FOX_CREDIT : ROBOT_CREDIT,
  };
}

/** A character kind's bodies: built once (their GPU data is shared by every crowd renderer). */
export interface CharacterBodies {
  /** The whole character with its materials (the Fox: its textured mesh; the Robot: its 19 meshes in one body, colours per vertex, morph targets), or null. */
  readonly mesh: CharacterBody | null;
  /** The same mesh in plain white (`material: null`): what motion LOD's colours tint. */
  readonly plainMesh: CharacterBody | null;
  readonly capsules: CharacterBody;
  readonly coarse: CharacterBody;
}

const built = new WeakMap<CharacterAsset, CharacterBodies>();

/** The bodies of `asset`, built on first use. */
export function bodiesOf(asset: CharacterAsset): CharacterBodies {
  let bodies = built.get(asset);
  if (!bodies) {
    bodies = {
      mesh: asset.meshes.length > 0 ? createCharacterBody(asset.meshes) : null,
      plainMesh: asset.meshes.length > 0 ? createCharacterBody(asset.meshes, null) : null,
      capsules: createCharacterBody(asset.capsules),
      coarse: createCharacterBody(asset.coarseCapsules),
    };
    built.set(asset, bodies);
  }
  return bodies;
}

/** The benchmark's rig: 64 synthetic joints and two looping clips (as `npm run bench`). */
function benchCharacter(): CharacterAsset {
  const { skeleton, clips } = benchRig();
  return {
    kind: 'bench',
    label: 'bench rig (64 joints)',
    skeleton,
    clips: new Map(clips.map((clip) => [clip.name, clip])),
    mesh: null,
    meshes: [],
    capsules: capsuleGeometry(skeleton),
    coarseCapsules: capsuleGeometry(skeleton, COARSE_CAPSULES, 'coarse capsules'),
    locomotion: null,
    headJoint: -1,
    neckJoint: -1,
    height: restHeight(skeleton),
    size: restHeight(skeleton),
    credit: 'Synthetic 64-joint skeleton and clips, built as bench/plan.ts builds them.',
  };
}

/** Rest-pose model matrices (J×12). */
function restModel(skeleton: Skeleton): Float64Array {
  const out = new Float64Array(skeleton.jointCount * 12);
  const local = new Float64Array(12);
  for (let j = 0; j < skeleton.jointCount; j++) {
    affine.fromSQT(local, 0, skeleton.rest, j * 10);
    const p = skeleton.parents[j]!;
    if (p < 0) out.set(local, j * 12);
    else affine.multiply(out, j * 12, out, p * 12, local, 0);
  }
  return out;
}

/** Extent (x, y, z) of meshes bound to `skeleton` in its rest pose: each vertex through Σ wᵢ · Rest_jᵢ · InverseBind_jᵢ. */
function restExtent(skeleton: Skeleton, meshes: readonly SkinnedMeshData[]): number[] {
  const model = restModel(skeleton);
  const skin = new Float64Array(skeleton.jointCount * 12);
  for (let j = 0; j < skeleton.jointCount; j++) affine.multiply(skin, j * 12, model, j * 12, skeleton.inverseBind, j * 12);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const point = new Float64Array(3), moved = new Float64Array(3);
  for (const mesh of meshes) {
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const sum = [0, 0, 0];
      for (let i = 0; i < 4; i++) {
        const w = mesh.weights[v * 4 + i]!;
        if (w === 0) continue;
        point.set(mesh.positions.subarray(v * 3, v * 3 + 3));
        affine.transformPoint(moved, 0, skin, mesh.joints[v * 4 + i]! * 12, point, 0);
        for (let c = 0; c < 3; c++) sum[c]! += w * moved[c]!;
      }
      for (let c = 0; c < 3; c++) { lo[c] = Math.min(lo[c]!, sum[c]!); hi[c] = Math.max(hi[c]!, sum[c]!); }
    }
  }
  return hi.map((h, c) => h - lo[c]!);
}

function restHeight(skeleton: Skeleton): number {
  const model = restModel(skeleton);
  let low = 0, high = 0;
  for (let j = 0; j < skeleton.jointCount; j++) {
    low = Math.min(low, model[j * 12 + 10]!);
    high = Math.max(high, model[j * 12 + 10]!);
  }
  return high - low;
}

/** The Fox's paws: hind toes and front wrists, the joints that reach the ground. */
const FOX_FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
/** The Robot's feet: its baked foot-IK targets. */
const ROBOT_FEET = ['Foot.L', 'Foot.R'];

/** The Fox's legs for `setFootLock`: hind thigh → shin (→ metatarsus, riding along) → toe; front upper arm → forearm → wrist. */
const FOX_LEGS: readonly FootLockLeg[] = [
  { upper: 'b_LeftLeg01_015', lower: 'b_LeftLeg02_016', foot: 'b_LeftFoot02_018' },
  { upper: 'b_RightLeg01_019', lower: 'b_RightLeg02_020', foot: 'b_RightFoot02_022' },
  { upper: 'b_LeftUpperArm_09', lower: 'b_LeftForeArm_010', foot: 'b_LeftHand_011' },
  { upper: 'b_RightUpperArm_06', lower: 'b_RightForeArm_07', foot: 'b_RightHand_08' },
];

/** A character's feet and the legs that carry them (foot `k` of `feet` is leg `k`'s foot). */
export interface CharacterFeet {
  /** The feet's joint names: what `detectFootContacts` and the clips' events name. */
  readonly feet: readonly string[];
  /** The legs for `setFootLock` (names), in the order of `feet`. */
  readonly legs: readonly FootLockLeg[];
  /** Where they come from, for the page. */
  readonly source: string;
}

/**
 * The feet of `asset`: the Fox's four paws, or the humanoid map's feet and legs (`humanoidMap`:
 * upperLeg → lowerLeg → foot); null for a skeleton that is neither (the bench rig).
 */
export function feetOf(asset: CharacterAsset): CharacterFeet | null {
  if (asset.kind === 'fox') return { feet: FOX_LEGS.map((leg) => leg.foot as string), legs: FOX_LEGS, source: 'the Fox\'s four paws (hind toes, front wrists)' };
  let joints;
  try {
    joints = humanoidMap(asset.skeleton).joints;
  } catch {
    return null;
  }
  const legs: FootLockLeg[] = [];
  for (const side of ['left', 'right'] as const) {
    const upper = joints[`${side}UpperLeg`], lower = joints[`${side}LowerLeg`], foot = joints[`${side}Foot`];
    if (upper === undefined || lower === undefined || foot === undefined) return null;
    legs.push({ upper, lower, foot });
  }
  return { feet: legs.map((leg) => leg.foot as string), legs, source: 'the humanoid map\'s feet (humanoidMap)' };
}

/** Horizontal speed of a clip with root travel at rate 1, m/s. */
function speedOf(clip: Clip): number {
  const cycle = getRootTrack(clip).cycle;
  return Math.hypot(cycle[0]!, cycle[2]!) / clip.duration;
}

/** Every bone, 4 vertices around the waist (8 triangles), and a body on each leaf joint. */
export const FULL_CAPSULES = { sides: 4, minLength: 0, leaves: true } as const;
/** For large crowds in software GL, where each triangle costs: bones longer than 9 % of the height, 3 around (6 triangles). */
export const COARSE_CAPSULES = { sides: 3, minLength: 0.09, leaves: false } as const;

/**
 * Capsule bodies, as a skinned mesh for `createCharacterBody`: for every bone p → j an octahedron stretched between the two joints (4
 * around the waist, 6 vertices, 8 triangles), and a small one on every leaf joint, built in the rest pose
 * and carried into bind space (v_bind = Bind_p · Rest_p⁻¹ · v_rest), weight 1 on joint p, so
 * the palette moves it rigidly with its bone. Bones from the hip's ancestors (the pole from
 * the floor to the hips) and IK helpers (names with "pole" or "target") are left out.
 */
export function capsuleGeometry(skeleton: Skeleton, detail: { sides: number; minLength: number; leaves: boolean } = FULL_CAPSULES, name = 'capsules'): SkinnedMeshData {
  const J = skeleton.jointCount;
  const rest = restModel(skeleton);
  const bind = new Float64Array(J * 12);
  for (let j = 0; j < J; j++) affine.invert(bind, j * 12, skeleton.inverseBind, j * 12);
  const hipAncestors = new Set<number>();
  for (let a = skeleton.hipJoint >= 0 ? skeleton.parents[skeleton.hipJoint]! : -1; a >= 0; a = skeleton.parents[a]!) hipAncestors.add(a);
  const skip = (j: number): boolean => /pole|target/i.test(skeleton.names[j]!);
  const height = restHeight(skeleton) || 1;
  const children = new Map<number, number[]>();
  for (let j = 0; j < J; j++) {
    const p = skeleton.parents[j]!;
    if (p >= 0) children.set(p, [...(children.get(p) ?? []), j]);
  }
  const positions: number[] = [], joints: number[] = [], weights: number[] = [], indices: number[] = [];
  const toBind = new Float64Array(12), restInverse = new Float64Array(12), point = new Float64Array(3);
  const emit = (owner: number, a: number[], b: number[], radius: number): void => {
    // Frame: axis d from a to b, two perpendiculars; a waist of 4 vertices a fifth of the way.
    const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
    const length = Math.hypot(d[0]!, d[1]!, d[2]!);
    if (length < 1e-6) return;
    const u = d.map((x) => x / length);
    const helper = Math.abs(u[1]!) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    const s = normalize(cross(u, helper)), t = cross(u, s);
    const waist = a.map((x, i) => x + d[i]! * 0.2);
    const sides = detail.sides;
    const ring = Array.from({ length: sides }, (_, k) => {
      const angle = (k * 2 * Math.PI) / sides + Math.PI / 4;
      return waist.map((x, i) => x + radius * (Math.cos(angle) * s[i]! + Math.sin(angle) * t[i]!));
    });
    affine.invert(restInverse, 0, rest, owner * 12);
    affine.multiply(toBind, 0, bind, owner * 12, restInverse, 0);
    const first = positions.length / 3;
    for (const p of [a, b, ...ring]) {
      point.set(p);
      affine.transformPoint(point, 0, toBind, 0, point, 0);
      positions.push(point[0]!, point[1]!, point[2]!);
      joints.push(owner, 0, 0, 0);
      weights.push(1, 0, 0, 0);
    }
    for (let k = 0; k < sides; k++) {
      const r0 = first + 2 + k, r1 = first + 2 + ((k + 1) % sides);
      indices.push(first, r1, r0, first + 1, r0, r1);
    }
  };
  const position = (j: number): number[] => [rest[j * 12 + 9]!, rest[j * 12 + 10]!, rest[j * 12 + 11]!];
  const boneLength = (j: number): number => {
    const a = position(skeleton.parents[j]!), b = position(j);
    return Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!);
  };
  const bones: number[] = [];
  for (let j = 0; j < J; j++) {
    const p = skeleton.parents[j]!;
    if (!skip(j) && p >= 0 && !hipAncestors.has(p) && !skip(p)) bones.push(j);
  }
  // Bones of at least minLength × height; when none is that long (the bench rig's tall chain
  // of short bones), the longer half of them.
  let minLength = detail.minLength * height;
  if (bones.length > 0 && !bones.some((j) => boneLength(j) >= minLength)) {
    minLength = bones.map(boneLength).sort((x, y) => x - y)[Math.floor(bones.length / 2)]!;
  }
  const isBone = new Set(bones);
  for (let j = 0; j < J; j++) {
    const p = skeleton.parents[j]!;
    if (skip(j)) continue;
    if (isBone.has(j)) {
      const a = position(p), b = position(j);
      const length = boneLength(j);
      if (length >= minLength) emit(p, a, b, Math.max(0.16 * length, 0.008 * height));
    }
    if (detail.leaves && !children.has(j) && !hipAncestors.has(j)) {
      // A leaf: a small body on the joint itself, pointing up.
      const r = 0.035 * height;
      const c = position(j);
      emit(j, [c[0]!, c[1]! - r, c[2]!], [c[0]!, c[1]! + r, c[2]!], r * 0.8);
    }
  }
  return {
    name,
    skeleton: 0,
    positions: new Float32Array(positions),
    normals: null, // createCharacterBody computes them
    joints: new Uint16Array(joints),
    weights: new Float32Array(weights),
    indices: new Uint32Array(indices),
    uvs: null,
    material: null,
    rigidJoint: -1, // skinned: each capsule follows its bone's joint through the weights
    morphTargets: [],
  };
}

function cross(a: number[], b: number[]): number[] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

function normalize(a: number[]): number[] {
  const n = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  return a.map((x) => x / n);
}
