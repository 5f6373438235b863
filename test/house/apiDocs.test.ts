/**
 * The API reference (issue 19 item 1): `npm run docs` (scripts/docs.mjs) builds the
 * declarations, runs api-extractor over each entry point with `ae-undocumented` as an error,
 * and writes the markdown reference into build/api/markdown (git-ignored). It must exit 0 with
 * no message at all: every export documented, every `{@link}` resolved. ~10 s.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

describe('npm run docs', () => {
  it('exits 0 with no warnings and writes a page per entry point and per export', () => {
    let stderr = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [join(root, 'scripts/docs.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const failed = error as { status: number; stderr: string };
      status = failed.status;
      stderr = failed.stderr;
    }
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const pages = join(root, 'build/api/markdown');
    for (const page of ['index.md', 'bitanim.md', 'bitanim-kernels.md', 'bitanim-lod.md', 'bitanim.createanimationworld.md', 'bitanim-kernels.sampleclipinto.md', 'bitanim-lod.reduceclip.md', 'bitanim.humanoidmap.md']) {
      expect(existsSync(join(pages, page)), page).toBe(true);
    }
    // The page carries the doc comment's text, not only the signature.
    expect(readFileSync(join(pages, 'bitanim.createanimationworld.md'), 'utf8')).toContain('bitecs entity ids start at 1');
    // humanoidMap (the function) and HumanoidMap (its result's type) differ only in case, and
    // api-documenter lowercases file names: the type's page is bitanim.humanoidmap.md, and the
    // function's comment is in the entry's table (its @throws and @example are not).
    expect(readFileSync(join(pages, 'bitanim.md'), 'utf8')).toContain('topology wins over a name');
  }, 120_000);

  it('the generated reference is not committed (build/ is git-ignored)', () => {
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain('build/');
  });
});
