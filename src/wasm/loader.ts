/**
 * Loading bitanim's WebAssembly kernels (assembly/kernels.ts, compiled by `npm run build:wasm`
 * into `kernels.wasm` and `kernels-shared.wasm` beside this module in the package).
 *
 * A world picks its kernels when it is created, synchronously, so the compiled module must be
 * at hand by then; it is compiled once per process (per worker: a threaded world's workers
 * receive the caller's module in their init message):
 * - **Node**: on first use, read beside this module (or from `BITANIM_WASM_URL`, the file URL of
 *   `kernels.wasm`, with `kernels-shared.wasm` beside it: the test setup builds both there) and
 *   compiled with `new WebAssembly.Module`.
 * - **Browser**: `await loadKernels()` once before creating worlds (it fetches and compiles the
 *   files; a bundler such as vite copies them as assets). Without it, `kernels: 'auto'` runs
 *   the JavaScript kernels.
 *
 * A host without WebAssembly SIMD (the module fails to validate), or a package without the
 * files, has no kernels: `'auto'` falls back to JavaScript, `'wasm'` is refused.
 */
import { nodeBuiltin } from '../memory/environment.js';
import { wasmApi, type WasmModule } from './wasmApi.js';
import { dataSegmentsEnd, KERNEL_STATIC_BYTES } from './dataSegments.js';

/** Which kernels a world runs (`createAnimationWorld({ kernels })`): `'auto'` picks wasm where it loads. */
export type KernelChoice = 'auto' | 'wasm' | 'js';

/** The compiled kernels: for a plain memory, and for a shared one (null where memory cannot be shared). */
interface KernelModules {
  readonly plain: WasmModule;
  readonly shared: WasmModule | null;
}

let modules: KernelModules | null = null;
/** Why there are no modules (a clause for an AnimationError), once loading was tried and failed. */
let missing: string | null = null;
let tried = false;
let forcedOff = false;
let forcedFixed = false;

/**
 * The compiled kernels module for a plain (`shared` false) or shared memory, or a clause saying
 * why there is none (no WebAssembly SIMD, no kernel files, not loaded in a browser).
 */
export function kernelModule(shared: boolean): WasmModule | string {
  if (forcedOff) return 'the WebAssembly kernels were turned off (setKernelsUnavailable)';
  if (!tried) loadNodeKernels();
  if (modules === null) return missing ?? 'the WebAssembly kernels are not loaded';
  if (shared && modules.shared === null) return 'this host cannot share WebAssembly memory between threads';
  return shared ? (modules.shared as WasmModule) : modules.plain;
}

/**
 * Fetches and compiles the WebAssembly kernels (browsers: call once, before creating worlds
 * with `kernels: 'auto'` or `'wasm'`; in Node they load by themselves). `url` names
 * `kernels.wasm` (default: beside this module), `kernels-shared.wasm` beside it.
 * @returns whether the kernels are available (false: no WebAssembly SIMD, or the files failed to load).
 * @example
 * await loadKernels();
 * const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 64 }); // world.kernels === 'wasm'
 */
export async function loadKernels(url?: string | URL): Promise<boolean> {
  if (modules !== null) return true;
  if (nodeBuiltin('node:fs') !== null && url === undefined) {
    loadNodeKernels();
    return modules !== null;
  }
  // Two literal `new URL('./…', import.meta.url)`: the pattern bundlers (vite, webpack, parcel)
  // recognise, so each file is copied as an asset under its own (hashed) name.
  const plainUrl = url === undefined ? new URL('./kernels.wasm', import.meta.url) : new URL(url, import.meta.url);
  const sharedUrl = url === undefined ? new URL('./kernels-shared.wasm', import.meta.url) : new URL('kernels-shared.wasm', plainUrl);
  try {
    const fetchBytes = async (u: URL): Promise<ArrayBuffer> => {
      const response = await fetch(u);
      if (!response.ok) throw new Error(`${u.href}: HTTP ${response.status}`);
      return response.arrayBuffer();
    };
    const plain = await fetchBytes(plainUrl);
    const shared = typeof SharedArrayBuffer === 'function' ? await fetchBytes(sharedUrl).catch(() => null) : null;
    setModules(new Uint8Array(plain), shared === null ? null : new Uint8Array(shared));
  } catch (error) {
    tried = true;
    missing = `the WebAssembly kernels failed to load (${error instanceof Error ? error.message : String(error)})`;
  }
  return modules !== null;
}

