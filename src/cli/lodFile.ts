/**
 * The small file `bitanim lod --out` writes (the default; `--no-compress` writes plain float
 * CUBICSPLINE samplers): each reduced clip's joint tracks as `../export/gltfCompact.ts`
 * chooses them (dropped, constant, uniform source frames or the reduced keys, whichever is
 * smaller), quantized by meshoptimizer's filters and every buffer view compressed with
 * `EXT_meshopt_compression` (`../export/meshoptGlb.ts`).
 *
 * **The bound holds in the file.** The tolerance is split between quantization (`share` of it)
 * and the reduced keys (the rest: the run's reduction when its error is within
 * `(1 − share) × tolerance`, else a reduction at that tolerance made for the file). Each clip is
 * first written both ways and the smaller kept (estimated from the tracks' compressed bytes):
 * {@link FILE_SHARE} for quantization and keys wherever they are smaller than the frames, or
 * {@link FILE_WIDE_SHARE} for quantization and keys only where uniform frames cannot be played
 * (glTF's slerp too far from the runtime's nlerp: `slerpDeviation`). The written bytes are then
 * read back with `loadGltf` at {@link FILE_INSTANTS} times each clip's frame rate (its frames
 * and u = 0.2 … 0.8 between them) and compared with the dense source as the runtime plays it,
 * in model space at the joints and the shell (`measureModelError`); a clip over the tolerance is
 * written again with half the share, up to four times. The error reported is this measurement
 * of the written file.
 *
 * **Mesh data** is compressed too: positions and morph deltas with the `EXPONENTIAL` filter
 * within {@link POSITION_PRECISION} of their extent, normals octahedral in {@link NORMAL_BITS}
 * bits (`KHR_mesh_quantization`), the rest losslessly.
 */
import type { Document } from '@gltf-transform/core';
import type { Clip } from '../assets/Clip.js';
import { sampleClipInto } from '../assets/sampleClip.js';
import { compactTracks, countKinds, writeCompactAnimation, type CompactCounts, type CompactTrack } from '../export/gltfCompact.js';
import type { JointNodes } from '../export/gltfAnimation.js';
import { writeGltfBytes } from '../export/gltfAnimation.js';
import { compressGlb, meshoptReady, type CompressedView } from '../export/meshoptGlb.js';
import { loadGltf } from '../import/gltf.js';
import { POSE_STRIDE } from '../math/layout.js';
import { defaultErrorDistance, measureModelError } from '../offline/lod/modelError.js';
import { reduceClip } from '../offline/lod/reduceClip.js';

/** Instants measured per frame interval of the written file, frames included (u = 0, 0.2, …, 0.8). */
export const FILE_INSTANTS = 5;
/** First share of the tolerance given to quantization. */
export const FILE_SHARE = 0.1;
/** Share of the tolerance given to quantization when the keys are used only where frames cannot be. */
export const FILE_WIDE_SHARE = 0.8;
const WIDE_SHARE = FILE_WIDE_SHARE;
/** Bits of the octahedral normals (gltfpack's default; shading only, the skeleton is untouched). */
export const NORMAL_BITS = 8;
/** Vertex positions and morph deltas within this fraction of their primitive's extent (gltfpack's 14-bit default: 2⁻¹⁵). */
export const POSITION_PRECISION = 2 ** -16;
/** Rewrites of a clip over the tolerance, at most. */
const RETRIES = 4;

/** One clip to write: the dense source, its reduction and how it was reduced (file units). */
export interface FileClip {
  readonly source: Clip;
  readonly reduced: Clip;
  readonly animation: Parameters<typeof writeCompactAnimation>[1];
  readonly joints: JointNodes;
  /** The reduction's tolerance, file units. */
  readonly tolerance: number;
  /** The reduction's shell distance, file units, or null for `reduceClip`'s default. */
  readonly distance: number | null;
  readonly method: 'atkins' | 'uniform';
  readonly quantize: boolean;
}

/** How one clip was written. */
export interface FileClipReport {
  readonly name: string;
  /** Tracks per kind (dropped, constant, uniform, keys). */
  readonly tracks: CompactCounts;
  /** Share of the tolerance quantization had. */
  readonly share: number;
  /** When the reduced keys were written: where `'smaller'` than the frames, or only where `'needed'` (see `CompactOptions.keys`). */
  readonly keys: 'smaller' | 'needed';
  /** Largest model-space error of the written file against the dense source, file units (frames and between them, joints and shell). */
  readonly maxError: number;
}

/** What {@link writeCompressedFile} produced. */
export interface CompressedFile {
  readonly bytes: Uint8Array;
  readonly clips: readonly FileClipReport[];
  readonly views: readonly CompressedView[];
  readonly jsonBytes: number;
}

/**
 * Writes `clips` into `document` (see the module comment) and returns the compressed file's
 * bytes, `.glb` or `.gltf` (the BIN chunk embedded as a `data:` URI). `document` is changed.
 */
