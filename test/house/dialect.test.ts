/**
 * One dialect in src/: `noUncheckedIndexedAccess` is off (tsconfig.json), so an index read is
 * typed as the element type and a `!` after it (`a[i]!`) asserts nothing. Such no-op assertions
 * were removed (issue 16); this keeps them out. `!` after a value that can really be undefined
 * or null (`map.get(k)!`, an optional field) is a real assertion and stays.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './sourceFiles.js';

describe('src/ is written in one dialect', () => {
  it('has no no-op non-null assertion after an index read', () => {
    const found: string[] = [];
    for (const file of sourceFiles('src')) {
      readFileSync(file, 'utf8').split('\n').forEach((line, n) => {
        if (/\]!(?!=)/.test(line)) found.push(`${file}:${n + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('keeps noUncheckedIndexedAccess off, the setting that makes such assertions no-ops', () => {
    const config = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(config.compilerOptions['noUncheckedIndexedAccess'] ?? false).toBe(false);
  });
});
