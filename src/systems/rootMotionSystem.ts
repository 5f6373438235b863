/**
 * rootMotionSystem — moves each character through the world by its clips' root motion and
 * keeps the pose in place (seeds/root-motion-normalization.txt).
 *
 * Reads:  Character, Layers (clip/weight/flags/rootDelta/rootYaw/rootScale/rootAxis),
 *         RootMotion (enabled, vertical, extractYaw), the skeletons' root frames (rest
 *         placement of the root-motion joint), `world.blendThreshold`.
 * Writes: RootMotion (x, y, z, delta; yaw with yaw extraction), LocalPose (the root-motion
 *         joint's translation; its rotation with yaw extraction).
 * Order:  after inertializeSystem, before skinSystem. Visits the update list
 *         (`world.updates`): characters `lodSystem` is not updating this frame are skipped; on
 *         their update frame the layers' root deltas
 *         cover every frame since the last one, so the travel is the full-rate travel (exact
 *         while the layer weights stay constant in between; with yaw, for one turning layer).
 *         `delta` then holds the displacement of the character's last update.
 *
 * Per character with root motion enabled:
 * 1. The override layers' root deltas are restricted to their axis (forward clips keep Z,
 *    sideways clips X), scaled (hip-height ratio) and blended with the layer weights the way
 *    the pose is (normalized, with the rest pose's zero motion filling in below the blend
 *    threshold). With yaw extraction their turns Δψ are blended with the same weights (no
 *    axis or scale: those are about distance). Additive layers carry no root motion.
 *    1b. With yaw extraction what is blended (and restricted and scaled) is each layer's
 *    motion over the frame as a 2D twist — the turn δ and the travel u at a constant rate in
 *    the turning frame, u = R(−δ/2)·d / k(δ), k(δ) = sin(δ/2)/(δ/2) — and the blend goes back
 *    to a chord by d = k(δ)·R(δ/2)·u (the exponential map of SE(2); for one layer it gives
 *    back its d exactly). Blending the chords instead would walk a polygon whose vertices
 *    depend on dt: a 50/50 blend of a turn in place and a straight walk lagged its circle by
 *    half a frame's turn, 6 mm apart between 30 and 60 Hz after 2.6 m. Twists of steady
 *    motions compose exactly (exp(aξ)·exp(bξ) = exp((a + b)ξ)), so such a blend walks the
 *    same arc at any frame rate.
 * 2. The blended delta is turned by the character's yaw (about +Y) and added to its world
 *    position; the vertical part only when `vertical` is set. With yaw extraction the delta
 *    is in the root's heading frame at the frame's start (see `extractRootYawDelta`), the
 *    turn is about the root-motion joint's rest position r rather than the model origin —
 *    the model moves by d + r − R(Δψ)·r, which is d for hips above the origin — and then
 *    yaw += Δψ.
 * 3. The root-motion joint (the hip joint, else joint 0) is put back at its rest position
 *    horizontally in model space (and vertically when `vertical` is set), through its
 *    parent's rest transform: the travel now lives in the world transform, the bob stays in
 *    the pose. With yaw extraction its model rotation also loses its twist about +Y relative
 *    to its rest model rotation (swing–twist, as `RootTrack.yaw` measures it), so the pose
 *    faces the rest heading and the facing lives in `yaw`. (Exact when the joint's ancestors
 *    do not move, as for a hip at the root.)
 *
 * Without yaw extraction nothing about yaw is read and the results are those of the
 * translation-only model.
 */
