/**
 * Every ```ts block in README.md and docs/*.md is code a test runs (issue 19: "the examples in
 * README and guides run in tests"). The one mechanism, for every page:
 *
 * - `<!-- example: examples/foo.ts -->` on the line before a ```ts block: the block is that
 *   file, verbatim.
 * - `<!-- example: examples/foo.ts#name -->`: the block is the lines between `// #region name`
 *   and the next `// #endregion` in that file, with their common indentation removed (so an
 *   excerpt from inside a function reads as it does on the page).
 * - `<!-- example: examples/foo.ts#imports+body -->`: several regions, one after the other (an
 *   `imports` region at the top of the file, ending with a blank line, and the code inside a
 *   function).
 *
 * A ```ts block without a marker fails here: make it an example (and a test that runs it), or,
 * if it is not code a user runs (a type signature, a layout), fence it as ```text. Every file a
 * marker names must run in `npm test`: it is a vitest file itself (examples/*.test.ts) or a test
 * under test/ imports it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/assets.js';

const PAGES = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const MARKER = /^<!-- example: (examples\/[\w./-]+?\.ts)(?:#([\w+-]+))? -->$/;

interface Block { page: string; line: number; code: string; file?: string; region?: string }

/** The ```ts blocks of a page, each with the marker on the line before it (if any). */
function tsBlocks(page: string): Block[] {
  const lines = readFileSync(join(REPO_ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, k) => k > i && l === '```');
    if (end < 0) throw new Error(`${page}:${i + 1}: unclosed code fence`);
    if (lines[i] === '```ts') {
      const marker = MARKER.exec(lines[i - 1] ?? '');
      blocks.push({ page, line: i + 1, code: lines.slice(i + 1, end).join('\n') + '\n', file: marker?.[1], region: marker?.[2] });
    }
    i = end;
  }
  return blocks;
}

/** The text of `file`, or of its regions `a+b+…` (each dedented), one after the other. */
function exampleText(file: string, regions?: string): string {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  if (regions === undefined) return text;
  return regions.split('+').map((region) => regionText(file, text, region)).join('');
}

function regionText(file: string, text: string, region: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${region}`);
  if (start < 0) throw new Error(`${file}: no "// #region ${region}"`);
  const end = lines.findIndex((l, k) => k > start && /^\s*\/\/ #endregion\b/.test(l));
  if (end < 0) throw new Error(`${file}: "// #region ${region}" has no "// #endregion"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(indent)).join('\n') + '\n';
}

/** Whether `file` runs in `npm test`: a vitest file itself, or imported by a test under test/. */
function runsInTests(file: string): boolean {
  if (file.endsWith('.test.ts')) return true;
  const module = file.replace(/^examples\//, '').replace(/\.ts$/, '.js');
  const tests: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`);
      else if (entry.name.endsWith('.test.ts')) tests.push(`${dir}/${entry.name}`);
    }
  };
  walk('test');
  walk('examples');
  return tests.some((t) => {
    const text = readFileSync(join(REPO_ROOT, t), 'utf8');
    return text.includes(`examples/${module}'`) || (t.startsWith('examples/') && text.includes(`'./${module}'`));
  });
}

const blocks = PAGES.flatMap(tsBlocks);

describe('the ```ts blocks of README.md and docs/*.md', () => {
  it('are all marked with the example file (or region) they show', () => {
    const unmarked = blocks.filter((b) => b.file === undefined).map((b) => `${b.page}:${b.line}`);
    expect(unmarked).toEqual([]);
  });

  it.each(blocks.filter((b) => b.file !== undefined).map((b) => [`${b.page}:${b.line} ${b.file}${b.region ? `#${b.region}` : ''}`, b] as const))(
    '%s is the file\'s text verbatim, and the file runs in a test',
    (_, block) => {
      expect(existsSync(join(REPO_ROOT, block.file!))).toBe(true);
      expect(block.code).toBe(exampleText(block.file!, block.region));
      expect(runsInTests(block.file!)).toBe(true);
    },
  );
});

describe('exampleText', () => {
  it('cuts a region and removes its common indentation', () => {
    // #region selftest
    const a = 1;
    if (a > 0) {
      expect(a).toBe(1);
    }
    // #endregion
    expect(exampleText('test/docs/examples.test.ts', 'selftest')).toBe('const a = 1;\nif (a > 0) {\n  expect(a).toBe(1);\n}\n');
  });
});
