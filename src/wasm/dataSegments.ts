/**
 * The end of a WebAssembly module's active data segments: the bytes of memory its own data
 * (AssemblyScript's math tables, from byte 1024 on) occupies. Every instantiation writes those
 * segments into the memory again — each worker's on a shared memory — so no pool may sit there
 * ({@link KERNEL_STATIC_BYTES}; the loader refuses a module that would reach past it).
 */

/**
 * Bytes at the start of the kernels' memory kept for the module's own data: AssemblyScript
 * places its math tables (`Math.sin`'s and `Math.cos`'s reduction table, `Math.exp`'s) from byte
 * 1024 on, and every instantiation — each worker's on a shared memory — writes them there again,
 * so no pool may overlap them. The loader refuses a module whose data reaches past this.
 */
export const KERNEL_STATIC_BYTES = 4096;

/** The largest `offset + length` over `bytes`' active data segments with a constant offset (0 without any); −1 if the bytes do not parse as a module. */
export function dataSegmentsEnd(bytes: Uint8Array): number {
  let p = 8; // magic and version
  const leb = (): number => {
    let result = 0, shift = 0, byte = 0;
    do {
      if (p >= bytes.length) throw new RangeError('truncated');
      byte = bytes[p++];
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return result;
  };
  try {
    let end = 0;
    while (p < bytes.length) {
      const id = bytes[p++];
      const size = leb();
      const next = p + size;
      if (id === 11) {
        for (let n = leb(); n > 0; n--) {
          const kind = leb();
          if (kind === 1) { p += leb(); continue; } // passive: written only by memory.init
          if (kind === 2) leb(); // an explicit memory index
          // The offset: i32.const (0x41) or i64.const (0x42) n, then end (0x0b); anything else (a global) cannot be bounded here.
          const op = bytes[p++];
          if (op !== 0x41 && op !== 0x42) return -1;
          const offset = leb();
          if (bytes[p++] !== 0x0b) return -1;
          const length = leb();
          end = Math.max(end, offset + length);
          p += length;
        }
      }
      p = next;
    }
    return end;
  } catch {
    return -1;
  }
}
