/**
 * `bitanim lod`: reduces every clip of a glTF or BVH file with `reduceClip` (ATKINS keys under a
 * model-space error bound), reports keys and error per clip, and with `--out` writes the
 * reduced animation as glTF.
 *
 * **Units.** The tolerance, the distance and the printed errors are metres. A file's units
 * are told by `scale`, metres per file unit (1 for glTF in metres, 0.01 for the Fox's
 * centimetres, 0.056444 for CMU BVH): BVH is scaled to metres at import (so an `--out` file
 * is in metres); a glTF document keeps its units, the tolerance is converted to them
 * (`tolerance / scale`) and the errors back. Without `scale` a glTF file is in metres (its
 * specification's unit) and a BVH file's unit is unknown: its report says "file units", not
 * metres; either way a skeleton too large for metres adds a `units:` warning (./units.ts).
 *
 * **What is measured.** glTF clips are resampled by `loadGltf` — at `frameRate` when given,
 * else each at its keys' own rate (or a multiple) within 0.1 mm of the file's keys, the 0.1 mm
 * converted to file units like the tolerance — and reduced from those frames; BVH clips keep their frames. The error is the largest (and
 * mean) distance a joint — with `distance`, a point that far from a joint — moves in model
 * space over the frames, as `reduceClip` measures it on the packed result. An `--out` file
 * (compressed, the default) is measured itself against the source (./lodFile.ts). Bytes are what the
 * source's frames take (`frameCount × jointCount × 10` 32-bit floats) and what the reduced
 * clip holds (`clip.stats.bytes`: its curves and lookup tables, no frames).
 *
 * Pure of printing: {@link reduceFile} returns a {@link LodReport}; the `format*` functions
 * give the lines `main.ts` prints.
 */
import { basename, extname, resolve } from 'node:path';
import { AnimationError, IssueList } from '../assets/AnimationError.js';
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { createSkeletonDocument, findJointNodes, readGltfDocument, splineTracks, writeClipAnimation, writeGltfBytes, type JointNodes } from '../export/gltfAnimation.js';
import { parseBvh, type BvhEndSite } from '../import/bvh.js';
import { loadGltfFileBytes, readGltfFileResources } from '../import/gltfFile.js';
import { readContainer } from '../import/gltf/container.js';
import { IMPORT_TOLERANCE } from '../import/gltf/resample.js';
import { parseScale, SCALE_EXPECTED, UNITS } from '../import/units.js';
import { POSE_STRIDE } from '../math/layout.js';
import { reduceClip } from '../offline/lod/reduceClip.js';
import type { CompressedView } from '../export/meshoptGlb.js';
import { checkOutputPath, readInputFile, refuseOutputIsInput, writeOutputFile } from './files.js';
import { writeCompressedFile, type CompressedFile, type FileClip, type FileClipReport } from './lodFile.js';
import { unitsWarning } from './units.js';

/** The `where` of errors `bitanim lod` reports. */
const WHERE = 'lod';


/** Options of {@link reduceFile}; lengths in metres. */
export interface LodOptions {
  /** Largest joint position error, metres, finite and > 0 (default 0.005). */
  tolerance?: number;
  /**
   * Error also measured this far from each joint, metres, ≥ 0 (default: `reduceClip`'s, a
   * tenth of the skeleton's hip height, so end joints cannot turn freely; 0: at the joints only).
   */
  distance?: number;
  /** `'atkins'` (default) or `'uniform'` (keys every k frames per channel: the baseline). */
  method?: 'atkins' | 'uniform';
  /** Metres per file unit, finite and > 0, or a name in {@link UNITS} (default 1). */
  scale?: number | string;
  /** glTF: resampling rate of the clips, Hz, finite and > 0 (default: each clip's own, see `loadGltf`). */
  frameRate?: number;
  /** Names of the clips to reduce (default: all). */
  clips?: readonly string[];
  /** Store the curves in 16 bits where the tolerance allows (`reduceClip`'s `quantize`; default true, false for 32-bit curves). */
  quantize?: boolean;
  /** Write the reduced animation to this `.glb` or `.gltf` file. */
  out?: string;
  /**
   * `out` small (default true): tracks chosen by size, quantized and meshopt-compressed
   * (`EXT_meshopt_compression`, required to read it; see ./lodFile.ts); false: plain float
   * CUBICSPLINE samplers any glTF reader plays.
   */
  compress?: boolean;
}

