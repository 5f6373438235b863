import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../src/cli/main.js';
import { ASSETS_DIR } from './support/assets.js';

/** Runs the CLI in-process, collecting what it prints. */
async function inspect(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await run(['inspect', ...args], (line) => lines.push(line));
  return { code, lines };
}

const assets = ASSETS_DIR;

describe('bitanim inspect', () => {
  it('describes a glTF file: skeleton, clips, meshes, warnings', async () => {
    const { code, lines } = await inspect(join(assets, 'Fox.glb'));
    expect(code).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^skeleton 0: 24 joints, depth \d+, root "\w+", hip "b_Hip_01"/));
    expect(lines.filter((l) => l.startsWith('clip '))).toHaveLength(3);
    expect(lines).toContainEqual(expect.stringMatching(/^clip "Walk": 0\.70833 s, \d+ frames at [\d.]+ fps/));
    expect(lines).toContainEqual(expect.stringMatching(/^mesh "[^"]+" \(skeleton 0\): 1728 vertices, \d+ triangles, normals no/));
  });

  it('describes RobotExpressive whole: rigid meshes and their joints, skinned hands, morph targets, attachments and curves', async () => {
    const { code, lines } = await inspect(join(assets, 'RobotExpressive.glb'));
    expect(code).toBe(0);
    const meshes = lines.filter((l) => l.startsWith('mesh '));
    expect(meshes).toHaveLength(19);
    expect(meshes.filter((l) => /, rigid on joint "/.test(l))).toHaveLength(15);
    expect(meshes.filter((l) => /, skinned, up to \d influences per vertex/.test(l))).toHaveLength(4);
    expect(lines).toContainEqual(expect.stringMatching(/^mesh "Arm\.L#0" \(skeleton 0\): 296 vertices, \d+ triangles, normals yes, rigid on joint "UpperArm\.L"$/));
    expect(lines).toContainEqual(expect.stringMatching(/^mesh "Head#0" .*rigid on joint "Head", 3 morph targets \("Head\.Angry", "Head\.Surprised", "Head\.Sad"\)$/));
    expect(lines).toContainEqual('  curves (3): "Head.Angry", "Head.Surprised", "Head.Sad"');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}attachments \(15\): "Foot\.L_end" on "Foot\.L", "Head_end" on "Head", /));
    expect(lines.filter((l) => l.startsWith('clip ') && l.endsWith(', 3 curves'))).toHaveLength(14);
  });

  it('describes a BVH file with a unit scale', async () => {
    const { code, lines } = await inspect(join(assets, 'cmu_131_01_start_walk_stop.bvh'), '--scale', '0.0564');
    expect(code).toBe(0);
    expect(lines[1]).toMatch(/^skeleton 0: 31 joints, depth \d+, root "Hips", hip "Hips" at height [\d.]+/);
    expect(lines).toContainEqual(expect.stringMatching(/^clip "[^"]*": 8\.27\d* s, 994 frames at 120(\.\d+)? fps, play-once, hips at height [\d.]+ on frame 0, root travel 2\.\d+/));
  });

  it('--scale takes the units bitanim lod takes, for glTF too: the Fox in metres', async () => {
    const fox = join(assets, 'Fox.glb');
    const cm = await inspect(fox, '--scale', 'cm');
    const number = await inspect(fox, '--scale', '0.01');
    expect(cm.code).toBe(0);
    expect(number.lines).toEqual(cm.lines);
    // The hips three.js puts at 42.938 units (test/import/gltfScale.test.ts), in metres.
    expect(cm.lines[1]).toBe('skeleton 0: 24 joints, depth 8, root "_rootJoint", hip "b_Hip_01" at height 0.42938');
    // The skinned rest mesh, 0.79 m tall (79 file units: test/import/figureHeight.test.ts).
    expect(cm.lines[2]).toMatch(/^  rest figure 0\.79\d* tall \(skinned meshes, along \+Y\)$/);
    // In metres the 0.1 mm bound is 0.01 file units: Walk at 48 fps, Run on its 120 fps key grid.
    expect(cm.lines).toContainEqual(expect.stringMatching(/^clip "Walk": 0\.70833 s, 35 frames at 48 fps, looping, hips at height 0\.40051 on frame 0/));
    expect(cm.lines).toContainEqual(expect.stringMatching(/^clip "Run": 1\.1583 s, 140 frames at 120 fps,/));
    expect(cm.lines.at(-1)).toBe('warnings: none');

    // A unit name on BVH: --scale in is --scale 0.0254.
    const bvh = join(assets, 'cmu_131_01_start_walk_stop.bvh');
    const inches = await inspect(bvh, '--scale', 'in');
    expect(inches.lines).toEqual((await inspect(bvh, '--scale', '0.0254')).lines);
    expect(inches.lines[3]).toMatch(/hips at height 0\.429\d* on frame 0/); // 16.90 units × 0.0254 (assets README)
  });

  it('--frame-rate still forces a rate, and a clip it puts more than 0.1 mm off its keys is a warning', async () => {
    const { code, lines } = await inspect(join(assets, 'Fox.glb'), '--scale', 'cm', '--frame-rate', '30');
    expect(code).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^clip "Walk": 0\.70833 s, 22 frames at 29\.647 fps/));
    expect(lines).toContain('warnings (3):');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}animation "Walk" \(animations\[1\]\): at the given frameRate \(29\.647 fps\) its frames are up to \d+ mm off the file's keys/));
  });

  it('a bad --scale prints one line naming it and exits 1', async () => {
    for (const [scale, shown] of [['furlong', '"furlong"'], ['0', '0'], ['-1', '-1']]) {
      const { code, lines } = await inspect(join(assets, 'Fox.glb'), '--scale', scale!);
      expect([code, lines], scale).toEqual([1, [`bitanim: inspect: --scale is ${shown}: must be a finite number > 0 (metres per file unit) or one of m, cm, mm, in, ft`]]);
    }
  });

  it('a bad file prints one line naming the problem and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitanim-cli-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cases: [string, string | Uint8Array, RegExp][] = [
      ['junk.glb', Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), /^bitanim: .*(magic|glTF|GLB)/i],
      ['empty.bvh', '', /^bitanim: .*(HIERARCHY|empty)/i],
      ['notes.txt', 'hello', /^bitanim: .*notes\.txt is not \.glb, \.gltf or \.bvh$/],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const { code, lines } = await inspect(file);
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
    const missing = await inspect(join(dir, 'missing.glb'));
    expect([missing.code, missing.lines.length]).toEqual([1, 1]);
    expect(missing.lines[0]).toMatch(/missing\.glb cannot be read \(ENOENT\)/);
  });

  it('--json prints one object holding what the lines print, unrounded', async () => {
    const fox = join(assets, 'Fox.glb');
    const { code, lines } = await inspect(fox, '--scale', 'cm', '--json');
    expect([code, lines.length]).toEqual([0, 1]);
    const json = JSON.parse(lines[0]!);
    const text = (await inspect(fox, '--scale', 'cm')).lines;
    const five = (value: number): number => Number(value.toPrecision(5));
    expect([json.file, json.scale, json.warnings]).toEqual([fox, 0.01, []]);
    expect(json.skeletons).toHaveLength(1);
    const [skeleton] = json.skeletons;
    expect(text[1]).toBe(`skeleton 0: ${skeleton.joints} joints, depth ${skeleton.depth}, root "${skeleton.root}", hip "${skeleton.hip}" at height ${five(skeleton.hipHeight)}`);
    // One clip line per clip, from the same numbers.
    expect(json.clips.map((c: { name: string }) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    for (const clip of json.clips) {
      expect(Math.hypot(...clip.travel)).toBeCloseTo(clip.distance, 12);
      expect(text).toContainEqual(expect.stringMatching(new RegExp(
        `^clip "${clip.name}": ${five(clip.duration)} s, ${clip.frames} frames at ${five(clip.frameRate)} fps, looping, hips at height ${five(clip.hipHeight)} on frame 0`)));
    }
    expect(json.meshes).toEqual([expect.objectContaining({
      name: 'fox1#0', skeleton: 0, vertices: 1728, triangles: 576, normals: false, rigidJoint: null, influences: 4, morphTargets: [], uvs: 1728,
      material: expect.objectContaining({ name: 'fox_material', baseColorFactor: [1, 1, 1, 1], texture: { mimeType: 'image/png', bytes: 26764 } }),
    })]);
    // Read without --scale the units warning is in the object too; a bad file is still one line.
    expect(JSON.parse((await inspect(fox, '--json')).lines[0]!).warnings).toEqual([expect.stringMatching(/^units: no --scale/)]);
    expect(await inspect(join(assets, 'nothing.glb'), '--json')).toEqual({ code: 1, lines: [expect.stringMatching(/nothing\.glb cannot be read \(ENOENT\)$/)] });
  });
});
