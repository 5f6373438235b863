/**
 * The crowd's per-frame draw data without a GPU: which characters it writes (in view, still
 * characters) and what (root transform, entity id, tint), one draw per body, the corner texture
 * and bind sphere of a body, frustum planes against points placed by hand, and the base colour
 * texture's fallback when the image cannot decode (a pixi warning naming the mesh).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnimationError, createAnimationWorld, loadGltf, removeCharacter, setRootTransform, spawnCharacter, type GltfMaterial, type GltfResult, type SkinnedMeshData } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

type Pixi = typeof import('../../src/pixi/index.js');
let pixi: Pixi;
let fox: GltfResult;
let mesh: SkinnedMeshData;
let frustum: typeof import('../../src/pixi/frustum.js');

beforeAll(async () => {
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
  pixi = await import('../../src/pixi/index.js');
  frustum = await import('../../src/pixi/frustum.js');
  fox = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
  mesh = fox.meshes[0]!;
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The crowd's batches (private) as the tests read them. */
type Batch = { body: { corners: number }; slots: Float32Array; size: number; vertexCount: number };
const batchesOf = (crowd: object): Batch[] => [...(crowd as unknown as { batches: Map<unknown, Batch> }).batches.values()];

describe('the crowd\'s frame', () => {
  it('writes the characters in view — root transform, entity id, tint — in one draw per body; culls the rest and removed ones', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const world = createAnimationWorld({ maxEntities: 63, maxJoints: 24 });
    const skeleton = fox.skeletons[mesh.skeleton]!;
    const crowd = pixi.createCrowdRenderer(world, { projection: 'perspective' });
    Object.assign(crowd.camera, { distance: 20, near: 0.5, far: 200, width: 800, height: 600, targetX: 0, targetZ: 0 });
    const a = pixi.createCharacterBody(mesh);
    const b = pixi.createCharacterBody(mesh, null);
    const near = spawnCharacter(world, skeleton, { x: 1, z: -2, yaw: 0.5 });
    const other = spawnCharacter(world, skeleton, { x: -1, z: 1, yaw: -1 });
    const far = spawnCharacter(world, skeleton, { x: 500, z: 0 }); // beyond the far plane
    const gone = spawnCharacter(world, skeleton);
    crowd.setBody(near, a, { tint: 0xff8000 });
    crowd.setBody(far, a);
    crowd.setBody(gone, a);
    crowd.setBody(other, b);
    removeCharacter(world, gone); // still has a body: not drawn
    crowd.update();
    expect(crowd.stats).toMatchObject({ drawn: 2, culled: 2, drawCalls: 2 });
    expect(crowd.children.length).toBe(2);
    const [first, second] = batchesOf(crowd);
    expect(first!.vertexCount).toBe(a.corners);
    expect(second!.vertexCount).toBe(b.corners);
    expect(Array.from(first!.slots.subarray(0, 8))).toEqual([1, 0, -2, Math.fround(0.5), near, 1, Math.fround(128 / 255), 0]);
    expect(Array.from(second!.slots.subarray(0, 8))).toEqual([-1, 0, 1, -1, other, 1, 1, 1]);
    // The far one walks into view; the near one leaves the crowd.
    setRootTransform(world, far, { x: 3, z: 3 });
    crowd.removeBody(near);
    crowd.update();
    expect(crowd.stats).toMatchObject({ drawn: 2, culled: 1 });
    expect(first!.slots[4]).toBe(far);
    // Emptying a body removes its draw.
    crowd.removeBody(other);
    crowd.update();
    expect(crowd.children.length).toBe(1);
    expect(crowd.stats.drawCalls).toBe(1);
    crowd.destroy();
    expect(crowd.children.length).toBe(0);
    expect(batchesOf(crowd)).toEqual([]);
  });

  it('setTint changes the tint the next frame writes; a character without a body or a bad tint is an AnimationError', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const world = createAnimationWorld({ maxEntities: 63, maxJoints: 24 });
    const skeleton = fox.skeletons[mesh.skeleton]!;
    const crowd = pixi.createCrowdRenderer(world, { projection: 'perspective' });
    Object.assign(crowd.camera, { distance: 20, near: 0.5, far: 200, width: 800, height: 600 });
    const body = pixi.createCharacterBody(mesh, null);
    const fox1 = spawnCharacter(world, skeleton);
    const bare = spawnCharacter(world, skeleton);
    crowd.setBody(fox1, body, { tint: 0x102030 });
    crowd.update();
    const [batch] = batchesOf(crowd);
    expect(Array.from(batch!.slots.subarray(5, 8))).toEqual([0x10, 0x20, 0x30].map((c) => Math.fround(c / 255)));
    crowd.setTint(fox1, 0xff0080);
    expect(crowd.tintOf(fox1)).toBe(0xff0080);
    expect(Array.from(batch!.slots.subarray(5, 8))).toEqual([0x10, 0x20, 0x30].map((c) => Math.fround(c / 255))); // not before the frame
    crowd.update();
    expect(Array.from(batch!.slots.subarray(5, 8))).toEqual([1, 0, Math.fround(128 / 255)]);
    expect(() => crowd.setTint(bare, 0xffffff)).toThrow(/setTint.*eid.*has no body/);
    expect(() => crowd.setTint(fox1, 0x1000000)).toThrow(/setTint.*tint.*0xRRGGBB/);
    expect(() => crowd.setTint(fox1, 0.5)).toThrow(AnimationError);
    crowd.removeBody(fox1);
    expect(() => crowd.setTint(fox1, 0)).toThrow(/has no body/);
    crowd.destroy();
  });

  it('a body\'s corners are its vertices in triangle-list order, 16 floats each; its sphere holds every bind position', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const body = pixi.createCharacterBody(mesh);
    const data = body.cornerSource.resource as Float32Array;
    expect(body.corners).toBe(body.arrays.indices.length);
    for (const k of [0, 1, 577, body.corners - 1]) {
      const v = body.arrays.indices[k]!;
      expect(Array.from(data.subarray(k * 16, k * 16 + 16))).toEqual(Array.from(body.arrays.vertices.subarray(v * 16, v * 16 + 16)));
    }
    const [cx, cy, cz, r] = body.sphere;
    for (let i = 0; i < mesh.positions.length; i += 3) {
      expect(Math.hypot(mesh.positions[i]! - cx!, mesh.positions[i + 1]! - cy!, mesh.positions[i + 2]! - cz!)).toBeLessThanOrEqual(r! / 1.5 + 1e-6);
    }
  });

  it('frustum planes: the target is inside; points behind the eye, past the far plane or off to the side are not, unless their sphere reaches in', () => {
    const camera = new pixi.CrowdCamera();
    Object.assign(camera, { projection: 'perspective', yaw: 0, pitch: 0, distance: 10, near: 1, far: 100, fovY: Math.PI / 2, width: 100, height: 100 });
    camera.update();
    const planes = new Float64Array(24);
    frustum.frustumPlanes(planes, camera.viewProj);
    // Eye at (0, 0, 10) looking down −Z; at distance d the view is ±d wide (90° both ways).
    expect(frustum.sphereVisible(planes, 0, 0, 0, 0)).toBe(true);
    expect(frustum.sphereVisible(planes, 0, 0, 20, 0.5)).toBe(false); // behind the eye
    expect(frustum.sphereVisible(planes, 0, 0, -95, 0.5)).toBe(false); // past the far plane (105 m away)
    expect(frustum.sphereVisible(planes, 11, 0, 0, 0.5)).toBe(false); // 10 m away the view is ±10 m
    expect(frustum.sphereVisible(planes, 11, 0, 0, 1)).toBe(true); // … its sphere reaches 0.707 m past the edge plane
    expect(frustum.sphereVisible(planes, 9, 0, 0, 0)).toBe(true);
  });
});

