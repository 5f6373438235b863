import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, createSkeleton, defaultFrame, insertSystem, play, spawnCharacter, step } from 'bitanim';
import { blendSystem, inertializeSystem, MATRIX_STRIDE, POSE_Q, POSE_STRIDE, sampleSystem, skinSystem } from 'bitanim/kernels';
import { Recoil, recoil, recoilEntities } from './recoilSystem.js';

// Hips 1 m up, a spine 0.5 m above them: small enough to compute every output by hand.
const skeleton = createSkeleton({
  names: ['hips', 'spine'],
  parents: [-1, 0],
  rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, /* spine: */ 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1],
});
// 1 s at 2 frames a second: the hips slide x = 0 → 1 → 0.
const slide = createClip({
  skeleton,
  frameRate: 2,
  frames: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1],
});

/** A world of one character (eid) with the test's skeleton; `frame`: the systems `step` runs. */
function oneCharacter(frame = defaultFrame) {
  const world = createAnimationWorld({ maxEntities: 4, maxJoints: 2, frame });
  const eid = spawnCharacter(world, skeleton);
  return { world, eid, pose: eid * world.maxJoints * POSE_STRIDE, matrices: eid * world.maxJoints * MATRIX_STRIDE };
}

describe('one system alone', () => {
  it('sampleSystem then blendSystem: a quarter second in, the hips are halfway to x = 1', () => {
    const { world, eid, pose } = oneCharacter();
    play(world, eid, slide);
    sampleSystem(world, 0.25); // advances the layer to t = 0.25 and samples it into Layers.pose
    blendSystem(world, 0.25); // the layers → LocalPose
    expect(world.components.LocalPose.data[pose]).toBe(0.5); // lerp(0, 1, 0.5)
    expect(world.time).toBe(0.25); // sampleSystem run alone also moves the clock, as step does
  });

  it('skinSystem: a spine turned 90° about Z carries a vertex 1 m above it from (0, 2.5, 0) to (−1, 1.5, 0)', () => {
    const { world, eid, pose, matrices } = oneCharacter();
    const local = world.components.LocalPose.data;
    local.set(skeleton.rest, pose); // inputs: write the component arrays directly
    local.set([0, 0, Math.SQRT1_2, Math.SQRT1_2], pose + POSE_STRIDE + POSE_Q);
    skinSystem(world, 0);
    // Output: the spine's palette matrix (3×4, column-major) applied to the bind-pose vertex.
    const m = world.components.SkinPalette.data.subarray(matrices + MATRIX_STRIDE, matrices + 2 * MATRIX_STRIDE);
    const [x, y, z] = [0, 1, 2].map((r) => m[r]! * 0 + m[3 + r]! * 2.5 + m[6 + r]! * 0 + m[9 + r]!);
    expect(x).toBeCloseTo(-1, 6);
    expect(y).toBeCloseTo(1.5, 6);
    expect(z).toBeCloseTo(0, 6);
  });

  it('your own system: recoilEntities turns the spine by the kick about its X and halves the kick in 0.1 s', () => {
    const { world, eid, pose } = oneCharacter();
    const spineQ = pose + POSE_STRIDE + POSE_Q;
    world.components.LocalPose.data.set([0, 0, Math.SQRT1_2, Math.SQRT1_2], spineQ); // 90° about Z
    Recoil.kick[eid] = 0.2;
    Recoil.joint[eid] = 1;
    recoilEntities(world, 0.1, 0, world.characters.dense.length); // alone: every character, with dt
    // (0, 0, S, S)·(sin 0.1, 0, 0, cos 0.1) by hand, S = √½: (S sin 0.1, S sin 0.1, S cos 0.1, S cos 0.1).
    const [s, c] = [Math.SQRT1_2 * Math.sin(0.1), Math.SQRT1_2 * Math.cos(0.1)];
    [s, s, c, c].forEach((v, i) => expect(world.components.LocalPose.data[spineQ + i]).toBeCloseTo(v, 6));
    expect(Recoil.kick[eid]).toBeCloseTo(0.1, 6);
    Recoil.kick[eid] = 0;
  });
});

describe('your system inside the frame', () => {
  it('insertSystem puts it after inertialize; step runs it after the blend wrote the clip\'s pose', () => {
    const { world, eid, pose } = oneCharacter(insertSystem(defaultFrame, recoil, { after: 'inertialize' }));
    expect(world.frame.systems.map((s) => s.name)).toEqual(['lod', 'stateMachine', 'sample', 'blend', 'inertialize', 'recoil', 'rootMotion', 'follow', 'aim', 'footLock', 'skin']);
    play(world, eid, slide);
    Recoil.kick[eid] = 0.2;
    Recoil.joint[eid] = 1;
    step(world, 0.25);
    const local = world.components.LocalPose.data;
    expect(local[pose]).toBe(0.5); // the clip, as without the system
    expect(local[pose + POSE_STRIDE + POSE_Q]).toBeCloseTo(Math.sin(0.1), 6); // the kick on top of the clip's (identity) spine
    expect(Recoil.kick[eid]).toBeCloseTo(0.2 * 0.5 ** 2.5, 6); // 0.25 s: two and a half half-lives
    Recoil.kick[eid] = 0;
  });

  it('step is the systems in order: running them one by one gives the same palette, bit for bit', () => {
    const a = oneCharacter(), b = oneCharacter();
    for (const { world, eid } of [a, b]) play(world, eid, slide, { speed: 0.7 });
    for (let frame = 0; frame < 10; frame++) {
      step(a.world, 1 / 30);
      // lodSystem, rootMotionSystem, followSystem and aimSystem have nothing to do here.
      sampleSystem(b.world, 1 / 30);
      blendSystem(b.world, 1 / 30);
      inertializeSystem(b.world, 1 / 30);
      skinSystem(b.world, 1 / 30);
    }
    expect(b.world.components.SkinPalette.data).toEqual(a.world.components.SkinPalette.data);
    expect(b.world.time).toBe(a.world.time);
  });
});

// V8's collector, without restarting node with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes allocated by `frames` calls of `run`, collections during the loop added back. */
function allocatedBy(run: () => void, frames: number): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  profiler.start();
  for (let f = 0; f < frames; f++) run();
  const freed = (profiler.stop()?.statistics ?? []).reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
  return process.memoryUsage().heapUsed - before + freed;
}

describe('allocation', () => {
  it('50,000 frames with the custom system allocate under 8 bytes a frame (a boxed number each would be 16)', () => {
    const { world, eid } = oneCharacter(insertSystem(defaultFrame, recoil, { after: 'inertialize' }));
    play(world, eid, slide);
    Recoil.joint[eid] = 1;
    const frame = (): void => {
      Recoil.kick[eid] = 0.1;
      step(world, 1 / 60);
    };
    for (let f = 0; f < 10_000; f++) frame(); // warm up: code not yet optimized boxes numbers
    // The smallest of up to 8 runs, 100 ms apart: on a busy machine V8's optimizing compiler may
    // finish late, while an allocation in the frame shows in every run (test/support/allocation.ts).
    let smallest = Infinity;
    for (let run = 0; run < 8 && smallest >= 4 * 50_000; run++) {
      if (run > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      smallest = Math.min(smallest, allocatedBy(frame, 50_000));
    }
    expect(smallest).toBeLessThan(8 * 50_000);
    Recoil.kick[eid] = 0;
  });
});
