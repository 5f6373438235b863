/**
 * Compressed clips in a crowd: 10,000 characters (BENCH_COMPRESSED_COUNT) on the CMU walk
 * (31 joints, 120 Hz), each at its own time and speed, played dense in one world and
 * compressed (`compressClip`, 1 mm on the 3 cm shell; BENCH_COMPRESSED_TOLERANCE metres) in
 * another; the two worlds step alternately, frame by frame, and each row reports the median
 * frame (`step`, the whole frame: sampling, blending, model matrices), as ns per joint, on the
 * WebAssembly kernels and on the JavaScript ones.
 *
 *     npx tsc -p tsconfig.bench.json && node scripts/buildWasm.mjs .bench-build/src/wasm \
 *       && node --expose-gc .bench-build/bench/compressedCrowd.js
 */
import { readFileSync } from 'node:fs';
import { createAnimationWorld, parseBvh, play, spawnCharacter, step, type AnimationWorld, type Clip } from '../src/index.js';
import { compressClip } from '../src/lod.js';

const COUNT = Number(process.env['BENCH_COMPRESSED_COUNT'] ?? 10_000);
const TOLERANCE = Number(process.env['BENCH_COMPRESSED_TOLERANCE'] ?? 0.001);
const FRAMES = Number(process.env['BENCH_COMPRESSED_FRAMES'] ?? 120);
const WARMUP = 30;
const DT = 1 / 60;

function crowd(clip: Clip, kernels: 'wasm' | 'js'): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: clip.skeleton.jointCount, kernels });
  for (let n = 0; n < COUNT; n++) {
    const eid = spawnCharacter(world, clip.skeleton, { x: n % 100, z: Math.floor(n / 100) });
    play(world, eid, clip, { time: (n * 0.7919) % clip.duration, speed: 0.8 + (n % 7) * 0.05 });
  }
  return world;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function main(): void {
  const text = readFileSync(new URL('../../assets/cmu_131_01_start_walk_stop.bvh', import.meta.url), 'utf8');
  const { clip } = parseBvh(text, { scale: 0.056444, name: 'cmu_131_01' });
  const compressed = compressClip(clip, { tolerance: TOLERANCE });
  const s = compressed.stats!;
  console.log(`CMU walk: ${clip.frameCount} frames × ${clip.skeleton.jointCount} joints; dense ${s.sourceBytes} B, compressed ${s.bytes} B (${s.ratio!.toFixed(1)}:1, max ${(s.maxError * 1000).toFixed(3)} mm)`);
  console.log(`${COUNT} characters, ${FRAMES} frames each, alternated; median frame`);
  console.log('| kernels | dense ns/joint | compressed ns/joint | ratio |');
  console.log('|---|---:|---:|---:|');
  const joints = COUNT * clip.skeleton.jointCount;
  for (const kernels of ['wasm', 'js'] as const) {
    const worlds = [crowd(clip, kernels), crowd(compressed, kernels)];
    for (let f = 0; f < WARMUP; f++) for (const w of worlds) step(w, DT);
    const times: number[][] = [[], []];
    for (let f = 0; f < FRAMES; f++) {
      for (let i = 0; i < 2; i++) {
        const t0 = performance.now();
        step(worlds[(i + f) % 2]!, DT); // alternate which goes first
        times[(i + f) % 2]!.push(performance.now() - t0);
      }
    }
    const dense = (median(times[0]!) * 1e6) / joints, small = (median(times[1]!) * 1e6) / joints;
    console.log(`| ${worlds[0]!.kernels} | ${dense.toFixed(1)} | ${small.toFixed(1)} | ${(small / dense).toFixed(2)}× |`);
  }
}

main();
