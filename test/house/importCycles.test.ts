/**
 * No import cycles in src/ (issue 16): the modules form a directed acyclic graph, so each layer
 * (math → assets/components → systems → frame → api) can be read, tested and replaced from the
 * bottom up. Type-only imports count too: a cycle through types is still two modules that
 * cannot be understood one without the other.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './sourceFiles.js';

/** The src/ files `file` imports or re-exports (relative specifiers, `.js` → `.ts`). */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    found.push(normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
  }
  return found;
}

/** Every cycle's first occurrence found by depth-first search, as a path of files. */
export function findCycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * DESIGN §2: arrows point down (api → systems → components/assets → math). The folders below
 * the API never import it: what a command and a system share (switching layers, the asset
 * registries) lives in src/systems/switching/, which both call.
 */
const BELOW_API = ['src/systems', 'src/components', 'src/assets', 'src/math'];

/** `[file, imported api file]` for every import of src/api/ from a folder in `folders`. */
export function apiImportsBelow(folders: string[]): [string, string][] {
  const found: [string, string][] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      for (const target of importsOf(file)) if (target.startsWith(join('src', 'api') + '/')) found.push([file, target]);
    }
  }
  return found;
}

describe('src/ imports', () => {
  it('finds an import of src/api/ from below it (the rule can fail)', () => {
    expect(importsOf('src/api/transitions.ts').some((f) => f.startsWith('src/systems/'))).toBe(true);
    expect(apiImportsBelow(['src/api']).length).toBeGreaterThan(0);
  });

  it('never import src/api/ from systems, components, assets or math', () => {
    expect(apiImportsBelow(BELOW_API).map(([file, target]) => `${file} → ${target}`)).toEqual([]);
  });

  it('finds a cycle when there is one (the detector works)', () => {
    expect(findCycles(['test/house/fixtures/a.ts', 'test/house/fixtures/b.ts']).length).toBe(1);
  });

  it('have no cycles', () => {
    expect(findCycles(sourceFiles('src')).map((c) => c.join(' → '))).toEqual([]);
  });
});
