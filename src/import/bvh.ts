/**
 * BVH (Biovision Hierarchy) motion capture → {@link Skeleton} + {@link Clip}.
 *
 * **Format** (Biovision; described in M. Meredith and S. Maddock, "Motion Capture File
 * Formats Explained", Univ. of Sheffield, 2001; read here as three.js `BVHLoader` reads it):
 *
 *     HIERARCHY
 *     ROOT Hips { OFFSET x y z  CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation
 *       JOINT LeftHip { OFFSET x y z  CHANNELS 3 Zrotation Yrotation Xrotation  … End Site { OFFSET x y z } } … }
 *     MOTION
 *     Frames: 994
 *     Frame Time: .0083333
 *     <one line per frame: every joint's channel values, joints in file order>
 *
 * **Conventions** (what each number means here):
 * 1. Joints are the ROOT and JOINT blocks, parents first in file order. End Sites are not
 *    joints; they are returned in `endSites` (parent joint, scaled offset) for drawing bone
 *    tips. Several ROOT blocks give several roots.
 * 2. Channels: any per-joint order and subset of `X|Y|Z` `position|rotation` (CMU 131_01 mixes
 *    `Z Y X` and `Z X Y` in one file). Names are matched case-insensitively.
 * 3. Rotation: for rotation channels listed c1 c2 c3, the local rotation is
 *    `R = R(c1)·R(c2)·R(c3)` (quaternions multiplied in listing order, column vectors; angles
 *    in degrees, right-hand rule) — three.js `BVHLoader`'s `rotation.multiply(axisAngle)`.
 * 4. Translation (`positionChannels: 'replace'`, the default): the OFFSET, except that an
 *    axis with a position channel takes the channel's value instead, so a root's
 *    `Xposition…` is its absolute position in its parent's (the world's) frame. With `'add'`
 *    the channel is added to the OFFSET, which is what three.js `BVHLoader` (r187) does. The
 *    two agree whenever a joint with position channels has a zero OFFSET on those axes, as
 *    in every CMU file; a warning names each joint where they differ.
 * 5. Units: OFFSETs and position channels are multiplied by `scale` (BVH is often in
 *    centimetres; CMU units are about 0.0564 m). Rotations are not scaled. A rest figure (its
 *    joints) outside 0.25–10 m once scaled gets the `units:` warning `loadGltf` gives, naming
 *    the likely unit and the `scale` that makes it 1.8 m tall.
 * 6. Rest pose: each joint's scaled OFFSET, identity rotation, unit scale; inverse bind
 *    matrices are computed from it by `createSkeleton`. The hip joint is found by name.
 * 7. Clip: one frame per data line from `firstFrame` on (CMU 01_01's frame 0 is a T-pose
 *    reference), not looping unless `loop` is set. `frameRate` is the rate the written
 *    `Frame Time` was rounded from (see {@link bvhFrameRate}): `.0083333` gives 120 fps and
 *    `0.0333333` 30, where 1 / Frame Time would be 120.0005 and 30.00003. The root keeps its
 *    translation in its own channel; root motion is extracted later from it.
 *
 * **Errors.** Malformed text throws an `AnimationError` naming the line and token (and the
 * frame, for data lines); nothing else is thrown. Data-line faults are collected so one error
 * lists them. Parsing is one forward pass (linear in the text) and allocates no more than the
 * text can hold, whatever `Frames:` claims.
 */
