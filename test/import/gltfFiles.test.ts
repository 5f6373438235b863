/**
 * glTF as it ships (issue 19): the Fox as `.gltf` + `.bin` + `.png`, meshopt-compressed and
 * quantized — every copy made here with @gltf-transform into a temporary folder, never
 * committed — loads to the same skeletons, clips and vertices as Fox.glb (within the
 * quantization step where there is one); external URIs that leave the file's folder are refused
 * and nothing outside the folder is read; loadGltfUrl resolves buffers against the URL and
 * refuses other origins.
 */
import fs, { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Accessor, NodeIO, type Document } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnimationError, loadGltf, loadGltfFile, loadGltfUrl, type GltfFetch, type GltfResult } from '../../src/index.js';
import { computeModelPose, computeSkinPalette, MATRIX_STRIDE, POSE_STRIDE, skinVertices } from '../../src/kernels.js';
import { run } from '../../src/cli/main.js';
import { ASSETS_URL } from '../support/assets.js';

const ASSETS = ASSETS_URL;
const FOX_PATH = new URL('Fox.glb', ASSETS).pathname;
const FOX = new Uint8Array(readFileSync(FOX_PATH));
const CM = { scale: 'cm' } as const;

let tmp = '';
let reference: GltfResult;

/** A fresh @gltf-transform document of Fox.glb. */
async function readFox(io = new NodeIO()): Promise<Document> {
  return io.readBinary(FOX);
}

/** Awaits `promise` and returns the AnimationError it must reject with. */
async function refused(promise: Promise<unknown>, where: string): Promise<AnimationError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AnimationError);
  expect((error as AnimationError).where).toBe(where);
  return error as AnimationError;
}

/** Skeletons, clips and meshes of `a` and `b` bit for bit equal. */
function expectSameImport(a: GltfResult, b: GltfResult): void {
  expect(a.skeletons.length).toBe(b.skeletons.length);
  a.skeletons.forEach((s, i) => {
    const t = b.skeletons[i]!;
    expect([s.names, s.parents, s.rest, s.inverseBind, s.hipJoint, s.hipHeight]).toEqual([t.names, t.parents, t.rest, t.inverseBind, t.hipJoint, t.hipHeight]);
  });
  expect(a.clips.map((c) => [c.name, c.frameRate, c.frameCount, c.duration, c.importError])).toEqual(b.clips.map((c) => [c.name, c.frameRate, c.frameCount, c.duration, c.importError]));
  a.clips.forEach((c, i) => expect(c.frames).toEqual(b.clips[i]!.frames));
  expect(a.meshes).toEqual(b.meshes);
  expect(a.warnings).toEqual(b.warnings);
}

