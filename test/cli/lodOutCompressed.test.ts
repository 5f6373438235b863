/**
 * `bitanim lod --out` writes small files (the default, `compress: true`): per track dropped,
 * constant, uniform frames or the reduced keys, quantized through meshoptimizer's filters, every
 * buffer view `EXT_meshopt_compression`-compressed. Checked on the real assets against their
 * inputs (bytes), Khronos's glTF-Validator, the dense source (bitanim's loader, model space, at
 * the frames and between them) and three.js (GLTFLoader with its MeshoptDecoder, AnimationMixer).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { NodeIO } from '@gltf-transform/core';
import { join } from 'node:path';
import { validateBytes } from 'gltf-validator';
import * as THREE from 'three';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clip } from '../../src/assets/Clip.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import { reduceFile } from '../../src/cli/lod.js';
import { run } from '../../src/cli/main.js';
import { slerpDeviation } from '../../src/export/gltfCompact.js';
import { createSkeletonDocument, writeGltfBytes } from '../../src/export/gltfAnimation.js';
import { parseBvh } from '../../src/import/bvh.js';
import { loadGltf } from '../../src/import/gltf.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { defaultErrorDistance, measureModelError } from '../../src/offline/lod/modelError.js';
import { parseWithThree } from '../oracle/gltfThree.js';
import { ASSETS_DIR } from '../support/assets.js';

const tmp = mkdtempSync(join(tmpdir(), 'bitanim-lod-small-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Instants per frame interval the file is compared at: the frame and u = 0.2, 0.4, 0.6, 0.8. */
const INSTANTS = 5;

/** `source` as the runtime plays its frames (lerp, nlerp) at k / rate, k < count: a clip of those frames. */
function playedAt(source: Clip, count: number, rate: number): Clip {
  const size = source.skeleton.jointCount * POSE_STRIDE;
  const frames = new Float32Array(count * size);
  const times = Float64Array.from({ length: count }, (_, k) => Math.min(k / rate, source.duration));
  for (let k = 0; k < count; k++) sampleClipInto(frames, k * size, source, times, k);
  return { ...source, frames, frameCount: count, frameRate: rate, duration: (count - 1) / rate, reduced: null, stats: null };
}

/** The written file's clips read by bitanim at INSTANTS × each source's rate. */
async function readBack(bytes: Uint8Array, rate: number): Promise<Clip[]> {
  return (await loadGltf(bytes, { frameRate: rate * INSTANTS, tolerance: 1e300 })).clips;
}

/** Largest model-space error (joints and the default shell) of the file's clip against the dense source, at the frames and between them. */
async function errorAgainstSource(bytes: Uint8Array, source: Clip): Promise<{ between: number; frames: number }> {
  const clip = (await readBack(bytes, source.frameRate)).find((c) => c.name === source.name)!;
  const distance = defaultErrorDistance(source.skeleton);
  const between = measureModelError(playedAt(source, clip.frameCount, clip.frameRate), clip.frames, { subdivisions: 0, distance }).maxError;
  // The frames alone: every INSTANTS-th instant.
  const size = source.skeleton.jointCount * POSE_STRIDE;
  const atFrames = new Float32Array(source.frameCount * size);
  for (let f = 0; f < source.frameCount; f++) atFrames.set(clip.frames.subarray(f * INSTANTS * size, (f * INSTANTS + 1) * size), f * size);
  const frames = measureModelError(source, atFrames, { subdivisions: 0, distance }).maxError;
  return { between, frames };
}

const ASSETS = [
  { file: 'Fox.glb', scale: 'cm', unit: 0.01 },
  { file: 'RobotExpressive.glb', scale: undefined, unit: 1 },
] as const;