import { AnimationError, fail, IssueList } from '../assets/AnimationError.js';
import { createClip, type Clip } from '../assets/Clip.js';
import { createSkeleton, type Skeleton } from '../assets/Skeleton.js';
import { POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../math/layout.js';
import * as quat from '../math/quat.js';
import { CHANNEL_NAMES, FIRST_ROTATION, parseHeader, WHERE, type BvhChannel, type BvhHeader } from './bvh/header.js';
import { restFigureHeight } from './figureHeight.js';
import { figureUnitsWarning, UNITS, type UnitsWording } from './units.js';
import { parseMotion } from './bvh/motion.js';

export type { BvhChannel } from './bvh/header.js';

/** Options of {@link parseBvh}. */
export interface BvhOptions {
  /** Factor applied to OFFSETs and position channels, finite and > 0 (default 1). */
  scale?: number;
  /**
   * The clip's loop flag (default false: mocap takes rarely loop seamlessly). No seam frame is
   * appended: with `loop: true` the last kept data line is the seam (createClip's convention).
   */
  loop?: boolean;
  /**
   * The clip's name: pass the file's name (`basename(path, '.bvh')`, as the `bitanim` command
   * line does), so that several captures stay apart by name (a state machine refuses two clips
   * of one name). Default "bvh", for text whose origin is unknown.
   */
  name?: string;
  /** First data line kept as clip frame 0, an integer in [0, Frames − 1] (default 0). */
  firstFrame?: number;
  /**
   * How a position channel combines with the joint's OFFSET on its axis: `'replace'` (default)
   * uses the channel value, `'add'` uses OFFSET + channel (three.js `BVHLoader`).
   */
  positionChannels?: 'replace' | 'add';
}

/** An End Site: the tip of a bone chain, not a joint. */
export interface BvhEndSite {
  /** Index of the joint the End Site belongs to. */
  parent: number;
  /** Its OFFSET from that joint, times `scale`. */
  offset: [number, number, number];
}

/** What {@link parseBvh} returns. */
export interface BvhResult {
  /** One joint per ROOT/JOINT block, parents first in file order; rest pose = OFFSETs. */
  skeleton: Skeleton;
  /** One frame per data line from `firstFrame` on, for `skeleton`. */
  clip: Clip;
  /** The End Sites in file order. */
  endSites: BvhEndSite[];
  /** Channel names per joint (index = joint), in listing order = data order. */
  channels: BvhChannel[][];
  /** Things accepted but worth knowing (ignored trailing lines, convention-dependent offsets). */
  warnings: string[];
}

/** Largest clip accepted, in floats (2^27 floats = 512 MiB as Float32Array). */
const MAX_CLIP_FLOATS = 2 ** 27;

/**
 * Largest |translation| accepted, after `scale`. Skeletons and clips are float32 (max ≈ 3.4e38):
 * a larger finite double would become Infinity there, and model-space positions sum up to
 * 32767 offsets (3.4e38 / 32767 ≈ 1e34). 1e30 leaves margin and is far beyond any real rig.
 */
const MAX_TRANSLATION = 1e30;

const HALF_DEGREE = Math.PI / 360;

/**
 * Parses a BVH file into a skeleton, a clip and the End Sites (conventions in the module
 * comment: rotation `R(c1)·R(c2)·R(c3)` in listing order, degrees; position channels replace
 * the OFFSET axis; everything scaled by `scale`).
 *
 * @param text - The whole file. LF, CRLF, lone CR and mixed line endings are accepted.
 * @throws AnimationError naming line and token: empty text, missing HIERARCHY or MOTION,
 * unexpected tokens, unbalanced braces, unknown or repeated channels, a CHANNELS count that
 * does not match its names, repeated joint names, Frames not a positive integer, Frame Time
 * not a positive number, a data line with the wrong number of values or a non-number, fewer
 * data lines than Frames; and bad options.
 * @example
 * const { skeleton, clip } = parseBvh(readFileSync('walk.bvh', 'utf8'), { scale: 0.0564 });
 * const eid = spawnCharacter(world, skeleton);
 * play(world, eid, clip);
 */
export function parseBvh(text: string, options: BvhOptions = {}): BvhResult {
  const { scale, loop, name, firstFrame, add } = readOptions(options);
  if (typeof text !== 'string') fail(WHERE, 'text', `is ${typeof text}: must be the file's text`);

  const header = parseHeader(text);
  const { joints, frameCount } = header;
  const jointCount = joints.length;
  const channelBase = new Int32Array(jointCount + 1);
  for (let j = 0; j < jointCount; j++) channelBase[j + 1] = channelBase[j] + joints[j].channels!.length;
  const channelCount = channelBase[jointCount];
  if (channelCount === 0) fail(WHERE, `line ${joints[0].line}`, 'HIERARCHY declares no channels: there is no motion to read');
  if (firstFrame >= frameCount) {
    fail(WHERE, 'options.firstFrame', `is ${firstFrame}: the file has ${frameCount} frames (Frames: on line ${header.framesLine})`);
  }

  const issues = new IssueList(WHERE);
  checkOffsets(header, scale, issues);
  issues.throwIfAny();
  const motion = parseMotion(text, header.dataStart, header.dataLine, frameCount, channelCount, issues);
  if (!issues.full && motion.framesRead < frameCount) {
    issues.add(`line ${header.framesLine} Frames: ${frameCount}`, `is more than the ${motion.framesRead} data lines that follow`);
  }
  issues.throwIfAny();

  const warnings = collectWarnings(header, motion.extraLines, motion.firstExtraLine, add);
  const skeleton = createSkeleton({
    names: joints.map((j) => j.name),
    parents: joints.map((j) => j.parent),
    rest: restPose(header, scale),
  });
  const units = figureUnitsWarning(restFigureHeight(skeleton).height, bvhWording(scale, options.scale !== undefined));
  if (units !== null) warnings.push(units);
  const frames = buildFrames(header, motion.values, channelBase, firstFrame, scale, add, issues);
  issues.throwIfAny();
  const clip = createClip({ skeleton, frameRate: bvhFrameRate(header.frameTime, header.frameTimeText), frames, loop, name });
  return {
    skeleton,
    clip,
    endSites: header.endSites.map((e) => ({ parent: e.parent, offset: [e.offset[0] * scale, e.offset[1] * scale, e.offset[2] * scale] })),
    channels: joints.map((j) => j.channels!.map((code) => CHANNEL_NAMES[code])),
    warnings,
  };
}

/**
 * parseBvh's words for the units warning shared with `loadGltf` (`figureUnitsWarning`): BVH has
 * no unit, so the fix is always a `scale`, the factor that makes the figure (its rest joints)
 * 1.8 m tall, or a likely unit's metres per unit.
 */
function bvhWording(scale: number, scaled: boolean): UnitsWording {
  const value = (v: number): string => String(Number(v.toPrecision(2)));
  return {
    figure: 'its joints',
    read: scaled ? 'after options.scale' : 'read as metres (BVH has no unit)',
    smallCause: 'in a unit larger than the metre',
    scaleFix: (factor) => `{ scale: ${value(scale * Number(factor))} } (metres per file unit; scales it ×${factor} to 1.8 m)`,
    unitFix: (name) => `{ scale: ${value(scale * UNITS[name])} } (${name})`,
  };
}

const BVH_OPTIONS: readonly string[] = ['scale', 'loop', 'name', 'firstFrame', 'positionChannels'];

function readOptions(options: BvhOptions): { scale: number; loop: boolean; name: string; firstFrame: number; add: boolean } {
  const issues = new IssueList(WHERE);
  if (options === null || typeof options !== 'object') fail(WHERE, 'options', 'must be an object');
  for (const key of Object.keys(options)) {
    if (!BVH_OPTIONS.includes(key)) issues.add(`options.${key}`, `is an unknown option: parseBvh takes ${BVH_OPTIONS.join(', ')}`);
  }
  const { scale = 1, loop = false, name = 'bvh', firstFrame = 0, positionChannels = 'replace' } = options;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0) issues.add('options.scale', `is ${String(scale)}: must be a finite number > 0`);
  if (typeof loop !== 'boolean') issues.add('options.loop', `is ${String(loop)}: must be a boolean`);
  if (typeof name !== 'string') issues.add('options.name', `is ${String(name)}: must be a string`);
  if (!Number.isInteger(firstFrame) || firstFrame < 0) issues.add('options.firstFrame', `is ${String(firstFrame)}: must be an integer ≥ 0`);
  if (positionChannels !== 'replace' && positionChannels !== 'add') {
    issues.add('options.positionChannels', `is ${String(positionChannels)}: must be 'replace' or 'add'`);
  }
  issues.throwIfAny();
  return { scale, loop, name, firstFrame, add: positionChannels === 'add' };
}

