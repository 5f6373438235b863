/**
 * rootMotionFromFeet — gives an in-place locomotion cycle the travel its planted feet imply.
 *
 * An in-place walk keeps the body still and slides each planted foot backward under it; the
 * character must travel forward by as much for that foot to stay put on the ground
 * (Tokage It Lab's normalization of walk cycles: root motion is the motion that keeps the feet
 * planted). This offline builder measures that slide, turns it into a root track and writes
 * it into the clip's root-motion joint, so the result drives root motion, `setTargetSpeed`
 * and blend spaces like any clip authored with travel.
 *
 * The model, per interval i (frames i → i + 1, Δt = 1 / frameRate), in the clip's model space:
 *
 * 1. **Foot paths.** p_k(f): the horizontal position foot k would have in the world if the
 *    character did not move. For a foot below the root-motion joint (the hip joint, else joint
 *    0) that is its model position: `rootMotionSystem` holds the joint in place, so the world
 *    sees the foot at p_k + travel. A foot elsewhere (an IK target under the root, as the
 *    Robot's) is not held, so the joint's own sway is added: p_k + hip(f) + travel.
 * 2. **Contact** (lowest and slowest). Height weight h_k(f) = clamp(1 − (y_k(f) − min_f y_k) /
 *    heightThreshold, 0, 1): 1 at the foot's lowest, 0 from `heightThreshold` above it; an
 *    interval takes the smaller of its two frames. Velocity v_ik = (p_k(i+1) − p_k(i)) / Δt. The
 *    ground's velocity g is the median (per axis) of v_ik over the intervals with h > 0: in an
 *    in-place clip the ground slides backward under the body, so "slow" means slow against it.
 *    Speed weight s_ik = clamp(1 − |v_ik − g| / speedThreshold, 0, 1). Contact weight
 *    w_ik = h·s.
 * 3. **Combine.** u_i = −Σ_k w_ik v_ik / Σ_k w_ik: the body moves as the planted feet slide back
 *    (a weighted mean when several are down). Intervals with no contact (the run's flight)
 *    take u linearly interpolated between the nearest intervals with one.
 * 4. **Smooth.** A Gaussian of σ = `smoothing` seconds over the intervals, weighted by the
 *    contact weights (normalized convolution: u_i = Σ_j K(i−j) Σ_k w_jk (−v_jk) / Σ_j K(i−j)
 *    Σ_k w_jk), periodic for a looping clip.
 * 5. **Integrate.** travel(0) = 0, travel(i+1) = travel(i) + u_i·Δt (horizontal). For a loop,
 *    u is periodic, so the track ends at the cycle's displacement Σ u_i·Δt and the velocity
 *    just before the seam continues into the one just after it: no jump when the clip wraps.
 * 6. The root-motion joint's local translation at frame f gets travel(f) expressed in its
 *    parent's frame at f, so its model position is the clip's plus travel(f).
 *
 * Thresholds are in the clip's units (metres for a well-made asset); their defaults scale
 * with the clip's hip height H (`getRootTrack(clip).hipHeight`) so they fit any size.
 * Travel the clip already has stays (a clip with travel has still planted feet: u ≈ 0).
 * The travel is horizontal only; the result is the translation model of root motion (with
 * `rootYaw` the clip's turn is extracted as before).
 */
import { fail } from '../assets/AnimationError.js';
import { createClip, type Clip } from '../assets/Clip.js';
import { getRootTrack } from '../assets/rootTrack.js';
import { curveFrames } from '../assets/sampleCurves.js';
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_STRIDE } from '../math/layout.js';
import { footPositions, isBelow, lowestHeights, median, readThreshold, resolveFeet } from './footPaths.js';

