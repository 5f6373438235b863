/**
 * glTF import: the facts of the shared assets README for Fox.glb and RobotExpressive.glb,
 * resampling against hand-derived values, the parent-not-in-skin policy, and bad input.
 * Tiny documents are built with @gltf-transform's Document API and written with WebIO.
 */
import { readFileSync } from 'node:fs';
import { Document, WebIO, type Accessor, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { AnimationError, type Clip, type Skeleton } from '../../src/index.js';
import { computeModelPose, quat } from '../../src/kernels.js';
import { loadGltf, type GltfResult } from '../../src/import/gltf.js';
import { assetPath } from '../support/assets.js';

const asset = (name: string) => new Uint8Array(readFileSync(assetPath(name)));
const FOX = asset('Fox.glb');
const ROBOT = asset('RobotExpressive.glb');

/** Awaits `promise`, expects an AnimationError from loadGltf, and returns it. */
async function refused(promise: Promise<unknown>): Promise<AnimationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).where).toBe('loadGltf');
    return error as AnimationError;
  }
  throw new Error('expected an AnimationError');
}

// ---- GLB / JSON plumbing for derived variants (never written to disk) ----------------------

/** A GLB's JSON (loosely typed: tests edit it freely) and its BIN chunk. */
interface Glb { json: any; bin: Uint8Array }

function splitGlb(bytes: Uint8Array): Glb {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const binLength = view.getUint32(20 + jsonLength, true);
  return { json, bin: bytes.subarray(28 + jsonLength, 28 + jsonLength + binLength) };
}

/** A GLB from JSON (object or text, e.g. with `1e999` spliced in) and an optional BIN chunk. */
function packGlb(json: unknown, bin: Uint8Array | null): Uint8Array {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  const raw = new TextEncoder().encode(text);
  const jsonChunk = new Uint8Array(Math.ceil(raw.length / 4) * 4).fill(0x20);
  jsonChunk.set(raw);
  const binChunk = bin ? new Uint8Array(Math.ceil(bin.length / 4) * 4) : null;
  binChunk?.set(bin!);
  const total = 12 + 8 + jsonChunk.length + (binChunk ? 8 + binChunk.length : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonChunk, 20);
  if (binChunk) {
    const at = 20 + jsonChunk.length;
    view.setUint32(at, binChunk.length, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(binChunk, at + 8);
  }
  return out;
}

/** A `.gltf` JSON text of `doc` with every buffer embedded as a base64 data: URI. */
async function gltfJson(doc: Document): Promise<unknown> {
  const { json, resources } = await new WebIO().writeJSON(doc);
  for (const buffer of json.buffers ?? []) {
    buffer.uri = `data:application/octet-stream;base64,${Buffer.from(resources[buffer.uri!]!).toString('base64')}`;
  }
  return json;
}

const utf8 = (json: unknown) => new TextEncoder().encode(typeof json === 'string' ? json : JSON.stringify(json));

// ---- Small math helpers ---------------------------------------------------------------------

/** Frame `f`, joint `j`, channel offset `c` of a clip. */
const at = (clip: Clip, f: number, j: number, c = 0) => clip.frames[(f * clip.skeleton.jointCount + j) * 10 + c]!;
const pose = (clip: Clip, f: number, j: number) => Array.from(clip.frames.subarray((f * clip.skeleton.jointCount + j) * 10, (f * clip.skeleton.jointCount + j + 1) * 10));

/** Model matrices (J×12) of a J×10 pose through the runtime's own local→model kernel. */
function modelOf(skeleton: Skeleton, local: Float32Array): Float32Array {
  const model = new Float32Array(skeleton.jointCount * 12);
  computeModelPose(model, 0, local, 0, skeleton.parents, skeleton.jointCount);
  return model;
}

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, label = ''): void {
  expect(actual.length, label).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    if (!(Math.abs(actual[i]! - expected[i]!) <= tolerance)) {
      throw new Error(`${label}[${i}]: ${actual[i]} is not within ${tolerance} of ${expected[i]} (actual ${Array.from(actual).join(', ')})`);
    }
  }
}

/** q and −q are the same rotation. */
function expectSameRotation(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance: number, label = ''): void {
  const dot = actual[0]! * expected[0]! + actual[1]! * expected[1]! + actual[2]! * expected[2]! + actual[3]! * expected[3]!;
  const sign = dot < 0 ? -1 : 1;
  expectClose(Array.from(actual, (v) => v * sign), expected, tolerance, label);
}

const axisAngle = (x: number, y: number, z: number, angle: number): [number, number, number, number] => {
  const s = Math.sin(angle / 2);
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
};

// ---- README facts ---------------------------------------------------------------------------

const FOX_JOINTS = `_rootJoint, b_Root_00, b_Hip_01, b_Spine01_02, b_Spine02_03, b_Neck_04, b_Head_05,
  b_RightUpperArm_06, b_RightForeArm_07, b_RightHand_08, b_LeftUpperArm_09, b_LeftForeArm_010,
  b_LeftHand_011, b_Tail01_012, b_Tail02_013, b_Tail03_014, b_LeftLeg01_015, b_LeftLeg02_016,
  b_LeftFoot01_017, b_LeftFoot02_018, b_RightLeg01_019, b_RightLeg02_020, b_RightFoot01_021,
  b_RightFoot02_022`.split(/,\s*/);

