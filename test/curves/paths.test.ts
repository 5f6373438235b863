/**
 * Float curves on every path of the frame: `stepParallel` equals `step` bit for bit (values and
 * transition slots), the WebAssembly kernels give the JavaScript kernels' curves within 1e-6
 * (the curves are blended on JavaScript after the wasm pose blend: docs/how-it-works.md), and a
 * frame of 1,000 characters × 8 curves allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, disposeAnimationWorld, step, stepParallel, transition, type AnimationWorld, type TransitionOptions } from '../../src/index.js';
import { smallestAllocation } from '../support/allocation.js';
import { drive, spawnCurveCrowd } from './crowd.js';

const DT = 1 / 60;

function curvesOf(world: AnimationWorld): Float32Array {
  const { values, count, maxCurves } = world.components.Curves;
  const out: number[] = [];
  for (const eid of world.characters.dense) for (let c = 0; c < count[eid]!; c++) out.push(values[eid * maxCurves + c]!);
  return Float32Array.from(out);
}

describe('curves on every path', () => {
  it('stepParallel (2 threads) equals step bit for bit with curves: values, pose, curve slots', async () => {
    const run = async (threads: number): Promise<{ curves: Float32Array; pose: Float32Array; slots: Float32Array }> => {
      const world = createAnimationWorld({ maxEntities: 300, maxJoints: 16, threads, maxTransitions: 300, kernels: 'js' });
      const crowd = spawnCurveCrowd(world, 300);
      for (let frame = 0; frame < 120; frame++) {
        drive(world, crowd, frame);
        if (threads === 1) step(world, DT);
        else await stepParallel(world, DT);
      }
      const result = { curves: curvesOf(world), pose: world.components.LocalPose.data.slice(), slots: world.components.Curves.slots.slice() };
      disposeAnimationWorld(world);
      return result;
    };
    const one = await run(1), two = await run(2);
    expect(one.curves.length).toBe(300 * 8);
    expect(new Set(one.curves).size).toBeGreaterThan(100); // moving curves, not defaults
    expect(Buffer.from(two.curves.buffer).equals(Buffer.from(one.curves.buffer))).toBe(true);
    expect(Buffer.from(two.slots.buffer).equals(Buffer.from(one.slots.buffer))).toBe(true);
    expect(Buffer.from(two.pose.buffer).equals(Buffer.from(one.pose.buffer))).toBe(true);
  });

  it('WebAssembly kernels: the same curves as the JavaScript kernels within 1e-6', () => {
    const run = (kernels: 'js' | 'wasm'): Float32Array => {
      const world = createAnimationWorld({ maxEntities: 200, maxJoints: 16, kernels, maxTransitions: 200 });
      expect(world.kernels).toBe(kernels);
      const crowd = spawnCurveCrowd(world, 200);
      for (let frame = 0; frame < 120; frame++) {
        drive(world, crowd, frame);
        step(world, DT);
      }
      return curvesOf(world);
    };
    const js = run('js'), wasm = run('wasm');
    let worst = 0;
    for (let i = 0; i < js.length; i++) worst = Math.max(worst, Math.abs(js[i]! - wasm[i]!));
    console.log(`[curves] wasm vs js: max |Δ| ${worst.toExponential(2)} over ${js.length} curve values`);
    expect(js.length).toBe(200 * 8);
    expect(worst).toBeLessThan(1e-6);
  });

  it('step allocates nothing per frame: 1,000 characters × 8 curves, transitions of all modes running (under 2 KB a frame)', () => {
    const world = createAnimationWorld({ maxEntities: 1000, maxJoints: 16, maxEvents: 256, kernels: 'js', maxTransitions: 1000 });
    const crowd = spawnCurveCrowd(world, 1000);
    for (let frame = 0; frame < 30; frame++) {
      drive(world, crowd, frame);
      step(world, DT);
    }
    // Long transitions of the three modes in flight through the measured frames (their captures in the warm-up).
    crowd.eids.forEach((eid, i) => {
      const options = [{ duration: 60 }, { duration: 60, mode: 'spring', halfLife: 20 }, { duration: 60, mode: 'crossfade' }][i % 3]!;
      transition(world, eid, crowd.clips[(i + 1) % 4]!, options as TransitionOptions);
    });
    step(world, DT);
    expect(world.components.Inertialization.mode[crowd.eids[0]!]).not.toBe(0);
    const FRAMES = 200;
    const allocated = smallestAllocation(() => step(world, DT), { calls: FRAMES, bound: FRAMES * 2048, warmUp: 50 });
    console.log(`[curves] ${FRAMES} frames × 1,000 characters × 8 curves: ${allocated} bytes allocated (the smallest run)`);
    expect(allocated).toBeLessThan(FRAMES * 2048);
    expect(world.components.Inertialization.mode[crowd.eids[0]!]).not.toBe(0); // still decaying: the measured frames applied offsets
  });

});
