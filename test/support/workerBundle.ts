/**
 * vitest global setup: the worker threads of a threaded world run compiled JavaScript
 * (src/parallel/workerHost.ts), and the tests run the TypeScript sources, so this bundles
 * src/parallel/worker.ts with vite (an SSR build: node built-ins and bitecs stay imports) into
 * node_modules/.cache and names it in BITANIM_WORKER_URL, which the test processes inherit.
 * The directory is this run's own (checkout and process id): runs in worktrees sharing
 * node_modules, or two runs at once, must not load each other's bundle — a worker built from
 * other sources than the caller's breaks the frame's protocol. It is removed after the run.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

export default async function setup(): Promise<() => void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tag = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const outDir = join(root, 'node_modules', '.cache', `bitanim-worker-${tag}-${process.pid}`);
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: join(root, 'src', 'parallel', 'worker.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'worker.mjs' } },
    },
  });
  process.env['BITANIM_WORKER_URL'] = pathToFileURL(join(outDir, 'worker.mjs')).href;
  return () => rmSync(outDir, { recursive: true, force: true });
}
