/**
 * glTF 2.0 import: skins → {@link Skeleton}s, animations → {@link Clip}s, skinned primitives →
 * {@link SkinnedMeshData}, through @gltf-transform/core.
 *
 * **Input.** A `.glb` or a `.gltf` JSON file with embedded (`data:`) buffers, told apart by
 * the GLB magic `glTF`. External URIs are refused; images, textures and materials are never
 * decoded. Every index, length and number is checked before use (`./gltf/validate.ts`), so a
 * malformed file gives one {@link AnimationError} naming the JSON path or byte offset, never
 * another exception, a hang or a huge allocation.
 *
 * **Skeletons.** One per distinct skin: skins with the same joint nodes and the same inverse
 * bind matrices share one (RobotExpressive's two hand skins). For each:
 * 1. Joint names are node names. A name already taken by an earlier joint of the skeleton
 *    gets `_1`, `_2`, … appended (three.js does the same), an empty one becomes `joint<i>`
 *    (i = its index in the skeleton); renames are listed in `warnings`.
 * 2. Joints are ordered parents first, keeping the skin's order where it already is; the
 *    inverse bind matrices and the meshes' `JOINTS_0` are remapped to that order.
 * 3. A joint's parent is its nearest ancestor node that is a joint of the skin (or none), and
 *    its rest transform is `N₁·N₂·…·Nₖ·L`: the non-joint nodes between (for a root joint, all
 *    its ancestors up to the scene root) composed with its own local transform, decomposed
 *    back into T, R, S (shear, which T·R·S cannot hold, is dropped with a warning). So model
 *    space is glTF world space and `model × inverseBind` is glTF's joint matrix; the skinned
 *    mesh node's own transform is ignored, as the specification requires.
 * 4. `inverseBind` is the skin's inverseBindMatrices with the bottom row dropped (identity
 *    when absent). The hip joint is createSkeleton's default.
 *
 * **Clips.** One per animation, on the skeleton whose joints it animates most (ties: the
 * first), `loop: true`, named after the animation (or `animation<i>`). Keys are resampled
 * uniformly over [0, D], D = the animation's last key time: `round(D × frameRate)` intervals
 * (at least 1), so the clip's rate is `intervals / D` — close to `frameRate` but chosen so D is
 * kept exactly and the last frame (the seam of a loop) falls on the last key. A single-key
 * animation (every channel has one key, at any time) is a constant pose: one frame. Joints
 * the animation does not animate hold their rest transform; a joint with non-joint ancestors
 * in between gets the composition of point 3. An animation that animates no joint at all
 * (only morph weights, say) gives no clip, with a warning.
 *
 * **Ignored, with one warning line per animation and kind:** morph-target `weights` channels,
 * channels on non-joint ancestors of the joints (their rest transform is baked in), channels
 * on other nodes that are not joints of the clip's skeleton, channels without a target node
 * (extensions) or with an unknown path.
 *
 * **Meshes.** Every triangle-list primitive of a mesh on a node with a skin (other modes and
 * primitives without JOINTS_0/WEIGHTS_0 are skipped with a warning; a mesh and skin pair on
 * several nodes is read once, since the nodes' own transforms do not apply). Weights are
 * renormalized to sum 1; a vertex whose weights sum to 0 gets weight 1 on its first joint
 * (counted in a warning). A `JOINTS_0` index beyond the skin is an error where its weight is
 * not 0, and is mapped to the skin's first joint where it is (it never contributes).
 */
import {
  Logger, WebIO,
  type Accessor, type Animation, type AnimationSampler, type Document, type GLTF, type Mesh, type Node, type Skin,
} from '@gltf-transform/core';
import { AnimationError, IssueList, type AnimationIssue } from '../assets/AnimationError.js';
import { createClip, type Clip } from '../assets/Clip.js';
import { createSkeleton, type Skeleton } from '../assets/Skeleton.js';
import { POSE_CHANNELS } from '../assets/validatePose.js';
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, NO_PARENT, POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';
import { readContainer, WHERE } from './gltf/container.js';
import { readTimes, readTrack, sampleTrack, type Track } from './gltf/sampler.js';
import { composeInto, isIdentity, mat4ToAffine } from './gltf/transform.js';
import { validateGltf, type ValidatedGltf } from './gltf/validate.js';

