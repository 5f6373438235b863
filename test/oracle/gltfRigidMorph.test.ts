/**
 * glTF oracle for the whole RobotExpressive: its 15 rigid primitives (meshes on nodes under
 * joints, no skin) and 4 skinned ones (the hands), and the Head's three morph targets, each
 * imported by bitanim (`loadGltf`) and by three.js (`GLTFLoader` + `AnimationMixer`, same
 * bytes, in Node — see `gltfThree.ts`), and every vertex of every primitive compared in glTF
 * world space (= bitanim model space):
 *
 * - bitanim: one character, `play(clip, { time, speed: 0 })`, `step(world, 0)`, the clip's
 *   curves sampled at the time (`sampleCurvesInto`) and handed to each primitive's morph targets
 *   by name, then `skinVertices(palette, positions, joints, weights, out, morphTargets, morphWeights)`.
 *   A rigid primitive is bound to its joint with weight 1, its node transforms folded into its
 *   bind positions, so it goes through the same kernel.
 * - three: `Mesh.getVertexPosition` (morph targets by `morphTargetInfluences`, then for a
 *   `SkinnedMesh` its bone transform), then `matrixWorld`: for a rigid mesh the world matrix of
 *   its node under the posed bones, for a skinned one the attached bind mode (see
 *   `gltfSkinning.test.ts` on why that is the glTF spec's quantity).
 *
 * Primitives are paired through three's `parser.associations` (mesh and primitive index) and
 * vertex i with vertex i (three keeps a primitive's vertex order).
 *
 * **Bound: 0.5 mm = 0.0005 units.** The file is in metres (glTF's unit) and the robot is about
 * 4.6 units tall, so this is the spec's "0.5 mm" read in the file's own units, the stricter
 * reading (on a 1.8 m human scale it would be 0.5 mm × 4.6 / 1.8). Times as in
 * `gltfSkinning.test.ts`: 0, the middle of the middle key interval, ¾ into the last one; at
 * 24 fps every key of the robot's clips is a frame, so both runtimes define the same pose.
 *
 * **Morph weights.** The robot's own clips keep every weight at 0, so a copy is made here with
 * @gltf-transform: the Wave animation's `weights` sampler gets non-zero values (three smooth
 * waves in [0, 1], one per target, on the sampler's own key times); its curves must equal
 * three's `morphTargetInfluences` within 1e-2 at several times — keys and between keys —
 * and its vertices, the Head's moved by the targets, three's within the same 0.5 mm.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { Accessor, NodeIO } from '@gltf-transform/core';
import { curveIndex, getSkinPalette, play, spawnCharacter, step, type AnimationWorld, type Clip } from '../../src/index.js';
import { sampleCurvesInto, skinVertices } from '../../src/kernels.js';
import { loadGltf, type GltfResult, type SkinnedMeshData } from '../../src/import/gltf.js';
import { keyTimes, parseWithThree, poseThree, readAsset, type ThreeGltf } from './gltfThree.js';
import { oracleWorld } from './harness.js';

/** 0.5 mm in the file's units (metres). */
const BOUND = 0.0005;
/** Curves against three's influences. */
const CURVE_BOUND = 1e-2;
const FRAME_RATE = 24;
const ROBOT_CLIPS = ['Dance', 'Death', 'Idle', 'Jump', 'No', 'Punch', 'Running', 'Sitting', 'Standing', 'ThumbsUp', 'Walking', 'WalkJump', 'Wave', 'Yes'];

interface Pair {
  readonly ours: SkinnedMeshData;
  readonly three: THREE.Mesh;
}

/** Both imports of one file, and one character playing it. */
interface Setup {
  readonly ours: GltfResult;
  readonly three: ThreeGltf;
  readonly pairs: Pair[];
  readonly world: AnimationWorld;
  readonly eid: number;
}

