/**
 * `loadGltfFile`: a glTF file from disk (Node), with its external buffers read from the file's
 * folder and never from anywhere else.
 *
 * **What is read.** The file itself (a regular file, symlinks followed, at most
 * {@link MAX_GLTF_FILE_BYTES}), then each external buffer URI (`"uri": "Fox.bin"`) as a path
 * relative to the file's folder: percent-decoded, resolved, and read only when it stays inside
 * that folder (subfolders allowed). So is each image a skinned mesh's base colour texture uses
 * (its bytes handed on, never decoded); other images are never read.
 *
 * **What is refused**, with an {@link AnimationError} (`where`: `loadGltfFile`) naming the file
 * and the URI, before anything is opened for that URI:
 * 1. a URI with a scheme (`file:`, `http:`, `C:`…) other than `data:` (which is decoded, not read);
 * 2. an absolute path (`/etc/passwd`, `\\server\share`, `%2Fetc%2Fpasswd` once decoded);
 * 3. a path that resolves outside the folder (`../secret.bin`, `a/../../secret.bin`);
 * 4. a path inside the folder whose real path (symlinks followed) is outside it;
 * 5. anything that is not a regular file (a directory, FIFO or device: never opened blocking).
 * A resource is read up to its buffer's declared `byteLength`.
 *
 * Node builtins are taken from `process.getBuiltinModule` (`../memory/environment.ts`), so this
 * module imports nothing from Node and the browser build stays free of it.
 */
import type { Stats } from 'node:fs';
import { AnimationError } from '../assets/AnimationError.js';
import { shownValue } from '../assets/limits.js';
import { nodeBuiltin } from '../memory/environment.js';
import { loadGltfWith, type GltfOptions, type GltfResult } from './gltf.js';
import type { ResourceReader } from './gltf/resources.js';

/** The `where` of the errors of {@link loadGltfFile} about files and URIs (the document's own faults are `loadGltf`'s). */
const WHERE = 'loadGltfFile';

/** Largest glTF file {@link loadGltfFile} reads: 512 MiB, as the `bitanim` command line. */
export const MAX_GLTF_FILE_BYTES = 512 * 1024 * 1024;

type Fs = typeof import('node:fs');
type Path = typeof import('node:path');

/**
 * Reads a `.glb` or `.gltf` file and the buffers it refers to, from the file's folder only,
 * into skeletons, clips and skinned meshes (what {@link loadGltf} returns, with the same
 * options). Node only (in a browser use `loadGltfUrl`). Meshopt-compressed and quantized files
 * are decoded.
 *
 * External buffer URIs are paths relative to the file's folder: a URI with a scheme other than
 * `data:`, an absolute path, a `../` that leaves the folder, or a symlink that points out of it
 * is refused before it is opened, so nothing outside the folder is read. The images of skinned
 * meshes' base colour textures are read the same way (bytes, not decoded); others are not.
 *
 * @param file - Path of the `.glb` or `.gltf` file.
 * @throws AnimationError (`loadGltfFile`) naming the file and the URI for a refused or unreadable
 * resource, and for a file that is missing, not a regular file or above 512 MiB; and
 * `loadGltf`'s errors for the document itself.
 * @example
 * const fox = await loadGltfFile('assets/Fox/Fox.gltf', { scale: 'cm' }); // reads Fox.bin beside it
 */
export async function loadGltfFile(file: string, options: GltfOptions = {}): Promise<GltfResult> {
  const fs = nodeBuiltin<Fs>('node:fs');
  if (fs === null) throw new AnimationError(WHERE, [{ path: 'file', message: 'needs Node (node:fs): in a browser use loadGltfUrl' }]);
  if (typeof file !== 'string' || file === '') throw new AnimationError(WHERE, [{ path: 'file', message: `is ${shownValue(file)}: must be a file path` }]);
  if (typeof options !== 'object' || options === null) throw new AnimationError(WHERE, [{ path: 'options', message: `is ${options === null ? 'null' : typeof options}: must be an object or omitted` }]);
  const bytes = await readRegularFile(fs, file, MAX_GLTF_FILE_BYTES, (message) => refuse(file, message), true);
  return loadGltfFileBytes(bytes, file, options);
}

/**
 * {@link loadGltf} on `bytes` already read from `file`, with external buffers read as
 * {@link loadGltfFile} reads them (from `file`'s folder only). For the command line, which
 * reads the file itself.
 */
export async function loadGltfFileBytes(bytes: Uint8Array, file: string, options: GltfOptions = {}): Promise<GltfResult> {
  const fs = nodeBuiltin<Fs>('node:fs');
  const path = nodeBuiltin<Path>('node:path');
  return loadGltfWith(bytes, options, fs && path ? folderReader(fs, path, file) : null);
}

/**
 * Every external resource of a `.gltf` file's JSON — buffers and images, by URI as the file
 * writes it — read under {@link loadGltfFile}'s folder rules. For the command line's `--out`,
 * which writes the whole document back (images the importer never reads included).
 * @throws AnimationError (`loadGltfFile`) for a refused or unreadable URI.
 */
