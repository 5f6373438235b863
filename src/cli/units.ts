/**
 * Units are never silent on the `bitanim` command line: one `--scale` for every command and
 * format, and a warning when a file read without `--scale` is sized like no metre-sized
 * character.
 *
 * **`--scale`** is the file's unit, as metres per file unit (`0.01`, `0.056444`) or a unit
 * name (`m`, `cm`, `mm`, `in`, `ft`, see `src/import/units.ts`). Without it a glTF file is in
 * metres (the glTF specification says so) and a BVH file's units are unknown (BVH has no unit):
 * its lengths are reported as "file units", never as metres.
 *
 * **The size check.** A character's hips stand 0.2–2 m above its feet (a fox 0.43 m, a person
 * about 1 m). {@link skeletonSize} — the hip height above the lowest joint, or the rest pose's
 * largest extent without hips — above {@link LARGEST_METRE_SIZE} units is no character in
 * metres; {@link unitsWarning} names the units that would bring it to a character's size.
 */
import type { Skeleton } from '../assets/Skeleton.js';
import { UNITS, type UnitName } from '../import/units.js';
import { defaultErrorDistance } from '../offline/lod/modelError.js';

/**
 * Largest skeleton size (file units) taken for metres without a warning: 3, above a person's
 * hips (≈1 m) and a horse's (≈1.5 m) with room to spare; a centimetre file's 40–100 and an inch
 * file's 15–40 are far above it.
 */
export const LARGEST_METRE_SIZE = 3;

/** The sizes (metres) a guessed unit must bring a skeleton to: 0.2–2 m. */
const PLAUSIBLE: readonly [number, number] = [0.2, 2];

/**
 * A skeleton's size in its file units: the hip joint's height above the lowest joint in the
 * rest pose, or, without hips, the rest pose's largest extent (ten times `reduceClip`'s
 * default error distance, which is measured the same way).
 */
export function skeletonSize(skeleton: Skeleton): number {
  return defaultErrorDistance(skeleton) / ERROR_DISTANCE_PER_SIZE;
}

/** `defaultErrorDistance` is a tenth of the size {@link skeletonSize} gives. */
const ERROR_DISTANCE_PER_SIZE = 0.1;

/**
 * The units tried, the commonest in animation files first: centimetres (Maya, FBX, Mixamo,
 * the Fox), inches, millimetres, feet.
 */
const GUESSES: readonly UnitName[] = ['cm', 'in', 'mm', 'ft'];

/**
 * The unit names that bring a skeleton of `size` file units to a character's size (0.2–2 m),
 * the commonest first (see {@link GUESSES}). Empty when none does.
 * @example
 * guessUnits(90); // ['cm']
 * guessUnits(42.9); // ['cm', 'in'] (the Fox: centimetres)
 * guessUnits(16.3); // ['in'] (CMU mocap: hips 16.3 units high; its unit is 0.056444 m)
 */
export function guessUnits(size: number): UnitName[] {
  return GUESSES.filter((name) => size * UNITS[name] >= PLAUSIBLE[0] && size * UNITS[name] <= PLAUSIBLE[1]);
}

/**
 * The warning for a file read without `--scale` whose skeleton is too large to be in metres
 * (size above {@link LARGEST_METRE_SIZE} units), or whose rest figure (`figureHeight`, file
 * units, when given) is below {@link SMALLEST_FIGURE}, or null: the size, what it would be in metres,
 * the likely units and the flag to pass. `format` words what the file's units are taken for
 * (glTF: metres, by its specification; BVH: unknown).
 */
export function unitsWarning(skeleton: Skeleton, format: 'gltf' | 'bvh', figureHeight?: number): string | null {
  const size = skeletonSize(skeleton);
  if (figureHeight !== undefined && figureHeight > 0 && figureHeight < SMALLEST_FIGURE) return smallFigureWarning(figureHeight, format);
  if (!(size > LARGEST_METRE_SIZE)) return null;
  const what = skeleton.hipJoint >= 0 ? `the skeleton's hips are ${round(size)} units above its lowest joint` : `the skeleton is ${round(size)} units across`;
  const taken = format === 'gltf' ? 'read as metres (glTF\'s unit)' : 'were they metres';
  const guesses = guessUnits(size);
  const likely = guesses.length === 0 ? 'The file is not in metres'
    : `The file is likely in ${guesses.map((name) => `${UNIT_WORDS[name]} (--scale ${name}: ${round(size * UNITS[name])} m)`).join(' or ')}`;
  const then = format === 'gltf' ? 'lengths are metres as the file says' : 'lengths are file units';
  return `units: no --scale, and ${what}: ${round(size)} m ${taken}. ${likely}; ` +
    `pass --scale with its unit (metres per unit, or m, cm, mm, in, ft; CMU mocap: 0.056444) or --height with the figure's height in metres. Until then ${then}`;
}

/**
 * Smallest rest figure (file units) taken for metres without a warning: 0.25, as `loadGltf`'s
 * check (a fox stands 0.79 m; a person whose root node scales by 0.0012 stands 0.2).
 */
export const SMALLEST_FIGURE = 0.25;

/** The warning for a figure {@link SMALLEST_FIGURE} or less tall: the factor to a 1.8 m person and the flags. */
function smallFigureWarning(height: number, format: 'gltf' | 'bvh'): string {
  const taken = format === 'gltf' ? 'read as metres (glTF\'s unit)' : 'were they metres';
  const factor = String(Number((1.8 / height).toPrecision(2)));
  return `units: no --scale, and the rest figure is ${round(height)} units tall: ${round(height)} m ${taken}, too small for a character ` +
    `(a node scale or a unit larger than the metre shrinks it). Pass --height with its height in metres (--height 1.8 scales it ×${factor}) ` +
    `or --scale ${factor}`;
}

const UNIT_WORDS: Readonly<Record<UnitName, string>> = { m: 'metres', cm: 'centimetres', mm: 'millimetres', in: 'inches', ft: 'feet' };

/** Three significant figures at most. */
function round(value: number): string {
  return String(Number(value.toPrecision(3)));
}
