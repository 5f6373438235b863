/**
 * The rotations of an override blend by slerp (a world's `interpolation: 'slerp'`): the rule of
 * three.js's AnimationMixer, which mixes each action into what the ones before it left by its
 * share of the weight so far, t = w / (w₁ + … + w), along the shortest arc (Shoemake's slerp).
 * The blend modes keep their meaning (components/layerRules.ts), each lerp by a weight turned
 * into a slerp by the same weight:
 * - an average step adds its rotation L with a = weight × mask[j]: acc = slerp(acc, L, a / W),
 *   W += a (the first one sets acc = L);
 * - a layer step and the join steps after it form a group, slerp-averaged among themselves into
 *   G with total A; when the group ends, acc = slerp(acc, G, A) for A < 1, G for A ≥ 1 (the nlerp
 *   blend's (1 − A)·acc + A·G), W = max(0, 1 − A) + A; with nothing below, acc = G, W = A;
 * - below the threshold θ the rest pose joins: acc = slerp(acc, rest, (θ − W) / θ).
 * For rotations about one axis this interpolates the angles linearly, which nlerp does only at
 * t = 0, ½, 1. The blend's translations and scales are the nlerp blend's (weighted means): this
 * pass rewrites only rotations. Pure kernel over pose buffers with offsets; floats arrive in
 * arrays (nothing boxed), the working quaternions live in `work` ({@link SLERP_WORK} doubles).
 */
import * as layout from './layout.js';
const { POSE_STRIDE, POSE_Q } = layout;

/** Doubles of the kernel's working block (`work`): the blend so far, the group, an incoming rotation, a share. */
export const SLERP_WORK = 13;
const ACC = 0, GROUP = 4, IN = 8, SHARE = 12;
/** A working quaternion's components after x: y, z, w. */
const QY = 1, QZ = 2, QW = 3;
/** Below this 1 − cos θ the two rotations are treated as parallel and lerped then normalized (three.js's bound is `Number.EPSILON` on sin²θ). */
const PARALLEL = 1e-12;
/** Step kinds and layout (components/layerRules.ts `STEP_*`; layerRules imports components, so they are repeated here). */
const STEP_LAYER = 1, STEP_JOIN = 2, STEP_KIND_SHIFT = 8;

/**
 * Rewrites the rotations of the override blend at `out[outOff ..]` (`jointCount` joints) by slerp:
 * `count` layer poses taken in the order of `steps` (their poses at `layerOff[n]` in `poses`,
 * weights `layerWeight[n]`, times `layerMask[n][j]` when masked), the rest pose `rest` below the
 * threshold `threshold[0]` (see the file header).
 */
