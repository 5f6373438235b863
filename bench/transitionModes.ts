/**
 * The transition modes against each other on the same machine moment: the crowd of
 * transitionCrowd.ts (10,000 × 64 joints unless BENCH_TRANSITIONS says otherwise, every
 * character switching clips every 0.4 s) once per mode — no transitions, quintic
 * inertialization, spring, dead blending — as four worlds whose `step`s alternate frame by frame
 * (the order rotating), on each kernel path. The sequential table of transitions.ts gives each
 * mode its own stretch of time, so a shared machine's load moves its rows against each other;
 * here every mode sees the same load.
 *
 * Per mode: the median `step`, and the cost per transitioning character — (median − the
 * no-transition median) / (characters mid-transition, on average) — against quintic's.
 */
import { collectGarbage, formatMs, median, runFrames } from './measure.js';
import { planCrowd, type CrowdAssets } from './plan.js';
import { createTransitionCrowd, TRANSITION_PERIOD_FRAMES, TRANSITION_VARIANTS, type TransitionCrowd } from './transitionCrowd.js';

/** The modes compared, by their transitionCrowd.ts labels. */
const MODES = ['no transitions (steady state)', 'inertialize (quintic)', 'spring', 'deadblend (smoothstep)'] as const;

/** One kernel path's figures. */
export interface TransitionModesRun {
  readonly kernels: string;
  readonly rows: readonly { readonly label: string; readonly stepMs: readonly number[]; readonly busyShare: number }[];
}

/** Everything the section prints. */
export interface TransitionModesResult {
  readonly count: number;
  readonly runs: readonly TransitionModesRun[];
}

/** Measures {@link MODES} alternated frame by frame on `count` characters, on the JavaScript and the WebAssembly kernels. */
export async function benchmarkTransitionModes(assets: CrowdAssets, count: number, frames: number | undefined, dt: number): Promise<TransitionModesResult> {
  const plan = planCrowd(assets, count, [1, 1]);
  const runs: TransitionModesRun[] = [];
  for (const kernels of ['js', 'wasm'] as const) {
    collectGarbage();
    const crowds: TransitionCrowd[] = MODES.map((label) => createTransitionCrowd(plan, TRANSITION_VARIANTS.find((v) => v.label === label)!, kernels));
    for (const crowd of crowds) runFrames(crowd, 2 * TRANSITION_PERIOD_FRAMES, dt);
    for (const crowd of crowds) crowd.resetCounters();
    const measured = frames ?? 3 * TRANSITION_PERIOD_FRAMES;
    const stepMs = crowds.map(() => [] as number[]);
    const phase = new Float64Array(2);
    for (let f = 0; f < measured; f++) {
      for (let n = 0; n < crowds.length; n++) {
        const k = (f + n) % crowds.length;
        phase[0] = phase[1] = 0;
        crowds[k]!.frame(dt, phase);
        stepMs[k]!.push(phase[1]!);
      }
      await Promise.resolve();
    }
    for (const crowd of crowds) if (!crowd.finite()) throw new Error(`transition modes bench '${crowd.label}': a pose is not finite`);
    runs.push({
      kernels: crowds[0]!.world.kernels,
      rows: crowds.map((crowd, n) => ({ label: crowd.label, stepMs: stepMs[n]!, busyShare: crowd.busy().share / crowd.busy().frames })),
    });
  }
  collectGarbage();
  return { count, runs };
}

/** Prints the section. */
export function printTransitionModes(r: TransitionModesResult): void {
  console.log(`\n## Transition modes alternated frame by frame: N = ${r.count.toLocaleString('en-US')} characters × 64 joints\n`);
  console.log('| kernels | mode | median step ms/frame | mid-transition | µs per transitioning character | × quintic | frames |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const run of r.runs) {
    const steady = median(run.rows[0]!.stepMs);
    const perCharacter = run.rows.map((row) => (row.busyShare > 0 ? ((median(row.stepMs) - steady) * 1000) / (row.busyShare * r.count) : Number.NaN));
    const quintic = perCharacter[1]!;
    run.rows.forEach((row, n) => {
      const cost = perCharacter[n]!;
      const shown = Number.isNaN(cost) ? '—' : cost.toFixed(2);
      const ratio = Number.isNaN(cost) ? '—' : `${(cost / quintic).toFixed(2)}×`;
      console.log(`| ${run.kernels} | ${row.label} | ${formatMs(median(row.stepMs))} | ${Math.round(row.busyShare * 100)} % | ${shown} | ${ratio} | ${row.stepMs.length} |`);
    });
  }
  console.log('\nThe four worlds step in turn every frame (the order rotating); `transition` calls are not in the step time.');
  console.log('µs per transitioning character = (median step − the no-transition median) / (mean characters mid-transition).');
}
