/**
 * State machines on a crowd vs the same switches made by hand (issue 21's bench row): N
 * characters (default 10,000; BENCH_MACHINE_COUNT) each run a locomotion machine (idle, a
 * walk/run 1-D blend space by `speed`, jump on a trigger, land at exit time 0.9, back to idle
 * or move at exit time 0.8) with parameters changing every half second, staggered; a second
 * world of the same crowd gets the same switches from a controller written against
 * `transition` / `setBlendSpace` / `stop` (typed arrays, options objects made once).
 *
 * A frame is the game's inputs (setParameter / fireTrigger, or the controller's calls) plus
 * `step`. The two worlds alternate frame by frame (so drift in the machine's clock or heat
 * hits both), each timed alone; the row gives the medians and their ratio (target ≤ 1.15).
 *
 * `npm run bench` prints it (bench/crowd.ts, after the transition rows); BENCH_MACHINES=0 skips
 * it, another number runs it at that crowd size. Alone: `npx tsc -p tsconfig.bench.json && node
 * --expose-gc .bench-build/bench/stateMachineCrowd.js` (BENCH_MACHINE_COUNT, BENCH_MACHINE_FRAMES).
 */
import {
  createAnimationWorld, createBlendSpace, createStateMachine, fireTrigger, setBlendSpace, setParameter, setStateMachine, spawnCharacter, step,
  stop, transition, type AnimationWorld, type TransitionOptions,
} from '../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../test/fixtures/synthetic.js';

/** Crowd size of the row unless BENCH_MACHINES (in `npm run bench`) or BENCH_MACHINE_COUNT (alone) says otherwise. */
export const MACHINE_CROWD = 10_000;
/** Measured frames of each world unless BENCH_MACHINE_FRAMES says otherwise. */
const FRAMES = Number(process.env['BENCH_MACHINE_FRAMES'] ?? 600);
const WARM_UP = 240;
const DT = 1 / 60;
const JOINTS = 32;

const skeleton = syntheticSkeleton(JOINTS, 5);
const idle = syntheticClip(skeleton, { seed: 11, frameCount: 37, name: 'idle' });
const walk = syntheticClip(skeleton, { seed: 12, frameCount: 25, name: 'walk' });
const run = syntheticClip(skeleton, { seed: 13, frameCount: 19, name: 'run' });
const jump = syntheticClip(skeleton, { seed: 14, frameCount: 22, loop: false, name: 'jump' });
const land = syntheticClip(skeleton, { seed: 15, frameCount: 13, loop: false, name: 'land' });
const space = createBlendSpace({ type: '1d', samples: [{ clip: walk, x: 1 }, { clip: run, x: 3 }] });
const machine = createStateMachine({
  parameters: [{ name: 'speed', type: 'float' }, { name: 'jump', type: 'trigger' }],
  states: [
    { name: 'idle', clip: idle },
    { name: 'move', blendSpace: space, x: 'speed' },
    { name: 'jump', clip: jump },
    { name: 'land', clip: land },
  ],
  transitions: [
    { from: 'idle', to: 'jump', when: [['jump']], duration: 0.1 },
    { from: 'move', to: 'jump', when: [['jump']], duration: 0.1 },
    { from: 'idle', to: 'move', when: [['speed', '>', 0.1]], duration: 0.2 },
    { from: 'move', to: 'idle', when: [['speed', '<=', 0.1]], duration: 0.25 },
    { from: 'jump', to: 'land', exitTime: 0.9, duration: 0.1 },
    { from: 'land', to: 'move', exitTime: 0.8, when: [['speed', '>', 0.1]], duration: 0.15 },
    { from: 'land', to: 'idle', exitTime: 0.8, when: [['speed', '<=', 0.1]], duration: 0.15 },
  ],
  initial: 'idle',
});

