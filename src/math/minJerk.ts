/**
 * Minimum-jerk curves (after T. Flash and N. Hogan, "The
 * Coordination of Arm Movements: An Experimentally Confirmed Mathematical Model",
 * J. Neuroscience 5(7), 1985): the motion minimising ∫(d³x/dt³)² dt has d⁶x/dt⁶ = 0, so it is
 * a quintic, fixed by position, velocity and acceleration at both ends.
 *
 * Three forms, all scalar per axis, seconds and the caller's length unit:
 * 1. `minJerk(t)`: the rest-to-rest easing 6t⁵ − 15t⁴ + 10t³ on t ∈ [0, 1].
 * 2. `minJerkQuintic(t, T, …)`: the general boundary-condition quintic joining any start state
 *    (x0, v0, a0) at 0 to any end state (xf, vf, af) at T.
 * 3. The real-time follower (the Zenn note's state-space form, used by `followSystem`): the
 *    quintic's jerk at its start, 6α₃/T³ with α₃ as in `minJerkQuintic`, rewritten in the
 *    state s = (x, v, a) with input u = (xf, vf, af), gives the linear system
 *
 *        ẋ = v,   v̇ = a,   ȧ = −60/T³ (x − xf) − 36/T² v − 9/T a − 24/T² vf + 3/T af,
 *
 *    i.e. the state keeps re-planning a minimum-jerk move of duration T to the end state u.
 *    (The note prints the input matrix's last row as 60/T³, −24/T³, 3/T³; the derivation
 *    gives 60/T³, −24/T², 3/T: vf enters with T·vf and af with T²·af.) With the note's
 *    vf = af = 0, and in general with xf replaced by the rest point
 *    x* = xf − 0.4·T·vf + 0.05·T²·af for a constant input, this is
 *
 *        ẋ = v,   v̇ = a,   ȧ = −60/T³ (x − x*) − 36/T² v − 9/T a.
 *
 *    In the scaled state (x − x*, T·v, T²·a) and scaled time τ = t/T this is ds/dτ = M s with
 *    the constant companion matrix
 *
 *        M = | 0    1    0 |
 *            | 0    0    1 |
 *            | −60 −36  −9 |
 *
 *    so one step of dt is exactly s ← exp(h·M) s with h = dt/T, whatever dt is
 *    (`minJerkStepMatrix`). The note discretises with explicit Euler, s ← (I + h·M) s
 *    (`minJerkEulerMatrix`), which is only stable for h < 0.325 (see below). An input that
 *    varies in time the same way is handled with any particular solution y(t) of the full
 *    model in place of x*: s − (y, y′, y″) obeys the same homogeneous system (followSystem's
 *    `predict`, where y is the target's extrapolated constant-acceleration path).
 *
 * ## exp(h·M) in closed form
 * The characteristic polynomial of M is λ³ + 9λ² + 36λ + 60. With λ = μ − 3 it becomes the
 * depressed cubic μ³ + 9μ + 6 = 0, whose Cardano solution is μ = ∛3 − ∛9 (real) and
 * μ = −(∛3 − ∛9)/2 ± i·(√3/2)(∛3 + ∛9), so
 *
 *     r = −3 + ∛3 − ∛9 ≈ −3.63783,   p ± iq ≈ −2.68108 ± 3.05043i   (per unit of τ).
 *
 * All real parts are negative: the continuous follower is stable for every T, and so is the
 * exact step for every h. The solutions of the scalar ODE e‴ + 9e″ + 36e′ + 60e = 0 are
 * spanned by φ₁ = e^{rτ}, φ₂ = e^{pτ} cos qτ, φ₃ = e^{pτ} sin qτ; with Φ(τ) the 3×3 matrix
 * whose columns are (φₖ, φₖ′, φₖ″), Φ′ = MΦ, hence
 *
 *     exp(h·M) = Φ(h) · Φ(0)⁻¹,
 *
 * with Φ(0)⁻¹ a constant computed once here. One exp, one more exp, a cos and a sin per
 * distinct h.
 *
 * Euler's step I + hM has eigenvalues 1 + hλ; |1 + h(p + iq)| < 1 needs
 * h < −2p / (p² + q²) ≈ 0.3251 (the real root allows h < 0.55). At T = 0.4 s that is
 * dt < 0.13 s; at dt = 0.25 s (h = 0.625) Euler's error grows ≈ 2.02× per step.
 *
 * The follower is not overshoot-free: from rest, a unit step of the target peaks ≈ 1.63 %
 * past it (at t ≈ 1.52 T) before settling (the complex pair rings).
 *
 * No allocation, no throwing. Functions that a per-character kernel calls take their floats
 * in arrays: V8 boxes a double passed to a function it does not inline.
 */

const CBRT3 = Math.cbrt(3);
const CBRT9 = Math.cbrt(9);