beforeAll(async () => {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  tmp = mkdtempSync(join(tmpdir(), 'bitanim-gltf-'));
  reference = await loadGltf(FOX, CM);
  // .gltf + .bin + .png, as NodeIO writes a document with a texture.
  mkdirSync(join(tmp, 'fox'));
  await new NodeIO().write(join(tmp, 'fox', 'Fox.gltf'), await readFox());
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('loadGltfFile: a .gltf with its .bin and .png beside it', () => {
  it('loads to the same skeletons, clips and meshes as Fox.glb, bit for bit', async () => {
    const files = fs.readdirSync(join(tmp, 'fox')).sort();
    expect(files.some((f) => f.endsWith('.bin'))).toBe(true);
    expect(files.some((f) => f.endsWith('.png'))).toBe(true);
    const json = JSON.parse(readFileSync(join(tmp, 'fox', 'Fox.gltf'), 'utf8'));
    expect(json.buffers[0].uri).toMatch(/\.bin$/);
    expectSameImport(await loadGltfFile(join(tmp, 'fox', 'Fox.gltf'), CM), reference);
    // A .glb goes through loadGltfFile too.
    expectSameImport(await loadGltfFile(FOX_PATH, CM), reference);
  });

  it('loadGltf(bytes) still refuses the .gltf, naming the URI and pointing at loadGltfFile', async () => {
    const error = await refused(loadGltf(readFileSync(join(tmp, 'fox', 'Fox.gltf'))), 'loadGltf');
    expect(error.message).toMatch(/buffers\[0\]\.uri "Fox\.bin" is an external resource: not supported by loadGltf\(bytes\) \(load the file with loadGltfFile or loadGltfUrl/);
  });

  it('bitanim inspect prints for the .gltf what it prints for Fox.glb', async () => {
    const lines = async (file: string) => {
      const out: string[] = [];
      expect(await run(['inspect', file, '--scale', 'cm'], (l) => out.push(l))).toBe(0);
      return out.slice(1);
    };
    const glb = await lines(FOX_PATH);
    expect(glb.length).toBeGreaterThan(4);
    expect(await lines(join(tmp, 'fox', 'Fox.gltf'))).toEqual(glb);
  });

  it('a missing .bin, a directory and a non-regular resource are AnimationErrors naming the file and URI', async () => {
    const dir = join(tmp, 'missing');
    mkdirSync(join(dir, 'sub.bin'), { recursive: true });
    const json = JSON.parse(readFileSync(join(tmp, 'fox', 'Fox.gltf'), 'utf8'));
    json.buffers[0].uri = 'nothere.bin';
    writeFileSync(join(dir, 'a.gltf'), JSON.stringify(json));
    expect((await refused(loadGltfFile(join(dir, 'a.gltf')), 'loadGltfFile')).message).toMatch(/a\.gltf buffers\[0\]\.uri "nothere\.bin" cannot be read \(ENOENT\)/);
    json.buffers[0].uri = 'sub.bin';
    writeFileSync(join(dir, 'b.gltf'), JSON.stringify(json));
    expect((await refused(loadGltfFile(join(dir, 'b.gltf')), 'loadGltfFile')).message).toMatch(/"sub\.bin" .*is a directory, not a regular file/);
    expect((await refused(loadGltfFile(join(dir, 'none.gltf')), 'loadGltfFile')).message).toMatch(/none\.gltf cannot be read \(ENOENT\)/);
  });
});

describe('loadGltfFile: URIs outside the file\'s folder are refused and nothing outside it is read', () => {
  const FORBIDDEN = ['../secret.bin', '%2e%2e/secret.bin', 'sub/../../secret.bin', '/etc/passwd', 'file:///etc/passwd', `${'x'}:${sep}secret.bin`, '%2Fetc%2Fpasswd', 'https://example.com/Fox.bin'];

  it.each(FORBIDDEN)('"%s"', async (uri) => {
    // The decoy: ../secret.bin holds the real Fox.bin, so reading it would load a valid fox.
    const root = mkdtempSync(join(tmp, 'escape-'));
    const folder = join(root, 'model');
    mkdirSync(folder);
    const bin = readFileSync(join(tmp, 'fox', 'Fox.bin'));
    writeFileSync(join(root, 'secret.bin'), bin);
    const json = JSON.parse(readFileSync(join(tmp, 'fox', 'Fox.gltf'), 'utf8'));
    json.buffers[0].uri = uri;
    const file = join(folder, 'Fox.gltf');
    writeFileSync(file, JSON.stringify(json));

    const touched: string[] = [];
    const spies = (['open', 'readFile', 'stat', 'lstat', 'realpath'] as const).map((name) => {
      const original = fs.promises[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(fs.promises, name).mockImplementation(((target: unknown, ...rest: unknown[]) => {
        touched.push(String(target));
        return original.call(fs.promises, target, ...rest);
      }) as never);
    });
    try {
      const error = await refused(loadGltfFile(file), 'loadGltfFile');
      expect(error.message).toContain(file);
      expect(error.message).toContain(JSON.stringify(uri));
      expect(error.message).toMatch(/refused|cannot be read/);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(touched.length).toBeGreaterThan(0); // the spies saw the .gltf being read
    for (const path of touched) expect(resolve(path).startsWith(folder + sep) || resolve(path) === folder, path).toBe(true);
  });

  it('a symlink inside the folder pointing outside is refused before it is opened', async () => {
    const root = mkdtempSync(join(tmp, 'link-'));
    mkdirSync(join(root, 'model'));
    writeFileSync(join(root, 'secret.bin'), readFileSync(join(tmp, 'fox', 'Fox.bin')));
    symlinkSync(join(root, 'secret.bin'), join(root, 'model', 'Fox.bin'));
    writeFileSync(join(root, 'model', 'Fox.gltf'), readFileSync(join(tmp, 'fox', 'Fox.gltf')));
    const opened: string[] = [];
    const original = fs.promises.open;
    const spy = vi.spyOn(fs.promises, 'open').mockImplementation(((target: string, ...rest: never[]) => {
      opened.push(String(target));
      return (original as (...a: unknown[]) => unknown).call(fs.promises, target, ...rest);
    }) as never);
    try {
      expect((await refused(loadGltfFile(join(root, 'model', 'Fox.gltf')), 'loadGltfFile')).message).toMatch(/"Fox\.bin" is a link to .*secret\.bin, outside the file's folder/);
    } finally {
      spy.mockRestore();
    }
    expect(opened).toEqual([join(root, 'model', 'Fox.gltf')]);
  });

  it('a subfolder inside the folder is fine, and so is a path that comes back into it', async () => {
    const folder = mkdtempSync(join(tmp, 'sub-'));
    mkdirSync(join(folder, 'buffers'));
    writeFileSync(join(folder, 'buffers', 'fox data.bin'), readFileSync(join(tmp, 'fox', 'Fox.bin')));
    writeFileSync(join(folder, 'buffers', 'fox colour.png'), readFileSync(join(tmp, 'fox', 'baseColor.png')));
    const json = JSON.parse(readFileSync(join(tmp, 'fox', 'Fox.gltf'), 'utf8'));
    json.buffers[0].uri = 'buffers/../buffers/fox%20data.bin';
    json.images[0].uri = 'buffers/fox%20colour.png';
    writeFileSync(join(folder, 'Fox.gltf'), JSON.stringify(json));
    expectSameImport(await loadGltfFile(join(folder, 'Fox.gltf'), CM), reference);
  });
});

describe('EXT_meshopt_compression', () => {
  /** Fox.glb written with meshopt compression by @gltf-transform's extension and meshoptimizer's encoder. */
  async function meshoptFox(method: 'quantize' | 'filter'): Promise<{ io: NodeIO; doc: Document }> {
    const io = new NodeIO().registerExtensions([EXTMeshoptCompression]).registerDependencies({ 'meshopt.encoder': MeshoptEncoder, 'meshopt.decoder': MeshoptDecoder });
    const doc = await readFox(io);
    doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: method === 'filter' ? EXTMeshoptCompression.EncoderMethod.FILTER : EXTMeshoptCompression.EncoderMethod.QUANTIZE });
    return { io, doc };
  }

  const viewsOf = (glb: Uint8Array) => {
    const length = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
    return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length)));
  };

  it('lossless (no filters): the same import as Fox.glb, bit for bit, from a .glb and from a .gltf + .bin', async () => {
    const { io, doc } = await meshoptFox('quantize');
    const glb = await io.writeBinary(doc);
    const json = viewsOf(glb);
    expect(json.extensionsRequired).toContain('EXT_meshopt_compression');
    const compressed = json.bufferViews.filter((v: any) => v.extensions?.EXT_meshopt_compression);
    expect(compressed.length).toBeGreaterThan(3);
    expect(reference.meshes[0]!.indices).toBeNull(); // the Fox is not indexed: vertex streams only
    expect(new Set(compressed.map((v: any) => v.extensions.EXT_meshopt_compression.mode))).toEqual(new Set(['ATTRIBUTES']));
    expectSameImport(await loadGltf(glb, CM), reference);

    mkdirSync(join(tmp, 'meshopt'));
    await io.write(join(tmp, 'meshopt', 'Fox.gltf'), (await meshoptFox('quantize')).doc);
    expectSameImport(await loadGltfFile(join(tmp, 'meshopt', 'Fox.gltf'), CM), reference);
  });

  it('with filters (lossy: quaternion, exponential): the same import as @gltf-transform\'s own decoding of it, bit for bit', async () => {
    const { io, doc } = await meshoptFox('filter');
    const glb = await io.writeBinary(doc);
    const filters = new Set(viewsOf(glb).bufferViews.map((v: any) => v.extensions?.EXT_meshopt_compression?.filter).filter(Boolean));
    expect(filters).toEqual(new Set(['QUATERNION', 'EXPONENTIAL']));
    // The oracle: @gltf-transform reads it with its EXTMeshoptCompression, then writes plain floats.
    const decoded = await io.readBinary(glb);
    decoded.getRoot().listExtensionsUsed().forEach((e) => e.dispose());
    const plain = await new NodeIO().writeBinary(decoded);
    expect(viewsOf(plain).extensionsUsed ?? []).not.toContain('EXT_meshopt_compression');
    const ours = await loadGltf(glb, CM);
    expectSameImport(ours, await loadGltf(plain, CM));
    // And close to the original: same skeleton and mesh; rest of the keys within the filters' precision.
    expect(ours.meshes).toEqual(reference.meshes);
    expect(ours.skeletons[0]!.inverseBind).toEqual(reference.skeletons[0]!.inverseBind);
    expect(ours.clips.map((c) => c.name)).toEqual(reference.clips.map((c) => c.name));
  });

  it('a bad mode, filter, range or corrupt data is an AnimationError naming the view', async () => {
    const { io, doc } = await meshoptFox('quantize');
    const glb = await io.writeBinary(doc);
    const json = viewsOf(glb);
    const v = json.bufferViews.findIndex((x: any) => x.extensions?.EXT_meshopt_compression?.mode === 'ATTRIBUTES');
    const variant = async (edit: (ext: any, json: any) => void, bin?: (b: Uint8Array) => void) => {
      const j = structuredClone(json);
      edit(j.bufferViews[v].extensions.EXT_meshopt_compression, j);
      const binLength = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
      const chunk = glb.slice(28 + binLength, glb.length);
      bin?.(chunk);
      const text = new TextEncoder().encode(JSON.stringify(j));
      const padded = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
      padded.set(text);
      const out = new Uint8Array(20 + padded.length + 8 + chunk.length);
      const view = new DataView(out.buffer);
      view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, out.length, true);
      view.setUint32(12, padded.length, true); view.setUint32(16, 0x4e4f534a, true);
      out.set(padded, 20);
      view.setUint32(20 + padded.length, chunk.length, true); view.setUint32(24 + padded.length, 0x004e4942, true);
      out.set(chunk, 28 + padded.length);
      return refused(loadGltf(out), 'loadGltf');
    };
    const at = `bufferViews\\[${v}\\]\\.extensions\\.EXT_meshopt_compression`;
    expect((await variant((e) => { e.mode = 'POINTS'; })).message).toMatch(new RegExp(`${at}\\.mode is "POINTS"`));
    expect((await variant((e) => { e.filter = 'DCT'; })).message).toMatch(new RegExp(`${at}\\.filter is "DCT"`));
    expect((await variant((e) => { e.filter = 'QUATERNION'; e.byteStride = 12; })).message).toMatch(/filter QUATERNION with byteStride 12/);
    expect((await variant((e) => { e.byteLength = 1e9; })).message).toMatch(/out of range of buffers\[0\]/);
    expect((await variant((e) => { e.count = 1e9; })).message).toMatch(/count is 1000000000|more than the 536870912 bytes|byteLength is/);
    const start = json.bufferViews[v].extensions.EXT_meshopt_compression.byteOffset;
    expect((await variant(() => undefined, (b) => b.fill(0xff, start, start + 64))).message).toMatch(new RegExp(`${at} could not be decoded: Malformed buffer data`));
  });
});

