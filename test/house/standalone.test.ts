/**
 * The repository stands alone (issue 19): a clone runs its tests, examples, scripts, bench and
 * sandbox with nothing beside it. The real assets are in `assets/` (with their sources, licences
 * and credits), read through test/support/assets.ts and sandbox/vite.config.ts; no code reaches
 * for the workspace's `../shared` folder any more. Comments may still cite `../shared/seeds/…`
 * (they name the sources of a method); strings, template strings and regular expressions, what
 * code uses at run time, may not name a path segment `shared`. .ci/run runs `npm test` from a
 * copy with nothing beside it, which checks the same thing at run time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSETS_DIR, REPO_ROOT } from '../support/assets.js';
import { codeTokens } from './codeTokens.js';

/** A path segment named `shared` (`../shared/…`, `'shared'` as a `join` argument, `\shared\`). */
const SHARED_SEGMENT = /(^|[/\\])shared([/\\]|$)/;
/** The folders that hold code, and the configuration files at the root that name paths. */
const CODE_DIRS = ['src', 'test', 'scripts', 'bench', 'sandbox', 'e2e', 'examples', 'assembly'];
const ROOT_FILES = ['vitest.config.ts', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.bench.json'];
const CODE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs|json|html)$/;
/** Build outputs and installed packages are not source. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.bench-build', 'e2e-out']);
/** This rule's own cases (they must be found, so they cannot be in the scan). */
const FIXTURE = 'test/house/fixtures/sharedPaths.ts';

function codeFiles(dir: string): string[] {
  if (!existsSync(join(REPO_ROOT, dir))) return [];
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return SKIPPED_DIRS.has(e.name) ? [] : codeFiles(path);
    return CODE_FILE.test(e.name) ? [path] : [];
  });
}

/** `file:line: text` for every string, template part or regex in `source` that names a `shared` path segment. */
function sharedPaths(file: string, source: string): string[] {
  // JSON and HTML have no comments that could cite a source: every mention counts.
  const tokens = /\.(json|html)$/.test(file) ? [{ kind: 'string' as const, text: source, line: 1 }] : codeTokens(source);
  const found: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'comment') continue;
    token.text.split('\n').forEach((text, n) => {
      if (SHARED_SEGMENT.test(text)) found.push(`${file}:${token.line + n}: ${text.trim()}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('finds a shared path in strings, templates and regexes, never in comments (its own cases)', () => {
    const source = readFileSync(join(REPO_ROOT, FIXTURE), 'utf8');
    const expected = source.split('\n').flatMap((text, n) => (text.endsWith('// reads') ? [n + 1] : []));
    expect(expected).toHaveLength(8);
    const found = sharedPaths(FIXTURE, source).map((f) => Number(f.split(':')[1]));
    expect(found).toEqual(expected);
  });

  it('no code reads ../shared: no string, template or regex names a `shared` path segment', () => {
    const files = [...CODE_DIRS.flatMap(codeFiles), ...ROOT_FILES.filter((f) => existsSync(join(REPO_ROOT, f)))];
    expect(files.length).toBeGreaterThan(100);
    const found = files.filter((f) => f !== FIXTURE).flatMap((f) => sharedPaths(f, readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('no command the docs show (tests run them) reads a folder beside the repository', () => {
    const docs = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const found = docs.flatMap((file) => readFileSync(join(REPO_ROOT, file), 'utf8').split('\n').flatMap((text, n) =>
      text.startsWith('$ ') && text.split(/\s+/).some((word) => SHARED_SEGMENT.test(word)) ? [`${file}:${n + 1}: ${text}`] : []));
    expect(found).toEqual([]);
  });

  it('assets/README.md lists every asset file with its exact size and sha256 (the files are the published ones)', () => {
    const readme = readFileSync(join(ASSETS_DIR, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([^`]+)` \| ([\d,]+) \| `([0-9a-f]{64})` \| (.+) \|$/gm)];
    const listed = Object.fromEntries(rows.map(([, name, bytes, sha]) => [name, { bytes: Number(bytes!.replace(/,/g, '')), sha }]));
    const files = readdirSync(ASSETS_DIR).filter((name) => name !== 'README.md' && !name.startsWith('.')).sort();
    expect(Object.keys(listed).sort()).toEqual(files);
    expect(files).toEqual(['Fox.glb', 'RobotExpressive.glb', 'cmu_01_01_forward_jumps.bvh', 'cmu_131_01_start_walk_stop.bvh']);
    for (const name of files) {
      const bytes = readFileSync(join(ASSETS_DIR, name));
      expect({ name, bytes: bytes.length, sha: createHash('sha256').update(bytes).digest('hex') }).toEqual({ name, ...listed[name] });
    }
    // Line endings stay as published: one BVH mixes CRLF and LF on purpose.
    expect(readFileSync(join(ASSETS_DIR, '.gitattributes'), 'utf8')).toMatch(/^\*\.bvh -text$/m);
  });

  it('.ci/run runs npm test from a copy in a fresh temporary folder, where nothing lies beside it', () => {
    const lines = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8').split('\n');
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    expect(at(/^scratch="\$\(mktemp -d\)"$/)).toBeGreaterThan(0);
    expect(at(/^alone="\$scratch\/bitanim"$/)).toBeGreaterThan(at(/^scratch=/));
    expect(at(/^pushd "\$alone"/)).toBeGreaterThan(at(/^alone=/));
    expect(at(/^npm test$/)).toBeGreaterThan(at(/^pushd "\$alone"/));
    expect(at(/^popd/)).toBeGreaterThan(at(/^npm test$/));
  });

  it('.ci/run runs npm test as on a user\'s machine: NODE_PATH unset, a new TMPDIR with no node_modules above it, cac unresolvable from it', () => {
    const lines = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8').split('\n');
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    const test = at(/^npm test$/);
    for (const step of [/^unset NODE_PATH$/, /^export TMPDIR="\$scratch\/tmp"$/, /^mkdir "\$TMPDIR"$/, /\$dir\/node_modules/, /import\('cac'\)/, /require\.resolve\('cac'\)/]) {
      expect(at(step), String(step)).toBeGreaterThan(0);
      expect(at(step), String(step)).toBeLessThan(test);
    }
  });

  it('the npm package does not ship the assets (package.json "files")', () => {
    const { files } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(files.filter((f) => /^(\.\/)?assets(\/|$)/.test(f))).toEqual([]);
    expect(files.some((f) => f === '*' || f === '.' || f === './')).toBe(false);
  });
});
