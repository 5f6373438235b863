/**
 * The look-at and reach rows of the crowd benchmark: what followers, look-at and two-bone
 * reach cost on a large crowd, relative to the plain `step`.
 *
 * Workload: N characters (10,000 unless BENCH_AIM says otherwise) × 64 joints of the plan's
 * synthetic skeleton, each blending the two looping clips as in the main table (the plan's
 * start times and speeds), standing on a grid 2 m apart, turned to varied headings. Two rows,
 * each its own world, after the same warm-up, measured with the shared harness (`measure`,
 * dt = 1/60 s):
 *
 * - plain step: the crowd as it is, nothing aimed;
 * - followers + look-at + reach: every character also has a minimum-jerk follower, a look-at
 *   over three joints (head, neck, spine: the skeleton's deepest joint and its two parents,
 *   shares 0.3 / 0.2, default limits) and a two-bone reach (the deepest chain of three joints
 *   outside the look-at chain). Each frame 1/`RETARGET_FRAMES` of the crowd gets a new
 *   follower target (`setFollowTarget`, timed as the phase 'targets'), a point up to 1 m around
 *   the character at chest height, so targets go in and out of reach and of the limits.
 *
 * `step` runs the followers, look-at and reach itself (the frame table's follow and aim systems,
 * before skin), so both rows time `step` alone.
 */
import { setLookAt, setReach } from '../src/api/aim.js';
import { setFollowTarget } from '../src/api/followers.js';
import { createAnimationWorld, play, spawnCharacter, step, type AnimationWorld, type Skeleton } from '../src/index.js';
import { createRandom } from '../test/fixtures/synthetic.js';
import { collectGarbage, formatBytes, formatMs, measure, runFrames, type CrowdRunner, type Measurement } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, planCrowd, type CrowdAssets, type CrowdPlan } from './plan.js';

/** Crowd size of the aim rows unless BENCH_AIM says otherwise. */
export const AIM_CROWD = 10_000;
/** Frames between two new targets of one character (0.2 s at 60 Hz, the follower's sampling interval). */
const RETARGET_FRAMES = 12;
/** Untimed frames before the measurement. */
const WARMUP_FRAMES = 24;
/** Measuring rounds, alternating the two crowds. */
const ROUNDS = 3;
/** Grid spacing, metres. */
const SPACING = 2;

/** The joints aimed on the plan's skeleton. */
export interface AimJoints {
  readonly head: number;
  readonly neck: number;
  readonly spine: number;
  readonly upper: number;
  readonly lower: number;
  readonly end: number;
}

/** One row of the aim table. */
export interface AimRow {
  readonly label: string;
  readonly measurement: Measurement;
  /** `setFollowTarget` calls per frame. */
  readonly callsPerFrame: number;
  /** ms/frame without the 'targets' phase of every round (the row keeps the fastest round). */
  readonly roundTotals: readonly number[];
}

/** Everything the aim section prints. */
export interface AimResult {
  readonly count: number;
  readonly joints: AimJoints;
  readonly names: readonly string[];
  readonly rows: readonly AimRow[];
}

/**
 * The look-at chain: the deepest joint (ties: the lowest index), its parent and grandparent.
 * The reach chain: the deepest joint of depth ≥ 2 whose chain of three shares no joint with
 * the head's path to the root (so the reach neither moves the head after its aim nor is an
 * ancestor of it).
 */
export function pickAimJoints(skeleton: Skeleton): AimJoints {
  const { parents } = skeleton;
  const depth = new Int32Array(skeleton.jointCount);
  for (let j = 1; j < skeleton.jointCount; j++) depth[j] = parents[j]! < 0 ? 0 : depth[parents[j]!]! + 1;
  const deepest = (exclude: ReadonlySet<number>): number => {
    let best = -1;
    for (let j = 0; j < skeleton.jointCount; j++) {
      if (depth[j]! < 2) continue;
      const p = parents[j]!, g = parents[p]!;
      if (exclude.has(j) || exclude.has(p) || exclude.has(g)) continue;
      if (best < 0 || depth[j]! > depth[best]!) best = j;
    }
    if (best < 0) throw new Error('aim bench: the skeleton has no free chain of three joints');
    return best;
  };
  const head = deepest(new Set());
  const neck = parents[head]!, spine = parents[neck]!;
  const headPath = new Set<number>();
  for (let k = head; k >= 0; k = parents[k]!) headPath.add(k);
  const end = deepest(headPath);
  const lower = parents[end]!, upper = parents[lower]!;
  return { head, neck, spine, upper, lower, end };
}

