/**
 * The inspector's expressions: a character's float curves (the Robot's morph-target weights
 * `Head.Angry`, `Head.Surprised`, `Head.Sad`) drawn on its body by bitanim/pixi.
 *
 * - **Source.** `clip`: the weights the playing clips' curves give — the world's own blended
 *   curve values (`getCurves`; the crowd reads them itself).
 *   `sliders`: one slider per curve, given with `setMorphWeights` (the crowd's override).
 * - **Expression clips.** The Robot's own clips keep every weight at 0, so the inspector adds
 *   synthetic clips made here with `createClip`'s `curves`: its Idle poses with one expression
 *   held at 1 (`Idle · Angry`, …) and one cycling through them (`Idle · expressions`). They are
 *   in the clip pickers like any clip.
 * - **Plot.** One curve (default the first) through a switch from `Idle · <first>` to
 *   `Idle · <second>`, each run in a world of its own, as the joint-channel plot does.
 */
import { createAnimationWorld, createClip, getCurves, play, spawnCharacter, step, transition, type AnimationWorld, type Clip, type TransitionMode } from 'bitanim';
import type { CrowdRenderer } from 'bitanim/pixi';
import type { Application } from 'pixi.js';
import type { CharacterAsset } from '../assets';
import { heading, note, select, setOptions, slider } from '../ui';
import { drawPlot, legend, type Series } from './plot';

/** What the panel reads of the inspector (it changes when the character is reloaded). */
export interface ExpressionTarget {
  asset: CharacterAsset;
  world: AnimationWorld;
  eid: number;
  crowd: CrowdRenderer;
}

/** The page API the e2e test uses. */
export interface ExpressionApi {
  /** The skeleton's curve names. */
  curves(): string[];
  /** The weights drawn now (the source's), skeleton order. */
  weights(): number[];
  /** Where the weights come from: 'sliders', 'clip (runtime Curves)' or 'clip (inspector layer blend)'. */
  source(): string;
  /** Sets the sliders (and the source to 'sliders'). */
  setSliders(weights: number[]): void;
}

const SWITCH_AT = 0.5;
const SWITCH_DURATION = 0.5;
const DT = 1 / 60;
const RUNS: readonly { mode: TransitionMode; label: string; color: string }[] = [
  { mode: 'crossfade', label: 'cross-fade', color: '#5fb8ff' },
  { mode: 'inertialize', label: 'quintic inertialization', color: '#ffb347' },
];

/** The base clip of the expression clips: Idle when there is one. */
function baseClip(asset: CharacterAsset): Clip | undefined {
  return asset.clips.get('Idle') ?? asset.clips.values().next().value;
}

/**
 * Adds the synthetic expression clips to `asset.clips` (a skeleton with curves only): the base
 * clip's poses with curve c held at 1 (`<base> · <target>`), and with each curve in turn rising
 * to 1 and back over the clip (`<base> · expressions`).
 */
export function addExpressionClips(asset: CharacterAsset): void {
  const curves = asset.skeleton.curves;
  const base = baseClip(asset);
  if (curves.length === 0 || base === undefined || base.frames.length === 0) return;
  const F = base.frameCount;
  const make = (name: string, value: (curve: number, frame: number) => number): Clip => createClip({
    skeleton: asset.skeleton,
    frameRate: base.frameRate,
    frames: base.frames,
    loop: true,
    name,
    curves: curves.map((curve, c) => ({ name: curve.name, values: Float32Array.from({ length: F }, (_, f) => value(c, f)) })),
  });
  const clips = asset.clips as Map<string, Clip>;
  curves.forEach((curve, c) => {
    const clip = make(`${base.name} · ${targetName(curve.name)}`, (k) => (k === c ? 1 : 0));
    clips.set(clip.name, clip);
  });
  // Each curve in turn: 0 → 1 → 0 over its share of the clip (a sine hump).
  const cycle = make(`${base.name} · expressions`, (k, f) => {
    const u = (f / Math.max(1, F - 1)) * curves.length - k;
    return u > 0 && u < 1 ? Math.sin(Math.PI * u) : 0;
  });
  clips.set(cycle.name, cycle);
}

/** `Head.Angry` → `Angry`. */
function targetName(curve: string): string {
  return curve.slice(curve.lastIndexOf('.') + 1);
}

/** The weights of `eid`'s curves now (skeleton order) into `out`: the world's blended values (`getCurves`). */
function curveValues(world: AnimationWorld, eid: number, out: Float32Array): void {
  const values = getCurves(world, eid);
  for (let c = 0; c < out.length; c++) out[c] = c < values.length ? values[c]! : 0;
}

/**
 * Builds the panel (appended to `panel` where it is called) and keeps the drawn weights in
 * step each frame. `target()` gives the inspector's character; call `reset()` after it changes.
 */
