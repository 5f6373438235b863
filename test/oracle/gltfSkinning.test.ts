/**
 * glTF oracle: the real Fox.glb and RobotExpressive.glb, imported by bitanim (`loadGltf`) and
 * by three.js (`GLTFLoader`, same bytes, in Node, images skipped — see `gltfThree.ts`).
 * For every clip, at 3 times, every vertex of every skinned primitive (1,728 for Fox,
 * 2 × (256 + 298) for RobotExpressive's hands; most Fox vertices have 2–4 influences) is skinned
 * both ways and compared in glTF world space (= bitanim model space):
 *
 * - bitanim: `loadGltf(bytes, { frameRate })`, one character per skeleton,
 *   `play(clip, { time, speed: 0 })`, `step(world, 0)`, then
 *   `skinVertices(getSkinPalette(…), mesh.positions, mesh.joints, mesh.weights, out)`.
 * - three: the clip alone on an `AnimationMixer`, `setTime`, `updateMatrixWorld`, then
 *   `SkinnedMesh.applyBoneTransform(i, v)` (mesh space) × `mesh.matrixWorld` (to world).
 *
 * Vertices are matched by index — three keeps a skinned primitive's glTF vertex order — and
 * the match is checked first on the bind pose (positions, joints by name, weights).
 *
 * **Tolerance**: 1 mm, in each file's units. Fox is in roughly centimetre units (≈79 units
 * tall, 155 long: a fox in cm), so 1 mm = 0.1 units. RobotExpressive is ≈4.6 units tall and in
 * metres (the glTF unit; its armature node scales its centimetre bones by 100 into it), so
 * 1 mm = 0.001 units.
 *
 * **three.js vs the glTF spec.** three's own default `SkinnedMesh.bind(skeleton)` takes the
 * mesh's world matrix as bind matrix, which would apply the skinned node's transform M to the
 * vertices before skinning (Σ wᵢ·Jᵢ·IBMᵢ·M·v); the spec says to ignore that transform. GLTFLoader
 * (r187) binds with the identity instead, and in the attached bind mode
 * (`bindMatrixInverse = inverse(matrixWorld)`) `applyBoneTransform` × `matrixWorld` is then
 * exactly Σ wᵢ·Jᵢ·IBMᵢ·v — the spec's quantity, the one bitanim's palette × bind vertex
 * defines. The test asserts the identity bind matrix and logs how far the node-bound reading
 * would be: 0 for Fox (its mesh node is an identity root), ≈390–420 units for RobotExpressive's
 * hands (a node under RootNode with scale 100 and −90° about X: the validator's
 * NODE_SKINNED_MESH_NON_ROOT / NODE_SKINNED_MESH_LOCAL_TRANSFORMS). Outside this test, three's
 * rest-pose result was also checked against Σ wᵢ·Jᵢ·IBMᵢ·v computed straight from the file's
 * JSON: ≤ 1.8e-6 units (Fox), ≤ 7.3e-8 (hands).
 *
 * **Resampling.** `loadGltf` resamples each animation over [0, D], D its last key time, with
 * `round(D × frameRate)` intervals, so a clip's rate is `intervals / D` (D kept exact, the loop
 * seam on the last key), and its frames are slerp/lerp samples of the keys. At 24 fps every
 * key of every clip is a frame except in Fox `Run`: its keys jump from frame 16 (0.6667 s) to
 * 20.8 (0.8667 s) and stay 0.8 frame off after that, so D = 27.8 frames → 28 intervals →
 * 24.17 fps, and no Run frame but the first and the last is a key. Between frames bitanim
 * interpolates its samples, a different curve from the keys' polyline. So the checked times
 * are chosen where both runtimes define the same pose: inside a key interval whose two keys
 * are both frames (bitanim nlerp, three slerp; measured ≤ 0.2 mm: Fox Walk ¾ into its last
 * key interval, 0.002 mm at 120 fps; ≤ 0.04 mm on the robot), or else at a frame instant (an
 * exact slerp/lerp sample: ≤ 0.0002 mm on Fox Run). The off-grid times are measured
 * and logged as resampling error (bounded by {@link RESAMPLING_BOUND}); and Fox is run again
 * at 120 fps, where every Run key is a frame and the standard 3 times hold within 1 mm.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { getSkinPalette, play, spawnCharacter, step, type AnimationWorld, type Clip } from '../../src/index.js';
import { skinVertices } from '../../src/kernels.js';
import { loadGltf, type GltfResult, type SkinnedMeshData } from '../../src/import/gltf.js';
import {
  keyTimes, parseWithThree, poseThree, readAsset, skinWithThree, skinWithThreeBoundAtNode, type ThreeGltf,
} from './gltfThree.js';
import { ORACLE_KERNELS, oracleWorld } from './harness.js';

interface AssetCase {
  readonly file: string;
  /** `loadGltf`'s target frame rate. */
  readonly frameRate: number;
  /** 1 mm in the file's units (see the header). */
  readonly tolerance: number;
  /** The animations, in file order. */
  readonly clips: readonly string[];
  /** Skinned primitives (three makes one SkinnedMesh per primitive). */
  readonly skinnedPrimitives: number;
  /** Textures whose images three must skip. */
  readonly textures: number;
}