async function setup(bytes: Uint8Array): Promise<Setup> {
  const [ours, three] = await Promise.all([loadGltf(bytes, { frameRate: FRAME_RATE }), parseWithThree(bytes)]);
  const json = three.gltf.parser.json as { meshes: { name?: string }[] };
  const byKey = new Map<string, THREE.Mesh>();
  three.gltf.scene.traverse((object) => {
    const mapping = three.gltf.parser.associations.get(object) as { meshes?: number; primitives?: number } | undefined;
    if ((object as THREE.Mesh).isMesh && mapping?.meshes !== undefined && mapping.primitives !== undefined) {
      byKey.set(`${json.meshes[mapping.meshes]!.name}#${mapping.primitives}`, object as THREE.Mesh);
    }
  });
  const pairs = ours.meshes.map((mesh) => {
    const match = byKey.get(mesh.name);
    if (!match) throw new Error(`three has no primitive "${mesh.name}"`);
    return { ours: mesh, three: match };
  });
  const world = oracleWorld(1, ours.skeletons[0]!.jointCount, 'js');
  const eid = spawnCharacter(world, ours.skeletons[0]!);
  return { ours, three, pairs, world, eid };
}

/** three's world position of every vertex of `mesh`, morphs and bones applied. */
function threeVertices(mesh: THREE.Mesh, out: Float32Array): void {
  const count = mesh.geometry.getAttribute('position').count;
  const v = new THREE.Vector3();
  for (let i = 0; i < count; i++) {
    mesh.getVertexPosition(i, v); // SkinnedMesh: morphs, then applyBoneTransform
    v.applyMatrix4(mesh.matrixWorld);
    out[3 * i] = v.x;
    out[3 * i + 1] = v.y;
    out[3 * i + 2] = v.z;
  }
}

interface Measured {
  /** Largest vertex distance, units, and where. */
  readonly max: number;
  readonly where: string;
  /** Largest |curve − three's influence|. */
  readonly curve: number;
  /** Largest distance a Head vertex is moved by its morph targets (three's side). */
  readonly morphMotion: number;
}

/** Poses both at `time` of the clip `name` and compares every vertex (and the Head's curves). */
function measure(s: Setup, name: string, time: number): Measured {
  const clip = s.ours.clips.find((c) => c.name === name)!;
  const threeClip = s.three.gltf.animations.find((a) => a.name === name)!;
  poseThree(s.three, threeClip, time);
  play(s.world, s.eid, clip, { time, speed: 0 });
  step(s.world, 0);
  const palette = getSkinPalette(s.world, s.eid);
  const curves = new Float32Array(clip.curves.length);
  sampleCurvesInto(curves, 0, clip, Float64Array.of(time), 0);
  let max = -1, where = '', curve = 0, morphMotion = 0;
  for (const { ours, three } of s.pairs) {
    const morphWeights = new Float32Array(ours.morphTargets.length);
    ours.morphTargets.forEach((target, k) => {
      const c = curveIndex(clip, target.name);
      morphWeights[k] = c >= 0 ? curves[c]! : s.ours.skeletons[0]!.curves[curveIndex(s.ours.skeletons[0]!, target.name)]!.default;
      curve = Math.max(curve, Math.abs(morphWeights[k]! - three.morphTargetInfluences![k]!));
    });
    const mine = new Float32Array(ours.positions.length);
    const theirs = new Float32Array(ours.positions.length);
    skinVertices(palette, ours.positions, ours.joints, ours.weights, mine, ours.morphTargets, morphWeights);
    threeVertices(three, theirs);
    for (let v = 0; v < theirs.length / 3; v++) {
      const d = Math.hypot(mine[3 * v]! - theirs[3 * v]!, mine[3 * v + 1]! - theirs[3 * v + 1]!, mine[3 * v + 2]! - theirs[3 * v + 2]!);
      if (!(d <= max)) {
        max = Number.isNaN(d) ? Infinity : d;
        where = `"${ours.name}" (${ours.rigidJoint >= 0 ? `rigid on joint ${s.ours.skeletons[0]!.names[ours.rigidJoint]}` : 'skinned'}) vertex ${v}`;
      }
    }
    if (ours.morphTargets.length) {
      const influences = three.morphTargetInfluences!.slice();
      three.morphTargetInfluences!.fill(0);
      const plain = new Float32Array(theirs.length);
      threeVertices(three, plain);
      three.morphTargetInfluences!.splice(0, influences.length, ...influences);
      for (let i = 0; i < plain.length; i += 3) {
        morphMotion = Math.max(morphMotion, Math.hypot(plain[i]! - theirs[i]!, plain[i + 1]! - theirs[i + 1]!, plain[i + 2]! - theirs[i + 2]!));
      }
    }
  }
  return { max, where, curve, morphMotion };
}