import { commitRemovals } from 'bitecs';
import { ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from '../components/Layers.js';
import { movesRoot } from '../components/layerRules.js';
import { updateRange } from '../components/UpdateList.js';
import * as layout from '../math/layout.js';
import * as quat from '../math/quat.js';
import type { AnimationWorld } from '../world.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { MATRIX_T, MATRIX_X, MATRIX_Y, MATRIX_Z, POSE_Q, POSE_STRIDE, POSE_T } = layout;

/** Math temporaries of the twist removal: two quaternions (fixed size, so module level). */
const q = new Float64Array(8);
/** Where the two quaternions sit in `q`: the joint's model rotation, then its rotation relative to rest. */
const Q_M = 0, Q_REL = 4;

/** Below this |(y, w)| of the joint's rotation relative to rest (a half-turn swing) its twist is undefined and kept. */
const TWIST_EPSILON = 1e-9;

/**
 * Below this half-turn |δ/2| the arc factor k(δ) = sin(δ/2)/(δ/2) is the series 1 − (δ/2)²/6
 * (error < 1e-15), which avoids 0/0 (step 1b of the file header).
 */
const ARC_SERIES = 5e-4;

/** Moves every character by its root motion; see the file header. */
export function rootMotionSystem(world: AnimationWorld, dt: number): void {
  commitRemovals(world.ecs);
  rootMotionEntities(world, dt, 0, world.characters.dense.length);
}

/** The work of {@link rootMotionSystem} for the chunk `world.characters.dense[first .. end)`: its characters in the update list. */
export function rootMotionEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { Character, Layers, LocalPose, RootMotion } = world.components;
  const { weight, rootDelta, rootYaw, rootScale, rootAxis, maxLayers } = Layers;
  const { x: worldX, y: worldY, z: worldZ, yaw, delta, vertical, enabled, extractYaw } = RootMotion;
  const rootFrames = world.assets.rootFrames;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold[0];
  const updated = world.updates.eids;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    if (enabled[eid] === 0) continue; // no root motion
    const turning = extractYaw[eid] !== 0;
    let total = 0, dx = 0, dy = 0, dz = 0, turn = 0;
    for (let li = eid * maxLayers, last = li + maxLayers; li < last; li++) {
      if (!movesRoot(Layers, li)) continue;
      const w = weight[li];
      const k = w * rootScale[li];
      const axis = rootAxis[li];
      total += w;
      let lx = rootDelta[li * 3], lz = rootDelta[li * 3 + 2];
      if (turning) {
        // The layer's arc as a twist: its travel at a constant rate in the turning frame.
        const layerTurn = rootYaw[li];
        const half = 0.5 * layerTurn;
        const c = Math.cos(half), s = Math.sin(half);
        // 1 / k(δ); a whole number of turns in one frame (k = 0) has no twist: its chord is kept.
        const inv = Math.abs(half) < ARC_SERIES ? 1 / (1 - (half * half) / 6) : Math.abs(s) > ARC_SERIES * Math.abs(half) ? half / s : 1;
        const ux = c * lx - s * lz, uz = s * lx + c * lz; // R(−δ/2)·d
        lx = inv * ux; lz = inv * uz;
        turn += w * layerTurn;
      }
      if (axis !== ROOT_AXIS_FORWARD) dx += k * lx;
      dy += k * rootDelta[li * 3 + 1];
      if (axis !== ROOT_AXIS_LATERAL) dz += k * lz;
    }
    const norm = total > threshold ? 1 / total : 1 / threshold;
    dx *= norm; dy *= norm; dz *= norm;
    const frame = rootFrames[Character.skeleton[eid]];
    const rest = frame.restPosition;
    if (turning) {
      // The blended twist back to an arc: d = k(δ)·R(δ/2)·u.
      turn *= norm;
      const half = 0.5 * turn;
      const c = Math.cos(half), s = Math.sin(half);
      const ka = Math.abs(half) < ARC_SERIES ? 1 - (half * half) / 6 : s / half; // k(δ)
      const ux = dx, uz = dz;
      dx = ka * (c * ux + s * uz);
      dz = ka * (c * uz - s * ux);
      // Turn about the joint (at r in model space), not the model origin: d += r − R(Δψ)·r.
      const ct = Math.cos(turn), st = Math.sin(turn);
      const rx = rest[0], rz = rest[2];
      dx += rx - (ct * rx + st * rz);
      dz += rz - (ct * rz - st * rx);
    }
    // Yaw about +Y: x' = x cos + z sin, z' = −x sin + z cos (0 faces +Z).
    const c = Math.cos(yaw[eid]), s = Math.sin(yaw[eid]);
    const wx = c * dx + s * dz, wz = c * dz - s * dx;
    if (turning) yaw[eid] = yaw[eid] + turn;
    const up = vertical[eid] !== 0;
    delta[eid * 3] = wx;
    delta[eid * 3 + 1] = up ? dy : 0;
    delta[eid * 3 + 2] = wz;
    worldX[eid] = worldX[eid] + wx;
    if (up) worldY[eid] = worldY[eid] + dy;
    worldZ[eid] = worldZ[eid] + wz;

    // Model position of the joint: m = P·l (P its parent's rest model matrix, l its local
    // translation); hold m at rest horizontally, then l = P⁻¹·m.
    const P = frame.parentModel, inv = frame.parentInverse;
    const p = eid * poseSize + frame.joint * POSE_STRIDE;
    const lx = local[p + POSE_T], ly = local[p + POSE_T + 1], lz = local[p + POSE_T + 2];
    const my = up ? rest[1] : P[MATRIX_X + 1] * lx + P[MATRIX_Y + 1] * ly + P[MATRIX_Z + 1] * lz + P[MATRIX_T + 1];
    const mx = rest[0], mz = rest[2];
    local[p + POSE_T] = inv[MATRIX_X] * mx + inv[MATRIX_Y] * my + inv[MATRIX_Z] * mz + inv[MATRIX_T];
    local[p + POSE_T + 1] = inv[MATRIX_X + 1] * mx + inv[MATRIX_Y + 1] * my + inv[MATRIX_Z + 1] * mz + inv[MATRIX_T + 1];
    local[p + POSE_T + 2] = inv[MATRIX_X + 2] * mx + inv[MATRIX_Y + 2] * my + inv[MATRIX_Z + 2] * mz + inv[MATRIX_T + 2];
    if (turning) removeTwist(local, p + POSE_Q, frame.parentRotation, frame.restRotation);
  }
}

