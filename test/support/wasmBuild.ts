/**
 * vitest global setup: compiles the WebAssembly kernels (assembly/kernels.ts, via
 * scripts/buildWasm.mjs) into node_modules/.cache and names `kernels.wasm` in
 * BITANIM_WASM_URL, which the test processes inherit (src/wasm/loader.ts reads it), so a fresh
 * clone's `npm test` runs the wasm kernels without a prior build. The directory is this run's
 * own (checkout and process id), so worktrees sharing node_modules, or two runs at once, do not
 * overwrite each other's build; it is removed after the run.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export default async function setup(): Promise<() => void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tag = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const outDir = join(root, 'node_modules', '.cache', `bitanim-wasm-${tag}-${process.pid}`);
  const script = pathToFileURL(join(root, 'scripts', 'buildWasm.mjs')).href;
  const { buildWasm } = (await import(script)) as { buildWasm(outDir: string): Promise<void> };
  await buildWasm(outDir);
  process.env['BITANIM_WASM_URL'] = pathToFileURL(join(outDir, 'kernels.wasm')).href;
  return () => rmSync(outDir, { recursive: true, force: true });
}
