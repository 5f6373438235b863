/**
 * Cross-fade blend curves: map normalised fade time t ∈ [0, 1] to a blend weight in [0, 1].
 * Each curve is 0 at t = 0, 1 at t = 1 and monotone; outside [0, 1] t is clamped. The first
 * three are also ½ at t = ½ and antisymmetric about the midpoint (f(1 − t) = 1 − f(t)); the
 * one-sided pair mirror each other instead (easeOut(t) = 1 − easeIn(1 − t)). A curve is chosen
 * by an integer kind so it can live in a typed-array component.
 *
 * | kind | name | f(t) | f′(0) | f′(1) | f″(0) | f″(1) | f(½) |
 * | --- | --- | --- | --- | --- | --- | --- | --- |
 * | `FADE_LINEAR` = 1 | `'linear'` | t | 1 | 1 | 0 | 0 | ½ |
 * | `FADE_SMOOTHSTEP` = 2 | `'smoothstep'` | 3t² − 2t³ | 0 | 0 | 6 | −6 | ½ |
 * | `FADE_MINJERK` = 3 | `'minjerk'` | 6t⁵ − 15t⁴ + 10t³ | 0 | 0 | 0 | 0 | ½ |
 * | `FADE_EASE_IN` = 4 | `'ease-in'` | (3t² − t³) / 2 | 0 | 3/2 | 3 | 0 | 5/16 |
 * | `FADE_EASE_OUT` = 5 | `'ease-out'` | (3t − t³) / 2 | 3/2 | 0 | 0 | −3 | 11/16 |
 *
 * The minimum-jerk curve is Flash & Hogan's (1985) rest-to-rest point-to-point profile: the
 * quintic minimising ∫(d³f/dt³)² with zero velocity and acceleration at both ends (see
 * `inertialize.ts` for the same model with free start conditions).
 *
 * The one-sided curves start (ease-in) or end (ease-out) with zero slope, so the weight
 * leaves or settles smoothly at that end (C¹ there) and moves at 3/2 per fade at the other,
 * where it stops or starts as a linear fade does (at 1). Ease-in is smoothstep's one-sided
 * sibling: smoothstep is the cubic minimising ∫f″² with f(0) = 0, f(1) = 1 and f′ = 0 at both
 * ends; leaving f′(1) free, the minimiser is still a cubic (Euler–Lagrange f⁗ = 0) and takes
 * the natural condition f″(1) = 0: with f = at³ + bt², a + b = 1 and 6a + 2b = 0, so a = −½,
 * b = 3/2. Its ∫f″² is 3 (t², the other common choice, has 4 and ends at slope 2).
 * Ease-out is its mirror. No allocation, no throwing.
 */

/** Fade kind: linear, f(t) = t. */
export const FADE_LINEAR = 1;
/** Fade kind: smoothstep, f(t) = 3t² − 2t³ (zero slope at both ends). */
export const FADE_SMOOTHSTEP = 2;
/** Fade kind: minimum jerk, f(t) = 6t⁵ − 15t⁴ + 10t³ (zero slope and curvature at both ends). */
export const FADE_MINJERK = 3;

/** Fade kind: ease-in, f(t) = (3t² − t³) / 2 (zero slope at the start, 3/2 at the end). */
export const FADE_EASE_IN = 4;
/** Fade kind: ease-out, f(t) = (3t − t³) / 2 (slope 3/2 at the start, zero at the end). */
export const FADE_EASE_OUT = 5;

/** Names of the fade curves, as used in options and files. */
export type FadeCurveName = 'linear' | 'smoothstep' | 'minjerk' | 'ease-in' | 'ease-out';

/**
 * Name → kind, frozen and with a null prototype, so `name in FADE_CURVE_KINDS` is a safe
 * check for untrusted strings (`'toString'` is not in it).
 */
export const FADE_CURVE_KINDS: Readonly<Record<FadeCurveName, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<FadeCurveName, number>, {
    linear: FADE_LINEAR,
    smoothstep: FADE_SMOOTHSTEP,
    minjerk: FADE_MINJERK,
    'ease-in': FADE_EASE_IN,
    'ease-out': FADE_EASE_OUT,
  }),
);

/** Returns the name of a fade kind, or `undefined` for a number that is not a kind. */
export function fadeCurveName(kind: number): FadeCurveName | undefined {
  switch (kind) {
    case FADE_LINEAR:
      return 'linear';
    case FADE_SMOOTHSTEP:
      return 'smoothstep';
    case FADE_MINJERK:
      return 'minjerk';
    case FADE_EASE_IN:
      return 'ease-in';
    case FADE_EASE_OUT:
      return 'ease-out';
    default:
      return undefined;
  }
}

/**
 * Returns the blend weight of fade curve `kind` at normalised time `t` (elapsed / duration).
 * `t ≤ 0` gives 0, `t ≥ 1` gives 1; an unknown `kind` behaves as {@link FADE_LINEAR}.
 * NaN `t` gives NaN.
 *
 * @example
 * const w = fadeCurve(FADE_MINJERK, elapsed / duration); // weight of the incoming clip
 */
export function fadeCurve(kind: number, t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  if (kind === FADE_SMOOTHSTEP) return t * t * (3 - 2 * t);
  if (kind === FADE_MINJERK) return t * t * t * (t * (6 * t - 15) + 10);
  if (kind === FADE_EASE_IN) return 0.5 * t * t * (3 - t);
  if (kind === FADE_EASE_OUT) return 0.5 * t * (3 - t * t);
  return t;
}

/**
 * {@link fadeCurve} in place: replaces `values[o]`, a normalised time t, by the curve's weight
 * at t. For callers V8 may not inline it into: there a double passed as an argument, or
 * returned, is boxed (a heap number per call); through the array neither is.
 */
export function applyFadeCurve(values: Float64Array, o: number, kind: number): void {
  const t = values[o];
  if (t <= 0) values[o] = 0;
  else if (t >= 1) values[o] = 1;
  else if (kind === FADE_SMOOTHSTEP) values[o] = t * t * (3 - 2 * t);
  else if (kind === FADE_MINJERK) values[o] = t * t * t * (t * (6 * t - 15) + 10);
  else if (kind === FADE_EASE_IN) values[o] = 0.5 * t * t * (3 - t);
  else if (kind === FADE_EASE_OUT) values[o] = 0.5 * t * (3 - t * t);
  else values[o] = t;
}