const FOX_CLIPS = ['Survey', 'Walk', 'Run'];
const ROBOT_CLIPS = ['Dance', 'Death', 'Idle', 'Jump', 'No', 'Punch', 'Running', 'Sitting', 'Standing', 'ThumbsUp', 'Walking', 'WalkJump', 'Wave', 'Yes'];

const CASES: readonly AssetCase[] = [
  // 24 fps: the key rate of both files.
  { file: 'Fox.glb', frameRate: 24, tolerance: 0.1, clips: FOX_CLIPS, skinnedPrimitives: 1, textures: 1 },
  // 120 fps: Run's off-grid keys at (20.8 + j)/24 s = (104 + 5j)/120 s are frames too.
  { file: 'Fox.glb', frameRate: 120, tolerance: 0.1, clips: FOX_CLIPS, skinnedPrimitives: 1, textures: 1 },
  // Hand.R and Hand.L, 2 primitives each.
  { file: 'RobotExpressive.glb', frameRate: 24, tolerance: 0.001, clips: ROBOT_CLIPS, skinnedPrimitives: 4, textures: 0 },
];

/**
 * Off the frame grid (Fox Run at 24 fps) bitanim's resampled curve is not the keys' polyline:
 * that resampling error, in mm, stays below this. Measured: 6.8 mm at the first key after
 * Run's gap (0.8667 s), 4.1 mm in the middle of keys 12–13 (0.5208 s).
 */
const RESAMPLING_BOUND = 10;

/** No tracks: `poseThree(three, REST, 0)` leaves every node at its rest TRS. */
const REST = new THREE.AnimationClip('rest', 0, []);

/** A three SkinnedMesh and the bitanim mesh with the same vertices. */
interface MeshPair {
  readonly three: THREE.SkinnedMesh;
  readonly ours: SkinnedMeshData;
  readonly label: string;
  /** three's skinned positions with every node at rest (V×3), set in `beforeAll`. */
  rest: Float32Array;
}

/** Worst vertex of one comparison. */
interface VertexDiff {
  readonly max: number;
  readonly label: string;
  readonly vertex: number;
  /** Largest |three's skinned vertex − the same at rest|: the clip really moved the mesh. */
  readonly motion: number;
}

/** How a time was chosen. */
interface CheckTime {
  readonly time: number;
  readonly why: string;
}

/**
 * Three times per clip where bitanim and three define the same pose, and the off-grid times
 * where they do not (see the header, "Resampling"):
 * - 0 (frame 0 is the first key);
 * - the middle of the middle key interval (where nlerp and slerp differ most);
 * - three quarters into the last key interval (near the end).
 * A target inside a key interval whose keys are not both frames of `clip` moves down to the
 * frame instant at or before it, and the target itself is measured as resampling error, as
 * are, in a clip with off-grid keys, the middle of its widest key gap and the two keys after it.
 */
function checkTimes(keys: readonly number[], clip: Clip): { exact: CheckTime[]; offGrid: CheckTime[] } {
  const frameOf = (t: number): number => t * clip.frameRate;
  const isFrame = (t: number): boolean => Math.abs(frameOf(t) - Math.round(frameOf(t))) < 1e-3;
  const exact: CheckTime[] = [{ time: 0, why: 'start' }];
  const offGrid: CheckTime[] = [];
  const choose = (k: number, at: number, what: string): void => {
    const time = keys[k]! + at * (keys[k + 1]! - keys[k]!);
    const why = `${what} ${k}–${k + 1}`;
    if (isFrame(keys[k]!) && isFrame(keys[k + 1]!)) {
      exact.push({ time, why });
    } else {
      const frame = Math.floor(frameOf(time));
      exact.push({ time: frame / clip.frameRate, why: `frame ${frame}, the frame instant before ${why} (keys off the frame grid)` });
      offGrid.push({ time, why });
    }
  };
  const n = keys.length;
  choose(Math.floor((n - 1) / 2), 0.5, 'middle of keys');
  choose(n - 2, 0.75, '¾ of keys');
  if (!keys.every(isFrame)) {
    let widest = 0;
    for (let k = 1; k < n - 1; k++) if (keys[k + 1]! - keys[k]! > keys[widest + 1]! - keys[widest]!) widest = k;
    offGrid.push({ time: (keys[widest]! + keys[widest + 1]!) / 2, why: `middle of the widest key gap ${widest}–${widest + 1}` });
    for (const k of [widest + 1, widest + 2]) {
      if (k < n && !isFrame(keys[k]!)) offGrid.push({ time: keys[k]!, why: `key ${k}, frame ${frameOf(keys[k]!).toFixed(2)}` });
    }
  }
  return { exact, offGrid };
}

