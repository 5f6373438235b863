/**
 * Sample (the layers' clocks), blend (sampling the layers and blending them) and skin phases,
 * JavaScript vs WebAssembly kernels (issue 18 item 3): the bench crowd
 * (bench/plan.ts, two clips, 64 joints) in two worlds, `kernels: 'js'` and `kernels: 'wasm'`,
 * stepped frame by frame with the skin system timed on its own, the two worlds alternating
 * frame by frame so drift on a shared machine falls on both. Prints medians in ns per joint.
 *
 *   npx tsc -p tsconfig.bench.json && node scripts/buildWasm.mjs .bench-build/src/wasm \
 *     && node --expose-gc .bench-build/bench/skinKernels.js [count=10000] [frames=60]
 *
 * Also prints every system's median on both worlds (the others run JavaScript on either, on an
 * `ArrayBuffer` or on the kernels' memory: where the pools sit must not slow them). FIRST and
 * SECOND (environment, default js and wasm) set the two worlds' kernels, e.g. both js to see
 * the noise between two identical worlds.
 */
import { createAnimationWorld, type AnimationWorld, type KernelChoice } from '../src/index.js';
import { beginFrame, endFrame } from '../src/kernels.js';
import { spawnPlan } from './bitanimCrowd.js';
import { createCrowdAssets, JOINT_COUNT, planCrowd, type CrowdPlan } from './plan.js';

const count = Number(process.argv[2] ?? 10_000);
const frames = Number(process.argv[3] ?? 60);
const DT = 1 / 60;

function crowd(plan: CrowdPlan, kernels: KernelChoice): AnimationWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, kernels });
  if (world.kernels !== kernels) throw new Error(`asked for ${kernels}, got ${world.kernels}`);
  spawnPlan(world, plan);
  return world;
}

const systemMs: Record<'js' | 'wasm', number[][]> = { js: [], wasm: [] };

/** One frame of `world` (`kernels`), each system timed on its own; returns the skin system's milliseconds. */
function frame(world: AnimationWorld, kernels: 'js' | 'wasm'): number {
  const systems = world.frame.systems;
  const n = beginFrame(world);
  let skinMs = 0;
  for (let s = 0; s < systems.length; s++) {
    const t0 = performance.now();
    systems[s]!.entities(world, DT, 0, n);
    const ms = performance.now() - t0;
    (systemMs[kernels][s] ??= []).push(ms);
    if (systems[s]!.name === 'skin') skinMs = ms;
  }
  endFrame(world, DT);
  return skinMs;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const plan = planCrowd(createCrowdAssets(), count, [0.6, 0.4]);
const second = (process.env['SECOND'] ?? 'wasm') as KernelChoice, first = (process.env['FIRST'] ?? 'js') as KernelChoice;
const worlds = { js: crowd(plan, first), wasm: crowd(plan, second) };
for (let f = 0; f < 20; f++) (frame(worlds.js, 'js'), frame(worlds.wasm, 'wasm')); // warm-up
systemMs.js = [];
systemMs.wasm = [];
const ms: Record<'js' | 'wasm', number[]> = { js: [], wasm: [] };
for (let f = 0; f < frames; f++) {
  const order = f % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const);
  for (const k of order) ms[k].push(frame(worlds[k], k));
}
// Same pools after the same frames: the skinning kernels agree within float32 rounding
// (assembly/kernels.ts computes in f32x4, the JavaScript path in doubles): elements differing
// and the largest difference.
/** Elements of `x` and `y` that differ, and the largest absolute difference. */
function compare(x: Float32Array, y: Float32Array): string {
  let d = 0, max = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    d++;
    max = Math.max(max, Math.abs(x[i]! - y[i]!));
  }
  return `${d} (largest difference ${max.toExponential(2)})`;
}
const joints = count * JOINT_COUNT;
const js = median(ms.js), wasm = median(ms.wasm);
console.log(`skin phase, ${count} × ${JOINT_COUNT} joints, ${frames} frames alternating (medians):`);
console.log(`  js   ${js.toFixed(2)} ms  ${((js * 1e6) / joints).toFixed(2)} ns/joint`);
console.log(`  wasm ${wasm.toFixed(2)} ms  ${((wasm * 1e6) / joints).toFixed(2)} ns/joint   wasm/js ${(wasm / js).toFixed(3)}`);
console.log(`  palette elements differing: ${compare(worlds.js.components.SkinPalette.data, worlds.wasm.components.SkinPalette.data)}`);
const names = worlds.js.frame.systems.map((system) => system.name);
// The phases with WebAssembly kernels (sampling, override blending, skinning), each on its own.
for (const phase of ['sample', 'blend', 'skin']) {
  const s = names.indexOf(phase);
  const pj = median(systemMs.js[s]!), pw = median(systemMs.wasm[s]!);
  console.log(`  ${phase.padEnd(6)} js ${((pj * 1e6) / joints).toFixed(2)} ns/joint  wasm ${((pw * 1e6) / joints).toFixed(2)} ns/joint  wasm/js ${(pw / pj).toFixed(3)}`);
}
console.log(`  LocalPose elements differing: ${compare(worlds.js.components.LocalPose.data, worlds.wasm.components.LocalPose.data)}`);
// Every system on both worlds (those without wasm kernels run JavaScript on both, on an
// ArrayBuffer or on the kernels' memory).
console.log('  per system, ms (js / wasm world):', names.map((name, s) => `${name} ${median(systemMs.js[s]!).toFixed(2)} / ${median(systemMs.wasm[s]!).toFixed(2)}`).join(', '));
