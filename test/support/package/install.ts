/**
 * The package as a user installs it (test/package.test.ts): the repository is copied into a
 * temporary folder (build outputs, node_modules and .git left out; node_modules linked), `npm
 * pack` runs there — its `prepack` script is `npm run build`, as for `npm publish` — and the
 * tarball is installed into an empty project beside it (with scripts allowed, as a user's npm
 * runs them: the package has no install-time script, so nothing of it runs there). Working on a copy keeps the repository's
 * own dist/ untouched, so no race with tests that run `npm run build` in it
 * (test/cli/lod.test.ts); the copy holds test/ and assets/, so the package's "files" list is
 * what keeps them out of the tarball.
 *
 * Commands run with the environment a user's shell would have: no BITANIM_* variable (the test
 * setup points BITANIM_WASM_URL and BITANIM_WORKER_URL at its own builds, which would hide a
 * package that lacks its .wasm or worker), none of the variables `npm test` sets for the
 * repository (npm_config_local_prefix would make npm work on the repository, not the
 * project), and no node_modules/.bin on PATH.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, sep } from 'node:path';
import { REPO_ROOT } from '../assets.js';

/** What is not copied from the repository (top-level names: outputs, among them `npm run docs`'s build/ of ~2,600 pages, installs, history). */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'build', '.bench-build', 'e2e-out', 'coverage', join('sandbox', 'dist')]);

/** The temporary folders of one check: the repository's copy, the tarball, the user's project. */
export interface PackedProject {
  /** The temporary folder holding everything below (removed by `remove`). */
  readonly root: string;
  /** The tarball `npm pack` wrote. */
  readonly tarball: string;
  /** The user's project: package.json with "type": "module", bitanim installed. */
  readonly project: string;
  /** The installed package: `<project>/node_modules/bitanim`. */
  readonly installed: string;
  /** What `npm install <tarball>` printed (stdout and stderr, `--foreground-scripts`: any script it ran shows). */
  readonly installOutput: string;
  /** Runs a command in the project, as a user's shell would (see the module comment). */
  run(command: string, args: readonly string[], timeoutMs?: number): Promise<{ stdout: string; stderr: string }>;
  /** `npm install`s more packages into the project, as a user adds one (e.g. `pixi.js@8.22.0`). */
  install(...specs: string[]): Promise<string>;
  /** Deletes every temporary folder. */
  remove(): void;
}

/** A copy of `process.env` without the test run's and `npm test`'s variables. */
export function userEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^BITANIM_/i.test(key)) continue;
    if (/^(npm_lifecycle_|npm_package_)|^(npm_command|npm_execpath|npm_node_execpath|npm_config_local_prefix|INIT_CWD)$/i.test(key)) continue;
    clean[key] = value;
  }
  const path = Object.keys(clean).find((key) => key.toUpperCase() === 'PATH');
  if (path !== undefined) {
    clean[path] = (clean[path] ?? '').split(delimiter)
      .filter((dir) => !dir.includes(`node_modules${sep}.bin`) && !dir.includes('node-gyp-bin'))
      .join(delimiter);
  }
  return clean;
}

/** Runs `command` in `cwd`; on failure, throws with the command, its exit and its output. */
export function runIn(cwd: string, command: string, args: readonly string[], timeoutMs = 180_000): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: userEnvironment(), timeout: timeoutMs, maxBuffer: 64 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
  });
}

/** Packs the repository (through a copy) and installs the tarball into an empty project. */
export async function packAndInstall(): Promise<PackedProject> {
  const root = mkdtempSync(join(tmpdir(), 'bitanim-package-'));
  const remove = (): void => rmSync(root, { recursive: true, force: true });
  try {
    const copy = join(root, 'repository'), packs = join(root, 'packs'), project = join(root, 'project');
    cpSync(REPO_ROOT, copy, { recursive: true, filter: (from) => !NOT_COPIED.has(relative(REPO_ROOT, from)) });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    mkdirSync(packs);
    await runIn(copy, 'npm', ['pack', '--pack-destination', packs]);
    const tarballs = readdirSync(packs).filter((file) => file.endsWith('.tgz'));
    if (tarballs.length !== 1) throw new Error(`npm pack wrote ${JSON.stringify(tarballs)}, not one tarball`);
    const tarball = join(packs, tarballs[0] as string);

    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'bitanim-user', private: true, type: 'module' }, null, 2)}\n`);
    // Dependencies come from the registry; a warm npm cache (after `npm ci`) serves them offline.
    const install = async (...specs: string[]): Promise<string> => {
      const { stdout, stderr } = await runIn(project, 'npm', ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--foreground-scripts', '--ignore-scripts=false']);
      return `${stdout}\n${stderr}`;
    };
    const installOutput = await install(tarball);
    return {
      root, tarball, project, installed: join(project, 'node_modules', 'bitanim'), installOutput,
      run: (command, args, timeoutMs) => runIn(project, command, args, timeoutMs),
      install,
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Every file under `dir`, as paths relative to it with '/' separators, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