describe('KHR_mesh_quantization', () => {
  /**
   * Fox.glb quantized by hand as gltfpack does it: POSITION to int16 (not normalized) on a
   * uniform grid of step `step` around the box centre, the dequantization D (scale `step`,
   * offset centre) folded into the inverse bind matrices (a skinned mesh's node transform is
   * ignored, so the extension puts D there); TEXCOORD_0 to normalized uint16, JOINTS_0 to uint8,
   * WEIGHTS_0 to normalized uint16 with the rounding remainder on the largest weight (sum 65535).
   */
  async function quantizedFox(): Promise<{ glb: Uint8Array; step: number }> {
    const io = new NodeIO().registerExtensions([KHRMeshQuantization]);
    const doc = await readFox(io);
    doc.createExtension(KHRMeshQuantization).setRequired(true);
    const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    const position = prim.getAttribute('POSITION')!;
    const min = position.getMin([]), max = position.getMax([]);
    const centre = min.map((m, k) => (m + max[k]!) / 2);
    const step = Math.max(...max.map((m, k) => (m - min[k]!) / 2)) / 32767;
    const p = position.getArray() as Float32Array;
    position.setArray(Int16Array.from(p, (x, i) => Math.round((x - centre[i % 3]!) / step))).setNormalized(false);
    const uv = prim.getAttribute('TEXCOORD_0')!;
    const t = uv.getArray() as Float32Array;
    expect(t.every((x) => x >= 0 && x <= 1)).toBe(true);
    uv.setArray(Uint16Array.from(t, (x) => Math.round(x * 65535))).setNormalized(true);
    const joints = prim.getAttribute('JOINTS_0')!;
    joints.setArray(Uint8Array.from(joints.getArray()!));
    const weights = prim.getAttribute('WEIGHTS_0')!;
    const w = weights.getArray() as Float32Array;
    const q = new Uint16Array(w.length);
    for (let v = 0; v < w.length; v += 4) {
      let sum = 0, big = v;
      for (let i = v; i < v + 4; i++) {
        q[i] = Math.round(w[i]! * 65535);
        sum += q[i]!;
        if (w[i]! > w[big]!) big = i;
      }
      q[big] += 65535 - sum;
    }
    weights.setArray(q).setNormalized(true);
    // IBM' = IBM · D, D = [step·I | centre] (column-major 4×4).
    const ibm = doc.getRoot().listSkins()[0]!.getInverseBindMatrices()!;
    const m = ibm.getArray() as Float32Array;
    const out = new Float32Array(m.length);
    for (let j = 0; j < m.length; j += 16) {
      for (let c = 0; c < 3; c++) for (let r = 0; r < 4; r++) out[j + c * 4 + r] = m[j + c * 4 + r]! * step;
      for (let r = 0; r < 4; r++) out[j + 12 + r] = m[j + r]! * centre[0]! + m[j + 4 + r]! * centre[1]! + m[j + 8 + r]! * centre[2]! + m[j + 12 + r]!;
    }
    ibm.setArray(out);
    expect(position.getComponentType()).toBe(Accessor.ComponentType.SHORT);
    return { glb: await io.writeBinary(doc), step };
  }

  it('skinned vertices of every clip within the quantization step of Fox.glb\'s; skeleton joints and clips unchanged', async () => {
    const { glb, step } = await quantizedFox();
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
    expect(json.extensionsRequired).toEqual(['KHR_mesh_quantization']);
    const ours = await loadGltf(glb, CM);
    const [s, t] = [ours.skeletons[0]!, reference.skeletons[0]!];
    expect([s.names, s.parents, s.rest]).toEqual([t.names, t.parents, t.rest]);
    ours.clips.forEach((c, i) => expect(c.frames).toEqual(reference.clips[i]!.frames));
    const [mq, m0] = [ours.meshes[0]!, reference.meshes[0]!];
    expect(mq.joints).toEqual(m0.joints);
    expect(mq.indices).toEqual(m0.indices);
    // Positions are the integers, as glTF's dequantization lives in the inverse bind matrices.
    expect(mq.positions.every((x) => Math.abs(x * 100 - Math.round(x * 100)) < 0.01)).toBe(true);
    // UVs, stored as normalized uint16, dequantized: within half a step (1/65535) of the floats.
    expect(json.accessors[json.meshes[0].primitives[0].attributes.TEXCOORD_0]).toMatchObject({ componentType: 5123, normalized: true });
    expect(mq.uvs!.length).toBe(m0.uvs!.length);
    let uvWorst = 0;
    mq.uvs!.forEach((u, i) => { uvWorst = Math.max(uvWorst, Math.abs(u - m0.uvs![i]!)); });
    expect(uvWorst).toBeLessThanOrEqual(0.5 / 65535 + 1e-7);
    expect(uvWorst).toBeGreaterThan(0); // quantized, not the floats passed through
    expect(mq.material).toEqual(m0.material);

    const n = t.jointCount;
    const model = new Float32Array(n * MATRIX_STRIDE), k0 = new Float32Array(n * MATRIX_STRIDE), kq = new Float32Array(n * MATRIX_STRIDE);
    const v0 = new Float32Array(m0.positions.length), vq = new Float32Array(m0.positions.length);
    const halfDiagonal = (step / 2) * Math.sqrt(3) * 0.01; // metres: scale 'cm'
    let worst = 0, checked = 0;
    for (const clip of reference.clips) {
      for (const frame of [0, clip.frameCount >> 1, clip.frameCount - 1]) {
        computeModelPose(model, 0, clip.frames, frame * n * POSE_STRIDE, t.parents, n);
        computeSkinPalette(k0, 0, model, 0, t.inverseBind, n);
        computeSkinPalette(kq, 0, model, 0, s.inverseBind, n);
        skinVertices(k0, m0.positions, m0.joints, m0.weights, v0);
        skinVertices(kq, mq.positions, mq.joints, mq.weights, vq);
        for (let v = 0; v < v0.length / 3; v++) {
          // |v' − v| ≤ Σ w'ᵢ‖Kᵢ‖·|p' − p| + Σ|w'ᵢ − wᵢ|·maxᵢ|Kᵢp − v| (the weights of both sum to 1).
          let norm = 0, spread = 0, dw = 0;
          for (let i = 0; i < 4; i++) {
            const j = m0.joints[v * 4 + i]! * MATRIX_STRIDE;
            let frob = 0;
            for (let c = 0; c < 9; c++) frob += k0[j + c]! ** 2;
            norm = Math.max(norm, Math.sqrt(frob));
            const kp = [0, 1, 2].map((r) => k0[j + r]! * m0.positions[v * 3]! + k0[j + 3 + r]! * m0.positions[v * 3 + 1]! + k0[j + 6 + r]! * m0.positions[v * 3 + 2]! + k0[j + 9 + r]!);
            spread = Math.max(spread, Math.hypot(kp[0]! - v0[v * 3]!, kp[1]! - v0[v * 3 + 1]!, kp[2]! - v0[v * 3 + 2]!));
            dw += Math.abs(mq.weights[v * 4 + i]! - m0.weights[v * 4 + i]!);
          }
          const bound = norm * halfDiagonal + dw * spread + 1e-5; // + float32 rounding of ~1 m values
          const error = Math.hypot(vq[v * 3]! - v0[v * 3]!, vq[v * 3 + 1]! - v0[v * 3 + 1]!, vq[v * 3 + 2]! - v0[v * 3 + 2]!);
          expect(error, `clip ${clip.name} frame ${frame} vertex ${v}`).toBeLessThanOrEqual(bound);
          worst = Math.max(worst, error);
          checked++;
        }
      }
    }
    expect(checked).toBe(9 * 1728);
    expect(worst).toBeGreaterThan(0); // it really is quantized
    expect(worst).toBeLessThan(2 * halfDiagonal); // and the step is what bounds it
  });
});

