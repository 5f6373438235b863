/**
 * Cross-fade blend curves: map normalised fade time t ∈ [0, 1] to a blend weight in [0, 1].
 * Each curve is 0 at t = 0, 1 at t = 1, ½ at t = ½, monotone, and antisymmetric about the
 * midpoint (f(1 − t) = 1 − f(t)). Outside [0, 1] t is clamped. A curve is chosen by an integer
 * kind so it can live in a typed-array component.
 *
 * | kind | name | f(t) | f′ at the ends | f″ at the ends |
 * | --- | --- | --- | --- | --- |
 * | `FADE_LINEAR` = 1 | `'linear'` | t | 1 | 0 |
 * | `FADE_SMOOTHSTEP` = 2 | `'smoothstep'` | 3t² − 2t³ | 0 | ±6 |
 * | `FADE_MINJERK` = 3 | `'minjerk'` | 6t⁵ − 15t⁴ + 10t³ | 0 | 0 |
 *
 * The minimum-jerk curve is Flash & Hogan's (1985) rest-to-rest point-to-point profile: the
 * quintic minimising ∫(d³f/dt³)² with zero velocity and acceleration at both ends (see
 * `inertialize.ts` for the same model with free start conditions). No allocation, no throwing.
 */

/** Fade kind: linear, f(t) = t. */
export const FADE_LINEAR = 1;
/** Fade kind: smoothstep, f(t) = 3t² − 2t³ (zero slope at both ends). */
export const FADE_SMOOTHSTEP = 2;
/** Fade kind: minimum jerk, f(t) = 6t⁵ − 15t⁴ + 10t³ (zero slope and curvature at both ends). */
export const FADE_MINJERK = 3;

/** Names of the fade curves, as used in options and files. */
export type FadeCurveName = 'linear' | 'smoothstep' | 'minjerk';

/**
 * Name → kind, frozen and with a null prototype, so `name in FADE_CURVE_KINDS` is a safe
 * check for untrusted strings (`'toString'` is not in it).
 */
export const FADE_CURVE_KINDS: Readonly<Record<FadeCurveName, number>> = Object.freeze(
  Object.assign(Object.create(null) as Record<FadeCurveName, number>, {
    linear: FADE_LINEAR,
    smoothstep: FADE_SMOOTHSTEP,
    minjerk: FADE_MINJERK,
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
  return t;
}
