/**
 * The transition offsets on the world's kernels: each function takes the arguments of its
 * JavaScript kernel (src/systems/inertializeOffsets.ts, src/systems/deadBlendOffsets.ts) and
 * runs the WebAssembly one of assembly/offsets.ts when the world has them (`world.wasm`) and the
 * blocks it names live in their memory, else the JavaScript one. Used by inertializeSystem (every
 * update) and by a transition request rebuilding the last output (inertializeCapture.ts), so a
 * rebuilt output comes from the kernels that wrote it. The WebAssembly kernels give the
 * JavaScript kernels' bits but where those call `Math.sin`, `Math.cos` or `Math.exp`
 * (docs/wasm.md). So too a capture's kernels (src/systems/captureOffsets.ts, assembly/capture.ts),
 * with `Math.atan2` among those. Numbers the kernels read (a spring's decay, a dead blend's
 * clock, a capture's seconds) travel in this thread's `offsetParams` / `deadClock` /
 * `captureParams` scratch, in the memory, so none is passed boxed.
 */
import { applyQuinticCurveOffsets, applyQuinticOffsets, applySpringCurveOffsets, applySpringOffsets, addSpringOffsets } from '../systems/inertializeOffsets.js';
import { applyDeadBlend, applyDeadBlendCurves } from '../systems/deadBlendOffsets.js';
import { captureOffsets, writeSourcePast, type CaptureJob } from '../systems/captureOffsets.js';
import type { AnimationWorld } from '../world.js';
import type { CaptureOffsetsKernel, SourcePastKernel } from './kernels.js';

// In `world.scratch.offsetParams`: a spring's y = 2 ln 2 / half-life, e^(−y·dt) and dt (assembly/offsets.ts reads them there).
const SPRING_Y = 0, SPRING_DECAY = 1, SPRING_DT = 2;

/** In `world.scratch.captureParams` (f64): a capture's σh, Δt, duration and running clock (assembly/capture.ts reads them there). */
export const CAPTURE_PARAMS = { interval: 0, prevDt: 1, duration: 2, clock: 3 } as const;

/** The world's kernels when `a`, `b` and `c` are views of their memory, else null. */
function kernelsFor(world: AnimationWorld, a: ArrayBufferView, b: ArrayBufferView, c: ArrayBufferView): AnimationWorld['wasm'] {
  const kernels = world.wasm;
  if (kernels === null) return null;
  const memory = kernels.poolBuffer;
  return a.buffer === memory && b.buffer === memory && c.buffer === memory ? kernels : null;
}

/** `applyQuinticOffsets(pose, poseOff, offsets, offOff, jointCount, elapsed, index)` on the world's kernels. */
export function quinticOffsetsOn(
  world: AnimationWorld, pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number, elapsed: Float32Array, index: number,
): void {
  const kernels = kernelsFor(world, pose, offsets, elapsed);
  if (kernels !== null) kernels.applyQuinticOffsets(pose.byteOffset + poseOff * 4, offsets.byteOffset + offOff * 4, jointCount, elapsed.byteOffset + index * 4);
  else applyQuinticOffsets(pose, poseOff, offsets, offOff, jointCount, elapsed, index);
}

/** `applySpringOffsets(pose, poseOff, offsets, offOff, jointCount, halfLife, index, dt)` on the world's kernels; whether any offset is still above rest. */
export function springOffsetsOn(
  world: AnimationWorld, pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number,
  halfLife: Float32Array, index: number, dt: number,
): boolean {
  const kernels = kernelsFor(world, pose, offsets, world.scratch.offsetParams);
  if (kernels === null) return applySpringOffsets(pose, poseOff, offsets, offOff, jointCount, halfLife, index, dt);
  const params = springParams(world, halfLife, index, dt);
  return kernels.applySpringOffsets(pose.byteOffset + poseOff * 4, offsets.byteOffset + offOff * 4, jointCount, params.byteOffset) !== 0;
}

/** `addSpringOffsets(pose, poseOff, offsets, offOff, jointCount)` on the world's kernels. */
export function addSpringOffsetsOn(world: AnimationWorld, pose: Float32Array, poseOff: number, offsets: Float32Array, offOff: number, jointCount: number): void {
  const kernels = kernelsFor(world, pose, offsets, offsets);
  if (kernels !== null) kernels.addSpringOffsets(pose.byteOffset + poseOff * 4, offsets.byteOffset + offOff * 4, jointCount);
  else addSpringOffsets(pose, poseOff, offsets, offOff, jointCount);
}

/** `applyDeadBlend(pose, poseOff, state, stateOff, jointCount, clock)` on the world's kernels (`clock` is this thread's `deadClock`). */
export function deadBlendOn(world: AnimationWorld, pose: Float32Array, poseOff: number, state: Float32Array, stateOff: number, jointCount: number, clock: Float64Array): void {
  const kernels = kernelsFor(world, pose, state, clock);
  if (kernels !== null) kernels.applyDeadBlend(pose.byteOffset + poseOff * 4, state.byteOffset + stateOff * 4, jointCount, clock.byteOffset);
  else applyDeadBlend(pose, poseOff, state, stateOff, jointCount, clock);
}

