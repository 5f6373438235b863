/**
 * A bitanim crowd that keeps transitioning: every character plays one of the plan's two clips
 * on layer 0 and switches to the other one every {@link TRANSITION_PERIOD_FRAMES} frames, the
 * characters staggered so that the same number switches on every frame.
 *
 * A frame is: the `transition` calls due this frame (timed as the phase 'transition'), then
 * `step` (timed as the phase 'step', what a game calls every frame). `heapUsed` is read just
 * before and after `step`, outside both timings, so what `step` allocates is told apart from
 * what the `transition` calls allocate (they validate their options and may). The figure kept
 * is the median over frames: `heapUsed` is not exact to the byte (it moves by a few hundred
 * bytes either way around calls that allocate nothing, and by tens of KB on the odd frame when
 * the collector's background sweeping finishes), while a `step` that allocated per character
 * would show on every frame — one boxed double each is 160 KB at 10,000 characters.
 */
import {
  createAnimationWorld,
  getLocalPose,
  play,
  spawnCharacter,
  step,
  transition,
  type AnimationWorld,
  type KernelChoice,
  type TransitionOptions,
} from '../src/index.js';
import { INERTIA_NONE } from '../src/kernels.js';
import type { CrowdRunner } from './measure.js';
import { JOINT_COUNT, LAYER_COUNT, type CrowdPlan } from './plan.js';

/** Frames between two transitions of one character: 0.4 s at 60 Hz. */
export const TRANSITION_PERIOD_FRAMES = 24;
/** Seconds each transition takes. */
export const TRANSITION_DURATION = 0.3;

/** What the crowd does: no transition at all (the reference), or one transition mode. */
export interface TransitionVariant {
  /** Row label. */
  readonly label: string;
  /** `transition` options apart from speed and time, or null for the steady-state reference. */
  readonly options: Omit<TransitionOptions, 'speed' | 'time'> | null;
}

/** The rows of the benchmark, in print order. */
export const TRANSITION_VARIANTS: readonly TransitionVariant[] = [
  { label: 'no transitions (steady state)', options: null },
  { label: 'inertialize (quintic)', options: { duration: TRANSITION_DURATION, mode: 'inertialize' } },
  { label: 'spring', options: { duration: TRANSITION_DURATION, mode: 'spring' } },
  { label: 'deadblend (smoothstep)', options: { duration: TRANSITION_DURATION, mode: 'deadblend' } },
  { label: 'crossfade (smooth, linear)', options: { duration: TRANSITION_DURATION, mode: 'crossfade', curve: 'linear' } },
  { label: 'crossfade (frozen, linear)', options: { duration: TRANSITION_DURATION, mode: 'crossfade', curve: 'linear', frozen: true } },
];

/** A transitioning crowd; see {@link createTransitionCrowd}. */
export interface TransitionCrowd extends CrowdRunner {
  readonly world: AnimationWorld;
  /** `transition` calls so far (all frames, warm-up included). */
  readonly calls: () => number;
  /** Median over the frames since the last reset of `heapUsed` after `step` − before it, and the frames. */
  readonly stepHeap: () => { readonly median: number; readonly frames: number };
  /** Sum over frames of the share of characters mid-transition after `step`, and the frames. */
  readonly busy: () => { readonly share: number; readonly frames: number };
  /** Clears the counters of `stepHeap`, `busy` and `calls` (after the warm-up). */
  resetCounters(): void;
  /** Whether every character's local pose is finite. */
  finite(): boolean;
}

/**
 * Creates a world sized for the plan; character i plays clip `i mod 2` of the plan on layer 0
 * (its plan speed and start time for that clip) and, unless `variant.options` is null, switches
 * clips on every frame f with f ≡ i (mod {@link TRANSITION_PERIOD_FRAMES}), starting the new clip
 * at its plan start time and speed. Options objects are built here, once per character and
 * clip, so the frames allocate only what `transition` itself does. `kernels` picks the world's
 * kernels (default: the world's default).
 */
