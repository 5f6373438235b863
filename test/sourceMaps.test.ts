/**
 * The published source maps resolve (issue 19 item 7): the package ships `dist/` (package.json
 * "files"), not `src/`, so every `dist/**\/*.js.map` must carry its sources inline
 * (`sourcesContent`, tsconfig.build.json `inlineSources`) or name files the package ships.
 * Cheap: tsc with tsconfig.build.json — the JavaScript half of `npm run build` — into a
 * temporary folder (no race with tests that run `npm run build`), then every map is read.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = new URL('../', import.meta.url).pathname;

/** Whether the package's "files" list ships `path` (relative to the package root). */
function shipped(files: readonly string[], path: string): boolean {
  return files.some((entry) => path === entry || path.startsWith(`${entry.replace(/\/$/, '')}/`));
}

function mapsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js.map')).map((file) => join(dir, file));
}

describe('source maps of the build', () => {
  it('every .js.map carries each source inline (the file\'s text) or names a file the package ships', () => {
    const out = mkdtempSync(join(tmpdir(), 'bitanim-maps-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.build.json'), '--outDir', out], { cwd: root, stdio: 'pipe' });
    const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    const maps = mapsUnder(out);
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    expect(maps.length).toBe(sources.length); // one map per module
    const unresolved: string[] = [];
    for (const map of maps) {
      const json = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      json.sources.forEach((source, i) => {
        // The source as it sits in the repository (the temporary build points back at src/).
        const file = resolve(dirname(map), json.sourceRoot ?? '', source);
        const inline = json.sourcesContent?.[i];
        if (typeof inline === 'string') {
          expect(inline, relative(out, map)).toBe(readFileSync(file, 'utf8'));
          return;
        }
        // Else the published map points at ../src/… beside dist/: shipped only if "files" lists it.
        if (!shipped(files, relative(root, file))) unresolved.push(`${relative(out, map)} → ${source}`);
      });
    }
    expect(unresolved).toEqual([]);
  }, 120_000);

  it('the shipped maps are built that way: tsconfig.build.json inlines sources or package.json ships src/', () => {
    const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: { sourceMap?: boolean; inlineSources?: boolean } };
    const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(build.compilerOptions.sourceMap).toBe(true);
    expect(build.compilerOptions.inlineSources === true || shipped(files, 'src/index.ts')).toBe(true);
  });
});
