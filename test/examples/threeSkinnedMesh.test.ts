/**
 * examples/threeSkinnedMesh.ts (docs/three.md): bitanim palettes uploaded into three.js
 * skeletons skin the Fox as bitanim's own `skinVertices` does — by three's CPU skinning
 * (`SkinnedMesh.getVertexPosition`, which reads the bones) and by the vertex shader's formula
 * on `skeleton.boneMatrices` (what the GPU reads) — and the upload allocates nothing.
 */
import { readFileSync } from 'node:fs';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { createPaletteMesh, PaletteSkeleton, threeFoxes, uploadPalettes, writeBoneMatrices } from '../../examples/threeSkinnedMesh.js';
import { getRootTransform, getSkinPalette } from '../../src/index.js';
import { skinVertices } from '../../src/math/skinVertices.js';
import { readAsset } from '../support/assets.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const foxGlb = readAsset('Fox.glb');

describe('writeBoneMatrices', () => {
  it('is the function docs/three.md shows', () => {
    const example = readFileSync(new URL('../../examples/threeSkinnedMesh.ts', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../../docs/three.md', import.meta.url), 'utf8');
    const fn = /export function writeBoneMatrices[\s\S]*?\n\}\n/.exec(example)![0];
    expect(guide).toContain('```ts\n' + fn + '```');
  });

  it('writes each 3×4 column-major palette matrix as three\'s Matrix4 of the same rows (set() takes rows)', () => {
    const palette = Float32Array.from({ length: 3 * 12 }, (_, i) => (i * 7919) % 101 / 10 - 5);
    const out = new Float32Array(4 + 3 * 16).fill(Number.NaN);
    writeBoneMatrices(out, 4, palette, 0, 3);
    expect(Array.from(out.subarray(0, 4)).every(Number.isNaN)).toBe(true); // before outOff untouched
    for (let j = 0; j < 3; j++) {
      const p = Array.from(palette.subarray(j * 12, j * 12 + 12));
      const m = new THREE.Matrix4().set(
        p[0]!, p[3]!, p[6]!, p[9]!,
        p[1]!, p[4]!, p[7]!, p[10]!,
        p[2]!, p[5]!, p[8]!, p[11]!,
        0, 0, 0, 1,
      );
      expect(Array.from(out.subarray(4 + j * 16, 4 + j * 16 + 16))).toEqual(Array.from(Float32Array.from(m.elements)));
    }
  });
});

describe('examples/threeSkinnedMesh.ts', () => {
  it('three\'s CPU skinning and the shader\'s formula on boneMatrices give bitanim\'s skinVertices within 1e-4 m, frame after frame', async () => {
    const { world, foxes, mesh, frame } = await threeFoxes(foxGlb, 3);
    const meshes = foxes.map((f) => f.mesh);
    const vertexCount = mesh.positions.length / 3;
    expect(vertexCount).toBe(1728);
    const expected = new Float32Array(mesh.positions.length);
    const v = new THREE.Vector3(), world3 = new THREE.Vector3(), shader = new THREE.Vector3(), k = new THREE.Matrix4();
    const first = foxes.map(() => new Float32Array(mesh.positions.length));
    let moved = 0, worstCpu = 0, worstGpu = 0, checked = 0;
    const frames = [0, 1, 7, 23, 40, 95];
    let done = 0;
    for (const target of frames) {
      while (done < target) { frame(1 / 60); done++; }
      uploadPalettes(meshes); // what renderer.render does first
      for (const [n, { eid, mesh: skinned }] of foxes.entries()) {
        skinVertices(getSkinPalette(world, eid), mesh.positions, mesh.joints, mesh.weights, expected);
        if (target === 0) first[n]!.set(expected);
        else for (let i = 0; i < expected.length; i++) moved = Math.max(moved, Math.abs(expected[i]! - first[n]![i]!));
        skinned.updateMatrixWorld(true);
        const bones = (skinned.skeleton as PaletteSkeleton).boneMatrices!;
        for (let i = 0; i < vertexCount; i += 7) {
          // three's CPU skinning (the bones' matrixWorld × identity inverses), in mesh space.
          skinned.getVertexPosition(i, v);
          worstCpu = Math.max(worstCpu, Math.abs(v.x - expected[3 * i]!), Math.abs(v.y - expected[3 * i + 1]!), Math.abs(v.z - expected[3 * i + 2]!));
          // In the world: the character's root transform (bitanim's yaw about +Y, then its position).
          world3.copy(v).applyMatrix4(skinned.matrixWorld);
          const { x, y, z, yaw } = getRootTransform(world, eid);
          const c = Math.cos(yaw), s = Math.sin(yaw);
          expect(world3.x).toBeCloseTo(x + c * v.x + s * v.z, 5);
          expect(world3.y).toBeCloseTo(y + v.y, 5);
          expect(world3.z).toBeCloseTo(z - s * v.x + c * v.z, 5);
          // The vertex shader: bindMatrixInverse · Σ wᵢ boneMatrices[jᵢ] · bindMatrix · v, from boneMatrices alone.
          shader.set(0, 0, 0);
          for (let c = 0; c < 4; c++) {
            const w = mesh.weights[4 * i + c]!;
            if (w === 0) continue;
            k.fromArray(bones, mesh.joints[4 * i + c]! * 16);
            shader.addScaledVector(new THREE.Vector3(mesh.positions[3 * i]!, mesh.positions[3 * i + 1]!, mesh.positions[3 * i + 2]!).applyMatrix4(skinned.bindMatrix).applyMatrix4(k), w);
          }
          shader.applyMatrix4(skinned.bindMatrixInverse);
          worstGpu = Math.max(worstGpu, Math.abs(shader.x - expected[3 * i]!), Math.abs(shader.y - expected[3 * i + 1]!), Math.abs(shader.z - expected[3 * i + 2]!));
          checked++;
        }
      }
    }
    expect(checked).toBe(frames.length * 3 * Math.ceil(vertexCount / 7));
    expect(worstCpu).toBeLessThan(1e-4);
    expect(worstGpu).toBeLessThan(1e-4);
    expect(moved).toBeGreaterThan(0.02); // the Walk moves vertices by centimetres: not a rest pose compared with itself
  });

  it('a mesh made after the renderer built its bone texture: update() writes the texture\'s array and flags it', async () => {
    const { world, foxes, mesh } = await threeFoxes(foxGlb, 1);
    const skinned = createPaletteMesh(world, foxes[0]!.eid, mesh);
    const skeleton = skinned.skeleton as PaletteSkeleton;
    skeleton.computeBoneTexture(); // what WebGLRenderer does on first draw: boneMatrices becomes the texture's data
    const texture = skeleton.boneTexture!;
    const version = texture.version;
    skeleton.update();
    expect(texture.version).toBe(version + 1);
    expect(texture.image.data).toBe(skeleton.boneMatrices);
    const palette = getSkinPalette(world, foxes[0]!.eid);
    const expected = new Float32Array(24 * 16);
    writeBoneMatrices(expected, 0, palette, 0, 24);
    expect(Array.from(skeleton.boneMatrices!.subarray(0, 24 * 16))).toEqual(Array.from(expected));
  });

  it('the upload allocates nothing: 10,000 frames of 3 foxes (30,000 skeleton updates) under 64 KB', async () => {
    const { foxes, frame } = await threeFoxes(foxGlb, 3);
    const meshes = foxes.map((f) => f.mesh);
    (meshes[0]!.skeleton as PaletteSkeleton).computeBoneTexture(); // one through the texture path
    frame(1 / 60);
    for (let f = 0; f < 3000; f++) uploadPalettes(meshes); // warm-up: the JIT compiles the copy
    // One allocation of 16 bytes per update would be 480 KB; a Matrix4 or a subarray per update, megabytes.
    let smallest = Infinity;
    for (let attempt = 0; attempt < 3 && smallest >= 64 * 1024; attempt++) {
      gc();
      const before = process.memoryUsage().heapUsed;
      const profiler = new GCProfiler();
      profiler.start();
      for (let f = 0; f < 10_000; f++) uploadPalettes(meshes);
      const collections = profiler.stop()?.statistics ?? [];
      const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
      smallest = Math.min(smallest, process.memoryUsage().heapUsed - before + freed);
    }
    console.log(`palette upload, 30,000 skeleton updates: ${smallest} bytes allocated`);
    expect(smallest).toBeLessThan(64 * 1024);
  });
});
