/**
 * rootMotionSystem — moves each character through the world by its clips' root motion and
 * keeps the pose in place (seeds/root-motion-normalization.txt).
 *
 * Reads:  Character, Layers (clip/weight/flags/rootDelta/rootYaw/rootScale/rootAxis),
 *         RootMotion (enabled, vertical, extractYaw), the skeletons' root frames (rest
 *         placement of the root-motion joint and of the chain above it), `world.blendThreshold`.
 * Writes: RootMotion (x, y, z, delta; yaw with yaw extraction), LocalPose (the translations of
 *         the root-motion joint and of its ancestors that are not at rest; their rotations
 *         with yaw extraction).
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
 *    turn is about the model origin — where step 3 holds the root-motion joint, so the
 *    character turns about its hips — and then yaw += Δψ.
 * 3. The travel is taken out of the pose where the capture put it (`RootFrame`): the
 *    root-motion joint (the hip joint, else joint 0) is held at the model origin horizontally
 *    (its rest offset removed: the hips are drawn at the root transform) and each joint above
 *    it, from the skeleton's root down, at its rest model position horizontally — so a take
 *    whose travel lives on a root joint above the hips (or is split between the two) is not
 *    moved twice. Heights are kept (the bob stays in the pose), or held at rest when
 *    `vertical` is set. Each joint is placed through its parent's model transform as it is
 *    now, its ancestors already held; when the joints above the hips are at rest (hips at the
 *    root, or a static armature above them) that is their rest transform and only the hips'
 *    translation changes. With yaw extraction each joint of the chain, root first, also loses
 *    its model rotation's twist about +Y relative to its rest model rotation (swing–twist, as
 *    `RootTrack.yaw` measures it); the twists removed add up to the chain's, so the hips face
 *    the rest heading and the facing lives in `yaw`.
 *
 * Without yaw extraction nothing about yaw is read and the results are those of the
 * translation-only model.
 */
import { commitRemovals } from 'bitecs';
import { ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from '../components/Layers.js';
import { movesRoot } from '../components/layerRules.js';
import { updateRange } from '../components/UpdateList.js';
import type { RootFrame } from '../assets/rootTrack.js';
import * as affine from '../math/affine.js';
import * as layout from '../math/layout.js';
import * as quat from '../math/quat.js';
import type { AnimationWorld } from '../world.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { MATRIX_STRIDE, MATRIX_T, MATRIX_X, MATRIX_Y, MATRIX_Z, POSE_Q, POSE_STRIDE, POSE_T } = layout;

/** Math temporaries of the twist removal: two quaternions (fixed size, so module level). */
const q = new Float64Array(8);
/** Where the two quaternions sit in `q`: the joint's model rotation, then its rotation relative to rest. */
const Q_M = 0, Q_REL = 4;

/** Math temporaries of the chain walk (`holdChain`): three 3×4 matrices (fixed size, so module level). */
const m = new Float64Array(3 * MATRIX_STRIDE);
/** Where they sit in `m`: the parent's model matrix, its inverse, the joint's local matrix. */
const M_PARENT = 0, M_INVERSE = MATRIX_STRIDE, M_LOCAL = 2 * MATRIX_STRIDE;
/** The parent's model rotation in the chain walk, quaternion x y z w (scale ignored). */
const r = new Float64Array(4);
const R_PARENT = 0;

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
    if (turning) {
      // The blended twist back to an arc: d = k(δ)·R(δ/2)·u.
      turn *= norm;
      const half = 0.5 * turn;
      const c = Math.cos(half), s = Math.sin(half);
      const ka = Math.abs(half) < ARC_SERIES ? 1 - (half * half) / 6 : s / half; // k(δ)
      const ux = dx, uz = dz;
      dx = ka * (c * ux + s * uz);
      dz = ka * (c * uz - s * ux);
      // The turn is about the model origin, where step 3 holds the joint horizontally.
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

    holdChain(local, eid * poseSize, rootFrames[Character.skeleton[eid]], up, turning);
  }
}

/**
 * Step 3 of the file header for the pose at `local[base ..]`: holds the root-motion joint at
 * the model origin horizontally (at its rest height too when `up`) and every joint above it
 * at its rest model position horizontally (and height when `up`), taking the travel out of
 * whichever joint of the chain carries it; with `turning` each chain joint, root first, also
 * loses its model rotation's twist about +Y relative to its rest model rotation.
 *
 * When the joints above the root-motion joint are at rest in the pose (bit for bit; always
 * so for hips at the root) only the joint is touched, through its parent's rest transform.
 * Otherwise the chain is walked from the root with the parent's model matrix as it is now
 * (its joints already held): a joint's local translation l becomes M⁻¹·m for its held model
 * position m = (target x, M·l's y or the rest y, target z), M its parent's model matrix.
 */
