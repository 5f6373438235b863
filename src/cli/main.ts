/**
 * The `bitanim` command line.
 *
 *   bitanim --version
 *   bitanim inspect FILE [--frame-rate N] [--scale S | --height M] [--map OTHER] [--json]
 *   bitanim lod FILE [--tolerance M] [--distance M] [--method atkins|uniform] [--scale S]
 *                    [--frame-rate N] [--clip NAME]… [--no-quantize] [--out FILE.glb|.gltf] [--no-compress] [--json] [--no-progress]
 *
 * `inspect` prints what bitanim reads from a glTF (.glb / .gltf, with buffers beside it, meshopt
 * or quantized: see loadGltfFile) or BVH file: skeletons, clips, meshes and warnings; with
 * `--map OTHER`, then the joint map a clip of OTHER would play through on the file's first
 * skeleton (see ./map.ts); `--json` prints it all as one object. `lod` reduces the file's
 * clips to keys within a model-space tolerance (metres) and prints keys and error per clip
 * (see ./lod.ts); `--out` writes the result as glTF. A bad file or option prints one line naming the problem (on `err`) and exits 1; so do
 * an input that is not a regular file (a device, FIFO or directory, symlinks followed) or is
 * above 512 MiB, and an `--out` that is the input under another name, cannot be written
 * (its folder missing or read-only) or is a symlink that dangles or leaves its folder, checked
 * before any work (see ./files.ts); `--out` is written whole or not at all (a temporary file
 * beside it, then a rename).
 *
 * `--scale` means the same in every command and format: the file's unit, as metres per unit or
 * a unit name (m, cm, mm, in, ft); lengths are then reported in metres. Without it glTF is in
 * metres (its specification) and BVH's unit is unknown ("file units"); a skeleton too large
 * for metres is warned about, naming the likely unit and the flag (see ./units.ts).
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { cac } from 'cac';
import cliProgress from 'cli-progress';
import { AnimationError } from '../assets/AnimationError.js';
import { parseBvh } from '../import/bvh.js';
import { loadGltfFileBytes } from '../import/gltfFile.js';
import { parseScale, SCALE_EXPECTED } from '../import/units.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { restFigureHeight } from '../import/figureHeight.js';
import { describeAsset, figureMeshes, inspectJson, type InspectedAsset } from './describe.js';
import { describeJointMap, jointMapJson, jointMapReport, type JointMapReport } from './map.js';
import { unitsWarning } from './units.js';
import { readInputFile } from './files.js';
import {
  formatLodColumns, formatLodHeading, formatLodRow, formatLodTotal, formatLodWritten, lodReportJson, nameWidth, reduceFile,
  type LodHooks, type LodOptions, type LodSettings,
} from './lod.js';

/** Options of `inspect`. */
export interface InspectOptions {
  /** glTF: resampling rate of clips (default: each clip at its keys' own rate, see `loadGltf`). */
  frameRate?: number;
  /**
   * Metres per file unit, or a unit name (`m`, `cm`, `mm`, `in`, `ft`), as `bitanim lod` takes
   * it: glTF and BVH are both scaled to metres at import. Without it, 1, and a skeleton too
   * large for metres gets a `units:` warning (see ./units.ts).
   */
  scale?: number | string;
  /**
   * The rest figure's height in metres (finite, > 0): the file is scaled so its first
   * skeleton's rest figure (skinned meshes, else joints) is that tall (`loadGltf`'s `height`;
   * a BVH is read again at the scale that gives it). Not with `scale`.
   */
  height?: number;
}

/**
 * The package's version, from its package.json: two folders up from this module both in the
 * sources (src/cli/main.ts) and in the build (dist/cli/main.js).
 */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return String(json.version);
}

/**
 * Adds the units warning (see ./units.ts) to an asset read without a scale or height, in the
 * command's words (its flags) instead of the importer's (its options).
 */
