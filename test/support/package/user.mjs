// A user's program, run by test/package.test.ts with plain Node (no TypeScript loader, no
// alias) in a temporary project that installed bitanim from the packed tarball: everything
// here comes from `node_modules/bitanim` as `npm install bitanim` gives it. It prints one JSON
// report on stdout; the test checks the values against ones it computes on its own.
//
// Beside this file in the project: build/bitecsGame.js (the README's embedding example,
// examples/bitecsGame.ts, compiled by tsc against the installed package's types),
// build/entries.js (one `import * as` of every entry in the package's "exports"), and the
// glTF files named on the command line.
import { createHash } from 'node:crypto';
import {
  createAnimationWorld,
  disposeAnimationWorld,
  getSkinPalette,
  loadGltfFile,
  play,
  spawnCharacter,
  step,
  stepParallel,
} from 'bitanim';
import { frame, Health } from './build/bitecsGame.js';

const gltfFiles = process.argv.slice(2);
const report = {};

// The README's example: its game loop, 192 frames of 1/64 s (3 s in binary-exact steps).
const uploaded = [];
for (let f = 0; f < 192; f++) uploaded.push(frame(1 / 64));
report.example = { uploaded, health: Array.from(Health.value) };

// The WebAssembly kernels, read from the installed package (dist/wasm beside loader.js): the
// kernels each choice gives, or the refusal's message.
const kernelsOf = (kernels) => {
  try {
    return createAnimationWorld({ maxEntities: 1, maxJoints: 1, kernels }).kernels;
  } catch (error) {
    return String(error);
  }
};
report.kernels = { auto: kernelsOf('auto'), wasm: kernelsOf('wasm'), js: kernelsOf('js') };

// Every entry of "exports", imported by name: its export names. bitanim/pixi imports pixi.js,
// which reads `navigator` as it loads (Node 20 has none): a stand-in first, as a test page has one.
globalThis.navigator ??= { userAgent: 'node' };
const { entries } = await import('./build/entries.js');
report.entries = Object.fromEntries(Object.entries(entries).map(([name, module]) => [name, Object.keys(module).sort()]));

// loadGltfFile on each file: skeletons, clips, meshes (positions hashed, to compare files).
const sha = (array) => createHash('sha256').update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength)).digest('hex');
const loaded = [];
report.gltf = {};
for (const file of gltfFiles) {
  const result = await loadGltfFile(file);
  loaded.push(result);
  report.gltf[file] = {
    skeletons: result.skeletons.map((s) => ({ jointCount: s.jointCount, names: s.names })),
    clips: result.clips.map((c) => ({ name: c.name, duration: c.duration, skeleton: result.skeletons.indexOf(c.skeleton) })),
    meshes: result.meshes.map((m) => ({ name: m.name, vertices: m.positions.length / 3, positions: sha(m.positions), joints: sha(m.joints), weights: sha(m.weights) })),
    warnings: result.warnings,
  };
}

// A crowd of the first file's first clip on three worlds: JavaScript kernels, the kernels
// 'auto' picks (WebAssembly), and those on 2 threads (dist/parallel/worker.js). Enough characters that
// stepParallel really splits the frame (PARALLEL_MIN_CHARACTERS).
const { skeletons, clips } = loaded[0];
const skeleton = skeletons[0], clip = clips[0];
const CHARACTERS = 256, FRAMES = 30;
const crowd = (options) => {
  const world = createAnimationWorld({ maxEntities: CHARACTERS, maxJoints: skeleton.jointCount, ...options });
  const eids = [];
  for (let n = 0; n < CHARACTERS; n++) {
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip, { time: (n / CHARACTERS) * clip.duration, speed: 0.5 + n / CHARACTERS });
    eids.push(eid);
  }
  return { world, eids };
};
const palettes = ({ world, eids }) => eids.map((eid) => Array.from(getSkinPalette(world, eid)));
const js = crowd({ kernels: 'js' }), wasm = crowd({ kernels: 'auto' }), threaded = crowd({ kernels: 'auto', threads: 2 });
const first = palettes(wasm);
for (let f = 0; f < FRAMES; f++) {
  step(js.world, 1 / 60);
  step(wasm.world, 1 / 60);
  await stepParallel(threaded.world, 1 / 60);
}
const [a, b, c] = [palettes(js), palettes(wasm), palettes(threaded)];
const same = (x, y) => x.every((p, i) => p.length === y[i].length && p.every((v, j) => Object.is(v, y[i][j])));
// The wasm kernels compute in float32 (docs/wasm.md: precision): within 1e-4 of JavaScript's per palette element, relative beyond 1 (the Fox in centimetres, translations to 36: 5.2e-5 measured).
const close = (x, y) => x.every((p, i) => p.length === y[i].length && p.every((v, j) => Math.abs(v - y[i][j]) <= 1e-4 * Math.max(1, Math.abs(y[i][j]))));
report.crowd = {
  characters: CHARACTERS,
  frames: FRAMES,
  kernels: [js.world.kernels, wasm.world.kernels, threaded.world.kernels],
  threads: threaded.world.threads,
  paletteLength: b[0].length,
  finite: b.every((p) => p.every(Number.isFinite)),
  moved: b.filter((p, i) => p.some((v, j) => v !== first[i][j])).length,
  jsNearWasm: close(a, b),
  threadsEqualStep: same(c, b),
};
disposeAnimationWorld(threaded.world); // ends the workers, so the process exits on its own

process.stdout.write(JSON.stringify(report));
