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
 * Run: `npx tsc -p tsconfig.bench.json && node --expose-gc .bench-build/bench/stateMachineCrowd.js`.
 */
import {
  createAnimationWorld, createBlendSpace, createStateMachine, fireTrigger, setBlendSpace, setParameter, setStateMachine, spawnCharacter, step,
  stop, transition, type AnimationWorld, type TransitionOptions,
} from '../src/index.js';
import { syntheticClip, syntheticSkeleton } from '../test/fixtures/synthetic.js';

const COUNT = Number(process.env['BENCH_MACHINE_COUNT'] ?? 10_000);
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

function crowd(): { world: AnimationWorld; eids: Int32Array } {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: JOINTS, maxTransitions: COUNT });
  const eids = new Int32Array(COUNT);
  for (let i = 0; i < COUNT; i++) eids[i] = spawnCharacter(world, skeleton);
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
  for (let i = 0; i < COUNT; i++) {
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
  for (let i = 0; i < COUNT; i++) {
    const eid = eids[i]!;
    setParameter(world, eid, 'speed', speedAt(f, i));
    if (jumpsAt(f, i)) fireTrigger(world, eid, 'jump');
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Runs the row; returns the medians (ms per frame) and their ratio. */
export function benchmarkStateMachines(): { machine: number; hand: number; ratio: number; machineHeap: number; handHeap: number; machineInputs: number; handInputs: number } {
  const m = crowd(), h = crowd();
  for (let i = 0; i < COUNT; i++) setStateMachine(m.world, m.eids[i]!, machine);
  const state = new Uint8Array(COUNT), speed = new Float32Array(COUNT), pending = new Uint8Array(COUNT);
  for (let i = 0; i < COUNT; i++) transition(h.world, h.eids[i]!, idle, { duration: 0 });
  const machineMs: number[] = [], handMs: number[] = [];
  // heapUsed across `step` alone (what the frame allocates, inputs aside), medians.
  const machineHeap: number[] = [], handHeap: number[] = [];
  const machineInputs: number[] = [], handInputs: number[] = [];
  for (let f = 0; f < WARM_UP + FRAMES; f++) {
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
  const result = {
    machine: median(machineMs), hand: median(handMs), ratio: 0, machineHeap: median(machineHeap), handHeap: median(handHeap),
    machineInputs: median(machineInputs), handInputs: median(handInputs),
  };
  result.ratio = result.machine / result.hand;
  return result;
}

if (process.argv[1]?.endsWith('stateMachineCrowd.js')) {
  const r = benchmarkStateMachines();
  console.log(`| ${COUNT.toLocaleString('en')} characters, ${JOINTS} joints, locomotion machine | machine ${r.machine.toFixed(2)} ms | by hand ${r.hand.toFixed(2)} ms | ratio ${r.ratio.toFixed(3)} | inputs: machine ${r.machineInputs.toFixed(2)} ms, by hand ${r.handInputs.toFixed(2)} ms | step heap median: machine ${r.machineHeap} B, by hand ${r.handHeap} B |`);
}
