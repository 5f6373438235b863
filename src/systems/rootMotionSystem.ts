/**
 * rootMotionSystem — moves each character through the world by its clips' root motion and
 * keeps the pose in place (after Tokage It Lab's normalization of walk cycles with root motion).
 *
 * Reads:  Character, Layers (clip/weight/fadeCurve/fadeFrom/fadeTo/fadeElapsed/fadeDuration/flags/mask/reference/rootDelta/rootYaw/rootScale/rootAxis), the masks, the update list (`world.updates`: seconds per character),
 *         RootMotion (enabled, vertical, extractYaw), the skeletons' root frames (rest
 *         placement of the root-motion joint and of the chain above it), `world.blendThreshold`.
 * Writes: RootMotion (x, y, z, delta; yaw with yaw extraction), LocalPose (the translation of
 *         the highest joint of the root-motion chain that is not at rest — the hips, usually —
 *         and its rotation with yaw extraction).
 * Order:  after inertializeSystem, before skinSystem. Visits the update list
 *         (`world.updates`): characters `lodSystem` is not updating this frame are skipped; on
 *         their update frame the layers' root deltas
 *         cover every frame since the last one, so the travel is the full-rate travel (exact
 *         while the layer weights stay constant in between; with yaw, for one turning layer).
 *         `delta` then holds the displacement of the character's last update.
 *
 * Per character with root motion enabled:
 * 1. The override layers' root deltas are restricted to their axis (forward clips keep Z,
 *    sideways clips X), scaled (hip-height ratio) and blended with the layer weights — a fading
 *    layer's at the middle of the update, which its delta spans — the way the pose is (normalized, with the rest pose's zero motion filling in below the blend
 *    threshold; with a `'layer'` layer over others, by their effective weights under the blend
 *    modes' rule, components/layerRules.ts `layeredWeights`, a `'layer'` layer's a being its
 *    weight × its mask at the root-motion joint). With yaw extraction their turns Δψ are blended with the same weights (no
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
 *    root-motion joint (the hip joint, else joint 0) is put at the model origin horizontally
 *    (its rest offset removed: the hips are drawn at the root transform), keeping its height
 *    (the bob stays in the pose) unless `vertical` holds it at its rest height. The move is
 *    made rigidly at the highest joint of the chain from the skeleton's root to the hips that
 *    is not at rest: the hips when the joints above them are at rest (hips at the root, or a
 *    static armature above them), a root joint above the hips when the take moves it
 *    (MotionBuilder's `joint_Root`, Unreal's `root`), so a travel on it, or split between it
 *    and the hips, is counted once and the body keeps its shape. With yaw extraction the move
 *    also turns by −ψ about +Y, ψ the twist of the hips' model rotation relative to its rest
 *    model rotation (swing–twist, as `RootTrack.yaw` measures it), so the hips face the rest
 *    heading and the facing lives in `yaw`.
 *
 * Without yaw extraction nothing about yaw is read and the results are those of the
 * translation-only model.
 */
import { commitRemovals } from 'bitecs';
import { MAX_LAYERS, ROOT_AXIS_FORWARD, ROOT_AXIS_LATERAL } from '../components/Layers.js';
import { layeredWeights, movesRoot, planOverrideSteps, STEP_AVERAGE, STEP_KIND_SHIFT, STEP_SLOT, STEPS_LAYERED } from '../components/layerRules.js';
import { updateRange } from '../components/UpdateList.js';
import { writeLayerWeightAt } from './layerPlan.js';
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

/** Math temporaries of the chain walk (`holdChain`): two 3×4 matrices and a quaternion (fixed size, so module level). */
const m = new Float64Array(2 * MATRIX_STRIDE);
/** Where they sit in `m`: the model matrix composed down the chain, a joint's local matrix. */
const M_MODEL = 0, M_LOCAL = MATRIX_STRIDE;
/** The model rotation composed down the chain, quaternion x y z w (scale ignored). */
const r = new Float64Array(4);

/** Below this |(y, w)| of the joint's rotation relative to rest (a half-turn swing) its twist is undefined and kept. */
const TWIST_EPSILON = 1e-9;

/**
 * A joint of the root-motion chain is at rest when each of its 10 local pose floats is within
 * this fraction of (1 + |rest value|) of its rest: a clip that stores an armature at rest
 * gives it back after sampling and blending only up to a few float32 ulps (nlerp renormalizes
 * the rotation; 1 ulp at 1 is 1.2e-7), and that noise is not motion.
 */
