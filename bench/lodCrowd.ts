/**
 * The motion-LOD rows of the crowd benchmark: what distance LOD with update-rate LOD saves on
 * a large crowd, and that it moves the crowd exactly as the full-rate run does.
 *
 * Workload: N characters (10,000 unless BENCH_LOD says otherwise) × 64 joints, each blending
 * two looping clips as in the main table (the plan's start times and speeds), but walking:
 * the clips' root joint travels 1.2 m (cycleA, 1 s) and 1.6 m (cycleB, 1.33 s) per cycle, and
 * root motion moves the characters. They stand on a square grid 2 m apart (≈ 200 m across for
 * 10,000), the LOD camera at its centre, 1.7 m up. Three rows, each its own world, after the
 * same warm-up, measured with the shared harness (`measure`, dt = 1/60 s):
 *
 * - full rate: no LOD (what the 'bitanim step' row does, plus root motion);
 * - distance LOD, k = 1: `setLod` with 3 levels at 30 m and 80 m and level clips registered,
 *   every character still updated every frame — the cost of `lodSystem`, the level lookup and
 *   sampling reduced clips instead of uniform ones;
 * - distance LOD + update-rate LOD: the same levels updated every 1st, 2nd and 4th frame.
 *
 * Level clips: `bakeLod(clip, [1 mm, 1 cm, 3 cm])` (src/offline/lod/reduceClip.ts) — real reductions
 * with the model-space joint error bounded on every frame. Each tolerance is about a third of
 * a pixel where its level starts, with the LOD camera's defaults (60° vertical field of view,
 * 1080 px: a pixel spans 2·d·tan 30° / 1080 ≈ 1.07 mm per metre of distance d): 1 mm is a
 * third of a pixel at 3 m, 1 cm at 30 m, 3 cm at 80 m. Level 0 is the 1 mm reduction too, so
 * every character with LOD samples a reduced clip. Baking runs before the rows (a few seconds).
 *
 * Root travel: after the measured frames each crowd runs 8 frames of dt = 0 (every character
 * catches up on its pending time) and the LOD crowds' world positions are compared with the
 * full-rate crowd's.
 */
import {
  createAnimationWorld,
  createClip,
  play,
  registerLodLevels,
  setLod,
  setLodCamera,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
} from '../src/index.js';
import { bakeLod } from '../src/lod.js';
import { collectGarbage, formatBytes, formatMs, measure, runFrames, type CrowdRunner, type Measurement } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdAssets, type CrowdPlan } from './plan.js';

/** LOD settings of the LOD rows: levels by distance from the camera, metres. */
const DISTANCES = [30, 80];
/** Model-space tolerance of each level's clip (bakeLod), metres: a third of a pixel where the level starts (file header). */
const TOLERANCES = [0.001, 0.01, 0.03];
/** Update-rate LOD of the last LOD row: levels 0 / 1 / 2 updated every 1st, 2nd and 4th frame. */
export const UPDATE_RATE_LOD: readonly number[] = [1, 2, 4];
/** Untimed frames before the measurement (two full update cycles of the coarsest level, and JIT warm-up). */
const WARMUP_FRAMES = 20;
/** Frames of dt = 0 after the measurement, so every character has applied its pending time. */
const FLUSH_FRAMES = 8;
/** Grid spacing, metres. */
const SPACING = 2;
/** Root travel per cycle of each plan clip, metres. */
const TRAVEL = [1.2, 1.6];

interface Variant {
  readonly label: string;
  /** `updateEvery` per level, or null for no LOD. */
  readonly updateEvery: readonly number[] | null;
}

const VARIANTS: readonly Variant[] = [
  { label: 'full rate (no LOD)', updateEvery: null },
  { label: 'distance LOD, k = 1 (levels only)', updateEvery: [1, 1, 1] },
  { label: 'distance LOD + update-rate LOD, k = 1 / 2 / 4', updateEvery: UPDATE_RATE_LOD },
];

/** One row of the LOD table. */
export interface LodRow {
  readonly label: string;
  readonly measurement: Measurement;
  /** Mean share of the crowd the systems animated per measured frame. */
  readonly updatedShare: number;
  /** Share of the crowd at each level after the measured frames (empty without LOD). */
  readonly levelShares: readonly number[];
  /** Largest |Δ| of a world position (x, y, z) from the full-rate crowd after the flush frames, metres. */
  readonly rootDifference: number;
}

/** One baked level, both clips together. */
export interface LodLevel {
  readonly tolerance: number;
  /** Per-channel keys kept / all channel-frames. */
  readonly keyShare: number;
  /** Largest model-space joint error of the two clips, metres. */
  readonly maxError: number;
  readonly bytes: number;
}

/** Everything the LOD section prints. */
export interface LodResult {
  readonly count: number;
  readonly dt: number;
  readonly rows: readonly LodRow[];
  readonly levels: readonly LodLevel[];
  /** Seconds `bakeLod` took for both clips. */
  readonly bakeSeconds: number;
  /** Mean distance a character walked from its start in the full-rate run, metres. */
  readonly meanTravel: number;
}