describe('bitanim lod --out: files smaller than their input', () => {
  for (const { file, scale, unit } of ASSETS) {
    it(`${file} at 1 mm: smaller${file.startsWith('Robot') ? ' (at least 2×)' : ''}, 0 validator errors, the dense source within 1 mm at the frames and between them`, async () => {
      const input = join(ASSETS_DIR, file);
      const out = join(tmp, file.replace('.glb', '.1mm.glb'));
      const report = await reduceFile(input, { tolerance: 0.001, ...(scale ? { scale } : {}), out });
      const bytes = new Uint8Array(readFileSync(out));
      const before = statSync(input).size;
      expect(report.written).toMatchObject({ bytes: bytes.byteLength, inputBytes: before, compressed: true });
      expect(report.warnings.filter((w) => w.startsWith('--out:'))).toEqual([]);
      expect(bytes.byteLength).toBeLessThan(before);
      if (file.startsWith('Robot')) expect(bytes.byteLength).toBeLessThanOrEqual(before / 2);

      const validation = await validateBytes(bytes);
      expect(validation.issues.numErrors, JSON.stringify(validation.issues.messages.slice(0, 5))).toBe(0);
      // Its views are compressed: the extension is required (its fallback buffer holds no data).
      const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true))));
      expect(json.extensionsRequired).toContain('EXT_meshopt_compression');
      expect(json.buffers[1].extensions.EXT_meshopt_compression.fallback).toBe(true);
      expect(json.bufferViews.filter((v: { extensions?: object }) => v.extensions).length).toBeGreaterThan(3);

      // Every clip of the file against the dense source (in file units: the tolerance is 1 mm).
      const tolerance = 0.001 / unit;
      for (const clip of report.clips) {
        const { between, frames } = await errorAgainstSource(bytes, clip.source);
        expect(frames, `${clip.name} at the frames`).toBeLessThanOrEqual(tolerance);
        expect(between, `${clip.name} between the frames`).toBeLessThanOrEqual(tolerance);
        // The report states the same measurement (metres).
        const stated = report.written!.clips.find((c) => c.name === clip.name)!.maxError;
        expect(stated).toBeCloseTo(between * unit, 6);
      }
    }, 240_000);
  }

  it('three.js (GLTFLoader with MeshoptDecoder, AnimationMixer) poses the written files as bitanim\'s loader does, within the tolerance at the frames and between them', async () => {
    for (const { file, scale, unit } of ASSETS) {
      const out = join(tmp, file.replace('.glb', '.three.glb'));
      const clips = file.startsWith('Robot') ? ['Dance', 'Punch', 'Walking'] : ['Survey', 'Walk', 'Run'];
      await reduceFile(join(ASSETS_DIR, file), { tolerance: 0.001, ...(scale ? { scale } : {}), clips, out });
      const bytes = new Uint8Array(readFileSync(out));
      const three = await parseWithThree(bytes, { meshopt: true });
      for (const name of clips) {
        const source = (await loadGltf(bytes)).clips.find((c) => c.name === name)!;
        const mine = (await readBack(bytes, source.frameRate)).find((c) => c.name === name)!;
        const { skeleton } = mine;
        // Joint nodes by name among the skins' joints (RobotExpressive has meshes named like bones), then three's object of that node.
        const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true))));
        const skinJoints: number[] = json.skins.flatMap((skin: { joints: number[] }) => skin.joints);
        const objectOf = new Map<number, THREE.Object3D>();
        for (const [object, association] of three.gltf.parser.associations) if (association.nodes !== undefined) objectOf.set(association.nodes, object as THREE.Object3D);
        const bones = skeleton.names.map((n) => objectOf.get(skinJoints.find((i) => json.nodes[i].name === n)!)!);
        const action = new THREE.AnimationMixer(three.gltf.scene).clipAction(three.gltf.animations.find((a) => a.name === name)!);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        // three's pose at each instant in bitanim's layout: each joint relative to its parent
        // joint, a root joint in the scene (non-joint nodes between composed in, as bitanim's
        // importer does).
        const size = skeleton.jointCount * POSE_STRIDE;
        const frames = new Float32Array(mine.frameCount * size);
        const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3(), m = new THREE.Matrix4();
        for (let k = 0; k < mine.frameCount; k++) {
          action.time = Math.min(k / mine.frameRate, mine.duration);
          action.getMixer().update(0);
          three.gltf.scene.updateMatrixWorld(true);
          for (let j = 0; j < skeleton.jointCount; j++) {
            const parent = skeleton.parents[j]!, bone = bones[j]!;
            if (parent >= 0 && bone.parent === bones[parent]) {
              p.copy(bone.position);
              q.copy(bone.quaternion);
              s.copy(bone.scale);
            } else {
              m.copy(bone.matrixWorld);
              if (parent >= 0) m.premultiply(bones[parent]!.matrixWorld.clone().invert());
              m.decompose(p, q, s);
            }
            frames.set([p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z], k * size + j * POSE_STRIDE);
          }
        }
        const measured = measureModelError(mine, frames, { subdivisions: 0, distance: defaultErrorDistance(skeleton) });
        // Both read the same quantized samplers: well inside the 1 mm (measured: 0.03 mm on the
        // Fox, 0.09–0.15 mm on the Robot's finger joints at the shell).
        expect(measured.maxError * unit, `${file} ${name}`).toBeLessThan(0.00025);
      }
    }
  }, 240_000);

  it('at 0.1 mm and 5 mm the files are smaller than their inputs too, and hold the tolerance', async () => {
    for (const { file, scale, unit } of ASSETS) {
      const before = statSync(join(ASSETS_DIR, file)).size;
      for (const tolerance of [0.0001, 0.005]) {
        const out = join(tmp, file.replace('.glb', `.${tolerance}.glb`));
        const report = await reduceFile(join(ASSETS_DIR, file), { tolerance, ...(scale ? { scale } : {}), out });
        const bytes = new Uint8Array(readFileSync(out));
        expect(bytes.byteLength, `${file} at ${tolerance} m`).toBeLessThan(before);
        // One clip measured here, the rest as the report states them.
        const { between } = await errorAgainstSource(bytes, report.clips[0]!.source);
        expect(between * unit, `${file} at ${tolerance} m`).toBeLessThanOrEqual(tolerance);
        for (const c of report.written!.clips) expect(c.maxError, `${file} ${c.name} at ${tolerance} m`).toBeLessThanOrEqual(tolerance);
      }
    }
  }, 480_000);

  it('BVH (the CMU walk) at 1 mm: a .glb smaller than the same skeleton with dense float32 samplers, within 1 mm of the capture', async () => {
    const file = join(ASSETS_DIR, 'cmu_131_01_start_walk_stop.bvh');
    const out = join(tmp, 'walk.small.glb');
    await reduceFile(file, { scale: 0.056444, tolerance: 0.001, out });
    const bytes = new Uint8Array(readFileSync(out));
    const { clip, endSites } = parseBvh(readFileSync(file, 'utf8'), { scale: 0.056444, name: 'cmu_131_01_start_walk_stop' });

    // The dense file: every joint's translation, rotation and scale at every frame, float32, LINEAR, one input.
    const { document, joints } = createSkeletonDocument(clip.skeleton, endSites);
    const buffer = document.getRoot().listBuffers()[0]!;
    const animation = document.createAnimation(clip.name);
    const times = Float32Array.from({ length: clip.frameCount }, (_, f) => f / clip.frameRate);
    const input = document.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer);
    const jointCount = clip.skeleton.jointCount;
    for (let j = 0; j < jointCount; j++) {
      for (const [path, offset, width] of [['translation', 0, 3], ['rotation', 3, 4], ['scale', 7, 3]] as const) {
        const values = new Float32Array(clip.frameCount * width);
        for (let f = 0; f < clip.frameCount; f++) for (let c = 0; c < width; c++) values[f * width + c] = clip.frames[(f * jointCount + j) * POSE_STRIDE + offset + c]!;
        const output = document.createAccessor().setType(width === 4 ? 'VEC4' : 'VEC3').setArray(values).setBuffer(buffer);
        const sampler = document.createAnimationSampler().setInput(input).setOutput(output).setInterpolation('LINEAR');
        animation.addSampler(sampler).addChannel(document.createAnimationChannel().setTargetNode(joints.nodes[j]!).setTargetPath(path).setSampler(sampler));
      }
    }
    const dense = await writeGltfBytes(document, 'glb');
    expect(bytes.byteLength).toBeLessThan(dense.byteLength);
    // The dense file plays the capture at its frames; between them glTF's slerp is not the
    // runtime's nlerp, which on this take's right thumb (a fast turn between two frames) is
    // 11.8 mm apart on the shell: the small file keys that track instead (see slerpDeviation).
    const denseError = await errorAgainstSource(dense, clip);
    expect(denseError.frames).toBeLessThan(5e-5); // float32 key times
    expect(denseError.between).toBeGreaterThan(0.01);
    const { between, frames } = await errorAgainstSource(bytes, clip);
    expect(frames).toBeLessThanOrEqual(0.001);
    expect(between).toBeLessThanOrEqual(0.001);
  }, 240_000);

  it('the table reports the file\'s bytes before and after', async () => {
    const out = join(tmp, 'Fox.walk.glb');
    const lines: string[] = [];
    expect(await run(['lod', join(ASSETS_DIR, 'Fox.glb'), '--scale', 'cm', '--tolerance', '0.001', '--clip', 'Walk', '--no-progress', '--out', out], (l) => lines.push(l), { err: (l) => lines.push(`err: ${l}`) })).toBe(0);
    const size = statSync(out).size;
    const group = (n: number) => n.toLocaleString('en-US');
    expect(lines.at(-1)).toBe(
      `wrote ${out}: file bytes ${group(162852)} before, ${group(size)} after (${(162852 / size).toFixed(1)}:1); 1 reduced animation, quantized and meshopt-compressed, ` +
      `max error ${lines.at(-1)!.match(/max error (\d\.\d{6}) m/)![1]} m against the source (frames and between them), lengths in the input's units (1 unit = 0.01 m)`,
    );
    expect(Number(lines.at(-1)!.match(/max error (\d\.\d{6}) m/)![1])).toBeLessThanOrEqual(0.001);
  }, 120_000);
});