/** One clip's line of the report; errors in metres. */
export interface LodClipReport {
  readonly name: string;
  readonly frames: number;
  readonly joints: number;
  /** Seconds. */
  readonly duration: number;
  readonly source: Clip;
  /** The reduced clip (file units, as `reduceClip` returned it), or null when skipped. */
  readonly reduced: Clip | null;
  /** Why the clip was not reduced, or null. */
  readonly skipped: string | null;
  readonly keysBefore: number;
  readonly keysAfter: number;
  /** Metres. */
  readonly maxError: number;
  /** Metres. */
  readonly meanError: number;
  /** Metres: the 99th percentile of the per-sample error (a joint at an instant; `clip.stats.p99Error`). */
  readonly p99Error: number;
  /** Share of those samples within the tolerance, in [0, 1]. */
  readonly shareWithin: number;
  /** Bytes of the source clip's frames (`clip.stats.sourceBytes`). */
  readonly bytesBefore: number;
  /** Bytes the reduced clip holds (`clip.stats.bytes`); the source's for a skipped clip. */
  readonly bytesAfter: number;
}

/** The settings a run used (resolved options). */
export interface LodSettings {
  readonly file: string;
  readonly format: 'gltf' | 'bvh';
  /** Metres. */
  readonly tolerance: number;
  /** Metres, or null for `reduceClip`'s default (a tenth of the hip height, see `defaultErrorDistance`). */
  readonly distance: number | null;
  readonly method: 'atkins' | 'uniform';
  /** Whether the curves were stored in 16 bits where the tolerance allows. */
  readonly quantize: boolean;
  /** Metres per file unit (1 when `scale` was not given). */
  readonly scale: number;
  /**
   * The unit of the report's lengths (tolerance, distance, errors): metres, or `'file units'`
   * for a BVH file read without `scale` — BVH has no unit, so they are not claimed as metres.
   */
  readonly units: 'm' | 'file units';
  /** glTF: the resampling rate given, or null (each clip at its keys' own rate); BVH: null (the file's own frames). */
  readonly frameRate: number | null;
}

/** What {@link reduceFile} did. */
export interface LodReport extends LodSettings {
  readonly clips: readonly LodClipReport[];
  /**
   * Importer warnings, the units warning (starts with `units:`, see `unitsWarning` in
   * ./units.ts: no `scale` and a skeleton too large for metres), then writer warnings (those
   * start with `--out:`).
   */
  readonly warnings: readonly string[];
  /** The `--out` file written, or null. */
  readonly written: LodWritten | null;
}

/** The `--out` file {@link reduceFile} wrote. */
export interface LodWritten {
  readonly file: string;
  /** Bytes written. */
  readonly bytes: number;
  /** Bytes of the input file. */
  readonly inputBytes: number;
  readonly animations: number;
  /** Whether it was compressed (see `LodOptions.compress`). */
  readonly compressed: boolean;
  /**
   * Compressed: per clip written, the tracks per kind and the largest model-space error of the
   * file against the dense source, metres (frames and between them; see ./lodFile.ts); else empty.
   */
  readonly clips: readonly (FileClipReport & { readonly maxError: number })[];
  /** Compressed: the file's buffer views (use, codec, bytes decoded and stored) and its JSON bytes; else empty and 0. */
  readonly views: readonly CompressedView[];
  readonly jsonBytes: number;
}

