/**
 * Scalar offset-decay curves for transitions: the inertialization quintic (Gears of War) and
 * the critically damped decay spring (Holden). Each brings an offset `x` (source pose minus
 * target pose, for one channel) with velocity `v` to 0, so a transition can stop evaluating
 * the source animation and add the decaying offset to the target instead.
 *
 * Pure scalar functions: no allocation, no throwing, seconds for time. Degenerate inputs
 * have defined results, listed on each function.
 *
 * ## The quintic, in normalised time
 * Source: hogetatu's write-up of David Bollo, "Inertialization:
 * High-Performance Animation Transitions in 'Gears of War'", GDC 2018), which builds on the
 * minimum-jerk model of T. Flash and N. Hogan, "The Coordination of Arm Movements: An
 * Experimentally Confirmed Mathematical Model", J. Neuroscience 5(7), 1985: minimising
 * ½∫(d³x/dt³)² dt gives d⁶x/dt⁶ = 0, a quintic. hogetatu fixes x(0) = x0, x′(0) = v0,
 * x″(0) = a0, x(t1) = x′(t1) = x″(t1) = 0:
 *
 *     x(t) = A t⁵ + B t⁴ + C t³ + (a0/2) t² + v0 t + x0
 *     A = −(a0 t1² + 6 v0 t1 + 12 x0) / (2 t1⁵)
 *     B =  (3 a0 t1² + 16 v0 t1 + 30 x0) / (2 t1⁴)
 *     C = −(3 a0 t1² + 12 v0 t1 + 20 x0) / (2 t1³)
 *
 * and picks a0 = (−8 v0 t1 − 20 x0) / t1² so the jerk x‴(t1) is 0 too. Substituting that a0
 * and s = t / t1, w = v0 t1 gives A t1⁵ = w + 4 x0, B t1⁴ = −4w − 15 x0, C t1³ = 6w + 20 x0,
 * (a0/2) t1² = −4w − 10 x0, which factor as
 *
 *     x(t)  = (1 − s)⁴ · (x0 (1 + 4s) + w s)
 *     x′(t) = (1 − s)³ · (v0 − s (20 x0 / t1 + 5 v0))
 *     x″(t) = (1 − s)² · (−(20 x0 + 8w) + 4s (20 x0 + 5w)) / t1²
 *
 * The code evaluates these factored forms: the same polynomial as hogetatu's (the tests
 * check both), without dividing by t1⁵. They also show why Bollo's clamp
 * t1 ≤ −5 x0 / v0 works: with x0 > 0 and v0 ≤ 0 the factor `x0 (1 + 4s) + w s` is linear
 * in s and equals x0 at s = 0 and 5 x0 + v0 t1 at s = 1, so it stays ≥ 0 (no overshoot)
 * exactly when 5 x0 + v0 t1 ≥ 0; likewise x′ ≤ 0 on the whole curve (monotone) exactly then.
 *
 * ## Rules (applied by every `inertialize*` function, in this order)
 * 1. `x0 = 0` → the curve is 0 for all t (nothing to decay; any v0 is dropped, see 4–5).
 * 2. `t1 ≤ 0` → 0 for all t: a zero-length transition is a cut.
 * 3. Sign frame: if x0 < 0, x0 and v0 are negated, the curve evaluated, and the result
 *    negated, so the formulas below only see x0 > 0.
 * 4. Heading away: in that frame v0 > 0 (moving away from 0) is kept, so the velocity is
 *    continuous at the switch: the curve goes on past x0, peaks, and returns (the factor
 *    `x0 (1 + 4s) + w s` is then positive on [0, 1], so it still never crosses 0); the peak
 *    lies below x0 + 0.082·v0·t1. Bollo clamps such a v0 to 0, which stops a joint dead at
 *    the switch; the excursion is the price of not doing so.
 * 5. Blend-time clamp: if v0 < 0, t1 becomes min(t1, −5 x0 / v0) (Bollo's rule; see above).
 *    `clampInertializeTime` returns this t1.
 * 6. t ≤ 0 → the start values x0, v0, a0 (after 3–5): the curve starts at t = 0.
 * 7. t ≥ t1 (the clamped t1) → 0: the transition is over.
 *
 * ## Decay spring
 * Source: Daniel Holden, "Spring-It-On: The Game Developer's Spring-Roll-Call" (2021),
 * https://theorangeduck.com/page/spring-roll-call — the critically damped spring towards 0,
 * ẍ = −2y ẋ − y² x, whose exact solution is x(t) = (x + j1 t) e^(−yt), j1 = v + x y. It is
 * tuned by a half-life: y = halfLifeToDamping(h) / 2 = 2 ln2 / h.
 */