export async function readGltfFileResources(json: unknown, file: string): Promise<Record<string, Uint8Array>> {
  const fs = nodeBuiltin<Fs>('node:fs');
  const path = nodeBuiltin<Path>('node:path');
  const out: Record<string, Uint8Array> = {};
  if (fs === null || path === null || typeof json !== 'object' || json === null) return out;
  const read = folderReader(fs, path, file);
  for (const key of ['buffers', 'images'] as const) {
    const list = (json as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const def = list[i] as { uri?: unknown; byteLength?: unknown } | null;
      const uri = def?.uri;
      if (typeof uri !== 'string' || /^data:/i.test(uri) || uri in out) continue;
      const limit = key === 'buffers' && typeof def?.byteLength === 'number' ? def.byteLength : MAX_GLTF_FILE_BYTES;
      out[uri] = await read(uri, `${key}[${i}].uri`, limit);
    }
  }
  return out;
}

function refuse(file: string, message: string): never {
  throw new AnimationError(WHERE, [{ path: file, message }]);
}

/** Reads URIs as paths inside `file`'s folder (see the module comment for what is refused). */
function folderReader(fs: Fs, path: Path, file: string): ResourceReader {
  const folder = path.dirname(path.resolve(file));
  let realFolder: Promise<string> | null = null;
  return async (uri, jsonPath, byteLength) => {
    const shown = JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri);
    const no = (why: string): never => {
      throw new AnimationError(WHERE, [{ path: `${file} ${jsonPath}`, message: `${shown} ${why}` }]);
    };
    const target = resolveInside(path, folder, uri, no);
    realFolder ??= fs.promises.realpath(folder);
    const base = await realFolder.catch((error: NodeJS.ErrnoException) => no(`cannot be read: the folder ${folder} cannot be resolved (${error.code ?? error.message})`));
    const real = await fs.promises.realpath(target).catch((error: NodeJS.ErrnoException) => no(`cannot be read (${error.code ?? error.message}): ${target}`));
    if (!isInside(path, base, real)) no(`is a link to ${real}, outside the file's folder (${base}): refused, nothing outside the folder is read`);
    return readRegularFile(fs, real, byteLength, (message) => no(`(${real}) ${message}`), false);
  };
}

/**
 * The path `uri` names inside `folder`, or a refusal through `no`: a scheme other than data:,
 * an absolute path, bad percent-encoding, a NUL, or a path leaving the folder.
 */
function resolveInside(path: Path, folder: string, uri: string, no: (why: string) => never): string {
  const rule = `refused: resources are read from the file's folder (${folder}) only, and nothing outside it is read`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) no(`has a URI scheme, and loadGltfFile reads only relative paths and data: URIs: ${rule}`);
  if (/^[/\\]/.test(uri)) no(`is an absolute path: ${rule}`);
  let relative: string;
  try {
    relative = decodeURIComponent(uri.replace(/[?#].*$/s, ''));
  } catch {
    return no('has a bad percent-encoding: not a URI reference');
  }
  if (relative.includes('\0')) no('has a NUL character');
  if (relative === '' || /^[/\\]/.test(relative) || /^[a-z]:/i.test(relative) || path.isAbsolute(relative)) no(`is an absolute or empty path once percent-decoded (${JSON.stringify(relative)}): ${rule}`);
  const target = path.resolve(folder, relative);
  if (!isInside(path, folder, target)) no(`resolves to ${target}, outside the file's folder: ${rule}`);
  return target;
}

/** Whether `target` is strictly inside `folder` (both absolute). */
function isInside(path: Path, folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** What a `stat` says a non-regular file is. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * A regular file's bytes: checked by path (so a FIFO is never opened) and again on the open
 * descriptor (opened non-blocking, so one swapped in is not waited on). With `strict`, a file
 * above `limit` bytes is refused; without, at most `limit` bytes are read.
 */
async function readRegularFile(fs: Fs, file: string, limit: number, no: (message: string) => never, strict: boolean): Promise<Uint8Array> {
  const cannot = (error: NodeJS.ErrnoException): never => no(`cannot be read (${error.code ?? error.message})`);
  const check = (stats: Stats): number => {
    if (!stats.isFile()) no(`is ${kindOf(stats)}, not a regular file`);
    if (strict && stats.size > limit) no(`is ${stats.size} bytes, above the ${limit} byte limit`);
    return Math.min(stats.size, limit);
  };
  check(await fs.promises.stat(file).catch(cannot));
  const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  const handle = await fs.promises.open(file, O_RDONLY | (O_NONBLOCK ?? 0) | (strict ? 0 : (O_NOFOLLOW ?? 0))).catch(cannot);
  try {
    const size = check(await handle.stat().catch(cannot));
    const bytes = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled).catch(cannot);
      if (bytesRead === 0) break; // shrank since the stat: keep what is there
      filled += bytesRead;
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