/** `applyQuinticCurveOffsets(values, valuesOff, slots, slotOff, curveCount, elapsed, index)` on the world's kernels. */
export function quinticCurvesOn(
  world: AnimationWorld, values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number, elapsed: Float32Array, index: number,
): void {
  const kernels = kernelsFor(world, values, slots, elapsed);
  if (kernels !== null) kernels.applyQuinticCurveOffsets(values.byteOffset + valuesOff * 4, slots.byteOffset + slotOff * 4, curveCount, elapsed.byteOffset + index * 4);
  else applyQuinticCurveOffsets(values, valuesOff, slots, slotOff, curveCount, elapsed, index);
}

/** `applySpringCurveOffsets(values, valuesOff, slots, slotOff, curveCount, halfLife, index, dt)` on the world's kernels; whether any is still above rest. */
export function springCurvesOn(
  world: AnimationWorld, values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number,
  halfLife: Float32Array, index: number, dt: number,
): boolean {
  const kernels = kernelsFor(world, values, slots, world.scratch.offsetParams);
  if (kernels === null) return applySpringCurveOffsets(values, valuesOff, slots, slotOff, curveCount, halfLife, index, dt);
  const params = springParams(world, halfLife, index, dt);
  return kernels.applySpringCurveOffsets(values.byteOffset + valuesOff * 4, slots.byteOffset + slotOff * 4, curveCount, params.byteOffset) !== 0;
}

/** `applyDeadBlendCurves(values, valuesOff, slots, slotOff, curveCount, clock)` on the world's kernels. */
export function deadCurvesOn(world: AnimationWorld, values: Float32Array, valuesOff: number, slots: Float32Array, slotOff: number, curveCount: number, clock: Float64Array): void {
  const kernels = kernelsFor(world, values, slots, clock);
  if (kernels !== null) kernels.applyDeadBlendCurves(values.byteOffset + valuesOff * 4, slots.byteOffset + slotOff * 4, curveCount, clock.byteOffset);
  else applyDeadBlendCurves(values, valuesOff, slots, slotOff, curveCount, clock);
}

/** This thread's spring parameters for the half-life at `halfLife[index]` and `dt`, as the JavaScript kernels compute them. */
function springParams(world: AnimationWorld, halfLife: Float32Array, index: number, dt: number): Float64Array {
  const params = world.scratch.offsetParams;
  const y = (2 * Math.LN2) / halfLife[index];
  params[SPRING_Y] = y;
  params[SPRING_DECAY] = Math.exp(-y * dt);
  params[SPRING_DT] = dt;
  return params;
}

/** `captureOffsets(job)` (quintic or spring offsets at a switch) on the world's kernels. */
export function captureOffsetsOn(world: AnimationWorld, job: CaptureJob): void {
  const kernels = captureKernelsFor(world, job);
  if (kernels !== null) runCapture(kernels.captureOffsets, world, job);
  else captureOffsets(job);
}

/** `writeSourcePast(job)` (a request's P2 from P1) on the world's kernels. */
export function writeSourcePastOn(world: AnimationWorld, job: CaptureJob): void {
  const kernels = captureKernelsFor(world, job);
  if (kernels !== null) runCapture(kernels.writeSourcePast, world, job);
  else writeSourcePast(job);
}

/** The world's kernels when every block `job` names and this thread's `captureParams` are in their memory, else null. */
function captureKernelsFor(world: AnimationWorld, job: CaptureJob): AnimationWorld['wasm'] {
  const kernels = kernelsFor(world, job.blend, job.blendOther, world.scratch.captureParams);
  return kernels !== null && kernelsFor(world, job.p1, job.p2, job.offsets) !== null ? kernels : null;
}

/** Runs a capture kernel on `job`: its blocks' byte addresses, its seconds through this thread's `captureParams` (σh, Δt, duration, clock). */
function runCapture(kernel: CaptureOffsetsKernel | SourcePastKernel, world: AnimationWorld, job: CaptureJob): void {
  const params = world.scratch.captureParams;
  params[CAPTURE_PARAMS.interval] = job.interval;
  params[CAPTURE_PARAMS.prevDt] = job.prevDt;
  params[CAPTURE_PARAMS.duration] = job.duration;
  params[CAPTURE_PARAMS.clock] = job.clock;
  kernel(
    job.blend.byteOffset + job.blendOff * 4, job.blendOther.byteOffset + job.blendOtherOff * 4, job.p1.byteOffset + job.p1Off * 4,
    job.p2.byteOffset + job.p2Off * 4, job.offsets.byteOffset + job.offsetsOff * 4, job.jointCount, job.mode, params.byteOffset,
  );
}
