import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { reduceFile } from '../../src/cli/lod.js';
import { run } from '../../src/cli/main.js';
import { loadGltf } from '../../src/import/gltf.js';
import { reduceClip } from '../../src/offline/lod/reduceClip.js';
import { ASSETS_DIR } from '../support/assets.js';

const root = new URL('../../', import.meta.url).pathname;
const assets = ASSETS_DIR;
const FOX = join(assets, 'Fox.glb');

/** Runs the CLI in-process, collecting stdout and stderr lines. */
async function lod(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const code = await run(['lod', ...args], (line) => out.push(line), { err: (line) => err.push(line) });
  return { code, out, err };
}

/** A row of the table: name, frames, joints, keys before, keys after, ratio, bytes before, bytes after, ratio, max and mean error. */
const ROW = /^(\S+)\s+(\d+)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+([\d.]+):1\s+([\d,]+)\s+([\d,]+)\s+([\d.]+):1\s+(\d\.\d{6})\s+(\d\.\d{6})\s+(\d\.\d{6})\s+([\d.]+) %$/;
const count = (s: string | undefined): number => Number(s!.replace(/,/g, ''));

describe('bitanim lod', () => {
  it('prints keys and bytes before and after, their ratios, max and mean error in metres per clip (Fox Walk, centimetre file)', async () => {
    const { code, out, err } = await lod(FOX, '--scale', 'cm', '--clip', 'Walk');
    expect([code, err]).toEqual([0, []]);
    expect(out[0]).toBe(`${FOX}: 1 clip, tolerance 0.005 m at the joints and a tenth of the hip height from them, ATKINS keys in 16 bits, 1 file unit = 0.01 m, keys at their own rate`);
    expect(out[1]).toMatch(/^clip\s+frames\s+joints\s+keys before\s+keys after\s+ratio\s+bytes before\s+bytes after\s+ratio\s+max error \(m\)\s+mean error \(m\)\s+p99 error \(m\)\s+≤ tolerance$/);
    expect(out).toHaveLength(3);
    const [, name, frames, joints, before, after, ratio, bytesBefore, bytesAfter, bytesRatio, max, mean, p99, within] = ROW.exec(out[2]!)!;
    // Walk's 24 fps keys at 48 fps: nlerp between 24 fps frames is 0.61 mm off the file's slerp.
    expect([name, frames, joints, before]).toEqual(['Walk', '35', '24', '8,400']);
    const keysAfter = Number(after!.replace(/,/g, ''));
    expect(keysAfter).toBeLessThan(8400);
    expect(Number(ratio)).toBeCloseTo(8400 / keysAfter, 1);
    expect(Number(max)).toBeLessThanOrEqual(0.005);
    expect(Number(mean)).toBeLessThanOrEqual(Number(max));

    // The same figures as reduceClip at 0.5 file units, converted to metres, on the clip
    // loadGltf gives with its 0.1 mm in file units (0.01 cm).
    const { clips } = await loadGltf(new Uint8Array(readFileSync(FOX)), { tolerance: 0.01 });
    const direct = reduceClip(clips.find((c) => c.name === 'Walk')!, { tolerance: 0.5 }).stats!;
    expect(keysAfter).toBe(direct.keysAfter);
    // Bytes: the source's 35 frames × 24 joints × 10 floats × 4 bytes, and what the reduced clip holds.
    expect(count(bytesBefore)).toBe(35 * 24 * 10 * 4);
    expect(count(bytesAfter)).toBe(direct.bytes);
    expect(Number(bytesRatio)).toBeCloseTo(35 * 24 * 40 / direct.bytes, 1);
    expect(Number(max)).toBeCloseTo(direct.maxError * 0.01, 6);
    expect(Number(mean)).toBeCloseTo(direct.meanError * 0.01, 6);
    // ACL's figures: the 99th percentile of the per-sample error (between the mean and the max), the share within the tolerance.
    expect(Number(p99)).toBeCloseTo(direct.p99Error! * 0.01, 6);
    expect(Number(p99)).toBeLessThanOrEqual(Number(max));
    expect(direct.p99Error!).toBeGreaterThanOrEqual(direct.meanError);
    expect([within, direct.shareWithin]).toEqual(['100', 1]); // the reduction holds its bound everywhere
  });

  it('takes the unit as a name or a number; --distance and --method reach reduceClip; --json prints one object', async () => {
    const named = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--clip', 'Run');
    const number = await lod(FOX, '--scale', '0.01', '--clip', 'Walk', '--clip', 'Run');
    expect(number.out).toEqual(named.out);
    expect(named.out.at(-1)).toMatch(/^all\s+175\s+42,000\s+[\d,]+\s+[\d.]+:1\s+168,000\s+[\d,]+\s+[\d.]+:1\s+0\.00\d{4}\s+0\.00\d{4}\s+0\.00\d{4}\s+100 %$/);
    // The all row's bytes after: the two rows' sum.
    const rows = named.out.slice(2, 4).map((line) => count(ROW.exec(line)![8]));
    expect(count(/:1\s+168,000\s+([\d,]+)/.exec(named.out.at(-1)!)![1])).toBe(rows[0]! + rows[1]!);

    const { code, out } = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--tolerance', '0.01', '--distance', '0.1', '--method', 'uniform', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report).toMatchObject({ format: 'gltf', tolerance: 0.01, distance: 0.1, method: 'uniform', scale: 0.01, frameRate: null, out: null });
    const { clips } = await loadGltf(new Uint8Array(readFileSync(FOX)), { tolerance: 0.01 });
    const direct = reduceClip(clips.find((c) => c.name === 'Walk')!, { tolerance: 1, distance: 10, method: 'uniform' }).stats!;
    expect(report.clips).toHaveLength(1);
    expect(report.clips[0]).toMatchObject({ name: 'Walk', frames: 35, joints: 24, keysBefore: 8400, keysAfter: direct.keysAfter, skipped: null });
    expect(report.clips[0].maxError).toBeCloseTo(direct.maxError * 0.01, 9);
    expect(report.clips[0]).toMatchObject({ bytesBefore: 35 * 24 * 40, bytesAfter: direct.bytes, bytesRatio: (35 * 24 * 40) / direct.bytes });
    expect(report.total).toMatchObject({ keysAfter: direct.keysAfter, bytesBefore: 35 * 24 * 40, bytesAfter: direct.bytes });
    expect(report.total.bytesRatio).toBe((35 * 24 * 40) / direct.bytes);
  });

  it('--frame-rate forces the resampling rate; a clip it puts more than 0.1 mm off the keys is an import warning', async () => {
    const { code, out, err } = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--frame-rate', '30');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/, 1 file unit = 0\.01 m, resampled at 30 fps$/);
    expect(ROW.exec(out[2]!)!.slice(1, 5)).toEqual(['Walk', '22', '24', '5,280']); // round(17/24 × 30) + 1 frames
    // Survey, Walk and Run are all more than 0.1 mm off at 30 fps (keys at 24 fps between frames).
    expect(err).toEqual([`bitanim: lod: ${FOX}: 3 import warnings (bitanim inspect lists them)`]);
  });

  it('stores 16-bit curves by default (--quantize says so), 32-bit with --no-quantize: fewer bytes, the same bound, said in the heading and the JSON', async () => {
    const plain = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--no-quantize', '--json');
    const packed = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--json');
    const explicit = await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--quantize', '--json');
    const [a, b, c] = [JSON.parse(plain.out.join('\n')), JSON.parse(packed.out.join('\n')), JSON.parse(explicit.out.join('\n'))];
    expect([a.quantize, b.quantize, c.quantize]).toEqual([false, true, true]);
    expect(c.clips).toEqual(b.clips);
    expect(b.clips[0].bytesBefore).toBe(35 * 24 * 40);
    expect(b.clips[0].bytesAfter).toBeLessThan(a.clips[0].bytesAfter);
    expect(b.clips[0].maxError).toBeLessThanOrEqual(0.005);
    expect(a.clips[0].maxError).toBeLessThanOrEqual(0.005);
    const { clips } = await loadGltf(new Uint8Array(readFileSync(FOX)), { tolerance: 0.01 });
    const walk = clips.find((clip) => clip.name === 'Walk')!;
    expect(b.clips[0].bytesAfter).toBe(reduceClip(walk, { tolerance: 0.5 }).stats!.bytes);
    expect(a.clips[0].bytesAfter).toBe(reduceClip(walk, { tolerance: 0.5, quantize: false }).stats!.bytes);
    expect((await lod(FOX, '--scale', 'cm', '--clip', 'Walk')).out[0]).toContain('ATKINS keys in 16 bits, 1 file unit = 0.01 m');
    expect((await lod(FOX, '--scale', 'cm', '--clip', 'Walk', '--no-quantize')).out[0]).toContain('ATKINS keys in 32 bits, 1 file unit = 0.01 m');
  });

  it('reduces a BVH file scaled to metres (CMU walk)', async () => {
    const file = join(assets, 'cmu_131_01_start_walk_stop.bvh');
    const report = await reduceFile(file, { scale: 0.056444 });
    expect(report.format).toBe('bvh');
    expect(report.frameRate).toBeNull();
    const [clip] = report.clips;
    expect(clip).toMatchObject({ name: 'cmu_131_01_start_walk_stop', frames: 994, joints: 31, keysBefore: 994 * 31 * 10 });
    expect(clip!.maxError).toBeLessThanOrEqual(0.005);
    expect(clip!.keysAfter).toBeLessThan(clip!.keysBefore / 20);
  });

  it('refuses bad options with one line on stderr and exit 1', async () => {
    const cases: [string[], RegExp][] = [
      [['--tolerance', '-1'], /^bitanim: lod: --tolerance is -1: must be a finite number > 0 \(metres\)$/],
      [['--tolerance', '0'], /--tolerance is 0: must be a finite number > 0/],
      [['--tolerance', 'abc'], /--tolerance is "abc": must be a finite number > 0/],
      [['--tolerance', 'NaN'], /--tolerance is "NaN"/],
      [['--tolerance', 'Infinity'], /--tolerance is "Infinity"/],
      [['--tolerance'], /^bitanim: option `--tolerance <metres>` value is missing$/],
      [['--distance', '-0.1'], /--distance is -0\.1: must be a finite number ≥ 0 \(metres\)/],
      [['--method', 'spline'], /--method is "spline": must be atkins or uniform/],
      [['--scale', '0'], /--scale is 0: must be a finite number > 0 \(metres per file unit\) or one of m, cm, mm, in, ft/],
      [['--scale', 'furlong'], /--scale is "furlong"/],
      [['--frame-rate', '0'], /--frame-rate is 0: must be a finite number > 0 \(Hz\)/],
      [['--out', 'fox.fbx'], /--out is "fox\.fbx": must name a \.glb or \.gltf file/],
      [['--out', FOX], /--out is the input file/],
      [['--clip', 'Trot'], /^bitanim: lod: --clip "Trot" is not a clip of the file \("Survey", "Walk", "Run"\)$/],
      [['--bogus'], /^bitanim: Unknown option `--bogus`$/],
    ];
    for (const [args, message] of cases) {
      const { code, out, err } = await lod(FOX, ...args);
      expect([code, out, err.length], args.join(' ')).toEqual([1, [], 1]);
      expect(err[0], args.join(' ')).toMatch(message);
    }
    const noFile = await lod();
    expect([noFile.code, noFile.err]).toEqual([1, ['bitanim: missing required args for command `lod <file>`']]);
  });

  it('a bad file prints one line naming the problem and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitanim-lod-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cases: [string, string | Uint8Array, RegExp][] = [
      ['junk.glb', Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), /^bitanim: loadGltf: .*/],
      ['truncated.glb', readFileSync(FOX).subarray(0, 4000), /^bitanim: loadGltf: .*truncated/],
      ['empty.bvh', '', /^bitanim: .*(HIERARCHY|empty)/i],
      ['cut.bvh', readFileSync(join(assets, 'cmu_131_01_start_walk_stop.bvh'), 'utf8').slice(0, 3000), /^bitanim: parseBvh: /],
      ['notes.txt', 'hello', /^bitanim: lod: .*notes\.txt is not \.glb, \.gltf or \.bvh$/],
    ];
    for (const [name, content, message] of cases) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const { code, out, err } = await lod(file);
      expect([code, out, err.length], name).toEqual([1, [], 1]);
      expect(err[0], name).toMatch(message);
      expect(err[0], name).not.toMatch(/\n|\s+at\s/);
    }
    const missing = await lod(join(dir, 'missing.glb'));
    expect([missing.code, missing.err.length]).toEqual([1, 1]);
    expect(missing.err[0]).toMatch(/^bitanim: lod: .*missing\.glb cannot be read \(ENOENT\)$/);
  });

  it('draws a progress bar per clip on a terminal stream, and none with --no-progress or off a terminal', async () => {
    const drawn = async (isTTY: boolean, ...extra: string[]): Promise<string> => {
      const stream = Object.assign(new PassThrough(), { isTTY, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const out: string[] = [];
      const code = await run(['lod', FOX, '--scale', 'cm', '--clip', 'Walk', '--clip', 'Run', ...extra], (l) => out.push(l), { err: () => {}, progress: stream });
      expect(code).toBe(0);
      expect(out).toHaveLength(5); // heading, titles, 2 rows, total: the bar never goes to stdout
      return text;
    };
    const bar = await drawn(true);
    expect(bar).toMatch(/Walk \(1\/2\) \|.*\| search pass 1: \d+% of the channels/);
    expect(bar).toMatch(/Run \(2\/2\) \|/);
    expect(await drawn(true, '--no-progress')).toBe('');
    expect(await drawn(false)).toBe('');
  });
});

