/**
 * BVH import: facts of the two CMU files (shared/assets/README.md), forward kinematics checked
 * against an independent reference, the scale option, and refused inputs.
 */
import { readFileSync } from 'node:fs';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, getModelMatrices, play, spawnCharacter, step, type Clip, type Skeleton } from '../../src/index.js';
import { parseBvh, type BvhResult } from '../../src/import/bvh.js';
import { refused } from '../fixtures/errors.js';
import { assetPath } from '../support/assets.js';

const asset = (name: string): string => readFileSync(assetPath(name), 'utf8');
const WALK = 'cmu_131_01_start_walk_stop.bvh';
const JUMPS = 'cmu_01_01_forward_jumps.bvh';
const walkText = asset(WALK);
const jumpsText = asset(JUMPS);
const walk = parseBvh(walkText);
const jumps = parseBvh(jumpsText);

/** Translation of `joint` in clip frame `frame`. */
function rootAt(clip: Clip, frame: number, joint = 0): number[] {
  const o = (frame * clip.skeleton.jointCount + joint) * 10;
  return Array.from(clip.frames.subarray(o, o + 3));
}

function expectNear(actual: readonly number[], expected: readonly number[], tolerance: number): void {
  for (let i = 0; i < expected.length; i++) expect(Math.abs(actual[i]! - expected[i]!), `component ${i}: ${actual[i]} vs ${expected[i]}`).toBeLessThan(tolerance);
}

const ZYX = ['Zrotation', 'Yrotation', 'Xrotation'];
const ZXY = ['Zrotation', 'Xrotation', 'Yrotation'];
const ROOT_CHANNELS = ['Xposition', 'Yposition', 'Zposition', ...ZYX];

