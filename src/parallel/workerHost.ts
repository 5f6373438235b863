/**
 * Starting a worker thread where the world runs: `worker_threads` in Node, a module Web
 * Worker in a browser (bundlers such as vite follow the `new Worker(new URL('./worker.js',
 * import.meta.url), { type: 'module' })` pattern and bundle the worker with its imports).
 */
import { AnimationError } from '../assets/AnimationError.js';
import { nodeBuiltin } from '../memory/environment.js';

/** A started worker, whichever the host. */
export interface WorkerHandle {
  post(message: unknown): void;
  /** Ends the worker; resolves once it has stopped (Node), or at once (a browser's `terminate` stops it where it runs). */
  terminate(): Promise<void>;
}

/** The browser's Worker, as much of it as is used here (the library compiles without the DOM types). */
interface BrowserWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
}
type BrowserWorkerConstructor = new (url: URL, options: { type: 'module'; name: string }) => BrowserWorker;

/**
 * Starts worker `thread` of a world (src/parallel/worker.ts). `onMessage` receives what it
 * posts; `onError` a sentence when it fails outside a frame's error handling or exits.
 * @throws AnimationError when the host has no worker threads.
 */
export function startWorker(thread: number, onMessage: (data: unknown) => void, onError: (message: string) => void): WorkerHandle {
  const threads = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  if (threads !== null) {
    let ended = false;
    const worker = new threads.Worker(nodeWorkerUrl(), { name: `bitanim thread ${thread}` });
    worker.on('message', onMessage);
    worker.on('error', (error: unknown) => onError(error instanceof Error ? error.message : String(error)));
    worker.on('exit', (code: number) => {
      if (!ended) onError(`exited (code ${code})`);
    });
    // Kept referenced: a Node process with a threaded world runs until disposeAnimationWorld
    // (un-referencing it between frames would cost an allocation per frame).
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => {
        ended = true;
        return worker.terminate().then(() => undefined, () => undefined);
      },
    };
  }
  const Worker = (globalThis as { Worker?: BrowserWorkerConstructor }).Worker;
  if (typeof Worker !== 'function') {
    throw new AnimationError('createAnimationWorld', [{ path: 'threads', message: 'needs worker threads, which this host does not have (Node worker_threads or Web Workers)' }]);
  }
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `bitanim thread ${thread}` });
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onError(event.message ?? 'failed to start or threw');
  };
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => {
      worker.terminate();
      return Promise.resolve();
    },
  };
}

/**
 * The worker's script in Node: `BITANIM_WORKER_URL` when set (a file URL, for an application
 * that bundles bitanim into one file: bundle src/parallel/worker.ts or the package's
 * `dist/parallel/worker.js` beside it and name it here), else `worker.js` beside this module
 * in the package. Run from the TypeScript sources (vitest) the variable is required: the test
 * setup bundles the worker and sets it (test/support/workerBundle.ts).
 */
function nodeWorkerUrl(): URL {
  const given = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env['BITANIM_WORKER_URL'];
  if (given !== undefined && given !== '') return new URL(given);
  // vite-ignore: a browser bundler must not copy this Node-only URL's target as an asset (the Worker above is the one it bundles).
  if (!import.meta.url.endsWith('.ts')) return new URL(/* @vite-ignore */ './worker.js', import.meta.url);
  throw new AnimationError('createAnimationWorld', [{
    path: 'threads',
    message: 'runs workers from compiled JavaScript: bitanim is running from its TypeScript sources here, so build it (npm run build) or set BITANIM_WORKER_URL to a bundle of src/parallel/worker.ts',
  }]);
}
