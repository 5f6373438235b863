/**
 * `bitanim/pixi` without a GPU: the Fox's body (its interleaved vertex buffer checked against
 * the mesh it came from, the pixi Geometry's attributes over it), the crowd renderer's
 * bookkeeping and boundary checks, and the camera's matrices against points projected by hand.
 * pixi.js reads `navigator` when imported; Node 20 has none, so the tests give it one first.
 */
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { AnimationError, createAnimationWorld, createSkeleton, loadGltf, removeCharacter, spawnCharacter, type GltfResult, type SkinnedMeshData } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

type Pixi = typeof import('../../src/pixi/index.js');
let pixi: Pixi;
let fox: GltfResult;
let mesh: SkinnedMeshData;
/** console.warn, where pixi's `warn` writes: Node has no createImageBitmap, so every Fox body warns. */
let warnings: MockInstance<typeof console.warn>;

beforeAll(async () => {
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
  pixi = await import('../../src/pixi/index.js');
  fox = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
  mesh = fox.meshes[0]!;
});

afterAll(() => warnings.mockRestore());

describe('createCharacterBody (the Fox)', () => {
  it('without createImageBitmap (Node) the texture fails at once: status \'failed\', one warning naming the mesh and the image', async () => {
    const before = warnings.mock.calls.length;
    const body = pixi.createCharacterBody(mesh);
    expect(await body.texture.ready).toBe(false);
    expect(body.texture.status).toBe('failed');
    const image = mesh.material!.baseColorTexture!;
    expect(warnings.mock.calls.slice(before).map((args) => args.join(' '))).toEqual([
      `PixiJS Warning:  bitanim/pixi: mesh "${mesh.name}": its base colour texture (${image.mimeType}, ${image.image.length} bytes) cannot be decoded here (no createImageBitmap); drawing its base colour factor instead`,
    ]);
  });

  it('interleaves position, normal, UV, joints and weights per vertex, exactly as the mesh holds them', () => {
    const body = pixi.createCharacterBody(mesh);
    const { vertices, vertexCount, indices } = body.arrays;
    const V = mesh.positions.length / 3;
    expect(V).toBeGreaterThan(100);
    expect(vertexCount).toBe(V);
    expect(vertices.length).toBe(V * pixi.BODY_STRIDE);
    expect(Array.from(indices)).toEqual(Array.from(mesh.indices ?? Uint32Array.from({ length: V }, (_, i) => i)));
    expect(body.arrays.hasUvs).toBe(mesh.uvs !== null);
    expect(body.arrays.hasNormals).toBe(mesh.normals !== null);
    for (let v = 0; v < V; v++) {
      const o = v * pixi.BODY_STRIDE;
      for (let c = 0; c < 3; c++) {
        expect(vertices[o + pixi.BODY_POSITION + c]).toBe(mesh.positions[v * 3 + c]);
        if (mesh.normals) expect(vertices[o + pixi.BODY_NORMAL + c]).toBe(mesh.normals[v * 3 + c]);
      }
      for (let c = 0; c < 2; c++) expect(vertices[o + pixi.BODY_UV + c]).toBe(mesh.uvs ? mesh.uvs[v * 2 + c] : 0);
      for (let c = 0; c < 4; c++) {
        expect(vertices[o + pixi.BODY_JOINTS + c]).toBe(mesh.joints[v * 4 + c]);
        expect(vertices[o + pixi.BODY_WEIGHTS + c]).toBe(mesh.weights[v * 4 + c]);
      }
    }
  });

  it('uses joints within the skeleton: jointCount is one more than the highest weighted joint', () => {
    const body = pixi.createCharacterBody(mesh);
    const skeleton = fox.skeletons[mesh.skeleton]!;
    let highest = -1;
    for (let i = 0; i < mesh.joints.length; i++) if (mesh.weights[i]! > 0) highest = Math.max(highest, mesh.joints[i]!);
    expect(body.jointCount).toBe(highest + 1);
    expect(body.jointCount).toBeGreaterThan(1);
    expect(body.jointCount).toBeLessThanOrEqual(skeleton.jointCount);
  });

  it('the pixi Geometry reads the one buffer: five attributes at their byte offsets, stride 64, and the index list', () => {
    const body = pixi.createCharacterBody(mesh);
    const g = body.geometry;
    const expected = { aPosition: ['float32x3', 0], aNormal: ['float32x3', 12], aUV: ['float32x2', 24], aJoints: ['float32x4', 32], aWeights: ['float32x4', 48] } as const;
    expect(Object.keys(g.attributes).sort()).toEqual(Object.keys(expected).sort());
    const buffer = g.attributes.aPosition!.buffer;
    for (const [name, [format, offset]] of Object.entries(expected)) {
      const attribute = g.attributes[name]!;
      expect(attribute.format, name).toBe(format);
      expect(attribute.offset, name).toBe(offset);
      expect(attribute.stride, name).toBe(64);
      expect(attribute.buffer, name).toBe(buffer);
    }
    expect(buffer.data).toBe(body.arrays.vertices);
    expect(g.indexBuffer.data.length).toBe(body.arrays.indices.length);
    expect(g.vertexCount).toBe(mesh.positions.length / 3);
  });

  it('the material is the mesh\'s unless one is given', () => {
    expect(pixi.createCharacterBody(mesh).material).toBe(mesh.material);
    expect(pixi.createCharacterBody(mesh, null).material).toBeNull();
    expect(() => pixi.createCharacterBody(mesh, 7 as never)).toThrow(AnimationError);
  });

  it('refuses arrays that disagree, indices out of range and non-finite positions, naming the field', () => {
    const bad = (patch: Partial<SkinnedMeshData>) => () => pixi.createCharacterBody({ ...mesh, ...patch });
    expect(bad({ weights: mesh.weights.subarray(4) })).toThrow(/mesh\.weights/);
    expect(bad({ uvs: new Float32Array(3) })).toThrow(/mesh\.uvs/);
    const V = mesh.positions.length / 3;
    expect(bad({ indices: Uint32Array.of(0, 1, V) })).toThrow(/mesh\.indices\[2\] is \d+: must be < \d+ vertices/);
    const positions = mesh.positions.slice();
    positions[4] = Number.NaN;
    expect(bad({ positions })).toThrow(/mesh\.positions\[4\] is NaN/);
  });
});