/** A crowd of the plan, optionally aiming; see the file header. */
interface AimCrowd extends CrowdRunner {
  readonly world: AnimationWorld;
  readonly eids: Int32Array;
  readonly calls: () => number;
}

function createAimCrowd(plan: CrowdPlan, joints: AimJoints | null): AimCrowd {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT });
  const eids = new Int32Array(plan.count);
  const side = Math.ceil(Math.sqrt(plan.count));
  const random = createRandom(77);
  // Targets: a new one per character every RETARGET_FRAMES frames, staggered; precomputed so
  // the frame does not draw random numbers (positions relative to the character, world space).
  const targets = new Float64Array(plan.count * 3 * 4);
  for (let i = 0; i < plan.count; i++) {
    const x = (i % side) * SPACING, z = Math.floor(i / side) * SPACING;
    const eid = spawnCharacter(world, plan.skeleton, { x, z, yaw: random() * 2 * Math.PI });
    eids[i] = eid;
    for (let layer = 0; layer < LAYER_COUNT; layer++) {
      const k = i * LAYER_COUNT + layer;
      play(world, eid, plan.clips[layer]!, { layer, weight: plan.weights[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
    for (let t = 0; t < 4; t++) {
      targets[(i * 4 + t) * 3] = x + random() * 2 - 1;
      targets[(i * 4 + t) * 3 + 1] = 0.9 + random() * 0.8;
      targets[(i * 4 + t) * 3 + 2] = z + random() * 2 - 1;
    }
    if (joints) {
      setLookAt(world, eid, { joint: joints.head, neck: joints.neck, spine: joints.spine, neckFraction: 0.3, spineFraction: 0.2 });
      setReach(world, eid, { upper: joints.upper, lower: joints.lower, end: joints.end });
    }
  }
  let frameIndex = 0;
  let calls = 0;
  const frame = (dt: number, phaseMs: Float64Array): void => {
    const t0 = performance.now();
    if (joints) {
      const slot = frameIndex % RETARGET_FRAMES;
      const round = Math.floor(frameIndex / RETARGET_FRAMES) % 4;
      for (let i = slot; i < plan.count; i += RETARGET_FRAMES) {
        const o = (i * 4 + round) * 3;
        setFollowTarget(world, eids[i]!, targets[o]!, targets[o + 1]!, targets[o + 2]!);
        calls++;
      }
    }
    const t1 = performance.now();
    step(world, dt);
    const t2 = performance.now();
    phaseMs[0] += t1 - t0;
    phaseMs[1] += t2 - t1;
    frameIndex++;
  };
  return {
    label: joints ? 'followers + look-at + reach' : 'plain step',
    phaseNames: ['targets', 'step'],
    world,
    eids,
    calls: () => calls,
    frame,
  };
}

/**
 * Measures the two rows on a crowd of `count` characters: both crowds built first, then
 * `ROUNDS` rounds each measuring the plain crowd and then the aiming one for a third of the
 * frames, keeping each row's fastest round. Interleaving matters on a shared machine: the
 * load of other processes drifts over seconds, and measuring one row after the other would
 * put that drift into the ratio.
 */
export async function benchmarkAim(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<AimResult> {
  const plan = planCrowd(assets, count, [0.6, 0.4]);
  const joints = pickAimJoints(plan.skeleton);
  collectGarbage();
  const crowds = [createAimCrowd(plan, null), createAimCrowd(plan, joints)];
  for (const crowd of crowds) runFrames(crowd, WARMUP_FRAMES, dt);
  const perRound = Math.max(10, Math.round((frames ?? 60) / ROUNDS));
  const best: (AimRow | null)[] = [null, null];
  const totals: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < crowds.length; k++) {
      const crowd = crowds[k]!;
      const before = crowd.calls();
      const measurement = await measure(crowd, perRound, dt);
      totals[k]!.push(measurement.totalMs - measurement.phaseMs[0]!);
      const row = { label: crowd.label, measurement, callsPerFrame: (crowd.calls() - before) / measurement.frames, roundTotals: totals[k]! };
      if (best[k] === null || measurement.totalMs < best[k]!.measurement.totalMs) best[k] = row;
    }
  }
  for (const crowd of crowds) {
    if (!crowd.world.components.SkinPalette.data.every(Number.isFinite)) throw new Error(`aim bench '${crowd.label}': a palette is not finite`);
  }
  collectGarbage();
  return { count, joints, names: plan.skeleton.names, rows: best as AimRow[] };
}

/** Prints the aim section: the table, the cost relative to the plain step, notes. */
export function printAim(r: AimResult): void {
  const joints = r.count * JOINT_COUNT;
  const j = r.joints;
  const name = (joint: number): string => `${r.names[joint]} (${joint})`;
  console.log(`\n## Followers + look-at + reach: N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints, two blended clips each\n`);
  console.log(`- look-at over ${name(j.spine)} → ${name(j.neck)} → ${name(j.head)} (shares 0.2 / 0.3 / 0.5, limits 70° / 40°);`);
  console.log(`  reach ${name(j.upper)} → ${name(j.lower)} → ${name(j.end)}; every character has both, and a new follower target every`);
  console.log(`  ${RETARGET_FRAMES} frames (1/${RETARGET_FRAMES} of the crowd per frame), within 1 m around it at 0.9–1.7 m height`);
  console.log('- `step` runs followers, look-at and reach itself (the follow and aim systems of the frame table, before skin)\n');
  console.log('| crowd | phases, ms/frame | total ms/frame | ns/joint | allocated B/frame ² | GCs (pause) | targets/frame | frames |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const m = row.measurement;
    const phases = m.phaseNames.map((n, p) => `${n} ${formatMs(m.phaseMs[p]!)}`).join(' · ');
    const major = m.gcCount - m.gcMinor;
    const gcs = m.gcCount === 0 ? '0' : `${m.gcCount}: ${m.gcMinor} minor, ${major} major (${m.gcMs.toFixed(0)} ms)`;
    console.log(`| ${row.label} | ${phases} | ${formatMs(m.totalMs)} | ${((m.totalMs * 1e6) / joints).toFixed(0)} | ${formatBytes(m.allocatedBytesPerFrame)} | ${gcs} | ${row.callsPerFrame.toFixed(0)} | ${m.frames} |`);
  }
  const plain = r.rows[0]!.measurement, aimed = r.rows[1]!.measurement;
  const plainStep = plain.phaseMs[1]!;
  const aimedWork = aimed.phaseMs[1]!;
  const extra = aimedWork - plainStep;
  console.log(`\nfollowers + look-at + reach: ${formatMs(aimedWork)} ms/frame vs the plain step's ${formatMs(plainStep)} — ×${(aimedWork / plainStep).toFixed(2)}, ` +
    `+${formatMs(extra)} ms/frame (${((extra * 1e6) / r.count).toFixed(0)} ns per character); the setFollowTarget calls ${formatMs(aimed.phaseMs[0]!)} ms/frame on top`);
  console.log(`- each row is the fastest of ${r.rows[0]!.roundTotals.length} rounds measured alternately; ms/frame of the rounds (targets phase aside): ` +
    r.rows.map((row) => `${row.label} ${row.roundTotals.map(formatMs).join(' / ')}`).join('; '));
  console.log('- allocated B/frame of the aiming row is the setFollowTarget calls\' (option checks); `step` and aimSystem allocate nothing (test/aim/allocation.test.ts)');
}

/** BENCH_AIM: unset → {@link AIM_CROWD}; 0 → no aim rows; another positive integer → that crowd size. */
export function parseAimCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return AIM_CROWD;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_AIM="${value}": expected 0 (skip the aim rows) or a crowd size`);
  return n;
}
