import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { NodeIO } from '@gltf-transform/core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReducedTracks, type ReducedChannel } from '../../src/assets/ReducedTracks.js';
import type { Clip } from '../../src/assets/Clip.js';
import { expandFrames } from '../../src/assets/reducedClip.js';
import { reduceFile } from '../../src/cli/lod.js';
import { run } from '../../src/cli/main.js';
import { readGltfDocument, ROTATION_FIT, splineTracks, type SplineTrack } from '../../src/export/gltfAnimation.js';
import { parseBvh } from '../../src/import/bvh.js';
import { loadGltf } from '../../src/import/gltf.js';
import { measureModelError } from '../../src/offline/lod/modelError.js';
import { CUBICSPLINE, sampleTrack } from '../../src/import/gltf/sampler.js';
import { parseWithThree } from '../oracle/gltfThree.js';
import * as THREE from 'three';
import { ASSETS_DIR } from '../support/assets.js';

const assets = ASSETS_DIR;
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-lod-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A channel given by its keys and a b c d per segment. */
const channel = (keyTimes: number[], coefficients: number[]): ReducedChannel => ({ keyTimes: Float64Array.from(keyTimes), coefficients: Float64Array.from(coefficients) });
const still = (v: number): ReducedChannel => channel([0, 1], [v, 0, 0, 0]);

/** The written track evaluated as glTF's CUBICSPLINE (by the importer's sampler), at time t. */
function play(track: SplineTrack, t: number): Float64Array {
  const out = new Float64Array(track.size);
  sampleTrack({ times: track.times, values: track.values, size: track.size, interpolation: CUBICSPLINE }, t, out, 0);
  return out;
}

/** Largest difference of two clips' frames: translation, rotation (up to sign), scale. */
function frameDifference(a: Clip, b: Clip): { t: number; q: number; s: number } {
  expect(b.frameCount).toBe(a.frameCount);
  expect(b.skeleton.jointCount).toBe(a.skeleton.jointCount);
  const d = { t: 0, q: 0, s: 0 };
  const x = expandFrames(a), y = expandFrames(b);
  for (let i = 0; i < x.length; i += 10) {
    for (let c = 0; c < 3; c++) d.t = Math.max(d.t, Math.abs(x[i + c]! - y[i + c]!));
    let dot = 0;
    for (let c = 3; c < 7; c++) dot += x[i + c]! * y[i + c]!;
    for (let c = 3; c < 7; c++) d.q = Math.max(d.q, Math.abs(x[i + c]! - Math.sign(dot || 1) * y[i + c]!));
    for (let c = 7; c < 10; c++) d.s = Math.max(d.s, Math.abs(x[i + c]! - y[i + c]!));
  }
  return d;
}

describe('splineTracks: reduced curves as glTF CUBICSPLINE keys', () => {
  it('keys a track on the union of its channels\' keys with the tangents of the cubics (hand derivation)', () => {
    // tx = 2 + 3t − t² + 0.5t³ on one segment; ty = 1 + 4t to 0.25 s, then 2 − (4/3)(t − 0.25); tz = 0.
    const channels = [
      channel([0, 1], [2, 3, -1, 0.5]),
      channel([0, 0.25, 1], [1, 4, 0, 0, 2, -4 / 3, 0, 0]),
      still(0), still(0), still(0), still(0), still(1), still(1), still(1), still(1),
    ];
    const tracks = splineTracks(createReducedTracks(1, 1, channels));
    expect(tracks.map((t) => [t.path, t.animated])).toEqual([['translation', true], ['rotation', false], ['scale', false]]);
    const [translation, rotation, scale] = tracks;
    expect(Array.from(translation!.times)).toEqual([0, 0.25, 1]);
    // Per key: in-tangent, value, out-tangent. P(0.25) = 2.6953125, P'(0.25) = 2.59375, P(1) = 4.5, P'(1) = 2.5.
    const expected = [
      [3, 4, 0], [2, 1, 0], [3, 4, 0],
      [2.59375, 4, 0], [2.6953125, 2, 0], [2.59375, -4 / 3, 0],
      [2.5, -4 / 3, 0], [4.5, 1, 0], [2.5, -4 / 3, 0],
    ].flat();
    expect(translation!.values).toHaveLength(expected.length);
    translation!.values.forEach((v, i) => expect(v, `value ${i}`).toBeCloseTo(expected[i]!, 5));
    // Played as glTF plays it, the track is the cubics.
    for (let k = 0; k <= 40; k++) {
      const t = k / 40;
      const [x, y, z] = play(translation!, t);
      expect(x).toBeCloseTo(2 + 3 * t - t * t + 0.5 * t ** 3, 5);
      expect(y).toBeCloseTo(t <= 0.25 ? 1 + 4 * t : 2 - (4 / 3) * (t - 0.25), 5);
      expect(z).toBe(0);
    }
    // Constant tracks: two keys (0 and the duration), zero tangents.
    expect(Array.from(rotation!.times)).toEqual([0, 1]);
    expect(Array.from(rotation!.values)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(Array.from(scale!.values.subarray(3, 6))).toEqual([1, 1, 1]);
  });

  it('writes unit rotation keys that play the normalized cubic within ROTATION_FIT, splitting long segments', () => {
    // A fitted quaternion, about 5% off unit length, turning ~70° over one segment.
    const channels = [
      still(0), still(0), still(0),
      channel([0, 1], [0.1, 0.6, -0.2, 0]), still(0), channel([0, 1], [0, 0.05, 0, 0]), channel([0, 1], [1.05, -0.3, 0, 0.1]),
      still(1), still(1), still(1),
    ];
    const tracks = createReducedTracks(1, 1, channels);
    const played = (q: Float64Array) => q.map((v) => v / Math.hypot(...q));
    for (const fit of [ROTATION_FIT, 1e-7]) {
      const rotation = splineTracks(tracks, fit)[1]!;
      const keys = rotation.times.length;
      if (fit < ROTATION_FIT) expect(keys).toBeGreaterThan(2);
      for (let k = 0; k < keys; k++) {
        const v = rotation.values.subarray((3 * k + 1) * 4, (3 * k + 2) * 4);
        expect(Math.hypot(...v)).toBeCloseTo(1, 12);
      }
      let worst = 0;
      for (let i = 0; i <= 200; i++) {
        const u = i / 200;
        const cubic = played(Float64Array.of(0.1 + 0.6 * u - 0.2 * u * u, 0, 0.05 * u, 1.05 - 0.3 * u + 0.1 * u ** 3));
        const q = play(rotation, u);
        for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(q[c]! - cubic[c]!));
      }
      expect(worst, `fit ${fit}`).toBeLessThanOrEqual(fit);
    }
  });
});