/** Speeds (exact in float32), as heap numbers; character i's at frame f: SPEEDS[(⌊(f + 7i) / 30⌋ + i) mod 5]. */
const SPEEDS: number[] = [0, 1.5, 2, 2.5, 3, 'generic' as unknown as number];
const speedAt = (f: number, i: number): number => SPEEDS[(Math.floor((f + 7 * i) / 30) + i) % 5]!;
const jumpsAt = (f: number, i: number): boolean => (f + 13 * i) % 300 === 0;

function crowd(count: number): { world: AnimationWorld; eids: Int32Array } {
  const world = createAnimationWorld({ maxEntities: count, maxJoints: JOINTS, maxTransitions: count });
  const eids = new Int32Array(count);
  for (let i = 0; i < count; i++) eids[i] = spawnCharacter(world, skeleton);
  return { world, eids };
}

const IDLE = 0, MOVE = 1, JUMP = 2, LAND = 3;
const TO_JUMP: TransitionOptions = { duration: 0.1, weight: 1 };
const TO_MOVE = (duration: number): TransitionOptions => ({ duration, weight: 1 });
const TO_MOVE_IDLE = TO_MOVE(0.2), TO_MOVE_LAND = TO_MOVE(0.15);
const TO_IDLE_MOVE: TransitionOptions = { duration: 0.25, weight: 1 };
const TO_IDLE_LAND: TransitionOptions = { duration: 0.15, weight: 1 };
const TO_LAND: TransitionOptions = { duration: 0.1, weight: 1 };

/** The hand-made switches: the machine's rules written against the public calls. */
function handFrame(world: AnimationWorld, eids: Int32Array, state: Uint8Array, speed: Float32Array, pending: Uint8Array, f: number): void {
  const { Layers } = world.components;
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i]!;
    const v = speedAt(f, i);
    if (jumpsAt(f, i)) pending[i] = 1;
    const li = eid * 4;
    const clipId = Layers.clip[li]!;
    const phase = clipId >= 0 ? Math.min(1, Layers.time[li]! / world.assets.clips[clipId]!.duration) : 0;
    const s = state[i]!;
    if (pending[i] === 1 && (s === IDLE || s === MOVE)) {
      pending[i] = 0;
      transition(world, eid, jump, TO_JUMP);
      if (s === MOVE) stop(world, eid, 1);
      state[i] = JUMP;
    } else if (s === IDLE && v > 0.1) {
      transition(world, eid, walk, TO_MOVE_IDLE);
      setBlendSpace(world, eid, space, v);
      speed[i] = v;
      state[i] = MOVE;
    } else if (s === MOVE && v <= 0.1) {
      transition(world, eid, idle, TO_IDLE_MOVE);
      stop(world, eid, 1);
      state[i] = IDLE;
    } else if (s === JUMP && phase >= 0.9) {
      transition(world, eid, land, TO_LAND);
      state[i] = LAND;
    } else if (s === LAND && phase >= 0.8) {
      if (v > 0.1) {
        transition(world, eid, walk, TO_MOVE_LAND);
        setBlendSpace(world, eid, space, v);
        speed[i] = v;
        state[i] = MOVE;
      } else {
        transition(world, eid, idle, TO_IDLE_LAND);
        state[i] = IDLE;
      }
    } else if (s === MOVE && speed[i] !== v) {
      setBlendSpace(world, eid, space, v);
      speed[i] = v;
    }
  }
}

function machineFrame(world: AnimationWorld, eids: Int32Array, f: number): void {
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i]!;
    setParameter(world, eid, 'speed', speedAt(f, i));
    if (jumpsAt(f, i)) fireTrigger(world, eid, 'jump');
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** The row's medians (ms per frame: inputs + step), their ratio, and the parts. */
export interface StateMachineResult {
  readonly count: number;
  readonly frames: number;
  /** Machine world: setParameter / fireTrigger + step. */
  readonly machine: number;
  /** Hand world: the controller's transition / setBlendSpace / stop calls + step. */
  readonly hand: number;
  /** machine / hand (target ≤ 1.15). */
  readonly ratio: number;
  /** Median heapUsed growth across `step` alone, bytes. */
  readonly machineHeap: number;
  readonly handHeap: number;
  /** Median ms of the inputs alone. */
  readonly machineInputs: number;
  readonly handInputs: number;
}

