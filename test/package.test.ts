/**
 * The package as users meet it: `npm pack` (whose `prepack` is `npm run build`), the tarball
 * installed into an empty project (no script of the package runs there), and then, with plain Node and nothing
 * of the repository: the README's embedding example (examples/bitecsGame.ts, the file the
 * README shows verbatim: test/readme.test.ts), compiled by tsc against the installed package's
 * own types; `loadGltfFile` on copies of Fox (a .glb, and a .gltf with its .bin beside it); the
 * WebAssembly kernels and worker threads from the installed files; every entry of "exports";
 * and `npx bitanim --version`. test/support/package/install.ts does the packing (on a copy of
 * the repository, so the repository's dist/ is untouched) and test/support/package/user.mjs is
 * the user's program.
 *
 * Needs the npm registry for the package's dependencies (a warm npm cache, as after `npm ci`,
 * serves them without it). Every temporary folder is removed afterwards.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetPath, REPO_ROOT } from './support/assets.js';
import { filesUnder, packAndInstall, type PackedProject } from './support/package/install.js';

/**
 * Names each entry must export, beside the check that every entry exports what its source
 * module does. A subpath added to "exports" is checked by that parity (and type-checked by tsc)
 * on its own; one line here also requires it to exist and names what its users call, e.g.
 * `'bitanim/lod': ['reduceClip', 'bakeLod'],`.
 */
const ENTRY_NAMES: Record<string, readonly string[]> = {
  bitanim: ['createAnimationWorld', 'createSkeleton', 'createClip', 'spawnCharacter', 'play', 'step', 'stepParallel', 'transition',
    'drainEachEvent', 'drainEvents', 'getSkinPalette', 'loadGltf', 'loadGltfFile', 'loadGltfUrl', 'loadKernels', 'AnimationError'],
  'bitanim/kernels': ['sampleSystem', 'blendSystem', 'skinSystem', 'runFrame', 'POSE_STRIDE', 'skinVertices'],
  'bitanim/lod': ['reduceClip', 'bakeLod'],
};

interface PackageJson {
  name: string;
  version: string;
  main?: string;
  types?: string;
  files: string[];
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
}

/** test/support/package/withoutPixi.mjs's report: each entry's export count, or its import error. */
type WithoutPixi = Record<string, { exports: number } | { error: string; code: string }>;

/** The user's program's report (test/support/package/user.mjs). */
interface Report {
  example: { uploaded: number[]; health: number[] };
  kernels: { auto: string; wasm: string; js: string };
  entries: Record<string, string[]>;
  gltf: Record<string, {
    skeletons: { jointCount: number; names: string[] }[];
    clips: { name: string; duration: number; skeleton: number }[];
    meshes: { name: string; vertices: number; positions: string; joints: string; weights: string }[];
    warnings: string[];
  }>;
  crowd: {
    characters: number; frames: number; kernels: string[]; threads: number; paletteLength: number;
    finite: boolean; moved: number; jsNearWasm: boolean; threadsEqualStep: boolean;
  };
}

const repoPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The JavaScript files an entry of "exports" (or main, bin) names, whatever its conditions. */
function targets(entry: string | Record<string, string>): string[] {
  return typeof entry === 'string' ? [entry] : Object.values(entry);
}

/** Import specifiers of the "exports" entries that are modules: 'bitanim', 'bitanim/kernels', … */
function entrySpecifiers(pkg: PackageJson): Map<string, string> {
  const specifiers = new Map<string, string>();
  for (const [key, entry] of Object.entries(pkg.exports)) {
    const module = targets(entry).find((target) => target.endsWith('.js'));
    if (module === undefined || key.includes('*')) continue;
    specifiers.set(key === '.' ? pkg.name : `${pkg.name}/${key.replace(/^\.\//, '')}`, module);
  }
  return specifiers;
}

/** The glTF JSON and binary chunk of a .glb (glTF 2.0 §4.4: 12-byte header, JSON chunk, BIN chunk). */
function readGlb(bytes: Buffer): { json: GltfJson; bin: Buffer } {
  if (bytes.readUInt32LE(0) !== 0x46546c67) throw new Error('not a GLB (no glTF magic)');
  const jsonLength = bytes.readUInt32LE(12);
  const json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString('utf8')) as GltfJson;
  const binStart = 20 + jsonLength;
  const bin = bytes.subarray(binStart + 8, binStart + 8 + bytes.readUInt32LE(binStart));
  return { json, bin };
}

