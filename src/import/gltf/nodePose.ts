/**
 * A glTF node's own transform as bitanim reads it, for the importer (skeletons.ts) and for
 * writing reduced clips back into a document (src/export/gltfAnimation.ts). Offline code.
 */
import type { Node } from '@gltf-transform/core';
import * as affine from '../../math/affine.js';
import { MATRIX_STRIDE, POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../../math/layout.js';
import * as quat from '../../math/quat.js';
import { isIdentity } from './transform.js';

/** Writes a node's own T, R (normalized), S at `out[o..o+9]`. */
export function readNodePose(node: Node, out: Float64Array, o: number): void {
  out.set(node.getTranslation(), o + POSE_T);
  out.set(node.getRotation(), o + POSE_Q);
  out.set(node.getScale(), o + POSE_S);
  quat.normalize(out, o + POSE_Q, out, o + POSE_Q);
}

/** `N_top · … · N_bottom` (3×4) for a bottom-up chain of nodes, or null when it is the identity (or empty). */
export function composeNodes(chainBottomUp: readonly Node[]): Float64Array | null {
  if (chainBottomUp.length === 0) return null;
  const m = new Float64Array(MATRIX_STRIDE);
  const local = new Float64Array(MATRIX_STRIDE);
  const pose = new Float64Array(POSE_STRIDE);
  affine.identity(m, 0);
  for (let i = chainBottomUp.length - 1; i >= 0; i--) {
    readNodePose(chainBottomUp[i], pose, 0);
    affine.fromSQT(local, 0, pose, 0);
    affine.multiply(m, 0, m, 0, local, 0);
  }
  return isIdentity(m, 0) ? null : m;
}
