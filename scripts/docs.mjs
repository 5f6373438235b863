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
 *
 * build/ is a build output, git-ignored. Exit 1 and a list of the messages when any fails.
 * `runDocs({ markdown })` is used by test/house/apiDocs.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(root, 'build', 'api');

/** The entry points: the .d.ts file, the package name the reference shows. */
export const ENTRIES = [
  { file: 'index', name: 'bitanim' },
  { file: 'kernels', name: 'bitanim-kernels' },
  { file: 'lod', name: 'bitanim-lod' },
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
    const apiJson = join(model, `${entry.file}.api.json`);
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
        apiReport: { enabled: true, reportFileName: `${entry.file}.api.md`, reportFolder: join(out, 'report'), reportTempFolder: join(out, 'report-temp') },
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
  }
  return failures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const failures = await runDocs({ log: (line) => console.log(line) });
  for (const line of failures) console.error(line);
  if (failures.length > 0) {
    console.error(`npm run docs: ${failures.length} message(s); every export needs a doc comment (TSDoc)`);
    process.exit(1);
  }
}