const LN2 = Math.LN2;

/**
 * Returns the blend time the inertialization curve actually uses: `t1`, or `−5 x0 / v0` when
 * that is smaller and v0 heads towards 0 (rules 3–5 of the module comment). `t1` is returned
 * unchanged when no clamp applies, including `t1 ≤ 0` (the curve is then 0 everywhere).
 * `x0 = 0` with v0 heading towards 0 gives 0.
 *
 * @example
 * clampInertializeTime(1, -10, 1); // 0.5
 */
export function clampInertializeTime(x0: number, v0: number, t1: number): number {
  if (x0 < 0) {
    x0 = -x0;
    v0 = -v0;
  }
  if (v0 < 0) {
    const limit = (-5 * x0) / v0;
    if (limit < t1) return limit;
  }
  return t1;
}

/**
 * Returns the inertialization offset x(t): Bollo's zero-jerk quintic that starts at `x0`
 * with velocity `v0` and reaches 0 with zero velocity and acceleration at the blend time `t1`.
 *
 * Rules (module comment): x0 = 0 or t1 ≤ 0 gives 0 for all t; x0 < 0 is handled by symmetry;
 * in the x0 > 0 frame a v0 < 0 clamps t1 to min(t1, −5 x0 / v0), so the curve lies between 0
 * and x0 and is monotone; a v0 > 0 (heading away) is kept, and the curve rises past x0 before
 * it returns, never crossing 0; t ≤ 0 gives x0; t ≥ t1 gives 0.
 *
 * Units: any unit for x (metres, radians, …), x0 / second for v0, seconds for t1 and t.
 * Sources: Bollo, GDC 2018 (as hogetatu writes it up); Flash & Hogan 1985.
 *
 * @example
 * // Joint angle was 0.3 rad off the new clip, moving towards it at 1 rad/s; 0.2 s blend.
 * const offset = inertializeCurve(0.3, -1, 0.2, elapsed); // add to the new clip's angle
 */
export function inertializeCurve(x0: number, v0: number, t1: number, t: number): number {
  if (x0 === 0 || t1 <= 0) return 0;
  if (t <= 0) return x0;
  // In the x0 ≥ 0 frame: t1 clamped to −5·x0/v0 when v0 heads towards 0.
  const sign = x0 < 0 ? -1 : 1;
  x0 *= sign;
  v0 *= sign;
  t1 = clampInertializeTime(x0, v0, t1);
  if (t >= t1) return 0;
  const s = t / t1;
  const u = 1 - s;
  const u2 = u * u;
  // (1 − s)⁴ · (x0 (1 + 4s) + v0 t1 s)
  return sign * u2 * u2 * (x0 + s * (4 * x0 + v0 * t1));
}

/**
 * Returns x′(t), the time derivative of {@link inertializeCurve} with the same rules and
 * clamps: 0 when x0 = 0 or t1 ≤ 0; the starting velocity v0 for t ≤ 0 (the right-hand
 * derivative at 0); 0 for t ≥ the clamped t1. Units: x per second.
 */
export function inertializeVelocity(x0: number, v0: number, t1: number, t: number): number {
  if (x0 === 0 || t1 <= 0) return 0;
  // In the x0 ≥ 0 frame: t1 clamped to −5·x0/v0 when v0 heads towards 0.
  const sign = x0 < 0 ? -1 : 1;
  x0 *= sign;
  v0 *= sign;
  t1 = clampInertializeTime(x0, v0, t1);
  if (t <= 0) return v0 === 0 ? 0 : sign * v0; // no −0
  if (t >= t1) return 0;
  const s = t / t1;
  const u = 1 - s;
  // (1 − s)³ · (v0 − s (20 x0 / t1 + 5 v0))
  return sign * u * u * u * (v0 - s * ((20 * x0) / t1 + 5 * v0));
}

