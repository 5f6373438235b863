/**
 * The cost difference between inertialization and a cross-fade: after the switch frame an
 * inertializing character samples only the new clip, while a cross-fade keeps sampling the
 * old one until its weight reaches 0. Shown by poisoning the old clip's frames with NaN right
 * after the switch frame (clips are frozen objects, but the contents of their Float32Array
 * are writable; the frames are restored afterwards) — and the copy the WebAssembly kernels
 * sample, on a world that runs them.
 */
import { describe, expect, it } from 'vitest';
import { getLocalPose, getModelMatrices, getSkinPalette, step, type AnimationWorld, type Clip, type TransitionOptions } from '../../src/index.js';
import { copiedClipFrames } from '../../src/wasm/kernels.js';
import { allFinite, expectPoseClose, FRAME_DT } from './helpers.js';
import { B_MOVING, switchScene, T1 } from './scene.js';

/**
 * Runs `body` with every float of `clip.frames` set to NaN — and of the copy `world`'s
 * WebAssembly kernels sample, if they have one — then restores them.
 */
function withPoisonedFrames(world: AnimationWorld, clip: Clip, body: () => void): void {
  const copy = world.wasm === null ? null : copiedClipFrames(world.wasm, clip);
  const poisoned = copy === null ? [clip.frames] : [clip.frames, copy];
  const saved = poisoned.map((frames) => frames.slice());
  for (const frames of poisoned) frames.fill(Number.NaN);
  try {
    body();
  } finally {
    poisoned.forEach((frames, i) => frames.set(saved[i]!));
  }
}

/** Switches A → B with `options` at 60 Hz, runs the switch frame, then `frames` frames with A poisoned. */
function poisonedRun(options: TransitionOptions, frames: number): { finite: boolean[]; scene: ReturnType<typeof switchScene> } {
  const scene = switchScene(options, B_MOVING, FRAME_DT);
  step(scene.world, FRAME_DT); // the switch frame: the last one allowed to read A
  const finite: boolean[] = [];
  withPoisonedFrames(scene.world, scene.a, () => {
    for (let n = 0; n < frames; n++) {
      step(scene.world, FRAME_DT);
      finite.push(
        allFinite(getLocalPose(scene.world, scene.eid)) &&
          allFinite(getModelMatrices(scene.world, scene.eid)) &&
          allFinite(getSkinPalette(scene.world, scene.eid)),
      );
    }
  });
  return { finite, scene };
}

describe('reads of the source clip after the switch frame', () => {
  it('inertialization reads none: every later output stays finite with the source clip poisoned', () => {
    const frames = Math.ceil((T1 + 0.3) / FRAME_DT);
    const { finite, scene } = poisonedRun({ duration: T1 }, frames);
    expect(finite.filter((ok) => !ok).length).toBe(0);
    expect(finite.length).toBe(frames);
    // …and still arrives on B.
    expectPoseClose(getLocalPose(scene.world, scene.eid), getLocalPose(scene.world, scene.ref), 1e-5);
  });

  it('spring inertialization reads none either', () => {
    const { finite } = poisonedRun({ duration: T1, mode: 'spring' }, 60);
    expect(finite.filter((ok) => !ok).length).toBe(0);
  });

  it.each(['linear', 'minjerk'] as const)('a %s cross-fade does: its output is NaN while the source still has weight', (curve) => {
    const frames = Math.ceil((T1 + 0.3) / FRAME_DT);
    const { finite } = poisonedRun({ duration: T1, mode: 'crossfade', curve }, frames);
    // Frames 1 … until the fade ends read A (weight > 0); once its slot is emptied, nothing does.
    const fadeFrames = Math.round(T1 / FRAME_DT) - 1; // the switch frame used 1 of the 30
    const bad = finite.map((ok, n) => (ok ? -1 : n)).filter((n) => n >= 0);
    console.log(`[transitions] ${curve} cross-fade: ${bad.length} of ${frames} frames after the switch frame read the poisoned source`);
    expect(bad.length).toBeGreaterThanOrEqual(fadeFrames - 1);
    expect(bad.length).toBeLessThanOrEqual(fadeFrames);
    expect(bad).toEqual(bad.map((_, i) => i)); // from the first frame after the switch, without a gap
    expect(finite[finite.length - 1]).toBe(true);
  });

  it('a frozen cross-fade still samples the (held) source every frame', () => {
    const { finite } = poisonedRun({ duration: T1, mode: 'crossfade', frozen: true }, 10);
    expect(finite.every((ok) => !ok)).toBe(true);
  });
});
