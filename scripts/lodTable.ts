/**
 * ATKINS keyframe reduction against uniform decimation on every real clip of assets/,
 * printed as a markdown table (docs/motion-lod.md's "Keyframe reduction" table; issue 7 acceptance:
 * "at the same maximum error, ATKINS-reduced clips keep fewer keys than uniform decimation").
 *
 * For each clip and each tolerance (1 mm, 5 mm, 1 cm of model-space error, at every frame and
 * at 4 instants inside every frame interval, at the joints and on reduceClip's default shell —
 * a tenth of the hip height from each joint, so end joints are bounded too) the clip is reduced twice by `reduceClip` (src/offline/lod/reduceClip.ts): once with
 * `method: 'atkins'` and once with `method: 'uniform'` (keys every k frames per channel, k as
 * large as the channel's tolerance allows). Both go through the same search of the tolerance
 * share per channel and the same model-space measurement, so they meet the same bound; the
 * table compares how many keys each keeps for it.
 *
 * Columns: keys are counted per channel (a clip has `frames × joints × 10` before); ratio =
 * keys after / keys before; ATKINS / uniform < 1 means ATKINS keeps fewer (marked "(more)" when
 * it keeps more), given once over all keys and once over the animated channels only — channels
 * that never change cost both methods their two end keys and would pull every ratio towards 1
 * (RobotExpressive animates 21 to 65 of its 430 channels). Errors are `stats.maxError`: the
 * largest measured model-space distance over all joints, shell points and instants, in
 * millimetres; rotation errors `stats.maxRotationError`: the largest angle between a joint's
 * model-space rotation in the source and the reduction, degrees. Reduce time is the
 * wall time of each `reduceClip` call (ATKINS / uniform), seconds. Under the table, per
 * tolerance: on how many clips ATKINS keeps fewer, as many or more keys, and the ratios pooled.
 *
 * Units: every clip in metres, loaded as test/fixtures/realClips.ts does (the Fox, in
 * centimetres, with `loadGltf(…, { scale: 'cm' })`; the CMU BVH files scaled at import, one
 * CMU unit ≈ 0.056444 m), as test/offline/lod/reduceClip.test.ts measures them.
 *
 * Bytes: the reduced clips report `stats.bytes` and `stats.sourceBytes`; two columns give ATKINS's
 * bytes and source bytes / ATKINS bytes.
 *
 * Usage (the table on stdout, progress on stderr; a few minutes on a 2-core EPYC, most of it
 * the uniform baseline on the 2,752-frame CMU file):
 *   npx tsc -p tsconfig.bench.json && node .bench-build/scripts/lodTable.js [> table.md]
 * LOD_TABLE_CLIPS="Survey,Walk" restricts the run to clips whose name contains one of those words;
 * LOD_TABLE_ASSETS=DIR reads the assets from DIR instead of the repository's assets/.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { type Clip } from '../src/index.js';
import { reduceClip } from '../src/lod.js';
import { loadRealClips } from '../test/fixtures/realClips.js';
import { ASSETS_URL } from '../test/support/assets.js';
import { createProgress, tolerance } from './tableHelpers.js';

/** Model-space tolerances, metres. */
const TOLERANCES = [0.001, 0.005, 0.01];

/** A real clip with the label the table shows for its source. */
interface RealClip {
  readonly clip: Clip;
  /** The clip's name in the table (BVH clips without ".bvh"). */
  readonly name: string;
  readonly source: string;
  readonly unitsPerMetre: number;
}

/** One reduction's figures. */
interface Reduction {
  readonly keys: number;
  /** Metres. */
  readonly maxError: number;
  /** Degrees. */
  readonly maxRotationError: number;
  readonly seconds: number;
  /** `stats.bytes` and `stats.sourceBytes` when the reducer reports them. */
  readonly bytes?: number;
  readonly sourceBytes?: number;
}

/** One row of the table. */
interface Row {
  readonly real: RealClip;
  readonly metres: number;
  readonly keysBefore: number;
  /** Channels that never change: both methods keep their two end keys. */
  readonly constantChannels: number;
  readonly atkins: Reduction;
  readonly uniform: Reduction;
}

/** The assets folder: LOD_TABLE_ASSETS, else the repository's assets/. */
function assetsFolder(): URL {
  const folder = process.env['LOD_TABLE_ASSETS'];
  if (folder) return pathToFileURL(folder.endsWith('/') ? folder : `${folder}/`);
  return ASSETS_URL;
}