/**
 * Rates besides the whole ones (up to 1000 fps) that a written `Frame Time` is snapped to when
 * it is their period rounded: the NTSC rates 24000/1001, 30000/1001, 60000/1001 (23.976, 29.97, 59.94 fps).
 */
const NTSC_RATES = [24000 / 1001, 30000 / 1001, 60000 / 1001];

/**
 * Largest relative change snapping makes to 1 / Frame Time: 10⁻⁴, so a one-minute capture's
 * timing moves by at most 6 ms (the rounding of a 7-digit frame time is ~10⁻⁵ relative).
 */
const RATE_SNAP = 1e-4;

/**
 * The frame rate of a BVH whose `Frame Time:` reads `text` (value `frameTime`, seconds):
 * exporters write the period 1/r rounded to a few digits (`.0083333` for 1/120), so 1 /
 * Frame Time is off r by its rounding (120.0005). When a whole rate r ≤ 1000, or an NTSC rate,
 * has a period that the written digits round to — |1/r − Frame Time| ≤ half a unit of the last
 * written digit (5·10⁻⁸ for `.0083333`), or a few float64 ulps — and is within
 * {@link RATE_SNAP} of 1 / Frame Time, that rate is returned; otherwise 1 / Frame Time,
 * unrounded (0.011 gives 90.909… fps; `0.03`, whose 1/33 is 1 % away, 33.33… fps).
 */
