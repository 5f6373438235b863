/**
 * File units → metres: the one parser of the `scale` that `loadGltf`, `bitanim inspect` and
 * `bitanim lod` take — a number of metres per file unit, or a unit name.
 */

/** Metres per unit of the unit names a `scale` may be given as. */
export const UNITS: Readonly<Record<UnitName, number>> = { m: 1, cm: 0.01, mm: 0.001, in: 0.0254, ft: 0.3048 };

/** A unit name `parseScale` accepts (case-insensitive). */
export type UnitName = 'm' | 'cm' | 'mm' | 'in' | 'ft';

/** What a valid scale is, for error messages: "must be {@link SCALE_EXPECTED}". */
export const SCALE_EXPECTED = `a finite number > 0 (metres per file unit) or one of ${Object.keys(UNITS).join(', ')}`;

/**
 * Metres per file unit from a `scale`: a finite number > 0, a string holding one (as a command
 * line gives it), or a unit name of {@link UNITS} in any case (`'cm'` → 0.01). NaN for anything
 * else, so the caller names the option in its own error.
 * @example
 * parseScale('cm'); // 0.01
 * parseScale(0.056444); // 0.056444
 */
export function parseScale(value: unknown): number {
  if (typeof value === 'string') {
    const name = value.trim().toLowerCase();
    if (Object.hasOwn(UNITS, name)) return UNITS[name as UnitName];
    if (name === '') return Number.NaN;
  }
  const v = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(v) && v > 0 ? v : Number.NaN;
}