/** Runs the row on `count` characters; returns the medians (ms per frame) and their ratio. */
export function benchmarkStateMachines(count = MACHINE_CROWD, frames = FRAMES): StateMachineResult {
  const m = crowd(count), h = crowd(count);
  for (let i = 0; i < count; i++) setStateMachine(m.world, m.eids[i]!, machine);
  const state = new Uint8Array(count), speed = new Float32Array(count), pending = new Uint8Array(count);
  for (let i = 0; i < count; i++) transition(h.world, h.eids[i]!, idle, { duration: 0 });
  const machineMs: number[] = [], handMs: number[] = [];
  // heapUsed across `step` alone (what the frame allocates, inputs aside), medians.
  const machineHeap: number[] = [], handHeap: number[] = [];
  const machineInputs: number[] = [], handInputs: number[] = [];
  for (let f = 0; f < WARM_UP + frames; f++) {
    let t = performance.now();
    machineFrame(m.world, m.eids, f);
    const mi = performance.now() - t;
    const m0 = process.memoryUsage().heapUsed;
    step(m.world, DT);
    const m1 = process.memoryUsage().heapUsed;
    const a = performance.now() - t;
    t = performance.now();
    handFrame(h.world, h.eids, state, speed, pending, f);
    const hi = performance.now() - t;
    const h0 = process.memoryUsage().heapUsed;
    step(h.world, DT);
    const h1 = process.memoryUsage().heapUsed;
    const b = performance.now() - t;
    if (f >= WARM_UP) machineMs.push(a), handMs.push(b), machineHeap.push(m1 - m0), handHeap.push(h1 - h0), machineInputs.push(mi), handInputs.push(hi);
  }
  const machineMedian = median(machineMs), handMedian = median(handMs);
  return {
    count, frames, machine: machineMedian, hand: handMedian, ratio: machineMedian / handMedian,
    machineHeap: median(machineHeap), handHeap: median(handHeap), machineInputs: median(machineInputs), handInputs: median(handInputs),
  };
}

/** Prints the row as a section of `npm run bench`. */
export function printStateMachines(r: StateMachineResult): void {
  console.log(`\n## State machines: N = ${r.count.toLocaleString('en-US')} characters × ${JOINTS} joints, a locomotion machine each vs the same switches by hand\n`);
  console.log('- machine: setParameter(speed) for every character every frame (values change every half second, staggered) and a jump');
  console.log('  trigger every 5 s; by hand: a controller making the same switches with transition / setBlendSpace / stop');
  console.log(`- the two worlds alternate frame by frame, each timed alone (inputs + step); medians of ${r.frames} frames after ${WARM_UP} warm-up\n`);
  console.log('| crowd | machine ms/frame | by hand ms/frame | ratio (target ≤ 1.15) | inputs: machine / by hand ms | step heap median B: machine / by hand |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| ${r.count.toLocaleString('en-US')} | ${r.machine.toFixed(2)} | ${r.hand.toFixed(2)} | ${r.ratio.toFixed(3)} | ${r.machineInputs.toFixed(2)} / ${r.handInputs.toFixed(2)} | ${r.machineHeap} / ${r.handHeap} |`);
}

/** BENCH_MACHINES: unset → {@link MACHINE_CROWD}; 0 → no state-machine row; another positive integer → that crowd size. */
export function parseMachineCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return MACHINE_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_MACHINES="${value}": expected 0 (skip the state-machine row) or a crowd size`);
  return n;
}

if (process.argv[1]?.endsWith('stateMachineCrowd.js')) {
  printStateMachines(benchmarkStateMachines(Number(process.env['BENCH_MACHINE_COUNT'] ?? MACHINE_CROWD)));
}
