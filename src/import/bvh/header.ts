/**
 * The BVH header: HIERARCHY (ROOT / JOINT / End Site blocks with OFFSET and CHANNELS) and the
 * MOTION preamble (`Frames:`, `Frame Time:`). Produces raw joints in file order; the motion
 * data lines are read by `motion.ts` from `dataStart` on.
 *
 * Every fault throws an `AnimationError` from `parseBvh` naming the line and token. Nesting
 * is tracked with an explicit stack, not recursion, so a deeply nested file cannot overflow
 * the call stack.
 */
import { fail } from '../../assets/AnimationError.js';
import { parseDecimal } from './number.js';
import { BvhScanner, quote, type Token } from './scanner.js';

/** The error's `where`. */
export const WHERE = 'parseBvh';

/** The six BVH channel names, in channel-code order (code 0–2 positions, 3–5 rotations). */
export const CHANNEL_NAMES = ['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation'] as const;
/** The channel code of `Xrotation`: codes below it are positions (x y z), codes from it rotations about x y z. */
export const FIRST_ROTATION = 3;

/** One of the six BVH channel names. */
export type BvhChannel = (typeof CHANNEL_NAMES)[number];

/** Joints a skeleton may hold (its parents are an Int16Array). */
const MAX_JOINTS = 0x7fff;

/** A ROOT or JOINT as written, before scaling. */
export interface RawJoint {
  readonly name: string;
  readonly parent: number;
  /** Line of the ROOT/JOINT keyword. */
  readonly line: number;
  offset: [number, number, number] | null;
  /** Line of the OFFSET keyword (0 until read). */
  offsetLine: number;
  /** Channel codes (indices into CHANNEL_NAMES) in listing order. */
  channels: number[] | null;
}

/** An End Site as written, before scaling. */
export interface RawEndSite {
  readonly parent: number;
  readonly offset: [number, number, number];
  /** Line of its OFFSET keyword. */
  readonly offsetLine: number;
}

/** Everything before the first motion data line. */
export interface BvhHeader {
  readonly joints: RawJoint[];
  readonly endSites: RawEndSite[];
  /** Number of ROOT blocks. */
  readonly roots: number;
  /** The `Frames:` value, a positive integer (maybe far more than the data holds). */
  readonly frameCount: number;
  /** Line of `Frames:`. */
  readonly framesLine: number;
  /** The `Frame Time:` value in seconds, finite and > 0. */
  readonly frameTime: number;
  /** The `Frame Time:` value as written (its digits say how it was rounded). */
  readonly frameTimeText: string;
  /** Index in the text just after the `Frame Time:` value (its line break or the end). */
  readonly dataStart: number;
  /** Line of `dataStart`. */
  readonly dataLine: number;
}

const at = (token: Token): string => `line ${token.line} ${quote(token.text)}`;

/**
 * Reads the header of `text` up to the end of the `Frame Time:` line.
 *
 * @throws AnimationError on the first fault, naming line and token.
 */