describe('bitanim lod --out FILE.gltf (compressed) and the option', () => {
  it('.gltf: the BIN chunk as a data: URI beside the data-less fallback buffer; bitanim reads it within the tolerance', async () => {
    const out = join(tmp, 'Fox.small.gltf');
    const report = await reduceFile(join(ASSETS_DIR, 'Fox.glb'), { scale: 'cm', tolerance: 0.001, clips: ['Run'], out });
    const json = JSON.parse(readFileSync(out, 'utf8'));
    expect(json.buffers[0].uri).toMatch(/^data:application\/octet-stream;base64,/);
    expect(json.buffers[1]).toEqual({ byteLength: json.buffers[1].byteLength, extensions: { EXT_meshopt_compression: { fallback: true } } });
    const { between } = await errorAgainstSource(new Uint8Array(readFileSync(out)), report.clips[0]!.source);
    expect(between).toBeLessThanOrEqual(0.1); // 1 mm in the Fox's centimetres
  }, 60_000);

  it('a compressed file as input (the Fox just written): decoded, and written again small or plain', async () => {
    const small = join(tmp, 'Fox.again.glb');
    await reduceFile(join(ASSETS_DIR, 'Fox.glb'), { scale: 'cm', tolerance: 0.001, out: small });
    const source = (await loadGltf(new Uint8Array(readFileSync(join(ASSETS_DIR, 'Fox.glb'))))).clips.find((c) => c.name === 'Walk')!;
    for (const compress of [true, false]) {
      const out = join(tmp, `Fox.again.${compress}.glb`);
      const report = await reduceFile(small, { scale: 'cm', tolerance: 0.001, clips: ['Walk'], out, compress });
      expect(report.warnings.filter((w) => w.startsWith('--out:'))).toEqual([]);
      const bytes = new Uint8Array(readFileSync(out));
      const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + new DataView(bytes.buffer).getUint32(12, true))));
      expect(json.extensionsRequired ?? [], String(compress)).toEqual(compress ? expect.arrayContaining(['EXT_meshopt_compression']) : []);
      expect((await validateBytes(bytes)).issues.numErrors).toBe(0);
      // Two reductions of 1 mm each, against the original source: within 2 mm.
      const clip = (await readBack(bytes, source.frameRate)).find((c) => c.name === 'Walk')!;
      const error = measureModelError(playedAt(source, clip.frameCount, clip.frameRate), clip.frames, { subdivisions: 0, distance: defaultErrorDistance(source.skeleton) }).maxError;
      expect(error, String(compress)).toBeLessThanOrEqual(0.2);
    }
  }, 120_000);

  it('a .gltf input with two .bin buffers: written as one compressed GLB', async () => {
    const folder = mkdtempSync(join(tmp, 'two-buffers-'));
    const io = new NodeIO();
    const document = await io.read(join(ASSETS_DIR, 'Fox.glb'));
    const second = document.createBuffer('animation').setURI('animation.bin');
    for (const animation of document.getRoot().listAnimations()) for (const sampler of animation.listSamplers()) for (const a of [sampler.getInput(), sampler.getOutput()]) a?.setBuffer(second);
    await io.write(join(folder, 'Fox.gltf'), document);
    expect(JSON.parse(readFileSync(join(folder, 'Fox.gltf'), 'utf8')).buffers).toHaveLength(2);
    const out = join(tmp, 'Fox.two.glb');
    const report = await reduceFile(join(folder, 'Fox.gltf'), { scale: 'cm', tolerance: 0.001, clips: ['Survey'], out });
    const bytes = new Uint8Array(readFileSync(out));
    expect(bytes.byteLength).toBeLessThan(statSync(join(ASSETS_DIR, 'Fox.glb')).size);
    expect((await validateBytes(bytes)).issues.numErrors).toBe(0);
    expect((await errorAgainstSource(bytes, report.clips[0]!.source)).between).toBeLessThanOrEqual(0.1);
  }, 60_000);

  it('refuses a compress option that is not true or false', async () => {
    await expect(reduceFile(join(ASSETS_DIR, 'Fox.glb'), { compress: 'yes' as unknown as boolean })).rejects.toThrow(/^lod: compress is "yes": must be true or false$/);
  });
});

