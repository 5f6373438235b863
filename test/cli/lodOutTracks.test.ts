/**
 * The per-track choices of `bitanim lod --out`'s small files (`src/export/gltfCompact.ts`) on a
 * hand-made clip whose tracks are known: at rest, constant off rest, smooth, and one turning too
 * fast between two frames for glTF's slerp to play as the runtime's nlerp; then the file
 * compressed (`src/export/meshoptGlb.ts`) and read back by bitanim's loader.
 */
import { describe, expect, it } from 'vitest';
import { createClip, type Clip } from '../../src/assets/Clip.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import { createSkeleton } from '../../src/assets/Skeleton.js';
import { compactTracks, writeCompactAnimation, type CompactTrack } from '../../src/export/gltfCompact.js';
import { createSkeletonDocument, writeGltfBytes } from '../../src/export/gltfAnimation.js';
import { compressGlb, meshoptReady, roundTripFilter } from '../../src/export/meshoptGlb.js';
import { loadGltf } from '../../src/import/gltf.js';
import { POSE_STRIDE } from '../../src/math/layout.js';
import { measureModelError } from '../../src/offline/lod/modelError.js';
import { reduceClip } from '../../src/offline/lod/reduceClip.js';

const FRAMES = 31, RATE = 30, TOLERANCE = 0.001, DISTANCE = 0.1;

/**
 * Three joints in a chain (0.5 m apart, 1 m up), 31 frames at 30 fps: the root slides along x;
 * joint 1 holds 30° about z (its rest is unturned); joint 2 turns about x — smoothly, or with
 * `fast` by 160° between frames 15 and 16. Everything else stays at rest.
 */
function chain(fast: boolean): Clip {
  const rest = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1];
  const skeleton = createSkeleton({ names: ['root', 'mid', 'tip'], parents: [-1, 0, 1], rest });
  const frames = new Float32Array(FRAMES * 3 * POSE_STRIDE);
  for (let f = 0; f < FRAMES; f++) {
    const t = f / RATE;
    frames.set(rest, f * 3 * POSE_STRIDE);
    frames[f * 30] = 0.2 * Math.sin(2 * t);
    frames.set([0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)], f * 30 + 10 + 3);
    const angle = fast ? (f < 16 ? 0.02 * f : 0.02 * f + (160 * Math.PI) / 180) : 1.5 * t * t;
    frames.set([Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)], f * 30 + 20 + 3);
  }
  return createClip({ skeleton, frameRate: RATE, frames, name: 'chain' });
}

function kinds(tracks: readonly CompactTrack[]): string[] {
  return tracks.map((t) => `${t.joint} ${t.path} ${t.kind}`);
}

/** The source as the runtime plays it at 5 instants per frame interval. */
function played(source: Clip, count: number): Clip {
  const rate = RATE * 5, size = 3 * POSE_STRIDE;
  const frames = new Float32Array(count * size);
  const times = Float64Array.from({ length: count }, (_, k) => Math.min(k / rate, source.duration));
  for (let k = 0; k < count; k++) sampleClipInto(frames, k * size, source, times, k);
  return { ...source, frames, frameCount: count, frameRate: rate, duration: (count - 1) / rate };
}

describe('compactTracks and the compressed file', () => {
  for (const fast of [false, true]) {
    it(fast ? 'a turn too fast for slerp is written as the reduced keys' : 'tracks at rest dropped, a held value constant, moving ones uniform frames; read back within the tolerance', async () => {
      await meshoptReady();
      const source = chain(fast);
      const reduced = reduceClip(source, { tolerance: TOLERANCE, distance: DISTANCE });
      const { document, joints } = createSkeletonDocument(source.skeleton);
      const tracks = compactTracks(source, reduced, joints, { tolerance: TOLERANCE, distance: DISTANCE, share: 0.8, keys: 'needed' });
      expect(kinds(tracks)).toEqual([
        '0 translation uniform', '0 rotation dropped', '0 scale dropped',
        '1 translation dropped', '1 rotation constant', '1 scale dropped',
        '2 translation dropped', `2 rotation ${fast ? 'keys' : 'uniform'}`, '2 scale dropped',
      ]);
      // Held 30° about z, written once.
      expect(Array.from(tracks[4]!.values).map((v) => Number(v.toFixed(6)))).toEqual([0, 0, Number(Math.sin(Math.PI / 12).toFixed(6)), Number(Math.cos(Math.PI / 12).toFixed(6))]);
      // Each uniform track's filter keeps its values within the track's precision.
      for (const t of tracks.filter((t) => t.kind === 'uniform')) {
        const values = Float32Array.from(t.values);
        const back = roundTripFilter(values, FRAMES, t.size, t.filter);
        let worst = 0;
        for (let i = 0; i < values.length; i += t.size) {
          const sign = t.size === 4 && values[i]! * back[i]! + values[i + 1]! * back[i + 1]! + values[i + 2]! * back[i + 2]! + values[i + 3]! * back[i + 3]! < 0 ? -1 : 1;
          for (let c = 0; c < t.size; c++) worst = Math.max(worst, Math.abs(values[i + c]! - sign * back[i + c]!));
        }
        expect(worst, `${t.joint} ${t.path}`).toBeLessThanOrEqual(t.precision);
        expect(t.filter.filter).toBe(t.path === 'rotation' ? 'QUATERNION' : 'EXPONENTIAL');
      }

      writeCompactAnimation(document, document.createAnimation('chain'), tracks, joints, source.frameCount, source.duration);
      const { glb, views } = compressGlb(await writeGltfBytes(document, 'glb', true));
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))));
      const animation = json.animations[0];
      expect(animation.channels).toHaveLength(3);
      const uniform = animation.samplers.filter((s: { interpolation: string; input: number }) => s.interpolation === 'LINEAR' && json.accessors[s.input].count === FRAMES);
      expect(uniform).toHaveLength(fast ? 1 : 2);
      expect(new Set(uniform.map((s: { input: number }) => s.input)).size).toBe(1); // one input for every uniform track
      expect(json.extensionsRequired).toEqual(['EXT_meshopt_compression']);
      expect(views.every((v) => v.use === 'image' || v.stored <= v.bytes + 64)).toBe(true);

      // Read back by bitanim at 5 instants per frame interval: the source within the tolerance.
      const written = (await loadGltf(glb, { frameRate: RATE * 5, tolerance: 1e300 })).clips[0]!;
      const error = measureModelError(played(source, written.frameCount), written.frames, { subdivisions: 0, distance: DISTANCE }).maxError;
      expect(error).toBeLessThanOrEqual(TOLERANCE);
      if (fast) {
        // The same turn as uniform frames: glTF's slerp across the 160° step is far from the runtime's nlerp.
        const frames = compactTracks(source, null, joints, { tolerance: TOLERANCE, distance: DISTANCE, share: 0.8 });
        expect(kinds(frames)[7]).toBe('2 rotation uniform');
        const other = createSkeletonDocument(source.skeleton);
        writeCompactAnimation(other.document, other.document.createAnimation('chain'), frames, other.joints, source.frameCount, source.duration);
        const slerped = (await loadGltf(compressGlb(await writeGltfBytes(other.document, 'glb', true)).glb, { frameRate: RATE * 5, tolerance: 1e300 })).clips[0]!;
        expect(measureModelError(played(source, slerped.frameCount), slerped.frames, { subdivisions: 0, distance: DISTANCE }).maxError).toBeGreaterThan(5 * TOLERANCE);
      }
    });
  }
});
