/**
 * The API reference: `npm run docs` (scripts/docs.mjs) builds the declarations, runs
 * api-extractor over each entry point (`bitanim/pixi` included) with `ae-undocumented` as an
 * error, writes the markdown reference into build/api/markdown and an HTML page beside each
 * (build/api/*.html, git-ignored). It must exit 0 with no message at all: every export
 * documented, every `{@link}` resolved. ~15 s.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineHtml as toInline, markdownToHtml as toHtml } from '../../scripts/docs.mjs';

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
    for (const page of ['index.md', 'bitanim.md', 'bitanim-kernels.md', 'bitanim-lod.md', 'bitanim-pixi.md', 'bitanim-pixi.createcharacterbody.md', 'bitanim.createanimationworld.md', 'bitanim-kernels.sampleclipinto.md', 'bitanim-lod.reduceclip.md', 'bitanim.humanoidmap.md']) {
      expect(existsSync(join(pages, page)), page).toBe(true);
    }
    // The page carries the doc comment's text, not only the signature.
    expect(readFileSync(join(pages, 'bitanim.createanimationworld.md'), 'utf8')).toContain('bitecs entity ids start at 1');
    // humanoidMap (the function) and HumanoidMap (its result's type) differ only in case, and
    // api-documenter lowercases file names: the type's page is bitanim.humanoidmap.md, and the
    // function's comment is in the entry's table (its @throws and @example are not).
    expect(readFileSync(join(pages, 'bitanim.md'), 'utf8')).toContain('topology wins over a name');

    // The HTML site: an index linking the four entries, a page per markdown page, links to .html only.
    const site = join(root, 'build/api');
    const index = readFileSync(join(site, 'index.html'), 'utf8');
    for (const entry of ['bitanim', 'bitanim-kernels', 'bitanim-lod', 'bitanim-pixi']) {
      expect(index, entry).toContain(`<a href="./${entry}.html">${entry}</a>`);
      expect(existsSync(join(site, `${entry}.html`)), entry).toBe(true);
    }
    const markdown = readdirSync(pages).filter((f) => f.endsWith('.md'));
    const html = readdirSync(site).filter((f) => f.endsWith('.html'));
    expect(html.sort()).toEqual(markdown.map((f) => f.replace(/\.md$/, '.html')).sort());
    const body = readFileSync(join(site, 'bitanim-pixi.createcharacterbody.html'), 'utf8');
    expect(body).toContain('<h2>createCharacterBody() function</h2>');
    expect(body).toContain('Builds the GPU geometry of a skinned mesh once');
    expect(body).toContain('<pre><code class="language-typescript">export declare function createCharacterBody(meshes: SkinnedMeshData | readonly SkinnedMeshData[]');
    expect(body).toContain('<a href="./bitanim-pixi.characterbody.html">CharacterBody</a>');
    for (const file of html.filter((_, i) => i % 50 === 0)) {
      const text = readFileSync(join(site, file), 'utf8');
      expect(text, file).not.toMatch(/href="[^"]*\.md"|<p>## |\\\||\r/);
    }
  }, 120_000);

  it('markdownToHtml converts the markdown api-documenter writes: code spans escaped, backslash escapes, links to .html, bold and italic, CRLF lines', () => {
    expect(toInline('`Map<string, number>` \\| a\\_b **bold** _(Optional)_ [x](./a.b.md) x =<!-- -->&gt; y')).toBe(
      '<code>Map&lt;string, number&gt;</code> | a_b <strong>bold</strong> <em>(Optional)</em> <a href="./a.b.html">x</a> x =&gt; y');
    expect(toInline('a < b, snake_case_name')).toBe('a &lt; b, snake_case_name');
    const page = toHtml('[Home](./index.md)\r\n\r\n## f() function\r\n\r\nText\r\nmore.\r\n\r\n```typescript\r\nlet a = b < c;\r\n```\r\n\r\n- one\r\n- two\r\n', 'f');
    expect(page).toContain('<nav class="crumbs"><a href="./index.html">Home</a></nav>\n<h2>f() function</h2>\n<p>Text more.</p>\n<pre><code class="language-typescript">let a = b &lt; c;</code></pre>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(page).toContain('<title>f</title>');
  });

  it('the generated reference is not committed (build/ is git-ignored)', () => {
    expect(readFileSync(join(root, '.gitignore'), 'utf8').split('\n')).toContain('build/');
  });
});