/**
 * Pairs each three SkinnedMesh with the bitanim mesh holding the same bind-pose vertices, and
 * checks the pairing vertex by vertex: positions, and each vertex's influences as
 * joint name → weight (three's skin index names a bone of its skeleton, bitanim's a joint of
 * its Skeleton; three sanitizes node names, e.g. `Foot.L` → `FootL`).
 */
function pairMeshes(three: ThreeGltf, ours: GltfResult): { pairs: MeshPair[]; report: string[]; worst: { position: number; weight: number; joints: number } } {
  const pairs: MeshPair[] = [];
  const report: string[] = [];
  const worst = { position: 0, weight: 0, joints: 0 };
  const used = new Set<SkinnedMeshData>();
  for (const mesh of three.meshes) {
    const position = mesh.geometry.getAttribute('position');
    let best: { ours: SkinnedMeshData; position: number } | null = null;
    for (const candidate of ours.meshes) {
      if (used.has(candidate) || candidate.rigidJoint >= 0 || candidate.positions.length !== position.count * 3) continue;
      let d = 0;
      for (let i = 0; i < position.count * 3; i++) d = Math.max(d, Math.abs(candidate.positions[i]! - position.array[i]!));
      if (best === null || d < best.position) best = { ours: candidate, position: d };
    }
    if (best === null) throw new Error(`three's skinned mesh "${mesh.name}" (${position.count} vertices) has no bitanim mesh of that size`);
    used.add(best.ours);
    const influences = compareInfluences(mesh, best.ours, ours.skeletons[best.ours.skeleton]!.names);
    worst.position = Math.max(worst.position, best.position);
    worst.weight = Math.max(worst.weight, influences.weight);
    worst.joints += influences.jointMismatches;
    const label = `"${best.ours.name}"/three "${mesh.name}"`;
    pairs.push({ three: mesh, ours: best.ours, label, rest: new Float32Array(0) });
    report.push(
      `${label}: ${position.count} vertices, bind positions max |Δ| ${best.position.toExponential(2)}, ` +
      `weights max |Δ| ${influences.weight.toExponential(2)}, joint-name mismatches ${influences.jointMismatches}, ` +
      `vertices by influence count 1/2/3/4: ${influences.histogram.slice(1).join('/')}`,
    );
  }
  return { pairs, report, worst };
}

function compareInfluences(mesh: THREE.SkinnedMesh, ours: SkinnedMeshData, names: readonly string[]): { weight: number; jointMismatches: number; histogram: number[] } {
  const skinIndex = mesh.geometry.getAttribute('skinIndex');
  const skinWeight = mesh.geometry.getAttribute('skinWeight');
  const bones = mesh.skeleton.bones;
  let weight = 0, jointMismatches = 0;
  const histogram = [0, 0, 0, 0, 0];
  for (let v = 0; v < skinIndex.count; v++) {
    const theirs = new Map<string, number>();
    const mine = new Map<string, number>();
    let count = 0;
    for (let c = 0; c < 4; c++) {
      const w3 = skinWeight.getComponent(v, c);
      if (w3 !== 0) {
        const name = bones[skinIndex.getComponent(v, c)]!.name;
        theirs.set(name, (theirs.get(name) ?? 0) + w3);
      }
      const w = ours.weights[4 * v + c]!;
      if (w !== 0) {
        count++;
        const name = THREE.PropertyBinding.sanitizeNodeName(names[ours.joints[4 * v + c]!]!);
        mine.set(name, (mine.get(name) ?? 0) + w);
      }
    }
    histogram[count]!++;
    for (const name of new Set([...theirs.keys(), ...mine.keys()])) {
      if (!theirs.has(name) || !mine.has(name)) jointMismatches++;
      weight = Math.max(weight, Math.abs((theirs.get(name) ?? 0) - (mine.get(name) ?? 0)));
    }
  }
  return { weight, jointMismatches, histogram };
}

