/**
 * Text a user reads cites techniques by their author ("Gears of War inertialization (Bollo, GDC
 * 2018)", "VRM's humanoid bones"), never the project's own history: no "issue N", "seed(s)",
 * "session", "wave N" or "Additions of issue". Read here: every comment in src/ (the doc
 * comments become the shipped .d.ts), README.md, docs/*.md, the examples the guides show, the
 * sandbox's sources, and dist/'s .d.ts files when a build is present (`npm run build`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/assets.js';
import { sourceFiles } from './sourceFiles.js';

/** Repository-history wording, each with what it catches. */
export const HISTORY_WORDS: readonly RegExp[] = [
  /\bissues? #?\d+/i, // "issue 13", "issues 19 and 21"
  /\bAdditions of issue\b/i,
  /\bthe seed\b|\bseeds\b|\bseed (code|project|repository|version|api)\b/i, // the project's first versions (a random generator's seed is fine)
  /\bsessions?\b/i,
  /\bwave \d+\b/i,
];

/** The comments of a TypeScript file (line and block), with the line each starts on. */
export function commentsOf(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const pattern = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
  for (const match of text.matchAll(pattern)) {
    if (!match[0].startsWith('/')) continue; // a string: its text is not a comment
    out.push({ line: text.slice(0, match.index).split('\n').length, text: match[0] });
  }
  return out;
}

/** `file:line: text` for each line of `text` (starting at `line`) with history wording. */
function findings(file: string, text: string, line = 1): string[] {
  return text.split('\n').flatMap((l, i) => (HISTORY_WORDS.some((word) => word.test(l)) ? [`${file}:${line + i}: ${l.trim()}`] : []));
}

const rel = (path: string): string => relative(REPO_ROOT, path);

describe('text users read has no repository-history wording', () => {
  it('finds it where it is (the rule can fail)', () => {
    const sample = 'const a = 1; // from issue 13\n/** Additions of issue 13: the seed\'s names */\nconst s = "issue 4 in a string is code";';
    expect(commentsOf(sample).flatMap((c) => findings('sample.ts', c.text, c.line))).toEqual([
      'sample.ts:1: // from issue 13',
      'sample.ts:2: /** Additions of issue 13: the seed\'s names */',
    ]);
    expect(findings('guide.md', 'Gears of War inertialization (Bollo, GDC 2018)\nas in wave 3\nrandom (seed 42), the same seed each run\nfrom the seeds')).toEqual(['guide.md:2: as in wave 3', 'guide.md:4: from the seeds']);
  });

  it('in src/ comments (what the .d.ts ships), the examples and the sandbox', () => {
    const files = [...sourceFiles(join(REPO_ROOT, 'src')), ...sourceFiles(join(REPO_ROOT, 'examples')), ...sourceFiles(join(REPO_ROOT, 'sandbox', 'src'))];
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => commentsOf(readFileSync(file, 'utf8')).flatMap((c) => findings(rel(file), c.text, c.line)));
    expect(found).toEqual([]);
  });

  it('in README.md and docs/*.md', () => {
    const pages = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.flatMap((page) => findings(page, readFileSync(join(REPO_ROOT, page), 'utf8')))).toEqual([]);
  });

  it.runIf(existsSync(join(REPO_ROOT, 'dist', 'index.d.ts')))('in dist/**/*.d.ts (after npm run build)', () => {
    const declarations = (readdirSync(join(REPO_ROOT, 'dist'), { recursive: true }) as string[]).filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(50);
    expect(declarations.flatMap((f) => findings(`dist/${f}`, readFileSync(join(REPO_ROOT, 'dist', f), 'utf8')))).toEqual([]);
  });
});