/** 0, the middle of the middle key interval, ¾ into the last (every robot key is a frame at 24 fps). */
function threeTimes(threeClip: THREE.AnimationClip, clip: Clip): number[] {
  const keys = keyTimes(threeClip);
  const n = keys.length;
  const mid = Math.floor((n - 1) / 2);
  const times = [0, (keys[mid]! + keys[mid + 1]!) / 2, keys[n - 2]! + 0.75 * (keys[n - 1]! - keys[n - 2]!)];
  for (const key of keys) expect(Math.abs(key * clip.frameRate - Math.round(key * clip.frameRate)), `${clip.name}: key ${key} is a frame`).toBeLessThan(1e-3);
  return times;
}

describe('oracle: the whole RobotExpressive (15 rigid + 4 skinned primitives, morph targets) vs three.js', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(readAsset('RobotExpressive.glb'));
  });

  it('loads all 19 triangle primitives, 7,214 vertices, bound to the one skeleton; three has the same primitives', () => {
    expect(s.ours.skeletons).toHaveLength(1);
    expect(s.ours.meshes).toHaveLength(19);
    expect(s.ours.meshes.reduce((n, m) => n + m.positions.length / 3, 0)).toBe(7214);
    expect(s.ours.meshes.filter((m) => m.rigidJoint >= 0)).toHaveLength(15);
    expect(s.ours.meshes.every((m) => m.skeleton === 0)).toBe(true);
    for (const { ours, three } of s.pairs) {
      expect(three.geometry.getAttribute('position').count, ours.name).toBe(ours.positions.length / 3);
      expect(!!(three as THREE.SkinnedMesh).isSkinnedMesh, ours.name).toBe(ours.rigidJoint < 0);
      expect(three.morphTargetInfluences?.length ?? 0, ours.name).toBe(ours.morphTargets.length);
    }
    expect(s.ours.meshes.filter((m) => m.morphTargets.length === 3).map((m) => m.name)).toEqual(['Head#0', 'Head#1', 'Head#2']);
  });

  it('the rest pose (no clip): every vertex within 0.5 mm', () => {
    const REST = new THREE.AnimationClip('rest', 0, []);
    poseThree(s.three, REST, 0);
    // bitanim at rest: a fresh character's palette.
    const world = oracleWorld(1, s.ours.skeletons[0]!.jointCount, 'js');
    const eid = spawnCharacter(world, s.ours.skeletons[0]!);
    let max = 0;
    for (const { ours, three } of s.pairs) {
      const mine = new Float32Array(ours.positions.length);
      const theirs = new Float32Array(ours.positions.length);
      skinVertices(getSkinPalette(world, eid), ours.positions, ours.joints, ours.weights, mine);
      threeVertices(three, theirs);
      for (let i = 0; i < mine.length; i++) max = Math.max(max, Math.abs(mine[i]! - theirs[i]!));
    }
    console.log(`[rigid+morph oracle] rest pose: max |Δ| ${max.toExponential(2)} units`);
    expect(max).toBeLessThan(BOUND);
  });

  for (const name of ROBOT_CLIPS) {
    it(`${name}: every vertex of the 19 primitives within 0.5 mm (${BOUND} units) at 3 times`, () => {
      const clip = s.ours.clips.find((c) => c.name === name)!;
      const threeClip = s.three.gltf.animations.find((a) => a.name === name)!;
      for (const time of threeTimes(threeClip, clip)) {
        const m = measure(s, name, time);
        console.log(`[rigid+morph oracle] ${name} t=${time.toFixed(4)}: max |Δ| ${m.max.toExponential(2)} units at ${m.where}; curves |Δ| ${m.curve}`);
        expect.soft(m.max, `${name} t=${time}: ${m.where}`).toBeLessThan(BOUND);
        expect.soft(m.curve).toBeLessThan(CURVE_BOUND);
      }
    });
  }
});

