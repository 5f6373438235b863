/**
 * How the `bitanim` command line opens files: only regular files (after following symlinks),
 * no larger than {@link MAX_INPUT_BYTES}, read to their size as it was checked, so a device
 * (`/dev/zero`), a FIFO or a directory is refused at once instead of read without end; and an
 * output that is the input under another name (a symlink, a hard link, another spelling of the
 * path) is refused before any work is done; so is an output that cannot be written (its folder
 * missing or read-only, a directory or device in its place: {@link checkOutputPath}), and a
 * symlink that dangles or points out of its folder ({@link resolveOutputPath}). Outputs are
 * written whole or not at all ({@link writeOutputFile}: a temporary file beside the target, then
 * a rename), so a run killed while writing never leaves a partial file under the output's name.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, chmod, lstat, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AnimationError } from '../assets/AnimationError.js';

/**
 * Largest input file the command line reads: 512 MiB. glTF and BVH animation files are far
 * below it (the Fox is 160 KB, a long CMU take a few MB); a larger file is refused before a
 * byte of it is read.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** A file read by {@link readInputFile}: its bytes and its `stat` (device and inode). */
export interface InputFile {
  readonly bytes: Buffer;
  readonly stats: Stats;
}

/** What a `stat` says a non-regular file is, for the error line. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function refuse(where: string, file: string, message: string): never {
  throw new AnimationError(where, [{ path: file, message }]);
}

/** `file`'s checks: a regular file (symlinks followed) of at most `limit` bytes. */
function checkInput(where: string, file: string, stats: Stats, limit: number): void {
  if (!stats.isFile()) refuse(where, file, `is ${kindOf(stats)}, not a regular file: give a .glb, .gltf or .bvh file`);
  if (stats.size > limit) {
    refuse(where, file, `is ${stats.size} bytes, above the ${limit} byte (${limit / 1048576} MiB) limit of bitanim's input files`);
  }
}

/**
 * Reads `file` whole after checking that it is a regular file (symlinks followed) of at most
 * `limit` bytes (default {@link MAX_INPUT_BYTES}). The check is made by path before opening (so
 * a FIFO is never opened: opening one waits for a writer) and again on the open descriptor
 * (so a file swapped in between is caught); then at most the checked size is read.
 *
 * @throws AnimationError (at `where`, naming the file) when it is missing or unreadable, not a
 * regular file, or larger than the limit.
 */
export async function readInputFile(file: string, where: string, limit = MAX_INPUT_BYTES): Promise<InputFile> {
  const cannot = (error: NodeJS.ErrnoException): never => refuse(where, file, `cannot be read (${error.code ?? error.message})`);
  checkInput(where, file, await stat(file).catch(cannot), limit);
  // O_NONBLOCK: were the path swapped for a FIFO since the stat, opening it still returns at once.
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(cannot);
  try {
    const stats = await handle.stat().catch(cannot);
    checkInput(where, file, stats, limit);
    const bytes = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled).catch(cannot);
      if (bytesRead === 0) break; // shrank since the stat: keep what is there
      filled += bytesRead;
    }
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), stats };
  } finally {
    await handle.close();
  }
}

/**
 * Refuses an output path that names the input `file` (whose `stat` is `input`): the same
 * device and inode once symlinks are followed, which covers a symlink to it, a hard link to it
 * and any other spelling of its path. An output that does not exist yet is not the input.
 *
 * @throws AnimationError (at `where`, path `flag`) when `out` is the input.
 */
export async function refuseOutputIsInput(out: string, file: string, input: Stats, where: string, flag: string): Promise<void> {
  const target = await stat(out).catch(() => null);
  if (target !== null && target.dev === input.dev && target.ino === input.ino) {
    refuse(where, flag, `is ${JSON.stringify(out)}, which is the input file ${file} (the same file by device and inode: a link or another path to it): write the reduced animation to another file`);
  }
}

/**
 * The file an output path `out` writes: `out` itself (absolute), or, when `out` is a symlink,
 * the file it points to — which must exist and be in the folder `out` names. A dangling link is
 * refused (writing would create a file wherever it points, a folder the user never named), and
 * so is a link to a file in another folder; a link to a file beside it is followed, deliberately:
 * the file is replaced, the link kept.
 *
 * @throws AnimationError (at `where`, path `flag`) for a dangling link or a link out of its folder.
 */