export function createTransitionCrowd(plan: CrowdPlan, variant: TransitionVariant, kernels: KernelChoice = 'auto'): TransitionCrowd {
  const world = createAnimationWorld({ maxEntities: plan.count, maxJoints: JOINT_COUNT, maxTransitions: plan.count, kernels }); // the whole crowd may be mid-transition
  const { Inertialization, Layers } = world.components;
  const count = plan.count;
  const eids = new Int32Array(count);
  const playing = new Uint8Array(count);
  const options: TransitionOptions[] = [];
  for (let i = 0; i < count; i++) {
    const eid = spawnCharacter(world, plan.skeleton);
    eids[i] = eid;
    const clip = i % LAYER_COUNT;
    playing[i] = clip;
    play(world, eid, plan.clips[clip]!, { speed: plan.speed[i * LAYER_COUNT + clip]!, time: plan.startTime[i * LAYER_COUNT + clip]!, loop: true });
    for (let c = 0; c < LAYER_COUNT && variant.options !== null; c++) {
      const k = i * LAYER_COUNT + c;
      options.push({ ...variant.options, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }
  // Characters due on each frame of the period: i ≡ f (mod period).
  const due: Int32Array[] = [];
  for (let f = 0; f < TRANSITION_PERIOD_FRAMES; f++) {
    const list: number[] = [];
    for (let i = f; i < count; i += TRANSITION_PERIOD_FRAMES) list.push(i);
    due.push(Int32Array.from(list));
  }
  const crossfade = variant.options?.mode === 'crossfade';
  const dense = world.characters.dense;

  let frameIndex = 0;
  let calls = 0;
  // Per-frame step heap deltas since the last reset (a ring, far longer than any measured run).
  const stepBytes = new Float64Array(4096);
  let stepFrames = 0;
  let busyShare = 0, busyFrames = 0;
  return {
    label: variant.label,
    phaseNames: ['transition', 'step'],
    world,
    calls: () => calls,
    stepHeap: () => ({ median: median(stepBytes.subarray(0, Math.min(stepFrames, stepBytes.length))), frames: stepFrames }),
    busy: () => ({ share: busyShare, frames: busyFrames }),
    resetCounters() {
      calls = 0;
      stepFrames = 0;
      busyShare = busyFrames = 0;
    },
    finite() {
      for (let i = 0; i < count; i++) {
        const pose = getLocalPose(world, eids[i]!);
        for (let k = 0; k < pose.length; k++) if (!Number.isFinite(pose[k]!)) return false;
      }
      return true;
    },
    frame(dt, phaseMs) {
      const t0 = performance.now();
      if (variant.options !== null) {
        const list = due[frameIndex % TRANSITION_PERIOD_FRAMES]!;
        for (let n = 0; n < list.length; n++) {
          const i = list[n]!;
          const next = 1 - playing[i]!;
          playing[i] = next;
          transition(world, eids[i]!, plan.clips[next]!, options[i * LAYER_COUNT + next]!);
        }
        calls += list.length;
      }
      const t1 = performance.now();
      const h1 = process.memoryUsage().heapUsed;
      const t2 = performance.now();
      step(world, dt);
      const t3 = performance.now();
      const h2 = process.memoryUsage().heapUsed;
      phaseMs[0] += t1 - t0;
      phaseMs[1] += t3 - t2;
      stepBytes[stepFrames % stepBytes.length] = h2 - h1;
      stepFrames++;
      frameIndex++;

      // Untimed: how many characters are mid-transition now.
      let busy = 0;
      for (let n = 0; n < dense.length; n++) {
        const eid = dense[n]!;
        if (crossfade) {
          let fading = false;
          for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) if (Layers.fadeCurve[li]! !== 0) fading = true;
          if (fading) busy++;
        } else if (Inertialization.mode[eid]! !== INERTIA_NONE) {
          busy++;
        }
      }
      busyShare += busy / count;
      busyFrames++;
    },
  };
}

/** Median of `values` (NaN when empty); sorts a copy. */
function median(values: Float64Array): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