/** Three smooth waves in [0, 1], one per target, at a key time. */
function wave(t: number, target: number): number {
  return 0.5 + 0.5 * Math.sin(2 * Math.PI * (t / 1.8) + (target * 2 * Math.PI) / 3);
}

describe('oracle: RobotExpressive with Wave\'s morph weights animated (a copy made with @gltf-transform) vs three.js', () => {
  let s: Setup;
  beforeAll(async () => {
    const io = new NodeIO();
    const doc = await io.readBinary(readAsset('RobotExpressive.glb'));
    const animation = doc.getRoot().listAnimations().find((a) => a.getName() === 'Wave')!;
    const channel = animation.listChannels().find((c) => c.getTargetPath() === 'weights')!;
    const sampler = channel.getSampler()!;
    const times = sampler.getInput()!.getArray()!;
    const values = new Float32Array(times.length * 3);
    for (let k = 0; k < times.length; k++) for (let target = 0; target < 3; target++) values[k * 3 + target] = wave(times[k]!, target);
    const output = doc.createAccessor('waveWeights').setType(Accessor.Type.SCALAR).setArray(values).setBuffer(doc.getRoot().listBuffers()[0]!);
    sampler.setOutput(output);
    s = await setup(await io.writeBinary(doc));
  });

  it('Wave\'s curves are the new weights at its frames, and equal three\'s morphTargetInfluences within 1e-2 at keys and between keys', () => {
    const clip = s.ours.clips.find((c) => c.name === 'Wave')!;
    const names = ['Head.Angry', 'Head.Surprised', 'Head.Sad'];
    expect(clip.curves.map((c) => c.name)).toEqual(names);
    // At frame f (= a key: the Wave keys are on the 24 fps grid) the curve holds the key's value.
    names.forEach((curveName, target) => {
      const values = clip.curves[curveIndex(clip, curveName)]!.values;
      for (let f = 0; f < clip.frameCount; f += 5) expect(values[f]).toBeCloseTo(wave(f / clip.frameRate, target), 5);
    });
    const threeClip = s.three.gltf.animations.find((a) => a.name === 'Wave')!;
    const head = s.pairs.find((p) => p.ours.name === 'Head#0')!.three;
    let worst = 0;
    const at = new Float32Array(3);
    for (const time of [0, 0.1, 0.3125, 0.55, 0.9, 1.2083, 1.5, 1.8]) {
      poseThree(s.three, threeClip, time);
      sampleCurvesInto(at, 0, clip, Float64Array.of(time), 0);
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(at[k]! - head.morphTargetInfluences![k]!));
      expect(Math.max(...head.morphTargetInfluences!), `three's weights at ${time} are not all 0`).toBeGreaterThan(0.4);
    }
    console.log(`[rigid+morph oracle] Wave with animated weights: curves vs morphTargetInfluences max |Δ| ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(CURVE_BOUND);
  });

  it('Wave with its expressions: every vertex (the Head moved by its morph targets) within 0.5 mm at 3 times', () => {
    const clip = s.ours.clips.find((c) => c.name === 'Wave')!;
    const threeClip = s.three.gltf.animations.find((a) => a.name === 'Wave')!;
    let motion = 0;
    for (const time of threeTimes(threeClip, clip)) {
      const m = measure(s, 'Wave', time);
      motion = Math.max(motion, m.morphMotion);
      console.log(`[rigid+morph oracle] Wave (weights animated) t=${time.toFixed(4)}: max |Δ| ${m.max.toExponential(2)} units at ${m.where}; ` +
        `curves |Δ| ${m.curve.toExponential(2)}; the morphs move Head vertices up to ${m.morphMotion.toFixed(4)} units`);
      expect.soft(m.max, `t=${time}: ${m.where}`).toBeLessThan(BOUND);
      expect.soft(m.curve).toBeLessThan(CURVE_BOUND);
    }
    expect(motion, 'the morph targets really move the Head').toBeGreaterThan(10 * BOUND);
  });
});
