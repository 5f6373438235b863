/**
 * `bitanim lod --out` writes whole or not at all, and only where the path names: the output goes
 * to a temporary file beside the target and is renamed over it, so a run that dies while
 * writing (stopped by a file-size limit in the middle of the write, or killed at any moment)
 * leaves the target as it was or complete — never a partial file; a dangling symlink, or a
 * symlink to a file in another folder, is refused before any work (nothing is created where it
 * points); a symlink to a file beside it is followed on purpose (the file replaced, the link kept).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { loadGltf } from '../../src/import/gltf.js';
import { ASSETS_DIR } from '../support/assets.js';
import { buildCliPackage } from '../support/cliPackage.js';

const fox = join(ASSETS_DIR, 'Fox.glb');
const tmp = mkdtempSync(join(tmpdir(), 'bitanim-lod-atomic-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `bitanim lod` in this process: exit code and error lines. */
async function lod(...args: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const code = await run(['lod', fox, '--scale', 'cm', ...args], () => {}, { err: (line) => err.push(line) });
  return { code, err };
}

/** A fresh folder under tmp. */
let folders = 0;
function folder(): string {
  const dir = join(tmp, `case${folders++}`);
  mkdirSync(dir);
  return dir;
}

/** SIGKILLs of `lod --out` runs, at moments spread evenly over one and a half runs. */
const KILLS = 60;

describe('--out through symlinks', () => {
  it('a dangling symlink is refused before any work, and nothing is created where it points', async () => {
    const dir = folder(), elsewhere = folder();
    const link = join(dir, 'out.glb');
    symlinkSync(join(elsewhere, 'created.glb'), link);
    const { code, err } = await lod('--out', link);
    expect(code).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain('a dangling link');
    expect(err[0]).toContain('--out');
    expect(existsSync(join(elsewhere, 'created.glb'))).toBe(false);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('a symlink to a file in another folder is refused; that file is unchanged', async () => {
    const dir = folder(), elsewhere = folder();
    const outside = join(elsewhere, 'precious.glb');
    writeFileSync(outside, 'precious');
    symlinkSync(outside, join(dir, 'out.glb'));
    const { code, err } = await lod('--out', join(dir, 'out.glb'));
    expect(code).toBe(1);
    expect(err[0]).toContain(`a symlink to ${outside}, outside its folder`);
    expect(readFileSync(outside, 'utf8')).toBe('precious');
  });

  it('a symlink to a file beside it: the file is replaced by the complete output, the link kept, no temporary file left', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'real.glb'), 'old');
    symlinkSync('real.glb', join(dir, 'out.glb'));
    const { code, err } = await lod('--clip', 'Walk', '--out', join(dir, 'out.glb'));
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(readlinkSync(join(dir, 'out.glb'))).toBe('real.glb');
    const written = await loadGltf(readFileSync(join(dir, 'real.glb')));
    expect(written.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    expect(readdirSync(dir).sort()).toEqual(['out.glb', 'real.glb']);
  });
});

describe('--out is written whole or not at all (the built command, in child processes)', () => {
  let bin = '';
  beforeAll(() => {
    bin = buildCliPackage(tmp);
  }, 120_000);

  const args = (out: string, tolerance: string): string[] => [bin, 'lod', fox, '--scale', 'cm', '--tolerance', tolerance, '--no-compress', '--out', out]; // plain samplers: over 100 KB, so a 40-block limit stops the write

  it('a write stopped half-way (a file-size limit below the output\'s size) leaves the previous output exactly, or no file', () => {
    const dir = folder();
    const out = join(dir, 'fox.lod.glb');
    expect(spawnSync(process.execPath, args(out, '0.005'), { encoding: 'utf8' }).status).toBe(0);
    const previous = readFileSync(out);
    expect(previous.length).toBeGreaterThan(100_000);
    // `ulimit -f 40`: at most 40 blocks (20 or 40 KB) per file — the write fails in the middle.
    const limited = (target: string) => spawnSync('sh', ['-c', `ulimit -f 40; exec "${process.execPath}" "${args(target, '0.002').slice(0).join('" "')}"`], { encoding: 'utf8' });
    const stopped = limited(out);
    expect(stopped.status, stopped.stderr).not.toBe(0);
    expect(readFileSync(out).equals(previous)).toBe(true);
    const fresh = join(dir, 'new.glb');
    expect(limited(fresh).status).not.toBe(0);
    expect(existsSync(fresh)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['fox.lod.glb']); // the temporary files removed
  });

  it(`killed at ${KILLS} moments spread over one and a half runs: the target is always the previous output or the complete new one`, async () => {
    const dir = folder();
    const out = join(dir, 'fox.lod.glb');
    expect(spawnSync(process.execPath, args(out, '0.005'), { encoding: 'utf8' }).status).toBe(0);
    const previous = readFileSync(out);
    const started = performance.now();
    const complete = join(dir, 'complete.glb');
    expect(spawnSync(process.execPath, args(complete, '0.002'), { encoding: 'utf8' }).status).toBe(0);
    const runMs = performance.now() - started;
    const expected = readFileSync(complete);
    expect(expected.equals(previous)).toBe(false);
    let whole = 0;
    for (let k = 0; k < KILLS; k++) {
      writeFileSync(out, previous);
      const child = spawn(process.execPath, args(out, '0.002'), { stdio: 'ignore' });
      const timer = setTimeout(() => child.kill('SIGKILL'), (1.5 * runMs * (k + 0.5)) / KILLS);
      await new Promise((done) => child.on('exit', done));
      clearTimeout(timer);
      const now = readFileSync(out);
      expect(now.equals(previous) || now.equals(expected), `kill ${k}: ${now.length} bytes`).toBe(true);
      if (now.equals(expected)) whole++;
    }
    // Left behind by a killed run: temporary files only, named after the target.
    for (const name of readdirSync(dir)) expect(name, name).toMatch(/^(fox\.lod\.glb|complete\.glb|\.fox\.lod\.glb\.\d+\.[0-9a-f]{8}\.tmp)$/);
    console.log(`${KILLS} kills: ${KILLS - whole} left the previous output, ${whole} the complete new one (a run takes ${runMs.toFixed(0)} ms)`);
  }, 300_000);
});