export function bvhFrameRate(frameTime: number, text: string): number {
  const halfUnit = Math.max(0.5 * lastDigitUnit(text), 4 * Number.EPSILON * frameTime);
  const candidates = [Math.round(1 / frameTime), ...NTSC_RATES];
  for (const r of candidates) {
    if (r >= 1 && r <= 1000 && Math.abs(1 / r - frameTime) <= halfUnit && Math.abs(r * frameTime - 1) <= RATE_SNAP) return r;
  }
  return 1 / frameTime;
}

/** The value of one unit in the last digit of a decimal `text` (`.0083333` → 1e-7, `8.3e-3` → 1e-4); 0 when it has no digits. */
function lastDigitUnit(text: string): number {
  const groups = /^[+-]?(?<whole>\d*)(?:\.(?<fraction>\d*))?(?:[eE](?<exponent>[+-]?\d+))?$/.exec(text)?.groups;
  if (!groups) return 0;
  const fraction = groups['fraction'] ?? '';
  if ((groups['whole'] ?? '').length === 0 && fraction.length === 0) return 0;
  return 10 ** (Number(groups['exponent'] ?? 0) - fraction.length);
}

/** Refuses OFFSETs beyond ±MAX_TRANSLATION once scaled. */
function checkOffsets(header: BvhHeader, scale: number, issues: IssueList): void {
  const check = (offset: readonly number[], line: number): void => {
    for (let axis = 0; axis < 3; axis++) {
      const v = offset[axis] * scale;
      if (!(Math.abs(v) <= MAX_TRANSLATION)) {
        issues.add(`line ${line} OFFSET value ${axis + 1}`, `is ${offset[axis]} (× scale ${scale}): beyond ±${MAX_TRANSLATION}, more than float32 joint data can hold`);
      }
    }
  };
  for (const joint of header.joints) check(joint.offset!, joint.offsetLine);
  for (const site of header.endSites) check(site.offset, site.offsetLine);
}

function restPose(header: BvhHeader, scale: number): Float64Array {
  const joints = header.joints;
  const rest = new Float64Array(joints.length * POSE_STRIDE);
  for (let j = 0; j < joints.length; j++) {
    const o = j * POSE_STRIDE;
    const offset = joints[j].offset!;
    rest[o + POSE_T] = offset[0] * scale;
    rest[o + POSE_T + 1] = offset[1] * scale;
    rest[o + POSE_T + 2] = offset[2] * scale;
    rest[o + POSE_Q + 3] = 1; // identity rotation (qx qy qz stay 0)
    rest[o + POSE_S] = 1;
    rest[o + POSE_S + 1] = 1;
    rest[o + POSE_S + 2] = 1;
  }
  return rest;
}

/**
 * Converts channel values to SQT frames (conventions 3–5 of the module comment). Rotation:
 * start from identity and right-multiply the axis rotation of each rotation channel in
 * listing order, `q ← q·(sin(θ/2)·axis, cos(θ/2))`. Translations beyond ±MAX_TRANSLATION go
 * to `issues` with their frame, joint and channel.
 */