interface GltfJson {
  nodes: { name: string }[];
  skins: { joints: number[] }[];
  animations: { name: string; samplers: { input: number }[] }[];
  meshes: { primitives: { attributes: Record<string, number> }[] }[];
  accessors: { count: number; min?: number[]; max?: number[] }[];
  buffers: { byteLength: number; uri?: string }[];
}

describe('the package as users install it', () => {
  let pkg: PackedProject | undefined;
  /** The user's program's report, or why there is none (each check that needs it says so). */
  let ran: { report: Report } | { error: unknown };
  let version: string | Error;
  let withoutPixi: WithoutPixi | undefined;
  const fox = readGlb(readFileSync(assetPath('Fox.glb')));
  const GLB = 'Fox.glb', GLTF = 'split/Fox.gltf';
  const report = (): Report => {
    if ('error' in ran) throw ran.error;
    return ran.report;
  };

  beforeAll(async () => {
    pkg = await packAndInstall();
    const { project } = pkg;
    version = await pkg.run('npx', ['--no', '--', 'bitanim', '--version']).then(({ stdout }) => stdout, (error: Error) => error);
    try {
      // Before pixi.js is installed (npm leaves optional peers out): what a game without pixi gets.
      copyFileSync(join(REPO_ROOT, 'test', 'support', 'package', 'withoutPixi.mjs'), join(project, 'withoutPixi.mjs'));
      withoutPixi = JSON.parse((await pkg.run('node', ['withoutPixi.mjs'])).stdout) as WithoutPixi;
      // A user of bitanim/pixi installs pixi.js beside it (the version the repository develops against).
      await pkg.install(`pixi.js@${repoPackage.devDependencies['pixi.js']}`);
      const installedPackage = JSON.parse(readFileSync(join(pkg.installed, 'package.json'), 'utf8')) as PackageJson;
      // The README's example, and one module importing every entry, compiled as a user would
      // compile them: strict tsc against the installed .d.ts files (skipLibCheck off, so every
      // declaration file they reach is checked too), emitting JavaScript for plain Node.
      mkdirSync(join(project, 'src'));
      copyFileSync(join(REPO_ROOT, 'examples', 'bitecsGame.ts'), join(project, 'src', 'bitecsGame.ts'));
      const specifiers = [...entrySpecifiers(installedPackage).keys()];
      writeFileSync(join(project, 'src', 'entries.ts'), [
        ...specifiers.map((specifier, i) => `import * as entry${i} from '${specifier}';`),
        `export const entries: Record<string, object> = { ${specifiers.map((s, i) => `'${s}': entry${i}`).join(', ')} };`,
        '',
      ].join('\n'));
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ESNext', 'DOM'], types: [],
          strict: true, verbatimModuleSyntax: true, skipLibCheck: false, rootDir: 'src', outDir: 'build',
        },
        include: ['src'],
      }, null, 2));
      await pkg.run(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', '.']);

      // Fox as a .glb, and as a .gltf whose buffer (with the embedded texture) is a .bin beside it.
      copyFileSync(assetPath('Fox.glb'), join(project, GLB));
      mkdirSync(join(project, 'split'));
      const gltf = { ...fox.json, buffers: [{ byteLength: fox.json.buffers[0]!.byteLength, uri: 'Fox.bin' }] };
      writeFileSync(join(project, GLTF), JSON.stringify(gltf));
      writeFileSync(join(project, 'split', 'Fox.bin'), fox.bin);

      copyFileSync(join(REPO_ROOT, 'test', 'support', 'package', 'user.mjs'), join(project, 'user.mjs'));
      ran = { report: JSON.parse((await pkg.run('node', ['user.mjs', GLB, GLTF])).stdout) as Report };
    } catch (error) {
      ran = { error };
    }
  }, 240_000);

  afterAll(() => {
    const root = pkg?.root;
    pkg?.remove();
    if (root !== undefined) expect(existsSync(root)).toBe(false);
  });

  it('holds dist/, README.md, LICENSE and package.json: every file "exports", "main", "types" and "bin" name; no sources, tests or assets', () => {
    const installed = pkg!.installed;
    const files = filesUnder(installed);
    const installedPackage = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackageJson;
    expect(installedPackage.name).toBe('bitanim');
    expect(installedPackage.version).toBe(repoPackage.version);
    expect(installedPackage.exports).toEqual(repoPackage.exports);

    const named = [installedPackage.main, installedPackage.types, ...Object.values(installedPackage.bin), ...Object.values(installedPackage.exports).flatMap(targets)]
      .filter((target): target is string => target !== undefined).map((target) => target.replace(/^\.\//, ''));
    expect(named.filter((target) => !files.includes(target))).toEqual([]);
    for (const file of ['README.md', 'LICENSE']) expect(readFileSync(join(installed, file), 'utf8'), file).toBe(readFileSync(join(REPO_ROOT, file), 'utf8'));
    // The kernels beside src/wasm/loader.ts's build, the worker beside workerHost's.
    expect(files).toEqual(expect.arrayContaining(['dist/wasm/loader.js', 'dist/wasm/kernels.wasm', 'dist/wasm/kernels-shared.wasm', 'dist/parallel/worker.js', 'dist/parallel/workerHost.js']));

    // Only what "files" lists, and package.json.
    const shipped = (file: string) => file === 'package.json' || installedPackage.files.some((entry) => file === entry || file.startsWith(`${entry.replace(/\/$/, '')}/`));
    expect(files.filter((file) => !shipped(file))).toEqual([]);
    // No TypeScript sources (declarations only), no tests or fixtures, no asset files, nothing installed inside it.
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => /(^|\/)(test|tests|__tests__|fixtures|node_modules)\/|\.(test|spec)\.[cm]?[jt]s$/.test(file))).toEqual([]);
    expect(files.filter((file) => /^assets\/|\.(glb|gltf|bin|bvh|fbx|png|jpe?g|ktx2)$/i.test(file))).toEqual([]);
    // One compiled module (with declarations and a map) per source module.
    const sources = filesUnder(join(REPO_ROOT, 'src')).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    const modules = files.filter((file) => file.startsWith('dist/') && file.endsWith('.js'));
    expect(modules).toEqual(sources.map((file) => `dist/${file.replace(/\.ts$/, '.js')}`).sort());
    expect(files.filter((file) => file.endsWith('.d.ts'))).toHaveLength(sources.length);
    expect(files.filter((file) => file.endsWith('.js.map'))).toHaveLength(sources.length);
  });

  it('installs without running or announcing any script of the package (the build is `prepack`, not `prepare`)', () => {
    const { scripts } = repoPackage as PackageJson & { scripts: Record<string, string> };
    expect(scripts['prepack']).toBe('npm run build');
    // npm runs these on a user's install of a tarball or git URL (and lists them as install scripts).
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    const output = pkg!.installOutput;
    expect(output).toMatch(/added \d+ packages?/);
    expect(output).not.toMatch(/install-scripts|prepare|> bitanim@|tsc -p|buildWasm/);
  });

  it('runs the README\'s example: 100 characters of 2 joints upload 2,400 palette floats a frame; each creak over 3 s costs 1 health', () => {
    expect(report().example.uploaded).toEqual(new Array<number>(192).fill(100 * 2 * 12));
    // Character n (entity n + 1) starts at clip time n/100 and plays at 0.8 + n/250 for 3 s; the
    // 1 s clip's creak at 0.5 fires for every k with start ≤ 0.5 + k < start + 3 × speed.
    const expected = new Array<number>(1001).fill(0);
    for (let n = 0; n < 100; n++) {
      const start = n / 100, speed = 0.8 + n / 250;
      let creaks = 0;
      for (let k = -1; k < 6; k++) if (start <= 0.5 + k && 0.5 + k < start + 3 * speed) creaks++;
      expected[n + 1] = 100 - creaks;
    }
    expect(report().example.health).toEqual(expected);
    expect(new Set(expected.slice(1, 101))).toEqual(new Set([96, 97, 98])); // 2 to 4 creaks: the counts differ by character
  });

  it('loads the WebAssembly kernels from the installed files (no BITANIM_WASM_URL): \'auto\' runs wasm', () => {
    expect(report().kernels).toEqual({ auto: 'wasm', wasm: 'wasm', js: 'js' });
  });

  it('loadGltfFile reads Fox (.glb, and .gltf with its .bin beside it): its skin\'s joints, its animations and their durations, its vertices', () => {
    const joints = fox.json.skins[0]!.joints.map((node) => fox.json.nodes[node]!.name);
    const vertices = fox.json.accessors[fox.json.meshes[0]!.primitives[0]!.attributes['POSITION']!]!.count;
    expect(joints).toHaveLength(24);
    expect(fox.json.animations.map((a) => a.name)).toEqual(['Survey', 'Walk', 'Run']);
    // A clip lasts from its first key to its last: the extremes of its samplers' time accessors.
    const durations = fox.json.animations.map(({ samplers }) => {
      const times = samplers.map(({ input }) => fox.json.accessors[input]!);
      return Math.max(...times.map((t) => t.max![0]!)) - Math.min(...times.map((t) => t.min![0]!));
    });
    for (const file of [GLB, GLTF]) {
      const loaded = report().gltf[file]!;
      expect(loaded.skeletons, file).toEqual([{ jointCount: joints.length, names: joints }]);
      expect(loaded.clips.map((clip) => [clip.name, clip.skeleton]), file).toEqual(fox.json.animations.map((a) => [a.name, 0]));
      loaded.clips.forEach((clip, i) => expect(clip.duration, `${file} ${clip.name}`).toBeCloseTo(durations[i]!, 6));
      expect(loaded.meshes.map((mesh) => mesh.vertices), file).toEqual([vertices]);
    }
    // The same file in two shapes: the same everything.
    expect(report().gltf[GLTF]).toEqual(report().gltf[GLB]);
  });

  it('steps a Fox crowd alike on JavaScript kernels, WebAssembly, and WebAssembly on 2 threads (the installed worker)', () => {
    const { crowd } = report();
    expect(crowd.kernels).toEqual(['js', 'wasm', 'wasm']);
    expect(crowd.threads).toBe(2);
    expect(crowd.paletteLength).toBe(24 * 12);
    expect(crowd.finite).toBe(true);
    expect(crowd.moved).toBe(crowd.characters); // every character's pose changed over the frames
    expect(crowd.jsNearWasm).toBe(true); // within 1e-4 per palette element, relative beyond 1 (float32 kernels), user.mjs
    expect(crowd.threadsEqualStep).toBe(true);
  });

  it('every entry of "exports" imports by name in Node and exports what its source module does', async () => {
    const specifiers = entrySpecifiers(repoPackage);
    expect([...specifiers.keys()].sort()).toEqual(Object.keys(report().entries).sort());
    // bitanim/pixi imports pixi.js, which reads `navigator` as it loads (Node 20 has none).
    if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
    for (const [specifier, target] of specifiers) {
      const source = join(REPO_ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      const names = Object.keys(await import(source) as object).sort();
      expect(names.length, specifier).toBeGreaterThan(0);
      expect(report().entries[specifier], specifier).toEqual(names);
    }
    for (const [specifier, names] of Object.entries(ENTRY_NAMES)) {
      expect(specifiers.has(specifier), `${specifier} is in "exports"`).toBe(true);
      expect(names.filter((name) => !report().entries[specifier]!.includes(name)), specifier).toEqual([]);
    }
  });

  it('without pixi.js installed (an optional peer): bitanim, bitanim/kernels and bitanim/lod import; bitanim/pixi fails naming pixi.js', () => {
    expect(repoPackage.peerDependenciesMeta['pixi.js']?.optional).toBe(true);
    const result = withoutPixi!;
    for (const entry of ['bitanim', 'bitanim/kernels', 'bitanim/lod']) {
      expect(result[entry], entry).toEqual({ exports: report().entries[entry]!.length });
    }
    expect(result['bitanim/pixi']).toEqual({ code: 'ERR_MODULE_NOT_FOUND', error: expect.stringMatching(/Cannot find package 'pixi\.js'/) });
  });

  it('`npx bitanim --version` runs the installed bin: the package\'s version', () => {
    if (version instanceof Error) throw version;
    expect(version).toBe(`bitanim ${repoPackage.version}\n`);
  });
});