/** Cardano's real root, polished by one Newton step on λ³ + 9λ² + 36λ + 60. */
function polishRoot(r: number): number {
  const f = ((r + 9) * r + 36) * r + 60;
  const df = (3 * r + 18) * r + 36;
  return r - f / df;
}

/** The real eigenvalue r of the follower matrix M (per unit of scaled time τ = t/T): −3 + ∛3 − ∛9 ≈ −3.63783. */
export const MIN_JERK_REAL_ROOT = polishRoot(-3 + CBRT3 - CBRT9);
/** Real part p of the complex eigenvalues p ± iq of M (by Vieta, r + 2p = −9): ≈ −2.68108. */
export const MIN_JERK_DAMPING = (-9 - MIN_JERK_REAL_ROOT) / 2;
/** Imaginary part q of the complex eigenvalues p ± iq of M (by Vieta, r(p² + q²) = −60): ≈ 3.05043. */
export const MIN_JERK_FREQUENCY = Math.sqrt(-60 / MIN_JERK_REAL_ROOT - MIN_JERK_DAMPING * MIN_JERK_DAMPING);

/**
 * Largest h = dt/T for which the note's explicit Euler step of the follower is stable:
 * −2p / (p² + q²) ≈ 0.3251 (the complex pair leaves the unit circle first).
 */
export const MIN_JERK_EULER_LIMIT = (-2 * MIN_JERK_DAMPING) / (MIN_JERK_DAMPING * MIN_JERK_DAMPING + MIN_JERK_FREQUENCY * MIN_JERK_FREQUENCY);

/** Offsets of the rows of a 3×3 row-major step matrix (`minJerkStepMatrix`, `minJerkEulerMatrix`): row r at 3r. */
export const STEP_ROW_0 = 0, STEP_ROW_1 = 3, STEP_ROW_2 = 6;

/** Φ(0)⁻¹, row-major (see the module comment), computed once by cofactors. */
const PHI0_INVERSE = invertPhi0();

function invertPhi0(): Float64Array {
  const r = MIN_JERK_REAL_ROOT, p = MIN_JERK_DAMPING, q = MIN_JERK_FREQUENCY;
  // Columns (φ, φ′, φ″) at τ = 0 of e^{rτ}, e^{pτ}cos qτ, e^{pτ}sin qτ.
  const a = 1, b = 1, c = 0;
  const d = r, e = p, f = q;
  const g = r * r, h = p * p - q * q, k = 2 * p * q;
  const c00 = e * k - f * h, c01 = -(d * k - f * g), c02 = d * h - e * g;
  const det = a * c00 + b * c01 + c * c02;
  const s = 1 / det;
  const out = new Float64Array(9);
  out[0] = c00 * s; out[1] = -(b * k - c * h) * s; out[2] = (b * f - c * e) * s;
  out[3] = c01 * s; out[4] = (a * k - c * g) * s; out[5] = -(a * f - c * d) * s;
  out[6] = c02 * s; out[7] = -(a * h - b * g) * s; out[8] = (a * e - b * d) * s;
  return out;
}

/**
 * The rest-to-rest minimum-jerk easing f(t) = 6t⁵ − 15t⁴ + 10t³ (the note's first formula):
 * f(0) = 0, f(1) = 1, zero velocity and acceleration at both ends, f(½) = ½,
 * f(1 − t) = 1 − f(t), monotone. `t` is normalised time (elapsed / duration), clamped to
 * [0, 1]: t ≤ 0 gives 0, t ≥ 1 gives 1. NaN gives NaN.
 *
 * @example
 * const x = x0 + (x1 - x0) * minJerk(elapsed / duration);
 */
export function minJerk(t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  return t * t * t * (t * (6 * t - 15) + 10);
}

/**
 * The general minimum-jerk quintic (the note's α₀…α₅): the curve x(t) from position `x0`,
 * velocity `v0`, acceleration `a0` at t = 0 to `xf`, `vf`, `af` at t = `T`, evaluated at `t`.
 * Units: seconds for `t` and `T`; lengths per second (squared) for the rates.
 *
 * The note solves the six conditions for duration 1; for duration T the same coefficients
 * apply in normalised time s = t/T with the rates scaled to it (v·T, a·T²):
 *
 *     α₀ = x0,  α₁ = v0 T,  α₂ = a0 T² / 2,   D = xf − x0
 *     α₃ = 10D − 6 v0 T − 4 vf T − 1.5 a0 T² + 0.5 af T²
 *     α₄ = −15D + 8 v0 T + 7 vf T + 1.5 a0 T² − af T²
 *     α₅ = 6D − 3 v0 T − 3 vf T − 0.5 a0 T² + 0.5 af T²
 *     x(t) = α₀ + α₁ s + α₂ s² + α₃ s³ + α₄ s⁴ + α₅ s⁵
 *
 * `t` is clamped to [0, T]: before the start it is `x0`, after the end `xf`. `T ≤ 0` (a
 * zero-length move) gives `xf` for every t. With v0 = a0 = vf = af = 0 it is
 * x0 + (xf − x0)·minJerk(t/T).
 *
 * @example
 * // leave 0 at 2 m/s, arrive at 1 m at rest after 0.5 s; position at 0.25 s
 * minJerkQuintic(0.25, 0.5, 0, 2, 0, 1, 0, 0);
 */
