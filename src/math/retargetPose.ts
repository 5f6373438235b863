/**
 * Retargeting one sampled pose through reference poses: the kernel a binding runs when the
 * two skeletons differ in more than proportions (other rest rotations, bone axes, node scales,
 * joints between the mapped ones). Tables come from `planRetarget` (assets/retarget/plan.ts).
 *
 * The rule, for a target joint t bound to source joint s, with C the model-space rotation of a
 * joint in its skeleton's reference pose, a the nearest bound ancestor of t (its source joint
 * s_a) and p the parent of t: the source's model rotation relative to its reference,
 * `M_s · C_s⁻¹`, is given to the target joint, `M_t = (M_s · C_s⁻¹) · C_t`. Joints of the target
 * that no source joint drives hold their reference local rotation, so the parent of t turns as
 * `M_p = (M_{s_a} · C_{s_a}⁻¹) · C_p`, and t's local rotation is
 *
 *     L_t = M_p⁻¹ · M_t = (C_p⁻¹ · C_{s_a}) · X · (C_s⁻¹ · C_t) = pre_t · X · post_t,
 *
 * where X = M_{s_a}⁻¹ · M_s is the product of the source's sampled local rotations on the chain
 * from s_a (exclusive) down to s — one rotation when the two hierarchies agree there. The same
 * change of frame `pre_t` carries translations: the chain's offset in s_a's frame, turned by
 * pre_t and multiplied by a factor (the hip ratio and the two reference scales), is t's
 * translation where the binding takes translations from the clip; elsewhere t keeps its rest
 * translation (its own bone length) plus the clip's offset of s's translation from s's rest,
 * turned and scaled the same way (zero unless the clip moves the joint: an IK target, a
 * prop). Scale is the clip's relative to the source's rest, times the target's rest scale.
 *
 * Where the target's hierarchy is flatter than the source's — a joint bound below another in
 * the source but parented elsewhere in the target, as IK feet hang from a rig's root — the
 * joint is attached: after the pose is written, its translation is set so that it sits where
 * its rest pose had it relative to that other joint (`P_t = M_a · b_t`, b_t its rest offset
 * in the frame of a, the target joint of its source parent), so an IK foot stays at the end
 * of the character's own lower leg.
 */
import * as affine from './affine.js';
import * as layout from './layout.js';
// Bound as this module's own constants, which V8 folds into the loops (see layout.ts).
const { POSE_STRIDE, POSE_T, POSE_Q, POSE_S } = layout;

/** Where a quaternion (x y z w) keeps its w. */
const W = 3;

/** The per-target-joint tables the kernel reads (built once per binding). */
export interface RetargetTables {
  /** Number of target joints. */
  readonly jointCount: number;
  /** Per target joint, its source joint or −1 (then it holds `local`). */
  readonly sourceJoint: Int16Array;
  /** Per target joint: 0 keeps the rest translation (plus the clip's offset from rest), else the chain's offset × `translationFactor`. */
  readonly translationMode: Uint8Array;
  /** Per target joint, 3 floats: its source joint's rest translation (what the offset of mode 0 is from). */
  readonly restTranslation: Float32Array;
  /** Per target joint: the factor on its chain's offset (hip ratio × source ÷ target reference scale). */
  readonly translationFactor: Float32Array;
  /** `jointCount + 1` offsets into `chain`: target joint t's chain is `chain[chainStart[t] .. chainStart[t + 1])`. */
  readonly chainStart: Int32Array;
  /** Source joints of each chain, top (below the bound ancestor's source joint) to bottom (the joint itself). */
  readonly chain: Int16Array;
  /** Per target joint, 4 floats: the rotation on the left of the chain's product (pre_t). */
  readonly pre: Float32Array;
  /** Per target joint, 4 floats: the rotation on the right of it (post_t). */
  readonly post: Float32Array;
  /** Per target joint, 3 floats: target rest scale ÷ source rest scale, per axis. */
  readonly scaleRatio: Float32Array;
  /** The target's reference pose, local, `jointCount × 10`: what unbound joints hold (rest translations and scales). */
  readonly local: Float32Array;
  /** One double: the fraction between the two source poses, written by the caller before each call. */
  readonly alpha: Float64Array;
  /** Attached joints, 2 per entry: the joint t, then the joint a it is attached to (see the module header). */
  readonly attached: Int16Array;
  /** Per attached joint, 3 floats: its offset b_t in a's frame (the rest pose's). */
  readonly attachOffset: Float32Array;
  /**
   * Per attached joint, two joint paths from a root, root first: to a, then to t's parent
   * (`attachPathStart[2k] .. [2k + 1]` and `[2k + 1] .. [2k + 2]` in `attachPath`).
   */
  readonly attachPathStart: Int32Array;
  /** The joints of those paths, back to back. */
  readonly attachPath: Int16Array;
  /** 36 doubles of matrix temporaries for the attach pass. */
  readonly attachScratch: Float64Array;
}

