/**
 * The workload of `npm run bench` (bench/plan.ts, test/fixtures/synthetic.ts), rebuilt here
 * because the sandbox imports nothing but the package's public entry: a 64-joint synthetic
 * tree, two looping clips (31 and 41 frames at 30 fps), and per character two start times
 * and playback rates from the same seeded generator. The numbers are those of the bench, so
 * the crowd view's per-system figures in "bench" mode compare with its table directly.
 */
import { createClip, createSkeleton, type Clip, type Skeleton } from 'bitanim';

/** mulberry32, as test/fixtures/synthetic.ts. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function axisAngle(ax: number, ay: number, az: number, angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

function treeParents(jointCount: number, seed: number): number[] {
  const random = createRandom(seed);
  const parents = [-1];
  for (let j = 1; j < jointCount; j++) parents.push(random() < 0.7 ? j - 1 : Math.floor(random() * j));
  return parents;
}

function syntheticSkeleton(jointCount: number, seed = 1): Skeleton {
  const random = createRandom(seed * 7919);
  const rest: number[] = [];
  for (let j = 0; j < jointCount; j++) {
    const len = Math.hypot(random() - 0.5, random() - 0.5, random() - 0.5) || 1;
    const q = axisAngle((random() - 0.5) / len, (random() - 0.5) / len, (random() - 0.5) / len, 0.3 * random());
    const qn = Math.hypot(...q);
    rest.push(
      j === 0 ? 0 : 0.1 * (random() - 0.5), j === 0 ? 1 : 0.1 + 0.05 * random(), j === 0 ? 0 : 0.1 * (random() - 0.5),
      q[0] / qn, q[1] / qn, q[2] / qn, q[3] / qn,
      1, 1, 1,
    );
  }
  const names = Array.from({ length: jointCount }, (_, j) => (j === 0 ? 'root' : j === 1 ? 'hips' : `joint${j}`));
  return createSkeleton({ names, parents: treeParents(jointCount, seed), rest });
}

function syntheticClip(skeleton: Skeleton, seed: number, frameCount: number, name: string): Clip {
  const frameRate = 30, amplitude = 0.6;
  const random = createRandom(seed * 104729);
  const J = skeleton.jointCount;
  const axes: number[][] = [];
  const phases: number[] = [];
  for (let j = 0; j < J; j++) {
    const v = [random() - 0.5, random() - 0.5, random() - 0.5];
    const n = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
    axes.push(v.map((c) => c / n));
    phases.push(2 * Math.PI * random());
  }
  const frames = new Float32Array(frameCount * J * 10);
  for (let f = 0; f < frameCount; f++) {
    const cycle = (2 * Math.PI * f) / (frameCount - 1 || 1);
    for (let j = 0; j < J; j++) {
      const o = (f * J + j) * 10;
      const r = j * 10;
      const a = axes[j]!;
      const dq = axisAngle(a[0]!, a[1]!, a[2]!, amplitude * Math.sin(cycle + phases[j]!));
      const rx = skeleton.rest[r + 3]!, ry = skeleton.rest[r + 4]!, rz = skeleton.rest[r + 5]!, rw = skeleton.rest[r + 6]!;
      const x = dq[3] * rx + dq[0] * rw + dq[1] * rz - dq[2] * ry;
      const y = dq[3] * ry - dq[0] * rz + dq[1] * rw + dq[2] * rx;
      const z = dq[3] * rz + dq[0] * ry - dq[1] * rx + dq[2] * rw;
      const w = dq[3] * rw - dq[0] * rx - dq[1] * ry - dq[2] * rz;
      const n = Math.hypot(x, y, z, w);
      frames[o] = skeleton.rest[r]! + (j === 0 ? 0.2 * Math.sin(cycle) : 0);
      frames[o + 1] = skeleton.rest[r + 1]! + (j === 0 ? 0.05 * Math.sin(2 * cycle) : 0);
      frames[o + 2] = skeleton.rest[r + 2]! + (j === 0 ? 0.2 * Math.cos(cycle) - 0.2 : 0);
      frames[o + 3] = x / n;
      frames[o + 4] = y / n;
      frames[o + 5] = z / n;
      frames[o + 6] = w / n;
      const s = 1 + 0.03 * Math.sin(cycle + phases[j]!);
      frames[o + 7] = s;
      frames[o + 8] = s;
      frames[o + 9] = s;
    }
  }
  return createClip({ skeleton, frameRate, frames, loop: true, name });
}

let cached: { skeleton: Skeleton; clips: Clip[] } | undefined;

/** The bench's skeleton and its two clips (cycleA: 31 frames, cycleB: 41 frames). */
export function benchRig(): { skeleton: Skeleton; clips: Clip[] } {
  if (!cached) {
    const skeleton = syntheticSkeleton(64);
    cached = { skeleton, clips: [syntheticClip(skeleton, 2, 31, 'cycleA'), syntheticClip(skeleton, 3, 41, 'cycleB')] };
  }
  return cached;
}

/** The bench's layer weights. */
export const BENCH_WEIGHTS = [0.6, 0.4] as const;

/**
 * Start times and rates of `count` characters' two layers, as bench/plan.ts `planCrowd`
 * (seed 42): index `character × 2 + layer`.
 */
export function benchPlan(clips: readonly Clip[], count: number): { startTime: Float64Array; speed: Float64Array } {
  const random = createRandom(42);
  const startTime = new Float64Array(count * 2);
  const speed = new Float64Array(count * 2);
  for (let i = 0; i < count * 2; i++) {
    startTime[i] = random() * clips[i % 2]!.duration;
    speed[i] = Math.fround(0.8 + 0.4 * random());
  }
  return { startTime, speed };
}