describe('vertexNormals', () => {
  it('a unit square in the xz plane, counter-clockwise seen from +Y, has normals +Y; an unused vertex gets +Y', () => {
    const positions = Float32Array.of(0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 5, 5, 5);
    const normals = pixi.vertexNormals(positions, Uint32Array.of(0, 1, 2, 0, 2, 3));
    expect(Array.from(normals)).toEqual([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
    // Reversed winding: −Y.
    expect(Array.from(pixi.vertexNormals(positions, Uint32Array.of(0, 2, 1)).subarray(0, 3))).toEqual([0, -1, 0]);
  });
});

describe('createCrowdRenderer', () => {
  function foxWorld(maxJoints: number) {
    const skeleton = fox.skeletons[mesh.skeleton]!;
    const world = createAnimationWorld({ maxEntities: 63, maxJoints });
    return { world, skeleton };
  }

  it('is a pixi Container; setBody and removeBody keep each character\'s body and tint', () => {
    const { world, skeleton } = foxWorld(64);
    const a = spawnCharacter(world, skeleton);
    const b = spawnCharacter(world, skeleton);
    const crowd = pixi.createCrowdRenderer(world, { projection: 'perspective' });
    expect(crowd.camera.projection).toBe('perspective');
    expect(typeof crowd.addChild).toBe('function');
    const body = pixi.createCharacterBody(mesh);
    crowd.setBody(a, body);
    crowd.setBody(b, body, { tint: 0xff8040 });
    crowd.setBody(b, body, { tint: 0x102030 }); // replaced, not counted twice
    expect(crowd.characterCount).toBe(2);
    expect(crowd.bodyOf(a)).toBe(body);
    expect(crowd.tintOf(a)).toBe(0xffffff);
    expect(crowd.tintOf(b)).toBe(0x102030);
    expect(crowd.removeBody(a)).toBe(true);
    expect(crowd.removeBody(a)).toBe(false);
    expect(crowd.bodyOf(a)).toBeNull();
    expect(crowd.tintOf(a)).toBe(-1);
    expect(crowd.characterCount).toBe(1);
  });

  it('a mesh with more joints than the world\'s maxJoints, or than the skeleton, is an AnimationError', () => {
    const body = pixi.createCharacterBody(mesh);
    const small = foxWorld(64);
    // The Fox's skeleton in a world of fewer joints cannot be spawned; a 2-joint skeleton can.
    const twoJoints = createSkeleton({ names: ['a', 'b'], parents: [-1, 0], rest: Float32Array.of(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1) });
    const { world } = foxWorld(body.jointCount - 1);
    const eid = spawnCharacter(world, twoJoints);
    const crowd = pixi.createCrowdRenderer(world);
    expect(() => crowd.setBody(eid, body)).toThrow(new RegExp(`setBody: body mesh "${mesh.name}" uses ${body.jointCount} joints: more than the world's maxJoints \\(${body.jointCount - 1}\\)`));
    const other = pixi.createCrowdRenderer(small.world);
    const eid2 = spawnCharacter(small.world, twoJoints);
    expect(() => other.setBody(eid2, body)).toThrow(/more than character \d+'s skeleton has \(2\)/);
    expect(crowd.characterCount + other.characterCount).toBe(0);
  });

  it('a removed entity, a bad tint or bad options are AnimationErrors; nothing changes', () => {
    const { world, skeleton } = foxWorld(64);
    const eid = spawnCharacter(world, skeleton);
    const crowd = pixi.createCrowdRenderer(world);
    const body = pixi.createCharacterBody(mesh);
    expect(() => crowd.setBody(eid, body, { tint: 0x1000000 })).toThrow(/options\.tint/);
    expect(() => crowd.setBody(eid, body, { tint: 1.5 })).toThrow(AnimationError);
    removeCharacter(world, eid);
    expect(() => crowd.setBody(eid, body)).toThrow(/setBody: eid \d+ is not a character of this world/);
    expect(() => crowd.setBody(0, body)).toThrow(AnimationError);
    expect(crowd.characterCount).toBe(0);
    expect(() => pixi.createCrowdRenderer(world, { projection: 'fisheye' as never })).toThrow(/options\.projection/);
    expect(() => pixi.createCrowdRenderer({} as never)).toThrow(AnimationError);
  });
});

describe('CrowdCamera', () => {
  it('orthographic: the target projects to the canvas centre, a point halfHeight up the view to the top edge; depth −1 at near, 1 at far', () => {
    const camera = new pixi.CrowdCamera();
    Object.assign(camera, { targetX: 3, targetY: 1, targetZ: -2, yaw: 0.7, pitch: 0.5, halfHeight: 5, width: 400, height: 200, distance: 50, near: 1, far: 101 });
    camera.update();
    const out = [0, 0];
    expect(camera.project(3, 1, -2, out)).toBe(true);
    expect(out[0]).toBeCloseTo(200, 4);
    expect(out[1]).toBeCloseTo(100, 4);
    // The camera's up: back × right, with back = (sin yaw cos pitch, sin pitch, cos yaw cos pitch).
    const back = [Math.sin(0.7) * Math.cos(0.5), Math.sin(0.5), Math.cos(0.7) * Math.cos(0.5)];
    const right = [Math.cos(0.7), 0, -Math.sin(0.7)];
    const up = [back[1]! * right[2]! - back[2]! * right[1]!, back[2]! * right[0]! - back[0]! * right[2]!, back[0]! * right[1]! - back[1]! * right[0]!];
    camera.project(3 + 5 * up[0]!, 1 + 5 * up[1]!, -2 + 5 * up[2]!, out);
    expect(out[0]).toBeCloseTo(200, 3);
    expect(out[1]).toBeCloseTo(0, 3);
    camera.project(3 + 10 * right[0]!, 1, -2 + 10 * right[2]!, out); // halfWidth = 5 × 2
    expect(out[0]).toBeCloseTo(400, 3);
    const eye = [0, 0, 0];
    camera.eye(eye);
    expect(eye[1]).toBeCloseTo(1 + 50 * Math.sin(0.5), 10);
    const m = camera.viewProj;
    const depth = (d: number) => {
      const p = [eye[0]! - d * back[0]!, eye[1]! - d * back[1]!, eye[2]! - d * back[2]!];
      return (m[2]! * p[0]! + m[6]! * p[1]! + m[10]! * p[2]! + m[14]!) / (m[3]! * p[0]! + m[7]! * p[1]! + m[11]! * p[2]! + m[15]!);
    };
    expect(depth(1)).toBeCloseTo(-1, 5);
    expect(depth(101)).toBeCloseTo(1, 5);
    expect(camera.project(eye[0]! + back[0]!, eye[1]! + back[1]!, eye[2]! + back[2]!, out)).toBe(false); // behind the eye
  });

  it('perspective: the target at the centre; a point at angle fovY/2 above the view axis on the top edge; closer points spread wider', () => {
    const camera = new pixi.CrowdCamera();
    Object.assign(camera, { projection: 'perspective', yaw: 0, pitch: 0, fovY: Math.PI / 3, distance: 10, width: 300, height: 300, near: 0.5, far: 100 });
    camera.update();
    const out = [0, 0];
    // yaw 0, pitch 0: eye at (0, 0, 10) looking down −Z, up +Y, right +X.
    expect(camera.project(0, 0, 0, out)).toBe(true);
    expect(out).toEqual([150, 150]);
    camera.project(0, 10 * Math.tan(Math.PI / 6), 0, out);
    expect(out[1]).toBeCloseTo(0, 4);
    camera.project(1, 0, 0, out);
    const far = out[0]! - 150;
    camera.project(1, 0, 5, out);
    expect(out[0]! - 150).toBeCloseTo(2 * far, 4); // half the distance: twice the offset
    expect(camera.project(0, 0, 10.2, out)).toBe(false); // nearer than the near plane
  });
});