export async function writeCompressedFile(document: Document, clips: readonly FileClip[], format: 'glb' | 'gltf'): Promise<CompressedFile> {
  await meshoptReady();
  // One buffer (the GLB's BIN chunk), as compressGlb wants: a .gltf input may have several.
  const root = document.getRoot();
  const [first, ...others] = root.listBuffers();
  if (first) {
    for (const accessor of root.listAccessors()) accessor.setBuffer(first);
    for (const buffer of others) buffer.dispose();
  }
  const state = clips.map((clip) => ({
    clip,
    distance: clip.distance ?? defaultErrorDistance(clip.source.skeleton),
    share: FILE_SHARE,
    keys: 'smaller' as 'smaller' | 'needed',
    keyedFor: Number.NaN,
    keyed: null as Clip | null,
    report: null as FileClipReport | null,
  }));
  const keyedAt = (s: (typeof state)[number], share: number): Clip => {
    const budget = (1 - share) * s.clip.tolerance;
    if (s.keyedFor !== budget) {
      const { clip } = s;
      s.keyed = clip.reduced.stats!.maxError <= budget ? clip.reduced : reduceClip(clip.source, {
        tolerance: budget, method: clip.method, quantize: clip.quantize, ...(clip.distance === null ? {} : { distance: clip.distance }),
      });
      s.keyedFor = budget;
    }
    return s.keyed!;
  };
  let pending = state;
  let result: ReturnType<typeof compressGlb> | null = null;
  for (let attempt = 0; attempt <= RETRIES && pending.length > 0; attempt++) {
    for (const s of pending) {
      const { clip } = s;
      const options = { tolerance: clip.tolerance, distance: s.distance, share: s.share, keys: s.keys };
      const share = s.share;
      let tracks = compactTracks(clip.source, () => keyedAt(s, share), clip.joints, options);
      // Keys only where frames cannot be: nearly all the error is quantization's, which may then have most of the tolerance.
      if (attempt === 0) {
        const wide = compactTracks(clip.source, () => keyedAt(s, WIDE_SHARE), clip.joints, { ...options, share: WIDE_SHARE, keys: 'needed' });
        if (bytesOf(wide) < bytesOf(tracks)) {
          tracks = wide;
          s.share = WIDE_SHARE;
          s.keys = 'needed';
        }
      }
      writeCompactAnimation(document, clip.animation, tracks, clip.joints, clip.source.frameCount, clip.source.duration);
      s.report = { name: clip.source.name, tracks: countKinds(tracks), share: s.share, keys: s.keys, maxError: Number.NaN };
    }
    result = compressGlb(await writeGltfBytes(document, 'glb', true), { normalBits: NORMAL_BITS, positionPrecision: POSITION_PRECISION });
    const errors = await fileErrors(result.glb, pending.map((s) => ({ source: s.clip.source, distance: s.distance })));
    const over = [];
    for (let i = 0; i < pending.length; i++) {
      const s = pending[i];
      s.report = { ...s.report!, maxError: errors[i] };
      if (errors[i] > s.clip.tolerance) over.push(s);
    }
    for (const s of over) s.share /= 2;
    pending = over;
  }
  const glb = result!.glb;
  return { bytes: format === 'glb' ? glb : glbToGltf(glb), clips: state.map((s) => s.report!), views: result!.views, jsonBytes: result!.jsonBytes };
}

function bytesOf(tracks: readonly CompactTrack[]): number {
  let bytes = 0;
  for (const t of tracks) bytes += t.bytes;
  return bytes;
}

/**
 * Largest model-space error of each clip of `glb` named like a `source` against that source
 * (as the runtime plays its frames), at {@link FILE_INSTANTS} instants per frame interval,
 * joints and the shell at `distance`: the file read once per frame rate among the sources.
 */
export async function fileErrors(glb: Uint8Array, clips: readonly { source: Clip; distance: number }[]): Promise<number[]> {
  const loaded = new Map<number, Clip[]>();
  const errors: number[] = [];
  for (const { source, distance } of clips) {
    const rate = source.frameRate * FILE_INSTANTS;
    if (!loaded.has(rate)) loaded.set(rate, (await loadGltf(glb, { frameRate: rate, tolerance: 1e300 })).clips);
    const clip = loaded.get(rate)!.find((c) => c.name === source.name);
    errors.push(clip ? measureModelError(denseAt(source, clip.frameCount, clip.frameRate), clip.frames, { subdivisions: 0, distance }).maxError : Number.POSITIVE_INFINITY);
  }
  return errors;
}

/** `source` played (as the runtime plays its frames) at `count` frames of rate `rate`: a clip of those frames. */
export function denseAt(source: Clip, count: number, rate: number): Clip {
  const size = source.skeleton.jointCount * POSE_STRIDE;
  const frames = new Float32Array(count * size);
  const times = new Float64Array(count);
  for (let k = 0; k < count; k++) times[k] = Math.min(k / rate, source.duration);
  for (let k = 0; k < count; k++) sampleClipInto(frames, k * size, source, times, k);
  return { ...source, frames, frameCount: count, frameRate: rate, duration: (count - 1) / rate, reduced: null, stats: null };
}

/** A GLB as `.gltf` JSON with its BIN chunk as a `data:` URI (the fallback buffer has none). */
function glbToGltf(glb: Uint8Array): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as { buffers: { uri?: string }[] };
  const binStart = 20 + jsonLength;
  const bin = glb.subarray(binStart + 8, binStart + 8 + view.getUint32(binStart, true));
  json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  return new TextEncoder().encode(JSON.stringify(json));
}