function withUnitsWarning(asset: InspectedAsset, format: 'gltf' | 'bvh', given: boolean): InspectedAsset {
  const warnings = asset.warnings.filter((w) => !w.startsWith('units: '));
  const skeleton = asset.skeletons[0];
  const figure = skeleton === undefined ? null : restFigureHeight(skeleton, figureMeshes(asset, 0)).height;
  const warning = !given && skeleton !== undefined ? unitsWarning(skeleton, format, figure ?? undefined) : null;
  return { ...asset, warnings: warning === null ? warnings : [...warnings, warning] };
}

/**
 * Reads and imports `file` by its extension; throws AnimationError for what it cannot read,
 * including anything but a regular file and files above `MAX_INPUT_BYTES` (see ./files.ts).
 */
export async function importFile(file: string, options: InspectOptions = {}): Promise<InspectedAsset> {
  const { bytes } = await readInputFile(file, 'inspect');
  const scale = options.scale === undefined ? 1 : parseScale(options.scale);
  if (Number.isNaN(scale)) {
    throw new AnimationError('inspect', [{ path: '--scale', message: `is ${JSON.stringify(options.scale) ?? String(options.scale)}: must be ${SCALE_EXPECTED}` }]);
  }
  const height = options.height;
  if (height !== undefined && (typeof height !== 'number' || !Number.isFinite(height) || height <= 0)) {
    throw new AnimationError('inspect', [{ path: '--height', message: `is ${String(height)}: must be a finite number > 0 (metres)` }]);
  }
  if (height !== undefined && options.scale !== undefined) {
    throw new AnimationError('inspect', [{ path: '--height', message: 'is given with --scale: --height sets the scale (the rest figure that tall); give one of them' }]);
  }
  const given = options.scale !== undefined || height !== undefined;
  const extension = extname(file).toLowerCase();
  if (extension === '.glb' || extension === '.gltf') {
    const rate = options.frameRate === undefined ? {} : { frameRate: options.frameRate };
    const units = height !== undefined ? { height } : options.scale !== undefined ? { scale } : {};
    // External buffers (a .gltf with its .bin) are read from the file's folder only.
    return withUnitsWarning(await loadGltfFileBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), file, { ...rate, ...units }), 'gltf', given);
  }
  if (extension === '.bvh') {
    const text = bytes.toString('utf8');
    let bvh = parseBvh(text, { scale, name: basename(file, extension) });
    if (height !== undefined) {
      // Lengths are linear in the scale: read again at the one that makes the joints that tall.
      const figure = restFigureHeight(bvh.skeleton).height;
      if (!(figure > 0)) throw new AnimationError('inspect', [{ path: '--height', message: 'cannot be met: the rest figure has no height (its joints lie at one point)' }]);
      bvh = parseBvh(text, { scale: height / figure, name: basename(file, extension) });
    }
    return withUnitsWarning({ skeletons: [bvh.skeleton], clips: [bvh.clip], warnings: bvh.warnings }, 'bvh', given);
  }
  throw new AnimationError('inspect', [{ path: file, message: 'is not .glb, .gltf or .bvh' }]);
}

/** Where {@link run} writes besides its report lines. */
export interface RunIO {
  /** Error and warning lines (default: the `out` of {@link run}); `bin.ts` passes stderr. */
  err?: (line: string) => void;
  /**
   * Stream for `lod`'s progress bar, drawn only when it is a terminal (`isTTY`) and not turned
   * off by `--no-progress`. Default null: no bar (`bin.ts` passes stderr).
   */
  progress?: NodeJS.WritableStream | null;
}

/** What --scale takes, the same for every command and format. */
const SCALE_HELP = 'The file\'s unit: metres per file unit (0.01; 0.056444 for CMU BVH) or m, cm, mm, in, ft. Default: glTF in metres, BVH unknown; either warns when the skeleton is too large for metres';

