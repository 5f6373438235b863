/**
 * The command line, finished (issue 19 item 6): units are never silent, one --scale for every
 * command, --version, output paths checked before any work. The built executable is spawned
 * from a copy of the package (package.json + dist compiled by tsc into a temporary folder, so
 * no other test's `npm run build` races it, with the repository's node_modules linked beside
 * it for its dependencies) — what `npx bitanim` runs.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkeleton } from '../../src/assets/Skeleton.js';
import { reduceFile } from '../../src/cli/lod.js';
import { run } from '../../src/cli/main.js';
import { guessUnits, LARGEST_METRE_SIZE, skeletonSize, unitsWarning } from '../../src/cli/units.js';
import { parseBvh } from '../../src/import/bvh.js';
import { ASSETS_DIR } from '../support/assets.js';
import { buildCliPackage } from '../support/cliPackage.js';

const root = new URL('../../', import.meta.url).pathname;
const assets = ASSETS_DIR;
const FOX = join(assets, 'Fox.glb');
const ROBOT = join(assets, 'RobotExpressive.glb');
const WALK = join(assets, 'cmu_131_01_start_walk_stop.bvh');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-cli-finished-'));
// rmSync does not follow the node_modules link made below.
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the CLI in-process: exit code, stdout and stderr lines. */
async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const code = await run(args, (line) => out.push(line), { err: (line) => err.push(line) });
  return { code, out, err };
}