/** Callbacks of {@link reduceFile}, for progress display. */
export interface LodHooks {
  /** After import: the settings and the clips about to be reduced, in order. */
  onClips?(settings: LodSettings, clips: readonly Clip[]): void;
  /** Before clip `index` of `count` is reduced. */
  onClipStart?(clip: Clip, index: number, count: number): void;
  /** `reduceClip`'s progress: channels reduced, counted over all passes of its search, of `total` per pass. */
  onProgress?(done: number, total: number): void;
  /** After clip `index` is reduced (or skipped). */
  onClipDone?(report: LodClipReport, index: number, count: number): void;
}

interface Resolved {
  tolerance: number;
  distance: number | null;
  method: 'atkins' | 'uniform';
  quantize: boolean;
  scale: number;
  scaleGiven: boolean;
  frameRate: number | null;
  clips: readonly string[] | null;
  out: string | null;
  compress: boolean;
}

/**
 * Reads `file` (`.glb`, `.gltf` or `.bvh`), reduces its clips and, with `options.out`, writes
 * them (see {@link writeReduced}). Offline: allocates freely; seconds for long mocap takes.
 * @throws AnimationError (where `lod`, or the importer's or reducer's) for bad options, a file
 * that cannot be read or imported (not a regular file, above 512 MiB: see ./files.ts), an
 * `out` that is the input (a symlink or hard link to it), cannot be written (its folder
 * missing or read-only) or is a symlink that dangles or points out of its folder (checked
 * before the input is read), an unknown clip name, or a
 * tolerance no reduction meets.
 * @example
 * const report = await reduceFile('Fox.glb', { tolerance: 0.005, scale: 'cm', out: 'Fox.lod.glb' });
 * for (const line of formatLodReport(report)) console.log(line);
 */
