/**
 * Reading a joint's name for `humanoidMap`: its side, the humanoid part it names (if any) and
 * whether it is a helper joint (twist, IK, finger, end site) that no humanoid joint may take.
 *
 * A name is cut into words at namespaces (`mixamorig:`, `Armature|`), separators (`_ . - space`),
 * case changes (`LeftUpLeg` → left up leg, `LHipJoint` → l hip joint) and digits (`spine_01`,
 * `Palm2.L`), then lowercased. Side words (`left right l r`, anywhere) give the side; a side
 * letter fused to a known word counts too (CMU's `lhand`). Prefix words of the conventions
 * (`DEF` Blender's deform bones, `b` and `bip`/`Bip01` 3ds Max, `j`/`J_Bip_C` VRoid, `jnt`,
 * `joint`, `bone`, `mixamorig`) are dropped; the remaining words, joined, are the name's key
 * (`upleg`, `toebase`, `forearm`), compared with the aliases below.
 */

/** A joint's side as its name gives it. */
export type NameSide = 'left' | 'right' | null;

/** What `humanoidMap` reads from a name. */
export interface NameInfo {
  /** The side its words give, or null when they say none. */
  readonly side: NameSide;
  /** Its words joined without side, prefix and number words (`LeftToeBase` → `toebase`). */
  readonly key: string;
  /** A helper joint: twist, roll, IK, pole, end site, finger, face, prop (never a humanoid joint). */
  readonly helper: boolean;
}

/** The parts `humanoidMap` finds by name (the rest it finds by topology). */
export type NamedPart = 'head' | 'neck' | 'hand' | 'foot' | 'toes' | 'lowerLeg' | 'shoulder';

/**
 * The keys of each named part. Upper arms, lower arms and upper legs are not found by name:
 * their names disagree between conventions (CMU's `LeftShoulder` is an upper arm, Mixamo's a
 * clavicle; Mixamo's `LeftLeg` is a lower leg, others' an upper leg; CMU's `LeftHip` an upper
 * leg), so they are the joints the chain above a hand or foot passes through.
 */
export const PART_ALIASES: Readonly<Record<NamedPart, readonly string[]>> = {
  head: ['head'],
  neck: ['neck', 'lowerneck', 'upperneck'],
  hand: ['hand', 'wrist', 'palm'],
  foot: ['foot', 'ankle'],
  toes: ['toe', 'toes', 'toebase', 'ball', 'toesbase'],
  lowerLeg: ['lowerleg', 'loleg', 'lowleg', 'calf', 'shin', 'knee', 'leg', 'crus'],
  shoulder: ['shoulder', 'clavicle', 'clav', 'collar', 'collarbone', 'scapula'],
};

/** Words that make a joint a helper (any position). */
const HELPER_WORDS = new Set([
  'twist', 'roll', 'ik', 'pole', 'target', 'end', 'nub', 'site', 'tip', 'helper', 'ctrl', 'ctl', 'control',
  'mch', 'org', 'corrective', 'socket', 'attach', 'prop', 'weapon', 'dummy', 'null', 'ref', 'ikfk',
  'thumb', 'index', 'middle', 'ring', 'pinky', 'little', 'finger', 'fingers', 'metacarpal',
  'eye', 'eyes', 'jaw', 'tongue', 'teeth', 'hair', 'ear', 'tail', 'breast', 'skirt', 'cloth',
]);

/** Prefix words of the conventions, dropped wherever they appear. */
const NOISE_WORDS = new Set(['def', 'b', 'bip', 'biped', 'valve', 'j', 'jnt', 'joint', 'bone', 'mixamorig', 'c', 'sk', 'drv']);

/** Every alias key, for reading a side letter fused to one (`lhand`, `rfoot`). */
const ALL_KEYS = new Set(Object.values(PART_ALIASES).flat().concat(['hip', 'hips', 'arm', 'upperarm', 'forearm', 'lowerarm', 'upleg', 'upperleg', 'thigh']));

/** The words of a name: namespace dropped, cut at separators, case changes and digits, lowercased. */
export function nameWords(name: string): string[] {
  const local = name.slice(Math.max(name.lastIndexOf(':'), name.lastIndexOf('|')) + 1);
  return local
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Reads a joint name (see the module comment). */
export function readName(name: string): NameInfo {
  let side: NameSide = null;
  let helper = false;
  const kept: string[] = [];
  for (const word of nameWords(name)) {
    if (word === 'l' || word === 'left') side = 'left';
    else if (word === 'r' || word === 'right') side = 'right';
    else if (HELPER_WORDS.has(word)) helper = true;
    else if (NOISE_WORDS.has(word) || /^\d+$/.test(word)) continue;
    else {
      const fused = fusedSide(word);
      if (fused !== null) {
        side = fused.side;
        kept.push(fused.rest);
      } else {
        kept.push(word);
      }
    }
  }
  return { side, key: kept.join(''), helper };
}

function fusedSide(word: string): { side: 'left' | 'right'; rest: string } | null {
  if (ALL_KEYS.has(word)) return null;
  for (const [prefix, side] of [['left', 'left'], ['right', 'right'], ['l', 'left'], ['r', 'right']] as const) {
    if (word.startsWith(prefix) && ALL_KEYS.has(word.slice(prefix.length))) return { side, rest: word.slice(prefix.length) };
  }
  return null;
}

/** Whether a read name names `part`. */
export function namesPart(info: NameInfo, part: NamedPart): boolean {
  return !info.helper && PART_ALIASES[part].includes(info.key);
}
