/**
 * An in-place clip whose root drifts a little per cycle is no walk: `setTargetSpeed` refuses
 * it (travel per cycle under 5 % of the character's hip height) and names the fix,
 * `rootMotionFromFeet`. Variants made here from the shared assets: the Fox's in-place Walk with
 * 2 mm of drift per cycle added to its root, at the file's size and at 8.7× (a 1.8 m-tall
 * import), and on a figure small enough that 2 mm is a real stride. Real gaits pass: the Fox's
 * Walk and Run given their feet's travel, the CMU capture's walk.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createAnimationWorld, createClip, loadGltf, parseBvh, play, rootMotionFromFeet, setTargetSpeed, spawnCharacter, type Clip,
} from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';
import { computeRestModel } from '../../src/assets/Skeleton.js';
import { MIN_CYCLE_TRAVEL_SHARE } from '../../src/api/rootMotion.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { refused } from '../fixtures/errors.js';
import { assetPath, readAsset } from '../support/assets.js';

const FOX_FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];

/** `clip` with its root joint (joint 0, whose translation is in model space) moved `drift` m along +Z over the cycle, linearly. */
function withDrift(clip: Clip, drift: number): Clip {
  const size = clip.skeleton.jointCount * POSE_STRIDE;
  const frames = Float32Array.from(clip.frames);
  for (let f = 0; f < clip.frameCount; f++) frames[f * size + 2] += (drift * f) / (clip.frameCount - 1);
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: true, name: `${clip.name} drifting` });
}