/** Options of {@link loadGltf}. */
export interface GltfOptions {
  /** Target resampling rate in frames per second, finite and > 0 (default 30). */
  frameRate?: number;
}

/** One skinned primitive, ready for {@link skinVertices}. */
export interface SkinnedMeshData {
  /** Mesh name (or node name, or `mesh<i>`) + `#` + primitive index, e.g. `"fox1#0"`. */
  readonly name: string;
  /** Index into {@link GltfResult.skeletons}. */
  readonly skeleton: number;
  /** V×3 bind-pose positions in mesh space (the skinned node's own transform is ignored). */
  readonly positions: Float32Array;
  /** V×3 normals when the primitive has NORMAL, else null. */
  readonly normals: Float32Array | null;
  /** V×4 joint indices into the skeleton's joint order (remapped from the skin's order). */
  readonly joints: Uint16Array;
  /** V×4 weights, renormalized to sum 1. */
  readonly weights: Float32Array;
  /** Triangle list, or null when the primitive is not indexed. */
  readonly indices: Uint32Array | null;
}

/** What {@link loadGltf} returns. */
export interface GltfResult {
  /** One per distinct skin (same joints and inverse bind matrices → one skeleton). */
  readonly skeletons: Skeleton[];
  /** One per animation that animates joints, on the skeleton whose joints it animates most. */
  readonly clips: Clip[];
  /** One per skinned triangle primitive. */
  readonly meshes: SkinnedMeshData[];
  /** Things ignored or repaired, one line each. */
  readonly warnings: string[];
}

const DEFAULT_FRAME_RATE = 30;
/** Resampled clips larger than this many floats (256 MB) are refused. */
const MAX_CLIP_FLOATS = 1 << 26;
/** Two inverse bind matrices are "the same" within this relative difference. */
const IBM_TOLERANCE = 1e-6;
/** Node names listed in one warning line before "…". */
const LISTED_NAMES = 6;

/**
 * Reads a glTF 2.0 file (`.glb` or `.gltf` with embedded buffers) into skeletons, clips and
 * skinned mesh data. See the module comment for the policies.
 *
 * @throws AnimationError for malformed input, naming the JSON path or byte offset: truncated
 * GLB, wrong magic, JSON that is not glTF, external URIs, accessors out of range, joint
 * indices out of range, non-finite transforms or keys, unsupported required extensions.
 * @example
 * const { skeletons, clips, meshes } = await loadGltf(new Uint8Array(await (await fetch('fox.glb')).arrayBuffer()));
 */
export async function loadGltf(bytes: Uint8Array, options: GltfOptions = {}): Promise<GltfResult> {
  try {
    return await importGltf(bytes, options);
  } catch (error) {
    if (error instanceof AnimationError) throw error;
    // A fault the checks missed: still an AnimationError, never another exception.
    throw new AnimationError(WHERE, [{ path: 'file', message: `could not be read: ${messageOf(error)}` }]);
  }
}

/** A skeleton with what the importer needs to bind nodes to its joints. */
interface Rig {
  readonly index: number;
  readonly skeleton: Skeleton;
  /** Joint index of each joint node. */
  readonly jointOf: ReadonlyMap<number, number>;
  /** Per joint: the composed transform of the non-joint nodes above it, or null if none. */
  readonly prefix: readonly (Float64Array | null)[];
  /** J×10 each joint node's own T, R (normalized), S. */
  readonly nodePose: Float64Array;
  /** Non-joint nodes whose transforms are baked into joints. */
  readonly baked: ReadonlySet<number>;
  /** Unprocessed inverse binds for comparing skins (J×12, Float64). */
  readonly inverseBind: Float64Array;
  readonly key: string;
}

interface SkinBinding {
  readonly rig: Rig;
  /** Skin joint index → skeleton joint index. */
  readonly remap: Int32Array;
}