export async function reduceFile(file: string, options: LodOptions = {}, hooks: LodHooks = {}): Promise<LodReport> {
  const o = resolveOptions(file, options);
  // A missing folder or a read-only path fails now, not after seconds of reduction.
  if (o.out !== null) await checkOutputPath(o.out, WHERE, '--out');
  const extension = extname(file).toLowerCase();
  const { bytes, stats } = await readInputFile(file, WHERE);
  // A symlink or hard link to the input would be overwritten: refused before any reduction.
  if (o.out !== null) await refuseOutputIsInput(o.out, file, stats, WHERE, '--out');
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const gltf = extension === '.glb' || extension === '.gltf';
  let clips: Clip[], warnings: string[], endSites: BvhEndSite[] = [];
  if (gltf) {
    // The document keeps its units: the importer's 0.1 mm goes to file units like the tolerance.
    const rate = o.frameRate === null ? {} : { frameRate: o.frameRate };
    // A .gltf's external buffers come from its own folder only (loadGltfFile's rules).
    ({ clips, warnings } = await loadGltfFileBytes(view, file, { ...rate, tolerance: IMPORT_TOLERANCE / o.scale }));
    // Read in its own units: the importer's figure check would judge them as metres; the
    // command's own check below knows --scale.
    warnings = warnings.filter((w) => !w.startsWith('units: '));
  } else {
    const bvh = parseBvh(bytes.toString('utf8'), { scale: o.scale, name: basename(file, extension) });
    clips = [bvh.clip];
    // The command's own units check below words it with --scale (the importer's names options.scale).
    warnings = bvh.warnings.filter((w) => !w.startsWith('units: '));
    endSites = bvh.endSites;
  }
  // glTF curves stay in file units; BVH is in metres already.
  const unit = gltf ? o.scale : 1;
  if (!o.scaleGiven && clips.length > 0) {
    const units = unitsWarning(clips[0].skeleton, gltf ? 'gltf' : 'bvh');
    if (units !== null) warnings.push(units);
  }

  const settings: LodSettings = {
    file, format: gltf ? 'gltf' : 'bvh', tolerance: o.tolerance, distance: o.distance, method: o.method, quantize: o.quantize, scale: o.scale,
    units: gltf || o.scaleGiven ? 'm' : 'file units', frameRate: gltf ? o.frameRate : null,
  };
  const selected = selectClips(clips, o.clips);
  hooks.onClips?.(settings, selected);
  const reports: LodClipReport[] = [];
  selected.forEach((clip, index) => {
    hooks.onClipStart?.(clip, index, selected.length);
    const base = { name: clip.name, frames: clip.frameCount, joints: clip.skeleton.jointCount, duration: clip.duration, source: clip };
    let report: LodClipReport;
    if (clip.frameCount < 2) {
      const keys = clip.frameCount * clip.skeleton.jointCount * POSE_STRIDE;
      const bytes = keys * Float32Array.BYTES_PER_ELEMENT;
      report = {
        ...base, reduced: null, skipped: 'one frame, nothing to reduce', keysBefore: keys, keysAfter: keys, maxError: 0, meanError: 0, p99Error: 0, shareWithin: 1,
        bytesBefore: bytes, bytesAfter: bytes,
      };
    } else {
      let reduced: Clip;
      try {
        reduced = reduceClip(clip, {
          tolerance: o.tolerance / unit,
          ...(o.distance === null ? {} : { distance: o.distance / unit }),
          method: o.method,
          quantize: o.quantize,
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        });
      } catch (error) {
        // reduceClip speaks in file units; say which clip and how the tolerance was converted.
        if (!(error instanceof AnimationError) || unit === 1) throw error;
        throw new AnimationError(WHERE, [{ path: `clip "${clip.name}":`, message: `${error.message} (file units: --tolerance ${o.tolerance} m at --scale ${o.scale})` }]);
      }
      const stats = reduced.stats!;
      report = {
        ...base, reduced, skipped: null, keysBefore: stats.keysBefore, keysAfter: stats.keysAfter,
        maxError: stats.maxError * unit, meanError: stats.meanError * unit, p99Error: (stats.p99Error ?? stats.maxError) * unit, shareWithin: stats.shareWithin ?? 1, bytesBefore: stats.sourceBytes, bytesAfter: stats.bytes,
      };
    }
    reports.push(report);
    hooks.onClipDone?.(report, index, selected.length);
  });

  let written: LodReport['written'] = null;
  if (o.out !== null) {
    const result = await writeReduced(view, file, gltf, reports, clips, endSites, o, unit);
    warnings.push(...result.warnings);
    written = {
      file: o.out, bytes: result.bytes, inputBytes: view.byteLength, animations: result.animations, compressed: o.compress,
      clips: result.file?.clips.map((c) => ({ ...c, maxError: c.maxError * unit })) ?? [], views: result.file?.views ?? [], jsonBytes: result.file?.jsonBytes ?? 0,
    };
  }
  return { ...settings, clips: reports, warnings, written };
}