describe("the motion-LOD guide's lod outputs", () => {
  // Blocks marked `<!-- lod -->` in docs/motion-lod.md (as test/readme.test.ts does for the
  // README's `<!-- inspect -->`): stdout only.
  const guide = readFileSync(join(root, 'docs/motion-lod.md'), 'utf8');
  const blocks = [...guide.matchAll(/<!-- lod -->\n```console\n\$ npx bitanim (.*)\n([\s\S]*?)```/g)];
  it('are what bitanim lod prints now (the Fox and the CMU walk)', async () => {
    expect(blocks.map(([, command]) => command)).toEqual([
      'lod assets/Fox.glb --scale cm',
      'lod assets/cmu_131_01_start_walk_stop.bvh --scale 0.056444',
    ]);
    for (const [, command, output] of blocks) {
      const lines: string[] = [];
      expect(await run(command!.split(' '), (line) => lines.push(line), { err: () => {} })).toBe(0);
      expect(lines.join('\n') + '\n').toBe(output);
    }
  });
});

describe('node dist/cli/bin.js lod (after npm run build)', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  const bin = (...args: string[]) => spawnSync(process.execPath, [join(root, 'dist/cli/bin.js'), 'lod', ...args], { encoding: 'utf8' });

  it('prints the table on stdout, nothing on stderr, exit 0', () => {
    const result = bin(FOX, '--scale', 'cm', '--clip', 'Walk', '--tolerance', '0.005');
    expect([result.status, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(ROW);
  });

  it('a malformed file: one line on stderr, no stack trace, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitanim-lod-bin-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bad.glb');
    writeFileSync(file, readFileSync(FOX).subarray(0, 4000));
    const result = bin(file);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^bitanim: loadGltf: .*truncated/);
    const negative = bin(FOX, '--tolerance', '-0.005');
    expect([negative.status, negative.stdout]).toEqual([1, '']);
    expect(negative.stderr).toBe('bitanim: lod: --tolerance is -0.005: must be a finite number > 0 (metres)\n');
  });
});