async function importGltf(bytes: Uint8Array, options: GltfOptions): Promise<GltfResult> {
  const frameRate = options.frameRate ?? DEFAULT_FRAME_RATE;
  if (typeof frameRate !== 'number' || !Number.isFinite(frameRate) || frameRate <= 0) {
    throw new AnimationError(WHERE, [{ path: 'options.frameRate', message: `is ${String(frameRate)}: must be a finite number > 0` }]);
  }
  const container = readContainer(bytes);
  const valid = validateGltf(container.json, container.bin);
  const warnings = valid.warnings;
  const document = await readDocument(valid);
  const root = document.getRoot();
  const nodes = root.listNodes();
  const nodeIndex = new Map<Node, number>(nodes.map((node, i) => [node, i]));
  const ctx: Context = { valid, nodes, nodeIndex, warnings, frameRate };

  const bindings = buildSkeletons(ctx, root.listSkins());
  const rigs = [...new Set(bindings.map((b) => b.rig))];
  const meshes = buildMeshes(ctx, bindings, root.listSkins(), root.listMeshes());
  const clips = buildClips(ctx, rigs, root.listAnimations());
  return { skeletons: rigs.map((r) => r.skeleton), clips, meshes, warnings };
}

interface Context {
  readonly valid: ValidatedGltf;
  readonly nodes: readonly Node[];
  readonly nodeIndex: ReadonlyMap<Node, number>;
  readonly warnings: string[];
  readonly frameRate: number;
}

async function readDocument(valid: ValidatedGltf): Promise<Document> {
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  try {
    return await io.readJSON({
      json: valid.json as unknown as GLTF.IGLTF,
      resources: valid.resources as Record<string, Uint8Array<ArrayBuffer>>,
    });
  } catch (error) {
    throw new AnimationError(WHERE, [{ path: '@gltf-transform (reading the checked JSON)', message: messageOf(error) }]);
  }
}

// ---------------------------------------------------------------------------------------------
// Skeletons

