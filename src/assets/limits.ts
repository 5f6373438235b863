/**
 * The ranges the API accepts for its numbers: what their storage holds (Float32
 * components, Int16 joint parents) and what their meaning allows (speeds, durations, steps).
 * A number outside its range is refused at the API with an `AnimationError` naming the bound,
 * so that every number the systems see stays finite (DESIGN §6) and no step does unbounded
 * work. docs/hardening.md gives the reasoning behind each bound.
 */

/** The largest finite Float32 (2¹²⁸ − 2¹⁰⁴ ≈ 3.4e38): above it a Float32 component holds Infinity. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * The longest `step`, seconds (10⁶ s, 11.6 days). With {@link MAX_PLAYBACK_RATE} and
 * {@link MAX_FRAME_RATE} a layer then advances at most 10¹⁴ cycles of its clip in one step,
 * which root motion and event counts carry exactly enough (see docs/hardening.md).
 */
export const MAX_DT = 1e6;

/** The fastest playback rate, either way (`play` speed and the rate `setTargetSpeed` derives): 1000× the authored speed. */
export const MAX_PLAYBACK_RATE = 1000;

/** The largest layer weight (`play`, `setLayerWeight`, `transition`): weights are relative, and an additive β beyond this is no longer a pose. */
export const MAX_WEIGHT = 1000;

/** The longest duration or interval, seconds (transitions, half-lives, followers): as {@link MAX_DT}. */
export const MAX_DURATION = 1e6;

/**
 * The shortest non-zero duration or interval, seconds (1 µs): durations are stored in Float32,
 * where 1e-300 becomes 0, and the decay rates divide by them.
 */
export const MIN_DURATION = 1e-6;

/** The largest |time|, seconds, a layer starts at (`play` time, `referenceTime`): ~31.7 years. */
export const MAX_TIME = 1e9;

/** The highest clip frame rate, frames per second: a two-frame clip then lasts at least 10 µs. */
export const MAX_FRAME_RATE = 1e5;

/** The most joints of a skeleton, and so a world's `maxJoints`: parents are stored as Int16. */
export const MAX_JOINTS = 32767;

/** The largest event queue, records (`maxEvents`): 16 Mi records, 320 MiB. */
export const MAX_EVENTS = 1 << 24;

/**
 * The most bytes of pools, components and scratch `createAnimationWorld` allocates (2 GiB):
 * 70,871 characters of 64 joints (30,299 bytes each). Above it the world is refused before anything is allocated.
 */
export const MAX_WORLD_BYTES = 2 ** 31;

/** `n` for a message: an integer below 10⁷ in full, otherwise 6 significant digits (`1e16`, `6.66667e28`, `0.000002`). */
export function shownNumber(n: unknown): string {
  if (typeof n !== 'number') return shownOther(n);
  if (Math.abs(n) === FLOAT32_MAX) return n < 0 ? '-3.4e38' : '3.4e38';
  if (Number.isInteger(n) && Math.abs(n) < 1e7) return String(n);
  const rounded = Number(n.toPrecision(6));
  return (Math.abs(rounded) >= 1e7 ? rounded.toExponential() : String(rounded)).replace('e+', 'e');
}

/** `String(v)` for a message, or {@link describeValue} where `String` throws (an object without a prototype, a proxy whose traps throw). */
export function shownString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return describeValue(v);
  }
}

/**
 * `v` for a message as `String` shows it for a number (`1e+39`, `NaN`), and otherwise as JSON
 * when it has a JSON form, else {@link describeValue}: never throws (a Symbol, a BigInt, an
 * object without a prototype, a proxy whose traps throw).
 */
export function shownValue(v: unknown): string {
  return typeof v === 'number' ? String(v) : shownOther(v);
}

/** A value that is not a number, for a message: as JSON when it has a JSON form, else {@link describeValue} (a BigInt, a Symbol, a proxy, an object whose fields throw). */
function shownOther(v: unknown): string {
  if (v === undefined || typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function') return describeValue(v);
  try {
    return JSON.stringify(v) ?? describeValue(v);
  } catch {
    return describeValue(v); // a getter or proxy trap threw, a cycle, a BigInt inside
  }
}

/**
 * Whether `value` is a number in [min, max] (NaN is not): the cheap test before
 * {@link rangeIssue}, for calls a game makes every frame — small enough for V8 to inline, so
 * a double read from an options object is compared unboxed instead of boxed for a call.
 */
export function inRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && value >= min && value <= max;
}

/**
 * The issue message for `value` against the range [`min`, `max`] in `unit`, or null when it
 * lies in it (a finite number). `openMin`: `min` itself is refused (> min).
 * E.g. "is 1e+39: must be a finite number ≤ 1000 (the largest playback rate)".
 */
export function rangeIssue(value: unknown, min: number, max: number, what: string, openMin = false): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && (openMin ? value > min : value >= min) && value <= max) return null;
  const low = min === -max ? '' : `${openMin ? '>' : '≥'} ${shownNumber(min)} and `;
  const range = min === -max ? `within ±${shownNumber(max)}` : `${low}≤ ${shownNumber(max)}`;
  return `is ${shownNumber(value)}: must be a finite number ${range}${what ? ` (${what})` : ''}`;
}

/** The smallest positive normal Float32 (2⁻¹²⁶ ≈ 1.2e-38): a positive number below it stored in Float32 is denormal or 0. */
export const FLOAT32_MIN_NORMAL = 1.1754943508222875e-38;
/**
 * A short description of a value of the wrong shape, for a message: `undefined`, `null`, `42`,
 * `"x"`, `10n (a BigInt)`, `a Symbol`, `an array`, `an object of another shape`, `a function`.
 * It never throws: not on a Symbol or BigInt (which `String`-templates and `JSON.stringify`
 * refuse), an object without a prototype, or a revoked proxy (whose `Array.isArray` throws).
 */
export function describeValue(v: unknown): string {
  if (v === undefined || v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'bigint') return `${v.toString().length > 20 ? `${v.toString().slice(0, 20)}…` : v.toString()}n (a BigInt)`;
  if (typeof v === 'symbol') return 'a Symbol';
  if (typeof v === 'function') return 'a function';
  let array = false;
  try {
    array = Array.isArray(v);
  } catch {
    // a revoked proxy
  }
  return array ? 'an array' : 'an object of another shape';
}
