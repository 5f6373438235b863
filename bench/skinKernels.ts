/**
 * Skinning phase, JavaScript vs WebAssembly kernels (issue 18 item 3): the bench crowd
 * (bench/plan.ts, two clips, 64 joints) in two worlds, `kernels: 'js'` and `kernels: 'wasm'`,
 * stepped frame by frame with the skin system timed on its own, the two worlds alternating
 * frame by frame so drift on a shared machine falls on both. Prints medians in ns per joint.
 *
 *   npx tsc -p tsconfig.bench.json && node scripts/buildWasm.mjs .bench-build/src/wasm \
 *     && node --expose-gc .bench-build/bench/skinKernels.js [count=10000] [frames=60]
 */
import { beginFrame, createAnimationWorld, endFrame, play, spawnCharacter, type AnimationWorld, type KernelChoice } from '../src/index.js';
import { createCrowdAssets, JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdPlan } from './plan.js';

const count = Number(process.argv[2] ?? 10_000);
const frames = Number(process.argv[3] ?? 60);
const DT = 1 / 60;

function crowd(plan: CrowdPlan, kernels: KernelChoice): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, kernels });
  if (world.kernels !== kernels) throw new Error(`asked for ${kernels}, got ${world.kernels}`);
  for (let i = 0; i < plan.count; i++) {
    const eid = spawnCharacter(world, plan.skeleton);
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, plan.clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }
  return world;
}

/** One frame of `world`, the skin system timed alone; returns its milliseconds. */
function frame(world: AnimationWorld): number {
  const systems = world.frame.systems;
  const n = beginFrame(world);
  let skinMs = 0;
  for (const system of systems) {
    const t0 = performance.now();
    system.entities(world, DT, 0, n);
    if (system.name === 'skin') skinMs = performance.now() - t0;
  }
  endFrame(world, DT);
  return skinMs;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const plan = planCrowd(createCrowdAssets(), count, [0.6, 0.4]);
const worlds = { js: crowd(plan, 'js'), wasm: crowd(plan, 'wasm') };
for (let f = 0; f < 20; f++) (frame(worlds.js), frame(worlds.wasm)); // warm-up
const ms: Record<'js' | 'wasm', number[]> = { js: [], wasm: [] };
for (let f = 0; f < frames; f++) {
  const order = f % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const);
  for (const k of order) ms[k].push(frame(worlds[k]));
}
// Same pools after the same frames: the kernels agree bit for bit.
const a = new Uint32Array(worlds.js.components.SkinPalette.data.buffer, worlds.js.components.SkinPalette.data.byteOffset, worlds.js.components.SkinPalette.data.length);
const b = new Uint32Array(worlds.wasm.components.SkinPalette.data.buffer, worlds.wasm.components.SkinPalette.data.byteOffset, worlds.wasm.components.SkinPalette.data.length);
let differ = 0;
for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
const joints = count * JOINT_COUNT;
const js = median(ms.js), wasm = median(ms.wasm);
console.log(`skin phase, ${count} × ${JOINT_COUNT} joints, ${frames} frames alternating (medians):`);
console.log(`  js   ${js.toFixed(2)} ms  ${((js * 1e6) / joints).toFixed(2)} ns/joint`);
console.log(`  wasm ${wasm.toFixed(2)} ms  ${((wasm * 1e6) / joints).toFixed(2)} ns/joint   wasm/js ${(wasm / js).toFixed(3)}`);
console.log(`  palette elements differing: ${differ}`);
