/**
 * The float curves' half of a transition's capture (inertializeCapture.ts and inertializeSystem
 * run it beside the pose's): each curve's P1 and P2 at the request ({@link captureCurveSource}),
 * its offset and velocity at the switch ({@link captureCurveOffsets}), from the curves blended by
 * the layer plan at two instants ({@link blendCurvesAt}). Allocates nothing.
 */
import { CURVE_INV_T1, CURVE_K, CURVE_SLOT_STRIDE, CURVE_X0, MAX_CURVES } from '../components/Curves.js';
import { INERTIA_DEAD, INERTIA_QUINTIC, INERTIA_SPRING } from '../components/Inertialization.js';
import { applyFadeCurve } from '../math/fadeCurves.js';
import {
  captureDeadCurve, CURVE_DEAD_RATE, CURVE_DEAD_SOURCE, CURVE_DEAD_VELOCITY, CURVE_IO_HALF_LIFE, CURVE_IO_SOURCE, CURVE_IO_TARGET, CURVE_IO_VELOCITY,
} from './deadBlendOffsets.js';
import type { AnimationWorld } from '../world.js';
import { blendCurvesOf } from './blendCurves.js';
import { CAPTURE_BACK, CAPTURE_DT, NEGLIGIBLE, SOURCE_INTERVAL } from './captureOffsets.js';
import { layersCanGoBack, planLayersAt } from './layerPlan.js';

/** A capture's curves at τ and τ − σh (fixed-size temporaries). */
const CURVES_NOW = new Float32Array(MAX_CURVES);
const CURVES_OTHER = new Float32Array(MAX_CURVES);
/**
 * A running dead blend's clocks and weights at τ and τ − σh (at `NOW_CLOCK`, `NOW_WEIGHT`,
 * `PAST_CLOCK`, `PAST_WEIGHT`), and a curve's capture numbers for `captureDeadCurve` (`CURVE_IO_*`).
 */
const DEAD_TIMES = new Float64Array(4);
const NOW_CLOCK = 0, NOW_WEIGHT = 1, PAST_CLOCK = 2, PAST_WEIGHT = 3;
const DEAD_IO = new Float64Array(4);

/**
 * Blends the float curves of character `eid` as they were `back[backIndex]` seconds ago into
 * `out[outOff ..]` (`Curves.count[eid]` values): its layer plan at that instant
 * (`planLayersAt`), blended as blendCurves.ts blends the frame's. Uses `world.scratch.layerPlan`;
 * allocates nothing.
 */
export function blendCurvesAt(world: AnimationWorld, eid: number, back: Float64Array, backIndex: number, out: Float32Array, outOff: number): void {
  const plan = world.scratch.layerPlan;
  planLayersAt(world, eid, back, backIndex, plan);
  blendCurvesOf(world, plan, out, outOff);
}

/**
 * The curves' half of {@link captureSourceMotion} (same call, before `lastDt` becomes h): P1,
 * the curves' last output (`Curves.values`, which no later system changes), and P2 = P1 − h·v_src
 * into each curve's entry of the character's transition slot (`Curves.slots`), v_src the layers'
 * curve velocity over h plus the running offset's (quintic x′(t), spring velocity). A character
 * whose output has not moved is still (P2 = P1). Allocates nothing.
 */
export function captureCurveSource(world: AnimationWorld, eid: number): void {
  const { Curves, Inertialization: c } = world.components;
  const maxCurves = Curves.maxCurves;
  if (maxCurves === 0) return;
  const count = Curves.count[eid];
  if (count === 0) return;
  const { values, slots } = Curves;
  const valuesOff = eid * maxCurves;
  const slotOff = c.slot[eid] * maxCurves * CURVE_SLOT_STRIDE;
  const mode = c.mode[eid]; // the running offsets' (INERTIA_NONE: none)
  const still = c.lastDt[eid] === 0;
  const params = world.scratch.params;
  let rate = 0;
  if (!still) {
    params[CAPTURE_BACK] = 0;
    blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_NOW, 0);
    params[CAPTURE_BACK] = SOURCE_INTERVAL;
    if (!layersCanGoBack(world, eid, params, CAPTURE_BACK)) params[CAPTURE_BACK] = -SOURCE_INTERVAL;
    rate = 1 / params[CAPTURE_BACK];
    blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_OTHER, 0);
  }
  const t = c.elapsed[eid];
  if (mode === INERTIA_DEAD && !still) {
    // The cross-fade's weights at τ and τ − σh (1: the layers' value, no source left).
    DEAD_TIMES[NOW_CLOCK] = t; DEAD_TIMES[PAST_CLOCK] = t - params[CAPTURE_BACK];
    DEAD_TIMES[NOW_WEIGHT] = DEAD_TIMES[NOW_CLOCK] / c.duration[eid]; DEAD_TIMES[PAST_WEIGHT] = DEAD_TIMES[PAST_CLOCK] / c.duration[eid];
    applyFadeCurve(DEAD_TIMES, NOW_WEIGHT, c.fadeCurve[eid]);
    applyFadeCurve(DEAD_TIMES, PAST_WEIGHT, c.fadeCurve[eid]);
  }
  for (let k = 0; k < count; k++) {
    const o = slotOff + k * CURVE_SLOT_STRIDE;
    const p1 = values[valuesOff + k];
    let v = 0;
    if (!still) {
      v = (CURVES_NOW[k] - CURVES_OTHER[k]) * rate;
      if (mode === INERTIA_QUINTIC) {
        // x′(t) = (1 − s)³·(k − s·(20·x0 + 5·k))/t1, signed (see applyQuinticCurveOffsets).
        const inv = slots[o + CURVE_INV_T1], s = t * inv, x0 = slots[o + CURVE_X0], kk = slots[o + CURVE_K];
        if (s < 1 && x0 !== 0) {
          const u = 1 - s;
          v += u * u * u * (kk - s * (20 * x0 + 5 * kk)) * inv;
        }
      } else if (mode === INERTIA_SPRING) {
        v += slots[o + CURVE_K];
      } else if (mode === INERTIA_DEAD) {
        // The dead blend's output at τ and τ − σh: layers' value + (1 − w)·(extrapolated − it).
        const r = slots[o + CURVE_DEAD_RATE], source = slots[o + CURVE_DEAD_SOURCE], velocity = slots[o + CURVE_DEAD_VELOCITY];
        const a = CURVES_NOW[k] + (1 - DEAD_TIMES[NOW_WEIGHT]) * (source + velocity * ((1 - Math.exp(-r * DEAD_TIMES[NOW_CLOCK])) / r) - CURVES_NOW[k]);
        const b = CURVES_OTHER[k] + (1 - DEAD_TIMES[PAST_WEIGHT]) * (source + velocity * ((1 - Math.exp(-r * DEAD_TIMES[PAST_CLOCK])) / r) - CURVES_OTHER[k]);
        v = (a - b) * rate;
      }
    }
    slots[o + CURVE_X0] = p1;
    slots[o + CURVE_K] = p1 - SOURCE_INTERVAL * v;
  }
}

