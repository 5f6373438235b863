/**
 * A watchdog for calls that used to hang (issue 15): the call runs in a worker thread on the
 * package bundled from src/index.ts, and a worker that has not answered within the limit is
 * terminated, so a regression fails its test instead of stalling CI. The limit is a watchdog,
 * not a timing assertion: the calls answer in milliseconds, and the limit only separates
 * "returned" from "never returns" on a loaded machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';
import { afterAll } from 'vitest';

/** What a guarded call did. */
export type Outcome =
  | { readonly outcome: 'returned'; readonly value: unknown }
  | { readonly outcome: 'threw'; readonly name: string; readonly message: string }
  | { readonly outcome: 'hung' };

/** Seconds a guarded call may take before it counts as hung. */
export const WATCHDOG_SECONDS = 30;

const ENTRY = new URL('./allEntries.ts', import.meta.url).pathname;

const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
const bitanim = await import(workerData.bundle);
try {
  const run = new Function('bitanim', '"use strict"; return (async () => {' + workerData.body + '})();');
  const value = await run(bitanim);
  parentPort.postMessage({ outcome: 'returned', value });
} catch (error) {
  parentPort.postMessage({ outcome: 'threw', name: String(error?.name), message: String(error?.message) });
}
`;

let bundled: Promise<{ bundle: string; worker: string }> | null = null;
let bundleDir: string | null = null;
// The bundle's folder goes when the test file that imported this module ends.
afterAll(() => {
  if (bundleDir !== null) rmSync(bundleDir, { recursive: true, force: true });
});

/** Bundles allEntries.ts (every entry point, with their dependencies) once into a temporary directory. */
function bundle(): Promise<{ bundle: string; worker: string }> {
  bundled ??= (async () => {
    const out = await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry: ENTRY, formats: ['es'], fileName: 'bitanim' },
        rollupOptions: { external: [/^node:/] },
      },
    });
    const outputs = (Array.isArray(out) ? out : [out]) as { output: { type: string; fileName: string; code?: string }[] }[];
    const dir = mkdtempSync(join(tmpdir(), 'bitanim-watchdog-'));
    bundleDir = dir;
    for (const chunk of outputs[0]!.output) if (chunk.type === 'chunk') writeFileSync(join(dir, chunk.fileName), chunk.code!);
    const entry = outputs[0]!.output.find((c) => c.type === 'chunk' && c.fileName.startsWith('bitanim'))!;
    const worker = join(dir, 'worker.mjs');
    writeFileSync(worker, WORKER);
    return { bundle: join(dir, entry.fileName), worker };
  })();
  return bundled;
}

/**
 * Runs `body` (the statements of an async function of `bitanim`, the package's exports) in a
 * worker; returns what it returned (structured-cloned) or threw, or 'hung' after
 * {@link WATCHDOG_SECONDS} (the worker is then terminated).
 */
export async function guarded(body: string): Promise<Outcome> {
  const { bundle: path, worker: script } = await bundle();
  const worker = new Worker(script, { workerData: { bundle: path, body } });
  try {
    return await new Promise<Outcome>((resolve, reject) => {
      const timer = setTimeout(() => resolve({ outcome: 'hung' }), WATCHDOG_SECONDS * 1000);
      worker.once('message', (message: Outcome) => { clearTimeout(timer); resolve(message); });
      worker.once('error', (error) => { clearTimeout(timer); reject(error); });
    });
  } finally {
    await worker.terminate();
  }
}