/** The shared fixture's clips, labelled as the table shows them (BVH clips without ".bvh"). */
async function loadTableClips(): Promise<RealClip[]> {
  return (await loadRealClips(assetsFolder())).map(({ clip, file, unitsPerMetre }) => file.endsWith('.bvh')
    ? { clip, name: clip.name.replace(/\.bvh$/, ''), source: 'CMU BVH', unitsPerMetre }
    : { clip, name: clip.name, source: file.replace(/\.glb$/, ''), unitsPerMetre });
}

/**
 * Channels (of `frames × joints × 10`) whose value never changes: every frame equals frame 0,
 * a quaternion up to its sign (the reducer flips signs to one hemisphere first). Both methods
 * keep exactly two keys on them, so they are counted apart to compare the animated channels.
 */
function countConstantChannels(clip: Clip): number {
  const { frames, frameCount } = clip;
  const poseSize = clip.skeleton.jointCount * 10;
  let count = 0;
  for (let j = 0; j < clip.skeleton.jointCount; j++) {
    const o = j * 10;
    for (const c of [0, 1, 2, 7, 8, 9]) {
      let constant = true;
      for (let f = 1; f < frameCount && constant; f++) constant = frames[f * poseSize + o + c] === frames[o + c];
      if (constant) count++;
    }
    const sameRotation = [true, true, true, true];
    for (let f = 1; f < frameCount; f++) {
      const p = f * poseSize + o;
      const sign = frames[p + 3]! * frames[o + 3]! + frames[p + 4]! * frames[o + 4]! + frames[p + 5]! * frames[o + 5]! + frames[p + 6]! * frames[o + 6]! < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) if (sign * frames[p + 3 + c]! !== frames[o + 3 + c]) sameRotation[c] = false;
    }
    count += sameRotation.filter(Boolean).length;
  }
  return count;
}

function reduce(real: RealClip, metres: number, method: 'atkins' | 'uniform'): Reduction {
  const start = performance.now();
  const reduced = reduceClip(real.clip, { tolerance: metres * real.unitsPerMetre, method });
  const seconds = (performance.now() - start) / 1000;
  const stats = reduced.stats!;
  const memory = stats as { bytes?: number; sourceBytes?: number };
  return {
    keys: stats.keysAfter, maxError: stats.maxError / real.unitsPerMetre, maxRotationError: stats.maxRotationError ?? Number.NaN, seconds,
    ...(memory.bytes === undefined ? {} : { bytes: memory.bytes }), ...(memory.sourceBytes === undefined ? {} : { sourceBytes: memory.sourceBytes }),
  };
}

function millimetres(metres: number): string {
  return (metres * 1000).toFixed(2);
}

async function main(): Promise<void> {
  const filter = process.env['LOD_TABLE_CLIPS']?.split(',').map((s) => s.trim()).filter(Boolean);
  const clips = (await loadTableClips()).filter((c) => !filter || filter.some((w) => c.name.includes(w)));
  const total = clips.length * TOLERANCES.length * 2;
  const progress = createProgress('lod table', total);
  const rows: Row[] = [];
  let done = 0;
  const started = performance.now();
  for (const real of clips) {
    const constants = countConstantChannels(real.clip);
    for (const metres of TOLERANCES) {
      const label = `${real.source} "${real.name}" at ${tolerance(metres)}`;
      const atkins = reduce(real, metres, 'atkins');
      progress.update(++done, `${label}, ATKINS`);
      const uniform = reduce(real, metres, 'uniform');
      progress.update(++done, `${label}, uniform`);
      rows.push({ real, metres, keysBefore: real.clip.frameCount * real.clip.skeleton.jointCount * 10, constantChannels: constants, atkins, uniform });
    }
  }
  progress.stop();
  const seconds = (performance.now() - started) / 1000;
  print(rows, seconds);
}