/** Validates the options (all faults in one error) and fills the defaults. */
function resolveOptions(file: string, options: LodOptions): Resolved {
  const issues = new IssueList(WHERE);
  const number = (flag: string, value: unknown, fallback: number, min: 'positive' | 'non-negative', unit: string): number => {
    if (value === undefined) return fallback;
    const v = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (!Number.isFinite(v) || (min === 'positive' ? v <= 0 : v < 0)) {
      issues.add(flag, `is ${JSON.stringify(value) ?? String(value)}: must be a finite number ${min === 'positive' ? '> 0' : '≥ 0'}${unit}`);
      return fallback;
    }
    return v;
  };
  const tolerance = number('--tolerance', options.tolerance, 0.005, 'positive', ' (metres)');
  const distance = options.distance === undefined ? null : number('--distance', options.distance, 0, 'non-negative', ' (metres)');
  const frameRate = options.frameRate === undefined ? null : number('--frame-rate', options.frameRate, 30, 'positive', ' (Hz)');
  const scale = options.scale === undefined ? 1 : parseScale(options.scale);
  if (Number.isNaN(scale)) issues.add('--scale', `is ${JSON.stringify(options.scale) ?? String(options.scale)}: must be ${SCALE_EXPECTED}`);
  const method = options.method ?? 'atkins';
  if (method !== 'atkins' && method !== 'uniform') issues.add('--method', `is ${JSON.stringify(method)}: must be atkins or uniform`);
  const extension = extname(file).toLowerCase();
  if (!['.glb', '.gltf', '.bvh'].includes(extension)) issues.add(file, 'is not .glb, .gltf or .bvh');
  const out = options.out ?? null;
  if (out !== null) {
    if (typeof out !== 'string' || !['.glb', '.gltf'].includes(extname(out).toLowerCase())) {
      issues.add('--out', `is ${JSON.stringify(out)}: must name a .glb or .gltf file`);
    } else if (resolve(out) === resolve(file)) {
      issues.add('--out', `is the input file ${file}: write the reduced animation to another file`);
    }
  }
  const clips = options.clips === undefined ? null : options.clips.map(String);
  const quantize = options.quantize !== false;
  if (options.compress !== undefined && typeof options.compress !== 'boolean') issues.add('compress', `is ${JSON.stringify(options.compress) ?? String(options.compress)}: must be true or false`);
  const compress = options.compress !== false;
  issues.throwIfAny();
  return { tolerance, distance, method, quantize, scale, scaleGiven: options.scale !== undefined, frameRate, clips, out, compress };
}

function selectClips(clips: readonly Clip[], names: readonly string[] | null): Clip[] {
  if (names === null) return [...clips];
  const known = clips.map((c) => c.name);
  const issues = new IssueList(WHERE);
  for (const name of names) {
    if (!known.includes(name)) issues.add(`--clip ${JSON.stringify(name)}`, `is not a clip of the file (${known.length ? known.map((n) => JSON.stringify(n)).join(', ') : 'it has none'})`);
  }
  issues.throwIfAny();
  return clips.filter((c) => names.includes(c.name));
}

/**
 * Writes the reduced clips to `out` (`.glb` or `.gltf` with embedded buffers, by extension),
 * compressed (`o.compress`, the default: ./lodFile.ts) or as plain float CUBICSPLINE samplers:
 * - glTF input (`file`; a `.gltf`'s external buffers and images read from its folder): the same document (meshes, materials, other animations and channels kept),
 *   each reduced clip's animation with its joint channels replaced by CUBICSPLINE samplers
 *   (see `src/export/gltfAnimation.ts`). Skipped clips keep their animation.
 * - BVH input: the skeleton as nodes with a skin (and the End Sites as bone-tip nodes) and the
 *   reduced clip as one animation, in metres.
 */
