/**
 * The command line as `npx bitanim` runs it, for tests that spawn it: package.json and dist/
 * compiled by tsc into `<tmp>/package` (so no other test's `npm run build` races it), the
 * repository's node_modules linked beside it for its dependencies, as an installed package
 * finds them. Removing `tmp` (rmSync does not follow the link) removes it.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './assets.js';

/** Builds the package copy under `tmp` and returns the path of its `dist/cli/bin.js`. */
export function buildCliPackage(tmp: string): string {
  const pkg = join(tmp, 'package');
  mkdirSync(pkg);
  copyFileSync(join(REPO_ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  execFileSync(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')], { cwd: REPO_ROOT, stdio: 'pipe' });
  return join(pkg, 'dist/cli/bin.js');
}