/** The LOD rows' crowd: the plan's clips walking, and each clip's level clips (`baked[l]`, finest first). */
export interface WalkingCrowd {
  readonly plan: CrowdPlan;
  readonly baked: readonly (readonly Clip[])[];
  /** Seconds `bakeLod` took for both clips. */
  readonly bakeSeconds: number;
}

/** Plans `count` walking characters and bakes the level clips of their two clips (a few seconds). */
export function planWalkingCrowd(assets: CrowdAssets, count: number): WalkingCrowd {
  const plan = planCrowd(assets, count, [0.6, 0.4]);
  const walking = { ...plan, clips: plan.clips.map((clip, l) => withTravel(clip, TRAVEL[l]!)) };
  const bakeStart = performance.now();
  const baked = walking.clips.map((clip) => bakeLod(clip, TOLERANCES));
  return { plan: walking, baked, bakeSeconds: (performance.now() - bakeStart) / 1000 };
}

/** Measures the rows of {@link VARIANTS} on a crowd of `count` characters. */
export async function benchmarkLod(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<LodResult> {
  const { plan: walking, baked, bakeSeconds } = planWalkingCrowd(assets, count);
  const levels = TOLERANCES.map((tolerance, l) => {
    let kept = 0, all = 0, maxError = 0, bytes = 0;
    for (const clips of baked) {
      const stats = clips[l]!.stats!;
      kept += stats.keysAfter;
      all += stats.keysBefore;
      maxError = Math.max(maxError, stats.maxError);
      bytes += clips[l]!.reduced!.byteLength;
    }
    return { tolerance, keyShare: kept / all, maxError, bytes };
  });
  const measured = frames ?? 60;
  const rows: LodRow[] = [];
  let reference: Float64Array | null = null;
  let meanTravel = 0;
  for (const variant of VARIANTS) {
    collectGarbage();
    const crowd = createLodCrowd(walking, variant, baked);
    runFrames(crowd, WARMUP_FRAMES, dt);
    crowd.updates = 0;
    const measurement = await measure(crowd, measured, dt);
    const updatedShare = crowd.updates / (measurement.frames * count);
    runFrames(crowd, FLUSH_FRAMES, 0);
    const positions = crowd.positions();
    if (reference === null) {
      reference = positions;
      meanTravel = crowd.meanTravel();
    }
    let rootDifference = 0;
    for (let i = 0; i < positions.length; i++) rootDifference = Math.max(rootDifference, Math.abs(positions[i]! - reference[i]!));
    rows.push({ label: variant.label, measurement, updatedShare, levelShares: crowd.levelShares(), rootDifference });
  }
  collectGarbage();
  return { count, dt, rows, meanTravel, levels, bakeSeconds };
}

/** Prints the LOD section: the table, the saving, notes. */
export function printLod(r: LodResult): void {
  const joints = r.count * JOINT_COUNT;
  const side = Math.ceil(Math.sqrt(r.count));
  console.log(`\n## Motion LOD: N = ${r.count.toLocaleString('en-US')} walking characters × ${JOINT_COUNT} joints, distance LOD and update-rate LOD\n`);
  console.log(`- a ${side} × ${side} grid ${SPACING} m apart (${((side - 1) * SPACING).toFixed(0)} m across), the LOD camera at its centre, 1.7 m up; level 0 within`);
  console.log(`  ${DISTANCES[0]} m, level 1 from ${DISTANCES[0]} m, level 2 from ${DISTANCES[1]} m (hysteresis 0.1); two blended looping clips per`);
  console.log('  character, walking by root motion');
  const levels = r.levels
    .map((l, i) => `level ${i} ${(1000 * l.tolerance).toFixed(0)} mm: ${(100 * l.keyShare).toFixed(1)} % of keys, max error ${(1000 * l.maxError).toFixed(2)} mm, ${l.bytes.toLocaleString('en-US')} B`)
    .join('; ');
  console.log(`- level clips: bakeLod(clip, [${TOLERANCES.join(', ')}]) m on both clips (${r.bakeSeconds.toFixed(1)} s; a third of a pixel where each level starts,`);
  console.log(`  60° fov, 1080 px): ${levels}`);
  console.log(`- root Δ: largest difference of a world position from the full-rate run after the measured frames and ${FLUSH_FRAMES} frames of dt = 0`);
  console.log(`  (the crowd walked ${r.meanTravel.toFixed(1)} m on average)\n`);
  console.log('| crowd | step ms/frame | ns/joint | vs full rate | animated per frame | levels 0 / 1 / 2 | root Δ, m | allocated B/frame | GCs (pause) | frames |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  const full = r.rows[0]!.measurement.totalMs;
  for (const row of r.rows) {
    const m = row.measurement;
    const major = m.gcCount - m.gcMinor;
    const gcs = m.gcCount === 0 ? '0' : `${m.gcCount}: ${m.gcMinor} minor, ${major} major (${m.gcMs.toFixed(0)} ms)`;
    const levels = row.levelShares.length ? row.levelShares.map((s) => `${(100 * s).toFixed(0)} %`).join(' / ') : '—';
    console.log(
      `| ${row.label} | ${formatMs(m.totalMs)} | ${((m.totalMs * 1e6) / joints).toFixed(0)} | ${(m.totalMs / full).toFixed(2)}× | ` +
        `${(100 * row.updatedShare).toFixed(0)} % | ${levels} | ${row.rootDifference.toExponential(1)} | ${formatBytes(m.allocatedBytesPerFrame)} | ${gcs} | ${m.frames} |`,
    );
  }
  const lod = r.rows[r.rows.length - 1]!.measurement.totalMs;
  console.log(`\nupdate-rate LOD: ${formatMs(lod)} vs ${formatMs(full)} ms/frame at full rate — ${(full / lod).toFixed(2)}× faster, ${(100 * (1 - lod / full)).toFixed(0)} % of the frame saved`);
}

/** A LOD bench crowd: a runner that counts the characters animated per frame. */
interface LodCrowd extends CrowdRunner {
  updates: number;
  positions(): Float64Array;
  levelShares(): number[];
  meanTravel(): number;
}

/** A LOD bench world; see {@link createLodWorld}. */
export interface LodWorld {
  readonly world: AnimationWorld;
  /** Entity id of each character of the plan. */
  readonly eids: Int32Array;
  /** Start position of each character, x and z. */
  readonly start: Float64Array;
}

/**
 * Builds the LOD rows' world: the plan's characters on the grid, walking, with LOD levels
 * updated every `updateEvery[l]` frames (null: no LOD). `levels[l]`: the level clips baked for
 * `plan.clips[l]`, finest first. `threads` as `createAnimationWorld`'s.
 */
export function createLodWorld(plan: CrowdPlan, updateEvery: readonly number[] | null, levels: readonly (readonly Clip[])[], threads: number | 'auto' = 1): LodWorld {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, threads });
  const eids = new Int32Array(plan.count);
  const side = Math.ceil(Math.sqrt(plan.count));
  const start = new Float64Array(plan.count * 2);
  if (updateEvery) {
    plan.clips.forEach((clip, l) => registerLodLevels(world, clip, levels[l]!));
    setLodCamera(world, 0, 1.7, 0);
  }
  for (let i = 0; i < plan.count; i++) {
    const x = ((i % side) - (side - 1) / 2) * SPACING, z = (Math.floor(i / side) - (side - 1) / 2) * SPACING;
    start[i * 2] = x;
    start[i * 2 + 1] = z;
    const eid = spawnCharacter(world, plan.skeleton, { x, z, rootMotion: true });
    eids[i] = eid;
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, plan.clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
    if (updateEvery) setLod(world, eid, { levels: 3, distances: DISTANCES, updateEvery });
  }
  return { world, eids, start };
}