describe('loadGltfUrl (an injected fetch)', () => {
  const served = (): Map<string, Uint8Array> => new Map([
    ['https://example.com/models/fox/Fox.gltf', readFileSync(join(tmp, 'fox', 'Fox.gltf'))],
    ['https://example.com/models/fox/Fox.bin', readFileSync(join(tmp, 'fox', 'Fox.bin'))],
    ['https://example.com/models/fox/baseColor.png', readFileSync(join(tmp, 'fox', 'baseColor.png'))],
    ['https://example.com/models/Fox.bin', readFileSync(join(tmp, 'fox', 'Fox.bin'))],
    ['https://cdn.example.net/Fox.bin', readFileSync(join(tmp, 'fox', 'Fox.bin'))],
  ]);
  const fetcher = (files: Map<string, Uint8Array>, asked: string[]): GltfFetch => async (url) => {
    asked.push(url);
    const body = files.get(url);
    return { ok: body !== undefined, status: body ? 200 : 404, statusText: body ? 'OK' : 'Not Found', arrayBuffer: async () => new Uint8Array(body ?? []).buffer };
  };
  const withUri = (files: Map<string, Uint8Array>, uri: string) => {
    const json = JSON.parse(new TextDecoder().decode(files.get('https://example.com/models/fox/Fox.gltf')));
    json.buffers[0].uri = uri;
    files.set('https://example.com/models/fox/Fox.gltf', new TextEncoder().encode(JSON.stringify(json)));
    return files;
  };

  it('fetches buffers and the base colour image relative to the file\'s URL', async () => {
    const asked: string[] = [];
    expectSameImport(await loadGltfUrl('https://example.com/models/fox/Fox.gltf', { ...CM, fetch: fetcher(served(), asked) }), reference);
    expect(asked).toEqual(['https://example.com/models/fox/Fox.gltf', 'https://example.com/models/fox/Fox.bin', 'https://example.com/models/fox/baseColor.png']);
    const up: string[] = [];
    await loadGltfUrl('https://example.com/models/fox/Fox.gltf', { fetch: fetcher(withUri(served(), '../Fox.bin'), up) });
    expect(up[1]).toBe('https://example.com/models/Fox.bin');
  });

  it('refuses another origin before fetching it, unless allowCrossOrigin', async () => {
    for (const uri of ['https://cdn.example.net/Fox.bin', '//cdn.example.net/Fox.bin', 'http://example.com/models/fox/Fox.bin', 'file:///etc/passwd']) {
      const asked: string[] = [];
      const error = await refused(loadGltfUrl('https://example.com/models/fox/Fox.gltf', { fetch: fetcher(withUri(served(), uri), asked) }), 'loadGltfUrl');
      expect(error.message).toContain(`https://example.com/models/fox/Fox.gltf buffers[0].uri ${JSON.stringify(uri)}`);
      expect(error.message).toMatch(/another origin than the file's \(https:\/\/example\.com\): refused/);
      expect(asked).toEqual(['https://example.com/models/fox/Fox.gltf']);
    }
    const asked: string[] = [];
    await loadGltfUrl('https://example.com/models/fox/Fox.gltf', { fetch: fetcher(withUri(served(), 'https://cdn.example.net/Fox.bin'), asked), allowCrossOrigin: true });
    expect(asked[1]).toBe('https://cdn.example.net/Fox.bin');
    // allowCrossOrigin admits http(s) only.
    await refused(loadGltfUrl('https://example.com/models/fox/Fox.gltf', { fetch: fetcher(withUri(served(), 'file:///etc/passwd'), []), allowCrossOrigin: true }), 'loadGltfUrl');
  });

  it('under a scheme without origins (file:), buffers must lie in the file\'s folder', async () => {
    const files = new Map([['file:///models/fox/Fox.gltf', served().get('https://example.com/models/fox/Fox.gltf')!], ['file:///models/fox/Fox.bin', served().get('https://example.com/models/fox/Fox.bin')!], ['file:///models/fox/baseColor.png', served().get('https://example.com/models/fox/baseColor.png')!]]);
    expectSameImport(await loadGltfUrl('file:///models/fox/Fox.gltf', { ...CM, fetch: fetcher(files, []) }), reference);
    const json = JSON.parse(new TextDecoder().decode(files.get('file:///models/fox/Fox.gltf')));
    json.buffers[0].uri = '../../etc/passwd';
    files.set('file:///models/fox/Fox.gltf', new TextEncoder().encode(JSON.stringify(json)));
    const asked: string[] = [];
    await refused(loadGltfUrl('file:///models/fox/Fox.gltf', { fetch: fetcher(files, asked) }), 'loadGltfUrl');
    expect(asked).toEqual(['file:///models/fox/Fox.gltf']);
  });

  it('HTTP errors and a relative URL without a page are AnimationErrors naming the URL', async () => {
    expect((await refused(loadGltfUrl('https://example.com/nothing.glb', { fetch: fetcher(served(), []) }), 'loadGltfUrl')).message).toBe('loadGltfUrl: https://example.com/nothing.glb could not be fetched: HTTP 404 Not Found');
    expect((await refused(loadGltfUrl('https://example.com/models/fox/Fox.gltf', { fetch: fetcher(withUri(served(), 'gone.bin'), []) }), 'loadGltfUrl')).message).toMatch(/buffers\[0\]\.uri "gone\.bin" \(https:\/\/example\.com\/models\/fox\/gone\.bin\) could not be fetched: HTTP 404/);
    expect((await refused(loadGltfUrl('models/Fox.glb', { fetch: fetcher(served(), []) }), 'loadGltfUrl')).message).toMatch(/is not a URL/);
  });
});

describe('KHR_draco_mesh_compression', () => {
  it('is refused naming the extension', async () => {
    const io = new NodeIO();
    const doc = await readFox(io);
    const { json, resources } = await io.writeJSON(doc);
    json.extensionsUsed = ['KHR_draco_mesh_compression'];
    json.extensionsRequired = ['KHR_draco_mesh_compression'];
    const folder = mkdtempSync(join(tmp, 'draco-'));
    for (const [uri, bytes] of Object.entries(resources)) writeFileSync(join(folder, uri), bytes);
    writeFileSync(join(folder, 'Fox.gltf'), JSON.stringify(json));
    expect(existsSync(join(dirname(join(folder, 'Fox.gltf')), json.buffers![0]!.uri!))).toBe(true);
    const error = await refused(loadGltfFile(join(folder, 'Fox.gltf')), 'loadGltf');
    expect(error.message).toMatch(/extensionsRequired\[0\] "KHR_draco_mesh_compression" is required by the file but not supported \(bitanim has no Draco decoder/);
  });
});
