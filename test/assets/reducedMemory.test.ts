/**
 * A reduced clip holds its curves and no dense frames: what it costs in bytes, and how readers
 * of frames (root-motion tracks, difference clips, reducing again) get them from the curves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isClip } from '../../src/assets/Clip.js';
import { createAnimationWorld, createBlendSpace, createDifferenceClip, parseBvh, play, spawnCharacter, type Clip } from '../../src/index.js';
import { getRootTrack, sampleClipInto } from '../../src/kernels.js';
import { expandFrames, reduceClip } from '../../src/lod.js';
import { splineTracks } from '../../src/export/gltfAnimation.js';
import { CUBICSPLINE, sampleTrack } from '../../src/import/gltf/sampler.js';
import { defaultErrorDistance, measureModelError } from '../../src/offline/lod/modelError.js';
import { CMU_SCALE } from '../fixtures/realClips.js';
import { assetPath } from '../support/assets.js';

const WALK = assetPath('cmu_131_01_start_walk_stop.bvh');

/** `clip` with its expanded frames as a plain (unvalidated, unnormalized) dense clip. */
function expanded(clip: Clip): Clip {
  return { ...clip, frames: expandFrames(clip), reduced: null, stats: null };
}

/** Bytes of the memory the typed arrays `object` holds (one level deep) sit in: each buffer once. */
function typedArrayBytes(object: object): number {
  const buffers = new Set<ArrayBufferLike>();
  for (const value of Object.values(object)) if (ArrayBuffer.isView(value)) buffers.add(value.buffer);
  let bytes = 0;
  for (const buffer of buffers) bytes += buffer.byteLength;
  return bytes;
}

describe('reduced clip memory', () => {
  const walk = parseBvh(readFileSync(WALK, 'utf8'), { scale: CMU_SCALE, name: 'walk' }).clip;
  const reduced = reduceClip(walk, { tolerance: 0.005, quantize: false });
  const quantized = reduceClip(walk, { tolerance: 0.005 }); // the default: 16-bit tracks where the tolerance allows

  it('holds no frames; stats.bytes is every array of its curves, sourceBytes the dense frames', () => {
    expect(reduced.frames.length).toBe(0);
    const sourceBytes = walk.frameCount * walk.skeleton.jointCount * 10 * 4;
    expect(reduced.stats!.sourceBytes).toBe(sourceBytes);
    expect(reduced.stats!.bytes).toBe(typedArrayBytes(reduced.reduced!));
    expect(reduced.stats!.bytes).toBe(reduced.reduced!.byteLength);
  });

  it('with defaults (16-bit tracks) is at least 5× smaller than its source on the CMU walk at 5 mm, within the bound', () => {
    const sourceBytes = walk.frameCount * walk.skeleton.jointCount * 10 * 4;
    const bytes = typedArrayBytes(quantized.reduced!) + quantized.frames.byteLength;
    expect(quantized.stats!.bytes).toBe(bytes);
    expect(sourceBytes / bytes).toBeGreaterThanOrEqual(5);
    // 32-bit (`quantize: false`) holds more: the same keys at 4 + 16m bytes a record, not 8 + 8m.
    const float = typedArrayBytes(reduced.reduced!);
    expect(bytes).toBeLessThan(0.75 * float);
    expect(sourceBytes / float).toBeGreaterThan(3);
    console.log(`CMU walk at 5 mm: ${sourceBytes} bytes of frames; reduced ${float} (${(sourceBytes / float).toFixed(2)}×), 16-bit ${bytes} (${(sourceBytes / bytes).toFixed(2)}×)`);
    // The bound, measured again here on what the runtime samples (the curves themselves, at the
    // frames and between them, with the default error shell as reduceClip measures it).
    const error = measureModelError(walk, quantized, { distance: defaultErrorDistance(walk.skeleton) });
    expect(error.maxError).toBeLessThanOrEqual(0.005);
    expect(quantized.stats!.maxError).toBeCloseTo(error.maxError, 9);
    expect(quantized.reduced!.packedTracks).toBeGreaterThan(0);
  });

  it('16-bit tracks export to glTF CUBICSPLINE keys that play what the sampler plays, as 32-bit ones do', () => {
    for (const clip of [reduced, quantized]) {
      const tracks = splineTracks(clip.reduced!);
      const pose = new Float32Array(walk.skeleton.jointCount * 10);
      const value = new Float64Array(4);
      let worstT = 0, worstQ = 0;
      for (const t of [0, 0.123, 1.5, 4.2, clip.duration * 0.77]) {
        sampleClipInto(pose, 0, clip, Float64Array.of(t), 0);
        for (const track of tracks) {
          sampleTrack({ times: track.times, values: track.values, size: track.size, interpolation: CUBICSPLINE }, t, value, 0);
          const o = track.joint * 10 + (track.path === 'translation' ? 0 : track.path === 'rotation' ? 3 : 7);
          if (track.path === 'rotation') {
            const n = Math.hypot(value[0]!, value[1]!, value[2]!, value[3]!);
            const sign = Math.sign(value[0]! * pose[o]! + value[1]! * pose[o + 1]! + value[2]! * pose[o + 2]! + value[3]! * pose[o + 3]!) || 1;
            for (let c = 0; c < 4; c++) worstQ = Math.max(worstQ, Math.abs((sign * value[c]!) / n - pose[o + c]!));
          } else {
            for (let c = 0; c < 3; c++) worstT = Math.max(worstT, Math.abs(value[c]! - pose[o + c]!));
          }
        }
      }
      // 32-bit key times, values and tangents over a walk metres long (measured 2.0e-5 m at most,
      // on the shorter segments the bound between frames keeps); rotation keys made unit (ROTATION_FIT).
      expect(worstT).toBeLessThan(5e-5);
      expect(worstQ).toBeLessThan(1e-4);
    }
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