async function writeReduced(
  bytes: Uint8Array, file: string, gltf: boolean, reports: readonly LodClipReport[], allClips: readonly Clip[], endSites: readonly BvhEndSite[], o: Resolved, unit: number,
): Promise<{ bytes: number; animations: number; warnings: string[]; file: CompressedFile | null }> {
  const out = o.out!;
  const where = `${WHERE} --out`;
  const warnings: string[] = [];
  let animations = 0;
  let document;
  // Compressed: the clips are written together once the document is complete (see ./lodFile.ts).
  const compressed: FileClip[] = [];
  const add = (report: LodClipReport, animation: FileClip['animation'], joints: JointNodes): void => {
    if (o.compress) {
      compressed.push({
        source: report.source, reduced: report.reduced!, animation, joints, tolerance: o.tolerance / unit,
        distance: o.distance === null ? null : o.distance / unit, method: o.method, quantize: o.quantize,
      });
    } else writeClipAnimation(document!, animation, splineTracks(report.reduced!.reduced!), joints);
  };
  if (gltf) {
    // A .gltf's external buffers and images, from its own folder (loadGltfFile's rules).
    const glb = new TextDecoder().decode(bytes.subarray(0, 4)) === 'glTF';
    const resources = glb ? {} : await readGltfFileResources(JSON.parse(new TextDecoder().decode(bytes)), file);
    document = await readGltfDocument(bytes, resources);
    const root = document.getRoot();
    // loadGltf makes one clip per animation that animates joints, in order, named after it.
    const byClip = new Map<Clip, ReturnType<typeof root.listAnimations>[number]>();
    let next = 0;
    root.listAnimations().forEach((animation, a) => {
      const clip = allClips[next];
      if (clip && clip.name === (animation.getName() || `animation${a}`)) {
        byClip.set(clip, animation);
        next++;
      }
    });
    const jointsOf = new Map<Skeleton, JointNodes>();
    for (const report of reports) {
      const animation = byClip.get(report.source);
      if (!report.reduced) continue;
      if (!animation) throw new AnimationError(where, [{ path: `clip "${report.name}"`, message: 'has no animation of that name in the document' }]);
      const skeleton = report.source.skeleton;
      if (!jointsOf.has(skeleton)) jointsOf.set(skeleton, findJointNodes(document, skeleton, where));
      add(report, animation, jointsOf.get(skeleton)!);
      animations++;
    }
    const known = new Set(root.listExtensionsUsed().map((e) => e.extensionName));
    const used = (readContainer(bytes).json as { extensionsUsed?: unknown }).extensionsUsed;
    // A compressed input is decoded on reading (and compressed again unless --no-compress).
    const dropped = Array.isArray(used) ? used.filter((name) => typeof name === 'string' && !known.has(name) && name !== 'EXT_meshopt_compression') : [];
    if (dropped.length) warnings.push(`--out: extensions not written (@gltf-transform/core does not know them): ${dropped.join(', ')}`);
  } else {
    const report = reports[0];
    const created = createSkeletonDocument(report.source.skeleton, endSites);
    document = created.document;
    if (report.reduced) {
      add(report, document.createAnimation(report.name), created.joints);
      animations++;
    }
  }
  document.getRoot().getAsset().generator = 'bitanim lod';
  const format = extname(out).toLowerCase() === '.gltf' ? 'gltf' : 'glb';
  const written = o.compress ? await writeCompressedFile(document, compressed, format) : null;
  for (const c of written?.clips ?? []) {
    // Not expected (the share halves four times); said rather than hidden.
    if (c.maxError > o.tolerance / unit) warnings.push(`--out: clip "${c.name}" is ${(c.maxError * unit).toFixed(6)} m from the source in the written file, over the tolerance`);
  }
  const data = written?.bytes ?? await writeGltfBytes(document, format);
  await writeOutputFile(out, data, WHERE, '--out'); // whole or not at all: a temporary file beside it, then a rename
  return { bytes: data.byteLength, animations, warnings, file: written };
}

/** Totals of {@link lodTotals}: keys and bytes summed, errors in metres. */
export interface LodTotals {
  readonly frames: number;
  readonly keysBefore: number;
  readonly keysAfter: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly maxError: number;
  readonly meanError: number;
  /** The largest of the clips' 99th percentiles (percentiles do not add up). */
  readonly p99Error: number;
  /** Share within the tolerance over every clip's samples (weighted by frames × joints). */
  readonly shareWithin: number;
}

/** Total keys, bytes and errors over `clips` (mean and share weighted by frames × joints, the largest p99), metres. */
export function lodTotals(clips: readonly LodClipReport[]): LodTotals {
  let frames = 0, keysBefore = 0, keysAfter = 0, bytesBefore = 0, bytesAfter = 0, maxError = 0, weighted = 0, weight = 0, p99Error = 0, within = 0;
  for (const c of clips) {
    frames += c.frames;
    keysBefore += c.keysBefore;
    keysAfter += c.keysAfter;
    bytesBefore += c.bytesBefore;
    bytesAfter += c.bytesAfter;
    maxError = Math.max(maxError, c.maxError);
    weighted += c.meanError * c.frames * c.joints;
    within += c.shareWithin * c.frames * c.joints;
    weight += c.frames * c.joints;
    p99Error = Math.max(p99Error, c.p99Error);
  }
  return {
    frames, keysBefore, keysAfter, bytesBefore, bytesAfter, maxError, meanError: weight > 0 ? weighted / weight : 0, p99Error, shareWithin: weight > 0 ? within / weight : 1,
  };
}

