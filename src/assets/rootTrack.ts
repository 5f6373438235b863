/**
 * A clip's root-motion track: where its root-motion joint (the hip joint, else joint 0) is in
 * model space on every frame, computed once per clip and cached. Root motion reads the
 * joint's displacement between two times off this track, and normalization reads its cycle:
 * the net displacement from the first to the last frame, the farthest the joint gets from
 * where it started, and the hips' height.
 */
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../math/layout.js';
import type { Clip } from './Clip.js';
import { computeRestModel, type Skeleton } from './Skeleton.js';

/** See the module comment. Positions are in the clip's units (metres for well-made assets). */
export interface RootTrack {
  /** The joint of the clip's skeleton whose motion drives the character. */
  readonly joint: number;
  /** `frameCount × 3` floats: the joint's model-space x, y, z per frame. */
  readonly positions: Float32Array;
  /** Net displacement over the clip, last frame minus first (x, y, z). */
  readonly cycle: Float64Array;
  /**
   * The largest horizontal distance of the joint from its first-frame position over the
   * clip's frames: max over frames f of |(x_f − x_0, z_f − z_0)|, in the clip's units. The
   * last frame is one of them, so it is ≥ the horizontal length of {@link cycle}.
   *
   * The seed normalizes a cycle's travel "by the animation's maximum displacement or its net
   * travel" (seeds/root-motion-normalization.txt, 移動値による速度制限): this is the
   * former, which stays > 0 for a clip that goes out and comes back (net travel ~0). Frames
   * suffice: the track is linear between frames and distance is convex, so on each piece its
   * maximum is at a frame.
   */
  readonly maxDistance: number;
  /**
   * "Animation hips" of the hip-height ratio: the clip skeleton's rest hip height, or — when
   * the skeleton's rest pose has none (0, as BVH skeletons, whose rest is their offsets) — the
   * joint's mean height over the clip.
   */
  readonly hipHeight: number;
}

const cache = new WeakMap<Clip, RootTrack>();

/** The {@link RootTrack} of `clip`, computed on first use. */
export function getRootTrack(clip: Clip): RootTrack {
  let track = cache.get(clip);
  if (track === undefined) {
    track = computeRootTrack(clip);
    cache.set(clip, track);
  }
  return track;
}

function computeRootTrack(clip: Clip): RootTrack {
  const { skeleton, frames, frameCount } = clip;
  const joint = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
  // The chain root → joint, so each frame composes only the joint's ancestors.
  const chain: number[] = [];
  for (let j = joint; j >= 0; j = skeleton.parents[j]!) chain.unshift(j);
  const poseSize = skeleton.jointCount * POSE_STRIDE;
  const positions = new Float32Array(frameCount * 3);
  const m = new Float64Array(2 * MATRIX_STRIDE);
  for (let f = 0; f < frameCount; f++) {
    affine.identity(m, 0);
    for (const j of chain) {
      affine.fromSQT(m, MATRIX_STRIDE, frames, f * poseSize + j * POSE_STRIDE);
      affine.multiply(m, 0, m, 0, m, MATRIX_STRIDE);
    }
    positions[f * 3] = m[9]!;
    positions[f * 3 + 1] = m[10]!;
    positions[f * 3 + 2] = m[11]!;
  }
  const last = (frameCount - 1) * 3;
  const cycle = Float64Array.of(positions[last]! - positions[0]!, positions[last + 1]! - positions[1]!, positions[last + 2]! - positions[2]!);
  let maxDistance = 0;
  for (let f = 0; f < frameCount; f++) {
    const d = Math.hypot(positions[f * 3]! - positions[0]!, positions[f * 3 + 2]! - positions[2]!);
    if (d > maxDistance) maxDistance = d;
  }
  let meanHeight = 0;
  for (let f = 0; f < frameCount; f++) meanHeight += positions[f * 3 + 1]!;
  meanHeight /= frameCount;
  const hipHeight = skeleton.hipHeight > 0 ? skeleton.hipHeight : meanHeight;
  return Object.freeze({ joint, positions, cycle, maxDistance, hipHeight });
}

/**
 * Where a skeleton's root-motion joint sits at rest: the joint, its parent's model matrix and
 * inverse (3×4; identity for a root joint) and the joint's rest model position. Root motion
 * uses it to hold the joint in place in model space whatever its parent's orientation.
 */
export interface RootFrame {
  readonly joint: number;
  readonly parentModel: Float64Array;
  readonly parentInverse: Float64Array;
  readonly restPosition: Float64Array;
}

const frames = new WeakMap<Skeleton, RootFrame>();

/** The {@link RootFrame} of `skeleton`, computed on first use. */
export function getRootFrame(skeleton: Skeleton): RootFrame {
  let frame = frames.get(skeleton);
  if (frame === undefined) {
    const joint = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
    const model = computeRestModel(skeleton.parents, skeleton.rest);
    const parent = skeleton.parents[joint]!;
    const parentModel = new Float64Array(MATRIX_STRIDE);
    if (parent >= 0) parentModel.set(model.subarray(parent * MATRIX_STRIDE, parent * MATRIX_STRIDE + MATRIX_STRIDE));
    else affine.identity(parentModel, 0);
    const parentInverse = new Float64Array(MATRIX_STRIDE);
    affine.invert(parentInverse, 0, parentModel, 0);
    const restPosition = Float64Array.of(model[joint * MATRIX_STRIDE + 9]!, model[joint * MATRIX_STRIDE + 10]!, model[joint * MATRIX_STRIDE + 11]!);
    frame = Object.freeze({ joint, parentModel, parentInverse, restPosition });
    frames.set(skeleton, frame);
  }
  return frame;
}
