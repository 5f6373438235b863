/**
 * Materials and UVs from glTF (issue 20 item 1): each skinned primitive's TEXCOORD_0 and
 * material, checked against the file's own JSON and BIN chunk parsed by hand here (not through
 * the importer or @gltf-transform); the faults the importer refuses, naming the primitive and
 * the material.
 */
import { describe, expect, it } from 'vitest';
import { AnimationError, loadGltf } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A GLB's JSON (parsed) and BIN chunk. */
function splitGlb(bytes: Uint8Array): { json: any; bin: Uint8Array } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const binLength = view.getUint32(20 + jsonLength, true);
  return { json, bin: bytes.subarray(28 + jsonLength, 28 + jsonLength + binLength) };
}

/** A GLB from JSON and a BIN chunk. */
function packGlb(json: unknown, bin: Uint8Array): Uint8Array {
  const raw = new TextEncoder().encode(JSON.stringify(json));
  const jsonChunk = new Uint8Array(Math.ceil(raw.length / 4) * 4).fill(0x20);
  jsonChunk.set(raw);
  const binChunk = new Uint8Array(Math.ceil(bin.length / 4) * 4);
  binChunk.set(bin);
  const out = new Uint8Array(28 + jsonChunk.length + binChunk.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonChunk, 20);
  view.setUint32(20 + jsonChunk.length, binChunk.length, true);
  view.setUint32(24 + jsonChunk.length, 0x004e4942, true);
  out.set(binChunk, 28 + jsonChunk.length);
  return out;
}

/** A float VEC2 accessor's values, read from the BIN chunk by hand (tightly packed or strided). */
function readVec2(json: any, bin: Uint8Array, index: number): Float32Array {
  const accessor = json.accessors[index];
  expect([accessor.componentType, accessor.type]).toEqual([5126, 'VEC2']);
  const view = json.bufferViews[accessor.bufferView];
  const stride = view.byteStride ?? 8;
  const data = new DataView(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0));
  const out = new Float32Array(accessor.count * 2);
  for (let i = 0; i < accessor.count; i++) {
    out[i * 2] = data.getFloat32(i * stride, true);
    out[i * 2 + 1] = data.getFloat32(i * stride + 4, true);
  }
  return out;
}

const FOX = readAsset('Fox.glb');
const ROBOT = readAsset('RobotExpressive.glb');

