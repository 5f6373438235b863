/**
 * Where the real asset files are: the repository's `assets/` folder (its README gives each
 * file's source, licence and credit). Tests, scripts and the bench resolve every asset through
 * here, so nothing reads a folder beside the repository.
 *
 * The folder is found from this module's own location, walking up to the first directory that
 * holds `package.json` and `assets/`: the same answer when vitest runs this file from
 * `test/support/` and when `tsconfig.bench.json` has compiled it into `.bench-build/test/support/`,
 * whatever the working directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root directory (absolute path, no trailing separator). */
export const REPO_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The repository's `assets/` folder (absolute path, no trailing separator). */
export const ASSETS_DIR: string = join(REPO_ROOT, 'assets');

/** The `assets/` folder as a file URL ending in '/', for `new URL(name, ASSETS_URL)`. */
export const ASSETS_URL: URL = pathToFileURL(`${ASSETS_DIR}/`);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets', 'README.md'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root with assets/ above ${from}`);
  }
}

/** The absolute path of an asset file, e.g. `assetPath('Fox.glb')`. */
export function assetPath(name: string): string {
  return join(ASSETS_DIR, name);
}

/** The bytes of an asset file (a fresh copy, not a view on Node's pooled Buffer). */
export function readAsset(name: string): Uint8Array {
  return new Uint8Array(readFileSync(assetPath(name)));
}

/** The text of an asset file (UTF-8), e.g. a BVH. */
export function readAssetText(name: string): string {
  return readFileSync(assetPath(name), 'utf8');
}
