/**
 * `npm run docs`: the API reference, generated from the doc comments (issue 19 item 1).
 *
 * 1. tsc emits the library's declarations (tsconfig.build.json) into build/api/dts.
 * 2. @microsoft/api-extractor reads each entry point — `bitanim` (index.d.ts),
 *    `bitanim/kernels`, `bitanim/lod` — and writes its doc model (build/api/model/*.api.json).
 *    Every export must carry a doc comment: `ae-undocumented` is an error. Every other message
 *    (TSDoc syntax, unresolved `{@link}`, compiler) fails the run too, except one: a type that
 *    an entry's signatures use but that another entry exports (`ae-forgotten-export`, e.g.
 *    `Scratch` in `AnimationWorld`, exported by `bitanim/kernels`) — the nothing-is-lost rule of
 *    the public surface (test/house/publicSurface.test.ts) exports every name from one entry —
 *    or one of the two `INTERNAL_TYPES` below.
 * 3. @microsoft/api-documenter turns the models into markdown: build/api/markdown/index.md.
 * 4. Each markdown page becomes an HTML page beside it (`markdownToHtml`, below: the subset of
 *    markdown api-documenter writes): build/api/index.html, a page per entry
 *    (bitanim.html, bitanim-kernels.html, bitanim-lod.html, bitanim-pixi.html) and per export.
 *
 * build/ is a build output, git-ignored. Exit 1 and a list of the messages when any fails.
 * `runDocs({ markdown })` is used by test/house/apiDocs.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(root, 'build', 'api');

/**
 * The entry points: the .d.ts file, the package name the reference shows (`-` for `/`: the
 * page names api-documenter writes), the name of their doc model and report files.
 */
export const ENTRIES = [
  { file: 'index', name: 'bitanim', id: 'index' },
  { file: 'kernels', name: 'bitanim-kernels', id: 'kernels' },
  { file: 'lod', name: 'bitanim-lod', id: 'lod' },
  { file: 'pixi/index', name: 'bitanim-pixi', id: 'pixi' },
];

/**
 * Types the world carries but no entry exports, deliberately: the machinery of threads
 * (`world.parallel`) and of the WebAssembly kernels (`world.wasm`), which only the library's
 * own frame code touches. The reference shows their names without a page.
 */
const INTERNAL_TYPES = new Set(['ThreadPools', 'WasmKernels']);

const ts = require(require.resolve('typescript', { paths: [join(root, 'node_modules', '@microsoft', 'api-extractor')] }));
/** Parsed .d.ts files of this run, by path. */
const parsed = new Map();

/**
 * Whether the member declared at `line` (1-based) of `file` is documented by its parent's doc
 * comment: the components' house style (src/components/*.ts) documents every field in one list
 * on the interface — "- `clip[li]`: clip id …" — rather than above each field. A member counts
 * as documented when its name appears there as code (`` `clip` ``, `` `clip[li]` ``, `` `clip.x` ``).
 */
function documentedByParent(file, line) {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  let found = null;
  const visit = (node) => {
    if (found) return;
    if ((ts.isPropertySignature(node) || ts.isMethodSignature(node)) && source.getLineAndCharacterOfPosition(node.getStart()).line + 1 === line) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found || !found.name || !ts.isIdentifier(found.name)) return false;
  const parent = ts.isInterfaceDeclaration(found.parent) ? found.parent : ts.isTypeLiteralNode(found.parent) ? found.parent.parent : null;
  if (!parent) return false;
  const docs = ts.getJSDocCommentsAndTags(parent).map((doc) => doc.getText()).join('\n');
  const name = found.name.text.replace(/[$]/g, '\\$&');
  return new RegExp('`' + name + '(`|\\[|\\.|\\()').test(docs);
}

/** TSDoc syntax notes about characters that JSDoc takes as plain text (see the config below). */
const TSDOC_PLAIN_TEXT = [
  'tsdoc-escape-right-brace',
  'tsdoc-escape-greater-than',
  'tsdoc-malformed-inline-tag',
  'tsdoc-malformed-html-name',
  'tsdoc-html-tag-missing-equals',
  'tsdoc-html-tag-missing-greater-than',
  'tsdoc-html-tag-missing-string',
  'tsdoc-code-span-missing-delimiter',
];

/**
 * Builds the reference; returns the messages that fail it (empty when it passed).
 * @param {{ markdown?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<string[]>}
 */