export function slerpBlendRotations(
  out: Float32Array,
  outOff: number,
  rest: Float32Array,
  poses: Float32Array,
  layers: { readonly layerOff: Int32Array; readonly layerWeight: Float32Array; readonly layerMask: readonly (Float32Array | null)[]; readonly steps: Int32Array },
  count: number,
  jointCount: number,
  threshold: Float64Array,
  work: Float64Array,
): void {
  const { layerOff, layerWeight, layerMask, steps } = layers;
  const theta = threshold[0];
  for (let j = 0; j < jointCount; j++) {
    const k = j * POSE_STRIDE;
    let total = 0, groupTotal = 0, inGroup = false;
    for (let n = 0; n < count; n++) {
      const kind = steps[n] >>> STEP_KIND_SHIFT;
      if (kind !== STEP_JOIN && inGroup) {
        work[SHARE] = groupTotal;
        closeGroup(work, total > 0);
        total = work[SHARE];
        inGroup = false;
      }
      if (kind === STEP_LAYER) {
        inGroup = true;
        groupTotal = 0;
      }
      const m = layerMask[n];
      const a = m === null ? layerWeight[n] : layerWeight[n] * m[j];
      if (!(a > 0)) continue;
      const p = layerOff[n] + k;
      work[IN] = poses[p + POSE_Q]; work[IN + QY] = poses[p + POSE_Q + 1]; work[IN + QZ] = poses[p + POSE_Q + 2]; work[IN + QW] = poses[p + POSE_Q + 3];
      if (inGroup) {
        groupTotal += a;
        work[SHARE] = a / groupTotal;
        mixInto(work, GROUP, groupTotal === a);
      } else {
        total += a;
        work[SHARE] = a / total;
        mixInto(work, ACC, total === a);
      }
    }
    if (inGroup) {
      work[SHARE] = groupTotal;
      closeGroup(work, total > 0);
      total = work[SHARE];
    }
    if (total < theta) {
      work[IN] = rest[k + POSE_Q]; work[IN + QY] = rest[k + POSE_Q + 1]; work[IN + QZ] = rest[k + POSE_Q + 2]; work[IN + QW] = rest[k + POSE_Q + 3];
      work[SHARE] = (theta - total) / theta;
      mixInto(work, ACC, total === 0);
    }
    const o = outOff + k;
    out[o + POSE_Q] = work[ACC]; out[o + POSE_Q + 1] = work[ACC + QY]; out[o + POSE_Q + 2] = work[ACC + QZ]; out[o + POSE_Q + 3] = work[ACC + QW];
  }
}

/**
 * Ends a group over the blend so far (see the file header): `work[SHARE]` holds the group's
 * total on entry and the blend's new total on return; `blended`: the blend so far has weight.
 * Totals travel through `work`, not as arguments or a return value (V8 boxes a double passed
 * to, or returned from, a call it does not inline).
 */
function closeGroup(work: Float64Array, blended: boolean): void {
  const groupTotal = work[SHARE];
  if (!(groupTotal > 0)) {
    work[SHARE] = blended ? 1 : 0; // an empty group keeps the blend (its weight renormalized to 1)
    return;
  }
  work[IN] = work[GROUP]; work[IN + QY] = work[GROUP + QY]; work[IN + QZ] = work[GROUP + QZ]; work[IN + QW] = work[GROUP + QW];
  if (!blended) {
    mixInto(work, ACC, true);
    work[SHARE] = groupTotal;
    return;
  }
  work[SHARE] = groupTotal < 1 ? groupTotal : 1;
  mixInto(work, ACC, false);
  work[SHARE] = (groupTotal < 1 ? 1 - groupTotal : 0) + groupTotal;
}

/**
 * `work[at ..]` = slerp(work[at ..], work[IN ..], work[SHARE]) along the shortest arc, or the
 * incoming rotation itself when `first`. Nearly parallel rotations are lerped and normalized.
 */
function mixInto(work: Float64Array, at: number, first: boolean): void {
  const bx = work[IN], by = work[IN + QY], bz = work[IN + QZ], bw = work[IN + QW];
  if (first) {
    work[at] = bx; work[at + QY] = by; work[at + QZ] = bz; work[at + QW] = bw;
    return;
  }
  const t = work[SHARE];
  const ax = work[at], ay = work[at + QY], az = work[at + QZ], aw = work[at + QW];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  const dir = cos < 0 ? -1 : 1;
  cos *= dir;
  let wa = 1 - t, wb = t;
  if (1 - cos > PARALLEL) {
    const sin = Math.sqrt(1 - cos * cos), angle = Math.atan2(sin, cos);
    wa = Math.sin((1 - t) * angle) / sin;
    wb = Math.sin(t * angle) / sin;
  }
  wb *= dir;
  let x = wa * ax + wb * bx, y = wa * ay + wb * by, z = wa * az + wb * bz, w = wa * aw + wb * bw;
  // Renormalized: the inputs are float32 rotations, unit only to about 1e-7.
  const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  x *= inv; y *= inv; z *= inv; w *= inv;
  work[at] = x; work[at + QY] = y; work[at + QZ] = z; work[at + QW] = w;
}
