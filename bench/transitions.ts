/**
 * The transition rows of the crowd benchmark: a crowd of one size (10,000 characters × 64
 * joints unless BENCH_TRANSITIONS says otherwise) that never stops transitioning, once per
 * mode, and once without transitions as the reference. See transitionCrowd.ts for the workload.
 *
 * Each row: its own world, 2 periods of warm-up frames (every character has switched at least
 * twice, so the measured frames are the steady state of "always transitioning"), then a
 * whole number of periods measured with the shared harness (`measure`).
 */
import { collectGarbage, formatBytes, formatMs, measure, runFrames, type Measurement } from './measure.js';
import { JOINT_COUNT, planCrowd, type CrowdAssets } from './plan.js';
import {
  createTransitionCrowd,
  TRANSITION_DURATION,
  TRANSITION_PERIOD_FRAMES,
  TRANSITION_VARIANTS,
} from './transitionCrowd.js';

/** One row of the transition table. */
export interface TransitionRow {
  readonly label: string;
  /** Phases 'transition' (the calls) and 'step', ms/frame; heap and GC figures of whole frames. */
  readonly measurement: Measurement;
  /** `transition` calls per measured frame. */
  readonly callsPerFrame: number;
  /** Median over frames of `heapUsed` after `step` − before it, bytes. */
  readonly stepBytesPerFrame: number;
  /** Mean share of characters mid-transition after a measured `step`. */
  readonly busyShare: number;
}

/** Everything the transition section prints. */
export interface TransitionResult {
  readonly count: number;
  /** Frame step, seconds. */
  readonly dt: number;
  readonly rows: readonly TransitionRow[];
}

/** Measures every row of {@link TRANSITION_VARIANTS} on a crowd of `count` characters. */
export async function benchmarkTransitions(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<TransitionResult> {
  const plan = planCrowd(assets, count, [1, 1]);
  const rows: TransitionRow[] = [];
  for (const variant of TRANSITION_VARIANTS) {
    collectGarbage();
    const crowd = createTransitionCrowd(plan, variant);
    runFrames(crowd, 2 * TRANSITION_PERIOD_FRAMES, dt);
    crowd.resetCounters();
    const measurement = await measure(crowd, frames ?? 3 * TRANSITION_PERIOD_FRAMES, dt);
    if (!crowd.finite()) throw new Error(`transition bench '${variant.label}': a pose is not finite`);
    const heap = crowd.stepHeap();
    const busy = crowd.busy();
    rows.push({
      label: variant.label,
      measurement,
      callsPerFrame: crowd.calls() / measurement.frames,
      stepBytesPerFrame: heap.median,
      busyShare: busy.share / busy.frames,
    });
  }
  collectGarbage();
  return { count, dt, rows };
}

/** Prints the transition section: the table, the verdict on quintic vs smooth cross-fade, notes. */
export function printTransitions(r: TransitionResult): void {
  const joints = r.count * JOINT_COUNT;
  const periodSeconds = TRANSITION_PERIOD_FRAMES * r.dt;
  console.log(`\n## Transitions: N = ${r.count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints, one layer, always transitioning\n`);
  console.log(`- every character plays cycleA or cycleB on layer 0 and switches to the other every ${TRANSITION_PERIOD_FRAMES} frames (${Number(periodSeconds.toFixed(3))} s),`);
  console.log(`  staggered so ~1/${TRANSITION_PERIOD_FRAMES} of the crowd calls \`transition\` before each frame; each transition takes ${TRANSITION_DURATION} s`);
  console.log('- `step` and the `transition` calls are timed apart; ns/joint = step / (N × 64). The reference row plays one clip');
  console.log('  on one layer and never transitions (the \'bitanim step\' rows above blend two layers)\n');
  console.log('| mode | step ms/frame | ns/joint | step heap B/frame (median) ³ | transition calls/frame | transition ms/frame (µs/call) | frame allocated B/frame ⁴ | GCs (pause) | mid-transition | frames |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of r.rows) {
    const m = row.measurement;
    const stepMs = m.phaseMs[1]!, callMs = m.phaseMs[0]!;
    const perCall = row.callsPerFrame > 0 ? ` (${((callMs * 1000) / row.callsPerFrame).toFixed(1)})` : '';
    const major = m.gcCount - m.gcMinor;
    const gcs = m.gcCount === 0 ? '0' : `${m.gcCount}: ${m.gcMinor} minor, ${major} major (${m.gcMs.toFixed(0)} ms)`;
    console.log(
      `| ${row.label} | ${formatMs(stepMs)} | ${((stepMs * 1e6) / joints).toFixed(0)} | ${formatBytes(row.stepBytesPerFrame)} | ` +
        `${row.callsPerFrame.toFixed(0)} | ${formatMs(callMs)}${perCall} | ${formatBytes(m.allocatedBytesPerFrame)} | ${gcs} | ${(100 * row.busyShare).toFixed(0)} % | ${m.frames} |`,
    );
  }
  const find = (label: string): TransitionRow | undefined => r.rows.find((row) => row.label === label);
  const quintic = find('inertialize (quintic)'), fade = find('crossfade (smooth, linear)'), still = find('no transitions (steady state)');
  if (quintic && fade && still) {
    const q = quintic.measurement.phaseMs[1]!, c = fade.measurement.phaseMs[1]!, s = still.measurement.phaseMs[1]!;
    const qAll = q + quintic.measurement.phaseMs[0]!, cAll = c + fade.measurement.phaseMs[0]!;
    const verdict = q < c ? `${(100 * (1 - q / c)).toFixed(0)} % less than` : `${(100 * (q / c - 1)).toFixed(0)} % more than`;
    console.log(`\nquintic inertialization: step ${formatMs(q)} ms/frame vs smooth linear cross-fade ${formatMs(c)} ms/frame — ${verdict} the cross-fade`);
    console.log(`(over the steady state's ${formatMs(s)}: +${formatMs(q - s)} vs +${formatMs(c - s)} ms/frame; with the transition calls: ${formatMs(qAll)} vs ${formatMs(cAll)} ms/frame)`);
  }
  console.log('\n- ³ step heap B/frame = median over the frames of (heapUsed right after `step` − right before it). heapUsed');
  console.log('  is not exact to the byte: it moves by a few hundred bytes either way around code that allocates nothing (and');
  console.log('  by tens of KB on the odd frame when background sweeping ends, hence the median). A `step` that allocated');
  console.log(`  per character would show ≥ 16 B × N = ${formatBytes(16 * r.count)} B on every frame.`);
  console.log('- ⁴ frame allocated B/frame: the harness figure (² above) for whole frames, `transition` calls included:');
  console.log('  what the calls allocate (option checks, result objects) is counted here, not in `step`.');
  console.log('- mid-transition: mean share of characters with a transition in progress after `step` (an inertialization');
  console.log('  offset still decaying, or a layer weight still fading). A spring ends when its offsets fall under 1e-5, later');
  console.log(`  than the ${TRANSITION_DURATION} s duration, so springs may never be at rest when the next switch comes.`);
}
