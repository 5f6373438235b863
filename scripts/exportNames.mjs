/**
 * The names a built entry point's `.d.ts` exports (values and types), read with the TypeScript
 * compiler API that @microsoft/api-extractor carries (TypeScript 6: our TypeScript 7 has no JS API).
 *
 *   node scripts/exportNames.mjs dist/index.d.ts [dist/kernels.d.ts …]   # prints "<file> <count>" and the names
 *
 * `exportNames(files)` and `typeErrors(files)` are used by test/house/publicSurface.test.ts.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const extractorDir = resolve(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '@microsoft', 'api-extractor');
/** @type {typeof import('typescript')} */
const ts = require(require.resolve('typescript', { paths: [extractorDir] }));

/** A program over `roots` as a NodeNext consumer of the package sees them (strict). */
function createProgram(roots) {
  return ts.createProgram(roots, { noEmit: true, strict: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ['node'] });
}

/**
 * The type errors of `files` compiled as a NodeNext consumer (strict), one message each.
 * @param {string[]} files
 * @returns {string[]}
 */
export function typeErrors(files) {
  const program = createProgram(files.map((file) => resolve(file)));
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.fileName + ': ' : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/**
 * The exported names of each `.d.ts` file, sorted.
 * @param {string[]} files
 * @returns {Map<string, string[]>}
 */
export function exportNames(files) {
  const roots = files.map((file) => resolve(file));
  const program = createProgram(roots);
  const checker = program.getTypeChecker();
  const result = new Map();
  for (let i = 0; i < roots.length; i++) {
    const source = program.getSourceFile(roots[i]);
    if (!source) throw new Error(`cannot read ${files[i]}`);
    const symbol = checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${files[i]} is not a module`);
    result.set(files[i], checker.getExportsOfModule(symbol).map((s) => s.getName()).sort());
  }
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, names] of exportNames(process.argv.slice(2))) {
    console.log(`${file} ${names.length}`);
    console.log(names.join('\n'));
  }
}
