/**
 * `bitanim inspect FILE --map OTHER`: the joint map of OTHER's first skeleton (the clip's) onto
 * FILE's (the character's). The pairs printed are checked against `bindSkeletons(...).pairs` on
 * skeletons this test imports itself (loadGltf on the bytes, parseBvh on the text: not the
 * CLI's file readers), and against variants made here: the CMU capture with every joint
 * renamed to Mixamo's namespace, and the files read in other units.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnimationError } from '../../src/assets/AnimationError.js';
import { bindSkeletons } from '../../src/assets/Binding.js';
import { humanoidMap } from '../../src/assets/humanoid/humanoidMap.js';
import type { JointPair } from '../../src/assets/humanoid/jointMap.js';
import type { Skeleton } from '../../src/assets/Skeleton.js';
import { run } from '../../src/cli/main.js';
import { parseBvh } from '../../src/import/bvh.js';
import { loadGltf } from '../../src/import/gltf.js';
import { assetPath, readAsset, readAssetText } from '../support/assets.js';
import { buildCliPackage } from '../support/cliPackage.js';

const ROBOT = assetPath('RobotExpressive.glb');
const FOX = assetPath('Fox.glb');
const WALK = assetPath('cmu_131_01_start_walk_stop.bvh');
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-cli-map-'));
// rmSync does not follow the node_modules link made below.
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI in-process: exit code, stdout and stderr lines. */
async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const code = await run(args, (line) => out.push(line), { err: (line) => err.push(line) });
  return { code, out, err };
}

/** The skeletons, imported here independently of the CLI. */
const robot = async (): Promise<Skeleton> => (await loadGltf(readAsset('RobotExpressive.glb'))).skeletons[0]!;
const fox = async (): Promise<Skeleton> => (await loadGltf(readAsset('Fox.glb'))).skeletons[0]!;
const walk = (): Skeleton => parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh')).skeleton;

/** A pair as the CLI should print it: target ← source, the humanoid joint in brackets. */
const pairLine = (pair: JointPair): string => `  "${pair.target}" ← "${pair.source}"${pair.humanoid === undefined ? '' : ` (${pair.humanoid})`}`;

/** The map's lines: from the heading to the end. */
function mapSection(out: string[]): string[] {
  const start = out.findIndex((line) => line.startsWith('joint map: '));
  expect(start, 'the joint map heading').toBeGreaterThan(0);
  return out.slice(start);
}