describe('the base colour texture', () => {
  const material = (): GltfMaterial => ({ ...mesh.material!, baseColorTexture: { ...mesh.material!.baseColorTexture!, image: Uint8Array.of(1, 2, 3) } });

  it('an image that fails to decode: a pixi warning naming the mesh; the body keeps drawing white × its base colour factor', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('createImageBitmap', () => Promise.reject(new Error('bad PNG')));
    const body = pixi.createCharacterBody(mesh, material());
    expect(body.texture.status).toBe('decoding');
    expect(await body.texture.ready).toBe(false);
    expect(body.texture.status).toBe('failed');
    expect(body.texture.source.width).toBe(1); // pixi's 1×1 white
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]!.join(' '))).toMatch(new RegExp(`PixiJS Warning.*mesh "${mesh.name}".*image/png, 3 bytes.*failed to decode \\(bad PNG\\).*base colour factor`));
  });

  it('an image that decodes becomes the texture; no material texture means no decoding and no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const decoded: unknown[] = [];
    vi.stubGlobal('createImageBitmap', (blob: Blob) => {
      decoded.push(blob);
      return Promise.resolve({ width: 4, height: 2, close() {} });
    });
    const body = pixi.createCharacterBody(mesh);
    expect(await body.texture.ready).toBe(true);
    expect(body.texture.status).toBe('ready');
    expect([body.texture.source.width, body.texture.source.height]).toEqual([4, 2]);
    expect((decoded[0] as Blob).type).toBe(mesh.material!.baseColorTexture!.mimeType);
    expect((decoded[0] as Blob).size).toBe(mesh.material!.baseColorTexture!.image.length);
    const plain = pixi.createCharacterBody(mesh, null);
    expect(await plain.texture.ready).toBe(false);
    expect(plain.texture.status).toBe('none');
    expect(warn).not.toHaveBeenCalled();
  });
});
