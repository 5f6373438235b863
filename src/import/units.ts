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

/**
 * Rest figures (metres) taken for a character without a units warning: 0.25 m (a fox is 0.79 m)
 * to 10 m (the three.js robot stands 4.46 m). A figure outside is likely in other units, or
 * scaled by a node transform (a root scale of 0.0012 makes a person 0.2 m tall).
 */
export const PLAUSIBLE_FIGURE: readonly [number, number] = [0.25, 10];

/** How an importer words {@link figureUnitsWarning}: what it measured, how it read the lengths, the options that fix them. */
export interface UnitsWording {
  /** What the height was measured on: `'its skinned meshes'`, `'its joints'`. */
  readonly figure: string;
  /** How the lengths were read: `"read as metres (glTF's unit)"`, `'after options.scale'`. */
  readonly read: string;
  /** Why a figure is too small, e.g. `'shrunk by a node scale or a unit larger than the metre'`. */
  readonly smallCause: string;
  /** The option that scales the figure ×`factor` to 1.8 m, in the importer's words. */
  scaleFix(factor: string): string;
  /** The option for a unit name, in the importer's words (`{ scale: 'cm' }`, `{ scale: 0.01 }`). */
  unitFix(name: UnitName): string;
}

/**
 * The `units:` warning of an importer (`loadGltf`, `parseBvh`) for a rest figure `height` metres
 * tall outside {@link PLAUSIBLE_FIGURE}, or null: its height, the likely cause and the options
 * that give a 1.8 m person — the likely unit names when a figure is too large, the factor always.
 */
export function figureUnitsWarning(height: number, wording: UnitsWording): string | null {
  if (!(height > 0) || (height >= PLAUSIBLE_FIGURE[0] && height <= PLAUSIBLE_FIGURE[1])) return null;
  const round = (v: number): string => String(Number(v.toPrecision(2)));
  const factor = round(1.8 / height);
  const what = `units: the rest figure (${wording.figure}) is ${Number(height.toPrecision(3))} m tall ${wording.read}`;
  if (height < PLAUSIBLE_FIGURE[0]) {
    return `${what}, too small for a character in metres: likely ${wording.smallCause}. Pass ${wording.scaleFix(factor)} or the figure's real height`;
  }
  const guesses = guessFigureUnits(height);
  const likely = guesses.length
    ? `likely in ${guesses.map((name) => `'${name}' (${round(height * UNITS[name])} m)`).join(' or ')}: pass ${wording.unitFix(guesses[0])}, or`
    : 'pass';
  return `${what}, too large for a character in metres: ${likely} ${wording.scaleFix(factor)}`;
}

/** Units that bring a figure `height` file units tall to 0.5–2.5 m, the commonest first. */
function guessFigureUnits(height: number): UnitName[] {
  return (['cm', 'in', 'mm', 'ft'] as const).filter((name) => height * UNITS[name] >= 0.5 && height * UNITS[name] <= 2.5);
}