/**
 * The README lists RobotExpressive's joints as three.js names them: dots removed
 * (`PropertyBinding.sanitizeNodeName`) and `Torso_1` because three already named the rigid
 * mesh node "Torso". bitanim keeps node names and needs them unique only among joints.
 */
const ROBOT_JOINTS_README = `Bone, FootL, Body, Hips, Abdomen, Torso_1, Neck, Head, ShoulderL, UpperArmL,
  LowerArmL, Palm2L, Middle1L, Middle2L, ThumbL, Thumb2L, Palm1L, IndexL, Index2L,
  Palm3L, Ring1L, Ring2L, ShoulderR, UpperArmR, LowerArmR, Palm2R, Middle1R, Middle2R,
  ThumbR, Thumb2R, Palm1R, IndexR, Index2R, Palm3R, Ring1R, Ring2R, UpperLegL,
  LowerLegL, UpperLegR, LowerLegR, PoleTargetL, FootR, PoleTargetR`.split(/,\s*/);
const ROBOT_JOINTS = ROBOT_JOINTS_README.map((n) => (n === 'Torso_1' ? 'Torso' : n.replace(/([LR])$/, '.$1')));

const FOX_CLIPS = [
  { name: 'Survey', duration: 3.41667, keys: 83 },
  { name: 'Walk', duration: 0.70833, keys: 18 },
  { name: 'Run', duration: 1.15833, keys: 25 },
];

/** name, duration, keys, channels (rotation / translation / weights). */
const ROBOT_CLIPS: Array<[string, number, number, number, number, number]> = [
  ['Idle', 3.33333, 81, 5, 1, 1], ['Walking', 0.95833, 24, 14, 5, 1], ['Running', 0.95833, 24, 14, 3, 1],
  ['Dance', 3.33333, 81, 10, 1, 1], ['Death', 0.95833, 24, 11, 6, 1], ['Jump', 0.70833, 18, 13, 4, 1],
  ['No', 1.66667, 41, 5, 1, 1], ['Punch', 0.83333, 21, 11, 3, 1], ['Sitting', 0.41667, 11, 8, 1, 1],
  ['Standing', 0.41667, 11, 8, 1, 1], ['ThumbsUp', 1.58333, 39, 13, 1, 1], ['WalkJump', 0.83333, 21, 14, 3, 1],
  ['Wave', 1.83333, 45, 16, 1, 1], ['Yes', 1.66667, 41, 5, 1, 1],
];

function clipNamed(result: GltfResult, name: string): Clip {
  const clip = result.clips.find((c) => c.name === name);
  if (!clip) throw new Error(`no clip "${name}"`);
  return clip;
}

/** Rest palette `model(rest) × inverseBind` of a skeleton. */
function restPalette(skeleton: Skeleton): Float64Array {
  const model = modelOf(skeleton, skeleton.rest);
  const out = new Float64Array(skeleton.jointCount * 12);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const a = model.subarray(j * 12, j * 12 + 12), b = skeleton.inverseBind.subarray(j * 12, j * 12 + 12);
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 4; c++) {
        let v = c === 3 ? a[9 + r]! : 0;
        for (let k = 0; k < 3; k++) v += a[k * 3 + r]! * b[c * 3 + k]!;
        out[j * 12 + c * 3 + r] = v;
      }
    }
  }
  return out;
}