/** The names a line `unpaired … joints (N, …): "a", "b"` lists ([] for `…: none`). */
function unpairedNames(line: string): string[] {
  if (line.endsWith(': none')) return [];
  const count = Number(/\((\d+), /.exec(line)![1]);
  const names = [...line.slice(line.indexOf('): ') + 3).matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  expect(names).toHaveLength(count);
  return names;
}

describe('inspect --map: CMU 131_01 onto RobotExpressive', () => {
  it('prints the report as without --map, then the humanoid pairs bindSkeletons makes, Body ← Hips, and the unpaired joints', async () => {
    const target = await robot(), source = walk();
    const binding = bindSkeletons(source, target);
    const { code, out, err } = await cli('inspect', ROBOT, '--map', WALK);
    expect([code, err]).toEqual([0, []]);
    // What inspect prints today comes first, unchanged.
    const plain = await cli('inspect', ROBOT);
    expect(out.slice(0, plain.out.length)).toEqual(plain.out);
    const map = out.slice(plain.out.length);
    expect(map[0]).toBe(
      `joint map: ${WALK} skeleton 0 (${source.jointCount} joints, the clip's) onto ${ROBOT} skeleton 0 (${target.jointCount} joints, the character's): ` +
      `rule humanoid, reference canonical, ${binding.pairs.length} pairs`);
    expect(map.slice(1, 1 + binding.pairs.length)).toEqual(binding.pairs.map(pairLine));
    // The Robot's legs hang from Body, beside its Hips (docs/retargeting.md): Body is the hips.
    expect(map).toContain('  "Body" ← "Hips" (hips)');
    expect(map).toContain('  "Hips" ← "lowerback" (spine)');
    // Every humanoid joint both skeletons have is one pair: 20 of the 22.
    const both = Object.keys(humanoidMap(target).joints).filter((j) => j in humanoidMap(source).joints);
    expect(binding.pairs).toHaveLength(both.length);
    expect(map).toHaveLength(1 + binding.pairs.length + 2);

    // Paired and unpaired joints partition each skeleton, each in its skeleton's order.
    const unpairedTarget = unpairedNames(map.at(-2)!), unpairedSource = unpairedNames(map.at(-1)!);
    expect(map.at(-2)).toMatch(/^unpaired target joints \(\d+, keep their reference pose\): /);
    expect(map.at(-1)).toMatch(/^unpaired source joints \(\d+, read by no target joint\): /);
    const pairedTarget = new Set(binding.pairs.map((p) => p.target)), pairedSource = new Set(binding.pairs.map((p) => p.source));
    expect(unpairedTarget).toEqual(target.names.filter((name) => !pairedTarget.has(name)));
    expect(unpairedSource).toEqual(source.names.filter((name) => !pairedSource.has(name)));
    expect(pairedTarget.size + unpairedTarget.length).toBe(target.jointCount);
    expect(pairedSource.size + unpairedSource.length).toBe(source.jointCount);
    expect(unpairedTarget).toContain('Bone'); // the Robot's root: no humanoid joint
    expect(unpairedSource).toEqual(expect.arrayContaining(['LHipJoint', 'RHipJoint', 'LeftToe', 'RightToe'])); // the Robot has no toes
  });

  it('--json: the same map under "map", beside the report as one object', async () => {
    const target = await robot(), source = walk();
    const binding = bindSkeletons(source, target);
    const { code, out, err } = await cli('inspect', ROBOT, '--map', WALK, '--json');
    expect([code, err, out]).toEqual([0, [], [expect.any(String)]]);
    const json = JSON.parse(out[0]!);
    expect(json.map).toEqual({
      source: { file: WALK, skeleton: 0, joints: source.jointCount },
      target: { file: ROBOT, skeleton: 0, joints: target.jointCount },
      rule: 'humanoid',
      reference: 'canonical',
      pairs: binding.pairs.map((p) => ({ target: p.target, source: p.source, humanoid: p.humanoid ?? null })),
      unpaired: {
        target: target.names.filter((_, joint) => binding.sourceJoint[joint] < 0),
        source: source.names.filter((_, joint) => !Array.from(binding.sourceJoint).includes(joint)),
      },
    });
    // The report: what loadGltf reads, and what the lines print.
    const { clips } = await loadGltf(readAsset('RobotExpressive.glb'));
    expect(json.skeletons).toHaveLength(1);
    expect(json.skeletons[0]).toMatchObject({ joints: 43, root: 'Bone', hip: 'Hips', hipHeight: target.hipHeight });
    expect(json.clips.map((c: { name: string; frames: number }) => [c.name, c.frames])).toEqual(clips.map((c) => [c.name, c.frameCount]));
    expect(json.meshes).toHaveLength(19);
    expect(json.meshes.filter((m: { rigidJoint: string | null }) => m.rigidJoint !== null)).toHaveLength(15);
    expect(json.meshes.find((m: { name: string }) => m.name === 'Arm.L#0')).toMatchObject({ vertices: 296, rigidJoint: 'UpperArm.L', normals: true, uvs: 0 });
    expect([json.scale, json.warnings]).toEqual([1, []]);
    // Without --map, no "map" key; the rest unchanged.
    const plain = JSON.parse((await cli('inspect', ROBOT, '--json')).out[0]!);
    expect(plain).toEqual({ ...json, map: undefined });
    expect('map' in plain).toBe(false);
  });
});

describe('inspect --map: refusals', () => {
  it('the Fox with the CMU walk: not a humanoid, too few names: one line on stderr with bindSkeletons\'s reason, exit 1, nothing on stdout', async () => {
    const source = walk(), target = await fox();
    let reason = '';
    try {
      bindSkeletons(source, target);
    } catch (error) {
      expect(error).toBeInstanceOf(AnimationError);
      reason = (error as AnimationError).issues.map((i) => i.message).join('; ');
    }
    expect(reason).toMatch(/^cannot pair the skeletons: they share no joint names, and the target skeleton \(root "_rootJoint", 24 joints\) is not a humanoid: /);
    const { code, out, err } = await cli('inspect', FOX, '--scale', 'cm', '--map', WALK);
    expect([code, out]).toEqual([1, []]);
    expect(err).toEqual([`bitanim: inspect: --map ${WALK} onto ${FOX}: ${reason}`]);
    // The other way round the Fox is the source: still refused, naming the source.
    const back = await cli('inspect', WALK, '--map', FOX);
    expect([back.code, back.out, back.err.length]).toEqual([1, [], 1]);
    expect(back.err[0]).toMatch(new RegExp(`^bitanim: inspect: --map ${FOX} onto ${WALK}: cannot pair the skeletons: .*the source skeleton \\(root "_rootJoint", 24 joints\\) is not a humanoid: its spine does not stand`));
  });

  it('bad flags and files: one line, exit 1 (unknown options refused as before)', async () => {
    const notes = join(tmp, 'notes.txt');
    writeFileSync(notes, 'no skeleton here');
    const cases: [string[], RegExp][] = [
      [['--map'], /^bitanim: option `--map <other>` value is missing$/],
      [['--map', WALK, '--map', WALK], /^bitanim: inspect: --map is given 2 times: give one file whose skeleton to map$/],
      [['--map', notes], /^bitanim: inspect: .*notes\.txt is not \.glb, \.gltf or \.bvh$/],
      [['--map', join(tmp, 'missing.bvh')], /^bitanim: inspect: .*missing\.bvh cannot be read \(ENOENT\)$/],
      [['--map', tmp], /^bitanim: inspect: .* is a directory, not a regular file/],
      // Named as typed (cac camel-cases it: `--mapScale`).
      [['--map', WALK, '--map-scale', 'cm'], /^bitanim: Unknown option `--map-scale`$/],
      [['--map', WALK, '--map-scale=cm'], /^bitanim: Unknown option `--map-scale`$/],
      [['--map', WALK, '--bogus'], /^bitanim: Unknown option `--bogus`$/],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await cli('inspect', ROBOT, ...args);
      expect([code, out, err.length], args.join(' ')).toEqual([1, [], 1]);
      expect(err[0], args.join(' ')).toMatch(message);
    }
  });
});

describe('inspect --map: variants', () => {
  it('a file onto itself: rule names, every joint paired with its namesake, none unpaired (a humanoid, a quadruped, a capture)', async () => {
    for (const [file, skeleton, reference] of [[ROBOT, await robot(), 'canonical'], [FOX, await fox(), 'rest'], [WALK, walk(), 'canonical']] as const) {
      const { code, out, err } = await cli('inspect', file, '--map', file);
      expect([code, err], file).toEqual([0, []]);
      const map = mapSection(out);
      expect(map[0], file).toMatch(new RegExp(`: rule names, reference ${reference}, ${skeleton.jointCount} pairs$`));
      expect(map.slice(1, -2), file).toEqual(skeleton.names.map((name) => `  "${name}" ← "${name}"`));
      expect(map.slice(-2), file).toEqual(['unpaired target joints: none', 'unpaired source joints: none']);
    }
  });

  it('the capture with every joint renamed mixamorig:…: no shared name, so humanoid pairs, each the renamed joint of its source', async () => {
    const text = readAssetText('cmu_131_01_start_walk_stop.bvh').replace(/^(\s*(?:ROOT|JOINT)\s+)(\S+)/gm, '$1mixamorig:$2');
    const renamed = join(tmp, 'renamed.bvh');
    writeFileSync(renamed, text);
    const source = walk(), target = parseBvh(text).skeleton;
    expect(target.names.every((name, joint) => name === `mixamorig:${source.names[joint]}`)).toBe(true);
    const { code, out } = await cli('inspect', renamed, '--map', WALK);
    expect(code).toBe(0);
    const map = mapSection(out);
    const humanoids = Object.keys(humanoidMap(source).joints);
    expect(map[0]).toMatch(new RegExp(`: rule humanoid, reference canonical, ${humanoids.length} pairs$`));
    const pairs = map.slice(1, -2).map((line) => /^ {2}"([^"]+)" ← "([^"]+)" \((\w+)\)$/.exec(line)!.slice(1));
    expect(pairs.map(([t, s]) => t)).toEqual(pairs.map(([, s]) => `mixamorig:${s}`));
    expect(pairs.map(([, , h]) => h).sort()).toEqual([...humanoids].sort());
    expect(map.slice(1, -2)).toEqual(bindSkeletons(source, target).pairs.map(pairLine));
    // The joints no humanoid joint names stay unpaired on both sides, the same joints.
    expect(unpairedNames(map.at(-2)!)).toEqual(unpairedNames(map.at(-1)!).map((name) => `mixamorig:${name}`));
  });

  it('units do not change the map: FILE read with --scale, OTHER read in file units or scaled gives the same pairs', async () => {
    const mapOf = async (...args: string[]) => mapSection((await cli('inspect', ...args)).out);
    const [metres, centimetres] = await Promise.all([mapOf(ROBOT, '--map', WALK), mapOf(ROBOT, '--scale', 'cm', '--map', WALK)]);
    expect(centimetres).toEqual(metres);
    // OTHER is read in its file units; bound in metres (0.056444 m per unit) the pairs are the same.
    const target = await robot();
    const scaled = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444 }).skeleton;
    expect(metres.slice(1, -2)).toEqual(bindSkeletons(scaled, target).pairs.map(pairLine));
    expect(bindSkeletons(scaled, target).reference).toBe('canonical');
  });
});

describe('node dist/cli/bin.js inspect --map from a copy of the package', () => {
  let bin = '';
  beforeAll(() => {
    bin = buildCliPackage(tmp);
  }, 120_000);
  const spawn = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: tmp });

  it('prints the map on stdout; a refusal is one line on stderr and exit 1', async () => {
    const ok = spawn('inspect', ROBOT, '--map', WALK);
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    const lines = ok.stdout.trimEnd().split('\n');
    expect(mapSection(lines).slice(1, -2)).toEqual(bindSkeletons(walk(), await robot()).pairs.map(pairLine));
    const refused = spawn('inspect', FOX, '--map', WALK);
    expect([refused.status, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^bitanim: inspect: --map .* onto .*Fox\.glb: cannot pair the skeletons: .* is not a humanoid: [^\n]*\n$/);
    const help = spawn('inspect', '--help').stdout;
    expect(help).toMatch(/--map <other>\s+Also print the joint map of OTHER's first skeleton/);
    expect(help).toMatch(/--json\s+Print one JSON object/);
  });
});