describe('parseBvh on CMU 131_01 (start, walk, stop; mixed rotation orders and line endings)', () => {
  it('has the 31 joints of the README in file order, 7 End Sites and 96 channels', () => {
    expect(walk.skeleton.names).toEqual([
      'Hips', 'LHipJoint', 'LeftHip', 'LeftKnee', 'LeftAnkle', 'LeftToe', 'RHipJoint', 'RightHip', 'RightKnee', 'RightAnkle',
      'RightToe', 'lowerback', 'Chest', 'Chest2', 'lowerneck', 'Neck', 'Head', 'LeftCollar', 'LeftShoulder', 'LeftElbow',
      'LeftWrist', 'lhand', 'LFingers', 'LThumb', 'RightCollar', 'RightShoulder', 'RightElbow', 'RightWrist', 'rhand',
      'RFingers', 'RThumb',
    ]);
    expect(walk.skeleton.jointCount).toBe(31);
    expect(walk.endSites.map((e) => walk.skeleton.names[e.parent])).toEqual(['LeftToe', 'RightToe', 'Head', 'LFingers', 'LThumb', 'RFingers', 'RThumb']);
    expect(walk.channels.flat()).toHaveLength(96);
    expect(walk.skeleton.hipJoint).toBe(0);
    // Read without a scale, CMU's units (0.056444 m) make a 30 m figure: the units warning only.
    expect(walk.warnings).toEqual([expect.stringMatching(/^units: the rest figure \(its joints\) is \d+(\.\d+)? m tall read as metres \(BVH has no unit\), too large/)]);
    expect(parseBvh(walkText, { scale: 0.056444 }).warnings).toEqual([]);
  });

  it('honours the per-joint channel orders: 19 joints Z Y X, the 12 arm joints Z X Y', () => {
    const names = walk.skeleton.names;
    const zxy = names.filter((_, j) => walk.channels[j]!.join() === ZXY.join());
    expect(zxy).toEqual([
      'LeftShoulder', 'LeftElbow', 'LeftWrist', 'lhand', 'LFingers', 'LThumb',
      'RightShoulder', 'RightElbow', 'RightWrist', 'rhand', 'RFingers', 'RThumb',
    ]);
    expect(walk.channels[0]).toEqual(ROOT_CHANNELS);
    expect(walk.channels.filter((c) => c.join() === ZYX.join())).toHaveLength(18); // + the root's Z Y X = 19
  });

  it('has 994 frames at 120 fps (.0083333 is 1/120 rounded to 7 decimals), not looping, named "bvh"', () => {
    expect(walk.clip.frameCount).toBe(994);
    expect(walk.clip.frameRate).toBe(120);
    expect(walk.clip.duration).toBeCloseTo(993 / 120, 12);
    expect(walk.clip.loop).toBe(false);
    expect(walk.clip.name).toBe('bvh');
  });

  it('keeps the root travel in the Hips channel: (5.23, 16.90, −33.90) → (2.23, 16.08, 11.96)', () => {
    expectNear(rootAt(walk.clip, 0), [5.23, 16.9, -33.9], 0.005);
    expectNear(rootAt(walk.clip, 993), [2.23, 16.08, 11.96], 0.005);
    // The rest pose is the OFFSETs: the root OFFSET is 0 and the leg roots sit on it.
    expect(Array.from(walk.skeleton.rest.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(Array.from(walk.skeleton.rest.subarray(10, 13))).toEqual([0, 0, 0]); // LHipJoint
  });

  it('reads the mixed CRLF/LF file the same as its LF-only, CRLF-only and CR-only versions', () => {
    expect(walkText).toMatch(/\r\n/);
    expect(walkText).toMatch(/[^\r]\n/);
    const lf = walkText.replace(/\r\n/g, '\n');
    for (const variant of [lf, lf.replace(/\n/g, '\r\n'), lf.replace(/\n/g, '\r'), `${lf}\n\n  \n\t\n`]) {
      const other = parseBvh(variant);
      expect(other.skeleton.names).toEqual(walk.skeleton.names);
      expect(other.clip.frames).toEqual(walk.clip.frames);
    }
  });
});

describe('parseBvh on CMU 01_01 (forward jumps; T-pose frame 0, 2 MB)', () => {
  it('has the 31 MotionBuilder-named joints, 7 End Sites, all Z Y X', () => {
    expect(jumps.skeleton.names).toEqual([
      'Hips', 'LHipJoint', 'LeftUpLeg', 'LeftLeg', 'LeftFoot', 'LeftToeBase', 'RHipJoint', 'RightUpLeg', 'RightLeg',
      'RightFoot', 'RightToeBase', 'LowerBack', 'Spine', 'Spine1', 'Neck', 'Neck1', 'Head', 'LeftShoulder', 'LeftArm',
      'LeftForeArm', 'LeftHand', 'LeftFingerBase', 'LFingers', 'LThumb', 'RightShoulder', 'RightArm', 'RightForeArm',
      'RightHand', 'RightFingerBase', 'RFingers', 'RThumb',
    ]);
    expect(jumps.endSites).toHaveLength(7);
    expect(jumps.channels[0]).toEqual(ROOT_CHANNELS);
    expect(jumps.channels.slice(1).every((c) => c.join() === ZYX.join())).toBe(true);
  });

  it('has 2752 frames at 120 fps (Frame Time .0083333); hips travel (9.37, 17.87, −17.32) → (8.88, 17.81, 38.54)', () => {
    expect(jumps.clip.frameCount).toBe(2752);
    expect(jumps.clip.frameRate).toBe(120);
    expectNear(rootAt(jumps.clip, 0), [9.37, 17.87, -17.32], 0.005);
    expectNear(rootAt(jumps.clip, 2751), [8.88, 17.81, 38.54], 0.005);
  });

  it('firstFrame: 1 drops the T-pose reference frame', () => {
    // Frame 0 is the T-pose: every joint except the root has a (near) identity rotation.
    const frames = jumps.clip.frames;
    let maxAngle = 0;
    for (let j = 1; j < 31; j++) maxAngle = Math.max(maxAngle, 2 * Math.acos(Math.min(1, Math.abs(frames[j * 10 + 6]!))));
    expect(maxAngle).toBeLessThan((20 * Math.PI) / 180); // the T-pose has only ±17° on the up-legs (Z) and ±5° on the arms

    const cut = parseBvh(jumpsText, { firstFrame: 1, loop: true, name: '01_01' });
    expect(cut.clip.frameCount).toBe(2751);
    expect(cut.clip.loop).toBe(true);
    expect(cut.clip.name).toBe('01_01');
    const poseSize = 31 * 10;
    expect(cut.clip.frames.subarray(0, poseSize)).toEqual(jumps.clip.frames.subarray(poseSize, 2 * poseSize));
    expect(cut.clip.frames.subarray(-poseSize)).toEqual(jumps.clip.frames.subarray(-poseSize));
  });

  // Its time is printed for the record, not asserted (performance belongs to benchmarks).
  it('parses the 2 MB file: every frame its Frames: line announces (time printed)', () => {
    let best = Infinity;
    let frames = 0;
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      frames = parseBvh(jumpsText).clip.frameCount;
      best = Math.min(best, performance.now() - start);
    }
    console.info(`parseBvh ${JUMPS} (${(jumpsText.length / 1e6).toFixed(2)} MB): best of 5 ${best.toFixed(1)} ms`);
    expect(frames).toBe(Number(/Frames:\s*(\d+)/.exec(jumpsText)![1]));
  });
});

// ---------------------------------------------------------------------------------------------
// Independent forward kinematics. A second, deliberately different reader: line-based regex
// parsing of the raw text, 4×4 row-major matrices, Euler angles as rotation matrices multiplied
// in channel order (no quaternions, nothing from src/). world(j) = world(parent) · T · R(c1)·R(c2)·R(c3),
// with T = OFFSET except on axes that have a position channel.

interface RefJoint {
  parent: number;
  offset: number[];
  channels: string[];
}

interface RefFile {
  joints: RefJoint[];
  endSites: { parent: number; offset: number[] }[];
  frames: number[][];
}

function referenceRead(text: string): RefFile {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim());
  const joints: RefJoint[] = [];
  const endSites: RefFile['endSites'] = [];
  const stack: number[] = []; // joint index, or −1 for an End Site block
  let pending = -1;
  let i = 0;
  for (; lines[i] !== 'MOTION'; i++) {
    const words = lines[i]!.split(/\s+/);
    switch (words[0]) {
      case 'ROOT':
      case 'JOINT':
        joints.push({ parent: stack.length ? stack[stack.length - 1]! : -1, offset: [], channels: [] });
        pending = joints.length - 1;
        break;
      case 'End':
        pending = -1;
        endSites.push({ parent: stack[stack.length - 1]!, offset: [] });
        break;
      case '{':
        stack.push(pending);
        break;
      case '}':
        stack.pop();
        break;
      case 'OFFSET': {
        const top = stack[stack.length - 1]!;
        (top >= 0 ? joints[top]! : endSites[endSites.length - 1]!).offset = words.slice(1).map(Number);
        break;
      }
      case 'CHANNELS':
        joints[stack[stack.length - 1]!]!.channels = words.slice(2);
        break;
    }
  }
  const frameCount = Number(lines[i + 1]!.split(':')[1]);
  const frames = lines.slice(i + 3, i + 3 + frameCount).map((l) => l.split(/\s+/).map(Number));
  return { joints, endSites, frames };
}