/**
 * Writes the target pose for the source pose between `frames[aOff ..]` and `frames[bOff ..]`
 * (two source poses, the source skeleton's joint order, 10 floats per joint) at the fraction
 * `tables.alpha[0]` — translations and scales by lerp, rotations by nlerp with the hemisphere
 * fix, as `sampleClipInto` samples; `alpha[0] = 0` reads the first pose alone — to `out` at
 * `outOff`, `tables.jointCount × 10` floats. The fraction comes through an array so that no
 * double is boxed per call. Pure kernel: no allocation; `out` must not overlap `frames`.
 */
export function retargetPose(out: Float32Array, outOff: number, frames: Float32Array, aOff: number, bOff: number, tables: RetargetTables): void {
  const { jointCount, sourceJoint, translationMode, restTranslation, translationFactor, chainStart, chain, pre, post, scaleRatio, local } = tables;
  const alpha = tables.alpha[0];
  const beta = 1 - alpha;
  const lerp = alpha !== 0;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * POSE_STRIDE;
    const s = sourceJoint[j];
    if (s < 0) {
      for (let c = 0, r = j * POSE_STRIDE; c < POSE_STRIDE; c++) out[o + c] = local[r + c];
      continue;
    }
    // X and the chain's offset: p += R·t_c, then R = R·q_c, top to bottom.
    let rx = 0, ry = 0, rz = 0, rw = 1;
    let px = 0, py = 0, pz = 0;
    let sx = 1, sy = 1, sz = 1; // the last chain joint's (s's) scale
    let tx = 0, ty = 0, tz = 0; // and translation
    for (let k = chainStart[j], end = chainStart[j + 1]; k < end; k++) {
      const a = aOff + chain[k] * POSE_STRIDE;
      let qx = frames[a + POSE_Q], qy = frames[a + POSE_Q + 1], qz = frames[a + POSE_Q + 2], qw = frames[a + POSE_Q + 3];
      tx = frames[a]; ty = frames[a + 1]; tz = frames[a + 2];
      sx = frames[a + POSE_S]; sy = frames[a + POSE_S + 1]; sz = frames[a + POSE_S + 2];
      if (lerp) {
        const b = bOff + chain[k] * POSE_STRIDE;
        let bx = frames[b + POSE_Q], by = frames[b + POSE_Q + 1], bz = frames[b + POSE_Q + 2], bw = frames[b + POSE_Q + 3];
        if (qx * bx + qy * by + qz * bz + qw * bw < 0) {
          bx = -bx; by = -by; bz = -bz; bw = -bw;
        }
        qx = qx * beta + bx * alpha; qy = qy * beta + by * alpha; qz = qz * beta + bz * alpha; qw = qw * beta + bw * alpha;
        const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
        qx *= inv; qy *= inv; qz *= inv; qw *= inv;
        tx = tx * beta + frames[b] * alpha; ty = ty * beta + frames[b + 1] * alpha; tz = tz * beta + frames[b + 2] * alpha;
        sx = sx * beta + frames[b + POSE_S] * alpha; sy = sy * beta + frames[b + POSE_S + 1] * alpha; sz = sz * beta + frames[b + POSE_S + 2] * alpha;
      }
      const ux = 2 * (ry * tz - rz * ty), uy = 2 * (rz * tx - rx * tz), uz = 2 * (rx * ty - ry * tx);
      px += tx + rw * ux + (ry * uz - rz * uy);
      py += ty + rw * uy + (rz * ux - rx * uz);
      pz += tz + rw * uz + (rx * uy - ry * ux);
      const nx = rw * qx + rx * qw + ry * qz - rz * qy;
      const ny = rw * qy - rx * qz + ry * qw + rz * qx;
      const nz = rw * qz + rx * qy - ry * qx + rz * qw;
      rw = rw * qw - rx * qx - ry * qy - rz * qz;
      rx = nx; ry = ny; rz = nz;
    }
    const q = j * 4;
    const ax = pre[q], ay = pre[q + 1], az = pre[q + 2], aw = pre[q + W];
    // pre · X
    const mx = aw * rx + ax * rw + ay * rz - az * ry;
    const my = aw * ry - ax * rz + ay * rw + az * rx;
    const mz = aw * rz + ax * ry - ay * rx + az * rw;
    const mw = aw * rw - ax * rx - ay * ry - az * rz;
    // (pre · X) · post: unit already (pre and post are unit, X a product of unit rotations),
    // to double rounding; a normalization here cost a fifth of the kernel.
    const bx = post[q], by = post[q + 1], bz = post[q + 2], bw = post[q + W];
    out[o + POSE_Q] = mw * bx + mx * bw + my * bz - mz * by;
    out[o + POSE_Q + 1] = mw * by - mx * bz + my * bw + mz * bx;
    out[o + POSE_Q + 2] = mw * bz + mx * by - my * bx + mz * bw;
    out[o + POSE_Q + 3] = mw * bw - mx * bx - my * by - mz * bz;
    const f = translationFactor[j];
    if (translationMode[j] === 0) {
      // The rest translation plus pre · (t_s − rest_s) · f.
      const r = j * POSE_STRIDE, rt = j * 3;
      const dx = tx - restTranslation[rt], dy = ty - restTranslation[rt + 1], dz = tz - restTranslation[rt + 2];
      const ux = 2 * (ay * dz - az * dy), uy = 2 * (az * dx - ax * dz), uz = 2 * (ax * dy - ay * dx);
      out[o] = local[r] + (dx + aw * ux + (ay * uz - az * uy)) * f;
      out[o + 1] = local[r + 1] + (dy + aw * uy + (az * ux - ax * uz)) * f;
      out[o + 2] = local[r + 2] + (dz + aw * uz + (ax * uy - ay * ux)) * f;
    } else {
      // pre · p, times the factor.
      const ux = 2 * (ay * pz - az * py), uy = 2 * (az * px - ax * pz), uz = 2 * (ax * py - ay * px);
      out[o] = (px + aw * ux + (ay * uz - az * uy)) * f;
      out[o + 1] = (py + aw * uy + (az * ux - ax * uz)) * f;
      out[o + 2] = (pz + aw * uz + (ax * uy - ay * ux)) * f;
    }
    const sr = j * 3;
    out[o + POSE_S] = sx * scaleRatio[sr];
    out[o + POSE_S + 1] = sy * scaleRatio[sr + 1];
    out[o + POSE_S + 2] = sz * scaleRatio[sr + 2];
  }
  if (tables.attached.length > 0) attachJoints(out, outOff, tables);
}

