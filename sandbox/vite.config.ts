/**
 * Vite config of the sandbox (`npm start`, `npm run sandbox:dev`, `npm run sandbox:build`).
 *
 * - `bitanim`, `bitanim/kernels` and `bitanim/lod` resolve to the package's public entries,
 *   `src/index.ts`, `src/kernels.ts` and `src/lod.ts` (never to internals).
 * - The real assets are the repository's `assets/` (sources, licences and credits in
 *   assets/README.md): the dev server and preview serve the ones the sandbox loads under
 *   `assets/`, and the build copies them, with that README, into `sandbox/dist/assets/` (the
 *   `repoAssets` plugin); `sandbox/dist/` is not committed.
 * - COOP/COEP headers (dev and preview, on every response: the page, its modules, the worker)
 *   make the page cross-origin isolated: it gets `SharedArrayBuffer`, which the "threads"
 *   control needs (a world with `threads` > 1 and `stepParallel`), and `performance.now()` has
 *   5 µs resolution instead of 100 µs: the overlay times each system per 128-character chunk.
 * - The threads' worker needs nothing here: vite follows src/parallel/workerHost.ts's
 *   `new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })`, resolves
 *   `./worker.js` to worker.ts beside it (a .js import from TypeScript), and bundles it
 *   (`vite build`: assets/worker-*.js) or serves it (dev: `worker.ts?worker_file&type=module`).
 * - The WebAssembly kernels (docs/wasm.md): the `wasmKernels` plugin compiles assembly/kernels.ts
 *   (scripts/buildWasm.mjs) into `src/wasm/kernels.wasm` and `kernels-shared.wasm` when the
 *   build or the dev server starts (generated, git-ignored), beside src/wasm/loader.ts, whose
 *   `new URL('./kernels.wasm', import.meta.url)` vite then follows as it does for a published
 *   package's dist/wasm: the build copies both into assets/ (hashed names), dev serves them.
 *   The page calls `await loadKernels()` before creating worlds (sandbox/src/main.ts).
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const sandboxDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = resolve(sandboxDir, '..');
const assetsDir = join(repoDir, 'assets');

/** The files the sandbox fetches (with their licences: assets/README.md). */
export const SANDBOX_ASSETS = ['Fox.glb', 'RobotExpressive.glb'] as const;

/** Serves `assets/<file>` from the repository's assets/ in dev and preview; copies the files and their README into the build. */
function repoAssets(): Plugin {
  const serve = (url: string | undefined, send: (file: string) => void): boolean => {
    const match = /\/assets\/([^/?#]+)(?:[?#].*)?$/.exec(url ?? '');
    const name = match?.[1] ? decodeURIComponent(match[1]) : '';
    if (!(SANDBOX_ASSETS as readonly string[]).includes(name)) return false;
    send(join(assetsDir, name));
    return true;
  };
  return {
    name: 'bitanim-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const handled = serve(req.url, (file) => {
          res.setHeader('Content-Type', 'model/gltf-binary');
          res.setHeader('Content-Length', String(statSync(file).size));
          res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
          createReadStream(file).pipe(res);
        });
        if (!handled) next();
      });
    },
    buildStart() {
      for (const name of SANDBOX_ASSETS) {
        if (!existsSync(join(assetsDir, name))) this.error(`sandbox asset ${join(assetsDir, name)} is missing`);
      }
    },
    generateBundle() {
      for (const name of [...SANDBOX_ASSETS, 'README.md']) {
        this.emitFile({ type: 'asset', fileName: `assets/${basename(name)}`, source: readFileSync(join(assetsDir, name)) });
      }
    },
  };
}

/** Compiles the WebAssembly kernels beside src/wasm/loader.ts (generated files, git-ignored) before vite resolves its URLs. */
function wasmKernels(): Plugin {
  let built: Promise<void> | null = null;
  return {
    name: 'bitanim-wasm-kernels',
    async buildStart() {
      built ??= (async () => {
        const script = pathToFileURL(join(repoDir, 'scripts', 'buildWasm.mjs')).href;
        const { buildWasm } = (await import(script)) as { buildWasm(outDir: string): Promise<void> };
        await buildWasm(join(repoDir, 'src', 'wasm'));
      })();
      await built;
    },
  };
}

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: sandboxDir,
  base: './',
  plugins: [wasmKernels(), repoAssets()],
  resolve: {
    // Exact matches: a plain `bitanim` key would also rewrite `bitanim/kernels` as a prefix.
    alias: [
      { find: /^bitanim$/, replacement: join(repoDir, 'src', 'index.ts') },
      { find: /^bitanim\/kernels$/, replacement: join(repoDir, 'src', 'kernels.ts') },
      { find: /^bitanim\/lod$/, replacement: join(repoDir, 'src', 'lod.ts') },
      { find: /^bitanim\/pixi$/, replacement: join(repoDir, 'src', 'pixi', 'index.ts') },
    ],
  },
  // pixiFox.html: the page of examples/pixiFox.ts (bitanim/pixi), for e2e/run.mjs.
  build: { rollupOptions: { input: { main: join(sandboxDir, 'index.html'), pixiFox: join(sandboxDir, 'pixiFox.html') } }, outDir: join(sandboxDir, 'dist'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, headers: isolation, fs: { allow: [repoDir] } },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: isolation },
});