describe('slerpDeviation: glTF\'s slerp against the runtime\'s nlerp between two frames', () => {
  it('matches the angles of a hand derivation, and is 0 for equal frames', () => {
    // 90° about z in one frame: φ = 45° between the quaternions. At u the slerp is u·φ from the
    // first, the nlerp atan2(u·sin φ, 1 − u + u·cos φ); both meet at u = 0.5 (the half-angle identity).
    const phi = Math.PI / 4;
    const values = Float64Array.of(0, 0, 0, 1, 0, 0, Math.sin(phi), Math.cos(phi));
    let expected = 0;
    for (const u of [0.2, 0.4, 0.6, 0.8]) expected = Math.max(expected, 2 * Math.abs(u * phi - Math.atan2(u * Math.sin(phi), 1 - u + u * Math.cos(phi))));
    expect(expected).toBeGreaterThan(0.01); // about 0.6° of rotation: not negligible on a long limb
    expect(slerpDeviation(values)).toBeCloseTo(expected, 12);
    // Opposite signs are the same rotation: the deviation is the same.
    expect(slerpDeviation(Float64Array.of(0, 0, 0, 1, 0, 0, -Math.sin(phi), -Math.cos(phi)))).toBeCloseTo(expected, 12);
    expect(slerpDeviation(Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1))).toBe(0);
  });
});