/** Matrix temporaries in `attachScratch`: the model of a, the model of t's parent, one local. */
const M_A = 0, M_P = 12, M_L = 24;

/** The attach pass of {@link retargetPose}: each attached joint's translation from its anchor's model transform. */
function attachJoints(out: Float32Array, outOff: number, tables: RetargetTables): void {
  const { attached, attachOffset, attachPathStart: start, attachPath: path, attachScratch: m } = tables;
  for (let k = 0; k < attached.length; k += 2) {
    const entry = k >> 1;
    composePath(m, M_A, out, outOff, path, start[2 * entry], start[2 * entry + 1]);
    composePath(m, M_P, out, outOff, path, start[2 * entry + 1], start[2 * entry + 2]);
    // P_t = M_a · b_t, then t's translation = M_parent⁻¹ · P_t.
    affine.transformPoint(m, M_L, m, M_A, attachOffset, entry * 3);
    affine.invert(m, M_P, m, M_P);
    const o = outOff + attached[k] * POSE_STRIDE + POSE_T;
    affine.transformPoint(out, o, m, M_P, m, M_L);
  }
}

/** `m[at ..]` = the model matrix of the last joint of `path[from .. to)` (a root-first path; identity when empty). */
function composePath(m: Float64Array, at: number, pose: Float32Array, poseOff: number, path: Int16Array, from: number, to: number): void {
  affine.identity(m, at);
  for (let i = from; i < to; i++) {
    affine.fromSQT(m, M_L, pose, poseOff + path[i] * POSE_STRIDE);
    affine.multiply(m, at, m, at, m, M_L);
  }
}
