// Compiles bitanim's WebAssembly kernels (assembly/kernels.ts, AssemblyScript with SIMD) into
// `kernels.wasm` (imports a plain memory) and `kernels-shared.wasm` (imports a shared memory,
// for threaded worlds) in the directory given (default dist/wasm, beside src/wasm/loader.js).
// Run by `npm run build:wasm` (and so by `npm run build`), the bench build, and the test setup
// (test/support/wasmBuild.ts). The .wasm files are generated, never committed.
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import asc from 'assemblyscript/asc';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds both kernel files into `outDir`; throws with the compiler's output on failure. */
export async function buildWasm(outDir) {
  mkdirSync(outDir, { recursive: true });
  const common = [join(root, 'assembly', 'kernels.ts'), '-O3', '--noAssert', '--runtime', 'stub', '--importMemory', '--noExportMemory', '--use', 'abort='];
  const variants = [
    ['kernels.wasm', ['--enable', 'simd']],
    // Shared memories need a declared maximum: 65536 pages, all of wasm32's 4 GiB.
    ['kernels-shared.wasm', ['--enable', 'simd,threads', '--sharedMemory', '--maximumMemory', '65536']],
  ];
  for (const [file, flags] of variants) {
    let errors = '';
    const { error } = await asc.main([...common, ...flags, '-o', join(outDir, file)], {
      stderr: { write: (text) => ((errors += text), true) },
    });
    if (error) throw new Error(`asc failed for ${file}: ${error.message}\n${errors}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWasm(resolve(process.argv[2] ?? join(root, 'dist', 'wasm')));
}