function holdChain(local: Float32Array, base: number, frame: RootFrame, up: boolean, turning: boolean): void {
  const chain = frame.chain, rest = frame.chainRest;
  const hip = chain.length - 1;
  let still = true;
  for (let k = 0; k < hip && still; k++) {
    const p = base + chain[k] * POSE_STRIDE;
    for (let i = 0; i < POSE_STRIDE; i++) {
      if (local[p + i] !== rest[k * POSE_STRIDE + i]) { still = false; break; }
    }
  }
  if (still) {
    // Model position of the joint: m = P·l (P its parent's rest model matrix, l its local
    // translation); hold m at the origin horizontally, then l = P⁻¹·m.
    const P = frame.parentModel, inv = frame.parentInverse;
    const p = base + frame.joint * POSE_STRIDE;
    const lx = local[p + POSE_T], ly = local[p + POSE_T + 1], lz = local[p + POSE_T + 2];
    const my = up ? frame.restPosition[1] : P[MATRIX_X + 1] * lx + P[MATRIX_Y + 1] * ly + P[MATRIX_Z + 1] * lz + P[MATRIX_T + 1];
    const mx = 0, mz = 0;
    local[p + POSE_T] = inv[MATRIX_X] * mx + inv[MATRIX_Y] * my + inv[MATRIX_Z] * mz + inv[MATRIX_T];
    local[p + POSE_T + 1] = inv[MATRIX_X + 1] * mx + inv[MATRIX_Y + 1] * my + inv[MATRIX_Z + 1] * mz + inv[MATRIX_T + 1];
    local[p + POSE_T + 2] = inv[MATRIX_X + 2] * mx + inv[MATRIX_Y + 2] * my + inv[MATRIX_Z + 2] * mz + inv[MATRIX_T + 2];
    if (turning) removeTwistAt(local, p + POSE_Q, frame.parentRotation, 0, frame.restRotation, 0);
    return;
  }
  const positions = frame.chainPositions, rotations = frame.chainRotations;
  affine.identity(m, M_PARENT);
  quat.identity(r, R_PARENT);
  for (let k = 0; k <= hip; k++) {
    const p = base + chain[k] * POSE_STRIDE;
    if (turning) removeTwistAt(local, p + POSE_Q, r, R_PARENT, rotations, k * 4);
    const lx = local[p + POSE_T], ly = local[p + POSE_T + 1], lz = local[p + POSE_T + 2];
    const my = up ? positions[k * 3 + 1] : m[MATRIX_X + 1] * lx + m[MATRIX_Y + 1] * ly + m[MATRIX_Z + 1] * lz + m[MATRIX_T + 1];
    const mx = k === hip ? 0 : positions[k * 3], mz = k === hip ? 0 : positions[k * 3 + 2];
    affine.invert(m, M_INVERSE, m, M_PARENT);
    const i = M_INVERSE;
    local[p + POSE_T] = m[i + MATRIX_X] * mx + m[i + MATRIX_Y] * my + m[i + MATRIX_Z] * mz + m[i + MATRIX_T];
    local[p + POSE_T + 1] = m[i + MATRIX_X + 1] * mx + m[i + MATRIX_Y + 1] * my + m[i + MATRIX_Z + 1] * mz + m[i + MATRIX_T + 1];
    local[p + POSE_T + 2] = m[i + MATRIX_X + 2] * mx + m[i + MATRIX_Y + 2] * my + m[i + MATRIX_Z + 2] * mz + m[i + MATRIX_T + 2];
    if (k === hip) break;
    affine.fromSQT(m, M_LOCAL, local, p);
    affine.multiply(m, M_PARENT, m, M_PARENT, m, M_LOCAL);
    quat.multiply(r, R_PARENT, r, R_PARENT, local, p + POSE_Q);
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
  removeTwistAt(local, o, parent, 0, rest, 0);
}

/** {@link removeTwist} with the parent and rest rotations at `parent[parentOff ..]` and `rest[restOff ..]`. */
function removeTwistAt(local: Float32Array, o: number, parent: Float64Array, parentOff: number, rest: Float64Array, restOff: number): void {
  quat.multiply(q, Q_M, parent, parentOff, local, o); // q_m
  quat.conjugate(q, Q_REL, rest, restOff);
  quat.multiply(q, Q_REL, q, Q_M, q, Q_REL); // q_rel
  const y = q[Q_REL + 1], w = q[Q_REL + 3];
  const n = Math.sqrt(y * y + w * w); // not Math.hypot: a builtin call that boxes its arguments
  if (!(n > TWIST_EPSILON)) return;
  q[Q_REL] = 0; q[Q_REL + 1] = -y / n; q[Q_REL + 2] = 0; q[Q_REL + 3] = w / n; // twist⁻¹
  quat.multiply(q, Q_M, q, Q_REL, q, Q_M);
  quat.conjugate(q, Q_REL, parent, parentOff);
  quat.multiply(local, o, q, Q_REL, q, Q_M);
}