/** Options of {@link rootMotionFromFeet}. */
export interface FootRootMotionOptions {
  /**
   * The joints that touch the ground, by name or index in the clip's skeleton: the feet of a
   * biped, all four paws of a quadruped. Not the root-motion joint or one of its ancestors.
   */
  feet: readonly (string | number)[];
  /**
   * How far above its lowest point a foot still counts as down, in the clip's units (default
   * 0.05 × the hip height: 2.1 cm for the Fox's 0.43 m hips). The weight falls linearly from 1
   * at the lowest to 0 here.
   */
  heightThreshold?: number;
  /**
   * How fast a down foot may move against the ground and still count as planted, in the clip's
   * units per second (default 2 × the ground speed |g| + 1 hip height per second: 3.6 m/s for
   * the Fox's run, 2.5 m/s for its walk). The weight falls linearly from 1 at the ground's
   * velocity to 0 here, so a foot that is low but already swinging forward (about 2|g| against
   * the ground) counts for little; a foot that slides a little faster or slower than the others
   * keeps most of its say. A tight value trusts only the feet that agree with the median.
   */
  speedThreshold?: number;
  /**
   * σ of the Gaussian that smooths the travel velocity, seconds (default 1/30 s, with which the
   * Fox's walk never moves backward); 0 follows the feet interval by interval. Larger is
   * steadier and lets the feet slide more.
   */
  smoothing?: number;
}

const WHERE = 'rootMotionFromFeet';
/** Below this total contact weight (kernel-weighted) an interval has no planted foot. */
const NO_CONTACT = 1e-9;
const DEFAULT_HEIGHT = 0.05;
const DEFAULT_SPEED_GROUND = 2;
const DEFAULT_SPEED_HIPS = 1;
const DEFAULT_SMOOTHING = 1 / 30;

/**
 * Returns `clip` with root travel derived from its planted feet (see the module comment for
 * the model): a new clip on the same skeleton, with the same frame rate, frame count, loop
 * flag, events and name, whose root-motion joint (the hip joint, else joint 0) moves
 * horizontally as the planted feet slide backward. Played with root motion, the feet stay
 * (nearly) put and the character travels; `getRootTrack(result).cycle` is the distance per
 * cycle `setTargetSpeed` divides by. Played without root motion the pose walks away from the
 * origin and snaps back at each wrap, as any clip with travel does.
 *
 * @example
 * const { clips } = await loadGltf(bytes, { scale: 'cm' });
 * const walk = rootMotionFromFeet(clips.find((c) => c.name === 'Walk')!, {
 *   feet: ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'],
 * });
 * play(world, fox, walk);
 * setTargetSpeed(world, fox, 1.2);
 * @throws AnimationError when `clip` is not a clip, is a difference or reduced (LOD) clip or has fewer than
 * two frames; when `feet` is missing or empty, names a joint the skeleton does not have, an
 * index out of range, a joint twice, or the root-motion joint or one of its ancestors; when a
 * threshold is not a finite number > 0 (`smoothing` ≥ 0); and when no foot is planted in any
 * interval of the clip.
 */