export async function runDocs(options = {}) {
  const log = options.log ?? (() => {});
  const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');
  rmSync(out, { recursive: true, force: true });
  const dts = join(out, 'dts');
  const model = join(out, 'model');
  mkdirSync(model, { recursive: true });
  mkdirSync(join(out, 'report'), { recursive: true });
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', dts,
    '--emitDeclarationOnly', '--sourceMap', 'false', '--inlineSources', 'false'], { cwd: root, stdio: 'pipe' });
  log(`declarations: ${relative(root, dts)}`);

  const failures = [];
  const forgotten = [];
  const exported = new Set();
  for (const entry of ENTRIES) {
    const apiJson = join(model, `${entry.id}.api.json`);
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(root, 'api-extractor.json'), // virtual: nothing is read from it
      packageJsonFullPath: join(root, 'package.json'),
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(dts, `${entry.file}.d.ts`),
        compiler: {
          overrideTsconfig: {
            compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], lib: ['ES2022'] },
            files: [join(dts, `${entry.file}.d.ts`)],
          },
          skipLibCheck: true,
        },
        // The report itself is not used (nothing is compared against a committed one); only
        // with it on does api-extractor check every item for documentation (ae-undocumented).
        apiReport: { enabled: true, reportFileName: `${entry.id}.api.md`, reportFolder: join(out, 'report'), reportTempFolder: join(out, 'report-temp') },
        docModel: { enabled: true, apiJsonFilePath: apiJson },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: 'lf',
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning' },
            'ae-undocumented': { logLevel: 'error' },
            // One release level: nothing is tagged @public/@beta, so the tag is never missing.
            'ae-missing-release-tag': { logLevel: 'none' },
          },
          tsdocMessageReporting: {
            default: { logLevel: 'warning' },
            // The comments are JSDoc as TypeScript reads it, where `{ x, y }`, `a > b`, `<name>`
            // and a code span broken over two lines are plain text. TSDoc reserves those
            // characters; where it cannot parse them it keeps them as text, which the reference
            // shows unchanged. These notes of TSDoc's stricter syntax are not shown.
            ...Object.fromEntries(TSDOC_PLAIN_TEXT.map((id) => [id, { logLevel: 'none' }])),
          },
        },
      },
    });
    // Every message is judged in messageCallback (`succeeded` would also count the ae-undocumented
    // members that their parent's comment documents).
    Extractor.invoke(config, {
      localBuild: true,
      showVerboseMessages: false,
      messageCallback(message) {
        message.handled = true;
        if (message.logLevel === 'none' || message.logLevel === 'verbose' || message.logLevel === 'info') return;
        // The API report is only the vehicle of ae-undocumented: its "file created" notes are not findings.
        if (message.messageId.startsWith('console-api-report-')) return;
        const where = message.sourceFilePath ? `${relative(root, message.sourceFilePath)}:${message.sourceFileLine ?? 0}` : entry.file;
        const line = `${entry.name}: ${where}: (${message.messageId}) ${message.text}`;
        if (message.messageId === 'ae-undocumented' && message.sourceFilePath && documentedByParent(message.sourceFilePath, message.sourceFileLine ?? 0)) return;
        if (message.messageId === 'ae-forgotten-export') {
          const name = /symbol "([^"]+)"/.exec(message.text)?.[1] ?? '?';
          forgotten.push({ name, line });
        } else {
          failures.push(line);
        }
      },
    });
    // The doc model names the package after package.json; the subpath entries get their own.
    const json = JSON.parse(readFileSync(apiJson, 'utf8'));
    for (const member of json.members?.[0]?.members ?? []) exported.add(member.name);
    if (entry.name !== 'bitanim') {
      const text = readFileSync(apiJson, 'utf8').replaceAll('"bitanim!', `"${entry.name}!`).replace('"name": "bitanim"', `"name": "${entry.name}"`);
      writeFileSync(apiJson, text);
    }
    log(`${entry.name}: ${relative(root, apiJson)}`);
  }
  for (const { name, line } of forgotten) if (!exported.has(name) && !INTERNAL_TYPES.has(name)) failures.push(`${line} — and no entry point exports it`);

  if (options.markdown !== false && failures.length === 0) {
    const documenter = join(root, 'node_modules/@microsoft/api-documenter/bin/api-documenter');
    execFileSync(process.execPath, [documenter, 'markdown', '--input-folder', model, '--output-folder', join(out, 'markdown')], { cwd: root, stdio: 'pipe' });
    log(`reference: ${relative(root, join(out, 'markdown', 'index.md'))}`);
    const pages = writeHtml(join(out, 'markdown'), out);
    log(`HTML: ${relative(root, join(out, 'index.html'))} (${pages} pages)`);
  }
  return failures;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:0 auto;padding:0 20px 60px;color:#1d2330}