describe('loadGltf: Fox.glb (README facts)', async () => {
  const fox = await loadGltf(FOX, { frameRate: 24 });
  const skeleton = fox.skeletons[0]!;

  it('has one skeleton of the 24 listed joints, parents first, with the rate and units warnings', () => {
    expect(fox.skeletons).toHaveLength(1);
    expect(skeleton.jointCount).toBe(24);
    expect(new Set(skeleton.names)).toEqual(new Set(FOX_JOINTS));
    skeleton.parents.forEach((p, j) => expect(p).toBeLessThan(j));
    expect(skeleton.names[0]).toBe('_rootJoint'); // skin.skeleton
    expect(skeleton.names[skeleton.hipJoint]).toBe('b_Hip_01'); // createSkeleton's default finds it
    // At a forced 24 fps, Walk's slerped key intervals (nlerp between frames) and Run's
    // off-grid keys are more than 0.1 mm off: one warning each (file units taken as metres);
    // then the figure, 79 units tall, is too large for metres (test/import/figureHeight.test.ts).
    expect(fox.warnings).toHaveLength(3);
    expect(fox.warnings[2]).toMatch(/^units: the rest figure \(its skinned meshes\) is 79 m tall read as metres \(glTF's unit\), too large .* likely in 'cm' \(0\.79 m\)/);
    expect(fox.warnings[0]).toMatch(/^animation "Walk" \(animations\[1\]\): at the given frameRate \(24 fps\) its frames are up to [\d.]+ mm off the file's keys, more than 0\.1 mm; without frameRate the importer picks a rate within it$/);
    expect(fox.warnings[1]).toMatch(/^animation "Run" \(animations\[2\]\): at the given frameRate \(24\.173 fps\)/);
  });

  it('its inverse bind matrices match the rest pose: model × inverseBind is the identity at rest', () => {
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
    const palette = restPalette(skeleton);
    // The fox is ~155 units long: 1e-3 units is a hundredth of a millimetre.
    for (let j = 0; j < 24; j++) expectClose(palette.subarray(j * 12, j * 12 + 12), identity, 1e-3, skeleton.names[j]);
  });

  it('has Survey, Walk and Run with the README durations; at 24 fps the frame counts are the key counts (Run: round(D × 24) + 1)', () => {
    expect(fox.clips.map((c) => c.name)).toEqual(FOX_CLIPS.map((c) => c.name));
    for (const { name, duration, keys } of FOX_CLIPS) {
      const clip = clipNamed(fox, name);
      expect(clip.skeleton).toBe(skeleton);
      expect(clip.loop).toBe(true);
      expect(Math.abs(clip.duration - duration), name).toBeLessThan(1e-4);
      const frames = Math.round(clip.duration * 24) + 1;
      expect(clip.frameCount, name).toBe(frames);
      // Uniform keys: one frame per key. Run's 25 keys have a 0.2 s gap, so it gets 29 frames.
      if (name !== 'Run') expect(clip.frameCount).toBe(keys);
    }
    expect(clipNamed(fox, 'Run').frameCount).toBe(29);
  });

  it('loops in place: the hip translation is the same at the first and last frame', () => {
    const hip = skeleton.names.indexOf('b_Hip_01');
    for (const clip of fox.clips) {
      expectClose(pose(clip, clip.frameCount - 1, hip).slice(0, 3), pose(clip, 0, hip).slice(0, 3), 1e-4, clip.name);
    }
  });

  it('has one skinned primitive "fox1#0": 1,728 vertices, no normals, not indexed, weights summing to 1', () => {
    expect(fox.meshes).toHaveLength(1);
    const mesh = fox.meshes[0]!;
    expect(mesh.name).toBe('fox1#0');
    expect(mesh.skeleton).toBe(0);
    expect(mesh.positions.length).toBe(1728 * 3);
    expect(mesh.normals).toBeNull();
    expect(mesh.indices).toBeNull();
    expect(mesh.joints.length).toBe(1728 * 4);
    for (let v = 0; v < 1728; v++) {
      const w = mesh.weights;
      expect(Math.abs(w[v * 4]! + w[v * 4 + 1]! + w[v * 4 + 2]! + w[v * 4 + 3]! - 1)).toBeLessThan(1e-6);
      for (let i = 0; i < 4; i++) expect(mesh.joints[v * 4 + i]).toBeLessThan(24);
    }
  });
});

describe('loadGltf: RobotExpressive.glb (README facts)', async () => {
  const robot = await loadGltf(ROBOT, { frameRate: 24 });
  const skeleton = robot.skeletons[0]!;
  const raw = await new WebIO().readBinary(ROBOT);

  it('has ONE skeleton for its two skins: the 43 listed joints under their node names (with the dot)', () => {
    expect(raw.getRoot().listSkins()).toHaveLength(2);
    expect(robot.skeletons).toHaveLength(1);
    expect(skeleton.jointCount).toBe(43);
    expect(new Set(skeleton.names)).toEqual(new Set(ROBOT_JOINTS));
    expect(skeleton.names).toContain('Foot.L');
    expect(skeleton.names).toContain('PoleTarget.L');
    // three.js's names are ours with dots removed, "Torso" clashing with the rigid mesh node.
    expect(skeleton.names.map((n) => (n === 'Torso' ? 'Torso_1' : n.replace('.', '')))).toEqual(ROBOT_JOINTS_README);
    expect(skeleton.names[0]).toBe('Bone'); // skin.skeleton
    expect(skeleton.parents[0]).toBe(-1);
    skeleton.parents.forEach((p, j) => expect(p).toBeLessThan(j));
  });

  it('has the 14 clips with the README durations, and frame counts equal to the key counts at 24 fps', () => {
    expect(robot.clips.map((c) => c.name).sort()).toEqual(ROBOT_CLIPS.map((c) => c[0]).sort());
    for (const [name, duration, keys] of ROBOT_CLIPS) {
      const clip = clipNamed(robot, name);
      expect(clip.skeleton).toBe(skeleton);
      expect(Math.abs(clip.duration - duration), name).toBeLessThan(1e-4);
      expect(clip.frameCount, name).toBe(keys);
      expect(Math.abs(clip.frameRate - 24), name).toBeLessThan(1e-3);
    }
  });

  it('turns each animation\'s morph-target "weights" channel into the Head\'s three curves (no warning); the README channel counts hold', () => {
    expect(robot.warnings.filter((w) => /"weights"/.test(w))).toEqual([]);
    expect(skeleton.curves.map((c) => c.name)).toEqual(['Head.Angry', 'Head.Surprised', 'Head.Sad']);
    for (const [name, , , rotations, translations, weights] of ROBOT_CLIPS) {
      const clip = robot.clips.find((c) => c.name === name)!;
      expect(clip.curves.map((c) => c.name), name).toEqual(['Head.Angry', 'Head.Surprised', 'Head.Sad']);
      for (const curve of clip.curves) {
        expect(curve.values.length).toBe(clip.frameCount);
        expect(curve.values.every((v) => v === 0), `${name} ${curve.name}: the file keeps every weight at 0`).toBe(true);
      }
      const animation = raw.getRoot().listAnimations().find((a) => a.getName() === name)!;
      const count = (path: string) => animation.listChannels().filter((c) => c.getTargetPath() === path).length;
      expect([count('rotation'), count('translation'), count('weights')], name).toEqual([rotations, translations, weights]);
    }
  });

  it('joints a clip leaves out keep their rest pose; animated ones hit the keys at key times', () => {
    const names = new Map(raw.getRoot().listNodes().map((n) => [n, n.getName()]));
    for (const clip of robot.clips) {
      const animation = raw.getRoot().listAnimations().find((a) => a.getName() === clip.name)!;
      const animated = new Set(animation.listChannels().filter((c) => c.getTargetPath() !== 'weights').map((c) => names.get(c.getTargetNode()!)));
      expect(animated.size).toBeLessThan(43); // a subset
      for (let j = 0; j < 43; j++) {
        if (animated.has(skeleton.names[j])) continue;
        for (let f = 0; f < clip.frameCount; f += 7) expectClose(pose(clip, f, j), skeleton.rest.subarray(j * 10, j * 10 + 10), 1e-6, `${clip.name} ${skeleton.names[j]}`);
      }
    }
    // Walking: every rotation channel of a joint without non-joint nodes above it (all but the
    // root "Bone"): frame f is key f (keys and frames are both 1/24 s apart).
    const walking = raw.getRoot().listAnimations().find((a) => a.getName() === 'Walking')!;
    const clip = clipNamed(robot, 'Walking');
    let checked = 0;
    for (const channel of walking.listChannels()) {
      const name = channel.getTargetNode()!.getName();
      if (channel.getTargetPath() !== 'rotation' || name === 'Bone') continue;
      const joint = skeleton.names.indexOf(name);
      const output = channel.getSampler()!.getOutput()!;
      for (let f = 0; f < clip.frameCount; f++) {
        expectSameRotation(pose(clip, f, joint).slice(3, 7), output.getElement(f, [] as number[]), 2e-5, `Walking ${name} frame ${f}`);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(13);
  });

  it('skins the two hand meshes (two primitives each; their weights, up to 1.07 in the file, now sum to 1) and binds the 15 rigid primitives to their joints', () => {
    expect(robot.meshes.filter((m) => m.rigidJoint < 0).map((m) => m.name)).toEqual(['Hand.R#0', 'Hand.R#1', 'Hand.L#0', 'Hand.L#1']);
    expect(robot.meshes).toHaveLength(19);
    expect(robot.meshes.reduce((n, m) => n + m.positions.length / 3, 0)).toBe(7214);
    for (const mesh of robot.meshes.filter((m) => m.rigidJoint >= 0)) {
      // A rigid mesh is named after its node, which sits under the joint of the same name (Arm.L under UpperArm.L).
      const node = raw.getRoot().listNodes().find((n) => n.getMesh()?.getName() === mesh.name.split('#')[0])!;
      expect(node.getParentNode()?.getName(), mesh.name).toBe(skeleton.names[mesh.rigidJoint]);
      for (let v = 0; v < mesh.weights.length / 4; v++) {
        expect([mesh.joints[v * 4], mesh.weights[v * 4]]).toEqual([mesh.rigidJoint, 1]);
      }
    }
    let rawMax = 0;
    for (const node of raw.getRoot().listNodes()) {
      const weights = node.getSkin() ? node.getMesh()?.listPrimitives().map((p) => p.getAttribute('WEIGHTS_0')!) ?? [] : [];
      for (const accessor of weights) {
        for (let v = 0; v < accessor.getCount(); v++) rawMax = Math.max(rawMax, accessor.getElement(v, [] as number[]).reduce((a, b) => a + b, 0));
      }
    }
    expect(rawMax).toBeGreaterThan(1.05);
    for (const mesh of robot.meshes) {
      expect(mesh.skeleton).toBe(0);
      expect(mesh.normals?.length).toBe(mesh.positions.length);
      expect(mesh.indices!.length % 3).toBe(0);
      for (let v = 0; v < mesh.weights.length / 4; v++) {
        const w = mesh.weights;
        expect(Math.abs(w[v * 4]! + w[v * 4 + 1]! + w[v * 4 + 2]! + w[v * 4 + 3]! - 1)).toBeLessThan(1e-6);
      }
    }
  });
});

// ---- Tiny documents --------------------------------------------------------------------------

function newDoc() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type: 'SCALAR' | 'VEC3' | 'VEC4', array: Float32Array | Uint8Array | Uint16Array): Accessor =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene();
  return { doc, accessor, scene };
}

type Tiny = ReturnType<typeof newDoc>;

function addChannel(
  t: Tiny, animation: ReturnType<Document['createAnimation']>, node: Node, path: 'translation' | 'rotation' | 'scale',
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE', times: number[], values: number[],
): void {
  const sampler = t.doc.createAnimationSampler()
    .setInput(t.accessor('SCALAR', new Float32Array(times)))
    .setOutput(t.accessor(path === 'rotation' ? 'VEC4' : 'VEC3', new Float32Array(values)))
    .setInterpolation(interpolation);
  animation.addSampler(sampler).addChannel(t.doc.createAnimationChannel().setSampler(sampler).setTargetNode(node).setTargetPath(path));
}

/** Two joints j0 → j1, a skinned triangle, and one animation with LINEAR, STEP and CUBICSPLINE channels. */
function resamplingDoc(joints = [0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) {
  const t = newDoc();
  const j0 = t.doc.createNode('j0');
  const j1 = t.doc.createNode('j1').setTranslation([0, 1, 0]);
  j0.addChild(j1);
  t.scene.addChild(j0);
  const skin = t.doc.createSkin().addJoint(j0).addJoint(j1);
  const primitive = t.doc.createPrimitive()
    .setAttribute('POSITION', t.accessor('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute('JOINTS_0', t.accessor('VEC4', new Uint8Array(joints)))
    .setAttribute('WEIGHTS_0', t.accessor('VEC4', new Uint8Array([128, 64, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0])).setNormalized(true));
  t.scene.addChild(t.doc.createNode('body').setMesh(t.doc.createMesh('tri').addPrimitive(primitive)).setSkin(skin));
  const anim = t.doc.createAnimation('test');
  const S = Math.SQRT1_2;
  addChannel(t, anim, j0, 'translation', 'LINEAR', [0, 2], [0, 0, 0, 4, -2, 8]);
  addChannel(t, anim, j0, 'rotation', 'STEP', [0, 1.2], [0, 0, 0, 1, 0, S, 0, S]);
  // CUBICSPLINE keys: in-tangent a, value v, out-tangent b.
  addChannel(t, anim, j0, 'scale', 'CUBICSPLINE', [0, 2], [0, 0, 0, 1, 1, 1, 1, 0, 0, /**/ 0, 1, 0, 3, 3, 3, 0, 0, 0]);
  addChannel(t, anim, j1, 'rotation', 'LINEAR', [0, 2], [0, 0, 0, 1, 0, 0, S, S]);
  return t;
}

describe('loadGltf: resampling (hand-derived values)', () => {
  it('resamples LINEAR (lerp / slerp), STEP and CUBICSPLINE channels at the frame times', async () => {
    const { clips, skeletons, warnings } = await loadGltf(await new WebIO().writeBinary(resamplingDoc().doc), { frameRate: 2 });
    expect(skeletons[0]!.names).toEqual(['j0', 'j1']);
    const clip = clips[0]!;
    expect(clip.name).toBe('test');
    expect(clip.loop).toBe(true);
    expect([clip.frameCount, clip.frameRate, clip.duration]).toEqual([5, 2, 2]); // D = 2 s, 4 intervals
    // translation: lerp (0,0,0) → (4,−2,8) over [0, 2]
    expectClose(pose(clip, 1, 0).slice(0, 3), [1, -0.5, 2], 1e-6, 'T at 0.5 s');
    expectClose(pose(clip, 3, 0).slice(0, 3), [3, -1.5, 6], 1e-6, 'T at 1.5 s');
    // rotation: STEP, the key at 1.2 s takes over after it
    expectClose(pose(clip, 2, 0).slice(3, 7), [0, 0, 0, 1], 1e-6, 'R at 1.0 s');
    expectClose(pose(clip, 3, 0).slice(3, 7), [0, Math.SQRT1_2, 0, Math.SQRT1_2], 1e-6, 'R at 1.5 s');
    // scale: Hermite with Δ = 2. At s = ½: h00 = ½, h10 = ⅛, h01 = ½, h11 = −⅛, so
    // x = ½·1 + ⅛·2·1 + ½·3 = 2.25, y = ½ + 1.5 − ⅛·2·1 = 1.75, z = 2.
    expectClose(pose(clip, 2, 0).slice(7, 10), [2.25, 1.75, 2], 1e-6, 'S at 1.0 s');
    // At s = ¼: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = −0.046875.
    expectClose(pose(clip, 1, 0).slice(7, 10), [0.84375 + 0.28125 + 0.46875, 1.3125 - 0.09375, 1.3125], 1e-6, 'S at 0.5 s');
    // j1: slerp from identity to 90° about Z is constant-speed: 22.5° at 0.5 s (nlerp would give 22.98°)
    expectClose(pose(clip, 1, 1).slice(3, 7), axisAngle(0, 0, 1, Math.PI / 8), 1e-6, 'slerp at ¼');
    expectClose(pose(clip, 2, 1).slice(3, 7), axisAngle(0, 0, 1, Math.PI / 4), 1e-6, 'slerp at ½');
    // j1's translation is not animated: its rest value every frame
    for (let f = 0; f < 5; f++) expectClose(pose(clip, f, 1).slice(0, 3), [0, 1, 0], 0, `j1 T frame ${f}`);
    // the seam: the last frame is the last key exactly
    expectClose(pose(clip, 4, 0).slice(0, 3), [4, -2, 8], 0, 'last frame');
    expect(warnings[0]).toBe('meshes[0].primitives[0] ("tri#0"): 1 vertex had weights summing to 0 and got weight 1 on its first joint');
    // 2 fps cannot follow the STEP key at 1.2 s, nor the slerp of j1 by nlerp between frames.
    expect(warnings.slice(1)).toEqual([expect.stringMatching(/^animation "test" \(animations\[0\]\): at the given frameRate \(2 fps\) its frames are up to/)]);
  });

  it('keeps D exactly: rate = round(D × frameRate) / D; a single key gives one frame', async () => {
    const t = newDoc();
    const j = t.doc.createNode('j');
    t.scene.addChild(j);
    t.doc.createSkin().addJoint(j);
    addChannel(t, t.doc.createAnimation('d07'), j, 'translation', 'LINEAR', [0, 0.7], [0, 0, 0, 7, 0, 0]);
    addChannel(t, t.doc.createAnimation('still'), j, 'translation', 'LINEAR', [0.25], [1, 2, 3]);
    const { clips } = await loadGltf(await new WebIO().writeBinary(t.doc), { frameRate: 24 });
    const [d07, still] = clips as [Clip, Clip];
    const D = Math.fround(0.7);
    expect(d07.frameCount).toBe(18); // round(16.8) = 17 intervals
    expect(d07.frameRate).toBeCloseTo(17 / D, 9);
    expect(Math.abs(d07.duration - D)).toBeLessThan(1e-9);
    expect(at(d07, 17, 0)).toBe(7);
    expect(at(d07, 1, 0)).toBeCloseTo(7 / 17, 5);
    expect([still.frameCount, still.duration]).toEqual([1, 0]);
    expectClose(pose(still, 0, 0).slice(0, 3), [1, 2, 3], 0);
  });

  it('reads .gltf JSON with an embedded data: URI like the GLB, and normalized UNSIGNED_BYTE weights', async () => {
    const doc = resamplingDoc().doc;
    const fromGlb = await loadGltf(await new WebIO().writeBinary(doc), { frameRate: 2 });
    const fromJson = await loadGltf(utf8(await gltfJson(doc)), { frameRate: 2 });
    expect(fromJson.clips[0]!.frames).toEqual(fromGlb.clips[0]!.frames);
    const mesh = fromJson.meshes[0]!;
    expect(mesh.name).toBe('tri#0');
    expectClose(mesh.weights, [2 / 3, 1 / 3, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 1e-6);
    expect(Array.from(mesh.joints)).toEqual([0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('loadGltf: joints whose parent node is not in the skin', () => {
  /**
   * Armature (not a joint: T, R 90° about X, uniform S 2)
   *   A (joint)
   *     Mid (not a joint: T, R 45° about Y, uniform S 1.5)
   *       B (joint)
   *         C (joint)
   * The skin lists [C, B, A]; the skinned node has its own (ignored) transform.
   */
  function policyDoc(midScale: [number, number, number] = [1.5, 1.5, 1.5]) {
    const t = newDoc();
    const armature = t.doc.createNode('Armature').setTranslation([0, 0, 1]).setRotation(axisAngle(1, 0, 0, Math.PI / 2)).setScale([2, 2, 2]);
    const a = t.doc.createNode('A').setTranslation([1, 0, 0]).setRotation(axisAngle(0, 0, 1, Math.PI / 2));
    const mid = t.doc.createNode('Mid').setTranslation([0, 2, 0]).setRotation(axisAngle(0, 1, 0, Math.PI / 4)).setScale(midScale);
    const b = t.doc.createNode('B').setTranslation([0, 1, 0]).setRotation(axisAngle(0, 0, 1, Math.PI / 4));
    const c = t.doc.createNode('C').setTranslation([0, 0.5, 0]);
    armature.addChild(a);
    a.addChild(mid);
    mid.addChild(b);
    b.addChild(c);
    t.scene.addChild(armature);
    const skin = t.doc.createSkin().addJoint(c).addJoint(b).addJoint(a);
    const primitive = t.doc.createPrimitive()
      .setAttribute('POSITION', t.accessor('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
      .setAttribute('JOINTS_0', t.accessor('VEC4', new Uint16Array([0, 2, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0])))
      .setAttribute('WEIGHTS_0', t.accessor('VEC4', new Float32Array([0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
    const skinned = t.doc.createNode('skinned').setTranslation([5, 5, 5]).setMesh(t.doc.createMesh('m').addPrimitive(primitive)).setSkin(skin);
    t.scene.addChild(skinned);
    const anim = t.doc.createAnimation('wave');
    addChannel(t, anim, a, 'rotation', 'LINEAR', [0, 1], [...axisAngle(0, 0, 1, Math.PI / 2), ...axisAngle(0, 1, 0, Math.PI / 3)]);
    addChannel(t, anim, mid, 'translation', 'LINEAR', [0, 1], [0, 2, 0, 0, 3, 0]);
    addChannel(t, anim, armature, 'scale', 'LINEAR', [0, 1], [2, 2, 2, 3, 3, 3]);
    addChannel(t, anim, skinned, 'translation', 'LINEAR', [0, 1], [5, 5, 5, 6, 6, 6]);
    return { t, a, b, c };
  }

  function expectModelIsWorld(skeleton: Skeleton, local: Float32Array, nodes: Node[]): void {
    const model = modelOf(skeleton, local);
    nodes.forEach((node, j) => {
      const world = node.getWorldMatrix(); // column-major 4×4
      const expected = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14].map((i) => world[i]!);
      expectClose(model.subarray(j * 12, j * 12 + 12), expected, 1e-5, node.getName());
    });
  }

  it('parents each joint to its nearest joint ancestor and bakes the nodes in between: model space = glTF world space', async () => {
    const { t, a, b, c } = policyDoc();
    const { skeletons, meshes, clips, warnings } = await loadGltf(await new WebIO().writeBinary(t.doc), { frameRate: 2 });
    const skeleton = skeletons[0]!;
    expect(skeleton.names).toEqual(['A', 'B', 'C']); // sorted parents first from [C, B, A]
    expect(Array.from(skeleton.parents)).toEqual([-1, 0, 1]);
    expectModelIsWorld(skeleton, skeleton.rest, [a, b, c]);
    // no inverseBindMatrices: identity
    for (let j = 0; j < 3; j++) expectClose(skeleton.inverseBind.subarray(j * 12, j * 12 + 12), [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 0);
    // JOINTS_0 remapped from the skin's order [C, B, A] to the skeleton's [A, B, C]
    // (unused slots hold skin index 0 = C = skeleton joint 2)
    expect(Array.from(meshes[0]!.joints)).toEqual([2, 0, 2, 2, 1, 2, 2, 2, 0, 2, 2, 2]);

    // The clip: A's rotation is slerped; at every frame the model pose is the glTF world pose.
    const clip = clips[0]!;
    expect(clip.frameCount).toBe(3);
    const from = new Float64Array(axisAngle(0, 0, 1, Math.PI / 2)), to = new Float64Array(axisAngle(0, 1, 0, Math.PI / 3));
    for (let f = 0; f < 3; f++) {
      const q = new Float64Array(4);
      quat.slerp(q, 0, from, 0, to, 0, f / 2);
      a.setRotation([q[0]!, q[1]!, q[2]!, q[3]!]);
      expectModelIsWorld(skeleton, clip.frames.subarray(f * 30, f * 30 + 30), [a, b, c]);
    }
    // Channels on the baked ancestors and on other nodes are ignored, one line per kind.
    expect(warnings.filter((w) => /non-joint ancestors/.test(w) && w.includes('"Mid"') && w.includes('"Armature"'))).toHaveLength(1);
    expect(warnings.filter((w) => /not joints of skeleton 0/.test(w) && w.includes('"skinned"'))).toHaveLength(1);
    // …and 2 fps is forced on a 90°-to-60° slerp: one more line, for the resampling error.
    expect(warnings.filter((w) => /at the given frameRate \(2 fps\)/.test(w))).toHaveLength(1);
    expect(warnings).toHaveLength(3);
  });

  it('warns when a non-uniformly scaled node in between makes a shear that T·R·S cannot hold', async () => {
    const { t } = policyDoc([1, 3, 1]);
    const { warnings } = await loadGltf(await new WebIO().writeBinary(t.doc));
    expect(warnings.some((w) => /rest transforms of joints "B" have shear/.test(w))).toBe(true);
    expect(warnings.some((w) => /animation "wave".*"B".*shear/.test(w))).toBe(true);
  });

  it('shares a skeleton between skins with the same joints and inverse binds, and makes joint names unique', async () => {
    const t = newDoc();
    const r = t.doc.createNode('bone');
    const k = t.doc.createNode('bone');
    const e = t.doc.createNode('');
    r.addChild(k);
    k.addChild(e);
    t.scene.addChild(r);
    t.doc.createSkin().addJoint(r).addJoint(k).addJoint(e);
    t.doc.createSkin().addJoint(e).addJoint(k).addJoint(r);
    const { skeletons, warnings } = await loadGltf(await new WebIO().writeBinary(t.doc));
    expect(skeletons).toHaveLength(1);
    expect(skeletons[0]!.names).toEqual(['bone', 'bone_1', 'joint2']);
    expect(warnings.some((w) => /duplicate joint names made unique: "bone" \(node 1\) → "bone_1"/.test(w))).toBe(true);
  });
});

// ---- Bad input ---------------------------------------------------------------------------------

describe('loadGltf: malformed input is an AnimationError naming the fault', () => {
  const fox = () => structuredClone(splitGlb(FOX).json);
  const foxBin = splitGlb(FOX).bin;

  it('truncated GLB: header, chunk, and a header longer than the file', async () => {
    expect((await refused(loadGltf(FOX.slice(0, 10)))).message).toMatch(/GLB header is truncated/);
    expect((await refused(loadGltf(FOX.slice(0, 5000)))).message).toMatch(/file has only 5000 bytes: the file is truncated/);
    const chunkCut = FOX.slice(0, 5000);
    new DataView(chunkCut.buffer).setUint32(8, 5000, true);
    expect((await refused(loadGltf(chunkCut))).message).toMatch(/GLB chunk 0 \(byte 12\) declares \d+ bytes but only 4980 remain/);
  });

  it('wrong magic, and files that are not glTF JSON', async () => {
    const wrong = FOX.slice();
    wrong[3] = 0x58; // "glTX"
    expect((await refused(loadGltf(wrong))).message).toMatch(/neither GLB \(magic "glTF", found bytes 67 6c 54 58\)/);
    expect((await refused(loadGltf(utf8('[1, 2, 3]')))).message).toMatch(/neither GLB .* nor a glTF JSON object/);
    expect((await refused(loadGltf(utf8('{"hello": 1}')))).message).toMatch(/asset is missing: the JSON is not a glTF document/);
    expect((await refused(loadGltf(utf8('{"asset": {"version": "1.0"}}')))).message).toMatch(/asset\.version is "1\.0": only glTF 2\.x/);
    expect((await refused(loadGltf(utf8('{"asset": {"version": "2.0"}, ')))).message).toMatch(/file is not valid JSON/);
    expect((await refused(loadGltf(new Uint8Array(0)))).message).toMatch(/neither GLB/);
    const badJsonChunk = packGlb('{"asset": {"version": "2.0"}, "nodes": [', foxBin);
    expect((await refused(loadGltf(badJsonChunk))).message).toMatch(/GLB JSON chunk is not valid JSON/);
  });

  // No timed assertion: allocating for 2^31 elements would fail with another error (or exhaust
  // memory) before the message below; the test's timeout catches a hang.
  it('an accessor out of range of its buffer view, even with a huge count (checked before allocating)', async () => {
    const json = fox();
    json.accessors[0].count = 2 ** 31;
    expect((await refused(loadGltf(packGlb(json, foxBin)))).message).toMatch(/accessors\[0\] 2147483648 elements from byte 0 need \d+ bytes: out of range of bufferViews\[0\]/);
    const view = fox();
    view.bufferViews[0].byteLength = 10 ** 9;
    expect((await refused(loadGltf(packGlb(view, foxBin)))).message).toMatch(/bufferViews\[0\] bytes 0\.\.1000000000 are out of range of buffers\[0\]/);
  }, 20_000);

  it('a skin joint index out of range, and a JOINTS_0 index beyond the skin', async () => {
    const json = fox();
    json.skins[0].joints[3] = 999;
    expect((await refused(loadGltf(packGlb(json, foxBin)))).message).toMatch(/skins\[0\]\.joints\[3\] is 999: out of range of the 26 nodes/);
    const beyond = resamplingDoc([0, 1, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]).doc;
    expect((await refused(loadGltf(await new WebIO().writeBinary(beyond)))).message).toMatch(/meshes\[0\]\.primitives\[0\]\.attributes\.JOINTS_0\[1\]\[0\] is 5: the skin has 2 joints/);
  });

  it('non-finite numbers in node transforms and in animation keys', async () => {
    const json = fox();
    json.nodes[4].translation[1] = 'INFINITY';
    const text = JSON.stringify(json).replace('"INFINITY"', '1e999');
    expect((await refused(loadGltf(packGlb(text, foxBin)))).message).toMatch(/nodes\[4\] "b_Hip_01"\.translation\[1\] is Infinity: not a finite number/);

    // NaN in Survey's second key time, written into a copy of the binary chunk
    const input = json.accessors[json.animations[0].samplers[0].input];
    const view = json.bufferViews[input.bufferView];
    const bin = foxBin.slice();
    new DataView(bin.buffer).setFloat32((view.byteOffset ?? 0) + (input.byteOffset ?? 0) + 4, Number.NaN, true);
    expect((await refused(loadGltf(packGlb(fox(), bin)))).message).toMatch(/animations\[0\]\.samplers\[0\]\.input\[1\] is NaN: key times must be finite/);

    // Infinity in a rotation key value
    const output = json.accessors[json.animations[0].samplers[0].output];
    const values = foxBin.slice();
    new DataView(values.buffer).setFloat32((json.bufferViews[output.bufferView].byteOffset ?? 0) + (output.byteOffset ?? 0), Number.POSITIVE_INFINITY, true);
    expect((await refused(loadGltf(packGlb(fox(), values)))).message).toMatch(/animations\[0\]\.channels\[0\] \("b_Head_05"\.rotation\) sampler\.output\[0\]\[0\] is Infinity/);
  });

  it('external URIs (GLB and .gltf), unsupported required extensions, cycles, bad options', async () => {
    const json = fox();
    json.buffers[0].uri = 'Fox.bin';
    expect((await refused(loadGltf(packGlb(json, null)))).message).toMatch(/buffers\[0\]\.uri "Fox\.bin" is an external resource: not supported/);
    const { json: external } = await new WebIO().writeJSON(resamplingDoc().doc);
    expect((await refused(loadGltf(utf8(external)))).message).toMatch(/"buffer\.bin" is an external resource/);

    const draco = fox();
    draco.extensionsRequired = ['KHR_draco_mesh_compression'];
    expect((await refused(loadGltf(packGlb(draco, foxBin)))).message).toMatch(/"KHR_draco_mesh_compression" is required by the file but not supported/);

    const cycle = fox();
    cycle.nodes[25].children = [2];
    cycle.nodes[0].children = [];
    expect((await refused(loadGltf(packGlb(cycle, foxBin)))).message).toMatch(/cycle/);

    for (const frameRate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect((await refused(loadGltf(FOX, { frameRate }))).message).toMatch(/options\.frameRate/);
    }
  });

  it('random byte mutations of both files give a result or an AnimationError, never another exception', async () => {
    let seed = 20261122;
    const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    for (let run = 0; run < 160; run++) {
      const source = run % 2 ? ROBOT : FOX;
      const near = random() < 0.5;
      const pos = Math.floor(random() * (near ? 4096 : source.length));
      const bytes = random() < 0.2 ? source.slice(0, pos) : source.slice();
      if (bytes.length === source.length) for (let k = 0; k < 4 && pos + k < bytes.length; k++) bytes[pos + k] = Math.floor(random() * 256);
      try {
        const result = await loadGltf(bytes);
        for (const clip of result.clips) expect(clip.frames.every(Number.isFinite)).toBe(true);
      } catch (error) {
        if (!(error instanceof AnimationError)) throw new Error(`run ${run}: ${String(error)}`);
      }
    }
  });
});