function buildSkeletons(ctx: Context, skins: readonly Skin[]): SkinBinding[] {
  const { valid, nodeIndex, warnings } = ctx;
  const parents = valid.nodeParents;
  const rigs: Rig[] = [];
  const issues = new IssueList(WHERE);

  const bindings = skins.map((skin, s): SkinBinding | null => {
    const path = `skins[${s}]`;
    const skinNodes = Int32Array.from(skin.listJoints(), (n) => nodeIndex.get(n) ?? -1);
    const jointCount = skinNodes.length;
    const inSkin = new Set(skinNodes);
    const key = [...skinNodes].sort((a, b) => a - b).join(',');

    // Inverse binds in the skin's order.
    const skinIbm = new Float64Array(jointCount * MATRIX_STRIDE);
    const ibmAccessor = skin.getInverseBindMatrices();
    if (ibmAccessor && ibmAccessor.getCount() < jointCount) {
      issues.add(`${path}.inverseBindMatrices`, `has ${ibmAccessor.getCount()} matrices for ${jointCount} joints`);
      return null;
    }
    const m: number[] = [];
    for (let k = 0; k < jointCount; k++) {
      if (!ibmAccessor) {
        affine.identity(skinIbm, k * MATRIX_STRIDE);
        continue;
      }
      ibmAccessor.getElement(k, m);
      const bad = m.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) {
        issues.add(`${path}.inverseBindMatrices[${k}][${bad}]`, `is ${m[bad]}, not a finite number`);
        return null;
      }
      mat4ToAffine(skinIbm, k * MATRIX_STRIDE, m, 0);
    }

    // Same joints and inverse binds as an earlier skin: share its skeleton.
    for (const rig of rigs) {
      if (rig.key !== key) continue;
      const remap = Int32Array.from(skinNodes, (n) => rig.jointOf.get(n)!);
      if (sameInverseBinds(rig.inverseBind, skinIbm, remap)) return { rig, remap };
    }
    if (rigs.some((r) => r.key === key)) {
      warnings.push(`${path} has the joints of an earlier skin but other inverse bind matrices: it gets its own skeleton`);
    }

    // Nearest joint ancestor and the non-joint nodes in between (bottom-up).
    const jointParentNode = new Map<number, number>();
    const between = new Map<number, number[]>();
    for (const n of skinNodes) {
      const chain: number[] = [];
      let p = parents[n]!;
      while (p >= 0 && !inSkin.has(p)) {
        chain.push(p);
        p = parents[p]!;
      }
      jointParentNode.set(n, p);
      between.set(n, chain);
    }

    // Parents first, keeping the skin's order where it already is.
    const order: number[] = [];
    const placed = new Set<number>();
    for (const n of skinNodes) {
      const pending: number[] = [];
      for (let a = n; a >= 0 && !placed.has(a); a = jointParentNode.get(a)!) pending.push(a);
      for (let i = pending.length - 1; i >= 0; i--) {
        placed.add(pending[i]!);
        order.push(pending[i]!);
      }
    }
    const jointOf = new Map<number, number>(order.map((n, j) => [n, j]));
    const remap = Int32Array.from(skinNodes, (n) => jointOf.get(n)!);
    const index = rigs.length;

    const names: string[] = [];
    const taken = new Set<string>();
    const renamed: string[] = [];
    const parentsOut = new Int16Array(jointCount);
    const nodePose = new Float64Array(jointCount * POSE_STRIDE);
    const rest = new Float64Array(jointCount * POSE_STRIDE);
    const inverseBind = new Float64Array(jointCount * MATRIX_STRIDE);
    const prefix: (Float64Array | null)[] = [];
    const baked = new Set<number>();
    const scratch = new Float64Array(MATRIX_STRIDE);
    const sheared: string[] = [];
    order.forEach((n, j) => {
      const raw = valid.nodeNames[n] ?? '';
      let name = raw || `joint${j}`;
      if (taken.has(name)) {
        let k = 1;
        while (taken.has(`${name}_${k}`)) k++;
        renamed.push(`"${name}" (node ${n}) → "${name}_${k}"`);
        name = `${name}_${k}`;
      }
      taken.add(name);
      names.push(name);
      const parentNode = jointParentNode.get(n)!;
      parentsOut[j] = parentNode >= 0 ? jointOf.get(parentNode)! : NO_PARENT;
      readNodePose(ctx.nodes[n]!, nodePose, j * POSE_STRIDE);
      const chain = between.get(n)!;
      const p = composeChain(ctx, chain);
      for (const b of chain) baked.add(b);
      prefix.push(p);
      if (p) {
        if (!composeInto(rest, j * POSE_STRIDE, p, nodePose, j * POSE_STRIDE, scratch)) sheared.push(name);
      } else {
        rest.set(nodePose.subarray(j * POSE_STRIDE, (j + 1) * POSE_STRIDE), j * POSE_STRIDE);
      }
    });
    for (let k = 0; k < jointCount; k++) {
      inverseBind.set(skinIbm.subarray(k * MATRIX_STRIDE, (k + 1) * MATRIX_STRIDE), remap[k]! * MATRIX_STRIDE);
    }
    const bad = firstNonFloat32(rest);
    if (bad >= 0) {
      const j = Math.floor(bad / POSE_STRIDE);
      issues.add(`${path} joint "${names[j]}" (node ${order[j]}) rest ${POSE_CHANNELS[bad % POSE_STRIDE]}`, `is ${rest[bad]}: outside the float32 range`);
      return null;
    }
    if (renamed.length) warnings.push(`skeleton ${index} (${path}): duplicate joint names made unique: ${renamed.join(', ')}`);
    if (sheared.length) {
      warnings.push(`skeleton ${index} (${path}): the rest transforms of joints ${listNames(sheared)} have shear from non-uniformly scaled non-joint ancestors; the shear is dropped`);
    }

    const skeleton = rethrowWithPrefix(`${path} → `, () => createSkeleton({ names, parents: parentsOut, rest, inverseBind }));
    const rig: Rig = {
      index, skeleton, jointOf, prefix, nodePose, baked, inverseBind, key,
    };
    rigs.push(rig);
    return { rig, remap };
  });
  issues.throwIfAny();
  return bindings as SkinBinding[];
}