/** The first line of the report: file, tolerance, method, units. */
export function formatLodHeading(report: LodSettings, clipCount: number): string {
  const u = report.units;
  const where = report.distance === null ? 'at the joints and a tenth of the hip height from them'
    : report.distance > 0 ? `at ${report.distance} ${u} from the joints` : 'at the joints';
  const units = u === 'file units' ? ', units unknown (BVH without --scale)' : report.scale !== 1 ? `, 1 file unit = ${report.scale} m` : '';
  const rate = report.format !== 'gltf' ? '' : report.frameRate !== null ? `, resampled at ${report.frameRate} fps` : ', keys at their own rate';
  return `${report.file}: ${clipCount} clip${clipCount === 1 ? '' : 's'}, tolerance ${report.tolerance} ${u} ${where}, ` +
    `${report.method === 'atkins' ? 'ATKINS' : 'uniform'} keys${report.quantize ? ' in 16 bits' : ' in 32 bits'}${units}${rate}`;
}

const COLUMNS = [
  ['frames', 6], ['joints', 6], ['keys before', 11], ['keys after', 10], ['ratio', 8],
  ['bytes before', 12], ['bytes after', 11], ['ratio', 8], ['max error (m)', 13], ['mean error (m)', 14], ['p99 error (m)', 13],
  ['≤ tolerance', 11],
] as const;

/** The errors' columns when the units are unknown (see `LodSettings.units`): titles and widths. */
const FILE_UNIT_ERRORS = [['max error (units)', 17], ['mean error (units)', 18], ['p99 error (units)', 17]] as const;

/** The columns for a report in `units`. */
function columnsFor(units: LodSettings['units']): readonly (readonly [string, number])[] {
  return units === 'm' ? COLUMNS : [...COLUMNS.slice(0, -4), ...FILE_UNIT_ERRORS, COLUMNS[COLUMNS.length - 1]];
}

/** Width of the clip-name column for these names. */
export function nameWidth(names: readonly string[]): number {
  return Math.max(4, ...names.map((n) => n.length));
}

/** The table's column titles; errors titled in `units` (default metres). */
export function formatLodColumns(width: number, units: LodSettings['units'] = 'm'): string {
  return ['clip'.padEnd(width), ...columnsFor(units).map(([title, w]) => title.padStart(w))].join('  ');
}

/** One clip's row; `units` as the columns'. */
export function formatLodRow(clip: LodClipReport, width: number, units: LodSettings['units'] = 'm'): string {
  const head = [clip.name.padEnd(width), String(clip.frames).padStart(6), String(clip.joints).padStart(6)];
  if (clip.skipped) return [...head, `skipped: ${clip.skipped}`].join('  ');
  return [...head, ...figures(clip, units)].join('  ');
}

/** The row of totals (keys and bytes summed, largest max error, mean weighted by frames × joints); `units` as the columns'. */
export function formatLodTotal(clips: readonly LodClipReport[], width: number, units: LodSettings['units'] = 'm'): string {
  const t = lodTotals(clips);
  return ['all'.padEnd(width), String(t.frames).padStart(6), ''.padStart(6), ...figures(t, units)].join('  ');
}

function figures(c: Omit<LodTotals, 'frames'>, units: LodSettings['units']): string[] {
  const [maxWidth, meanWidth, p99Width, shareWidth] = columnsFor(units).slice(-4).map(([, w]) => w);
  return [
    group(c.keysBefore).padStart(11),
    group(c.keysAfter).padStart(10),
    formatRatio(c.keysBefore, c.keysAfter).padStart(8),
    group(c.bytesBefore).padStart(12),
    group(c.bytesAfter).padStart(11),
    formatRatio(c.bytesBefore, c.bytesAfter).padStart(8),
    c.maxError.toFixed(6).padStart(maxWidth),
    c.meanError.toFixed(6).padStart(meanWidth),
    c.p99Error.toFixed(6).padStart(p99Width),
    `${(100 * c.shareWithin).toFixed(c.shareWithin === 1 ? 0 : 2)} %`.padStart(shareWidth),
  ];
}