export async function resolveOutputPath(out: string, where: string, flag: string): Promise<string> {
  const fault = (message: string): never => refuse(where, flag, `is ${JSON.stringify(out)}: ${message}`);
  const path = resolve(out);
  const link = await lstat(path).catch(() => null); // absent, or its folder missing: not a link (checkOutputPath names the fault)
  if (link === null || !link.isSymbolicLink()) return path;
  const points = await readlink(path).catch(() => '?');
  const target = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    return fault(error.code === 'ENOENT'
      ? `a symlink to ${JSON.stringify(points)}, which does not exist (a dangling link): refused, so that nothing is created where it points; remove the link or name another file`
      : `a symlink that cannot be followed (${error.code ?? error.message})`);
  });
  const folder = await realpath(dirname(path)).catch(() => dirname(path));
  if (dirname(target) !== folder) fault(`a symlink to ${target}, outside its folder ${folder}: refused; name the file to write itself`);
  return target;
}

/**
 * Writes `data` to the output `out` whole or not at all: into a new temporary file beside the
 * file it names (`.<name>.<pid>.<random>.tmp`, created exclusively, so never through another
 * link), flushed to disk, then renamed over it — a rename within a folder is atomic, so the
 * output is at every moment either as it was or complete. The file is the one
 * {@link resolveOutputPath} names (a link beside it is followed, a dangling one refused); an
 * existing file's permissions are kept. On any failure the temporary file is removed; a run
 * killed while writing may leave it (never a partial output).
 *
 * @throws AnimationError (at `where`, path `flag`) when the path is refused or cannot be written.
 */
export async function writeOutputFile(out: string, data: Uint8Array, where: string, flag: string): Promise<void> {
  const target = await resolveOutputPath(out, where, flag);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const cannot = (error: NodeJS.ErrnoException): never => refuse(where, flag, `is ${JSON.stringify(out)}: cannot be written (${error.code ?? error.message})`);
  const existing = await stat(target).catch(() => null);
  let created = false;
  try {
    const handle = await open(temp, 'wx', 0o666).catch(cannot);
    created = true;
    try {
      let written = 0;
      while (written < data.byteLength) written += (await handle.write(data, written, data.byteLength - written)).bytesWritten;
      if (existing !== null) await handle.chmod(existing.mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    created = false;
  } catch (error) {
    if (error instanceof AnimationError) throw error;
    cannot(error as NodeJS.ErrnoException);
  } finally {
    if (created) await unlink(temp).catch(() => {});
  }
}

/**
 * Checks before any work that `out` can be written: its folder exists, is a directory and is
 * writable, and `out` is either absent or a writable regular file (symlinks followed) — so a
 * long reduction never ends in "cannot be written". Creates nothing.
 *
 * @throws AnimationError (at `where`, path `flag`) naming the path and what is wrong with it.
 */
export async function checkOutputPath(out: string, where: string, flag: string): Promise<void> {
  const fault = (message: string): never => refuse(where, flag, `is ${JSON.stringify(out)}: ${message}`);
  await resolveOutputPath(out, where, flag); // a dangling link or one out of its folder
  const folder = dirname(resolve(out));
  const dir = await stat(folder).catch((error: NodeJS.ErrnoException) => {
    return fault(error.code === 'ENOENT' ? `its folder ${folder} does not exist (create it first)` : `its folder ${folder} cannot be read (${error.code ?? error.message})`);
  });
  if (!dir.isDirectory()) fault(`${folder} is not a folder`);
  const target = await stat(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    return fault(`cannot be checked (${error.code ?? error.message})`);
  });
  if (target !== null && !target.isFile()) fault(`${kindOf(target)}, not a file: name a .glb or .gltf file to write`);
  await access(target === null ? folder : out, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    fault(target === null ? `its folder ${folder} is not writable (${error.code ?? error.message})` : `is not writable (${error.code ?? error.message})`);
  });
}