/** Refusal message of setTargetSpeed(speed) for `clip` on a fresh character of its skeleton, or null when accepted. */
function targetSpeed(clip: Clip, speed: number): string | null {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: clip.skeleton.jointCount });
  const eid = spawnCharacter(world, clip.skeleton, { rootMotion: true });
  play(world, eid, clip);
  try {
    setTargetSpeed(world, eid, speed);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const horizontal = (clip: Clip) => Math.hypot(getRootTrack(clip).cycle[0]!, getRootTrack(clip).cycle[2]!);

describe('setTargetSpeed and in-place clips that drift', () => {
  it('the Fox\'s Walk with 2 mm of drift per cycle is refused, naming rootMotionFromFeet, at its size and at 8.7×', async () => {
    for (const options of [{ scale: 'cm' as const }, { height: 0.79029 * 8.7 }]) {
      const walk = (await loadGltf(readAsset('Fox.glb'), options)).clips.find((c) => c.name === 'Walk')!;
      const drifting = withDrift(walk, 0.002);
      // The drift is what the root track measures (the in-place Walk itself has ~none).
      expect(horizontal(walk)).toBeLessThan(1e-4);
      expect(Math.abs(horizontal(drifting) - 0.002)).toBeLessThan(1e-4);
      const hips = walk.skeleton.hipHeight;
      expect(0.002).toBeLessThan(MIN_CYCLE_TRAVEL_SHARE * hips); // 2 mm against 21 mm (0.43 m hips) or 187 mm
      const message = targetSpeed(drifting, 1.4);
      expect(message).toMatch(/^setTargetSpeed: clip "Walk drifting" travels 2 mm per cycle on this character, under 5 % of its hip height \(\d+(\.\d+)? mm of [\d.]+ m\): it is an in-place clip whose root drifts/);
      expect(message).toContain('rootMotionFromFeet(clip, { feet })');
      // The message docs/in-place-clips.md shows, for the Fox in metres.
      if ('scale' in options) {
        expect(message).toBe('setTargetSpeed: clip "Walk drifting" travels 2 mm per cycle on this character, under 5 % of its hip height (21.5 mm of 0.429381 m): it is an in-place clip whose root drifts, '
          + 'and a target speed would play it far too fast with the feet sliding. Give it the travel of its planted feet with rootMotionFromFeet(clip, { feet }) (docs/in-place-clips.md), or play it without a target speed');
      }
      // Before, it played: 1.4 m/s over 2 mm per 0.708 s cycle would be rate ~496.
      expect(1.4 / (0.002 / walk.duration)).toBeLessThan(1000);
      // Its feet's travel makes it a walk again.
      expect(targetSpeed(rootMotionFromFeet(drifting, { feet: FOX_FEET }), 1.4)).toBeNull();
    }
  });

  it('the threshold is relative: the same 2 mm on a figure with 3 cm hips is a stride, and passes', async () => {
    // Fox hips 0.4294 m at 'cm'; at 0.0007 m per unit they are 3.0 cm: 5 % is 1.5 mm < 2 mm.
    const walk = (await loadGltf(readAsset('Fox.glb'), { scale: 0.0007 })).clips.find((c) => c.name === 'Walk')!;
    expect(MIN_CYCLE_TRAVEL_SHARE * walk.skeleton.hipHeight).toBeLessThan(0.002);
    expect(targetSpeed(withDrift(walk, 0.002), 0.01)).toBeNull();
    // And 1 mm there (under 1.5 mm) is refused.
    expect(targetSpeed(withDrift(walk, 0.001), 0.01)).toMatch(/travels 1 mm per cycle on this character, under 5 % of its hip height \(1\.5 mm of 0\.03\d* m\)/);
  });

  it('real gaits pass: the Fox\'s Walk and Run with their feet\'s travel, and the CMU walk', async () => {
    const { clips } = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
    for (const name of ['Walk', 'Run']) {
      const clip = rootMotionFromFeet(clips.find((c) => c.name === name)!, { feet: FOX_FEET });
      const share = horizontal(clip) / clip.skeleton.hipHeight;
      console.log(`Fox ${name}: ${(horizontal(clip) * 1000).toFixed(1)} mm per cycle, ${(share * 100).toFixed(0)} % of the hips`);
      expect(share, name).toBeGreaterThan(2 * MIN_CYCLE_TRAVEL_SHARE);
      expect(targetSpeed(clip, 1.2), name).toBeNull();
    }
    const capture = parseBvh(readFileSync(assetPath('cmu_131_01_start_walk_stop.bvh'), 'utf8'), { scale: 0.056444, name: 'walk' }).clip;
    // Its rest floats at the hips (hipHeight 0): judged by the hips above the lowest joint.
    expect(capture.skeleton.hipHeight).toBe(0);
    const model = computeRestModel(capture.skeleton.parents, capture.skeleton.rest);
    const ys = Array.from({ length: capture.skeleton.jointCount }, (_, j) => model[j * 12 + 10]!);
    const standing = ys[capture.skeleton.hipJoint]! - Math.min(...ys);
    const share = horizontal(capture) / standing;
    console.log(`CMU 131_01: ${horizontal(capture).toFixed(2)} m over the take, hips ${standing.toFixed(3)} m above the lowest joint: ${(share * 100).toFixed(0)} %`);
    // 2 mm of drift on an in-place cut of it (its first second, looped) is refused.
    // (The take's first second, looped, its root held at frame 0's x and z.)
    const size = capture.skeleton.jointCount * POSE_STRIDE;
    const frames = capture.frames.slice(0, 121 * size);
    for (let f = 1; f <= 120; f++) {
      frames[f * size] = frames[0]!;
      frames[f * size + 2] = frames[2]!;
    }
    const still = createClip({ skeleton: capture.skeleton, frameRate: 120, frames, loop: true, name: 'standing' });
    expect(horizontal(still)).toBeLessThan(1e-6);
    expect(targetSpeed(withDrift(still, 0.002), 1.4)).toMatch(/travels 2 mm per cycle on this character, under 5 % of its hip height \(43\.6 mm of 0\.87\d* m\)/);
    expect(share).toBeGreaterThan(2 * MIN_CYCLE_TRAVEL_SHARE);
    expect(targetSpeed(capture, 1.4)).toBeNull();
  });
});