/** What `bitanim lod --help` says under Usage. */
const LOD_USAGE = `lod <file> [options]

  Reduces every clip of a glTF (.glb, .gltf) or BVH file to keys (ATKINS) so that no joint
  moves more than --tolerance metres from the original on any frame, and prints per clip the
  keys before and after, their ratio, and the max and mean error in metres.

  Units: --tolerance, --distance and the errors are metres. --scale gives the file's unit, as
  metres per unit (0.01; 0.056444 for CMU BVH) or m, cm, mm, in, ft, as in every command.
  Without it glTF is taken for metres and a BVH file's unit is unknown (its lengths are then
  printed as file units); a skeleton too large for metres gets a warning naming the likely
  unit. BVH is scaled to metres; glTF keeps its units (--out too: a drop-in for the input) and
  the tolerance is converted. glTF clips are resampled first, each at its keys' own rate (or a
  multiple, within 0.1 mm of the file's keys) or at --frame-rate; errors are measured on those
  frames. --out is checked (its folder exists and is writable) before any work; it writes a
  small file (tracks quantized and meshopt-compressed, EXT_meshopt_compression required: three.js
  reads it with GLTFLoader.setMeshoptDecoder), measured against the source and within the
  tolerance, or with --no-compress plain float CUBICSPLINE samplers.`;


/** Options whose value may be a negative number, which the argument parser would take for a flag. */
const NUMERIC_OPTIONS = new Set(['--tolerance', '--distance', '--scale', '--frame-rate', '--height']);

/**
 * Runs the command line with `argv` (without node and script); returns the exit code (0, or 1
 * after printing one line on `io.err` for a bad file, option or command).
 */
export async function run(argv: readonly string[], out: (line: string) => void = console.log, io: RunIO = {}): Promise<number> {
  const err = io.err ?? out;
  const cli = cac('bitanim');
  let pending: Promise<number> = Promise.resolve(0);
  const fail = (file: string) => (error: unknown): number => {
    err(`bitanim: ${error instanceof AnimationError ? error.message : `${file}: ${error instanceof Error ? error.message : String(error)}`}`);
    return 1;
  };
  cli
    .command('inspect <file>', 'Print the skeletons, clips, meshes and warnings bitanim reads from a glTF or BVH file')
    .option('--frame-rate <rate>', 'glTF: resample clips at this rate (Hz) (default: each clip at its keys\' own rate, within 0.1 mm)')
    .option('--scale <scale>', `${SCALE_HELP}. glTF and BVH are scaled to metres`)
    .option('--height <metres>', 'Scale the file so its rest figure (skinned meshes, else joints) is this tall, in metres (1.8 for a person); instead of --scale')
    .option('--map <other>', 'Also print the joint map of OTHER\'s first skeleton (the clip\'s: .glb, .gltf or .bvh) onto this file\'s first skeleton (the character\'s), as a clip of OTHER would play on it: the rule (names or humanoid), the reference, each pair, the joints left unpaired. OTHER is read in its own units (the map does not depend on them)')
    .option('--json', 'Print one JSON object instead of the lines')
    .example('  $ bitanim inspect Fox.glb --scale cm')
    .example('  $ bitanim inspect RobotExpressive.glb --map cmu_131_01_start_walk_stop.bvh')
    .action((file: string, flags: Record<string, unknown>) => {
      pending = inspect(file, flags, out).catch(fail(file));
    });
  cli
    .command('lod <file>', 'Reduce the clips of a glTF or BVH file to keys (ATKINS) within a model-space error; print keys and error per clip')
    .option('--tolerance <metres>', 'Largest joint position error over every frame, in metres', { default: 0.005 })
    .option('--distance <metres>', 'Also bound the error at points this far from each joint, in metres, so end joints cannot turn freely (default: a tenth of the hip height, or of the skeleton\'s size without hips; ozz-animation uses 0.1; 0: joints only)')
    .option('--method <method>', 'atkins: keys where the curve changes; uniform: every k-th frame (the baseline)', { default: 'atkins' })
    .option('--scale <scale>', `${SCALE_HELP}. BVH is scaled to metres; glTF keeps its units and the tolerance is converted`)
    .option('--frame-rate <rate>', 'glTF: resample clips at this rate (Hz) before reducing (default: each clip at its keys\' own rate, within 0.1 mm)')
    .option('--clip <name>', 'Reduce only this clip (repeat for more)')
    .option('--out <file>', 'Write the result as .glb or .gltf: glTF input keeps its document with the reduced clips (small: see --compress); BVH input gives the skeleton and clip, in metres (file units without --scale). Its folder must exist and be writable: checked before any work')
    .option('--quantize', 'Store the curves in 16 bits where each channel\'s share of the tolerance allows (the default; about 0.6× the bytes of 32-bit curves, sampled as fast)')
    .option('--no-quantize', 'Store every curve in 32 bits')
    .option('--compress', 'With --out: the smallest file within the tolerance: per track dropped, constant, uniform frames or the reduced keys, quantized and meshopt-compressed (EXT_meshopt_compression; three.js reads it with MeshoptDecoder) (the default)')
    .option('--no-compress', 'With --out: plain float CUBICSPLINE samplers, readable without extensions')
    .option('--json', 'Print one JSON object instead of the table')
    .option('--no-progress', 'Do not draw the progress bar (drawn on stderr when it is a terminal)')
    .usage(LOD_USAGE)
    .example('  $ bitanim lod Fox.glb --scale cm --tolerance 0.005 --out Fox.lod.glb')
    .example('  $ bitanim lod walk.bvh --scale 0.056444 --tolerance 0.002 --distance 0.1 --json')
    .action((file: string, flags: Record<string, unknown>) => {
      pending = lod(file, flags, out, err, flags['progress'] === false ? null : io.progress ?? null).catch(fail(file));
    });
  cli.option('-v, --version', 'Print the version of bitanim');
  // cac shows `(default: true)` for a `--no-…` flag, which reads as if the bar were off.
  cli.help((sections) => sections.map((section) => ({ ...section, body: section.body.replace(/(--no-(?:progress|quantize|compress) .*?) \(default: true\)/g, '$1') })));
  try {
    cli.parse(['node', 'bitanim', ...joinNegativeValues(argv)], { run: false });
    if (cli.options['version'] === true && cli.options['help'] !== true) {
      out(`bitanim ${packageVersion()}`);
      return 0;
    }
    if (!cli.matchedCommand) {
      if (!cli.options['help']) cli.outputHelp();
      return cli.options['help'] ? 0 : 1;
    }
    await cli.runMatchedCommand();
  } catch (error) {
    // cac's own faults: unknown option, missing value or argument.
    err(`bitanim: ${error instanceof Error ? asTyped(error.message, argv) : String(error)}`);
    return 1;
  }
  return pending;
}

