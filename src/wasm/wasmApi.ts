/**
 * The host's `WebAssembly`, typed as much as bitanim uses it (the library compiles without
 * the DOM types, which carry the full declarations), or null where there is none.
 */

/** A compiled module (`WebAssembly.Module`); opaque here, posted to workers as it is. */
export type WasmModule = object;

/** A `WebAssembly.Memory`: its buffer is a `SharedArrayBuffer` when created with `shared: true`. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Appends `pages` pages (a plain memory's buffer is then detached; a shared one's is not); throws a RangeError beyond the maximum. */
  grow(pages: number): number;
}

/** The members of `WebAssembly` bitanim calls. */
export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  readonly Module: new (bytes: Uint8Array) => WasmModule;
  readonly Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
  readonly Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
}

/** `globalThis.WebAssembly`, or null on a host without it. */
export const wasmApi: WasmApi | null = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly ?? null;

/** Bytes of a WebAssembly memory page. */
export const WASM_PAGE = 65536;
