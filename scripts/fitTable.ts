/**
 * The two curve fits of `reduceClip` compared on every real clip of assets/, printed
 * as a markdown table (issue 14, item 4: "a spline fit that joins segments with the continuity
 * of each key's order …, compared with today's per-segment fit on the 19 shared clips at
 * 1 / 5 / 10 mm (keys, bytes, error); keep the better as default").
 *
 * For each clip and each tolerance (1 mm, 5 mm, 1 cm of model-space joint position error) the
 * clip is reduced twice by `reduceClip`, with `fit: 'segment'` (each segment between two keys
 * fitted alone, joined C⁰) and `fit: 'continuous'` (one least-squares spline per channel, C² at
 * C² keys, C¹ at C¹ keys, C⁰ at C⁰ keys: src/offline/lod/continuousFit.ts). Both choose their keys for
 * their own fit (the ε search and the merge pass measure it) and go through the same search of
 * the tolerance share per channel and the same model-space measurement.
 *
 * Columns: keys per channel summed (a clip has `frames × joints × 10` before); records = the
 * packed curve records (one per union key of a track's channels, 52–68 bytes each); bytes = the
 * reduced clip's `stats.bytes` where the reducer reports it, else the packed curves and their
 * lookup (`clip.reduced.byteLength`: records, buckets, constants; the bucket table grows as the
 * closest two keys of any track come together); continuous / segment ratios
 * (< 1: the continuous fit is smaller); errors are the largest measured model-space joint
 * distance, mm; reduce time per call, seconds. Under the table, per tolerance: on how many
 * clips each fit keeps fewer keys, and the ratios pooled.
 *
 * Units as in scripts/lodTable.ts: every clip in metres (test/fixtures/realClips.ts).
 *
 * Usage (the table on stdout, progress on stderr):
 *   npx tsc -p tsconfig.bench.json && node .bench-build/scripts/fitTable.js [> table.md]
 * FIT_TABLE_CLIPS="Survey,Walk" restricts the run to clips whose name contains one of those
 * words; FIT_TABLE_ASSETS=DIR reads the assets from DIR instead of the repository's assets/.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { type Clip } from '../src/index.js';
import { fitSpline, measureSplineError, reduceChannel, reduceClip } from '../src/lod.js';
import { loadRealClips } from '../test/fixtures/realClips.js';
import { ASSETS_URL } from '../test/support/assets.js';
import { createProgress, tolerance } from './tableHelpers.js';

/** Model-space tolerances, metres. */
const TOLERANCES = [0.001, 0.005, 0.01];
/** The fits compared, the current default first. */
const FITS = ['segment', 'continuous'] as const;
type Fit = (typeof FITS)[number];

interface TableClip {
  readonly clip: Clip;
  readonly name: string;
  readonly source: string;
  readonly unitsPerMetre: number;
}

/** One reduction's figures. */
interface Reduction {
  readonly keys: number;
  /** Curve records of the packed clip (one per union key of an animated track). */
  readonly records: number;
  readonly bytes: number;
  readonly maxError: number;
  readonly seconds: number;
}

interface Row {
  readonly real: TableClip;
  readonly metres: number;
  readonly keysBefore: number;
  readonly fits: Record<Fit, Reduction>;
}

function assetsFolder(): URL {
  const folder = process.env['FIT_TABLE_ASSETS'];
  if (folder) return pathToFileURL(folder.endsWith('/') ? folder : `${folder}/`);
  return ASSETS_URL;
}

async function loadTableClips(): Promise<TableClip[]> {
  return (await loadRealClips(assetsFolder())).map(({ clip, file, unitsPerMetre }) => file.endsWith('.bvh')
    ? { clip, name: clip.name.replace(/\.bvh$/, ''), source: 'CMU BVH', unitsPerMetre }
    : { clip, name: clip.name, source: file.replace(/\.glb$/, ''), unitsPerMetre });
}

function reduce(real: TableClip, metres: number, fit: Fit): Reduction {
  const start = performance.now();
  const reduced = reduceClip(real.clip, { tolerance: metres * real.unitsPerMetre, fit });
  const seconds = (performance.now() - start) / 1000;
  const stats = reduced.stats!;
  return { keys: stats.keysAfter, records: reduced.reduced!.recordCount, bytes: stats.bytes, maxError: stats.maxError / real.unitsPerMetre, seconds };
}

function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}

async function main(): Promise<void> {
  const filter = process.env['FIT_TABLE_CLIPS']?.split(',').map((s) => s.trim()).filter(Boolean);
  const clips = (await loadTableClips()).filter((c) => !filter || filter.some((w) => c.name.includes(w)));
  const total = clips.length * TOLERANCES.length * FITS.length;
  const progress = createProgress('fit table', total);
  const rows: Row[] = [];
  let done = 0;
  const started = performance.now();
  for (const real of clips) {
    for (const metres of TOLERANCES) {
      const fits = {} as Record<Fit, Reduction>;
      for (const fit of FITS) {
        fits[fit] = reduce(real, metres, fit);
        progress.update(++done, `${real.source} "${real.name}" at ${tolerance(metres)}, ${fit}`);
      }
      rows.push({ real, metres, keysBefore: real.clip.frameCount * real.clip.skeleton.jointCount * 10, fits });
    }
  }
  progress.stop();
  print(rows, (performance.now() - started) / 1000);
  printSameKeys(clips);
}

/** Rotation-component tolerance of the same-keys comparison (unit-quaternion components). */
const SAME_KEYS_TOLERANCE = 2e-3;

