/**
 * Root motion through a cross-fade at any frame rate. A layer's root delta spans the whole
 * update while the fade moves its weight through it; rootMotionSystem weighs the deltas at the
 * update's middle (the midpoint rule), so the travel is the integral of the blended velocity up
 * to O(dt²) per fade, where the weights at the update's end were O(dt) off.
 */
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, createClip, parseBvh, play, spawnCharacter, step, transition, type Clip, type Skeleton } from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';
import { readAssetText } from '../support/assets.js';
import { biped } from './locomotion.js';

/** A clip of `skeleton` (the biped) whose hips travel along +Z at `speed` m/s exactly: linear keys, 30 fps, 2 s. */
function steadyWalk(skeleton: Skeleton, speed: number, name: string): Clip {
  const frames: number[] = [];
  for (let f = 0; f <= 60; f++) {
    frames.push(0, 1, speed * (f / 30), 0, 0, 0, 1, 1, 1, 1);
    frames.push(0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: 30, frames, loop: false, name });
}

/** The character's root position (x, z) after playing `from`, then cross-fading to `to` over `fade` s at time `at`, for `seconds` in steps of `dt`. */
function faded(skeleton: Skeleton, from: Clip, to: Clip, fade: number, at: number, seconds: number, dt: number, speed = 1): [number, number] {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
  const eid = spawnCharacter(world, skeleton, { rootMotion: true });
  play(world, eid, from, { loop: false });
  const frames = Math.round(seconds / dt), switchAt = Math.round(at / dt);
  for (let f = 0; f < frames; f++) {
    if (f === switchAt) transition(world, eid, to, { duration: fade, mode: 'crossfade', speed });
    step(world, dt);
  }
  const { RootMotion } = world.components;
  return [RootMotion.x[eid]!, RootMotion.z[eid]!];
}

describe('root motion through a cross-fade', () => {
  it('travels the midpoint rule of the blended velocity: exact for a linear fade but in the frame where it ends', () => {
    const skeleton = biped(1);
    const slow = steadyWalk(skeleton, 1, 'slow'), fast = steadyWalk(skeleton, 2, 'fast');
    const dt = 1 / 30, D = 0.51, frames = 20;
    // Each clip's own speed on this body (the hip-height ratio applied), measured alone.
    const v1 = faded(skeleton, slow, slow, 0, 0, 1, dt)[1], v2 = faded(skeleton, fast, fast, 0, 0, 1, dt)[1];
    expect(v1).toBeCloseTo(1, 5);
    expect(v2).toBeCloseTo(2, 5);
    // By hand: a frame k inside the fade (its end t_k ≤ D) moves dt·(v1 + (v2 − v1)·t_mid/D),
    // t_mid = (k − ½)·dt; the frame the fade ends in, and those after, dt·v2 (the source layer
    // is gone at the fade's end).
    let midpoint = 0, atEnd = 0;
    for (let k = 1; k <= frames; k++) {
      const inside = k * dt < D;
      midpoint += dt * (inside ? v1 + (v2 - v1) * ((k - 0.5) * dt) / D : v2);
      atEnd += dt * (inside ? v1 + (v2 - v1) * (k * dt) / D : v2);
    }
    const exact = D * (v1 + v2) / 2 + (frames * dt - D) * v2; // ∫ v(t) dt
    const z = faded(skeleton, slow, fast, D, 0, frames * dt, dt)[1];
    console.log(`linear cross-fade 1 → 2 m/s over ${D} s at 30 Hz: ${z.toFixed(6)} m; midpoint rule ${midpoint.toFixed(6)}, exact ${exact.toFixed(6)}, end weights ${atEnd.toFixed(6)}`);
    expect(Math.abs(z - midpoint)).toBeLessThan(1e-6);
    expect(Math.abs(z - exact)).toBeLessThan((v2 - v1) * dt * dt / D); // the fade's last frame only
    expect(Math.abs(atEnd - exact)).toBeGreaterThan(0.01); // what the end-of-update weights gave
  });

  it('a CMU walk cross-faded to its 1.8× self: root paths at 30 and 60 Hz within 0.5 mm of 480 Hz', () => {
    const walk = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444, name: 'walk' }).clip;
    const skeleton = walk.skeleton;
    expect(getRootTrack(walk).positions.length).toBeGreaterThan(0);
    // From 4 s into the take (walking), a smoothstep cross-fade over 0.8 s into the walk at 1.8×, 1.6 s on.
    const at = 1, seconds = 2.4;
    const run = (dt: number): [number, number] => {
      const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
      const eid = spawnCharacter(world, skeleton, { rootMotion: true });
      play(world, eid, walk, { loop: false, time: 4 });
      const frames = Math.round(seconds / dt), switchAt = Math.round(at / dt);
      for (let f = 0; f < frames; f++) {
        if (f === switchAt) transition(world, eid, walk, { duration: 0.8, mode: 'crossfade', curve: 'smoothstep', speed: 1.8, time: 5 });
        step(world, dt);
      }
      return [world.components.RootMotion.x[eid]!, world.components.RootMotion.z[eid]!];
    };
    const reference = run(1 / 480);
    const moved = Math.hypot(reference[0], reference[1]);
    expect(moved).toBeGreaterThan(1.5); // a real walk: metres, not millimetres
    for (const hz of [30, 60]) {
      const [x, z] = run(1 / hz);
      const off = Math.hypot(x - reference[0], z - reference[1]);
      console.log(`CMU 131_01 cross-faded to 1.8×: ${hz} Hz ends ${(off * 1000).toFixed(3)} mm from 480 Hz (${moved.toFixed(2)} m travelled)`);
      expect(off).toBeLessThan(0.0005);
    }
  });
});