export function parseHeader(text: string): BvhHeader {
  const scanner = new BvhScanner(text);
  const joints: RawJoint[] = [];
  const endSites: RawEndSite[] = [];
  const nameLines = new Map<string, number>();
  /** Indices of the joints whose `{` is open, innermost last. */
  const open: number[] = [];
  let roots = 0;

  const first = scanner.next();
  if (first === null) fail(WHERE, 'text', 'is empty: a BVH file starts with HIERARCHY');
  if (first.text.toUpperCase() !== 'HIERARCHY') {
    fail(WHERE, at(first), 'is not HIERARCHY: a BVH file starts with HIERARCHY, then ROOT');
  }
  expectLineEnd(scanner, first);

  for (;;) {
    const token = scanner.next();
    if (token === null) {
      const line = `line ${scanner.line}`;
      if (open.length > 0) {
        const joint = joints[open[open.length - 1]];
        fail(WHERE, line, `end of text inside ${describe(joint)}: unbalanced braces, ${open.length} "{" not closed (and no MOTION section)`);
      }
      if (joints.length === 0) fail(WHERE, line, 'end of text: HIERARCHY has no ROOT joint');
      fail(WHERE, line, 'end of text: missing MOTION section (MOTION, Frames:, Frame Time:, then one line per frame)');
    }
    const word = token.text.toUpperCase();

    if (open.length === 0) {
      if (word === 'ROOT') {
        roots++;
        openJoint(scanner, token, -1, joints, nameLines, open);
      } else if (word === 'MOTION') {
        if (joints.length === 0) fail(WHERE, at(token), 'comes before any ROOT: HIERARCHY has no joints');
        expectLineEnd(scanner, token);
        break;
      } else if (word === '}') {
        fail(WHERE, at(token), 'closes nothing: unbalanced braces (one "}" too many)');
      } else {
        fail(WHERE, at(token), `is unexpected here: expected ROOT or MOTION${joints.length === 0 ? '' : ' after the last joint block'}`);
      }
      continue;
    }

    const index = open[open.length - 1];
    const joint = joints[index];
    switch (word) {
      case 'OFFSET':
        if (joint.offset !== null) fail(WHERE, at(token), `repeats the OFFSET of ${describe(joint)}`);
        joint.offset = readOffset(scanner, token);
        joint.offsetLine = token.line;
        break;
      case 'CHANNELS':
        if (joint.channels !== null) fail(WHERE, at(token), `repeats the CHANNELS of ${describe(joint)}`);
        joint.channels = readChannels(scanner, token);
        break;
      case 'JOINT':
        openJoint(scanner, token, index, joints, nameLines, open);
        break;
      case 'END':
        endSites.push({ parent: index, ...readEndSite(scanner, token) });
        break;
      case '}':
        if (joint.offset === null) fail(WHERE, at(token), `closes ${describe(joint)}, which has no OFFSET`);
        if (joint.channels === null) fail(WHERE, at(token), `closes ${describe(joint)}, which has no CHANNELS line`);
        open.pop();
        break;
      case 'ROOT':
      case 'MOTION':
      case 'HIERARCHY':
        fail(WHERE, at(token), `is inside ${describe(joint)}: unbalanced braces, ${open.length} "}" missing before it`);
        break;
      default:
        fail(WHERE, at(token), `is unexpected in ${describe(joint)}: expected OFFSET, CHANNELS, JOINT, End Site or "}"`);
    }
  }

  const frames = readLabelled(scanner, /^frames\s*:\s*/i, 'Frames:');
  const frameCount = Number(frames.value.text);
  if (!/^\+?\d+$/.test(frames.value.text) || !(frameCount > 0)) {
    fail(WHERE, at(frames.value), 'is not a valid Frames: count: it must be a positive integer');
  }
  const time = readLabelled(scanner, /^frame\s+time\s*:\s*/i, 'Frame Time:');
  const frameTime = parseDecimal(time.value.text, 0, time.value.text.length);
  if (!Number.isFinite(frameTime) || frameTime <= 0) {
    fail(WHERE, at(time.value), 'is not a valid Frame Time: it must be a positive number of seconds');
  }
  return {
    joints,
    endSites,
    roots,
    frameCount,
    framesLine: frames.line,
    frameTime,
    frameTimeText: time.value.text,
    dataStart: scanner.pos,
    dataLine: scanner.line,
  };
}

function describe(joint: RawJoint): string {
  return `${joint.parent < 0 ? 'ROOT' : 'JOINT'} "${joint.name}" (line ${joint.line})`;
}

/** Fails when anything follows `token` on its line. */
function expectLineEnd(scanner: BvhScanner, token: Token): void {
  const rest = scanner.restOfLine();
  if (rest.length > 0) fail(WHERE, at(rest[0]), `is unexpected after ${token.text}: expected the end of the line`);
}

/** Reads `ROOT name {` / `JOINT name {`; the name is the rest of the line (spaces kept as one). */
function openJoint(
  scanner: BvhScanner, keyword: Token, parent: number, joints: RawJoint[], nameLines: Map<string, number>, open: number[],
): void {
  const rest = scanner.restOfLine();
  let braced = false;
  if (rest.length > 0 && rest[rest.length - 1].text === '{') {
    rest.pop();
    braced = true;
  }
  if (rest.length === 0) fail(WHERE, at(keyword), 'has no joint name');
  for (const t of rest) if (t.text === '{' || t.text === '}') fail(WHERE, at(t), `is unexpected in the name of a ${keyword.text}`);
  const name = rest.map((t) => t.text).join(' ');
  const seen = nameLines.get(name);
  if (seen !== undefined) fail(WHERE, `line ${keyword.line} ${keyword.text} ${quote(name)}`, `repeats the joint name of line ${seen}: joint names must be unique`);
  if (joints.length >= MAX_JOINTS) fail(WHERE, at(keyword), `is joint ${joints.length + 1}: at most ${MAX_JOINTS} joints are supported`);
  if (!braced) expectOpen(scanner, `${keyword.text} "${name}"`);
  nameLines.set(name, keyword.line);
  open.push(joints.length);
  joints.push({ name, parent, line: keyword.line, offset: null, offsetLine: 0, channels: null });
}