/**
 * cac names an unknown option camel-cased (`--mapScale` for `--map-scale`): name it as it was
 * typed, the argument whose camel case that is (`--map-scale=2` too).
 */
function asTyped(message: string, argv: readonly string[]): string {
  return message.replace(/^Unknown option `--([^`]+)`$/, (whole, name: string) => {
    const typed = argv.find((arg) => arg.startsWith('--') && arg.slice(2).split('=')[0].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) === name);
    return typed === undefined ? whole : `Unknown option \`${typed.split('=')[0]}\``;
  });
}

/** `--tolerance -1` → `--tolerance=-1`, so the value reaches validation instead of parsing as a flag. */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = argv[i + 1];
    if (NUMERIC_OPTIONS.has(arg) && next !== undefined && /^-(\d|\.\d|inf)/i.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * `bitanim inspect`: the file's report, then with `--map OTHER` the joint map of OTHER's first
 * skeleton onto the file's (see ./map.ts); `--json` prints both as one object (the map under `map`).
 */
async function inspect(file: string, flags: Record<string, unknown>, out: (line: string) => void): Promise<number> {
  const other = flags['map'];
  if (Array.isArray(other)) throw new AnimationError('inspect', [{ path: '--map', message: `is given ${other.length} times: give one file whose skeleton to map` }]);
  const options: InspectOptions = {
    ...(flags['frameRate'] === undefined ? {} : { frameRate: Number(flags['frameRate']) }),
    ...(flags['scale'] === undefined ? {} : { scale: flags['scale'] as number | string }),
    ...(flags['height'] === undefined ? {} : { height: Number(flags['height']) }),
  };
  const asset = await importFile(file, options);
  let map: JointMapReport | null = null;
  if (other !== undefined) {
    const source = await importFile(String(other));
    const firstSkeleton = (name: string, skeletons: InspectedAsset['skeletons'], path: string): Skeleton => {
      const skeleton = skeletons[0];
      if (skeleton === undefined) throw new AnimationError('inspect', [{ path, message: `${name} has no skeleton: a joint map pairs the joints of two skeletons` }]);
      return skeleton;
    };
    map = jointMapReport(file, firstSkeleton(file, asset.skeletons, file), String(other), firstSkeleton(String(other), source.skeletons, `--map ${String(other)}`));
  }
  if (flags['json'] === true) {
    const json = inspectJson(file, asset, options.scale === undefined ? 1 : parseScale(options.scale));
    out(JSON.stringify(map === null ? json : { ...json, map: jointMapJson(map) }, null, 2));
    return 0;
  }
  for (const line of describeAsset(file, asset)) out(line);
  if (map !== null) for (const line of describeJointMap(map)) out(line);
  return 0;
}

/** `bitanim lod`: heading once the clips are known, a row as each clip finishes, a progress bar per clip on a terminal. */
async function lod(
  file: string, flags: Record<string, unknown>, out: (line: string) => void, err: (line: string) => void, stream: NodeJS.WritableStream | null,
): Promise<number> {
  const clipFlag = flags['clip'];
  const options: LodOptions = {
    tolerance: flags['tolerance'] as number,
    distance: flags['distance'] as number,
    method: flags['method'] as LodOptions['method'],
    ...(flags['scale'] === undefined ? {} : { scale: flags['scale'] as number | string }),
    frameRate: flags['frameRate'] as number,
    quantize: flags['quantize'] !== false,
    compress: flags['compress'] !== false,
    ...(clipFlag === undefined ? {} : { clips: (Array.isArray(clipFlag) ? clipFlag : [clipFlag]).map(String) }),
    ...(flags['out'] === undefined ? {} : { out: String(flags['out']) }),
  };
  const json = flags['json'] === true;
  const tty = (stream as { isTTY?: boolean } | null)?.isTTY === true;
  let width = 4;
  let units: LodSettings['units'] = 'm';
  let bar: cliProgress.SingleBar | null = null;
  const stopBar = (): void => {
    bar?.stop();
    bar = null;
  };
  const hooks: LodHooks = {
    onClips(settings, clips) {
      width = nameWidth(clips.map((c) => c.name));
      if (json) return;
      units = settings.units;
      out(formatLodHeading(settings, clips.length));
      out(formatLodColumns(width, units));
    },
    onClipStart(clip, index, count) {
      if (!tty) return;
      bar = new cliProgress.SingleBar({
        stream: stream!, format: '{clip} ({index}/{count}) |{bar}| search pass {pass}: {percentage}% of the channels, {duration_formatted}',
        barsize: 24, hideCursor: true, clearOnComplete: true, fps: 10,
      }, cliProgress.Presets.shades_classic);
      bar.start(1, 0, { clip: clip.name, index: index + 1, count, pass: 1 });
    },
    onProgress(done, total) {
      // `done` counts channels over all passes of reduceClip's search; the bar shows the current pass.
      if (!bar) return;
      const pass = Math.floor((done - 1) / total) + 1;
      bar.setTotal(total);
      bar.update(done - (pass - 1) * total, { pass });
    },
    onClipDone(report) {
      stopBar();
      if (!json) out(formatLodRow(report, width, units));
    },
  };
  try {
    const report = await reduceFile(file, options, hooks);
    if (json) out(JSON.stringify(lodReportJson(report), null, 2));
    else {
      if (report.clips.length > 1) out(formatLodTotal(report.clips, width, units));
      if (report.written) out(formatLodWritten(report.written, report));
    }
    // The units warning and the writer's are printed whole; the importer's counted.
    const whole = (w: string): boolean => w.startsWith('--out:') || w.startsWith('units:');
    const imported = report.warnings.filter((w) => !whole(w)).length;
    if (imported > 0 && !json) err(`bitanim: lod: ${file}: ${imported} import warning${imported === 1 ? '' : 's'} (bitanim inspect lists them)`);
    for (const w of report.warnings) if (whole(w)) err(`bitanim: lod: ${w}`);
    return 0;
  } finally {
    stopBar();
  }
}