/**
 * Whether a wasm world of `threads` threads created now gets a kernel area that grows: its
 * memory can be shared (the shared module is loaded: Node, or a cross-origin isolated page) —
 * a shared memory's buffer is not detached when it grows, so the pools' views stay valid.
 * Every wasm world is then on a shared memory; a threaded one always is.
 */
export function kernelAreaGrows(threads: number): boolean {
  if (forcedFixed && threads <= 1) return false;
  return typeof kernelModule(true) !== 'string';
}

/**
 * Tests' switch: with `fixed` true, single-threaded wasm worlds created meanwhile are on a
 * plain memory with the fixed kernel area (as on a page that cannot share memory).
 */
export function setKernelAreaFixed(fixed: boolean): void {
  forcedFixed = fixed;
}

/**
 * Tests' switch: with `off` true, {@link kernelModule} reports no kernels (as a host without
 * SIMD or a package without the files would), so worlds created meanwhile run JavaScript.
 */
export function setKernelsUnavailable(off: boolean): void {
  forcedOff = off;
}

/**
 * Tests' reset: forgets the compiled kernels, so the next world loads them again (Node: from
 * `BITANIM_WASM_URL` as it is then). Worlds created before keep theirs.
 */
export function reloadKernels(): void {
  modules = null;
  missing = null;
  tried = false;
}

/** Node: reads and compiles the kernel files synchronously (once). */
function loadNodeKernels(): void {
  tried = true;
  const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
  if (fs === null) {
    missing = 'the WebAssembly kernels are not loaded: call `await loadKernels()` once before creating worlds';
    return;
  }
  const given = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env['BITANIM_WASM_URL'];
  // vite-ignore: in a browser bundle, loadKernels' URL above is the one to copy.
  const plainUrl = given !== undefined && given !== '' ? new URL(given) : new URL(/* @vite-ignore */ './kernels.wasm', import.meta.url);
  let plain: Uint8Array, shared: Uint8Array | null = null;
  try {
    plain = fs.readFileSync(plainUrl);
  } catch {
    missing = `the WebAssembly kernels are not built (no ${plainUrl.href}: npm run build:wasm)`;
    return;
  }
  try {
    if (typeof SharedArrayBuffer === 'function') shared = fs.readFileSync(new URL('kernels-shared.wasm', plainUrl));
  } catch {
    shared = null;
  }
  setModules(plain, shared);
}

/** Validates and compiles the kernel bytes (no SIMD: `missing` says so). */
function setModules(plain: Uint8Array, shared: Uint8Array | null): void {
  tried = true;
  if (wasmApi === null) {
    missing = 'this host has no WebAssembly';
    return;
  }
  if (!wasmApi.validate(plain)) {
    missing = 'this host has no WebAssembly SIMD (the kernels do not validate)';
    return;
  }
  for (const bytes of shared === null ? [plain] : [plain, shared]) {
    const end = dataSegmentsEnd(bytes);
    if (end < 0 || end > KERNEL_STATIC_BYTES) {
      missing = `the WebAssembly kernels' own data ${end < 0 ? 'has an offset that cannot be bounded' : `ends at byte ${end}`}, past the ${KERNEL_STATIC_BYTES} bytes kept for it before the pools (a build of the kernels that does not match this library)`;
      return;
    }
  }
  try {
    modules = {
      plain: new wasmApi.Module(plain),
      shared: shared !== null && wasmApi.validate(shared) ? new wasmApi.Module(shared) : null,
    };
    missing = null;
  } catch (error) {
    missing = `the WebAssembly kernels failed to compile (${error instanceof Error ? error.message : String(error)})`;
  }
}
