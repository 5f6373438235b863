/**
 * The game-crowd rows of the crowd benchmark: the WebAssembly kernels against the JavaScript
 * kernels on the crowds a game runs, not only the bench crowd's two dense override clips. N
 * characters per row (4,000 unless BENCH_GAME_CROWD says otherwise; 0 skips the rows):
 * - "bench crowd": the synthetic 64-joint skeleton playing two dense override clips (bench/plan.ts);
 * - "Foxes under a state machine": Fox.glb, a locomotion machine (Survey as idle, a Walk/Run
 *   blend space by `speed`, inertialized switches) with `speed` changing every half second, staggered;
 * - "Robots with an additive masked upper-body layer": RobotExpressive.glb walking, Punch − Idle
 *   (`createDifferenceClip`) additive on the upper body;
 * - "Robots on reduced clips": the walk and Running reduced to 1 mm (`reduceClip`, 16-bit tracks);
 * - "Robots retargeted onto a 0.8× copy": the walk and Running on a copy of the Robot's skeleton
 *   at 0.8× its bone lengths;
 * - "all four mixed": one world, the four scenarios above in turn;
 * - "bench crowd over 200 distinct clips": the bench crowd, each character's two clips drawn from
 *   200 synthetic clips.
 * Per row, a wasm world and a js world of the same scenario, `step` alternating frame by frame
 * (the order rotating) after the same warm-up; medians; ns per joint is the median frame over
 * the crowd's joints (characters × their skeletons' joints).
 */
import {
  bindSkeletons, createAnimationWorld, createBlendSpace, createDifferenceClip, createMask, createStateMachine, loadGltf, play,
  setParameter, setStateMachine, spawnCharacter, step, type AnimationWorld, type Clip,
} from '../src/index.js';
import { reduceClip } from '../src/lod.js';
import { createRandom, syntheticClip } from '../test/fixtures/synthetic.js';
import { readAsset } from '../test/support/assets.js';
import { collectGarbage, formatMs, median } from './measure.js';
import { scaled } from './blendPathsCrowd.js';
import { createCrowdAssets } from './plan.js';

/** Crowd size of the game-crowd rows unless BENCH_GAME_CROWD says otherwise. */
export const GAME_CROWD = 4_000;
const WARMUP_FRAMES = 30;
const DISTINCT_CLIPS = 200;

/** One row: ms/frame of each measured frame on each kernel path, and the crowd's joints. */
export interface GameCrowdRow {
  readonly name: string;
  readonly js: readonly number[];
  readonly wasm: readonly number[];
  readonly joints: number;
}

/** What the section prints. */
export interface GameCrowdResult {
  readonly count: number;
  readonly rows: readonly GameCrowdRow[];
}

/** Spawns character `n` of a row into `world` and starts what it plays; returns its joint count. */
type Scenario = (world: AnimationWorld, n: number, random: () => number) => number;
/** A row's per-frame game input (the machine's parameters), before each `step`. */
type Input = (world: AnimationWorld, frame: number) => void;

export interface RowPlan {
  readonly name: string;
  readonly maxJoints: number;
  readonly scenario: Scenario;
  readonly input?: Input;
}

async function loadAsset(name: string): ReturnType<typeof loadGltf> {
  return loadGltf(readAsset(name));
}