type M4 = number[]; // row-major

function mul(a: M4, b: M4): M4 {
  const out = new Array<number>(16).fill(0);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) out[r * 4 + c]! += a[r * 4 + k]! * b[k * 4 + c]!;
  return out;
}

function translation(x: number, y: number, z: number): M4 {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z, 0, 0, 0, 1];
}

function rotation(axis: string, degrees: number): M4 {
  const a = (degrees * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  if (axis === 'X') return [1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1];
  if (axis === 'Y') return [c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1];
  return [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

/** World matrices of every joint at `frame`; `order` overrides the rotation order (for the sensitivity check). */
function referenceWorld(file: RefFile, frame: number, order?: (channels: string[]) => string[]): M4[] {
  const values = file.frames[frame]!;
  const world: M4[] = [];
  let v = 0;
  for (const joint of file.joints) {
    const t = joint.offset.slice();
    const rotations: [string, number][] = [];
    for (const channel of joint.channels) {
      const value = values[v++]!;
      if (channel.endsWith('position')) t['XYZ'.indexOf(channel[0]!)] = value;
      else rotations.push([channel[0]!, value]);
    }
    let local = translation(t[0]!, t[1]!, t[2]!);
    const names = order ? order(rotations.map((r) => r[0])) : rotations.map((r) => r[0]);
    for (const axis of names) local = mul(local, rotation(axis, rotations.find((r) => r[0] === axis)![1]));
    world.push(joint.parent < 0 ? local : mul(world[joint.parent]!, local));
  }
  return world;
}

/** bitanim's model matrices for `clip` frame `frame`, through the public runtime API. */
function runtimeModel(skeleton: Skeleton, clip: Clip, frame: number): Float32Array {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton);
  play(world, eid, clip, { time: frame / clip.frameRate, speed: 0 });
  step(world, 0);
  return getModelMatrices(world, eid).slice();
}

/** Largest distance between reference and runtime joint (and End Site) positions. */
function fkError(result: BvhResult, file: RefFile, frame: number): { joints: number; endSites: number } {
  const ref = referenceWorld(file, frame);
  const model = runtimeModel(result.skeleton, result.clip, frame);
  let joints = 0;
  for (let j = 0; j < ref.length; j++) {
    const m = ref[j]!;
    const o = j * 12;
    joints = Math.max(joints, Math.hypot(model[o + 9]! - m[3]!, model[o + 10]! - m[7]!, model[o + 11]! - m[11]!));
  }
  let endSites = 0;
  result.endSites.forEach((site, k) => {
    const expected = mul(ref[site.parent]!, translation(...(file.endSites[k]!.offset as [number, number, number])));
    const o = site.parent * 12;
    const [x, y, z] = site.offset;
    const actual = [0, 1, 2].map((r) => model[o + r]! * x + model[o + 3 + r]! * y + model[o + 6 + r]! * z + model[o + 9 + r]!);
    endSites = Math.max(endSites, Math.hypot(actual[0]! - expected[3]!, actual[1]! - expected[7]!, actual[2]! - expected[11]!));
  });
  return { joints, endSites };
}

describe('forward kinematics agree with an independent Euler-matrix reference', () => {
  // Tolerance: 1e-3 CMU units (≈ 0.06 mm), about 1e-4 of the figure's ~20-unit size. The runtime
  // stores clips and model matrices as float32 (≈ 6e-8 relative, ~4e-6 units at 50 units from
  // the origin), accumulated over chains of up to 9 joints, and a play time of f / frameRate
  // may land a hair before frame f; the reference is float64. Measured errors are ~1e-5.
  const TOLERANCE = 1e-3;
  const cases: [string, BvhResult, string][] = [
    [WALK, walk, walkText],
    [JUMPS, jumps, jumpsText],
  ];
  for (const [file, result, text] of cases) {
    it(`${file}: first, middle and last frame`, () => {
      const ref = referenceRead(text);
      expect(ref.joints).toHaveLength(result.skeleton.jointCount);
      const last = result.clip.frameCount - 1;
      const report: string[] = [];
      for (const frame of [0, Math.floor(last / 2), last]) {
        const error = fkError(result, ref, frame);
        report.push(`frame ${frame}: joints ${error.joints.toExponential(2)}, end sites ${error.endSites.toExponential(2)}`);
        expect(error.joints).toBeLessThan(TOLERANCE);
        expect(error.endSites).toBeLessThan(TOLERANCE);
      }
      console.info(`FK max |Δ| (CMU units) ${file}: ${report.join('; ')}`);
    });
  }

  it('is sensitive to rotation order: reading the Z X Y arm joints of 131_01 as Z Y X moves the hands', () => {
    const ref = referenceRead(walkText);
    const frame = 497;
    const right = referenceWorld(ref, frame);
    const wrong = referenceWorld(ref, frame, () => ['Z', 'Y', 'X']);
    const lhand = walk.skeleton.names.indexOf('LFingers');
    const moved = Math.hypot(right[lhand]![3]! - wrong[lhand]![3]!, right[lhand]![7]! - wrong[lhand]![7]!, right[lhand]![11]! - wrong[lhand]![11]!);
    expect(moved).toBeGreaterThan(100 * 1e-3); // far outside the FK tolerance
  });
});

describe('agrees with three.js BVHLoader (the rotation convention it follows)', () => {
  // three.js stores OFFSET + channel as the position; the CMU roots have zero OFFSETs, so
  // 'replace' (our default) and 'add' (three.js) give the same numbers on these files.
  for (const [file, result, text] of [[WALK, walk, walkText], [JUMPS, jumps, jumpsText]] as const) {
    it(`${file}: every frame's quaternions (up to sign) and root positions`, () => {
      const three = new BVHLoader().parse(text);
      const names = result.skeleton.names;
      let maxQ = 0;
      let maxT = 0;
      for (const track of three.clip.tracks) {
        const [bone, property] = track.name.split('.');
        const joint = names.indexOf(bone!);
        const size = property === 'quaternion' ? 4 : 3;
        for (let f = 0; f < result.clip.frameCount; f++) {
          const o = (f * names.length + joint) * 10 + (size === 4 ? 3 : 0);
          let dot = 0;
          for (let k = 0; k < size; k++) dot += track.values[f * size + k]! * result.clip.frames[o + k]!;
          const sign = size === 4 && dot < 0 ? -1 : 1;
          for (let k = 0; k < size; k++) {
            const d = Math.abs(track.values[f * size + k]! - sign * result.clip.frames[o + k]!);
            if (size === 4) maxQ = Math.max(maxQ, d);
            else maxT = Math.max(maxT, d);
          }
        }
      }
      expect(three.clip.tracks).toHaveLength(2 * names.length);
      expect(maxQ).toBeLessThan(1e-6); // float32 rounding of both
      expect(maxT).toBeLessThan(1e-5);
    });
  }
});

// ---------------------------------------------------------------------------------------------

/** A small file: root with 6 channels (Z X Y), one joint (Z X Y) with an End Site, 2 frames. */
const TINY = [
  'HIERARCHY',
  'ROOT Hips',
  '{',
  '  OFFSET 0 0 0',
  '  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
  '  JOINT Spine',
  '  {',
  '    OFFSET 0 1 0',
  '    CHANNELS 3 Zrotation Xrotation Yrotation',
  '    End Site',
  '    {',
  '      OFFSET 0 0.5 0',
  '    }',
  '  }',
  '}',
  'MOTION',
  'Frames: 2',
  'Frame Time: 0.5',
  '1 2 3 0 0 0 0 0 0',
  '1 2 3 90 90 0 0 0 0',
  '',
].join('\n');

/** TINY with line `line` (1-based) replaced. */
function tinyWith(line: number, text: string): string {
  const lines = TINY.split('\n');
  lines[line - 1] = text;
  return lines.join('\n');
}

describe('parseBvh conventions on a hand-checked file', () => {
  it('composes rotations in listing order: Z 90 then X 90 maps +Y to +Z', () => {
    const { skeleton, clip, endSites } = parseBvh(TINY);
    expect(skeleton.names).toEqual(['Hips', 'Spine']);
    expect(Array.from(skeleton.parents)).toEqual([-1, 0]);
    expect(endSites).toEqual([{ parent: 1, offset: [0, 0.5, 0] }]);
    expect(clip.frameRate).toBe(2);
    // R = Rz(90)·Rx(90): +Y → Rx → +Z → Rz → +Z. (The other order, Rx·Rz, would give −X.)
    // So the Spine joint, OFFSET (0, 1, 0) from the root at (1, 2, 3), sits at (1, 2, 4).
    const model = runtimeModel(skeleton, clip, 1);
    expectNear(Array.from(model.subarray(12 + 9, 12 + 12)), [1, 2, 4], 1e-6);
    // q = qz(90)·qx(90) = (½, ½, ½, ½).
    expectNear(Array.from(clip.frames.subarray(20 + 3, 20 + 7)), [0.5, 0.5, 0.5, 0.5], 1e-7); // frame 1, joint 0
  });

  it('position channels replace the OFFSET on their axis by default, add to it with positionChannels: add', () => {
    const offsetRoot = tinyWith(4, '  OFFSET 10 20 30');
    const replaced = parseBvh(offsetRoot);
    expect(rootAt(replaced.clip, 0)).toEqual([1, 2, 3]);
    expect(Array.from(replaced.skeleton.rest.subarray(0, 3))).toEqual([10, 20, 30]);
    expect(replaced.warnings.join()).toMatch(/joint "Hips" \(line 2\) has position channels and a non-zero OFFSET on x, y, z/);
    expect(rootAt(parseBvh(offsetRoot, { positionChannels: 'add' }).clip, 0)).toEqual([11, 22, 33]);
    // An axis without a position channel keeps the OFFSET.
    const onlyY = tinyWith(5, '  CHANNELS 4 Yposition Zrotation Xrotation Yrotation').replace('1 2 3 0 0 0 0 0 0', '2 0 0 0 0 0 0').replace('1 2 3 90 90 0 0 0 0', '2 0 0 0 0 0 0');
    expect(rootAt(parseBvh(onlyY.replace('OFFSET 0 0 0', 'OFFSET 7 8 9')).clip, 0)).toEqual([7, 2, 9]);
  });

  it('accepts tabs, glued braces, lower-case keywords, a BOM and numbers like .5, 5., -0, 1e-3', () => {
    const text = '\uFEFFhierarchy\r\nROOT Hips{\r\n\tOFFSET .5 5. -0\r\n\tCHANNELS 3 Xposition\typosition Zposition\r\n\tEnd Site{\r\nOFFSET 1e-3 0 0}\r\n}\rMOTION\nFrames:\t1\nFrame Time: .25\n\t1e1  -2.5E+0\t.0\n\n';
    const { skeleton, clip, endSites } = parseBvh(text);
    expect(skeleton.names).toEqual(['Hips']);
    expect(endSites[0]!.offset).toEqual([1e-3, 0, 0]);
    expect(clip.frameRate).toBe(4);
    expect(rootAt(clip, 0)).toEqual([10, -2.5, 0]);
  });

  it('reports data lines beyond Frames as a warning and ignores them', () => {
    const result = parseBvh(`${TINY}9 9 9 9 9 9 9 9 9\nnot even numbers\n`);
    expect(result.clip.frameCount).toBe(2);
    expect(result.warnings).toEqual(['2 data line(s) after the 2 frames declared by Frames: (from line 21) were ignored']);
  });
});

describe('scale option', () => {
  it('scale 0.01 scales OFFSETs, position channels and End Sites, not rotations', () => {
    const small = parseBvh(walkText, { scale: 0.01 });
    const { rest } = walk.skeleton;
    for (let i = 0; i < rest.length; i++) {
      const channel = i % 10;
      const expected = channel < 3 ? rest[i]! * 0.01 : rest[i]!;
      expect(small.skeleton.rest[i]).toBeCloseTo(expected, 7);
    }
    const a = walk.clip.frames;
    const b = small.clip.frames;
    let translationError = 0;
    let rotationError = 0;
    for (let i = 0; i < a.length; i++) {
      if (i % 10 < 3) translationError = Math.max(translationError, Math.abs(b[i]! - a[i]! * 0.01));
      else rotationError = Math.max(rotationError, Math.abs(b[i]! - a[i]!));
    }
    expect(translationError).toBeLessThan(1e-6);
    expect(rotationError).toBe(0);
    expect(small.endSites.map((e) => e.offset)).toEqual(walk.endSites.map((e) => e.offset.map((v) => v * 0.01)));
    expectNear(rootAt(small.clip, 993), [0.0223, 0.1608, 0.1196], 0.00005);
  });
});

describe('parseBvh refuses malformed input with an AnimationError naming line and token', () => {
  const cases: [string, string, RegExp][] = [
    ['empty text', '', /text is empty/],
    ['blank text', ' \r\n\t\n', /text is empty/],
    ['no HIERARCHY', TINY.replace('HIERARCHY\n', ''), /line 1 "ROOT" is not HIERARCHY/],
    ['no MOTION section', TINY.slice(0, TINY.indexOf('MOTION')), /line 16 end of text: missing MOTION section/],
    ['wrong channel count on a data line', tinyWith(20, '1 2 3 90 90 0 0 0'), /line 20 \(frame 1\) has 8 values, expected 9/],
    ['too many values on a data line', tinyWith(19, '1 2 3 0 0 0 0 0 0 0'), /line 19 \(frame 0\) has 10 values, expected 9/],
    ['a non-numeric value', tinyWith(19, '1 2 x 0 0 0 0 0 0'), /line 19 \(frame 0\) value 3 "x" is not a finite number/],
    ['NaN', tinyWith(20, '1 2 3 NaN 0 0 0 0 0'), /line 20 \(frame 1\) value 4 "NaN" is not a finite number/],
    ['Infinity', tinyWith(20, '1 2 3 0 Infinity 0 0 0 0'), /value 5 "Infinity" is not a finite number/],
    ['an overflowing number', tinyWith(20, '1 2 3 0 0 1e309 0 0 0'), /value 6 "1e309" is not a finite number/],
    ['hex', tinyWith(20, '0x10 2 3 0 0 0 0 0 0'), /value 1 "0x10" is not a finite number/],
    ['a non-numeric OFFSET', tinyWith(8, '    OFFSET 0 one 0'), /line 8 OFFSET value 2 "one" is not a finite number/],
    ['an OFFSET with 2 values', tinyWith(8, '    OFFSET 0 1'), /line 8 OFFSET has 2 values, expected 3/],
    ['an unknown channel name', tinyWith(9, '    CHANNELS 3 Zrotation Xrotaton Yrotation'), /line 9 "Xrotaton" is not a channel name/],
    ['a repeated channel', tinyWith(9, '    CHANNELS 3 Zrotation Xrotation Zrotation'), /line 9 "Zrotation" repeats a channel/],
    ['CHANNELS count not matching the names', tinyWith(9, '    CHANNELS 4 Zrotation Xrotation Yrotation'), /line 9 CHANNELS declares 4 channels but lists 3/],
    ['CHANNELS count not a number', tinyWith(9, '    CHANNELS three Zrotation Xrotation Yrotation'), /line 9 CHANNELS count "three" is not a non-negative integer/],
    ['a missing "}"', TINY.replace('  }\n}', '}'), /line 15 "MOTION" is inside ROOT "Hips" \(line 2\): unbalanced braces, 1 "}" missing/],
    ['an extra "}"', TINY.replace('}\nMOTION', '}\n}\nMOTION'), /line 16 "}" closes nothing: unbalanced braces/],
    ['end of text inside a block', TINY.slice(0, TINY.indexOf('  }\n}')), /end of text inside JOINT "Spine" \(line 6\): unbalanced braces, 2 "\{" not closed/],
    ['an unexpected token', tinyWith(8, '    OFSET 0 1 0'), /line 8 "OFSET" is unexpected in JOINT "Spine" \(line 6\)/],
    ['a joint without OFFSET', tinyWith(8, ''), /line 14 "}" closes JOINT "Spine" \(line 6\), which has no OFFSET/],
    ['a repeated joint name', tinyWith(6, '  JOINT Hips'), /line 6 JOINT "Hips" repeats the joint name of line 2/],
    ['a joint without a name', tinyWith(6, '  JOINT'), /line 6 "JOINT" has no joint name/],
    ['an End Site without OFFSET', tinyWith(12, ''), /line 13 "}" is unexpected: End Site \(line 10\) needs OFFSET/],
    ['no ROOT', 'HIERARCHY\nMOTION\nFrames: 1\nFrame Time: 1\n1\n', /line 2 "MOTION" comes before any ROOT/],
    ['Frames larger than the data present', tinyWith(17, 'Frames: 3'), /line 17 Frames: 3 is more than the 2 data lines that follow/],
    ['Frames 0', tinyWith(17, 'Frames: 0'), /line 17 "0" is not a valid Frames: count/],
    ['Frames negative', tinyWith(17, 'Frames: -2'), /line 17 "-2" is not a valid Frames: count/],
    ['Frames fractional', tinyWith(17, 'Frames: 1.5'), /line 17 "1.5" is not a valid Frames: count/],
    ['Frames missing', tinyWith(17, ''), /line 18 "Frame" is unexpected: expected the Frames: line/],
    ['Frame Time 0', tinyWith(18, 'Frame Time: 0'), /line 18 "0" is not a valid Frame Time/],
    ['Frame Time negative', tinyWith(18, 'Frame Time: -0.0083333'), /line 18 "-0.0083333" is not a valid Frame Time/],
    ['Frame Time not a number', tinyWith(18, 'Frame Time: fast'), /line 18 "fast" is not a valid Frame Time/],
    ['Frame Time missing', tinyWith(18, 'Frame Time:'), /line 18 Frame Time: has no value/],
    ['an OFFSET float32 cannot hold', tinyWith(8, '    OFFSET 0 1e38 0'), /line 8 OFFSET value 2 is 1e\+38 \(× scale 1\): beyond ±1e\+30/],
    ['a position float32 cannot hold', tinyWith(20, '1 3.4028235677973366e+38 3 0 0 0 0 0 0'), /frame 1 joint "Hips" \(0\) Yposition is 3\.4028235677973366e\+38/],
    ['no channels at all', 'HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 1\nFrame Time: 1\n\n', /HIERARCHY declares no channels/],
  ];
  for (const [what, text, message] of cases) {
    it(what, () => {
      const error = refused(() => parseBvh(text));
      expect(error.where).toBe('parseBvh');
      expect(error.message).toMatch(message);
    });
  }

  it('lists every bad data line in one error', () => {
    const text = tinyWith(19, '1 2 3').replace('1 2 3 90 90 0 0 0 0', '1 2 3 90 ninety 0 0 0 0');
    const error = refused(() => parseBvh(text));
    expect(error.issues.map((i) => i.path)).toEqual(['line 19 (frame 0)', 'line 20 (frame 1) value 5 "ninety"']);
  });

  // No timed assertion: allocating for 10^12 frames would throw a RangeError (not the message
  // below) or exhaust memory, and the test's timeout catches a hang.
  it('Frames: 999999999999 is refused from the data actually present, without allocating for it', () => {
    const error = refused(() => parseBvh(tinyWith(17, 'Frames: 999999999999')));
    expect(error.message).toMatch(/line 17 Frames: 999999999999 is more than the 2 data lines that follow/);
    const walkHuge = refused(() => parseBvh(walkText.replace('Frames: 994', 'Frames: 999999999999')));
    expect(walkHuge.message).toMatch(/Frames: 999999999999 is more than the 994 data lines/);
  }, 20_000);

  it('refuses bad options', () => {
    expect(refused(() => parseBvh(TINY, { scale: 0 })).message).toMatch(/options\.scale is 0/);
    expect(refused(() => parseBvh(TINY, { scale: Number.NaN })).message).toMatch(/options\.scale is NaN/);
    expect(refused(() => parseBvh(TINY, { firstFrame: 2 })).message).toMatch(/options\.firstFrame is 2: the file has 2 frames/);
    expect(refused(() => parseBvh(TINY, { firstFrame: -1 })).message).toMatch(/options\.firstFrame is -1/);
    expect(refused(() => parseBvh(TINY, { positionChannels: 'xyz' as 'add' })).message).toMatch(/options\.positionChannels/);
  });

  it('never throws anything but AnimationError on any prefix of a file, or with any one character deleted', () => {
    for (let cut = 0; cut <= TINY.length; cut++) {
      for (const text of [TINY.slice(0, cut), TINY.slice(0, cut) + TINY.slice(cut + 1)]) {
        try {
          parseBvh(text);
        } catch (error) {
          expect(error, JSON.stringify(text)).toBeInstanceOf(Error);
          expect((error as Error).name, JSON.stringify(text)).toBe('AnimationError');
        }
      }
    }
  });

  it('40 000 nested joints end in an AnimationError (joint limit), not a stack overflow', () => {
    const depth = 40_000;
    let n = 0;
    const text = `HIERARCHY\n${'JOINT j {\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n'.repeat(depth).replace(/JOINT j/g, () => (n++ === 0 ? 'ROOT r' : `JOINT j${n}`))}`;
    expect(refused(() => parseBvh(text)).message).toMatch(/at most 32767 joints are supported/);
  });

  // Linear: ~0.1 s here. A quadratic scan of 2,000,000 values (~10^12 steps) would run for
  // hours, so the test's timeout — not a timed assertion, which a busy machine can fail — is the check.
  it('stays linear on a pathological 4 MB data line', () => {
    const text = `${TINY.slice(0, TINY.indexOf('1 2 3'))}${'1 '.repeat(2_000_000)}\n`;
    expect(refused(() => parseBvh(text)).message).toMatch(/has 2000000 values, expected 9/);
  }, 20_000);
});
