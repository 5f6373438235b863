/**
 * What the host offers a threaded world: logical cores, and whether memory can be shared
 * between threads (a browser page shares it only when cross-origin isolated).
 */

/** Most threads a world runs (`threads`): beyond this a frame's chunks would not go round. */
export const MAX_THREADS = 64;

/** The machine's logical cores (`threads: 'auto'`): `os.availableParallelism()` in Node, `navigator.hardwareConcurrency` in a browser, at least 1. */
export function logicalCores(): number {
  const os = nodeBuiltin<typeof import('node:os')>('node:os');
  const cores = os !== null ? os.availableParallelism() : (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores >= 1 ? Math.min(Math.floor(cores), MAX_THREADS) : 1;
}

/** Why threads cannot share memory here (a sentence for an AnimationError), or null when they can. */
export function sharedMemoryIssue(): string | null {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (typeof SharedArrayBuffer === 'function' && isolated !== false) return null;
  return 'threads need SharedArrayBuffer, which this page does not have: a browser gives it only to cross-origin isolated pages — '
    + "serve the page with the headers 'Cross-Origin-Opener-Policy: same-origin' and 'Cross-Origin-Embedder-Policy: require-corp' "
    + '(or credentialless), then check `crossOriginIsolated` (docs/threads.md); or use threads: 1';
}

/** A Node built-in module, loaded synchronously (`process.getBuiltinModule`, Node ≥ 20.16), or null outside Node. */
export function nodeBuiltin<T>(name: string): T | null {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return typeof host?.getBuiltinModule === 'function' ? (host.getBuiltinModule(name) as T) : null;
}