const REST_TOLERANCE = 1e-6;

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
  const { rootDelta, rootYaw, rootScale, rootAxis, maxLayers } = Layers;
  const { x: worldX, y: worldY, z: worldZ, yaw, delta, vertical, enabled, extractYaw } = RootMotion;
  const rootFrames = world.assets.rootFrames;
  const local = LocalPose.data;
  const poseSize = world.maxJoints * POSE_STRIDE;
  const threshold = world.scratch.blendThreshold[0];
  const updated = world.updates.eids, updatedDt = world.updates.dt;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    if (enabled[eid] === 0) continue; // no root motion
    const turning = extractYaw[eid] !== 0;
    const first = eid * maxLayers;
    midUpdateWeights(Layers, first, updatedDt, entry);
    const layered = layerRootWeights(world, eid, first);
    let total = 0, dx = 0, dy = 0, dz = 0, turn = 0;
    for (let li = first, last = li + maxLayers; li < last; li++) {
      if (!movesRoot(Layers, li)) continue;
      const w = layered ? EFFECTIVE[li - first] : MID[li - first];
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

/** Each slot's weight at the middle of its character's update, and that instant's distance back (see {@link midUpdateWeights}). */
const MID = new Float32Array(MAX_LAYERS);
const HALF = new Float64Array(1);

/**
 * Each slot's weight halfway through the update into `MID` (slot order): a fading layer's fade
 * curve at its clock minus half the update's seconds (`seconds[entry]`), else its weight. The
 * layers' deltas cover the whole update while a fade's weight moves through it; weighing them
 * at its middle is the midpoint rule, so the travel through a cross-fade differs between frame
 * rates by O(dt²) rather than O(dt) (a walk faded into a run: 0.3 mm at 30 Hz against 480 Hz,
 * where the weights at the update's end gave 16 mm).
 */
function midUpdateWeights(Layers: AnimationWorld['components']['Layers'], first: number, seconds: number[], entry: number): void {
  HALF[0] = 0.5 * seconds[entry];
  for (let n = 0; n < Layers.maxLayers; n++) writeLayerWeightAt(MID, n, Layers, first + n, HALF, 0);
}

/** The blend steps, each slot's a and its effective weight (fixed-size temporaries: each thread has its own module). */
const STEPS = new Int32Array(MAX_LAYERS);
const A = new Float64Array(MAX_LAYERS);
const EFFECTIVE = new Float64Array(MAX_LAYERS);

/**
 * Step 1's weights (at mid-update, `MID`) under the blend modes (components/layerRules.ts): when a `'layer'` layer is
 * over others, each override slot's effective weight into `EFFECTIVE` (its a: the weight, times
 * the mask's value at the root-motion joint for a `'layer'` layer's steps — an upper-body layer
 * leaves the travel to the walk below it; an average step's a is its weight, as before) and
 * true; false (nothing written) when every step averages.
 */
function layerRootWeights(world: AnimationWorld, eid: number, first: number): boolean {
  const Layers = world.components.Layers;
  let overrides = 0;
  for (let n = 0; n < Layers.maxLayers; n++) if (movesRoot(Layers, first + n)) overrides |= 1 << n;
  const planned = planOverrideSteps(Layers, first, overrides, STEPS);
  if ((planned & STEPS_LAYERED) === 0) return false;
  const count = planned & STEP_SLOT;
  const joint = world.assets.rootFrames[world.components.Character.skeleton[eid]].joint;
  const masks = world.assets.masks;
  for (let k = 0; k < count; k++) {
    const n = STEPS[k] & STEP_SLOT, li = first + n, m = Layers.mask[li];
    A[n] = (STEPS[k] >>> STEP_KIND_SHIFT) === STEP_AVERAGE || m < 0 ? MID[n] : MID[n] * masks[m][joint];
  }
  layeredWeights(STEPS, count, A, EFFECTIVE);
  return true;
}

/**
 * Step 3 of the file header for the pose at `local[base ..]`. Joint k is the highest joint of
 * the chain (skeleton root → root-motion joint) whose local pose is not its rest beyond float
 * noise (`REST_TOLERANCE`): the root-motion joint itself when every joint above it is at rest,
 * as for hips at the root. Its parent is then taken to be at its rest model transform P. With
 * h and q_h the root-motion joint's model position and rotation (composed from P down the
 * chain), the pose is moved by the model-space rigid motion G(x) = R_y(φ)·(x − h) + h', with
 * h' = (0, h.y or the rest height when `up`, 0), applied to joint k: its model position
 * m = P·l becomes G(m), and l = P⁻¹·G(m). With `turning` φ = −ψ, ψ the twist about +Y of q_h
 * relative to its rest model rotation, and joint k's model rotation is turned by R_y(φ) too
 * (`removeTwist` when k is the root-motion joint). Everything below joint k moves with it, so
 * the body keeps its shape; the joints above it stay at rest.
 */
function holdChain(local: Float32Array, base: number, frame: RootFrame, up: boolean, turning: boolean): void {
  const chain = frame.chain, rest = frame.chainRest;
  const hip = chain.length - 1;
  let k = 0;
  for (; k < hip; k++) {
    const p = base + chain[k] * POSE_STRIDE, r0 = k * POSE_STRIDE;
    let still = true;
    for (let i = 0; i < POSE_STRIDE && still; i++) {
      const v = rest[r0 + i];
      still = Math.abs(local[p + i] - v) <= REST_TOLERANCE * (1 + Math.abs(v));
    }
    if (!still) break;
  }
  // Joints hung off the chain above the first moving one must move with the body too.
  if (frame.holdFrom < k) k = frame.holdFrom;
  if (k === hip) {
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
    if (turning) removeTwist(local, p + POSE_Q, frame.parentRotation, frame.restRotation);
    return;
  }
  // The root-motion joint's model transform from joint k down: P·T_k ⋯ T_joint, R_P·q_k ⋯ q_joint.
  const P = frame.chainParentModels, inv = frame.chainParentInverses, R = frame.chainParentRotations;
  const pk = k * MATRIX_STRIDE;
  for (let i = 0; i < MATRIX_STRIDE; i++) m[M_MODEL + i] = P[pk + i];
  quat.copy(r, 0, R, k * 4);
  for (let i = k; i <= hip; i++) {
    const p = base + chain[i] * POSE_STRIDE;
    affine.fromSQT(m, M_LOCAL, local, p);
    affine.multiply(m, M_MODEL, m, M_MODEL, m, M_LOCAL);
    quat.multiply(r, 0, r, 0, local, p + POSE_Q);
  }
  const hx = m[M_MODEL + MATRIX_T], hy = m[M_MODEL + MATRIX_T + 1], hz = m[M_MODEL + MATRIX_T + 2];
  // R_y(φ) as cos φ, sin φ; with `turning` from twist⁻¹ = (0, sin φ/2, 0, cos φ/2) of q_h·rest⁻¹.
  let cos = 1, sin = 0;
  const p = base + chain[k] * POSE_STRIDE;
  if (turning) {
    quat.conjugate(q, Q_REL, frame.restRotation, 0);
    quat.multiply(q, Q_REL, r, 0, q, Q_REL); // q_rel
    const y = q[Q_REL + 1], w = q[Q_REL + 3];
    const n = Math.sqrt(y * y + w * w);
    if (n > TWIST_EPSILON) {
      const hs = -y / n, hc = w / n;
      cos = hc * hc - hs * hs;
      sin = 2 * hs * hc;
      // Joint k's model rotation R_P·q turned by twist⁻¹, back to local: q = R_P⁻¹·twist⁻¹·R_P·q.
      const ro = k * 4;
      quat.multiply(q, Q_M, R, ro, local, p + POSE_Q);
      q[Q_REL] = 0; q[Q_REL + 1] = hs; q[Q_REL + 2] = 0; q[Q_REL + 3] = hc;
      quat.multiply(q, Q_M, q, Q_REL, q, Q_M);
      quat.conjugate(q, Q_REL, R, ro);
      quat.multiply(local, p + POSE_Q, q, Q_REL, q, Q_M);
    }
  }
  // Joint k's model position m = P·l, moved by G, back to local.
  const lx = local[p + POSE_T], ly = local[p + POSE_T + 1], lz = local[p + POSE_T + 2];
  const dx = P[pk + MATRIX_X] * lx + P[pk + MATRIX_Y] * ly + P[pk + MATRIX_Z] * lz + P[pk + MATRIX_T] - hx;
  const dy = P[pk + MATRIX_X + 1] * lx + P[pk + MATRIX_Y + 1] * ly + P[pk + MATRIX_Z + 1] * lz + P[pk + MATRIX_T + 1] - hy;
  const dz = P[pk + MATRIX_X + 2] * lx + P[pk + MATRIX_Y + 2] * ly + P[pk + MATRIX_Z + 2] * lz + P[pk + MATRIX_T + 2] - hz;
  // Yaw about +Y: x' = x cos + z sin, z' = −x sin + z cos.
  const mx = cos * dx + sin * dz, my = dy + (up ? frame.restPosition[1] : hy), mz = cos * dz - sin * dx;
  local[p + POSE_T] = inv[pk + MATRIX_X] * mx + inv[pk + MATRIX_Y] * my + inv[pk + MATRIX_Z] * mz + inv[pk + MATRIX_T];
  local[p + POSE_T + 1] = inv[pk + MATRIX_X + 1] * mx + inv[pk + MATRIX_Y + 1] * my + inv[pk + MATRIX_Z + 1] * mz + inv[pk + MATRIX_T + 1];
  local[p + POSE_T + 2] = inv[pk + MATRIX_X + 2] * mx + inv[pk + MATRIX_Y + 2] * my + inv[pk + MATRIX_Z + 2] * mz + inv[pk + MATRIX_T + 2];
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