/**
 * The curves' half of a capture (inertializeSystem, on the switch frame, after the pose's, with
 * `world.scratch.capture` still holding its interval σh, `prevDt`, mode and duration, and
 * `params[CAPTURE_DT]` the update's seconds dt):
 * from P1 and P2 in the slot (`prevDt` apart; 0: no source velocity), the target's curves at τ
 * (`dt` back) and τ − σh, each curve's offset x0 = P1 − T(τ) and velocity
 * v0 = (P1 − P2)/prevDt − (T(τ) − T(τ − σh))/σh, stored for `mode` as the translation channel's
 * on one signed axis: quintic x0, k = v0·t1 (a v0 heading away from zero kept) and
 * t1 = min(duration, −5·|x0|/v0) when v0 heads towards zero (no overshoot); spring the offset and velocity;
 * dead blending the source value P1, its velocity (P1 − P2)/prevDt and its decay rate
 * (`captureDeadCurve`). Allocates nothing.
 */
export function captureCurveOffsets(world: AnimationWorld, eid: number): void {
  const { Curves, Inertialization: c } = world.components;
  const maxCurves = Curves.maxCurves;
  if (maxCurves === 0) return;
  const count = Curves.count[eid];
  if (count === 0) return;
  const slots = Curves.slots;
  const slotOff = c.slot[eid] * maxCurves * CURVE_SLOT_STRIDE;
  const { params, capture: job } = world.scratch;
  const interval = job.interval, prevDt = job.prevDt, mode = job.mode, duration = job.duration;
  const dt = params[CAPTURE_DT];
  params[CAPTURE_BACK] = dt;
  blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_NOW, 0);
  params[CAPTURE_BACK] = dt + interval;
  blendCurvesAt(world, eid, params, CAPTURE_BACK, CURVES_OTHER, 0);
  const sourceRate = prevDt > 0 ? 1 / prevDt : 0;
  const targetRate = 1 / interval;
  for (let k = 0; k < count; k++) {
    const o = slotOff + k * CURVE_SLOT_STRIDE;
    const p1 = slots[o + CURVE_X0], p2 = slots[o + CURVE_K];
    const x0 = p1 - CURVES_NOW[k];
    if (mode === INERTIA_DEAD) {
      DEAD_IO[CURVE_IO_SOURCE] = p1; DEAD_IO[CURVE_IO_VELOCITY] = (p1 - p2) * sourceRate;
      DEAD_IO[CURVE_IO_TARGET] = CURVES_NOW[k]; DEAD_IO[CURVE_IO_HALF_LIFE] = job.halfLife;
      captureDeadCurve(slots, o, DEAD_IO);
      continue;
    }
    const v = (p1 - p2) * sourceRate - (CURVES_NOW[k] - CURVES_OTHER[k]) * targetRate;
    if (mode === INERTIA_SPRING) {
      slots[o + CURVE_X0] = x0;
      slots[o + CURVE_K] = v;
      continue;
    }
    const len = Math.abs(x0);
    if (!(len > NEGLIGIBLE)) {
      slots[o + CURVE_X0] = 0;
      slots[o + CURVE_K] = 0;
      slots[o + CURVE_INV_T1] = 0;
      continue;
    }
    const sign = x0 < 0 ? -1 : 1;
    let v0 = v * sign;
    let t1 = duration;
    if (v0 < 0 && -5 * len / v0 < t1) t1 = (-5 * len) / v0;
    slots[o + CURVE_X0] = x0;
    slots[o + CURVE_K] = v0 * t1 * sign;
    slots[o + CURVE_INV_T1] = 1 / t1;
  }
}