/** `levels[l]`: the level clips baked for `plan.clips[l]`, finest first. */
function createLodCrowd(plan: CrowdPlan, variant: Variant, levels: readonly (readonly Clip[])[]): LodCrowd {
  const { world, eids, start } = createLodWorld(plan, variant.updateEvery, levels);
  const { update, level, enabled } = world.components.Lod;
  const crowd: LodCrowd = {
    label: variant.label,
    phaseNames: ['step'],
    updates: 0,
    frame(dt, phaseMs) {
      const t0 = performance.now();
      step(world, dt);
      phaseMs[0] += performance.now() - t0;
      crowd.updates += countUpdated(eids, update);
    },
    positions() {
      const { x, y, z } = world.components.RootMotion;
      return Float64Array.from({ length: plan.count * 3 }, (_, k) => [x, y, z][k % 3]![eids[Math.floor(k / 3)]!]!);
    },
    levelShares() {
      if (!variant.updateEvery) return [];
      const shares = [0, 0, 0];
      for (const eid of eids) if (enabled[eid]) shares[level[eid]!]! += 1 / plan.count;
      return shares;
    },
    meanTravel() {
      const { x, z } = world.components.RootMotion;
      let sum = 0;
      eids.forEach((eid, i) => { sum += Math.hypot(x[eid]! - start[i * 2]!, z[eid]! - start[i * 2 + 1]!); });
      return sum / plan.count;
    },
  };
  return crowd;
}

/** Characters whose `Lod.update` is 1 (all of them without LOD). */
function countUpdated(eids: Int32Array, update: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < eids.length; i++) n += update[eids[i]!]!;
  return n;
}

/** `clip` with its root joint (joint 0) also moving `distance` metres along +Z per cycle, linearly. */
function withTravel(clip: Clip, distance: number): Clip {
  const size = clip.skeleton.jointCount * 10;
  const frames = clip.frames.slice();
  for (let f = 0; f < clip.frameCount; f++) frames[f * size + 2] = frames[f * size + 2]! + (distance * f) / (clip.frameCount - 1);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: clip.loop, name: `${clip.name}+walk` });
}