export function rootMotionFromFeet(clip: Clip, options: FootRootMotionOptions): Clip {
  if (!clip || typeof clip !== 'object' || !(clip.frames instanceof Float32Array) || !clip.skeleton) {
    fail(WHERE, 'clip', 'must be a Clip from createClip or an importer');
  }
  if (clip.difference === true) {
    fail(WHERE, 'clip', `"${clip.name}" is a difference clip (createDifferenceClip): its frames are differences, not poses with feet on the ground; derive the travel from its source clip`);
  }
  if (clip.reduced !== null) fail(WHERE, 'clip', `"${clip.name}" is a reduced (LOD) clip: derive the travel from its source clip, then reduce the result`);
  if (clip.frameCount < 2) fail(WHERE, 'clip', `"${clip.name}" has ${clip.frameCount} frame: a foot's slide needs at least two`);
  const skeleton = clip.skeleton;
  const hip = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
  const feet = resolveRootMotionFeet(clip, options, hip);
  const hipHeight = getRootTrack(clip).hipHeight;
  const size = hipHeight > 0 ? hipHeight : 1;
  const heightThreshold = option(options.heightThreshold, 'heightThreshold', DEFAULT_HEIGHT * size, false);
  const speedOption = options.speedThreshold === undefined ? undefined : option(options.speedThreshold, 'speedThreshold', 0, false);
  const smoothing = option(options.smoothing, 'smoothing', DEFAULT_SMOOTHING, true);

  const J = skeleton.jointCount, N = clip.frameCount, M = N - 1, K = feet.length;
  const dt = 1 / clip.frameRate;
  const parent = skeleton.parents[hip];
  // Per frame: each foot's path (x, y, z) and the root-motion joint's parent inverse (3×4).
  const parentInverse = new Float64Array(N * MATRIX_STRIDE);
  const below = feet.map((foot) => isBelow(skeleton.parents, foot, hip));
  const path = footPositions(clip, feet, (model, f, path) => {
    const h = hip * MATRIX_STRIDE + MATRIX_T;
    for (let k = 0; k < K; k++) {
      if (below[k]) continue;
      const o = (f * K + k) * 3;
      path[o] = path[o] + model[h];
      path[o + 2] = path[o + 2] + model[h + 2];
    }
    if (parent >= 0) affine.invert(parentInverse, f * MATRIX_STRIDE, model, parent * MATRIX_STRIDE);
  });

  // 2. Contact: height weights per interval, the ground's velocity, speed weights.
  const lowest = lowestHeights(path, N, K);
  const heightWeight = (f: number, k: number): number => clamp01(1 - (path[(f * K + k) * 3 + 1] - lowest[k]) / heightThreshold);
  const vx = new Float64Array(M * K), vz = new Float64Array(M * K), weight = new Float64Array(M * K);
  const downX: number[] = [], downZ: number[] = [];
  for (let i = 0; i < M; i++) {
    for (let k = 0; k < K; k++) {
      const a = (i * K + k) * 3, b = ((i + 1) * K + k) * 3, ik = i * K + k;
      vx[ik] = (path[b] - path[a]) / dt;
      vz[ik] = (path[b + 2] - path[a + 2]) / dt;
      weight[ik] = Math.min(heightWeight(i, k), heightWeight(i + 1, k));
      if (weight[ik] > 0) { downX.push(vx[ik]); downZ.push(vz[ik]); }
    }
  }
  const gx = median(downX), gz = median(downZ);
  const speedThreshold = speedOption ?? DEFAULT_SPEED_GROUND * Math.hypot(gx, gz) + DEFAULT_SPEED_HIPS * size;
  // 3. Per interval: Σ w and Σ w·(−v), the numerator and denominator of the combined velocity.
  const sumW = new Float64Array(M), sumX = new Float64Array(M), sumZ = new Float64Array(M);
  for (let i = 0; i < M; i++) {
    for (let k = 0; k < K; k++) {
      const ik = i * K + k;
      const w = weight[ik] * clamp01(1 - Math.hypot(vx[ik] - gx, vz[ik] - gz) / speedThreshold);
      sumW[i] = sumW[i] + w;
      sumX[i] = sumX[i] - w * vx[ik];
      sumZ[i] = sumZ[i] - w * vz[ik];
    }
  }
  if (!sumW.some((w) => w > NO_CONTACT)) {
    fail(WHERE, 'feet', `[${feet.map((j) => `"${skeleton.names[j]}"`).join(', ')}] are never planted in "${clip.name}" (near their lowest and moving with the ground, heightThreshold ${heightThreshold}, speedThreshold ${speedThreshold}): name the joints that touch the ground, or raise the thresholds`);
  }
  // 4. Normalized convolution (smoothing), then gaps filled by interpolation.
  const velocity = smooth(sumW, sumX, sumZ, smoothing * clip.frameRate, clip.loop);
  // 5–6. Integrate and write into the root-motion joint's local translation.
  const frames = Float32Array.from(clip.frames);
  const travel = new Float64Array(3);
  let tx = 0, tz = 0;
  for (let f = 0; f < N; f++) {
    if (f > 0) { tx += velocity[(f - 1) * 2] * dt; tz += velocity[(f - 1) * 2 + 1] * dt; }
    travel[0] = tx; travel[1] = 0; travel[2] = tz;
    if (parent >= 0) affine.transformVector(travel, 0, parentInverse, f * MATRIX_STRIDE, travel, 0);
    const o = (f * J + hip) * POSE_STRIDE;
    frames[o] = frames[o] + travel[0];
    frames[o + 1] = frames[o + 1] + travel[1];
    frames[o + 2] = frames[o + 2] + travel[2];
  }
  return createClip({ skeleton, frameRate: clip.frameRate, frames, loop: clip.loop, events: clip.events, name: clip.name, importError: clip.importError, curves: clip.curves.map((c) => ({ name: c.name, values: curveFrames(c, clip.frameCount) })) });
}