export function expressionPanel(app: Application, panel: HTMLElement, target: () => ExpressionTarget): { reset(): void; api: ExpressionApi } {
  heading(panel, 'Expressions (morph targets)');
  const state = { source: 'clip' as 'clip' | 'sliders', plotted: 0 };
  let sliders: number[] = [];
  let drawn = new Float32Array(0);
  const sourceSelect = select(panel, 'expression-source', 'weights from', [['clip', 'the clips\' curves'], ['sliders', 'the sliders']] as const, state.source, (v) => {
    state.source = v;
  });
  const host = document.createElement('div');
  const curveSelect = select(panel, 'expression-curve', 'plotted curve', [] as (readonly [string, string])[], '', (v) => {
    state.plotted = Math.max(0, target().asset.skeleton.curves.findIndex((c) => c.name === v));
    plot();
  });
  const canvas = Object.assign(document.createElement('canvas'), { id: 'plot-expression', className: 'plot' });
  const legendHost = document.createElement('div');
  panel.append(host, canvas, legendHost);
  const explain = note(panel, '');

  function reset(): void {
    const { asset, crowd, eid } = target();
    const curves = asset.skeleton.curves;
    sliders = curves.map(() => 0);
    drawn = new Float32Array(curves.length);
    host.replaceChildren();
    curves.forEach((curve, c) => {
      slider(host, `expr-${c}`, curve.name, { min: 0, max: 1, step: 0.01 }, 0, (v) => {
        sliders[c] = v;
        state.source = 'sliders';
        sourceSelect.value = 'sliders';
      }, true);
    });
    if (curves.length === 0) {
      host.append(Object.assign(document.createElement('p'), { className: 'note', textContent: `${asset.label} has no float curves (no morph targets).` }));
    }
    setOptions(curveSelect, curves.map((c) => c.name), curves[0]?.name ?? '');
    state.plotted = 0;
    crowd.setMorphWeights(eid, null);
    plot();
  }

  /** The plotted curve through a switch between the first two expression clips, per transition mode. */
  function plot(): void {
    const { asset } = target();
    const curves = asset.skeleton.curves;
    const base = baseClip(asset);
    const from = curves[0] && base ? asset.clips.get(`${base.name} · ${targetName(curves[0].name)}`) : undefined;
    const to = curves[1] && base ? asset.clips.get(`${base.name} · ${targetName(curves[1].name)}`) : undefined;
    if (!from || !to) {
      drawPlot(canvas, [], { title: 'no expression curves', message: `${asset.label}: no morph targets` });
      legendHost.replaceChildren();
      explain.textContent = '';
      return;
    }
    const frames = Math.round((SWITCH_AT + 1.5) / DT);
    const t = Array.from({ length: frames + 1 }, (_, f) => f * DT);
    const values = new Float32Array(curves.length);
    const series: Series[] = RUNS.map((run) => {
      const world = createAnimationWorld({ maxEntities: 3, maxJoints: asset.skeleton.jointCount, maxEvents: 16 });
      const eid = spawnCharacter(world, asset.skeleton);
      play(world, eid, from);
      step(world, 0);
      const y: number[] = [];
      for (let f = 0; f <= frames; f++) {
        if (f === Math.round(SWITCH_AT / DT)) transition(world, eid, to, { duration: SWITCH_DURATION, mode: run.mode });
        if (f > 0) step(world, DT);
        curveValues(world, eid, values);
        y.push(values[state.plotted]!);
      }
      return { label: run.label, color: run.color, x: t, y, width: 2 };
    });
    drawPlot(canvas, series, {
      title: `${curves[state.plotted]!.name} weight: ${from.name} → ${to.name} in ${SWITCH_DURATION} s`,
      markers: [{ x: SWITCH_AT, label: 'switch' }, { x: SWITCH_AT + SWITCH_DURATION, label: 'end' }],
    });
    legend(legendHost, RUNS.map((run) => ({ label: run.label, color: run.color })));
    explain.textContent = 'Curve values from the runtime (getCurves): blended like the pose, inertialized on a switch. Pick "Idle · expressions" as clip A to watch the face change over a clip.';
  }

  // Each frame (after the inspector's step): the weights the crowd draws.
  app.ticker.add(() => {
    const { asset, world, eid, crowd } = target();
    if (drawn.length === 0 || crowd.bodyOf(eid) === null) return;
    if (state.source === 'sliders') {
      drawn.set(sliders);
      crowd.setMorphWeights(eid, drawn);
      return;
    }
    curveValues(world, eid, drawn); // shown in the panel; the crowd reads the same values itself
    crowd.setMorphWeights(eid, null);
  });

  reset();
  return {
    reset,
    api: {
      curves: () => target().asset.skeleton.curves.map((c) => c.name),
      weights: () => Array.from(drawn),
      source: () => (state.source === 'sliders' ? 'sliders' : 'clip (runtime Curves)'),
      setSliders(weights: number[]) {
        weights.forEach((w, c) => {
          sliders[c] = w;
          const range = document.getElementById(`expr-${c}-range`) as HTMLInputElement | null;
          const number = document.getElementById(`expr-${c}`) as HTMLInputElement | null;
          if (range) range.value = String(w);
          if (number) number.value = String(w);
        });
        state.source = 'sliders';
        sourceSelect.value = 'sliders';
      },
    },
  };
}