function sameInverseBinds(rigIbm: Float64Array, skinIbm: Float64Array, remap: Int32Array): boolean {
  for (let k = 0; k < remap.length; k++) {
    const a = remap[k]! * MATRIX_STRIDE, b = k * MATRIX_STRIDE;
    for (let i = 0; i < MATRIX_STRIDE; i++) {
      const x = rigIbm[a + i]!, y = skinIbm[b + i]!;
      if (Math.abs(x - y) > IBM_TOLERANCE * Math.max(1, Math.abs(x), Math.abs(y))) return false;
    }
  }
  return true;
}

/** Writes a node's own T, R (normalized), S at `out[o..o+9]`. */
function readNodePose(node: Node, out: Float64Array, o: number): void {
  const t = node.getTranslation(), r = node.getRotation(), s = node.getScale();
  out.set(t, o);
  out.set(r, o + 3);
  out.set(s, o + 7);
  quat.normalize(out, o + 3, out, o + 3);
}

/** `N_top · … · N_bottom` for a bottom-up chain of nodes, or null when it is the identity. */
function composeChain(ctx: Context, chainBottomUp: readonly number[]): Float64Array | null {
  if (chainBottomUp.length === 0) return null;
  const m = new Float64Array(MATRIX_STRIDE);
  const local = new Float64Array(MATRIX_STRIDE);
  const pose = new Float64Array(POSE_STRIDE);
  affine.identity(m, 0);
  for (let i = chainBottomUp.length - 1; i >= 0; i--) {
    readNodePose(ctx.nodes[chainBottomUp[i]!]!, pose, 0);
    affine.fromSQT(local, 0, pose, 0);
    affine.multiply(m, 0, m, 0, local, 0);
  }
  return isIdentity(m, 0) ? null : m;
}

// ---------------------------------------------------------------------------------------------
// Meshes

function buildMeshes(
  ctx: Context, bindings: readonly SkinBinding[], skins: readonly Skin[],
  meshes: readonly Mesh[],
): SkinnedMeshData[] {
  const { nodes, warnings } = ctx;
  const out: SkinnedMeshData[] = [];
  const done = new Set<string>();
  const issues = new IssueList(WHERE);
  nodes.forEach((node, n) => {
    const mesh = node.getMesh();
    const skin = node.getSkin();
    if (!mesh || !skin) return;
    const m = meshes.indexOf(mesh);
    const s = skins.indexOf(skin);
    const key = `${m}/${s}`;
    if (done.has(key)) return; // the same mesh and skin on another node: the same data
    done.add(key);
    const binding = bindings[s]!;
    mesh.listPrimitives().forEach((prim, p) => {
      const path = `meshes[${m}].primitives[${p}]`;
      const name = `${mesh.getName() || node.getName() || `mesh${m}`}#${p}`;
      if (prim.getMode() !== 4) {
        warnings.push(`${path} ("${name}") has mode ${prim.getMode()}, not a triangle list (4): skipped`);
        return;
      }
      const position = prim.getAttribute('POSITION');
      const joints = prim.getAttribute('JOINTS_0');
      const weights = prim.getAttribute('WEIGHTS_0');
      if (!position || !joints || !weights) {
        const missing = [position ? '' : 'POSITION', joints ? '' : 'JOINTS_0', weights ? '' : 'WEIGHTS_0'].filter(Boolean);
        warnings.push(`${path} ("${name}") on skinned node ${n} has no ${missing.join(', ')}: skipped`);
        return;
      }
      const data = readPrimitive(issues, path, name, binding, position, prim.getAttribute('NORMAL'), joints, weights, prim.getIndices(), warnings);
      if (data) out.push(data);
    });
  });
  issues.throwIfAny();
  return out;
}