/** The rows' scenarios, built from the shared assets (exported for profiling). */
export async function planRows(): Promise<RowPlan[]> {
  const fox = await loadAsset('Fox.glb'), robotFile = await loadAsset('RobotExpressive.glb');
  const foxSkeleton = fox.skeletons[0]!, robot = robotFile.skeletons[0]!;
  const foxClip = (name: string): Clip => fox.clips.find((c) => c.name === name)!;
  const robotClip = (name: string): Clip => robotFile.clips.find((c) => c.name === name)!;
  const walk = robotClip('Walking'), run = robotClip('Running');
  const difference = createDifferenceClip(robotClip('Punch'), robotClip('Idle'));
  const upper = createMask(robot, { Torso: 1 });
  const reducedWalk = reduceClip(walk, { tolerance: 0.001 }), reducedRun = reduceClip(run, { tolerance: 0.001 });
  const small = scaled(robot, 0.8);
  if (bindSkeletons(robot, small).retarget !== null) throw new Error('game-crowd bench: the 0.8× copy does not take the proportions-only path');
  const space = createBlendSpace({ type: '1d', samples: [{ clip: foxClip('Walk'), x: 1 }, { clip: foxClip('Run'), x: 3 }] });
  const machine = createStateMachine({
    parameters: [{ name: 'speed', type: 'float' }],
    states: [{ name: 'idle', clip: foxClip('Survey') }, { name: 'move', blendSpace: space, x: 'speed' }],
    transitions: [
      { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.2 },
      { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.25 },
    ],
    initial: 'idle',
  });
  const speeds = [0, 1.5, 2, 2.5, 3];
  const foxInput = (every: number): Input => (world, f) => {
    // Character n of the row (the nth spawned: eids in order) changes speed every half second, staggered.
    const eids = world.characters.dense;
    for (let k = 0; k < eids.length; k++) {
      if (k % every !== 0 || (f + 7 * k) % 30 !== 0) continue;
      setParameter(world, eids[k]!, 'speed', speeds[(Math.floor((f + 7 * k) / 30) + k) % 5]!);
    }
  };
  const foxes: Scenario = (world, _n, random) => {
    const eid = spawnCharacter(world, foxSkeleton);
    setStateMachine(world, eid, machine);
    setParameter(world, eid, 'speed', speeds[Math.floor(random() * 5)]!);
    return foxSkeleton.jointCount;
  };
  const additive: Scenario = (world, _n, random) => {
    const eid = spawnCharacter(world, robot);
    play(world, eid, walk, { time: random() * walk.duration, speed: 0.9 + 0.2 * random() });
    play(world, eid, difference, { layer: 1, time: random() * difference.duration, weight: 0.5 + 0.5 * random(), mask: upper, additive: true });
    return robot.jointCount;
  };
  const reduced: Scenario = (world, _n, random) => {
    const eid = spawnCharacter(world, robot);
    play(world, eid, reducedWalk, { time: random() * reducedWalk.duration, weight: 0.6 });
    play(world, eid, reducedRun, { layer: 1, time: random() * reducedRun.duration, weight: 0.4 });
    return robot.jointCount;
  };
  const retargeted: Scenario = (world, _n, random) => {
    const eid = spawnCharacter(world, small);
    play(world, eid, walk, { time: random() * walk.duration, weight: 0.6 });
    play(world, eid, run, { layer: 1, time: random() * run.duration, weight: 0.4 });
    return small.jointCount;
  };
  const bench = createCrowdAssets();
  const benchCrowd = (clips: readonly Clip[]): Scenario => (world, n, random) => {
    const eid = spawnCharacter(world, bench.skeleton);
    const a = clips[(2 * n) % clips.length]!, b = clips[(2 * n + 1) % clips.length]!;
    play(world, eid, a, { time: random() * a.duration, speed: Math.fround(0.8 + 0.4 * random()), weight: 0.7 });
    play(world, eid, b, { layer: 1, time: random() * b.duration, speed: Math.fround(0.8 + 0.4 * random()), weight: 0.3 });
    return bench.skeleton.jointCount;
  };
  const distinct = Array.from({ length: DISTINCT_CLIPS }, (_, i) =>
    syntheticClip(bench.skeleton, { seed: 100 + i, frameCount: 31 + (i % 11), name: `cycle${i}` }));
  const mixed = [foxes, additive, reduced, retargeted];
  const robotJoints = Math.max(robot.jointCount, foxSkeleton.jointCount);
  return [
    { name: 'bench crowd (2 dense override clips)', maxJoints: bench.skeleton.jointCount, scenario: benchCrowd(bench.clips) },
    { name: 'Foxes under a state machine', maxJoints: foxSkeleton.jointCount, scenario: foxes, input: foxInput(1) },
    { name: 'Robots with an additive masked upper-body layer', maxJoints: robot.jointCount, scenario: additive },
    { name: 'Robots on reduced clips (1 mm, 16-bit)', maxJoints: robot.jointCount, scenario: reduced },
    { name: 'Robots retargeted onto a 0.8× copy', maxJoints: robot.jointCount, scenario: retargeted },
    { name: 'all four mixed', maxJoints: robotJoints, scenario: (world, n, random) => mixed[n % 4]!(world, n, random), input: foxInput(4) },
    { name: `bench crowd over ${DISTINCT_CLIPS} distinct clips`, maxJoints: bench.skeleton.jointCount, scenario: benchCrowd(distinct) },
  ];
}

export function crowd(count: number, row: RowPlan, kernels: 'js' | 'wasm'): { world: AnimationWorld; joints: number } {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: row.maxJoints, kernels, maxTransitions: count });
  const random = createRandom(11);
  let joints = 0;
  for (let n = 0; n < count; n++) joints += row.scenario(world, n, random);
  return { world, joints };
}

/** Measures the rows (see the file header). */
export async function benchmarkGameCrowd(count: number, frames: number | undefined, dt: number): Promise<GameCrowdResult> {
  const rows: GameCrowdRow[] = [];
  for (const row of await planRows()) {
    collectGarbage();
    const built = [crowd(count, row, 'js'), crowd(count, row, 'wasm')];
    const worlds = built.map((b) => b.world);
    let f = 0;
    const frame = (world: AnimationWorld): void => {
      row.input?.(world, f);
      step(world, dt);
    };
    for (; f < WARMUP_FRAMES; f++) for (const world of worlds) frame(world);
    const times: number[][] = [[], []];
    const measured = Math.max(20, frames ?? 120);
    for (let m = 0; m < measured; m++, f++) {
      for (let n = 0; n < 2; n++) {
        const k = (m + n) % 2;
        const t0 = performance.now();
        frame(worlds[k]!);
        times[k]!.push(performance.now() - t0);
      }
      await Promise.resolve();
    }
    if (worlds[1]!.kernels !== 'wasm') throw new Error('game-crowd bench: the wasm world runs JavaScript kernels (not built?)');
    rows.push({ name: row.name, js: times[0]!, wasm: times[1]!, joints: built[0]!.joints });
  }
  collectGarbage();
  return { count, rows };
}

/** Prints the section. */
export function printGameCrowd(r: GameCrowdResult): void {
  console.log(`\n## Game crowds: N = ${r.count.toLocaleString('en-US')} characters a row, wasm against js\n`);
  console.log('| scenario | js ms/frame | wasm ms/frame | wasm / js | js ns/joint | wasm ns/joint | frames |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const js = median(row.js), wasm = median(row.wasm);
    const ns = (ms: number): string => ((ms * 1e6) / row.joints).toFixed(1);
    console.log(`| ${row.name} | ${formatMs(js)} | ${formatMs(wasm)} | ${(wasm / js).toFixed(2)} | ${ns(js)} | ${ns(wasm)} | ${row.js.length} |`);
  }
  console.log('\nThe two worlds of a row step alternately frame by frame (the order rotating), medians; ns per joint over the crowd\'s joints.');
}

/** BENCH_GAME_CROWD: unset → {@link GAME_CROWD}; 0 → no rows; another positive integer → that crowd size. */
export function parseGameCrowdCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return GAME_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_GAME_CROWD="${value}": expected 0 (skip the game-crowd rows) or a crowd size`);
  return n;
}