/** Fails unless the next token is `{`. */
function expectOpen(scanner: BvhScanner, what: string): void {
  const token = scanner.next();
  if (token === null) fail(WHERE, `line ${scanner.line}`, `end of text: expected "{" to open ${what}`);
  if (token.text !== '{') fail(WHERE, at(token), `is unexpected: expected "{" to open ${what}`);
}

/** Reads the three numbers after OFFSET, on its line. */
function readOffset(scanner: BvhScanner, keyword: Token): [number, number, number] {
  const values = scanner.restOfLine(true);
  if (values.length !== 3) fail(WHERE, `line ${keyword.line} OFFSET`, `has ${values.length} values, expected 3 (x y z)`);
  const offset: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const t = values[i];
    const v = parseDecimal(t.text, 0, t.text.length);
    if (!Number.isFinite(v)) fail(WHERE, `line ${t.line} OFFSET value ${i + 1} ${quote(t.text)}`, 'is not a finite number');
    offset[i] = v;
  }
  return offset;
}

/** Reads `CHANNELS n name…` on one line: n names, each known, none repeated. */
function readChannels(scanner: BvhScanner, keyword: Token): number[] {
  const rest = scanner.restOfLine(true);
  const where = `line ${keyword.line} CHANNELS`;
  if (rest.length === 0) fail(WHERE, where, 'has no channel count');
  const countToken = rest[0];
  if (!/^\d+$/.test(countToken.text)) fail(WHERE, `${where} count ${quote(countToken.text)}`, 'is not a non-negative integer');
  const count = Number(countToken.text);
  const codes: number[] = [];
  for (let i = 1; i < rest.length; i++) {
    const t = rest[i];
    const code = channelCode(t.text);
    if (code < 0) fail(WHERE, at(t), `is not a channel name: expected ${CHANNEL_NAMES.join(', ')}`);
    if (codes.includes(code)) fail(WHERE, at(t), 'repeats a channel of the same joint');
    codes.push(code);
  }
  if (codes.length !== count) fail(WHERE, where, `declares ${countToken.text} channels but lists ${codes.length}`);
  return codes;
}

/** Channel code of a name (case-insensitive), or −1. */
function channelCode(name: string): number {
  const lower = name.toLowerCase();
  for (let code = 0; code < CHANNEL_NAMES.length; code++) if (CHANNEL_NAMES[code].toLowerCase() === lower) return code;
  return -1;
}

/** Reads `End Site { OFFSET x y z }` after the `End` token. */
function readEndSite(scanner: BvhScanner, keyword: Token): { offset: [number, number, number]; offsetLine: number } {
  const rest = scanner.restOfLine();
  let braced = false;
  if (rest.length > 0 && rest[rest.length - 1].text === '{') {
    rest.pop();
    braced = true;
  }
  if (rest.length !== 1 || rest[0].text.toUpperCase() !== 'SITE') {
    fail(WHERE, at(rest[0] ?? keyword), 'is unexpected: expected "End Site"');
  }
  if (!braced) expectOpen(scanner, `End Site (line ${keyword.line})`);
  const offsetToken = scanner.next();
  if (offsetToken === null || offsetToken.text.toUpperCase() !== 'OFFSET') {
    fail(WHERE, offsetToken === null ? `line ${scanner.line}` : at(offsetToken), `is unexpected: End Site (line ${keyword.line}) needs OFFSET x y z`);
  }
  const offset = readOffset(scanner, offsetToken);
  const close = scanner.next();
  if (close === null || close.text !== '}') {
    fail(WHERE, close === null ? `line ${scanner.line}` : at(close), `is unexpected: expected "}" to close End Site (line ${keyword.line}), which holds only an OFFSET`);
  }
  return { offset, offsetLine: offsetToken.line };
}

/**
 * Reads a `Label: value` line such as `Frames: 994` (the label may be split across tokens,
 * `Frames : 994`, or glued to the value, `Frames:994`). Returns the value token.
 */
function readLabelled(scanner: BvhScanner, label: RegExp, name: string): { value: Token; line: number } {
  const tokens = scanner.nextLine();
  if (tokens === null) fail(WHERE, `line ${scanner.line}`, `end of text: missing the ${name} line of the MOTION section`);
  const line = tokens[0].line;
  // Short header lines only: a regex here costs nothing.
  const joined = tokens.map((t) => t.text).join(' ');
  const match = label.exec(joined);
  if (match === null) fail(WHERE, at(tokens[0]), `is unexpected: expected the ${name} line of the MOTION section`);
  const value = joined.slice(match[0].length);
  if (value.length === 0) fail(WHERE, `line ${line} ${name}`, 'has no value');
  if (/\s/.test(value)) fail(WHERE, `line ${line} ${name}`, `has more than one value: ${quote(value)}`);
  return { value: { text: value, line }, line };
}