function print(rows: readonly Row[], seconds: number): void {
  console.log(`# ATKINS keyframe reduction against uniform decimation (reduceClip, every real clip of assets/; bound at the frames and between them, default shell)\n`);
  console.log(`- node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}; ${rows.length} clip × tolerance rows in ${seconds.toFixed(0)} s`);
  console.log('- keys counted per channel (frames × joints × 10 before); ratio = keys after / before; ATKINS / uniform = keys after of');
  console.log('  ATKINS / keys after of uniform (< 1: ATKINS keeps fewer), then the same without the channels that never change (both');
  console.log('  keep their 2 end keys), over the animated channels (their count after the frames × joints); errors = largest');
  console.log('  model-space distance over every joint, shell point (default distance) and instant (frames and u = 0.2 … 0.8');
  console.log('  between them), mm; rotation = largest model-space joint rotation error, degrees; both methods meet the same');
  console.log('  bound through the same search\n');
  const bytes = rows.every((r) => r.atkins.bytes !== undefined && r.atkins.sourceBytes !== undefined);
  console.log('| clip | frames × joints (animated channels) | tolerance | ATKINS keys / before | uniform keys / before | ATKINS / uniform (keys) | ATKINS / uniform, animated channels | max error ATKINS / uniform, mm | max rotation error ATKINS / uniform, ° | ' +
    `${bytes ? 'ATKINS bytes | source bytes / ATKINS bytes | ' : ''}reduce time ATKINS / uniform, s |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ${bytes ? '---: | ---: | ' : ''}---: |`);
  for (const r of rows) {
    const a = r.atkins.keys / r.keysBefore, u = r.uniform.keys / r.keysBefore;
    const relative = r.atkins.keys / r.uniform.keys;
    const fixed = 2 * r.constantChannels;
    const animated = (r.atkins.keys - fixed) / (r.uniform.keys - fixed);
    const mark = r.atkins.keys > r.uniform.keys ? ' (more)' : '';
    const channels = r.keysBefore / r.real.clip.frameCount - r.constantChannels;
    console.log(
      `| ${r.real.source} · ${r.real.name} | ${r.real.clip.frameCount} × ${r.real.clip.skeleton.jointCount} (${channels}) | ${tolerance(r.metres)} | ` +
        `${(100 * a).toFixed(2)} % | ${(100 * u).toFixed(2)} % | ${relative.toFixed(3)} (${r.atkins.keys} / ${r.uniform.keys})${mark} | ${animated.toFixed(2)} | ` +
        `${millimetres(r.atkins.maxError)} / ${millimetres(r.uniform.maxError)} | ${r.atkins.maxRotationError.toFixed(2)} / ${r.uniform.maxRotationError.toFixed(2)} | ` +
        (bytes ? `${r.atkins.bytes!.toLocaleString('en-US')} | ${(r.atkins.sourceBytes! / r.atkins.bytes!).toFixed(1)}:1 | ` : '') +
        `${r.atkins.seconds.toFixed(2)} / ${r.uniform.seconds.toFixed(2)} |`,
    );
  }
  console.log('');
  for (const metres of TOLERANCES) {
    const at = rows.filter((r) => r.metres === metres);
    if (at.length === 0) continue;
    const fewer = at.filter((r) => r.atkins.keys < r.uniform.keys).length;
    const equal = at.filter((r) => r.atkins.keys === r.uniform.keys).length;
    const more = at.filter((r) => r.atkins.keys > r.uniform.keys);
    const geometric = Math.exp(at.reduce((s, r) => s + Math.log(r.atkins.keys / r.uniform.keys), 0) / at.length);
    const atkinsKeys = at.reduce((s, r) => s + r.atkins.keys, 0), uniformKeys = at.reduce((s, r) => s + r.uniform.keys, 0);
    const fixed = at.reduce((s, r) => s + 2 * r.constantChannels, 0);
    const rotation = Math.max(...at.map((r) => r.atkins.maxRotationError));
    console.log(
      `- ${tolerance(metres)}: ATKINS keeps fewer keys than uniform on ${fewer} of ${at.length} clips, as many on ${equal}, more on ${more.length}` +
        (more.length ? ` (${more.map((r) => `${r.real.name}: ${r.atkins.keys} vs ${r.uniform.keys}`).join(', ')})` : '') +
        `; ATKINS / uniform: geometric mean over clips ${geometric.toFixed(2)}, all clips' keys together ${(atkinsKeys / uniformKeys).toFixed(2)}` +
        ` (animated channels ${((atkinsKeys - fixed) / (uniformKeys - fixed)).toFixed(2)}); largest ATKINS rotation error ${rotation.toFixed(2)}°`,
    );
  }
  const worst = Math.max(...rows.map((r) => Math.max(r.atkins.maxError / r.metres, r.uniform.maxError / r.metres)));
  console.log(`- largest measured error / tolerance over all rows and both methods: ${worst.toFixed(3)} (≤ 1: the bound holds)`);
}

await main();
