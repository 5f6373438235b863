/**
 * Units with help: the rest figure's height (skinned meshes at the rest pose, else joints),
 * `loadGltf`'s warnings for figures far too small or too large for metres, `{ height }`, and
 * `bitanim inspect`'s height line and warnings. Oracle: three.js's bounding box of the scene as
 * GLTFLoader loads it (skinned vertices, `Box3.setFromObject(scene, true)`). Variants made here:
 * the Fox under a root node scaled so it stands ~0.2 units, the robot scaled to ~180 units.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebIO } from '@gltf-transform/core';
import * as THREE from 'three';
import { afterAll, describe, expect, it } from 'vitest';
import { AnimationError } from '../../src/index.js';
import { loadGltf } from '../../src/import/gltf.js';
import { restFigureHeight } from '../../src/import/figureHeight.js';
import { describeAsset } from '../../src/cli/describe.js';
import { importFile } from '../../src/cli/main.js';
import { parseWithThree } from '../oracle/gltfThree.js';
import { assetPath, readAsset } from '../support/assets.js';

/** `file` with every scene root under a new node scaled by `s` (what an exporter's unit node does). */
async function underScaledRoot(file: string, s: number): Promise<Uint8Array> {
  const io = new WebIO();
  const doc = await io.readBinary(readAsset(file));
  for (const scene of doc.getRoot().listScenes()) {
    const unit = doc.createNode('unit').setScale([s, s, s]);
    for (const child of scene.listChildren()) {
      scene.removeChild(child);
      unit.addChild(child);
    }
    scene.addChild(unit);
  }
  return io.writeBinary(doc);
}

/** three.js's height of the scene at rest: the Y extent of its (skinned) vertices. */
async function threeHeight(bytes: Uint8Array): Promise<number> {
  const { gltf } = await parseWithThree(bytes);
  const box = new THREE.Box3().setFromObject(gltf.scene, true);
  return box.max.y - box.min.y;
}

const first = (result: Awaited<ReturnType<typeof loadGltf>>) => restFigureHeight(result.skeletons[0]!, result.meshes.filter((m) => m.skeleton === 0));
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-height-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the rest figure\'s height', () => {
  it('Fox and RobotExpressive: the skinned rest meshes\' Y extent is three.js\'s bounding box height', async () => {
    for (const file of ['Fox.glb', 'RobotExpressive.glb']) {
      const expected = await threeHeight(readAsset(file));
      const result = await loadGltf(readAsset(file));
      const figure = first(result);
      console.log(`${file}: ${figure.height} file units (three.js ${expected}), joints ${restFigureHeight(result.skeletons[0]!).height}`);
      expect(figure.from).toBe('mesh');
      expect(Math.abs(figure.height - expected)).toBeLessThan(1e-4 * expected);
      // The joints alone stand lower than the skin (no head top, no soles).
      expect(restFigureHeight(result.skeletons[0]!)).toMatchObject({ from: 'joints' });
      expect(restFigureHeight(result.skeletons[0]!).height).toBeLessThan(figure.height);
    }
  });
});

