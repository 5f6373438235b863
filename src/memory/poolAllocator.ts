/**
 * The one seam every pool of a world is allocated through: components, the event
 * queues, the LOD camera, per-thread scratch. A world with one thread hands it an
 * `ArrayBuffer`, a threaded world a `SharedArrayBuffer` its workers view too; a later kernel
 * backend can hand it a `WebAssembly.Memory`'s buffer. Allocation is a bump of an offset, so a
 * world's layout is fixed by the order of its requests.
 */

/** A typed-array constructor the allocator can place (every one a pool uses). */
export type PoolArrayConstructor<T> = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** Hands out zero-filled typed arrays: `alloc.array(Float32Array, n)`. */
export interface PoolAllocator {
  /** A zero-filled array of `length` elements. */
  array<T>(type: PoolArrayConstructor<T>, length: number): T;
}

/**
 * Every array starts on a 16-byte boundary: SIMD lanes load aligned, and no two pools share
 * a cache line's first bytes by accident of their lengths.
 */
export const POOL_ALIGN = 16;

const align = (bytes: number): number => Math.ceil(bytes / POOL_ALIGN) * POOL_ALIGN;

/** Allocates each array on its own (the default where no world buffer is involved: tests, tools). */
export const heapAllocator: PoolAllocator = {
  array: (type, length) => new type(length),
};

/** A {@link PoolAllocator} that bumps through `buffer` from `byteOffset`; `used` is the end so far. */
export interface BufferAllocator extends PoolAllocator {
  readonly buffer: ArrayBufferLike;
  /** Bytes of `buffer` handed out so far, alignment included. */
  readonly used: number;
}

/**
 * Allocates consecutive arrays in `buffer` (zero-filled if the buffer is new).
 * @throws RangeError when a request does not fit (the caller sized the buffer with {@link measureAllocations}).
 */
export function createBufferAllocator(buffer: ArrayBufferLike): BufferAllocator {
  let used = 0;
  return {
    buffer,
    get used() {
      return used;
    },
    array(type, length) {
      const start = used;
      const end = align(start + length * type.BYTES_PER_ELEMENT);
      if (end > buffer.byteLength) throw new RangeError(`pool buffer of ${buffer.byteLength} bytes is full (${end} needed)`);
      used = end;
      return new type(buffer, start, length);
    },
  };
}

/**
 * The bytes `build` requests from its allocator (alignment included), measured by running it
 * on an allocator that hands out empty arrays: what a buffer for it must hold.
 */
export function measureAllocations(build: (alloc: PoolAllocator) => unknown): number {
  let bytes = 0;
  build({
    array(type, length) {
      bytes = align(bytes + length * type.BYTES_PER_ELEMENT);
      return new type(0);
    },
  });
  return bytes;
}