/** The feet as joint indices, validated (see {@link rootMotionFromFeet}'s throws). */
function resolveRootMotionFeet(clip: Clip, options: FootRootMotionOptions, hip: number): number[] {
  const skeleton = clip.skeleton;
  return resolveFeet(WHERE, clip, (options as FootRootMotionOptions | undefined)?.feet, (joint) =>
    isBelow(skeleton.parents, hip, joint)
      ? `"${skeleton.names[joint]}" is the root-motion joint "${skeleton.names[hip]}" or one of its ancestors, which root motion holds in place: a foot is a joint of a leg`
      : null,
  );
}

/** `value` validated (finite and > 0, or ≥ 0 when `zero`), or `fallback` when undefined. */
function option(value: number | undefined, name: string, fallback: number, zero: boolean): number {
  return readThreshold(WHERE, value, name, fallback, zero);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * Velocity per interval, (x, z) pairs: the normalized convolution Σ K·(Σ w·(−v)) / Σ K·(Σ w)
 * with a Gaussian K of σ = `sigma` intervals (σ = 0: no smoothing), indices wrapping when
 * `loop`; intervals whose kernel-weighted contact is ~0 are then filled by linear
 * interpolation between the nearest intervals that have one (across the seam when `loop`,
 * held constant past the ends otherwise).
 */
function smooth(sumW: Float64Array, sumX: Float64Array, sumZ: Float64Array, sigma: number, loop: boolean): Float64Array {
  const M = sumW.length;
  const radius = sigma > 0 ? Math.min(Math.ceil(3 * sigma), loop ? M >> 1 : M - 1) : 0;
  const out = new Float64Array(M * 2);
  const known: number[] = [];
  for (let i = 0; i < M; i++) {
    let w = 0, x = 0, z = 0;
    for (let d = -radius; d <= radius; d++) {
      let j = i + d;
      if (loop) j = ((j % M) + M) % M;
      else if (j < 0 || j >= M) continue;
      const k = sigma > 0 ? Math.exp(-(d * d) / (2 * sigma * sigma)) : 1;
      w += k * sumW[j];
      x += k * sumX[j];
      z += k * sumZ[j];
    }
    if (w > NO_CONTACT) {
      out[i * 2] = x / w;
      out[i * 2 + 1] = z / w;
      known.push(i);
    }
  }
  // Fill each gap between known intervals a < b (b after a, wrapping for a loop) linearly.
  const count = known.length;
  for (let n = 0; n < count; n++) {
    const a = known[n];
    let b = known[(n + 1) % count];
    if (n + 1 === count) {
      if (!loop) {
        for (let i = a + 1; i < M; i++) { out[i * 2] = out[a * 2]; out[i * 2 + 1] = out[a * 2 + 1]; }
        break;
      }
      b += M;
    }
    for (let i = a + 1; i < b; i++) {
      const u = (i - a) / (b - a), at = (i % M) * 2, bt = (b % M) * 2;
      out[at] = out[a * 2] + u * (out[bt] - out[a * 2]);
      out[at + 1] = out[a * 2 + 1] + u * (out[bt + 1] - out[a * 2 + 1]);
    }
  }
  if (!loop) for (let i = 0; i < known[0]; i++) { out[i * 2] = out[known[0] * 2]; out[i * 2 + 1] = out[known[0] * 2 + 1]; }
  return out;
}
