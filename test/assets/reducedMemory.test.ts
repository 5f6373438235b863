/**
 * A reduced clip holds its curves and no dense frames: what it costs in bytes, and how readers
 * of frames (root-motion tracks, difference clips, reducing again) get them from the curves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isClip } from '../../src/assets/Clip.js';
import {
  createAnimationWorld, createBlendSpace, createDifferenceClip, expandFrames, getRootTrack, parseBvh, play, reduceClip,
  sampleClipInto, spawnCharacter, type Clip,
} from '../../src/index.js';
import { CMU_SCALE } from '../fixtures/realClips.js';

const WALK = new URL('../../../shared/assets/cmu_131_01_start_walk_stop.bvh', import.meta.url);

/** `clip` with its expanded frames as a plain (unvalidated, unnormalized) dense clip. */
function expanded(clip: Clip): Clip {
  return { ...clip, frames: expandFrames(clip), reduced: null, stats: null };
}

/** Sum of the byteLength of every typed array `object` holds (one level deep). */
function typedArrayBytes(object: object): number {
  let bytes = 0;
  for (const value of Object.values(object)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}

describe('reduced clip memory', () => {
  const walk = parseBvh(readFileSync(WALK, 'utf8'), { scale: CMU_SCALE, name: 'walk' }).clip;
  const reduced = reduceClip(walk, { tolerance: 0.005 });

  it('holds no frames; stats.bytes is every array of its curves, sourceBytes the dense frames', () => {
    expect(reduced.frames.length).toBe(0);
    const sourceBytes = walk.frameCount * walk.skeleton.jointCount * 10 * 4;
    expect(reduced.stats!.sourceBytes).toBe(sourceBytes);
    expect(reduced.stats!.bytes).toBe(typedArrayBytes(reduced.reduced!));
    expect(reduced.stats!.bytes).toBe(reduced.reduced!.byteLength);
  });

  it('is at least 5× smaller than its source on the CMU walk at 5 mm', () => {
    const sourceBytes = walk.frameCount * walk.skeleton.jointCount * 10 * 4;
    const bytes = typedArrayBytes(reduced.reduced!) + reduced.frames.byteLength;
    expect(sourceBytes / bytes).toBeGreaterThanOrEqual(5);
  });

  it('expandFrames gives the curves at the frame times, within the tolerance of the source there', () => {
    const frames = expandFrames(reduced);
    expect(frames.length).toBe(walk.frames.length);
    const poseSize = walk.skeleton.jointCount * 10;
    const pose = new Float32Array(poseSize);
    for (const f of [0, 1, 137, walk.frameCount - 1]) {
      sampleClipInto(pose, 0, reduced, Float64Array.of(f / walk.frameRate), 0);
      expect(Array.from(frames.subarray(f * poseSize, (f + 1) * poseSize))).toEqual(Array.from(pose));
    }
  });

  it('its root track comes from the curves at the frame times: the hips within the tolerance of the source', () => {
    const a = getRootTrack(walk);
    const b = getRootTrack(reduced);
    expect(b.positions.length).toBe(a.positions.length);
    let worst = 0;
    for (let f = 0; f < walk.frameCount; f++) {
      worst = Math.max(worst, Math.hypot(a.positions[3 * f]! - b.positions[3 * f]!, a.positions[3 * f + 1]! - b.positions[3 * f + 1]!, a.positions[3 * f + 2]! - b.positions[3 * f + 2]!));
    }
    // The hips are a joint: reduceClip bounds their model-space error by the tolerance.
    expect(worst).toBeLessThanOrEqual(0.005);
    expect(worst).toBeGreaterThan(0); // the curves, not the source's frames
    // And the same track as a dense clip of the expanded frames, float for float.
    const dense = getRootTrack(expanded(reduced));
    expect(Array.from(b.positions)).toEqual(Array.from(dense.positions));
    expect(Array.from(b.yaw)).toEqual(Array.from(dense.yaw));
  });

  it('a difference clip of a reduced source takes the curves at the frame times', () => {
    const difference = createDifferenceClip(reduced, walk, { referenceTime: 0 });
    const expected = createDifferenceClip(expanded(reduced), walk, { referenceTime: 0 });
    expect(Array.from(difference.frames)).toEqual(Array.from(expected.frames));
  });

  it('reducing a reduced clip reduces its curves at the frame times', () => {
    const again = reduceClip(reduced, { tolerance: 0.01 });
    expect(again.frames.length).toBe(0);
    expect(again.stats!.keysAfter).toBeLessThanOrEqual(reduced.stats!.keysAfter);
  });
});

describe('isClip with reduced clips', () => {
  it('accepts reduced clips (empty frames beside curves) where clips are taken; refuses empty frames without curves', () => {
    const walk = parseBvh(readFileSync(WALK, 'utf8'), { scale: CMU_SCALE, name: 'walk' }).clip;
    const short = reduceClip(walk, { tolerance: 0.01 });
    expect(isClip(short)).toBe(true);
    const hollow: Clip = { ...walk, frames: new Float32Array(0) };
    expect(isClip(hollow)).toBe(false);
    expect(isClip({ ...short, reduced: null })).toBe(false);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 31 });
    const eid = spawnCharacter(world, walk.skeleton);
    expect(() => play(world, eid, short)).not.toThrow();
    expect(() => play(world, eid, hollow)).toThrow(/must be a Clip/);
    expect(() => createBlendSpace({ type: '1d', samples: [{ clip: short, x: 0 }, { clip: walk, x: 1 }] })).not.toThrow();
  });
});
