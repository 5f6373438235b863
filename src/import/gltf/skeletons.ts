/**
 * glTF skins → {@link Skeleton}s (points 1–4 of the module comment in `../gltf.ts`): one per
 * distinct skin, joints named and ordered parents first, rest transforms with the non-joint
 * ancestors baked in. Each skeleton comes with what meshes and clips need to bind to it (a
 * {@link Rig}), and each skin with its joint remap (a {@link SkinBinding}).
 */
import type { Node, Skin } from '@gltf-transform/core';
import { IssueList } from '../../assets/AnimationError.js';
import { createSkeleton, type Skeleton, type SkeletonDesc } from '../../assets/Skeleton.js';
import { POSE_CHANNELS } from '../../assets/validatePose.js';
import * as affine from '../../math/affine.js';
import { MATRIX_STRIDE, MATRIX_T, NO_PARENT, POSE_STRIDE, POSE_T } from '../../math/layout.js';
import { WHERE } from './container.js';
import { firstNonFloat32, listNames, rethrowWithPrefix, type Context } from './shared.js';
import { composeNodes, readNodePose } from './nodePose.js';
import { composeInto, mat4ToAffine } from './transform.js';

/** Two inverse bind matrices are "the same" within this relative difference. */
const IBM_TOLERANCE = 1e-6;

/** A skeleton with what the importer needs to bind nodes to its joints. */
export interface Rig {
  readonly index: number;
  /** Replaced once by {@link addCurves} when meshes bound to it have morph targets. */
  skeleton: Skeleton;
  /** Joint index of each joint node. */
  readonly jointOf: ReadonlyMap<number, number>;
  /** Per joint: the composed transform of the non-joint nodes above it (file units), or null if none. */
  readonly prefix: readonly (Float64Array | null)[];
  /** J×10 each joint node's own T, R (normalized), S, in file units. */
  readonly nodePose: Float64Array;
  /** Non-joint nodes whose transforms are baked into joints. */
  readonly baked: ReadonlySet<number>;
  /** Unprocessed inverse binds for comparing skins (J×12, Float64, file units). */
  readonly inverseBind: Float64Array;
  readonly key: string;
}

/** A skin bound to its skeleton. */
export interface SkinBinding {
  readonly rig: Rig;
  /** Skin joint index → skeleton joint index. */
  readonly remap: Int32Array;
}

/** One {@link SkinBinding} per skin, in `skins` order; skins that share a skeleton share its {@link Rig}. */
export function buildSkeletons(ctx: Context, skins: readonly Skin[]): SkinBinding[] {
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
      let p = parents[n];
      while (p >= 0 && !inSkin.has(p)) {
        chain.push(p);
        p = parents[p];
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
        placed.add(pending[i]);
        order.push(pending[i]);
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
      readNodePose(ctx.nodes[n], nodePose, j * POSE_STRIDE);
      const chain = between.get(n)!;
      const p = composeNodes(chain.map((n) => ctx.nodes[n]));
      for (const b of chain) baked.add(b);
      prefix.push(p);
      if (p) {
        if (!composeInto(rest, j * POSE_STRIDE, p, nodePose, j * POSE_STRIDE, scratch)) sheared.push(name);
      } else {
        rest.set(nodePose.subarray(j * POSE_STRIDE, (j + 1) * POSE_STRIDE), j * POSE_STRIDE);
      }
    });
    for (let k = 0; k < jointCount; k++) {
      inverseBind.set(skinIbm.subarray(k * MATRIX_STRIDE, (k + 1) * MATRIX_STRIDE), remap[k] * MATRIX_STRIDE);
    }
    // File units → metres: every translation (rest, and the inverse binds' last column).
    const scaledBind = inverseBind.slice();
    if (ctx.scale !== 1) {
      for (let j = 0; j < jointCount; j++) {
        for (let i = 0; i < 3; i++) {
          rest[j * POSE_STRIDE + POSE_T + i] *= ctx.scale;
          scaledBind[j * MATRIX_STRIDE + MATRIX_T + i] *= ctx.scale;
        }
      }
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

    const attachments = findAttachments(ctx, jointOf);
    const skeleton = rethrowWithPrefix(`${path} → `, () => createSkeleton({ names, parents: parentsOut, rest, inverseBind: scaledBind, attachments }));
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
    const a = remap[k] * MATRIX_STRIDE, b = k * MATRIX_STRIDE;
    for (let i = 0; i < MATRIX_STRIDE; i++) {
      const x = rigIbm[a + i], y = skinIbm[b + i];
      if (Math.abs(x - y) > IBM_TOLERANCE * Math.max(1, Math.abs(x), Math.abs(y))) return false;
    }
  }
  return true;
}

/**
 * Attachments (sockets) of a skeleton: every node that is a child of one of its joints, not a
 * joint itself, with no mesh and no skin — RobotExpressive's `Head_end`, `Foot.L_end`. Named
 * after the node (`node<i>` when unnamed; a name taken by an earlier attachment gets `_1`,
 * `_2`, …), offset = the node's own T, R, S (translation in metres).
 */
function findAttachments(ctx: Context, jointOf: ReadonlyMap<number, number>): NonNullable<SkeletonDesc['attachments']>[number][] {
  const out: NonNullable<SkeletonDesc['attachments']>[number][] = [];
  const taken = new Set<string>();
  const parents = ctx.valid.nodeParents;
  const inAnySkin = ctx.valid.skinJoints;
  ctx.nodes.forEach((node, n) => {
    const joint = jointOf.get(parents[n]);
    if (joint === undefined || jointOf.has(n) || inAnySkin.has(n) || node.getMesh() || node.getSkin()) return;
    let name = ctx.valid.nodeNames[n] || `node${n}`;
    if (taken.has(name)) {
      let k = 1;
      while (taken.has(`${name}_${k}`)) k++;
      name = `${name}_${k}`;
    }
    taken.add(name);
    const offset = new Float64Array(POSE_STRIDE);
    readNodePose(node, offset, 0);
    for (let i = 0; i < 3; i++) offset[POSE_T + i] *= ctx.scale;
    out.push({ name, joint, offset });
  });
  return out;
}

/**
 * Rebuilds `rig.skeleton` with `curves` (the morph-target weights of the meshes bound to it):
 * the same joints, rest pose, inverse binds, hip joint and attachments.
 */
export function addCurves(rig: Rig, curves: readonly { name: string; default: number }[]): void {
  if (curves.length === 0) return;
  const old = rig.skeleton;
  rig.skeleton = rethrowWithPrefix(`skeleton ${rig.index} → `, () => createSkeleton({
    names: old.names, parents: old.parents, rest: old.rest, inverseBind: old.inverseBind, hipJoint: old.hipJoint,
    attachments: old.attachments.map((a) => ({ name: a.name, joint: a.joint, offset: a.offset })), curves,
  }));
}
