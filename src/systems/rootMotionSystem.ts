/**
 * rootMotionSystem — moves each character through the world by its clips' root motion and
 * keeps the pose in place (seeds/root-motion-normalization.txt).
 *
 * Reads:  Character, Layers (clip/weight/flags/rootDelta/rootScale/rootAxis), RootMotion, the
 *         skeletons' root frames (rest placement of the root-motion joint), `world.blendThreshold`.
 * Writes: RootMotion (x, y, z, delta), LocalPose (the root-motion joint's translation).
 * Order:  after inertializeSystem, before skinSystem.
 *
 * Per character with root motion enabled:
 * 1. The override layers' root deltas (model space) are restricted to their axis (forward
 *    clips keep Z, sideways clips X), scaled (hip-height ratio) and blended with the layer
 *    weights the way the pose is (normalized, with the rest pose's zero motion filling in
 *    below the blend threshold). Additive layers carry no root motion.
 * 2. The blended delta is turned by the character's yaw (about +Y) and added to its world
 *    position; the vertical part only when `vertical` is set.
 * 3. The root-motion joint (the hip joint, else joint 0) is put back at its rest position
 *    horizontally in model space (and vertically when `vertical` is set), through its
 *    parent's rest transform: the travel now lives in the world transform, the bob stays in
 *    the pose. (Exact when the joint's ancestors do not move, as for a hip at the root.)
 */
import { commitRemovals } from 'bitecs';
import { LAYER_ADDITIVE, MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from '../components/Layers.js';
import { POSE_STRIDE } from '../math/layout.js';
import type { AnimationWorld } from '../world.js';

/** Moves every character by its root motion; see the file header. */
export function rootMotionSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  rootMotionEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link rootMotionSystem} for the characters at `world.characters.dense[first .. end)`. */
export function rootMotionEntities(world: AnimationWorld, _dt: number, first: number, end: number): void {
  const { Character, Layers, LocalPose, RootMotion } = world.components;
  const { clip: clipIds, weight, flags, rootDelta, rootScale, rootAxis } = Layers;
  const { x: worldX, y: worldY, z: worldZ, yaw, delta, vertical, enabled } = RootMotion;
  const rootFrames = world.assets.rootFrames;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold[0]!;
  const dense = world.characters.dense;

  for (let i = first; i < end; i++) {
    const eid = dense[i]!;
    if (enabled[eid]! === 0) continue;
    let total = 0, dx = 0, dy = 0, dz = 0;
    for (let li = eid * MAX_LAYERS, last = li + MAX_LAYERS; li < last; li++) {
      const w = weight[li]!;
      if (clipIds[li]! < 0 || !(w > 0) || (flags[li]! & LAYER_ADDITIVE) !== 0) continue;
      const k = w * rootScale[li]!;
      const axis = rootAxis[li]!;
      total += w;
      if (axis !== ROOT_AXIS_FORWARD) dx += k * rootDelta[li * 3]!;
      dy += k * rootDelta[li * 3 + 1]!;
      if (axis !== ROOT_AXIS_LATERAL) dz += k * rootDelta[li * 3 + 2]!;
    }
    const norm = total > threshold ? 1 / total : 1 / threshold;
    dx *= norm; dy *= norm; dz *= norm;
    // Yaw about +Y: x' = x cos + z sin, z' = −x sin + z cos (0 faces +Z).
    const c = Math.cos(yaw[eid]!), s = Math.sin(yaw[eid]!);
    const wx = c * dx + s * dz, wz = c * dz - s * dx;
    const up = vertical[eid]! !== 0;
    delta[eid * 3] = wx;
    delta[eid * 3 + 1] = up ? dy : 0;
    delta[eid * 3 + 2] = wz;
    worldX[eid] = worldX[eid]! + wx;
    if (up) worldY[eid] = worldY[eid]! + dy;
    worldZ[eid] = worldZ[eid]! + wz;

    // Model position of the joint: m = P·l (P its parent's rest model matrix, l its local
    // translation); hold m at rest horizontally, then l = P⁻¹·m.
    const frame = rootFrames[Character.skeleton[eid]!]!;
    const P = frame.parentModel, inv = frame.parentInverse, rest = frame.restPosition;
    const p = eid * poseSize + frame.joint * POSE_STRIDE;
    const lx = local[p]!, ly = local[p + 1]!, lz = local[p + 2]!;
    const my = up ? rest[1]! : P[1]! * lx + P[4]! * ly + P[7]! * lz + P[10]!;
    const mx = rest[0]!, mz = rest[2]!;
    local[p] = inv[0]! * mx + inv[3]! * my + inv[6]! * mz + inv[9]!;
    local[p + 1] = inv[1]! * mx + inv[4]! * my + inv[7]! * mz + inv[10]!;
    local[p + 2] = inv[2]! * mx + inv[5]! * my + inv[8]! * mz + inv[11]!;
  }
}