describe('loadGltf: units warnings and { height }', () => {
  it('a Fox 0.2 units tall (root node scale 0.0026): warned as too small with the factor; { height: 1.8 } gives 1.8 m within 1 mm', async () => {
    const bytes = await underScaledRoot('Fox.glb', 0.0026);
    const tall = await threeHeight(bytes);
    expect(tall).toBeCloseTo(79.029 * 0.0026, 3); // 0.2055 units
    const plain = await loadGltf(bytes);
    const units = plain.warnings.filter((w) => w.startsWith('units: '));
    expect(units).toEqual([expect.stringMatching(/^units: the rest figure \(its skinned meshes\) is 0\.205 m tall read as metres \(glTF's unit\), too small for a character in metres: .* Pass \{ height: 1\.8 \} \(metres; scales it ×8\.8\)/)]);

    const scaled = await loadGltf(bytes, { height: 1.8 });
    expect(scaled.warnings.filter((w) => w.startsWith('units: '))).toEqual([]);
    expect(Math.abs(first(scaled).height - 1.8)).toBeLessThan(1e-3);
    // Independently: the scale that makes three's figure 1.8 tall puts the hips where the Fox's
    // (0.42938 m at scale 'cm', 79.029 units tall) would be at that height.
    const hips = (await loadGltf(readAsset('Fox.glb'), { scale: 'cm' })).skeletons[0]!.hipHeight;
    const threeFox = await threeHeight(readAsset('Fox.glb'));
    expect(scaled.skeletons[0]!.hipHeight).toBeCloseTo(hips * 1.8 / (threeFox * 0.01), 3);
    // Clips are in metres at that scale: the rate search bound (0.1 mm) is met.
    for (const clip of scaled.clips) expect(clip.importError, clip.name).toBeLessThanOrEqual(1e-4);
  });

  it('a robot 180 units tall: warned as too large, naming centimetres; { height: 1.8 } gives 1.8 m', async () => {
    const bytes = await underScaledRoot('RobotExpressive.glb', 40);
    const plain = await loadGltf(bytes);
    expect(plain.warnings.filter((w) => w.startsWith('units: '))).toEqual([
      expect.stringMatching(/^units: the rest figure \(its skinned meshes\) is 178 m tall read as metres \(glTF's unit\), too large for a character in metres: likely in 'cm' \(1\.8 m\).*pass \{ scale: 'cm' \}, or \{ height: 1\.8 \}/),
    ]);
    const scaled = await loadGltf(bytes, { height: 1.8 });
    expect(Math.abs(first(scaled).height - 1.8)).toBeLessThan(1e-3);
    const robot = await loadGltf(readAsset('RobotExpressive.glb'));
    expect(scaled.skeletons[0]!.hipHeight).toBeCloseTo(robot.skeletons[0]!.hipHeight * 1.8 / (await threeHeight(readAsset('RobotExpressive.glb'))), 3);
    // The shared files themselves are sized like characters (the Fox in its cm: too large).
    expect(robot.warnings.filter((w) => w.startsWith('units: '))).toEqual([]);
    expect((await loadGltf(readAsset('Fox.glb'), { scale: 'cm' })).warnings).toEqual([]);
  });

  it('refuses a bad height, height with scale, and unknown options', async () => {
    const bytes = readAsset('Fox.glb');
    for (const [options, message] of [
      [{ height: 0 }, /options\.height.*must be a finite number > 0/],
      [{ height: Number.NaN }, /options\.height/],
      [{ height: 1.8, scale: 'cm' }, /options\.height.*is given with options\.scale/],
      [{ heigth: 1.8 }, /options\.heigth.*unknown option: loadGltf takes frameRate, scale, tolerance, height/],
    ] as const) {
      const error = await loadGltf(bytes, options as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AnimationError);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('bitanim inspect: the height and the units warning', () => {
  it('prints the figure\'s height and warns with --height or --scale; --height 1.8 makes it 1.8 m', async () => {
    const small = join(tmp, 'small.glb'), large = join(tmp, 'large.glb');
    writeFileSync(small, await underScaledRoot('Fox.glb', 0.0026));
    writeFileSync(large, await underScaledRoot('RobotExpressive.glb', 40));
    const lines = describeAsset(small, await importFile(small));
    expect(lines[2]).toBe('  rest figure 0.20548 tall (skinned meshes, along +Y)');
    expect(lines.filter((l) => l.includes('units:'))).toEqual([
      '  units: no --scale, and the rest figure is 0.205 units tall: 0.205 m read as metres (glTF\'s unit), too small for a character ' +
      '(a node scale or a unit larger than the metre shrinks it). Pass --height with its height in metres (--height 1.8 scales it ×8.8) or --scale 8.8',
    ]);
    const fixed = describeAsset(small, await importFile(small, { height: 1.8 }));
    expect(fixed[2]).toBe('  rest figure 1.8 tall (skinned meshes, along +Y)');
    expect(fixed.filter((l) => l.includes('units:'))).toEqual([]);

    const big = describeAsset(large, await importFile(large));
    expect(big[2]).toMatch(/^  rest figure 178\.\d+ tall \(skinned meshes, along \+Y\)$/);
    expect(big.filter((l) => l.includes('units:'))).toEqual([expect.stringMatching(/^  units: no --scale, and the skeleton's hips are 51\.\d units above its lowest joint: .*centimetres \(--scale cm: 0\.51\d* m\).* or --height with the figure's height in metres/)]);
    expect(describeAsset(large, await importFile(large, { height: 1.8 }))[2]).toBe('  rest figure 1.8 tall (skinned meshes, along +Y)');

    // A BVH: its joints; --height scales them.
    const walk = assetPath('cmu_131_01_start_walk_stop.bvh');
    expect(describeAsset(walk, await importFile(walk, { height: 1.5 }))[2]).toBe('  rest figure 1.5 tall (joints, along +Y)');
    await expect(importFile(small, { height: 1.8, scale: 'cm' })).rejects.toThrow(/--height.*given with --scale/);
  });
});