function readPrimitive(
  issues: IssueList, path: string, name: string, binding: SkinBinding,
  position: Accessor, normal: Accessor | null, joints: Accessor, weights: Accessor, indices: Accessor | null,
  warnings: string[],
): SkinnedMeshData | null {
  const vertexCount = position.getCount();
  for (const [label, a] of [['NORMAL', normal], ['JOINTS_0', joints], ['WEIGHTS_0', weights]] as const) {
    if (a && a.getCount() !== vertexCount) {
      issues.add(`${path}.attributes.${label}`, `has ${a.getCount()} elements, POSITION has ${vertexCount}`);
      return null;
    }
  }
  const positions = readFloats(issues, `${path}.attributes.POSITION`, position, 3);
  const normals = normal ? readFloats(issues, `${path}.attributes.NORMAL`, normal, 3) : null;
  if (!positions || (normal && !normals)) return null;

  const skinJoints = binding.remap.length;
  const jointOut = new Uint16Array(vertexCount * 4);
  const weightOut = new Float32Array(vertexCount * 4);
  const rawJoints = joints.getArray()!;
  const w: number[] = [];
  let zeroSum = 0;
  for (let v = 0; v < vertexCount; v++) {
    weights.getElement(v, w);
    let sum = 0;
    for (let i = 0; i < 4; i++) {
      const weight = w[i]!;
      if (!Number.isFinite(weight) || weight < 0) {
        issues.add(`${path}.attributes.WEIGHTS_0[${v}][${i}]`, `is ${weight}: weights must be finite and ≥ 0`);
        return null;
      }
      const joint = rawJoints[v * 4 + i]!;
      if (!Number.isInteger(joint) || joint < 0 || (joint >= skinJoints && weight > 0)) {
        issues.add(`${path}.attributes.JOINTS_0[${v}][${i}]`, `is ${joint}: the skin has ${skinJoints} joints`);
        return null;
      }
      jointOut[v * 4 + i] = joint < skinJoints ? binding.remap[joint]! : 0;
      sum += weight;
    }
    if (sum > 0) {
      for (let i = 0; i < 4; i++) weightOut[v * 4 + i] = w[i]! / sum;
    } else {
      weightOut[v * 4] = 1;
      zeroSum++;
    }
  }
  if (zeroSum) {
    const which = zeroSum === 1 ? '1 vertex had weights summing to 0 and got weight 1 on its' : `${zeroSum} vertices had weights summing to 0 and got weight 1 on their`;
    warnings.push(`${path} ("${name}"): ${which} first joint`);
  }

  let indexOut: Uint32Array | null = null;
  if (indices) {
    const raw = indices.getArray()!;
    if (raw.length % 3 !== 0) {
      issues.add(`${path}.indices`, `has ${raw.length} indices, not a whole number of triangles`);
      return null;
    }
    indexOut = new Uint32Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const index = raw[i]!;
      if (index >= vertexCount) {
        issues.add(`${path}.indices[${i}]`, `is ${index}: the primitive has ${vertexCount} vertices`);
        return null;
      }
      indexOut[i] = index;
    }
  } else if (vertexCount % 3 !== 0) {
    issues.add(`${path}`, `is not indexed and has ${vertexCount} vertices, not a whole number of triangles`);
    return null;
  }
  return Object.freeze({
    name, skeleton: binding.rig.index, positions, normals, joints: jointOut, weights: weightOut, indices: indexOut,
  });
}

