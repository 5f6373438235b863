/**
 * How tall a figure stands in its rest pose, metres (or file units): what `loadGltf`'s `height`
 * option scales to, what `bitanim inspect` prints, and what the units warnings judge.
 *
 * The figure is the skinned (and rigid) meshes of the skeleton, skinned at the rest pose by
 * linear blend skinning (K_j = C_j · B_j⁻¹, as the runtime skins), when it has any; otherwise
 * its joints. Its height is the extent along +Y (glTF's and the runtime's up axis), max y −
 * min y; a figure flat in Y (a skeleton lying in a plane) gives its largest extent instead.
 */
import type { Skeleton } from '../assets/Skeleton.js';
import { composeSkin } from '../math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T } from '../math/layout.js';
import { skinVertices } from '../math/skinVertices.js';

/** The parts of a mesh {@link restFigureHeight} reads: bind positions, 4 joints and weights per vertex. */
export interface FigureMesh {
  /** V×3 bind-pose positions (`SkinnedMeshData.positions`). */
  readonly positions: Float32Array;
  /** V×4 joint indices into the skeleton. */
  readonly joints: Uint16Array;
  /** V×4 weights. */
  readonly weights: Float32Array;
}

/** A figure's rest height and what it was measured on. */
export interface FigureHeight {
  /** Metres (or the file's units, for a file read without scale). 0 for a lone joint. */
  readonly height: number;
  /** `'mesh'`: the skinned rest meshes' extent; `'joints'`: the joints' (no mesh). */
  readonly from: 'mesh' | 'joints';
}

/**
 * The rest figure's height of `skeleton` with `meshes` (those bound to it; none → its joints).
 * See the module comment for what is measured.
 * @example
 * const { skeletons, meshes } = await loadGltf(bytes, { scale: 'cm' });
 * restFigureHeight(skeletons[0], meshes.filter((m) => m.skeleton === 0)); // { height: 0.88…, from: 'mesh' } (the Fox)
 */
export function restFigureHeight(skeleton: Skeleton, meshes: readonly FigureMesh[] = []): FigureHeight {
  const J = skeleton.jointCount;
  const model = new Float32Array(J * MATRIX_STRIDE), palette = new Float32Array(J * MATRIX_STRIDE);
  composeSkin(model, 0, palette, 0, skeleton.rest, 0, skeleton.parents, skeleton.inverseBind, J);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const add = (points: Float32Array, offset: number, stride: number, count: number): void => {
    for (let i = 0; i < count; i++) {
      for (let a = 0; a < 3; a++) {
        const v = points[i * stride + offset + a];
        if (v < min[a]) min[a] = v;
        if (v > max[a]) max[a] = v;
      }
    }
  };
  let from: FigureHeight['from'] = 'joints';
  for (const mesh of meshes) {
    const count = Math.floor(mesh.positions.length / 3);
    if (count === 0) continue;
    const skinned = new Float32Array(count * 3);
    skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, skinned);
    add(skinned, 0, 3, count);
    from = 'mesh';
  }
  if (from === 'joints') add(model, MATRIX_T, MATRIX_STRIDE, J);
  const extent = (a: number): number => (max[a] >= min[a] ? max[a] - min[a] : 0);
  const height = extent(1) > 0 ? extent(1) : Math.max(extent(0), extent(2));
  return { height, from };
}