/** Largest Euclidean distance between corresponding vertices, and how far three's moved from `rest`. */
function compareVertices(ours: Float32Array, theirs: Float32Array, rest: Float32Array, label: string): VertexDiff {
  let max = -1, vertex = -1, motion = 0;
  for (let v = 0; v < theirs.length / 3; v++) {
    const d = Math.hypot(ours[3 * v]! - theirs[3 * v]!, ours[3 * v + 1]! - theirs[3 * v + 1]!, ours[3 * v + 2]! - theirs[3 * v + 2]!);
    if (!(d <= max)) {
      max = Number.isNaN(d) ? Infinity : d;
      vertex = v;
    }
    motion = Math.max(motion, Math.hypot(theirs[3 * v]! - rest[3 * v]!, theirs[3 * v + 1]! - rest[3 * v + 1]!, theirs[3 * v + 2]! - rest[3 * v + 2]!));
  }
  return { max, label, vertex, motion };
}

function worstOf(diffs: readonly VertexDiff[]): VertexDiff {
  return diffs.reduce((a, b) => (b.max > a.max ? b : a), { max: -1, label: '', vertex: -1, motion: 0 });
}

function describeVertex(d: VertexDiff, tolerance: number): string {
  return `max |Δ| = ${d.max.toExponential(2)} units (${(d.max / tolerance).toFixed(4)} mm) at ${d.label} vertex ${d.vertex}`;
}