export function minJerkQuintic(t: number, T: number, x0: number, v0: number, a0: number, xf: number, vf: number, af: number): number {
  if (!(T > 0) || t >= T) return xf;
  if (t <= 0) return x0;
  const s = t / T;
  const d = xf - x0;
  const w0 = v0 * T, wf = vf * T;
  const b0 = a0 * T * T, bf = af * T * T;
  const a3 = 10 * d - 6 * w0 - 4 * wf - 1.5 * b0 + 0.5 * bf;
  const a4 = -15 * d + 8 * w0 + 7 * wf + 1.5 * b0 - bf;
  const a5 = 6 * d - 3 * w0 - 3 * wf - 0.5 * b0 + 0.5 * bf;
  return x0 + s * (w0 + s * (0.5 * b0 + s * (a3 + s * (a4 + s * a5))));
}

/**
 * Writes exp(h·M), the exact one-step transition of the follower in scaled coordinates
 * (x − xf, T·v, T²·a), row-major into `out[outOff .. outOff + 8]`, with h = dt/T read from
 * `params[paramOff]` (an array, so a kernel passes no boxed double). h ≤ 0 or NaN writes the
 * identity. Physical state after dt, per axis (e = x − xf):
 *
 *     (e′, T v′, T² a′) = exp(h·M) · (e, T v, T² a)
 *
 * `out` must not alias `params[paramOff]` unless the caller no longer needs h.
 */
export function minJerkStepMatrix(out: Float64Array, outOff: number, params: Float64Array, paramOff: number): void {
  const h = params[paramOff];
  if (!(h > 0)) {
    writeIdentity(out, outOff);
    return;
  }
  const r = MIN_JERK_REAL_ROOT, p = MIN_JERK_DAMPING, q = MIN_JERK_FREQUENCY;
  const E = Math.exp(r * h), P = Math.exp(p * h);
  const c = P * Math.cos(q * h), s = P * Math.sin(q * h);
  const pq2 = 2 * p * q, pp = p * p - q * q;
  // Φ(h), rows φ, φ′, φ″ over the columns e^{rτ}, e^{pτ}cos qτ, e^{pτ}sin qτ.
  const f00 = E, f01 = c, f02 = s;
  const f10 = r * E, f11 = p * c - q * s, f12 = p * s + q * c;
  const f20 = r * r * E, f21 = pp * c - pq2 * s, f22 = pp * s + pq2 * c;
  const n = PHI0_INVERSE;
  for (let col = 0; col < 3; col++) {
    const n0 = n[col], n1 = n[3 + col], n2 = n[6 + col];
    out[outOff + col] = f00 * n0 + f01 * n1 + f02 * n2;
    out[outOff + 3 + col] = f10 * n0 + f11 * n1 + f12 * n2;
    out[outOff + 6 + col] = f20 * n0 + f21 * n1 + f22 * n2;
  }
}

/**
 * Writes I + h·M, the note's explicit Euler step of the follower in scaled coordinates,
 * row-major into `out[outOff .. outOff + 8]`, with h = dt/T read from `params[paramOff]`.
 * Applied as in {@link minJerkStepMatrix} it is exactly the note's update
 * x ← x + dt v, v ← v + dt a, a ← a − dt (60/T³ (x − xf) + 36/T² v + 9/T a).
 * Unstable for h > {@link MIN_JERK_EULER_LIMIT}. h ≤ 0 or NaN writes the identity.
 */
export function minJerkEulerMatrix(out: Float64Array, outOff: number, params: Float64Array, paramOff: number): void {
  const h = params[paramOff];
  if (!(h > 0)) {
    writeIdentity(out, outOff);
    return;
  }
  out[outOff] = 1; out[outOff + 1] = h; out[outOff + 2] = 0;
  out[outOff + 3] = 0; out[outOff + 4] = 1; out[outOff + 5] = h;
  out[outOff + 6] = -60 * h; out[outOff + 7] = -36 * h; out[outOff + 8] = 1 - 9 * h;
}

function writeIdentity(out: Float64Array, off: number): void {
  out[off] = 1; out[off + 1] = 0; out[off + 2] = 0;
  out[off + 3] = 0; out[off + 4] = 1; out[off + 5] = 0;
  out[off + 6] = 0; out[off + 7] = 0; out[off + 8] = 1;
}