/**
 * Why the key search measures the continuous fit itself: each animated rotation component is
 * reduced by `reduceChannel` with the per-segment fit, then its keys (with their ATKINS orders)
 * are refitted continuously; printed: that refit's largest error over the tolerance, and the
 * keys each fit's own search keeps.
 */
function printSameKeys(clips: readonly TableClip[]): void {
  console.log(`\n## The per-segment fit's keys refitted continuously (rotation components, channel tolerance ${SAME_KEYS_TOLERANCE})\n`);
  console.log('| clip | animated rotation channels | refit error / tolerance: median | p90 | max | channels over | keys, segment search | keys, continuous search |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const real of clips) {
    const { frames, frameCount, frameRate } = real.clip;
    const stride = real.clip.skeleton.jointCount * 10;
    const ratios: number[] = [];
    let segmentKeys = 0, continuousKeys = 0;
    for (let channel = 0; channel < stride; channel++) {
      if (channel % 10 < 3 || channel % 10 >= 7) continue;
      const y = Float64Array.from({ length: frameCount }, (_, f) => frames[f * stride + channel]!);
      if (Math.max(...y) - Math.min(...y) < 1e-6) continue;
      const segment = reduceChannel(y, frameRate, SAME_KEYS_TOLERANCE);
      segmentKeys += segment.keys.length;
      continuousKeys += reduceChannel(y, frameRate, SAME_KEYS_TOLERANCE, { fit: 'continuous' }).keys.length;
      const refit = fitSpline(y, frameRate, segment.keys, { fit: 'continuous', orders: segment.orders });
      ratios.push(measureSplineError(y, frameRate, segment.keys, refit) / SAME_KEYS_TOLERANCE);
    }
    if (ratios.length === 0) continue;
    ratios.sort((a, b) => a - b);
    const at = (p: number): string => ratios[Math.floor(p * (ratios.length - 1))]!.toFixed(1);
    console.log(
      `| ${real.source} · ${real.name} | ${ratios.length} | ${at(0.5)} | ${at(0.9)} | ${at(1)} | ${ratios.filter((r) => r > 1).length} | ` +
        `${segmentKeys} | ${continuousKeys} |`,
    );
  }
}

function print(rows: readonly Row[], seconds: number): void {
  console.log(`# Curve fit of reduceClip: per segment against continuous (every real clip of assets/)\n`);
  console.log(`- node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}; ${rows.length} clip × tolerance rows in ${seconds.toFixed(0)} s`);
  console.log("- segment: each segment fitted alone (C⁰ joins); continuous: one spline per channel, continuity from each key's ATKINS");
  console.log('  order (C², C¹, C⁰); keys per channel summed; bytes = the reduced clip\'s curves and lookup; ratios continuous / segment');
  console.log('  (< 1: continuous smaller); errors = largest model-space joint distance over every joint and frame, mm\n');
  console.log('| clip | frames × joints | tolerance | keys segment | keys continuous | keys cont. / seg. | records seg. / cont. | bytes segment | bytes continuous | bytes cont. / seg. | max error seg. / cont., mm | reduce s seg. / cont. |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const s = r.fits.segment, c = r.fits.continuous;
    console.log(
      `| ${r.real.source} · ${r.real.name} | ${r.real.clip.frameCount} × ${r.real.clip.skeleton.jointCount} | ${tolerance(r.metres)} | ` +
        `${s.keys} | ${c.keys} | ${(c.keys / s.keys).toFixed(2)} | ${s.records} / ${c.records} | ${s.bytes} | ${c.bytes} | ${(c.bytes / s.bytes).toFixed(2)} | ` +
        `${(s.maxError * 1000).toFixed(2)} / ${(c.maxError * 1000).toFixed(2)} | ${s.seconds.toFixed(2)} / ${c.seconds.toFixed(2)} |`,
    );
  }
  console.log('');
  for (const metres of TOLERANCES) {
    const at = rows.filter((r) => r.metres === metres);
    if (at.length === 0) continue;
    const fewer = at.filter((r) => r.fits.continuous.keys < r.fits.segment.keys).length;
    const more = at.filter((r) => r.fits.continuous.keys > r.fits.segment.keys).length;
    const sum = (fit: Fit, field: 'keys' | 'records' | 'bytes'): number => at.reduce((s, r) => s + r.fits[fit][field], 0);
    console.log(
      `- ${tolerance(metres)}: continuous keeps fewer keys on ${fewer} of ${at.length} clips, more on ${more}; continuous / segment: ` +
        `keys ${geometricMean(at.map((r) => r.fits.continuous.keys / r.fits.segment.keys)).toFixed(2)} (geometric mean over clips), ` +
        `${(sum('continuous', 'keys') / sum('segment', 'keys')).toFixed(2)} (all keys together); records ` +
        `${geometricMean(at.map((r) => r.fits.continuous.records / r.fits.segment.records)).toFixed(2)} / ` +
        `${(sum('continuous', 'records') / sum('segment', 'records')).toFixed(2)}; bytes ` +
        `${geometricMean(at.map((r) => r.fits.continuous.bytes / r.fits.segment.bytes)).toFixed(2)} / ` +
        `${(sum('continuous', 'bytes') / sum('segment', 'bytes')).toFixed(2)}`,
    );
  }
  const worst = Math.max(...rows.flatMap((r) => FITS.map((f) => r.fits[f].maxError / r.metres)));
  console.log(`- largest measured error / tolerance over all rows and both fits: ${worst.toFixed(3)} (≤ 1: the bound holds)`);
  const time = (fit: Fit): number => rows.reduce((s, r) => s + r.fits[fit].seconds, 0);
  console.log(`- reduce time over all rows: segment ${time('segment').toFixed(0)} s, continuous ${time('continuous').toFixed(0)} s`);
}

await main();
