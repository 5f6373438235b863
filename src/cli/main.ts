/**
 * The `bitanim` command line.
 *
 *   bitanim inspect FILE [--frame-rate N] [--scale S]
 *
 * prints what bitanim reads from a glTF (.glb / .gltf) or BVH file: skeletons, clips, meshes
 * and warnings. A file bitanim cannot read prints one line naming the problem and exits 1.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { cac } from 'cac';
import { AnimationError } from '../assets/AnimationError.js';
import { parseBvh } from '../import/bvh.js';
import { loadGltf } from '../import/gltf.js';
import { describeAsset, type InspectedAsset } from './describe.js';

/** Options of `inspect`. */
export interface InspectOptions {
  /** glTF: resampling rate of clips (default 30). */
  frameRate?: number;
  /** BVH: unit scale applied to offsets and positions (default 1). */
  scale?: number;
}

/** Reads and imports `file` by its extension; throws AnimationError for what it cannot read. */
export async function importFile(file: string, options: InspectOptions = {}): Promise<InspectedAsset> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new AnimationError('inspect', [{ path: file, message: `cannot be read (${error.code ?? error.message})` }]);
  });
  const extension = extname(file).toLowerCase();
  if (extension === '.glb' || extension === '.gltf') {
    return loadGltf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { frameRate: options.frameRate ?? 30 });
  }
  if (extension === '.bvh') {
    const { skeleton, clip, warnings } = parseBvh(bytes.toString('utf8'), { scale: options.scale ?? 1, name: basename(file, extension) });
    return { skeletons: [skeleton], clips: [clip], warnings };
  }
  throw new AnimationError('inspect', [{ path: file, message: 'is not .glb, .gltf or .bvh' }]);
}

/** Runs the command line with `argv` (without node and script); returns the exit code. */
export async function run(argv: readonly string[], out: (line: string) => void = console.log): Promise<number> {
  const cli = cac('bitanim');
  let pending: Promise<number> = Promise.resolve(0);
  cli
    .command('inspect <file>', 'Print the skeletons, clips, meshes and warnings bitanim reads from a glTF or BVH file')
    .option('--frame-rate <rate>', 'glTF: resample clips at this rate (Hz)', { default: 30 })
    .option('--scale <scale>', 'BVH: unit scale for offsets and positions (e.g. 0.01 for centimetres)', { default: 1 })
    .action((file: string, flags: { frameRate: number; scale: number }) => {
      pending = importFile(file, { frameRate: Number(flags.frameRate), scale: Number(flags.scale) }).then(
        (asset) => {
          for (const line of describeAsset(file, asset)) out(line);
          return 0;
        },
        (error: unknown) => {
          out(`bitanim: ${error instanceof AnimationError ? error.message : `${file}: ${String(error)}`}`);
          return 1;
        },
      );
    });
  cli.help();
  cli.parse(['node', 'bitanim', ...argv], { run: false });
  if (!cli.matchedCommand) {
    if (!cli.options['help']) cli.outputHelp();
    return cli.options['help'] ? 0 : 1;
  }
  await cli.runMatchedCommand();
  return pending;
}
