/**
 * A reduced (LOD) clip's copy for the WebAssembly kernels (assembly/reduced.ts `sampleReduced`,
 * which `sampleClip` calls for it): its `ReducedTracks` arrays as they are, behind a header that
 * names them. The layout is the kernel's (its file header): f64 frame rate at 0, i32 −1 at 8
 * (a reduced record), i32 −jointCount at 12 (negated, as a compressed record's: a bound layer of
 * it samples on JavaScript), i32 flags at 16, i32 animated tracks at 20, f32 end time at 24, f64
 * buckets per second at 32, then at 40 … 64 the arrays' offsets from the record's start: 32-bit
 * records, 16-bit records, lookup table, tracks' starts, constants, joint masks, joints' first
 * tracks, each 16-byte aligned.
 */
import type { Clip } from '../assets/Clip.js';
import type { ReducedTracks } from '../assets/ReducedTracks.js';

/** Bytes of the record's header. */
const HEADER = 80;
/** Flags at byte 16: the clip has 16-bit tracks; its lookup table is 16-bit. */
const FLAG_PACKED = 1, FLAG_TABLE16 = 2;
/** Byte of the first array offset (seven i32 follow). */
const ARRAYS = 40;

/** The record of reduced clip `clip` (`tracks` = `clip.reduced`, not compressed): the bytes to copy into the kernel area as they are. */
export function reducedRecord(clip: Clip, tracks: ReducedTracks): Uint8Array {
  const arrays: ArrayBufferView[] = [
    tracks.records, tracks.packed, tracks.bucketRecords, tracks.trackStart, tracks.constants, tracks.jointMask, tracks.jointTrack,
  ];
  const align = (n: number): number => Math.ceil(n / 16) * 16;
  const offsets: number[] = [];
  let bytes = HEADER;
  for (const a of arrays) {
    offsets.push(bytes);
    bytes += align(a.byteLength);
  }
  const record = new Uint8Array(bytes);
  const view = new DataView(record.buffer);
  view.setFloat64(0, clip.frameRate, true);
  view.setInt32(8, -1, true);
  view.setInt32(12, -tracks.jointCount, true);
  view.setInt32(16, (tracks.packedTracks > 0 ? FLAG_PACKED : 0) | (tracks.bucketRecords instanceof Uint16Array ? FLAG_TABLE16 : 0), true);
  view.setInt32(20, tracks.animatedTracks, true);
  view.setFloat32(24, tracks.endTime, true);
  view.setFloat64(32, tracks.bucketScale, true);
  arrays.forEach((a, i) => {
    view.setInt32(ARRAYS + 4 * i, offsets[i], true);
    record.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offsets[i]);
  });
  return record;
}