for (const kernels of ORACLE_KERNELS) for (const asset of CASES) {
  describe(`oracle: ${asset.file} skinned by bitanim (loadGltf at ${asset.frameRate} fps, ${kernels} kernels) vs three.js GLTFLoader`, () => {
    let ours: GltfResult;
    let three: ThreeGltf;
    let pairs: MeshPair[];
    let pairing: ReturnType<typeof pairMeshes>;
    let world: AnimationWorld;
    /** One character per bitanim skeleton. */
    let characters: number[];
    const tag = `[gltf oracle] ${asset.file} @${asset.frameRate} fps [${kernels}]`;

    beforeAll(async () => {
      const bytes = readAsset(asset.file);
      [ours, three] = await Promise.all([loadGltf(bytes, { frameRate: asset.frameRate }), parseWithThree(bytes)]);
      pairing = pairMeshes(three, ours);
      pairs = pairing.pairs;
      const maxJoints = Math.max(...ours.skeletons.map((s) => s.jointCount));
      world = oracleWorld(ours.skeletons.length, maxJoints, kernels);
      characters = ours.skeletons.map((skeleton) => spawnCharacter(world, skeleton));
      poseThree(three, REST, 0);
      for (const pair of pairs) {
        pair.rest = new Float32Array(pair.ours.positions.length);
        skinWithThree(pair.three, pair.rest);
      }
      for (const line of pairing.report) console.log(`${tag} bind pose ${line}`);
      if (ours.warnings.length > 0) console.log(`${tag} loadGltf warnings:\n  ${ours.warnings.join('\n  ')}`);
    });

    /** Skins every pair both ways with `clip` at `time`; one diff per pair. */
    function measure(clip: Clip, threeClip: THREE.AnimationClip, time: number): { diffs: VertexDiff[]; threeTime: number } {
      const threeTime = poseThree(three, threeClip, time);
      for (const eid of characters) {
        play(world, eid, clip, { time, speed: 0 });
      }
      step(world, 0);
      const diffs = pairs.map((pair) => {
        const count = pair.ours.positions.length;
        const theirs = new Float32Array(count);
        const mine = new Float32Array(count);
        skinWithThree(pair.three, theirs);
        skinVertices(getSkinPalette(world, characters[pair.ours.skeleton]!), pair.ours.positions, pair.ours.joints, pair.ours.weights, mine);
        return compareVertices(mine, theirs, pair.rest, pair.label);
      });
      return { diffs, threeTime };
    }

    it('three skips only the images; both find the same clips and skinned primitives', () => {
      expect(three.skippedTextures.length).toBe(asset.textures);
      expect(three.gltf.animations.map((a) => a.name)).toEqual(asset.clips);
      expect(ours.clips.map((c) => c.name)).toEqual(asset.clips);
      expect(three.meshes.length).toBe(asset.skinnedPrimitives);
      expect(ours.meshes.filter((m) => m.rigidJoint < 0).length).toBe(asset.skinnedPrimitives); // rigid meshes: gltfRigidMorph.test.ts
    });

    it('bind pose: vertex i of each three SkinnedMesh is vertex i of a bitanim mesh (positions, joints by name, weights)', () => {
      expect(pairs.length).toBe(asset.skinnedPrimitives);
      expect(new Set(pairs.map((p) => p.ours)).size).toBe(pairs.length);
      expect(pairing.worst.position).toBe(0); // the same Float32 POSITION accessor
      expect(pairing.worst.joints).toBe(0);
      expect(pairing.worst.weight).toBeLessThan(1e-6); // both normalize to sum 1 (Robot's sum to ≤ 1.07)
    });

    it('three binds with the identity (the glTF spec), not the mesh node; the node-bound reading is measured', () => {
      poseThree(three, REST, 0);
      for (const pair of pairs) {
        expect(pair.three.bindMatrix.equals(new THREE.Matrix4()), `${pair.label} bindMatrix`).toBe(true);
        const count = pair.ours.positions.length;
        const spec = new Float32Array(count);
        const nodeBound = new Float32Array(count);
        skinWithThree(pair.three, spec);
        skinWithThreeBoundAtNode(pair.three, nodeBound);
        const gap = compareVertices(nodeBound, spec, spec, pair.label);
        const node = pair.three.matrixWorld.elements.map((e) => Number(e.toFixed(4))).join(' ');
        console.log(`${tag} rest pose, ${pair.label}: node world [${node}]; bound at the node instead of the identity ` +
          `the vertices would move by up to ${gap.max.toExponential(2)} units (vertex ${gap.vertex})`);
      }
    });

    for (const clipName of asset.clips) {
      it(`${clipName}: skinned positions of every vertex match three.js within 1 mm (${asset.tolerance} units) at 3 times`, () => {
        const clip = ours.clips.find((c) => c.name === clipName)!;
        const threeClip = three.gltf.animations.find((a) => a.name === clipName)!;
        expect(clip, `bitanim clip ${clipName}`).toBeDefined();
        expect(threeClip, `three clip ${clipName}`).toBeDefined();
        const keys = keyTimes(threeClip);
        const { exact, offGrid } = checkTimes(keys, clip);
        let clipWorst: VertexDiff = { max: -1, label: '', vertex: -1, motion: 0 };
        let clipMotion = 0;
        for (const at of exact) {
          expect(at.time).toBeLessThan(Math.min(clip.duration, threeClip.duration));
          const { diffs, threeTime } = measure(clip, threeClip, at.time);
          const worst = worstOf(diffs);
          const motion = Math.max(...diffs.map((d) => d.motion));
          clipMotion = Math.max(clipMotion, motion);
          if (worst.max > clipWorst.max) clipWorst = worst;
          const message = `${tag} ${clipName} t=${at.time.toFixed(4)} (${at.why}): ${describeVertex(worst, asset.tolerance)}; ` +
            `motion from rest ${motion.toFixed(3)} units`;
          console.log(message);
          expect.soft(Math.abs(threeTime - at.time), `${message}: three's action time`).toBeLessThan(1e-6);
          expect.soft(worst.max, message).toBeLessThan(asset.tolerance);
        }
        // The poses compared are not the rest pose: somewhere in the clip a vertex moved by at
        // least 10 mm. (Not the bind pose either: RobotExpressive's hands skin 2.2 units away
        // from their bind-pose vertices at rest, through the inverse bind matrices.)
        expect.soft(clipMotion, `${clipName}: largest motion from the rest pose`).toBeGreaterThan(10 * asset.tolerance);
        console.log(`${tag} ${clipName}: max error ${clipWorst.max.toExponential(2)} units = ` +
          `${(clipWorst.max / asset.tolerance).toFixed(4)} mm over ${exact.length} times (${clipWorst.label} vertex ${clipWorst.vertex}); ` +
          `clip duration bitanim ${clip.duration.toFixed(5)} s (${clip.frameCount} frames at ${clip.frameRate.toFixed(3)} fps), three ${threeClip.duration.toFixed(5)} s (${keys.length} keys)`);
        for (const at of offGrid) {
          const worst = worstOf(measure(clip, threeClip, at.time).diffs);
          const message = `${tag} ${clipName} off the frame grid t=${at.time.toFixed(4)} (${at.why}): ` +
            `resampling error ${describeVertex(worst, asset.tolerance)}`;
          console.log(message);
          expect.soft(worst.max, message).toBeLessThan(RESAMPLING_BOUND * asset.tolerance);
        }
      });
    }
  });
}