describe('bitanim lod --out --no-compress: plain float CUBICSPLINE samplers', () => {
  it('glTF: the same document with the reduced clip as CUBICSPLINE samplers; loadGltf plays the reduced frames', async () => {
    const file = join(assets, 'Fox.glb');
    const out = join(tmp, 'Fox.lod.glb');
    const lines: string[] = [];
    // 32-bit curves: the file holds them exactly (float32 keys and tangents). 16-bit ones (the
    // default) round each record's codes on its own, so a curve jumps by that rounding at its
    // keys, where the file's splines are continuous: checked below (0.096 mm on this clip, whose
    // tolerance is 5 mm).
    expect(await run(['lod', file, '--scale', 'cm', '--clip', 'Walk', '--no-quantize', '--no-compress', '--out', out], (l) => lines.push(l), { err: (l) => lines.push(`err: ${l}`) })).toBe(0);
    expect(lines.at(-1)).toMatch(/^wrote .*Fox\.lod\.glb \([\d,]+ bytes\): 1 reduced animation as CUBICSPLINE samplers, lengths in the input's units \(1 unit = 0\.01 m\)$/);

    const report = await reduceFile(file, { scale: 'cm', clips: ['Walk'], out, quantize: false, compress: false });
    const reduced = report.clips[0]!.reduced!;
    const original = await loadGltf(new Uint8Array(readFileSync(file)), { tolerance: 0.01 });
    // At the reduced clip's rate (lod imported the Fox with its 0.1 mm as 0.01 cm: Walk at 48 fps).
    const written = await loadGltf(new Uint8Array(readFileSync(out)), { frameRate: reduced.frameRate });
    const forced = await loadGltf(new Uint8Array(readFileSync(file)), { frameRate: reduced.frameRate });
    // The Fox is in centimetres, read here as metres: the units warning, as for the original.
    expect(written.warnings.filter((w) => !/at the given frameRate/.test(w))).toEqual(original.warnings.filter((w) => w.startsWith('units: ')));
    expect(original.warnings.filter((w) => w.startsWith('units: '))).toHaveLength(1);
    expect(written.meshes.map((m) => m.name)).toEqual(original.meshes.map((m) => m.name));
    expect(written.skeletons[0]!.names).toEqual(original.skeletons[0]!.names);
    expect(written.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    // The reduced clip: the reduced frames (positions in cm; float32 keys and tangents).
    const d = frameDifference(reduced, written.clips[1]!);
    expect(d.t).toBeLessThan(2e-5);
    expect(d.q).toBeLessThan(2 * ROTATION_FIT);
    expect(d.s).toBe(0);
    // In model space: joints within 0.02 mm of where the reduced clip puts them (2e-3 cm).
    expect(measureModelError(reduced, written.clips[1]!.frames, { subdivisions: 0 }).maxError).toBeLessThan(2e-3);
    // The others are untouched.
    for (const c of [0, 2]) expect(written.clips[c]!.frames).toEqual(forced.clips[c]!.frames);
    expect(original.clips[1]!.frameRate).toBe(reduced.frameRate);

    // The Walk animation drives the nodes the source did, now with CUBICSPLINE samplers.
    const source = (await readGltfDocument(new Uint8Array(readFileSync(file)))).getRoot().listAnimations()[1]!;
    const walk = (await readGltfDocument(new Uint8Array(readFileSync(out)))).getRoot().listAnimations()[1]!;
    const targets = (a: typeof walk) => a.listChannels().map((c) => `${c.getTargetNode()!.getName()}.${c.getTargetPath()}`).sort();
    expect(targets(walk)).toEqual(targets(source));
    expect(new Set(walk.listSamplers().map((s) => s.getInterpolation()))).toEqual(new Set(['CUBICSPLINE']));
    expect(walk.listSamplers()).toHaveLength(21);

    // The default, 16-bit curves: the file within 0.2 mm (0.02 cm; the tolerance is 0.5 cm) of them.
    const packed = (await reduceFile(file, { scale: 'cm', clips: ['Walk'], out, compress: false })).clips[0]!.reduced!;
    expect(packed.reduced!.packedTracks).toBeGreaterThan(0);
    const packedWritten = await loadGltf(new Uint8Array(readFileSync(out)), { frameRate: packed.frameRate });
    expect(measureModelError(packed, packedWritten.clips[1]!.frames, { subdivisions: 0 }).maxError).toBeLessThan(0.02);
  });

  it('three.js (GLTFLoader, AnimationMixer) plays the written CUBICSPLINE samplers as the reduced clip', async () => {
    const out = join(tmp, 'Fox.three.glb');
    const report = await reduceFile(join(assets, 'Fox.glb'), { scale: 'cm', clips: ['Run'], out, quantize: false, compress: false });
    const reduced = report.clips[0]!.reduced!;
    const { gltf } = await parseWithThree(new Uint8Array(readFileSync(out)));
    const clip = gltf.animations.find((a) => a.name === 'Run')!;
    expect(clip.tracks.length).toBe(21);
    const mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(clip).play();
    const { names, jointCount } = reduced.skeleton;
    const bones = names.map((name) => gltf.scene.getObjectByName(name)!);
    let worstT = 0, worstQ = 0;
    const frames = expandFrames(reduced);
    // The last frame is left out: three wraps a looping action's time at the duration.
    for (let f = 0; f < reduced.frameCount - 1; f++) {
      mixer.setTime(f / reduced.frameRate);
      for (let j = 0; j < jointCount; j++) {
        const o = (f * jointCount + j) * 10;
        const { position: p, quaternion: q } = bones[j]!;
        worstT = Math.max(worstT, Math.abs(p.x - frames[o]!), Math.abs(p.y - frames[o + 1]!), Math.abs(p.z - frames[o + 2]!));
        const sign = Math.sign(q.x * frames[o + 3]! + q.y * frames[o + 4]! + q.z * frames[o + 5]! + q.w * frames[o + 6]!) || 1;
        worstQ = Math.max(worstQ, ...[q.x, q.y, q.z, q.w].map((v, c) => Math.abs(sign * v - frames[o + 3 + c]!)));
      }
    }
    expect(worstT).toBeLessThan(2e-5); // centimetres
    expect(worstQ).toBeLessThan(2 * ROTATION_FIT);
  });

  it('glTF with scaled and turned non-joint ancestors (RobotExpressive), written as .gltf with embedded buffers', async () => {
    const file = join(assets, 'RobotExpressive.glb');
    const out = join(tmp, 'Robot.lod.gltf');
    const report = await reduceFile(file, { clips: ['Sitting', 'Wave'], out, tolerance: 0.002, compress: false });
    const text = readFileSync(out, 'utf8');
    expect(JSON.parse(text).buffers[0].uri).toMatch(/^data:application\/octet-stream;base64,/);
    const written = await loadGltf(new Uint8Array(readFileSync(out)));
    expect(written.clips).toHaveLength(14);
    for (const clip of report.clips) {
      const atRate = await loadGltf(new Uint8Array(readFileSync(out)), { frameRate: clip.reduced!.frameRate });
      const d = frameDifference(clip.reduced!, atRate.clips.find((c) => c.name === clip.name)!);
      expect(d.t, clip.name).toBeLessThan(1e-6);
      expect(d.q, clip.name).toBeLessThan(2 * ROTATION_FIT);
      expect(d.s, clip.name).toBeLessThan(1e-5);
    }
    // The morph-target channels and the other 12 animations stay as they were.
    expect(written.warnings.filter((w) => w.includes('morph-target'))).toHaveLength(0); // they are curves now
    expect(written.clips.every((c) => c.curves.length === 3)).toBe(true);
  });

  it('.gltf with an external .bin and image: read from its folder, written whole with embedded data', async () => {
    // The Fox as a .gltf beside its Fox.bin and texture PNG (written by @gltf-transform's NodeIO).
    const folder = mkdtempSync(join(tmp, 'separate-'));
    const io = new NodeIO();
    await io.write(join(folder, 'Fox.gltf'), await io.read(join(assets, 'Fox.glb')));
    const json = JSON.parse(readFileSync(join(folder, 'Fox.gltf'), 'utf8'));
    expect(json.buffers[0].uri).toMatch(/\.bin$/);
    expect(json.images[0].uri).toMatch(/\.png$/);
    const png = readFileSync(join(folder, json.images[0].uri));

    const out = join(tmp, 'Fox.separate.lod.gltf');
    const report = await reduceFile(join(folder, 'Fox.gltf'), { scale: 'cm', clips: ['Walk'], out, quantize: false, compress: false });
    const writtenJson = JSON.parse(readFileSync(out, 'utf8'));
    expect(writtenJson.buffers.map((b: { uri: string }) => b.uri.slice(0, 37))).toEqual(['data:application/octet-stream;base64,']);
    expect(writtenJson.images[0].uri).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const reduced = report.clips[0]!.reduced!;
    const written = await loadGltf(new Uint8Array(readFileSync(out)), { frameRate: reduced.frameRate });
    expect(measureModelError(reduced, written.clips[1]!.frames, { subdivisions: 0 }).maxError).toBeLessThan(2e-3);
    expect(written.meshes[0]!.material?.baseColorTexture?.image).toEqual(new Uint8Array(png));

    // A .bin that leaves the folder is refused before anything is read or written.
    const escaped = join(folder, 'Escaped.gltf');
    json.buffers[0].uri = '../Fox.bin';
    writeFileSync(escaped, JSON.stringify(json));
    await expect(reduceFile(escaped, { scale: 'cm', clips: ['Walk'], out: join(tmp, 'escaped.gltf'), compress: false })).rejects.toThrow(/outside the file's folder/);
    expect(existsSync(join(tmp, 'escaped.gltf'))).toBe(false);
  });

  it('BVH: a .glb of the skeleton (metres) and the reduced clip; loadGltf at the file\'s rate plays the reduced frames', async () => {
    const file = join(assets, 'cmu_131_01_start_walk_stop.bvh');
    const out = join(tmp, 'walk.glb');
    const report = await reduceFile(file, { scale: 0.056444, out, quantize: false, compress: false }); // 32-bit: written exactly (see the glTF test)
    expect(report.written).toMatchObject({ file: out, animations: 1 });
    const { skeleton } = parseBvh(readFileSync(file, 'utf8'), { scale: 0.056444 });
    const written = await loadGltf(new Uint8Array(readFileSync(out)), { frameRate: 120 });
    expect(written.skeletons[0]!.names).toEqual(skeleton.names);
    expect(Array.from(written.skeletons[0]!.parents)).toEqual(Array.from(skeleton.parents));
    Array.from(written.skeletons[0]!.rest).forEach((v, i) => expect(v).toBeCloseTo(skeleton.rest[i]!, 6));
    expect(written.clips.map((c) => c.name)).toEqual(['cmu_131_01_start_walk_stop']);
    // Key times are float32, so the written duration is 993/120 rounded to float32 and the
    // frames (at k·D/993) sit up to 8.2e-7 s off the keys (at float32(k/120)): quaternion
    // components differ by that times the joint's rate of turn (3.6e-5 measured: the capture's
    // fastest joints turn at tens of rad/s).
    const d = frameDifference(report.clips[0]!.reduced!, written.clips[0]!);
    expect(d.t).toBeLessThan(1e-5);
    expect(d.q).toBeLessThan(5e-5);
    expect(d.s).toBe(0);
    expect(measureModelError(report.clips[0]!.reduced!, written.clips[0]!.frames, { subdivisions: 0 }).maxError).toBeLessThan(2e-5);
  });

  it('an output that cannot be written: one line, exit 1 (checked before the reduction: test/cli/finished.test.ts)', async () => {
    const err: string[] = [];
    const code = await run(['lod', join(assets, 'Fox.glb'), '--clip', 'Walk', '--out', join(tmp, 'no/such/dir/out.glb')], () => {}, { err: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^bitanim: lod: --out is ".*out\.glb": its folder .*no\/such\/dir does not exist \(create it first\)$/);
  });
});