/**
 * Returns x″(t), the second time derivative of {@link inertializeCurve} with the same rules
 * and clamps: 0 when x0 = 0 or t1 ≤ 0; Bollo's a0 = (−8 v0 t1 − 20 x0) / t1² (the clamped
 * t1) for t ≤ 0; 0 for t ≥ the clamped t1. Units: x per second².
 */
export function inertializeAcceleration(x0: number, v0: number, t1: number, t: number): number {
  if (x0 === 0 || t1 <= 0) return 0;
  // In the x0 ≥ 0 frame: t1 clamped to −5·x0/v0 when v0 heads towards 0.
  const sign = x0 < 0 ? -1 : 1;
  x0 *= sign;
  v0 *= sign;
  t1 = clampInertializeTime(x0, v0, t1);
  const w = v0 * t1;
  // Bollo's a0 = (−8 v0 t1 − 20 x0) / t1².
  if (t <= 0) return (sign * (-8 * w - 20 * x0)) / (t1 * t1);
  if (t >= t1) return 0;
  const s = t / t1;
  const u = 1 - s;
  // (1 − s)² · (−(20 x0 + 8w) + 4s (20 x0 + 5w)) / t1²
  return (sign * u * u * (-(20 * x0 + 8 * w) + 4 * s * (20 * x0 + 5 * w))) / (t1 * t1);
}

/**
 * Returns Holden's damping `4 ln2 / halfLife` for a half-life in seconds. The decay spring
 * uses half of it, y = 2 ln2 / halfLife, as its exponential rate: e^(−y·halfLife) = ¼, and
 * with the (1 + y t) factor of the critically damped solution a spring released at rest is at
 * (1 + 2 ln2)/4 ≈ 0.597 of its offset after one half-life — roughly, not exactly, half.
 * `halfLife ≤ 0` gives Infinity or a negative number; {@link springDecay} guards that case.
 */
export function halfLifeToDamping(halfLife: number): number {
  return (4 * LN2) / halfLife;
}

/**
 * Advances a critically damped decay spring towards 0 by `dt` seconds and writes the new
 * offset to `out[0]` and velocity to `out[1]` (Holden, "Spring-It-On", decay_spring_implicit):
 *
 *     y = halfLifeToDamping(halfLife) / 2,  j1 = v + x·y,  e = exp(−y·dt)
 *     x′ = e·(x + j1·dt),  v′ = e·(v − j1·y·dt)
 *
 * This is the closed-form solution of ẍ = −2y ẋ − y² x, so it is exact for any dt: two steps
 * of dt equal one step of 2·dt up to rounding. Reads `x`, `v` before writing, touches only
 * `out[0..1]`; no allocation.
 *
 * Degenerate inputs: `dt = 0` writes `(x, v)` unchanged; `halfLife ≤ 0` with `dt ≠ 0`, or a
 * decay so strong that exp(−y·dt) underflows to 0, snaps to `(0, 0)`; `halfLife = Infinity`
 * moves at constant velocity; `dt < 0` evaluates the same closed form backwards in time.
 *
 * @example
 * const sv = new Float64Array(2);
 * springDecay(sv, offset, velocity, 0.1, dt);
 * offset = sv[0]; velocity = sv[1];
 */
export function springDecay(out: Float64Array, x: number, v: number, halfLife: number, dt: number): void {
  if (dt === 0) {
    out[0] = x;
    out[1] = v;
    return;
  }
  const y = halfLifeToDamping(halfLife) * 0.5;
  const e = Math.exp(-y * dt);
  // e = 0 also covers a damping so large that j1·dt would overflow (0 · ∞ = NaN).
  if (halfLife <= 0 || y === Infinity || e === 0) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const j1 = v + x * y;
  out[0] = e * (x + j1 * dt);
  out[1] = e * (v - j1 * y * dt);
}