function buildFrames(
  header: BvhHeader, values: Float64Array, channelBase: Int32Array, firstFrame: number, scale: number, add: boolean,
  issues: IssueList,
): Float32Array {
  const joints = header.joints;
  const jointCount = joints.length;
  const channelCount = channelBase[jointCount];
  const kept = header.frameCount - firstFrame;
  const poseSize = jointCount * POSE_STRIDE;
  if (kept * poseSize > MAX_CLIP_FLOATS) {
    fail(WHERE, `line ${header.framesLine} Frames: ${header.frameCount}`, `× ${jointCount} joints needs ${kept * poseSize} floats, more than the ${MAX_CLIP_FLOATS} a clip may hold`);
  }
  let frames: Float32Array;
  try {
    frames = new Float32Array(kept * poseSize);
  } catch (error) {
    throw new AnimationError(WHERE, [{ path: `Frames: ${header.frameCount}`, message: `cannot allocate the clip (${String(error)})` }]);
  }
  const q = new Float64Array(4);
  const r = new Float64Array(4);
  const offsets = joints.map((j) => j.offset!);
  const channels = joints.map((j) => j.channels!);
  for (let f = 0; f < kept && !issues.full; f++) {
    const row = (firstFrame + f) * channelCount;
    for (let j = 0; j < jointCount; j++) {
      const offset = offsets[j];
      const codes = channels[j];
      let tx = offset[0] * scale, ty = offset[1] * scale, tz = offset[2] * scale;
      quat.identity(q, 0);
      const first = row + channelBase[j];
      for (let k = 0; k < codes.length; k++) {
        const v = values[first + k];
        const code = codes[k];
        if (code < FIRST_ROTATION) {
          const t = add ? offset[code] * scale + v * scale : v * scale;
          if (!(Math.abs(t) <= MAX_TRANSLATION)) {
            issues.add(
              `frame ${firstFrame + f} joint "${joints[j].name}" (${j}) ${CHANNEL_NAMES[code]}`,
              `is ${v} (× scale ${scale}${add ? ', + OFFSET' : ''}): beyond ±${MAX_TRANSLATION}, more than float32 joint data can hold`,
            );
          }
          if (code === 0) tx = t;
          else if (code === 1) ty = t;
          else tz = t;
        } else {
          const half = v * HALF_DEGREE;
          r[0] = 0; r[1] = 0; r[2] = 0;
          r[code - FIRST_ROTATION] = Math.sin(half);
          r[3] = Math.cos(half);
          quat.multiply(q, 0, q, 0, r, 0);
        }
      }
      const o = f * poseSize + j * POSE_STRIDE;
      frames[o + POSE_T] = tx;
      frames[o + POSE_T + 1] = ty;
      frames[o + POSE_T + 2] = tz;
      for (let c = 0; c < 4; c++) frames[o + POSE_Q + c] = q[c];
      frames[o + POSE_S] = 1;
      frames[o + POSE_S + 1] = 1;
      frames[o + POSE_S + 2] = 1;
    }
  }
  return frames;
}

function collectWarnings(header: BvhHeader, extraLines: number, firstExtraLine: number, add: boolean): string[] {
  const warnings: string[] = [];
  if (header.roots > 1) {
    warnings.push(`${header.roots} ROOT hierarchies: each is a root joint; the first ("${header.joints[0].name}") is the usual root-motion source`);
  }
  // One warning per set of axes, naming every joint in it: a studio rig with position
  // channels on every joint gives one line, not one per joint.
  const byAxes = new Map<string, string[]>();
  for (const joint of header.joints) {
    const axes = joint.channels!.filter((code) => code < FIRST_ROTATION && joint.offset![code] !== 0).map((code) => 'xyz'[code]).join(', ');
    if (axes.length === 0) continue;
    if (!byAxes.has(axes)) byAxes.set(axes, []);
    byAxes.get(axes)!.push(`"${joint.name}" (line ${joint.line})`);
  }
  const what = add ? 'the channel is added to the OFFSET (positionChannels: add)' : 'the channel replaces the OFFSET (three.js adds them; positionChannels: add)';
  for (const [axes, names] of byAxes) {
    warnings.push(names.length === 1
      ? `joint ${names[0]} has position channels and a non-zero OFFSET on ${axes}: ${what}`
      : `${names.length} joints have position channels and a non-zero OFFSET on ${axes}: ${names.join(', ')}: ${what}`);
  }
  if (extraLines > 0) {
    warnings.push(`${extraLines} data line(s) after the ${header.frameCount} frames declared by Frames: (from line ${firstExtraLine}) were ignored`);
  }
  return warnings;
}
