/**
 * pixi.js is an optional peer dependency (issue 20): only `bitanim/pixi` (src/pixi/) may import
 * it. The import graphs of the other entries — every module reachable from src/index.ts,
 * src/kernels.ts and src/lod.ts through static imports, re-exports and dynamic `import()` —
 * name no `pixi.js` module and reach no file under src/pixi/. The same walk from
 * src/pixi/index.ts does find pixi.js (the check sees what it looks for).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url).pathname;

/** Every module specifier `file` names: static imports, re-exports and dynamic import(). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/g)) found.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The src/ files reachable from `entry`, and the bare (package) specifiers they name. */
function importGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith('.')) visit(normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))));
      else packages.add(spec);
    }
  };
  visit(join(src, entry));
  return { files, packages };
}

const isPixi = (spec: string) => spec === 'pixi.js' || spec.startsWith('pixi.js/') || spec.startsWith('@pixi/');

describe('pixi.js stays behind bitanim/pixi', () => {
  for (const entry of ['index.ts', 'kernels.ts', 'lod.ts']) {
    it(`src/${entry}'s import graph names no pixi.js and reaches nothing in src/pixi/`, () => {
      const { files, packages } = importGraph(entry);
      expect(files.size).toBeGreaterThan(entry === 'index.ts' ? 50 : 5); // walked, not stopped at the entry
      expect(packages.has('bitecs') || entry === 'lod.ts').toBe(true);
      expect([...packages].filter(isPixi)).toEqual([]);
      expect([...files].filter((f) => f.startsWith(join(src, 'pixi')))).toEqual([]);
    });
  }

  it('src/pixi/index.ts does import pixi.js (the walk finds it where it is)', () => {
    expect([...importGraph('pixi/index.ts').packages].filter(isPixi)).toEqual(['pixi.js']);
  });

  it('package.json: pixi.js an optional peer dependency, not a dependency; ./pixi exported', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(pkg.dependencies!['pixi.js']).toBeUndefined();
    expect(typeof pkg.peerDependencies!['pixi.js']).toBe('string');
    expect(pkg.peerDependenciesMeta!['pixi.js']).toEqual({ optional: true });
    expect(pkg.exports!['./pixi']).toEqual({ types: './dist/pixi/index.d.ts', import: './dist/pixi/index.js' });
  });
});
