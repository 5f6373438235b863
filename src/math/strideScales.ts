/**
 * Stride scales: per-clip factors on the root travel of a blend so that the blended clips,
 * playing at one rate, move in the commanded direction at one speed
 * (Tokage It Lab's normalization of walk cycles with root motion, "blending that respects
 * playback rates" and appendix 3).
 *
 * Why: blending a forward clip that covers 2 m per cycle with a sideways one that covers 4 m,
 * half and half, moves the character at atan(2/4) = 27° off the sideways axis instead of the
 * 45° asked for, and at neither clip's speed. Tokage It Lab multiplies each clip's travel by a
 * factor so that, at the blend's single playback rate, the blend travels exactly along the
 * commanded direction d.
 *
 * The model, per weighted clip i (weight wᵢ, travel per second at rate 1 eᵢ = cᵢ / τᵢ with cᵢ
 * the horizontal cycle displacement and τᵢ the time one cycle takes in the blend; its own
 * speed alone σᵢ = |cᵢ| / Dᵢ):
 * 1. Speed at rate 1: S = (W_T / W) · H, where H = W_T / Σ (wᵢ / σᵢ) is the weighted harmonic
 *    mean of the travelling clips' own speeds and W_T / W the travelling share of the weight
 *    (an idle clip's weight slows the blend down, as a plain blend would). Then the rate that
 *    gives speed v, v / S, is the weighted mean of the rates vᵢ = v / σᵢ each clip would need
 *    alone — Tokage It Lab's "rate midway between the clips' rates".
 * 2. Direction: with uᵢ = eᵢ / |eᵢ|, the factors are sᵢ = gᵢ · λ / |eᵢ| where gᵢ solves
 *    Σ wᵢ gᵢ uᵢ = d with the least Σ wᵢ gᵢ² (gᵢ = uᵢ · M⁻¹ d, M = Σ wᵢ uᵢ uᵢᵀ), clamped at 0 so
 *    no clip runs against its own steps, and λ = S · W / |Σ wᵢ gᵢ uᵢ| sets the speed. Two clips
 *    in different directions have exactly one solution — Tokage It Lab's decomposition of the
 *    travel onto the two clip directions (appendix 3: A ×1.8856, B ×0.94281). When every
 *    travelling clip moves along one line (a 1D speed blend), M is singular: its
 *    pseudo-inverse gives every clip going d's way the same g, so each is scaled to move at S
 *    — Tokage It Lab's rule that blended clips move equally at one rate.
 *
 * Clips that do not travel (|eᵢ| or σᵢ ≤ 1e-6, e.g. idle) keep factor 1.
 */

/** Floats per clip in the input of {@link solveStrideScales}. */
export const STRIDE_INPUT_STRIDE = 4;
/** Offset of the weight `w` in a clip's input. */
export const STRIDE_WEIGHT = 0;
/** Offset of the travel per second `ex ez` (model X and Z) in a clip's input. */
export const STRIDE_TRAVEL = 1;
/** Offset of the clip's own speed in a clip's input. */
export const STRIDE_OWN_SPEED = 3;

/** Below this (m/s) a clip is treated as not travelling. */
const NO_TRAVEL = 1e-6;

/**
 * Writes the stride scale of each of `count` clips into `out[0 .. count)`.
 *
 * `input` holds {@link STRIDE_INPUT_STRIDE} floats per clip: `w, ex, ez, ownSpeed` — weight
 * (≥ 0), travel per second at rate 1 in the blend (model X and Z, m/s), and the clip's own
 * speed alone (m/s). `direction` is `[dx, dz]`, the commanded direction in model X/Z (any
 * length); when it is (0, 0) the clips' own blended direction is kept and only the speeds are
 * equalized. When no clip travels, or nothing can be made to travel along d, every factor is 1.
 * Allocates nothing and never throws. See the module comment for the model.
 */
export function solveStrideScales(out: Float64Array, input: Float64Array, count: number, direction: Float64Array): void {
  let total = 0, travelling = 0, inverseSpeeds = 0;
  let m00 = 0, m01 = 0, m11 = 0, naturalX = 0, naturalZ = 0;
  let axisX = 0, axisZ = 0; // direction of one travelling clip, for the collinear case
  for (let i = 0; i < count; i++) {
    out[i] = 1;
    const o = i * STRIDE_INPUT_STRIDE;
    const w = input[o + STRIDE_WEIGHT], ex = input[o + STRIDE_TRAVEL], ez = input[o + STRIDE_TRAVEL + 1], own = input[o + STRIDE_OWN_SPEED];
    if (!(w > 0)) continue;
    total += w;
    const n = Math.sqrt(ex * ex + ez * ez);
    if (!(n > NO_TRAVEL) || !(own > NO_TRAVEL)) continue;
    travelling += w;
    inverseSpeeds += w / own;
    const ux = ex / n, uz = ez / n;
    m00 += w * ux * ux; m01 += w * ux * uz; m11 += w * uz * uz;
    naturalX += w * ex; naturalZ += w * ez;
    axisX = ux; axisZ = uz;
  }
  if (!(travelling > 0)) return;

  let dx = direction[0], dz = direction[1];
  let length = Math.sqrt(dx * dx + dz * dz);
  if (!(length > 1e-12)) { dx = naturalX; dz = naturalZ; length = Math.sqrt(dx * dx + dz * dz); }
  if (!(length > 1e-12)) return;
  dx /= length; dz /= length;

  // μ = M⁻¹ d, or M's pseudo-inverse when the travelling clips are collinear.
  const trace = m00 + m11;
  const det = m00 * m11 - m01 * m01;
  let muX: number, muZ: number;
  if (det > 1e-9 * trace * trace) {
    muX = (m11 * dx - m01 * dz) / det;
    muZ = (m00 * dz - m01 * dx) / det;
  } else {
    const along = (dx * axisX + dz * axisZ) / trace;
    muX = along * axisX;
    muZ = along * axisZ;
  }

  let sumX = 0, sumZ = 0;
  for (let i = 0; i < count; i++) {
    const o = i * STRIDE_INPUT_STRIDE;
    const w = input[o + STRIDE_WEIGHT], ex = input[o + STRIDE_TRAVEL], ez = input[o + STRIDE_TRAVEL + 1], own = input[o + STRIDE_OWN_SPEED];
    const n = Math.sqrt(ex * ex + ez * ez);
    if (!(w > 0) || !(n > NO_TRAVEL) || !(own > NO_TRAVEL)) continue;
    const ux = ex / n, uz = ez / n;
    const g = Math.max(0, ux * muX + uz * muZ);
    out[i] = g; // λ / |eᵢ| applied below
    sumX += w * g * ux;
    sumZ += w * g * uz;
  }
  const reach = Math.sqrt(sumX * sumX + sumZ * sumZ);
  if (!(reach > 1e-12)) {
    for (let i = 0; i < count; i++) out[i] = 1;
    return;
  }
  const speed = (travelling / total) * (travelling / inverseSpeeds);
  const lambda = (speed * total) / reach;
  for (let i = 0; i < count; i++) {
    const o = i * STRIDE_INPUT_STRIDE;
    const ex = input[o + STRIDE_TRAVEL], ez = input[o + STRIDE_TRAVEL + 1];
    const w = input[o + STRIDE_WEIGHT], n = Math.sqrt(ex * ex + ez * ez), own = input[o + STRIDE_OWN_SPEED];
    if (!(w > 0) || !(n > NO_TRAVEL) || !(own > NO_TRAVEL)) continue;
    out[i] = (out[i] * lambda) / n;
  }
}