/** An accessor's elements as float32 (normalized integers decoded), checked finite. */
function readFloats(issues: IssueList, path: string, accessor: Accessor, size: number): Float32Array | null {
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  const raw = accessor.getArray()!;
  if (raw instanceof Float32Array && raw.length === out.length) out.set(raw);
  else {
    const e: number[] = [];
    for (let i = 0; i < count; i++) {
      accessor.getElement(i, e);
      for (let k = 0; k < size; k++) out[i * size + k] = e[k]!;
    }
  }
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i]!)) {
      issues.add(`${path}[${Math.floor(i / size)}][${i % size}]`, `is ${out[i]}, not a finite number`);
      return null;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Clips

const TRS_OFFSET: Readonly<Record<string, number>> = { translation: 0, rotation: 3, scale: 7 };

interface BoundTrack {
  readonly joint: number;
  readonly offset: number;
  readonly track: Track;
}

function buildClips(ctx: Context, rigs: readonly Rig[], animations: readonly Animation[]): Clip[] {
  const { nodeIndex, warnings, valid } = ctx;
  const issues = new IssueList(WHERE);
  const clips: Clip[] = [];
  const nodeLabel = (n: number) => `"${valid.nodeNames[n] || `node ${n}`}"`;

  animations.forEach((animation, a) => {
    const name = animation.getName() || `animation${a}`;
    const path = `animations[${a}]`;
    const head = `animation "${name}" (${path})`;
    const samplers = animation.listSamplers();
    const times = new Map<AnimationSampler, Float64Array | null>();
    const timesOf = (sampler: AnimationSampler): Float64Array | null => {
      if (!times.has(sampler)) times.set(sampler, readTimes(sampler.getInput(), issues, `${path}.samplers[${samplers.indexOf(sampler)}].input`));
      return times.get(sampler)!;
    };

    // Classify channels; the duration counts every channel, as three.js does.
    let duration = 0;
    let moving = false; // some channel has two keys or more
    const transform: Array<{ node: number; targetPath: string; sampler: AnimationSampler; channel: number }> = [];
    const morph: number[] = [], noNode: number[] = [], otherPath: string[] = [];
    animation.listChannels().forEach((channel, c) => {
      const sampler = channel.getSampler();
      const keys = sampler ? timesOf(sampler) : null;
      if (keys) {
        duration = Math.max(duration, keys[keys.length - 1]!);
        if (keys.length > 1) moving = true;
      }
      const target = channel.getTargetNode();
      const targetPath = channel.getTargetPath() ?? '';
      const node = target ? nodeIndex.get(target)! : -1;
      if (targetPath === 'weights') morph.push(node);
      else if (!(targetPath in TRS_OFFSET)) otherPath.push(targetPath);
      else if (node < 0) noNode.push(c);
      else if (sampler) transform.push({ node, targetPath, sampler, channel: c });
    });
    if (morph.length) {
      warnings.push(`${head}: ignored ${plural(morph.length, 'morph-target "weights" channel')} (${morph.length > 1 ? 'nodes' : 'node'} ${listNames(morph.map(nodeLabel), false)})`);
    }
    if (noNode.length) warnings.push(`${head}: ignored ${plural(noNode.length, 'channel')} without a target node (an extension such as KHR_animation_pointer)`);
    if (otherPath.length) warnings.push(`${head}: ignored ${plural(otherPath.length, 'channel')} with an unsupported path (${listNames([...new Set(otherPath)])})`);

    // The skeleton whose joints it animates most.
    let rig: Rig | null = null;
    let best = 0;
    for (const r of rigs) {
      const count = transform.filter((t) => r.jointOf.has(t.node)).length;
      if (count > best) {
        best = count;
        rig = r;
      }
    }
    if (!rig) {
      warnings.push(`${head}: animates no joint of any skin${rigs.length ? '' : ' (the file has no skins)'}: no clip`);
      return;
    }

    const bound: BoundTrack[] = [];
    const ancestors: number[] = [], strangers: number[] = [];
    for (const t of transform) {
      const joint = rig.jointOf.get(t.node);
      if (joint === undefined) {
        (rig.baked.has(t.node) ? ancestors : strangers).push(t.node);
        continue;
      }
      const keys = timesOf(t.sampler);
      if (!keys) continue;
      const track = readTrack(t.sampler, keys, t.targetPath === 'rotation' ? 4 : 3, issues, `${path}.channels[${t.channel}] (${nodeLabel(t.node)}.${t.targetPath}) sampler`);
      if (track) bound.push({ joint, offset: TRS_OFFSET[t.targetPath]!, track });
    }
    if (ancestors.length) {
      warnings.push(`${head}: ignored ${plural(ancestors.length, 'channel')} on non-joint ancestors of skeleton ${rig.index}'s joints (${listNames([...new Set(ancestors)].map(nodeLabel), false)}): their rest transforms are baked into the joints`);
    }
    if (strangers.length) {
      warnings.push(`${head}: ignored ${plural(strangers.length, 'channel')} on nodes that are not joints of skeleton ${rig.index} (${listNames([...new Set(strangers)].map(nodeLabel), false)})`);
    }
    if (issues.issues.length) return;

    const jointCount = rig.skeleton.jointCount;
    // Single keys everywhere: a constant pose, stored as one frame whatever the key times.
    const intervals = moving && duration > 0 ? Math.max(1, Math.round(duration * ctx.frameRate)) : 0;
    const frameCount = intervals + 1;
    if (frameCount * jointCount * POSE_STRIDE > MAX_CLIP_FLOATS) {
      issues.add(path, `lasts ${duration} s: ${frameCount} frames of ${jointCount} joints at ${ctx.frameRate} fps exceed the ${MAX_CLIP_FLOATS}-float clip limit`);
      return;
    }
    const rate = intervals > 0 ? intervals / duration : ctx.frameRate;
    const frames = new Float32Array(frameCount * jointCount * POSE_STRIDE);
    const pose = new Float64Array(jointCount * POSE_STRIDE);
    const scratch = new Float64Array(MATRIX_STRIDE);
    const sheared = new Set<number>();
    for (let f = 0; f < frameCount; f++) {
      // f·D/intervals, so the last frame is exactly D.
      const t = intervals > 0 ? (f * duration) / intervals : 0;
      pose.set(rig.nodePose);
      for (const b of bound) sampleTrack(b.track, t, pose, b.joint * POSE_STRIDE + b.offset);
      const base = f * jointCount * POSE_STRIDE;
      for (let j = 0; j < jointCount; j++) {
        const o = j * POSE_STRIDE;
        const prefix = rig.prefix[j]!;
        if (prefix) {
          quat.normalize(pose, o + 3, pose, o + 3);
          if (!composeInto(frames, base + o, prefix, pose, o, scratch)) sheared.add(j);
        } else {
          for (let i = 0; i < POSE_STRIDE; i++) frames[base + o + i] = pose[o + i]!;
        }
      }
    }
    const bad = firstNonFloat32(frames);
    if (bad >= 0) {
      const f = Math.floor(bad / (jointCount * POSE_STRIDE)), j = Math.floor(bad / POSE_STRIDE) % jointCount;
      issues.add(`${path} frame ${f} joint "${rig.skeleton.names[j]}".${POSE_CHANNELS[bad % POSE_STRIDE]}`, 'overflows float32: the keys are out of range');
      return;
    }
    if (sheared.size) {
      const names = [...sheared].map((j) => `"${rig.skeleton.names[j]}"`);
      warnings.push(`${head}: animated transforms of joints ${listNames(names, false)} have shear from non-uniformly scaled non-joint ancestors; the shear is dropped`);
    }
    clips.push(rethrowWithPrefix(`${path} "${name}" → `, () => createClip({ skeleton: rig.skeleton, frameRate: rate, frames, loop: true, name })));
  });
  issues.throwIfAny();
  return clips;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Runs `build`; an AnimationError it throws is re-thrown as loadGltf's with `prefix` on each path. */
function rethrowWithPrefix<T>(prefix: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof AnimationError)) throw error;
    const issues: AnimationIssue[] = error.issues.map((i) => ({ path: `${error.where} ${prefix}${i.path}`, message: i.message }));
    throw new AnimationError(WHERE, issues);
  }
}

/** Index of the first value that is not finite once stored as float32, or −1. */
function firstNonFloat32(values: Float32Array | Float64Array): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(Math.fround(values[i]!))) return i;
  return -1;
}

function listNames(names: readonly string[], quote = true): string {
  const shown = names.slice(0, LISTED_NAMES).map((n) => (quote ? `"${n}"` : n));
  return shown.join(', ') + (names.length > LISTED_NAMES ? `, … (${names.length} in all)` : '');
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
