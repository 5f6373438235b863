/**
 * parseBvh's units warning, the one loadGltf gives (src/import/units.ts `figureUnitsWarning`):
 * a rest figure (its joints) outside 0.25–10 m once scaled is named with its height, the likely
 * unit and the `scale` that makes it 1.8 m tall. The heights here are computed by hand: a BVH rest
 * pose has identity rotations, so a joint stands at the sum of the OFFSETs down to it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadGltf, parseBvh, type Skeleton } from '../../src/index.js';
import { POSE_STRIDE, POSE_T } from '../../src/math/layout.js';
import { assetPath, readAsset } from '../support/assets.js';

const walkText = readFileSync(assetPath('cmu_131_01_start_walk_stop.bvh'), 'utf8');
const jumpsText = readFileSync(assetPath('cmu_01_01_forward_jumps.bvh'), 'utf8');

/** The rest joints' extent along Y: cumulative OFFSETs (identity rest rotations). */
function jointsHeight(skeleton: Skeleton): number {
  const y: number[] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j]!;
    y.push((p < 0 ? 0 : y[p]!) + skeleton.rest[j * POSE_STRIDE + POSE_T + 1]!);
  }
  return Math.max(...y) - Math.min(...y);
}

/** A chain of `count` joints `step` units apart along +Y (positions channels on the root only). */
function chain(count: number, step: number): string {
  const lines = ['HIERARCHY'];
  for (let j = 0; j < count; j++) {
    lines.push(`${j === 0 ? 'ROOT' : 'JOINT'} J${j}`, '{', `OFFSET 0 ${j === 0 ? 0 : step} 0`, `CHANNELS ${j === 0 ? '6 Xposition Yposition Zposition' : '3'} Zrotation Xrotation Yrotation`);
  }
  lines.push('End Site', '{', `OFFSET 0 ${step} 0`, '}');
  for (let j = 0; j < count; j++) lines.push('}');
  const row = ['0 0 0', ...Array.from({ length: count }, () => '0 0 0')].join(' ');
  lines.push('MOTION', 'Frames: 2', 'Frame Time: 0.0333333', row, row, '');
  return lines.join('\n');
}

/** The scale a warning tells to pass for 1.8 m (`{ scale: X } (metres per file unit; …)`). */
function suggestedScale(warning: string): number {
  const match = /\{ scale: ([\d.e-]+) \} \(metres per file unit/.exec(warning);
  if (!match) throw new Error(`no scale in: ${warning}`);
  return Number(match[1]);
}

describe('parseBvh: the units warning', () => {
  it.each([['CMU 131_01', walkText], ['CMU 01_01', jumpsText]])('%s read as metres: too large, named with its height; the scale it gives makes a 1.8 m figure with no warning', (_, text) => {
    const raw = parseBvh(text);
    const height = jointsHeight(raw.skeleton);
    expect(height).toBeGreaterThan(10);
    const units = raw.warnings.filter((w) => w.startsWith('units:'));
    expect(units).toHaveLength(1);
    expect(units[0]).toContain(`is ${Number(height.toPrecision(3))} m tall read as metres (BVH has no unit), too large for a character in metres`);
    const scale = suggestedScale(units[0]!);
    const fixed = parseBvh(text, { scale });
    expect(fixed.warnings.filter((w) => w.startsWith('units:'))).toEqual([]);
    expect(jointsHeight(fixed.skeleton)).toBeCloseTo(1.8, 1); // the factor is given to 2 digits
    // CMU's own unit (0.056444 m) gives a person: no warning either.
    expect(parseBvh(text, { scale: 0.056444 }).warnings).toEqual([]);
  });

  it('a figure in centimetres (180 units) names \'cm\' and { scale: 0.01 }; with it, 1.8 m and no warning', () => {
    const text = chain(7, 30); // 6 steps of 30 + the end site (not a joint): 180 units of joints
    const raw = parseBvh(text);
    expect(jointsHeight(raw.skeleton)).toBe(180);
    expect(raw.warnings).toEqual([
      'units: the rest figure (its joints) is 180 m tall read as metres (BVH has no unit), too large for a character in metres: ' +
      "likely in 'cm' (1.8 m): pass { scale: 0.01 } (cm), or { scale: 0.01 } (metres per file unit; scales it ×0.01 to 1.8 m)",
    ]);
    const cm = parseBvh(text, { scale: 0.01 });
    expect(cm.warnings).toEqual([]);
    expect(jointsHeight(cm.skeleton)).toBeCloseTo(1.8, 6); // float32 rest translations
  });

  it('too small (a scale that shrinks it, a unit larger than the metre): the factor to 1.8 m; applied, no warning', () => {
    const text = chain(7, 30);
    const shrunk = parseBvh(text, { scale: 0.001 }); // 0.18 m
    expect(shrunk.warnings).toHaveLength(1);
    expect(shrunk.warnings[0]).toMatch(/^units: the rest figure \(its joints\) is 0\.18 m tall after options\.scale, too small for a character in metres: likely in a unit larger than the metre\. Pass \{ scale: 0\.01 \}/);
    expect(suggestedScale(shrunk.warnings[0]!)).toBe(0.01);
    expect(parseBvh(text, { scale: suggestedScale(shrunk.warnings[0]!) }).warnings).toEqual([]);
  });

  it('inside 0.25–10 m, no warning; at the bounds\' sides, one', () => {
    expect(parseBvh(chain(7, 0.3)).warnings).toEqual([]); // 1.8 m
    expect(parseBvh(chain(2, 0.26)).warnings).toEqual([]); // 0.26 m
    expect(parseBvh(chain(2, 0.24)).warnings).toHaveLength(1);
    expect(parseBvh(chain(2, 9.9)).warnings).toEqual([]);
    expect(parseBvh(chain(2, 10.1)).warnings).toHaveLength(1);
  });

  it('is the sentence loadGltf gives (one builder): the same opening, the same likely-unit wording', async () => {
    const fox = await loadGltf(readAsset('Fox.glb'));
    const gltfUnits = fox.warnings.find((w) => w.startsWith('units:'))!;
    const bvhUnits = parseBvh(chain(7, 30)).warnings[0]!;
    const shape = (w: string): string => w.replace(/\(its [a-z ]+\)/, '(…)').replace(/[\d.]+/g, 'N').replace(/read as metres \([^)]*\)/, 'read as metres (…)').split(': pass ')[0]!;
    expect(shape(gltfUnits).startsWith('units: the rest figure (…) is N m tall read as metres (…), too large for a character in metres: likely in \'cm\' (N m)')).toBe(true);
    expect(shape(bvhUnits)).toBe('units: the rest figure (…) is N m tall read as metres (…), too large for a character in metres: likely in \'cm\' (N m)');
  });
});