a{color:#2457c5}code,pre{font:13px/1.45 ui-monospace,monospace;background:#f3f5f8}code{padding:0 3px}pre{padding:10px;overflow:auto}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border:1px solid #d9dee7;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#eef1f6}h2{border-bottom:1px solid #d9dee7;padding-bottom:4px}nav.crumbs{margin:12px 0;font-size:14px}td p,th p{margin:0}`;

/** HTML-escapes text. */
function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * One line of api-documenter's markdown prose as HTML: code spans (escaped), backslash escapes
 * of punctuation, `**bold**`, `_italic_`, links (`.md` targets become `.html`). Raw HTML the
 * documenter wrote (`<!-- -->`, entities) passes through; a `<` of the prose is escaped.
 */
export function inlineHtml(text) {
  let html = '';
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '`') {
      const ticks = /^`+/.exec(text.slice(i))[0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        html += `<code>${escapeHtml(text.slice(i + ticks.length, end).trim())}</code>`;
        i = end + ticks.length;
        continue;
      }
    }
    if (c === '\\' && /[!-\/:-@[-`{-~]/.test(text[i + 1] ?? '')) {
      html += escapeHtml(text[i + 1]);
      i += 2;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    if (c === '[') {
      const link = /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]*)\)/.exec(text.slice(i));
      if (link) {
        const href = link[2].replace(/\.md(#|$)/, '.html$1');
        html += `<a href="${escapeHtml(href)}">${inlineHtml(link[1])}</a>`;
        i += link[0].length;
        continue;
      }
    }
    if (text.startsWith('**', i)) {
      const end = text.indexOf('**', i + 2);
      if (end > i + 2) {
        html += `<strong>${inlineHtml(text.slice(i + 2, end))}</strong>`;
        i = end + 2;
        continue;
      }
    }
    if (c === '_' && (i === 0 || /[\s(]/.test(text[i - 1]))) {
      const end = text.indexOf('_', i + 1);
      if (end > i + 1 && !/\w/.test(text[end + 1] ?? '')) {
        html += `<em>${inlineHtml(text.slice(i + 1, end))}</em>`;
        i = end + 1;
        continue;
      }
    }
    if (c === '&' && /^&(#\d+|#x[\da-f]+|[a-z]+);/i.test(text.slice(i))) {
      const entity = /^&[^;]+;/.exec(text.slice(i))[0];
      html += entity;
      i += entity.length;
      continue;
    }
    html += escapeHtml(c);
    i++;
  }
  return html;
}

/**
 * A page of api-documenter's markdown as an HTML document: its headings, paragraphs, lists,
 * fenced code, and the HTML tables it writes (their cells' markdown converted too).
 */
export function markdownToHtml(markdown, title) {
  const lines = markdown.split(/\r?\n/); // api-documenter writes CRLF
  const body = [];
  let paragraph = [];
  let list = false;
  const flush = () => {
    if (paragraph.length) body.push(`<p>${inlineHtml(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  const endList = () => {
    if (list) body.push('</ul>');
    list = false;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      flush();
      endList();
      const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
      const stop = end < 0 ? lines.length : end;
      body.push(`<pre><code${fence[1] ? ` class="language-${fence[1]}"` : ''}>${escapeHtml(lines.slice(i + 1, stop).join('\n'))}</code></pre>`);
      i = stop;
      continue;
    }
    if (line.trim() === '') {
      flush();
      endList();
      continue;
    }
    if (/^<!--.*-->$/.test(line.trim())) continue;
    if (/^<\/?(table|thead|tbody|tr|td|th)\b[^>]*>/.test(line.trim())) {
      flush();
      endList();
      // Table markup; a cell's own text sits on the lines between (markdown, converted above).
      body.push(line.trim().replace(/<\/?(table|thead|tbody|tr|td|th)\b[^>]*>/g, (tag) => tag));
      continue;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      flush();
      endList();
      body.push(`<h${heading[1].length}>${inlineHtml(heading[2])}</h${heading[1].length}>`);
      continue;
    }
    const item = /^[-*] (.*)$/.exec(line);
    if (item) {
      flush();
      if (!list) body.push('<ul>');
      list = true;
      body.push(`<li>${inlineHtml(item[1])}</li>`);
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      body[body.length - 1] = body[body.length - 1].replace(/<\/li>$/, ` ${inlineHtml(line.trim())}</li>`);
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
  endList();
  let html = body.join('\n');
  // The breadcrumb line ("Home > bitanim > …") is the first paragraph.
  html = html.replace(/^<p>(<a href="\.\/index\.html">Home<\/a>.*?)<\/p>/, '<nav class="crumbs">$1</nav>');
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n${html}\n</body>\n</html>\n`;
}

/** Writes an HTML page for every markdown page of `from` into `to`; returns how many. */
function writeHtml(from, to) {
  const files = readdirSync(from).filter((file) => file.endsWith('.md'));
  for (const file of files) {
    const markdown = readFileSync(join(from, file), 'utf8');
    const title = /^## (.*)$/m.exec(markdown)?.[1]?.replace(/\\(.)/g, '$1') ?? file;
    writeFileSync(join(to, file.replace(/\.md$/, '.html')), markdownToHtml(markdown, `${title} · bitanim API`));
  }
  return files.length;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const failures = await runDocs({ log: (line) => console.log(line) });
  for (const line of failures) console.error(line);
  if (failures.length > 0) {
    console.error(`npm run docs: ${failures.length} message(s); every export needs a doc comment (TSDoc)`);
    process.exit(1);
  }
}