describe('units are never silent', () => {
  it('guessUnits names the units that bring a skeleton to a character\'s size, centimetres first', () => {
    expect(guessUnits(42.9)).toEqual(['cm', 'in']); // the Fox's hips: 0.429 m or 1.09 m
    expect(guessUnits(90)).toEqual(['cm']); // a person in cm (in: 2.29 m, too tall)
    expect(guessUnits(16.3)).toEqual(['in']); // CMU: cm would be 0.163 m, too small
    expect(guessUnits(900)).toEqual(['mm']);
    expect(guessUnits(1e6)).toEqual([]);
  });

  it('a skeleton sized like metres gets no warning; one above 3 units does, naming the guess and the flag', () => {
    const skeleton = (hip: number) => createSkeleton({
      names: ['root', 'hips', 'foot'], parents: [-1, 0, 1], hipJoint: 1,
      rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, hip, 0, 0, 0, 0, 1, 1, 1, 1, 0, -hip, 0, 0, 0, 0, 1, 1, 1, 1],
    });
    expect(skeletonSize(skeleton(0.9))).toBeCloseTo(0.9, 6);
    expect(unitsWarning(skeleton(0.9), 'bvh')).toBeNull();
    expect(unitsWarning(skeleton(LARGEST_METRE_SIZE), 'gltf')).toBeNull();
    expect(unitsWarning(skeleton(90), 'bvh')).toBe(
      'units: no --scale, and the skeleton\'s hips are 90 units above its lowest joint: 90 m were they metres. ' +
      'The file is likely in centimetres (--scale cm: 0.9 m); pass --scale with its unit (metres per unit, or m, cm, mm, in, ft; ' +
      'CMU mocap: 0.056444) or --height with the figure\'s height in metres. Until then lengths are file units');
    expect(unitsWarning(skeleton(1e6), 'gltf')).toMatch(/: 1000000 m read as metres \(glTF's unit\)\. The file is not in metres; pass --scale/);
  });

  it('lod on a BVH without --scale: a warning naming inches and --scale in, lengths labelled file units, never m', async () => {
    const { code, out, err } = await cli('lod', WALK, '--no-progress');
    expect(code).toBe(0);
    // Hips 15.4 units above the lowest joint (the assets README: CMU's unit is 0.056444 m).
    expect(err).toEqual([expect.stringMatching(/^bitanim: lod: units: no --scale, and the skeleton's hips are 1[56]\.\d units above its lowest joint: 1[56]\.\d m were they metres\. The file is likely in inches \(--scale in: 0\.[34]\d+ m\); pass --scale/)]);
    expect(out[0]).toBe(`${WALK}: 1 clip, tolerance 0.005 file units at the joints and a tenth of the hip height from them, ATKINS keys in 16 bits, units unknown (BVH without --scale)`);
    expect(out[1]).toMatch(/max error \(units\)\s+mean error \(units\)\s+p99 error \(units\)\s+≤ tolerance$/);
    expect(out.join('\n')).not.toMatch(/\(m\)| m\b/);
    const json = await cli('lod', WALK, '--json');
    expect(JSON.parse(json.out.join('\n'))).toMatchObject({ scale: 1, units: 'file units' });
    expect(json.err).toHaveLength(1);

    // With the file's unit: metres, no warning; --scale 1 says "metres" and is believed.
    const scaled = await cli('lod', WALK, '--scale', '0.056444', '--no-progress');
    expect([scaled.code, scaled.err]).toEqual([0, []]);
    expect(scaled.out[0]).toMatch(/tolerance 0\.005 m .* 1 file unit = 0\.056444 m$/);
    expect(scaled.out[1]).toMatch(/max error \(m\)\s+mean error \(m\)\s+p99 error \(m\)\s+≤ tolerance$/);
    const metres = await cli('lod', WALK, '--scale', 'm', '--json');
    expect([metres.err, JSON.parse(metres.out.join('\n')).units]).toEqual([[], 'm']);
  }, 60_000);

  it('inspect lists the same warning for a BVH or glTF read without --scale; none with it, none for a metre-sized glTF', async () => {
    const bvh = await cli('inspect', WALK);
    expect(bvh.out).toContainEqual(expect.stringMatching(/^ {2}units: no --scale, .*likely in inches \(--scale in/));
    expect((await cli('inspect', WALK, '--scale', '0.056444')).out.at(-1)).toBe('warnings: none');
    const fox = await cli('inspect', FOX);
    expect(fox.out).toContainEqual(expect.stringMatching(
      /^ {2}units: no --scale, and the skeleton's hips are 42\.9 units above its lowest joint: 42\.9 m read as metres \(glTF's unit\)\. The file is likely in centimetres \(--scale cm: 0\.429 m\) or inches/));
    expect((await cli('inspect', FOX, '--scale', 'cm')).out.at(-1)).toBe('warnings: none');
    // RobotExpressive: hips 1.28 m up, a glTF in metres.
    expect((await cli('inspect', ROBOT)).out.join('\n')).not.toMatch(/units:/);
  });

  it('--scale on glTF converts in every command: inspect scales lengths, lod converts the tolerance and errors', async () => {
    const hip = (lines: string[]) => Number(/at height ([\d.]+)$/.exec(lines[1]!)![1]);
    const [m, cm, inches] = await Promise.all([cli('inspect', FOX), cli('inspect', FOX, '--scale', 'cm'), cli('inspect', FOX, '--scale', 'in')]);
    expect(hip(cm.out)).toBeCloseTo(hip(m.out) * 0.01, 5);
    expect(hip(inches.out)).toBeCloseTo(hip(m.out) * 0.0254, 4);

    // lod: 5 mm is 0.5 file units at cm, 0.005 units as metres: far fewer keys at cm; errors in metres.
    const reduce = async (...scale: string[]) => JSON.parse((await cli('lod', FOX, '--clip', 'Walk', '--json', ...scale)).out.join('\n'));
    const [asMetres, asCm, asNumber] = await Promise.all([reduce(), reduce('--scale', 'cm'), reduce('--scale', '0.01')]);
    expect(asCm).toEqual(asNumber);
    expect([asMetres.scale, asCm.scale, asCm.units]).toEqual([1, 0.01, 'm']);
    expect(asCm.total.keysAfter).toBeLessThan(asMetres.total.keysAfter / 2);
    expect(asCm.total.maxError).toBeLessThanOrEqual(0.005);
    expect(asCm.total.maxError).toBeGreaterThan(asMetres.total.maxError);
  }, 60_000);
});

describe('output paths are checked before any work', () => {
  it('a missing folder, a file in the folder\'s place, a directory in the file\'s place: one line, exit 1, the input never read', async () => {
    const notDir = join(tmp, 'plain-file');
    writeFileSync(notDir, 'x');
    mkdirSync(join(tmp, 'taken.glb'));
    const cases: [string, RegExp][] = [
      [join(tmp, 'no/such/dir/out.glb'), /^bitanim: lod: --out is ".*\/no\/such\/dir\/out\.glb": its folder .*\/no\/such\/dir does not exist \(create it first\)$/],
      [join(notDir, 'out.glb'), /^bitanim: lod: --out is ".*plain-file\/out\.glb": .*plain-file is not a folder$/],
      [join(tmp, 'taken.glb'), /^bitanim: lod: --out is ".*taken\.glb": a directory, not a file: name a \.glb or \.gltf file to write$/],
    ];
    for (const [out, message] of cases) {
      // The input does not exist: the --out fault is reported, so it was checked first.
      const result = await cli('lod', join(tmp, 'missing-input.bvh'), '--out', out);
      expect([result.code, result.out], out).toEqual([1, []]);
      expect(result.err, out).toEqual([expect.stringMatching(message)]);
    }
    // reduceFile itself: no clip reached before the fault.
    let started = 0;
    await expect(reduceFile(FOX, { scale: 'cm', out: join(tmp, 'gone', 'Fox.glb') }, { onClips: () => started++ })).rejects.toThrow(/does not exist/);
    expect(started).toBe(0);
  });

  it.skipIf(process.getuid?.() === 0)('a read-only folder or file is refused at once (not as root, which may write anywhere)', async () => {
    const locked = join(tmp, 'locked');
    mkdirSync(locked);
    writeFileSync(join(locked, 'old.glb'), 'x');
    chmodSync(join(locked, 'old.glb'), 0o444);
    chmodSync(locked, 0o555);
    try {
      const folder = await cli('lod', WALK, '--scale', 'in', '--out', join(locked, 'new.glb'));
      expect([folder.code, folder.err]).toEqual([1, [expect.stringMatching(/--out is ".*new\.glb": its folder .*locked is not writable \(EACCES\)$/)]]);
      const file = await cli('lod', WALK, '--scale', 'in', '--out', join(locked, 'old.glb'));
      expect([file.code, file.err]).toEqual([1, [expect.stringMatching(/--out is ".*old\.glb": is not writable \(EACCES\)$/)]]);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it('a writable new path is not created by the check (the reduction writes it)', async () => {
    const out = join(tmp, 'walk.glb');
    const { code, out: lines } = await cli('lod', WALK, '--scale', '0.056444', '--out', out, '--no-progress');
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/^wrote .*walk\.glb: file bytes [\d,]+ before, [\d,]+ after \(\d+\.\d:1\); 1 reduced animation, quantized and meshopt-compressed, max error 0\.00\d{4} m against the source \(frames and between them\)$/);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('glTF');
  }, 60_000);
});

describe('node dist/cli/bin.js from a copy of the package', () => {
  let bin = '';
  beforeAll(() => {
    bin = buildCliPackage(tmp);
  }, 120_000);
  const spawn = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: tmp });

  it('--version and -v print the version of package.json, exit 0; in-process run() reads it from the sources', async () => {
    for (const flag of ['--version', '-v']) {
      const result = spawn(flag);
      expect([result.status, result.stdout, result.stderr], flag).toEqual([0, `bitanim ${version}\n`, '']);
    }
    expect(await cli('--version')).toEqual({ code: 0, out: [`bitanim ${version}`], err: [] });
  });

  it('--help lists --version; each command\'s help gives the one --scale vocabulary', () => {
    const help = spawn('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/-v, --version\s+Print the version of bitanim/);
    for (const command of ['inspect', 'lod']) {
      const text = spawn(command, '--help').stdout;
      expect(text, command).toMatch(/--scale <scale>\s+The file's unit: metres per file unit \(0\.01; 0\.056444 for CMU BVH\) or m, cm, mm, in, ft\. Default: glTF in metres, BVH unknown/);
    }
  });

  it('lod --out to a missing folder: one line on stderr, exit 1, nothing on stdout', () => {
    const result = spawn('lod', WALK, '--out', join(tmp, 'nowhere', 'walk.glb'));
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^bitanim: lod: --out is ".*nowhere\/walk\.glb": its folder .*nowhere does not exist \(create it first\)\n$/);
  });

  it('a BVH without --scale: the units warning on stderr, the table on stdout', () => {
    const result = spawn('lod', WALK, '--no-progress');
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^bitanim: lod: units: no --scale, .*--scale in/);
    expect(result.stdout).toMatch(/max error \(units\)/);
  });
});

describe('parseBvh untouched by the CLI\'s units', () => {
  it('a BVH imported without scale keeps its file units (the CLI only warns)', () => {
    const { skeleton } = parseBvh(readFileSync(WALK, 'utf8'));
    expect(skeletonSize(skeleton)).toBeGreaterThan(LARGEST_METRE_SIZE);
  });
});
