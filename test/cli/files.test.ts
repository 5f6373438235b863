import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, readInputFile } from '../../src/cli/files.js';
import { reduceFile } from '../../src/cli/lod.js';
import { run } from '../../src/cli/main.js';
import { ASSETS_DIR } from '../support/assets.js';

const root = new URL('../../', import.meta.url).pathname;
const assets = ASSETS_DIR;
const FOX = join(assets, 'Fox.glb');
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-files-'));

/**
 * The real CLI, built from src into a directory of this test's own (not dist/, which
 * test/cli/lod.test.ts rebuilds at the same time), run as a child process under a watchdog:
 * a read that never ends is killed after WATCHDOG ms and fails the test instead of stalling CI.
 */
const build = join(tmp, 'build');
const WATCHDOG = 30_000;
beforeAll(() => {
  mkdirSync(build);
  writeFileSync(join(build, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(root, 'node_modules'), join(build, 'node_modules'));
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(build, 'dist'), '--declaration', 'false', '--sourceMap', 'false', '--inlineSources', 'false'], { cwd: root, stdio: 'pipe' });
}, 120_000);
// The build, the FIFO, the sparse file, the links: removed (rm does not follow the node_modules link).
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bin(...args: string[]): { status: number | null; killed: boolean; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(build, 'dist/cli/bin.js'), ...args], { encoding: 'utf8', timeout: WATCHDOG, killSignal: 'SIGKILL' });
  return { status: result.status, killed: result.signal === 'SIGKILL', stdout: result.stdout, stderr: result.stderr };
}

/** Exit 1 with one line on stderr matching `pattern`, nothing on stdout, and not killed by the watchdog. */
function expectRefused(result: ReturnType<typeof bin>, pattern: RegExp): void {
  expect(result.killed).toBe(false);
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** /dev/zero, the device the issue names (absent on Windows). */
const hasDevZero = existsSync('/dev/zero') && statSync('/dev/zero').isCharacterDevice();

describe('the CLI opens only regular files (node dist/cli/bin.js, under a watchdog)', () => {
  it.skipIf(!hasDevZero)('bitanim inspect /dev/zero is refused at once: a character device', () => {
    expectRefused(bin('inspect', '/dev/zero'), /^bitanim: inspect: \/dev\/zero is a character device, not a regular file/);
  });

  it.skipIf(!hasDevZero)('a .glb symlink to /dev/zero is refused by inspect and lod (symlinks are followed before the check)', () => {
    const link = join(tmp, 'zero.glb');
    symlinkSync('/dev/zero', link);
    expectRefused(bin('inspect', link), /^bitanim: inspect: .*zero\.glb is a character device, not a regular file/);
    expectRefused(bin('lod', link), /^bitanim: lod: .*zero\.glb is a character device, not a regular file/);
  });

  it('a FIFO is refused without being opened (opening one waits for a writer)', () => {
    const fifo = join(tmp, 'pipe.bvh');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo here: nothing to test
    expectRefused(bin('inspect', fifo), /^bitanim: inspect: .*pipe\.bvh is a FIFO \(named pipe\), not a regular file/);
  });

  it('a directory is refused, named as one', () => {
    const dir = join(tmp, 'folder.glb');
    mkdirSync(dir);
    expectRefused(bin('inspect', dir), /^bitanim: inspect: .*folder\.glb is a directory, not a regular file/);
  });

  it(`a file above ${MAX_INPUT_BYTES} bytes is refused before it is read (a sparse file)`, () => {
    const big = join(tmp, 'big.glb');
    writeFileSync(big, '');
    truncateSync(big, MAX_INPUT_BYTES + 1); // sparse: takes no disk
    expectRefused(bin('inspect', big), new RegExp(`^bitanim: inspect: .*big\\.glb is ${MAX_INPUT_BYTES + 1} bytes, above the ${MAX_INPUT_BYTES} byte \\(512 MiB\\) limit`));
    expectRefused(bin('lod', big), /^bitanim: lod: .*big\.glb is \d+ bytes, above the/);
  });

  it('a regular file at the limit is read whole, and through a symlink too (readInputFile)', async () => {
    const file = join(tmp, 'small.bvh');
    const text = 'HIERARCHY\nROOT a\n';
    writeFileSync(file, text);
    const link = join(tmp, 'small-link.bvh');
    symlinkSync(file, link);
    for (const path of [file, link]) {
      const { bytes, stats } = await readInputFile(path, 'test', text.length);
      expect(bytes.toString('utf8')).toBe(text);
      expect(stats.size).toBe(text.length);
    }
    await expect(readInputFile(file, 'test', text.length - 1)).rejects.toThrow(`is ${text.length} bytes, above the ${text.length - 1} byte`);
    await expect(readInputFile(join(tmp, 'missing.glb'), 'test')).rejects.toThrow(/missing\.glb cannot be read \(ENOENT\)/);
  });
});

describe('bitanim lod --out refuses the input under another name', () => {
  /** A fresh copy of the Fox as IN, and its bytes. */
  function input(name: string): { file: string; bytes: Buffer } {
    const dir = mkdtempSync(join(tmp, `${name}-`));
    const file = join(dir, 'in.glb');
    copyFileSync(FOX, file);
    return { file, bytes: readFileSync(file) };
  }

  async function lod(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [], err: string[] = [];
    const code = await run(['lod', ...args], (line) => out.push(line), { err: (line) => err.push(line) });
    return { code, out, err };
  }

  for (const kind of ['symlink', 'hard link'] as const) {
    it(`an --out that is a ${kind} to IN: one line, exit 1, IN unchanged, no clip reduced`, async () => {
      const { file, bytes } = input(kind.replace(' ', '-'));
      const out = join(file, '..', 'out.glb');
      if (kind === 'symlink') symlinkSync(file, out);
      else linkSync(file, out);
      const result = await lod(file, '--scale', 'cm', '--out', out);
      expect(result.code).toBe(1);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/^bitanim: lod: --out is ".*out\.glb", which is the input file .*in\.glb \(the same file by device and inode/);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      // Refused before any reduction work: no hook of the reduction is ever called.
      const calls: string[] = [];
      await expect(reduceFile(file, { scale: 'cm', out }, {
        onClips: () => calls.push('clips'), onClipStart: () => calls.push('start'), onProgress: () => calls.push('progress'),
      })).rejects.toThrow(/--out is .*which is the input file/);
      expect(calls).toEqual([]);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    });
  }

  it('an --out that is another spelling of IN\'s path is refused too; a new file is written', async () => {
    const { file, bytes } = input('path');
    const spelled = join(file, '..', '.', '..', file.split('/').slice(-2).join('/'));
    const refused = await lod(file, '--scale', 'cm', '--clip', 'Walk', '--out', spelled);
    expect(refused.code).toBe(1);
    expect(refused.err).toHaveLength(1);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    const fresh = join(file, '..', 'fresh.glb');
    const written = await lod(file, '--scale', 'cm', '--clip', 'Walk', '--out', fresh);
    expect(written.code).toBe(0);
    expect(readFileSync(fresh).subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