/** `before / after` as `x.y:1`. */
function formatRatio(before: number, after: number): string {
  return `${after > 0 ? (before / after).toFixed(1) : '∞'}:1`;
}

/**
 * The line about the written file; given the run's `settings`, it says the written lengths'
 * unit when they are not metres (glTF at a `scale` other than 1 keeps the input's units).
 */
export function formatLodWritten(written: NonNullable<LodReport['written']>, settings?: LodSettings): string {
  const what = written.animations === 1 ? '1 reduced animation' : `${written.animations} reduced animations`;
  const units = settings === undefined ? ''
    : settings.units === 'file units' ? ', lengths in the input\'s unknown units'
      : settings.format === 'gltf' && settings.scale !== 1 ? `, lengths in the input's units (1 unit = ${settings.scale} m)` : '';
  if (!written.compressed) return `wrote ${written.file} (${group(written.bytes)} bytes): ${what} as CUBICSPLINE samplers${units}`;
  const error = written.clips.reduce((m, c) => Math.max(m, c.maxError), 0);
  const unit = settings?.units === 'file units' ? 'file units' : 'm';
  return `wrote ${written.file}: file bytes ${group(written.inputBytes)} before, ${group(written.bytes)} after (${formatRatio(written.inputBytes, written.bytes)}); ` +
    `${what}, quantized and meshopt-compressed, max error ${error.toFixed(6)} ${unit} against the source (frames and between them)${units}`;
}

/** The whole text report, one string per line (what `bitanim lod` prints on stdout). */
export function formatLodReport(report: LodReport): string[] {
  const width = nameWidth(report.clips.map((c) => c.name));
  const lines = [formatLodHeading(report, report.clips.length), formatLodColumns(width, report.units)];
  for (const clip of report.clips) lines.push(formatLodRow(clip, width, report.units));
  if (report.clips.length > 1) lines.push(formatLodTotal(report.clips, width, report.units));
  if (report.written) lines.push(formatLodWritten(report.written, report));
  return lines;
}

/** The report as plain data for `--json` (lengths in `units`: metres unless a BVH file was read without scale; no clip objects). */
export function lodReportJson(report: LodReport): object {
  return {
    file: report.file,
    format: report.format,
    tolerance: report.tolerance,
    distance: report.distance,
    method: report.method,
    quantize: report.quantize,
    scale: report.scale,
    units: report.units,
    frameRate: report.frameRate,
    clips: report.clips.map((c) => ({
      name: c.name, frames: c.frames, joints: c.joints, duration: c.duration, skipped: c.skipped,
      keysBefore: c.keysBefore, keysAfter: c.keysAfter, ratio: c.keysAfter > 0 ? c.keysBefore / c.keysAfter : null,
      bytesBefore: c.bytesBefore, bytesAfter: c.bytesAfter, bytesRatio: c.bytesAfter > 0 ? c.bytesBefore / c.bytesAfter : null,
      maxError: c.maxError, meanError: c.meanError, p99Error: c.p99Error, shareWithin: c.shareWithin,
    })),
    total: totalJson(lodTotals(report.clips)),
    out: report.written,
    warnings: report.warnings,
  };
}

/** The totals with their ratios (null when nothing is kept). */
function totalJson(t: LodTotals): object {
  return {
    ...t, ratio: t.keysAfter > 0 ? t.keysBefore / t.keysAfter : null, bytesRatio: t.bytesAfter > 0 ? t.bytesBefore / t.bytesAfter : null,
  };
}

function group(n: number): string {
  return n.toLocaleString('en-US');
}