describe('the Fox: UVs and a PNG base colour texture', () => {
  it('UVs are TEXCOORD_0 as stored; the material, texture bytes, MIME type and sampler are the file\'s', async () => {
    const { json, bin } = splitGlb(FOX);
    const { meshes } = await loadGltf(FOX, { scale: 'cm' });
    expect(meshes).toHaveLength(1);
    const mesh = meshes[0]!;
    const prim = json.meshes[0].primitives[0];
    const uvs = readVec2(json, bin, prim.attributes.TEXCOORD_0);
    expect(mesh.uvs).toBeInstanceOf(Float32Array);
    expect(mesh.uvs!.length).toBe((mesh.positions.length / 3) * 2);
    expect(mesh.uvs).toEqual(uvs);
    expect(uvs.some((x) => x !== 0)).toBe(true);

    const material = mesh.material!;
    const def = json.materials[prim.material];
    expect(def.name).toBe('fox_material');
    expect(material.name).toBe('fox_material');
    expect(def.pbrMetallicRoughness.baseColorFactor).toBeUndefined();
    expect(material.baseColorFactor).toEqual([1, 1, 1, 1]); // glTF's default
    expect([material.doubleSided, material.alphaMode, material.alphaCutoff]).toEqual([false, 'OPAQUE', 0.5]);

    const texture = material.baseColorTexture!;
    const textureDef = json.textures[def.pbrMetallicRoughness.baseColorTexture.index];
    const image = json.images[textureDef.source];
    const view = json.bufferViews[image.bufferView];
    const stored = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    expect(texture.mimeType).toBe('image/png');
    expect(Array.from(texture.image.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect(texture.image).toEqual(stored);
    expect(texture.image.buffer).not.toBe(FOX.buffer); // a copy: the file's bytes can be dropped
    expect(json.samplers[textureDef.sampler]).toEqual({ magFilter: 9729, minFilter: 9987 });
    expect(texture.sampler).toEqual({ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 });
    expect(texture.texCoord).toBe(0);
  });

  it('a .gltf with the buffer and the image as data: URIs gives the same UVs and image', async () => {
    const { json, bin } = splitGlb(FOX);
    const prim = json.meshes[0].primitives[0];
    const image = json.images[json.textures[json.materials[prim.material].pbrMetallicRoughness.baseColorTexture.index].source];
    const view = json.bufferViews[image.bufferView];
    const png = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
    const gltf = structuredClone(json);
    gltf.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
    const gltfImage = gltf.images[json.textures[0].source];
    delete gltfImage.bufferView;
    delete gltfImage.mimeType; // given by the data: URI
    gltfImage.uri = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    const [a, b] = [await loadGltf(FOX), await loadGltf(new TextEncoder().encode(JSON.stringify(gltf)))];
    expect(b.meshes[0]!.uvs).toEqual(a.meshes[0]!.uvs);
    expect(b.meshes[0]!.material).toEqual(a.meshes[0]!.material);
  });
});

describe('RobotExpressive: colour factors, no texture', () => {
  it('each primitive (skinned hands and rigid parts) has its material\'s factor, no texture and no UVs', async () => {
    const { json } = splitGlb(ROBOT);
    const { meshes } = await loadGltf(ROBOT);
    expect(meshes.filter((m) => m.rigidJoint < 0).map((m) => m.name)).toEqual(['Hand.R#0', 'Hand.R#1', 'Hand.L#0', 'Hand.L#1']);
    expect(meshes).toHaveLength(19);
    for (const mesh of meshes) {
      const [name, p] = mesh.name.split('#');
      const prim = json.meshes.find((m: any) => m.name === name).primitives[Number(p)];
      expect(prim.attributes.TEXCOORD_0).toBeUndefined();
      expect(mesh.uvs).toBeNull();
      const def = json.materials[prim.material];
      expect(def.pbrMetallicRoughness.baseColorTexture).toBeUndefined();
      expect(mesh.material).toEqual({
        name: def.name,
        baseColorFactor: def.pbrMetallicRoughness.baseColorFactor,
        baseColorTexture: null,
        doubleSided: false,
        alphaMode: 'OPAQUE',
        alphaCutoff: 0.5,
      });
    }
    // Two materials, distinct factors: "Main" (orange) on #0, "Grey" on #1.
    const hands = meshes.filter((m) => m.rigidJoint < 0);
    expect(hands.map((m) => m.material!.name)).toEqual(['Main', 'Grey', 'Main', 'Grey']);
    expect(hands[0]!.material!.baseColorFactor[0]).toBeGreaterThan(hands[0]!.material!.baseColorFactor[2] * 10);
  });
});

describe('refusals name the primitive and the material', () => {
  /** loadGltf of the Fox with `edit` applied to its JSON: the AnimationError's message. */
  async function refusedFox(edit: (json: any) => void): Promise<string> {
    const { json, bin } = splitGlb(FOX);
    edit(json);
    const error = await loadGltf(packGlb(json, bin)).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(AnimationError);
    expect((error as AnimationError).where).toBe('loadGltf');
    return (error as AnimationError).message;
  }
  const AT = 'meshes[0] "fox1".primitives[0].material → materials[0] "fox_material"';
  const TEXTURE = `${AT}.pbrMetallicRoughness.baseColorTexture`;

  it('a texture, image or sampler index out of range', async () => {
    expect(await refusedFox((j) => { j.materials[0].pbrMetallicRoughness.baseColorTexture.index = 3; })).toContain(`${TEXTURE}.index is 3: out of range of the 1 textures`);
    expect(await refusedFox((j) => { j.textures[0].source = 1; })).toContain(`${TEXTURE} → textures[0].source is 1: out of range of the 1 images`);
    expect(await refusedFox((j) => { j.textures[0].sampler = 2; })).toContain(`${TEXTURE} → textures[0].sampler is 2: out of range of the 1 samplers`);
    expect(await refusedFox((j) => { j.meshes[0].primitives[0].material = 4; })).toContain('meshes[0] "fox1".primitives[0].material is 4: out of range of the 1 materials');
  });

  it('an image without bytes: no bufferView nor uri, an external URI for loadGltf(bytes), a view out of range', async () => {
    expect(await refusedFox((j) => { delete j.images[0].bufferView; })).toContain(`${TEXTURE} → textures[0] → images[0] has neither a bufferView nor a uri`);
    const external = await refusedFox((j) => { delete j.images[0].bufferView; j.images[0].uri = 'fox.png'; });
    expect(external).toContain(`${TEXTURE} → textures[0] → images[0].uri "fox.png" is an external image: not read by loadGltf(bytes) (load the file with loadGltfFile or loadGltfUrl`);
    expect(await refusedFox((j) => { j.images[0].bufferView = 99; })).toMatch(/images\[0\]\.bufferView is 99: not a buffer view index/);
    expect(await refusedFox((j) => { j.bufferViews[j.images[0].bufferView].byteLength = 1e8; })).toMatch(/bufferViews\[\d+\] bytes .* are out of range of buffers\[0\]/);
    // No MIME type and bytes that are not an image format bitanim recognizes.
    expect(await refusedFox((j) => { delete j.images[0].mimeType; j.images[0].bufferView = j.meshes[0].primitives[0].attributes.POSITION; })).toContain('images[0] has no mimeType and its bytes are not PNG, JPEG, WebP or KTX2');
  });

  it('a TEXCOORD_0 of the wrong type or count', async () => {
    const type = await refusedFox((j) => { j.accessors[j.meshes[0].primitives[0].attributes.TEXCOORD_0].type = 'SCALAR'; });
    expect(type).toMatch(/accessors\[1\] is SCALAR, but meshes\[0\]\.primitives\[0\]\.attributes\.TEXCOORD_0 needs VEC2/);
    const count = await refusedFox((j) => { j.accessors[j.meshes[0].primitives[0].attributes.TEXCOORD_0].count = 100; });
    expect(count).toContain('meshes[0].primitives[0].attributes.TEXCOORD_0 has 100 elements, POSITION has 1728');
    const component = await refusedFox((j) => { j.accessors[j.meshes[0].primitives[0].attributes.TEXCOORD_0].componentType = 5125; });
    expect(component).toMatch(/TEXCOORD_0 needs 5126 or 5120 or 5121 or 5122 or 5123/);
  });

  it('a bad sampler enum, colour factor or alpha mode', async () => {
    expect(await refusedFox((j) => { j.samplers[0].wrapS = 1; })).toContain(`${TEXTURE} → textures[0] → samplers[0].wrapS is 1: must be one of 33071, 33648, 10497`);
    expect(await refusedFox((j) => { j.materials[0].pbrMetallicRoughness.baseColorFactor = [1, 2, 1, 1]; })).toContain(`${AT}.pbrMetallicRoughness.baseColorFactor[1] is 2: must be in [0, 1]`);
    expect(await refusedFox((j) => { j.materials[0].alphaMode = 'CUTOUT'; })).toContain(`${AT}.alphaMode is "CUTOUT"`);
  });

  it('a texture on TEXCOORD_1 is a warning (only TEXCOORD_0 is read); sampler-less textures get glTF\'s defaults', async () => {
    const { json, bin } = splitGlb(FOX);
    json.materials[0].pbrMetallicRoughness.baseColorTexture.texCoord = 1;
    delete json.textures[0].sampler;
    json.materials[0].doubleSided = true;
    json.materials[0].alphaMode = 'MASK';
    json.materials[0].alphaCutoff = 0.25;
    const { meshes, warnings } = await loadGltf(packGlb(json, bin));
    expect(warnings).toContain(`${TEXTURE} uses TEXCOORD_1: only TEXCOORD_0 is read (into uvs)`);
    const material = meshes[0]!.material!;
    expect(material.baseColorTexture!.texCoord).toBe(1);
    expect(material.baseColorTexture!.sampler).toEqual({ wrapS: 10497, wrapT: 10497 });
    expect([material.doubleSided, material.alphaMode, material.alphaCutoff]).toEqual([true, 'MASK', 0.25]);
  });
});