/**
 * Takes the twist about model +Y out of the joint rotation `local[o..o+3]` (local space, under
 * a parent at its rest model rotation `parent`), relative to the joint's rest model rotation
 * `rest`: with q_m = parent·q and q_rel = q_m·rest⁻¹ = swing·twist (twist about +Y, the
 * normalized (0, q_rel.y, 0, q_rel.w)), the joint gets q_m' = twist⁻¹·q_m, whose q_rel' =
 * twist⁻¹·q_rel has y = 0: no twist. Then q = parent⁻¹·q_m'. Left-multiplying (a turn in model
 * space) is what keeps the world rotation R_y(yaw + ψ)·q_m' = R_y(yaw)·q_m. A rotation whose
 * q_rel has y = w = 0 (a half-turn swing) has no defined twist and is left as it is.
 */
export function removeTwist(local: Float32Array, o: number, parent: Float64Array, rest: Float64Array): void {
  quat.multiply(q, Q_M, parent, 0, local, o); // q_m
  quat.conjugate(q, Q_REL, rest, 0);
  quat.multiply(q, Q_REL, q, Q_M, q, Q_REL); // q_rel
  const y = q[Q_REL + 1], w = q[Q_REL + 3];
  const n = Math.sqrt(y * y + w * w); // not Math.hypot: a builtin call that boxes its arguments
  if (!(n > TWIST_EPSILON)) return;
  q[Q_REL] = 0; q[Q_REL + 1] = -y / n; q[Q_REL + 2] = 0; q[Q_REL + 3] = w / n; // twist⁻¹
  quat.multiply(q, Q_M, q, Q_REL, q, Q_M);
  quat.conjugate(q, Q_REL, parent, 0);
  quat.multiply(local, o, q, Q_REL, q, Q_M);
}
